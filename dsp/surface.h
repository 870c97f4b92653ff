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
 *
 * Contact patch.  The ball does not touch a point: under its load it
 * flattens over a patch of diameter 2 a, a = sqrt(R x) for a compression x
 * (Hertz), and roughness finer than that is pressed flat.  So the height
 * the contact finally sees is the mean of c (linear between samples) over
 * the patch, weighted like a triangle (two running means of half the
 * patch), the window ending at the ball: a lag of half a patch, which
 * only relabels a random surface.  The mean has a continuous slope: it
 * takes the kinks out of c where the ball passes from one asperity to the
 * next, which would otherwise strike the ball at every one.
 */
#ifndef CONTACT_SURFACE_H
#define CONTACT_SURFACE_H

#include "fractal.h"

#include <stdint.h>

/* Profile samples held (ahead of and behind the ball), their spacing, and
 * the most samples a contact patch spans. */
enum { SURFACE_SAMPLES = 4096, SURFACE_PATCH_MAX = 512 };
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
  /* c at the samples the ball has reached, and its means over the patch */
  double ride[SURFACE_PATCH_MAX]; /* c at index i % SURFACE_PATCH_MAX */
  double mean[SURFACE_PATCH_MAX]; /* its first running mean */
  uint64_t ride_next;             /* the next sample to take c at */
  int w1, w2;                     /* samples of the two means */
  double sum_c, sum_m;            /* their running sums */
  /* what the ride in one cell needs of the means, kept while the ball
   * stays in it (cell is UINT64_MAX when there is none) */
  uint64_t cell, cell_next; /* the cell, and ride_next when it was taken */
  double whole, m0, m1, b0, b1;
} surface;

void surface_init(surface* s, uint64_t seed);

/* Roughness beta (0 flat spectrum .. 3), RMS depth (m) and ball radius (m).
 * The profile ahead is kept; the envelope is rebuilt. */
void surface_set(surface* s, double beta, double depth, double radius);

/* The contact patch's diameter, m (at least one sample). */
void surface_set_patch(surface* s, double diameter);

/* Move the ball to `position` (m, not behind the last one) and return the
 * height its contact rides at: the patch mean of c. */
double surface_ride(surface* s, double position);

/* The profile itself at `position` (linear between samples), for tests. */
double surface_profile(const surface* s, double position);

#endif
