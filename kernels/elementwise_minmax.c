/* The min/max intrinsics (clang's __builtin_elementwise_min/max), signed and unsigned. */
#define N 128

int elementwise_minmax(int a[N], int b[N], unsigned ua[N], unsigned ub[N], int lo[N], unsigned hi[N]) {
  int best = a[0];
  for (int i = 0; i < N; i++) {
    lo[i] = __builtin_elementwise_min(a[i], b[i]);
    hi[i] = __builtin_elementwise_max(ua[i], ub[i]);
    ua[i] = __builtin_elementwise_min(ua[i], ub[i]);
    best = __builtin_elementwise_max(best, a[i] - b[i]);
  }
  return best;
}

int main(void) {
  int a[N], b[N], lo[N];
  unsigned ua[N], ub[N], hi[N];
  for (int i = 0; i < N; i++) {
    a[i] = (i * 53) % 101 - 50;
    b[i] = (i * 29) % 67 - 33;
    ua[i] = (unsigned)i * 0x9E3779B9u;
    ub[i] = (unsigned)(N - i) * 0x7F4A7C15u;
    lo[i] = 0;
    hi[i] = 0;
  }
  return elementwise_minmax(a, b, ua, ub, lo, hi) == 0;
}
