/* Dense integer matrix product: a triple loop nest, the dot product kept in a
   scalar and stored once per output element. */
#include <stdlib.h>

#include "matmul30.h"

void matmul30(const num_t a[ROWS_A][COLS_A], const num_t b[COLS_A][COLS_B],
              num_t c[ROWS_A][COLS_B]) {
  for (unsigned i = 0; i < ROWS_A; i++)
    for (unsigned j = 0; j < COLS_B; j++) {
      int dot = 0;
      for (unsigned k = 0; k < COLS_A; k++)
        dot += a[i][k] * b[k][j];
      c[i][j] = dot;
    }
}

int main(void) {
  num_t a[ROWS_A][COLS_A], b[COLS_A][COLS_B], c[ROWS_A][COLS_B];
  srand(23);
  for (int i = 0; i < ROWS_A; ++i)
    for (int k = 0; k < COLS_A; ++k)
      a[i][k] = rand() % 10;
  for (int k = 0; k < COLS_A; ++k)
    for (int j = 0; j < COLS_B; ++j)
      b[k][j] = rand() % 10;
  for (int i = 0; i < ROWS_A; ++i)
    for (int j = 0; j < COLS_B; ++j)
      c[i][j] = 0;
  matmul30(a, b, c);
  return 0;
}
