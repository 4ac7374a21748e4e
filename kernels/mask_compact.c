/* Compaction under a boolean mask: the kept elements are packed to the front,
 * and a second boolean array flags the negative ones. */
#include <stdlib.h>

#include "mask_compact.h"

int32_t mask_compact(const elem_t in[N], const bool keep[N], elem_t out[N],
                     bool negative[N]) {
  int32_t n = 0;
  for (int i = 0; i < N; i++) {
    negative[i] = in[i] < 0;
    if (keep[i])
      out[n++] = in[i];
  }
  for (int i = n; i < N; i++)
    out[i] = 0;
  return n;
}

int main(void) {
  elem_t in[N], out[N];
  bool keep[N], negative[N];
  srand(29);
  for (int i = 0; i < N; i++) {
    in[i] = (elem_t)(rand() % 2001 - 1000);
    keep[i] = rand() % 3 != 0;
    negative[i] = false;
    out[i] = -1;
  }
  mask_compact(in, keep, out, negative);
  return 0;
}
