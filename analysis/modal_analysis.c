/* SPDX-License-Identifier: ISC */
/*
 * The pipeline: onset and start of the free decay, noise floor, one FFT of
 * the decay, then band by band a heterodyned, low-passed and decimated
 * complex signal taken from that FFT, fitted by ESPRIT (esprit.c); the
 * poles kept, merged and turned into modes.
 */
#include "modal_analysis.h"

#include "esprit.h"
#include "fft.h"

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

const char*
analysis_strerror(analysis_status status)
{
  switch (status) {
  case ANALYSIS_SUCCESS:
    return "success";
  case ANALYSIS_ERR_ARGUMENT:
    return "bad argument";
  case ANALYSIS_ERR_RATE:
    return "sample rate outside 22.05-192 kHz";
  case ANALYSIS_ERR_TOO_SHORT:
    return "no free decay long enough to analyse";
  case ANALYSIS_ERR_SILENT:
    return "nothing above the noise floor";
  case ANALYSIS_ERR_NO_MODES:
    return "no decaying mode found";
  case ANALYSIS_ERR_MEMORY:
    return "out of memory";
  case ANALYSIS_ERR_CANCELLED:
    return "cancelled";
  }
  return "unknown status";
}

analysis_options
analysis_default_options(void)
{
  return (analysis_options){32, 20.0, 0.0, 60.0, NULL, NULL};
}

static size_t
pow2_at_least(size_t n)
{
  size_t p = 1;
  while (p < n)
    p <<= 1;
  return p;
}

static int
cmp_double(const void* a, const void* b)
{
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Noise floor against frequency, white-equivalent: the variance per sample
 * a white noise of the same spectral density would have.  Minimum
 * statistics (after Martin 2001): Hann frames of about 0.17 s over the
 * decay; per frame and per block of bins (1/6 octave, 24 bins at least)
 * the lower quartile of the power, which the sparse peaks of the modes
 * (a quarter of the bins at most) do not move; per block the 20 %
 * quantile of that over the frames, the late, quiet frames.  The lower
 * quartile of a chi-squared (2 dof) power is -ln(3/4) of its mean. */
typedef struct {
  int n_blocks;
  double df;      /* Hz per bin of the frames */
  int* block_end; /* bins */
  double* var;    /* per block */
} noise_floor;

static int
noise_floor_estimate(const double* x, size_t n, double rate, noise_floor* nf)
{
  memset(nf, 0, sizeof(*nf));
  size_t f = pow2_at_least((size_t)(rate * 0.17));
  while (f > 256 && n / f < 8)
    f >>= 1;
  const size_t frames = n / f;
  if (frames < 1)
    return -1;
  const int bins = (int)(f / 2);
  nf->df = rate / (double)f;
  nf->block_end = malloc(sizeof(int) * (size_t)bins);
  nf->var = malloc(sizeof(double) * (size_t)bins);
  double complex* buf = malloc(sizeof(*buf) * f);
  double* med = malloc(sizeof(double) * (size_t)bins * frames);
  double* tmp = malloc(sizeof(double) * (f > frames ? f : frames));
  double* win = malloc(sizeof(double) * f);
  int err = -1;
  if (!nf->block_end || !nf->var || !buf || !med || !tmp || !win)
    goto done;
  int nb = 0;
  for (int k = 1; k < bins;) {
    int w = (int)(0.12 * k);
    if (w < 24)
      w = 24;
    int end = k + w < bins ? k + w : bins;
    if (bins - end < 8)
      end = bins;
    nf->block_end[nb++] = end;
    k = end;
  }
  nf->n_blocks = nb;
  double w2 = 0.0;
  for (size_t i = 0; i < f; ++i) {
    win[i] = 0.5 - 0.5 * cos(2.0 * PI * (double)i / (double)f);
    w2 += win[i] * win[i];
  }
  for (size_t fr = 0; fr < frames; ++fr) {
    for (size_t i = 0; i < f; ++i)
      buf[i] = x[fr * f + i] * win[i];
    if (fft_transform(buf, f, -1))
      goto done;
    int k = 1;
    for (int b = 0; b < nb; ++b) {
      int m = 0;
      for (; k < nf->block_end[b]; ++k)
        tmp[m++] =
            creal(buf[k]) * creal(buf[k]) + cimag(buf[k]) * cimag(buf[k]);
      qsort(tmp, (size_t)m, sizeof(double), cmp_double);
      med[(size_t)b * frames + fr] = tmp[m / 4] / (-log(0.75) * w2);
    }
  }
  for (int b = 0; b < nb; ++b) {
    double* row = med + (size_t)b * frames;
    qsort(row, frames, sizeof(double), cmp_double);
    nf->var[b] = row[(size_t)(0.2 * (double)(frames - 1))];
  }
  err = 0;
done:
  free(buf);
  free(med);
  free(tmp);
  free(win);
  return err;
}

static double
noise_at(const noise_floor* nf, double freq)
{
  const int k = (int)(fabs(freq) / nf->df);
  int b = 0;
  while (b < nf->n_blocks - 1 && k >= nf->block_end[b])
    ++b;
  return nf->var[b];
}

/* The end of the attack: the contact's own sound (a mallet's noise, a
 * thump) is broadband, the free decay a sum of narrow peaks.  Per Hann
 * frame of about 12 ms (hop a quarter) from the onset, over 100 Hz - 0.45
 * rate, the ratio of the median bin's power to the mean bin's (dB): near
 * 0 dB for a flat spectrum, far below for a few peaks.  An attack is
 * there when the first frames are broadband (ratio above -40 dB) and
 * their ratio stands at least 15 dB over the lowest the next 0.6 s reach
 * (smoothed over 3 frames); it ends at the first frame within 12 dB of
 * that lowest.  An ideal strike (damped sines from the onset, noise
 * added) has its peakiest frames first: no attack.  Returns the attack's
 * length in samples (0 none), at most a quarter of what follows the
 * onset and 0.3 s; -1 when an allocation failed. */
static long
attack_length(const double* x, size_t frames, size_t onset, double rate)
{
  const size_t f = pow2_at_least((size_t)(rate * 0.0116));
  const size_t h = f / 4;
  const size_t span = (size_t)(rate * 0.6);
  size_t nfr = 0;
  while (onset + nfr * h + f <= frames && nfr * h < span)
    ++nfr;
  if (nfr < 8)
    return 0;
  const size_t k_lo = (size_t)ceil(100.0 * (double)f / rate);
  const size_t k_hi = (size_t)(0.45 * (double)f);
  const size_t nk = k_hi - k_lo + 1;
  double complex* buf = malloc(sizeof(*buf) * f);
  double* ratio = malloc(sizeof(double) * nfr);
  double* pw = malloc(sizeof(double) * nk);
  long len = -1;
  if (!buf || !ratio || !pw)
    goto done;
  for (size_t fr = 0; fr < nfr; ++fr) {
    const double* s = x + onset + fr * h;
    for (size_t i = 0; i < f; ++i)
      buf[i] = s[i] * (0.5 - 0.5 * cos(2.0 * PI * (double)i / (double)f));
    if (fft_transform(buf, f, -1))
      goto done;
    double sum = 0.0;
    for (size_t k = k_lo; k <= k_hi; ++k) {
      pw[k - k_lo] =
          creal(buf[k]) * creal(buf[k]) + cimag(buf[k]) * cimag(buf[k]);
      sum += pw[k - k_lo];
    }
    qsort(pw, nk, sizeof(double), cmp_double);
    const double mean = sum / (double)nk + 1e-300;
    /* a floor 120 dB under the mean: a silent bin is no measure */
    ratio[fr] = 10.0 * log10(fmax(pw[nk / 2] / mean, 1e-12));
  }
  double lowest = INFINITY;
  for (size_t fr = 1; fr + 1 < nfr; ++fr)
    lowest = fmin(lowest, (ratio[fr - 1] + ratio[fr] + ratio[fr + 1]) / 3.0);
  const double first = fmax(ratio[0], ratio[1]);
  len = 0;
  if (first > -40.0 && first > lowest + 15.0) {
    size_t fr = 1;
    while (fr + 1 < nfr &&
           (ratio[fr - 1] + ratio[fr] + ratio[fr + 1]) / 3.0 > lowest + 12.0)
      ++fr;
    size_t end = fr * h + f / 4;
    end = end < (frames - onset) / 4 ? end : (frames - onset) / 4;
    end = end < (size_t)(rate * 0.3) ? end : (size_t)(rate * 0.3);
    len = (long)end;
  }
done:
  free(buf);
  free(ratio);
  free(pw);
  return len;
}

/* a mode before merging and selection */
typedef struct {
  double freq, decay, snr, amp[2], band_lo;
  double complex zf;      /* the pole at the full rate */
  double complex b[2];    /* complex amplitude at the decay's first sample */
  double seen_from, seen; /* the decay's samples its band's fit saw */
} candidate;

typedef struct {
  candidate* c;
  int n, cap;
} candidates;

static int
push(candidates* cs, candidate c)
{
  if (cs->n == cs->cap) {
    const int cap = cs->cap ? 2 * cs->cap : 64;
    candidate* p = realloc(cs->c, sizeof(*p) * (size_t)cap);
    if (!p)
      return -1;
    cs->c = p, cs->cap = cap;
  }
  cs->c[cs->n++] = c;
  return 0;
}

/* Everything one analysis shares between bands. */
typedef struct {
  double rate;
  int n_ch;
  size_t n;                /* samples in the decay */
  size_t nfft;             /* its FFT's length (zero padded) */
  double complex* spec[2]; /* bins 0..nfft/2: channel 0 and 1 */
  const noise_floor* nf;
  double shift; /* s from the onset to the decay's first sample */
} context;

/* A band plan: cores of width W = max(min_width, rel_width f).  A band's
 * kernel (below) rings for about 8 / W after the strike, which must pass
 * before its signal is a sum of damped exponentials (the guard), so a
 * narrow band sees long decays well (little noise, fine resolution) and
 * short ones not at all.  Three plans, each keeping the poles whose t_e
 * is its own: at least its guard (a quarter for the widest), less than
 * the guard of the plan before it.  (A mode's energy over the noise in a
 * plan goes as e^{-2 guard / t_e} / W: with guards of 8 / W, a plan and
 * the next one, W apart by 2 to 4 times, tie near t_e = its guard.)
 * Each plan analyses at most max_guards guards of signal (0: until the
 * band's signal sinks into the noise). */
typedef struct {
  double min_width, rel_width;
  int rows;
  double max_guards;
  double min_te; /* in guards of this plan */
} band_plan;

static const band_plan plans[] = {
    {40.0, 0.1, 100, 0.0, 1.0},
    {250.0, 0.4, 64, 60.0, 1.0},
    {2000.0, 1.0, 48, 60.0, 0.25},
};
enum { N_PLANS = sizeof(plans) / sizeof(plans[0]) };

static double
plan_width(const band_plan* p, double f)
{
  return fmax(p->min_width, p->rel_width * f);
}

static double
guard_time(double width)
{
  return 8.0 / width;
}

/* The band signal of one spectrum: bins around centre bin kc times the
 * window g, inverse FFT of size m: the signal heterodyned by the centre,
 * low-passed by g and decimated by nfft / m, sample i at the decay's
 * sample i nfft / m (the window is real and even: zero phase). */
static int
band_signal(const context* cx, const double complex* spec, long kc,
            const double* g, size_t m, double complex* y)
{
  const long half = (long)(cx->nfft / 2);
  for (size_t j = 0; j < m; ++j) {
    const long off = j < m / 2 ? (long)j : (long)j - (long)m;
    const long k = kc + off;
    /* a real signal's spectrum: X[-k] = X[k]* (bands reaching below 0 Hz
     * must see the negative-frequency half of the low modes too) */
    const double complex v = k >= 0 ? (k <= half ? spec[k] : 0.0)
                                    : (-k <= half ? conj(spec[-k]) : 0.0);
    y[j] = g[j] * v / (double)cx->nfft;
  }
  return fft_transform(y, m, +1);
}

static int
fit_band(const context* cx, int ip, double lo, double hi, candidates* out)
{
  const band_plan* plan = &plans[ip];
  const double width = hi - lo;
  const double df = cx->rate / (double)cx->nfft;
  const double fc = 0.5 * (lo + hi);
  const long kc = lround(fc / df);
  const double fcb = (double)kc * df; /* the exact heterodyne */
  /* window: flat over the core, a raised cosine down to zero half a
   * width beyond: the poles kept lie where the response is 1, so their
   * amplitudes need no correction */
  const size_t m = pow2_at_least((size_t)ceil(2.0 * width / df) + 4);
  const double rate_b = df * (double)m;
  const size_t dec = cx->nfft / m;
  double* g = malloc(sizeof(double) * m);
  double complex* y[2] = {NULL, NULL};
  int err = -1;
  if (!g)
    return -1;
  double gsum2 = 0.0;
  for (size_t j = 0; j < m; ++j) {
    const double f = fcb + (j < m / 2 ? (double)j : (double)j - (double)m) * df;
    const double d = f < lo ? lo - f : f > hi ? f - hi : 0.0;
    g[j] = d >= 0.5 * width ? 0.0 : 0.5 + 0.5 * cos(PI * d / (0.5 * width));
    gsum2 += g[j] * g[j];
  }
  const double noise_var = noise_at(cx->nf, fc) * gsum2 / (double)cx->nfft;
  for (int s = 0; s < cx->n_ch; ++s) {
    y[s] = malloc(sizeof(double complex) * m);
    if (!y[s])
      goto done;
    if (band_signal(cx, cx->spec[s], kc, g, m, y[s]))
      goto done;
  }
  const double complex* ys = y[0]; /* the poles from the first channel */
  /* the kernel's start and end transients: with its raised cosine over
   * half a width, it falls to about 1e-3 within 4 / (width / 2) */
  const double guard_s = guard_time(width);
  const size_t guard = (size_t)ceil(guard_s * rate_b) + 1;
  const size_t avail = cx->n / dec;
  if (avail < 2 * guard + 32) {
    err = 0;
    goto done;
  }
  size_t len = avail - 2 * guard;
  /* end where the band's envelope sinks into its noise (blocks of 64:
   * the mean power of a block of noise exceeds 3 times its variance with
   * a probability of 1e-13) */
  {
    size_t end = 0;
    for (size_t b = 0; b + 64 <= len; b += 64) {
      double e = 0.0;
      for (size_t i = 0; i < 64; ++i) {
        const double complex v = ys[guard + b + i];
        e += creal(v) * creal(v) + cimag(v) * cimag(v);
      }
      if (e / 64.0 > 3.0 * noise_var)
        end = b + 64;
    }
    size_t want = end + end / 4 + 64;
    if (want < (size_t)(3 * plan->rows))
      want = (size_t)(3 * plan->rows);
    if (want > 16384)
      want = 16384;
    if (plan->max_guards > 0.0 &&
        (double)want > plan->max_guards * guard_s * rate_b)
      want = (size_t)(plan->max_guards * guard_s * rate_b);
    if (want < len)
      len = want;
  }
  if (len < 32) {
    err = 0;
    goto done;
  }
  esprit_fit* fit = malloc(sizeof(*fit));
  if (!fit)
    goto done;
  if (esprit_band(ys + guard, (int)len, noise_var, plan->rows, ESPRIT_MAX_ORDER,
                  fit)) {
    free(fit);
    goto done;
  }
  double complex amp[2][ESPRIT_MAX_ORDER];
  /* ok: 1 fine, 0 an allocation failed, -1 the band is skipped (a
   * channel's amplitudes cannot be told apart) */
  int ok = 1;
  for (int ch = 0; ch < cx->n_ch && ok > 0; ++ch) {
    if (cx->n_ch == 1) {
      memcpy(amp[0], fit->amp, sizeof(amp[0]));
    } else {
      const int st = esprit_amplitudes(y[ch] + guard, (int)len, fit->order,
                                       fit->pole, amp[ch]);
      ok = st < 0 ? 0 : st > 0 ? -1 : 1;
    }
  }
  for (int k = 0; k < fit->order && ok > 0; ++k) {
    const double complex z = fit->pole[k];
    const double r = cabs(z);
    if (!(r < 1.0) || r == 0.0)
      continue; /* not decaying */
    const double freq = fcb + carg(z) * rate_b / (2.0 * PI);
    if (freq < lo || freq >= hi)
      continue; /* outside the core: another band's */
    const double alpha = -log(r) * rate_b; /* 1/s */
    const double bw = alpha / PI;
    if (bw > width / 8.0)
      continue; /* too wide for the band's flat response */
    if (PI * freq / alpha < 5.0)
      continue; /* q under 5: the strike's thump, not a ringing mode */
    /* the classes by the plans' widths at the pole's frequency, so that
     * they meet; a 10 % overlap, as t_e is estimated (a mode then found
     * by both is merged below) */
    if (1.0 / alpha < 0.9 * plan->min_te * guard_time(plan_width(plan, freq)) ||
        (ip > 0 && 1.0 / alpha >= guard_time(plan_width(&plans[ip - 1], freq))))
      continue; /* another plan's */
    /* energy of the mode in the band over the noise variance */
    const double r2 = r * r;
    const double sum = (1.0 - pow(r2, (double)len)) / (1.0 - r2);
    const double c2 = creal(fit->amp[k]) * creal(fit->amp[k]) +
                      cimag(fit->amp[k]) * cimag(fit->amp[k]);
    const double snr = c2 * sum / noise_var;
    /* 100 (20 dB): poles fitted to noise gather up to some 17 dB (seen
     * on white noise), and a mode below 20 dB could not have its t_e
     * measured better than some 15 % (its Cramer-Rao bound) */
    if (!(snr >= 100.0))
      continue;
    const double t0 = cx->shift + (double)(guard * dec) / cx->rate;
    /* the amplitude at the onset is the band's extrapolated back over t0:
     * beyond e^2.5 (22 dB) it is not measured but guessed, and such a
     * pole is most often the attack's own transient (the contact's force
     * pulse), not a mode */
    if (alpha * t0 > 2.5)
      continue;
    candidate c = {freq,
                   1.0 / alpha,
                   snr,
                   {0.0, 0.0},
                   lo,
                   0.0,
                   {0.0, 0.0},
                   (double)(guard * dec),
                   (double)(len * dec)};
    c.zf = cexp((-alpha + 2.0 * PI * I * freq) / cx->rate);
    for (int ch = 0; ch < cx->n_ch; ++ch) {
      c.amp[ch] = 2.0 * cabs(amp[ch][k]) * exp(alpha * t0);
      /* back from the band (heterodyned by fcb, from sample guard dec)
       * to the decay's first sample */
      const double n0 = (double)(guard * dec);
      c.b[ch] = amp[ch][k] * cexp(2.0 * PI * I * fcb * n0 / cx->rate) *
                cpow(c.zf, -n0);
    }
    if (push(out, c)) {
      ok = 0;
      break;
    }
  }
  free(fit);
  err = ok ? 0 : -1;
done:
  free(g);
  for (int s = 0; s < 2; ++s)
    free(y[s]);
  return err;
}

/* Take modes out of the spectra, so that the wider plans see only what
 * the narrower ones left: the DFT of b z^n, n < N, at bin k is b (1 -
 * (z e_k)^N) / (1 - z e_k), e_k = e^{-2 pi i k / nfft}, for the mode's
 * positive- and negative-frequency halves, over every bin (a truncated
 * exponential reaches every bin).  e_k and e_k^N by recurrence, exact
 * every 256 bins. */
static void
subtract_modes(context* cx, const candidate* c, int n)
{
  const size_t half = cx->nfft / 2;
  const double th = 2.0 * PI / (double)cx->nfft;
  const double complex e1 = cexp(-I * th), en1 = cexp(-I * th * (double)cx->n);
  for (int i = 0; i < n; ++i) {
    const double complex zn = cpow(c[i].zf, (double)cx->n);
    const double complex z[2] = {c[i].zf, conj(c[i].zf)};
    const double complex zN[2] = {zn, conj(zn)};
    const double complex b0[2] = {c[i].b[0], conj(c[i].b[0])};
    const double complex b1[2] = {c[i].b[1], conj(c[i].b[1])};
    /* only the bins of the bands whose support holds the mode matter
     * (elsewhere the band's kernel has rung down before its guard ends):
     * the widest plan's support, 1.5 widths either side, and a margin */
    const double fm = c[i].freq;
    const double reach = 2.0 * plan_width(&plans[N_PLANS - 1], fm) + 100.0;
    const double df = cx->rate / (double)cx->nfft;
    const size_t k0 = fm - reach > 0.0 ? (size_t)((fm - reach) / df) : 0;
    size_t k1 = (size_t)((fm + reach) / df) + 1;
    if (k1 > half)
      k1 = half;
    /* the negative-frequency half reaches positive bins for low modes */
    const int halves = fm < reach ? 2 : 1;
    double complex e = 1.0, en = 1.0;
    for (size_t k = k0; k <= k1; ++k) {
      if (k == k0 || ((k - k0) & 255) == 0) {
        e = cexp(-I * th * (double)k);
        en = cexp(-I * th * (double)k * (double)cx->n);
      }
      for (int s = 0; s < halves; ++s) {
        const double complex num = 1.0 - zN[s] * en, den = 1.0 - z[s] * e;
        const double dd = creal(den) * creal(den) + cimag(den) * cimag(den);
        const double complex d =
            CMPLX((creal(num) * creal(den) + cimag(num) * cimag(den)) / dd,
                  (cimag(num) * creal(den) - creal(num) * cimag(den)) / dd);
        cx->spec[0][k] -= b0[s] * d;
        if (cx->n_ch > 1)
          cx->spec[1][k] -= b1[s] * d;
      }
      e *= e1;
      en *= en1;
    }
  }
}

static int
run_plan(const context* cx, int ip, double f_lo, double f_hi, candidates* out,
         const analysis_options* opt, double p0, double p1)
{
  /* count the bands first, for the progress */
  int total = 0;
  for (double lo = f_lo; lo < f_hi; ++total)
    lo += plan_width(&plans[ip], lo);
  int i = 0;
  for (double lo = f_lo; lo < f_hi; ++i) {
    const double w = plan_width(&plans[ip], lo);
    if (fit_band(cx, ip, lo, lo + w, out))
      return -1;
    lo += w;
    if (opt->progress &&
        !opt->progress(opt->progress_data,
                       p0 + (p1 - p0) * (double)(i + 1) / (double)total))
      return 1;
  }
  return 0;
}

/* Modes of one band's fit closer than 1 / T, T the stretch of the decay
 * it saw, are one to the recording: their beat is longer than it, and
 * the decay a fit gives each (a doublet 0.4 Hz apart in a glockenspiel's
 * 0.7 s: 1.5 s and 4.1 s) is extrapolated, not seen - the sum falls 6.6
 * dB in those 0.7 s.  A group of them, one of whose decays is longer than
 * what was seen and whose sum falls, becomes one mode whose decay is the
 * one the sum shows over what was seen: the slope of its log envelope
 * (least squares, the channels' energies summed), its amplitude that
 * slope's back at the onset, its frequency their energy-weighted mean.
 * The candidates sorted by frequency, residues dropped (a weak pole
 * beside a mode is its misfit, not a partner); their count after. */
enum { ENVELOPE_POINTS = 64 };

static int
merge_unresolved(candidate* c, int n, int n_ch, double rate, double shift)
{
  int out = 0;
  for (int i = 0; i < n;) {
    int j = i + 1;
    while (j < n && c[j].seen_from == c[i].seen_from &&
           c[j].seen == c[i].seen &&
           (c[j].freq - c[j - 1].freq) * c[i].seen / rate < 1.0)
      ++j;
    if (j == i + 1) {
      c[out++] = c[i++];
      continue;
    }
    const double from = c[i].seen_from, to = from + c[i].seen;
    double energy = 0.0, freq = 0.0, snr = 0.0, longest = 0.0;
    for (int k = i; k < j; ++k) {
      longest = fmax(longest, c[k].decay);
      const double a = fmax(c[k].amp[0], c[k].amp[1]);
      energy += a * a * c[k].decay;
      freq += a * a * c[k].decay * c[k].freq;
      snr += c[k].snr;
    }
    double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    double complex at_from[2] = {0.0, 0.0};
    for (int p = 0; p < ENVELOPE_POINTS && to > from; ++p) {
      const double nn = from + (to - from) * p / (ENVELOPE_POINTS - 1);
      double e = 0.0;
      for (int ch = 0; ch < n_ch; ++ch) {
        double complex v = 0.0;
        for (int k = i; k < j; ++k)
          v += c[k].b[ch] * cpow(c[k].zf, nn);
        e += creal(v) * creal(v) + cimag(v) * cimag(v);
        if (p == 0)
          at_from[ch] = v;
      }
      const double t = nn / rate, y = 0.5 * log(e);
      sx += t, sy += y, sxx += t * t, sxy += t * y;
    }
    const double np = ENVELOPE_POINTS;
    const double slope = (np * sxy - sx * sy) / (np * sxx - sx * sx);
    if (!(to > from && slope < 0.0) || longest * rate <= to - from) {
      /* decays all seen to their 1/e, the fit's own at high SNR; or the
       * sum does not fall over what was seen (its modes out of phase at
       * first, the longer one left): no decay is shown to hold them to,
       * and only the group renders that rise */
      while (i < j)
        c[out++] = c[i++];
      continue;
    }
    const double alpha = -slope;
    candidate m = c[i];
    m.freq = freq / energy;
    m.decay = 1.0 / alpha;
    m.snr = snr;
    m.zf = cexp((-alpha + 2.0 * PI * I * m.freq) / rate);
    for (int ch = 0; ch < n_ch; ++ch) {
      /* the sum at the stretch's start, back along the one pole to the
       * decay's first sample */
      m.b[ch] = at_from[ch] * cpow(m.zf, -from);
      m.amp[ch] = 2.0 * cabs(m.b[ch]) * exp(alpha * shift);
    }
    m.seen_from = from;
    m.seen = to - from;
    c[out++] = m;
    i = j;
  }
  return out;
}

/* the least-squares slope of y over t[0..n) */
static double
slope_of_points(const double* t, const double* y, int n)
{
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  for (int i = 0; i < n; ++i)
    sx += t[i], sy += y[i], sxx += t[i] * t[i], sxy += t[i] * y[i];
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/* a line through (t, y)[0..n): its slope, its value at t = 0, the rms of
 * y about it */
typedef struct {
  double slope, at_zero, rms;
} line_fit;

static line_fit
fit_line(const double* t, const double* y, int n)
{
  line_fit f = {slope_of_points(t, y, n), 0.0, 0.0};
  double mean_t = 0.0, mean_y = 0.0;
  for (int i = 0; i < n; ++i)
    mean_t += t[i] / n, mean_y += y[i] / n;
  f.at_zero = mean_y - f.slope * mean_t;
  for (int i = 0; i < n; ++i) {
    const double e = y[i] - (mean_y + f.slope * (t[i] - mean_t));
    f.rms += e * e / n;
  }
  f.rms = sqrt(f.rms);
  return f;
}

/* the amplitude a of a exp(slope t) nearest level[0..n) (least squares) */
static double
amplitude_along(const double* t, const double* level, int n, double slope)
{
  double num = 0.0, den = 0.0;
  for (int i = 0; i < n; ++i) {
    const double e = exp(slope * t[i]);
    num += level[i] * e, den += e * e;
  }
  return num / den;
}

/* The strike as the table plays it: every mode from rest at the onset,
 * its velocity the force's impulse times its gain (modal_table.h) - the
 * modes start together, in sine phase; a recording's need not.  Two
 * modes of one partial (closer than a quarter beat over the shorter's
 * 1/e) that the recording has opposed at the onset (a resonator building
 * up: the marimba's tube, its sum rising for 60 ms) would add where they
 * cancelled; of such a pair the faster one, the lesser by energy (A^2
 * t_e), is the build-up and is dropped: the partial keeps its ring, a
 * table cannot hold the rise.  The candidates sorted by frequency; their
 * count after. */
static int
drop_opposed(candidate* c, int n, double onset_from_start)
{
  char* drop = calloc((size_t)n + 1, 1);
  if (!drop)
    return -1;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n && !drop[i]; ++j) {
      if (drop[j])
        continue;
      const double fast = fmin(c[i].decay, c[j].decay);
      if ((c[j].freq - c[i].freq) * fast >= 0.25)
        continue;
      const double complex bi = c[i].b[0] * cpow(c[i].zf, onset_from_start);
      const double complex bj = c[j].b[0] * cpow(c[j].zf, onset_from_start);
      if (creal(bi * conj(bj)) >= 0.0)
        continue;
      const int f = c[i].decay < c[j].decay ? i : j, s = i + j - f;
      const double af = fmax(c[f].amp[0], c[f].amp[1]);
      const double as = fmax(c[s].amp[0], c[s].amp[1]);
      if (af * af * c[f].decay < as * as * c[s].decay)
        drop[f] = 1;
    }
  int out = 0;
  for (int i = 0; i < n; ++i)
    if (!drop[i])
      c[out++] = c[i];
  free(drop);
  return out;
}

/* The early stage.  The bands' fits see the decay from the end of the
 * attack on, past their guards: a partial whose decay flattens (a
 * xylophone's upper bars fall 20 dB in 0.1 s, then ring 0.13 s 1/e) is
 * given its slow tail, and its level at the onset is that tail's back
 * along its own decay, 15 dB under what was heard.  The fast stage is a
 * second mode at the partial (the bar's and its tube's coupled pair: one
 * radiates fast, the other rings), seen in the level at the partial's
 * frequency (heterodyned, low-passed by a Hann window of
 * EARLY_WINDOW_MIN..MAX s: 3 / the gap to the nearest strong partial, 2 /
 * the frequency at least, the negative half kept out) where the recording
 * stands over the table as it plays (drop_opposed: its modes in phase
 * from the onset).  Where, at the peak of their difference within the
 * attack and a window after, the recording's level is at least
 * EARLY_EXCESS times the table's, and so is the residue's (the recording
 * less the modes found, with their own phases: else the excess is their
 * beats, which the table plays otherwise), and the difference falls as
 * one exponential (early_fit) at least twice as fast as the partial, from
 * a peak within EARLY_MAX_BACK of its t_e after the onset, it is kept as
 * a mode at the partial's frequency: its decay that slope, its amplitude
 * the difference's back at the onset (each channel's).  The partials
 * strongest first, each one's fast mode added to the table (and taken out
 * of the residue) before the next is looked at.  An ideal strike (no
 * attack, the modes fitted from the onset) leaves nothing to add.
 *
 * Only the fast stage: a weak slow tail under a fast partial (a
 * cowbell's, 30-40 dB down) added the same way plays in phase with the
 * partial from the onset and overshoots its early level (the re-synthesis
 * of the SoundFont's marimba C5 went from 1.5 to 4.0 dB): it would need
 * the partial's amplitude refitted with it. */
/* s from the onset looked at; the window's length, s */
#define EARLY_SPAN       0.5
#define EARLY_WINDOW_MIN 0.004
#define EARLY_WINDOW_MAX 0.025
/* partials within 30 dB of the strongest by energy are looked at */
#define EARLY_RANGE 1e-3
/* 6 dB: less is the table's misfit */
#define EARLY_EXCESS 2.0
/* the fit ends 20 dB under its peak, or at a dip (beats) longer than
 * EARLY_MAX_GAP windows; it spans EARLY_MIN_POINTS hops and a window at
 * least; its log-envelope's rms is under 2.2 dB (one exponential, not
 * beats) */
#define EARLY_FALL       0.1
#define EARLY_MAX_GAP    4.0
#define EARLY_MIN_POINTS 6
#define EARLY_RMS_NEPER  0.25
/* its t_e at most half the partial's */
#define EARLY_FASTER 0.5
/* its peak within a t_e of the onset: one later is the recording's rise
 * (a slow contact), and its level back at the onset would be a guess */
#define EARLY_MAX_BACK 1.0
#define EARLY_MAX_HOPS 2048
/* Hz: modes closer than this are one partial's cluster */
#define EARLY_CLUSTER_HZ 20.0

/* a signal's level at frequency f around sample c (of the signal's own
 * indexing, time 0 at its sample 0): heterodyned by f and low-passed by a
 * Hann window w of m samples, as the amplitude A of A cos(...) */
static double complex
early_level(const double* x, size_t n, double rate, double f, size_t c,
            const double* w, size_t m, double wsum)
{
  double complex s = 0.0;
  const double complex step = cexp(-2.0 * PI * I * f / rate);
  const size_t i0 = c - m / 2;
  double complex e = cexp(-2.0 * PI * I * f * (double)i0 / rate);
  for (size_t k = 0; k < m && i0 + k < n; ++k, e *= step)
    s += w[k] * x[i0 + k] * e;
  return 2.0 * s / wsum;
}

/* the energy of a candidate's ring, A^2 t_e */
static double
early_energy(const candidate* c)
{
  const double a = fmax(c->amp[0], c->amp[1]);
  return a * a * c->decay;
}

/* the window a partial's level is read through: 3 / the gap to the
 * nearest strong partial (a tenth of the energy, EARLY_CLUSTER_HZ away or
 * more: closer ones are this partial's cluster), 2 / its frequency at
 * least, within EARLY_WINDOW_MIN..MAX s */
static double
early_window(const candidate* cs, int n, const candidate* c)
{
  double gap = INFINITY;
  for (int k = 0; k < n; ++k) {
    const double df = fabs(cs[k].freq - c->freq);
    if (df >= EARLY_CLUSTER_HZ && early_energy(&cs[k]) >= 0.1 * early_energy(c))
      gap = fmin(gap, df);
  }
  return fmin(EARLY_WINDOW_MAX,
              fmax(EARLY_WINDOW_MIN, fmax(3.0 / gap, 2.0 / c->freq)));
}

/* w[0..m) a Hann window; its sum */
static double
early_hann(double* w, size_t m)
{
  double wsum = 0.0;
  for (size_t k = 0; k < m; ++k) {
    w[k] = 0.5 - 0.5 * cos(2.0 * PI * (double)k / (double)m);
    wsum += w[k];
  }
  return wsum;
}

/* the noise's variance in a level (of A, twice the heterodyne's) through
 * the window */
static double
early_noise(const noise_floor* nf, double f, const double* w, size_t m,
            double wsum)
{
  double w2 = 0.0;
  for (size_t k = 0; k < m; ++k)
    w2 += w[k] * w[k];
  return 4.0 * noise_at(nf, f) * w2 / (wsum * wsum);
}

/* y += 2 Re(b z^i), i from sample 0: a mode with its phase (b = -i A / 2:
 * A sin(2 pi f t) e^{-t / t_e}, the mode as a table strikes it) */
static void
early_add_mode(double* y, size_t n, double complex b, double complex z)
{
  double complex v = b;
  for (size_t i = 0; i < n; ++i) {
    if ((i & 1023) == 0)
      v = b * cpow(z, (double)i);
    y[i] += 2.0 * creal(v);
    v *= z;
  }
}

/* as struck: b of amplitude a, in sine phase */
static double complex
early_struck(double a)
{
  return -0.5 * I * a;
}

/* a candidate's signed amplitude on channel ch, as the table gives it */
static double
early_amp(const candidate* c, int ch)
{
  return ch == 0 ? c->amp[0]
                 : copysign(c->amp[1], creal(c->b[1] * conj(c->b[0])));
}

/* the fast stage: fitted to the level's excess over the table from hop
 * `from` on, down EARLY_FALL or to the noise, as one exponential */
typedef struct {
  double decay; /* s */
  double a[2];  /* at the onset, each channel's (the second's of the same
                   decay, least squares) */
  double seen;  /* s fitted */
} early_mode;

static bool
early_fit(const double* t, double (*diff)[EARLY_MAX_HOPS], int from, int np,
          int n_ch, double noise, double win_s, double* ly, double* tl,
          early_mode* out)
{
  const double peak = diff[0][from];
  if (!(peak * peak > 10.0 * noise))
    return false;
  /* the hops standing over EARLY_FALL and the noise, through dips (beats)
   * of up to EARLY_MAX_GAP windows */
  int cnt = 0, last = from;
  for (int p = from; p < np && t[p] - t[last] <= EARLY_MAX_GAP * win_s; ++p)
    if (diff[0][p] >= EARLY_FALL * peak &&
        diff[0][p] * diff[0][p] > 10.0 * noise) {
      tl[cnt] = t[p];
      ly[cnt++] = log(diff[0][p]);
      last = p;
    }
  if (cnt < EARLY_MIN_POINTS || t[last] - t[from] < win_s)
    return false;
  const line_fit line = fit_line(tl, ly, cnt);
  if (!(line.slope < 0.0) || line.rms > EARLY_RMS_NEPER)
    return false;
  out->decay = -1.0 / line.slope;
  out->a[0] = exp(line.at_zero);
  out->a[1] = n_ch > 1 ? fmax(amplitude_along(t + from, diff[1] + from,
                                              last - from + 1, line.slope),
                              0.0)
                       : 0.0;
  out->seen = t[last] - t[from];
  return true;
}

static int
early_stage(const float* const* channels, int n_ch, size_t frames, double rate,
            size_t onset, size_t start, const noise_floor* nf, candidates* cs)
{
  const int n_found = cs->n;
  const size_t n = (size_t)fmin((double)(frames - onset), EARLY_SPAN * rate);
  const double start_back = (double)onset - (double)start;
  const size_t m_max = (size_t)(EARLY_WINDOW_MAX * rate) + 1;
  double* rec[2] = {NULL, NULL};
  double* table[2] = {NULL, NULL};
  double* res[2] = {NULL, NULL};
  double* w = malloc(sizeof(double) * m_max);
  int* order = malloc(sizeof(int) * (size_t)(n_found + 1));
  int err = -1;
  if (!w || !order)
    goto done;
  for (int ch = 0; ch < n_ch; ++ch) {
    rec[ch] = malloc(sizeof(double) * n);
    table[ch] = calloc(n, sizeof(double));
    res[ch] = malloc(sizeof(double) * n);
    if (!rec[ch] || !table[ch] || !res[ch])
      goto done;
    for (size_t i = 0; i < n; ++i)
      res[ch][i] = rec[ch][i] = channels[ch][onset + i];
    for (int k = 0; k < n_found; ++k) {
      const candidate* d = &cs->c[k];
      early_add_mode(table[ch], n, early_struck(early_amp(d, ch)), d->zf);
      early_add_mode(res[ch], n, -d->b[ch] * cpow(d->zf, start_back), d->zf);
    }
  }
  /* the partials strongest first (energy A^2 t_e) */
  double top = 0.0;
  for (int k = 0; k < n_found; ++k) {
    top = fmax(top, early_energy(&cs->c[k]));
    order[k] = k;
  }
  for (int i = 1; i < n_found; ++i)
    for (int j = i; j > 0; --j) {
      if (early_energy(&cs->c[order[j]]) <= early_energy(&cs->c[order[j - 1]]))
        break;
      const int t = order[j];
      order[j] = order[j - 1], order[j - 1] = t;
    }
  double t[EARLY_MAX_HOPS], level[EARLY_MAX_HOPS], ly[EARLY_MAX_HOPS];
  double tl[EARLY_MAX_HOPS];
  double diff[2][EARLY_MAX_HOPS], lres[2][EARLY_MAX_HOPS];
  double phase[EARLY_MAX_HOPS];
  const double attack_s = (double)(start - onset) / rate;
  for (int oi = 0; oi < n_found; ++oi) {
    const candidate c = cs->c[order[oi]];
    if (early_energy(&c) < EARLY_RANGE * top)
      break;
    const double win_s = early_window(cs->c, n_found, &c);
    const size_t m = (size_t)(win_s * rate);
    const size_t hop = m / 4 > 0 ? m / 4 : 1;
    const double wsum = early_hann(w, m);
    const double noise = early_noise(nf, c.freq, w, m, wsum);
    int np = 0, ip = 0;
    for (size_t cc = m / 2; cc + m / 2 < n && np < EARLY_MAX_HOPS; cc += hop) {
      level[np] = cabs(early_level(table[0], n, rate, c.freq, cc, w, m, wsum));
      for (int ch = 0; ch < n_ch; ++ch) {
        diff[ch][np] =
            cabs(early_level(rec[ch], n, rate, c.freq, cc, w, m, wsum)) -
            (ch ? cabs(early_level(table[ch], n, rate, c.freq, cc, w, m, wsum))
                : level[np]);
        const double complex r =
            early_level(res[ch], n, rate, c.freq, cc, w, m, wsum);
        lres[ch][np] = cabs(r);
        if (ch == 0)
          phase[np] = carg(r);
      }
      t[np] = (double)cc / rate;
      if (t[np] <= attack_s + win_s && diff[0][np] > diff[0][ip])
        ip = np;
      ++np;
    }
    /* from the excess's peak within the attack and a window; both
     * measures over the table: the modes found, with their own phases,
     * do not make the recording there (else it is their beats, which the
     * table plays otherwise, all in sine phase) */
    early_mode sm;
    if (np == 0 || !(diff[0][ip] >= (EARLY_EXCESS - 1.0) * level[ip]) ||
        !(lres[0][ip] >= (EARLY_EXCESS - 1.0) * level[ip]) ||
        !early_fit(t, diff, ip, np, n_ch, noise, win_s, ly, tl, &sm) ||
        sm.decay > EARLY_FASTER * c.decay || t[ip] / sm.decay > EARLY_MAX_BACK)
      continue;
    const double alpha = 1.0 / sm.decay;
    const double a1 = copysign(sm.a[1], early_amp(&c, 1));
    candidate f = c;
    f.decay = sm.decay;
    f.zf = cexp((-alpha + 2.0 * PI * I * c.freq) / rate);
    f.amp[0] = sm.a[0];
    f.amp[1] = sm.a[1];
    /* b's phase the partial's: only the second channel's sign is read */
    f.b[0] = c.b[0] / cabs(c.b[0]) * 0.5 * sm.a[0];
    f.b[1] = f.b[0] * a1 / sm.a[0];
    f.snr = 0.25 * sm.a[0] * sm.a[0] * f.decay * rate / noise_at(nf, c.freq);
    f.seen_from = t[ip] * rate - (double)(start - onset);
    f.seen = sm.seen * rate;
    /* into the table as struck, out of the residue in the residue's phase
     * at the peak */
    for (int ch = 0; ch < n_ch; ++ch) {
      const double a = ch ? a1 : sm.a[0];
      early_add_mode(table[ch], n, early_struck(a), f.zf);
      early_add_mode(res[ch], n, -0.5 * a * cexp(I * phase[ip]), f.zf);
    }
    if (push(cs, f))
      goto done;
  }
  err = 0;
done:
  free(w);
  free(order);
  for (int ch = 0; ch < 2; ++ch)
    free(rec[ch]), free(table[ch]), free(res[ch]);
  return err;
}

/* The decay as heard.  The bands' fits read a partial's decay from past
 * their guards, over what each band saw: where its envelope is not one
 * exponential (a xylophone's bar and tube: the level held for 40 ms,
 * then falling at 0.05 s 1/e, then slower), the pole of one stretch can
 * miss what another shows by half (0.029 s), and a cluster of poles
 * fitted to a level that holds, then falls (the xylophone's C5: three
 * within 8 Hz) plays, all in sine phase, a fall that the recording does
 * not have.  Each partial (its modes within EARLY_CLUSTER_HZ of the next,
 * of EARLY_RANGE of its strongest's energy or more) is held to its
 * recording's level at its frequency (their energy-weighted mean): the
 * recording less every other mode (with its phase: else a strong
 * neighbour's leakage is read as this partial's ring), through a Hann
 * window of HEARD_BINS / the gap to the nearest other partial (a window's
 * length does not change an exponential's slope; at most
 * HEARD_WINDOW_MAX s, and short enough to pass the partial's own modes
 * within HEARD_PASS of its centre's gain), over the first HEARD_FALL_DB
 * of its fall from the decay's start, the stretch T20 of ISO 3382
 * measures (there from 5 dB down): to its last level within HEARD_FALL_DB
 * of the highest before it (a beat's dips stay in it) and HEARD_NOISE_DB
 * over the noise, at most HEARD_SPAN s.  Where that level is one exponential
 * (its log within EARLY_RMS_NEPER of a line: a level that falls, then stays, is
 * another mode's misfit, and one that beats is a cluster's, which its modes
 * play) over HEARD_WINDOWS windows at least, and the table's level as it plays
 * the partial (its modes from the onset in sine phase) falls over the
 * stretch more than HEARD_MISS_DB otherwise, the partial becomes one
 * mode: the line's decay, its level back at the onset the amplitude (each
 * channel's, the second by least squares), at the partial's frequency.
 * A partial whose modes are shorter than the window is not seen through
 * it (a mallet's click of a few ms, whose band the window reads from what
 * rings after it), and stays. */
#define HEARD_FALL_DB  20.0
#define HEARD_NOISE_DB 10.0
#define HEARD_SPAN     2.0
#define HEARD_MISS_DB  3.0
/* the neighbour 4 bins off or more: under Hann's sidelobes, -41 dB and
 * less */
#define HEARD_BINS       4.0
#define HEARD_WINDOW_MAX 0.25
/* a Hann window's gain 0.35 bins off its centre: 0.92 (-0.7 dB) */
#define HEARD_PASS 0.35
/* a stretch of fewer windows is the window's shape, not the decay's */
#define HEARD_WINDOWS 2.0
enum { HEARD_MAX_HOPS = 4096, HEARD_MAX_CLUSTER = 16 };

/* A partial of the candidates (sorted by frequency): the run from k on of
 * those within EARLY_CLUSTER_HZ of the next, its members the run's modes
 * within EARLY_RANGE of its strongest's energy. */
typedef struct {
  int member[HEARD_MAX_CLUSTER], n; /* n 0: more members than fit */
  int main;                         /* the strongest */
  double energy, strongest, freq;   /* freq: energy-weighted */
  double shortest, span;            /* s; Hz from freq, the furthest */
} partial_run;

/* the partial from candidate k; the index after its run */
static int
partial_at(const candidate* cs, int n, int k, partial_run* p)
{
  int end = k + 1;
  while (end < n && cs[end].freq - cs[end - 1].freq < EARLY_CLUSTER_HZ)
    ++end;
  p->n = 0, p->main = k;
  p->strongest = 0.0, p->energy = 0.0, p->freq = 0.0;
  p->shortest = INFINITY, p->span = 0.0;
  for (int j = k; j < end; ++j)
    p->strongest = fmax(p->strongest, early_energy(&cs[j]));
  for (int j = k; j < end; ++j) {
    const double e = early_energy(&cs[j]);
    if (e < EARLY_RANGE * p->strongest)
      continue;
    if (p->n == HEARD_MAX_CLUSTER) {
      p->n = 0;
      return end;
    }
    p->member[p->n++] = j;
    p->energy += e, p->freq += e * cs[j].freq;
    p->shortest = fmin(p->shortest, cs[j].decay);
    if (e == p->strongest)
      p->main = j;
  }
  p->freq /= p->energy;
  for (int q = 0; q < p->n; ++q)
    p->span = fmax(p->span, fabs(cs[p->member[q]].freq - p->freq));
  return end;
}

/* the nearest other partial's distance, Hz: a mode outside p's run
 * within EARLY_RANGE of its energy */
static double
partial_gap(const candidate* cs, int n, const partial_run* p)
{
  double gap = INFINITY;
  for (int j = 0; j < n; ++j)
    if ((j < p->member[0] || j > p->member[p->n - 1]) &&
        early_energy(&cs[j]) >= EARLY_RANGE * p->energy)
      gap = fmin(gap, fabs(cs[j].freq - p->freq));
  return gap;
}

/* the table's level at the partial f, t s after the onset: its modes in
 * sine phase together */
static double
heard_played(const candidate* cs, const partial_run* p, double t)
{
  const double f = p->freq;
  double complex s = 0.0;
  for (int k = 0; k < p->n; ++k) {
    const candidate* c = &cs[p->member[k]];
    s +=
        c->amp[0] * exp(-t / c->decay) * cexp(2.0 * PI * I * (c->freq - f) * t);
  }
  return cabs(s);
}

static int
heard_decay(const float* const* channels, int n_ch, size_t frames, double rate,
            size_t onset, size_t start, const noise_floor* nf, candidates* cs)
{
  const size_t n = (size_t)fmin((double)(frames - onset),
                                (double)(start - onset) + HEARD_SPAN * rate);
  const size_t m_max = (size_t)(HEARD_WINDOW_MAX * rate) + 1;
  const double start_back = (double)onset - (double)start;
  double* res[2] = {NULL, NULL};
  double* y = malloc(sizeof(double) * n);
  double* w = malloc(sizeof(double) * m_max);
  double* t = malloc(sizeof(double) * HEARD_MAX_HOPS);
  double* ly = malloc(sizeof(double) * HEARD_MAX_HOPS);
  double* lp = malloc(sizeof(double) * HEARD_MAX_HOPS);
  double* lv[2] = {malloc(sizeof(double) * HEARD_MAX_HOPS),
                   malloc(sizeof(double) * HEARD_MAX_HOPS)};
  char* drop = calloc((size_t)cs->n + 1, 1);
  int err = -1;
  if (!y || !w || !t || !ly || !lp || !lv[0] || !lv[1] || !drop)
    goto done;
  /* the residue: the recording less every mode, in its own phase */
  for (int ch = 0; ch < n_ch; ++ch) {
    res[ch] = malloc(sizeof(double) * n);
    if (!res[ch])
      goto done;
    for (size_t i = 0; i < n; ++i)
      res[ch][i] = channels[ch][onset + i];
    for (int k = 0; k < cs->n; ++k)
      early_add_mode(res[ch], n,
                     -cs->c[k].b[ch] * cpow(cs->c[k].zf, start_back),
                     cs->c[k].zf);
  }
  double top = 0.0;
  for (int k = 0; k < cs->n; ++k)
    top = fmax(top, early_energy(&cs->c[k]));
  const double fall = pow(10.0, -HEARD_FALL_DB / 20.0);
  const double over_noise = pow(10.0, HEARD_NOISE_DB / 10.0);
  /* the candidates are sorted by frequency: a partial is a run of them */
  for (int k = 0; k < cs->n;) {
    partial_run pr;
    k = partial_at(cs->c, cs->n, k, &pr);
    if (pr.n == 0 || pr.strongest < EARLY_RANGE * top)
      continue;
    const double freq = pr.freq;
    /* the window: past the nearest other partial, passing this one's */
    const double gap = partial_gap(cs->c, cs->n, &pr);
    double win_s =
        fmin(HEARD_WINDOW_MAX,
             fmax(EARLY_WINDOW_MIN, fmax(HEARD_BINS / gap, 2.0 / freq)));
    if (pr.span > 0.0)
      win_s = fmin(win_s, HEARD_PASS / pr.span);
    if (pr.shortest < win_s || win_s * gap < HEARD_BINS / 2.0)
      continue; /* gone within the window, or a window that cannot tell
                   the partial from its neighbour */
    const size_t m = (size_t)(win_s * rate);
    const size_t hop = m / 4 > 0 ? m / 4 : 1;
    const double wsum = early_hann(w, m);
    const double noise = early_noise(nf, freq, w, m, wsum);
    /* the recording less the other modes, on each channel */
    int hops = 0;
    for (int ch = 0; ch < n_ch; ++ch) {
      memcpy(y, res[ch], sizeof(double) * n);
      for (int q = 0; q < pr.n; ++q) {
        const candidate* c = &cs->c[pr.member[q]];
        early_add_mode(y, n, c->b[ch] * cpow(c->zf, start_back), c->zf);
      }
      hops = 0;
      for (size_t cc = (start - onset) + m / 2;
           cc + m / 2 < n && hops < HEARD_MAX_HOPS; cc += hop)
        lv[ch][hops++] = cabs(early_level(y, n, rate, freq, cc, w, m, wsum));
    }
    /* from the decay's start (the window past it) to the last level
     * within HEARD_FALL_DB of the highest before it and over the noise:
     * a beat's dip inside the stretch stays in it */
    int np = 0;
    double peak = 0.0;
    for (int p = 0; p < hops; ++p) {
      peak = fmax(peak, lv[0][p]);
      if (lv[0][p] >= fall * peak && lv[0][p] * lv[0][p] >= over_noise * noise)
        np = p + 1;
    }
    for (int p = 0; p < np; ++p) {
      t[p] = (double)((start - onset) + m / 2 + (size_t)p * hop) / rate;
      ly[p] = log(fmax(lv[0][p], DBL_MIN));
      lp[p] = log(fmax(heard_played(cs->c, &pr, t[p]), DBL_MIN));
    }
    if (np < EARLY_MIN_POINTS || t[np - 1] - t[0] < HEARD_WINDOWS * win_s)
      continue;
    const line_fit line = fit_line(t, ly, np);
    const double slope = line.slope;
    const double seen = t[np - 1] - t[0];
    const double miss_db =
        20.0 / log(10.0) * seen * fabs(slope_of_points(t, lp, np) - slope);
    if (!(slope < 0.0) || miss_db <= HEARD_MISS_DB ||
        line.rms > EARLY_RMS_NEPER)
      continue;
    const double a0 = exp(line.at_zero);
    const double a1 = n_ch > 1 ? amplitude_along(t, lv[1], np, slope) : 0.0;
    /* the partial's strongest mode becomes it; b keeps its phases (the
     * second channel's sign against the first's), at the decay's first
     * sample */
    candidate* c = &cs->c[pr.main];
    const double back = exp(slope * (double)(start - onset) / rate);
    for (int ch = 0; ch < n_ch; ++ch) {
      const double a = ch ? a1 : a0;
      c->b[ch] = cabs(c->b[ch]) > 0.0
                     ? c->b[ch] / cabs(c->b[ch]) * 0.5 * a * back
                     : 0.5 * a * back;
      c->amp[ch] = a;
    }
    c->freq = freq;
    c->decay = -1.0 / slope;
    c->zf = cexp((slope + 2.0 * PI * I * freq) / rate);
    c->seen_from = t[0] * rate - (double)(start - onset);
    c->seen = seen * rate;
    for (int q = 0; q < pr.n; ++q)
      drop[pr.member[q]] = pr.member[q] != pr.main;
  }
  int out = 0;
  for (int k = 0; k < cs->n; ++k)
    if (!drop[k])
      cs->c[out++] = cs->c[k];
  cs->n = out;
  err = 0;
done:
  free(y);
  free(w);
  free(t);
  free(ly);
  free(lp);
  free(lv[0]);
  free(lv[1]);
  free(drop);
  for (int ch = 0; ch < 2; ++ch)
    free(res[ch]);
  return err;
}

static int
cmp_freq(const void* a, const void* b)
{
  const double x = ((const candidate*)a)->freq, y = ((const candidate*)b)->freq;
  return (x > y) - (x < y);
}

static int
cmp_amp_desc(const void* a, const void* b)
{
  const candidate* x = a;
  const candidate* y = b;
  const double ax = fmax(x->amp[0], x->amp[1]);
  const double ay = fmax(y->amp[0], y->amp[1]);
  return (ax < ay) - (ax > ay);
}

/* by energy A^2 t_e, the largest first (the candidate's share of the
 * sound: what a table short of room should keep) */
static int
cmp_energy_desc(const void* a, const void* b)
{
  const candidate* x = a;
  const candidate* y = b;
  const double ax = fmax(x->amp[0], x->amp[1]);
  const double ay = fmax(y->amp[0], y->amp[1]);
  const double ex = ax * ax * x->decay, ey = ay * ay * y->decay;
  return (ex < ey) - (ex > ey);
}

/* poles this close above the lowest strong one are its partial (a
 * quarter tone: a bar's doublets lie within it, its next partial far
 * above) */
static const double root_cluster_octaves = 1.0 / 24.0;

/* a mode's energy over its ring, either channel's, in units of the
 * strongest onset amplitude: A^2 t_e (the integral of (A e^(-t/t_e))^2
 * is A^2 t_e / 2) */
static double
mode_energy(const analysis_mode* m)
{
  const double a = fmax(fabs(m->gain), fabs(m->right_gain));
  return a * a * m->decay;
}

analysis_status
analysis_run(const float* const* channels, int n_channels, size_t frames,
             double rate, const analysis_options* options,
             analysis_result* result)
{
  if (!result)
    return ANALYSIS_ERR_ARGUMENT;
  memset(result, 0, sizeof(*result));
  const analysis_options opt = options ? *options : analysis_default_options();
  if (!channels || n_channels < 1 || n_channels > 2 || opt.max_modes < 1 ||
      opt.max_modes > ANALYSIS_MAX_MODES || !(opt.dynamic_range_db > 0.0))
    return ANALYSIS_ERR_ARGUMENT;
  for (int c = 0; c < n_channels; ++c)
    if (!channels[c])
      return ANALYSIS_ERR_ARGUMENT;
  if (!(rate >= 22050.0 && rate <= 192000.0))
    return ANALYSIS_ERR_RATE;
  result->n_channels = n_channels;
  const double fmax_opt =
      opt.max_freq > 0.0 ? fmin(opt.max_freq, 0.45 * rate) : 0.45 * rate;
  const double fmin_opt = fmax(opt.min_freq, 1.0);
  if (!(fmin_opt < fmax_opt))
    return ANALYSIS_ERR_ARGUMENT;

  analysis_status st = ANALYSIS_ERR_MEMORY;
  double* x = malloc(sizeof(double) * (frames ? frames : 1));
  double complex* z = NULL;
  noise_floor nf = {0, 0.0, NULL, NULL};
  candidates cs = {NULL, 0, 0};
  context cx;
  memset(&cx, 0, sizeof(cx));
  if (!x)
    goto done;
  double peak = 0.0;
  size_t ipeak = 0;
  /* The strike, the noise and the poles are found on the first channel:
   * a table's gains are its modes at the struck point (modal_table.h), so
   * a mode the first channel does not hear has no gain to give it, and a
   * sum of the channels would cancel the modes the second hears against
   * the first and add its noise to all.  The second channel gives the
   * right_gains, with the same poles. */
  for (size_t i = 0; i < frames; ++i) {
    const double s = channels[0][i];
    x[i] = s;
    if (fabs(s) > peak)
      peak = fabs(s), ipeak = i;
  }
  if (!(peak > 0.0)) {
    st = ANALYSIS_ERR_SILENT;
    goto done;
  }

  /* Onset: the first sample above 2 % of the peak and, when there is
   * silence before the strike, above 8 times its noise (rms of the
   * samples before the first one above a tenth of the peak, less 1 ms). */
  size_t onset = 0;
  {
    size_t first = 0;
    while (fabs(x[first]) < 0.1 * peak)
      ++first;
    const size_t pre =
        first > (size_t)(rate * 0.001) ? first - (size_t)(rate * 0.001) : 0;
    double thr = 0.02 * peak;
    if (pre >= 64) {
      double e = 0.0;
      for (size_t i = 0; i < pre; ++i)
        e += x[i] * x[i];
      thr = fmax(thr, 8.0 * sqrt(e / (double)pre));
    }
    while (onset < ipeak && fabs(x[onset]) < thr)
      ++onset;
  }
  /* Start of the free decay: the end of the attack (the contact), taken
   * as the start of the first 2 ms window after the onset whose energy
   * is a local maximum and at least half the largest within 30 ms: for
   * an ideal short strike the onset's own; a window long enough that the
   * beats of the modes do not make maxima of their own.  A broadband
   * attack (a mallet's noise, attack_length) is waited out: the poles it
   * leaves in the fit decay within it, and extrapolated back over it
   * (fit_band: more than e^2.5) they are dropped as the contact's, not
   * the object's. */
  size_t start;
  {
    const size_t w = (size_t)(rate * 0.002) + 1;
    size_t lim = onset + (size_t)(rate * 0.03);
    if (lim + w >= frames)
      lim = frames > w + 1 ? frames - w - 1 : 0;
    const size_t ne = lim > onset ? lim - onset : 0;
    double* e = malloc(sizeof(double) * (ne + 1));
    if (!e)
      goto done;
    double acc = 0.0, best = 0.0;
    for (size_t i = onset; i < onset + w && i < frames; ++i)
      acc += x[i] * x[i];
    for (size_t i = 0; i <= ne; ++i) {
      e[i] = acc;
      best = fmax(best, acc);
      const size_t j = onset + i;
      if (j + w < frames)
        acc += x[j + w] * x[j + w] - x[j] * x[j];
    }
    size_t at = 0;
    while (at < ne && !(e[at] >= 0.5 * best && e[at] >= e[at + 1]))
      ++at;
    free(e);
    start = onset + at;
    /* after a broadband attack, its end */
    const long attack = attack_length(x, frames, onset, rate);
    if (attack < 0)
      goto done;
    if (onset + (size_t)attack > start)
      start = onset + (size_t)attack;
  }
  result->onset = (double)onset / rate;
  result->decay_start = (double)start / rate;
  if (start >= frames || frames - start < (size_t)(rate * 0.05)) {
    st = ANALYSIS_ERR_TOO_SHORT;
    goto done;
  }
  cx.rate = rate;
  cx.n_ch = n_channels;
  cx.n = frames - start;
  cx.shift = (double)(start - onset) / rate;
  if (noise_floor_estimate(x + start, cx.n, rate, &nf))
    goto done;
  /* no floor below the float format's rounding of the peak */
  {
    const double q = peak * ldexp(1.0, -24);
    double mean = 0.0;
    int cnt = 0;
    for (int b = 0; b < nf.n_blocks; ++b) {
      nf.var[b] = fmax(nf.var[b], q * q / 3.0);
      if ((double)nf.block_end[b] * nf.df <= fmax_opt)
        mean += nf.var[b], ++cnt;
    }
    result->noise_floor_db = 10.0 * log10(mean / (cnt ? cnt : 1));
  }
  cx.nf = &nf;

  const size_t n_all = cx.n;
  const double lo0 = fmax(fmin_opt * 0.95, 5.0);
  for (int ip = 0; ip < N_PLANS; ++ip) {
    /* The plan's spectra: of the whole decay for the narrow plan, of as
     * much as its bands analyse for the others (max_guards guards of its
     * narrowest band, and the guards at both ends); one FFT for both
     * channels, z = left + i right; the modes found so far taken out. */
    size_t n = n_all;
    if (plans[ip].max_guards > 0.0) {
      const double secs =
          (plans[ip].max_guards + 3.0) * guard_time(plans[ip].min_width);
      n = (size_t)fmin((double)n_all, ceil(secs * rate));
    }
    cx.n = n;
    cx.nfft = pow2_at_least(n);
    const size_t half = cx.nfft / 2;
    for (int s = 0; s < 2; ++s) {
      free(cx.spec[s]);
      cx.spec[s] = malloc(sizeof(double complex) * (half + 1));
    }
    z = malloc(sizeof(*z) * cx.nfft);
    if (!z || !cx.spec[0] || !cx.spec[1])
      goto done;
    for (size_t i = 0; i < cx.nfft; ++i)
      z[i] = i < n ? channels[0][start + i] +
                         (n_channels > 1 ? I * channels[1][start + i] : 0.0)
                   : 0.0;
    if (fft_transform(z, cx.nfft, -1))
      goto done;
    for (size_t k = 0; k <= half; ++k) {
      const double complex a = z[k], b = conj(z[(cx.nfft - k) & (cx.nfft - 1)]);
      if (n_channels == 1) {
        cx.spec[0][k] = a;
      } else {
        cx.spec[0][k] = 0.5 * (a + b);
        cx.spec[1][k] = -0.5 * I * (a - b);
      }
    }
    free(z);
    z = NULL;
    if (cs.n)
      subtract_modes(&cx, cs.c, cs.n);
    const int r = run_plan(&cx, ip, lo0, fmax_opt, &cs, &opt,
                           (double)ip / N_PLANS, (double)(ip + 1) / N_PLANS);
    if (r) {
      st = r > 0 ? ANALYSIS_ERR_CANCELLED : ANALYSIS_ERR_MEMORY;
      goto done;
    }
  }

  /* merge near-duplicates (a mode on the edge of two cores, or of two
   * plans' decay times): closer than a third of their bandwidth, t_e
   * within a factor 4, the one of higher SNR kept - unless the recording
   * tells them apart: further apart than 1 / T (T the longer stretch of
   * the decay either fit saw) and of energies (A^2 t_e) within a factor
   * 4, two partials, as a cowbell's that falls fast and then slowly (a
   * weaker pole this close is the other's misfit) */
  if (!cs.n) {
    st = ANALYSIS_ERR_NO_MODES;
    goto done;
  }
  qsort(cs.c, (size_t)cs.n, sizeof(candidate), cmp_freq);
  int n = 0;
  for (int i = 0; i < cs.n; ++i) {
    if (n > 0) {
      candidate* p = &cs.c[n - 1];
      const double bw = fmax(1.0 / (PI * p->decay), 1.0 / (PI * cs.c[i].decay));
      const double ratio = cs.c[i].decay / p->decay;
      const double df = cs.c[i].freq - p->freq;
      const double ap = fmax(p->amp[0], p->amp[1]);
      const double ai = fmax(cs.c[i].amp[0], cs.c[i].amp[1]);
      const double energies = ai * ai * cs.c[i].decay / (ap * ap * p->decay);
      const bool apart = df * fmax(p->seen, cs.c[i].seen) >= rate &&
                         energies < 4.0 && energies > 0.25;
      if (df < bw / 3.0 && ratio < 4.0 && ratio > 0.25 && !apart) {
        if (cs.c[i].snr > p->snr)
          *p = cs.c[i];
        continue;
      }
    }
    cs.c[n++] = cs.c[i];
  }
  /* A pole with a tenth of the energy (A^2 t_e) of a mode within 1.5 of
   * their bandwidths, or less, is that mode's residue (the misfit of its
   * decay, or what its subtraction left for a wider plan), not a mode:
   * two modes this close and this unequal cannot be told apart.  Energy,
   * not amplitude: a short pole's amplitude at the onset is extrapolated
   * far back. */
  char* residue = calloc((size_t)n + 1, 1);
  if (!residue)
    goto done;
  for (int i = 0; i < n; ++i) {
    const candidate* c = &cs.c[i];
    const double ai = fmax(c->amp[0], c->amp[1]);
    const double ei = ai * ai * c->decay;
    for (int j = 0; j < n && !residue[i]; ++j) {
      const candidate* d = &cs.c[j];
      const double bw = fmax(1.0 / (PI * c->decay), 1.0 / (PI * d->decay));
      const double aj = fmax(d->amp[0], d->amp[1]);
      residue[i] = j != i && fabs(d->freq - c->freq) < 1.5 * bw &&
                   aj * aj * d->decay >= 10.0 * ei;
    }
  }
  /* in range, the strongest first, within the dynamic range */
  int kept = 0;
  for (int i = 0; i < n; ++i)
    if (!residue[i] && cs.c[i].freq >= fmin_opt && cs.c[i].freq <= fmax_opt)
      cs.c[kept++] = cs.c[i];
  free(residue);
  kept = merge_unresolved(cs.c, kept, n_channels, rate, cx.shift);
  kept = drop_opposed(cs.c, kept, (double)onset - (double)start);
  if (kept < 0)
    goto done;
  cs.n = kept;
  if (early_stage(channels, n_channels, frames, rate, onset, start, &nf, &cs))
    goto done;
  qsort(cs.c, (size_t)cs.n, sizeof(candidate), cmp_freq);
  if (heard_decay(channels, n_channels, frames, rate, onset, start, &nf, &cs))
    goto done;
  kept = cs.n;
  if (kept == 0) {
    st = ANALYSIS_ERR_NO_MODES;
    goto done;
  }
  qsort(cs.c, (size_t)kept, sizeof(candidate), cmp_amp_desc);
  const double top = fmax(cs.c[0].amp[0], cs.c[0].amp[1]);
  /* More modes than the table may hold: keep those that carry the sound,
   * by energy, not by amplitude at the onset - a contact transient's
   * poles (a bell's clapper: t_e of milliseconds) are loud at the onset
   * and gone at once, and would push out partials that ring for
   * seconds. */
  if (kept > opt.max_modes)
    qsort(cs.c, (size_t)kept, sizeof(candidate), cmp_energy_desc);
  const double floor_amp = top * pow(10.0, -opt.dynamic_range_db / 20.0);
  int nm = 0;
  for (int i = 0; i < kept && nm < opt.max_modes; ++i) {
    const candidate* c = &cs.c[i];
    if (fmax(c->amp[0], c->amp[1]) < floor_amp)
      break;
    analysis_mode* md = &result->modes[nm++];
    md->freq = c->freq;
    md->decay = c->decay;
    md->amplitude = c->amp[0];
    md->gain = c->amp[0] / top;
    /* the second channel in phase with the first, or against it (a
     * pickup across a nodal line: right_gain < 0, modal_table.h) */
    md->right_gain =
        n_channels > 1
            ? copysign(c->amp[1], creal(c->b[1] * conj(c->b[0]))) / top
            : md->gain;
    md->snr_db = 10.0 * log10(c->snr);
    /* the relative error to expect of t_e from the mode's energy SNR,
     * about sqrt(2 / snr) (the Cramer-Rao bound of a damped exponential),
     * against 5 %: 1 well determined, 0.5 at 5 % */
    md->quality = 1.0 / (1.0 + 800.0 / c->snr);
  }
  result->n_modes = nm;
  /* by frequency; the root note from the lowest mode within 20 dB of the
   * strongest by energy */
  for (int i = 1; i < nm; ++i)
    for (int j = i; j > 0 && result->modes[j].freq < result->modes[j - 1].freq;
         --j) {
      const analysis_mode t = result->modes[j];
      result->modes[j] = result->modes[j - 1];
      result->modes[j - 1] = t;
    }
  /* strength is what a mode rings, its energy A^2 t_e / 2, not its onset
   * amplitude: a mallet's click of a few ms starts as loud as the
   * fundamental that rings for a second, and is not the note heard */
  double loudest = 0.0;
  for (int i = 0; i < nm; ++i)
    loudest = fmax(loudest, mode_energy(&result->modes[i]));
  /* a partial the fit split into close poles (a beating doublet, a
   * cluster) is heard at their energy-weighted mean: the root is that of
   * the poles within a quarter tone of the lowest strong one */
  for (int i = 0; i < nm; ++i)
    if (mode_energy(&result->modes[i]) >= 0.01 * loudest) {
      double sum = 0.0, weighted = 0.0;
      for (int j = i; j < nm; ++j) {
        const double octaves =
            log2(result->modes[j].freq / result->modes[i].freq);
        if (octaves > root_cluster_octaves)
          break;
        sum += mode_energy(&result->modes[j]);
        weighted += mode_energy(&result->modes[j]) *
                    log2(result->modes[j].freq / 440.0);
      }
      result->root_note = 69.0 + 12.0 * weighted / sum;
      break;
    }
  st = ANALYSIS_SUCCESS;
done:
  free(x);
  free(z);
  for (int s = 0; s < 2; ++s)
    free(cx.spec[s]);
  free(nf.block_end);
  free(nf.var);
  free(cs.c);
  return st;
}
