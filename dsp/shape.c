/* SPDX-License-Identifier: ISC */
/*
 * Mode shapes (shape.h), [ch8] 8.2.2.
 *
 * Exact values come from libm: the beams in a form whose terms all stay
 * below 2 up to the 128th mode (no cosh against sinh), the membrane from
 * jn() at the zeros of J_m found from a Taylor polynomial, and mode tables
 * worked out afresh by each call (no state kept between calls).
 *
 * A shape set stores what makes evaluation cheap:
 *   string    nothing: sin(k pi x) for every k by the Chebyshev
 *             recurrence, two flops a mode;
 *   plate     the same along both axes, one product a mode;
 *   membrane  J_m(z) / max |J_m| for every order m on one cubic Hermite
 *             grid over z in [0, j_max] (values and exact slopes), which
 *             mode (m, k) reads at z = j_mk x, and cos(2 pi m y) by the
 *             recurrence;
 *   bars      the first BAR_GRID_MODES on a Hermite grid, the rest in
 *             their asymptotic form, whose trigonometric and exponential
 *             factors go from one mode to the next by a rotation and two
 *             products;
 *   sampled   the natural cubic spline through the samples (along x), or
 *             its tensor product (a grid), as Hermite patches.
 */
#define _XOPEN_SOURCE 700 /* j0(), j1(), jn(): XSI, not C11 */

#include "shape.h"

#include "dsp_util.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Grid step times the largest wavenumber k the grid carries: a cubic
 * Hermite interpolant with exact slopes misses sin(k x) by at most
 * (h k)^4 / 384, 1.3e-6 at 0.15 (21 samples a half-wave), far inside the
 * 1e-4 a set promises even after normalising a J_m of high order (peak
 * ~0.3, so errors grow ~3x). */
static const double grid_kh = 0.15;

/* Bar modes from this one on are evaluated with the asymptotic beta,
 * (2n + 3) pi / 2 free-free, (2n + 1) pi / 2 clamped-free: the true one
 * differs by 2 e^{-beta} at most, under 1e-11 here (beta > 26), which is
 * what the shape moves by at x = 1. */
enum { BAR_GRID_MODES = 8 };

/* Iterations of every root finder: the roots converge in 2 to 5 steps
 * from their guesses; the cap only bounds the loops. */
enum { ROOT_ITERATIONS = 40 };
/* a step this small relative to the root: the root is as exact as the
 * function's rounding lets it be */
static const double root_step_tol = 4.0 * DBL_EPSILON;

/* Consecutive zeros of any J_m lie more than 3.1 apart (j_02 - j_01 is
 * the closest pair), and J_m has none in (0, m + 2.4).  A guess is within
 * 0.2 of its zero, so a zero found within 2 taylor_reach of the guess and
 * past zero_gap after its predecessor is the one; else the zero is
 * bracketed by stepping from there. */
static const double zero_gap = 2.0;
static const double zero_step = 1.0; /* < 3.1: one sign change a step */

static double
clamp01(double v)
{
  return fmin(fmax(v, 0.0), 1.0); /* NaN goes to 0 */
}

/* sin(pi t) with t reduced exactly, so that integer t gives 0 exactly */
static double
sin_pi(double t)
{
  double r = t - 2.0 * floor(0.5 * t + 0.5); /* [-1, 1] */
  if (r > 0.5)
    r = 1.0 - r;
  else if (r < -0.5)
    r = -1.0 - r;
  return sin(DSP_PI * r);
}

static double
cos_pi(double t)
{
  return sin_pi(t + 0.5);
}

/* ---- Euler-Bernoulli beams ------------------------------------------- */

/* beta_n: root n + 1 of cos b cosh b = 1 (free-free) or -1 (clamped-free),
 * i.e. of cos b = s sech b, by Newton from the asymptotic root
 * (2n + 3) pi / 2 or (2n + 1) pi / 2, 2 e^{-b} from it */
static double
beam_beta(bool clamped, int n)
{
  const double s = clamped ? -1.0 : 1.0;
  double b = (2.0 * n + (clamped ? 1.0 : 3.0)) * 0.5 * DSP_PI;
  for (int it = 0; it < ROOT_ITERATIONS; ++it) {
    const double sech = 1.0 / cosh(b);
    const double f = cos(b) - s * sech;
    const double df = -sin(b) + s * sech * tanh(b);
    const double step = f / df;
    b -= step;
    if (fabs(step) <= root_step_tol * b)
      break;
  }
  return b;
}

/* A beam mode normalised to max |phi| = 1:
 *   phi(x) = p cos(bx) + q sin(bx) + r e^{-bx} + s e^{-b(1-x)}.
 * The textbook cosh bx + cos bx - sigma (sinh bx + sin bx) (free-free;
 * cosh - cos - sigma (sinh - sin) clamped-free) has terms of e^b / 2
 * that cancel to O(1): with E = e^{-b}, cosh bx - sigma sinh bx is
 * (1 + sigma) e^{-bx} / 2 + (1 - sigma) e^{bx} / 2, and 1 - sigma is
 * 2 E (cos b - sin b - E) / D (free-free) with D = 1 - E^2 - 2 E sin b,
 * so the growing term is e^{-b(1-x)} (cos b - sin b - E) / D; likewise
 * clamped-free, with the signs of the sin b and cos b terms flipped.
 * Signs: free-free phi(0) = 1 (both ends are the maxima, |phi| = 1);
 * clamped-free phi(1) = 1 (the tip is the maximum). */
typedef struct beam {
  double beta, p, q, r, s;
} beam;

static beam
beam_mode(bool clamped, int n)
{
  const double b = beam_beta(clamped, n);
  const double e = exp(-b), sn = sin(b), cs = cos(b);
  beam m = {.beta = b};
  double g;
  if (!clamped) {
    const double d = 1.0 - e * e - 2.0 * e * sn;
    const double sigma = (1.0 + e * e - 2.0 * e * cs) / d;
    m.p = 1.0;
    m.q = -sigma;
    m.r = 0.5 * (1.0 + sigma);
    m.s = (cs - sn - e) / d;
    g = 0.5; /* phi(0) = 1 + r + s e^{-b} = 2 */
  } else {
    const double d = 1.0 - e * e + 2.0 * e * sn;
    const double sigma = (1.0 + e * e + 2.0 * e * cs) / d;
    m.p = -1.0;
    m.q = sigma;
    m.r = 0.5 * (1.0 + sigma);
    m.s = (sn - cs - e) / d;
    g = 1.0 / (m.p * cs + m.q * sn + m.r * e + m.s); /* 1 / phi(1), +-1/2 */
  }
  m.p *= g;
  m.q *= g;
  m.r *= g;
  m.s *= g;
  return m;
}

/* phi(x) and, when slope is not NULL, phi'(x) */
static double
beam_value(const beam* m, double x, double* slope)
{
  const double c = cos(m->beta * x), sn = sin(m->beta * x);
  const double e1 = exp(-m->beta * x), e2 = exp(-m->beta * (1.0 - x));
  if (slope)
    *slope = m->beta * (-m->p * sn + m->q * c - m->r * e1 + m->s * e2);
  return m->p * c + m->q * sn + m->r * e1 + m->s * e2;
}

/* ---- circular membrane: Bessel functions and their zeros ------------- */

/* J_m(z) and J_{m+1}(z) */
static void
bessel_pair(int m, double z, double* jm, double* jm1)
{
  if (z > m + 1.0) {
    /* forward recurrence from J_0, J_1, stable while the order stays
     * below z: one libm pair instead of two jn() recurrences */
    double a = j0(z), b = j1(z);
    for (int k = 1; k <= m; ++k) {
      const double c = 2.0 * k / z * b - a;
      a = b;
      b = c;
    }
    *jm = a;
    *jm1 = b;
  } else {
    *jm = jn(m, z);
    *jm1 = jn(m + 1, z);
  }
}

/* Miller's backward recurrence starts this far above max(top, z): the
 * start's error shrinks like J_N(z) / J_top(z), below rounding by then
 * (checked against jn() for z and top up to 40) */
static int
miller_start(double z, int top)
{
  const double n = fmax((double)top, z);
  return (int)(n + 20.0 + sqrt(40.0 * n));
}

/* Rescale the backward recurrence when it grows past this: it grows like
 * (2 k / z)^k for small z, which could overflow */
static const double miller_big = 1e200;

/* J_0 .. J_top at z >= 0 into out (top + 1 values): Miller's backward
 * recurrence, normalised by J_0 + 2 (J_2 + J_4 + ...) = 1 */
static void
bessel_orders(double z, int top, double* out)
{
  if (z <= 0.0) {
    for (int k = 0; k <= top; ++k)
      out[k] = k == 0 ? 1.0 : 0.0;
    return;
  }
  const int start = miller_start(z, top);
  double next = 0.0, cur = 1.0, sum = 0.0;
  for (int k = start; k > 0; --k) {
    const double prev = 2.0 * k / z * cur - next; /* J_k-1 */
    next = cur;
    cur = prev;
    if (fabs(cur) > miller_big) {
      cur /= miller_big;
      next /= miller_big;
      sum /= miller_big;
      for (int j = k; j <= top; ++j)
        out[j] /= miller_big;
    }
    if (k - 1 <= top)
      out[k - 1] = cur;
    if (k - 1 > 0 && (k - 1) % 2 == 0)
      sum += 2.0 * cur;
  }
  const double norm = 1.0 / (sum + cur);
  for (int k = 0; k <= top; ++k)
    out[k] *= norm;
}

/* An estimate of j_mk within 0.2 (measured up to m = 30, k = 14):
 * McMahon's expansion in 1 / beta, beta = (k + m/2 - 1/4) pi, where k is
 * large against m; else Olver's in m^{-1/3} with a_k, the k-th zero of
 * Ai, from its own expansion ([DLMF] 10.21.19, 10.21.32, 9.9.6). */
static double
bessel_zero_guess(int m, int k)
{
  if (4 * (k - 1) >= m) {
    const double mu = 4.0 * m * m, b = (k + 0.5 * m - 0.25) * DSP_PI;
    const double e = 8.0 * b;
    return b - (mu - 1.0) / e -
           4.0 * (mu - 1.0) * (7.0 * mu - 31.0) / (3.0 * e * e * e);
  }
  const double t = 0.375 * DSP_PI * (4.0 * k - 1.0);
  const double a =
      cbrt(t * t) * (1.0 + 5.0 / (48.0 * t * t) - 5.0 / (36.0 * t * t * t * t));
  const double c = cbrt(0.5 * m);
  return m + a * c + 0.15 * a * a / c;
}

/* Taylor terms about a guess: |J_m^(k)| <= 1 (each derivative averages
 * two J's), so |c_k| <= 1 / k!; 12 terms leave 0.25^12 / 12! = 1e-16
 * within taylor_reach of the guess (the guesses are within 0.2) */
enum { TAYLOR_TERMS = 12 };
static const double taylor_reach = 0.25;

/* 1 / ((k + 2) (k + 1)): the Taylor recurrence's divisors */
static const double taylor_div[TAYLOR_TERMS - 2] = {
    1.0 / 2,  1.0 / 6,  1.0 / 12, 1.0 / 20, 1.0 / 30,
    1.0 / 42, 1.0 / 56, 1.0 / 72, 1.0 / 90, 1.0 / 110,
};

/* Halley's step on the Taylor polynomial under which the zero is found:
 * convergence is cubic with a constant under 1 (c_3 / c_1 ~ 1/6 and
 * (c_2 / c_1)^2 = 1 / (4 z^2) at a zero), so the next step would be
 * under 1e-15 */
static const double taylor_done = 1e-5;

/* The zero of J_m near z: one evaluation at z, then Halley's iterations
 * on the Taylor polynomial about it, whose terms follow from Bessel's
 * equation z^2 J'' + z J' + (z^2 - m^2) J = 0:
 *   z^2 (k+2)(k+1) c_k+2 = -[z (k+1)(2k+1) c_k+1 + (k^2 + z^2 - m^2) c_k
 *                            + 2 z c_k-1 + c_k-2];
 * again from the zero found when it lies past taylor_reach. */
static double
bessel_zero_near(int m, double z)
{
  for (int again = 0; again < ROOT_ITERATIONS; ++again) {
    double c[TAYLOR_TERMS + 2] = {0.0}, a, b;
    double* t = c + 2; /* t[-1], t[-2] are 0 */
    bessel_pair(m, z, &a, &b);
    t[0] = a;
    t[1] = m / z * a - b; /* J_m' */
    const double inv_z2 = 1.0 / (z * z), s = z * z - (double)m * m;
    for (int k = 0; k + 2 < TAYLOR_TERMS; ++k) {
      const double rhs = z * (k + 1) * (2 * k + 1) * t[k + 1] +
                         (k * k + s) * t[k] + 2.0 * z * t[k - 1] + t[k - 2];
      t[k + 2] = -rhs * (inv_z2 * taylor_div[k]);
    }
    double h = 0.0, p = t[0], dp = t[1], ddp = 2.0 * t[2];
    for (int it = 0; it < ROOT_ITERATIONS; ++it) {
      const double newton = p / dp;
      const double step = newton / (1.0 - 0.5 * newton * ddp / dp);
      h -= step;
      if (fabs(step) <= taylor_done || fabs(h) > 2.0 * taylor_reach)
        break;
      p = t[TAYLOR_TERMS - 1];
      dp = ddp = 0.0;
      for (int k = TAYLOR_TERMS - 2; k >= 0; --k) {
        ddp = ddp * h + 2.0 * dp;
        dp = dp * h + p;
        p = p * h + t[k];
      }
    }
    /* a far zero: the polynomial's, not quite J_m's; step there and
     * expand again (h is bounded, so the zero stays the one near z) */
    if (fabs(h) <= taylor_reach)
      return z + h;
    z += fmax(-2.0 * taylor_reach, fmin(2.0 * taylor_reach, h));
  }
  return z;
}

/* j_mk, the k-th zero of J_m; `after` is j_m,k-1 (m for k = 1) */
static double
bessel_zero(int m, int k, double after)
{
  const double guess = bessel_zero_guess(m, k);
  const double z = bessel_zero_near(m, guess);
  if (fabs(z - guess) <= 2.0 * taylor_reach && z > after + zero_gap)
    return z;
  /* the guess led elsewhere: J_m keeps one sign from `after` to the next
   * zero, so step to the first sign change, and bisect the bracket to
   * well inside the Taylor polynomial's reach */
  double lo = after + zero_gap, hi = lo, vlo, vhi, unused;
  bessel_pair(m, lo, &vlo, &unused);
  for (int it = 0; it < ROOT_ITERATIONS; ++it) {
    hi = lo + zero_step;
    bessel_pair(m, hi, &vhi, &unused);
    if ((vhi < 0.0) != (vlo < 0.0))
      break;
    lo = hi;
  }
  for (int it = 0; it < ROOT_ITERATIONS && hi - lo > 2.0 * taylor_reach; ++it) {
    const double mid = 0.5 * (lo + hi);
    double vmid;
    bessel_pair(m, mid, &vmid, &unused);
    if ((vmid < 0.0) == (vlo < 0.0))
      lo = mid;
    else
      hi = mid;
  }
  return bessel_zero_near(m, 0.5 * (lo + hi));
}

/* max |J_m| = J_m(j'_m1), at the first zero of J_m' (the maxima of |J_m|
 * decrease, and j'_m1 < j_m1 <= j_mk: the peak lies on the membrane) */
static double
bessel_peak(int m)
{
  if (m == 0)
    return 1.0; /* J_0(0) */
  /* Olver: j'_m1 ~ m + 0.8086165 m^{1/3} + 0.072490 m^{-1/3} */
  const double c = cbrt((double)m);
  double z = m + 0.8086165 * c + 0.072490 / c, a, b;
  for (int it = 0; it < ROOT_ITERATIONS; ++it) {
    bessel_pair(m, z, &a, &b);
    const double d = m / z * a - b;
    const double dd = -d / z - (1.0 - (double)m * m / (z * z)) * a;
    const double step = d / dd;
    z -= step;
    if (fabs(step) <= root_step_tol * z)
      break;
  }
  bessel_pair(m, z, &a, &b);
  return a;
}

/* Floors under zeros not yet computed: j_m1 > m + 1.8557571 m^{1/3}
 * (Qu and Wong's bound m - a_1 (m/2)^{1/3}; 1.85 leaves a margin), and
 * consecutive zeros of J_m lie more than pi apart for m >= 1 (the
 * spacing falls to pi), 3.1153 for m = 0 (it rises to pi). */
static double
first_zero_floor(int m)
{
  return m + 1.85 * cbrt((double)m);
}

static double
zero_spacing_floor(int m)
{
  return m > 0 ? DSP_PI : 3.1;
}

/* The first `count` (<= SHAPE_MAX_MODES) membrane modes in order of j_mk:
 * their orders m and zeros j_mk.  Each order opened so far has a key: its
 * next zero, or a floor under it until it might be the least.  The least
 * key is taken when it is a zero, else computed; order m + 1 opens when
 * the first zero of order m is taken (j_m+1,1 > j_m1).  Zeros of
 * different orders never coincide; a tie would go to the lower order. */
static void
membrane_table(int count, int* order, double* zero)
{
  double key[SHAPE_MAX_MODES + 1], after[SHAPE_MAX_MODES + 1];
  bool exact[SHAPE_MAX_MODES + 1];
  int k[SHAPE_MAX_MODES + 1];
  int open = 1;
  key[0] = after[0] = 0.0;
  exact[0] = false;
  k[0] = 1;
  /* every pass computes a key or takes one: bounded by 2 count + open */
  for (int n = 0; n < count;) {
    int best = 0;
    for (int m = 1; m < open; ++m)
      if (key[m] < key[best])
        best = m;
    if (!exact[best]) {
      key[best] = bessel_zero(best, k[best], after[best]);
      exact[best] = true;
      continue;
    }
    order[n] = best;
    zero[n++] = key[best];
    if (best == open - 1 && open <= SHAPE_MAX_MODES) {
      key[open] = first_zero_floor(open);
      after[open] = open;
      exact[open] = false;
      k[open] = 1;
      ++open;
    }
    after[best] = key[best];
    key[best] += zero_spacing_floor(best);
    exact[best] = false;
    ++k[best];
  }
}

/* ---- square plate ----------------------------------------------------- */

/* The first `count` modes' (a, b) in order of a^2 + b^2, then a: the
 * lattice points of each circle, walked outwards */
static void
plate_modes(int count, int* a, int* b)
{
  int seen = 0;
  for (int r2 = 2; seen < count; ++r2)
    for (int i = 1; i * i < r2 && seen < count; ++i) {
      const int rest = r2 - i * i;
      int j = (int)sqrt((double)rest);
      while (j * j > rest)
        --j;
      while ((j + 1) * (j + 1) <= rest)
        ++j;
      if (j * j == rest) {
        a[seen] = i;
        b[seen++] = j;
      }
    }
}

static void
plate_mode(int n, int* a, int* b)
{
  int as[SHAPE_MAX_MODES], bs[SHAPE_MAX_MODES];
  plate_modes(n + 1, as, bs);
  *a = as[n];
  *b = bs[n];
}

/* ---- the analytic families -------------------------------------------- */

static const char* const family_names[SHAPE_FAMILIES] = {
    [SHAPE_NONE] = "none",
    [SHAPE_STRING] = "string",
    [SHAPE_BAR_FREE] = "free-free bar",
    [SHAPE_BAR_CLAMPED] = "clamped-free bar",
    [SHAPE_MEMBRANE] = "membrane",
    [SHAPE_PLATE] = "plate",
    [SHAPE_TABLE] = "table",
};

const char*
shape_family_name(shape_family f)
{
  return f >= 0 && f < SHAPE_FAMILIES ? family_names[f] : "unknown";
}

bool
shape_family_is_2d(shape_family f)
{
  return f == SHAPE_MEMBRANE || f == SHAPE_PLATE;
}

static bool
is_analytic(shape_family f)
{
  return f > SHAPE_NONE && f < SHAPE_TABLE;
}

/* mode n of a family that shape_exact() knows: the membrane's table
 * stops at SHAPE_MAX_MODES (a table on the stack), the plate's with it */
static bool
mode_known(shape_family f, int n)
{
  if (n < 0 || !is_analytic(f))
    return false;
  return !shape_family_is_2d(f) || n < SHAPE_MAX_MODES;
}

/* J_m(j x) / max |J_m| cos(2 pi m y) */
static double
membrane_value(int m, double j, double peak, double x, double y)
{
  return jn(m, j * x) / peak * cos_pi(2.0 * m * y);
}

double
shape_exact(shape_family f, int n, double x, double y)
{
  if (f == SHAPE_NONE)
    return 1.0;
  if (!mode_known(f, n))
    return 0.0;
  x = clamp01(x);
  y = clamp01(y);
  switch (f) {
  case SHAPE_STRING:
    return sin_pi((n + 1.0) * x);
  case SHAPE_BAR_FREE:
  case SHAPE_BAR_CLAMPED: {
    const beam m = beam_mode(f == SHAPE_BAR_CLAMPED, n);
    return beam_value(&m, x, NULL);
  }
  case SHAPE_MEMBRANE: {
    int order[SHAPE_MAX_MODES];
    double zero[SHAPE_MAX_MODES];
    membrane_table(n + 1, order, zero);
    const int m = order[n];
    return membrane_value(m, zero[n], bessel_peak(m), x, y);
  }
  case SHAPE_PLATE: {
    int a, b;
    plate_mode(n, &a, &b);
    return sin_pi(a * x) * sin_pi(b * y);
  }
  default:
    return 0.0;
  }
}

void
shape_exact_modes(shape_family f, int count, double x, double y, double* phi)
{
  int n = 0;
  if (f == SHAPE_MEMBRANE && count > 0) {
    /* the table and the peaks once, for all the modes */
    int order[SHAPE_MAX_MODES];
    double zero[SHAPE_MAX_MODES], peak[SHAPE_MAX_MODES + 1];
    const int known = count < SHAPE_MAX_MODES ? count : SHAPE_MAX_MODES;
    membrane_table(known, order, zero);
    for (int m = 0; m <= SHAPE_MAX_MODES; ++m)
      peak[m] = 0.0;
    x = clamp01(x);
    y = clamp01(y);
    for (; n < known; ++n) {
      const int m = order[n];
      if (peak[m] == 0.0)
        peak[m] = bessel_peak(m);
      phi[n] = membrane_value(m, zero[n], peak[m], x, y);
    }
  }
  if (f == SHAPE_PLATE && count > 0) {
    int a[SHAPE_MAX_MODES], b[SHAPE_MAX_MODES];
    const int known = count < SHAPE_MAX_MODES ? count : SHAPE_MAX_MODES;
    plate_modes(known, a, b);
    x = clamp01(x);
    y = clamp01(y);
    for (; n < known; ++n)
      phi[n] = sin_pi(a[n] * x) * sin_pi(b[n] * y);
  }
  for (; n < count; ++n)
    phi[n] = shape_exact(f, n, x, y);
}

double
shape_ratio(shape_family f, int n)
{
  if (!mode_known(f, n))
    return 0.0;
  switch (f) {
  case SHAPE_STRING:
    return n + 1.0;
  case SHAPE_BAR_FREE:
  case SHAPE_BAR_CLAMPED: {
    const bool clamped = f == SHAPE_BAR_CLAMPED;
    const double r = beam_beta(clamped, n) / beam_beta(clamped, 0);
    return r * r; /* omega ~ beta^2 */
  }
  case SHAPE_MEMBRANE: {
    int order[SHAPE_MAX_MODES];
    double zero[SHAPE_MAX_MODES];
    membrane_table(n + 1, order, zero);
    return zero[n] / zero[0];
  }
  case SHAPE_PLATE: {
    int a, b;
    plate_mode(n, &a, &b);
    return 0.5 * (a * a + b * b);
  }
  default:
    return 0.0;
  }
}

/* ---- shape sets --------------------------------------------------------- */

/* A Hermite grid holds, at each of nx by ny nodes, `q` values a mode: the
 * shape f and its slope scaled by the step, h f' (q = 2, along x), or f,
 * hx f_x, hy f_y, hx hy f_xy (q = 4, a grid).  The innermost index is the
 * mode (the membrane's: the order m), `stride` of them:
 * grid[((j nx + i) q + c) stride + n], so that a point reads a few runs of
 * memory. */
struct shape_set {
  shape_family family; /* SHAPE_TABLE: sampled */
  int modes;
  bool is_2d;
  int nx, ny, q, stride;
  double* grid;
  int index_max;                   /* membrane: the highest m; plate: a, b */
  int index_a[SHAPE_MAX_MODES];    /* membrane m; plate a */
  int index_b[SHAPE_MAX_MODES];    /* plate b */
  double coef[4][SHAPE_MAX_MODES]; /* bars past the grid: p, q, r, s */
  double zscale[SHAPE_MAX_MODES];  /* membrane: j_mk / the grid's step */
};

static shape_set*
set_alloc(shape_family f, int modes, int nx, int ny, int q, int stride)
{
  shape_set* s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->family = f;
  s->modes = modes;
  s->nx = nx;
  s->ny = ny;
  s->q = q;
  s->stride = stride;
  if (nx > 0) {
    /* sizes checked by the callers: nx ny q stride doubles fit */
    s->grid = malloc((size_t)nx * (size_t)ny * (size_t)q * (size_t)stride *
                     sizeof(double));
    if (!s->grid) {
      free(s);
      return NULL;
    }
  }
  return s;
}

/* nodes for wavenumbers up to k: grid_kh per step at most */
static int
grid_nodes(double k)
{
  return (int)ceil(k / grid_kh) + 1;
}

static double*
node(const shape_set* s, int i, int j, int c)
{
  return s->grid +
         (((size_t)j * (size_t)s->nx + (size_t)i) * (size_t)s->q + (size_t)c) *
             (size_t)s->stride;
}

static shape_set*
new_bar(bool clamped, int modes)
{
  const int held = modes < BAR_GRID_MODES ? modes : BAR_GRID_MODES;
  beam m[SHAPE_MAX_MODES];
  for (int n = 0; n < modes; ++n)
    m[n] = beam_mode(clamped, n);
  shape_set* s = set_alloc(clamped ? SHAPE_BAR_CLAMPED : SHAPE_BAR_FREE, modes,
                           grid_nodes(m[held - 1].beta), 1, 2, held);
  if (!s)
    return NULL;
  const double h = 1.0 / (s->nx - 1);
  for (int i = 0; i < s->nx; ++i) {
    double *f = node(s, i, 0, 0), *d = node(s, i, 0, 1);
    for (int n = 0; n < held; ++n) {
      f[n] = beam_value(&m[n], i * h, &d[n]);
      d[n] *= h;
    }
  }
  for (int n = held; n < modes; ++n) {
    s->coef[0][n] = m[n].p;
    s->coef[1][n] = m[n].q;
    s->coef[2][n] = m[n].r;
    s->coef[3][n] = m[n].s;
  }
  return s;
}

/* The membrane's radial factors J_m(j_mk x) / max |J_m| all come from
 * one table of J_m(z) / max |J_m| over z in [0, j_max], the largest zero
 * (one Miller recurrence a node gives every order): mode (m, k) reads
 * column m at z = j_mk x.  The grid: nodes i, q = 2 (value, step times
 * slope), `stride` = the orders. */
static shape_set*
new_membrane(int modes)
{
  int order[SHAPE_MAX_MODES];
  double zero[SHAPE_MAX_MODES];
  membrane_table(modes, order, zero);
  int top = 0;
  for (int n = 0; n < modes; ++n)
    top = order[n] > top ? order[n] : top;
  /* zeros ascend: the last is the largest */
  const int nodes = grid_nodes(zero[modes - 1]);
  shape_set* s = set_alloc(SHAPE_MEMBRANE, modes, nodes, 1, 2, top + 1);
  if (!s)
    return NULL;
  s->is_2d = true;
  s->index_max = top;
  const double step = zero[modes - 1] / (nodes - 1);
  for (int n = 0; n < modes; ++n) {
    s->index_a[n] = order[n];
    s->zscale[n] = zero[n] / step;
  }
  double inv_peak[SHAPE_MAX_MODES + 1], j[SHAPE_MAX_MODES + 2];
  for (int m = 0; m <= top; ++m)
    inv_peak[m] = 1.0 / bessel_peak(m);
  for (int i = 0; i < nodes; ++i) {
    bessel_orders(i * step, top + 1, j);
    double *f = node(s, i, 0, 0), *d = node(s, i, 0, 1);
    for (int m = 0; m <= top; ++m) {
      /* J_m' = (J_m-1 - J_m+1) / 2, J_0' = -J_1 */
      const double slope = m == 0 ? -j[1] : 0.5 * (j[m - 1] - j[m + 1]);
      f[m] = j[m] * inv_peak[m];
      d[m] = step * slope * inv_peak[m];
    }
  }
  return s;
}

shape_set*
shape_set_new_family(shape_family f, int modes)
{
  if (!is_analytic(f) || modes < 1 || modes > SHAPE_MAX_MODES)
    return NULL;
  shape_set* s = NULL;
  switch (f) {
  case SHAPE_STRING:
    s = set_alloc(f, modes, 0, 0, 0, 0);
    break;
  case SHAPE_BAR_FREE:
  case SHAPE_BAR_CLAMPED:
    s = new_bar(f == SHAPE_BAR_CLAMPED, modes);
    break;
  case SHAPE_MEMBRANE:
    s = new_membrane(modes);
    break;
  case SHAPE_PLATE:
    if ((s = set_alloc(f, modes, 0, 0, 0, 0))) {
      s->is_2d = true;
      plate_modes(modes, s->index_a, s->index_b);
      for (int n = 0; n < modes; ++n) {
        const int top =
            s->index_a[n] > s->index_b[n] ? s->index_a[n] : s->index_b[n];
        s->index_max = top > s->index_max ? top : s->index_max;
      }
    }
    break;
  default:
    break;
  }
  return s;
}

/* Scaled slopes d_i = h f'(x_i) of the natural cubic spline through
 * f_0 .. f_{n-1} at uniform knots (n >= 2), f and d strided: f'' is
 * continuous inside, d_i-1 + 4 d_i + d_i+1 = 3 (f_i+1 - f_i-1), and 0 at
 * the ends, 2 d_0 + d_1 = 3 (f_1 - f_0) and its mirror.  The system is
 * diagonally dominant: the Thomas algorithm, `work` holding the n
 * eliminated super-diagonals. */
static void
spline_slopes(int n, const double* f, size_t fs, double* d, size_t ds,
              double* work)
{
  work[0] = 0.5;
  d[0] = 1.5 * (f[fs] - f[0]);
  for (int i = 1; i < n; ++i) {
    const bool last = i == n - 1;
    const double diag = (last ? 2.0 : 4.0) - work[i - 1];
    const double rhs = last ? 3.0 * (f[i * fs] - f[(i - 1) * fs])
                            : 3.0 * (f[(i + 1) * fs] - f[(i - 1) * fs]);
    work[i] = 1.0 / diag;
    d[i * ds] = (rhs - d[(i - 1) * ds]) * work[i];
  }
  for (int i = n - 2; i >= 0; --i)
    d[i * ds] -= work[i] * d[(i + 1) * ds];
}

shape_set*
shape_set_new_sampled(int modes, int nx, int ny, const double* samples)
{
  if (!samples || modes < 1 || modes > SHAPE_MAX_MODES || nx < 2 || ny < 1)
    return NULL;
  const int q = ny > 1 ? 4 : 2;
  /* the grid's doubles must fit a size_t */
  const size_t per_node = (size_t)q * (size_t)modes * sizeof(double);
  if ((size_t)nx > SIZE_MAX / per_node / (size_t)ny)
    return NULL;
  const size_t values = (size_t)modes * (size_t)nx * (size_t)ny;
  for (size_t v = 0; v < values; ++v)
    if (!isfinite(samples[v]))
      return NULL;
  shape_set* s = set_alloc(SHAPE_TABLE, modes, nx, ny, q, modes);
  double* work = malloc((size_t)(nx > ny ? nx : ny) * sizeof(double));
  if (!s || !work) {
    free(work);
    shape_set_free(s);
    return NULL;
  }
  s->is_2d = ny > 1;
  const size_t sx = (size_t)q * (size_t)modes, sy = (size_t)nx * sx;
  for (int n = 0; n < modes; ++n) {
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        node(s, i, j, 0)[n] = samples[((size_t)n * ny + j) * nx + i];
    for (int j = 0; j < ny; ++j) /* f_x along each row */
      spline_slopes(nx, node(s, 0, j, 0) + n, sx, node(s, 0, j, 1) + n, sx,
                    work);
    if (ny > 1)
      for (int i = 0; i < nx; ++i) { /* f_y, then f_xy, along each column */
        spline_slopes(ny, node(s, i, 0, 0) + n, sy, node(s, i, 0, 2) + n, sy,
                      work);
        spline_slopes(ny, node(s, i, 0, 1) + n, sy, node(s, i, 0, 3) + n, sy,
                      work);
      }
  }
  free(work);
  return s;
}

void
shape_set_free(shape_set* s)
{
  if (s) {
    free(s->grid);
    free(s);
  }
}

int
shape_set_modes(const shape_set* s)
{
  return s ? s->modes : 0;
}

bool
shape_set_is_2d(const shape_set* s)
{
  return s && s->is_2d;
}

/* ---- evaluation: no allocation, work bounded by the count ---------------- */

/* the cell of a coordinate in [0, 1] on `nodes` nodes, and where in it */
static int
cell(double x, int nodes, double* t)
{
  const int cells = nodes - 1;
  const double u = x * cells;
  int i = (int)u;
  i = i < cells - 1 ? i : cells - 1;
  *t = u - i;
  return i;
}

/* cubic Hermite basis: the weights of f0, d0, f1, d1 */
static void
hermite(double t, double w[4])
{
  const double r = 1.0 - t;
  w[0] = r * r * (1.0 + 2.0 * t);
  w[1] = t * r * r;
  w[2] = t * t * (3.0 - 2.0 * t);
  w[3] = -t * t * r;
}

static void
eval_grid_x(const shape_set* s, double x, int count, double* phi)
{
  double t, w[4];
  const int i = cell(x, s->nx, &t);
  hermite(t, w);
  const size_t m = (size_t)s->stride;
  const double* p = node(s, i, 0, 0);
  for (int n = 0; n < count; ++n)
    phi[n] = w[0] * p[n] + w[1] * p[m + n] + w[2] * p[2 * m + n] +
             w[3] * p[3 * m + n];
}

static void
eval_grid_xy(const shape_set* s, double x, double y, int count, double* phi)
{
  double tx, ty, wx[4], wy[4];
  const int i = cell(x, s->nx, &tx), j = cell(y, s->ny, &ty);
  hermite(tx, wx);
  hermite(ty, wy);
  /* node (i + a, j + b) holds f, hx f_x, hy f_y, hx hy f_xy; a row's two
   * nodes are adjacent: eight runs of modes a row */
  double w[2][8];
  for (int b = 0; b < 2; ++b)
    for (int a = 0; a < 2; ++a) {
      const double vx = wx[2 * a], sx = wx[2 * a + 1];
      const double vy = wy[2 * b], sy = wy[2 * b + 1];
      w[b][4 * a + 0] = vx * vy;
      w[b][4 * a + 1] = sx * vy;
      w[b][4 * a + 2] = vx * sy;
      w[b][4 * a + 3] = sx * sy;
    }
  const size_t m = (size_t)s->stride;
  const double* r0 = node(s, i, j, 0);
  const double* r1 = node(s, i, j + 1, 0);
  for (int n = 0; n < count; ++n) {
    double acc = 0.0;
    for (int c = 0; c < 8; ++c)
      acc += w[0][c] * r0[c * m + n] + w[1][c] * r1[c * m + n];
    phi[n] = acc;
  }
}

/* sin(k pi x), k = 1 .. count, by sin((k+2) t) = 2 cos 2t sin(k t) -
 * sin((k-2) t): odd and even k on two chains, each half as long as one
 * (rounding grows as k^2 eps: 2e-12 at k = 128) */
static void
sines(double x, int count, double* out)
{
  const double c2 = 2.0 * cos_pi(2.0 * x);
  double odd_prev = -sin_pi(x), odd = -odd_prev; /* sin(-t), sin(t) */
  double even_prev = 0.0, even = sin_pi(2.0 * x);
  int k = 0;
  for (; k + 1 < count; k += 2) {
    out[k] = odd;
    out[k + 1] = even;
    const double odd_next = c2 * odd - odd_prev;
    const double even_next = c2 * even - even_prev;
    odd_prev = odd;
    odd = odd_next;
    even_prev = even;
    even = even_next;
  }
  if (k < count)
    out[k] = odd;
}

/* one mode past the bar's grid: its factors at x, and the step to the
 * mode after next */
typedef struct bar_chain {
  double c, s, e1, e2;
} bar_chain;

static double
bar_mode_at(const shape_set* s, int n, const bar_chain* b)
{
  return s->coef[0][n] * b->c + s->coef[1][n] * b->s + s->coef[2][n] * b->e1 +
         s->coef[3][n] * b->e2;
}

static void
bar_chain_step(bar_chain* b, double rc, double rs, double q1, double q2)
{
  const double c = b->c * rc - b->s * rs;
  b->s = b->s * rc + b->c * rs;
  b->c = c;
  b->e1 *= q1;
  b->e2 *= q2;
}

static void
eval_bar(const shape_set* s, double x, int count, double* phi)
{
  const int held = count < s->stride ? count : s->stride;
  eval_grid_x(s, x, held, phi);
  if (count <= held)
    return;
  /* beta ~ (2n + 3) pi / 2 (free) or (2n + 1) pi / 2 (clamped) from
   * BAR_GRID_MODES on: cos and sin of beta x turn by pi x a mode, the
   * exponentials shrink by e^{-pi x} and e^{-pi (1 - x)}; even and odd
   * modes on two chains that step two modes at a time */
  const double half_turns =
      2.0 * BAR_GRID_MODES + (s->family == SHAPE_BAR_CLAMPED ? 1.0 : 3.0);
  const double beta = 0.5 * DSP_PI * half_turns;
  const double rc = cos_pi(x), rs = sin_pi(x);
  const double q1 = exp(-DSP_PI * x), q2 = exp(-DSP_PI * (1.0 - x));
  bar_chain a = {cos_pi(0.5 * half_turns * x), sin_pi(0.5 * half_turns * x),
                 exp(-beta * x), exp(-beta * (1.0 - x))};
  bar_chain b = a;
  bar_chain_step(&b, rc, rs, q1, q2);
  const double rc2 = cos_pi(2.0 * x), rs2 = sin_pi(2.0 * x);
  const double q12 = q1 * q1, q22 = q2 * q2;
  int n = held;
  for (; n + 1 < count; n += 2) {
    phi[n] = bar_mode_at(s, n, &a);
    phi[n + 1] = bar_mode_at(s, n + 1, &b);
    bar_chain_step(&a, rc2, rs2, q12, q22);
    bar_chain_step(&b, rc2, rs2, q12, q22);
  }
  if (n < count)
    phi[n] = bar_mode_at(s, n, &a);
}

static void
eval_membrane(const shape_set* s, double x, double y, int count, double* phi)
{
  double cm[SHAPE_MAX_MODES + 1]; /* cos(2 pi m y) */
  const double c1 = cos_pi(2.0 * y);
  cm[0] = 1.0;
  cm[1] = c1;
  for (int m = 1; m < s->index_max; ++m)
    cm[m + 1] = 2.0 * c1 * cm[m] - cm[m - 1];
  const int cells = s->nx - 1;
  const size_t orders = (size_t)s->stride;
  for (int n = 0; n < count; ++n) {
    const int m = s->index_a[n];
    const double u = x * s->zscale[n];
    int i = (int)u;
    i = i < cells - 1 ? i : cells - 1;
    double w[4];
    hermite(u - i, w);
    const double* p = s->grid + (size_t)i * 2 * orders + (size_t)m;
    phi[n] = cm[m] * (w[0] * p[0] + w[1] * p[orders] + w[2] * p[2 * orders] +
                      w[3] * p[3 * orders]);
  }
}

void
shape_set_eval(const shape_set* s, double x, double y, int count, double* phi)
{
  if (!s)
    return;
  count = count < s->modes ? count : s->modes;
  if (count <= 0)
    return;
  x = clamp01(x);
  y = clamp01(y);
  switch (s->family) {
  case SHAPE_STRING:
    sines(x, count, phi);
    break;
  case SHAPE_BAR_FREE:
  case SHAPE_BAR_CLAMPED:
    eval_bar(s, x, count, phi);
    break;
  case SHAPE_MEMBRANE:
    eval_membrane(s, x, y, count, phi);
    break;
  case SHAPE_PLATE: {
    double sx[SHAPE_MAX_MODES], sy[SHAPE_MAX_MODES];
    sines(x, s->index_max, sx);
    sines(y, s->index_max, sy);
    for (int n = 0; n < count; ++n)
      phi[n] = sx[s->index_a[n] - 1] * sy[s->index_b[n] - 1];
    break;
  }
  case SHAPE_TABLE:
    if (s->is_2d)
      eval_grid_xy(s, x, y, count, phi);
    else
      eval_grid_x(s, x, count, phi);
    break;
  default:
    for (int n = 0; n < count; ++n)
      phi[n] = 0.0;
    break;
  }
}
