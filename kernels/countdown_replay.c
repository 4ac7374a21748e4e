/* A decrementing loop (it stays an scf.while) whose body only replays a value
 * computed before it: the raw condition feeds an invariant that feeds a carry.
 * With one slot for two initial tokens this deadlocked in RTL (issue 10). */
#include <stdlib.h>
#include "countdown_replay.h"

void countdown_replay(data_t a[SIZE], data_t n, data_t m) {
  data_t v = 0;
  for (data_t i = 9; i > 3; i--)
    v = n + 1;
  a[m & (SIZE - 1)] = v;
}

int main(void) {
  data_t a[SIZE];
  srand(5);
  for (int k = 0; k < SIZE; k++)
    a[k] = rand() % 100;
  countdown_replay(a, 5, 3);
  return 0;
}
