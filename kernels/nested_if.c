/* Nested ifs inside a loop, with stores to different arrays in different branches. */
#define N 128

int nested_if(int a[N], int pos[N], int neg[N]) {
  int zeros = 0;
  for (int i = 0; i < N; i++) {
    int v = a[i];
    if (v >= 0) {
      if (v == 0) {
        zeros++;
      } else {
        if (v > 50)
          pos[i] = v - 50;
        else
          pos[i] = v;
      }
    } else {
      neg[i] = -v;
      if (v < -50)
        a[i] = -50;
    }
  }
  return zeros;
}

int main(void) {
  int a[N], pos[N], neg[N];
  for (int i = 0; i < N; i++) {
    a[i] = (i * 37) % 151 - 75;
    pos[i] = 0;
    neg[i] = 0;
  }
  return nested_if(a, pos, neg) < 0;
}
