/* Sign and zero extension and truncation between 8, 16, 32 and 64 bits. */
#define N 64

long long mixed_types(signed char a[N], unsigned short b[N], short c[N], unsigned char d[N]) {
  long long acc = 0;
  for (int i = 0; i < N; i++) {
    int x = a[i] * (int)b[i];
    c[i] = (short)(x >> 3);
    d[i] = (unsigned char)(a[i] + (int)b[i]);
    acc += (long long)x * a[i] - (unsigned long long)b[i];
  }
  return acc;
}

int main(void) {
  signed char a[N];
  unsigned short b[N];
  short c[N];
  unsigned char d[N];
  for (int i = 0; i < N; i++) {
    a[i] = (signed char)(i * 11 - 100);
    b[i] = (unsigned short)(i * 2027 + 60000);
    c[i] = 0;
    d[i] = 0;
  }
  return mixed_types(a, b, c, d) == 0;
}
