/* A return from inside nested loops: position of the first pair that sums to the target. */
#define N 48

int early_return(int a[N], int target) {
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++)
      if (a[i] + a[j] == target)
        return i * N + j;
  return -1;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = (i * 17) % 31;
  return early_return(a, 55) == -2;
}
