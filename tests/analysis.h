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

/* Welch power spectral density of x[0..n) (Hann frames of `frame`
 * samples, a power of two, overlapping by half) into psd[0..frame/2],
 * one-sided, in units^2 / Hz. */
void welch_psd(const float* x, size_t n, double rate, int frame, double* psd);

/* Least-squares slope of log10(power) against log10(f) over [f1, f2],
 * each third of an octave weighted alike. */
double log_slope(const double* f, const double* power, int count, double f1,
                 double f2);

/* Power-weighted mean frequency of x[0..n) over [f1, f2], from its Welch
 * PSD (Hann frames of `frame` samples, a power of two, at most 65536). */
double spectral_centroid(const float* x, size_t n, double rate, int frame,
                         double f1, double f2);

double peak_abs(const float* x, size_t n);
double rms(const float* x, size_t n);

/* Linear least-squares fit of x[0..n) by k damped sinusoids of known
 * frequency freq[i] (Hz) and 1/e decay time decay[i] (s; INFINITY for
 * none): x[t] ~ sum_i e^(-t/decay_i) (re_i cos(w_i t) + im_i sin(w_i t)),
 * t = index / rate.  (re_i, -im_i) is mode i's complex amplitude at x[0].
 * Returns the rms of the residual (NAN if the fit is singular); k <= 16.
 * On free modal ringing with the right frequencies and decays the fit is
 * exact to the signal's rounding. */
double fit_damped_sines(const float* x, size_t n, double rate, int k,
                        const double* freq, const double* decay, double* re,
                        double* im);

/* Frequency and decay of k ringing modes measured from two windows of
 * `window` samples, the second `gap` samples after the first: each is fit
 * by fit_damped_sines() with the guesses, and each mode's complex
 * amplitude turns by 2 pi f gap / rate and shrinks by e^(-gap / rate /
 * decay) from one to the next, whatever the guesses' small errors (the
 * fit commutes with a phase turn).  freq_guess must be within rate / (2
 * gap) of the truth.  amp[i] (optional): mode i's amplitude at x[0]. */
void measure_modes(const float* x, size_t window, size_t gap, double rate,
                   int k, const double* freq_guess, const double* decay_guess,
                   double* freq, double* decay, double* amp);

/* max(worst, |err|), NAN counting as the worst of all (fmax would drop
 * it), for tests that keep the worst error */
double worst_of(double worst, double err);

/* Largest step between neighbouring samples of x[from..to) (a click). */
double max_step(const float* x, size_t from, size_t to);

#endif
