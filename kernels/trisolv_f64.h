#ifndef TRISOLV_F64_H
#define TRISOLV_F64_H

#define N 10

void trisolv_f64(const double L[N][N], double x[N], const double b[N]);

#endif
