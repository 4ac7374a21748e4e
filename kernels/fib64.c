/* 64-bit arithmetic: Fibonacci numbers with wrap-around, and a 64-bit checksum. */
#define N 100

long long fib64(long long f[N], unsigned long long seed) {
  f[0] = 0;
  f[1] = 1;
  for (int i = 2; i < N; i++)
    f[i] = f[i - 1] + f[i - 2];
  unsigned long long h = seed;
  for (int i = 0; i < N; i++)
    h = (h ^ (unsigned long long)f[i]) * 1099511628211ull;
  return (long long)h;
}

int main(void) {
  long long f[N];
  for (int i = 0; i < N; i++)
    f[i] = -1;
  return fib64(f, 14695981039346656037ull) == 1;
}
