/* Cholesky factorization in place, A = L L^T, with a division per entry and
 * a square root per column (PolyBench cholesky, DATA_TYPE double, on its
 * positive-definite input: polybench_spd.h). */
#include <math.h>

#include "cholesky_f64.h"
#include "polybench_spd.h"

void cholesky_f64(double A[N][N]) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (int k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = sqrt(A[i][i]);
  }
}

int main(void) {
  double A[N][N];
  init_spd(A);
  cholesky_f64(A);
  return 0;
}
