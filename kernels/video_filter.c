/* Per-channel colour correction of an image, in place: subtract an offset,
 * scale, drop four fraction bits (Dynamatic's integration test layout). */
#include <stdlib.h>

#include "video_filter.h"

void video_filter(int offset, int scale, pixel_t red[N][N], pixel_t green[N][N],
                  pixel_t blue[N][N]) {
  for (unsigned y = 0; y < N; y++) {
    for (unsigned x = 0; x < N; x++) {
      red[y][x] = ((red[y][x] - offset) * scale) >> 4;
      blue[y][x] = ((blue[y][x] - offset) * scale) >> 4;
      green[y][x] = ((green[y][x] - offset) * scale) >> 4;
    }
  }
}

int main(void) {
  pixel_t red[N][N], green[N][N], blue[N][N];
  srand(21);
  int offset = rand() % 100;
  int scale = rand() % 10;
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x) {
      red[y][x] = rand() % 1000;
      green[y][x] = rand() % 1000;
      blue[y][x] = rand() % 1000;
    }
  video_filter(offset, scale, red, green, blue);
  return 0;
}
