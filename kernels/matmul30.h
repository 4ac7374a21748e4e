#ifndef MATMUL30_H
#define MATMUL30_H

/* Sizes as in EPFL Dynamatic's integration test `matrix`: 30x30 times 30x30.
   Smaller products for long simulations (the fabric regression's, in
   tests/sim/test_fabric_regression.py): -DROWS_A=10 -DCOLS_A=10 -DCOLS_B=10.
   Keep the three equal, or the graph gains constants. */
#ifndef ROWS_A
#define ROWS_A 30
#endif
#ifndef COLS_A
#define COLS_A 30
#endif
#ifndef COLS_B
#define COLS_B 30
#endif

typedef int num_t;

void matmul30(const num_t a[ROWS_A][COLS_A], const num_t b[COLS_A][COLS_B],
              num_t c[ROWS_A][COLS_B]);

#endif
