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

/* In-place radix-2 FFT, n a power of two. */
void fft(double* re, double* im, int n);

/* Welch power spectral density of x[0..n) (Hann frames of `frame`
 * samples, a power of two, overlapping by half) into psd[0..frame/2],
 * one-sided, in units^2 / Hz. */
void welch_psd(const float* x, size_t n, double rate, int frame, double* psd);

/* Least-squares slope of log10(power) against log10(f) over [f1, f2],
 * each third of an octave weighted alike. */
double log_slope(const double* f, const double* power, int count, double f1,
                 double f2);

double peak_abs(const float* x, size_t n);
double rms(const float* x, size_t n);

#endif
