/* An inclusive bound (i <= N - 1) and a bound from a parameter (i <= last). */
#define N 100

int le_loop(int a[N], int last) {
  int m = 0;
  for (int i = 0; i <= N - 1; i++)
    a[i] = a[i] * 2 + 1;
  for (int i = 0; i <= last; i++)
    m += a[i];
  return m;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = 50 - i;
  return le_loop(a, 63) == 0;
}
