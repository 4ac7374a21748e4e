#ifndef BITONIC_SORT_H
#define BITONIC_SORT_H

#include <stdint.h>

#define N 16

typedef uint16_t elem_t;

void bitonic_sort(elem_t a[N]);

#endif
