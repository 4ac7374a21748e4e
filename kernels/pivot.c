/* One pivot step of a back-substitution: x[k] is rewritten every iteration
 * from a running value, x[i] read for i > k (Dynamatic's integration test
 * layout: n and k are arguments). */
#include <stdlib.h>

#include "pivot.h"

void pivot(int x[N], const int a[N], int n, int k) {
  int run = 0;
  for (int i = k + 1; i <= n; ++i) {
    x[k] = run;
    run = x[k] - a[i] * x[i];
  }
}

int main(void) {
  int x[N], a[N];
  srand(3);
  for (int j = 0; j < N; ++j) {
    x[j] = rand() % 100;
    a[j] = rand() % 100;
  }
  pivot(x, a, 100, 2);
  return 0;
}
