/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target over reading recordings (analysis/recording.c) and the
 * modal analysis of what reads (analysis/modal_analysis.c): any bytes read
 * or fail without a fault (ASan, UBSan); a failure leaves the recording
 * empty and a message naming it; a recording that reads keeps the
 * reader's promises (channels, length, rate, finite samples, its peak);
 * and the analysis of it keeps the analysis's (its status, and modes that
 * are finite, in band, sorted, as many as asked at most).  Built and run
 * by `tools/fuzz recording`; with FUZZ_MAIN defined it is a plain program
 * that runs the files, and the files in the folders, named on its command
 * line (the seed corpus, as a meson test).
 */
#define _POSIX_C_SOURCE 200809L

#include "modal_analysis.h"
#include "recording.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);               \
      abort();                                                                 \
    }                                                                          \
  } while (0)

/* The analysis runs on recordings up to this long: 8192 frames, what the
 * seeds and the inputs of tools/fuzz's -max_len make (FLAC's constant
 * blocks can decode to more), so that the fuzzer spends its time on many
 * inputs, not on a few long fits (a second of sound takes seconds).
 * -DFUZZ_MAX_ANALYSIS_FRAMES=0 fuzzes the reader alone, a thousand times
 * faster. */
#ifndef FUZZ_MAX_ANALYSIS_FRAMES
#define FUZZ_MAX_ANALYSIS_FRAMES 8192
#endif

static void
check_analysis(const recording* rec)
{
  analysis_options options = analysis_default_options();
  /* a few modes: the same paths, a faster fit */
  options.max_modes = 8;
  analysis_result result;
  const analysis_status st =
      analysis_run((const float* const*)rec->channel, rec->n_channels,
                   rec->frames, rec->rate, &options, &result);
  FUZZ_CHECK(st >= ANALYSIS_SUCCESS && st <= ANALYSIS_ERR_CANCELLED);
  /* nothing to refuse in an argument the reader made */
  FUZZ_CHECK(st != ANALYSIS_ERR_ARGUMENT && st != ANALYSIS_ERR_RATE &&
             st != ANALYSIS_ERR_CANCELLED);
  FUZZ_CHECK(analysis_strerror(st) != NULL);
  if (st)
    return;
  FUZZ_CHECK(result.n_modes >= 0 && result.n_modes <= options.max_modes);
  const double max_freq = 0.45 * rec->rate;
  for (int i = 0; i < result.n_modes; ++i) {
    const analysis_mode* const m = &result.modes[i];
    FUZZ_CHECK(isfinite(m->freq) && isfinite(m->decay) && isfinite(m->gain));
    FUZZ_CHECK(isfinite(m->amplitude) && isfinite(m->right_gain));
    FUZZ_CHECK(m->freq >= options.min_freq && m->freq <= max_freq);
    FUZZ_CHECK(m->decay > 0.0);
    FUZZ_CHECK(m->quality >= 0.0 && m->quality <= 1.0);
    FUZZ_CHECK(i == 0 || result.modes[i - 1].freq <= m->freq);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t* const data, const size_t size)
{
  recording rec;
  char message[256];
  memset(message, 'x', sizeof(message));
  const recording_status st =
      recording_read_memory(data, size, &rec, message, sizeof(message));
  FUZZ_CHECK(memchr(message, '\0', sizeof(message)));
  FUZZ_CHECK(recording_strerror(st) != NULL);
  if (st) {
    FUZZ_CHECK(st <= RECORDING_ERR_NOT_FINITE);
    FUZZ_CHECK(!strncmp(message, "recording in memory", 19));
    FUZZ_CHECK(!rec.channel[0] && !rec.channel[1] && !rec.frames);
    return 0;
  }
  FUZZ_CHECK(!message[0]);
  FUZZ_CHECK(rec.n_channels >= 1 && rec.n_channels <= RECORDING_MAX_CHANNELS);
  FUZZ_CHECK(rec.rate >= RECORDING_MIN_RATE && rec.rate <= RECORDING_MAX_RATE);
  FUZZ_CHECK(rec.frames >= RECORDING_MIN_FRAMES);
  FUZZ_CHECK(rec.frames <= RECORDING_MAX_SECONDS * rec.rate);
  FUZZ_CHECK(rec.clipped <= rec.frames * (size_t)rec.n_channels);
  double peak = 0.0;
  for (int c = 0; c < rec.n_channels; ++c)
    for (size_t i = 0; i < rec.frames; ++i) {
      FUZZ_CHECK(isfinite(rec.channel[c][i]));
      peak = fmax(peak, fabs(rec.channel[c][i]));
    }
  FUZZ_CHECK(peak == rec.peak);
  FUZZ_CHECK(20.0 * log10(peak) >= RECORDING_SILENT_DBFS);
  if (rec.frames <= FUZZ_MAX_ANALYSIS_FRAMES)
    check_analysis(&rec);
  recording_free(&rec);
  return 0;
}

#ifdef FUZZ_MAIN
#include "corpus_main.h"

/* seeds are small; a larger file is not one */
#define FUZZ_MAX_FILE (1 << 20)

static int
run_file(const char* const path)
{
  FILE* const f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  uint8_t* const buf = malloc(FUZZ_MAX_FILE);
  const size_t n = buf ? fread(buf, 1, FUZZ_MAX_FILE, f) : 0;
  fclose(f);
  if (!buf)
    return 1;
  LLVMFuzzerTestOneInput(buf, n);
  recording rec;
  char message[256];
  const recording_status st =
      recording_read_memory(buf, n, &rec, message, sizeof(message));
  printf("ok %s (%zu bytes): %s%s%s\n", path, n, recording_strerror(st),
         st ? ": " : "", st ? message : "");
  recording_free(&rec);
  free(buf);
  return 0;
}

int
main(int argc, char** argv)
{
  return corpus_main(argc, argv, run_file);
}
#endif
