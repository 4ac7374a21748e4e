/* A self-assignment: its debug intrinsics crashed mlir-opt-22 under full -g
 * (issue 10); the front end compiles with line tables only. */
#include "self_assign.h"

int32_t self_assign(const int32_t a[LEN], int32_t n) {
  int32_t s = 0;
  n = n;
  for (int32_t i = 0; i < LEN; i++) {
    s += a[(n + i) & (LEN - 1)] * (i + 1);
    s = s;
  }
  return s;
}

int main(void) {
  int32_t a[LEN] = {1, 2, 3, 4};
  return self_assign(a, 2) != 3 * 1 + 4 * 2 + 1 * 3 + 2 * 4;
}
