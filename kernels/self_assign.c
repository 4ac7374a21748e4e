/* A self-assignment: its debug intrinsics crashed mlir-opt-22 under full -g
 * (issue 10); the front end compiles with line tables only. */
#include "self_assign.h"

int32_t self_assign(const int32_t a[LEN], int32_t n) {
  n = n;
  return a[n & (LEN - 1)];
}

int main(void) {
  int32_t a[LEN] = {1, 2, 3, 4};
  return self_assign(a, 2) != 3;
}
