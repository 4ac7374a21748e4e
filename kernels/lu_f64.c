/* LU decomposition in place without pivoting, in double precision, a
 * division per entry of L (PolyBench lu, DATA_TYPE double; the matrix made
 * positive definite as PolyBench's init does). */
#include "lu_f64.h"

void lu_f64(double A[N][N]) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (int j = i; j < N; j++)
      for (int k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
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
  lu_f64(A);
  return 0;
}
