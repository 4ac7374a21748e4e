/* 3x3 box filter over the interior of a 2-D image. */
#define H 12
#define W 16

void stencil2d(int in[H][W], int out[H][W]) {
  for (int y = 1; y < H - 1; y++)
    for (int x = 1; x < W - 1; x++) {
      int s = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
          s += in[y + dy][x + dx];
      out[y][x] = s / 9;
    }
}

int main(void) {
  int in[H][W], out[H][W];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      in[y][x] = (x * 31 + y * 17) % 64 - 20;
      out[y][x] = 0;
    }
  stencil2d(in, out);
  return 0;
}
