/* Index of the maximum: a reduction carrying two values. */
#define N 300

int argmax(short a[N]) {
  int best = 0;
  short m = a[0];
  for (int i = 1; i < N; i++) {
    if (a[i] > m) {
      m = a[i];
      best = i;
    }
  }
  return best;
}

int main(void) {
  short a[N];
  for (int i = 0; i < N; i++)
    a[i] = (short)((i * 8191) % 1021 - 510);
  return argmax(a) < 0;
}
