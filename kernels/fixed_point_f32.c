/* Fixed-point samples through float and back, as a DSP front end writes it
 * (the conversions of Dynamatic's float integration kernels): a signed
 * sample and an unsigned 8-bit gain become floats, their scaled product
 * plus an unsigned offset is truncated toward zero into a signed result,
 * and its magnitude into an unsigned one. */
#define N 32

void fixed_point_f32(const int x[N], const unsigned char g[N], int q[N], unsigned u[N]) {
  for (int i = 0; i < N; i++) {
    float v = (float)x[i] * 0.125f * (float)g[i] + (float)(unsigned)(i * 3) * 0.5f;
    q[i] = (int)v;
    u[i] = (unsigned)(v < 0.0f ? -v : v);
  }
}

int main(void) {
  int x[N];
  unsigned char g[N];
  int q[N];
  unsigned u[N];
  for (int i = 0; i < N; i++) {
    x[i] = (i * 37) % 201 - 100;
    g[i] = (unsigned char)(i * 53 + 7);
    q[i] = 0;
    u[i] = 0;
  }
  fixed_point_f32(x, g, q, u);
  return 0;
}
