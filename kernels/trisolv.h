#ifndef TRISOLV_H
#define TRISOLV_H

#include <stdint.h>

#define N 16

typedef int64_t data_t;

void trisolv(const data_t L[N][N], data_t x[N], const data_t b[N]);

#endif
