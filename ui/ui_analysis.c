/* SPDX-License-Identifier: ISC */
#define _POSIX_C_SOURCE 200809L

#include "ui_analysis.h"

#include "analysis_table.h"
#include "modal_analysis.h"
#include "recording.h"
#include "spectrogram.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* the decay spectrum is taken over this much of the free decay */
static const double spectrum_seconds = 1.0;

struct ui_analysis {
  pthread_t thread;
  char recording[PATH_MAX];
  char folder[PATH_MAX];
  int max_modes;
  /* written by the job's thread before it sets `state`, read after */
  char table_path[PATH_MAX];
  char message[512];
  float spectrum[UI_SPECTRUM_POINTS];
  bool has_spectrum;
  atomic_int state;       /* ui_analysis_state */
  atomic_int progress_pm; /* progress, per mille */
  atomic_bool cancel;
};

static bool
on_progress(void* data, double fraction)
{
  ui_analysis* job = data;
  atomic_store(&job->progress_pm, (int)(1000.0 * fraction));
  return !atomic_load(&job->cancel);
}

static void
analyse(ui_analysis* job)
{
  recording rec;
  if (recording_read(job->recording, &rec, job->message,
                     sizeof(job->message)) != RECORDING_SUCCESS)
    return;
  if (atomic_load(&job->cancel)) {
    recording_free(&rec);
    return;
  }
  analysis_options options = analysis_default_options();
  options.max_modes = job->max_modes;
  options.progress = on_progress;
  options.progress_data = job;
  analysis_result* result = malloc(sizeof(*result));
  modal_table* table = malloc(sizeof(*table));
  if (!result || !table) {
    snprintf(job->message, sizeof(job->message), "out of memory");
    goto done;
  }
  const analysis_status status =
      analysis_run((const float* const*)rec.channel, rec.n_channels, rec.frames,
                   rec.rate, &options, result);
  if (status != ANALYSIS_SUCCESS) {
    snprintf(job->message, sizeof(job->message), "%.300s: %s", job->recording,
             analysis_strerror(status));
    goto done;
  }
  char name[MODAL_TABLE_NAME_SIZE];
  analysis_table_name_of(job->recording, name, sizeof(name));
  analysis_table_of(result, name, table);
  if (!analysis_table_save(table, job->folder, job->table_path,
                           sizeof(job->table_path), job->message,
                           sizeof(job->message))) {
    job->table_path[0] = '\0';
    goto done;
  }
  const size_t from = (size_t)(result->decay_start * rec.rate);
  job->has_spectrum = spectrogram_profile(
      rec.channel[0], rec.frames, rec.rate, from,
      (size_t)(spectrum_seconds * rec.rate), UI_SPECTRUM_LO_HZ,
      UI_SPECTRUM_HI_HZ, UI_SPECTRUM_POINTS, job->spectrum);
  snprintf(job->message, sizeof(job->message), "%d modes from %s, root %.1f",
           result->n_modes, name, result->root_note);
done:
  free(result);
  free(table);
  recording_free(&rec);
}

static void*
run(void* data)
{
  ui_analysis* job = data;
  analyse(job);
  atomic_store(&job->state,
               job->table_path[0] ? UI_ANALYSIS_DONE : UI_ANALYSIS_FAILED);
  return NULL;
}

ui_analysis*
ui_analysis_start(const char* recording, const char* folder, int max_modes)
{
  ui_analysis* job = calloc(1, sizeof(*job));
  if (!job)
    return NULL;
  snprintf(job->recording, sizeof(job->recording), "%s", recording);
  if (folder)
    snprintf(job->folder, sizeof(job->folder), "%s", folder);
  else if (!analysis_table_folder(job->folder, sizeof(job->folder)))
    snprintf(job->folder, sizeof(job->folder), "/tmp/contact-tables");
  job->max_modes = max_modes;
  atomic_init(&job->state, UI_ANALYSIS_RUNNING);
  atomic_init(&job->progress_pm, 0);
  atomic_init(&job->cancel, false);
  if (pthread_create(&job->thread, NULL, run, job)) {
    free(job);
    return NULL;
  }
  return job;
}

ui_analysis_state
ui_analysis_poll(ui_analysis* job, double* progress)
{
  if (progress)
    *progress = atomic_load(&job->progress_pm) / 1000.0;
  return (ui_analysis_state)atomic_load(&job->state);
}

const char*
ui_analysis_table_path(const ui_analysis* job)
{
  return job->table_path;
}

const char*
ui_analysis_message(const ui_analysis* job)
{
  return job->message;
}

const float*
ui_analysis_spectrum(const ui_analysis* job)
{
  return job->has_spectrum ? job->spectrum : NULL;
}

void
ui_analysis_free(ui_analysis* job)
{
  if (!job)
    return;
  atomic_store(&job->cancel, true);
  pthread_join(job->thread, NULL);
  free(job);
}

bool
ui_analysis_is_recording(const char* path)
{
  static const char* const extensions[] = {".wav",  ".flac", ".aif", ".aiff",
                                           ".ogg",  ".w64",  ".caf", ".rf64",
                                           ".opus", ".au",   ".snd"};
  const char* dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/'))
    return false;
  for (size_t i = 0; i < sizeof(extensions) / sizeof(extensions[0]); ++i)
    if (!strcasecmp(dot, extensions[i]))
      return true;
  return false;
}
