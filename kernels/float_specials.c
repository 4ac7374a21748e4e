/* Produces subnormals, infinities, signed zeros and NaNs on purpose, and
 * counts them: products that underflow gradually (a subnormal result, then
 * zero), sums that overflow to infinity, inf - inf, x / 0, the square root
 * of a negative number, and a conversion to int near its range's end (C
 * leaves one outside it undefined). Every IEEE corner the RTL units round
 * or classify. */
#include <math.h>

#define N 12

/* NaN, infinite, zero (either sign), subnormal, normal */
static int classify(float v) {
  float a = fabsf(v);
  return isnan(v) ? 0 : a == INFINITY ? 1 : a == 0.0f ? 2 : a < 1.17549435e-38f ? 3 : 4;
}

void float_specials(const float x[N], float prod[N], float sum[N], float quot[N],
                    float root[N], int ints[N], int classes[5]) {
  for (int i = 0; i < N; i++) {
    prod[i] = x[i] * 1e-30f * 1e-10f;            /* underflow: subnormal or zero */
    sum[i] = x[i] * 3e38f + x[i] * 3e38f;        /* overflow: an infinity */
    quot[i] = x[i] / (float)(i % 3);             /* x / 0 every third */
    root[i] = sqrtf(x[i] - 2.0f);                /* NaN below 2 */
    ints[i] = (int)(x[i] * 4.5e8f);              /* up to 2.03e9, below 2^31 */
    classes[classify(prod[i])]++;
    classes[classify(sum[i])]++;
    classes[classify(quot[i])]++;
    classes[classify(root[i])]++;
  }
}

int main(void) {
  float x[N], prod[N], sum[N], quot[N], root[N];
  int ints[N], classes[5] = {0, 0, 0, 0, 0};
  for (int i = 0; i < N; i++)
    x[i] = (float)(i - 5) * 0.75f;
  x[3] = 0.0f;
  x[4] = -0.0f;
  x[7] = 1e-3f;
  float_specials(x, prod, sum, quot, root, ints, classes);
  return 0;
}
