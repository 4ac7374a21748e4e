/* Sum of the first n elements: a runtime loop bound, invoked with n = 300,
 * n = 0 (no iteration: the loop guard's other path) and n = 1 (one: the
 * guard's boundary). */
#define N 512

int sum_n(int a[N], int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = (i % 17) * (i % 5) - 20;
  int s = sum_n(a, 300);
  s += sum_n(a, 0);
  s += sum_n(a, 1);
  return s == 123456789;
}
