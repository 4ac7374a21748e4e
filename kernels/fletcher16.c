/* Fletcher-16 checksum of the first len bytes of message m; main() checks
 * NMSG messages of different lengths (one invocation each). */
#include <stdlib.h>

#include "fletcher16.h"

sum_t fletcher16(const byte_t msgs[NMSG][MAXLEN], uint8_t m, uint8_t len) {
  sum_t s1 = 0, s2 = 0;
  for (uint8_t i = 0; i < len; i++) {
    s1 = (sum_t)((s1 + msgs[m][i]) % 255);
    s2 = (sum_t)((s2 + s1) % 255);
  }
  return (sum_t)((s2 << 8) | s1);
}

int main(void) {
  const uint8_t lens[NMSG] = {32, 17, 48};
  byte_t msgs[NMSG][MAXLEN];
  srand(16);
  for (int m = 0; m < NMSG; m++)
    for (int i = 0; i < MAXLEN; i++)
      msgs[m][i] = (byte_t)(rand() & 0xff);
  for (uint8_t m = 0; m < NMSG; m++)
    fletcher16(msgs, m, lens[m]);
  return 0;
}
