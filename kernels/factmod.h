#ifndef FACTMOD_H
#define FACTMOD_H

#include <stdint.h>

#define PRIME 1000000007u

typedef uint64_t num_t;

num_t factmod(uint32_t n);

#endif
