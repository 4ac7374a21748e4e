/* A PRESENT-like 64-bit block cipher: key xor, a 4-bit S-box looked up in a
 * const table for every nibble, then a bit permutation, for each round. */
#include <stdlib.h>

#include "present_sbox.h"

static block_t substitute(block_t s) {
  const uint32_t sbox[16] = {0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD,
                             0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2};
  block_t r = 0;
  for (unsigned i = 0; i < NIBBLES; i++)
    r |= (block_t)sbox[(s >> (4 * i)) & 0xF] << (4 * i);
  return r;
}

static block_t permute(block_t s) {
  block_t r = 0;
  for (unsigned i = 0; i < 64; i++) {
    unsigned dest = i == 63 ? 63 : (16 * i) % 63;
    r |= ((s >> i) & 1u) << dest;
  }
  return r;
}

void present_sbox(block_t blocks[NBLOCKS], const block_t keys[ROUNDS + 1]) {
  for (int b = 0; b < NBLOCKS; b++) {
    block_t s = blocks[b];
    for (int r = 0; r < ROUNDS; r++)
      s = permute(substitute(s ^ keys[r]));
    blocks[b] = s ^ keys[ROUNDS];
  }
}

int main(void) {
  block_t blocks[NBLOCKS], keys[ROUNDS + 1];
  srand(20);
  for (int b = 0; b < NBLOCKS; b++)
    blocks[b] = ((block_t)rand() << 33) ^ ((block_t)rand() << 11) ^ (block_t)rand();
  for (int r = 0; r <= ROUNDS; r++)
    keys[r] = ((block_t)rand() << 32) | (block_t)rand();
  present_sbox(blocks, keys);
  return 0;
}
