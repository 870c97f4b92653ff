/* SPDX-License-Identifier: ISC */
/*
 * The felt laws through the rolling plugin (issue 24 item 3): the
 * marble-on-a-table preset rolled with its Hunt-Crossley ball (contact_law
 * 0), then with a soft felt (contact_law 1, [borin] eq 1) and that felt
 * hysteretic (contact_law 2, [borin] 5).  Each renders finite and
 * sounding (its RMS above SILENT_DB), without a Newton cap hit; a soft
 * felt sinks deeper under the ball's weight, its patch bridging the
 * surface's fine texture and its contact ringing lower, so both felts
 * sound darker: their spectral centroid at most DARKER_MAX of the
 * Hunt-Crossley ball's.  Printed side by side.
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>

static const double rate = 48000.0;
#define PRESET     "urn:contact:preset:rolling-marble-table"
#define SILENT_DB  -80.0 /* dBFS: below this a roll is silence */
#define DARKER_MAX 0.8   /* a soft felt's centroid against Hunt-Crossley's */
#define SKIP_S     0.3   /* the ball gets up to speed */
#define ROLL_S     1.5
/* the soft felt: 1 kN at 1 mm, halfway from 2nd to 4th order (the 5 g
 * marble sinks some 10 um in it, 0.1 um with Hunt-Crossley's 1e9) */
#define FELT_K   1000.0
#define FELT_Y0  1.0
#define FELT_ETA 0.5

typedef struct roll_result {
  double centroid; /* Hz */
  double level;    /* dBFS RMS */
  bool finite;
  double cap_hits;
} roll_result;

static roll_result
roll(int law)
{
  roll_result out = {0.0, -INFINITY, false, 0.0};
  host* h = host_open("urn:contact:rolling", rate, 256);
  CHECK(h && host_load_preset(h, PRESET), "no preset %s", PRESET);
  if (!h)
    return out;
  HOST_OK(host_set(h, "contact_law", (float)law));
  if (law != 0) {
    HOST_OK(host_set(h, "felt_k", FELT_K));
    HOST_OK(host_set(h, "felt_y0", FELT_Y0));
    HOST_OK(host_set(h, "felt_eta", FELT_ETA));
  }
  host_run(h, 256, 256, NULL, NULL);
  HOST_OK(host_note_on(h, host_now(h), 60, 127));
  render r = render_run(h, SKIP_S + ROLL_S, 256);
  const size_t skip = (size_t)(SKIP_S * rate), n = r.frames - skip;
  out.finite = true;
  for (size_t i = 0; i < r.frames; ++i)
    out.finite = out.finite && isfinite(r.l[i]) && isfinite(r.r[i]);
  out.centroid = spectral_centroid(r.l + skip, n, rate);
  out.level = 20.0 * log10(rms(r.l + skip, n) + 1e-30);
  out.cap_hits = host_get(h, "newton_cap_hits");
  render_free(&r);
  host_close(h);
  return out;
}

int
main(void)
{
  static const char* const names[3] = {"Hunt-Crossley", "felt",
                                       "hysteretic felt"};
  roll_result res[3];
  printf("%s at velocity 127, %.1f s after %.1f s:\n", PRESET, ROLL_S, SKIP_S);
  for (int law = 0; law < 3; ++law) {
    res[law] = roll(law);
    printf("  %-16s centroid %6.0f Hz (x%.2f), %6.1f dBFS RMS, %g Newton "
           "cap hits\n",
           names[law], res[law].centroid, res[law].centroid / res[0].centroid,
           res[law].level, res[law].cap_hits);
    CHECK(res[law].finite, "%s: not finite", names[law]);
    CHECK(res[law].level > SILENT_DB, "%s: silent (%.1f dBFS)", names[law],
          res[law].level);
    CHECK(res[law].cap_hits == 0.0, "%s: %g Newton cap hits", names[law],
          res[law].cap_hits);
  }
  for (int law = 1; law < 3; ++law)
    CHECK(res[law].centroid <= DARKER_MAX * res[0].centroid,
          "the %s (K %g N at %g mm) is not darker: %.0f Hz, Hunt-Crossley "
          "%.0f Hz",
          names[law], FELT_K, FELT_Y0, res[law].centroid, res[0].centroid);
  return check_done("test_plugin_rolling_felt");
}
