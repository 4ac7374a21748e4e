#ifndef VITERBI_H
#define VITERBI_H

#include <stdint.h>

#define N_OBS 16
#define N_STATES 4
#define N_TOKENS 4

typedef int16_t cost_t;
typedef uint8_t tok_t;
typedef uint8_t state_t;

int32_t viterbi(const tok_t obs[N_OBS], const cost_t init[N_STATES],
                const cost_t transition[N_STATES][N_STATES],
                const cost_t emission[N_STATES][N_TOKENS], int32_t llike[N_OBS][N_STATES],
                state_t path[N_OBS]);

#endif
