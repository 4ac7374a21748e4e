#ifndef JACOBI_1D_H
#define JACOBI_1D_H

#include <stdint.h>

#define N 32
#define TSTEPS 4

typedef uint16_t data_t;

void jacobi_1d(data_t A[N], data_t B[N]);

#endif
