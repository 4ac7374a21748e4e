#ifndef BICG_H
#define BICG_H

#include <stdint.h>

#define M 9
#define N 11

typedef int32_t data_t;

void bicg(const data_t A[N][M], data_t s[M], data_t q[N], const data_t p[M],
          const data_t r[N]);

#endif
