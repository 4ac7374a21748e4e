/* C := alpha*A*B + beta*C on rectangular 2-D arrays (PolyBench layout). */
#include <stdlib.h>

#include "gemm.h"

void gemm(data_t alpha, data_t beta, data_t C[NI][NJ], const data_t A[NI][NK],
          const data_t B[NK][NJ]) {
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++)
      C[i][j] *= beta;
    for (int k = 0; k < NK; k++)
      for (int j = 0; j < NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}

static void init_array(data_t C[NI][NJ], data_t A[NI][NK], data_t B[NK][NJ]) {
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      C[i][j] = rand() % 64 - 32;
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = rand() % 32 - 16;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = rand() % 32 - 16;
}

int main(void) {
  data_t C[NI][NJ], A[NI][NK], B[NK][NJ];
  srand(1);
  init_array(C, A, B);
  gemm(3, -2, C, A, B);
  return 0;
}
