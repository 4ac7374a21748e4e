// LOOM's tests/e2e/apps/sum-array/sum-array.cpp with the array's extent fixed
int sum_array(const int a[8], int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i)
    acc += a[i];
  return acc;
}

int main(void) {
  int a[8];
  for (int i = 0; i < 8; ++i)
    a[i] = 1 + i;
  return sum_array(a, 8) == 36 ? 0 : 1;
}
