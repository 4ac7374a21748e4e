#ifndef FLOYD_WARSHALL_H
#define FLOYD_WARSHALL_H

#include <stdint.h>

#define N 10
#define INF 30000

typedef int16_t dist_t;

void floyd_warshall(dist_t path[N][N]);

#endif
