#ifndef BICG_ACC_H
#define BICG_ACC_H
#define N 30
int bicg_acc(const int A[N][N], int s[N], int q[N], const int p[N], const int r[N]);
#endif
