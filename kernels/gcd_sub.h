#ifndef GCD_SUB_H
#define GCD_SUB_H

#include <stdint.h>

typedef uint64_t num_t;

num_t gcd_sub(num_t a, num_t b);

#endif
