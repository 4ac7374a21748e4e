#ifndef GAUSSIAN_H
#define GAUSSIAN_H

/* Size and loop bounds as in EPFL Dynamatic's integration test `gaussian`:
   a 20x20 matrix, pivots 1..18, rows below the pivot up to 18, columns 1..19. */
#define DIM 20

typedef int elem_t;

unsigned gaussian(const elem_t factor[DIM], elem_t m[DIM][DIM]);

#endif
