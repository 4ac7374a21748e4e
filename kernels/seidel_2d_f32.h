#ifndef SEIDEL_2D_F32_H
#define SEIDEL_2D_F32_H

#define TSTEPS 2
#define N 8

void seidel_2d_f32(float A[N][N]);

#endif
