/* G.722 sub-band ADPCM encoder in CHStone adpcm's layout: the transmit QMF,
 * then a lower band (6-bit, quantl over 30 decision levels) and a higher band
 * (2-bit) ADPCM coder, each with its pole-zero predictor (filtez, filtep,
 * upzero, uppol1, uppol2) and log scale factor (logscl, logsch, scalel); the
 * tables are file-scope `const int` arrays, the helpers static functions.
 * CHStone keeps the coder's state in globals; here it is a struct local to
 * the top (reset() at its start, as adpcm_main calls it), passed to encode.
 * `long` products as CHStone writes them. */
#include <stdlib.h>

#include "adpcm_encode.h"

/* QMF coefficients, scaled by 4 against the G.722 recommendation. */
static const int h[24] = {12,   -44,   -44, 212,   48,    -624,  128,  1448,
                          -840, -3220, 3804, 15504, 15504, 3804, -3220, -840,
                          1448, 128,   -624, 48,    212,   -44,   -44,  12};

static const int qq4_code4_table[16] = {0,     -20456, -12896, -8968, -6288, -4240,
                                        -2584, -1200,  20456,  12896, 8968,  6288,
                                        4240,  2584,   1200,   0};

static const int wl_code_table[16] = {-60,  3042, 1198, 538, 334, 172, 58, -30,
                                      3042, 1198, 538,  334, 172, 58,  -30, -60};

static const int ilb_table[32] = {2048, 2093, 2139, 2186, 2233, 2282, 2332, 2383,
                                  2435, 2489, 2543, 2599, 2656, 2714, 2774, 2834,
                                  2896, 2960, 3025, 3091, 3158, 3228, 3298, 3371,
                                  3444, 3520, 3597, 3676, 3756, 3838, 3922, 4008};

/* Decision levels, pre-multiplied by 8. */
static const int decis_levl[30] = {280,   576,   880,   1200,  1520,  1864,  2208,  2584,
                                   2960,  3376,  3784,  4240,  4696,  5200,  5712,  6288,
                                   6864,  7520,  8184,  8968,  9752,  10712, 11664, 12896,
                                   14120, 15840, 17560, 20456, 23352, 32767};

/* 31 long: the last entry is for mil = 30, when wd is above every level. */
static const int quant26bt_pos[31] = {61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51,
                                      50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40,
                                      39, 38, 37, 36, 35, 34, 33, 32, 32};
static const int quant26bt_neg[31] = {63, 62, 31, 30, 29, 28, 27, 26, 25, 24, 23,
                                      22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12,
                                      11, 10, 9,  8,  7,  6,  5,  4,  4};

static const int qq2_code2_table[4] = {-7408, -1616, 7408, 1616};
static const int wh_code_table[4] = {798, -214, 798, -214};

/* One sub-band's scalar state: scale factor, pole coefficients and delays. */
struct band {
  int nb, det;
  int a1, a2;
  int p1, p2;
  int r1, r2;
};

static int my_abs(int n) { return n >= 0 ? n : -n; }

/* Zero section of the predictor: six taps. */
static int filtez(const int bp[6], const int dx[6]) {
  long zl = (long)bp[0] * dx[0];
  for (int i = 1; i < 6; i++)
    zl += (long)bp[i] * dx[i];
  return (int)(zl >> 14);
}

/* Pole section of the predictor. */
static int filtep(int rlt1, int al1, int rlt2, int al2) {
  long pl = 2 * rlt1;
  pl = (long)al1 * pl;
  long pl2 = 2 * rlt2;
  pl += (long)al2 * pl2;
  return (int)(pl >> 15);
}

/* Quantize the lower sub-band's difference signal. */
static int quantl(int el, int detl) {
  long wd = my_abs(el);
  int mil;
  for (mil = 0; mil < 30; mil++) {
    long decis = (decis_levl[mil] * (long)detl) >> 15L;
    if (wd <= decis)
      break;
  }
  return el >= 0 ? quant26bt_pos[mil] : quant26bt_neg[mil];
}

static int logscl(int il, int nbl) {
  long wd = ((long)nbl * 127L) >> 7L; /* leak factor 127/128 */
  nbl = (int)wd + wl_code_table[il >> 2];
  if (nbl < 0)
    nbl = 0;
  if (nbl > 18432)
    nbl = 18432;
  return nbl;
}

static int logsch(int ih, int nbh) {
  int wd = ((long)nbh * 127L) >> 7L;
  nbh = wd + wh_code_table[ih];
  if (nbh < 0)
    nbh = 0;
  if (nbh > 22528)
    nbh = 22528;
  return nbh;
}

/* Quantizer scale factor of either band (scalel and scaleh in one). */
static int scalel(int nbl, int shift_constant) {
  int wd1 = (nbl >> 6) & 31;
  int wd2 = nbl >> 11;
  int wd3 = ilb_table[wd1] >> (shift_constant + 1 - wd2);
  return wd3 << 3;
}

/* Update the zero section's coefficients and delay the difference signal. */
static void upzero(int dlt, int dlti[6], int bli[6]) {
  if (dlt == 0) {
    for (int i = 0; i < 6; i++)
      bli[i] = (int)((255L * bli[i]) >> 8L); /* leak factor 255/256 */
  } else {
    for (int i = 0; i < 6; i++) {
      int wd2 = (long)dlt * dlti[i] >= 0 ? 128 : -128;
      int wd3 = (int)((255L * bli[i]) >> 8L);
      bli[i] = wd2 + wd3;
    }
  }
  dlti[5] = dlti[4];
  dlti[4] = dlti[3];
  dlti[3] = dlti[2];
  dlti[2] = dlti[1];
  dlti[1] = dlti[0];
  dlti[0] = dlt;
}

/* Second pole coefficient, limited to +-0.75. */
static int uppol2(int al1, int al2, int plt, int plt1, int plt2) {
  long wd2 = 4L * (long)al1;
  if ((long)plt * plt1 >= 0L)
    wd2 = -wd2;
  wd2 = wd2 >> 7;
  long wd4 = (long)plt * plt2 >= 0L ? wd2 + 128 : wd2 - 128;
  int apl2 = wd4 + (127L * (long)al2 >> 7L);
  if (apl2 > 12288)
    apl2 = 12288;
  if (apl2 < -12288)
    apl2 = -12288;
  return apl2;
}

/* First pole coefficient, limited by the second. */
static int uppol1(int al1, int apl2, int plt, int plt1) {
  long wd2 = ((long)al1 * 255L) >> 8L;
  int apl1 = (long)plt * plt1 >= 0L ? (int)wd2 + 192 : (int)wd2 - 192;
  int wd3 = 15360 - apl2;
  if (apl1 > wd3)
    apl1 = wd3;
  if (apl1 < -wd3)
    apl1 = -wd3;
  return apl1;
}

/* Predictor and coefficient updates shared by both bands: the reconstructed
 * signal `pt` delayed, the pole coefficients adapted. */
static void update_poles(struct band *b, int pt, int recon) {
  b->a2 = uppol2(b->a1, b->a2, pt, b->p1, b->p2);
  b->a1 = uppol1(b->a1, b->a2, pt, b->p1);
  b->r2 = b->r1;
  b->r1 = recon;
  b->p2 = b->p1;
  b->p1 = pt;
}

/* Two samples in, one byte out: the lower band's 6 bits and the higher
 * band's 2 bits above them. */
static int encode(int xin1, int xin2, int tqmf[24], int delay_bpl[6], int delay_dltx[6],
                  int delay_bph[6], int delay_dhx[6], struct band *lo, struct band *hi) {
  /* transmit quadrature mirror filter */
  long xa = 0, xb = 0;
  for (int i = 0; i < 12; i++) {
    xa += (long)tqmf[2 * i] * h[2 * i];
    xb += (long)tqmf[2 * i + 1] * h[2 * i + 1];
  }
  for (int i = 23; i >= 2; i--)
    tqmf[i] = tqmf[i - 2];
  tqmf[1] = xin1;
  tqmf[0] = xin2;
  int xl = (xa + xb) >> 15;
  int xh = (xa - xb) >> 15;

  /* lower sub-band */
  int szl = filtez(delay_bpl, delay_dltx);
  int spl = filtep(lo->r1, lo->a1, lo->r2, lo->a2);
  int sl = szl + spl;
  int el = xl - sl;
  int il = quantl(el, lo->det);
  int dlt = ((long)lo->det * qq4_code4_table[il >> 2]) >> 15;
  lo->nb = logscl(il, lo->nb);
  lo->det = scalel(lo->nb, 8);
  int plt = dlt + szl;
  upzero(dlt, delay_dltx, delay_bpl);
  update_poles(lo, plt, sl + dlt);

  /* higher sub-band */
  int szh = filtez(delay_bph, delay_dhx);
  int sph = filtep(hi->r1, hi->a1, hi->r2, hi->a2);
  int sh = sph + szh;
  int eh = xh - sh;
  int ih = eh >= 0 ? 3 : 1; /* 2, 3 positive codes; 0, 1 negative */
  int decis = (564L * (long)hi->det) >> 12L;
  if (my_abs(eh) > decis)
    ih--;
  int dh = ((long)hi->det * qq2_code2_table[ih]) >> 15L;
  hi->nb = logsch(ih, hi->nb);
  hi->det = scalel(hi->nb, 10);
  int ph = dh + szh;
  upzero(dh, delay_dhx, delay_bph);
  update_poles(hi, ph, sh + dh);

  return il | (ih << 6);
}

static void reset(int tqmf[24], int delay_bpl[6], int delay_dltx[6], int delay_bph[6],
                  int delay_dhx[6], struct band *lo, struct band *hi) {
  for (int i = 0; i < 24; i++)
    tqmf[i] = 0;
  for (int i = 0; i < 6; i++)
    delay_bpl[i] = delay_dltx[i] = delay_bph[i] = delay_dhx[i] = 0;
  lo->nb = lo->a1 = lo->a2 = lo->p1 = lo->p2 = lo->r1 = lo->r2 = 0;
  hi->nb = hi->a1 = hi->a2 = hi->p1 = hi->p2 = hi->r1 = hi->r2 = 0;
  lo->det = 32;
  hi->det = 8;
}

void adpcm_encode(const int test_data[SIZE], int compressed[SIZE / 2]) {
  int tqmf[24], delay_bpl[6], delay_dltx[6], delay_bph[6], delay_dhx[6];
  struct band lo, hi;
  reset(tqmf, delay_bpl, delay_dltx, delay_bph, delay_dhx, &lo, &hi);
  for (int i = 0; i < IN_END; i += 2)
    compressed[i / 2] = encode(test_data[i], test_data[i + 1], tqmf, delay_bpl, delay_dltx,
                               delay_bph, delay_dhx, &lo, &hi);
}

/* A chirp of rising amplitude (CHStone's test_data is a recorded waveform):
 * the lower band's quantizer sweeps its decision levels, the higher band
 * sees both signs. */
int main(void) {
  int test_data[SIZE], compressed[SIZE / 2];
  srand(722);
  int phase = 0, amp = 16;
  for (int i = 0; i < SIZE; i++) {
    phase = (phase + 3 + i / 8) & 63;
    int tri = phase < 32 ? phase - 16 : 48 - phase;
    test_data[i] = tri * amp + rand() % 64 - 32;
    amp += amp < 1024 ? 24 : 0;
  }
  for (int i = 0; i < SIZE / 2; i++)
    compressed[i] = 0;
  adpcm_encode(test_data, compressed);
  return 0;
}
