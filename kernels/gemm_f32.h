#ifndef GEMM_F32_H
#define GEMM_F32_H

#define NI 6
#define NJ 7
#define NK 5

void gemm_f32(float alpha, float beta, float C[NI][NJ], const float A[NI][NK],
              const float B[NK][NJ]);

#endif
