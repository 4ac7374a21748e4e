#ifndef INSERTION_BREAK_H
#define INSERTION_BREAK_H

/* Size as in EPFL Dynamatic's integration test `insertion_sort`: 30 elements. */
#define LEN 30

typedef int item_t;

void insertion_break(item_t v[LEN], int n);

#endif
