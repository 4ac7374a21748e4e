/* Insertion sort whose inner while loop leaves by a break once the slot is
   found; the element count arrives as a scalar argument. */
#include <stdlib.h>

#include "insertion_break.h"

void insertion_break(item_t v[LEN], int n) {
  for (int i = 1; i < n; ++i) {
    item_t key = v[i];
    int j = i;
    while (j > 0) {
      if (v[j - 1] <= key)
        break;
      v[j] = v[j - 1];
      --j;
    }
    v[j] = key;
  }
}

int main(void) {
  item_t v[LEN];
  /* unseeded rand() % 10, as Dynamatic's test fills its array: the same data,
     so the same number of shifts, and cycle counts that compare */
  for (int i = 0; i < LEN; ++i)
    v[i] = rand() % 10;
  insertion_break(v, LEN);
  return 0;
}
