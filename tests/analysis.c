/* SPDX-License-Identifier: ISC */
#include "analysis.h"

#include "fft.h"

#include <math.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

double
dtft_power(const float* x, size_t n, double f, double rate)
{
  /* rotate a phasor instead of calling sin/cos per sample */
  const double w = 2.0 * PI * f / rate;
  const double cw = cos(w), sw = sin(w);
  const double ch = cos(2.0 * PI / (double)n), sh = sin(2.0 * PI / (double)n);
  double pr = 1.0, pi = 0.0; /* e^{-j w t} */
  double hr = 1.0, hi = 0.0; /* e^{j 2 pi t / n}, for the window */
  double re = 0.0, im = 0.0;
  for (size_t t = 0; t < n; ++t) {
    const double s = x[t] * (0.5 - 0.5 * hr);
    re += s * pr;
    im -= s * pi;
    const double npr = pr * cw - pi * sw;
    pi = pr * sw + pi * cw;
    pr = npr;
    const double nhr = hr * ch - hi * sh;
    hi = hr * sh + hi * ch;
    hr = nhr;
  }
  return re * re + im * im;
}

double
peak_frequency(const float* x, size_t n, double rate, double guess, double rel)
{
  double lo = guess * (1.0 - rel), hi = guess * (1.0 + rel);
  /* coarse grid at a quarter bin, then golden section on the best cell */
  const double step = rate / (double)n / 4.0;
  double best_f = guess, best = -1.0;
  for (double f = lo; f <= hi; f += step) {
    const double p = dtft_power(x, n, f, rate);
    if (p > best) {
      best = p;
      best_f = f;
    }
  }
  lo = best_f - step;
  hi = best_f + step;
  const double g = 0.5 * (sqrt(5.0) - 1.0);
  double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
  double pa = dtft_power(x, n, a, rate), pb = dtft_power(x, n, b, rate);
  for (int it = 0; it < 60 && hi - lo > 1e-9 * guess; ++it) {
    if (pa > pb) {
      hi = b;
      b = a;
      pb = pa;
      a = hi - g * (hi - lo);
      pa = dtft_power(x, n, a, rate);
    } else {
      lo = a;
      a = b;
      pa = pb;
      b = lo + g * (hi - lo);
      pb = dtft_power(x, n, b, rate);
    }
  }
  return 0.5 * (lo + hi);
}

double
decay_time(const float* x, size_t n, double rate, double freq, size_t frame)
{
  /* least squares line through (frame centre time, log amplitude) */
  double st = 0, sy = 0, stt = 0, sty = 0;
  int k = 0;
  for (size_t at = 0; at + frame <= n; at += frame / 2, ++k) {
    const double t = (at + 0.5 * frame) / rate;
    const double y = 0.5 * log(dtft_power(x + at, frame, freq, rate) + 1e-300);
    st += t;
    sy += y;
    stt += t * t;
    sty += t * y;
  }
  if (k < 2)
    return NAN;
  const double slope = (k * sty - st * sy) / (k * stt - st * st);
  return -1.0 / slope;
}

double
peak_abs(const float* x, size_t n)
{
  double p = 0.0;
  for (size_t i = 0; i < n; ++i)
    p = fmax(p, fabs(x[i]));
  return p;
}

double
rms(const float* x, size_t n)
{
  double s = 0.0;
  for (size_t i = 0; i < n; ++i)
    s += (double)x[i] * x[i];
  return n ? sqrt(s / (double)n) : 0.0;
}

void
welch_psd(const float* x, size_t n, double rate, int frame, double* psd)
{
  double complex* spectrum = malloc(sizeof(double complex) * (size_t)frame);
  double window_power = 0.0;
  for (int i = 0; i < frame; ++i)
    window_power +=
        fft_hann((size_t)i, (size_t)frame) * fft_hann((size_t)i, (size_t)frame);
  for (int k = 0; k <= frame / 2; ++k)
    psd[k] = 0.0;
  int frames = 0;
  for (size_t at = 0; spectrum && at + (size_t)frame <= n;
       at += (size_t)frame / 2, ++frames) {
    for (int i = 0; i < frame; ++i)
      spectrum[i] = x[at + i] * fft_hann((size_t)i, (size_t)frame);
    if (fft_transform(spectrum, (size_t)frame, -1))
      break;
    for (int k = 0; k <= frame / 2; ++k)
      psd[k] += (creal(spectrum[k]) * creal(spectrum[k]) +
                 cimag(spectrum[k]) * cimag(spectrum[k])) *
                (k == 0 || k == frame / 2 ? 1.0 : 2.0);
  }
  for (int k = 0; k <= frame / 2; ++k)
    psd[k] /= frames * window_power * rate;
  free(spectrum);
}

double
spectral_centroid(const float* x, size_t n, double rate, int frame, double f1,
                  double f2)
{
  double* psd = (double*)malloc(((size_t)frame / 2 + 1) * sizeof(double));
  if (!psd)
    return NAN;
  welch_psd(x, n, rate, frame, psd);
  double num = 0.0, den = 0.0;
  for (int k = 1; k <= frame / 2; ++k) {
    const double f = k * rate / frame;
    if (f >= f1 && f <= f2) {
      num += f * psd[k];
      den += psd[k];
    }
  }
  free(psd);
  return den > 0.0 ? num / den : 0.0;
}

double
log_slope(const double* f, const double* power, int count, double f1, double f2)
{
  /* average within third-octave bands, then fit the band means */
  double st = 0, sy = 0, stt = 0, sty = 0;
  int bands = 0;
  for (double lo = f1; lo < f2; lo *= pow(2.0, 1.0 / 3.0)) {
    const double hi = fmin(lo * pow(2.0, 1.0 / 3.0), f2);
    double sum = 0.0;
    int k = 0;
    for (int i = 0; i < count; ++i)
      if (f[i] >= lo && f[i] < hi) {
        sum += power[i];
        ++k;
      }
    if (k == 0)
      continue;
    const double t = log10(sqrt(lo * hi));
    const double y = log10(sum / k);
    st += t;
    sy += y;
    stt += t * t;
    sty += t * y;
    ++bands;
  }
  return (bands * sty - st * sy) / (bands * stt - st * st);
}

double
fit_damped_sines(const float* x, size_t n, double rate, int k,
                 const double* freq, const double* decay, double* re,
                 double* im)
{
  enum { MAX = 32 };
  const int m = 2 * k;
  if (k < 1 || m > MAX)
    return NAN;
  double a[MAX][MAX + 1] = {{0}};
  double cr[MAX / 2], ci[MAX / 2], rr[MAX / 2], ri[MAX / 2], basis[MAX];
  for (int i = 0; i < k; ++i) {
    /* e^((-1/decay + j w) t), rotated a step at a time */
    const double g = isfinite(decay[i]) ? exp(-1.0 / (decay[i] * rate)) : 1.0;
    const double w = 2.0 * PI * freq[i] / rate;
    rr[i] = g * cos(w);
    ri[i] = g * sin(w);
    cr[i] = 1.0;
    ci[i] = 0.0;
  }
  for (size_t t = 0; t < n; ++t) {
    for (int i = 0; i < k; ++i) {
      basis[2 * i] = cr[i];
      basis[2 * i + 1] = ci[i];
      const double nr = cr[i] * rr[i] - ci[i] * ri[i];
      ci[i] = cr[i] * ri[i] + ci[i] * rr[i];
      cr[i] = nr;
    }
    for (int r = 0; r < m; ++r) {
      for (int c = r; c < m; ++c)
        a[r][c] += basis[r] * basis[c];
      a[r][m] += basis[r] * x[t];
    }
  }
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < r; ++c)
      a[r][c] = a[c][r];
  /* Gaussian elimination with partial pivoting */
  for (int c = 0; c < m; ++c) {
    int p = c;
    for (int r = c + 1; r < m; ++r)
      if (fabs(a[r][c]) > fabs(a[p][c]))
        p = r;
    if (a[p][c] == 0.0)
      return NAN;
    for (int j = 0; j <= m; ++j) {
      const double tmp = a[c][j];
      a[c][j] = a[p][j];
      a[p][j] = tmp;
    }
    for (int r = c + 1; r < m; ++r) {
      const double f = a[r][c] / a[c][c];
      for (int j = c; j <= m; ++j)
        a[r][j] -= f * a[c][j];
    }
  }
  double sol[MAX];
  for (int r = m - 1; r >= 0; --r) {
    double s = a[r][m];
    for (int j = r + 1; j < m; ++j)
      s -= a[r][j] * sol[j];
    sol[r] = s / a[r][r];
  }
  for (int i = 0; i < k; ++i) {
    re[i] = sol[2 * i];
    im[i] = sol[2 * i + 1];
    cr[i] = 1.0;
    ci[i] = 0.0;
  }
  /* the residual */
  double sum = 0.0;
  for (size_t t = 0; t < n; ++t) {
    double y = x[t];
    for (int i = 0; i < k; ++i) {
      y -= re[i] * cr[i] + im[i] * ci[i];
      const double nr = cr[i] * rr[i] - ci[i] * ri[i];
      ci[i] = cr[i] * ri[i] + ci[i] * rr[i];
      cr[i] = nr;
    }
    sum += y * y;
  }
  return n ? sqrt(sum / (double)n) : NAN;
}

void
measure_modes(const float* x, size_t window, size_t gap, double rate, int k,
              const double* freq_guess, const double* decay_guess, double* freq,
              double* decay, double* amp)
{
  double re1[16], im1[16], re2[16], im2[16];
  fit_damped_sines(x, window, rate, k, freq_guess, decay_guess, re1, im1);
  fit_damped_sines(x + gap, window, rate, k, freq_guess, decay_guess, re2, im2);
  const double dt = (double)gap / rate;
  for (int i = 0; i < k; ++i) {
    /* complex amplitudes re - j im (cos + j sin basis) */
    const double a1 = hypot(re1[i], im1[i]), a2 = hypot(re2[i], im2[i]);
    const double p1 = atan2(-im1[i], re1[i]), p2 = atan2(-im2[i], re2[i]);
    const double expect = 2.0 * PI * freq_guess[i] * dt;
    double turn = p2 - p1 - expect;
    turn -= 2.0 * PI * floor(turn / (2.0 * PI) + 0.5);
    freq[i] = (expect + turn) / (2.0 * PI * dt);
    decay[i] = dt / log(a1 / a2);
    if (amp)
      amp[i] = a1;
  }
}

double
worst_of(double worst, double err)
{
  return isnan(err) || isnan(worst) ? INFINITY : fmax(worst, fabs(err));
}

double
max_step(const float* x, size_t from, size_t to)
{
  double m = 0.0;
  for (size_t i = from + 1; i < to; ++i)
    m = fmax(m, fabs((double)x[i] - x[i - 1]));
  return m;
}
