#ifndef KMP_H
#define KMP_H

#include <stdint.h>

#define PATTERN_SIZE 4
#define STRING_SIZE 128

typedef uint8_t char_t;

int32_t kmp(const char_t pattern[PATTERN_SIZE], const char_t input[STRING_SIZE],
            int32_t next[PATTERN_SIZE]);

#endif
