/* Bitonic sorting network on 16 unsigned keys: stage sizes doubling up to N
 * (<=), strides halving down to 1, partners by xor. */
#include <stdlib.h>

#include "bitonic_sort.h"

static void compare_swap(elem_t a[N], unsigned i, unsigned j, unsigned up) {
  if ((a[i] > a[j]) == (up != 0)) {
    elem_t t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

void bitonic_sort(elem_t a[N]) {
  for (unsigned k = 2; k <= N; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1)
      for (unsigned i = 0; i < N; i++) {
        unsigned partner = i ^ j;
        if (partner > i)
          compare_swap(a, i, partner, (i & k) == 0);
      }
}

int main(void) {
  elem_t a[N];
  srand(21);
  for (int i = 0; i < N; i++)
    a[i] = (elem_t)rand();
  bitonic_sort(a);
  return 0;
}
