/* SPDX-License-Identifier: ISC */
/*
 * The surface under a rolling ball (dsp/surface.c):
 * 1. seen by a very small ball, the profile has the fractal slope of its
 *    generator: fitted PSD slope within 0.05 of -beta over 100..4000
 *    cycles per metre (a decade inside the band), beta 0.5, 1, 1.5, 2;
 * 2. the height the ball rides at is the upper envelope of its parabolas
 *    through the samples and of the profile: equal to a brute-force
 *    maximum over every sample within reach (averaged over a one-sample
 *    patch), at 2 10^5 samples, several radii and depths;
 *    and over a wider contact patch it is the triangle-weighted mean of
 *    that (two running trapezoid means), and smoother;
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
    CHECK(fabs(slope + betas[b]) <= 0.05, "beta %g: slope %g", betas[b], slope);
  }
  free(x);
  free(psd);
  free(f);
}

/* c at sample i by brute force: the highest of the parabolas through
 * every sample within reach, and the profile */
static double
brute_c(const surface* t, long i, double radius)
{
  const double x = i * SURFACE_SPACING;
  double best = t->height[i % SURFACE_SAMPLES];
  const long lo = (long)floor((x - t->reach) / SURFACE_SPACING);
  const long hi = (long)ceil((x + t->reach) / SURFACE_SPACING);
  for (long j = lo < 0 ? 0 : lo; j <= hi; ++j) {
    const double u = x - j * SURFACE_SPACING;
    const double h = t->height[j % SURFACE_SAMPLES] - u * u / (2.0 * radius);
    if (h > best)
      best = h;
  }
  return best;
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
      /* a one-sample patch: the ride at sample i is the mean of c over
       * [x(i-1), x(i)], (c(i-1) + c(i)) / 2 */
      for (long i = 5000, k = 0; k < 22000; ++k, i += 1 + k % 3) {
        const double ride = surface_ride(&s, i * SURFACE_SPACING);
        const double best =
            0.5 * (brute_c(&s, i - 1, radii[r]) + brute_c(&s, i, radii[r]));
        worst = fmax(worst, fabs(ride - best) / depths[d]);
        ++points;
      }
    }
  printf("ride height against the brute-force envelope at %ld samples: off "
         "by %.2e of the depth at worst\n",
         points, worst);
  CHECK(worst < 1e-10, "envelope off by %g", worst);
}

/* the patch mean: against the same surface with a one-sample patch, the
 * ride is the triangle-weighted mean of its c over the patch */
static void
patch(void)
{
  static surface t;
  surface_init(&s, 31u);
  surface_init(&t, 31u);
  surface_set(&s, 1.5, 1e-6, 8e-3);
  surface_set(&t, 1.5, 1e-6, 8e-3);
  surface_set_patch(&s, 7 * SURFACE_SPACING); /* means of 3 and 4 samples */
  double worst = 0.0, rough_s = 0.0, rough_t = 0.0, prev_s = 0.0, prev_t = 0.0;
  for (long i = 1000; i < 200000; ++i) {
    const double rs = surface_ride(&s, i * SURFACE_SPACING);
    const double rt = surface_ride(&t, i * SURFACE_SPACING);
    /* t's ride at sample i is (c(i-1) + c(i)) / 2; s's is the mean of the
     * trapezoid means of 3 samples at i-4..i */
    double m[5];
    for (int k = 0; k < 5; ++k) {
      const long j = i - 4 + k;
      const double c0 = t.ride[(j - 3) % SURFACE_PATCH_MAX],
                   c1 = t.ride[(j - 2) % SURFACE_PATCH_MAX],
                   c2 = t.ride[(j - 1) % SURFACE_PATCH_MAX],
                   c3 = t.ride[j % SURFACE_PATCH_MAX];
      m[k] = (0.5 * c0 + c1 + c2 + 0.5 * c3) / 3.0;
    }
    const double expected =
        (0.5 * m[0] + m[1] + m[2] + m[3] + 0.5 * m[4]) / 4.0;
    worst = fmax(worst, fabs(rs - expected) / 1e-6);
    if (i > 1000) {
      rough_s += fabs(rs - prev_s);
      rough_t += fabs(rt - prev_t);
    }
    prev_s = rs;
    prev_t = rt;
  }
  printf("a 7-sample contact patch: ride off its triangle mean by %.1e of the "
         "depth; path length %.2f of the unpatched one\n",
         worst, rough_s / rough_t);
  CHECK(worst < 1e-10, "patch mean off by %g", worst);
  CHECK(rough_s < 0.9 * rough_t, "the patch does not smooth (%g)",
        rough_s / rough_t);
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
  patch();
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
