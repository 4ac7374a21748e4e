#ifndef GEMVER_H
#define GEMVER_H
#define N 30
void gemver(int alpha, int beta, const int u1[N], const int v1[N], const int u2[N],
            const int v2[N], const int y[N], const int z[N], int A[N][N], int w[N],
            int x[N]);
#endif
