/* Unsigned division and remainder: decimal digit sums and digit counts. */
#define N 64

unsigned digits(unsigned v[N], unsigned char ndig[N]) {
  unsigned total = 0;
  for (int i = 0; i < N; i++) {
    unsigned x = v[i];
    unsigned char n = 0;
    do {
      total += x % 10u;
      x /= 10u;
      n++;
    } while (x != 0u);
    ndig[i] = n;
  }
  return total;
}

int main(void) {
  unsigned v[N];
  unsigned char ndig[N];
  unsigned s = 99u;
  for (int i = 0; i < N; i++) {
    s = s * 2654435761u + 1u;
    v[i] = s >> (i % 32);
    ndig[i] = 0;
  }
  return digits(v, ndig) == 0u;
}
