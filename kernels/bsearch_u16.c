/* Binary search of 16 keys in a sorted table: a while (lo <= hi) loop whose
 * trip count depends on the data, left early on a hit (early return). */
#include <stdlib.h>

#include "bsearch_u16.h"

static pos_t find(const key16_t table[N], key16_t key) {
  int lo = 0, hi = N - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (table[mid] == key)
      return (pos_t)mid;
    if (table[mid] < key)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return NOT_FOUND;
}

void bsearch_u16(const key16_t table[N], const key16_t keys[NKEYS], pos_t pos[NKEYS]) {
  for (int k = 0; k < NKEYS; k++)
    pos[k] = find(table, keys[k]);
}

int main(void) {
  key16_t table[N], keys[NKEYS];
  pos_t pos[NKEYS];
  srand(32);
  key16_t v = 0;
  for (int i = 0; i < N; i++) {
    v = (key16_t)(v + 1 + rand() % 900);
    table[i] = v;
  }
  for (int k = 0; k < NKEYS; k++) {
    keys[k] = k % 2 ? table[rand() % N] : (key16_t)(rand() % 60000);
    pos[k] = 0;
  }
  bsearch_u16(table, keys, pos);
  return 0;
}
