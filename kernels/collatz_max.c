/* The longest Collatz trajectory for starting values lo..hi: a scalar-only
 * kernel, a <= loop around a data-dependent while loop on 64-bit values. */
#include <stdlib.h>

#include "collatz_max.h"

static count_t steps(uint64_t x) {
  count_t n = 0;
  while (x != 1) {
    x = (x & 1u) ? 3 * x + 1 : x >> 1;
    n++;
  }
  return n;
}

count_t collatz_max(uint32_t lo, uint32_t hi) {
  count_t best = 0;
  for (uint32_t v = lo; v <= hi; v++) {
    count_t s = steps(v);
    if (s > best)
      best = s;
  }
  return best;
}

int main(void) {
  collatz_max(20, 60);
  return 0;
}
