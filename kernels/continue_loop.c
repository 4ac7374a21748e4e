/* continue skips part of the body: only odd, positive elements are scaled and summed. */
#define N 160

int continue_loop(int a[N]) {
  int s = 0;
  for (int i = 0; i < N; i++) {
    if ((a[i] & 1) == 0)
      continue;
    if (a[i] < 0)
      continue;
    a[i] = a[i] * 3;
    s += a[i];
  }
  return s;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = (i * 29) % 53 - 20;
  return continue_loop(a) == 0;
}
