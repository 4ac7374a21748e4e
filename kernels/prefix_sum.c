/* Prefix sum: a loop-carried dependence through memory. */
#define N 256

void prefix_sum(int a[N]) {
  for (int i = 1; i < N; i++)
    a[i] = a[i] + a[i - 1];
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = (i % 9) - 4;
  prefix_sum(a);
  return 0;
}
