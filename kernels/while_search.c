/* A while loop with a data-dependent exit: first position where the running sum passes a limit. */
#define N 256

int while_search(int a[N], int limit) {
  int i = 0;
  int s = 0;
  while (i < N && s <= limit) {
    s += a[i];
    i++;
  }
  return i;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = (i * 7) % 10;
  return while_search(a, 500) < 0;
}
