/* Euclid's algorithm by repeated subtraction on two large 64-bit numbers:
 * a scalar-only kernel whose while loop runs thousands of times. */
#include <stdlib.h>

#include "gcd_sub.h"

num_t gcd_sub(num_t a, num_t b) {
  if (a == 0)
    return b;
  if (b == 0)
    return a;
  while (a != b) {
    if (a > b)
      a -= b;
    else
      b -= a;
  }
  return a;
}

int main(void) {
  num_t g = 1234567u;
  num_t b = g * 7919u;
  num_t a = b * 2900u + g * 31u;
  gcd_sub(a, b);
  return 0;
}
