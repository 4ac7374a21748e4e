/* Integer Gaussian elimination: every row below a pivot row loses a multiple
   of it; returns a checksum of the column indices visited. */
#include <stdlib.h>

#include "gaussian.h"

unsigned gaussian(const elem_t factor[DIM], elem_t m[DIM][DIM]) {
  unsigned visited = 0;
  for (unsigned p = 1; p <= DIM - 2; p++)
    for (unsigned r = p + 1; r <= DIM - 2; r++)
      for (unsigned c = 1; c <= DIM - 1; c++) {
        m[r][c] = m[r][c] - factor[p] * m[p][c];
        visited += c;
      }
  return visited;
}

int main(void) {
  elem_t factor[DIM], m[DIM][DIM];
  srand(17);
  for (int r = 0; r < DIM; ++r) {
    factor[r] = rand() % 3 - 1;   /* -1, 0 or 1: the rows stay far from overflow */
    for (int c = 0; c < DIM; ++c)
      m[r][c] = rand() % 10;
  }
  return gaussian(factor, m) == 0;
}
