/* Byte histogram over the high nibble (read-modify-write at data-dependent
 * addresses), then the index of the fullest bin. */
#include <stdlib.h>

#include "hist_bytes.h"

uint8_t hist_bytes(const byte_t data[N], count_t bins[BINS]) {
  for (uint8_t b = 0; b < BINS; b++)
    bins[b] = 0;
  for (uint16_t i = 0; i < N; i++)
    bins[data[i] >> 4]++;
  uint8_t best = 0;
  for (uint8_t b = 1; b < BINS; b++)
    if (bins[b] > bins[best])
      best = b;
  return best;
}

int main(void) {
  byte_t data[N];
  count_t bins[BINS];
  srand(22);
  for (int i = 0; i < N; i++)
    data[i] = (byte_t)((rand() % 200) + (rand() % 56));
  for (int b = 0; b < BINS; b++)
    bins[b] = 0;
  hist_bytes(data, bins);
  return 0;
}
