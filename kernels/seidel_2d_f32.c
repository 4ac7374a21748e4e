/* 2-D Gauss-Seidel sweeps in single precision, updated in place: each point
 * reads neighbours already updated this sweep (PolyBench seidel-2d,
 * DATA_TYPE float). */
#include "seidel_2d_f32.h"

void seidel_2d_f32(float A[N][N]) {
  for (int t = 0; t <= TSTEPS - 1; t++)
    for (int i = 1; i <= N - 2; i++)
      for (int j = 1; j <= N - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j] +
                   A[i][j + 1] + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0f;
}

int main(void) {
  float A[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = ((float)i * (j + 2) + 2) / N;
  seidel_2d_f32(A);
  return 0;
}
