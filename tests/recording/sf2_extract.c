/* SPDX-License-Identifier: ISC */
/*
 * sf2-extract FILE.sf2 [SAMPLE_NAME OUT.wav]: lists a SoundFont's samples
 * (name, rate, original pitch, length), or writes one, start to end
 * without its loop, to a WAV file.
 */
#include "sf2_sample.h"

#include <stdio.h>

int
main(int argc, char** argv)
{
  if (argc != 2 && argc != 4) {
    fprintf(stderr, "usage: %s FILE.sf2 [SAMPLE_NAME OUT.wav]\n", argv[0]);
    return 2;
  }
  char message[512];
  sf2_file sf;
  if (sf2_open(&sf, argv[1], message, sizeof(message))) {
    fprintf(stderr, "%s\n", message);
    return 1;
  }
  int status = 0;
  if (argc == 2) {
    printf("%-20s %7s %5s %5s %9s %7s %s\n", "name", "rate", "pitch", "cents",
           "frames", "seconds", "type");
    for (int i = 0; i < sf.n_samples; ++i) {
      const sf2_sample* const s = &sf.samples[i];
      const unsigned frames = s->end > s->start ? s->end - s->start : 0;
      printf("%-20s %7u %5u %5d %9u %7.3f %u\n", s->name, s->rate, s->pitch,
             s->correction, frames, s->rate ? (double)frames / s->rate : 0.0,
             s->type);
    }
  } else {
    const int index = sf2_find(&sf, argv[2]);
    if (index < 0) {
      fprintf(stderr, "%s: no sample named '%s'\n", argv[1], argv[2]);
      status = 1;
    } else if (sf2_write_wav(&sf, index, argv[3], message, sizeof(message))) {
      fprintf(stderr, "%s\n", message);
      status = 1;
    }
  }
  sf2_close(&sf);
  return status;
}
