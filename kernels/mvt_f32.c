/* x1 += A y_1 and x2 += A^T y_2 in single precision (PolyBench mvt,
 * DATA_TYPE float). */
#include "mvt_f32.h"

void mvt_f32(float x1[N], float x2[N], const float y_1[N], const float y_2[N],
             const float A[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
}

int main(void) {
  float x1[N], x2[N], y_1[N], y_2[N], A[N][N];
  for (int i = 0; i < N; i++) {
    x1[i] = (float)(i % N) / N;
    x2[i] = (float)((i + 1) % N) / N;
    y_1[i] = (float)((i + 3) % N) / N;
    y_2[i] = (float)((i + 4) % N) / N;
    for (int j = 0; j < N; j++)
      A[i][j] = (float)(i * j % N) / N;
  }
  mvt_f32(x1, x2, y_1, y_2, A);
  return 0;
}
