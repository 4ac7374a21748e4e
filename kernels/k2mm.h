#ifndef K2MM_H
#define K2MM_H

#include <stdint.h>

#define NI 6
#define NJ 7
#define NK 8
#define NL 5

typedef int32_t data_t;

void k2mm(data_t alpha, data_t beta, data_t tmp[NI][NJ], const data_t A[NI][NK],
          const data_t B[NK][NJ], const data_t C[NJ][NL], data_t D[NI][NL]);

#endif
