/* A histogram of float samples (MachSuite-style data-dependent updates):
 * each sample is clamped to [0, 1), scaled to a bin with an unsigned
 * conversion, and counted; the bin's mean is kept in float beside it. */
#define N 48
#define BINS 8

void hist_f32(const float x[N], unsigned count[BINS], float sum[BINS]) {
  for (int i = 0; i < N; i++) {
    float v = x[i] < 0.0f ? 0.0f : x[i] > 0.999f ? 0.999f : x[i];
    unsigned b = (unsigned)(v * (float)BINS);
    count[b]++;
    sum[b] += x[i];
  }
  for (int b = 0; b < BINS; b++)
    if (count[b] != 0)
      sum[b] = sum[b] / (float)count[b];
}

int main(void) {
  float x[N], sum[BINS];
  unsigned count[BINS];
  for (int i = 0; i < N; i++)
    x[i] = (float)((i * 29) % 53) / 50.0f - 0.02f;
  for (int b = 0; b < BINS; b++) {
    count[b] = 0;
    sum[b] = 0.0f;
  }
  hist_f32(x, count, sum);
  return 0;
}
