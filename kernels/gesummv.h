#ifndef GESUMMV_H
#define GESUMMV_H

#include <stdint.h>

#define N 12

typedef int32_t data_t;
typedef int64_t wide_t;

void gesummv(data_t alpha, data_t beta, const data_t A[N][N], const data_t B[N][N],
             wide_t tmp[N], const data_t x[N], wide_t y[N]);

#endif
