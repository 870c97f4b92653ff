/* SPDX-License-Identifier: ISC */
/*
 * Every preset of an instrument (argument: its URI; the list is read from
 * presets/NAME.presets) loads, plays finite sound and puts a velocity-127
 * note at its root near -6 dBFS (the peak of the first two seconds of a
 * held note; for rolling, whose texture is random, its RMS within 3 dB of
 * -20 dBFS);
 * every material preset rings with a quality factor q = pi f t_e inside
 * its material's range and within 3 % of the q it was made with, measured
 * on each of its (up to) three strongest modes: each mode's frequency and
 * 1/e decay time are fit from the audio (measure_modes: damped sinusoids
 * fit in two windows, then the turn and the shrinking of each mode's
 * complex amplitude from one window to the next), after a strike
 * (impact) or after the exciter is lifted (friction), the exciter's own
 * modes, where it has them, not heard;
 * every shape preset's modes, measured the same way, lie at the ratios of
 * its model (free-free or clamped-free Euler-Bernoulli beam, circular
 * membrane, simply supported square plate, tuned minor-third bell, thin
 * ring), computed here, within 0.5 %;
 * every measured preset (its table a shipped measured-*.modes) strikes
 * each zone at its root, at the recordings' velocity, with a contact short
 * enough not to filter the table's gains a second time (they hold the
 * recorded mallet: presets/impact.presets).
 */
#define _POSIX_C_SOURCE 200809L

#include "analysis.h"
#include "check.h"
#include "host.h"
#include "modal_keymap.h"
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

/* q = pi f t_e = 1 / eta, eta the loss factor.  The first four are the
 * ranges listeners heard as each material ([material] table 2, [ch5]
 * table 5.2); the others come from the loss factors of handbook tables
 * ([beranek], [cremer] in doc/presets.md, quoted from memory): a single figure
 * is taken within a factor 2 either way, the tables' figures being orders
 * of magnitude. */
static const material materials[] = {
    {"rubber", 5.0, 44.3},
    {"wood", 14.9, 131.8},
    {"glass", 189.6, 5000.0},
    {"steel", 272.8, 5000.0},
    /* aluminium: eta ~ 1e-4 */
    {"aluminium", 5000.0, 20000.0},
    /* brass, bronze: eta ~ 1e-3 */
    {"brass", 500.0, 2000.0},
    /* vitrified ceramic (stoneware, porcelain): no table figure; eta
     * 1e-3..5e-3, between glass (6e-4..2e-3) and brick (1e-2..2e-2) */
    {"ceramic", 200.0, 1000.0},
    /* acrylic (Plexiglas): eta 0.02..0.04 */
    {"plastic", 25.0, 50.0},
    /* stone (granite, marble, slate): eta 2e-3..1e-2, the least certain
     * range here (masonry blocks 5e-3..7e-3 in [beranek]) */
    {"stone", 100.0, 500.0},
    /* dense concrete: eta 0.01..0.05 */
    {"concrete", 20.0, 100.0},
};

#define PI           3.14159265358979323846
#define Q_WITHIN     0.03  /* of the preset's q */
#define RATIO_WITHIN 0.005 /* of the model's ratio */
/* a mode below this share of the loudest one's amplitude (-60 dB, struck
 * on its nodal line) is not measured: a fit's frequency of it is noise */
#define SILENT_MODE 1e-3
#define STRONGEST   3

static const double rate = 48000.0;

static const char* plugin_uri;
static bool textured;

/* ---- the shape models: ratios f_n / f_1, ascending ---------------------- */

/* the n-th root (n >= 1) of cos x cosh x = s: s = 1 for the free-free
 * beam, near (n + 1/2) pi; s = -1 for the clamped-free one, near
 * (n - 1/2) pi */
static double
beam_root(int n, double s)
{
  double a = (n + (s > 0 ? 0.5 : -0.5)) * PI - 0.6, b = a + 1.2;
  const bool fa_negative = cos(a) - s / cosh(a) < 0;
  for (int i = 0; i < 100; ++i) {
    const double m = 0.5 * (a + b);
    if ((cos(m) - s / cosh(m) < 0) == fa_negative)
      a = m;
    else
      b = m;
  }
  return 0.5 * (a + b);
}

/* J_m(x) = 1/(2 pi) int_0^2pi cos(m t - x sin t) dt: the trapezoid rule
 * over a whole period converges geometrically */
static double
bessel_j(int m, double x)
{
  enum { N = 128 };
  double sum = 0.0;
  for (int i = 0; i < N; ++i) {
    const double t = 2.0 * PI * i / N;
    sum += cos(m * t - x * sin(t));
  }
  return sum / N;
}

static int
by_value(const void* a, const void* b)
{
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* the model's ratios into r[0..max), ascending; the count (0: no such
 * shape) */
static int
model_ratios(const char* shape, double* r, int max)
{
  int n = 0;
  if (!strcmp(shape, "free-free-bar") || !strcmp(shape, "tube") ||
      !strcmp(shape, "cantilever")) {
    /* Euler-Bernoulli beam: f_n ~ (beta_n L)^2; a thin-walled tube bends
     * as a beam, its section only setting the scale */
    const double s = strcmp(shape, "cantilever") ? 1.0 : -1.0;
    for (n = 0; n < max && n < 20; ++n)
      r[n] = pow(beam_root(n + 1, s), 2.0);
  } else if (!strcmp(shape, "membrane")) {
    /* circular membrane, fixed rim: f_mn ~ j_mn, the zeros of J_m */
    for (int m = 0; m <= 12; ++m) {
      double f0 = bessel_j(m, 0.5);
      for (double x = 0.52; x < 25.0 && n < max; x += 0.02) {
        const double f = bessel_j(m, x);
        if ((f < 0) != (f0 < 0)) {
          double a = x - 0.02, b = x;
          const bool fa_negative = bessel_j(m, a) < 0;
          for (int i = 0; i < 60; ++i) {
            const double c = 0.5 * (a + b);
            if ((bessel_j(m, c) < 0) == fa_negative)
              a = c;
            else
              b = c;
          }
          r[n++] = 0.5 * (a + b);
        }
        f0 = f;
      }
    }
  } else if (!strcmp(shape, "square-plate")) {
    /* simply supported square plate: f_mn ~ m^2 + n^2 (Leissa), each
     * value once */
    for (int a = 1; a <= 12; ++a)
      for (int b = a; b <= 12; ++b) {
        const double v = a * a + b * b;
        bool seen = false;
        for (int i = 0; i < n; ++i)
          seen = seen || r[i] == v;
        if (!seen && n < max)
          r[n++] = v;
      }
  } else if (!strcmp(shape, "bell")) {
    /* the tuned minor-third bell over its hum (Rossing and Perrin): hum,
     * prime, tierce, quint, nominal, deciem, undeciem, duodeciem, upper
     * octave at 0.5, 1, 1.2, 1.5, 2, 2.5, 8/3, 3, 4 times the prime */
    static const double bell[] = {1, 2, 2.4, 3, 4, 5, 16.0 / 3.0, 6, 8};
    for (; n < max && n < (int)(sizeof(bell) / sizeof(bell[0])); ++n)
      r[n] = bell[n];
  } else if (!strcmp(shape, "ring")) {
    /* a thin ring bending in its plane (Rayleigh, ch. IX), the rim of a
     * bowl or a glass: f_m ~ m (m^2 - 1) / sqrt(m^2 + 1), m = 2, 3, ... */
    for (int m = 2; n < max && m < 22; ++m)
      r[n++] = m * (m * m - 1.0) / sqrt(m * m + 1.0);
  }
  qsort(r, (size_t)n, sizeof(double), by_value);
  for (int i = n - 1; i >= 0; --i)
    r[i] /= r[0];
  return n;
}

/* ---- the measurement ---------------------------------------------------- */

typedef struct ringing {
  int k;
  double freq[16], decay[16], amp[16];
} ringing;

/* every mode of the preset, fit from its ringing after a strike at the
 * root, or half a second after the exciter, having rubbed it for half a
 * second, is lifted (its drag on the object settles by then); the ports
 * give the fit its first guesses.  Modes of one frequency (a square
 * plate's pairs) ring as one: each is given the pair's measure, and the
 * amplitude goes to the first. */
static ringing
measure(const char* uri, int root)
{
  const bool rubbed = strstr(plugin_uri, "friction") != NULL;
  host* h = host_open(plugin_uri, rate, 512);
  host_load_preset(h, uri);
  if (!rubbed)
    HOST_OK(host_set(h, "ext_force", 0.0f));
  /* the object's own ring: an exciter with modes of its own strikes as it
   * does, but its pickups are left out (exciter_level touches nothing
   * else, test_exciter) */
  if (host_port(h, "exciter_level") >= 0)
    HOST_OK(host_set(h, "exciter_level", 0.0f));
  ringing g = {.k = (int)host_get(h, "modes")};
  double guess_f[16], guess_te[16], te_min = INFINITY;
  char sym[32];
  for (int i = 0; i < g.k; ++i) {
    snprintf(sym, sizeof(sym), "mode%d_freq", i + 1);
    guess_f[i] = host_get(h, sym);
    snprintf(sym, sizeof(sym), "mode%d_decay", i + 1);
    guess_te[i] = 1e-3 * host_get(h, sym);
    te_min = fmin(te_min, guess_te[i]);
  }
  HOST_OK(host_note_on(h, 0, root, 100));
  if (rubbed)
    HOST_OK(host_note_off(h, (uint64_t)(0.5 * rate), root));
  /* two windows of half the shortest decay (256 to 4096 samples), the
   * second half a window after the first, from 5 ms after the strike
   * (every contact is over by then) */
  const double start = rubbed ? 1.0 : 0.005;
  double window_s = 0.5 * te_min;
  window_s = fmin(fmax(window_s, 256.0 / rate), 4096.0 / rate);
  const size_t window = (size_t)(window_s * rate);
  render r = render_run(h, start + 2.0 * window_s + 0.01, 512);
  int distinct[16], of[16], nd = 0;
  double df[16], dte[16], mf[16], mte[16], ma[16];
  for (int i = 0; i < g.k; ++i) {
    of[i] = -1;
    for (int j = 0; j < nd; ++j)
      if (fabs(df[j] / guess_f[i] - 1.0) < 1e-6)
        of[i] = j;
    if (of[i] < 0) {
      distinct[nd] = i;
      df[nd] = guess_f[i];
      dte[nd] = guess_te[i];
      of[i] = nd++;
    }
  }
  measure_modes(r.l + (size_t)(start * rate), window, window / 2, rate, nd, df,
                dte, mf, mte, ma);
  for (int i = 0; i < g.k; ++i) {
    g.freq[i] = mf[of[i]];
    g.decay[i] = mte[of[i]];
    g.amp[i] = distinct[of[i]] == i ? ma[of[i]] : 0.0;
  }
  render_free(&r);
  host_close(h);
  return g;
}

static void
check_material(const patch* p, const ringing* g)
{
  const material* m = NULL;
  for (size_t k = 0; k < sizeof(materials) / sizeof(materials[0]); ++k)
    if (!strcmp(materials[k].name, p->material))
      m = &materials[k];
  CHECK(m != NULL, "%s: unknown material %s", p->id, p->material);
  if (!m)
    return;
  printf(", %s (q %g..%g, preset %g): rendered q", p->material, m->q_min,
         m->q_max, p->q);
  bool used[16] = {false};
  double loudest = 0.0;
  for (int i = 0; i < g->k; ++i)
    loudest = fmax(loudest, g->amp[i]);
  for (int n = 0; n < STRONGEST && n < g->k; ++n) {
    int best = -1;
    for (int i = 0; i < g->k; ++i)
      if (!used[i] && (best < 0 || g->amp[i] > g->amp[best]))
        best = i;
    used[best] = true;
    if (g->amp[best] < SILENT_MODE * loudest)
      break; /* the rest are struck on their nodal lines */
    const double q = PI * g->freq[best] * g->decay[best];
    printf(" %.1f (mode %d)", q, best + 1);
    CHECK(q >= m->q_min && q <= m->q_max, "%s: mode %d's q %.1f outside %s",
          p->id, best + 1, q, p->material);
    CHECK(fabs(q / p->q - 1.0) < Q_WITHIN, "%s: mode %d's q %.1f, made with %g",
          p->id, best + 1, q, p->q);
  }
}

static void
check_shape(const patch* p, const ringing* g)
{
  double model[64];
  const int n = model_ratios(p->model, model, 64);
  CHECK(n > 0, "%s: unknown model %s", p->id, p->model);
  if (!n)
    return;
  double worst = 0.0, loudest = 0.0;
  for (int i = 0; i < g->k; ++i)
    loudest = fmax(loudest, g->amp[i]);
  int j = 0;
  printf(", %s: ratio errors", p->model);
  for (int i = 0; i < g->k; ++i) {
    /* a mode struck on its nodal line (the shape port) is too quiet to
     * have a frequency; a duplicate's amplitude is its first's */
    bool duplicate = false;
    for (int k = 0; k < i; ++k)
      duplicate = duplicate || g->freq[k] == g->freq[i];
    if (i > 0 && !duplicate && g->amp[i] < SILENT_MODE * loudest) {
      printf(" (mode %d silent)", i + 1);
      continue;
    }
    const double ratio = g->freq[i] / g->freq[0];
    /* the model's next ratio near it: a preset may leave modes out */
    while (j < n && model[j] < ratio * (1.0 - RATIO_WITHIN))
      ++j;
    const double err = j < n ? ratio / model[j] - 1.0 : INFINITY;
    printf(" %+.3f%%", 100.0 * err);
    worst = worst_of(worst, err);
    ++j;
  }
  printf(" (worst %.3f %%)", 100.0 * worst);
  CHECK(worst <= RATIO_WITHIN, "%s: a ratio %.2f %% off the %s model", p->id,
        100.0 * worst, p->model);
}

/* A measured preset's contact at measured_velocity (the recordings', by
 * their peaks: test_held_out) is at most measured_contact_share / the
 * highest partial of any zone within 20 dB of its zone's strongest by
 * energy (gain^2 t_e, the analysis's rule for what rings): a half-sine
 * force's spectrum |cos(pi f tau) / (1 - 4 f^2 tau^2)| is within 1 dB up
 * to f tau = 0.35, so the preset's mallet leaves the gains as recorded. */
static const double measured_contact_share = 0.35;
static const int measured_velocity = 100;
static const double measured_range = 0.01; /* 20 dB in energy */

static void
check_measured_contact(const patch* p)
{
  const char* root_dir = getenv("CONTACT_SOURCE_ROOT");
  char path[512];
  snprintf(path, sizeof(path), "%s/presets/tables/measured/%s",
           root_dir ? root_dir : ".", p->table);
  modal_keymap* map = malloc(sizeof(*map));
  modal_table_error error;
  const bool loads =
      map && modal_keymap_load(path, map, NULL, &error) == MODAL_TABLE_SUCCESS;
  CHECK(loads, "%s: %s", path, map ? error.message : "out of memory");
  if (!loads) {
    free(map);
    return;
  }
  double highest = 0.0;
  for (int z = 0; z < map->zones; ++z) {
    const modal_table* t = &map->zone[z];
    double top = 0.0;
    for (int k = 0; k < t->count; ++k)
      top = fmax(top, t->gain[k] * t->gain[k] * t->decay[k]);
    for (int k = 0; k < t->count; ++k)
      if (t->gain[k] * t->gain[k] * t->decay[k] >= measured_range * top)
        highest = fmax(highest, t->freq[k]);
  }
  const double limit_ms = 1e3 * measured_contact_share / highest;
  double longest = 0.0;
  for (int z = 0; z < map->zones; ++z) {
    const int note = map->is_keymap && map->zone[z].root != MODAL_TABLE_NO_ROOT
                         ? (int)lround(map->zone[z].root)
                         : p->root;
    host* h = host_open(plugin_uri, rate, 512);
    CHECK(host_load_preset(h, p->uri), "%s does not load", p->uri);
    host_run(h, 4096, 512, NULL, NULL); /* the table, through the worker */
    HOST_OK(host_note_on(h, host_now(h), note, measured_velocity));
    host_run(h, 4096, 512, NULL, NULL);
    longest = fmax(longest, host_get(h, "contact_time"));
    host_close(h);
  }
  printf(", contact at velocity %d %.3f ms (limit %.3f ms: %.2f / %.0f Hz)",
         measured_velocity, longest, limit_ms, measured_contact_share, highest);
  CHECK(longest > 0.0 && longest <= limit_ms,
        "%s: a contact of %.3f ms at velocity %d filters its table's "
        "partials up to %.0f Hz (at most %.3f ms)",
        p->id, longest, measured_velocity, highest, limit_ms);
  free(map);
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
  const char* only = argc > 2 ? argv[2] : NULL; /* one preset, by hand */
  patch presets[PATCHES_MAX];
  const int count = patches_read(plugin_uri, false, presets, PATCHES_MAX);
  for (int i = 0; i < count; ++i) {
    const patch* p = &presets[i];
    if (only && strcmp(only, p->id))
      continue;
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
    if (!strncmp(p->table, "measured-", 9))
      check_measured_contact(p);
    if (p->material[0] || p->model[0]) {
      const ringing g = measure(p->uri, p->root);
      if (p->material[0])
        check_material(p, &g);
      if (p->model[0])
        check_shape(p, &g);
    }
    printf("\n");
  }
  CHECK(only || count >= 6, "only %d presets", count);
  return check_done("test_plugin_presets");
}
