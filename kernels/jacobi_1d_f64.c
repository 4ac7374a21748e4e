/* 1-D Jacobi stencil in double precision, TSTEPS sweeps between A and B
 * (PolyBench jacobi-1d, its default DATA_TYPE double). */
#include "jacobi_1d_f64.h"

void jacobi_1d_f64(double A[N], double B[N]) {
  for (int t = 0; t < TSTEPS; t++) {
    for (int i = 1; i < N - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (int i = 1; i < N - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
}

int main(void) {
  double A[N], B[N];
  for (int i = 0; i < N; i++) {
    A[i] = ((double)i + 2) / N;
    B[i] = ((double)i + 3) / N;
  }
  jacobi_1d_f64(A, B);
  return 0;
}
