/* Unsigned loop counters and comparisons (ult/uge) with a runtime bound. */
#define N 128

unsigned unsigned_loop(unsigned a[N], unsigned n, unsigned limit) {
  unsigned s = 0u;
  for (unsigned i = 0u; i < n; i++) {
    if (a[i] >= limit)
      a[i] = a[i] - limit;
    s += a[i] / 3u;
  }
  for (unsigned i = n; i > 0u; i--)
    s ^= a[i - 1u] << (i % 8u);
  return s;
}

int main(void) {
  unsigned a[N];
  for (unsigned i = 0u; i < N; i++)
    a[i] = i * 2654435761u;
  return unsigned_loop(a, 100u, 0x90000000u) == 0u;
}
