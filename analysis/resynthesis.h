/* SPDX-License-Identifier: ISC */
/*
 * The re-synthesis check of an analysis: a modal table struck through the
 * impact DSP (dsp/impact.h, dsp/modal.h) as the plugin strikes it, and the
 * log-spectral distance between that render and the recording over the
 * free decay.
 */
#ifndef CONTACT_RESYNTHESIS_H
#define CONTACT_RESYNTHESIS_H

#include "modal_table.h"

#include <stdbool.h>
#include <stddef.h>

/* Renders `table` struck once at t = 0 by a light, hard hammer (1 g on a
 * 1 kg object, k = 1e10 N/m^1.5: a contact of ~20 us, close to the ideal
 * short strike the analysis assumes) into left and right (the struck point
 * and, with the table's right_gain, the second pickup; right may be NULL).
 * The level is arbitrary: the distance below is level-free. */
bool resynthesis_render(const modal_table* table, double rate, float* left,
                        float* right, size_t frames);

typedef struct {
  double distance_db; /* RMS over the frames of each frame's log-spectral
                         distance, dB */
  double worst_frame_db;
  int frames;      /* analysis frames compared */
  double from, to; /* s: the stretch of the recording compared */
} resynthesis_distance;

/* The log-spectral distance between `recording` (from its sample `start`,
 * the start of the free decay) and `render` (from its sample
 * `render_start`, the same instant after the strike) over the decay: Hann
 * frames of RESYNTHESIS_FRAME_SECONDS, hopped by a quarter, until the
 * recording's frame energy has fallen RESYNTHESIS_RANGE_DB below its
 * first frame's (or the recording ends); per frame, the RMS of the
 * difference in dB over the bins from 20 Hz to 0.45 rate where either
 * spectrum is within RESYNTHESIS_RANGE_DB of its frame's peak, each floored
 * there (a render has no noise: below that only the recording's noise would
 * be compared, and bins silent in both would dilute the distance), with
 * the two levels matched once for the whole decay (a table's gains are
 * relative). */
resynthesis_distance resynthesis_compare(const float* recording,
                                         size_t recording_frames, size_t start,
                                         const float* render,
                                         size_t render_frames,
                                         size_t render_start, double rate);

/* resynthesis_compare() of a render on the recording's own scale (its
 * level matched to the recording's) where the recording sinks into its
 * noise: both spectra floored RESYNTHESIS_NOISE_MARGIN_DB over the
 * recording's noise, `noise_var` its variance per sample (full scale^2,
 * white equivalent: analysis_result's noise_floor_db).  A render has no
 * noise, and a recording's noise bins against a render's ringing or
 * silent ones measure the noise, not the object: a short-ringing bar's
 * first second is mostly noise (test_resynthesis prints both distances of
 * a render against itself with noise added). */
resynthesis_distance
resynthesis_compare_over_noise(const float* recording, size_t recording_frames,
                               size_t start, const float* render,
                               size_t render_frames, size_t render_start,
                               double rate, double noise_var);

/* about 85 ms at 48 kHz (4096 samples, rounded to a power of two) */
#define RESYNTHESIS_FRAME_SECONDS 0.085
#define RESYNTHESIS_RANGE_DB      60.0
/* a noise bin's power is exponentially distributed about its mean: 10 dB
 * over it, one bin in e^10 (2e4) stands out */
#define RESYNTHESIS_NOISE_MARGIN_DB 10.0

#endif
