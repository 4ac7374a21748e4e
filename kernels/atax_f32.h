#ifndef ATAX_F32_H
#define ATAX_F32_H

#define M 6
#define N 8

void atax_f32(const float A[M][N], const float x[N], float y[N], float tmp[M]);

#endif
