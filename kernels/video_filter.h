#ifndef VIDEO_FILTER_H
#define VIDEO_FILTER_H
#define N 30
typedef int pixel_t;
void video_filter(int offset, int scale, pixel_t red[N][N], pixel_t green[N][N],
                  pixel_t blue[N][N]);
#endif
