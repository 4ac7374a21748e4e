/* 8-bit unsigned arithmetic: saturating add and average of pixels. */
#define N 256

void saturate_u8(unsigned char a[N], unsigned char b[N], unsigned char sum[N],
                 unsigned char avg[N]) {
  for (int i = 0; i < N; i++) {
    unsigned int s = a[i] + b[i];
    sum[i] = s > 255 ? 255 : (unsigned char)s;
    avg[i] = (unsigned char)((a[i] + b[i] + 1) >> 1);
  }
}

int main(void) {
  unsigned char a[N], b[N], sum[N], avg[N];
  for (int i = 0; i < N; i++) {
    a[i] = (unsigned char)(i * 3);
    b[i] = (unsigned char)(255 - i * 5);
    sum[i] = avg[i] = 0;
  }
  saturate_u8(a, b, sum, avg);
  return 0;
}
