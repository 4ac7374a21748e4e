#ifndef PIVOT_H
#define PIVOT_H
#define N 1000
void pivot(int x[N], const int a[N], int n, int k);
#endif
