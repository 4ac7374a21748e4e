/* Reference integer semantics from the C compiler, for tests/golden/test_arith.py.
   Each function takes and returns bit patterns in uint64_t; `w` is 8, 16, 32 or 64.
   Only cases C defines are asked for (no division by zero, no oversized shifts). */
#include <stdint.h>

#define OPS(W) \
  static uint64_t op##W(int op, uint64_t ua, uint64_t ub) { \
    uint##W##_t a = (uint##W##_t)ua, b = (uint##W##_t)ub; \
    int##W##_t sa = (int##W##_t)a, sb = (int##W##_t)b; \
    switch (op) { \
      case 0: return (uint##W##_t)(a + b); \
      case 1: return (uint##W##_t)(a - b); \
      case 2: return (uint##W##_t)((uint64_t)a * (uint64_t)b); \
      case 3: return (uint##W##_t)(sa / sb); \
      case 4: return (uint##W##_t)(a / b); \
      case 5: return (uint##W##_t)(sa % sb); \
      case 6: return (uint##W##_t)(a % b); \
      case 7: return a & b; \
      case 8: return a | b; \
      case 9: return a ^ b; \
      case 10: return (uint##W##_t)(a << b); \
      case 11: return (uint##W##_t)(sa >> b); \
      case 12: return (uint##W##_t)(a >> b); \
      case 13: return sa < sb ? a : b; \
      case 14: return sa > sb ? a : b; \
      case 15: return a < b ? a : b; \
      case 16: return a > b ? a : b; \
      case 20: return a == b; case 21: return a != b; \
      case 22: return sa < sb; case 23: return sa <= sb; \
      case 24: return sa > sb; case 25: return sa >= sb; \
      case 26: return a < b; case 27: return a <= b; \
      case 28: return a > b; case 29: return a >= b; \
      case 30: return (uint64_t)(int64_t)sa; /* sign-extend to 64 */ \
    } \
    return 0; \
  }
OPS(8) OPS(16) OPS(32) OPS(64)

uint64_t ref(int w, int op, uint64_t a, uint64_t b) {
  switch (w) {
    case 8: return op8(op, a, b);
    case 16: return op16(op, a, b);
    case 32: return op32(op, a, b);
    default: return op64(op, a, b);
  }
}
