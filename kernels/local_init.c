/* Local arrays with initializers: zero fill, constant tables (1-D and 2-D), per-iteration init. */
#define N 64

int local_init(int x[N], int y[N]) {
  int hist[8] = {0};
  const int coef[5] = {1, -2, 3, -2, 1};
  short sel[2][4] = {{1, 0, 2, 0}, {0, 3, 0, 4}};
  for (int i = 0; i < N; i++) {
    int window[3] = {x[i], i > 0 ? x[i - 1] : 0, 7};
    int acc = 0;
    for (int k = 0; k < 5; k++)
      acc += coef[k] * (i >= k ? x[i - k] : 0);
    y[i] = acc + window[(i + 1) % 3] * sel[i % 2][i % 4];
    hist[(unsigned)x[i] % 8u] += 1;
  }
  int s = 0;
  for (int b = 0; b < 8; b++)
    s = s * 3 + hist[b];
  return s;
}

int main(void) {
  int x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = (i * 45) % 37 - 15;
    y[i] = 0;
  }
  return local_init(x, y) == 0;
}
