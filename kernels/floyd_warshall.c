/* All-pairs shortest paths on 16-bit distances with an "infinite" marker;
 * unsigned loop counters (PolyBench floyd-warshall). */
#include <stdlib.h>

#include "floyd_warshall.h"

void floyd_warshall(dist_t path[N][N]) {
  for (unsigned k = 0; k < N; k++)
    for (unsigned i = 0; i < N; i++)
      for (unsigned j = 0; j < N; j++) {
        if (path[i][k] == INF || path[k][j] == INF)
          continue;
        int through = path[i][k] + path[k][j];
        if (through < path[i][j])
          path[i][j] = (dist_t)through;
      }
}

int main(void) {
  dist_t path[N][N];
  srand(13);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      if (i == j)
        path[i][j] = 0;
      else
        path[i][j] = rand() % 3 == 0 ? (dist_t)(rand() % 90 + 1) : INF;
    }
  floyd_warshall(path);
  return 0;
}
