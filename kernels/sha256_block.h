#ifndef SHA256_BLOCK_H
#define SHA256_BLOCK_H

#include <stdint.h>

#define BLOCK_WORDS 16
#define ROUNDS 64
#define STATE_WORDS 8

typedef uint32_t word_t;

void sha256_block(word_t state[STATE_WORDS], const word_t block[BLOCK_WORDS],
                  word_t w[ROUNDS]);

#endif
