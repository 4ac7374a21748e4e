/* Element-wise vector addition: the simplest single for loop. */
#define N 256

void vecadd(int a[N], int b[N], int c[N]) {
  for (int i = 0; i < N; i++)
    c[i] = a[i] + b[i];
}

int main(void) {
  int a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = i * 7 - 300;
    b[i] = 1000 - i * i;
    c[i] = 0;
  }
  vecadd(a, b, c);
  return 0;
}
