/* A loop whose bound makes it run zero times: the result is the initial value. */
#define N 32

int zero_trip(int a[N], int lo, int hi) {
  int s = 5;
  for (int i = lo; i < hi; i++) {
    s = s * 3 + a[i];
    a[i] = s;
  }
  return s;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = i;
  return zero_trip(a, 20, 10) != 5;
}
