/* 2-D Jacobi 5-point stencil, ping-pong between two grids; the interior is
 * bounded with <= (PolyBench jacobi-2d, integer averages). */
#include <stdlib.h>

#include "jacobi_2d.h"

static data_t avg5(data_t c, data_t n, data_t s, data_t w, data_t e) {
  return (c + n + s + w + e) / 5;
}

void jacobi_2d(data_t A[N][N], data_t B[N][N]) {
  for (int t = 0; t < TSTEPS; t++) {
    for (int i = 1; i <= N - 2; i++)
      for (int j = 1; j <= N - 2; j++)
        B[i][j] = avg5(A[i][j], A[i - 1][j], A[i + 1][j], A[i][j - 1], A[i][j + 1]);
    for (int i = 1; i <= N - 2; i++)
      for (int j = 1; j <= N - 2; j++)
        A[i][j] = avg5(B[i][j], B[i - 1][j], B[i + 1][j], B[i][j - 1], B[i][j + 1]);
  }
}

int main(void) {
  data_t A[N][N], B[N][N];
  srand(11);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = rand() % 20001 - 10000;
      B[i][j] = A[i][j];
    }
  jacobi_2d(A, B);
  return 0;
}
