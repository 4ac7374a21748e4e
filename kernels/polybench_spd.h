#ifndef POLYBENCH_SPD_H
#define POLYBENCH_SPD_H

/* PolyBench's positive-definite input for cholesky and lu: a lower triangle
 * with a unit diagonal, then A := A A^T. The including file defines N. */
static void init_spd(double A[N][N]) {
  double B[N][N];
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
}

#endif
