/* 1-D Jacobi smoothing on unsigned 16-bit data, time steps counted down
 * (PolyBench jacobi-1d, integer averages). */
#include <stdlib.h>

#include "jacobi_1d.h"

void jacobi_1d(data_t A[N], data_t B[N]) {
  for (unsigned t = TSTEPS; t > 0; t--) {
    for (unsigned i = 1; i < N - 1; i++)
      B[i] = (data_t)((A[i - 1] + A[i] + A[i + 1]) / 3);
    for (unsigned i = 1; i < N - 1; i++)
      A[i] = (data_t)((B[i - 1] + B[i] + B[i + 1]) / 3);
  }
}

int main(void) {
  data_t A[N], B[N];
  srand(10);
  for (int i = 0; i < N; i++) {
    A[i] = (data_t)rand();
    B[i] = 0;
  }
  jacobi_1d(A, B);
  return 0;
}
