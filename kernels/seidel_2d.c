/* Gauss-Seidel 9-point stencil updated in place, so every point reads values
 * written earlier in the same sweep (PolyBench seidel-2d, integer average). */
#include <stdlib.h>

#include "seidel_2d.h"

void seidel_2d(data_t A[N][N]) {
  for (int t = 0; t < TSTEPS; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j] +
                   A[i][j + 1] + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9;
}

int main(void) {
  data_t A[N][N];
  srand(12);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = rand() % 100000;
  seidel_2d(A);
  return 0;
}
