/* A decrementing loop: reverse a copy. */
#define N 96

void countdown(int src[N], int dst[N]) {
  for (int i = N - 1; i >= 0; i--)
    dst[N - 1 - i] = src[i];
}

int main(void) {
  int src[N], dst[N];
  for (int i = 0; i < N; i++) {
    src[i] = i * i - 40 * i;
    dst[i] = -1;
  }
  countdown(src, dst);
  return 0;
}
