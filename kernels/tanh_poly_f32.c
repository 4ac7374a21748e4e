/* A piecewise approximation of tanh over an array, as Dynamatic's get_tanh
 * writes it: a branch on the magnitude, a rational polynomial inside the
 * range, the saturated value outside; the sign restored with a compare. */
#define N 40

void tanh_poly_f32(float A[N], const int addr[N]) {
  for (int i = 0; i < N; i++) {
    float x = A[addr[i]];
    float ax = x < 0.0f ? -x : x;
    float r;
    if (ax >= 3.0f) {
      r = 1.0f;
    } else {
      float x2 = ax * ax;
      r = ax * (27.0f + x2) / (27.0f + 9.0f * x2);
    }
    A[addr[i]] = x < 0.0f ? -r : r;
  }
}

int main(void) {
  float A[N];
  int addr[N];
  for (int i = 0; i < N; i++) {
    A[i] = (float)(i - N / 2) / 6.0f;
    addr[i] = (i * 7) % N;   /* a permutation: each element once */
  }
  tanh_poly_f32(A, addr);
  return 0;
}
