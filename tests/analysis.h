/* SPDX-License-Identifier: ISC */
/* Measurements on rendered signals, for the tests. */
#ifndef CONTACT_ANALYSIS_H
#define CONTACT_ANALYSIS_H

#include <stddef.h>

/* |X(f)|^2 of the Hann-windowed segment x[0..n). */
double dtft_power(const float* x, size_t n, double f, double rate);

/* The frequency of the spectral peak near `guess` (within +-rel), found on
 * the Hann-windowed DTFT to a small fraction of a bin. */
double peak_frequency(const float* x, size_t n, double rate, double guess,
                      double rel);

/* 1/e amplitude decay time of the component at `freq`, from the slope of
 * its log amplitude over successive Hann frames of `frame` samples
 * covering x[0..n). */
double decay_time(const float* x, size_t n, double rate, double freq,
                  size_t frame);

double peak_abs(const float* x, size_t n);
double rms(const float* x, size_t n);

#endif
