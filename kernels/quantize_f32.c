/* Quantizes floats to 8-bit codes and back (an image-processing pipeline as
 * HLS users write it): scale, round half away from zero by hand, clamp,
 * convert to int and to unsigned char, then dequantize with a conversion
 * from integer and accumulate the error in double. */
#define N 24

double quantize_f32(const float x[N], float scale, unsigned char code[N], float back[N]) {
  double err = 0.0;
  for (int i = 0; i < N; i++) {
    float s = x[i] * scale;
    int q = (int)(s < 0.0f ? s - 0.5f : s + 0.5f);
    if (q < 0)
      q = 0;
    if (q > 255)
      q = 255;
    code[i] = (unsigned char)q;
    back[i] = (float)code[i] / scale;
    err += (double)(x[i] - back[i]) * (double)(x[i] - back[i]);
  }
  return err;
}

int main(void) {
  float x[N], back[N];
  unsigned char code[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)(i * 37 % 101) / 7.0f - 1.5f;
  quantize_f32(x, 17.25f, code, back);
  return 0;
}
