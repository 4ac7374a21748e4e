/* Viterbi decoding in the min-plus semiring on 16-bit costs (negative log
 * likelihoods), then a backtrack over a decrementing loop (MachSuite viterbi layout). */
#include <stdlib.h>

#include "viterbi.h"

int32_t viterbi(const tok_t obs[N_OBS], const cost_t init[N_STATES],
                const cost_t transition[N_STATES][N_STATES],
                const cost_t emission[N_STATES][N_TOKENS], int32_t llike[N_OBS][N_STATES],
                state_t path[N_OBS]) {
  for (int s = 0; s < N_STATES; s++)
    llike[0][s] = init[s] + emission[s][obs[0]];
  for (int t = 1; t < N_OBS; t++)
    for (int curr = 0; curr < N_STATES; curr++) {
      int32_t best = llike[t - 1][0] + transition[0][curr];
      for (int prev = 1; prev < N_STATES; prev++) {
        int32_t p = llike[t - 1][prev] + transition[prev][curr];
        if (p < best)
          best = p;
      }
      llike[t][curr] = best + emission[curr][obs[t]];
    }
  state_t end = 0;
  for (state_t s = 1; s < N_STATES; s++)
    if (llike[N_OBS - 1][s] < llike[N_OBS - 1][end])
      end = s;
  path[N_OBS - 1] = end;
  for (int t = N_OBS - 2; t >= 0; t--) {
    state_t next = path[t + 1];
    state_t arg = 0;
    int32_t best = llike[t][0] + transition[0][next];
    for (state_t prev = 1; prev < N_STATES; prev++) {
      int32_t p = llike[t][prev] + transition[prev][next];
      if (p < best) {
        best = p;
        arg = prev;
      }
    }
    path[t] = arg;
  }
  return llike[N_OBS - 1][end];
}

int main(void) {
  tok_t obs[N_OBS];
  cost_t init[N_STATES], transition[N_STATES][N_STATES], emission[N_STATES][N_TOKENS];
  int32_t llike[N_OBS][N_STATES];
  state_t path[N_OBS];
  srand(26);
  for (int t = 0; t < N_OBS; t++) {
    obs[t] = (tok_t)(rand() % N_TOKENS);
    path[t] = 0;
    for (int s = 0; s < N_STATES; s++)
      llike[t][s] = 0;
  }
  for (int s = 0; s < N_STATES; s++) {
    init[s] = (cost_t)(rand() % 1000);
    for (int s2 = 0; s2 < N_STATES; s2++)
      transition[s][s2] = (cost_t)(rand() % 1000);
    for (int k = 0; k < N_TOKENS; k++)
      emission[s][k] = (cost_t)(rand() % 1000);
  }
  viterbi(obs, init, transition, emission, llike, path);
  return 0;
}
