#ifndef MATRIX_POWER_H
#define MATRIX_POWER_H
#define N 20
void matrix_power(int mat[N][N], const int row[N], const int col[N], const int a[N]);
#endif
