/* SPDX-License-Identifier: ISC */
/* A spectrogram picture (log-frequency axis) of a stereo render, via cairo. */
#ifndef CONTACT_SPECTROGRAM_H
#define CONTACT_SPECTROGRAM_H

#include <stdbool.h>
#include <stddef.h>

bool spectrogram_png(const float* left, const float* right, size_t frames,
                     double rate, const char* path, const char* title);

#endif
