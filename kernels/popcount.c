/* Bit tricks: population count by clearing the lowest set bit, and isolating it. */
#define N 128

int popcount(unsigned x[N], unsigned char cnt[N], unsigned low[N]) {
  int total = 0;
  for (int i = 0; i < N; i++) {
    unsigned v = x[i];
    unsigned char c = 0;
    low[i] = v & (~v + 1u);
    while (v) {
      v &= v - 1u;
      c++;
    }
    cnt[i] = c;
    total += c;
  }
  return total;
}

int main(void) {
  unsigned x[N], low[N];
  unsigned char cnt[N];
  unsigned s = 1u;
  for (int i = 0; i < N; i++) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    x[i] = i == 0 ? 0u : s;
    cnt[i] = 0;
    low[i] = 0;
  }
  return popcount(x, cnt, low) < 0;
}
