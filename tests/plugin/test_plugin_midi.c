/* SPDX-License-Identifier: ISC */
/*
 * Bar 5, MIDI through the plugin: louder with every velocity step; an
 * octave up renders every mode at twice the frequency; a re-strike of a
 * ringing object differs from a strike at rest and stays finite; notes
 * start on their frame; without pitch tracking every note strikes the
 * same object; pitch bend bends the object.
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double rate = 48000.0;

static host*
open_impact(void)
{
  host* h = host_open("urn:contact:impact", rate, 512);
  if (!h)
    exit(1);
  return h;
}

static double
mode_freq(const host* h, int i)
{
  char sym[32];
  snprintf(sym, sizeof(sym), "mode%d_freq", i + 1);
  return host_get(h, sym);
}

/* measured frequencies of the first n modes, each searched near `expect` */
static void
check_modes(const char* what, const render* r, int n, const double* expect,
            double tol)
{
  const size_t start = (size_t)(0.02 * rate);
  const size_t len = (size_t)(0.5 * rate);
  for (int i = 0; i < n; ++i) {
    char label[64];
    snprintf(label, sizeof(label), "%s: mode %d frequency", what, i + 1);
    check_rel(label, peak_frequency(r->l + start, len, rate, expect[i], 0.01),
              expect[i], tol);
  }
}

int
main(void)
{
  /* louder with every velocity */
  double last_peak = 0.0;
  for (int vel = 16; vel <= 128; vel += 16) {
    const int v = vel > 127 ? 127 : vel;
    host* h = open_impact();
    host_note_on(h, 0, 60, v);
    render r = render_run(h, 0.5, 256);
    const double p = peak_abs(r.l, r.frames);
    printf("velocity %3d: peak %.2f dBFS\n", v, 20 * log10(p));
    CHECK(p > last_peak, "velocity %d not louder than the one below", v);
    last_peak = p;
    render_free(&r);
    host_close(h);
  }

  /* root and root + 12 (pitch tracking is on by default) */
  {
    host* h = open_impact();
    const int n = (int)host_get(h, "modes");
    double table[16], octave[16];
    for (int i = 0; i < n; ++i) {
      table[i] = mode_freq(h, i);
      octave[i] = 2.0 * table[i];
    }
    host_note_on(h, 0, 60, 100);
    render root = render_run(h, 1.0, 256);
    check_modes("root", &root, n, table, 1e-3);
    host_close(h);
    h = open_impact();
    host_note_on(h, 0, 72, 100);
    render up = render_run(h, 1.0, 256);
    check_modes("root + 12", &up, n, octave, 1e-3);
    render_free(&root);
    render_free(&up);
    host_close(h);
  }

  /* re-strike of a ringing object vs a strike at rest */
  {
    const uint64_t t = (uint64_t)(0.3 * rate);
    host* a = open_impact();
    host_note_on(a, 0, 60, 100);
    host_note_on(a, t, 60, 100);
    render ringing = render_run(a, 0.6, 256);
    host* b = open_impact();
    host_note_on(b, t, 60, 100);
    render rest = render_run(b, 0.6, 256);
    double diff = 0.0, ref = 0.0;
    bool finite = true;
    for (size_t i = t; i < t + (size_t)(0.1 * rate); ++i) {
      diff += (ringing.l[i] - rest.l[i]) * (double)(ringing.l[i] - rest.l[i]);
      ref += rest.l[i] * (double)rest.l[i];
    }
    for (size_t i = 0; i < ringing.frames; ++i)
      finite = finite && isfinite(ringing.l[i]) && isfinite(ringing.r[i]);
    printf("re-strike differs from a strike at rest by %.1f %% (rms)\n",
           100 * sqrt(diff / ref));
    CHECK(sqrt(diff / ref) > 0.05, "re-strike sounds like a strike at rest");
    CHECK(finite, "re-strike produced a non-finite sample");
    /* it did hit the ringing object: the same voice, not a second one */
    CHECK(peak_abs(ringing.l + t, ringing.frames - t) <
              2.5 * peak_abs(rest.l + t, rest.frames - t),
          "re-strike much louder than a strike at rest: a second voice?");
    render_free(&ringing);
    render_free(&rest);
    host_close(a);
    host_close(b);
  }

  /* sample accuracy: a note at frame 1000 of a 4096-frame block */
  {
    host* h = open_impact();
    host_note_on(h, 1000, 60, 100);
    render r = render_run(h, 4096 / rate, 4096);
    size_t first = r.frames;
    for (size_t i = 0; i < r.frames && first == r.frames; ++i)
      if (r.l[i] != 0.0f)
        first = i;
    printf("note at frame 1000 sounds from frame %zu\n", first);
    CHECK(first == 1000 || first == 1001, "first sound at frame %zu", first);
    render_free(&r);
    host_close(h);
  }

  /* pitch tracking off: every note strikes the object at the table */
  {
    host* h = open_impact();
    host_set(h, "pitch_track", 0.0f);
    const int n = (int)host_get(h, "modes");
    double table[16];
    for (int i = 0; i < n; ++i)
      table[i] = mode_freq(h, i);
    host_note_on(h, 0, 84, 100);
    render r = render_run(h, 1.0, 256);
    check_modes("pitch tracking off, note 84", &r, n, table, 1e-3);
    render_free(&r);
    host_close(h);
  }

  /* pitch bend: full up with a 2-semitone range */
  {
    host* h = open_impact();
    const int n = (int)host_get(h, "modes");
    double bent[16];
    for (int i = 0; i < n; ++i)
      bent[i] = mode_freq(h, i) * pow(2.0, 8191.0 / 8192.0 * 2.0 / 12.0);
    const uint8_t bend_up[3] = {0xE0, 0x7F, 0x7F};
    host_midi(h, 0, bend_up, 3);
    host_note_on(h, 0, 60, 100);
    render r = render_run(h, 1.0, 256);
    check_modes("pitch bend +2", &r, n, bent, 1e-3);
    render_free(&r);
    host_close(h);
  }
  return check_done("test_plugin_midi");
}
