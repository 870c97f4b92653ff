/* SPDX-License-Identifier: ISC */
/*
 * The surface under a rolling ball ([papetti] I-B, [ch8] 8.3.3): a fractal
 * profile laid along the path, and the height at which a ball of radius R
 * rides on it.
 *
 * Profile.  Heights h_i at a fixed spacing along the path are fractal noise
 * (fractal.h) with the spatial slope 1/k^beta from wavelengths of 10 cm
 * down to 2.5 spacings, scaled to the RMS depth and clipped at 4 RMS.
 * Being indexed by distance, the profile's temporal spectrum scales with
 * the rolling speed.
 *
 * Ball.  Near its bottom a ball of radius R is the parabola -u^2 / (2 R)
 * (exact to (h / R)^2 for heights h << R).  Resting on the sample at x_i,
 * its bottom would be at h_i - (x - x_i)^2 / (2 R) below its centre's
 * abscissa x; the ball settles on the highest of these, so it rides on the
 * upper envelope of the parabolas through the profile samples, and it
 * never sinks below the profile itself (linear between samples):
 *     c(x) = max( max_i [h_i - (x - x_i)^2 / (2 R)],  h(x) ).
 * Dents narrower than the ball are bridged; a large ball only meets the
 * peaks.  Equal parabolas meet once, so the envelope is a sequence of
 * arcs in order of x_i, kept in a deque as the ball advances (amortised
 * O(1) per sample, Felzenszwalb and Huttenlocher's construction).  Only
 * samples within reach = sqrt(2 R (h_max - h_min)) of x can reach the
 * envelope, so the profile is generated that far ahead.
 */
#ifndef CONTACT_SURFACE_H
#define CONTACT_SURFACE_H

#include "fractal.h"

#include <stdint.h>

/* Profile samples held (ahead of and behind the ball), and their spacing. */
enum { SURFACE_SAMPLES = 4096 };
#define SURFACE_SPACING 10e-6 /* m */

typedef struct surface {
  fractal_noise noise; /* unit RMS, one sample per spacing */
  double beta;         /* roughness: the profile's spectrum is 1/k^beta */
  double depth;        /* m, RMS height */
  double radius;       /* m, of the ball */
  double reach;        /* m, see above */
  double height[SURFACE_SAMPLES]; /* h_i, m, at index i % SURFACE_SAMPLES */
  uint64_t next;                  /* index of the next sample to generate */
  /* the envelope: parabolas by sample index, each from its start abscissa */
  uint64_t arc[SURFACE_SAMPLES];
  double arc_start[SURFACE_SAMPLES];
  int arc_first, arc_count; /* a ring over arc[], arc_start[] */
  double position;          /* m, the ball's abscissa */
} surface;

void surface_init(surface* s, uint64_t seed);

/* Roughness beta (0 flat spectrum .. 3), RMS depth (m) and ball radius (m).
 * The profile ahead is kept; the envelope is rebuilt. */
void surface_set(surface* s, double beta, double depth, double radius);

/* Move the ball to `position` (m, not behind the last one) and return the
 * height its bottom rides at, c(position) above. */
double surface_ride(surface* s, double position);

/* The profile itself at `position` (linear between samples), for tests. */
double surface_profile(const surface* s, double position);

#endif
