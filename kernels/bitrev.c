/* Shifts and masks: reverse the bits of 16-bit values, rotate 32-bit values. */
#define N 64

void bitrev(unsigned short in[N], unsigned short rev[N], unsigned rot[N], int r) {
  for (int i = 0; i < N; i++) {
    unsigned short v = in[i];
    unsigned short o = 0;
    for (int b = 0; b < 16; b++) {
      o = (unsigned short)((o << 1) | (v & 1u));
      v >>= 1;
    }
    rev[i] = o;
    unsigned w = (unsigned)in[i] * 65537u;
    rot[i] = (w << r) | (w >> (32 - r));
  }
}

int main(void) {
  unsigned short in[N], rev[N];
  unsigned rot[N];
  for (int i = 0; i < N; i++) {
    in[i] = (unsigned short)(i * 4099 + 3);
    rev[i] = 0;
    rot[i] = 0;
  }
  bitrev(in, rev, rot, 7);
  return 0;
}
