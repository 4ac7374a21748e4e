#ifndef MATPOW_H
#define MATPOW_H

#include <stdint.h>

#define N 4
#define MODULUS 1000003u

typedef uint64_t elem_t;

void matpow(const elem_t A[N][N], elem_t R[N][N], uint32_t e);

#endif
