/* C := alpha*A*B + beta*C in single precision (PolyBench gemm, its
 * DATA_TYPE float build; PolyBench's init divides by the sizes). */
#include "gemm_f32.h"

void gemm_f32(float alpha, float beta, float C[NI][NJ], const float A[NI][NK],
              const float B[NK][NJ]) {
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++)
      C[i][j] *= beta;
    for (int k = 0; k < NK; k++)
      for (int j = 0; j < NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}

static void init_array(float C[NI][NJ], float A[NI][NK], float B[NK][NJ]) {
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      C[i][j] = (float)((i * j + 1) % NI) / NI;
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = (float)(i * (k + 1) % NK) / NK;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = (float)(k * (j + 2) % NJ) / NJ;
}

int main(void) {
  float C[NI][NJ], A[NI][NK], B[NK][NJ];
  init_array(C, A, B);
  gemm_f32(1.5f, 1.2f, C, A, B);
  return 0;
}
