/* Two chained matrix multiplications, D := alpha*A*B*C + beta*D (PolyBench 2mm). */
#include <stdlib.h>

#include "k2mm.h"

void k2mm(data_t alpha, data_t beta, data_t tmp[NI][NJ], const data_t A[NI][NK],
          const data_t B[NK][NJ], const data_t C[NJ][NL], data_t D[NI][NL]) {
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      tmp[i][j] = 0;
      for (int k = 0; k < NK; k++)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NL; j++) {
      D[i][j] *= beta;
      for (int k = 0; k < NJ; k++)
        D[i][j] += tmp[i][k] * C[k][j];
    }
}

int main(void) {
  data_t tmp[NI][NJ], A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL];
  srand(2);
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = rand() % 16 - 8;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = rand() % 16 - 8;
  for (int j = 0; j < NJ; j++)
    for (int l = 0; l < NL; l++)
      C[j][l] = rand() % 16 - 8;
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++)
      tmp[i][j] = 0;
    for (int l = 0; l < NL; l++)
      D[i][l] = rand() % 100;
  }
  k2mm(2, 3, tmp, A, B, C, D);
  return 0;
}
