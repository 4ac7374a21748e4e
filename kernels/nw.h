#ifndef NW_H
#define NW_H

#include <stdint.h>

#define ALEN 16
#define BLEN 16
#define MATCH_SCORE 1
#define MISMATCH_SCORE (-1)
#define GAP_SCORE (-1)
#define ALIGN_LEN (ALEN + BLEN)

#define DIAG 0
#define UP 1
#define LEFT 2

typedef uint8_t seq_t;
typedef int16_t score_t;

int nw(const seq_t seqA[ALEN], const seq_t seqB[BLEN], seq_t alignedA[ALIGN_LEN],
       seq_t alignedB[ALIGN_LEN], score_t M[ALEN + 1][BLEN + 1],
       uint8_t ptr[ALEN + 1][BLEN + 1]);

#endif
