/* Needleman-Wunsch global alignment: fill the score matrix, then trace back
 * with a data-dependent while loop (the layout of MachSuite nw). */
#include <stdlib.h>

#include "nw.h"

static score_t max3(score_t a, score_t b, score_t c) {
  score_t m = a > b ? a : b;
  return m > c ? m : c;
}

int nw(const seq_t seqA[ALEN], const seq_t seqB[BLEN], seq_t alignedA[ALIGN_LEN],
       seq_t alignedB[ALIGN_LEN], score_t M[ALEN + 1][BLEN + 1],
       uint8_t ptr[ALEN + 1][BLEN + 1]) {
  for (int a = 0; a <= ALEN; a++) {
    M[a][0] = (score_t)(a * GAP_SCORE);
    ptr[a][0] = UP;
  }
  for (int b = 0; b <= BLEN; b++) {
    M[0][b] = (score_t)(b * GAP_SCORE);
    ptr[0][b] = LEFT;
  }
  for (int a = 1; a <= ALEN; a++)
    for (int b = 1; b <= BLEN; b++) {
      score_t s = seqA[a - 1] == seqB[b - 1] ? MATCH_SCORE : MISMATCH_SCORE;
      score_t diag = (score_t)(M[a - 1][b - 1] + s);
      score_t up = (score_t)(M[a - 1][b] + GAP_SCORE);
      score_t left = (score_t)(M[a][b - 1] + GAP_SCORE);
      score_t best = max3(diag, up, left);
      M[a][b] = best;
      ptr[a][b] = best == diag ? DIAG : best == up ? UP : LEFT;
    }
  int a = ALEN, b = BLEN, n = 0;
  while (a > 0 || b > 0) {
    uint8_t dir = a == 0 ? LEFT : b == 0 ? UP : ptr[a][b];
    if (dir == DIAG) {
      alignedA[n] = seqA[--a];
      alignedB[n] = seqB[--b];
    } else if (dir == UP) {
      alignedA[n] = seqA[--a];
      alignedB[n] = '-';
    } else {
      alignedA[n] = '-';
      alignedB[n] = seqB[--b];
    }
    n++;
  }
  for (int i = n; i < ALIGN_LEN; i++) {
    alignedA[i] = '_';
    alignedB[i] = '_';
  }
  return n;
}

int main(void) {
  const char alphabet[4] = {'A', 'C', 'G', 'T'};
  seq_t seqA[ALEN], seqB[BLEN], alignedA[ALIGN_LEN], alignedB[ALIGN_LEN];
  score_t M[ALEN + 1][BLEN + 1];
  uint8_t ptr[ALEN + 1][BLEN + 1];
  srand(14);
  for (int i = 0; i < ALEN; i++)
    seqA[i] = (seq_t)alphabet[rand() % 4];
  for (int i = 0; i < BLEN; i++)
    seqB[i] = (seq_t)alphabet[rand() % 4];
  for (int i = 0; i < ALIGN_LEN; i++)
    alignedA[i] = alignedB[i] = 0;
  for (int a = 0; a <= ALEN; a++)
    for (int b = 0; b <= BLEN; b++) {
      M[a][b] = 0;
      ptr[a][b] = 0;
    }
  nw(seqA, seqB, alignedA, alignedB, M, ptr);
  return 0;
}
