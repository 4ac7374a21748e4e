/* y := alpha*A*x + beta*B*x with 64-bit accumulation (PolyBench gesummv). */
#include <stdlib.h>

#include "gesummv.h"

void gesummv(data_t alpha, data_t beta, const data_t A[N][N], const data_t B[N][N],
             wide_t tmp[N], const data_t x[N], wide_t y[N]) {
  for (int i = 0; i < N; i++) {
    tmp[i] = 0;
    y[i] = 0;
    for (int j = 0; j < N; j++) {
      tmp[i] += (wide_t)A[i][j] * x[j];
      y[i] += (wide_t)B[i][j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

int main(void) {
  data_t A[N][N], B[N][N], x[N];
  wide_t tmp[N], y[N];
  srand(5);
  for (int i = 0; i < N; i++) {
    x[i] = rand() - RAND_MAX / 2;
    tmp[i] = 0;
    y[i] = 0;
    for (int j = 0; j < N; j++) {
      A[i][j] = rand() % 2001 - 1000;
      B[i][j] = rand() % 2001 - 1000;
    }
  }
  gesummv(7, -5, A, B, tmp, x, y);
  return 0;
}
