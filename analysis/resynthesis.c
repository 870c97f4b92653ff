/* SPDX-License-Identifier: ISC */
#include "resynthesis.h"

#include "fft.h"
#include "impact.h"
#include "modal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The hammer of resynthesis_render(): light and hard, so that its contact
 * (~ 2.9 (m/k)^(1/(a+1)) v^(-1/(a+1)), [ch5] eq 5.17: about 20 us at
 * 1 m/s) filters a 10 kHz mode by less than 0.3 dB. */
static const double hammer_mass = 1e-3; /* kg */
static const double object_mass = 1.0;  /* kg */
static const double strike_speed = 1.0; /* m/s */
static const impact_law hammer_law = {
    .stiffness = 1e10, .alpha = 1.5, .mu = 0.0};

bool
resynthesis_render(const modal_table* table, double rate, float* left,
                   float* right, size_t frames)
{
  modal_object* o = (modal_object*)aligned_alloc(64, sizeof(modal_object));
  impact* im = (impact*)aligned_alloc(64, sizeof(impact));
  float* spare = right ? NULL : (float*)malloc(sizeof(float) * 4096);
  if (!o || !im || (!right && !spare)) {
    free(o);
    free(im);
    free(spare);
    return false;
  }
  modal_init(o, rate);
  modal_set_mass(o, object_mass);
  modal_set_count(o, table->count);
  for (int i = 0; i < table->count; ++i) {
    modal_set_mode(o, i, table->freq[i], table->decay[i], table->gain[i]);
    const double rho = table->has_right_gain && table->gain[i] > 0
                           ? table->right_gain[i] / table->gain[i]
                           : 1.0;
    modal_set_pickup_shape(o, i, rho);
  }
  modal_set_width(o, 1.0);
  modal_update(o);
  impact_init(im, rate);
  impact_set_law(im, hammer_law);
  impact_set_hammer(im, hammer_mass, 0.0);
  impact_strike(im, o, strike_speed);
  for (size_t done = 0; done < frames;) {
    const int n = frames - done < 4096 ? (int)(frames - done) : 4096;
    impact_process(im, o, n, left + done, right ? right + done : spare, 1.0f);
    done += (size_t)n;
  }
  free(o);
  free(im);
  free(spare);
  return true;
}

/* the frame's power spectrum, bins 0..n/2; false if out of memory */
static bool
power_spectrum(const float* x, size_t length, size_t at, int n,
               double complex* spectrum, double* power)
{
  for (int t = 0; t < n; ++t) {
    const size_t i = at + (size_t)t;
    spectrum[t] = i < length ? x[i] * fft_hann((size_t)t, (size_t)n) : 0.0;
  }
  if (fft_transform(spectrum, (size_t)n, -1))
    return false;
  for (int k = 0; k <= n / 2; ++k)
    power[k] = creal(spectrum[k]) * creal(spectrum[k]) +
               cimag(spectrum[k]) * cimag(spectrum[k]);
  return true;
}

/* resynthesis_compare(), each bin floored at `floor_var` (a variance per
 * sample; 0 none) besides its frame's range */
static resynthesis_distance
compare(const float* recording, size_t recording_frames, size_t start,
        const float* render, size_t render_frames, size_t render_start,
        double rate, double floor_var)
{
  resynthesis_distance d = {NAN, NAN, 0, start / rate, start / rate};
  int n = 256;
  while (n < RESYNTHESIS_FRAME_SECONDS * rate)
    n *= 2;
  const int hop = n / 4, bins = n / 2 + 1;
  const int k_lo = (int)ceil(20.0 * n / rate);
  const int k_hi = (int)floor(0.45 * n);
  double complex* spectrum = malloc(sizeof(double complex) * n);
  double* p_rec = (double*)malloc(sizeof(double) * bins);
  double* p_syn = (double*)malloc(sizeof(double) * bins);
  /* per frame the difference in dB at each bin; the levels are matched
   * after, over the whole decay, so keep the sums it needs */
  const size_t max_frames =
      recording_frames > start ? (recording_frames - start) / hop + 1 : 0;
  double* sum = (double*)calloc(max_frames + 1, sizeof(double));
  double* sum2 = (double*)calloc(max_frames + 1, sizeof(double));
  int* count = (int*)calloc(max_frames + 1, sizeof(int));
  if (!spectrum || !p_rec || !p_syn || !sum || !sum2 || !count)
    goto done;
  double first_energy = 0.0;
  int frames = 0;
  for (size_t at = 0; start + at + (size_t)n <= recording_frames &&
                      render_start + at + (size_t)n <= render_frames;
       at += (size_t)hop) {
    if (!power_spectrum(recording, recording_frames, start + at, n, spectrum,
                        p_rec) ||
        !power_spectrum(render, render_frames, render_start + at, n, spectrum,
                        p_syn)) {
      frames = 0; /* out of memory: no distance */
      break;
    }
    double energy = 0.0, peak = 0.0, peak_syn = 0.0;
    for (int k = k_lo; k <= k_hi; ++k) {
      energy += p_rec[k];
      peak = fmax(peak, p_rec[k]);
      peak_syn = fmax(peak_syn, p_syn[k]);
    }
    if (frames == 0)
      first_energy = energy;
    if (!(energy > 0.0) ||
        10.0 * log10(energy / first_energy) < -RESYNTHESIS_RANGE_DB)
      break;
    /* each spectrum floored RESYNTHESIS_RANGE_DB below its own peak, and
     * at the floor's power in a bin (white noise of variance v through
     * the Hann frame: v sum w^2 = 3 n v / 8) */
    const double floor_bin = floor_var * 3.0 * n / 8.0;
    const double floor_rec =
        fmax(peak * pow(10.0, -RESYNTHESIS_RANGE_DB / 10.0), floor_bin);
    const double floor_syn =
        fmax(peak_syn * pow(10.0, -RESYNTHESIS_RANGE_DB / 10.0), floor_bin) +
        1e-300;
    for (int k = k_lo; k <= k_hi; ++k) {
      /* only where there is sound: bins below both floors would count as
       * agreeing and dilute the distance with silence */
      if (p_rec[k] < floor_rec && p_syn[k] < floor_syn)
        continue;
      /* a render that has died away (or never sounded) is as far as the
       * range compared, not the 3000 dB of a zero over a tiny floor */
      double diff =
          10.0 * log10(fmax(p_rec[k], floor_rec) / fmax(p_syn[k], floor_syn));
      diff = fmax(fmin(diff, RESYNTHESIS_RANGE_DB), -RESYNTHESIS_RANGE_DB);
      sum[frames] += diff;
      sum2[frames] += diff * diff;
      count[frames]++;
    }
    frames++;
    d.to = (start + at + (size_t)n) / rate;
  }
  if (frames == 0)
    goto done;
  /* one level for the whole decay: the mean difference over every bin */
  double total = 0.0;
  long total_count = 0;
  for (int f = 0; f < frames; ++f) {
    total += sum[f];
    total_count += count[f];
  }
  const double offset = total / (double)total_count;
  double ms = 0.0, worst = 0.0;
  for (int f = 0; f < frames; ++f) {
    if (!count[f])
      continue;
    /* mean over bins of (diff - offset)^2 */
    const double m =
        sum2[f] / count[f] - 2.0 * offset * sum[f] / count[f] + offset * offset;
    const double frame_db = sqrt(fmax(m, 0.0));
    ms += frame_db * frame_db;
    worst = fmax(worst, frame_db);
  }
  d.distance_db = sqrt(ms / frames);
  d.worst_frame_db = worst;
  d.frames = frames;
done:
  free(spectrum);
  free(p_rec);
  free(p_syn);
  free(sum);
  free(sum2);
  free(count);
  return d;
}

resynthesis_distance
resynthesis_compare(const float* recording, size_t recording_frames,
                    size_t start, const float* render, size_t render_frames,
                    size_t render_start, double rate)
{
  return compare(recording, recording_frames, start, render, render_frames,
                 render_start, rate, 0.0);
}

resynthesis_distance
resynthesis_compare_over_noise(const float* recording, size_t recording_frames,
                               size_t start, const float* render,
                               size_t render_frames, size_t render_start,
                               double rate, double noise_var)
{
  return compare(recording, recording_frames, start, render, render_frames,
                 render_start, rate,
                 noise_var * pow(10.0, RESYNTHESIS_NOISE_MARGIN_DB / 10.0));
}
