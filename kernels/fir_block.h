#ifndef FIR_BLOCK_H
#define FIR_BLOCK_H

#include <stdint.h>

#define NTAPS 8
#define BLOCK 16
#define NBLOCKS 3
#define SHIFT 7

typedef int16_t sample_t;
typedef int16_t coef_t;
typedef int32_t acc_t;

#define SIGNAL (NBLOCKS * BLOCK)

void fir_block(const sample_t in[SIGNAL], sample_t out[SIGNAL], sample_t state[NTAPS],
               const coef_t coef[NTAPS], uint8_t block);

#endif
