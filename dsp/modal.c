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
  for (int i = 0; i < MODAL_MAX_MODES; ++i)
    o->pickup_shape[i] = modal_mirror_shape(i);
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
    o->x[i] = o->v[i] = o->contact_w[i] = o->pickup_l[i] = o->shape_r[i] = 0.0;
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

double
modal_mirror_shape(int i)
{
  /* mode i + 1 (1-based) is even under reflection for even i */
  return i % 2 == 0 ? 1.0 : -1.0;
}

void
modal_set_pickup_shape(modal_object* o, int i, double rho)
{
  if (i < 0 || i >= MODAL_MAX_MODES)
    return;
  o->pickup_shape[i] = rho;
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
  for (int l = 0; l < o->n; ++l) {
    if (l < o->count && mode_enabled(o, l)) {
      const double inv_mass = o->gain[l] > 0.0 ? o->gain[l] / o->mass : 0.0;
      mode_coeffs(o->freq[l], o->decay[l], inv_mass, step, c, l);
    } else {
      /* inert: silent and deaf */
      c->a11[l] = c->a12[l] = c->a21[l] = c->a22[l] = 0.0;
      c->bx[l] = c->bv[l] = 0.0;
    }
  }
  modal_coeffs_weigh(o, c);
}

/* The point's and the pickups' responses to a unit force, summed over the
 * modes: mode l's own response (b) weighed by phi_l(p), where the force
 * acts, and by phi_l where it is read (inert modes add zeros). */
void
modal_coeffs_weigh(const modal_object* o, modal_coeffs* c)
{
  double sbx = 0.0, sbv = 0.0, slbv = 0.0, srbv = 0.0;
  double snbx = 0.0, snbv = 0.0, slnbv = 0.0, srnbv = 0.0;
  if (o->weighted) {
    /* in any order (the point moves every PLACE_POINT_UPDATE samples:
     * this runs as often) */
#pragma omp simd reduction(+ : sbx, sbv, slbv, srbv, snbx, snbv, slnbv, srnbv)
    for (int l = 0; l < o->n; ++l) {
      const double w = o->contact_w[l];
      const double next_bx = c->a11[l] * c->bx[l] + c->a12[l] * c->bv[l];
      const double next_bv = c->a21[l] * c->bx[l] + c->a22[l] * c->bv[l];
      sbx += w * w * c->bx[l];
      sbv += w * w * c->bv[l];
      slbv += w * o->pickup_l[l] * c->bv[l];
      srbv += w * o->pickup_r[l] * c->bv[l];
      snbx += w * w * next_bx;
      snbv += w * w * next_bv;
      slnbv += w * o->pickup_l[l] * next_bv;
      srnbv += w * o->pickup_r[l] * next_bv;
    }
  } else {
    for (int l = 0; l < o->n; ++l) {
      sbx += c->bx[l];
      sbv += c->bv[l];
      srbv += o->pickup_r[l] * c->bv[l];
      const double next_bv = c->a21[l] * c->bx[l] + c->a22[l] * c->bv[l];
      snbx += c->a11[l] * c->bx[l] + c->a12[l] * c->bv[l];
      snbv += next_bv;
      srnbv += o->pickup_r[l] * next_bv;
    }
    slbv = sbv; /* the left pickup is the point */
    slnbv = snbv;
  }
  c->sum_bx = sbx;
  c->sum_bv = sbv;
  c->sum_left_bv = slbv;
  c->sum_right_bv = srbv;
  c->sum_next_bx = snbx;
  c->sum_next_bv = snbv;
  c->sum_left_next_bv = slnbv;
  c->sum_right_next_bv = srnbv;
}

static double static_deflection(const modal_object* o, int l, double force);

/* max of finite weights, inline (fmax is a call, for its NaN rule) */
static inline double
larger(double a, double b)
{
  return a > b ? a : b;
}

/* What the modes' weights give: the right pickup's weights, the bounds'
 * weights and the static deflections; then the audio-rate sums. */
static void
weigh(modal_object* o)
{
  for (int l = 0; l < o->n; ++l) {
    o->deflection[l] =
        o->weighted ? o->contact_w[l] * o->compliance[l] : o->compliance[l];
    if (o->weighted) {
      const double left = o->pickup_l[l];
      o->pickup_r[l] = left + o->width * (o->shape_r[l] - left);
      o->reach_w[l] = fabs(o->contact_w[l]);
      o->speed_w[l] =
          larger(o->reach_w[l], larger(fabs(left), fabs(o->pickup_r[l]))) *
          o->w0[l];
    } else {
      /* (1 - width) + width rho, written so that rho = +1 gives 1 and
       * rho = -1 gives 1 - 2 width exactly, as the lanes' fold does */
      o->pickup_r[l] = 1.0 + o->width * (o->pickup_shape[l] - 1.0);
    }
  }
  /* the right pickup at the left one's mirror point (with shapes: each
   * mode's phi there exactly +-phi at the left, alternating) */
  o->pickup_alternating = true;
  o->pickup_bound = 1.0;
  for (int l = 0; l < o->count; ++l) {
    if (o->weighted) {
      o->pickup_alternating =
          o->pickup_alternating &&
          o->shape_r[l] == modal_mirror_shape(l) * o->pickup_l[l];
    } else {
      o->pickup_alternating =
          o->pickup_alternating && o->pickup_shape[l] == modal_mirror_shape(l);
      o->pickup_bound = fmax(o->pickup_bound, fabs(o->pickup_r[l]));
    }
  }
}

void
modal_update(modal_object* o)
{
  bool tuned = false;
  for (int l = 0; l < o->n; ++l) {
    const bool on = l < o->count && mode_enabled(o, l);
    if (!on)
      o->x[l] = o->v[l] = 0.0;
    const double wd = 2.0 * DSP_PI * o->freq[l];
    const double w0 =
        on ? sqrt(wd * wd + 1.0 / (o->decay[l] * o->decay[l])) : 0.0;
    const double compliance =
        on && o->gain[l] > 0.0 ? static_deflection(o, l, 1.0) : 0.0;
    tuned = tuned || w0 != o->w0[l] || compliance != o->compliance[l];
    o->w0[l] = w0;
    o->inv_w0[l] = on ? 1.0 / w0 : 0.0;
    o->compliance[l] = compliance;
  }
  o->tune_epoch += tuned;
  weigh(o);
  modal_coeffs_compute(o, 1.0 / o->sample_rate, &o->audio);
}

void
modal_set_shapes(modal_object* o, const double* contact, const double* left,
                 const double* right)
{
  /* the loops run to n: the weights past the table are 0 from
   * modal_set_count() */
  const bool pickups = (left && right) || !o->weighted;
  o->weighted = true;
  for (int l = 0; l < o->n; ++l) {
    const bool in = l < o->count;
    o->contact_w[l] = in ? contact[l] : 0.0;
    if (pickups) {
      o->pickup_l[l] = in && left ? left[l] : 0.0;
      o->shape_r[l] = in && right ? right[l] : 0.0;
    }
  }
  weigh(o);
  modal_coeffs_weigh(o, &o->audio);
  o->shapes_epoch++;
}

void
modal_clear_shapes(modal_object* o)
{
  if (!o->weighted)
    return;
  o->weighted = false;
  weigh(o);
  modal_coeffs_weigh(o, &o->audio);
  o->shapes_epoch++;
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

void
modal_bounds(const modal_object* o, double* reach, double* speed)
{
  modal_bounds_about(o, 0.0, reach, speed);
}

double
modal_point_mass(const modal_object* o)
{
  double inv = 0.0;
  if (o->weighted) {
    /* the modes that are off have compliance 0 (modal_update()), and
     * compliance w0^2 = gain / mass: no division per mode (the point
     * moves every PLACE_POINT_UPDATE samples: this runs as often) */
    for (int l = 0; l < o->count; ++l)
      inv += o->contact_w[l] * o->contact_w[l] * o->compliance[l] * o->w0[l] *
             o->w0[l];
  } else {
    for (int l = 0; l < o->count; ++l)
      if (mode_enabled(o, l) && o->gain[l] > 0.0)
        inv += o->gain[l] / o->mass;
  }
  return inv > 0.0 ? 1.0 / inv : INFINITY;
}

void
modal_press(modal_object* o, double force)
{
  for (int l = 0; l < o->count; ++l)
    o->x[l] += o->weighted ? o->contact_w[l] * static_deflection(o, l, force)
                           : static_deflection(o, l, force);
}

void
modal_settle(modal_object* o, double static_force)
{
  modal_reset(o);
  modal_press(o, static_force);
}

bool
modal_has_modes(const modal_object* o)
{
  return o && o->count > 0;
}

void
modal_point_if_any(const modal_object* o, double* point_x, double* point_v)
{
  *point_x = *point_v = 0.0;
  if (modal_has_modes(o))
    modal_point(o, point_x, point_v);
}

void
modal_reset(modal_object* o)
{
  memset(o->x, 0, sizeof(o->x));
  memset(o->v, 0, sizeof(o->v));
}

/* The per-mode loops (modal_kernels.h) are compiled once per instruction
 * set, each with vectors as wide as its registers, and chosen when the
 * library loads (ifunc, as GCC's target_clones do): AVX-512 (8 doubles),
 * AVX2 with FMA (4), the x86-64 baseline (2).  One copy written for 8
 * lanes and cloned would do for AVX-512 alone: GCC builds vectors wider
 * than the registers through memory, which made the AVX2 copy 3-4 times
 * slower than this one.  Elsewhere, one copy of 2 lanes. */
enum { RING_FRAMES = 64 }; /* samples of free ringing held in registers */
static const double bounds_margin = 1e-9; /* for rounding */

/* what an advance over the modes sums (those it is asked for) */
typedef struct advance_sums {
  double point_x, point_v, left_v, right_v; /* the next step's free motion */
  double reach, speed; /* bounds of the vibration as the force left it */
} advance_sums;

#if DSP_DISPATCH
#define KERNEL_EXPORT static KERNEL_TARGET

#define KERNEL_LANES  8
#define KERNEL(name)  name##_v4
#define KERNEL_TARGET __attribute__((target("arch=x86-64-v4")))
#include "modal_kernels.h"
#undef KERNEL_LANES
#undef KERNEL
#undef KERNEL_TARGET

#define KERNEL_LANES  4
#define KERNEL(name)  name##_v3
#define KERNEL_TARGET __attribute__((target("arch=x86-64-v3")))
#include "modal_kernels.h"
#undef KERNEL_LANES
#undef KERNEL
#undef KERNEL_TARGET

#define KERNEL_LANES 2
#define KERNEL(name) name##_v1
#define KERNEL_TARGET
#include "modal_kernels.h"

/* The resolver runs while the program is being loaded, before a
 * sanitizer's runtime is ready: it must not be instrumented. */
#define KERNEL_RESOLVER                                                        \
  __attribute__((no_sanitize_address, no_sanitize_undefined)) static

/* the entry point `name` resolved, once, to the copy for this processor */
#define KERNEL_DISPATCH(name)                                                  \
  KERNEL_RESOLVER __typeof__(name)* name##_resolve(void)                       \
  {                                                                            \
    __builtin_cpu_init();                                                      \
    return __builtin_cpu_supports("x86-64-v4")   ? name##_v4                   \
           : __builtin_cpu_supports("x86-64-v3") ? name##_v3                   \
                                                 : name##_v1;                  \
  }                                                                            \
  __typeof__(name) name __attribute__((ifunc(#name "_resolve")))

KERNEL_DISPATCH(modal_ring);
KERNEL_DISPATCH(modal_ring_with);
KERNEL_DISPATCH(modal_next);
KERNEL_DISPATCH(modal_advance);
KERNEL_DISPATCH(modal_advance_point);
KERNEL_DISPATCH(modal_advance_bounds);
KERNEL_DISPATCH(modal_correct);
KERNEL_DISPATCH(modal_point);
KERNEL_DISPATCH(modal_pickups);
KERNEL_DISPATCH(modal_bounds_about);
KERNEL_DISPATCH(modal_is_finite);
KERNEL_DISPATCH(modal_correct_predict);
#else
#define KERNEL_EXPORT
#define KERNEL_LANES 2
#define KERNEL(name) name
#define KERNEL_TARGET
#include "modal_kernels.h"
#endif
