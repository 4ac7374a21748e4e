/* Sieve of Eratosthenes over a boolean array: the outer loop runs while i*i <= N,
 * the inner one strides by i; returns the number of primes below N. */
#include <stdlib.h>

#include "sieve.h"

uint16_t sieve(bool composite[N]) {
  for (int i = 0; i < N; i++)
    composite[i] = i < 2;
  for (int i = 2; i * i <= N; i++) {
    if (composite[i])
      continue;
    for (int j = i * i; j < N; j += i)
      composite[j] = true;
  }
  uint16_t primes = 0;
  for (int i = 0; i < N; i++)
    if (!composite[i])
      primes++;
  return primes;
}

int main(void) {
  bool composite[N];
  srand(30);
  for (int i = 0; i < N; i++)
    composite[i] = rand() & 1;
  sieve(composite);
  return 0;
}
