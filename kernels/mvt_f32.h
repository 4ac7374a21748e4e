#ifndef MVT_F32_H
#define MVT_F32_H

#define N 10

void mvt_f32(float x1[N], float x2[N], const float y_1[N], const float y_2[N],
             const float A[N][N]);

#endif
