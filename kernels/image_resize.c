/* Invert an image in place against a white level: a[i][j] = c - a[i][j]
 * (Dynamatic's integration test layout). */
#include <stdlib.h>

#include "image_resize.h"

void image_resize(pixel_t img[N][N], int white) {
  for (unsigned i = 0; i < N; i++)
    for (unsigned j = 0; j < N; j++)
      img[i][j] = white - img[i][j];
}

int main(void) {
  pixel_t img[N][N];
  srand(5);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      img[i][j] = rand() % 100;
  image_resize(img, 1000);
  return 0;
}
