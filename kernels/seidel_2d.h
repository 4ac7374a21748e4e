#ifndef SEIDEL_2D_H
#define SEIDEL_2D_H

#include <stdint.h>

#define N 10
#define TSTEPS 2

typedef int32_t data_t;

void seidel_2d(data_t A[N][N]);

#endif
