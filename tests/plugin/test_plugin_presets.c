/* SPDX-License-Identifier: ISC */
/*
 * Every preset of an instrument (argument: its URI; the list is read from
 * presets/NAME.presets) loads, plays finite sound and puts a velocity-127
 * note at its root near -6 dBFS (the peak of the first two seconds of a
 * held note; for rolling, whose texture is random, its RMS within 3 dB of
 * -20 dBFS);
 * the rendered decay of every material preset has a quality factor
 * q = pi f t_e inside its material's range ([material] table 2, [ch5]
 * table 5.2) and within 3 % of the q the preset was made with.  The decay
 * is that of mode 1 alone, after a strike (impact) or after the exciter
 * is lifted (friction).
 */
#define _POSIX_C_SOURCE 200809L

#include "analysis.h"
#include "check.h"
#include "host.h"
#include "patches.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct material {
  const char* name;
  double q_min, q_max;
} material;

static const material materials[] = {
    {"rubber", 5.0, 44.3},
    {"wood", 14.9, 131.8},
    {"glass", 189.6, 5000.0},
    {"steel", 272.8, 5000.0},
};

static const double rate = 48000.0;

static const char* plugin_uri;
static bool textured;

/* the decay of mode 1 alone, as rendered after a strike at the root, or
 * after the exciter has rubbed it for half a second and lifted */
static double
rendered_q(const char* uri, int root)
{
  const bool rubbed = strstr(plugin_uri, "friction") != NULL;
  host* h = host_open(plugin_uri, rate, 512);
  host_load_preset(h, uri);
  HOST_OK(host_set(h, "modes", 1.0f));
  if (!rubbed)
    HOST_OK(host_set(h, "ext_force", 0.0f));
  const double f = host_get(h, "mode1_freq");
  const double te = 1e-3 * host_get(h, "mode1_decay");
  HOST_OK(host_note_on(h, 0, root, 100));
  const double start = rubbed ? 0.6 : 0.02, span = fmin(2.0 * te, 3.0);
  if (rubbed)
    HOST_OK(host_note_off(h, (uint64_t)(0.5 * rate), root));
  render r = render_run(h, start + span, 512);
  const size_t at = (size_t)(start * rate);
  size_t frame = (size_t)fmax(te * rate / 8.0, 2.0 * rate / f);
  if (frame > 16384)
    frame = 16384;
  const double measured = decay_time(r.l + at, r.frames - at, rate, f, frame);
  render_free(&r);
  host_close(h);
  return 3.14159265358979323846 * f * measured;
}

int
main(int argc, char** argv)
{
  plugin_uri = argc > 1 ? argv[1] : "urn:contact:impact";
  /* a rolling ball's micro-impacts are a random texture, whose largest
   * peak is a rare event: its presets are levelled by their RMS (within
   * 3 dB: as a skipping ball's path is chaotic, the rounding of another
   * build moves a two-second RMS by a dB or two) */
  textured = strstr(plugin_uri, "rolling") != NULL;
  patch presets[PATCHES_MAX];
  const int count = patches_read(plugin_uri, false, presets, PATCHES_MAX);
  for (int i = 0; i < count; ++i) {
    const patch* p = &presets[i];
    host* h = host_open(plugin_uri, rate, 512);
    CHECK(host_load_preset(h, p->uri), "%s does not load", p->uri);
    HOST_OK(host_note_on(h, 0, p->root, 127));
    render r = render_run(h, 2.0, 512);
    bool finite = true;
    for (size_t t = 0; t < r.frames; ++t)
      finite = finite && isfinite(r.l[t]) && isfinite(r.r[t]);
    CHECK(finite, "%s: non-finite output", p->id);
    if (textured) {
      const double rms_db = 20.0 * log10(rms(r.l, r.frames) + 1e-30);
      printf("%-14s RMS %+.1f dBFS", p->id, rms_db);
      CHECK(fabs(rms_db + 20.0) < 3.0,
            "%s: velocity 127 has an RMS of %.1f dBFS", p->id, rms_db);
    } else {
      const double peak_db = 20.0 * log10(peak_abs(r.l, r.frames) + 1e-30);
      printf("%-14s peak %+.1f dBFS", p->id, peak_db);
      CHECK(fabs(peak_db + 6.0) < 1.5, "%s: velocity 127 peaks at %.1f dBFS",
            p->id, peak_db);
    }
    render_free(&r);
    host_close(h);
    if (p->material[0]) {
      const double qr = rendered_q(p->uri, p->root);
      const material* m = NULL;
      for (size_t k = 0; k < sizeof(materials) / sizeof(materials[0]); ++k)
        if (!strcmp(materials[k].name, p->material))
          m = &materials[k];
      printf(", %s: rendered q %.1f (range %g..%g, preset %g)", p->material, qr,
             m ? m->q_min : 0, m ? m->q_max : 0, p->q);
      CHECK(m != NULL, "%s: unknown material %s", p->id, p->material);
      CHECK(m && qr >= m->q_min && qr <= m->q_max, "%s: q %.1f outside %s",
            p->id, qr, p->material);
      CHECK(fabs(qr / p->q - 1.0) < 0.03, "%s: q %.1f, made with %g", p->id, qr,
            p->q);
    }
    printf("\n");
  }
  CHECK(count >= 6, "only %d presets", count);
  return check_done("test_plugin_presets");
}
