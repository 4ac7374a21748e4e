#ifndef HIST_BYTES_H
#define HIST_BYTES_H

#include <stdint.h>

#define N 256
#define BINS 16

typedef uint8_t byte_t;
typedef uint16_t count_t;

uint8_t hist_bytes(const byte_t data[N], count_t bins[BINS]);

#endif
