/* SPDX-License-Identifier: ISC */
#include "modal.h"

#include "dsp_util.h"

#include <math.h>
#include <string.h>

void
modal_init(modal_object* o, double sample_rate)
{
  memset(o, 0, sizeof(*o));
  o->sample_rate = sample_rate;
  o->mass = 1.0;
  o->width = 0.5;
  modal_update(o);
}

void
modal_set_mode(modal_object* o, int i, double freq, double decay, double gain)
{
  if (i < 0 || i >= MODAL_MAX_MODES)
    return;
  o->freq[i] = freq;
  o->decay[i] = decay;
  o->gain[i] = gain;
}

void
modal_set_count(modal_object* o, int count)
{
  count = count < 0 ? 0 : count > MODAL_MAX_MODES ? MODAL_MAX_MODES : count;
  /* modes leaving the table stop ringing; modes entering it start at rest */
  for (int i = count; i < MODAL_MAX_MODES; ++i)
    o->x[i] = o->v[i] = 0.0;
  o->count = count;
  o->n = (count + MODAL_LANES - 1) & -MODAL_LANES;
}

void
modal_set_mass(modal_object* o, double mass)
{
  o->mass = mass;
}

void
modal_set_width(modal_object* o, double width)
{
  o->width = width;
}

/* Im(phi1(z)) for z = x + j y, phi1(z) = (e^z - 1) / z: by its series for
 * small |z|, where the direct form would cancel. */
static double
im_phi1(double x, double y)
{
  if (x * x + y * y < 0.25) {
    /* sum_k z^k / (k+1)!, 20 terms reach 1e-19 at |z| = 0.5 */
    double tr = 1.0, ti = 0.0, si = 0.0;
    for (int k = 1; k < 20; ++k) {
      const double r = (tr * x - ti * y) / (k + 1);
      ti = (tr * y + ti * x) / (k + 1);
      tr = r;
      si += ti;
    }
    return si;
  }
  /* e^z - 1 = (expm1(x) cos y - 2 sin^2(y/2)) + j e^x sin y */
  const double s2 = sin(0.5 * y);
  const double er = expm1(x) * cos(y) - 2.0 * s2 * s2;
  const double ei = exp(x) * sin(y);
  return (ei * x - er * y) / (x * x + y * y);
}

/* Exact coefficients of one mode over a step h ([ch8] eq 8.1 with
 * g = 2 / t_e and damped frequency 2 pi f): the free motion is the exact
 * flow e^(A h), so the poles are exp((-1/t_e +- j 2 pi f) h) at any step,
 * and a force held constant over the step (the contact force's step
 * average) enters through the exact zero-order-hold response
 * [int_0^h Phi12; Phi12] / m. */
static void
mode_coeffs(double freq, double decay, double inv_mass, double h,
            modal_coeffs* c, int l)
{
  const double sigma = 1.0 / decay;
  const double wd = 2.0 * DSP_PI * freq;
  const double w02 = wd * wd + sigma * sigma;
  const double theta = wd * h;
  const double e = exp(-sigma * h);
  const double cs = e * cos(theta);
  const double sn = e * sin(theta);
  c->a11[l] = cs + sigma / wd * sn;
  c->a12[l] = sn / wd;
  c->a21[l] = -w02 * sn / wd;
  c->a22[l] = cs - sigma / wd * sn;
  c->bx[l] = inv_mass * h * im_phi1(-sigma * h, theta) / wd;
  c->bv[l] = inv_mass * sn / wd;
}

static bool
mode_enabled(const modal_object* o, int l)
{
  return o->freq[l] > 0.0 &&
         o->freq[l] < MODAL_MAX_FREQ_RATIO * o->sample_rate &&
         o->decay[l] > 0.0;
}

void
modal_coeffs_compute(const modal_object* o, double step, modal_coeffs* c)
{
  c->step = step;
  c->sum_bx = 0.0;
  c->sum_bv = 0.0;
  c->sum_right_bv = 0.0;
  c->sum_next_bx = c->sum_next_bv = 0.0;
  c->sum_right_next_bv = 0.0;
  for (int l = 0; l < o->n; ++l) {
    if (l < o->count && mode_enabled(o, l)) {
      const double inv_mass = o->gain[l] > 0.0 ? o->gain[l] / o->mass : 0.0;
      mode_coeffs(o->freq[l], o->decay[l], inv_mass, step, c, l);
      c->sum_bx += c->bx[l];
      c->sum_bv += c->bv[l];
      c->sum_right_bv += o->pickup_r[l] * c->bv[l];
      const double next_bv = c->a21[l] * c->bx[l] + c->a22[l] * c->bv[l];
      c->sum_next_bx += c->a11[l] * c->bx[l] + c->a12[l] * c->bv[l];
      c->sum_next_bv += next_bv;
      c->sum_right_next_bv += o->pickup_r[l] * next_bv;
    } else {
      /* inert: silent and deaf */
      c->a11[l] = c->a12[l] = c->a21[l] = c->a22[l] = 0.0;
      c->bx[l] = c->bv[l] = 0.0;
    }
  }
}

static double static_deflection(const modal_object* o, int l, double force);

void
modal_update(modal_object* o)
{
  for (int l = 0; l < o->n; ++l) {
    const bool on = l < o->count && mode_enabled(o, l);
    if (!on)
      o->x[l] = o->v[l] = 0.0;
    const double wd = 2.0 * DSP_PI * o->freq[l];
    const double w0 =
        on ? sqrt(wd * wd + 1.0 / (o->decay[l] * o->decay[l])) : 0.0;
    o->w0[l] = w0;
    o->inv_w0[l] = on ? 1.0 / w0 : 0.0;
    o->deflection[l] =
        on && o->gain[l] > 0.0 ? static_deflection(o, l, 1.0) : 0.0;
    /* mirror pickup: mode i (1-based) is even under reflection for odd i */
    o->pickup_r[l] = (l % 2 == 0) ? 1.0 : 1.0 - 2.0 * o->width;
  }
  modal_coeffs_compute(o, 1.0 / o->sample_rate, &o->audio);
}

/* The per-mode loops below work on vectors of MODAL_LANES modes (GCC and
 * clang vector extensions; each clone of DSP_VECTOR_CLONES maps them onto
 * its registers).  Mode l sits in lane l % MODAL_LANES, so the even lanes
 * hold the odd-numbered modes (1, 3, ...) and the odd lanes the
 * even-numbered ones: the right pickup, weight 1 on the first and
 * 1 - 2 width on the second, is read off the lanes of the left pickup's
 * sum with no pass of its own. */
typedef double modal_vec
    __attribute__((vector_size(MODAL_LANES * sizeof(double)), may_alias));

/* the arrays are aligned to 64 bytes and padded to whole vectors (macros,
 * not functions, so that no vector crosses a call, whose ABI differs
 * between the clones) */
#define LOAD(p)         (*(const modal_vec*)(p))
#define STORE(p, value) (*(modal_vec*)(p) = (value))

/* The lanes folded pairwise (a tree: short dependency chains for the
 * contact solver waiting on the sums): lane 0 ends with the even lanes'
 * sum, lane 1 with the odd lanes'. */
static DSP_INLINE void
lanes_fold(const modal_vec* a, double* even, double* odd)
{
  double f[MODAL_LANES];
  memcpy(f, a, sizeof(f));
  for (int w = MODAL_LANES / 2; w >= 2; w /= 2)
    for (int k = 0; k < w; ++k)
      f[k] += f[k + w];
  *even = f[0];
  *odd = f[1];
}

static DSP_INLINE double
lanes_sum(const modal_vec* a)
{
  double even, odd;
  lanes_fold(a, &even, &odd);
  return even + odd;
}

/* the pickups from the lanes of the interaction point's velocity sum */
static DSP_INLINE void
lanes_pickups(const modal_object* o, const modal_vec* sv, double* left,
              double* right)
{
  double even, odd;
  lanes_fold(sv, &even, &odd);
  *left = even + odd;
  *right = even + (1.0 - 2.0 * o->width) * odd;
}

/* Free ringing goes by chunks of modes held in registers over up to
 * RING_FRAMES samples, each chunk adding its velocities into one vector per
 * sample; the pickups are read off those sums' lanes at the end.  The
 * arithmetic of each mode and sample is the same however the frames are
 * split, so the output does not depend on the host's blocks. */
enum { RING_FRAMES = 64 };

static DSP_INLINE void
ring_chunk(const modal_coeffs* c, double* x, double* v, int l, int pair,
           int len, modal_vec* acc)
{
  const int k = MODAL_LANES;
  const modal_vec a11 = LOAD(c->a11 + l), a12 = LOAD(c->a12 + l);
  const modal_vec a21 = LOAD(c->a21 + l), a22 = LOAD(c->a22 + l);
  modal_vec x0 = LOAD(x + l), v0 = LOAD(v + l);
  if (pair) {
    const modal_vec b11 = LOAD(c->a11 + l + k), b12 = LOAD(c->a12 + l + k);
    const modal_vec b21 = LOAD(c->a21 + l + k), b22 = LOAD(c->a22 + l + k);
    modal_vec x1 = LOAD(x + l + k), v1 = LOAD(v + l + k);
    for (int t = 0; t < len; ++t) {
      const modal_vec xn0 = a11 * x0 + a12 * v0;
      const modal_vec vn0 = a21 * x0 + a22 * v0;
      const modal_vec xn1 = b11 * x1 + b12 * v1;
      const modal_vec vn1 = b21 * x1 + b22 * v1;
      x0 = xn0;
      v0 = vn0;
      x1 = xn1;
      v1 = vn1;
      acc[t] += vn0 + vn1;
    }
    STORE(x + l + k, x1);
    STORE(v + l + k, v1);
  } else {
    for (int t = 0; t < len; ++t) {
      const modal_vec xn0 = a11 * x0 + a12 * v0;
      const modal_vec vn0 = a21 * x0 + a22 * v0;
      x0 = xn0;
      v0 = vn0;
      acc[t] += vn0;
    }
  }
  STORE(x + l, x0);
  STORE(v + l, v0);
}

DSP_VECTOR_CLONES void
modal_ring(modal_object* o, int frames, float* out_l, float* out_r,
           double scale)
{
  const modal_coeffs* c = &o->audio;
  const int n = o->n;
  modal_vec acc[RING_FRAMES];
  for (int t0 = 0; t0 < frames; t0 += RING_FRAMES) {
    const int len = frames - t0 < RING_FRAMES ? frames - t0 : RING_FRAMES;
    memset(acc, 0, sizeof(acc[0]) * (size_t)len);
    for (int l = 0; l < n; l += 2 * MODAL_LANES) {
      if (l + MODAL_LANES < n)
        ring_chunk(c, o->x, o->v, l, 1, len, acc);
      else
        ring_chunk(c, o->x, o->v, l, 0, len, acc);
    }
    for (int t = 0; t < len; ++t) {
      double left, right;
      lanes_pickups(o, &acc[t], &left, &right);
      out_l[t0 + t] += (float)(scale * left);
      out_r[t0 + t] += (float)(scale * right);
    }
  }
}

DSP_VECTOR_CLONES void
modal_next(const modal_object* o, const modal_coeffs* c, double* point_x,
           double* point_v, double* right_v)
{
  modal_vec sx = {0}, sv = {0};
  for (int l = 0; l < o->n; l += MODAL_LANES) {
    const modal_vec x = LOAD(o->x + l), v = LOAD(o->v + l);
    sx += LOAD(c->a11 + l) * x + LOAD(c->a12 + l) * v;
    sv += LOAD(c->a21 + l) * x + LOAD(c->a22 + l) * v;
  }
  *point_x = lanes_sum(&sx);
  lanes_pickups(o, &sv, point_v, right_v);
}

/* the body of both advances; with_x a constant, so each gets its loop */
static DSP_INLINE void
advance(modal_object* o, const modal_coeffs* c, double force, bool with_x,
        double* point_x, double* point_v, double* right_v)
{
  modal_vec sx = {0}, sv = {0};
  for (int l = 0; l < o->n; l += MODAL_LANES) {
    const modal_vec a11 = LOAD(c->a11 + l), a12 = LOAD(c->a12 + l);
    const modal_vec a21 = LOAD(c->a21 + l), a22 = LOAD(c->a22 + l);
    const modal_vec xc = LOAD(o->x + l) + LOAD(c->bx + l) * force;
    const modal_vec vc = LOAD(o->v + l) + LOAD(c->bv + l) * force;
    const modal_vec xn = a11 * xc + a12 * vc;
    const modal_vec vn = a21 * xc + a22 * vc;
    STORE(o->x + l, xn);
    STORE(o->v + l, vn);
    if (with_x)
      sx += a11 * xn + a12 * vn;
    sv += a21 * xn + a22 * vn;
  }
  if (with_x)
    *point_x = lanes_sum(&sx);
  lanes_pickups(o, &sv, point_v, right_v);
}

DSP_VECTOR_CLONES void
modal_advance(modal_object* o, const modal_coeffs* c, double force,
              double* point_v, double* right_v)
{
  advance(o, c, force, false, NULL, point_v, right_v);
}

DSP_VECTOR_CLONES void
modal_advance_point(modal_object* o, const modal_coeffs* c, double force,
                    double* point_x, double* point_v, double* right_v)
{
  advance(o, c, force, true, point_x, point_v, right_v);
}

DSP_VECTOR_CLONES void
modal_correct(modal_object* o, const modal_coeffs* c, double force)
{
  for (int l = 0; l < o->n; l += MODAL_LANES) {
    STORE(o->x + l, LOAD(o->x + l) + LOAD(c->bx + l) * force);
    STORE(o->v + l, LOAD(o->v + l) + LOAD(c->bv + l) * force);
  }
}

DSP_VECTOR_CLONES void
modal_point(const modal_object* o, double* point_x, double* point_v)
{
  modal_vec sx = {0}, sv = {0};
  for (int l = 0; l < o->n; l += MODAL_LANES) {
    sx += LOAD(o->x + l);
    sv += LOAD(o->v + l);
  }
  *point_x = lanes_sum(&sx);
  *point_v = lanes_sum(&sv);
}

DSP_VECTOR_CLONES void
modal_pickups(const modal_object* o, double* left, double* right)
{
  modal_vec sv = {0};
  for (int l = 0; l < o->n; l += MODAL_LANES)
    sv += LOAD(o->v + l);
  lanes_pickups(o, &sv, left, right);
}

/* mode l's static deflection under a constant force at the point:
 * x'' + 2 sigma x' + (wd^2 + sigma^2) x = f / m_l at rest */
static double
static_deflection(const modal_object* o, int l, double force)
{
  if (force == 0.0 || !(mode_enabled(o, l) && o->gain[l] > 0.0))
    return 0.0;
  const double wd = 2.0 * DSP_PI * o->freq[l], sigma = 1.0 / o->decay[l];
  return force * o->gain[l] / (o->mass * (wd * wd + sigma * sigma));
}

/* For a free damped mode w0^2 y^2 + y'^2 never grows (its derivative is
 * -2 g y'^2), w0^2 = (2 pi f)^2 + 1/t_e^2 being the natural frequency, y
 * the displacement from the mode's rest; so the amplitude
 * sqrt(y^2 + (y'/w0)^2) bounds |y| and w0 times it bounds |y'|, and their
 * sums over the modes bound the interaction point.  Adds the amplitudes of
 * modes l.. (one vector) to *sx and w0 times them to *sv. */
static DSP_INLINE void
amplitudes(const modal_object* o, int l, modal_vec y, modal_vec v,
           modal_vec* sx, modal_vec* sv)
{
  const modal_vec u = v * LOAD(o->inv_w0 + l);
  modal_vec amp = y * y + u * u;
  for (int k = 0; k < MODAL_LANES; ++k)
    amp[k] = sqrt(amp[k]);
  *sx += amp;
  *sv += amp * LOAD(o->w0 + l);
}

static const double bounds_margin = 1e-9; /* for rounding */

DSP_VECTOR_CLONES void
modal_bounds_about(const modal_object* o, double static_force, double* reach,
                   double* speed)
{
  modal_vec sx = {0}, sv = {0};
  for (int l = 0; l < o->n; l += MODAL_LANES)
    amplitudes(o, l, LOAD(o->x + l) - static_force * LOAD(o->deflection + l),
               LOAD(o->v + l), &sx, &sv);
  *reach = (1.0 + bounds_margin) * lanes_sum(&sx);
  *speed = (1.0 + bounds_margin) * lanes_sum(&sv);
}

void
modal_bounds(const modal_object* o, double* reach, double* speed)
{
  modal_bounds_about(o, 0.0, reach, speed);
}

double
modal_point_mass(const modal_object* o)
{
  double inv = 0.0;
  for (int l = 0; l < o->count; ++l)
    if (mode_enabled(o, l) && o->gain[l] > 0.0)
      inv += o->gain[l] / o->mass;
  return inv > 0.0 ? 1.0 / inv : INFINITY;
}

void
modal_press(modal_object* o, double force)
{
  for (int l = 0; l < o->count; ++l)
    o->x[l] += static_deflection(o, l, force);
}

void
modal_settle(modal_object* o, double static_force)
{
  modal_reset(o);
  modal_press(o, static_force);
}

void
modal_reset(modal_object* o)
{
  memset(o->x, 0, sizeof(o->x));
  memset(o->v, 0, sizeof(o->v));
}

DSP_VECTOR_CLONES bool
modal_is_finite(const modal_object* o)
{
  modal_vec s = {0};
  for (int l = 0; l < o->n; l += MODAL_LANES)
    s += LOAD(o->x + l) * 0.0 + LOAD(o->v + l) * 0.0;
  return lanes_sum(&s) == 0.0; /* NaN or Inf anywhere makes the sum NaN */
}

/* modal_correct() and then modal_bounds() of the corrected state, in one
 * pass: what a contact integrator needs at the end of each sample that it
 * leaves in the modes. */
DSP_VECTOR_CLONES void
modal_correct_bounds(modal_object* o, const modal_coeffs* c, double force,
                     double* reach, double* speed)
{
  modal_vec sx = {0}, sv = {0};
  for (int l = 0; l < o->n; l += MODAL_LANES) {
    const modal_vec x = LOAD(o->x + l) + LOAD(c->bx + l) * force;
    const modal_vec v = LOAD(o->v + l) + LOAD(c->bv + l) * force;
    STORE(o->x + l, x);
    STORE(o->v + l, v);
    amplitudes(o, l, x, v, &sx, &sv);
  }
  *reach = (1.0 + bounds_margin) * lanes_sum(&sx);
  *speed = (1.0 + bounds_margin) * lanes_sum(&sv);
}

/* modal_correct() with the force of one step, then the free motion of the
 * next, in one pass (the right pickup comes free, from the lanes). */
DSP_VECTOR_CLONES void
modal_correct_predict(modal_object* o, const modal_coeffs* c, double force,
                      double* point_x, double* point_v, double* right_v)
{
  modal_vec sx = {0}, sv = {0};
  for (int l = 0; l < o->n; l += MODAL_LANES) {
    const modal_vec xc = LOAD(o->x + l) + LOAD(c->bx + l) * force;
    const modal_vec vc = LOAD(o->v + l) + LOAD(c->bv + l) * force;
    const modal_vec xn = LOAD(c->a11 + l) * xc + LOAD(c->a12 + l) * vc;
    const modal_vec vn = LOAD(c->a21 + l) * xc + LOAD(c->a22 + l) * vc;
    STORE(o->x + l, xn);
    STORE(o->v + l, vn);
    sx += xn;
    sv += vn;
  }
  *point_x = lanes_sum(&sx);
  double right;
  lanes_pickups(o, &sv, point_v, &right);
  if (right_v)
    *right_v = right;
}
