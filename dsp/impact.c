/* SPDX-License-Identifier: ISC */
#include "impact.h"

#include "closed_form.h"
#include "dsp_util.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* x^a for x > 0.  The contact exponent is usually a half-integer (3/2 for
 * Hertz's spheres, 1, 2, 5/2 ...): then x^a is products and one square
 * root, several times cheaper than pow() on the solver's path. */
static double
contact_power(double x, double a)
{
  const double twice = 2.0 * a;
  if (twice == (double)(int)twice && a > 0.0 && a <= 6.0) {
    double r = ((int)twice & 1) ? sqrt(x) : 1.0;
    for (int n = (int)twice / 2; n > 0; --n)
      r *= x;
    return r;
  }
  return pow(x, a);
}

double
impact_law_force(const impact_law* law, double x, double v)
{
  if (law->kind == IMPACT_FELT)
    return felt_force(&law->felt, x);
  if (!(x > 0.0))
    return 0.0;
  const double f =
      law->stiffness * contact_power(x, law->alpha) * (1.0 + law->mu * v);
  return f > 0.0 ? f : 0.0;
}

double
impact_law_static_compression(const impact_law* law, double load)
{
  if (law->kind == IMPACT_FELT)
    return felt_static_compression(&law->felt, load);
  return load > 0.0 ? pow(load / law->stiffness, 1.0 / law->alpha) : 0.0;
}

void
impact_felt_rest(felt_contact* c, const impact_law* law, double x)
{
  /* a felt at rest has relaxed: its memory is its static force */
  c->q = law->kind == IMPACT_FELT ? felt_force(&law->felt, x) : 0.0;
  c->y = x;
}

/* The law's potential: k x^(a+1) / (a+1), or the relaxed felt's */
static double
law_potential(const impact_law* law, double x)
{
  if (!(x > 0.0))
    return 0.0;
  if (law->kind == IMPACT_FELT)
    return (1.0 - law->felt.epsilon) * felt_potential(&law->felt, x);
  const double q = law->alpha + 1.0;
  return law->stiffness * contact_power(x, q) / q;
}

/* df/dx at x > 0, the contact spring's stiffness there (a felt's as it
 * answers a fast compression, its stiffest) */
static double
law_slope(const impact_law* law, double x)
{
  if (law->kind == IMPACT_FELT)
    return felt_slope(&law->felt, x);
  return law->alpha * law->stiffness * contact_power(x, law->alpha) / x;
}

/* The power law k x^a standing for the law in the estimates of a
 * contact's duration (the sub-step choice): itself, or for a felt the
 * power between its orders, 2 + 2 eta, through K at y0 (exact at eta 0
 * and 1; between them the sub-steps are powers of two anyway) */
static void
law_power(const impact_law* law, double* k, double* a)
{
  if (law->kind == IMPACT_FELT) {
    *a = 2.0 + 2.0 * law->felt.eta;
    *k = law->felt.k / pow(law->felt.y0, *a);
    return;
  }
  *k = law->stiffness;
  *a = law->alpha;
}

double
impact_law_rest_energy(const impact_law* law, double load, double mass,
                       double x, double v)
{
  const double x_s = impact_law_static_compression(law, load);
  const double p_x = law_potential(law, x);
  const double p_s = law->kind == IMPACT_FELT
                         ? law_potential(law, x_s)
                         : load * x_s / (law->alpha + 1.0); /* k x_s^a = load */
  const double energy = 0.5 * mass * v * v + (p_x - p_s - load * (x - x_s));
  return energy > 0.0 ? energy : 0.0; /* U >= 0 but for rounding */
}

/* Newton stops when a step changes the force by less than this fraction. */
static const double newton_tolerance = 1e-12;

/* The powers of 1 + d a step needs, d being the relative compression
 * change over it, accurate for small d: the discrete gradient's
 * ((1 + d)^q - 1) / (q d), q = alpha + 1, and the powers of the
 * compression's end over its start. */
typedef struct power_ratio {
  double g;  /* ((1 + d)^q - 1) / (q d): the discrete gradient / k x0^a */
  double dg; /* g'(d) */
  double ra; /* (1 + d)^a */
  double rb; /* (1 + d)^(a-1) */
} power_ratio;

/* The binomial series of the exponent a, to the 8th power: c[j] =
 * binom(q, j+1) / q = a (a-1)...(a-j+1) / (j+1)!, b[j] = binom(a, j),
 * e[j] = binom(a-1, j), dc[j] = (j+1) c[j+1] (the series of g'). */
typedef impact_series binomials;

static binomials
binomials_of(double a)
{
  static const double inv[10] = {0.0,       1.0,       1.0 / 2.0, 1.0 / 3.0,
                                 1.0 / 4.0, 1.0 / 5.0, 1.0 / 6.0, 1.0 / 7.0,
                                 1.0 / 8.0, 1.0 / 9.0};
  binomials s;
  s.a = a;
  s.c[0] = s.b[0] = s.e[0] = 1.0;
  for (int j = 1; j <= 8; ++j) {
    s.b[j] = s.b[j - 1] * (a - (j - 1)) * inv[j];
    s.c[j] = s.b[j] * inv[j + 1];
    s.dc[j - 1] = j * s.c[j];
    if (j < 8)
      s.e[j] = s.e[j - 1] * (a - j) * inv[j];
  }
  s.twice = a > 0.0 && a <= 6.0 && 2.0 * a == (double)(int)(2.0 * a)
                ? (int)(2.0 * a)
                : 0;
  s.curv = fabs(a * (a - 1.0)) / 3.0;
  const double spread =
      fabs(a - 1.0) > fabs(a - 2.0) ? fabs(a - 1.0) : fabs(a - 2.0);
  s.spread = spread > 1.0 ? spread : 1.0;
  return s;
}

/* contact_power() with the half-integer test done once */
static double
series_power(double x, const binomials* s)
{
  if (s->twice) {
    double r = (s->twice & 1) ? sqrt(x) : 1.0;
    for (int n = s->twice / 2; n > 0; --n)
      r *= x;
    return r;
  }
  return pow(x, s->a);
}

/* Relative compression changes |d| below series_range go by the binomial
 * series (to d^7: the next terms are below 1e-17 for a <= 6); within it
 * the step force's second derivative has the bound step_force() gives,
 * which lets Newton end a step early. */
static const double series_range = 1e-2;

/* sum_j p[j] d^j, j < 8, by Estrin's scheme: the solver waits on it, and
 * its dependency chain is three multiply-adds long where Horner's is
 * seven */
static DSP_INLINE double
estrin7(const double* p, double d, double d2, double d4)
{
  const double p01 = p[0] + p[1] * d, p23 = p[2] + p[3] * d;
  const double p45 = p[4] + p[5] * d, p67 = p[6] + p[7] * d;
  return (p01 + p23 * d2) + (p45 + p67 * d2) * d4;
}

/* 1 + z + ... + z^n, with z^n and z^(n-1) (n >= 1) */
static DSP_INLINE double
geometric_sum(double z, int n, double* power, double* power_below)
{
  double sum = 1.0, zn = 1.0, below = 1.0;
  for (int i = 0; i < n; ++i) {
    below = zn;
    zn *= z;
    sum += zn;
  }
  *power = zn;
  *power_below = below;
  return sum;
}

/* Below |d| = series_range by the binomial series.  Above, for a
 * half-integer or integer a, with z = 1 + d and y = z^(1/2): for a = m + 1/2,
 * (1 + d)^q - 1 = (y - 1) (1 + y + ... + y^(2m+2)), y - 1 = d / (y + 1), so
 * g = S / (q (y + 1)) with S = (1 + z + ... + z^(m+1)) + y (1 + z + ... +
 * z^m), sums of positive terms that lose no digits and are formed beside
 * the square root; for a = m, g = (1 + z + ... + z^m) / q; g' = ((1 + d)^a -
 * g) / d.  For other a through log1p and expm1. */
static DSP_INLINE power_ratio
power_ratio_of(double d, const binomials* s)
{
  power_ratio r;
  const double a = s->a, q = a + 1.0;
  if (fabs(d) < series_range) {
    const double d2 = d * d, d4 = d2 * d2;
    r.g = estrin7(s->c, d, d2, d4);
    r.dg = estrin7(s->dc, d, d2, d4);
    r.ra = estrin7(s->b, d, d2, d4);
    r.rb = estrin7(s->e, d, d2, d4);
    return r;
  }
  const double z = 1.0 + d;
  if (s->twice & 1) {
    const int m = s->twice / 2; /* a = m + 1/2 */
    double zm, zm1;
    const double pm = geometric_sum(z, m, &zm, &zm1);
    const double y = sqrt(z);
    r.g = (pm + zm * z + y * pm) / (q * (y + 1.0));
    r.ra = y * zm;
    r.rb = m > 0 ? y * zm1 : 1.0 / y;
  } else if (s->twice) {
    const int m = s->twice / 2; /* a = m */
    double zm, zm1;
    r.g = geometric_sum(z, m, &zm, &zm1) / q;
    r.ra = zm;
    r.rb = zm1;
  } else {
    const double l = log1p(d);
    r.g = expm1(q * l) / (q * d);
    r.ra = exp(a * l);
    r.rb = r.ra / z;
  }
  r.dg = (r.ra - r.g) / d;
  return r;
}

/* What the steps of one solve share: the start of the step. */
typedef struct step_start {
  double x0, x0a; /* the compression at the start of the step, x0^a */
  double inv_x0;  /* 1 / x0 (x0 > 0) */
  double k_x0a;   /* k x0^a */
  double inv_h;
} step_start;

static DSP_INLINE step_start
step_start_of(const impact_law* law, const binomials* series, double x0,
              double h)
{
  step_start st = {x0, 0.0, 0.0, 0.0, 1.0 / h};
  if (x0 > 0.0) {
    st.x0a = series_power(x0, series);
    st.inv_x0 = 1.0 / x0;
    st.k_x0a = law->stiffness * st.x0a;
  }
  return st;
}

/* The step-average contact force for a compression going from x0 to
 * x0 + dx over a step h, and its derivative in dx.  The elastic part is the
 * discrete gradient of the contact potential P(x) = k x^(a+1) / (a+1) for
 * x > 0, (P(x0 + dx) - P(x0)) / dx, whose work over the step is exactly the
 * change of P; the dissipative part lambda x^a v is discretised as
 * lambda (x0^a + x1^a) / 2 dx / h, whose work is never positive.  The sum
 * is clamped at zero: a hammer cannot pull ([ch8] 8.3.1).  Working with dx
 * rather than x1 keeps the force a smooth function of the unknown even
 * when dx is tiny next to x0.  In a contact that goes on over the step
 * every quotient is by x0, worked out once per solve (step_start): the
 * solver waits on this function, and divisions are long. */
static DSP_INLINE double
step_force(const impact_law* law, const binomials* series, const step_start* st,
           double dx, double* slope, double* size, double* curvature)
{
  const double k = law->stiffness, a = law->alpha, q = a + 1.0;
  const double x0 = st->x0, x0a = st->x0a, inv_h = st->inv_h;
  const double x1 = x0 + dx;
  double elastic = 0.0, d_elastic = 0.0, x1a = 0.0, dx1a = 0.0;
  double ratio_a2 = 1.0; /* (x1 / x0)^(a-2) */
  *curvature = INFINITY;
  if (x0 > 0.0 && x1 > 0.0) {
    const double d = dx * st->inv_x0;
    const power_ratio r = power_ratio_of(d, series);
    elastic = st->k_x0a * r.g;
    d_elastic = st->k_x0a * st->inv_x0 * r.dg;
    x1a = x0a * r.ra;
    dx1a = a * x0a * st->inv_x0 * r.rb;
    ratio_a2 = r.rb / (1.0 + d);
  } else if (x1 > 0.0) { /* onset inside the step */
    x1a = series_power(x1, series);
    dx1a = a * x1a / x1;
    elastic = k * x1a * x1 / (q * dx);
    d_elastic = (k * x1a - elastic) / dx;
  } else if (x0 > 0.0) { /* release inside the step */
    elastic = -k * x0a * x0 / (q * dx);
    d_elastic = -elastic / dx;
  }
  const double lambda = law->mu * k;
  const double mean_xa = 0.5 * (x0a + x1a);
  const double damping = lambda * mean_xa * dx * inv_h;
  const double f = elastic + damping;
  *size = fabs(elastic) + fabs(damping); /* sets the rounding level of f */
  if (!(f > 0.0)) {
    *slope = 0.0;
    return 0.0;
  }
  *slope = d_elastic + lambda * (0.5 * dx1a * dx + mean_xa) * inv_h;
  if (x0 > 0.0 && x1 > 0.0) {
    /* a bound of |G''|: the elastic part's k x0^(a-2) g''(d), in the
     * series' range g'' = 2 c2 + 6 c3 d + 12 c4 d^2 + ..., beyond it from
     * g(d) = int_0^1 (1 + t d)^a dt: |g''| <= |a (a-1)| / 3 max(1,
     * (1 + d)^(a-2)); and the damping part's lambda / (2 h) (2 (x1^a)' +
     * (x1^a)'' dx) */
    double g2;
    const double ad = fabs(dx) * st->inv_x0;
    if (ad < series_range)
      g2 = 2.0 * fabs(series->c[2]) + 6.0 * fabs(series->c[3]) * ad +
           13.0 * fabs(series->c[4]) * ad * ad;
    else
      g2 = series->curv * (ratio_a2 > 1.0 ? ratio_a2 : 1.0);
    const double x0a_2 = x0a * st->inv_x0 * st->inv_x0; /* x0^(a-2) */
    *curvature =
        k * x0a_2 * g2 + lambda * 0.5 * inv_h *
                             (2.0 * fabs(dx1a) + fabs(a * (a - 1.0)) * x0a_2 *
                                                     ratio_a2 * fabs(dx));
  }
  return f;
}

/* Newton's next iterate kept inside the bracket [lo, hi], else halved: a
 * root on its edge may be overshot by rounding (when kx F is below an ulp
 * of the compression), by `rounding` or newton_tolerance of hi */
static DSP_INLINE double
in_bracket(double next, double lo, double hi, double rounding)
{
  const double slack_f = newton_tolerance * hi;
  const double slack = slack_f > rounding ? slack_f : rounding;
  if (next > hi)
    return next - hi <= slack ? hi : 0.5 * (lo + hi);
  if (next < lo)
    return lo - next <= slack ? lo : 0.5 * (lo + hi);
  if (!(next == next))
    return 0.5 * (lo + hi);
  return next;
}

/* impact_solve() with the law's binomial series at hand */
static DSP_INLINE impact_solution
solve(const impact_law* law, const binomials* series, double x0, double dx_free,
      double kx, double h, double guess)
{
  impact_solution sol = {0.0, 0, true};
  if (!(x0 > 0.0) && !(x0 + dx_free > 0.0))
    return sol; /* no compression at either end of the step */
  const step_start st = step_start_of(law, series, x0, h);
  double slope, size, curvature;
  /* g(f) = G(dx_free + kx f) - f falls from g(0) = G(dx_free) >= 0 (G
   * grows with dx, kx < 0): the root lies in [0, G(dx_free)].  From a
   * positive guess that upper end is only worked out if Newton needs it
   * (in a sustained contact it rarely does). */
  const double spread = series->spread;
  double lo = 0.0, hi = INFINITY, f = guess;
  if (!(guess > 0.0)) {
    hi = step_force(law, series, &st, dx_free, &slope, &size, &curvature);
    if (!(hi > 0.0))
      return sol;
    f = 0.0;
  }
  for (int it = 1; it <= NEWTON_CAP; ++it) {
    const double force = step_force(law, series, &st, dx_free + kx * f, &slope,
                                    &size, &curvature);
    const double g = force - f;
    /* done when the residual is down to the rounding of its own terms
     * (near v = -1/mu elastic and damping forces nearly cancel) */
    if (fabs(g) <= 8.0 * DBL_EPSILON * (size + f)) {
      sol.force = f;
      sol.iterations = it;
      return sol;
    }
    if (g > 0.0)
      lo = f;
    else
      hi = f;
    const double dg = slope * kx - 1.0;
    double next = f - g / dg;
    /* final without another evaluation when the error Newton leaves,
     * |g''| step^2 / (2 |g'|), is well below the tolerance: the step stays
     * where the bound of g'' = G'' kx^2 holds (G > 0; the series' range,
     * or beyond it in contact, the compression moving by so little that
     * its powers in the bound change by 2 % at most), and 10 % allows for
     * G'' moving along it */
    const double step1 = next - f;
    const double dx_now = dx_free + kx * f, dx_next = dx_free + kx * next;
    const bool bound_holds =
        fabs(dx_now) < series_range * x0
            ? fabs(dx_next) < series_range * x0
            : x0 + dx_next > 0.0 &&
                  spread * fabs(kx * step1) <= 0.02 * (x0 + dx_now);
    if (next > 0.0 && bound_holds && force + slope * kx * step1 > 0.0 &&
        1.1 * curvature * kx * kx * step1 * step1 <=
            0.5 * newton_tolerance * next * fabs(dg)) {
      sol.force = next;
      sol.iterations = it;
      return sol;
    }
    if (hi == INFINITY && !(next >= lo && next < INFINITY)) {
      double s2, z2, c2;
      hi = step_force(law, series, &st, dx_free, &s2, &z2, &c2);
      if (!(hi > 0.0))
        return sol; /* no force at all this step */
    }
    next = in_bracket(next, lo, hi, 8.0 * DBL_EPSILON * (size + hi));
    const double step = fabs(next - f);
    f = next;
    if (step <= newton_tolerance * f ||
        (hi < INFINITY && hi - lo <= newton_tolerance * hi)) {
      sol.force = f;
      sol.iterations = it;
      return sol;
    }
  }
  sol.force = f;
  sol.iterations = NEWTON_CAP;
  sol.converged = false;
  return sol;
}

/* A felt's step force: the static law's discrete gradient less the
 * memory (felt.h), and Hunt-Crossley's damping on the static force,
 * mu f(x) v, discretised as its: c (f(x0) + f(x1)) dx with c = mu / (2 h);
 * clamped at zero.  It grows with x1: f is convex with f(0) = 0, so
 * f(x0) + f(x1) + f'(x1) (x1 - x0) >= 2 f(x1).  In units of y0 (a = x0 /
 * y0, b = x1 / y0, cu = c y0), with its slope in b if asked. */
static DSP_INLINE double
felt_force_at(felt_scaled law, const felt_step* st, double q, double cu,
              double a, double f0, double b, double* slope)
{
  const double f1 = felt_scaled_force(law, b);
  const double f = st->share * felt_scaled_gradient(law, a, b) -
                   st->memory * q + cu * (f0 + f1) * (b - a);
  if (!(f > 0.0)) {
    if (slope)
      *slope = 0.0;
    return 0.0;
  }
  if (slope)
    *slope = st->share * felt_scaled_gradient_slope(law, a, b) +
             cu * (f0 + f1 + felt_scaled_slope(law, b) * (b - a));
  return f;
}

/* The same solve for a felt whose own compression y0 (felt.h) may stand
 * ahead of the compression x0 between the bodies: g(f) = F(x0 + dx_free +
 * kx f) - f falls through [0, F(x0 + dx_free)]: Newton kept inside the
 * shrinking bracket.  Worked in units of the felt's y0, without a
 * division on the iterations' chain. */
static impact_solution
solve_felt(const felt_law* felt, const felt_step* st, double q, double mu,
           double h, double x0, double y0, double dx_free, double kx,
           double guess)
{
  impact_solution sol = {0.0, 0, true};
  const double per_y0 = 1.0 / felt->y0;
  const double a = y0 * per_y0, b_free = (x0 + dx_free) * per_y0;
  if (!(a > 0.0) && !(b_free > 0.0))
    return sol;
  const felt_scaled law = felt_scaled_of(felt);
  const double ku = kx * per_y0, cu = 0.5 * mu / h * felt->y0;
  const double f0 = felt_scaled_force(law, a);
  double slope;
  double lo = 0.0, hi = felt_force_at(law, st, q, cu, a, f0, b_free, NULL);
  if (!(hi > 0.0))
    return sol;
  double f = guess > 0.0 && guess < hi ? guess : 0.5 * hi;
  for (int it = 1; it <= NEWTON_CAP; ++it) {
    const double b = b_free + ku * f;
    const double g = felt_force_at(law, st, q, cu, a, f0, b, &slope) - f;
    if (fabs(g) <= 8.0 * DBL_EPSILON * (hi + f)) {
      sol.force = f;
      sol.iterations = it;
      return sol;
    }
    if (g > 0.0)
      lo = f;
    else
      hi = f;
    const double dg = slope * ku - 1.0;
    double next = f - g / dg;
    /* final without another evaluation when the error Newton leaves,
     * |g''| step^2 / (2 |g'|), is well below the tolerance (in contact at
     * both ends: G'' is felt_scaled_gradient_curvature() at most, the
     * damping's cu (2 f'(b) + f''(b) db) at most its value at the larger
     * end) */
    const double b_next = b_free + ku * next;
    const double bm = b > b_next ? b : b_next;
    const double dm =
        fabs(b - a) > fabs(b_next - a) ? fabs(b - a) : fabs(b_next - a);
    if (next > lo && next < hi && a >= 0.0 && b_next >= 0.0 && b >= 0.0 &&
        1.1 *
                (st->share * felt_scaled_gradient_curvature(law, a, bm) +
                 cu * (2.0 * felt_scaled_slope(law, bm) +
                       felt_scaled_bend(law, bm) * dm)) *
                ku * ku * (next - f) * (next - f) <=
            newton_tolerance * next * fabs(dg)) {
      sol.force = next;
      sol.iterations = it;
      return sol;
    }
    next = in_bracket(next, lo, hi, 8.0 * DBL_EPSILON * (hi + f));
    const double step = fabs(next - f);
    f = next;
    if (step <= newton_tolerance * f || hi - lo <= newton_tolerance * hi) {
      sol.force = f;
      sol.iterations = it;
      return sol;
    }
  }
  sol.force = f;
  sol.iterations = NEWTON_CAP;
  sol.converged = false;
  return sol;
}

impact_solution
impact_solve(const impact_law* law, double x0, double dx_free, double kx,
             double h, double guess)
{
  const binomials series = binomials_of(law->alpha);
  return solve(law, &series, x0, dx_free, kx, h, guess);
}

impact_series
impact_series_of(double alpha)
{
  return binomials_of(alpha);
}

DSP_VECTOR_CLONES impact_solution
impact_solve_series(const impact_law* law, const impact_series* series,
                    double x0, double dx_free, double kx, double h,
                    double guess)
{
  return solve(law, series, x0, dx_free, kx, h, guess);
}

void
impact_init(impact* im, double sample_rate)
{
  memset(im, 0, sizeof(*im));
  im->sample_rate = sample_rate;
  im->law = (impact_law){
      .stiffness = 1e8, .alpha = 1.5, .mu = 0.5}; /* the plugin's defaults */
  im->hammer_mass = 0.01;
  im->exciter_mass = INFINITY;
}

/* whether the hammer has modes of its own (impact_set_exciter()) */
static bool
has_exciter(const impact* im)
{
  return modal_has_modes(im->exciter);
}

/* The exciter's displacement and velocity where it touches (0 for a rigid
 * hammer): the hammer touches at hammer_x plus this. */
static void
exciter_point(const impact* im, double* x, double* v)
{
  modal_point_if_any(im->exciter, x, v);
}

/* the exciter rings freely, heard at its level */
static void
ring_exciter(impact* im, int frames, float* out_l, float* out_r, double scale)
{
  if (has_exciter(im))
    modal_ring(im->exciter, frames, out_l, out_r, scale * im->exciter_level);
}

/* the object's free ringing, and the exciter's with it */
static void
ring_both(impact* im, modal_object* o, int frames, float* out_l, float* out_r,
          double scale)
{
  if (has_exciter(im))
    modal_ring_with(o, im->exciter, im->exciter_level, frames, out_l, out_r,
                    scale);
  else
    modal_ring(o, frames, out_l, out_r, scale);
}

/* a new flight starts where the hammer is now */
static void
land_flight(impact* im)
{
  im->flight_x = im->hammer_x;
  im->flight_v = im->hammer_v;
  im->flight_samples = 0;
  im->felt_flight_q = im->felt.q;
}

void
impact_set_law(impact* im, impact_law law)
{
  const bool felt_changed = !felt_law_same(&law.felt, &im->law.felt);
  const bool changed = law.stiffness != im->law.stiffness ||
                       law.alpha != im->law.alpha || law.mu != im->law.mu ||
                       law.kind != im->law.kind || felt_changed;
  if (changed) {
    im->settled = false;  /* another rest */
    im->law_kept = false; /* and other estimates (keep_constants()) */
    im->felt.e_q = NAN;   /* and the felt's energy */
  }
  if (changed && (law.kind == IMPACT_FELT || im->law.kind == IMPACT_FELT) &&
      im->hammer_flying && im->force > 0.0) {
    /* A felt changed under a pushing hammer: the hammer rides to where the
     * new law, relaxed, bears the force it bore, its felt at rest there,
     * so that the change gives no blow (a felt's range reaches far softer
     * and stiffer than Hunt-Crossley's, and a soft felt pressed deep and
     * made hard at once would fire the hammer off with the energy of its
     * new law at that depth; the force, not the static law at the depth,
     * since a relaxed felt bears less). */
    const double x = impact_law_static_compression(&law, im->force);
    im->hammer_x += x - im->x;
    im->x = x;
    impact_felt_rest(&im->felt, &law, x);
    land_flight(im);
  }
  im->law = law;
  if (law.kind == IMPACT_FELT) {
    im->felt.step_h = 0.0; /* worked out again at the next step */
    /* off the object, over a sample (felt_step) */
    im->felt_free_decay =
        felt_step_of(&law.felt, 1.0 / im->sample_rate).free_decay;
  }
}

void
impact_set_hammer(impact* im, double mass, double ext_force)
{
  ext_force = ext_force > 0.0 ? ext_force : 0.0;
  if (mass != im->hammer_mass || ext_force != im->ext_force) {
    im->clear_left = 0; /* the flight changes: decide again */
    im->settled = false;
  }
  im->hammer_mass = mass;
  im->ext_force = ext_force;
  land_flight(im);
}

/* The object changed under the hammer (another point, a mode gone from the
 * table, a displacement rescaled by a retune): the interaction point may
 * have jumped.  A hammer on (or near) the object follows it, so that the
 * compression, and the contact's energy, stay; a hammer that was clear of
 * the object and would now be inside it is put on its surface.  No edit
 * strikes a blow (a stiff contact pressed 2 mm deep at once fires the
 * hammer off at kilometres a second). */
static void
ride_point(impact* im, const modal_object* o)
{
  if (!im->hammer_flying)
    return;
  double px, pv, ex, ev;
  modal_point(o, &px, &pv);
  exciter_point(im, &ex, &ev);
  const double x = im->tracked   ? im->hammer_x + px - im->point_x
                   : im->settled ? px + im->x - ex
                                 : fmin(im->hammer_x, px - ex);
  if (x != im->hammer_x) {
    im->hammer_x = x;
    land_flight(im);
  }
}

void
impact_object_changed(impact* im, const modal_object* o)
{
  ride_point(im, o);
  im->substeps = 0;
  im->sub_m = 0;
  im->tracked = im->carried = false;
  im->settled = false;
  im->clear_left = 0; /* its reach changes */
}

void
impact_set_exciter(impact* im, modal_object* exciter, double level)
{
  im->exciter = exciter;
  im->exciter_level = level;
  im->exciter_sub_m = 0;
  im->substeps = 0; /* its modes in the sub-steps' coefficients */
  im->tracked = false;
  im->settled = false;
  im->clear_left = 0;
}

void
impact_strike(impact* im, const modal_object* o, double velocity)
{
  double point_x, point_v, ex, ev;
  modal_point(o, &point_x, &point_v);
  exciter_point(im, &ex, &ev);
  im->hammer_x = point_x - ex;
  im->hammer_v = velocity;
  im->hammer_flying = true;
  land_flight(im);
  im->clear_left = 0;
  im->tracked = im->carried = false;
  im->settled = false;
  im->force = im->force_prev = im->force_prev2 = 0.0;
  im->touching = false;
  im->engaged_samples = 0;
  im->x = 0.0;
  im->v = velocity + ev - point_v;
}

void
impact_reset(impact* im, modal_object* o)
{
  im->hammer_flying = false;
  im->hammer_x = im->hammer_v = 0.0;
  im->felt.q = im->felt.y = 0.0;
  land_flight(im);
  im->clear_left = 0;
  im->force = im->force_prev = im->force_prev2 = 0.0;
  im->x = im->v = 0.0;
  im->touching = false;
  im->engaged_samples = 0;
  im->tracked = im->carried = false;
  im->settled = false;
  modal_reset(o);
  if (im->exciter)
    modal_reset(im->exciter);
}

bool
impact_is_active(const impact* im)
{
  return im->hammer_flying;
}

bool
impact_is_finite(const impact* im)
{
  return isfinite(im->hammer_x) && isfinite(im->hammer_v) &&
         isfinite(im->force) && isfinite(im->x) && isfinite(im->v) &&
         (!im->exciter || modal_is_finite(im->exciter));
}

/* ---- free flight ------------------------------------------------------ */

/* Whole samples during which the hammer certainly cannot reach the object:
 * the interaction point stays within `reach` of rest while it vibrates
 * freely, and the hammer follows its parabola.  Worked out once per
 * flight (and again after a change), not per block: where the engaged
 * samples start must not depend on how the host splits its blocks. */
static long
clear_samples(impact* im, const modal_object* o)
{
  if (im->touching || im->force != 0.0)
    return 0;
  double reach = im->reach, speed;
  if (!im->tracked)
    modal_bounds(o, &reach, &speed);
  if (has_exciter(im)) { /* the hammer's own vibration reaches out too */
    double exciter_reach, exciter_speed;
    modal_bounds(im->exciter, &exciter_reach, &exciter_speed);
    reach += exciter_reach;
  }
  const double gap = -(reach + 1e-15) - im->hammer_x;
  if (!(gap > 0.0))
    return 0;
  const double acc = im->ext_force / im->hammer_mass;
  const double v0 = im->hammer_v;
  double t;
  if (acc > 0.0) {
    const double disc = sqrt(v0 * v0 + 2.0 * acc * gap);
    t = v0 >= 0.0 ? 2.0 * gap / (v0 + disc) : (disc - v0) / acc;
  } else if (v0 > 0.0) {
    t = gap / v0;
  } else {
    im->hammer_flying = false; /* receding for good: out of play */
    return 0;
  }
  const double n = floor(t * im->sample_rate);
  return n < (double)LONG_MAX / 2 ? (long)n : LONG_MAX / 2;
}

/* The felt off the object since the flight began relaxes with it (from
 * the flight's start, as the parabola: any split of a flight gives the
 * same felt). */
static void
relax_in_air(impact* im)
{
  if (im->law.kind == IMPACT_FELT && im->felt.q != 0.0) {
    im->felt.q = im->felt_flight_q;
    felt_contact_relax(&im->felt, &im->law.felt,
                       pow(im->felt_free_decay, (double)im->flight_samples));
  }
}

/* the parabola from the flight's start, so that any split of a flight
 * gives the same hammer */
static void
fly(impact* im, int frames)
{
  im->flight_samples += frames;
  const double t = (double)im->flight_samples / im->sample_rate;
  const double acc = im->ext_force / im->hammer_mass;
  im->hammer_x = im->flight_x + (im->flight_v + 0.5 * acc * t) * t;
  im->hammer_v = im->flight_v + acc * t;
  relax_in_air(im);
}

/* ---- contact integration ---------------------------------------------- */

/* Sub-steps per sample so that an impact spans about
 * IMPACT_STEPS_PER_CONTACT of them.  Its duration is estimated from the
 * undamped closed form for the effective mass of hammer and interaction
 * point at the fastest possible approach, and from the half period of
 * small oscillations on the contact spring at the current or static
 * compression.  A hammer that has stayed engaged for several times that
 * estimate rests, is pressed or rattles on the object: there the passive,
 * implicit step needs no transient accuracy, so a pressed hammer aims for
 * IMPACT_RESTING_STEPS_PER_CONTACT steps per contact time, and any takes at
 * most IMPACT_RESTING_SUBSTEPS, which keeps the cost of a sustained
 * interaction bounded.  (A free hammer engaged that long is in one slow
 * impact, on a light object, or landing again: it keeps the impact's
 * steps per contact, within that cap.) */
/* A hammer engaged for longer than this many estimated contact times (and
 * this many samples, for very short contacts) no longer bounces off: it
 * rests, is pressed or rattles (a free impact is over within one). */
static const double resting_after_contacts = 4.0;
static const long resting_after_samples = 64;

/* resting sub-step counts 1, 2, 4 ... IMPACT_RESTING_SUBSTEPS */
enum { RESTING_COUNTS = 3 };
_Static_assert(1 << (RESTING_COUNTS - 1) == IMPACT_RESTING_SUBSTEPS,
               "resting_approach[] holds one speed per resting count");

/* what the step choice needs of the parameters alone */
static void
keep_constants(impact* im, const modal_object* o)
{
  const impact_law* law = &im->law;
  if (im->substeps == 0) { /* the object or the exciter changed */
    im->point_mass = modal_point_mass(o);
    im->exciter_mass =
        has_exciter(im) ? modal_point_mass(im->exciter) : INFINITY;
  }
  if (im->law_kept && im->hammer_mass == im->kept_mass &&
      im->ext_force == im->kept_ext_force && im->point_mass == im->kept_point &&
      im->exciter_mass == im->kept_exciter)
    return;
  double stiffness, alpha;
  law_power(law, &stiffness, &alpha);
  im->law_kept = true;
  im->kept_mass = im->hammer_mass;
  im->kept_ext_force = im->ext_force;
  im->kept_point = im->point_mass;
  im->kept_exciter = im->exciter_mass;
  im->series = binomials_of(law->alpha);
  /* the hammer's side: its mass and its modes' in series at the point */
  const double hammer_side =
      has_exciter(im) ? 1.0 / (1.0 / im->hammer_mass + 1.0 / im->exciter_mass)
                      : im->hammer_mass;
  im->m_eff = 1.0 / (1.0 / hammer_side + 1.0 / im->point_mass);
  if (alpha != im->shape_alpha) {
    im->shape_alpha = alpha;
    im->shape = hc_contact_time_undamped(1.0, 1.0, alpha, 1.0);
  }
  /* the undamped contact time scales as (m/k)^(1/q) v^((1-q)/q) */
  const double q = alpha + 1.0;
  im->tau_scale = im->shape * pow(im->m_eff / stiffness, 1.0 / q);
  im->tau_exponent = (1.0 - q) / q;
  im->x_static = impact_law_static_compression(law, im->ext_force);
  im->resting_steps = im->ext_force > 0.0 ? IMPACT_RESTING_STEPS_PER_CONTACT
                                          : IMPACT_STEPS_PER_CONTACT;
  im->half_static =
      im->x_static > 0.0
          ? (law->kind == IMPACT_FELT
                 ? DSP_PI * sqrt(im->m_eff / law_slope(law, im->x_static))
                 : DSP_PI *
                       sqrt(im->m_eff / (law->alpha * law->stiffness *
                                         pow(im->x_static, law->alpha - 1.0))))
          : INFINITY;
  /* tau_scale v^e >= T (e < 0) for v up to (T / tau_scale)^(1/e); none
   * (-1) when the law gives no such bound */
  for (int j = 0; j < RESTING_COUNTS; ++j) {
    const double t = im->resting_steps / ((double)(1 << j) * im->sample_rate);
    const double v = pow(t / im->tau_scale, 1.0 / im->tau_exponent);
    im->resting_approach[j] = im->tau_exponent < 0.0 && v >= 0.0 ? v : -1.0;
    /* half_period(x) >= t for x up to (pi^2 m_eff / (a k t^2))^(1/(a-1))
     * where a > 1 (the contact stiffens as it is compressed) */
    im->resting_compression[j] =
        alpha > 1.0
            ? pow(DSP_PI * DSP_PI * im->m_eff / (alpha * stiffness * t * t),
                  1.0 / (alpha - 1.0))
            : -1.0;
  }
}

/* A hysteretic felt swinging at the angular frequency w bears in phase
 * with its compression the storage stiffness of Stulov's standard linear
 * solid ([borin] 5), f' (1 - r), r = eps / (1 + (w tau)^2): its relaxed
 * stiffness for motion slower than tau, f' for faster.  Its memory moves
 * exactly over any step (felt.h), so the sub-steps need only follow the
 * motion, whose time scale this stiffness sets.  r for a swing, or a blow,
 * of `half` seconds (w = pi / half), worked out from f' (the shortest
 * half, the highest w) so that it errs stiff, towards more sub-steps; 0
 * for the other laws. */
static double
relaxed_share(const impact* im, double half)
{
  if (im->law.kind != IMPACT_FELT || !(im->law.felt.epsilon > 0.0))
    return 0.0;
  const double wt = DSP_PI * im->law.felt.tau / half;
  return im->law.felt.epsilon / (1.0 + wt * wt);
}

/* the half period of small oscillations on the contact spring at
 * compression x > 0, k_lin = a k x^(a-1) (a hysteretic felt's storage
 * stiffness, relaxed_share()) */
static double
half_period(const impact* im, double x)
{
  if (x == im->x_static)
    return im->half_static;
  const double half = DSP_PI * sqrt(im->m_eff / law_slope(&im->law, x));
  const double r = relaxed_share(im, half);
  return r > 0.0 ? half / sqrt(1.0 - r) : half;
}

/* the modes' coefficients at m sub-steps per sample */
static const modal_coeffs*
coeffs_for(const impact* im, const modal_object* o, int m)
{
  return im->sub_m == m ? &im->sub : &o->audio;
}

/* the same for the exciter's */
static const modal_coeffs*
exciter_coeffs_for(const impact* im, int m)
{
  return im->exciter_sub_m == m ? &im->exciter_sub : &im->exciter->audio;
}

/* The modes take the last step's force if they run behind (`carried`), so
 * that others may read them; the motion carried stays valid. */
static void
whole_modes(impact* im, modal_object* o)
{
  if (im->carried && im->applied != im->pending) {
    modal_correct(o, coeffs_for(im, o, im->carried_m),
                  im->pending - im->applied);
    im->applied = im->pending;
  }
}

/* Stop running the modes behind: they are whole, and the motion carried is
 * worked out again on the next engaged sample. */
static void
drop_carried(impact* im, modal_object* o)
{
  whole_modes(im, o);
  im->carried = false;
}

static void
use_substeps(impact* im, modal_object* o, int m)
{
  if (m == im->substeps && im->h_mass == im->hammer_mass)
    return;
  im->h_mass = im->hammer_mass;
  im->h = 1.0 / (im->sample_rate * m);
  im->hx = im->h * im->h / (2.0 * im->hammer_mass);
  im->hv = im->h / im->hammer_mass;
  if (m == im->substeps)
    return;
  drop_carried(im, o); /* with the coefficients it was carried with */
  const double step = 1.0 / (im->sample_rate * m);
  /* one sub-step: the object's own audio-rate coefficients */
  if (im->sub_m != m && !(m == 1 && o->audio.step == step)) {
    modal_coeffs_compute(o, step, &im->sub);
    im->sub_m = m;
  }
  if (has_exciter(im) && im->exciter_sub_m != m &&
      !(m == 1 && im->exciter->audio.step == step)) {
    modal_coeffs_compute(im->exciter, step, &im->exciter_sub);
    im->exciter_sub_m = m;
  }
  im->substeps = m;
}

/* `speed` bounds the interaction point's speed (modal_bounds()) */
static void
choose_substeps(impact* im, modal_object* o, double speed)
{
  keep_constants(im, o);
  const double fs = im->sample_rate;
  const double approach = fabs(im->hammer_v) + speed;
  const double x_rest = im->x > im->x_static ? im->x : im->x_static;
  const long engaged = im->engaged_samples;

  /* Pressed on (x_static > 0) and stiffening (a > 1), the half period is
   * at most half_static, so the test below holds once the hammer has been
   * engaged for resting_after_contacts of those; then the sub-steps follow
   * from thresholds of the compression, without a half period to work out
   * per sample. */
  if (engaged > resting_after_samples &&
      engaged > resting_after_contacts * im->half_static * fs &&
      im->resting_approach[0] >= 0.0 && im->resting_compression[0] >= 0.0) {
    int m = 1;
    for (int j = 0; j < RESTING_COUNTS - 1; ++j, m *= 2)
      if (x_rest <= im->resting_compression[j] &&
          approach <= im->resting_approach[j])
        break;
    use_substeps(im, o, m);
    return;
  }
  const double half = x_rest > 0.0 ? half_period(im, x_rest) : INFINITY;

  /* The contact time tau is at most `half`, so a hammer engaged for
   * resting_after_contacts of those rests whatever the impact estimate
   * (which costs a pow()): then only thresholds of tau matter. */
  if (engaged > resting_after_samples &&
      engaged > resting_after_contacts * half * fs &&
      im->resting_approach[0] >= 0.0) {
    int m = 1;
    for (int j = 0; j < RESTING_COUNTS - 1; ++j, m *= 2)
      if (half * fs * m >= im->resting_steps &&
          approach <= im->resting_approach[j])
        break;
    use_substeps(im, o, m);
    return;
  }

  double tau = half;
  if (approach > 0.0) {
    double t = im->tau_scale * pow(approach, im->tau_exponent);
    /* a hysteretic felt's blow lasts as its storage stiffness makes it,
     * t (1 - r)^(-1/q) (relaxed_share()), at least t (1 + r / q) (1 / q =
     * 1 + tau_exponent), which needs no pow() */
    t *= 1.0 + relaxed_share(im, t) * (1.0 + im->tau_exponent);
    if (t < tau)
      tau = t;
  }
  const bool resting = engaged > resting_after_samples &&
                       engaged > resting_after_contacts * tau * fs;
  const double wanted =
      (resting ? im->resting_steps : IMPACT_STEPS_PER_CONTACT) / (tau * fs);
  const int most = resting ? IMPACT_RESTING_SUBSTEPS : IMPACT_MAX_SUBSTEPS;
  int m = 1;
  while (m < wanted && m < most)
    m *= 2;
  /* keep the current set unless it is too coarse or 4x too fine */
  if (!resting && im->substeps > 0 && m <= im->substeps && 4 * m > im->substeps)
    m = im->substeps;
  use_substeps(im, o, m);
}

/* Cubic Hermite interpolation on [0, 1] of a quantity with values p0, p1
 * and slopes (per unit theta) d0, d1 at the ends. */
static double
hermite(double p0, double d0, double p1, double d1, double t)
{
  const double t2 = t * t;
  const double t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * p0 + (t3 - 2 * t2 + t) * d0 +
         (-2 * t3 + 3 * t2) * p1 + (t3 - t2) * d1;
}

static double
hermite_slope(double p0, double d0, double p1, double d1, double t)
{
  const double t2 = t * t;
  return (6 * t2 - 6 * t) * p0 + (3 * t2 - 4 * t + 1) * d0 +
         (-6 * t2 + 6 * t) * p1 + (3 * t2 - 2 * t) * d1;
}

/* The zero crossing inside [0, 1] (p0 and p1 of opposite sign or p0 = 0),
 * by Newton kept inside a shrinking bracket. */
static double
hermite_root(double p0, double d0, double p1, double d1)
{
  if (p0 == 0.0)
    return 0.0;
  double lo = 0.0;
  double hi = 1.0;
  const double sign_lo = p0 > 0.0 ? 1.0 : -1.0;
  double t = p0 / (p0 - p1); /* linear guess */
  for (int it = 0; it < 60 && hi - lo > 1e-15; ++it) {
    const double p = hermite(p0, d0, p1, d1, t);
    if (p * sign_lo > 0.0)
      lo = t;
    else
      hi = t;
    const double d = hermite_slope(p0, d0, p1, d1, t);
    double next = t - p / d;
    if (!(next > lo && next < hi))
      next = 0.5 * (lo + hi);
    if (fabs(next - t) <= 1e-15)
      return next;
    t = next;
  }
  return t;
}

/* Follow the compression over one sub-step starting at clock time t0
 * (samples) of length 1/m samples: (x0, v0) at its start, (xf, vf) the
 * force-free prediction at its end, (x1, v1) the solution, f the force. */
static void
track_contact(impact* im, double t0, int m, double h, double x0, double v0,
              double xf, double vf, double x1, double v1, double f)
{
  const bool touching = x1 > 0.0;
  if (!im->touching && touching) {
    /* before the onset no force acts: interpolate the free trajectory */
    const double th = hermite_root(x0, v0 * h, xf, vf * h);
    im->onset = t0 + th / m;
    im->onset_velocity = hermite_slope(x0, v0 * h, xf, vf * h, th) / h;
    im->peak = -1.0;
  }
  if (touching || im->touching) {
    /* peak force: the largest sub-step value refined by a parabola through
     * it and its neighbours */
    if (f > im->peak) {
      im->peak_before = im->force;
      im->peak = f;
      im->peak_at = -1.0;
    } else if (im->peak_at < 0.0) {
      im->peak_at = f; /* the value after the peak */
    }
  }
  if (im->touching && !touching) {
    /* After the release only the free relative acceleration a acts, so
     * going back from the end of the step: x1 = v1 u - a u^2 / 2 with u
     * the time since the release, and the rebound velocity is v1 - a u.
     * (The end-of-step velocity carries the exact work of the step.) */
    const double a = (vf - v0) / h;
    const double disc = v1 * v1 - 2.0 * a * x1;
    double u = disc > 0.0 && v1 < 0.0 ? 2.0 * x1 / (v1 - sqrt(disc)) : 0.0;
    u = u < 0.0 ? 0.0 : u > h ? h : u;
    const double release = t0 + (h - u) / h / m;
    double peak = im->peak;
    if (im->peak_at >= 0.0) {
      const double curv = im->peak_before - 2.0 * peak + im->peak_at;
      if (curv < 0.0) {
        const double diff = im->peak_before - im->peak_at;
        peak -= diff * diff / (8.0 * curv);
      }
    }
    impact_contact* c = &im->last;
    c->onset = im->onset / im->sample_rate;
    c->impact_velocity = im->onset_velocity;
    c->rebound_velocity = v1 - a * u;
    c->contact_time = (release - im->onset) / im->sample_rate;
    c->peak_force = peak;
    c->serial++;
  }
  im->touching = touching;
}

/* Whether the hammer certainly stays clear of the object over the next
 * sample: on its free flight, against the interaction point moving at most
 * at the bound `speed`, it does not reach the point's position now. */
static bool
clear_sample(const impact* im, const modal_object* o)
{
  const double T = 1.0 / im->sample_rate;
  if (o->audio.step != T)
    return false;
  const double acc = im->ext_force / im->hammer_mass;
  double closing = im->hammer_v + im->speed, ex = 0.0;
  if (has_exciter(im)) { /* its point moving at most at its speed bound */
    double ev, reach, speed;
    exciter_point(im, &ex, &ev);
    modal_bounds(im->exciter, &reach, &speed);
    closing += speed;
  }
  const double x_most = im->hammer_x + ex - im->point_x +
                        (closing > 0.0 ? closing * T : 0.0) + 0.5 * acc * T * T;
  return x_most < -1e-15;
}

/* A sample without contact force: hammer and modes move freely over it in
 * one step (the modes' exact flow is what their sub-steps compose to), and
 * the bounds of the vibration hold on (free vibration never grows them). */
static void
free_sample(impact* im, modal_object* o, int m, float* out_l, float* out_r,
            double scale)
{
  const double T = 1.0 / im->sample_rate;
  const double acc = im->ext_force / im->hammer_mass;
  double px, pv, pl, pr;
  modal_correct_predict(o, &o->audio, 0.0, &px, &pv, &pl, &pr);
  im->hammer_x += T * im->hammer_v + 0.5 * acc * T * T;
  im->hammer_v += acc * T;
  im->point_x = px;
  im->point_v = pv;
  double ex = 0.0, ev = 0.0;
  if (has_exciter(im)) {
    ring_exciter(im, 1, out_l, out_r, scale);
    exciter_point(im, &ex, &ev);
  }
  im->x = im->hammer_x + ex - px;
  im->v = im->hammer_v + ev - pv;
  if (im->law.kind == IMPACT_FELT)
    felt_contact_relax(&im->felt, &im->law.felt, im->felt_free_decay);
  /* the force history the sub-steps would have left */
  for (int s = 0; s < m && s < 3; ++s) {
    im->force_prev2 = im->force_prev;
    im->force_prev = im->force;
    im->force = 0.0;
  }
  im->contact_steps++;
  im->engaged_samples++;
  *out_l += (float)(scale * pl);
  *out_r += (float)(scale * pr);
  im->clock += 1.0;
}

/* The modes run a step behind the contact (`carried`): each step's free
 * motion of the point is known before the pass over the modes, from the
 * last pass and the last force (modal.h), so that the solve waits on no
 * pass, and the pass of each step, which applies the force of the step
 * before, runs beside it.  The last pass of a sample also bounds the
 * vibration as that force left it, for the next sample's choice of
 * sub-steps and for clear_sample(): the motion since is free where those
 * bounds are read for safety (no force in the last step), and free
 * vibration never grows them.  The point's motion and that bound are
 * carried from one engaged sample to the next (`tracked`) until something
 * else moves the modes. */
/* The step's scalar updates are independent enough for GCC to pack four
 * of them into one vector, with a register move (VEX vmovq) that
 * valgrind 3.19 cannot decode (the memcheck tests stopped on it); packed
 * or not they are the same operations, and the step waits on its solve,
 * not on them. */
#pragma GCC push_options
#pragma GCC optimize("no-tree-slp-vectorize")

/* A felt's sub-step (impact.h): the step's end compression y1 and memory
 * q1 are the felt's as it returns. */
impact_solution
impact_felt_solve(felt_contact* c, const impact_law* contact_law, double h,
                  double x0, double dx_free, double kx, double guess)
{
  const felt_law* law = &contact_law->felt;
  const double mu = contact_law->mu;
  const double q0 = c->q, dent = law->epsilon * q0;
  const double y0 = dent > 0.0 && c->y > x0 ? c->y : x0;
  impact_solution sol =
      solve_felt(law, &c->step, q0, mu, h, x0, y0, dx_free, kx, guess);
  double x1 = x0 + dx_free + kx * sol.force;
  if (law->epsilon == 0.0) {
    c->y = x1;
    return sol;
  }
  double y1, q1;
  if (sol.force > 0.0) {
    /* In contact, the step's energy change is F (x1 - y0) <= F (x1 - x0)
     * less the damping's, plus the memory's moves from q0 to its mean over
     * the step and on to q1 (felt.h): each takes energy where q moves
     * towards f at the compressions it moves at, which holds when q1 stays
     * on the far side of f at both ends (no energy to work out). */
    y1 = x1;
    const double g = felt_gradient(law, y0, x1);
    q1 = felt_step_remember(&c->step, q0, g);
    const double lo = y0 < x1 ? y0 : x1, hi = y0 < x1 ? x1 : y0;
    if (g >= q0 ? q1 <= felt_force(law, lo) : q1 >= felt_force(law, hi)) {
      c->e_q = NAN; /* not worked out */
      c->y = y1;
      c->q = q1;
      return sol;
    }
  }
  if (!(sol.force > 0.0)) {
    /* off the object over the step the felt relaxes exactly (felt_step),
     * which only takes energy: its dent, at the step's end, still ahead of
     * the bodies' compression */
    q1 = c->step.free_decay * q0;
    y1 = felt_compression(law, law->epsilon * q1);
    if (x1 < y1) {
      c->e_q = NAN; /* not worked out */
      c->y = y1;
      c->q = q1;
      return sol;
    }
  }
  /* the felt lets go where it would pull: its dent holds it off */
  const double free_y = felt_compression(law, dent);
  y1 = sol.force > 0.0 || x1 >= free_y ? x1 : free_y;
  q1 = felt_step_memory(law, &c->step, q0, y0, y1);
  const double e0 =
      y0 == c->e_y && q0 == c->e_q ? c->e : felt_energy(law, y0, q0);
  const double e1 = felt_energy(law, y1, q1), gain = e1 - e0;
  const double work = sol.force * (x1 - x0);
  /* within rounding of the energy's terms (felt_energy()) */
  const double terms =
      e0 + fabs(gain) + fabs(work) +
      law->epsilon * (q0 + q1) * (fabs(y0) + fabs(y1) + free_y);
  if (gain <= work + 1e-12 * terms) {
    c->e = e1;
    c->e_y = c->y = y1;
    c->e_q = c->q = q1;
    return sol;
  }
  /* the passive step: the memory held at its start, then moved towards
   * the end's static force */
  const felt_step held = {1.0, law->epsilon, c->step.decay, c->step.free_decay};
  const impact_solution passive =
      solve_felt(law, &held, q0, mu, h, x0, y0, dx_free, kx, sol.force);
  x1 = x0 + dx_free + kx * passive.force;
  c->y = passive.force > 0.0 || x1 >= free_y ? x1 : free_y;
  c->q = held.decay * q0 + (1.0 - held.decay) * felt_force(law, c->y);
  c->passive_steps++;
  c->e_q = NAN; /* not worked out */
  return passive;
}

static DSP_INLINE void
engaged_sample(impact* im, modal_object* o, float* out_l, float* out_r,
               double scale)
{
  if (im->settled) {
    /* the rest impact_settle() left is an exact equilibrium of the
     * discrete system: integrating it would only integrate rounding */
    im->engaged_samples++;
    im->clock += 1.0;
    return;
  }
  if (!im->tracked) {
    modal_point(o, &im->point_x, &im->point_v);
    modal_bounds(o, &im->reach, &im->speed);
    im->tracked = true;
    im->carried = false;
  }
  choose_substeps(im, o, im->speed);
  const int m = im->substeps;
  if (!im->touching && im->force == 0.0 && clear_sample(im, o)) {
    drop_carried(im, o);
    free_sample(im, o, m, out_l, out_r, scale);
    return;
  }
  const modal_coeffs* c = coeffs_for(im, o, m);
  if (!im->carried) {
    modal_next(o, c, &im->next_x, &im->next_v, &im->next_l, &im->next_r);
    im->pending = im->applied = 0.0;
    im->carried = true;
    im->carried_m = m;
  }
  const double h = im->h;
  const double fe = im->ext_force;
  const bool felt = im->law.kind == IMPACT_FELT;
  if (felt)
    felt_contact_step(&im->felt, &im->law.felt, h);
  /* The force acts on both bodies as its step average F: an impulse h F
   * each way, so the momentum they exchange balances exactly.  Per unit F
   * the hammer moves by h^2 / (2 m) and every mode by its b, so the
   * compression responds to F by K ([ch8] eq 8.32): */
  const double hx = im->hx;
  const double hv = im->hv;
  /* The exciter's modes take -F at the hammer's contact point: the
   * compression responds to F through both bodies' compliances ([ch8]
   * 8.3.1), and they run a step behind as the object's do, their free
   * motion over each step predicted with the last step's force
   * (modal_correct_predict()). */
  const bool exciting = has_exciter(im);
  modal_object* e = im->exciter;
  const modal_coeffs* ce = exciting ? exciter_coeffs_for(im, m) : NULL;
  const double e_bx = exciting ? ce->sum_bx : 0.0;
  const double e_bv = exciting ? ce->sum_bv : 0.0;
  const double kx = -(hx + c->sum_bx + e_bx);
  const double kv = -(hv + c->sum_bv + e_bv);
  double ex, ev, e_force = 0.0;
  exciter_point(im, &ex, &ev);

  double px = im->point_x, pv = im->point_v;
  /* the pickups' free motion and the force before the last step, read
   * once after it */
  double last_l = 0.0, last_r = 0.0, last_pending = 0.0;
  double x0 = im->hammer_x + ex - px;
  double v0 = im->hammer_v + ev - pv;
  double next_x = im->next_x, next_v = im->next_v, next_l = im->next_l,
         next_r = im->next_r;
  double pending = im->pending, applied = im->applied;

  for (int s = 0; s < m; ++s) {
    /* computable parts: everything but this step's contact force */
    const double hammer_dx = h * im->hammer_v + hx * fe;
    const double hammer_v = im->hammer_v + hv * fe;
    const double hammer_x = im->hammer_x + hammer_dx;
    const double px_free = next_x + c->sum_next_bx * pending;
    const double pv_free = next_v + c->sum_next_bv * pending;
    double ex_free = ex, ev_free = ev;
    if (exciting)
      modal_correct_predict(e, ce, e_force, &ex_free, &ev_free, NULL, NULL);
    last_l = next_l;
    last_r = next_r;
    last_pending = pending;
    /* the compression's free change, from displacements (no cancellation) */
    const double dx_free = hammer_dx + (ex_free - ex) - (px_free - px);
    const double xf = x0 + dx_free;
    const double vf = hammer_v + ev_free - pv_free;

    const double guess = 3.0 * (im->force - im->force_prev) + im->force_prev2;
    const impact_solution sol =
        felt ? impact_felt_solve(&im->felt, &im->law, h, x0, dx_free, kx, guess)
             : solve(&im->law, &im->series, x0, dx_free, kx, h, guess);
    /* after the solve in program order, so that the processor starts the
     * solve's chain before the pass's many independent operations */
    if (s == m - 1)
      modal_advance_bounds(o, c, pending - applied, &next_x, &next_v, &next_l,
                           &next_r, &im->reach, &im->speed);
    else
      modal_advance_point(o, c, pending - applied, &next_x, &next_v, &next_l,
                          &next_r);
    applied = 0.0;
    const double f = sol.force;
    newton_stats_count(&im->stats, sol.iterations, sol.converged);
    pending = f;
    px = px_free + c->sum_bx * f;
    pv = pv_free + c->sum_bv * f;
    im->hammer_v = hammer_v - hv * f;
    im->hammer_x = hammer_x - hx * f;
    if (exciting) {
      e_force = -f;
      ex = ex_free - e_bx * f;
      ev = ev_free - e_bv * f;
    }
    const double x1 = xf + kx * f;
    const double v1 = vf + kv * f;
    track_contact(im, im->clock + (double)s / m, m, h, x0, v0, xf, vf, x1, v1,
                  f);
    im->force_prev2 = im->force_prev;
    im->force_prev = im->force;
    im->force = f;
    x0 = x1;
    v0 = v1;
  }
  im->next_x = next_x;
  im->next_v = next_v;
  im->next_l = next_l;
  im->next_r = next_r;
  im->pending = pending;
  im->applied = applied;
  im->point_x = px;
  im->point_v = pv;
  im->contact_steps += (uint64_t)m;
  im->engaged_samples++;
  im->x = x0;
  im->v = v0;

  const double pl_free = last_l + c->sum_left_next_bv * last_pending;
  const double pr_free = last_r + c->sum_right_next_bv * last_pending;
  double pl = pl_free + c->sum_left_bv * pending;
  double pr = pr_free + c->sum_right_bv * pending;
  if (exciting) { /* whole again, and heard */
    modal_correct(e, ce, e_force);
    double el, er;
    modal_pickups(e, &el, &er);
    pl += im->exciter_level * el;
    pr += im->exciter_level * er;
  }
  *out_l += (float)(scale * pl);
  *out_r += (float)(scale * pr);
  im->clock += 1.0;
}

/* The object is touched or heard elsewhere (modal_set_shapes()): the
 * sub-step coefficients are re-weighed, and what was kept of the point is
 * worked out again. */
static __attribute__((noinline)) void
follow_shapes(impact* im, modal_object* o)
{
  if (im->shapes_epoch == o->shapes_epoch)
    return;
  im->shapes_epoch = o->shapes_epoch;
  drop_carried(im, o);
  if (im->sub_m > 0)
    modal_coeffs_weigh(o, &im->sub);
  ride_point(im, o);
  im->point_mass = modal_point_mass(o);
  im->tracked = false;
  im->settled = false;
  im->clear_left = 0;
}

DSP_VECTOR_CLONES void
impact_process(impact* im, modal_object* o, int frames, float* out_l,
               float* out_r, double scale)
{
  follow_shapes(im, o);
  int t = 0;
  while (t < frames) {
    if (im->hammer_flying && im->clear_left == 0)
      im->clear_left = clear_samples(im, o);
    if (!im->hammer_flying) {
      /* out of play, its felt still relaxes, for the next strike */
      im->flight_samples += frames - t;
      relax_in_air(im);
      drop_carried(im, o);
      ring_both(im, o, frames - t, out_l + t, out_r + t, scale);
      im->tracked = false;
      im->settled = false;
      im->clock += frames - t;
      break;
    }
    if (im->clear_left > 0) {
      const int clear =
          im->clear_left < frames - t ? (int)im->clear_left : frames - t;
      drop_carried(im, o);
      ring_both(im, o, clear, out_l + t, out_r + t, scale);
      im->tracked = false;
      im->settled = false;
      fly(im, clear);
      im->clear_left -= clear;
      im->engaged_samples = 0;
      im->clock += clear;
      t += clear;
    } else {
      engaged_sample(im, o, out_l + t, out_r + t, scale);
      land_flight(im);
      ++t;
    }
  }
  whole_modes(im, o); /* for whoever reads them before the next call */
}

#pragma GCC pop_options

double
impact_body_unrest(const impact_law* law, double load, double mass,
                   double position, double v, const modal_object* o)
{
  double reach, speed;
  modal_bounds_about(o, load, &reach, &speed);
  if (!(load > 0.0))
    return speed;
  double px, pv;
  modal_point(o, &px, &pv);
  const double energy =
      impact_law_rest_energy(law, load, mass, position - px, v);
  /* the most speed energy E can give the point: sqrt(2 E sum(1 / m_l)) */
  return speed + sqrt(2.0 * energy / modal_point_mass(o));
}

/* the exciter's contact point and the bound of its speed about its rest
 * under `load` (0 for a rigid hammer) */
static double
exciter_unrest(const impact* im, double load, double* x, double* v)
{
  exciter_point(im, x, v);
  double reach, speed = 0.0;
  if (has_exciter(im))
    modal_bounds_about(im->exciter, -load, &reach, &speed);
  return speed;
}

double
impact_unrest(const impact* im, const modal_object* o)
{
  const bool pressed = im->hammer_flying && im->ext_force > 0.0;
  const double load = pressed ? im->ext_force : 0.0;
  double ex, ev;
  const double exciter_speed = exciter_unrest(im, load, &ex, &ev);
  /* the exciter's vibration meets the object's at the contact */
  return impact_body_unrest(&im->law, load, im->hammer_mass, im->hammer_x + ex,
                            im->hammer_v + ev, o) +
         exciter_speed;
}

double
impact_exciter_unrest(const impact* im)
{
  if (!has_exciter(im))
    return 0.0;
  const bool pressed = im->hammer_flying && im->ext_force > 0.0;
  double ex, ev;
  return im->exciter_level * im->exciter->pickup_bound *
         exciter_unrest(im, pressed ? im->ext_force : 0.0, &ex, &ev);
}

void
impact_settle(impact* im, modal_object* o)
{
  if (!(im->hammer_flying && im->ext_force > 0.0)) {
    impact_reset(im, o);
    return;
  }
  const double f = im->ext_force;
  modal_settle(o, f);
  double px, pv, ex, ev;
  modal_point(o, &px, &pv);
  if (has_exciter(im))
    modal_settle(im->exciter, -f); /* the hammer bears the force back */
  exciter_point(im, &ex, &ev);
  im->x = impact_law_static_compression(&im->law, f);
  impact_felt_rest(&im->felt, &im->law, im->x);
  im->v = 0.0;
  im->hammer_x = px + im->x - ex;
  im->hammer_v = 0.0;
  land_flight(im);
  im->clear_left = 0;
  im->force = im->force_prev = im->force_prev2 = f;
  im->touching = true;
  im->tracked = im->carried = false;
  im->settled = true;
}
