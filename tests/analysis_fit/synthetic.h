/* SPDX-License-Identifier: ISC */
/* A synthetic recording for the analysis tests: damped modes
 * a e^{-t / t_e} sin(2 pi f t + phase) from `lead` s of noise on, scaled
 * by SYNTHETIC_SCALE, in Gaussian noise 40 dB under the modes' power at
 * the onset (noise.h: the draws of the stream as seeded), analysed mono
 * with the default options. */
#ifndef CONTACT_TEST_SYNTHETIC_H
#define CONTACT_TEST_SYNTHETIC_H

#include "check.h"
#include "modal_analysis.h"
#include "noise.h"

#include <math.h>
#include <stdlib.h>

#define SYNTHETIC_SCALE 0.25

typedef struct {
  double f, te, a, phase; /* Hz, s, amplitude, rad at the onset */
} synthetic_mode;

/* the analysis of n modes, `seconds` long after `lead`; false (checked)
 * if it failed */
static inline bool
synthetic_analyse(const synthetic_mode* m, int n, double lead, double seconds,
                  double rate, const char* what, int seed, analysis_result* res)
{
  const size_t n0 = (size_t)(lead * rate);
  const size_t len = n0 + (size_t)(seconds * rate);
  float* x = (float*)malloc(sizeof(float) * len);
  if (!x) {
    CHECK(false, "out of memory");
    return false;
  }
  double p0 = 0.0;
  for (int k = 0; k < n; ++k)
    p0 += 0.5 * m[k].a * m[k].a;
  const double sigma = SYNTHETIC_SCALE * sqrt(p0 / 1e4); /* 40 dB */
  for (size_t i = 0; i < len; ++i) {
    double v = 0.0;
    if (i >= n0) {
      const double t = (double)(i - n0) / rate;
      for (int k = 0; k < n; ++k)
        v += m[k].a * exp(-t / m[k].te) *
             sin(2.0 * 3.14159265358979323846 * m[k].f * t + m[k].phase);
    }
    x[i] = (float)(SYNTHETIC_SCALE * v + sigma * noise_gauss());
  }
  const float* ch[1] = {x};
  analysis_options opt = analysis_default_options();
  const analysis_status st = analysis_run(ch, 1, len, rate, &opt, res);
  free(x);
  CHECK(st == ANALYSIS_SUCCESS, "%s, seed %d: %s", what, seed,
        analysis_strerror(st));
  return st == ANALYSIS_SUCCESS;
}

#endif
