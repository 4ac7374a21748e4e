/* if / else if / else inside a loop, storing in every branch. */
#define N 256

void clamp(int a[N], int out[N], int lo, int hi) {
  for (int i = 0; i < N; i++) {
    if (a[i] < lo)
      out[i] = lo;
    else if (a[i] > hi)
      out[i] = hi;
    else
      out[i] = a[i];
  }
}

int main(void) {
  int a[N], out[N];
  for (int i = 0; i < N; i++) {
    a[i] = (i * 73) % 211 - 105;
    out[i] = 0;
  }
  clamp(a, out, -50, 60);
  return 0;
}
