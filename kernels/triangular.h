#ifndef TRIANGULAR_H
#define TRIANGULAR_H
#define N 10
void triangular(const int x[N], int n, int a[N][N]);
#endif
