/* SPDX-License-Identifier: ISC */
/*
 * Real recordings of struck objects, from Debian's FluidR3_GM.sf2
 * (fluid-soundfont-gm): each sample extracted to a WAV by the SoundFont
 * reader (sf2_sample.c) reads through recording_read() at the sample's
 * rate, with its length, mono, loud and not clipped, the same points the
 * SoundFont holds, and its original pitch as the WAV's unity note.  With
 * --analyse, the modal analysis's modes for each are printed, not checked
 * (the fit's own tests check it; it takes seconds a sample).  Skipped (77)
 * without the soundfont.
 *
 * usage: test_real_recordings FILE.sf2 [--analyse]
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "modal_analysis.h"
#include "recording.h"
#include "sf2_sample.h"

#include <math.h>
#include <sndfile.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SKIP 77

/* the samples are normalised strikes, peaking at -3 dBFS or above: below
 * this, the extraction read the wrong bytes */
#define MIN_PEAK_DBFS -6.0

/* single strikes of known material, long and clean (the decay of each
 * reaches -30 dB to -75 dB before its end); lengths in frames as Debian
 * 12's fluid-soundfont-gm 3.1 holds them */
static const struct {
  const char* name;
  const char* material;
  unsigned frames;
} samples[] = {
    {"Marimba C 5(L)", "wood (rosewood bar)", 75904},
    {"Xylophone C 6(L)", "wood (rosewood bar)", 56639},
    {"Glocken C8", "steel (bar)", 36008},
    {"Tubular Bells C7(L)", "brass (tube)", 62496},
    {"Triangle", "steel (rod)", 72136},
};

static char tmpdir[] = "/tmp/test_real_recordings.XXXXXX";

static void
print_modes(const recording* rec)
{
  analysis_options options = analysis_default_options();
  options.max_modes = 6;
  analysis_result result;
  const analysis_status st =
      analysis_run((const float* const*)rec->channel, rec->n_channels,
                   rec->frames, rec->rate, &options, &result);
  if (st) {
    printf("       analysis: %s\n", analysis_strerror(st));
    return;
  }
  printf("       analysis: root note %.2f,", result.root_note);
  for (int i = 0; i < result.n_modes; ++i)
    printf(" %.1f Hz/%.3f s", result.modes[i].freq, result.modes[i].decay);
  putchar('\n');
}

static bool analyse;

static void
check_sample(const sf2_file* sf, int k)
{
  const char* const name = samples[k].name;
  const int index = sf2_find(sf, name);
  CHECK(index >= 0, "no sample '%s'", name);
  if (index < 0)
    return;
  const sf2_sample* const s = &sf->samples[index];
  const size_t frames = s->end - s->start;
  CHECK(frames == samples[k].frames, "%s: %zu frames, want %u", name, frames,
        samples[k].frames);

  char path[512], message[512];
  snprintf(path, sizeof(path), "%s/%d.wav", tmpdir, k);
  if (sf2_write_wav(sf, index, path, message, sizeof(message))) {
    CHECK(0, "%s: %s", name, message);
    return;
  }
  recording rec;
  const recording_status st =
      recording_read(path, &rec, message, sizeof(message));
  CHECK(st == RECORDING_SUCCESS, "%s: %s", name, message);
  if (st) {
    unlink(path);
    return;
  }
  CHECK(rec.rate == s->rate, "%s: rate %g, want %u", name, rec.rate, s->rate);
  CHECK(rec.frames == frames, "%s: %zu frames, want %zu", name, rec.frames,
        frames);
  CHECK(rec.n_channels == 1, "%s: %d channels", name, rec.n_channels);
  const double peak_db = 20.0 * log10(rec.peak);
  CHECK(peak_db >= MIN_PEAK_DBFS, "%s: peak %.1f dBFS", name, peak_db);
  CHECK(rec.clipped == 0, "%s: %zu clipped samples", name, rec.clipped);

  /* the WAV holds the SoundFont's points */
  int32_t* const points = malloc(frames * sizeof(int32_t));
  CHECK(points && !sf2_read(sf, index, points), "%s: cannot read it", name);
  size_t differ = 0;
  for (size_t i = 0; points && i < frames; ++i)
    differ += rec.channel[0][i] != (float)points[i] / 8388608.0f;
  CHECK(differ == 0, "%s: %zu points differ from the SoundFont's", name,
        differ);
  free(points);

  SF_INFO info = {0};
  SNDFILE* const wav = sf_open(path, SFM_READ, &info);
  SF_INSTRUMENT inst;
  const int has_inst =
      wav && sf_command(wav, SFC_GET_INSTRUMENT, &inst, sizeof(inst));
  CHECK(has_inst && inst.basenote == s->pitch,
        "%s: the WAV's unity note is not the original pitch %u", name,
        s->pitch);
  if (wav)
    sf_close(wav);

  printf("  ok   %-20s %-20s %6zu frames %6.3f s %5.0f Hz pitch %3u, "
         "peak %5.1f dBFS\n",
         name, samples[k].material, rec.frames, (double)rec.frames / rec.rate,
         rec.rate, s->pitch, peak_db);
  if (analyse)
    print_modes(&rec);
  recording_free(&rec);
  unlink(path);
}

int
main(int argc, char** argv)
{
  analyse = argc == 3 && !strcmp(argv[2], "--analyse");
  if (argc != 2 && !analyse) {
    fprintf(stderr, "usage: %s FILE.sf2 [--analyse]\n", argv[0]);
    return 2;
  }
  if (access(argv[1], R_OK)) {
    printf("SKIP: %s not found (Debian package fluid-soundfont-gm)\n", argv[1]);
    return SKIP;
  }
  if (!mkdtemp(tmpdir)) {
    perror(tmpdir);
    return 1;
  }
  char message[512];
  sf2_file sf;
  CHECK(!sf2_open(&sf, argv[1], message, sizeof(message)), "%s", message);
  if (!check_failures) {
    CHECK(sf.n_samples > 1000, "%d samples", sf.n_samples);
    CHECK(sf2_find(&sf, "No Such Sample") < 0, "found a missing sample");
    for (size_t k = 0; k < sizeof(samples) / sizeof(samples[0]); ++k)
      check_sample(&sf, (int)k);
    sf2_close(&sf);
  }

  /* not a SoundFont: refused, named */
  char path[512];
  snprintf(path, sizeof(path), "%s/not.sf2", tmpdir);
  FILE* const f = fopen(path, "wb");
  if (f) {
    fputs("RIFF\x04\0\0\0WAVE", f);
    fclose(f);
  }
  const int refused = sf2_open(&sf, path, message, sizeof(message));
  CHECK(refused && strstr(message, path) && strstr(message, "not a SoundFont"),
        "a WAV header opened as a SoundFont (%s)", message);
  if (!refused)
    sf2_close(&sf);
  unlink(path);
  rmdir(tmpdir);
  return check_done("test_real_recordings");
}
