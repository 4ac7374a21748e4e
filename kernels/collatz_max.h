#ifndef COLLATZ_MAX_H
#define COLLATZ_MAX_H

#include <stdint.h>

typedef uint32_t count_t;

count_t collatz_max(uint32_t lo, uint32_t hi);

#endif
