/* SPDX-License-Identifier: ISC */
/*
 * Modal analysis of a struck object's recording: the frequencies, 1/e
 * decay times and gains of its strongest modes, as a modal table
 * (dsp/modal_table.h) holds them.
 *
 * The model is the modal object's own ([ch8] 8.2, eqs 8.1-8.7): after the
 * strike the sound is a sum of exponentially damped sinusoids,
 *     y(t) = sum_l A_l e^{-t / t_e,l} cos(2 pi f_l t + phi_l) + noise,
 * and the plugins hear a mode's velocity at the pickup, so a mode's gain
 * (1 / modal mass at the struck point) is proportional to its amplitude
 * A_l at the end of an ideal (short) strike.
 *
 * How (modal_analysis.c): the onset, and the free decay from the end of
 * the attack; the noise floor against frequency (minimum statistics);
 * one FFT of the decay, from which each band's heterodyned, low-passed,
 * decimated complex signal is cut; per band ESPRIT (esprit.c: order from
 * the noise floor, poles by shift invariance, then a Gauss-Newton
 * refinement), the poles kept in the band's core, decaying, narrow enough
 * and 20 dB over the noise; three band plans, narrow to wide, each for
 * the decay times its kernel lets it see, each fitting what the narrower
 * ones left (their modes subtracted from the spectrum); near-duplicates
 * merged, residues of a mode's misfit dropped.  Poles come from the
 * channels' sum, amplitudes from each channel.  Then what the table, its
 * modes struck together in sine phase, can play of the recording: a
 * partial's build-up (two modes opposed at the onset) loses its faster
 * mode, a fast first stage the fits after the attack did not see becomes
 * a mode of its own (doc/real-objects.md).
 *
 * No LV2, no UI, not real-time: the analysis allocates and may take a
 * second or two.  No global state; it may run on any thread.
 */
#ifndef CONTACT_MODAL_ANALYSIS_H
#define CONTACT_MODAL_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

/* as many modes as a modal table holds (MODAL_MAX_MODES) */
#define ANALYSIS_MAX_MODES 128

typedef enum {
  ANALYSIS_SUCCESS,
  ANALYSIS_ERR_ARGUMENT,  /* a NULL pointer, no channels, a bad option */
  ANALYSIS_ERR_RATE,      /* sample rate outside 22.05-192 kHz */
  ANALYSIS_ERR_TOO_SHORT, /* no free decay long enough to analyse */
  ANALYSIS_ERR_SILENT,    /* nothing above the noise floor */
  ANALYSIS_ERR_NO_MODES,  /* a decay, but no decaying mode in it */
  ANALYSIS_ERR_MEMORY,    /* an allocation failed */
  ANALYSIS_ERR_CANCELLED, /* the progress callback asked to stop */
} analysis_status;

const char* analysis_strerror(analysis_status status);

typedef struct {
  double freq;       /* Hz */
  double decay;      /* 1/e amplitude decay time t_e, s */
  double gain;       /* relative: the strongest mode's is 1 (table format) */
  double amplitude;  /* A_l at the onset, first channel, full scale */
  double right_gain; /* the second channel's A_l over the same strongest
                        amplitude (of either channel) as gain; gain for
                        mono */
  double quality;    /* 0..1, 1 best: 1 / (1 + (e / 5 %)^2), e = sqrt(2 /
                        snr) the relative error of t_e to expect from the
                        mode's SNR (0.5 where e is 5 %) */
  double snr_db;     /* the mode's energy in the decay analysed over the
                        noise variance of its band's signal */
} analysis_mode;

typedef struct {
  int n_modes; /* sorted by frequency */
  analysis_mode modes[ANALYSIS_MAX_MODES];
  double root_note;      /* MIDI note of the lowest mode within 20 dB of
                            the strongest by energy (gain^2 t_e),
                            fractional */
  double onset;          /* s: the strike's start in the recording */
  double decay_start;    /* s: where the free decay analysed begins */
  double noise_floor_db; /* dBFS: the noise's variance per sample (white
                            equivalent, mean over frequency) */
  int n_channels;
} analysis_result;

/* progress: fraction 0..1 done; return false to cancel */
typedef bool (*analysis_progress_fn)(void* data, double fraction);

typedef struct {
  int max_modes;           /* at most this many modes (1..ANALYSIS_MAX_MODES) */
  double min_freq;         /* Hz; modes outside [min_freq, max_freq] are not */
  double max_freq;         /* reported (max_freq <= 0: 0.45 x the rate) */
  double dynamic_range_db; /* report modes within this of the strongest */
  analysis_progress_fn progress; /* may be NULL */
  void* progress_data;
} analysis_options;

/* the defaults: 32 modes, 20 Hz - 0.45 rate, 60 dB */
analysis_options analysis_default_options(void);

/* channels[c][i], i < frames: the recording, full scale +-1 */
analysis_status analysis_run(const float* const* channels, int n_channels,
                             size_t frames, double rate,
                             const analysis_options* options,
                             analysis_result* result);

#endif
