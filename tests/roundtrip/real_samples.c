/* SPDX-License-Identifier: ISC */
#define _POSIX_C_SOURCE 200809L

#include "real_samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
real_sample_read(const sf2_file* sf, const char* name, recording* rec,
                 char* message, size_t size)
{
  const int index = sf2_find(sf, name);
  if (index < 0) {
    snprintf(message, size, "no sample '%s' in the soundfont", name);
    return 1;
  }
  char dir[] = "/tmp/contact_real_sample.XXXXXX";
  if (!mkdtemp(dir)) {
    snprintf(message, size, "no temporary folder for '%s'", name);
    return 1;
  }
  char wav[64];
  snprintf(wav, sizeof(wav), "%s/sample.wav", dir);
  const int failed =
      sf2_write_wav(sf, index, wav, message, size) ||
      recording_read(wav, rec, message, size) != RECORDING_SUCCESS;
  unlink(wav);
  rmdir(dir);
  return failed;
}

int
real_samples_open(int argc, char** argv, sf2_file* sf)
{
  if (argc < 2 || access(argv[1], R_OK)) {
    printf("no soundfont %s (Debian package fluid-soundfont-gm): skipped\n",
           argc < 2 ? "given" : argv[1]);
    return REAL_SAMPLES_SKIP;
  }
  char message[512];
  if (sf2_open(sf, argv[1], message, sizeof(message))) {
    fprintf(stderr, "%s\n", message);
    return 1;
  }
  return 0;
}
