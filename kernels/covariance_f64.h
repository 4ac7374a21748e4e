#ifndef COVARIANCE_F64_H
#define COVARIANCE_F64_H

#define M 6
#define N 9

void covariance_f64(double float_n, double data[N][M], double cov[M][M], double mean[M]);

#endif
