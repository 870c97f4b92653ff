/* SPDX-License-Identifier: ISC */
#include "fft.h"

#include <math.h>

#define PI 3.14159265358979323846

void
fft_transform(double* re, double* im, int n)
{
  /* bit-reversed order, then butterflies of growing length */
  for (int i = 1, j = 0; i < n; ++i) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j ^= bit;
    if (i < j) {
      const double tr = re[i], ti = im[i];
      re[i] = re[j];
      im[i] = im[j];
      re[j] = tr;
      im[j] = ti;
    }
  }
  for (int len = 2; len <= n; len <<= 1) {
    const int half = len / 2;
    for (int k = 0; k < half; ++k) {
      const double a = -2.0 * PI * k / len;
      const double wr = cos(a), wi = sin(a);
      for (int p = k; p < n; p += len) {
        const int q = p + half;
        const double xr = re[q] * wr - im[q] * wi;
        const double xi = re[q] * wi + im[q] * wr;
        re[q] = re[p] - xr;
        im[q] = im[p] - xi;
        re[p] += xr;
        im[p] += xi;
      }
    }
  }
}

double
fft_hann(int t, int n)
{
  return 0.5 - 0.5 * cos(2.0 * PI * t / n);
}
