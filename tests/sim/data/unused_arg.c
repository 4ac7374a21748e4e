/* A scalar parameter the body never reads (`scale`): its token is discarded
   (seed 003), by the golden model and by the RTL top alike. */
int unused_arg(int a[8], int scale, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

int main(void) {
  int a[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  return unused_arg(a, 5, 8) == 31 ? 0 : 1;
}
