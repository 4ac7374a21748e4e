/* BiCG sub-kernel in Dynamatic's integration layout: s := s + r^T A in
 * memory, q[i] accumulated in a local across each row; returns the last sum. */
#include <stdlib.h>

#include "bicg_acc.h"

int bicg_acc(const int A[N][N], int s[N], int q[N], const int p[N], const int r[N]) {
  int sum = 0;
  for (unsigned i = 0; i < N; i++) {
    sum = q[i];
    for (unsigned j = 0; j < N; j++) {
      int v = A[i][j];
      s[j] = s[j] + r[i] * v;
      sum += v * p[j];
    }
    q[i] = sum;
  }
  return sum;
}

int main(void) {
  int A[N][N], s[N], q[N], p[N], r[N];
  srand(30);
  for (int i = 0; i < N; ++i) {
    s[i] = rand() % 100;
    q[i] = rand() % 100;
    p[i] = rand() % 100;
    r[i] = rand() % 100;
    for (int j = 0; j < N; ++j)
      A[i][j] = rand() % 100;
  }
  bicg_acc(A, s, q, p, r);
  return 0;
}
