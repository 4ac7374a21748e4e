#ifndef TRISOLV_H
#define TRISOLV_H

#include <stdint.h>

/* -DN=1000 gives the 1000-row solve of bench/golden_speed.py */
#ifndef N
#define N 16
#endif

typedef int64_t data_t;

void trisolv(const data_t L[N][N], data_t x[N], const data_t b[N]);

#endif
