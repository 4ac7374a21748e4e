/* Sparse matrix-vector product in compressed-row storage; the sparsity pattern
 * (row delimiters and column indices) is a pair of const tables. */
#include <stdlib.h>

#include "spmv_crs.h"

void spmv_crs(const val_t val[NNZ], const val_t vec[N], val_t out[N]) {
  const int32_t rows[N + 1] = {0, 3, 5, 8, 9, 12, 15, 17, 20};
  const int32_t cols[NNZ] = {0, 2, 7, 1, 4, 0, 3, 6, 5, 1,
                             2, 7, 0, 4, 6, 3, 5, 1, 6, 7};
  for (int i = 0; i < N; i++) {
    val_t sum = 0;
    for (int32_t j = rows[i]; j < rows[i + 1]; j++)
      sum += val[j] * vec[cols[j]];
    out[i] = sum;
  }
}

int main(void) {
  val_t val[NNZ], vec[N], out[N];
  srand(24);
  for (int j = 0; j < NNZ; j++)
    val[j] = rand() % 1001 - 500;
  for (int i = 0; i < N; i++) {
    vec[i] = rand() % 1001 - 500;
    out[i] = 0;
  }
  spmv_crs(val, vec, out);
  return 0;
}
