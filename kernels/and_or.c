/* Short-circuit && and || in conditions, with stores in both branches. */
#define N 128

int and_or(int a[N], int b[N], int lo, int hi) {
  int n = 0;
  for (int i = 0; i < N; i++) {
    if ((a[i] > lo && a[i] < hi) || b[i] == 0) {
      b[i] = a[i];
      n++;
    } else if (a[i] < 0 && (b[i] & 3) != 0) {
      b[i] = -b[i];
    }
  }
  return n;
}

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = (i * 41) % 97 - 40;
    b[i] = (i * 7) % 9;
  }
  return and_or(a, b, -10, 30) < 0;
}
