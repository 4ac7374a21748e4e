#ifndef CHOLESKY_F64_H
#define CHOLESKY_F64_H

#define N 8

void cholesky_f64(double A[N][N]);

#endif
