#ifndef JACOBI_1D_F64_H
#define JACOBI_1D_F64_H

#define TSTEPS 4
#define N 16

void jacobi_1d_f64(double A[N], double B[N]);

#endif
