#ifndef SELF_ASSIGN_H
#define SELF_ASSIGN_H

#include <stdint.h>

#define LEN 4

int32_t self_assign(const int32_t a[LEN], int32_t n);

#endif
