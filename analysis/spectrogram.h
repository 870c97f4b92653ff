/* SPDX-License-Identifier: ISC */
/* A spectrogram picture (log-frequency axis) of a sound, via cairo, with
 * an analysis's modes drawn over it when given. */
#ifndef CONTACT_SPECTROGRAM_H
#define CONTACT_SPECTROGRAM_H

#include <stdbool.h>
#include <stddef.h>

/* modes to draw over the picture: each a line at its frequency from the
 * strike (`onset`, s) for as long as it takes to fall 60 dB (6.9 t_e),
 * fading as it decays, thicker for a larger gain */
typedef struct {
  const double* freq;  /* Hz */
  const double* decay; /* t_e, s */
  const double* gain;  /* relative, the largest 1 */
  int count;
  double onset;
} spectrogram_modes;

/* Writes a PNG of the spectrogram of (left + right) / 2 (right may be
 * NULL: left alone) at `path`; false if it could not. */
bool spectrogram_png(const float* left, const float* right, size_t frames,
                     double rate, const char* path, const char* title,
                     const spectrogram_modes* modes);

/* The spectrum of `length` samples of x from `from` (Welch: Hann frames
 * of about 85 ms, half overlapping, power averaged) at `points` log-spaced
 * frequencies from f_lo to f_hi, each the loudest bin around it, in dB
 * relative to the loudest point (so 0 dB at the top).  False if out of
 * memory or too short for one frame. */
bool spectrogram_profile(const float* x, size_t frames, double rate,
                         size_t from, size_t length, double f_lo, double f_hi,
                         int points, float* db);

#endif
