/* SPDX-License-Identifier: ISC */
#include "surface.h"

#include <math.h>
#include <string.h>

/* the profile's band: wavelengths from 10 cm to 2.5 spacings */
static const double longest_wavelength = 0.1; /* m */
static const double clip = 4.0;               /* RMS */

void
surface_init(surface* s, uint64_t seed)
{
  memset(s, 0, sizeof(*s));
  fractal_init(&s->noise, 1.0 / SURFACE_SPACING, seed);
  surface_set(s, 1.0, 1e-6, 5e-3);
}

static double
sample_x(uint64_t i)
{
  return (double)i * SURFACE_SPACING;
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
    const int back = (s->arc_first + s->arc_count - 1) % SURFACE_SAMPLES;
    start = crossing(s, s->arc[back], j);
    if (s->arc_count > 1 && start <= s->arc_start[back]) {
      --s->arc_count;
      continue;
    }
    break;
  }
  const int at = (s->arc_first + s->arc_count) % SURFACE_SAMPLES;
  s->arc[at] = j;
  s->arc_start[at] = start;
  ++s->arc_count;
}

static uint64_t
first_needed(const surface* s)
{
  const double from = (s->position - s->reach) / SURFACE_SPACING - 1.0;
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
  const uint64_t i = (uint64_t)u;
  const double t = u - (double)i;
  const double h0 = s->height[i % SURFACE_SAMPLES];
  const double h1 = s->height[(i + 1) % SURFACE_SAMPLES];
  return h0 + t * (h1 - h0);
}

double
surface_ride(surface* s, double position)
{
  if (position > s->position)
    s->position = position;
  const double x = s->position;
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
         s->arc_start[(s->arc_first + 1) % SURFACE_SAMPLES] <= x) {
    s->arc_first = (s->arc_first + 1) % SURFACE_SAMPLES;
    --s->arc_count;
  }
  const uint64_t i = s->arc[s->arc_first];
  const double d = x - sample_x(i);
  const double arc = s->height[i % SURFACE_SAMPLES] - d * d / (2.0 * s->radius);
  const double profile = surface_profile(s, x);
  return arc > profile ? arc : profile;
}
