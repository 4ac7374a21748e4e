/* break out of a for loop; the elements before the break are updated. */
#define N 128

int break_loop(int a[N], int key) {
  int i;
  for (i = 0; i < N; i++) {
    if (a[i] == key)
      break;
    a[i] += 1;
  }
  return i;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = (i * 5) % 61;
  return break_loop(a, 33) < 0;
}
