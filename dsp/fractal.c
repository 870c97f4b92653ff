/* SPDX-License-Identifier: ISC */
#include "fractal.h"

#include "dsp_util.h"

#include <math.h>
#include <string.h>

void
fractal_init(fractal_noise* n, double rate, uint64_t seed)
{
  memset(n, 0, sizeof(*n));
  n->rate = rate;
  fractal_restart(n, seed);
  fractal_set(n, 1.0, 20.0, 0.4 * rate, 2);
}

void
fractal_restart(fractal_noise* n, uint64_t seed)
{
  memset(n->s1, 0, sizeof(n->s1));
  memset(n->s2, 0, sizeof(n->s2));
  n->state = seed ? seed : 0x9E3779B97F4A7C15ull;
}

/* |1 - c e^{-j w}|^2 = (1 - c)^2 + 4 c sin^2(w/2), exact near w = 0 */
static double
section_power(double c, double sin_half_w2)
{
  return (1.0 - c) * (1.0 - c) + 4.0 * c * sin_half_w2;
}

static double
power_at(const fractal_noise* n, double w)
{
  const double s = sin(0.5 * w);
  const double s2 = s * s;
  double p = 1.0;
  for (int i = 0; i < n->sections; ++i)
    p *= section_power(n->b[i], s2) / section_power(n->a[i], s2);
  return p;
}

double
fractal_power_response(const fractal_noise* n, double f)
{
  return power_at(n, 2.0 * DSP_PI * f / n->rate);
}

void
fractal_set(fractal_noise* n, double beta, double f_low, double f_high,
            int per_decade)
{
  if (per_decade < 1)
    per_decade = 1;
  /* [ch8] eq 8.23: poles per_decade a decade apart from f_low, each zero
   * beta / (2 per_decade) decades above its pole */
  int count = 0;
  for (; count < FRACTAL_MAX_SECTIONS; ++count) {
    const double fp = f_low * pow(10.0, (double)count / per_decade);
    if (fp > f_high)
      break;
    n->pole[count] = fp;
    n->zero[count] = fp * pow(10.0, beta / (2.0 * per_decade));
    /* impulse invariance, eq 8.24 */
    n->a[count] = exp(-2.0 * DSP_PI * n->pole[count] / n->rate);
    n->b[count] = exp(-2.0 * DSP_PI * n->zero[count] / n->rate);
  }
  n->sections = count;

  /* pairs of sections as biquads (eq 8.29 with the sign erratum fixed); an
   * odd one out is paired with a pass-through */
  for (int j = 0; 2 * j < count; ++j) {
    const double a0 = n->a[2 * j], b0 = n->b[2 * j];
    const double a1 = 2 * j + 1 < count ? n->a[2 * j + 1] : 0.0;
    const double b1 = 2 * j + 1 < count ? n->b[2 * j + 1] : 0.0;
    n->b1[j] = -(b0 + b1);
    n->b2[j] = b0 * b1;
    n->a1[j] = -(a0 + a1);
    n->a2[j] = a0 * a1;
  }

  /* unit RMS for unit white noise: the mean of |H|^2 over (0, pi),
   * integrated by Simpson's rule on a log-frequency grid from two decades
   * below the lowest pole, where |H|^2 is flat, to Nyquist */
  enum { INTERVALS = 1024 };
  const double w_min = 2.0 * DSP_PI * f_low / n->rate / 100.0;
  const double u0 = log(w_min / DSP_PI);
  const double du = -u0 / INTERVALS;
  double sum = power_at(n, w_min) * w_min; /* the flat part [0, w_min] */
  double simpson = 0.0;
  for (int k = 0; k <= INTERVALS; ++k) {
    const double w = DSP_PI * exp(u0 + k * du);
    const double weight =
        (k == 0 || k == INTERVALS) ? 1.0 : (k % 2 ? 4.0 : 2.0);
    simpson += weight * power_at(n, w) * w;
  }
  sum += simpson * du / 3.0;
  n->gain = 1.0 / sqrt(sum / DSP_PI);
}

double
fractal_next(fractal_noise* n)
{
  /* xorshift64*, then uniform on (-sqrt 3, sqrt 3): unit variance */
  uint64_t s = n->state;
  s ^= s >> 12;
  s ^= s << 25;
  s ^= s >> 27;
  n->state = s;
  const double u = (double)((s * 2685821657736338717ull) >> 11) * 0x1p-53;
  double x = (u - 0.5) * 3.4641016151377546;
  /* transposed direct form II biquads */
  const int pairs = (n->sections + 1) / 2;
  for (int j = 0; j < pairs; ++j) {
    const double y = x + n->s1[j];
    n->s1[j] = n->b1[j] * x - n->a1[j] * y + n->s2[j];
    n->s2[j] = n->b2[j] * x - n->a2[j] * y;
    x = y;
  }
  return n->gain * x;
}
