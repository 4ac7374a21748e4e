#ifndef LU_F64_H
#define LU_F64_H

#define N 8

void lu_f64(double A[N][N]);

#endif
