/* SPDX-License-Identifier: ISC */
/*
 * Recordings for analysis: a sound file read whole into memory through
 * libsndfile (WAV, FLAC and whatever else it reads: 16/24/32-bit integer
 * and float), deinterleaved into one float buffer per channel, and checked
 * for what would make an analysis meaningless (empty, silent, DC only,
 * clipped, a header that claims more than is there or more than we read).
 *
 * Integer samples are scaled to +-1 full scale; float samples are kept as
 * they are (they may exceed 1), but NaN or infinity refuses the file.
 *
 * A header is never trusted for an allocation: the buffers grow with what
 * is actually decoded (at most twice that), a claim past
 * RECORDING_MAX_SECONDS is refused from the header, and a file that ends
 * before its claim is RECORDING_ERR_TRUNCATED.
 *
 * More than two channels are refused, not mixed down: the analysis reads
 * channel 1 and 2 as a left and a right pickup, and a sum of microphones
 * (or of B-format's W, X, Y, Z) can cancel a mode that each of them holds;
 * which one or two to analyse is the sound designer's choice.
 *
 * Clipping is a warning, not a failure: the file reads, `clipped` counts
 * the clipped samples, and the caller says so (the decay after the clipped
 * onset is still worth analysing, but the onset amplitudes are not).
 *
 * No global state; reads files, so not for the audio thread.
 */
#ifndef CONTACT_RECORDING_H
#define CONTACT_RECORDING_H

#include <stddef.h>

/* Longest recording read: a struck object's decay is seconds, a bell's a
 * minute; ten minutes at 192 kHz stereo is 880 MB of float, which is the
 * most we let a header make us allocate. */
#define RECORDING_MAX_SECONDS  600.0
#define RECORDING_MIN_RATE     22050.0
#define RECORDING_MAX_RATE     192000.0
#define RECORDING_MAX_CHANNELS 2

/* Fewer frames are a stub, not a recording (a broken export's single
 * sample): 64 frames is 0.3-2.9 ms, shorter than any struck object rings. */
#define RECORDING_MIN_FRAMES 64

/* Silence: a peak below -90 dBFS, just above 16-bit's least significant
 * bit (-90.3 dBFS): all a 16-bit file holds below it is its dither. */
#define RECORDING_SILENT_DBFS -90.0

/* DC only: the peak about each channel's mean below the same -90 dBFS,
 * while the offset itself is above it. */
#define RECORDING_DC_DBFS RECORDING_SILENT_DBFS

/* Clipping: a run of at least this many equal samples within
 * RECORDING_CLIP_LEVEL of full scale (a real peak is one sample, or two
 * at an extremum between samples; a flat top of three is a clipped one).
 * 0.999 (-0.009 dBFS) takes in 16-bit's +32767 / 32768 and converters
 * that clip a hair below full scale. */
#define RECORDING_CLIP_RUN   3
#define RECORDING_CLIP_LEVEL 0.999

typedef enum {
  RECORDING_SUCCESS,
  RECORDING_ERR_OPEN,     /* cannot open or not a sound file libsndfile reads */
  RECORDING_ERR_EMPTY,    /* no frames (or fewer than RECORDING_MIN_FRAMES) */
  RECORDING_ERR_RATE,     /* sample rate outside 22.05-192 kHz */
  RECORDING_ERR_CHANNELS, /* more channels than RECORDING_MAX_CHANNELS */
  RECORDING_ERR_TOO_LONG, /* longer than RECORDING_MAX_SECONDS */
  RECORDING_ERR_TRUNCATED,  /* fewer frames read than the header claims */
  RECORDING_ERR_SILENT,     /* every sample (nearly) zero */
  RECORDING_ERR_DC,         /* no signal but a constant offset */
  RECORDING_ERR_MEMORY,     /* an allocation failed */
  RECORDING_ERR_NOT_FINITE, /* a NaN or infinite sample (float files) */
} recording_status;

const char* recording_strerror(recording_status status);

typedef struct {
  float* channel[RECORDING_MAX_CHANNELS];
  int n_channels;
  size_t frames;
  double rate;
  double peak;     /* largest |sample| */
  size_t clipped;  /* samples in clipped runs (RECORDING_CLIP_RUN):
                      not 0 is a warning for the caller to give */
  char format[64]; /* libsndfile's name for the format and subtype */
} recording;

/* Reads `path` into `rec` (which it zeroes first); on failure `rec` holds
 * nothing and, when `message` is not NULL, a sentence naming the file and
 * what was wrong is written there (message_size bytes at most). */
recording_status recording_read(const char* path, recording* rec, char* message,
                                size_t message_size);

/* the same from a file image in memory (the fuzzer's way in); messages
 * name it "recording in memory" */
recording_status recording_read_memory(const void* data, size_t size,
                                       recording* rec, char* message,
                                       size_t message_size);

void recording_free(recording* rec);

#endif
