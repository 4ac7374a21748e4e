#ifndef COUNT_LOOP_H
#define COUNT_LOOP_H
#define N 100
void count_loop(int a[N]);
#endif
