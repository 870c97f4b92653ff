/* SPDX-License-Identifier: ISC */
#include "surface.h"

#include <math.h>
#include <string.h>

/* the envelope's ring is indexed with a mask */
_Static_assert((SURFACE_SAMPLES & (SURFACE_SAMPLES - 1)) == 0,
               "SURFACE_SAMPLES must be a power of two");

/* the profile's band: wavelengths from 10 cm to 2.5 spacings */
static const double longest_wavelength = 0.1; /* m */
static const double clip = 4.0;               /* RMS */
/* samples between exact re-sums of the patch's running means, so that
 * their rounding (1e-16 of the depth per sample) never adds up */
static const uint64_t resum_every = 4096;

void
surface_init(surface* s, uint64_t seed)
{
  memset(s, 0, sizeof(*s));
  fractal_init(&s->noise, 1.0 / SURFACE_SPACING, seed);
  surface_set(s, 1.0, 1e-6, 5e-3);
  surface_set_patch(s, SURFACE_SPACING);
}

/* indices stay far below 2^63: converted as signed, which x86-64 does in
 * one instruction (unsigned takes a branch and several) */
static inline double
index_to_double(uint64_t i)
{
  return (double)(int64_t)i;
}

static inline uint64_t
double_to_index(double u)
{
  return (uint64_t)(int64_t)u;
}

static double
sample_x(uint64_t i)
{
  return index_to_double(i) * SURFACE_SPACING;
}

/* where parabola j starts to rise above parabola i < j */
static double
crossing(const surface* s, uint64_t i, uint64_t j)
{
  const double xi = sample_x(i), xj = sample_x(j);
  const double hi = s->height[i % SURFACE_SAMPLES];
  const double hj = s->height[j % SURFACE_SAMPLES];
  return 0.5 * (xi + xj) - s->radius * (hj - hi) / (xj - xi);
}

/* add the parabola of sample j at the envelope's far end; those it covers
 * from their start on leave it */
static void
add_arc(surface* s, uint64_t j)
{
  double start = -INFINITY;
  while (s->arc_count > 0) {
    const int back = (s->arc_first + s->arc_count - 1) & (SURFACE_SAMPLES - 1);
    start = crossing(s, s->arc[back], j);
    if (s->arc_count > 1 && start <= s->arc_start[back]) {
      --s->arc_count;
      continue;
    }
    break;
  }
  const int at = (s->arc_first + s->arc_count) & (SURFACE_SAMPLES - 1);
  s->arc[at] = j;
  s->arc_start[at] = start;
  ++s->arc_count;
}

static uint64_t
first_needed(const surface* s)
{
  const double at = (double)s->ride_next * SURFACE_SPACING;
  const double from = (at - s->reach) / SURFACE_SPACING - 1.0;
  return from > 0.0 ? (uint64_t)from : 0;
}

static void
rebuild(surface* s)
{
  s->arc_first = s->arc_count = 0;
  uint64_t i = first_needed(s);
  if (s->next > SURFACE_SAMPLES && i < s->next - SURFACE_SAMPLES)
    i = s->next - SURFACE_SAMPLES;
  for (; i < s->next; ++i)
    add_arc(s, i);
}

void
surface_set(surface* s, double beta, double depth, double radius)
{
  if (beta != s->beta || s->noise.sections == 0) {
    fractal_set(&s->noise, beta, 1.0 / longest_wavelength,
                0.4 / SURFACE_SPACING, 2);
    s->beta = beta;
  }
  if (depth == s->depth && radius == s->radius)
    return;
  /* the profile keeps its shape, scaled to the new depth */
  const double scale = s->depth > 0.0 ? depth / s->depth : 0.0;
  for (int i = 0; i < SURFACE_SAMPLES; ++i)
    s->height[i] *= scale;
  s->depth = depth;
  s->radius = radius;
  /* held samples must cover reach on both sides */
  const double most = 0.5 * (SURFACE_SAMPLES - 8) * SURFACE_SPACING;
  s->reach = sqrt(2.0 * radius * 2.0 * clip * depth);
  if (!(s->reach < most))
    s->reach = most;
  rebuild(s);
}

double
surface_profile(const surface* s, double position)
{
  const double u = position / SURFACE_SPACING;
  const uint64_t i = double_to_index(u);
  const double t = u - index_to_double(i);
  const double h0 = s->height[i % SURFACE_SAMPLES];
  const double h1 = s->height[(i + 1) % SURFACE_SAMPLES];
  return h0 + t * (h1 - h0);
}

/* c at sample i (taken in order): the envelope of the parabolas and the
 * profile there */
static double
envelope_at(surface* s, uint64_t i)
{
  const double x = sample_x(i);
  /* the profile up to reach ahead */
  while (sample_x(s->next) <= x + s->reach + SURFACE_SPACING) {
    double h = fractal_next(&s->noise);
    h = h > clip ? clip : h < -clip ? -clip : h;
    s->height[s->next % SURFACE_SAMPLES] = s->depth * h;
    add_arc(s, s->next);
    ++s->next;
  }
  /* arcs the ball has passed */
  while (s->arc_count > 1 &&
         s->arc_start[(s->arc_first + 1) & (SURFACE_SAMPLES - 1)] <= x) {
    s->arc_first = (s->arc_first + 1) & (SURFACE_SAMPLES - 1);
    --s->arc_count;
  }
  const uint64_t j = s->arc[s->arc_first];
  const double d = x - sample_x(j);
  const double arc = s->height[j % SURFACE_SAMPLES] - d * d / (2.0 * s->radius);
  const double h = s->height[i % SURFACE_SAMPLES];
  return arc > h ? arc : h;
}

/* The patch is W samples wide, taken as two running means, of w1 = W/2
 * and w2 = W - w1 samples (a triangle-like weight, with far weaker
 * sidelobes than one mean over W, so that little of the roughness finer
 * than the patch gets through) */
static void
sum_patch(surface* s)
{
  s->cell = UINT64_MAX; /* the means move */
  const uint64_t last = s->ride_next - 1;
  s->sum_c = s->sum_m = 0.0;
  for (int k = 0; k <= s->w1; ++k)
    s->sum_c += s->ride[(last - (uint64_t)k) % SURFACE_PATCH_MAX];
  for (int k = 0; k < s->w2; ++k)
    s->sum_m += s->mean[(last - (uint64_t)k) % SURFACE_PATCH_MAX];
}

void
surface_set_patch(surface* s, double diameter)
{
  int cells = (int)(diameter / SURFACE_SPACING + 0.5);
  const int most = SURFACE_PATCH_MAX - 2;
  cells = cells < 1 ? 1 : cells > most ? most : cells;
  if (cells == s->w1 + s->w2)
    return;
  s->w1 = cells / 2;
  s->w2 = cells - s->w1;
  if (s->ride_next > 0)
    sum_patch(s);
}

/* c and its first mean at sample j (held: within the patch behind the
 * newest) */
static double
c_at(const surface* s, uint64_t j)
{
  return s->ride[j % SURFACE_PATCH_MAX];
}

static double
m_at(const surface* s, uint64_t j)
{
  return s->mean[j % SURFACE_PATCH_MAX];
}

double
surface_ride(surface* s, double position)
{
  const double u = position / SURFACE_SPACING;
  const uint64_t i = u > 0.0 ? double_to_index(u) : 0;
  if (s->ride_next == 0) {
    /* before the first sample the surface is as flat as at it */
    const double c = envelope_at(s, 0);
    for (int k = 0; k < SURFACE_PATCH_MAX; ++k)
      s->ride[k] = s->mean[k] = c;
    s->ride_next = 1;
    sum_patch(s);
  }
  /* c and its first mean up to the sample after the ball */
  while (s->ride_next <= i + 1) {
    const uint64_t n = s->ride_next;
    const double c = envelope_at(s, n);
    /* the trapezoid mean of c over [x[n - w1], x[n]] */
    s->sum_c += c - c_at(s, n - (uint64_t)s->w1 - 1);
    s->ride[n % SURFACE_PATCH_MAX] = c;
    const double m =
        s->w1 > 0
            ? (s->sum_c - 0.5 * (c_at(s, n - (uint64_t)s->w1) + c)) / s->w1
            : c;
    s->sum_m += m - m_at(s, n - (uint64_t)s->w2);
    s->mean[n % SURFACE_PATCH_MAX] = m;
    s->ride_next = n + 1;
    if (n % resum_every == 0)
      sum_patch(s); /* no drift from the running sums */
  }
  /* the mean of m (linear between samples) over [X - w2 h, X], X in
   * sample i's cell at t: the trapezoid over the whole cells between
   * x[i - w2] and x[i], plus the part of cell i up to X, less that of cell
   * i - w2 */
  const int w = s->w2;
  const double t = u > 0.0 ? u - index_to_double(i) : 0.0;
  if (i != s->cell || s->ride_next != s->cell_next) {
    s->cell = i;
    s->cell_next = s->ride_next;
    s->m0 = m_at(s, i);
    s->m1 = m_at(s, i + 1);
    s->b0 = m_at(s, i - (uint64_t)w);
    s->b1 = m_at(s, i - (uint64_t)w + 1);
    s->whole = s->sum_m - s->m1 + s->b1 + s->b0 - 0.5 * (s->b0 + s->m0);
  }
  const double m0 = s->m0, m1 = s->m1, b0 = s->b0, b1 = s->b1;
  const double ahead = t * m0 + 0.5 * t * t * (m1 - m0);
  const double behind = t * b0 + 0.5 * t * t * (b1 - b0);
  return (s->whole + ahead - behind) / w;
}
