// LOOM's tests/e2e/apps/vecadd/vecadd.cpp with the arrays' extents fixed
void vecadd(const int a[8], const int b[8], int c[8], int n) {
  for (int i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

int main(void) {
  int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int b[8] = {8, 7, 6, 5, 4, 3, 2, 1};
  int c[8] = {0};
  vecadd(a, b, c, 8);
  return 0;
}
