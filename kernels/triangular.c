/* Column n of a matrix updated from the entries above the diagonal, rows
 * walked downwards (Dynamatic's integration test layout; n = N, so a[k][n]
 * is the first element of row k + 1, as C lays the array out). */
#include <stdlib.h>

#include "triangular.h"

void triangular(const int x[N], int n, int a[N][N]) {
  for (int i = n - 1; i >= 0; i--)
    for (int k = i - 1; k >= 0; k--)
      a[k][n] -= a[k][i] * x[i];
}

int main(void) {
  int x[N], a[N][N];
  srand(8);
  for (int i = 0; i < N; ++i) {
    x[i] = rand() % 100;
    for (int j = 0; j < N; ++j)
      a[j][i] = rand() % 100;
  }
  triangular(x, N, a);
  return 0;
}
