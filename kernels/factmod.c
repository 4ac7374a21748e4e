/* n! modulo a prime: a scalar-only kernel with a <= loop of 64-bit multiplies
 * and remainders, thousands of iterations long. */
#include <stdlib.h>

#include "factmod.h"

num_t factmod(uint32_t n) {
  if (n >= PRIME)
    return 0;
  num_t r = 1;
  for (num_t i = 2; i <= n; i++)
    r = r * i % PRIME;
  return r;
}

int main(void) {
  factmod(3000);
  return 0;
}
