/* PolyBench 2mm in Dynamatic's integration layout: tmp := alpha*A*B, then
 * D := beta*D + tmp*C, each dot product summed in a local. */
#include <stdlib.h>

#include "k2mm_acc.h"

void k2mm_acc(int alpha, int beta, int tmp[NI][NJ], const int A[NI][NK],
              const int B[NK][NJ], const int C[NK][NL], int D[NI][NL]) {
  for (unsigned i = 0; i < NI; i++)
    for (unsigned j = 0; j < NJ; j++) {
      int sum = 0;
      for (unsigned k = 0; k < NK; ++k)
        sum += alpha * A[i][k] * B[k][j];
      tmp[i][j] = sum;
    }
  for (unsigned i = 0; i < NI; i++)
    for (unsigned l = 0; l < NL; l++) {
      int sum = D[i][l] * beta;
      for (unsigned k = 0; k < NJ; ++k)
        sum += tmp[i][k] * C[k][l];
      D[i][l] = sum;
    }
}

int main(void) {
  int tmp[NI][NJ], A[NI][NK], B[NK][NJ], C[NK][NL], D[NI][NL];
  srand(14);
  int alpha = rand() % 50, beta = rand() % 50;
  for (unsigned i = 0; i < NI; ++i) {
    for (unsigned k = 0; k < NK; ++k)
      A[i][k] = rand() % 100;
    for (unsigned l = 0; l < NL; ++l)
      D[i][l] = rand() % 100;
  }
  for (unsigned k = 0; k < NK; ++k) {
    for (unsigned j = 0; j < NJ; ++j)
      B[k][j] = rand() % 100;
    for (unsigned l = 0; l < NL; ++l)
      C[k][l] = rand() % 100;
  }
  k2mm_acc(alpha, beta, tmp, A, B, C, D);
  return 0;
}
