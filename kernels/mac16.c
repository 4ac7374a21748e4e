/* 16-bit multiply-accumulate into 32 bits, with 8-bit signed coefficients (a FIR filter). */
#define N 128
#define TAPS 8

void mac16(short x[N], signed char h[TAPS], int y[N]) {
  for (int n = 0; n < N; n++) {
    int acc = 0;
    for (int k = 0; k < TAPS; k++)
      if (n - k >= 0)
        acc += x[n - k] * h[k];
    y[n] = acc;
  }
}

int main(void) {
  short x[N];
  signed char h[TAPS] = {3, -5, 7, 11, 11, 7, -5, 3};
  int y[N];
  for (int i = 0; i < N; i++) {
    x[i] = (short)((i * 1237) % 4001 - 2000);
    y[i] = 0;
  }
  mac16(x, h, y);
  return 0;
}
