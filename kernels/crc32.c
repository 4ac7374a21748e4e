/* Bitwise CRC-32: shifts, xor and a data-dependent select in an inner loop. */
#define N 64

unsigned crc32(unsigned char data[N]) {
  unsigned crc = 0xFFFFFFFFu;
  for (int i = 0; i < N; i++) {
    crc ^= data[i];
    for (int k = 0; k < 8; k++)
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

int main(void) {
  unsigned char data[N];
  for (int i = 0; i < N; i++)
    data[i] = (unsigned char)(i * 7 + 1);
  return crc32(data) == 0u;
}
