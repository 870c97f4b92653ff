/* SPDX-License-Identifier: ISC */
/*
 * The surface under a rolling ball (dsp/surface.c):
 * 1. seen by a very small ball, the profile has the fractal slope of its
 *    generator: fitted PSD slope within 0.05 of -beta over 100..4000
 *    cycles per metre (a decade inside the band), beta 0.5, 1, 1.5, 2;
 * 2. the ride height is the upper envelope of the ball's parabolas through
 *    the samples and of the profile: equal to a brute-force maximum over
 *    every sample within reach, at 2 10^5 positions, several radii/depths;
 * 3. a 4x larger ball bridges more dents: fewer local maxima of its ride
 *    per metre (the asperities it meets), and it rides higher.
 */
#include "analysis.h"
#include "check.h"
#include "surface.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { SAMPLES = 1 << 20, FRAME = 1 << 14 };

static surface s;

static void
fractal_slope(void)
{
  const double rate = 1.0 / SURFACE_SPACING; /* samples per metre */
  float* x = (float*)malloc(sizeof(float) * SAMPLES);
  double* psd = (double*)malloc(sizeof(double) * (FRAME / 2 + 1));
  double* f = (double*)malloc(sizeof(double) * (FRAME / 2 + 1));
  if (!x || !psd || !f)
    exit(1);
  for (int k = 0; k <= FRAME / 2; ++k)
    f[k] = k * rate / FRAME;
  const double betas[4] = {0.5, 1.0, 1.5, 2.0};
  for (int b = 0; b < 4; ++b) {
    surface_init(&s, 99u + (uint64_t)b);
    surface_set(&s, betas[b], 1e-6, 1e-7); /* a 0.1 um ball */
    for (int i = 0; i < SAMPLES; ++i)
      x[i] = (float)(1e6 * surface_ride(&s, (i + 0.37) * SURFACE_SPACING));
    welch_psd(x, SAMPLES, rate, FRAME, psd);
    const double slope = log_slope(f, psd, FRAME / 2 + 1, 100.0, 4000.0);
    printf("beta %.1f: the profile under a 0.1 um ball has slope %.4f\n",
           betas[b], slope);
    CHECK(fabs(slope + betas[b]) <= 0.05, "beta %g: slope %g", betas[b],
          slope);
  }
  free(x);
  free(psd);
  free(f);
}

static void
envelope(void)
{
  const double radii[3] = {1e-3, 8e-3, 50e-3};
  const double depths[3] = {0.3e-6, 3e-6, 30e-6};
  double worst = 0.0;
  long points = 0;
  for (int r = 0; r < 3; ++r)
    for (int d = 0; d < 3; ++d) {
      surface_init(&s, 7u + (uint64_t)(3 * r + d));
      surface_set(&s, 1.5, depths[d], radii[r]);
      double x = 0.05;
      for (int k = 0; k < 22000; ++k, x += 3.7e-6 * (1.0 + (k % 7))) {
        const double ride = surface_ride(&s, x);
        double best = surface_profile(&s, x);
        const long lo = (long)floor((x - s.reach) / SURFACE_SPACING);
        const long hi = (long)ceil((x + s.reach) / SURFACE_SPACING);
        for (long i = lo; i <= hi; ++i) {
          const double u = x - i * SURFACE_SPACING;
          const double h = s.height[i % SURFACE_SAMPLES] - u * u / (2.0 * radii[r]);
          if (h > best)
            best = h;
        }
        worst = fmax(worst, fabs(ride - best) / depths[d]);
        ++points;
      }
    }
  printf("ride height against the brute-force envelope at %ld positions: off "
         "by %.2e of the depth at worst\n",
         points, worst);
  CHECK(worst < 1e-12, "envelope off by %g", worst);
}

/* local maxima per metre of the ride, and its mean height, over 1 m */
static void
asperities(double radius, double* per_metre, double* mean)
{
  surface_init(&s, 4242u);
  surface_set(&s, 1.0, 2e-6, radius);
  const double step = 0.25 * SURFACE_SPACING;
  double a = surface_ride(&s, step), b = surface_ride(&s, 2 * step);
  long peaks = 0, n = 0;
  double sum = 0.0;
  for (double x = 3 * step; x < 1.0; x += step) {
    const double c = surface_ride(&s, x);
    peaks += b > a && b >= c;
    sum += c;
    ++n;
    a = b;
    b = c;
  }
  *per_metre = (double)peaks;
  *mean = sum / n;
}

int
main(void)
{
  fractal_slope();
  envelope();
  double p1, m1, p4, m4;
  asperities(2e-3, &p1, &m1);
  asperities(8e-3, &p4, &m4);
  printf("ball of 2 mm: %.0f asperities met per metre, rides %.3f um up; of "
         "8 mm: %.0f per metre, %.3f um up\n",
         p1, 1e6 * m1, p4, 1e6 * m4);
  CHECK(p4 < 0.7 * p1, "a 4x larger ball meets %g asperities against %g", p4,
        p1);
  CHECK(m4 > m1, "a 4x larger ball rides at %g, a smaller at %g", m4, m1);
  return check_done("test_surface");
}
