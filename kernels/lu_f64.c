/* LU decomposition in place without pivoting, in double precision, a
 * division per entry of L (PolyBench lu, DATA_TYPE double, on its
 * positive-definite input: polybench_spd.h). */
#include "lu_f64.h"
#include "polybench_spd.h"

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
  double A[N][N];
  init_spd(A);
  lu_f64(A);
  return 0;
}
