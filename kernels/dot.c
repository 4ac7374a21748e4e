/* Dot product: a reduction returning a scalar. */
#define N 128

int dot(const int a[N], const int b[N]) {
  int acc = 0;
  for (int i = 0; i < N; i++)
    acc += a[i] * b[i];
  return acc;
}

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = (i * 37) % 101 - 50;
    b[i] = (i * 11) % 23 - 11;
  }
  return dot(a, b) == 0x7fffffff;
}
