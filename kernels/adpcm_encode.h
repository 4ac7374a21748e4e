#ifndef ADPCM_ENCODE_H
#define ADPCM_ENCODE_H

/* CHStone adpcm's sizes: SIZE input samples, two per encoded byte. */
#define SIZE 100
#define IN_END 100

void adpcm_encode(const int test_data[SIZE], int compressed[SIZE / 2]);

#endif
