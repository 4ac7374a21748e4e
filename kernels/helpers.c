/* Calls to helper functions in the same file, inlined into the top. */
#define N 64

static int sq(int x) { return x * x; }

static int clamp_add(int s, int v, int limit) {
  int t = s + v;
  if (t > limit)
    return limit;
  return t;
}

static void scale_row(int row[N], int f) {
  for (int i = 0; i < N; i++)
    row[i] = row[i] * f;
}

int helpers(int a[N], int limit) {
  int s = 0;
  scale_row(a, 3);
  for (int i = 0; i < N; i++)
    s = clamp_add(s, sq(a[i]) % 1000, limit);
  return s;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = i - 30;
  return helpers(a, 20000) < 0;
}
