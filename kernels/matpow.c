/* A^e modulo a prime by square-and-multiply: a while loop over the bits of the
 * exponent, with local temporaries and 64-bit products. */
#include <stdlib.h>

#include "matpow.h"

static void mulmod(const elem_t X[N][N], const elem_t Y[N][N], elem_t Z[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      elem_t s = 0;
      for (int k = 0; k < N; k++)
        s = (s + X[i][k] * Y[k][j]) % MODULUS;
      Z[i][j] = s;
    }
}

static void copy(const elem_t X[N][N], elem_t Y[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      Y[i][j] = X[i][j];
}

void matpow(const elem_t A[N][N], elem_t R[N][N], uint32_t e) {
  elem_t B[N][N], T[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      R[i][j] = i == j;
  copy(A, B);
  while (e > 0) {
    if (e & 1u) {
      mulmod(R, B, T);
      copy(T, R);
    }
    mulmod(B, B, T);
    copy(T, B);
    e >>= 1;
  }
}

int main(void) {
  elem_t A[N][N], R[N][N];
  srand(23);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (elem_t)rand() % MODULUS;
      R[i][j] = 0;
    }
  matpow(A, R, 1000);
  return 0;
}
