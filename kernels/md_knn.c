/* Molecular-dynamics style force sum over a fixed neighbour list, in fixed
 * point: a Lennard-Jones-like potential from 1/r^2 (the layout of MachSuite md/knn). */
#include <stdlib.h>

#include "md_knn.h"

void md_knn(force_t fx[N_ATOMS], force_t fy[N_ATOMS], force_t fz[N_ATOMS],
            const coord_t px[N_ATOMS], const coord_t py[N_ATOMS], const coord_t pz[N_ATOMS],
            const index_t NL[N_ATOMS][MAX_NEIGHBORS]) {
  for (int i = 0; i < N_ATOMS; i++) {
    coord_t ix = px[i], iy = py[i], iz = pz[i];
    int64_t sx = 0, sy = 0, sz = 0;
    for (int j = 0; j < MAX_NEIGHBORS; j++) {
      index_t n = NL[i][j];
      coord_t dx = ix - px[n], dy = iy - py[n], dz = iz - pz[n];
      int64_t r2 = (int64_t)dx * dx + (int64_t)dy * dy + (int64_t)dz * dz + 1;
      int64_t r2inv = SCALE / r2;
      int64_t r6inv = r2inv * r2inv / SCALE * r2inv / SCALE;
      int64_t potential = r6inv * (LJ1 * r6inv / SCALE - LJ2);
      int64_t force = r2inv * potential / SCALE;
      sx += dx * force;
      sy += dy * force;
      sz += dz * force;
    }
    fx[i] = (force_t)(sx / 64);
    fy[i] = (force_t)(sy / 64);
    fz[i] = (force_t)(sz / 64);
  }
}

int main(void) {
  force_t fx[N_ATOMS], fy[N_ATOMS], fz[N_ATOMS];
  coord_t px[N_ATOMS], py[N_ATOMS], pz[N_ATOMS];
  index_t NL[N_ATOMS][MAX_NEIGHBORS];
  srand(17);
  for (int i = 0; i < N_ATOMS; i++) {
    px[i] = rand() % 64;
    py[i] = rand() % 64;
    pz[i] = rand() % 64;
    fx[i] = fy[i] = fz[i] = 0;
  }
  for (int i = 0; i < N_ATOMS; i++)
    for (int j = 0; j < MAX_NEIGHBORS; j++)
      NL[i][j] = (i + 1 + j + rand() % 3) % N_ATOMS;
  md_knn(fx, fy, fz, px, py, pz, NL);
  return 0;
}
