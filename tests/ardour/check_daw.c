/* SPDX-License-Identifier: ISC */
/*
 * check_daw INSTRUMENT TABLE NOTE SESSION REOPENED PRESET DEFAULT: the checks
 * of the `daw` suite on the WAV files ardour7-export rendered from the
 * session tests/ardour/daw.lua built (its timeline is described there):
 * SESSION (preset, table, lanes), REOPENED (the same session after it was
 * reopened and saved), PRESET (the preset, no table) and DEFAULT (the
 * plugin's defaults).  TABLE is the modal table file the session loads,
 * NOTE the note played (the table sounds as written at its root note).
 *
 * The bars and their reasons:
 * - not silent: every render peaks above -60 dBFS.  ardour7-export exits 0
 *   and writes silence when Ardour did not find the plugin, so this is
 *   what says the plugin played.
 * - velocity: each of the five notes (velocities 20, 40, 64, 90, 127) is
 *   at least 1 dB louder than the one before, and the last 10 dB louder
 *   than the first (the presets span 23-41 dB from 10 to 127; 20 to 127
 *   is most of that).  Level: the strike's peak for impact, the RMS of
 *   the held note's second half for friction and rolling.
 * - preset: the spectral centroid of the notes (0-7 s) with the preset
 *   differs from the defaults' by at least 10 % (a change of brightness
 *   well above what a listener notices).
 * - table: the share of the notes' power within 0.5 % (at least 2 Hz)
 *   of the table's mode frequencies (narrow bands, a few percent of the
 *   spectrum) is at least 0.3 with the table, and at most half of that
 *   without it (the preset's own modes).
 * - automation: the RMS of each 0.5 s of the automated passage follows
 *   the lane: its correlation with the lane's level, 20 log10 of the
 *   value at the window's middle, is at least 0.9, and it rises by at
 *   least half as many dB as the lane (the level of a strike and of a
 *   stroke follow the speed, a roll's grows faster).  Friction's
 *   normal force, held at 0 for a second, keeps that second at least
 *   20 dB below the passage's loudest window.
 * - reopened: the reopened session renders the same samples, bit for bit.
 */
#include "analysis.h"
#include "check.h"

#include <sndfile.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_MODES = 128, FRAME = 65536 };

static const double rate = 48000.0;

struct render {
  float* data; /* interleaved */
  float* mono; /* (left + right) / 2 */
  sf_count_t frames;
  int channels;
};

static int
read_render(const char* path, struct render* r)
{
  SF_INFO info;
  memset(&info, 0, sizeof info);
  SNDFILE* f = sf_open(path, SFM_READ, &info);
  if (!f) {
    fprintf(stderr, "FAIL cannot read %s: %s\n", path, sf_strerror(NULL));
    return -1;
  }
  r->frames = info.frames;
  r->channels = info.channels;
  r->data = malloc(sizeof(float) * (size_t)(info.frames * info.channels + 1));
  r->mono = malloc(sizeof(float) * (size_t)(info.frames + 1));
  const sf_count_t got = sf_readf_float(f, r->data, info.frames);
  sf_close(f);
  if (got != info.frames || info.samplerate != (int)rate) {
    fprintf(stderr, "FAIL %s: %lld of %lld frames at %d Hz\n", path,
            (long long)got, (long long)info.frames, info.samplerate);
    return -1;
  }
  for (sf_count_t i = 0; i < r->frames; ++i) {
    double sum = 0.0;
    for (int c = 0; c < r->channels; ++c)
      sum += r->data[i * r->channels + c];
    r->mono[i] = (float)(sum / r->channels);
  }
  return 0;
}

static double
db(double x)
{
  return 20.0 * log10(fmax(x, 1e-12));
}

/* the span [from, to) s of a render, clipped to its length */
static const float*
span(const struct render* r, double from, double to, size_t* n)
{
  size_t a = (size_t)(from * rate), b = (size_t)(to * rate);
  if (b > (size_t)r->frames)
    b = (size_t)r->frames;
  *n = b > a ? b - a : 0;
  return r->mono + a;
}

static double
level(const struct render* r, double from, double to, int use_peak)
{
  size_t n;
  const float* x = span(r, from, to, &n);
  return n ? db(use_peak ? peak_abs(x, n) : rms(x, n)) : -240.0;
}

static double*
notes_psd(const struct render* r)
{
  double* psd = malloc(sizeof(double) * (FRAME / 2 + 1));
  size_t n;
  const float* x = span(r, 0.0, 7.0, &n);
  welch_psd(x, n, rate, FRAME, psd);
  return psd;
}

static double
centroid(const double* psd)
{
  double sum = 0.0, moment = 0.0;
  for (int k = 1; k <= FRAME / 2; ++k) {
    sum += psd[k];
    moment += psd[k] * k * rate / FRAME;
  }
  return moment / sum;
}

/* the share of the power (20 Hz-20 kHz) near the table's frequencies */
static double
table_share(const double* psd, const double* freq, int modes)
{
  double total = 0.0, near = 0.0;
  for (int k = 1; k <= FRAME / 2; ++k) {
    const double f = k * rate / FRAME;
    if (f < 20.0 || f > 20000.0)
      continue;
    total += psd[k];
    for (int m = 0; m < modes; ++m)
      if (fabs(f - freq[m]) <= fmax(0.005 * freq[m], 2.0)) {
        near += psd[k];
        break;
      }
  }
  return near / total;
}

/* the table's frequencies at `note` */
static int
read_table(const char* path, double note, double* freq)
{
  FILE* f = fopen(path, "r");
  if (!f)
    return 0;
  char line[512];
  int modes = 0;
  double root = note;
  while (modes < MAX_MODES && fgets(line, sizeof line, f))
    if (line[0] != '#' && sscanf(line, "%lf", &freq[modes]) == 1)
      ++modes;
    else
      sscanf(line, "# root: %lf", &root);
  fclose(f);
  for (int m = 0; m < modes; ++m)
    freq[m] *= pow(2.0, (note - root) / 12.0);
  return modes;
}

static double
correlation(const double* x, const double* y, int n)
{
  double mx = 0, my = 0;
  for (int i = 0; i < n; ++i) {
    mx += x[i] / n;
    my += y[i] / n;
  }
  double sxy = 0, sxx = 0, syy = 0;
  for (int i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxy / sqrt(sxx * syy);
}

/* The automated passage, as daw.lua writes its lanes: the lane rises
 * linearly from 1/8 to 1 of the preset's value between `ramp_from` and
 * `ramp_from` + `ramp_length`; `first` is the first window measured (after
 * a note's onset). */
static void
check_automation(const struct render* r, const char* instrument)
{
  const int impact = strcmp(instrument, "impact") == 0;
  const int friction = strcmp(instrument, "friction") == 0;
  const double ramp_from = friction ? 11.0 : 10.0,
               ramp_length = friction ? 3.0 : 4.0;
  const double first = impact ? 10.0 : ramp_from + 0.5;
  double level_db[16], lane_db[16];
  int windows = 0;
  printf("automation, RMS per 0.5 s against the lane:\n");
  for (double t = first;
       t + 0.5 <= ramp_from + ramp_length + 1e-9 && windows < 16;
       t += 0.5, ++windows) {
    const double lane =
        1.0 / 8.0 + 7.0 / 8.0 * (t + 0.25 - ramp_from) / ramp_length;
    lane_db[windows] = db(lane);
    level_db[windows] = level(r, t, t + 0.5, 0);
    printf("  %5.2f-%5.2f s  lane %+6.1f dB  RMS %6.1f dBFS\n", t, t + 0.5,
           lane_db[windows], level_db[windows]);
  }
  const double r_lane = correlation(level_db, lane_db, windows);
  const double rise = level_db[windows - 1] - level_db[0];
  printf("  correlation %.3f (bar 0.9), rise %.1f dB (bar: half the "
         "lane's %.1f)\n",
         r_lane, rise, lane_db[windows - 1] - lane_db[0]);
  CHECK(r_lane >= 0.9, "the level does not follow the lane (r = %.3f)", r_lane);
  const double lane_rise = lane_db[windows - 1] - lane_db[0];
  CHECK(rise >= 0.5 * lane_rise, "the level rises %.1f dB along the lane",
        rise);
  if (friction) {
    const double lifted = level(r, 10.25, 11.0, 0);
    const double loudest = level_db[windows - 1];
    printf("  normal force 0 (10.25-11 s): RMS %.1f dBFS, %.1f dB below "
           "the loudest window (bar 20)\n",
           lifted, loudest - lifted);
    CHECK(loudest - lifted >= 20.0,
          "with the normal force at 0 the exciter still sounds (%.1f dB)",
          loudest - lifted);
  }
}

int
main(int argc, char** argv)
{
  if (argc != 8) {
    fprintf(stderr,
            "usage: %s INSTRUMENT TABLE NOTE SESSION REOPENED PRESET "
            "DEFAULT\n",
            argv[0]);
    return 2;
  }
  const char* instrument = argv[1];
  const char* names[4] = {"session", "reopened", "preset", "default"};
  struct render r[4];
  for (int i = 0; i < 4; ++i)
    if (read_render(argv[4 + i], &r[i]) != 0)
      return 1;

  printf("not silent (bar -60 dBFS):\n");
  for (int i = 0; i < 4; ++i) {
    const double peak = level(&r[i], 0.0, 1e9, 1);
    printf("  %-8s peak %6.1f dBFS, %.2f s\n", names[i], peak,
           (double)r[i].frames / rate);
    CHECK(peak > -60.0, "the %s render is silent: was the plugin found?",
          names[i]);
  }

  const int impact = strcmp(instrument, "impact") == 0;
  printf("velocity 20, 40, 64, 90, 127 (%s):", impact ? "peak" : "RMS");
  double note_db[5];
  for (int i = 0; i < 5; ++i) {
    const double t = 1.5 * i;
    note_db[i] = impact ? level(&r[0], t, t + 0.2, 1)
                        : level(&r[0], t + 0.5, t + 1.0, 0);
    printf(" %.1f", note_db[i]);
  }
  printf(" dBFS\n");
  for (int i = 1; i < 5; ++i)
    CHECK(note_db[i] >= note_db[i - 1] + 1.0,
          "note %d is not 1 dB louder than note %d", i + 1, i);
  CHECK(note_db[4] - note_db[0] >= 10.0, "velocity spans %.1f dB",
        note_db[4] - note_db[0]);

  double* psd[4];
  for (int i = 0; i < 4; ++i)
    psd[i] = notes_psd(&r[i]);
  const double c_preset = centroid(psd[2]), c_default = centroid(psd[3]);
  printf("preset: centroid %.0f Hz, defaults %.0f Hz (%+.0f %%, bar 10 %%)\n",
         c_preset, c_default, 100.0 * (c_preset / c_default - 1.0));
  CHECK(fabs(log(c_preset / c_default)) >= log(1.1),
        "the preset does not change the centroid");

  double freq[MAX_MODES];
  const int modes = read_table(argv[2], atof(argv[3]), freq);
  CHECK(modes > 0, "no modes in %s", argv[2]);
  const double with = table_share(psd[0], freq, modes);
  const double without = table_share(psd[2], freq, modes);
  printf("table (%d modes): power at its modes %.2f, without it %.2f "
         "(bars 0.3, half)\n",
         modes, with, without);
  CHECK(with >= 0.3, "the table's modes hold %.2f of the power", with);
  CHECK(without <= 0.5 * with, "the table's modes sound without the table");

  check_automation(&r[0], instrument);

  size_t differ = 0;
  double worst = 0.0;
  const int same_shape =
      r[0].frames == r[1].frames && r[0].channels == r[1].channels;
  for (sf_count_t i = 0; same_shape && i < r[0].frames * r[0].channels; ++i)
    if (memcmp(&r[0].data[i], &r[1].data[i], sizeof(float)) != 0) {
      ++differ;
      worst = fmax(worst, fabs(r[0].data[i] - r[1].data[i]));
    }
  printf("reopened: %s, %zu samples differ (largest %.3g)\n",
         same_shape ? "same length" : "other length", differ, worst);
  CHECK(same_shape && differ == 0,
        "the reopened session does not render the same audio");
  /* Under load two renders of one session by Ardour 7.3 now and then
   * differ (seen: one starting 16 samples early, one off by 7e-5 at
   * most): exit status 3 says that this alone failed, for run-daw-test to
   * render both again. */
  int shift = 0;
  for (int k = -64; same_shape && differ && k <= 64 && !shift; ++k) {
    size_t d = 0;
    for (sf_count_t i = 64; k && i < r[0].frames - 64 && !d; ++i)
      d = r[0].mono[i] != r[1].mono[i + k];
    shift = k && !d ? k : 0;
  }
  if (shift)
    printf("  the reopened render is the first one %+d samples later: "
           "Ardour's export started elsewhere\n",
           shift);
  if (differ && check_failures == 1)
    return 3;

  for (int i = 0; i < 4; ++i) {
    free(psd[i]);
    free(r[i].data);
    free(r[i].mono);
  }
  return check_done("check_daw");
}
