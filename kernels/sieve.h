#ifndef SIEVE_H
#define SIEVE_H

#include <stdbool.h>
#include <stdint.h>

#define N 128

uint16_t sieve(bool composite[N]);

#endif
