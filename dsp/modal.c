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
  o->n = (count + 3) & ~3;
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

/* Bilinear coefficients of one mode with poles placed at
 * p = exp((-1/t_e + j 2 pi f) h).  The continuous mode that the bilinear
 * map s = (2/h)(z - 1)/(z + 1) ([ch8] eq 8.5) sends onto p has
 * s_c = (2/h)(p - 1)/(p + 1), i.e. w_c^2 = |s_c|^2 and g_c = -2 Re s_c;
 * A and b then follow [ch8] eq 8.7 with F_s = 1/h. */
static void
mode_coeffs(double freq, double decay, double inv_mass, double h,
            modal_coeffs* c, int l)
{
  const double theta = 2.0 * DSP_PI * freq * h;
  const double r = exp(-h / decay);
  const double one_minus_r2 = -expm1(-2.0 * h / decay);
  const double den = 1.0 + 2.0 * r * cos(theta) + r * r;
  const double im = 2.0 * r * sin(theta);
  const double fs = 1.0 / h;
  const double w2 = 4.0 * fs * fs * (one_minus_r2 * one_minus_r2 + im * im) /
                    (den * den);
  const double g = 4.0 * fs * one_minus_r2 / den;
  const double delta = fs * fs + 0.5 * fs * g + 0.25 * w2;

  c->a11[l] = (delta - 0.5 * w2) / delta;
  c->a12[l] = fs / delta;
  c->a21[l] = -fs * w2 / delta;
  c->a22[l] = (2.0 * fs * fs - delta) / delta;
  c->bx[l] = inv_mass / (4.0 * delta);
  c->bv[l] = inv_mass * 2.0 * fs / (4.0 * delta);
}

static bool
mode_enabled(const modal_object* o, int l)
{
  return o->freq[l] > 0.0 && o->freq[l] < MODAL_MAX_FREQ_RATIO * o->sample_rate &&
         o->decay[l] > 0.0;
}

void
modal_coeffs_compute(const modal_object* o, double step, modal_coeffs* c)
{
  c->step = step;
  c->sum_bx = 0.0;
  c->sum_bv = 0.0;
  for (int l = 0; l < o->n; ++l) {
    if (l < o->count && mode_enabled(o, l)) {
      const double inv_mass = o->gain[l] > 0.0 ? o->gain[l] / o->mass : 0.0;
      mode_coeffs(o->freq[l], o->decay[l], inv_mass, step, c, l);
      c->sum_bx += c->bx[l];
      c->sum_bv += c->bv[l];
    } else {
      /* inert: silent and deaf */
      c->a11[l] = c->a12[l] = c->a21[l] = c->a22[l] = 0.0;
      c->bx[l] = c->bv[l] = 0.0;
    }
  }
}

void
modal_update(modal_object* o)
{
  for (int l = 0; l < o->n; ++l) {
    if (!(l < o->count && mode_enabled(o, l)))
      o->x[l] = o->v[l] = 0.0;
    /* mirror pickup: mode i (1-based) is even under reflection for odd i */
    o->pickup_r[l] = (l % 2 == 0) ? 1.0 : 1.0 - 2.0 * o->width;
  }
  modal_coeffs_compute(o, 1.0 / o->sample_rate, &o->audio);
}

DSP_VECTOR_CLONES void
modal_ring(modal_object* o, int frames, float* out_l, float* out_r,
           double scale)
{
  const modal_coeffs* c = &o->audio;
  const int n = o->n;
  double* restrict x = o->x;
  double* restrict v = o->v;
  const double* restrict a11 = c->a11;
  const double* restrict a12 = c->a12;
  const double* restrict a21 = c->a21;
  const double* restrict a22 = c->a22;
  const double* restrict pr = o->pickup_r;

  for (int t = 0; t < frames; ++t) {
    double left = 0.0;
    double right = 0.0;
#pragma omp simd reduction(+ : left, right)
    for (int l = 0; l < n; ++l) {
      const double xn = a11[l] * x[l] + a12[l] * v[l];
      const double vn = a21[l] * x[l] + a22[l] * v[l];
      x[l] = xn;
      v[l] = vn;
      left += vn;
      right += pr[l] * vn;
    }
    out_l[t] += (float)(scale * left);
    out_r[t] += (float)(scale * right);
  }
}

DSP_VECTOR_CLONES void
modal_predict(modal_object* o, const modal_coeffs* c, double force_prev,
              double* point_x, double* point_v)
{
  const int n = o->n;
  double* restrict x = o->x;
  double* restrict v = o->v;
  double sx = 0.0;
  double sv = 0.0;
#pragma omp simd reduction(+ : sx, sv)
  for (int l = 0; l < n; ++l) {
    const double xn = c->a11[l] * x[l] + c->a12[l] * v[l] + c->bx[l] * force_prev;
    const double vn = c->a21[l] * x[l] + c->a22[l] * v[l] + c->bv[l] * force_prev;
    x[l] = xn;
    v[l] = vn;
    sx += xn;
    sv += vn;
  }
  *point_x = sx;
  *point_v = sv;
}

DSP_VECTOR_CLONES void
modal_correct(modal_object* o, const modal_coeffs* c, double force)
{
  const int n = o->n;
#pragma omp simd
  for (int l = 0; l < n; ++l) {
    o->x[l] += c->bx[l] * force;
    o->v[l] += c->bv[l] * force;
  }
}

DSP_VECTOR_CLONES void
modal_point(const modal_object* o, double* point_x, double* point_v)
{
  double sx = 0.0;
  double sv = 0.0;
#pragma omp simd reduction(+ : sx, sv)
  for (int l = 0; l < o->n; ++l) {
    sx += o->x[l];
    sv += o->v[l];
  }
  *point_x = sx;
  *point_v = sv;
}

DSP_VECTOR_CLONES void
modal_pickups(const modal_object* o, double* left, double* right)
{
  double sl = 0.0;
  double sr = 0.0;
#pragma omp simd reduction(+ : sl, sr)
  for (int l = 0; l < o->n; ++l) {
    sl += o->v[l];
    sr += o->pickup_r[l] * o->v[l];
  }
  *left = sl;
  *right = sr;
}

void
modal_bounds(const modal_object* o, double* reach, double* speed)
{
  /* For a free damped mode w^2 x^2 + x'^2 never grows (its derivative is
   * -2 g x'^2), so its amplitude sqrt(x^2 + (x'/w)^2) bounds |x| and
   * w times it bounds |x'|; summing bounds the interaction point. */
  double sx = 0.0;
  double sv = 0.0;
  for (int l = 0; l < o->count; ++l) {
    const double w = 2.0 * DSP_PI * o->freq[l];
    if (!(w > 0.0))
      continue;
    const double amp = sqrt(o->x[l] * o->x[l] + (o->v[l] / w) * (o->v[l] / w));
    sx += amp;
    sv += amp * w;
  }
  /* 1 % margin for the damped frequency and the discretisation */
  *reach = 1.01 * sx;
  *speed = 1.01 * sv;
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
modal_reset(modal_object* o)
{
  memset(o->x, 0, sizeof(o->x));
  memset(o->v, 0, sizeof(o->v));
}

bool
modal_is_finite(const modal_object* o)
{
  double s = 0.0;
  for (int l = 0; l < o->n; ++l)
    s += o->x[l] * 0.0 + o->v[l] * 0.0;
  return s == 0.0; /* NaN or Inf anywhere makes the sum NaN */
}
