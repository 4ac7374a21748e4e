/* Arithmetic versus logical shifts on signed and unsigned values of several widths. */
#define N 64

void shifts(int s[N], unsigned u[N], signed char c[N], long long w[N], int k) {
  for (int i = 0; i < N; i++) {
    int sh = (i + k) % 31;
    s[i] = s[i] >> sh;
    u[i] = (u[i] >> sh) ^ (u[i] << (31 - sh));
    c[i] = (signed char)(c[i] >> (i % 7));
    w[i] = (w[i] << (i % 40)) >> 3;
  }
}

int main(void) {
  int s[N];
  unsigned u[N];
  signed char c[N];
  long long w[N];
  for (int i = 0; i < N; i++) {
    s[i] = (i % 2 ? -1 : 1) * (i * 123457);
    u[i] = 0x80000000u >> (i % 32) | (unsigned)i;
    c[i] = (signed char)(i * 9 - 128);
    w[i] = (long long)(i - 32) * 1000003;
  }
  shifts(s, u, c, w, 3);
  return 0;
}
