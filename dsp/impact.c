/* SPDX-License-Identifier: ISC */
#include "impact.h"

#include "closed_form.h"
#include "dsp_util.h"

#include <math.h>
#include <string.h>

double
hunt_crossley_force(const hunt_crossley* law, double x, double v)
{
  if (!(x > 0.0))
    return 0.0;
  const double f = law->stiffness * pow(x, law->alpha) * (1.0 + law->mu * v);
  return f > 0.0 ? f : 0.0;
}

/* Newton stops when a step changes the force by less than this fraction. */
static const double newton_tolerance = 1e-12;

hc_solution
hunt_crossley_solve(const hunt_crossley* law, double x_free, double v_free,
                    double kx, double kv, double guess)
{
  hc_solution sol = {0.0, 0, true};
  const double k = law->stiffness;
  const double a = law->alpha;
  const double mu = law->mu;
  const double damping_free = 1.0 + mu * v_free;
  if (!(x_free > 0.0) || !(damping_free > 0.0))
    return sol; /* no compression, or only the clamped sticky range */

  /* Bracket [lo, hi]: at hi the compression or 1 + mu v reaches zero. */
  double lo = 0.0;
  double hi = x_free / -kx;
  if (mu > 0.0 && kv < 0.0 && damping_free / (mu * -kv) < hi)
    hi = damping_free / (mu * -kv);

  double f = (guess > lo && guess < hi) ? guess : 0.0;
  for (int it = 1; it <= IMPACT_NEWTON_CAP; ++it) {
    const double x = x_free + kx * f;
    /* 1 + mu v from its free value: near v = -1/mu this keeps g smooth */
    const double damping = damping_free + mu * kv * f;
    const double k_xa1 = k * pow(x, a - 1.0); /* k x^(a-1) */
    const double g = k_xa1 * x * damping - f;
    /* g'(f) = dF/dx K(1) + dF/dv K(2) - 1, [ch8] eqs 8.42-8.43 */
    const double dg = k_xa1 * (a * damping * kx + mu * x * kv) - 1.0;
    if (g > 0.0)
      lo = f;
    else
      hi = f;
    double next = f - g / dg;
    if (!(next >= lo && next <= hi))
      next = 0.5 * (lo + hi); /* keep inside the bracket */
    const double step = fabs(next - f);
    f = next;
    if (step <= newton_tolerance * f || hi - lo <= newton_tolerance * hi) {
      sol.force = f;
      sol.iterations = it;
      return sol;
    }
  }
  sol.force = f;
  sol.iterations = IMPACT_NEWTON_CAP;
  sol.converged = false;
  return sol;
}

void
impact_init(impact* im, double sample_rate)
{
  memset(im, 0, sizeof(*im));
  im->sample_rate = sample_rate;
  im->law = (hunt_crossley){1e9, 1.5, 0.5};
  im->hammer_mass = 0.01;
}

void
impact_set_law(impact* im, hunt_crossley law)
{
  im->law = law;
}

void
impact_set_hammer(impact* im, double mass, double ext_force)
{
  im->hammer_mass = mass;
  im->ext_force = ext_force > 0.0 ? ext_force : 0.0;
}

void
impact_object_changed(impact* im)
{
  im->substeps = 0;
}

void
impact_strike(impact* im, const modal_object* o, double velocity)
{
  double point_x, point_v;
  modal_point(o, &point_x, &point_v);
  im->hammer_x = point_x;
  im->hammer_v = velocity;
  im->hammer_flying = true;
  im->force = im->force_prev = 0.0;
  im->touching = false;
  im->engaged_samples = 0;
  im->x = 0.0;
  im->v = velocity - point_v;
}

void
impact_reset(impact* im, modal_object* o)
{
  im->hammer_flying = false;
  im->hammer_x = im->hammer_v = 0.0;
  im->force = im->force_prev = 0.0;
  im->x = im->v = 0.0;
  im->touching = false;
  im->engaged_samples = 0;
  modal_reset(o);
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
         isfinite(im->force) && isfinite(im->x) && isfinite(im->v);
}

/* ---- free flight ------------------------------------------------------ */

/* Whole samples during which the hammer certainly cannot reach the object:
 * the interaction point stays within `reach` of rest while it vibrates
 * freely, and the hammer follows its parabola. */
static int
clear_samples(impact* im, const modal_object* o, int limit)
{
  if (!im->hammer_flying)
    return limit;
  if (im->touching || im->force != 0.0)
    return 0;
  double reach, speed;
  modal_bounds(o, &reach, &speed);
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
    return limit;
  }
  const double n = floor(t * im->sample_rate);
  return n < (double)limit ? (int)n : limit;
}

static void
fly(impact* im, int frames)
{
  const double t = frames / im->sample_rate;
  const double acc = im->ext_force / im->hammer_mass;
  im->hammer_x += (im->hammer_v + 0.5 * acc * t) * t;
  im->hammer_v += acc * t;
}

/* ---- contact integration ---------------------------------------------- */

/* Sub-steps per sample so that an impact spans about
 * IMPACT_STEPS_PER_CONTACT of them.  Its duration is estimated from the
 * undamped closed form for the effective mass of hammer and interaction
 * point at the fastest possible approach, and from the half period of
 * small oscillations on the contact spring at the current or static
 * compression.  A hammer that has stayed engaged for several times that
 * estimate rests, is pressed or rattles on the object: there the A-stable
 * trapezoid rule needs no transient accuracy, and IMPACT_RESTING_SUBSTEPS
 * keeps the cost of a sustained interaction bounded. */
static void
choose_substeps(impact* im, const modal_object* o)
{
  const double fs = im->sample_rate;
  const hunt_crossley* law = &im->law;
  double reach, speed;
  modal_bounds(o, &reach, &speed);
  if (im->substeps == 0) /* the object changed */
    im->point_mass = modal_point_mass(o);
  const double m_eff = 1.0 / (1.0 / im->hammer_mass + 1.0 / im->point_mass);

  double tau = INFINITY;
  const double approach = fabs(im->hammer_v) + speed;
  if (approach > 0.0) {
    if (law->alpha != im->shape_alpha) {
      im->shape_alpha = law->alpha;
      im->shape = hc_contact_time_undamped(1.0, 1.0, law->alpha, 1.0);
    }
    /* the undamped contact time scales as (m/k)^(1/q) v^((1-q)/q) */
    const double q = law->alpha + 1.0;
    tau = im->shape * pow(m_eff / law->stiffness, 1.0 / q) *
          pow(approach, (1.0 - q) / q);
  }
  double x_rest = im->ext_force > 0.0
                    ? pow(im->ext_force / law->stiffness, 1.0 / law->alpha)
                    : 0.0;
  if (im->x > x_rest)
    x_rest = im->x;
  if (x_rest > 0.0) {
    const double k_lin =
      law->alpha * law->stiffness * pow(x_rest, law->alpha - 1.0);
    const double half_period = DSP_PI * sqrt(m_eff / k_lin);
    if (half_period < tau)
      tau = half_period;
  }

  const double wanted = IMPACT_STEPS_PER_CONTACT / (tau * fs);
  const bool resting =
    im->engaged_samples > 64 && im->engaged_samples > 4.0 * tau * fs;
  const int most = resting ? IMPACT_RESTING_SUBSTEPS : IMPACT_MAX_SUBSTEPS;
  int m = 1;
  while (m < wanted && m < most)
    m *= 2;
  /* keep the current set unless it is too coarse or 4x too fine */
  if (!resting && im->substeps > 0 && m <= im->substeps && 4 * m > im->substeps)
    m = im->substeps;
  if (m != im->substeps) {
    modal_coeffs_compute(o, 1.0 / (fs * m), &im->sub);
    im->substeps = m;
  }
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
    const double th = hermite_root(x0, v0 * h, x1, v1 * h);
    const double release = t0 + th / m;
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
    c->rebound_velocity = hermite_slope(x0, v0 * h, x1, v1 * h, th) / h;
    c->contact_time = (release - im->onset) / im->sample_rate;
    c->peak_force = peak;
    c->serial++;
  }
  im->touching = touching;
}

static void
engaged_sample(impact* im, modal_object* o, float* out_l, float* out_r,
               double scale)
{
  choose_substeps(im, o);
  const int m = im->substeps;
  const double h = 1.0 / (im->sample_rate * m);
  const double fe = im->ext_force;
  const double hx = h * h / (4.0 * im->hammer_mass); /* hammer b(1) */
  const double hv = h / (2.0 * im->hammer_mass);     /* hammer b(2) */
  /* [ch8] eq 8.32: the compression responds to the current force by K */
  const double kx = -(hx + im->sub.sum_bx);
  const double kv = -(hv + im->sub.sum_bv);

  double px, pv;
  modal_point(o, &px, &pv);
  double x0 = im->hammer_x - px;
  double v0 = im->hammer_v - pv;

  for (int s = 0; s < m; ++s) {
    const double fp = im->force;
    /* computable parts: every force but the current one */
    const double hammer_v = im->hammer_v + hv * (2.0 * fe - fp);
    const double hammer_x = im->hammer_x + h * im->hammer_v + hx * (2.0 * fe - fp);
    modal_predict(o, &im->sub, fp, &px, &pv);
    const double xf = hammer_x - px;
    const double vf = hammer_v - pv;

    double f = 0.0;
    if (xf > 0.0) {
      const double guess = 2.0 * fp - im->force_prev;
      const hc_solution sol =
        hunt_crossley_solve(&im->law, xf, vf, kx, kv, guess);
      f = sol.force;
      if (sol.iterations > 0) {
        im->stats.solves++;
        im->stats.iterations += (uint64_t)sol.iterations;
        im->stats.histogram[sol.iterations]++;
        if (!sol.converged)
          im->stats.cap_hits++;
      }
    }
    if (f != 0.0)
      modal_correct(o, &im->sub, f);
    im->hammer_v = hammer_v - hv * f;
    im->hammer_x = hammer_x - hx * f;
    const double x1 = xf + kx * f;
    const double v1 = vf + kv * f;
    track_contact(im, im->clock + (double)s / m, m, h, x0, v0, xf, vf, x1, v1,
                  f);
    im->force_prev = fp;
    im->force = f;
    x0 = x1;
    v0 = v1;
  }
  im->stats.contact_steps += (uint64_t)m;
  im->engaged_samples++;
  im->x = x0;
  im->v = v0;
  if (!im->touching && im->force == 0.0)
    im->force_prev = 0.0;

  double left, right;
  modal_pickups(o, &left, &right);
  *out_l += (float)(scale * left);
  *out_r += (float)(scale * right);
  im->clock += 1.0;
}

void
impact_process(impact* im, modal_object* o, int frames, float* out_l,
               float* out_r, double scale)
{
  int t = 0;
  while (t < frames) {
    const int clear = clear_samples(im, o, frames - t);
    if (clear > 0) {
      modal_ring(o, clear, out_l + t, out_r + t, scale);
      if (im->hammer_flying)
        fly(im, clear);
      im->engaged_samples = 0;
      im->clock += clear;
      t += clear;
    } else {
      engaged_sample(im, o, out_l + t, out_r + t, scale);
      ++t;
    }
  }
}
