// Adds k to every element and returns the new sum: invocations see each
// other's stores, so back-to-back runs test that memory persists.
int bump(int a[4], int k) {
  int s = 0;
  for (int i = 0; i < 4; i++) {
    a[i] += k;
    s += a[i];
  }
  return s;
}

int main(void) {
  int a[4] = {1, 2, 3, 4};
  return bump(a, 1) == 14 ? 0 : 1;
}
