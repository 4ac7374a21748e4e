/* Insertion sort: a while loop with a compound exit condition nested in a for loop. */
#define N 48

void insertion_sort(short a[N]) {
  for (int i = 1; i < N; i++) {
    short key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > key) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = key;
  }
}

int main(void) {
  short a[N];
  for (int i = 0; i < N; i++)
    a[i] = (short)((i * 7919) % 613 - 300);
  insertion_sort(a);
  return 0;
}
