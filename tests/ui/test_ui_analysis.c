/* SPDX-License-Identifier: ISC */
/*
 * The UI's "Analyse" job (ui/ui_analysis.h), without X: a recording
 * written here is analysed on the job's thread, its table saved without
 * overwriting one that is there, the decay spectrum kept; a bad file
 * fails with a message naming it; a job freed while it runs is cancelled
 * and joined.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "modal_table.h"
#include "ui_analysis.h"

#include <sndfile.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PI 3.14159265358979323846

static const double rate = 48000.0;
/* three modes of a small bar, q 300 */
static const double freq[] = {523.25, 1442.3, 2827.6};
static const double gain[] = {1.0, 0.5, 0.25};
/* how long a job may take here before the test calls it hung: the
 * analysis of a few seconds takes well under one */
static const double job_timeout_s = 60.0;
/* a job freed while it runs stops at the analysis's next progress report
 * (between bands): far less than the 20 s recording's whole analysis */
static const double cancel_timeout_s = 2.0;

static double
now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* a struck object: silence, then three decaying modes, `seconds` long */
static bool
write_recording(const char* path, double seconds)
{
  const size_t frames = (size_t)(seconds * rate);
  float* x = calloc(frames, sizeof(float));
  if (!x)
    return false;
  const size_t onset = (size_t)(0.1 * rate);
  for (size_t i = onset; i < frames; ++i) {
    const double t = (i - onset) / rate;
    double s = 0.0;
    for (int m = 0; m < 3; ++m)
      s += 0.3 * gain[m] * exp(-t * PI * freq[m] / 300.0) *
           sin(2 * PI * freq[m] * t);
    x[i] = (float)s;
  }
  SF_INFO info = {0};
  info.samplerate = (int)rate;
  info.channels = 1;
  info.format = SF_FORMAT_WAV | SF_FORMAT_PCM_24;
  SNDFILE* f = sf_open(path, SFM_WRITE, &info);
  const bool ok =
      f && sf_writef_float(f, x, (sf_count_t)frames) == (sf_count_t)frames;
  if (f)
    sf_close(f);
  free(x);
  return ok;
}

static ui_analysis_state
wait_for(ui_analysis* job)
{
  const double t0 = now_s();
  ui_analysis_state s;
  while ((s = ui_analysis_poll(job, NULL)) == UI_ANALYSIS_RUNNING &&
         now_s() - t0 < job_timeout_s) {
    const struct timespec pause = {0, 10000000};
    nanosleep(&pause, NULL);
  }
  return s;
}

static void
check_analysed(const char* dir)
{
  char wav[512], folder[512];
  snprintf(wav, sizeof(wav), "%s/little bar.wav", dir);
  snprintf(folder, sizeof(folder), "%s/tables", dir);
  CHECK(write_recording(wav, 2.0), "cannot write %s", wav);
  CHECK(ui_analysis_is_recording(wav), "%s is not taken for a recording", wav);
  char first[600] = "";
  for (int run = 1; run <= 2; ++run) {
    ui_analysis* job = ui_analysis_start(wav, folder, 64);
    CHECK(job, "the job did not start");
    if (!job)
      return;
    const ui_analysis_state s = wait_for(job);
    CHECK(s == UI_ANALYSIS_DONE, "run %d: %s", run, ui_analysis_message(job));
    const char* path = ui_analysis_table_path(job);
    /* the second run keeps the first's table: NAME-2.modes */
    char want[600];
    snprintf(want, sizeof(want),
             run == 1 ? "%s/little-bar.modes" : "%s/little-bar-2.modes",
             folder);
    CHECK(!strcmp(path, want), "run %d saved %s, not %s", run, path, want);
    if (run == 1)
      snprintf(first, sizeof(first), "%s", path);
    modal_table t;
    modal_table_error error;
    CHECK(modal_table_load(path, &t, &error) == MODAL_TABLE_SUCCESS, "%s",
          error.message);
    for (int m = 0; m < 3; ++m) {
      double best = INFINITY;
      for (int i = 0; i < t.count; ++i)
        best = fmin(best, fabs(t.freq[i] / freq[m] - 1));
      CHECK(best < 5e-4, "run %d: no mode within 0.05 %% of %.2f Hz", run,
            freq[m]);
    }
    /* the spectrum peaks at the strongest mode, 0 dB */
    const float* db = ui_analysis_spectrum(job);
    CHECK(db != NULL, "no spectrum");
    if (db) {
      int top = 0;
      for (int i = 1; i < UI_SPECTRUM_POINTS; ++i)
        if (db[i] > db[top])
          top = i;
      const double f =
          UI_SPECTRUM_LO_HZ * pow(UI_SPECTRUM_HI_HZ / UI_SPECTRUM_LO_HZ,
                                  (double)top / (UI_SPECTRUM_POINTS - 1));
      CHECK(fabs(log2(f / freq[0])) < 0.05 && db[top] == 0.0f,
            "the spectrum's top is at %.1f Hz (%.1f dB), not %.1f Hz", f,
            db[top], freq[0]);
    }
    ui_analysis_free(job);
  }
}

static void
check_bad_file(const char* dir)
{
  char path[512];
  snprintf(path, sizeof(path), "%s/not-a-sound.wav", dir);
  FILE* f = fopen(path, "w");
  if (f) {
    fputs("this is text\n", f);
    fclose(f);
  }
  ui_analysis* job = ui_analysis_start(path, dir, 64);
  CHECK(job && wait_for(job) == UI_ANALYSIS_FAILED, "a text file analysed");
  if (job) {
    CHECK(strstr(ui_analysis_message(job), "not-a-sound.wav") != NULL,
          "the message does not name the file: %s", ui_analysis_message(job));
    CHECK(!*ui_analysis_table_path(job), "a table saved from a text file");
    ui_analysis_free(job);
  }
}

/* freed at once: returns (cancelled or done), within the timeout */
static void
check_cancel(const char* dir)
{
  char wav[512];
  snprintf(wav, sizeof(wav), "%s/long.wav", dir);
  CHECK(write_recording(wav, 20.0), "cannot write %s", wav);
  const double t0 = now_s();
  ui_analysis* job = ui_analysis_start(wav, dir, 64);
  CHECK(job, "the job did not start");
  ui_analysis_free(job);
  printf("a job freed as it started returned in %.3f s\n", now_s() - t0);
  CHECK(now_s() - t0 < cancel_timeout_s, "freeing a running job took %.1f s",
        now_s() - t0);
}

int
main(void)
{
  char dir[] = "/tmp/contact-ui-analysis-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  check_analysed(dir);
  check_bad_file(dir);
  check_cancel(dir);
  char command[600];
  snprintf(command, sizeof(command), "rm -rf '%s'", dir);
  if (system(command) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
  return check_done("ui_analysis");
}
