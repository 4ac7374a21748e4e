/* y := A^T (A x): a matrix-vector product and a transposed one (PolyBench atax). */
#include <stdlib.h>

#include "atax.h"

void atax(const data_t A[M][N], const data_t x[N], data_t y[N], data_t tmp[M]) {
  for (int j = 0; j < N; j++)
    y[j] = 0;
  for (int i = 0; i < M; i++) {
    tmp[i] = 0;
    for (int j = 0; j < N; j++)
      tmp[i] += A[i][j] * x[j];
    for (int j = 0; j < N; j++)
      y[j] += A[i][j] * tmp[i];
  }
}

int main(void) {
  data_t A[M][N], x[N], y[N], tmp[M];
  srand(3);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = rand() % 21 - 10;
  for (int j = 0; j < N; j++) {
    x[j] = rand() % 21 - 10;
    y[j] = 0;
  }
  for (int i = 0; i < M; i++)
    tmp[i] = 0;
  atax(A, x, y, tmp);
  return 0;
}
