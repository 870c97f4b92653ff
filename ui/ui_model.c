/* SPDX-License-Identifier: ISC */
/*
 * The mode editor's model (ui_model.h): plain arithmetic on the port
 * tables and the DSP's closed forms, no allocation, no drawing.
 *
 * References as in README.md: [ch5] Avanzini's thesis ch. 5, [ch8] The
 * Sounding Object ch. 8, [material] Avanzini and Rocchesso, [papetti]
 * Papetti et al. 2011.
 */
#include "ui_model.h"

#include "closed_form.h"
#include "friction.h"
#include "place.h"
#include "surface.h"

#include <math.h>
#include <string.h>

#define UI_PI 3.14159265358979323846

/* ---- axes ---------------------------------------------------------------
 * A value at fraction t of the axis, t = 0 at px0 and 1 at px1; linearly
 * in the value, or in its logarithm.  The interpolations are written as
 * a (1 - t) + b t so that t = 0 and t = 1 give the ends exactly. */

static bool
is_time_or_frequency(const char* unit)
{
  return unit && (!strcmp(unit, UNIT_HZ) || !strcmp(unit, UNIT_MS) ||
                  !strcmp(unit, UNIT_S));
}

ui_axis
ui_axis_of_port(const port_info* p, double px0, double px1)
{
  const double lo = p->min, hi = p->max;
  /* log for PORT_LOG ports and for frequencies and times (mode decays),
   * where the range allows it (a meter from 0 ms stays linear) */
  const bool log_scale =
      ((p->flags & PORT_LOG) || is_time_or_frequency(p->unit)) && lo > 0.0 &&
      hi > lo;
  return (ui_axis){lo, hi, px0, px1, log_scale};
}

double
ui_axis_to_px(const ui_axis* a, double value)
{
  double t;
  if (a->log) {
    if (!(value > 0.0))
      return a->px0; /* below every value of the axis: at its lo end */
    t = log(value / a->lo) / log(a->hi / a->lo);
  } else {
    t = a->hi != a->lo ? (value - a->lo) / (a->hi - a->lo) : 0.0;
  }
  return a->px0 * (1.0 - t) + a->px1 * t;
}

double
ui_axis_from_px(const ui_axis* a, double px)
{
  const double t = a->px1 != a->px0 ? (px - a->px0) / (a->px1 - a->px0) : 0.0;
  if (t == 0.0)
    return a->lo;
  if (t == 1.0)
    return a->hi;
  if (a->log)
    return exp(log(a->lo) * (1.0 - t) + log(a->hi) * t);
  return a->lo * (1.0 - t) + a->hi * t;
}

/* ---- the mode editor ---------------------------------------------------- */

ui_mode_view
ui_mode_view_make(ui_rect area, const port_info* freq_port,
                  const port_info* gain_port)
{
  ui_mode_view v;
  v.area = area;
  /* x: the frequency port's range, log (it is PORT_LOG, and Hz) */
  v.freq = ui_axis_of_port(freq_port, area.x, area.x + area.w);
  /* y: gain 0 at the bottom to the port's maximum at the top, linear (a
   * gain of 0 is a mode left out: it must be on the axis) */
  v.gain = (ui_axis){0.0, gain_port->max, area.y + area.h, area.y, false};
  /* 6 px, narrower on a plot too small for 16 bars side by side */
  const double w = area.w / 64.0;
  v.bar_width = w > 6.0 ? 6.0 : w < 2.0 ? 2.0 : w;
  return v;
}

ui_rect
ui_mode_bar(const ui_mode_view* v, const ui_mode* m)
{
  /* from the gain axis's bottom (gain 0) up to the gain, kept inside the
   * plot vertically; x centred on the frequency */
  const double g = m->gain < v->gain.lo   ? v->gain.lo
                   : m->gain > v->gain.hi ? v->gain.hi
                                          : m->gain;
  const double bottom = v->gain.px0;
  const double top = ui_axis_to_px(&v->gain, g);
  const double cx = ui_axis_to_px(&v->freq, m->freq);
  const double y = top < bottom ? top : bottom;
  return (ui_rect){cx - 0.5 * v->bar_width, y, v->bar_width,
                   fabs(bottom - top)};
}

/* Whether a candidate (tier, centre distance d, index i) beats the best
 * so far.  Tier 0: the point is inside the bar (edges included); tier 1:
 * the bar's centre is within the slop horizontally, at any height (a bar
 * of gain 0 has no height and is grabbed so).  The lower tier wins, then
 * the nearer centre, and on equal terms the selected mode (then the
 * first).  Inside several overlapping bars the selected one keeps the
 * grab wherever its neighbour's centre is. */
static bool
beats(int tier, double d, int i, int best_tier, double best_d, int best,
      int selected)
{
  if (tier != best_tier)
    return tier < best_tier;
  if (tier == 0 && i == selected)
    return true;
  if (tier == 0 && best == selected)
    return false;
  if (d != best_d)
    return d < best_d;
  return i == selected;
}

int
ui_mode_hit(const ui_mode_view* v, const ui_mode* modes, int n, double x,
            double y, double slop, int selected)
{
  /* disabled modes are bars like the others */
  int best = -1, best_tier = 2;
  double best_d = INFINITY;
  for (int i = 0; i < n; ++i) {
    const ui_rect r = ui_mode_bar(v, &modes[i]);
    const double d = fabs(x - (r.x + 0.5 * r.w));
    const bool inside =
        x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
    const int tier = inside ? 0 : d <= slop ? 1 : 2;
    if (tier < 2 && beats(tier, d, i, best_tier, best_d, best, selected)) {
      best = i;
      best_tier = tier;
      best_d = d;
    }
  }
  return best;
}

/* ---- gestures -> port values -------------------------------------------- */

/* A semitone a step: on the frequency ports a step is a musical interval
 * (12 to the octave, tuning by ear), and on every other log port it is
 * 5.9 %, near the smallest change heard in a level or a time, 40 steps a
 * decade: fine enough to set, coarse enough that a wheel crosses the
 * widest range (0.001..1e12 kg, 15 decades) in about 600 steps. */
const double ui_scroll_ratio = 1.0594630943592953; /* 2^(1/12) */

static bool
is_whole(const port_info* p)
{
  return (p->flags & (PORT_INTEGER | PORT_TOGGLE | PORT_ENUM)) != 0;
}

double
ui_clamp_to_port(const port_info* p, double value)
{
  if (isnan(value))
    return p->def;
  const double lo = p->min, hi = p->max;
  double v = value < lo ? lo : value > hi ? hi : value;
  if (is_whole(p))
    v = floor(v + 0.5); /* min and max are whole: v stays in range */
  return v;
}

double
ui_drag_value(const ui_axis* a, const port_info* p, double start, double d_px)
{
  return ui_clamp_to_port(p,
                          ui_axis_from_px(a, ui_axis_to_px(a, start) + d_px));
}

double
ui_scroll_value(const port_info* p, double value, int steps)
{
  const double v = ui_clamp_to_port(p, value);
  if (steps == 0)
    return v;
  double next;
  if ((p->flags & PORT_LOG) && p->min > 0.0)
    next = v * pow(ui_scroll_ratio, steps);
  else
    next = v + steps * ((double)p->max - p->min) / 50.0;
  next = ui_clamp_to_port(p, next);
  /* a whole-number port whose step rounds away still moves by one */
  if (is_whole(p) && next == v)
    next = ui_clamp_to_port(p, v + (steps > 0 ? 1.0 : -1.0));
  return next;
}

double
ui_port_si_scale(const port_info* p)
{
  static const struct {
    const char* unit;
    double scale;
  } units[] = {
      {UNIT_GRAM, 1e-3}, {UNIT_MM, 1e-3}, {UNIT_MS, 1e-3},
      {UNIT_UM, 1e-6},   {UNIT_US, 1e-6}, {UNIT_MM_PER_S, 1e-3},
  };
  if (p->unit)
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); ++i)
      if (!strcmp(p->unit, units[i].unit))
        return units[i].scale;
  return 1.0;
}

/* ---- material map ------------------------------------------------------- */

/* [material] table 2 = [ch5] table 5.2: the q where more than half the
 * listeners chose the material (doc/presets.md rounds them) */
const ui_material_range ui_materials[UI_MATERIALS] = {
    [UI_RUBBER] = {"rubber", 5.0, 44.3},
    [UI_WOOD] = {"wood", 14.9, 131.8},
    [UI_GLASS] = {"glass", 189.6, 5000.0},
    [UI_STEEL] = {"steel", 272.8, 5000.0},
};

double
ui_mode_q(const ui_mode* m)
{
  /* [ch5] before table 5.2: q_o = omega_o t_e / 2 = pi f t_e */
  return UI_PI * m->freq * m->decay;
}

/* log distance from q to the range (0 inside it), and to its centre */
static double
log_distance_to_range(const ui_material_range* r, double q)
{
  return q < r->q_lo ? log(r->q_lo / q) : q > r->q_hi ? log(q / r->q_hi) : 0.0;
}

static double
log_distance_to_centre(const ui_material_range* r, double q)
{
  return fabs(log(q / sqrt(r->q_lo * r->q_hi)));
}

/*
 * q is the gain-weighted geometric mean of the enabled modes' q (modes of
 * gain 0, or with no q, are left out): exp(sum g ln q / sum g).  The
 * material is the range nearest q on a log scale (0 inside), and among
 * ranges at the same distance (overlaps, and beyond 5000 where glass and
 * steel both end) the one whose geometric centre is nearest.  So, with
 * the table's figures:
 *   q < 25.7 rubber, 25.7..158.1 wood, 158.1..1066 glass, above steel
 * (25.7 = sqrt(14.88 x 44.31), the centres of rubber and wood; 158.1 =
 * sqrt(131.8 x 189.6), the middle of the gap between wood and glass; 1066
 * = sqrt(973.7 x 1168), the centres of glass and steel).  Glass and steel
 * overlap over nearly all of their ranges ([material]: "glass and steel
 * are not well discriminated"), so a glass of q 1200 shows as steel.
 * With no mode sounding, q is 0 and the material rubber: the limit of the
 * rule as q falls to 0 (nothing rings: the deadest material).
 */
ui_material
ui_classify(const ui_mode* modes, int n, double* q_out)
{
  double weight = 0.0, sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double q = ui_mode_q(&modes[i]);
    if (modes[i].enabled && modes[i].gain > 0.0 && q > 0.0 && isfinite(q)) {
      weight += modes[i].gain;
      sum += modes[i].gain * log(q);
    }
  }
  if (!(weight > 0.0)) {
    if (q_out)
      *q_out = 0.0;
    return UI_RUBBER;
  }
  const double q = exp(sum / weight);
  if (q_out)
    *q_out = q;
  ui_material best = UI_RUBBER;
  double best_range = INFINITY, best_centre = INFINITY;
  for (int m = 0; m < UI_MATERIALS; ++m) {
    const double dr = log_distance_to_range(&ui_materials[m], q);
    const double dc = log_distance_to_centre(&ui_materials[m], q);
    if (dr < best_range || (dr == best_range && dc < best_centre)) {
      best = (ui_material)m;
      best_range = dr;
      best_centre = dc;
    }
  }
  return best;
}

/* ---- contact panels ----------------------------------------------------- */

/* [papetti] eq 9 = [ch5] eq 5.17, exactly as closed_form computes it */
double
ui_contact_time(const ui_hammer* h, double v)
{
  return hc_contact_time(h->mass, h->stiffness, h->alpha, h->mu, v);
}

/* [papetti] eq 6 */
double
ui_rebound_velocity(const ui_hammer* h, double v)
{
  return hc_rebound_velocity(h->mu, v);
}

/* The force when the bristles are in steady state (z' = 0, so z = z_ss(v)
 * of [ch8] eq 8.17 and f = sigma0 z_ss + sigma2 v, eq 8.16 without noise),
 * with the coefficients kept at or above FRICTION_MIN_MU as
 * friction_set_law() keeps them.  Odd in v; at v = 0 the limit from
 * above, mu_s f_N, the force sticking holds before it breaks away. */
double
ui_stribeck_force(const ui_stribeck* s, double v)
{
  const double mu_s = s->mu_s > FRICTION_MIN_MU ? s->mu_s : FRICTION_MIN_MU;
  const double mu_d = s->mu_d > FRICTION_MIN_MU ? s->mu_d : FRICTION_MIN_MU;
  const double speed = fabs(v);
  const double r = speed / s->stribeck;
  const double magnitude =
      s->normal_force * (mu_d + (mu_s - mu_d) * exp(-r * r));
  return (v < 0.0 ? -magnitude : magnitude) + s->sigma2 * v;
}

/*
 * The surface (dsp/surface.h): a profile whose power spectrum falls as
 * 1/k^beta (fractal.h: the cascade's power falls as 1/f^beta) from the
 * wavenumber of 10 cm wavelengths, k_lo = 2 pi / 0.1 m, up to that of 2.5
 * sample spacings, k_hi = 2 pi 0.4 / SURFACE_SPACING (surface.c), flat
 * outside.  Rolling at speed u, wavenumber k is heard at f = u k / (2 pi).
 */
static const double longest_wavelength = 0.1; /* m, surface.c */

static double
band_lo(void)
{
  return 2.0 * UI_PI / longest_wavelength;
}

static double
band_hi(void)
{
  return 2.0 * UI_PI * 0.4 / SURFACE_SPACING;
}

static double
clamp_to_band(double k)
{
  return k < band_lo() ? band_lo() : k > band_hi() ? band_hi() : k;
}

/* The amplitude spectrum in dB is 10 log10 of the power: a slope of
 * -10 beta dB a decade across the band. */
double
ui_surface_level_db(const ui_surface* s, double f)
{
  if (!(s->speed > 0.0) || !(f > 0.0))
    return 0.0;
  const double k = clamp_to_band(2.0 * UI_PI * f / s->speed);
  const double k_ref = clamp_to_band(2.0 * UI_PI * 100.0 / s->speed);
  return -10.0 * s->beta * log10(k / k_ref);
}

/* int_a^b k^p dk */
static double
power_integral(double p, double a, double b)
{
  if (fabs(p + 1.0) < 1e-12)
    return log(b / a);
  return (pow(b, p + 1.0) - pow(a, p + 1.0)) / (p + 1.0);
}

/*
 * The ball's cut-off.  The ball is the parabola -u^2 / (2 R) about its
 * bottom and rides on the upper envelope of such parabolas set on the
 * profile (surface.h): it reaches the bottom of a dent only where the
 * profile there is no more curved than the ball, h'' <= 1 / R.  A
 * component h = A sin(k x) has curvature A k^2 at its troughs, so
 * roughness is followed up to the wavenumber where the curvature reaches
 * 1 / R.  For the fractal profile, with power spectrum P(k) = C k^-beta
 * over [k_lo, k_hi], the RMS curvature of the components up to k is
 *     kappa(k)^2 = C int_{k_lo}^{k} k'^4 k'^-beta dk'
 * (the curvature spectrum is k^4 P(k), rising for beta < 5, so the finest
 * components dominate), and the depth fixes C:
 *     depth^2 = C int_{k_lo}^{k_hi} k^-beta dk.
 * kappa(k_c) = 1 / R gives
 *     k_c = (k_lo^(5-beta) + (5 - beta) / (C R^2))^(1/(5-beta)),
 * and f_c = u k_c / (2 pi): proportional to the speed, and, k_lo being far
 * below k_c, to R^(-2/(5-beta)) and depth^(-2/(5-beta)).  Above k_hi the
 * ball follows the whole band (k_c is the power law continued).  On
 * dsp/surface's own ride (tests/ui/test_ui_model) the ride's spectrum is
 * 4.6 to 6 dB below the profile's at k_c, within 0.6 dB at k_c / 4 and
 * 17 to 20 dB below at 3 k_c.  The
 * contact patch (surface_set_patch) smooths further, at wavelengths below
 * its diameter 2 sqrt(R x), which depends on the load: not modelled here.
 */
double
ui_surface_cutoff_hz(const ui_surface* s)
{
  if (!(s->speed > 0.0))
    return 0.0;
  if (!(s->depth > 0.0) || !(s->radius > 0.0))
    return INFINITY; /* a flat profile, or a point, is followed everywhere */
  const double c =
      s->depth * s->depth / power_integral(-s->beta, band_lo(), band_hi());
  const double p = 5.0 - s->beta;
  const double k_c =
      pow(pow(band_lo(), p) + p / (c * s->radius * s->radius), 1.0 / p);
  return s->speed * k_c / (2.0 * UI_PI);
}

double
ui_felt_blow_compression(const felt_law* law, double mass, double v)
{
  const double energy = 0.5 * mass * v * v;
  if (!(energy > 0.0) || !(law->k > 0.0) || !(law->y0 > 0.0))
    return 0.0;
  /* P grows without bound from 0: bracket the root by doubling, then
   * bisect to the last bit */
  double lo = 0.0, hi = law->y0;
  for (int k = 0; k < 200 && felt_potential(law, hi) < energy; ++k) {
    lo = hi;
    hi *= 2.0;
  }
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi)
      break;
    if (felt_potential(law, mid) < energy)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

void
ui_felt_loop(const felt_law* law, double x_max, double duration, int n,
             double* x, double* f)
{
  const felt_step step = felt_step_of(law, duration / n);
  double q = 0.0; /* relaxed: no memory of a force */
  x[0] = 0.0;
  f[0] = 0.0;
  for (int k = 1; k <= n; ++k) {
    /* mirrored steps meet the same compressions: sin(pi k / n) is
     * computed from the nearer end */
    const int j = k <= n / 2 ? k : n - k;
    x[k] = x_max * sin(UI_PI * j / n);
    f[k] = felt_step_force(law, &step, q, x[k - 1], x[k]);
    q = felt_step_memory(law, &step, q, x[k - 1], x[k]);
  }
}

/* ---- the object's shape ------------------------------------------------- */

static double
clamp01(double v)
{
  return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
}

ui_shape_view
ui_shape_view_make(ui_rect area, shape_family f, bool is_2d)
{
  ui_shape_view v = {0};
  v.area = area;
  v.clamped = f == SHAPE_BAR_CLAMPED;
  v.kind = f == SHAPE_MEMBRANE              ? UI_SHAPE_DISC
           : is_2d || shape_family_is_2d(f) ? UI_SHAPE_SQUARE
                                            : UI_SHAPE_STRIP;
  if (v.kind == UI_SHAPE_STRIP) {
    /* the strip across the middle, room for the clamp at its left; the
     * point's handle in a row above it, the pickups' in one below, and
     * the deflection in between */
    const double left = v.clamped ? 18.0 : 10.0, right = 10.0;
    const double thickness = 8.0, rows = 8.0;
    v.body = (ui_rect){area.x + left, area.y + 0.5 * (area.h - thickness),
                       area.w - left - right, thickness};
    v.handle_y[0] = area.y + rows;
    v.handle_y[1] = area.y + area.h - rows;
    v.amplitude = fmax(0.5 * area.h - 2.0 * rows - 6.0, 4.0);
  } else {
    /* the largest square in the middle, a margin for the handles */
    const double side = fmin(area.w, area.h) - 10.0;
    v.body = (ui_rect){area.x + 0.5 * (area.w - side),
                       area.y + 0.5 * (area.h - side), side, side};
  }
  return v;
}

void
ui_shape_to_px(const ui_shape_view* v, double x, double y, double* px,
               double* py)
{
  const ui_rect b = v->body;
  *px = b.x;
  *py = b.y;
  switch (v->kind) {
  case UI_SHAPE_STRIP:
    *px = b.x + x * b.w;
    *py = b.y + 0.5 * b.h;
    break;
  case UI_SHAPE_SQUARE:
    *px = b.x + x * b.w;
    *py = b.y + (1.0 - y) * b.h;
    break;
  case UI_SHAPE_DISC: {
    const double r = 0.5 * b.w * x, a = 2.0 * UI_PI * y;
    *px = b.x + 0.5 * b.w - r * cos(a);
    *py = b.y + 0.5 * b.h - r * sin(a);
    break;
  }
  }
}

void
ui_shape_from_px(const ui_shape_view* v, double px, double py, double* x,
                 double* y)
{
  const ui_rect b = v->body;
  switch (v->kind) {
  case UI_SHAPE_STRIP:
    *x = clamp01((px - b.x) / b.w);
    *y = 0.0;
    break;
  case UI_SHAPE_SQUARE:
    *x = clamp01((px - b.x) / b.w);
    *y = clamp01(1.0 - (py - b.y) / b.h);
    break;
  case UI_SHAPE_DISC: {
    /* from the centre: the radius, and the angle from the left, turning
     * up (clockwise on the screen) */
    const double dx = px - (b.x + 0.5 * b.w), dy = py - (b.y + 0.5 * b.h);
    *x = clamp01(hypot(dx, dy) / (0.5 * b.w));
    double turns = atan2(-dy, -dx) / (2.0 * UI_PI);
    turns = turns < 0.0 ? turns + 1.0 : turns;
    *y = turns >= 1.0 ? 0.0 : turns;
    break;
  }
  }
}

bool
ui_shape_inside(const ui_shape_view* v, double px, double py)
{
  const ui_rect b = v->body;
  switch (v->kind) {
  case UI_SHAPE_STRIP:
    return px >= b.x && px <= b.x + b.w;
  case UI_SHAPE_SQUARE:
    return px >= b.x && px <= b.x + b.w && py >= b.y && py <= b.y + b.h;
  case UI_SHAPE_DISC:
    return hypot(px - (b.x + 0.5 * b.w), py - (b.y + 0.5 * b.h)) <= 0.5 * b.w;
  }
  return false;
}

void
ui_handle_coords(const ui_shape_view* v, const ui_place* p, ui_handle h,
                 double* x, double* y)
{
  /* the pickups where dsp/place listens: at angles 0 and 1/2 on a
   * membrane, else PLACE_PICKUP_Y in from either side */
  const bool disc = v->kind == UI_SHAPE_DISC;
  switch (h) {
  case UI_HANDLE_LEFT:
    *x = p->left;
    *y = disc ? 0.0 : PLACE_PICKUP_Y;
    break;
  case UI_HANDLE_RIGHT:
    *x = p->right;
    *y = disc ? 0.5 : 1.0 - PLACE_PICKUP_Y;
    break;
  default:
    *x = p->x;
    *y = p->y;
    break;
  }
}

void
ui_handle_px(const ui_shape_view* v, const ui_place* p, ui_handle h, double* px,
             double* py)
{
  double x, y;
  ui_handle_coords(v, p, h, &x, &y);
  ui_shape_to_px(v, x, y, px, py);
  if (v->kind == UI_SHAPE_STRIP)
    *py = v->handle_y[h == UI_HANDLE_POINT ? 0 : 1];
}

int
ui_handle_hit(const ui_shape_view* v, const ui_place* p, double px, double py,
              double radius)
{
  int best = -1;
  double best_d = radius;
  for (int h = 0; h < UI_HANDLES; ++h) {
    double hx, hy;
    ui_handle_px(v, p, (ui_handle)h, &hx, &hy);
    const double d = hypot(px - hx, py - hy);
    if (d < best_d || (d == best_d && best < 0)) {
      best = h;
      best_d = d;
    }
  }
  return best;
}

ui_place
ui_handle_drag(const ui_shape_view* v, const ui_place* start, ui_handle h,
               double dx, double dy)
{
  ui_place p = *start;
  double hx, hy;
  ui_handle_px(v, start, h, &hx, &hy);
  if (h == UI_HANDLE_POINT) {
    double x, y;
    ui_shape_from_px(v, hx + dx, hy + dy, &x, &y);
    p.x = x;
    if (v->kind != UI_SHAPE_STRIP)
      p.y = y;
    return p;
  }
  double* along = h == UI_HANDLE_LEFT ? &p.left : &p.right;
  if (v->kind == UI_SHAPE_DISC) {
    /* along the pickup's radius, out from the centre: the part of the
     * drag along it (past the centre it stays there) */
    double x, y;
    ui_handle_coords(v, start, h, &x, &y);
    const double a = 2.0 * UI_PI * y;
    *along = clamp01(x + (-dx * cos(a) - dy * sin(a)) / (0.5 * v->body.w));
  } else {
    double x, y;
    ui_shape_from_px(v, hx + dx, hy, &x, &y);
    *along = x;
  }
  return p;
}

double
ui_heard_weight(double phi_point, double phi_left, double phi_right,
                double width)
{
  /* the right output hears left + width (right - left) (modal.c) */
  const double right = phi_left + width * (phi_right - phi_left);
  return fabs(phi_point) * 0.5 * (fabs(phi_left) + fabs(right));
}

static double
mode_at(const shape_set* s, int n, double x)
{
  double phi[SHAPE_MAX_MODES];
  shape_set_eval(s, x, 0.0, n + 1, phi);
  return phi[n];
}

int
ui_shape_nodes(const shape_set* s, int n, double* xs, int max)
{
  if (!s || n < 0 || n >= shape_set_modes(s))
    return 0;
  /* sign changes between 512 samples (the 128th mode has 128 nodes, four
   * samples apart), then bisection; a fixed end or clamp (phi 0 there) is
   * no node */
  enum { STEPS = 512, HALVINGS = 40 };
  const double end = 1e-6;
  int found = 0;
  double x0 = 0.0, f0 = mode_at(s, n, 0.0);
  for (int i = 1; i <= STEPS && found < max; ++i) {
    const double x1 = (double)i / STEPS, f1 = mode_at(s, n, x1);
    double node = -1.0;
    if (f0 == 0.0)
      node = x0;
    else if ((f0 < 0.0) != (f1 < 0.0) && f1 != 0.0) {
      double a = x0, b = x1, fa = f0;
      for (int k = 0; k < HALVINGS; ++k) {
        const double m = 0.5 * (a + b), fm = mode_at(s, n, m);
        if ((fm < 0.0) == (fa < 0.0)) {
          a = m;
          fa = fm;
        } else {
          b = m;
        }
      }
      node = 0.5 * (a + b);
    }
    if (node > end && node < 1.0 - end)
      xs[found++] = node;
    x0 = x1;
    f0 = f1;
  }
  return found;
}

/* where the zero lies between corner values a and b (of opposite signs) */
static double
crossing(double a, double b)
{
  return a / (a - b);
}

int
ui_zero_segments(const double c[4], double seg[2][4])
{
  for (int k = 0; k < 4; ++k)
    if (isnan(c[k]))
      return 0;
  /* the corners (0, 0), (1, 0), (1, 1), (0, 1) and the edges after each:
   * a zero on every edge whose ends differ in sign (0 counts as +) */
  static const double corner[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  double point[4][2];
  bool cut[4];
  int cuts = 0;
  for (int e = 0; e < 4; ++e) {
    const int a = e, b = (e + 1) % 4;
    cut[e] = (c[a] >= 0.0) != (c[b] >= 0.0);
    if (!cut[e])
      continue;
    const double t = crossing(c[a], c[b]);
    point[e][0] = corner[a][0] + t * (corner[b][0] - corner[a][0]);
    point[e][1] = corner[a][1] + t * (corner[b][1] - corner[a][1]);
    ++cuts;
  }
  int pairs[2][2], n = 0;
  if (cuts == 2) {
    int e0 = -1, e1 = -1;
    for (int e = 0; e < 4; ++e)
      if (cut[e]) {
        if (e0 < 0)
          e0 = e;
        else
          e1 = e;
      }
    pairs[n][0] = e0;
    pairs[n++][1] = e1;
  } else if (cuts == 4) {
    /* a saddle: the corners on the centre's side are joined through it,
     * the others cut off, each by the two edges beside it */
    const double centre = 0.25 * (c[0] + c[1] + c[2] + c[3]);
    const bool joined02 = (centre >= 0.0) == (c[0] >= 0.0);
    if (joined02) { /* cut off corners 1 and 3 */
      pairs[0][0] = 0, pairs[0][1] = 1;
      pairs[1][0] = 2, pairs[1][1] = 3;
    } else { /* cut off corners 0 and 2 */
      pairs[0][0] = 3, pairs[0][1] = 0;
      pairs[1][0] = 1, pairs[1][1] = 2;
    }
    n = 2;
  }
  for (int k = 0; k < n; ++k) {
    seg[k][0] = point[pairs[k][0]][0];
    seg[k][1] = point[pairs[k][0]][1];
    seg[k][2] = point[pairs[k][1]][0];
    seg[k][3] = point[pairs[k][1]][1];
  }
  return n;
}

/* ---- the window --------------------------------------------------------- */

static ui_rect
inset(ui_rect r, double left, double top, double right, double bottom)
{
  return (ui_rect){r.x + left, r.y + top, r.w - left - right,
                   r.h - top - bottom};
}

ui_layout
ui_layout_make(bool exciter)
{
  ui_layout l;
  const double pad = 8.0, header = 28.0;
  l.header = (ui_rect){0, 0, UI_WIDTH, header};
  l.undo = (ui_rect){UI_WIDTH - pad - 56, 4, 56, 20};
  l.clear = (ui_rect){l.undo.x - pad - 48, 4, 48, 20};
  l.load = (ui_rect){l.clear.x - 4 - 48, 4, 48, 20};
  l.analyse = (ui_rect){l.load.x - 4 - 64, 4, 64, 20};
  l.path_field = (ui_rect){300, 4, l.analyse.x - 4 - 300, 20};
  /* top: the object (its shape, where it is touched and heard), its
   * modes (wide: 16 to 128 bars) and the material map; bottom: the
   * contact panel beside the list of ports.  The object is beside the
   * modes: a dragged handle moves the bars' weights, and the two
   * together are one frame's redraw (contact_ui.c).  The top is as low
   * as leaves the list 15 rows a column: the rolling instrument's 30
   * controls (its contact law's among them). */
  const double top = header + 4, top_h = 195, bottom = top + top_h + pad;
  l.object = (ui_rect){pad, top, 216, top_h};
  l.modes = (ui_rect){l.object.x + l.object.w + pad, top, 416, top_h};
  l.material = (ui_rect){l.modes.x + l.modes.w + pad, top,
                         UI_WIDTH - 4 * pad - l.object.w - l.modes.w, top_h};
  l.contact = (ui_rect){pad, bottom, 360, UI_HEIGHT - pad - bottom};
  l.params = (ui_rect){l.contact.x + l.contact.w + pad, bottom,
                       UI_WIDTH - 3 * pad - l.contact.w, l.contact.h};
  /* plots: room for a title line above and tick labels left and below */
  l.modes_plot = inset(l.modes, 44, 34, 10, 22);
  /* the exciter's bars: a strip cut from the foot of the modes' plot, on
   * the same frequency axis (the hammer's modes beside the object's),
   * the axis's labels under it */
  l.exciter_plot = (ui_rect){l.modes_plot.x, l.modes_plot.y + l.modes_plot.h,
                             l.modes_plot.w, 0};
  if (exciter) {
    const double strip = 35, gap = 8; /* the bars above keep 96 px */
    l.modes_plot.h -= strip + gap;
    l.exciter_plot.y -= strip;
    l.exciter_plot.h = strip;
  }
  l.material_plot = inset(l.material, 44, 34, 10, 22);
  l.contact_plot = inset(l.contact, 50, 24, 50, 64);
  return l;
}

/* the object panel: a title and an info line, the object, its rows */
static const double object_top = 34.0;

ui_rect
ui_object_row(const ui_layout* l, int rows, int k)
{
  const ui_rect o = l->object;
  return (ui_rect){o.x + 4, o.y + o.h - 4 - (rows - k) * UI_PARAM_ROW_HEIGHT,
                   o.w - 8, UI_PARAM_ROW_HEIGHT};
}

ui_rect
ui_object_area(const ui_layout* l, int rows)
{
  const ui_rect o = l->object;
  const double y = o.y + object_top;
  const double bottom = o.y + o.h - 4 - rows * UI_PARAM_ROW_HEIGHT - 4;
  return (ui_rect){o.x + 4, y, o.w - 8, bottom - y};
}

/* two columns of rows under the panel's title line */
static const double params_title = 20.0;

int
ui_param_capacity(const ui_layout* l)
{
  return 2 * (int)((l->params.h - params_title - 2) / UI_PARAM_ROW_HEIGHT);
}

ui_rect
ui_param_row(const ui_layout* l, int k)
{
  const int per_column = ui_param_capacity(l) / 2;
  const double w = (l->params.w - 12) / 2;
  const int column = k / per_column, row = k % per_column;
  return (ui_rect){l->params.x + 4 + column * (w + 4),
                   l->params.y + params_title + row * UI_PARAM_ROW_HEIGHT, w,
                   UI_PARAM_ROW_HEIGHT};
}

ui_rect
ui_param_slider(ui_rect row)
{
  /* name 96 px, value 64 px, then the slider */
  return (ui_rect){row.x + 160, row.y + 3, row.w - 164, row.h - 6};
}

bool
ui_rect_contains(ui_rect r, double x, double y)
{
  return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

int
ui_param_hit(const ui_layout* l, int n_rows, double x, double y)
{
  const int n = n_rows < ui_param_capacity(l) ? n_rows : ui_param_capacity(l);
  for (int k = 0; k < n; ++k)
    if (ui_rect_contains(ui_param_row(l, k), x, y))
      return k;
  return -1;
}
