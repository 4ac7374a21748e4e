#ifndef FLETCHER16_H
#define FLETCHER16_H

#include <stdint.h>

#define MAXLEN 48
#define NMSG 3

typedef uint8_t byte_t;
typedef uint16_t sum_t;

sum_t fletcher16(const byte_t msgs[NMSG][MAXLEN], uint8_t m, uint8_t len);

#endif
