/* BiCG sub-kernel: s := r^T A and q := A p in one sweep (PolyBench bicg). */
#include <stdlib.h>

#include "bicg.h"

void bicg(const data_t A[N][M], data_t s[M], data_t q[N], const data_t p[M],
          const data_t r[N]) {
  for (int j = 0; j < M; j++)
    s[j] = 0;
  for (int i = 0; i < N; i++) {
    q[i] = 0;
    for (int j = 0; j < M; j++) {
      s[j] += r[i] * A[i][j];
      q[i] += A[i][j] * p[j];
    }
  }
}

int main(void) {
  data_t A[N][M], s[M], q[N], p[M], r[N];
  srand(4);
  for (int i = 0; i < N; i++) {
    r[i] = rand() % 50 - 25;
    q[i] = 0;
    for (int j = 0; j < M; j++)
      A[i][j] = rand() % 50 - 25;
  }
  for (int j = 0; j < M; j++) {
    p[j] = rand() % 50 - 25;
    s[j] = 0;
  }
  bicg(A, s, q, p, r);
  return 0;
}
