/* Selects (?:) and the abs builtin: range of the data and the sum of absolute values. */
#include <stdlib.h>
#define N 200

int minmax(int a[N], int out[2]) {
  int lo = a[0];
  int hi = a[0];
  int sum_abs = 0;
  for (int i = 1; i < N; i++) {
    lo = a[i] < lo ? a[i] : lo;
    hi = a[i] > hi ? a[i] : hi;
  }
  for (int i = 0; i < N; i++)
    sum_abs += abs(a[i]);
  out[0] = lo;
  out[1] = hi;
  return sum_abs;
}

int main(void) {
  int a[N], out[2] = {0, 0};
  for (int i = 0; i < N; i++)
    a[i] = (i * 7919) % 1009 - 504;
  return minmax(a, out) < 0;
}
