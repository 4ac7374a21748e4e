#ifndef GSM_LATTICE_H
#define GSM_LATTICE_H

#include <stdint.h>

#define NSAMPLES 40
#define ORDER 8

typedef int16_t word16_t;
typedef int32_t longword_t;

void gsm_lattice(const word16_t rp[ORDER], word16_t u[ORDER], word16_t s[NSAMPLES]);

#endif
