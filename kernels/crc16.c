/* CRC-16/CCITT, MSB first, bit by bit: an unsigned byte loop and a bit loop
 * counting down to zero. */
#include <stdlib.h>

#include "crc16.h"

crc_t crc16(const byte_t data[N]) {
  crc_t crc = INIT;
  for (unsigned i = 0; i < N; i++) {
    crc ^= (crc_t)(data[i] << 8);
    for (uint8_t bit = 8; bit != 0; bit--) {
      if (crc & 0x8000u)
        crc = (crc_t)((crc << 1) ^ POLY);
      else
        crc = (crc_t)(crc << 1);
    }
  }
  return crc;
}

int main(void) {
  byte_t data[N];
  srand(28);
  for (int i = 0; i < N; i++)
    data[i] = (byte_t)rand();
  crc16(data);
  return 0;
}
