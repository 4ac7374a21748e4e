/* Local arrays as scratch memory: rotate through a temporary buffer, then a local 2-D table. */
#define N 64
#define K 5

int local_array(int a[N]) {
  int tmp[N];
  int tab[4][4];
  for (int i = 0; i < N; i++)
    tmp[(i + K) % N] = a[i];
  for (int i = 0; i < N; i++)
    a[i] = tmp[i];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      tab[i][j] = a[i * 4 + j] * (i + 1);
  int s = 0;
  for (int i = 0; i < 4; i++)
    s += tab[i][3 - i];
  return s;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = i * 3 - 10;
  return local_array(a) == 0;
}
