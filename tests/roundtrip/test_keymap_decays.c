/* SPDX-License-Identifier: ISC */
/*
 * Decay against pitch (issue 25, bar 3): the shipped measured keymaps
 * (presets/tables/measured/: marimba, xylophone) played through the
 * impact plugin at each zone's root, the 1/e decay of the fundamental on
 * the audio against the same measurement of the zone's recording (the
 * sample its zone is named after, from Debian's FluidR3_GM.sf2):
 *   - the fundamental: the strongest mode (by energy, gain^2 t_e) of the
 *     zone within a quarter tone of its root;
 *   - its decay, in both: the band envelope (band_envelope.h, +-8 Hz or
 *     +-5 %) from a window's half-length past the onset (the mallet's
 *     click then out of the window) over its first 20 dB fall (or to the
 *     end), one exponential fitted on the log;
 *   - each zone within 25 % of its recording, and the lowest zone's decay
 *     above the highest's exactly when the recordings' is.
 * A keymap given as hold:PATH has the bar held; without the prefix it is
 * measured and its verdict printed (the xylophone, for now: its analysis
 * does not yet read every zone's fundamental).  Skipped (77) without the
 * soundfont.
 *
 * usage: test_keymap_decays FILE.sf2 [hold:]KEYMAP.modes...
 */
#define _POSIX_C_SOURCE 200809L

#include "band_envelope.h"
#include "check.h"
#include "host.h"
#include "modal_keymap.h"
#include "plugin/render.h"
#include "real_samples.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the bar */
static const double decay_tol = 0.25;
/* the band: +-8 Hz, or +-5 % of the fundamental above 160 Hz: narrower
 * than its neighbours are apart (a marimba's next partial is at 4x, a
 * xylophone's at 3x), wide enough for a high bar's fast decay */
static const double band_sigma_hz = 8.0;
static const double band_sigma_share = 0.05;
/* the stretch fitted: its first 20 dB */
static const double fit_range_db = 20.0;
static const double strike_seconds = 1.5;
enum { BLOCK = 256, STEP_MS = 2, MAX_POINTS = 4096 };

/* the 1/e decay of x's band at f (see above), or NAN */
static double
band_decay(const float* x, size_t frames, double rate, double f)
{
  const double sigma_t = 1.0 / (2.0 * 3.14159265358979323846 *
                                fmax(band_sigma_hz, f * band_sigma_share));
  const long step = lround(STEP_MS * 1e-3 * rate);
  const long edge = lround(4.0 * sigma_t * rate);
  /* the onset: the first sample within 20 dB of the peak */
  double top = 0.0;
  for (size_t i = 0; i < frames; ++i)
    top = fmax(top, fabs(x[i]));
  long onset = 0;
  while (onset < (long)frames && fabs(x[onset]) < 0.1 * top)
    ++onset;
  static double t[MAX_POINTS], y[MAX_POINTS];
  int n = 0;
  double start = 0.0;
  for (long c = onset + edge; c < (long)frames - edge && n < MAX_POINTS;
       c += step) {
    const double level = band_level(x, frames, rate, f, c, sigma_t);
    if (n == 0)
      start = level;
    else if (20.0 * log10(start / level) > fit_range_db)
      break;
    t[n] = (double)c / rate;
    y[n++] = log(level);
  }
  return n >= 4 ? -1.0 / slope_of(t, y, n) : NAN;
}

/* the zone's fundamental: its strongest mode within a quarter tone */
static double
fundamental(const modal_table* z)
{
  const double root_hz = modal_keymap_note_hz(z->root);
  double best = 0.0, f = root_hz;
  for (int i = 0; i < z->count; ++i) {
    const double e = z->gain[i] * z->gain[i] * z->decay[i];
    if (fabs(log2(z->freq[i] / root_hz)) < 1.0 / 24.0 && e > best)
      best = e, f = z->freq[i];
  }
  return f;
}

static void
check_keymap(const sf2_file* sf, const char* path, bool hold)
{
  int met = 0;
  modal_keymap* map = malloc(sizeof(*map));
  modal_table_error error;
  CHECK(map &&
            modal_keymap_load(path, map, NULL, &error) == MODAL_TABLE_SUCCESS &&
            map->is_keymap,
        "%s: %s", path, map ? error.message : "out of memory");
  if (!map || !map->is_keymap) {
    free(map);
    return;
  }
  printf("%s (%d zones), the fundamental's 1/e decay at each zone's root:\n",
         map->name, map->zones);
  double rec_te[MODAL_KEYMAP_MAX_ZONES], play_te[MODAL_KEYMAP_MAX_ZONES];
  for (int k = 0; k < map->zones; ++k) {
    const modal_table* z = &map->zone[k];
    recording rec;
    char message[512];
    rec_te[k] = play_te[k] = NAN;
    if (real_sample_read(sf, z->name, &rec, message, sizeof(message))) {
      CHECK(false, "%s: zone %d: %s", path, k + 1, message);
      continue;
    }
    const double f = fundamental(z);
    rec_te[k] = band_decay(rec.channel[0], rec.frames, rec.rate, f);
    /* the keymap played at the recording's rate, the zone's root */
    host* h = host_open("urn:contact:impact", rec.rate, BLOCK);
    if (h) {
      host_log_quiet(h, true);
      HOST_OK(host_set(h, "modes", 32.0f));
      HOST_OK(host_set_table(h, 0, path));
      host_run(h, 2 * BLOCK, BLOCK, NULL, NULL);
      CHECK(host_log_errors(h) == 0, "%s: %s", path, host_log_last(h));
      const int note = (int)lround(z->root);
      HOST_OK(host_note_on(h, host_now(h), note, 100));
      const size_t frames = (size_t)(strike_seconds * rec.rate);
      float* l = calloc(frames, sizeof(float));
      if (l) {
        host_run(h, frames, BLOCK, l, NULL);
        /* the note a few cents off the zone's root: its fundamental moved */
        const double played = f * pow(2.0, (note - z->root) / 12.0);
        play_te[k] = band_decay(l, frames, rec.rate, played);
      }
      free(l);
      host_close(h);
    }
    recording_free(&rec);
    const double off = play_te[k] / rec_te[k] - 1.0;
    printf("  zone %d, %-18s root %6.2f, %8.2f Hz: recording %.4f s, played "
           "%.4f s (%+.0f %%)\n",
           k + 1, z->name, z->root, f, rec_te[k], play_te[k], 100.0 * off);
    met += fabs(off) <= decay_tol;
    CHECK(!hold || fabs(off) <= decay_tol,
          "%s: zone %d (%s): the played decay %.4f s is %+.0f %% off the "
          "recording's %.4f s",
          path, k + 1, z->name, play_te[k], 100.0 * off, rec_te[k]);
  }
  const int last = map->zones - 1;
  const bool rec_falls = rec_te[0] > rec_te[last];
  const bool play_falls = play_te[0] > play_te[last];
  printf("  lowest to highest zone: the recordings' decay %s (%.4f -> %.4f "
         "s), the played %s (%.4f -> %.4f s)\n",
         rec_falls ? "falls" : "rises", rec_te[0], rec_te[last],
         play_falls ? "falls" : "rises", play_te[0], play_te[last]);
  met += rec_falls == play_falls;
  printf("  %d of %d zones within %.0f %%, the trend %s: the bar is %s%s\n",
         met - (rec_falls == play_falls), map->zones, 100.0 * decay_tol,
         rec_falls == play_falls ? "alike" : "not alike",
         met == map->zones + 1 ? "met" : "NOT met",
         hold ? "" : " (measured, not held)");
  CHECK(!hold || rec_falls == play_falls,
        "%s: the played decay %s from the lowest zone to the highest, the "
        "recordings' %s",
        path, play_falls ? "falls" : "rises", rec_falls ? "falls" : "rises");
  free(map);
}

int
main(int argc, char** argv)
{
  sf2_file sf;
  const int opened = real_samples_open(argc, argv, &sf);
  if (opened == REAL_SAMPLES_SKIP)
    return opened;
  CHECK(opened == 0, "the soundfont did not open");
  for (int i = 2; opened == 0 && i < argc; ++i) {
    const bool hold = !strncmp(argv[i], "hold:", 5);
    check_keymap(&sf, argv[i] + (hold ? 5 : 0), hold);
  }
  if (opened == 0)
    sf2_close(&sf);
  return check_done("keymap_decays");
}
