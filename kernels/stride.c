/* Stepped loops: every third element forwards, every second one backwards. */
#define N 128

int stride(int a[N]) {
  int s = 0;
  for (int i = 1; i < N; i += 3)
    a[i] = -a[i];
  for (int i = N - 2; i > 0; i -= 2)
    s += a[i];
  return s;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = (i * 13) % 29;
  return stride(a) == 0;
}
