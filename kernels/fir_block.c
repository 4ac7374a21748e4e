/* Block FIR filter: each call filters one block of the signal, the delay line
 * persists across calls, and main() filters NBLOCKS successive blocks (one
 * invocation each). 16-bit samples, saturated. */
#include <stdlib.h>

#include "fir_block.h"

static sample_t saturate(acc_t v) {
  if (v > INT16_MAX)
    return INT16_MAX;
  if (v < INT16_MIN)
    return INT16_MIN;
  return (sample_t)v;
}

void fir_block(const sample_t in[SIGNAL], sample_t out[SIGNAL], sample_t state[NTAPS],
               const coef_t coef[NTAPS], uint8_t block) {
  for (int n = block * BLOCK; n < (block + 1) * BLOCK; n++) {
    for (int k = NTAPS - 1; k > 0; k--)
      state[k] = state[k - 1];
    state[0] = in[n];
    acc_t acc = 0;
    for (int k = 0; k < NTAPS; k++)
      acc += (acc_t)coef[k] * state[k];
    out[n] = saturate(acc >> SHIFT);
  }
}

int main(void) {
  sample_t in[SIGNAL], out[SIGNAL], state[NTAPS];
  coef_t coef[NTAPS];
  srand(7);
  for (int k = 0; k < NTAPS; k++) {
    state[k] = 0;
    coef[k] = (coef_t)(rand() % 256 - 128);
  }
  for (int n = 0; n < SIGNAL; n++) {
    in[n] = (sample_t)(rand() % 65536 - 32768);
    out[n] = 0;
  }
  for (uint8_t b = 0; b < NBLOCKS; b++)
    fir_block(in, out, state, coef, b);
  return 0;
}
