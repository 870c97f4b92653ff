/* SPDX-License-Identifier: ISC */
#include "friction.h"

#include "dsp_util.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* time constant of the anchor (bow velocity) and normal force glides */
static const double glide_s = 0.005;

static double
sign(double x)
{
  return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : 0.0;
}

/* |z_ss|(v) = (f_c + (f_s - f_c) e^{-(v/v_s)^2}) / sigma0, eq 8.17 */
static double
steady_magnitude(const elasto_plastic* law, double fn, double v,
                 double* dm_dv)
{
  const double fc = law->mu_d * fn, fs = law->mu_s * fn;
  const double r = v / law->stribeck;
  const double e = exp(-r * r);
  /* eq 8.48 without the sign: d|z_ss|/dv */
  *dm_dv = (fs - fc) * e * (-2.0 * r / law->stribeck) / law->sigma0;
  return (fc + (fs - fc) * e) / law->sigma0;
}

double
ep_steady_z(const elasto_plastic* law, double fn, double v, double* dz_dv)
{
  double dm;
  const double m = steady_magnitude(law, fn, v, &dm);
  *dz_dv = sign(v) * dm;
  return sign(v) * m;
}

/* breakaway displacement, eq 8.28.  z_ba < min_v z_ss must hold for alpha
 * to be defined; the printed c mu_d f_N / sigma0 assumes mu_s >= mu_d, so
 * the smaller coefficient is used. */
static double
breakaway(const elasto_plastic* law, double fn)
{
  const double mu = law->mu_d < law->mu_s ? law->mu_d : law->mu_s;
  return law->breakaway * mu * fn / law->sigma0;
}

double
ep_zdot(const elasto_plastic* law, double fn, double v, double z, double* d_dv,
        double* d_dz)
{
  if (v == 0.0) {
    *d_dv = 1.0;
    *d_dz = 0.0;
    return 0.0;
  }
  double m_v;
  const double m = steady_magnitude(law, fn, v, &m_v);
  const double a = fabs(z);
  const double zba = breakaway(law, fn);
  /* alpha and its partials in |z| and in |z_ss| (eqs 8.18-8.19, 8.46-8.47);
   * zero unless z and v agree in sign and |z| passed breakaway */
  double alpha = 0.0, alpha_a = 0.0, alpha_m = 0.0;
  if (sign(z) == sign(v) && a > zba) {
    if (a >= m) {
      alpha = 1.0;
    } else {
      const double span = m - zba;
      const double u = (a - 0.5 * (m + zba)) / span;
      const double c = 0.5 * DSP_PI * cos(DSP_PI * u);
      alpha = 0.5 * (1.0 + sin(DSP_PI * u));
      alpha_a = c / span;
      alpha_m = c * (zba - a) / (span * span);
    }
  }
  /* z' = v (1 - phi), phi = alpha |z| / |z_ss| */
  const double phi = alpha * a / m;
  const double dphi_dv = a * m_v * (m * alpha_m - alpha) / (m * m);
  *d_dv = 1.0 - phi - v * dphi_dv;             /* eq 8.45 */
  *d_dz = -fabs(v) / m * (a * alpha_a + alpha); /* eq 8.45 */
  return v * (1.0 - phi);
}

void
friction_init(friction* fr, double sample_rate, uint64_t seed)
{
  memset(fr, 0, sizeof(*fr));
  fr->sample_rate = sample_rate;
  fr->law = (elasto_plastic){1e4, 0.1, 0.1, 0.0, 0.8, 0.3, 0.1, 0.7};
  fractal_init(&fr->noise, sample_rate, seed);
  modal_init(&fr->exciter, sample_rate);
  friction_set_exciter(fr, 0.01, FRICTION_DRIVE_VELOCITY);
  friction_set_noise(fr, 1.0);
}

void
friction_set_law(friction* fr, elasto_plastic law)
{
  fr->law = law;
}

void
friction_set_exciter(friction* fr, double mass, friction_drive drive)
{
  if (drive != fr->drive && drive == FRICTION_DRIVE_FORCE)
    fr->exciter_v = fr->anchor_v + fr->exciter.v[0]; /* keep its motion */
  fr->drive = drive;
  if (mass != fr->exciter_mass) {
    fr->exciter_mass = mass;
    /* the drive spring as one mode of the exciter in the anchor's frame */
    const double w0 = 2.0 * DSP_PI * FRICTION_DRIVE_FREQ;
    const double zeta = FRICTION_DRIVE_DAMPING;
    modal_set_count(&fr->exciter, 1);
    modal_set_mass(&fr->exciter, mass);
    modal_set_mode(&fr->exciter, 0, FRICTION_DRIVE_FREQ * sqrt(1 - zeta * zeta),
                   1.0 / (zeta * w0), 1.0);
    modal_update(&fr->exciter);
    fr->object_changed = true;
  }
}

void
friction_set_motion(friction* fr, double bow_velocity, double ext_force)
{
  fr->bow_velocity = bow_velocity;
  fr->ext_force = ext_force;
}

void
friction_set_normal_force(friction* fr, double normal_force)
{
  fr->normal_force = normal_force > 0.0 ? normal_force : 0.0;
}

void
friction_set_noise(friction* fr, double beta)
{
  fractal_set(&fr->noise, beta, 10.0, 0.4 * fr->sample_rate, 2);
}

void
friction_reset(friction* fr)
{
  fr->z = fr->zdot = fr->force = fr->v = fr->fn = fr->relax = 0.0;
  fr->exciter_v = fr->anchor_v = 0.0;
  modal_reset(&fr->exciter);
}

bool
friction_is_finite(const friction* fr)
{
  return isfinite(fr->z) && isfinite(fr->zdot) && isfinite(fr->force) &&
         isfinite(fr->exciter_v) && isfinite(fr->anchor_v) &&
         modal_is_finite(&fr->exciter);
}

/* Solve z'1 = z'(v_t + k1 z'1, z_t + kz z'1) by Newton ([ch8] 8.A.2,
 * eqs 8.41, 8.44) from `guess`.  z' has kinks where v changes sign, so:
 * a step may move z by at most a few bristle lengths (the largest steady
 * deflection f_s / sigma0, plus the deflection there is); the root is kept
 * in a bracket once the residual has taken both signs; and a Newton step
 * leaving the bracket, or not halving the residual, is replaced by a
 * secant step inside it (regula falsi, Illinois modification). */
static double
solve_zdot(friction* fr, double fn, double v_t, double k1, double z_t,
           double kz, double guess)
{
  const elasto_plastic* law = &fr->law;
  const double reach =
    (2.0 * fmax(law->mu_s, law->mu_d) * fn / law->sigma0 + fabs(z_t)) / kz;
  double x = guess, lo = 0.0, hi = 0.0, g_lo = 0.0, g_hi = 0.0;
  bool have_lo = false, have_hi = false, converged = false;
  double last_g = INFINITY, last_change = INFINITY;
  int it = 1;
  for (; it <= FRICTION_NEWTON_CAP; ++it) {
    double d_dv, d_dz;
    const double g = ep_zdot(law, fn, v_t + k1 * x, z_t + kz * x, &d_dv, &d_dz) - x;
    if (g == 0.0) {
      converged = true;
      break;
    }
    if (g > 0.0) {
      lo = x;
      g_lo = g;
      have_lo = true;
    } else {
      hi = x;
      g_hi = g;
      have_hi = true;
    }
    double next = x - g / (d_dv * k1 + d_dz * kz - 1.0);
    if (fabs(next - x) > reach)
      next = x + (next > x ? reach : -reach);
    if (have_lo && have_hi) {
      const double a = lo < hi ? lo : hi, b = lo < hi ? hi : lo;
      if (!(next > a && next < b) || fabs(g) > 0.5 * last_g) {
        next = (lo * g_hi - hi * g_lo) / (g_hi - g_lo); /* secant in the bracket */
        if (g > 0.0)
          g_hi *= 0.5; /* Illinois: the end that stays gets half weight */
        else
          g_lo *= 0.5;
      }
    }
    last_g = fabs(g);
    const double change = fabs(next - x);
    const double tolerance = 1e-12 * (fabs(next) + fabs(v_t)) + DBL_MIN;
    x = next;
    /* converged when the step is within tolerance, or when Newton is in
     * its quadratic regime and predicts the next step to be */
    if (change <= tolerance ||
        (last_change < INFINITY && change < 0.1 * last_change &&
         change * change * change <= tolerance * last_change * last_change) ||
        (have_lo && have_hi && fabs(hi - lo) <= 1e-14 * (fabs(x) + fabs(v_t)))) {
      converged = true;
      break;
    }
    last_change = change;
  }
  if (it > FRICTION_NEWTON_CAP)
    it = FRICTION_NEWTON_CAP;
  fr->stats.solves++;
  fr->stats.iterations += (uint64_t)it;
  fr->stats.histogram[it]++;
  if (!converged)
    fr->stats.cap_hits++;
  return x;
}

/* One step of h seconds with the object coefficients c.  f0, z0, z'0 are
 * the values at its start; the unknown is z'1 at its end ([ch8] 8.A.1).
 * The bodies move under the step-average force F = (f0 + f1) / 2, so
 * v1 = v_free + Kv F, and z follows the theta rule
 *     z1 = z0 + h ((1 - theta) z'0 + theta z'1),
 * theta = 1/2 being the trapezoid of eq 8.34.  Then
 *     v1 = v~ + K1 z'1,  z1 = z~ + theta h z'1            (eqs 8.36, 8.39).
 * Where the bristles relax faster than the step resolves (rate lambda =
 * -dz'/dz, h lambda > 2) the trapezoid would ring; theta = 1 - 1 / (h
 * lambda) keeps the relaxation monotone (L-stable as h lambda grows). */
static void
step(friction* fr, modal_object* o, const modal_coeffs* c,
     const modal_coeffs* ex, double h, double anchor_a, double fn, double w)
{
  const elasto_plastic* law = &fr->law;
  const bool velocity_drive = fr->drive == FRICTION_DRIVE_VELOCITY;

  /* free motion over the step */
  double ex_v, ex_bv, px, pv;
  if (velocity_drive) {
    double ex_x;
    modal_predict(&fr->exciter, ex, &ex_x, &ex_v);
    /* in the anchor's frame its acceleration acts as -m a */
    if (anchor_a != 0.0)
      modal_correct(&fr->exciter, ex, -fr->exciter_mass * anchor_a);
    ex_v = fr->anchor_v + fr->exciter.v[0];
    ex_bv = ex->bv[0];
  } else {
    fr->exciter_v += h * fr->ext_force / fr->exciter_mass;
    ex_v = fr->exciter_v;
    ex_bv = h / fr->exciter_mass;
  }
  modal_predict(o, c, &px, &pv);
  const double v_free = ex_v - pv;
  const double kv = -(ex_bv + c->sum_bv);

  double f1 = 0.0, z1 = 0.0, zd1 = 0.0;
  if (fn > 0.0) {
    const double hl = h * fr->relax;
    const double theta = hl > 2.0 ? 1.0 - 1.0 / hl : 0.5;
    const double kz = theta * h;
    const double z_t = fr->z + (1.0 - theta) * h * fr->zdot;
    const double den = 1.0 - 0.5 * kv * law->sigma2;
    const double v_t =
      (v_free + 0.5 * kv * (fr->force + law->sigma0 * z_t + law->sigma3 * w)) /
      den;
    const double k1 = 0.5 * kv * (kz * law->sigma0 + law->sigma1) / den;
    /* bristles that cross their whole range within the step end it
     * saturated, at z_ss; otherwise z' changes little from step to step */
    double dm, guess = fr->zdot;
    const double z_ss = ep_steady_z(law, fn, v_t, &dm);
    if (fabs(v_t) * kz > fabs(z_ss))
      guess = (z_ss - z_t) / kz;
    zd1 = solve_zdot(fr, fn, v_t, k1, z_t, kz, guess);
    z1 = z_t + kz * zd1;
    const double v1 = v_t + k1 * zd1;
    f1 = law->sigma0 * z1 + law->sigma1 * zd1 + law->sigma2 * v1 +
         law->sigma3 * w;
    double d_dv, d_dz;
    ep_zdot(law, fn, v1, z1, &d_dv, &d_dz);
    fr->relax = -d_dz;
  }
  const double f = 0.5 * (fr->force + f1);
  if (f != 0.0) {
    modal_correct(o, c, f);
    if (velocity_drive)
      modal_correct(&fr->exciter, ex, -f);
    else
      fr->exciter_v -= ex_bv * f;
  }
  fr->v = v_free + kv * f;
  fr->z = z1;
  fr->zdot = zd1;
  fr->force = f1;
}

/* Sub-steps per sample: the bristles and the exciter form a spring-mass
 * resonance at sqrt(sigma0 / m) / (2 pi); it is kept below a twelfth of
 * the step rate (at most FRICTION_MAX_SUBSTEPS). */
static int
substeps_for(const friction* fr)
{
  const double w = sqrt(fr->law.sigma0 / fr->exciter_mass);
  const double wanted = 12.0 * w / (2.0 * DSP_PI * fr->sample_rate);
  int m = 1;
  while (m < wanted && m < FRICTION_MAX_SUBSTEPS)
    m *= 2;
  return m;
}

void
friction_process(friction* fr, modal_object* o, int frames, float* out_l,
                 float* out_r, double scale)
{
  const double fs = fr->sample_rate;
  const double glide = -expm1(-1.0 / (glide_s * fs));
  double sum_force = 0.0, sum_slip = 0.0;
  int t = 0;
  /* lifted and at rest: the object rings on its own */
  if (fr->normal_force == 0.0 && fr->fn == 0.0 && fr->force == 0.0) {
    modal_ring(o, frames, out_l, out_r, scale);
    fr->anchor_v = fr->bow_velocity;
    t = frames;
  }
  const int m = substeps_for(fr);
  if (m != fr->substeps || fr->object_changed) {
    fr->substeps = m;
    fr->object_changed = false;
    if (m > 1) {
      modal_coeffs_compute(o, 1.0 / (fs * m), &fr->sub);
      modal_coeffs_compute(&fr->exciter, 1.0 / (fs * m), &fr->exciter_sub);
    }
  }
  const modal_coeffs* c = m > 1 ? &fr->sub : &o->audio;
  const modal_coeffs* ex = m > 1 ? &fr->exciter_sub : &fr->exciter.audio;
  const double h = 1.0 / (fs * m);
  for (; t < frames; ++t) {
    const double anchor_before = fr->anchor_v;
    fr->anchor_v += (fr->bow_velocity - fr->anchor_v) * glide;
    fr->fn += (fr->normal_force - fr->fn) * glide;
    if (fr->normal_force == 0.0 && fr->fn < 1e-9)
      fr->fn = 0.0; /* lifted */
    const double w = fr->law.sigma3 != 0.0 ? fractal_next(&fr->noise) : 0.0;
    const double anchor_a = (fr->anchor_v - anchor_before) * fs;
    for (int s = 0; s < m; ++s)
      step(fr, o, c, ex, h, anchor_a, fr->fn, w);
    sum_force += fr->force;
    sum_slip += fr->v;
    double left, right;
    modal_pickups(o, &left, &right);
    out_l[t] += (float)(scale * left);
    out_r[t] += (float)(scale * right);
  }
  if (frames > 0) {
    fr->mean_force = sum_force / frames;
    fr->mean_slip = sum_slip / frames;
  }
}

void
friction_object_changed(friction* fr)
{
  fr->object_changed = true;
}
