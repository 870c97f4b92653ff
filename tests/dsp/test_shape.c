/* SPDX-License-Identifier: ISC */
/*
 * Mode shapes (dsp/shape.c), [ch8] 8.2.2:
 * 1. normalisation: max |phi_n| over the object is 1 for the first 20
 *    modes of every analytic family;
 * 2. orthogonality against the object's mass: string, both bars (first 8
 *    modes), plate and membrane (r dr and the angle; first modes);
 * 3. known values: the bars' nodes and frequency ratios, the membrane's
 *    ratios ([ch8] fig 8.1 too), the plate's order, the string's nodes;
 * 4. the beams' closed forms stay finite, bounded and on their boundary
 *    conditions up to mode 127;
 * 5. every family's set against shape_exact() for all 128 modes at random
 *    points; the cost of an evaluation is printed, not asserted;
 * 6. sampled sets reproduce their samples, interpolate a free-free bar
 *    and a plate, are continuous (and without kinks) across cells;
 * 7. bad arguments give NULL, coordinates are clamped, count is honoured.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "modal.h"
#include "shape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* max |phi| = 1: the grid's best point refined by golden sections to
 * 1e-12 in position, leaving rounding; 1e-6 is the margin asked for */
static const double norm_tol = 1e-6;
/* off-diagonal mass integrals relative to the diagonal: composite Simpson
 * on 4096 intervals errs by ~(h k)^4 / 180, 1e-11 at the 8th bar mode
 * (k = 27); 1e-6 leaves room */
static const double orth_tol = 1e-6;
/* nodes quoted to four decimals */
static const double node_tol = 1e-4;
/* ratios from roots quoted to eight significant digits: 2 x 5e-8 / 1.9
 * relative at worst, with margin */
static const double root_ratio_tol = 2e-7;
/* a string's node k / (n + 1) against sin's rounding at (n + 1) x <= 128:
 * 128 pi eps ~ 1e-13 */
static const double string_node_tol = 1e-12;
/* |phi| <= 1 on the beams' 128th mode, beyond rounding of terms < 2 */
static const double beam_bound_tol = 1e-9;
/* values rounding alone moves: cos(2 pi m y) at quarter turns, sin at a
 * peak, a bilinear patch at its centre */
static const double exact_tol = 1e-15;
/* a membrane's nodal circle or rim, a beam's clamp or free end: terms
 * below 2 summed, a zero of J_m placed to ~1e-15 times a slope of a few */
static const double zero_tol = 1e-12;
/* a set against shape_exact(): what shape.h promises */
static const double set_tol = 1e-4;
/* a sampled set at its own samples: the interpolant's value there is the
 * sample, up to a slope times an ulp of the cell's position */
static const double sample_tol = 1e-12;
/* between a free-free bar's (a plate's) samples at 16 cells: the natural
 * spline errs by ~5/384 (h k)^4, 0.8 % for mode 3 (k = 14.1) */
static const double between_tol = 0.02;
/* across a cell edge, from both sides at 1e-9 from it: slopes (~40 for
 * the plate's modes sampled) times 2e-9, with margin */
static const double continuity_tol = 1e-6;
/* one-sided difference slopes at 1e-6 from an edge: each is off by
 * ~|f''| 1e-6 / 2 (|f''| < 400); a C0 patch's kink would be ~h^2 |f'''|,
 * over 1 for these modes */
static const double kink_tol = 1e-2;

/* ---- helpers ----------------------------------------------------------- */

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static double
uniform(void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static double
now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const shape_family analytic[] = {SHAPE_STRING, SHAPE_BAR_FREE,
                                        SHAPE_BAR_CLAMPED, SHAPE_MEMBRANE,
                                        SHAPE_PLATE};
enum { ANALYTIC = sizeof analytic / sizeof analytic[0] };

/* |phi_n| along x (y fixed) or along y (x fixed) */
typedef struct line {
  shape_family f;
  int n;
  double x, y;
  bool along_y;
} line;

static double
line_abs(const line* l, double t)
{
  return fabs(l->along_y ? shape_exact(l->f, l->n, l->x, t)
                         : shape_exact(l->f, l->n, t, l->y));
}

/* the largest |phi| on [lo, hi] around a peak: golden sections */
static double
golden_max(const line* l, double lo, double hi, double* where)
{
  const double g = 0.5 * (sqrt(5.0) - 1.0);
  lo = fmax(lo, 0.0);
  hi = fmin(hi, 1.0);
  double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
  double fa = line_abs(l, a), fb = line_abs(l, b);
  for (int it = 0; it < 80 && hi - lo > 1e-13; ++it) {
    if (fa > fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - g * (hi - lo);
      fa = line_abs(l, a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + g * (hi - lo);
      fb = line_abs(l, b);
    }
  }
  /* the ends of the bracket count too (the bars' maxima are at x = 0, 1) */
  double best = fmax(fa, fb), at = fa > fb ? a : b;
  const double ends[2] = {lo, hi};
  for (int e = 0; e < 2; ++e)
    if (line_abs(l, ends[e]) > best) {
      best = line_abs(l, ends[e]);
      at = ends[e];
    }
  *where = at;
  return best;
}

/* composite Simpson weight of node i of 0..n (n even), times h / 3 */
static double
simpson(int i, int n)
{
  return i == 0 || i == n ? 1.0 : (i % 2 ? 4.0 : 2.0);
}

/* ---- 1. normalisation --------------------------------------------------- */

enum { NORM_MODES = 20 };

static void
check_norm_1d(shape_family f)
{
  enum { GRID = 4000 };
  double worst = 0.0;
  for (int n = 0; n < NORM_MODES; ++n) {
    line l = {f, n, 0.0, 0.0, false};
    double best = -1.0, at = 0.0;
    for (int i = 0; i <= GRID; ++i) {
      const double v = line_abs(&l, (double)i / GRID);
      if (v > best) {
        best = v;
        at = (double)i / GRID;
      }
    }
    const double peak = golden_max(&l, at - 1.0 / GRID, at + 1.0 / GRID, &at);
    worst = fmax(worst, fabs(peak - 1.0));
    CHECK(fabs(peak - 1.0) <= norm_tol, "%s mode %d: max |phi| %.12f",
          shape_family_name(f), n, peak);
  }
  printf("%s %s: max |phi| of modes 0..%d within %.1e of 1 (tol %.0e)\n",
         worst <= norm_tol ? "  ok " : "FAIL ", shape_family_name(f),
         NORM_MODES - 1, worst, norm_tol);
}

/* 2-D: a grid over the object, its best point refined along x, then y,
 * then x again (both families' peaks are separable).  The best line of
 * the grid lies within 1 / (2 NY) of a peak, so a bracket of 1 / NY about
 * it holds the peak and no node (a node is 1 / (2b) >= 1 / 12 from a
 * plate's peak, 1 / (4m) from a membrane's, whose peaks are on y = 0) */
static void
check_norm_2d(shape_family f)
{
  enum { NX = 500, NY = 24 };
  double phi[NORM_MODES], best[NORM_MODES], bx[NORM_MODES], by[NORM_MODES];
  for (int n = 0; n < NORM_MODES; ++n)
    best[n] = -1.0;
  /* y on NY + 1 lines (0 and 1/2 among them, where cos(2 pi m y) = +-1) */
  for (int j = 0; j <= NY; ++j)
    for (int i = 0; i <= NX; ++i) {
      const double x = (double)i / NX, y = (double)j / NY;
      shape_exact_modes(f, NORM_MODES, x, y, phi);
      for (int n = 0; n < NORM_MODES; ++n)
        if (fabs(phi[n]) > best[n]) {
          best[n] = fabs(phi[n]);
          bx[n] = x;
          by[n] = y;
        }
    }
  double worst = 0.0;
  for (int n = 0; n < NORM_MODES; ++n) {
    double x = bx[n], y = by[n], peak = 0.0;
    for (int pass = 0; pass < 3; ++pass) {
      const bool along_y = pass == 1;
      line l = {f, n, x, y, along_y};
      const double span = along_y ? 1.0 / NY : 1.0 / NX;
      const double at = along_y ? y : x;
      double where;
      peak = golden_max(&l, at - span, at + span, &where);
      if (along_y)
        y = where;
      else
        x = where;
    }
    worst = fmax(worst, fabs(peak - 1.0));
    CHECK(fabs(peak - 1.0) <= norm_tol, "%s mode %d: max |phi| %.12f at %g %g",
          shape_family_name(f), n, peak, x, y);
  }
  printf("%s %s: max |phi| of modes 0..%d within %.1e of 1 (tol %.0e)\n",
         worst <= norm_tol ? "  ok " : "FAIL ", shape_family_name(f),
         NORM_MODES - 1, worst, norm_tol);
}

static void
test_normalisation(void)
{
  printf("normalisation\n");
  check_norm_1d(SHAPE_STRING);
  check_norm_1d(SHAPE_BAR_FREE);
  check_norm_1d(SHAPE_BAR_CLAMPED);
  check_norm_2d(SHAPE_MEMBRANE);
  check_norm_2d(SHAPE_PLATE);
}

/* ---- 2. orthogonality --------------------------------------------------- */

static void
report_orth(const char* what, int modes, const double* gram)
{
  double worst = 0.0;
  for (int a = 0; a < modes; ++a)
    for (int b = 0; b < modes; ++b)
      if (a != b) {
        const double r = fabs(gram[a * modes + b]) /
                         sqrt(gram[a * modes + a] * gram[b * modes + b]);
        worst = fmax(worst, r);
        CHECK(r <= orth_tol, "%s: modes %d, %d overlap %.3e", what, a, b, r);
      }
  printf("%s %s: worst overlap of modes 0..%d %.2e (tol %.1e)\n",
         worst <= orth_tol ? "  ok " : "FAIL ", what, modes - 1, worst,
         orth_tol);
}

static void
check_orth_1d(shape_family f)
{
  enum { MODES = 8, N = 4096 };
  static double v[MODES][N + 1];
  for (int i = 0; i <= N; ++i)
    for (int n = 0; n < MODES; ++n)
      v[n][i] = shape_exact(f, n, (double)i / N, 0.0);
  double gram[MODES * MODES];
  for (int a = 0; a < MODES; ++a)
    for (int b = 0; b < MODES; ++b) {
      double sum = 0.0;
      for (int i = 0; i <= N; ++i)
        sum += simpson(i, N) * v[a][i] * v[b][i];
      gram[a * MODES + b] = sum / (3.0 * N);
    }
  report_orth(shape_family_name(f), MODES, gram);
}

/* the plate over the square; the membrane over the disc, r dr dtheta with
 * theta = 2 pi y: Simpson along r (x), the periodic trapezoid rule along
 * y (exact for cos(2 pi j y), |j| below its points) */
static void
check_orth_2d(shape_family f, int modes, int nx, int ny)
{
  double gram[16 * 16] = {0.0}, phi[16];
  const bool membrane = f == SHAPE_MEMBRANE;
  for (int j = 0; j < (membrane ? ny : ny + 1); ++j)
    for (int i = 0; i <= nx; ++i) {
      const double x = (double)i / nx, y = (double)j / ny;
      const double w = simpson(i, nx) / (3.0 * nx) *
                       (membrane ? x / ny : simpson(j, ny) / (3.0 * ny));
      shape_exact_modes(f, modes, x, y, phi);
      for (int a = 0; a < modes; ++a)
        for (int b = 0; b < modes; ++b)
          gram[a * modes + b] += w * phi[a] * phi[b];
    }
  report_orth(shape_family_name(f), modes, gram);
}

static void
test_orthogonality(void)
{
  printf("orthogonality against the mass\n");
  check_orth_1d(SHAPE_STRING);
  check_orth_1d(SHAPE_BAR_FREE);
  check_orth_1d(SHAPE_BAR_CLAMPED);
  /* the plate's modes 0..5 reach a, b = 3: Simpson on 384 cells errs by
   * 3e-8; the membrane's 0..9 reach j = 10.2 and m = 4 */
  check_orth_2d(SHAPE_PLATE, 6, 384, 384);
  check_orth_2d(SHAPE_MEMBRANE, 10, 512, 32);
}

/* ---- 3. known values ---------------------------------------------------- */

/* the nodes of phi_n along x in (0, 1): sign changes on a grid, bisected */
static int
nodes_of(shape_family f, int n, double* out, int max)
{
  enum { GRID = 20000 };
  int found = 0;
  /* the string's and the clamp's ends are zeros, not nodes: start where
   * the cantilever's x^2 has risen far above rounding */
  const double skip = 1e-4;
  double prev = shape_exact(f, n, skip, 0.0), xp = skip;
  for (int i = 1; i <= GRID; ++i) {
    const double x = i == GRID ? 1.0 - skip : (double)i / GRID;
    const double v = shape_exact(f, n, x, 0.0);
    if ((v < 0.0) != (prev < 0.0) && found < max) {
      double lo = xp, hi = x;
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi);
        if ((shape_exact(f, n, mid, 0.0) < 0.0) == (prev < 0.0))
          lo = mid;
        else
          hi = mid;
      }
      out[found++] = 0.5 * (lo + hi);
    }
    prev = v;
    xp = x;
  }
  return found;
}

static void
check_nodes(shape_family f, int n, const double* want, int count)
{
  double got[8];
  const int found = nodes_of(f, n, got, 8);
  CHECK(found == count, "%s mode %d: %d nodes, want %d", shape_family_name(f),
        n, found, count);
  for (int i = 0; i < count && i < found; ++i) {
    const bool ok = fabs(got[i] - want[i]) <= node_tol;
    printf("%s %s mode %d node %d at %.6f want %.4f (tol %.0e)\n",
           ok ? "  ok " : "FAIL ", shape_family_name(f), n, i, got[i], want[i],
           node_tol);
    if (!ok)
      ++check_failures;
  }
}

/* a ratio that the literature quotes to `decimals` places rounds to it */
static void
check_quoted(const char* what, double got, double quoted, int decimals)
{
  const double half = 0.5 * pow(10.0, -decimals);
  const bool ok = fabs(got - quoted) <= half;
  printf("%s %-44s got %.7f rounds to %.*f\n", ok ? "  ok " : "FAIL ", what,
         got, decimals, quoted);
  if (!ok)
    ++check_failures;
}

static void
test_known_values(void)
{
  printf("known values\n");
  /* free-free bar: nodes of the first two modes */
  check_nodes(SHAPE_BAR_FREE, 0, (const double[]){0.2242, 0.7758}, 2);
  check_nodes(SHAPE_BAR_FREE, 1, (const double[]){0.1321, 0.5, 0.8679}, 3);
  /* the cantilever has no node but the clamp in mode 0, one in mode 1
   * (at 0.7834 of the length) */
  check_nodes(SHAPE_BAR_CLAMPED, 0, NULL, 0);
  check_nodes(SHAPE_BAR_CLAMPED, 1, (const double[]){0.7834}, 1);

  /* beta L: cos b cosh b = -1 (1.8751041, 4.6940911, 7.8547574) and
   * = 1 (4.7300408, 7.8532046, 10.9956078) */
  const double cb[3] = {1.8751041, 4.6940911, 7.8547574};
  const double fb[3] = {4.7300408, 7.8532046, 10.9956078};
  for (int n = 1; n < 3; ++n) {
    char what[64];
    snprintf(what, sizeof what, "clamped-free f_%d / f_0 (beta roots)", n);
    check_rel(what, shape_ratio(SHAPE_BAR_CLAMPED, n),
              (cb[n] / cb[0]) * (cb[n] / cb[0]), root_ratio_tol);
    snprintf(what, sizeof what, "free-free f_%d / f_0 (beta roots)", n);
    check_rel(what, shape_ratio(SHAPE_BAR_FREE, n),
              (fb[n] / fb[0]) * (fb[n] / fb[0]), root_ratio_tol);
  }
  check_quoted("clamped-free f_1 / f_0", shape_ratio(SHAPE_BAR_CLAMPED, 1),
               6.2669, 4);
  check_quoted("clamped-free f_2 / f_0", shape_ratio(SHAPE_BAR_CLAMPED, 2),
               17.547, 3);
  check_quoted("free-free f_1 / f_0", shape_ratio(SHAPE_BAR_FREE, 1), 2.7565,
               4);
  check_quoted("free-free f_2 / f_0", shape_ratio(SHAPE_BAR_FREE, 2), 5.4039,
               4);
  check_rel("free-free f_0 / f_0", shape_ratio(SHAPE_BAR_FREE, 0), 1.0, 0.0);

  /* membrane: j_mk in order (0,1) (1,1) (2,1) (0,2) (3,1) (1,2); zeros to
   * eight digits 2.4048256, 3.8317060, 5.1356223, 5.5200781, 6.3801619,
   * 7.0155867 */
  const double jz[6] = {2.4048256, 3.8317060, 5.1356223,
                        5.5200781, 6.3801619, 7.0155867};
  for (int n = 1; n < 6; ++n) {
    char what[64];
    snprintf(what, sizeof what, "membrane f_%d / f_0 (Bessel zeros)", n);
    check_rel(what, shape_ratio(SHAPE_MEMBRANE, n), jz[n] / jz[0],
              root_ratio_tol);
  }
  check_quoted("membrane j_11 / j_01", shape_ratio(SHAPE_MEMBRANE, 1), 1.5933,
               4);
  check_quoted("membrane j_21 / j_01", shape_ratio(SHAPE_MEMBRANE, 2), 2.1355,
               4);
  check_quoted("membrane j_02 / j_01", shape_ratio(SHAPE_MEMBRANE, 3), 2.2954,
               4);
  /* [ch8] fig 8.1: modes (1,1) and (1,2) at 1.593 and 2.917 */
  check_quoted("membrane (1,1) [ch8] fig 8.1", shape_ratio(SHAPE_MEMBRANE, 1),
               1.593, 3);
  check_quoted("membrane (1,2) [ch8] fig 8.1", shape_ratio(SHAPE_MEMBRANE, 5),
               2.917, 3);
  /* which (m, k): mode 1 turns with cos(2 pi y), mode 3 does not and has
   * its nodal circle at j_01 / j_02 */
  const double r = 0.3;
  CHECK(fabs(shape_exact(SHAPE_MEMBRANE, 1, r, 0.5) +
             shape_exact(SHAPE_MEMBRANE, 1, r, 0.0)) < exact_tol &&
            fabs(shape_exact(SHAPE_MEMBRANE, 1, r, 0.25)) < exact_tol &&
            shape_exact(SHAPE_MEMBRANE, 1, r, 0.0) > 0.5,
        "membrane mode 1 is not (1,1)");
  CHECK(fabs(shape_exact(SHAPE_MEMBRANE, 3, r, 0.3) -
             shape_exact(SHAPE_MEMBRANE, 3, r, 0.0)) < exact_tol &&
            fabs(shape_exact(SHAPE_MEMBRANE, 3,
                             1.0 / shape_ratio(SHAPE_MEMBRANE, 3), 0.0)) <
                zero_tol,
        "membrane mode 3 is not (0,2)");
  CHECK(fabs(shape_exact(SHAPE_MEMBRANE, 0, 0.0, 0.7) - 1.0) < exact_tol,
        "membrane mode 0 is not 1 at the centre");
  for (int n = 0; n < SHAPE_MAX_MODES; ++n)
    CHECK(fabs(shape_exact(SHAPE_MEMBRANE, n, 1.0, 0.1)) < zero_tol,
          "membrane mode %d moves at the rim", n);
  for (int n = 1; n < SHAPE_MAX_MODES; ++n)
    CHECK(shape_ratio(SHAPE_MEMBRANE, n) > shape_ratio(SHAPE_MEMBRANE, n - 1),
          "membrane ratios out of order at %d", n);

  /* plate: (1,1) (1,2) (2,1) (2,2) (1,3) (3,1), each 1 at its peak */
  const int ab[6][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 3}, {3, 1}};
  for (int n = 0; n < 6; ++n) {
    const int a = ab[n][0], b = ab[n][1];
    const double ratio = shape_ratio(SHAPE_PLATE, n);
    const double peak =
        shape_exact(SHAPE_PLATE, n, 0.5 / a, 0.5 / b); /* sin sin = 1 */
    const bool ok =
        ratio == 0.5 * (a * a + b * b) && fabs(peak - 1.0) < exact_tol;
    printf("%s plate mode %d is (%d,%d): ratio %g, phi at its peak %.17g\n",
           ok ? "  ok " : "FAIL ", n, a, b, ratio, peak);
    if (!ok)
      ++check_failures;
  }
  for (int n = 1; n < SHAPE_MAX_MODES; ++n)
    CHECK(shape_ratio(SHAPE_PLATE, n) >= shape_ratio(SHAPE_PLATE, n - 1),
          "plate ratios out of order at %d", n);

  /* string: nodes at k / (n + 1), ratio n + 1 */
  double worst = 0.0;
  for (int n = 0; n < SHAPE_MAX_MODES; ++n) {
    for (int k = 0; k <= n + 1; ++k)
      worst =
          fmax(worst, fabs(shape_exact(SHAPE_STRING, n, k / (n + 1.0), 0.0)));
    CHECK(shape_ratio(SHAPE_STRING, n) == n + 1.0, "string ratio %d", n);
  }
  CHECK(worst <= string_node_tol, "string node value %.3e", worst);
  printf("%s string nodes k/(n+1), n < 128: |phi| <= %.2e (tol %.0e)\n",
         worst <= string_node_tol ? "  ok " : "FAIL ", worst, string_node_tol);

  /* none and table; names */
  CHECK(shape_exact(SHAPE_NONE, 5, 0.3, 0.2) == 1.0, "none is not 1");
  CHECK(shape_exact(SHAPE_TABLE, 5, 0.3, 0.2) == 0.0, "table is not 0");
  CHECK(shape_ratio(SHAPE_NONE, 3) == 0.0 && shape_ratio(SHAPE_TABLE, 3) == 0.0,
        "ratios of none and table");
  CHECK(!strcmp(shape_family_name(SHAPE_BAR_FREE), "free-free bar") &&
            !strcmp(shape_family_name(SHAPE_NONE), "none") &&
            !strcmp(shape_family_name(SHAPE_TABLE), "table"),
        "family names");
  CHECK(shape_family_is_2d(SHAPE_MEMBRANE) && shape_family_is_2d(SHAPE_PLATE) &&
            !shape_family_is_2d(SHAPE_STRING) &&
            !shape_family_is_2d(SHAPE_BAR_FREE) &&
            !shape_family_is_2d(SHAPE_BAR_CLAMPED),
        "families' dimensions");
}

/* ---- 4. the beams' closed forms up to mode 127 -------------------------- */

static void
test_beam_stability(void)
{
  enum { N = 100000 };
  printf("beams up to mode 127\n");
  for (int c = 0; c < 2; ++c) {
    const shape_family f = c ? SHAPE_BAR_CLAMPED : SHAPE_BAR_FREE;
    double top = 0.0;
    bool finite = true;
    for (int i = 0; i <= N; ++i) {
      const double v = shape_exact(f, 127, (double)i / N, 0.0);
      finite = finite && isfinite(v);
      top = fmax(top, fabs(v));
    }
    CHECK(finite, "%s mode 127 not finite", shape_family_name(f));
    CHECK(top <= 1.0 + beam_bound_tol, "%s mode 127: max |phi| %.15f",
          shape_family_name(f), top);
    printf("%s %s mode 127: finite, max |phi| on %d points %.15f\n",
           finite && top <= 1.0 + beam_bound_tol ? "  ok " : "FAIL ",
           shape_family_name(f), N + 1, top);
    /* the boundary: free ends at +-1 (signs alternate), a clamp at 0 and
     * the cantilever's tip at 1, for every mode */
    double worst = 0.0;
    for (int n = 0; n < SHAPE_MAX_MODES; ++n) {
      const double a = shape_exact(f, n, 0.0, 0.0);
      const double b = shape_exact(f, n, 1.0, 0.0);
      if (c)
        worst = fmax(worst, fmax(fabs(a), fabs(b - 1.0)));
      else
        worst = fmax(worst, fmax(fabs(a - 1.0), fabs(b - (n % 2 ? -1 : 1))));
    }
    CHECK(worst <= zero_tol, "%s ends off by %.3e", shape_family_name(f),
          worst);
    printf("%s %s modes 0..127 at the ends: off by %.2e\n",
           worst <= zero_tol ? "  ok " : "FAIL ", shape_family_name(f), worst);
  }
}

/* ---- 5. sets against the exact shapes ----------------------------------- */

enum { POINTS = 2000, TIMED = 2048, TIMED_ROUNDS = 10 };

static void
test_family_sets(void)
{
  printf("family sets against shape_exact (all 128 modes)\n");
  static double xs[TIMED], ys[TIMED];
  for (int i = 0; i < TIMED; ++i) {
    xs[i] = uniform();
    ys[i] = uniform();
  }
  for (int fi = 0; fi < ANALYTIC; ++fi) {
    const shape_family f = analytic[fi];
    const double t0 = now();
    shape_set* s = shape_set_new_family(f, SHAPE_MAX_MODES);
    const double built = now() - t0;
    CHECK(s, "%s: no set", shape_family_name(f));
    if (!s)
      continue;
    CHECK(shape_set_modes(s) == SHAPE_MAX_MODES, "%s: modes",
          shape_family_name(f));
    CHECK(shape_set_is_2d(s) == shape_family_is_2d(f), "%s: 2-D",
          shape_family_name(f));
    double phi[SHAPE_MAX_MODES], want[SHAPE_MAX_MODES], worst = 0.0;
    int worst_mode = 0;
    for (int p = 0; p < POINTS; ++p) {
      /* the corners, then random points */
      const double x = p < 4 ? (double)(p & 1) : uniform();
      const double y = p < 4 ? (double)(p >> 1) : uniform();
      shape_set_eval(s, x, y, SHAPE_MAX_MODES, phi);
      shape_exact_modes(f, SHAPE_MAX_MODES, x, y, want);
      for (int n = 0; n < SHAPE_MAX_MODES; ++n) {
        const double e = fabs(phi[n] - want[n]);
        if (!(e <= worst)) { /* NaN sticks as infinity */
          worst = isnan(e) ? INFINITY : e;
          worst_mode = n;
        }
      }
    }
    CHECK(worst <= set_tol, "%s set: off by %.3e (mode %d)",
          shape_family_name(f), worst, worst_mode);
    /* the cost: all 128 modes at points spread over the object, the best
     * of several rounds (the machine is shared) */
    volatile double sink = 0.0;
    double per = INFINITY;
    for (int r = 0; r < TIMED_ROUNDS; ++r) {
      const double t1 = now();
      for (int i = 0; i < TIMED; ++i) {
        shape_set_eval(s, xs[i], ys[i], SHAPE_MAX_MODES, phi);
        sink += phi[i & (SHAPE_MAX_MODES - 1)];
      }
      per = fmin(per, (now() - t1) / TIMED);
    }
    (void)sink;
    printf("%s %-17s off by %.2e at most (mode %3d, tol %.0e); "
           "eval %4.0f ns = %.2f ns a mode; built in %.2f ms\n",
           worst <= set_tol ? "  ok " : "FAIL ", shape_family_name(f), worst,
           worst_mode, set_tol, per * 1e9, per * 1e9 / SHAPE_MAX_MODES,
           built * 1e3);
    shape_set_free(s);
  }
  /* informational: shape_exact() of the membrane's last mode works out the
   * zeros below it */
  volatile double sink = 0.0;
  const double t0 = now();
  for (int r = 0; r < 50; ++r)
    sink += shape_exact(SHAPE_MEMBRANE, SHAPE_MAX_MODES - 1, 0.3, 0.1);
  (void)sink;
  printf("      shape_exact(membrane, 127): %.1f us a call\n",
         (now() - t0) / 50 * 1e6);
  /* shape_exact_modes() is shape_exact() mode by mode */
  for (int fi = 0; fi < ANALYTIC; ++fi) {
    double phi[SHAPE_MAX_MODES];
    shape_exact_modes(analytic[fi], SHAPE_MAX_MODES, 0.37, 0.81, phi);
    for (int n = 0; n < SHAPE_MAX_MODES; n += 9)
      CHECK(phi[n] == shape_exact(analytic[fi], n, 0.37, 0.81),
            "%s mode %d: shape_exact_modes differs",
            shape_family_name(analytic[fi]), n);
  }
}

/* The string's and the free-free bar's modes alternate even and odd about
 * the centre, the first even: place.c hears the right pickup at the left
 * one's mirror point as +-phi at the left (modal_mirror_shape()).  Against
 * the sets at 1 - x, within the sets' own accuracy. */
static void
test_mirror_symmetry(void)
{
  const shape_family symmetric[] = {SHAPE_STRING, SHAPE_BAR_FREE};
  for (int fi = 0; fi < 2; ++fi) {
    shape_set* s = shape_set_new_family(symmetric[fi], SHAPE_MAX_MODES);
    CHECK(s, "%s: no set", shape_family_name(symmetric[fi]));
    if (!s)
      continue;
    double worst = 0.0;
    for (int p = 0; p < 200; ++p) {
      const double x = uniform();
      double at[SHAPE_MAX_MODES], mirror[SHAPE_MAX_MODES];
      shape_set_eval(s, x, 0.0, SHAPE_MAX_MODES, at);
      shape_set_eval(s, 1.0 - x, 0.0, SHAPE_MAX_MODES, mirror);
      for (int n = 0; n < SHAPE_MAX_MODES; ++n)
        worst = fmax(worst, fabs(mirror[n] - modal_mirror_shape(n) * at[n]));
    }
    CHECK(worst <= 2.0 * set_tol, "%s: phi(1 - x) = +-phi(x) off by %.3e",
          shape_family_name(symmetric[fi]), worst);
    printf("  ok  %-17s phi(1 - x) = (-1)^n phi(x) within %.2e\n",
           shape_family_name(symmetric[fi]), worst);
    shape_set_free(s);
  }
}

/* ---- 6. sampled sets ---------------------------------------------------- */

static void
test_sampled_1d(void)
{
  enum { MODES = 8, NX = 17 };
  double samples[MODES * NX];
  for (int n = 0; n < MODES; ++n)
    for (int i = 0; i < NX; ++i)
      samples[n * NX + i] =
          shape_exact(SHAPE_BAR_FREE, n, (double)i / (NX - 1), 0.0);
  shape_set* s = shape_set_new_sampled(MODES, NX, 1, samples);
  CHECK(s && !shape_set_is_2d(s) && shape_set_modes(s) == MODES,
        "1-D sampled set");
  if (!s)
    return;
  double phi[MODES], at_samples = 0.0, between = 0.0;
  for (int i = 0; i < NX; ++i) {
    shape_set_eval(s, (double)i / (NX - 1), 0.7, MODES, phi);
    for (int n = 0; n < MODES; ++n)
      at_samples = fmax(at_samples, fabs(phi[n] - samples[n * NX + i]));
  }
  for (int p = 0; p < 2000; ++p) {
    const double x = uniform();
    shape_set_eval(s, x, 0.0, MODES, phi);
    for (int n = 0; n < 4; ++n) /* max |phi| = 1: absolute is relative */
      between =
          fmax(between, fabs(phi[n] - shape_exact(SHAPE_BAR_FREE, n, x, 0.0)));
  }
  CHECK(at_samples <= sample_tol, "1-D samples off by %.3e", at_samples);
  CHECK(between <= between_tol, "1-D between samples off by %.3e", between);
  printf("%s free-free bar at 17 points: samples off by %.1e (tol %.0e), "
         "modes 0..3 between by %.2e (tol %.0e)\n",
         at_samples <= sample_tol && between <= between_tol ? "  ok " : "FAIL ",
         at_samples, sample_tol, between, between_tol);
  shape_set_free(s);
}

static void
test_sampled_2d(void)
{
  enum { MODES = 8, N = 17 };
  static double samples[MODES * N * N];
  for (int n = 0; n < MODES; ++n)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i)
        samples[(n * N + j) * N + i] = shape_exact(
            SHAPE_PLATE, n, (double)i / (N - 1), (double)j / (N - 1));
  shape_set* s = shape_set_new_sampled(MODES, N, N, samples);
  CHECK(s && shape_set_is_2d(s) && shape_set_modes(s) == MODES,
        "2-D sampled set");
  if (!s)
    return;
  double phi[MODES], at_samples = 0.0, between = 0.0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      shape_set_eval(s, (double)i / (N - 1), (double)j / (N - 1), MODES, phi);
      for (int n = 0; n < MODES; ++n)
        at_samples =
            fmax(at_samples, fabs(phi[n] - samples[(n * N + j) * N + i]));
    }
  for (int p = 0; p < 2000; ++p) {
    const double x = uniform(), y = uniform();
    shape_set_eval(s, x, y, MODES, phi);
    for (int n = 0; n < 4; ++n)
      between = fmax(between, fabs(phi[n] - shape_exact(SHAPE_PLATE, n, x, y)));
  }
  /* across every inner cell edge, in x and in y, at random points along
   * it: values meet, and so do one-sided slopes */
  double jump = 0.0, kink = 0.0;
  const double d = 1e-9, ds = 1e-6;
  for (int e = 1; e < N - 1; ++e)
    for (int p = 0; p < 20; ++p) {
      const double edge = (double)e / (N - 1), t = uniform();
      for (int axis = 0; axis < 2; ++axis) {
        double lo[MODES], hi[MODES], at[MODES], lo2[MODES], hi2[MODES];
#define AT(off, out)                                                           \
  shape_set_eval(s, axis ? t : edge + (off), axis ? edge + (off) : t, MODES,   \
                 out)
        AT(-d, lo);
        AT(d, hi);
        AT(0.0, at);
        AT(-ds, lo2);
        AT(ds, hi2);
#undef AT
        for (int n = 0; n < MODES; ++n) {
          jump = fmax(jump, fabs(hi[n] - lo[n]));
          kink =
              fmax(kink, fabs((hi2[n] - at[n]) / ds - (at[n] - lo2[n]) / ds));
        }
      }
    }
  const bool ok = at_samples <= sample_tol && between <= between_tol &&
                  jump <= continuity_tol && kink <= kink_tol;
  CHECK(at_samples <= sample_tol, "2-D samples off by %.3e", at_samples);
  CHECK(between <= between_tol, "2-D between samples off by %.3e", between);
  CHECK(jump <= continuity_tol, "2-D jump across an edge %.3e", jump);
  CHECK(kink <= kink_tol, "2-D kink across an edge %.3e", kink);
  printf("%s plate on 17 x 17: samples off by %.1e (tol %.0e), modes 0..3 "
         "between by %.2e (tol %.0e);\n      across edges: jumps %.1e (tol "
         "%.0e), slope changes %.1e (tol %.0e)\n",
         ok ? "  ok " : "FAIL ", at_samples, sample_tol, between, between_tol,
         jump, continuity_tol, kink, kink_tol);
  shape_set_free(s);

  /* the smallest grid, 2 x 2: bilinear, through its corners */
  const double corners[4] = {0.0, 1.0, 2.0, 4.0};
  s = shape_set_new_sampled(1, 2, 2, corners);
  CHECK(s, "2 x 2 set");
  if (s) {
    double v;
    shape_set_eval(s, 0.5, 0.5, 1, &v);
    CHECK(fabs(v - 1.75) < exact_tol, "2 x 2 centre %.17g", v);
    shape_set_eval(s, 1.0, 1.0, 1, &v);
    CHECK(fabs(v - 4.0) < exact_tol, "2 x 2 corner %.17g", v);
    shape_set_free(s);
  }
}

/* ---- 7. arguments -------------------------------------------------------- */

static void
test_arguments(void)
{
  printf("arguments\n");
  double samples[SHAPE_MAX_MODES + 1] = {0.0};
  const struct {
    int modes, nx, ny;
    const double* samples;
  } bad[] = {
      {0, 4, 1, samples}, {-1, 4, 1, samples}, {129, 4, 1, samples},
      {1, 1, 1, samples}, {1, 0, 1, samples},  {1, -3, 1, samples},
      {1, 4, 0, samples}, {1, 4, -2, samples}, {1, 4, 1, NULL},
      {1, 1, 4, samples},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    shape_set* s = shape_set_new_sampled(bad[i].modes, bad[i].nx, bad[i].ny,
                                         bad[i].samples);
    CHECK(!s, "sampled set of %d modes, %d x %d (%s samples) accepted",
          bad[i].modes, bad[i].nx, bad[i].ny, bad[i].samples ? "with" : "no");
    shape_set_free(s);
  }
  samples[2] = NAN;
  CHECK(!shape_set_new_sampled(1, 4, 1, samples), "a NaN sample accepted");
  samples[2] = 0.0;
  CHECK(!shape_set_new_family(SHAPE_NONE, 8) &&
            !shape_set_new_family(SHAPE_TABLE, 8) &&
            !shape_set_new_family(SHAPE_STRING, 0) &&
            !shape_set_new_family(SHAPE_STRING, SHAPE_MAX_MODES + 1),
        "bad family sets accepted");
  CHECK(shape_exact(SHAPE_STRING, -1, 0.3, 0.0) == 0.0 &&
            shape_exact(SHAPE_MEMBRANE, SHAPE_MAX_MODES, 0.3, 0.0) == 0.0 &&
            shape_exact(SHAPE_PLATE, SHAPE_MAX_MODES, 0.3, 0.3) == 0.0,
        "modes past the tables");
  CHECK(shape_set_modes(NULL) == 0 && !shape_set_is_2d(NULL), "NULL set");

  /* clamping, NaN, and count: every family */
  for (int fi = 0; fi < ANALYTIC; ++fi) {
    shape_set* s = shape_set_new_family(analytic[fi], SHAPE_MAX_MODES);
    if (!s)
      continue;
    double a[SHAPE_MAX_MODES], b[SHAPE_MAX_MODES];
    shape_set_eval(s, -0.5, -3.0, SHAPE_MAX_MODES, a);
    shape_set_eval(s, 0.0, 0.0, SHAPE_MAX_MODES, b);
    CHECK(!memcmp(a, b, sizeof a), "%s: x < 0 not clamped",
          shape_family_name(analytic[fi]));
    shape_set_eval(s, 7.0, 1.5, SHAPE_MAX_MODES, a);
    shape_set_eval(s, 1.0, 1.0, SHAPE_MAX_MODES, b);
    CHECK(!memcmp(a, b, sizeof a), "%s: x > 1 not clamped",
          shape_family_name(analytic[fi]));
    shape_set_eval(s, NAN, NAN, SHAPE_MAX_MODES, a);
    bool finite = true;
    for (int n = 0; n < SHAPE_MAX_MODES; ++n)
      finite = finite && isfinite(a[n]);
    CHECK(finite, "%s: NaN point gives non-finite shapes",
          shape_family_name(analytic[fi]));
    for (int n = 0; n < SHAPE_MAX_MODES; ++n)
      a[n] = 42.0;
    shape_set_eval(s, 0.3, 0.6, 5, a);
    CHECK(a[4] != 42.0 && a[5] == 42.0, "%s: count not honoured",
          shape_family_name(analytic[fi]));
    shape_set_free(s);
  }
  /* a set of fewer modes: the same shapes */
  for (int fi = 0; fi < ANALYTIC; ++fi) {
    shape_set* s = shape_set_new_family(analytic[fi], 5);
    CHECK(s && shape_set_modes(s) == 5, "%s: 5-mode set",
          shape_family_name(analytic[fi]));
    if (!s)
      continue;
    double a[8], want[5];
    for (int n = 0; n < 8; ++n)
      a[n] = 42.0;
    shape_set_eval(s, 0.41, 0.13, 8, a); /* count past the set's modes */
    shape_exact_modes(analytic[fi], 5, 0.41, 0.13, want);
    double worst = 0.0;
    for (int n = 0; n < 5; ++n)
      worst = fmax(worst, fabs(a[n] - want[n]));
    CHECK(worst <= set_tol && a[5] == 42.0, "%s: 5-mode set off by %.3e",
          shape_family_name(analytic[fi]), worst);
    shape_set_free(s);
  }
}

int
main(void)
{
  test_normalisation();
  test_orthogonality();
  test_known_values();
  test_beam_stability();
  test_family_sets();
  test_mirror_symmetry();
  test_sampled_1d();
  test_sampled_2d();
  test_arguments();
  return check_done("test_shape");
}
