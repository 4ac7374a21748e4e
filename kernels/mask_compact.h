#ifndef MASK_COMPACT_H
#define MASK_COMPACT_H

#include <stdbool.h>
#include <stdint.h>

#define N 32

typedef int16_t elem_t;

int32_t mask_compact(const elem_t in[N], const bool keep[N], elem_t out[N],
                     bool negative[N]);

#endif
