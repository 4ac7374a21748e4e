#ifndef GEMM_H
#define GEMM_H

#include <stdint.h>

#define NI 8
#define NJ 10
#define NK 6

typedef int32_t data_t;

void gemm(data_t alpha, data_t beta, data_t C[NI][NJ], const data_t A[NI][NK],
          const data_t B[NK][NJ]);

#endif
