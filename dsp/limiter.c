/* SPDX-License-Identifier: ISC */
#include "limiter.h"

#include <math.h>

void
limiter_init(output_limiter* lim, double sample_rate)
{
  lim->release = exp(-1.0 / (LIMITER_RELEASE_S * sample_rate));
  lim->hold = (uint32_t)(LIMITER_HOLD_S * sample_rate);
  limiter_reset(lim);
}

void
limiter_reset(output_limiter* lim)
{
  lim->envelope = 0.0;
  lim->hold_left = 0;
}

/* the largest magnitude of the pair (NaN ignored) */
static float
block_peak(const float* l, const float* r, uint32_t frames)
{
  float peak = 0.0f;
#pragma omp simd reduction(max : peak)
  for (uint32_t t = 0; t < frames; ++t) {
    const float a = fabsf(l[t]), b = fabsf(r[t]);
    peak = a > peak ? a : peak;
    peak = b > peak ? b : peak;
  }
  return peak;
}

void
limiter_process(output_limiter* lim, float* l, float* r, uint32_t frames)
{
  /* While the envelope is at or below full scale its value never matters:
   * the gain is 1, and the next peak above full scale sets the envelope to
   * itself whatever it was.  So a block that stays below full scale passes
   * untouched without following the envelope through it. */
  if (lim->envelope <= 1.0 && block_peak(l, r, frames) <= 1.0f)
    return;
  const double span = LIMITER_CEILING - 1.0;
  double e = lim->envelope;
  for (uint32_t t = 0; t < frames; ++t) {
    /* every finite peak, however loud (the physics at its extremes and +60
     * dB of gain reach +120 dBFS and more), is held under the ceiling; it
     * takes hold + release x ln(peak) to recover, which CC120 cuts short.
     * The larger magnitude, a NaN ignored as fmax() would (compared
     * inline: fmax() is a call). */
    const double a = fabs((double)l[t]), b = fabs((double)r[t]);
    const double peak = a > b || b != b ? a : b;
    if (!isfinite(peak))
      continue; /* left to the sanitizer; it must not hold the envelope */
    if (peak >= e) {
      e = peak;
      lim->hold_left = lim->hold;
    } else if (lim->hold_left > 0) {
      --lim->hold_left;
    } else {
      e *= lim->release;
    }
    if (e > 1.0) {
      /* K(e) / e with K = 1 + u / (1 + u / span) = 1 + u span / (span + u),
       * over one division */
      const double u = e - 1.0, den = span + u;
      const double gain = (den + u * span) / (den * e);
      l[t] = (float)(gain * l[t]);
      r[t] = (float)(gain * r[t]);
    }
  }
  lim->envelope = e;
}
