/* Forward substitution L x = b in double precision, one division per row
 * (PolyBench trisolv, DATA_TYPE double). */
#include "trisolv_f64.h"

void trisolv_f64(const double L[N][N], double x[N], const double b[N]) {
  for (int i = 0; i < N; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
}

int main(void) {
  double L[N][N], x[N], b[N];
  for (int i = 0; i < N; i++) {
    x[i] = -999;
    b[i] = i;
    for (int j = 0; j <= i; j++)
      L[i][j] = (double)(i + N - j + 1) * 2 / N;
    for (int j = i + 1; j < N; j++)
      L[i][j] = 0;
  }
  trisolv_f64(L, x, b);
  return 0;
}
