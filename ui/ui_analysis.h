/* SPDX-License-Identifier: ISC */
/*
 * "Analyse recording" in the UI: a recording read and fitted
 * (analysis/modal_analysis.h) on a thread of its own, off the audio and
 * UI threads, its table saved as a file (analysis_table_save) that the
 * plugin then loads and its state keeps, and the recording's decay
 * spectrum kept for the mode editor to draw under the fitted modes.
 *
 * The UI thread starts a job, polls it from idle() and frees it; a job
 * freed while running is cancelled (the analysis checks between bands) and
 * joined.  No global state.
 */
#ifndef CONTACT_UI_ANALYSIS_H
#define CONTACT_UI_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

/* points of the decay spectrum, log-spaced over the mode editor's axis */
enum { UI_SPECTRUM_POINTS = 256 };
#define UI_SPECTRUM_LO_HZ 20.0
#define UI_SPECTRUM_HI_HZ 20000.0

typedef enum {
  UI_ANALYSIS_RUNNING,
  UI_ANALYSIS_DONE,   /* the table is saved: ui_analysis_table_path() */
  UI_ANALYSIS_FAILED, /* ui_analysis_message() says why */
} ui_analysis_state;

typedef struct ui_analysis ui_analysis;

/* Starts analysing `recording` (a sound file); the table goes into
 * `folder` (analysis_table_folder() when NULL).  NULL if no thread could
 * be started. */
ui_analysis* ui_analysis_start(const char* recording, const char* folder,
                               int max_modes);

/* The job's state, and its progress 0..1 while running. */
ui_analysis_state ui_analysis_poll(ui_analysis* job, double* progress);

/* After DONE: the saved table's path, a summary ("12 modes, root 60.3");
 * after FAILED: the message.  The decay spectrum (dB, 0 at its top) after
 * DONE, UI_SPECTRUM_POINTS long, or NULL. */
const char* ui_analysis_table_path(const ui_analysis* job);
const char* ui_analysis_message(const ui_analysis* job);
const float* ui_analysis_spectrum(const ui_analysis* job);

/* Cancels a running job, waits for its thread and frees it. */
void ui_analysis_free(ui_analysis* job);

/* whether `path` names a sound file by its extension (.wav, .flac, ...) */
bool ui_analysis_is_recording(const char* path);

#endif
