/* SPDX-License-Identifier: ISC */
/*
 * Where the object is struck and heard ([ch8] 8.2.2), measured on the
 * impact instrument's free ringing: after the hammer has left, the output
 * is exactly a sum of damped sinusoids at the modes' frequencies and
 * decays, so a least-squares fit reads each mode's amplitude to the
 * output's float rounding (test_plugin_object does the same).  With the
 * hammer 1/1000 of the modal masses the blow is an impulse, the same
 * wherever it lands, and mode n's amplitude at the pickup is
 * |phi_n(p) phi_n(q)| times what the mode's gain and the blow give it.
 * 1. nodes: a strike on a node of mode n of the string and the free-free
 *    bar leaves mode n at least 60 dB below a strike at an antinode;
 * 2. weights: over 8 strike and pickup points of every analytic family,
 *    the first 6 modes follow |phi_n(p) phi_n(q)| within 0.5 dB wherever
 *    they are within 40 dB of their loudest;
 * 3. rimshot and clamp: a membrane struck near the rim (r = 0.9) has a
 *    spectral centroid at least 30 % above one struck near the centre
 *    (r = 0.1); a cantilever struck near its clamp raises its third mode
 *    against its first by at least 20 dB from a strike at the tip;
 * 4. per note: CC74 before a note sets its strike point (the meter, and
 *    the weights of 2); position_spread scatters the strikes uniformly
 *    within +-spread (the standard deviation within 10 % of spread /
 *    sqrt(3) over 200 strikes);
 * 5. none: shape "none", and "table's shapes" with a table that has
 *    none, render bit-identically whatever the positions;
 * 6. tables with shapes: a table carrying the free-free bar's shapes at
 *    17 positions renders, between its samples, the analytic shape's
 *    weights within 0.5 dB (where a mode is within 20 dB of its loudest:
 *    the spline's error is a share of the largest value, so near a node
 *    it is a large share of a small one); a shaped table played with
 *    shape "none" is the table without its shapes, bit for bit;
 * 7. state: an instance playing a shaped table with shape, positions and
 *    spread set is saved and restored into a fresh one, which plays the
 *    same notes bit-identically (plugin_state_* does every port).
 */
#define _POSIX_C_SOURCE 200809L

#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"
#include "shape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double rate = 48000.0;
enum { MODES = 6, MAX_MODES = 16 };
static const double f0 = 220.0;    /* Hz, the first mode */
static const double decay = 0.8;   /* s, every mode */
static const double fit_at = 0.02; /* s: the hammer has long left */
static const double fit_len = 0.15;

/* The first `modes` modes of `family` at its own frequency ratios (the
 * membrane's and plate's degenerate pairs a cent apart, so that the fit
 * tells them apart: a real plate is never exactly square either). */
static void
frequencies(shape_family family, int modes, double* freq)
{
  for (int n = 0; n < modes; ++n) {
    freq[n] = f0 * shape_ratio(family, n);
    for (int k = 0; k < n; ++k)
      if (fabs(freq[n] / freq[k] - 1.0) < 1e-3)
        freq[n] *= exp2(1.0 / 1200.0 * (n - k));
  }
}

/* An impact instrument with `modes` modes of the family, gains 1, an
 * object of 1 kg and a hammer of 1 g (1/1000 of every modal mass), hard;
 * the shape port set to the family. */
static host*
object_of(shape_family family, int modes, double* freq)
{
  host* h = host_open("urn:contact:impact", rate, 256);
  if (!h)
    exit(1);
  frequencies(family, modes, freq);
  HOST_OK(host_set(h, "pitch_track", 0.0f));
  HOST_OK(host_set(h, "modes", (float)modes));
  HOST_OK(host_set(h, "gain", 0.0f));
  HOST_OK(host_set(h, "object_mass", 1.0f));
  HOST_OK(host_set(h, "hammer_mass", 1.0f)); /* g */
  HOST_OK(host_set(h, "stiffness", 1e10f));
  HOST_OK(host_set(h, "width", 0.0f));
  HOST_OK(host_set(h, "shape", (float)family));
  for (int i = 0; i < modes; ++i) {
    char sym[32];
    snprintf(sym, sizeof(sym), "mode%d_freq", i + 1);
    HOST_OK(host_set(h, sym, (float)freq[i]));
    freq[i] = (float)freq[i]; /* what the plugin plays */
    snprintf(sym, sizeof(sym), "mode%d_decay", i + 1);
    HOST_OK(host_set(h, sym, (float)(1e3 * decay)));
    snprintf(sym, sizeof(sym), "mode%d_gain", i + 1);
    HOST_OK(host_set(h, sym, 1.0f));
  }
  return h;
}

static host*
object(shape_family family, double* freq)
{
  return object_of(family, MODES, freq);
}

/* The amplitudes of `modes` modes of frequencies freq and decays d (s)
 * at the left pickup, after a note at 0 (it is played, h closed); the
 * render is kept in *keep unless NULL. */
static void
strike_amplitudes(host* h, int modes, const double* freq, const double* d,
                  double* amp, render* keep)
{
  HOST_OK(host_note_on(h, host_now(h), 60, 100));
  render r = render_run(h, fit_at + fit_len + 0.01, 256); /* whole windows */
  double re[MAX_MODES], im[MAX_MODES];
  fit_damped_sines(r.l + (size_t)(fit_at * rate), (size_t)(fit_len * rate),
                   rate, modes, freq, d, re, im);
  for (int i = 0; i < modes; ++i)
    amp[i] = hypot(re[i], im[i]);
  if (keep)
    *keep = r;
  else
    render_free(&r);
  host_close(h);
}

/* the decays as the plugin plays them (the port is in ms, a float) */
static void
port_decays(int modes, double* d)
{
  for (int i = 0; i < modes; ++i)
    d[i] = 1e-3 * (double)(float)(1e3 * decay);
}

/* The amplitudes of `modes` modes at the left pickup after a strike at
 * (x, y) heard at pickup q. */
static void
amplitudes_of(shape_family family, int modes, double x, double y, double q,
              double* amp)
{
  double freq[MAX_MODES], decays[MAX_MODES];
  host* h = object_of(family, modes, freq);
  port_decays(modes, decays);
  HOST_OK(host_set(h, "position", (float)x));
  HOST_OK(host_set(h, "position_y", (float)y));
  HOST_OK(host_set(h, "pickup_position", (float)q));
  strike_amplitudes(h, modes, freq, decays, amp, NULL);
}

static void
amplitudes(shape_family family, double x, double y, double q, double* amp)
{
  amplitudes_of(family, MODES, x, y, q, amp);
}

static double
db(double ratio)
{
  return 20.0 * log10(ratio);
}

/* the pickup's y as the plugin places it (dsp/place.h) */
static double
pickup_y(shape_family family)
{
  return family == SHAPE_MEMBRANE ? 0.0 : 0.38;
}

/* 1. A node of mode n of the string or the free-free bar, found by
 * bisection between two points where its shape changes sign. */
static double
node_of(shape_family family, int n, double lo, double hi)
{
  double flo = shape_exact(family, n, lo, 0.0);
  for (int k = 0; k < 100; ++k) {
    const double mid = 0.5 * (lo + hi);
    const double fm = shape_exact(family, n, mid, 0.0);
    if ((fm < 0.0) == (flo < 0.0)) {
      lo = mid;
      flo = fm;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

static void
nodes(void)
{
  /* the level a node leaves, at most (dB below the antinode's) */
  const double node_depth_db = -60.0;
  const shape_family families[2] = {SHAPE_STRING, SHAPE_BAR_FREE};
  /* pickups off every node of the first modes: near the string's end,
   * at the bar's free end */
  const double pickup[2] = {0.07, 0.0};
  for (int k = 0; k < 2; ++k) {
    const shape_family f = families[k];
    for (int n = 0; n < MODES; ++n) {
      /* the first sign change of phi_n from the left end */
      double a = 1e-3, node = -1.0, anti = 0.0, peak = 0.0;
      const double step = 1.0 / 512.0;
      for (double x = a; x + step < 1.0; x += step) {
        const double v = fabs(shape_exact(f, n, x, 0.0));
        if (v > peak) {
          peak = v;
          anti = x;
        }
        if (node < 0.0 && (shape_exact(f, n, x, 0.0) < 0.0) !=
                              (shape_exact(f, n, x + step, 0.0) < 0.0))
          node = node_of(f, n, x, x + step);
      }
      if (node < 0.0) /* the string's fundamental: no interior node */
        continue;
      double at_node[MODES], at_anti[MODES];
      amplitudes(f, node, 0.0, pickup[k], at_node);
      amplitudes(f, anti, 0.0, pickup[k], at_anti);
      const double depth = db(at_node[n] / at_anti[n]);
      printf("%s mode %d: struck at its node x = %.5f, %.1f dB against its "
             "antinode x = %.3f (at most %.0f)\n",
             shape_family_name(f), n + 1, node, depth, anti, node_depth_db);
      CHECK(depth <= node_depth_db, "%s mode %d at its node: %.1f dB",
            shape_family_name(f), n + 1, depth);
    }
  }
}

/* 2. weights over 8 strike and pickup points */
static void
weights(void)
{
  /* within this of its loudest a mode is compared; the tolerance */
  const double within_db = 40.0, tol_db = 0.5;
  for (int f = SHAPE_STRING; f < SHAPE_TABLE; ++f) {
    enum { POINTS = 8 };
    double got[POINTS][MODES], want[POINTS][MODES];
    for (int k = 0; k < POINTS; ++k) {
      const double p = (k + 0.5) / POINTS;
      const double py = fmod(0.13 + 0.29 * k, 1.0);
      const double q = fmod(0.41 + 0.37 * k, 1.0);
      amplitudes((shape_family)f, p, py, q, got[k]);
      for (int n = 0; n < MODES; ++n)
        want[k][n] = fabs(shape_exact((shape_family)f, n, p, py) *
                          shape_exact((shape_family)f, n, q, pickup_y(f)));
    }
    double worst = 0.0;
    int compared = 0;
    for (int n = 0; n < MODES; ++n) {
      /* against the loudest point of the mode, as the physics predicts */
      int ref = 0;
      for (int k = 1; k < POINTS; ++k)
        if (want[k][n] > want[ref][n])
          ref = k;
      for (int k = 0; k < POINTS; ++k) {
        if (db(want[k][n] / want[ref][n]) < -within_db)
          continue;
        const double err =
            db(got[k][n] / got[ref][n]) - db(want[k][n] / want[ref][n]);
        worst = worst_of(worst, err);
        compared++;
      }
    }
    printf("%s: %d mode levels follow |phi(p) phi(q)|, worst %.3f dB (tol "
           "%.1f)\n",
           shape_family_name((shape_family)f), compared, worst, tol_db);
    CHECK(worst <= tol_db, "%s: weights off by %.2f dB",
          shape_family_name((shape_family)f), worst);
    CHECK(compared >= MODES * POINTS / 2, "%s: only %d levels compared",
          shape_family_name((shape_family)f), compared);
  }
}

/* 3. rimshot and clamp: the centroid of the magnitude spectrum's peaks */
static double
centroid(shape_family f, int modes, const double* amp)
{
  double freq[MAX_MODES], sum = 0.0, moment = 0.0;
  frequencies(f, modes, freq);
  for (int n = 0; n < modes; ++n) {
    sum += amp[n];
    moment += freq[n] * amp[n];
  }
  return moment / sum;
}

static void
rimshot_and_clamp(void)
{
  const double rimshot_rise = 1.3, clamp_rise_db = 20.0;
  /* a drum's 16 lowest modes, heard half way out */
  const int drum = MAX_MODES;
  double centre[MAX_MODES], rim[MAX_MODES];
  amplitudes_of(SHAPE_MEMBRANE, drum, 0.1, 0.0, 0.5, centre);
  amplitudes_of(SHAPE_MEMBRANE, drum, 0.9, 0.0, 0.5, rim);
  const double c0 = centroid(SHAPE_MEMBRANE, drum, centre);
  const double c1 = centroid(SHAPE_MEMBRANE, drum, rim);
  printf("membrane, %d modes: centroid %.1f Hz struck at r = 0.1, %.1f Hz at "
         "r = 0.9 (x%.2f, at least x%.2f)\n",
         drum, c0, c1, c1 / c0, rimshot_rise);
  CHECK(c1 >= rimshot_rise * c0, "rimshot centroid x%.2f", c1 / c0);

  double clamp[MODES], tip[MODES];
  amplitudes(SHAPE_BAR_CLAMPED, 0.08, 0.0, 1.0, clamp);
  amplitudes(SHAPE_BAR_CLAMPED, 1.0, 0.0, 1.0, tip);
  const double rise = db(clamp[2] / clamp[0]) - db(tip[2] / tip[0]);
  printf("cantilever: mode 3 against mode 1 %+.1f dB struck near the clamp "
         "(x = 0.08), %+.1f dB at the tip: %+.1f dB (at least %+.0f)\n",
         db(clamp[2] / clamp[0]), db(tip[2] / tip[0]), rise, clamp_rise_db);
  CHECK(rise >= clamp_rise_db, "clamp raises mode 3 by %.1f dB", rise);
}

/* 4. per note: CC74 and the spread */
static void
per_note(void)
{
  double freq[MODES];
  host* h = object(SHAPE_BAR_FREE, freq);
  HOST_OK(host_set(h, "position", 0.3f));
  const uint8_t cc74[3] = {0xB0, 74, 100};
  HOST_OK(host_midi(h, 0, cc74, 3));
  HOST_OK(host_note_on(h, 10, 60, 100));
  render r = render_run(h, 0.05, 256);
  const double meter = host_get(h, "strike_position");
  printf("CC74 = 100 before the note: strike at %.6f (want %.6f)\n", meter,
         100.0 / 127.0);
  CHECK(fabs(meter - 100.0 / 127.0) < 1e-6, "CC74 moved the strike to %g",
        meter);
  render_free(&r);
  host_close(h);

  /* the weights follow it as a port's position does (the fit of 2) */
  double by_cc[MODES], by_port[MODES];
  {
    double fr[MODES], decays[MODES];
    host* g = object(SHAPE_BAR_FREE, fr);
    port_decays(MODES, decays);
    HOST_OK(host_set(g, "pickup_position", 0.0f));
    HOST_OK(host_midi(g, 0, cc74, 3));
    strike_amplitudes(g, MODES, fr, decays, by_cc, NULL);
  }
  amplitudes(SHAPE_BAR_FREE, 100.0 / 127.0, 0.0, 0.0, by_port);
  double worst = 0.0;
  for (int n = 0; n < MODES; ++n)
    worst = worst_of(worst, db(by_cc[n] / by_port[n]));
  printf("CC74's strike against the port's at the same point: worst %.4f "
         "dB\n",
         worst);
  CHECK(worst < 0.01, "CC74's strike differs by %.3f dB", worst);

  /* the spread: 200 strikes of one note */
  const double spread = 0.2, tol = 0.1;
  h = object(SHAPE_BAR_FREE, freq);
  HOST_OK(host_set(h, "position", 0.5f));
  HOST_OK(host_set(h, "position_spread", (float)spread));
  enum { STRIKES = 200 };
  double sum = 0.0, sum2 = 0.0, lo = 1.0, hi = 0.0;
  const uint64_t gap = 480;
  for (int k = 0; k < STRIKES; ++k) {
    HOST_OK(host_note_on(h, host_now(h), 60, 100));
    host_run(h, gap, 256, NULL, NULL);
    const double x = host_get(h, "strike_position") - 0.5;
    sum += x;
    sum2 += x * x;
    lo = fmin(lo, x);
    hi = fmax(hi, x);
  }
  host_close(h);
  const double mean = sum / STRIKES;
  const double sd = sqrt(sum2 / STRIKES - mean * mean);
  const double want = spread / sqrt(3.0);
  printf("spread %.2f: offsets from %+.4f to %+.4f, mean %+.4f, standard "
         "deviation %.4f (want %.4f within %.0f %%)\n",
         spread, lo, hi, mean, sd, want, 100 * tol);
  CHECK(fabs(sd / want - 1.0) <= tol, "spread's deviation %.4f", sd);
  CHECK(lo >= -spread - 1e-6 && hi <= spread + 1e-6, "offsets beyond %.2f",
        spread);
  CHECK(hi - lo > spread, "offsets do not scatter: %.4f .. %.4f", lo, hi);
}

/* 5. shape none: the positions change nothing */
static void
none(void)
{
  double freq[MODES];
  render r[3];
  const float positions[3] = {0.3f, 0.71f, 0.05f};
  for (int k = 0; k < 3; ++k) {
    host* h = object(SHAPE_BAR_FREE, freq);
    HOST_OK(host_set(h, "shape", k == 2 ? (float)SHAPE_TABLE : 0.0f));
    HOST_OK(host_set(h, "position", positions[k]));
    HOST_OK(host_set(h, "pickup_position", positions[k]));
    HOST_OK(host_set(h, "position_spread", 0.3f));
    HOST_OK(host_note_on(h, 0, 60, 100));
    HOST_OK(host_note_on(h, 4800, 60, 50));
    r[k] = render_run(h, 0.2, 256);
    host_close(h);
  }
  for (int k = 1; k < 3; ++k) {
    const bool same = !memcmp(r[0].l, r[k].l, r[0].frames * sizeof(float)) &&
                      !memcmp(r[0].r, r[k].r, r[0].frames * sizeof(float));
    printf("shape %s, position %.2f: %s the render at position %.2f\n",
           k == 2 ? "table (no table)" : "none", positions[k],
           same ? "bit-identical to" : "differs from", positions[0]);
    CHECK(same, "positions change a render without shapes");
  }
  for (int k = 0; k < 3; ++k)
    render_free(&r[k]);
}

/* 6. tables with shapes */
enum { TABLE_POINTS = 17 };

/* the free-free bar's MODES modes as a table file, with their shapes at
 * TABLE_POINTS positions or without; returns the path */
static void
write_table(const char* path, const double* freq, bool shaped)
{
  FILE* f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs("# name: free-free bar\n", f);
  if (shaped)
    fprintf(f, "# shape: %d\n", TABLE_POINTS);
  for (int n = 0; n < MODES; ++n) {
    fprintf(f, "%.17g %.17g 1", freq[n], decay);
    for (int i = 0; shaped && i < TABLE_POINTS; ++i)
      fprintf(f, " %.17g",
              shape_exact(SHAPE_BAR_FREE, n, i / (TABLE_POINTS - 1.0), 0.0));
    fputc('\n', f);
  }
  fclose(f);
}

/* the modes' amplitudes with the table at `path` loaded (shape port
 * `shape`), struck at x, heard at the free end */
static void
table_amplitudes(const char* path, int shape, double x, const double* freq,
                 double* amp, render* keep)
{
  host* h = host_open("urn:contact:impact", rate, 256);
  if (!h)
    exit(1);
  HOST_OK(host_set(h, "pitch_track", 0.0f));
  HOST_OK(host_set(h, "modes", MODES));
  HOST_OK(host_set(h, "gain", 0.0f));
  HOST_OK(host_set(h, "hammer_mass", 1.0f));
  HOST_OK(host_set(h, "stiffness", 1e10f));
  HOST_OK(host_set(h, "width", 0.0f));
  HOST_OK(host_set(h, "shape", (float)shape));
  HOST_OK(host_set(h, "position", (float)x));
  HOST_OK(host_set(h, "pickup_position", 0.0f));
  HOST_OK(host_set_table(h, 0, path));
  host_run(h, 512, 256, NULL, NULL);
  CHECK(host_table_replies(h) == 1, "%s did not load", path);
  double decays[MODES];
  for (int i = 0; i < MODES; ++i)
    decays[i] = decay; /* the table's, in s as written */
  strike_amplitudes(h, MODES, freq, decays, amp, keep);
}

static void
tables_with_shapes(void)
{
  const double within_db = 20.0, tol_db = 0.5;
  char dir[] = "/tmp/contact-place-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    exit(1);
  }
  char shaped[64], plain[64];
  snprintf(shaped, sizeof(shaped), "%s/shaped.modes", dir);
  snprintf(plain, sizeof(plain), "%s/plain.modes", dir);
  double freq[MODES];
  frequencies(SHAPE_BAR_FREE, MODES, freq);
  write_table(shaped, freq, true);
  write_table(plain, freq, false);

  /* between the samples: half way, and a quarter of the way */
  enum { POINTS = 8 };
  double got[POINTS][MODES], want[POINTS][MODES];
  for (int k = 0; k < POINTS; ++k) {
    const double x = (2 * k + 1 + 0.5 * (k % 2)) / (2.0 * (TABLE_POINTS - 1));
    table_amplitudes(shaped, SHAPE_TABLE, x, freq, got[k], NULL);
    table_amplitudes(shaped, SHAPE_BAR_FREE, x, freq, want[k], NULL);
  }
  double worst = 0.0;
  int compared = 0;
  for (int n = 0; n < MODES; ++n) {
    double loudest = 0.0;
    for (int k = 0; k < POINTS; ++k)
      loudest = fmax(loudest, want[k][n]);
    for (int k = 0; k < POINTS; ++k) {
      if (db(want[k][n] / loudest) < -within_db)
        continue;
      worst = worst_of(worst, db(got[k][n] / want[k][n]));
      compared++;
    }
  }
  printf("table with the free-free bar's shapes at %d points: %d mode levels "
         "between its samples against the analytic shape's, worst %.3f dB "
         "(tol %.1f)\n",
         TABLE_POINTS, compared, worst, tol_db);
  CHECK(worst <= tol_db, "a shaped table's weights off by %.2f dB", worst);
  CHECK(compared >= MODES * POINTS / 2, "only %d levels compared", compared);

  /* played without its shapes, a shaped table is the plain one */
  double a[MODES];
  render with, without;
  table_amplitudes(shaped, SHAPE_NONE, 0.3, freq, a, &with);
  table_amplitudes(plain, SHAPE_TABLE, 0.3, freq, a, &without);
  const bool same = !memcmp(with.l, without.l, with.frames * sizeof(float)) &&
                    !memcmp(with.r, without.r, with.frames * sizeof(float));
  printf("shaped table played without shapes: %s the plain table's render\n",
         same ? "bit-identical to" : "differs from");
  CHECK(same, "a shaped table without its shapes differs from a plain one");
  render_free(&with);
  render_free(&without);

  /* 7. the shaped table, the shape and the positions through a state */
  host* sa = host_open("urn:contact:impact", rate, 256);
  host* sb = host_open("urn:contact:impact", rate, 256);
  if (!sa || !sb)
    exit(1);
  HOST_OK(host_set(sa, "shape", (float)SHAPE_TABLE));
  HOST_OK(host_set(sa, "modes", MODES));
  HOST_OK(host_set(sa, "position", 0.61f));
  HOST_OK(host_set(sa, "pickup_position", 0.13f));
  HOST_OK(host_set(sa, "pickup_position_r", 0.77f));
  HOST_OK(host_set(sa, "position_spread", 0.1f));
  HOST_OK(host_set_table(sa, 0, shaped));
  host_run(sa, 512, 256, NULL, NULL);
  CHECK(host_save_state(sa, dir, "state.ttl"), "saving the state failed");
  char state[96];
  snprintf(state, sizeof(state), "%s/state.ttl", dir);
  host_run(sb, 512, 256, NULL, NULL);
  CHECK(host_restore_state(sb, state), "restoring %s failed", state);
  host_run(sb, 512, 256, NULL, NULL);
  render ra[2];
  for (int k = 0; k < 2; ++k) {
    host* h = k ? sb : sa;
    HOST_OK(host_note_on(h, host_now(h), 60, 100));
    HOST_OK(host_note_on(h, host_now(h) + 2400, 60, 70));
    ra[k] = render_run(h, 0.2, 256);
  }
  const bool restored =
      !memcmp(ra[0].l, ra[1].l, ra[0].frames * sizeof(float)) &&
      !memcmp(ra[0].r, ra[1].r, ra[0].frames * sizeof(float));
  printf("a shaped table, the shape and the positions saved and restored: "
         "%s\n",
         restored ? "bit-identical" : "the restored instance differs");
  CHECK(restored, "the restored instance plays differently");
  render_free(&ra[0]);
  render_free(&ra[1]);
  host_close(sa);
  host_close(sb);
  remove(state);
  remove(shaped);
  remove(plain);
  rmdir(dir);
}

int
main(void)
{
  nodes();
  weights();
  rimshot_and_clamp();
  per_note();
  none();
  tables_with_shapes();
  return check_done("test_plugin_place");
}
