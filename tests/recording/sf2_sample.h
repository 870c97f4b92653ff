/* SPDX-License-Identifier: ISC */
/*
 * The samples of a SoundFont 2 file (SF2.01: RIFF 'sfbk'; LIST 'sdta'
 * with 'smpl', 16-bit, and the optional 'sm24', their low bytes; LIST
 * 'pdta' with 'shdr', the sample headers): listed, and one extracted to a
 * WAV file.  Only what a sample is (its data, rate and pitch), not the
 * presets and instruments that play it.  Real recordings for the tests of
 * the modal analysis.
 */
#ifndef CONTACT_SF2_SAMPLE_H
#define CONTACT_SF2_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SF2_NAME_SIZE 21 /* 20 characters and a terminator */

typedef struct {
  char name[SF2_NAME_SIZE];
  uint32_t start, end;           /* sample points: [start, end) */
  uint32_t loop_start, loop_end; /* the sustain loop, not extracted */
  uint32_t rate;                 /* Hz */
  uint8_t pitch;                 /* original pitch, MIDI key */
  int8_t correction;             /* pitch correction, cents */
  uint16_t link, type;           /* stereo link; 1 mono, 2 right, 4 left */
} sf2_sample;

typedef struct {
  FILE* file;
  long smpl_offset; /* the 16-bit sample data */
  uint32_t smpl_points;
  long sm24_offset; /* their low bytes (24-bit), or 0 */
  sf2_sample* samples;
  int n_samples;
} sf2_file;

/* 0 on success; otherwise a sentence naming the file and the fault in
 * `message` and nothing to close */
int sf2_open(sf2_file* sf, const char* path, char* message, size_t size);
void sf2_close(sf2_file* sf);

/* the index of the sample called `name`, or -1 */
int sf2_find(const sf2_file* sf, const char* name);

/* the sample's points, 24-bit when the file has them (else 16-bit shifted
 * up by 8), into `out` (end - start of them); 0 on success */
int sf2_read(const sf2_file* sf, int index, int32_t* out);

/* writes the sample (start..end, not looped) to a mono WAV at its rate,
 * 24-bit or 16-bit as the file holds it, its original pitch as the WAV's
 * MIDI unity note; 0 on success, else a sentence in `message` */
int sf2_write_wav(const sf2_file* sf, int index, const char* path,
                  char* message, size_t size);

#endif
