/* y = alpha * x + y with a scalar parameter. */
#define N 200

void axpy(int alpha, int x[N], int y[N]) {
  for (int i = 0; i < N; i++)
    y[i] = alpha * x[i] + y[i];
}

int main(void) {
  int x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = i - 100;
    y[i] = 3 * i;
  }
  axpy(-7, x, y);
  return 0;
}
