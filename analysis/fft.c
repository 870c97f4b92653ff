/* SPDX-License-Identifier: ISC */
#include "fft.h"

#include <math.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

/* Cooley-Tukey, iterative, bit-reversed input.  The twiddles from one
 * table of n / 2, each entry exact (cexp, not a recurrence: the error
 * stays at a few ulps times log2 n); butterflies block by block, so that
 * a stage walks the array once. */
int
fft_transform(double complex* x, size_t n, int sign)
{
  if (n < 2)
    return 0;
  double complex* w = malloc(sizeof(*w) * (n / 2));
  if (!w)
    return -1;
  for (size_t k = 0; k < n / 2; ++k)
    w[k] = cexp(sign * 2.0 * PI * I * (double)k / (double)n);
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j |= bit;
    if (i < j) {
      const double complex t = x[i];
      x[i] = x[j], x[j] = t;
    }
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    const size_t half = len / 2, stride = n / len;
    for (size_t i = 0; i < n; i += len)
      for (size_t k = 0; k < half; ++k) {
        const double complex t = w[k * stride];
        const double complex u = x[i + k], v = x[i + k + half];
        /* the product by hand: C's checks every one for infinities */
        const double vr = creal(v) * creal(t) - cimag(v) * cimag(t);
        const double vi = creal(v) * cimag(t) + cimag(v) * creal(t);
        x[i + k] = CMPLX(creal(u) + vr, cimag(u) + vi);
        x[i + k + half] = CMPLX(creal(u) - vr, cimag(u) - vi);
      }
  }
  free(w);
  return 0;
}

double
fft_hann(size_t t, size_t n)
{
  return 0.5 - 0.5 * cos(2.0 * PI * (double)t / (double)n);
}
