/* Euclid's algorithm per pair: a while loop whose trip count depends on the data. */
#define N 64

void gcd(int a[N], int b[N], int g[N]) {
  for (int i = 0; i < N; i++) {
    int x = a[i];
    int y = b[i];
    while (y != 0) {
      int t = x % y;
      x = y;
      y = t;
    }
    g[i] = x;
  }
}

int main(void) {
  int a[N], b[N], g[N];
  for (int i = 0; i < N; i++) {
    a[i] = (i + 1) * 84;
    b[i] = (i * 37) % 90 + 6;
    g[i] = 0;
  }
  gcd(a, b, g);
  return 0;
}
