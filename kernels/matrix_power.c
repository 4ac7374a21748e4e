/* Sparse propagation through the rows of a matrix: row k gathers from row
 * k - 1 through index lists (mat[k][row[p]] += a[p] * mat[k-1][col[p]]),
 * indirect subscripts on both sides (Dynamatic's integration test layout). */
#include <stdlib.h>

#include "matrix_power.h"

void matrix_power(int mat[N][N], const int row[N], const int col[N], const int a[N]) {
  for (unsigned k = 1; k < N; k++)
    for (unsigned p = 0; p < N; p++)
      mat[k][row[p]] += a[p] * mat[k - 1][col[p]];
}

int main(void) {
  int mat[N][N], row[N], col[N], a[N];
  srand(9);
  for (unsigned i = 0; i < N; ++i) {
    row[i] = rand() % N;
    col[i] = rand() % N;
    a[i] = rand() % 7 - 3;
    for (unsigned j = 0; j < N; ++j)
      mat[i][j] = i == 0 ? rand() % 5 : 0;
  }
  matrix_power(mat, row, col, a);
  return 0;
}
