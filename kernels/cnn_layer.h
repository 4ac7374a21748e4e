#ifndef CNN_LAYER_H
#define CNN_LAYER_H

/* Sizes and loop nests as in EPFL Dynamatic's integration test `cnn` (after
   the AutoBridge CNN benchmark): 10 input and 10 output feature maps, the
   output maps computed 2 at a time, a 10x10 image, a 4x4 kernel. The index
   expressions are the benchmark's simplified ones, so the arrays are small. */
#define PAR_OUT 2
/* Smaller layers for long simulations (the fabric regression's, in
   tests/sim/test_fabric_regression.py): -DMAPS_IN=2 -DIMG=3 -DOUT_IMG=3.
   Keep every loop at two trips or more (clang folds a loop of one) and the
   sizes off powers of two (a multiply becomes a shift), or the dataflow
   graph changes; the arrays keep their sizes, which cover the largest index
   of the full layer. */
#ifndef IMG
#define IMG 10
#endif
#ifndef OUT_IMG
#define OUT_IMG 10
#endif
#ifndef MAPS_IN
#define MAPS_IN 10
#endif
#ifndef MAPS_OUT
#define MAPS_OUT 10
#endif
#define KSIZE 4

#define ACC_LEN 114
#define WEIGHT_LEN 43
#define INPUT_LEN 38
#define OUTPUT_LEN 120
#define BIAS_LEN 12

typedef int act_t;

void cnn_layer(const act_t input[INPUT_LEN], const act_t bias[BIAS_LEN],
               const act_t weight[WEIGHT_LEN], act_t acc[ACC_LEN],
               act_t output[OUTPUT_LEN]);

#endif
