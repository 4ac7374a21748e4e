/* A 3x3 weighted window slid along the top row of a 2-D image: one output
   per column, each the sum of nine products; returns the last output. */
#include <stdlib.h>

#include "stencil_3x3.h"

int stencil_3x3(const pixel_t img[ROWS][COLS], const pixel_t coef[K][K],
                pixel_t out[OUT_COLS]) {
  int acc = 0;
  for (unsigned col = 0; col < OUT_COLS; col++) {
    acc = 0;
    for (unsigned r = 0; r < K; r++)
      for (unsigned s = 0; s < K; s++)
        acc += coef[r][s] * img[r][col + s];
    out[col] = acc;
  }
  return acc;
}

int main(void) {
  pixel_t img[ROWS][COLS], coef[K][K], out[OUT_COLS];
  srand(5);
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++)
      img[r][c] = rand() % 256;
  for (int r = 0; r < K; r++)
    for (int s = 0; s < K; s++)
      coef[r][s] = rand() % 9 - 4;
  for (int c = 0; c < OUT_COLS; c++)
    out[c] = 0;
  stencil_3x3(img, coef, out);
  return 0;
}
