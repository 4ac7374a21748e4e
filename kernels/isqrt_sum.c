/* Sum of integer square roots by Newton's iteration over a range of 64-bit
 * values: a scalar-only kernel, nested data-dependent loops, early returns. */
#include <stdlib.h>

#include "isqrt_sum.h"

static value_t isqrt(value_t x) {
  if (x < 2)
    return x;
  value_t r = x;
  value_t next = (r + x / r) / 2;
  while (next < r) {
    r = next;
    next = (r + x / r) / 2;
  }
  return r;
}

value_t isqrt_sum(value_t first, uint32_t count) {
  value_t sum = 0;
  if (count == 0)
    return 0;
  for (uint32_t i = 0; i < count; i++)
    sum += isqrt(first + i);
  return sum;
}

int main(void) {
  isqrt_sum(1000000007u, 80);
  return 0;
}
