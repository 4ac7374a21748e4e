#ifndef COUNTDOWN_REPLAY_H
#define COUNTDOWN_REPLAY_H

#include <stdint.h>

#define SIZE 32

typedef int32_t data_t;

void countdown_replay(data_t a[SIZE], data_t n, data_t m);

#endif
