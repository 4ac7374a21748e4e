/* Knuth-Morris-Pratt: build the failure table, then count the (overlapping)
 * matches; both phases fall back through data-dependent while loops. */
#include <stdlib.h>

#include "kmp.h"

static void failure_table(const char_t pattern[PATTERN_SIZE], int32_t next[PATTERN_SIZE]) {
  int32_t k = 0;
  next[0] = 0;
  for (int32_t q = 1; q < PATTERN_SIZE; q++) {
    while (k > 0 && pattern[k] != pattern[q])
      k = next[k - 1];
    if (pattern[k] == pattern[q])
      k++;
    next[q] = k;
  }
}

int32_t kmp(const char_t pattern[PATTERN_SIZE], const char_t input[STRING_SIZE],
            int32_t next[PATTERN_SIZE]) {
  int32_t matches = 0;
  int32_t q = 0;
  failure_table(pattern, next);
  for (int32_t i = 0; i < STRING_SIZE; i++) {
    while (q > 0 && pattern[q] != input[i])
      q = next[q - 1];
    if (pattern[q] == input[i])
      q++;
    if (q == PATTERN_SIZE) {
      matches++;
      q = next[q - 1];
    }
  }
  return matches;
}

int main(void) {
  char_t pattern[PATTERN_SIZE] = {'a', 'b', 'a', 'b'};
  char_t input[STRING_SIZE];
  int32_t next[PATTERN_SIZE] = {0};
  srand(15);
  for (int i = 0; i < STRING_SIZE; i++)
    input[i] = (char_t)('a' + rand() % 2);
  kmp(pattern, input, next);
  return 0;
}
