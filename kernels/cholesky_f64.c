/* Cholesky factorization in place, A = L L^T, with a division per entry and
 * a square root per column (PolyBench cholesky, DATA_TYPE double). The
 * matrix is made positive definite as PolyBench's init does: a lower
 * triangle, a unit diagonal, then A := B B^T. */
#include <math.h>

#include "cholesky_f64.h"

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
  double A[N][N], B[N][N];
  for (int i = 0; i < N; i++) {
    for (int j = 0; j <= i; j++)
      A[i][j] = (double)(-j % N) / N + 1;
    for (int j = i + 1; j < N; j++)
      A[i][j] = 0;
    A[i][i] = 1;
  }
  for (int r = 0; r < N; r++)
    for (int s = 0; s < N; s++) {
      B[r][s] = 0;
      for (int t = 0; t < N; t++)
        B[r][s] += A[r][t] * A[s][t];
    }
  for (int r = 0; r < N; r++)
    for (int s = 0; s < N; s++)
      A[r][s] = B[r][s];
  cholesky_f64(A);
  return 0;
}
