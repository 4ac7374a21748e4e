/* A loop that only counts, then one store of the count (Dynamatic's
 * simple_example_1 layout): the front end folds the loop to its value. */
#include "count_loop.h"

void count_loop(int a[N]) {
  int x = 0;
  for (unsigned i = 0; i < N; ++i)
    x++;
  a[0] = x;
}

int main(void) {
  int a[N];
  for (unsigned j = 0; j < N; ++j)
    a[j] = j;
  count_loop(a);
  return 0;
}
