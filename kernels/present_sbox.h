#ifndef PRESENT_SBOX_H
#define PRESENT_SBOX_H

#include <stdint.h>

#define NBLOCKS 2
#define ROUNDS 6
#define NIBBLES 16

typedef uint64_t block_t;

void present_sbox(block_t blocks[NBLOCKS], const block_t keys[ROUNDS + 1]);

#endif
