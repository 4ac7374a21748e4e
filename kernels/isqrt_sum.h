#ifndef ISQRT_SUM_H
#define ISQRT_SUM_H

#include <stdint.h>

typedef uint64_t value_t;

value_t isqrt_sum(value_t first, uint32_t count);

#endif
