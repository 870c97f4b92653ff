/* SPDX-License-Identifier: ISC */
#include "limiter.h"

#include "dsp_util.h"

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

/* The gain K(e) / e for envelope values e > 1, with K = 1 + u / (1 + u /
 * span) = 1 + u span / (span + u), u = e - 1, over one division; 1 at or
 * below full scale.  Apart from the envelope's recursion, so that it
 * vectorises. */
static DSP_INLINE void
apply_gain(const double* e, float* l, float* r, uint32_t frames)
{
  const double span = LIMITER_CEILING - 1.0;
#pragma omp simd
  for (uint32_t t = 0; t < frames; ++t) {
    const double u = e[t] - 1.0, den = span + u;
    const double gain = u > 0.0 ? (den + u * span) / (den * e[t]) : 1.0;
    l[t] = (float)(gain * l[t]);
    r[t] = (float)(gain * r[t]);
  }
}

enum { LIMITER_CHUNK = 64 }; /* envelope values held for apply_gain() */

DSP_VECTOR_CLONES void
limiter_process(output_limiter* lim, float* l, float* r, uint32_t frames)
{
  /* While the envelope is at or below full scale its value never matters:
   * the gain is 1, and the next peak above full scale sets the envelope to
   * itself whatever it was.  So a block that stays below full scale passes
   * untouched without following the envelope through it. */
  if (lim->envelope <= 1.0 && block_peak(l, r, frames) <= 1.0f)
    return;
  double e = lim->envelope;
  double env[LIMITER_CHUNK];
  for (uint32_t t0 = 0; t0 < frames; t0 += LIMITER_CHUNK) {
    const uint32_t n =
        frames - t0 < LIMITER_CHUNK ? frames - t0 : LIMITER_CHUNK;
    for (uint32_t t = 0; t < n; ++t) {
      /* every finite peak, however loud (the physics at its extremes and
       * +60 dB of gain reach +120 dBFS and more), is held under the
       * ceiling; it takes hold + release x ln(peak) to recover, which
       * CC120 cuts short.  The larger magnitude, a NaN ignored as fmax()
       * would (compared inline: fmax() is a call). */
      const double a = fabs((double)l[t0 + t]), b = fabs((double)r[t0 + t]);
      const double peak = a > b || b != b ? a : b;
      if (!isfinite(peak)) {
        /* left to the sanitizer; it must not hold the envelope (the gain
         * of the envelope as it is) */
      } else if (peak >= e) {
        e = peak;
        lim->hold_left = lim->hold;
      } else if (lim->hold_left > 0) {
        --lim->hold_left;
      } else {
        e *= lim->release;
      }
      env[t] = e;
    }
    apply_gain(env, l + t0, r + t0, n);
  }
  lim->envelope = e;
}
