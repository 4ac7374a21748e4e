#ifndef CRC16_H
#define CRC16_H

#include <stdint.h>

#define N 64
#define POLY 0x1021u
#define INIT 0xFFFFu

typedef uint8_t byte_t;
typedef uint16_t crc_t;

crc_t crc16(const byte_t data[N]);

#endif
