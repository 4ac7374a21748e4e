/* goto out of a loop nest (a structured exit, not a jump into a loop). */
#define R 12
#define C 12

int goto_exit(int m[R][C], int key) {
  int pos = -1;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      if (m[i][j] == key) {
        pos = i * C + j;
        goto found;
      }
  return pos;
found:
  m[pos / C][pos % C] = 0;
  return pos;
}

int main(void) {
  int m[R][C];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = (i * 7 + j * 5) % 23;
  return goto_exit(m, 19) < -1;
}
