/* SPDX-License-Identifier: ISC */
/* A recording's envelope in a narrow band, and the slope of a fit: the
 * measurements the tests of real decays hold tables against. */
#ifndef CONTACT_BAND_ENVELOPE_H
#define CONTACT_BAND_ENVELOPE_H

#include <complex.h>
#include <math.h>
#include <stddef.h>

/* x's level at frequency f around sample c: heterodyned by f and
 * low-passed by a Gaussian of sigma_t seconds (+-4 sigma; in frequency
 * 1 / (2 pi sigma_t)) */
static inline double
band_level(const float* x, size_t frames, double rate, double f, long c,
           double sigma_t)
{
  const long half = (long)(4.0 * sigma_t * rate);
  double complex s = 0.0;
  double wsum = 0.0;
  for (long i = c - half; i <= c + half; ++i) {
    if (i < 0 || i >= (long)frames)
      continue;
    const double t = (double)(i - c) / rate;
    const double w = exp(-0.5 * t * t / (sigma_t * sigma_t));
    s += w * x[i] *
         cexp(-2.0 * 3.14159265358979323846 * I * f * (double)i / rate);
    wsum += w;
  }
  return 2.0 * cabs(s) / wsum;
}

/* the least-squares slope of y over t[0..n) */
static inline double
slope_of(const double* t, const double* y, int n)
{
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  for (int i = 0; i < n; ++i)
    sx += t[i], sy += y[i], sxx += t[i] * t[i], sxy += t[i] * y[i];
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

#endif
