/* Matrix multiply on 2-D arrays: a triple loop nest. */
#define N 8

void matmul(int a[N][N], int b[N][N], int c[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int s = 0;
      for (int k = 0; k < N; k++)
        s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
}

int main(void) {
  int a[N][N], b[N][N], c[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = i - 2 * j;
      b[i][j] = (i * j) % 5 - 1;
      c[i][j] = 0;
    }
  matmul(a, b, c);
  return 0;
}
