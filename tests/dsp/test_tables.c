/* SPDX-License-Identifier: ISC */
/*
 * test_tables DIR: the shipped modal tables (presets/tables/generate.c)
 * load, have their stated number of modes, root and material, and their
 * frequencies match the physical models, written here independently of
 * the generator, within 0.5 %:
 *   square plate: (m^2 + n^2) / 2, the distinct values in order;
 *   church bell: 0.5 1 1.2 1.5 2 3 4, then 5, 6, ... 45 (times the prime);
 *   wine glass: pairs at m (m^2 - 1) / sqrt(m^2 + 1), m = 2..17, split;
 *   wooden beam: (beta_n L / beta_1 L)^2 with tabulated roots of
 *     cos x cosh x = 1 and (2n + 1) pi / 2 beyond them;
 *   string: n = 1..64, every gain 1 (the shape port weighs them), no
 *     right gains.
 * Decays keep the material's q = pi f t_e ([material] table 2); gains are
 * the mass-normalised shapes squared at the stated points (plate, glass,
 * the beam's first five modes), right gains have the signs of the shapes
 * at the mirror pickup.
 */
#include "check.h"
#include "modal_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

/* frequency ratios against the model: what the issue asks */
#define RATIO_TOL 0.005
/* q = pi f t_e per mode: printed to 15+ digits, so only rounding */
#define Q_TOL 1e-12

static const char* dir;

static double
note_hz(const double note)
{
  return 440.0 * pow(2.0, (note - 69.0) / 12.0);
}

static bool
load_any(const char* const file, modal_table* const t, const int count,
         const double root)
{
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, file);
  modal_table_error e;
  modal_table_init(t);
  if (modal_table_load(path, t, &e)) {
    CHECK(false, "%s", e.message);
    return false;
  }
  CHECK(t->count == count, "%s: %d modes, want %d", file, t->count, count);
  CHECK(t->root == root, "%s: root %g, want %g", file, t->root, root);
  CHECK(t->name[0], "%s: no name", file);
  return t->count == count;
}

static bool
load(const char* const file, modal_table* const t, const int count,
     const double root)
{
  const bool ok = load_any(file, t, count, root);
  CHECK(t->has_right_gain, "%s: no right gains", file);
  return ok;
}

/* each mode's frequency against ratio[i] times the reference frequency,
 * its q, and the worst error printed */
static void
check_modes(const char* const file, const modal_table* const t,
            const double* const ratio, const double reference, const double q)
{
  double worst = 0.0, worst_q = 0.0;
  int at = 0;
  for (int i = 0; i < t->count; ++i) {
    const double err = t->freq[i] / (ratio[i] * reference) - 1.0;
    if (!(fabs(err) <= fabs(worst))) {
      worst = err;
      at = i;
    }
    const double qe = PI * t->freq[i] * t->decay[i] / q - 1.0;
    if (!(fabs(qe) <= fabs(worst_q)))
      worst_q = qe;
  }
  char what[128];
  snprintf(what, sizeof(what), "%s frequencies (worst: mode %d)", file, at + 1);
  check_rel(what, 1.0 + worst, 1.0, RATIO_TOL);
  snprintf(what, sizeof(what), "%s q = pi f t_e", file);
  check_rel(what, q * (1.0 + worst_q), q, Q_TOL);
}

static void
square_plate(void)
{
  modal_table t;
  if (!load("square-plate.modes", &t, 64, 40.0))
    return;
  /* distinct sums of two positive squares, in order */
  double ratio[64];
  int parity[64];
  int k = 0;
  for (int s = 2; k < 64; ++s) {
    bool found = false;
    for (int m = 1; m * m < s && !found; ++m) {
      const int r = (int)lround(sqrt((double)(s - m * m)));
      found = r >= 1 && r * r == s - m * m;
    }
    if (found) {
      parity[k] = s % 2;
      ratio[k++] = s / 2.0;
    }
  }
  /* gains: 4 sin^2(m pi x) sin^2(n pi y) at (0.31, 0.43), summed over
   * the (m, n) of one frequency */
  double worst_gain = 0.0;
  for (int i = 0; i < t.count && i < 64; ++i) {
    const int s = (int)lround(2.0 * ratio[i]);
    double g = 0.0;
    for (int m = 1; m * m < s; ++m) {
      const int n = (int)lround(sqrt((double)(s - m * m)));
      if (n >= 1 && n * n == s - m * m)
        g += 4.0 * pow(sin(m * PI * 0.31) * sin(n * PI * 0.43), 2.0);
    }
    worst_gain = fmax(worst_gain, fabs(t.gain[i] - g));
  }
  CHECK(worst_gain < 1e-12, "square-plate: gains off the model by %g",
        worst_gain);
  check_modes("square-plate", &t, ratio, note_hz(40.0), 2000.0);
  /* mirror pickup: (-1)^(m+n) = (-1)^s */
  int wrong = 0;
  for (int i = 0; i < t.count; ++i)
    wrong += t.right_gain[i] != (parity[i] ? -t.gain[i] : t.gain[i]) ||
             !(t.gain[i] > 0.0);
  CHECK(!wrong, "square-plate: %d right gains not (-1)^(m+n) gain > 0", wrong);
}

static void
church_bell(void)
{
  modal_table t;
  if (!load("church-bell.modes", &t, 48, 48.0))
    return;
  /* Rossing and Perrin's ideal tuned bell, then the rim partials on
   * (m - 2) f_prime */
  static const double tuned[] = {0.5, 1.0, 1.2, 1.5, 2.0, 3.0, 4.0};
  static const int meridians[] = {2, 2, 3, 3, 4, 5, 6};
  double ratio[48];
  int m[48];
  for (int i = 0; i < 48; ++i) {
    ratio[i] = i < 7 ? tuned[i] : i - 2.0;
    m[i] = i < 7 ? meridians[i] : i;
  }
  check_modes("church-bell", &t, ratio, note_hz(48.0), 4000.0);
  int wrong = 0;
  for (int i = 0; i < t.count; ++i)
    wrong += t.right_gain[i] != (m[i] % 2 ? -t.gain[i] : t.gain[i]);
  CHECK(!wrong, "church-bell: %d right gains not (-1)^m gain", wrong);
  /* the rim partials (hum, tierce, nominal, ...) are driven hardest */
  CHECK(t.gain[0] == 1.0 && t.gain[2] == 1.0 && t.gain[4] == 1.0 &&
            t.gain[1] < 1.0 && t.gain[3] < 1.0,
        "church-bell: gains %g %g %g %g %g", t.gain[0], t.gain[1], t.gain[2],
        t.gain[3], t.gain[4]);
}

static void
wine_glass(void)
{
  modal_table t;
  if (!load("wine-glass.modes", &t, 32, 69.0))
    return;
  double ratio[32];
  const double r2 = 2.0 * 3.0 / sqrt(5.0);
  for (int i = 0; i < 32; ++i) {
    const int m = 2 + i / 2;
    ratio[i] = m * (m * m - 1.0) / sqrt(m * m + 1.0) / r2;
  }
  check_modes("wine-glass", &t, ratio, note_hz(69.0), 1200.0);
  /* each pair split (it beats), but by far less than a semitone */
  double lo = INFINITY, hi = 0.0;
  int wrong = 0;
  for (int i = 0; i < 32; i += 2) {
    const double split = t.freq[i + 1] / t.freq[i] - 1.0;
    lo = fmin(lo, split);
    hi = fmax(hi, split);
    const int m = 2 + i / 2;
    for (int j = i; j < i + 2; ++j)
      wrong += t.right_gain[j] != (m % 2 ? -t.gain[j] : t.gain[j]);
  }
  CHECK(lo > 1e-4 && hi < 0.01, "wine-glass: pair splits %g..%g", lo, hi);
  /* gains: the ring's radial shape squared, 2 m^2 / (m^2 + 1), times
   * cos^2 and sin^2 of m 7 degrees for the pair */
  double worst_gain = 0.0;
  for (int i = 0; i < 32; ++i) {
    const int m = 2 + i / 2;
    const double a = m * 7.0 * PI / 180.0;
    const double g =
        2.0 * m * m / (m * m + 1.0) * pow(i % 2 ? sin(a) : cos(a), 2.0);
    worst_gain = fmax(worst_gain, fabs(t.gain[i] - g));
  }
  CHECK(worst_gain < 1e-12, "wine-glass: gains off the model by %g",
        worst_gain);
  CHECK(!wrong, "wine-glass: %d right gains not (-1)^m gain", wrong);
}

static void
wooden_beam(void)
{
  modal_table t;
  if (!load("wooden-beam.modes", &t, 24, 36.0))
    return;
  /* roots of cos x cosh x = 1 as tabulated; beyond, (2n + 1) pi / 2 is
   * within e^-(2n+1)pi/2 < 1e-7 */
  static const double tabulated[] = {4.730040744862704, 7.853204624095838,
                                     10.995607838001671, 14.137165491257464,
                                     17.278759657399480};
  double ratio[24];
  for (int n = 1; n <= 24; ++n) {
    const double b = n <= 5 ? tabulated[n - 1] : (2 * n + 1) * PI / 2.0;
    ratio[n - 1] = (b / tabulated[0]) * (b / tabulated[0]);
  }
  check_modes("wooden-beam", &t, ratio, note_hz(36.0), 60.0);
  /* gains of the first five modes at 0.3 L: the shape written plainly
   * (cancellation costs b / ln 10 < 8 digits here), mean square by the
   * midpoint rule */
  double worst_gain = 0.0;
  for (int n = 1; n <= 5; ++n) {
    const double b = tabulated[n - 1];
    const double sigma = (cosh(b) - cos(b)) / (sinh(b) - sin(b));
    double sum = 0.0;
    enum { STEPS = 20000 };
    for (int k = 0; k < STEPS; ++k) {
      const double y = b * (k + 0.5) / STEPS;
      const double phi = cosh(y) + cos(y) - sigma * (sinh(y) + sin(y));
      sum += phi * phi;
    }
    const double y = b * 0.3;
    const double phi = cosh(y) + cos(y) - sigma * (sinh(y) + sin(y));
    const double g = phi * phi / (sum / STEPS);
    worst_gain = fmax(worst_gain, fabs(t.gain[n - 1] / g - 1.0));
  }
  check_rel("wooden-beam gains of modes 1-5 at 0.3 L", 1.0 + worst_gain, 1.0,
            1e-6);
  /* modes alternate even and odd about the centre */
  int wrong = 0;
  for (int i = 0; i < t.count; ++i)
    wrong += t.right_gain[i] != (i % 2 ? -t.gain[i] : t.gain[i]);
  CHECK(!wrong, "wooden-beam: %d right gains not (-1)^(n-1) gain", wrong);
}

static void
string(void)
{
  modal_table t;
  if (!load_any("string.modes", &t, 64, 43.0))
    return;
  double ratio[64];
  for (int n = 1; n <= 64; ++n)
    ratio[n - 1] = n;
  check_modes("string", &t, ratio, note_hz(43.0), 400.0);
  int wrong = 0;
  for (int i = 0; i < t.count; ++i)
    wrong += t.gain[i] != 1.0;
  CHECK(!wrong, "string: %d gains not 1", wrong);
  CHECK(!t.has_right_gain, "string: right gains (the shape gives them)");
}

int
main(const int argc, char** const argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_tables DIR\n");
    return 2;
  }
  dir = argv[1];
  square_plate();
  church_bell();
  wine_glass();
  wooden_beam();
  string();
  return check_done("tables");
}
