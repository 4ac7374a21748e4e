/* Forward substitution L x = b on a lower-triangular 64-bit matrix
 * (PolyBench trisolv; integer division truncates toward zero). */
#include <stdlib.h>

#include "trisolv.h"

void trisolv(const data_t L[N][N], data_t x[N], const data_t b[N]) {
  for (int i = 0; i < N; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
}

int main(void) {
  static data_t L[N][N], x[N], b[N];   /* static: 8 MB at N = 1000 */
  srand(6);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++)
      L[i][j] = j < i ? rand() % 7 - 3 : 0;
    L[i][i] = rand() % 4 + 2;
    b[i] = rand() % 2001 - 1000;
    x[i] = 0;
  }
  trisolv(L, x, b);
  return 0;
}
