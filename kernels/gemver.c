/* PolyBench gemver in Dynamatic's integration layout: a rank-2 update of A,
 * x += beta * A^T y (+ z), w += alpha * A x, with the sums in locals. */
#include <stdlib.h>

#include "gemver.h"

void gemver(int alpha, int beta, const int u1[N], const int v1[N], const int u2[N],
            const int v2[N], const int y[N], const int z[N], int A[N][N], int w[N],
            int x[N]) {
  for (unsigned i = 0; i < N; i++)
    for (unsigned j = 0; j < N; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (unsigned i = 0; i < N; i++) {
    int sum = x[i];
    for (unsigned j = 0; j < N; j++)
      sum = sum + beta * A[j][i] * y[j];
    x[i] = sum;
  }
  for (unsigned i = 0; i < N; i++)
    x[i] = x[i] + z[i];
  for (unsigned i = 0; i < N; i++) {
    int sum = w[i];
    for (unsigned j = 0; j < N; j++)
      sum = sum + alpha * A[i][j] * x[j];
    w[i] = sum;
  }
}

int main(void) {
  int u1[N], v1[N], u2[N], v2[N], y[N], z[N], A[N][N], w[N], x[N];
  srand(12);
  int alpha = rand() % 20, beta = rand() % 20;
  for (unsigned i = 0; i < N; ++i) {
    u1[i] = rand() % 20;
    v1[i] = rand() % 20;
    u2[i] = rand() % 20;
    v2[i] = rand() % 20;
    w[i] = rand() % 20;
    x[i] = rand() % 20;
    y[i] = rand() % 20;
    z[i] = rand() % 20;
    for (unsigned j = 0; j < N; ++j)
      A[i][j] = rand() % 10;
  }
  gemver(alpha, beta, u1, v1, u2, v2, y, z, A, w, x);
  return 0;
}
