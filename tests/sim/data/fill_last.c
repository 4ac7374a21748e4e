/* The function's last act is a store: its done token exists as soon as the
   bridge accepted that write (done means ordered, design.md), so the top's
   done must also wait until the write reached the memory. */
#define N 6

void fill_last(int a[N], int k) {
  for (int i = 0; i < N; i++)
    a[i] = k * i + 1;
}

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = -1;
  fill_last(a, 7);
  return 0;
}
