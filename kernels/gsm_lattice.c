/* GSM-style short-term analysis lattice filter in 16-bit saturating fixed point:
 * rounding Q15 multiplies and saturating adds as static helpers (CHStone gsm style). */
#include <stdlib.h>

#include "gsm_lattice.h"

static word16_t saturate(longword_t v) {
  return (word16_t)(v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : v);
}

static word16_t gsm_add(word16_t a, word16_t b) { return saturate((longword_t)a + b); }

static word16_t gsm_mult_r(word16_t a, word16_t b) {
  if (a == INT16_MIN && b == INT16_MIN)
    return INT16_MAX;
  return (word16_t)(((longword_t)a * b + 16384) >> 15);
}

void gsm_lattice(const word16_t rp[ORDER], word16_t u[ORDER], word16_t s[NSAMPLES]) {
  for (int k = 0; k < NSAMPLES; k++) {
    word16_t di = s[k];
    word16_t sav = di;
    for (int i = 0; i < ORDER; i++) {
      word16_t ui = u[i];
      word16_t rpi = rp[i];
      u[i] = sav;
      sav = gsm_add(ui, gsm_mult_r(rpi, di));
      di = gsm_add(di, gsm_mult_r(rpi, ui));
    }
    s[k] = di;
  }
}

int main(void) {
  word16_t rp[ORDER], u[ORDER], s[NSAMPLES];
  srand(27);
  for (int i = 0; i < ORDER; i++) {
    rp[i] = (word16_t)(rand() % 65536 - 32768);
    u[i] = 0;
  }
  rp[0] = INT16_MIN;
  for (int k = 0; k < NSAMPLES; k++)
    s[k] = (word16_t)(rand() % 65536 - 32768);
  s[3] = INT16_MIN;
  gsm_lattice(rp, u, s);
  return 0;
}
