/* One output of a 1000-tap FIR filter: a single loop with two loads and a
   multiply-accumulate into a scalar, the newest sample against the first tap. */
#include <stdlib.h>

#include "fir.h"

int fir(const sample_t x[TAPS], const sample_t h[TAPS]) {
  int acc = 0;
  for (unsigned t = 0; t < TAPS; t++)
    acc += h[t] * x[TAPS - 1 - t];
  return acc;
}

int main(void) {
  sample_t x[TAPS], h[TAPS];
  srand(29);
  for (int t = 0; t < TAPS; t++) {
    x[t] = rand() % 100;
    h[t] = rand() % 100 - 50;
  }
  return fir(x, h) == 12345;
}
