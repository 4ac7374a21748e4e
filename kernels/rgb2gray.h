#ifndef RGB2GRAY_H
#define RGB2GRAY_H

#include <stdint.h>

#define HEIGHT 8
#define WIDTH 8
#define CHANNELS 3

typedef uint8_t pixel_t;

uint32_t rgb2gray(const pixel_t img[HEIGHT][WIDTH][CHANNELS], pixel_t gray[HEIGHT][WIDTH],
                  pixel_t threshold);

#endif
