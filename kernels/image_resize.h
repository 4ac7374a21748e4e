#ifndef IMAGE_RESIZE_H
#define IMAGE_RESIZE_H
#define N 30
typedef int pixel_t;
void image_resize(pixel_t img[N][N], int white);
#endif
