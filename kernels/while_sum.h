#ifndef WHILE_SUM_H
#define WHILE_SUM_H

/* Sizes as in EPFL Dynamatic's integration test `while_loop_1`: 1000-element
   arrays, the loop leaves at element 900 (901 iterations). */
#define LEN 1000
#define STOP_AT 900
#define LIMIT 1000

typedef int val_t;

void while_sum(val_t a[LEN], const val_t b[LEN]);

#endif
