/* In-place transpose of a square 2-D array (triangular loop nest). */
#define N 16

void transpose(int m[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++) {
      int t = m[i][j];
      m[i][j] = m[j][i];
      m[j][i] = t;
    }
}

int main(void) {
  int m[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      m[i][j] = i * 100 + j;
  transpose(m);
  return 0;
}
