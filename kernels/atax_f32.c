/* y := A^T (A x) in single precision (PolyBench atax, DATA_TYPE float). */
#include "atax_f32.h"

void atax_f32(const float A[M][N], const float x[N], float y[N], float tmp[M]) {
  for (int i = 0; i < N; i++)
    y[i] = 0.0f;
  for (int i = 0; i < M; i++) {
    tmp[i] = 0.0f;
    for (int j = 0; j < N; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (int j = 0; j < N; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
}

int main(void) {
  float A[M][N], x[N], y[N], tmp[M];
  float fn = (float)N;
  for (int i = 0; i < N; i++)
    x[i] = 1 + (i / fn);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (float)((i + j) % N) / (5 * M);
  atax_f32(A, x, y, tmp);
  return 0;
}
