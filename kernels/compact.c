/* Stream compaction: a conditional store at a data-dependent output index. */
#define N 256

int compact(int in[N], int out[N], int threshold) {
  int n = 0;
  for (int i = 0; i < N; i++) {
    if (in[i] > threshold) {
      out[n] = in[i];
      n++;
    }
  }
  return n;
}

int main(void) {
  int in[N], out[N];
  for (int i = 0; i < N; i++) {
    in[i] = (i * 97) % 199 - 99;
    out[i] = 0;
  }
  return compact(in, out, 20) < 0;
}
