/* Euclid by subtraction over scalars only: about 1500 trips of a while loop
   for (3001, 2). With no memory the function's done token is its entry token
   (seed 000), so done leaves the kernel thousands of cycles before the result. */
unsigned gcd_sub(unsigned a, unsigned b) {
  while (a != b) {
    if (a > b)
      a -= b;
    else
      b -= a;
  }
  return a;
}

int main(void) {
  return gcd_sub(3001u, 2u) == 1u ? 0 : 1;
}
