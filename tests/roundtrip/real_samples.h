/* SPDX-License-Identifier: ISC */
/*
 * Real recordings for the tests: the samples of Debian's FluidR3_GM.sf2
 * (fluid-soundfont-gm), read as recordings (tests/recording/sf2_sample.h,
 * analysis/recording.h).
 */
#ifndef CONTACT_REAL_SAMPLES_H
#define CONTACT_REAL_SAMPLES_H

#include "recording.h"
#include "sf2_sample.h"

#include <stddef.h>

/* The soundfont's sample `name` as a recording: extracted to a WAV in a
 * folder of its own, read, the folder removed.  0, or 1 with a sentence
 * in `message`. */
int real_sample_read(const sf2_file* sf, const char* name, recording* rec,
                     char* message, size_t size);

/* the test's exit status when there is no soundfont: skipped */
#define REAL_SAMPLES_SKIP 77

/* The soundfont a test is given (argv[1]) opened: 0, REAL_SAMPLES_SKIP
 * (said) when there is none, 1 (said) when it does not open. */
int real_samples_open(int argc, char** argv, sf2_file* sf);

#endif
