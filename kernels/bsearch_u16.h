#ifndef BSEARCH_U16_H
#define BSEARCH_U16_H

#include <stdint.h>

#define N 64
#define NKEYS 16
#define NOT_FOUND (-1)

typedef uint16_t key16_t;
typedef int8_t pos_t;

void bsearch_u16(const key16_t table[N], const key16_t keys[NKEYS], pos_t pos[NKEYS]);

#endif
