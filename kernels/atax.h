#ifndef ATAX_H
#define ATAX_H

#include <stdint.h>

#define M 10
#define N 12

typedef int32_t data_t;

void atax(const data_t A[M][N], const data_t x[N], data_t y[N], data_t tmp[M]);

#endif
