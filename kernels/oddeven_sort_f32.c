/* Odd-even transposition sort of N floats by compare-exchange with fminf and
 * fmaxf (a sorting network, as an HLS user writes one), then a histogram of
 * the classes of the results: NaN, infinite, zero (either sign), subnormal,
 * normal. The inputs hold every class on purpose: fminf/fmaxf drop a NaN
 * against a number, so NaNs leave the network, and -0 meets +0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 16
#define CLASSES 5

void oddeven_sort_f32(float v[N], int classes[CLASSES]) {
  for (int pass = 0; pass < N; pass++) {
    for (int i = pass & 1; i + 1 < N; i += 2) {
      float lo = fminf(v[i], v[i + 1]);
      float hi = fmaxf(v[i], v[i + 1]);
      v[i] = lo;
      v[i + 1] = hi;
    }
  }
  for (int i = 0; i < N; i++) {
    float a = fabsf(v[i]);
    int c;
    if (isnan(v[i]))
      c = 0;
    else if (a == INFINITY)
      c = 1;
    else if (a == 0.0f)
      c = 2;
    else if (a < 1.17549435e-38f)   /* FLT_MIN: subnormal below it */
      c = 3;
    else
      c = 4;
    classes[c]++;
  }
}

int main(void) {
  float v[N];
  int classes[CLASSES];
  unsigned nan_bits = 0x7fa00001u;   /* a signalling NaN's pattern */
  srand(33);
  for (int i = 0; i < N; i++)
    v[i] = (float)(rand() % 2001 - 1000) / 8.0f;
  v[1] = -0.0f;
  v[2] = 0.0f;
  v[3] = INFINITY;
  v[4] = -INFINITY;
  v[5] = NAN;
  memcpy(&v[6], &nan_bits, sizeof nan_bits);
  v[7] = 1e-45f;
  v[8] = -3e-39f;
  v[9] = v[10];
  for (int c = 0; c < CLASSES; c++)
    classes[c] = 0;
  oddeven_sort_f32(v, classes);
  return 0;
}
