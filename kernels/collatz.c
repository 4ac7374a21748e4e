/* Collatz trajectory lengths: a data-dependent while loop with 64-bit values. */
#define N 32

void collatz(unsigned steps[N], unsigned long long peak[N], int first) {
  for (int i = 0; i < N; i++) {
    unsigned long long x = (unsigned long long)(first + i);
    unsigned n = 0;
    unsigned long long p = x;
    while (x != 1ull) {
      if (x & 1ull)
        x = 3ull * x + 1ull;
      else
        x >>= 1;
      if (x > p)
        p = x;
      n++;
    }
    steps[i] = n;
    peak[i] = p;
  }
}

int main(void) {
  unsigned steps[N];
  unsigned long long peak[N];
  for (int i = 0; i < N; i++) {
    steps[i] = 0;
    peak[i] = 0;
  }
  collatz(steps, peak, 20);
  return 0;
}
