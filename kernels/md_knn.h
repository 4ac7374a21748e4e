#ifndef MD_KNN_H
#define MD_KNN_H

#include <stdint.h>

#define N_ATOMS 16
#define MAX_NEIGHBORS 4
#define LJ1 3
#define LJ2 2
#define SCALE 1000000

typedef int32_t coord_t;
typedef int32_t force_t;
typedef int32_t index_t;

void md_knn(force_t fx[N_ATOMS], force_t fy[N_ATOMS], force_t fz[N_ATOMS],
            const coord_t px[N_ATOMS], const coord_t py[N_ATOMS], const coord_t pz[N_ATOMS],
            const index_t NL[N_ATOMS][MAX_NEIGHBORS]);

#endif
