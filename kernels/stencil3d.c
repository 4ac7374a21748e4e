/* 7-point stencil on a 3-D grid: the boundary is copied, the interior weighs
 * the centre and its six neighbours (the layout of MachSuite stencil3d). */
#include <stdlib.h>

#include "stencil3d.h"

void stencil3d(data_t C0, data_t C1, const data_t orig[HEIGHT][ROWS][COLS],
               data_t sol[HEIGHT][ROWS][COLS]) {
  for (int i = 0; i < HEIGHT; i++)
    for (int j = 0; j < ROWS; j++)
      for (int k = 0; k < COLS; k++) {
        if (i == 0 || j == 0 || k == 0 || i == HEIGHT - 1 || j == ROWS - 1 || k == COLS - 1) {
          sol[i][j][k] = orig[i][j][k];
          continue;
        }
        data_t sum = orig[i - 1][j][k] + orig[i + 1][j][k] + orig[i][j - 1][k] +
                     orig[i][j + 1][k] + orig[i][j][k - 1] + orig[i][j][k + 1];
        sol[i][j][k] = C0 * orig[i][j][k] + C1 * sum;
      }
}

int main(void) {
  data_t orig[HEIGHT][ROWS][COLS], sol[HEIGHT][ROWS][COLS];
  srand(25);
  for (int i = 0; i < HEIGHT; i++)
    for (int j = 0; j < ROWS; j++)
      for (int k = 0; k < COLS; k++) {
        orig[i][j][k] = rand() % 2001 - 1000;
        sol[i][j][k] = 0;
      }
  stencil3d(6, -1, orig, sol);
  return 0;
}
