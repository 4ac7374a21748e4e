/* A data-dependent while loop: add b into a element by element until a sum
   reaches LIMIT; the trip count is known only from the data. */
#include <stdlib.h>

#include "while_sum.h"

void while_sum(val_t a[LEN], const val_t b[LEN]) {
  int k = 0;
  int s = 0;
  while (s < LIMIT) {
    s = a[k] + b[k];
    a[k] = s;
    k++;
  }
}

int main(void) {
  val_t a[LEN], b[LEN];
  srand(7);
  for (int k = 0; k < LEN; ++k) {
    a[k] = rand() % 10;
    b[k] = rand() % 10;
  }
  a[STOP_AT] = LIMIT / 2 + 100;   /* the first sum to reach LIMIT */
  b[STOP_AT] = LIMIT / 2 + 100;
  while_sum(a, b);
  return 0;
}
