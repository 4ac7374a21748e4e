/* One SHA-256 compression: message schedule and 64 rounds of 32-bit rotations,
 * with the round constants in a const table. */
#include <stdlib.h>

#include "sha256_block.h"

static word_t rotr(word_t x, unsigned n) { return (x >> n) | (x << (32u - n)); }

static word_t big_sigma0(word_t x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
static word_t big_sigma1(word_t x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
static word_t small_sigma0(word_t x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
static word_t small_sigma1(word_t x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

void sha256_block(word_t state[STATE_WORDS], const word_t block[BLOCK_WORDS],
                  word_t w[ROUNDS]) {
  const word_t K[ROUNDS] = {
      0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u,
      0x923f82a4u, 0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u,
      0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u,
      0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
      0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u,
      0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u,
      0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
      0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
      0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au,
      0x5b9cca4fu, 0x682e6ff3u, 0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
      0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};
  for (int t = 0; t < BLOCK_WORDS; t++)
    w[t] = block[t];
  for (int t = BLOCK_WORDS; t < ROUNDS; t++)
    w[t] = small_sigma1(w[t - 2]) + w[t - 7] + small_sigma0(w[t - 15]) + w[t - 16];
  word_t a = state[0], b = state[1], c = state[2], d = state[3];
  word_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int t = 0; t < ROUNDS; t++) {
    word_t t1 = h + big_sigma1(e) + ((e & f) ^ (~e & g)) + K[t] + w[t];
    word_t t2 = big_sigma0(a) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

int main(void) {
  word_t state[STATE_WORDS] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                               0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
  word_t block[BLOCK_WORDS], w[ROUNDS];
  srand(18);
  for (int i = 0; i < BLOCK_WORDS; i++)
    block[i] = ((word_t)rand() << 16) ^ (word_t)rand();
  for (int i = 0; i < ROUNDS; i++)
    w[i] = 0;
  sha256_block(state, block, w);
  return 0;
}
