/* Sum of the first n elements: a runtime loop bound. */
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
  return sum_n(a, 300) == 123456789;
}
