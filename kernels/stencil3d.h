#ifndef STENCIL3D_H
#define STENCIL3D_H

#include <stdint.h>

#define HEIGHT 6
#define ROWS 6
#define COLS 6

typedef int32_t data_t;

void stencil3d(data_t C0, data_t C1, const data_t orig[HEIGHT][ROWS][COLS],
               data_t sol[HEIGHT][ROWS][COLS]);

#endif
