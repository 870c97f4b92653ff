/* SPDX-License-Identifier: ISC */
/*
 * Fractal noise ([ch8] 8.3.3): for beta = 0.5, 1, 1.5, 2 the measured
 * spectral slope of the generated noise is within 0.02 of the slope of its
 * ideal pole/zero cascade and within 6 % of -beta; the noise has unit RMS;
 * and eq 8.26 as printed, (1 + b z^-1) / (1 + a z^-1), would tilt the
 * spectrum the wrong way (the erratum), while (1 - b z^-1) / (1 - a z^-1)
 * gives the 1/f^beta fall.
 */
#include "analysis.h"
#include "check.h"
#include "fractal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

/* |H|^2 of the cascade as printed in eq 8.26 */
static double
printed_power(const fractal_noise* n, double f)
{
  const double w = 2.0 * PI * f / n->rate;
  double p = 1.0;
  for (int i = 0; i < n->sections; ++i) {
    const double num = 1.0 + 2.0 * n->b[i] * cos(w) + n->b[i] * n->b[i];
    const double den = 1.0 + 2.0 * n->a[i] * cos(w) + n->a[i] * n->a[i];
    p *= num / den;
  }
  return p;
}

int
main(void)
{
  enum { FRAME = 16384, SAMPLES = 1 << 22 };
  const double rate = 48000.0;
  /* poles from 10 Hz to 20 kHz, 3 a decade; the slope is fitted from a
   * decade above the first pole to a decade below the last */
  const double f_low = 10.0, f_high = 20000.0, fit_lo = 100.0, fit_hi = 2000.0;
  float* x = (float*)malloc(sizeof(float) * SAMPLES);
  double* psd = (double*)malloc(sizeof(double) * (FRAME / 2 + 1));
  double* f = (double*)malloc(sizeof(double) * (FRAME / 2 + 1));
  double* ideal = (double*)malloc(sizeof(double) * (FRAME / 2 + 1));
  double* printed = (double*)malloc(sizeof(double) * (FRAME / 2 + 1));
  if (!x || !psd || !f || !ideal || !printed)
    return 1;
  for (int k = 0; k <= FRAME / 2; ++k)
    f[k] = k * rate / FRAME;

  static fractal_noise noise;
  const double betas[4] = {0.5, 1.0, 1.5, 2.0};
  for (int b = 0; b < 4; ++b) {
    fractal_init(&noise, rate, 12345u + (uint64_t)b);
    fractal_set(&noise, betas[b], f_low, f_high, 3);
    double power = 0.0;
    for (int i = 0; i < SAMPLES; ++i) {
      x[i] = (float)fractal_next(&noise);
      power += (double)x[i] * x[i];
    }
    welch_psd(x, SAMPLES, rate, FRAME, psd);
    for (int k = 0; k <= FRAME / 2; ++k) {
      ideal[k] = fractal_power_response(&noise, f[k]);
      printed[k] = printed_power(&noise, f[k]);
    }
    const int bins = FRAME / 2 + 1;
    const double measured = log_slope(f, psd, bins, fit_lo, fit_hi);
    const double target = log_slope(f, ideal, bins, fit_lo, fit_hi);
    const double as_printed = log_slope(f, printed, bins, fit_lo, fit_hi);
    printf("beta %.1f: measured slope %.4f, ideal cascade %.4f, eq 8.26 as "
           "printed %+.4f\n",
           betas[b], measured, target, as_printed);
    CHECK(fabs(measured - target) <= 0.02, "beta %g: %g vs cascade %g",
          betas[b], measured, target);
    CHECK(fabs(measured / -betas[b] - 1.0) <= 0.06, "beta %g: slope %g",
          betas[b], measured);
    CHECK(as_printed > 0.0, "the printed form does not rise (%g)", as_printed);
    check_rel("RMS", sqrt(power / SAMPLES), 1.0, 0.05);
  }
  free(x);
  free(psd);
  free(f);
  free(ideal);
  free(printed);
  return check_done("test_fractal");
}
