#ifndef K2MM_ACC_H
#define K2MM_ACC_H
#define NI 10
#define NJ 10
#define NK 10
#define NL 10
void k2mm_acc(int alpha, int beta, int tmp[NI][NJ], const int A[NI][NK],
              const int B[NK][NJ], const int C[NK][NL], int D[NI][NL]);
#endif
