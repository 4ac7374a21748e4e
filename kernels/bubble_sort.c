/* In-place bubble sort: nested loops with a data-dependent swap. */
#define N 64

void bubble_sort(int a[N]) {
  for (int i = 0; i < N - 1; i++) {
    for (int j = 0; j < N - 1 - i; j++) {
      if (a[j] > a[j + 1]) {
        int t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
    }
  }
}

int main(void) {
  int a[N];
  unsigned s = 12345u;
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    a[i] = (int)(s >> 16) % 1000 - 500;
  }
  bubble_sort(a);
  return 0;
}
