/* SPDX-License-Identifier: ISC */
#include "place.h"

#include "dsp_util.h"

#include <math.h>
#include <string.h>

/* a glide this close to its target has arrived (1e-6 of the object: a
 * weight changes by ~1e-6 times the mode number, below the output's
 * float resolution) */
static const double arrived = 1e-6;
/* a pickup this close to 1 - x of the other is at its mirror point (two
 * floats' steps near 1, 6e-8 each, and a glide's roundings) */
static const double mirror_tolerance = 1e-6;

void
place_init(place* p, double sample_rate)
{
  memset(p, 0, sizeof(*p));
  p->family = SHAPE_NONE;
  p->glide = -expm1(-PLACE_UPDATE / (PLACE_GLIDE_S * sample_rate));
  p->point_glide = -expm1(-PLACE_POINT_UPDATE / (PLACE_GLIDE_S * sample_rate));
  p->length = 1.0;
  p->stale = true;
}

void
place_set_shapes(place* p, shape_family family, const shape_set* shapes)
{
  if (p->shapes == shapes && p->family == family)
    return;
  p->shapes = shapes;
  p->family = shapes ? family : SHAPE_NONE;
  p->is_2d = shapes && shape_set_is_2d(shapes);
  p->stale = true;
}

static double
clamp01(double x)
{
  return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

void
place_set_point(place* p, double x, double y, bool jump)
{
  p->x_to = clamp01(x);
  p->y_to = clamp01(y);
  if (jump) {
    p->x = p->x_to;
    p->y = p->y_to;
    p->stale = true;
  }
}

void
place_set_pickups(place* p, double left, double right, bool jump)
{
  p->left_to = clamp01(left);
  p->right_to = clamp01(right);
  if (jump) {
    p->left = p->left_to;
    p->right = p->right_to;
    p->stale = true;
  }
}

void
place_set_path(place* p, place_path path, double length, double travel,
               bool restart)
{
  if (path != p->path || restart)
    p->path_start = travel;
  p->path = path;
  p->length = length > 0.0 ? length : 1.0;
}

/* x + s reflected at 0 and 1 (the point goes to the end and back) */
static double
reflect(double u)
{
  u = fmod(fabs(u), 2.0);
  return u > 1.0 ? 2.0 - u : u;
}

void
place_point_at(const place* p, double travel, double* x, double* y)
{
  const double s = travel - p->path_start; /* m along the path */
  *x = p->x;
  *y = p->y;
  if (p->path == PLACE_FIXED || !p->shapes)
    return;
  if (p->path == PLACE_ACROSS || !p->is_2d) {
    *x = reflect(p->x + s / p->length);
    return;
  }
  if (p->family == SHAPE_MEMBRANE) {
    /* radius x of the membrane's radius length / 2, the angle in turns */
    const double r = p->x * 0.5 * p->length;
    if (r > 0.0)
      *y = fmod(p->y + s / (2.0 * DSP_PI * r), 1.0);
    return;
  }
  /* a plate (or a 2-D table): round the centre at x of the half-width */
  const double rho = 0.5 * p->x;
  const double phase =
      2.0 * DSP_PI * p->y + (rho > 0.0 ? s / (rho * p->length) : 0.0);
  *x = clamp01(0.5 + rho * cos(phase));
  *y = clamp01(0.5 + rho * sin(phase));
}

static bool
pickups_moving(const place* p)
{
  return p->left != p->left_to || p->right != p->right_to;
}

static bool
point_moving(const place* p)
{
  return p->x != p->x_to || p->y != p->y_to || p->path != PLACE_FIXED;
}

bool
place_moving(const place* p, bool point)
{
  /* stale: the shapes changed (or went) under a sounding voice */
  return p->stale ||
         (p->shapes && (pickups_moving(p) || (point && point_moving(p))));
}

int
place_until_update(const place* p, uint64_t clock, int limit, bool point)
{
  if (!place_moving(p, point))
    return limit;
  const int grid =
      p->stale || pickups_moving(p) ? PLACE_UPDATE : PLACE_POINT_UPDATE;
  const int due = grid - (int)(clock % (uint64_t)grid);
  return due < limit ? due : limit;
}

/* one glide step of *now toward `to`; true if it moved */
static bool
glide_to(double* now, double to, double share)
{
  if (*now == to)
    return false;
  *now += (to - *now) * share;
  if (fabs(to - *now) < arrived)
    *now = to;
  return true;
}

/* A string's and a free-free bar's modes are, in order, even and odd
 * about the centre ([ch8] 8.2.2's symmetric object), so at the mirror
 * point 1 - x each mode's phi is exactly +-phi(x), alternating: the modal
 * loops then hear the right pickup off the left one's lanes (modal.h).
 * The ports' floats cannot hold 1 - x exactly: within their precision the
 * right pickup is the mirror point. */
static bool
mirrored(const place* p)
{
  return (p->family == SHAPE_STRING || p->family == SHAPE_BAR_FREE) &&
         fabs(p->right - (1.0 - p->left)) < mirror_tolerance;
}

/* the weights at the place as it is now: the point's always, the
 * pickups' when they moved */
static void
weigh_object(place* p, modal_object* o, double travel, bool pickups)
{
  p->stale = false;
  if (!p->shapes) {
    if (o->weighted)
      modal_clear_shapes(o);
    return;
  }
  int n = shape_set_modes(p->shapes);
  n = n < o->count ? n : o->count;
  double x, y;
  place_point_at(p, travel, &x, &y);
  shape_set_eval(p->shapes, x, y, n, p->phi_p);
  if (pickups || !o->weighted) {
    /* the left pickup at angle 0 or PLACE_PICKUP_Y, the right opposite */
    const bool membrane = p->family == SHAPE_MEMBRANE;
    const double yl = membrane ? 0.0 : PLACE_PICKUP_Y;
    const double yr = membrane ? 0.5 : 1.0 - PLACE_PICKUP_Y;
    shape_set_eval(p->shapes, p->left, yl, n, p->phi_l);
    if (mirrored(p)) {
      for (int l = 0; l < n; ++l)
        p->phi_r[l] = modal_mirror_shape(l) * p->phi_l[l];
    } else {
      shape_set_eval(p->shapes, p->right, yr, n, p->phi_r);
    }
  }
  /* modes the shapes do not cover (a table's ring-out) are not touched */
  for (int l = n; l < o->count && l < SHAPE_MAX_MODES; ++l)
    p->phi_p[l] = p->phi_l[l] = p->phi_r[l] = 0.0;
  if (pickups || !o->weighted)
    modal_set_shapes(o, p->phi_p, p->phi_l, p->phi_r);
  else
    modal_set_shapes(o, p->phi_p, NULL, NULL); /* the point alone moved */
}

void
place_apply(place* p, modal_object* o, double travel)
{
  p->stale = true;
  weigh_object(p, o, travel, true);
}

void
place_step(place* p, modal_object* o, double travel, uint64_t clock,
           bool point_matters)
{
  bool pickups = false, point = false;
  if (pickups_moving(p)) {
    glide_to(&p->left, p->left_to, p->glide);
    glide_to(&p->right, p->right_to, p->glide);
    pickups = true;
  }
  if (point_matters && clock % PLACE_POINT_UPDATE == 0 && point_moving(p)) {
    glide_to(&p->x, p->x_to, p->point_glide);
    glide_to(&p->y, p->y_to, p->point_glide);
    point = true;
  }
  if (pickups || point || p->stale)
    weigh_object(p, o, travel, pickups || p->stale);
}
