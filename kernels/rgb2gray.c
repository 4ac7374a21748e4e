/* RGB to luma on an 8-bit 3-D image with integer BT.601 weights, a binary
 * threshold, and the count of bright pixels. */
#include <stdlib.h>

#include "rgb2gray.h"

uint32_t rgb2gray(const pixel_t img[HEIGHT][WIDTH][CHANNELS], pixel_t gray[HEIGHT][WIDTH],
                  pixel_t threshold) {
  const uint16_t weight[CHANNELS] = {77, 150, 29};
  uint32_t bright = 0;
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++) {
      uint32_t luma = 0;
      for (int c = 0; c < CHANNELS; c++)
        luma += (uint32_t)weight[c] * img[y][x][c];
      pixel_t g = (pixel_t)(luma >> 8);
      gray[y][x] = g;
      if (g > threshold)
        bright++;
    }
  return bright;
}

int main(void) {
  pixel_t img[HEIGHT][WIDTH][CHANNELS], gray[HEIGHT][WIDTH];
  srand(31);
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++) {
      gray[y][x] = 0;
      for (int c = 0; c < CHANNELS; c++)
        img[y][x][c] = (pixel_t)rand();
    }
  rgb2gray(img, gray, 128);
  return 0;
}
