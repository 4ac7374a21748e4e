#ifndef FIR_H
#define FIR_H

/* Sizes as in EPFL Dynamatic's integration test `fir` (1000 taps). */
#define TAPS 1000

typedef int sample_t;

int fir(const sample_t x[TAPS], const sample_t h[TAPS]);

#endif
