#ifndef STENCIL_3X3_H
#define STENCIL_3X3_H

/* Sizes and loop bounds as in EPFL Dynamatic's integration test `stencil_2d`:
   a 30x30 image, a 3x3 window, the first 28 output columns of one row. */
#define ROWS 30
#define COLS 30
#define K 3
#define OUT_COLS (COLS - K + 1)

typedef int pixel_t;

int stencil_3x3(const pixel_t img[ROWS][COLS], const pixel_t coef[K][K],
                pixel_t out[OUT_COLS]);

#endif
