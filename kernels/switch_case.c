/* A switch statement (lowered to a chain of comparisons) driving an opcode interpreter. */
#define N 64

int switch_case(unsigned char op[N], int arg[N]) {
  int acc = 1;
  for (int i = 0; i < N; i++) {
    switch (op[i] % 5) {
    case 0:
      acc += arg[i];
      break;
    case 1:
      acc -= arg[i];
      break;
    case 2:
      acc *= 3;
      break;
    case 3:
      acc ^= arg[i];
      arg[i] = acc;
      break;
    default:
      acc >>= 1;
      break;
    }
  }
  return acc;
}

int main(void) {
  unsigned char op[N];
  int arg[N];
  for (int i = 0; i < N; i++) {
    op[i] = (unsigned char)((i * 13) % 17);
    arg[i] = (i * 101) % 37 - 18;
  }
  return switch_case(op, arg) == 0;
}
