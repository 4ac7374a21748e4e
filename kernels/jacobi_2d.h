#ifndef JACOBI_2D_H
#define JACOBI_2D_H

#include <stdint.h>

#define N 10
#define TSTEPS 3

typedef int32_t data_t;

void jacobi_2d(data_t A[N][N], data_t B[N][N]);

#endif
