/* Histogram: indirect (data-dependent) addresses and read-modify-write. */
#define N 512
#define BINS 16

void histogram(unsigned char data[N], int hist[BINS]) {
  for (int i = 0; i < BINS; i++)
    hist[i] = 0;
  for (int i = 0; i < N; i++)
    hist[data[i] % BINS] += 1;
}

int main(void) {
  unsigned char data[N];
  int hist[BINS];
  unsigned s = 7u;
  for (int i = 0; i < N; i++) {
    s = s * 1664525u + 1013904223u;
    data[i] = (unsigned char)(s >> 24);
  }
  for (int i = 0; i < BINS; i++)
    hist[i] = 99;
  histogram(data, hist);
  return 0;
}
