/* SPDX-License-Identifier: ISC */
/*
 * Fractal (1/f^beta) noise ([ch8] 8.3.3, eqs 8.22-8.29): white noise through
 * a cascade of first-order pole/zero sections, `per_decade` poles a decade
 * from f_low up, each zero beta / (2 per_decade) decades above its pole, so
 * the power spectrum falls as 1/f^beta across the band.  Poles and zeros are
 * mapped by impulse invariance (eq 8.24), a = exp(-2 pi f_p T) and
 * b = exp(-2 pi f_0 T), and the sections are
 *     H_i(z) = (1 - b_i z^-1) / (1 - a_i z^-1),
 * run in pairs as biquads (eq 8.29).  Eq 8.26 prints them as
 * (1 + b z^-1) / (1 + a z^-1): with a, b > 0 that puts poles and zeros at
 * negative frequencies and tilts the spectrum upward; the test measures the
 * slope of both.  The output is scaled to unit RMS.
 */
#ifndef CONTACT_FRACTAL_H
#define CONTACT_FRACTAL_H

#include <stdint.h>

enum { FRACTAL_MAX_SECTIONS = 32 };

typedef struct fractal_noise {
  double b1[FRACTAL_MAX_SECTIONS / 2], b2[FRACTAL_MAX_SECTIONS / 2];
  double a1[FRACTAL_MAX_SECTIONS / 2], a2[FRACTAL_MAX_SECTIONS / 2];
  double s1[FRACTAL_MAX_SECTIONS / 2], s2[FRACTAL_MAX_SECTIONS / 2];
  double pole[FRACTAL_MAX_SECTIONS], zero[FRACTAL_MAX_SECTIONS]; /* Hz */
  double a[FRACTAL_MAX_SECTIONS], b[FRACTAL_MAX_SECTIONS];       /* mapped */
  int sections;
  double gain; /* to unit RMS */
  double rate;
  uint64_t state; /* white noise generator */
} fractal_noise;

void fractal_init(fractal_noise* n, double rate, uint64_t seed);

/* Shape the spectrum: slope beta (0 = white) over [f_low, f_high] with
 * per_decade poles per decade (at most FRACTAL_MAX_SECTIONS in all).  The
 * filter state is kept, so beta can glide while the noise runs. */
void fractal_set(fractal_noise* n, double beta, double f_low, double f_high,
                 int per_decade);

/* Back to the state fractal_init(seed) left (the shape is kept). */
void fractal_restart(fractal_noise* n, uint64_t seed);

/* Next sample. */
double fractal_next(fractal_noise* n);

/* |H(e^{j 2 pi f / rate})|^2 of the cascade (without the RMS gain): the
 * spectrum the noise should have. */
double fractal_power_response(const fractal_noise* n, double f);

#endif
