#ifndef SPMV_CRS_H
#define SPMV_CRS_H

#include <stdint.h>

#define N 8
#define NNZ 20

typedef int32_t val_t;

void spmv_crs(const val_t val[NNZ], const val_t vec[N], val_t out[N]);

#endif
