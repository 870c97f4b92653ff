/* SPDX-License-Identifier: ISC */
/*
 * Pressing harder is brighter (issue 24, bar 5), measured through the
 * plugin binary at 48 kHz as a new user plays it: each friction preset
 * that is bowed or rubbed, at its root note with velocity 127 (the
 * preset's own speed and force), held for 2 s after a lead-in of 0.1 s
 * (a preset's modal table loads in the worker after the first block: the
 * note is played on the object the preset names, as a player's is), with
 * the normal_force port at 0.6, 1, 2 and 3.5 times the preset's value;
 * over the steady window 0.5-2 s (the note has spoken: test_plugin_playing
 * asks it within 250 ms) the RMS (dBFS, left channel) and the spectral
 * centroid (20 Hz - 20 kHz, Welch, 4096-sample frames).  The bar, per preset:
 *   - the RMS within 12 dB throughout (loudest against softest), and
 *   - from 0.6x to 3.5x the centroid rises by 25 % or more, or the RMS
 *     by 3 dB or more.
 * This is what players report and Schelleng's diagram maps for a bowed
 * string at a fixed bow speed and position: between the minimum and the
 * maximum bow force the Helmholtz corner sharpens with force (brighter;
 * the level, set by the bow speed, stays), until above the maximum the
 * tone turns raucous ([ch8] table 8.1, f_N: "high values give rougher and
 * louder sounds").
 *
 * The presets checked are those a player bows or rubs, the force being
 * the player's: wineglass, bowed-bar, bowed-string, plate-finger,
 * singing-bowl.  Not door-squeak and brake-squeal: nobody plays them by
 * pressure.  The hinge's load is the door's weight on the pin, and the
 * creak is a stick-slip relaxation whose pitch and roughness, not its
 * brightness, follow the load; a brake squeal is a pad pressed by a
 * caliper, a mode-locking instability that comes and goes with the
 * pressure rather than brightening with it.  (Their response to the
 * force is still measured by test_plugin_playing, item 3.)
 *
 * Arguments (by hand, to explore): a preset ID to measure only that one,
 * then any number of port=value overrides applied after the preset
 * loads (e.g. `bowed-string sigma1=0.5`).
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "patches.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double rate = 48000.0;
enum { BLOCK = 256 };
#define LEAD_S 0.1
#define NOTE_S 2.0
#define FROM_S 0.5
#define TO_S   2.0

static const double factors[] = {0.6, 1.0, 2.0, 3.5};
enum { N_FACTORS = sizeof(factors) / sizeof(factors[0]) };

/* the bar */
#define WITHIN_DB 12.0
#define BRIGHTER  0.25 /* centroid rise, 0.6x to 3.5x */
#define LOUDER_DB 3.0  /* or the RMS's */

static const char* const played[] = {"wineglass",    "bowed-bar",
                                     "bowed-string", "plate-finger",
                                     "singing-bowl", "singing-bowl-rod"};
enum { N_PLAYED = sizeof(played) / sizeof(played[0]) };

static const char* const* overrides;
static int n_overrides;

static double
db(double x)
{
  return 20.0 * log10(x + 1e-30);
}

/* a held velocity-127 note with normal_force scaled by x: RMS (dBFS) and
 * centroid (Hz) over the steady window */
static void
steady(const patch* p, double x, double* level, double* centroid)
{
  host* h = patch_open("urn:contact:friction", p, rate, BLOCK);
  for (int i = 0; i < n_overrides; ++i) {
    char symbol[64];
    float value;
    CHECK(sscanf(overrides[i], "%63[^=]=%f", symbol, &value) == 2 &&
              host_set(h, symbol, value),
          "bad override %s", overrides[i]);
  }
  const float fn = host_get(h, "normal_force");
  HOST_OK(host_set(h, "normal_force", (float)(x * fn)));
  host_run(h, (uint64_t)(LEAD_S * rate), BLOCK, NULL, NULL);
  HOST_OK(host_note_on(h, host_now(h), p->root, 127));
  render out = render_run(h, NOTE_S, BLOCK);
  const size_t a = (size_t)(FROM_S * rate), b = (size_t)(TO_S * rate);
  *level = db(rms(out.l + a, b - a));
  *centroid = spectral_centroid(out.l + a, b - a, rate);
  render_free(&out);
  host_close(h);
}

static void
measure(const patch* p)
{
  double level[N_FACTORS], centroid[N_FACTORS];
  double loudest = -INFINITY, softest = INFINITY;
  for (int i = 0; i < N_FACTORS; ++i) {
    steady(p, factors[i], &level[i], &centroid[i]);
    loudest = fmax(loudest, level[i]);
    softest = fmin(softest, level[i]);
  }
  const double spread = loudest - softest;
  const double brighter = centroid[N_FACTORS - 1] / centroid[0] - 1.0;
  const double louder = level[N_FACTORS - 1] - level[0];
  const bool within = isfinite(spread) && spread <= WITHIN_DB;
  const bool rises = brighter >= BRIGHTER || louder >= LOUDER_DB;
  for (int i = 0; i < N_FACTORS; ++i)
    printf("%-14s %5.2f  %7.1f  %8.0f  %+6.1f %%\n", i ? "" : p->id, factors[i],
           level[i], centroid[i], 100.0 * (centroid[i] / centroid[0] - 1.0));
  printf("%-14s spread %.1f dB (%s), 0.6x->3.5x: centroid %+.0f %%, RMS "
         "%+.1f dB (%s): %s\n",
         "", spread, within ? "ok" : "FAIL", 100.0 * brighter, louder,
         rises ? "ok" : "FAIL", within && rises ? "holds" : "FAILS");
  CHECK(within, "%s: RMS spread %.1f dB over 0.6x-3.5x f_N (bar %.0f)", p->id,
        spread, WITHIN_DB);
  CHECK(rises,
        "%s: 0.6x -> 3.5x f_N: centroid %+.0f %% (bar %+.0f %%), RMS %+.1f "
        "dB (bar %+.0f)",
        p->id, 100.0 * brighter, 100.0 * BRIGHTER, louder, LOUDER_DB);
}

int
main(int argc, char** argv)
{
  const char* only = argc > 1 ? argv[1] : NULL;
  overrides = (const char* const*)(argv + 2);
  n_overrides = argc > 2 ? argc - 2 : 0;
  patch patches[PATCHES_MAX];
  const int n =
      patches_read("urn:contact:friction", false, patches, PATCHES_MAX);
  CHECK(n > 0, "no friction presets");
  printf("%-14s %5s  %7s  %8s  %8s\n", "preset", "f_N x", "RMS dB", "centr Hz",
         "centr");
  int measured = 0;
  for (int j = 0; j < N_PLAYED; ++j) {
    const patch* p = NULL;
    for (int i = 0; i < n; ++i)
      if (!strcmp(patches[i].id, played[j]))
        p = &patches[i];
    CHECK(p != NULL, "preset %s is missing", played[j]);
    if (!p || (only && strcmp(only, p->id)))
      continue;
    measure(p);
    ++measured;
  }
  CHECK(measured > 0, "no preset measured");
  return check_done("test_plugin_brightness");
}
