/* Histogram into a local table, then copied out with a running total
   (a kernel of one local array and a few dozen ops: issue 31's small
   on-chip preset case). */
#define N 256
#define BINS 16

int local_hist(const unsigned char data[N], int out[BINS]) {
  int hist[BINS];
  for (int b = 0; b < BINS; b++)
    hist[b] = 0;
  for (int i = 0; i < N; i++)
    hist[data[i] & (BINS - 1)] += 1;
  int total = 0;
  for (int b = 0; b < BINS; b++) {
    total += hist[b];
    out[b] = total;
  }
  return total;
}

int main(void) {
  unsigned char data[N];
  int out[BINS];
  /* a skewed spread: low bins fill faster (i*i grows), every bin is hit */
  for (int i = 0; i < N; i++)
    data[i] = (unsigned char)((i * i + 3 * i) >> 4);
  return local_hist(data, out) != N;
}
