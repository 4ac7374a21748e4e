/* One convolution layer with ReLU: for each group of PAR_OUT output maps,
   set the accumulators to the bias, accumulate the 4x4 windows of every input
   map, then write the rectified accumulators out. The accumulator update is a
   read-modify-write of memory in the innermost loop. */
#include <stdlib.h>

#include "cnn_layer.h"

void cnn_layer(const act_t input[INPUT_LEN], const act_t bias[BIAS_LEN],
               const act_t weight[WEIGHT_LEN], act_t acc[ACC_LEN],
               act_t output[OUTPUT_LEN]) {
  for (int g = 0; g < MAPS_OUT / PAR_OUT; ++g) {
    for (int y = 0; y < IMG; ++y)
      for (int x = 0; x < IMG; ++x)
        for (int o = 0; o < PAR_OUT; ++o)
          acc[o * PAR_OUT + y * IMG + x] = bias[g * 2 + o];

    for (int m = 0; m < MAPS_IN; ++m)
      for (int y = 0; y < IMG; ++y)
        for (int x = 0; x < IMG; ++x)
          for (int o = 0; o < PAR_OUT; ++o)
            for (int ky = 0; ky < KSIZE; ++ky)
              for (int kx = 0; kx < KSIZE; ++kx)
                acc[o * PAR_OUT + y * IMG + x] +=
                    weight[g + o + m + kx + ky] * input[m + y + ky + x + kx];

    for (int y = 0; y < OUT_IMG; ++y)
      for (int x = 0; x < OUT_IMG; ++x)
        for (int o = 0; o < PAR_OUT; ++o) {
          act_t v = acc[o * PAR_OUT + y * OUT_IMG + x];
          output[g * (MAPS_OUT / PAR_OUT) + y * OUT_IMG + x] = v > 0 ? v : 0;
        }
  }
}

int main(void) {
  act_t input[INPUT_LEN], bias[BIAS_LEN], weight[WEIGHT_LEN], acc[ACC_LEN];
  act_t output[OUTPUT_LEN];
  srand(31);
  for (int i = 0; i < INPUT_LEN; ++i)
    input[i] = rand() % 64 - 16;
  for (int i = 0; i < BIAS_LEN; ++i)
    bias[i] = rand() % 200 - 100;
  for (int i = 0; i < WEIGHT_LEN; ++i)
    weight[i] = rand() % 16 - 8;
  for (int i = 0; i < ACC_LEN; ++i)
    acc[i] = 0;
  for (int i = 0; i < OUTPUT_LEN; ++i)
    output[i] = 0;
  cnn_layer(input, bias, weight, acc, output);
  return 0;
}
