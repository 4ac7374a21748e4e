#ifndef MATMUL30_H
#define MATMUL30_H

/* Sizes as in EPFL Dynamatic's integration test `matrix`: 30x30 times 30x30. */
#define ROWS_A 30
#define COLS_A 30
#define COLS_B 30

typedef int num_t;

void matmul30(const num_t a[ROWS_A][COLS_A], const num_t b[COLS_A][COLS_B],
              num_t c[ROWS_A][COLS_B]);

#endif
