/* SPDX-License-Identifier: ISC */
#include "spectrogram.h"

#include "fft.h"

#include <cairo.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* black - blue - magenta - orange - yellow - white */
static void
colour(double x, unsigned char* rgb)
{
  static const double stops[6][3] = {{0, 0, 0},       {0.1, 0.1, 0.5},
                                     {0.6, 0.1, 0.6}, {0.95, 0.45, 0.1},
                                     {1, 0.9, 0.2},   {1, 1, 1}};
  x = x < 0 ? 0 : x > 1 ? 1 : x;
  const double s = x * 5.0;
  const int i = s >= 5.0 ? 4 : (int)s;
  const double t = s - i;
  for (int c = 0; c < 3; ++c)
    rgb[c] = (unsigned char)(255.0 * (stops[i][c] +
                                      t * (stops[i + 1][c] - stops[i][c])));
}

/* the modes' lines, over the picture's W x H plot at (x0, y0) */
static void
draw_modes(cairo_t* cr, const spectrogram_modes* m, double x0, double y0,
           double w, double h, double seconds, double f_lo, double f_hi)
{
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  for (int i = 0; i < m->count; ++i) {
    const double f = m->freq[i];
    if (!(f >= f_lo && f <= f_hi) || !(m->gain[i] > 0))
      continue;
    const double y = y0 + h - h * log(f / f_lo) / log(f_hi / f_lo);
    const double t0 = m->onset, t1 = fmin(seconds, t0 + 6.9 * m->decay[i]);
    const double xa = x0 + w * t0 / seconds, xb = x0 + w * t1 / seconds;
    /* cyan, from opaque at the strike to faint where it is 60 dB down */
    cairo_pattern_t* fade = cairo_pattern_create_linear(xa, 0, xb, 0);
    cairo_pattern_add_color_stop_rgba(fade, 0, 0.3, 0.95, 1.0, 0.95);
    cairo_pattern_add_color_stop_rgba(fade, 1, 0.3, 0.95, 1.0, 0.15);
    cairo_set_source(cr, fade);
    cairo_set_line_width(cr, 1.0 + 2.0 * sqrt(fmin(m->gain[i], 1.0)));
    cairo_move_to(cr, xa, y);
    cairo_line_to(cr, fmax(xb, xa + 2), y);
    cairo_stroke(cr);
    cairo_pattern_destroy(fade);
    /* a tick at the left edge of the plot, so that modes whose line is
     * short stay visible */
    cairo_set_source_rgb(cr, 0.3, 0.95, 1.0);
    cairo_set_line_width(cr, 2.0);
    cairo_move_to(cr, x0 - 6, y);
    cairo_line_to(cr, x0, y);
    cairo_stroke(cr);
  }
}

bool
spectrogram_png(const float* left, const float* right, size_t frames,
                double rate, const char* path, const char* title,
                const spectrogram_modes* modes)
{
  enum { N = 8192, W = 1000, H = 480, MARGIN_L = 60, MARGIN_B = 40, TOP = 30 };
  const double f_lo = 20.0;
  const double f_hi = rate / 2 < 22000.0 ? rate / 2 : 22000.0;
  const double db_floor = -110.0;
  double complex* spectrum = malloc(sizeof(double complex) * N);
  double* column = (double*)malloc(sizeof(double) * H);
  cairo_surface_t* surface = cairo_image_surface_create(
      CAIRO_FORMAT_RGB24, W + MARGIN_L + 10, H + MARGIN_B + TOP);
  if (!spectrum || !column ||
      cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    free(spectrum);
    free(column);
    cairo_surface_destroy(surface);
    return false;
  }
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgb(cr, 0.08, 0.08, 0.09);
  cairo_paint(cr);
  cairo_surface_flush(surface);
  unsigned char* pixels = cairo_image_surface_get_data(surface);
  const int stride = cairo_image_surface_get_stride(surface);

  /* Hann window gain: the window sums to N/2, so a full-scale sine reads
   * about 0 dB */
  for (int x = 0; x < W; ++x) {
    const double centre = (x + 0.5) / W * (double)frames;
    for (int i = 0; i < N; ++i) {
      const long t = (long)centre - N / 2 + i;
      double s = 0.0;
      if (t >= 0 && (size_t)t < frames)
        s = right ? 0.5 * ((double)left[t] + (double)right[t]) : left[t];
      /* fade the last 20 ms out in the picture only, so that where the
       * render stops does not paint a broadband edge */
      const double tail = (double)frames - (double)t;
      if (tail < 0.02 * rate)
        s *= tail > 0 ? tail / (0.02 * rate) : 0.0;
      spectrum[i] = s * fft_hann((size_t)i, N);
    }
    if (fft_transform(spectrum, N, -1))
      break;
    for (int y = 0; y < H; ++y) {
      /* row y spans a band of the log-frequency axis: take its loudest bin */
      const double fa = f_lo * pow(f_hi / f_lo, (double)(H - 1 - y) / H);
      const double fb = f_lo * pow(f_hi / f_lo, (double)(H - y) / H);
      int ka = (int)floor(fa / rate * N);
      int kb = (int)ceil(fb / rate * N);
      if (kb <= ka)
        kb = ka + 1;
      double best = 0.0;
      for (int k = ka; k < kb && k < N / 2; ++k) {
        const double m = creal(spectrum[k]) * creal(spectrum[k]) +
                         cimag(spectrum[k]) * cimag(spectrum[k]);
        if (m > best)
          best = m;
      }
      column[y] = 10.0 * log10(best / ((N / 4.0) * (N / 4.0)) + 1e-30);
    }
    for (int y = 0; y < H; ++y) {
      unsigned char rgb[3];
      colour((column[y] - db_floor) / -db_floor, rgb);
      unsigned char* px = pixels + (y + TOP) * stride + (x + MARGIN_L) * 4;
      px[0] = rgb[2];
      px[1] = rgb[1];
      px[2] = rgb[0];
    }
  }
  cairo_surface_mark_dirty(surface);

  /* axes */
  cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                         CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 12);
  static const double ticks[] = {50,   100,  200,   500,  1000,
                                 2000, 5000, 10000, 20000};
  for (size_t i = 0; i < sizeof(ticks) / sizeof(ticks[0]); ++i) {
    if (ticks[i] > f_hi)
      break;
    const double y = TOP + H - H * log(ticks[i] / f_lo) / log(f_hi / f_lo);
    char label[16];
    snprintf(label, sizeof(label), ticks[i] >= 1000 ? "%gk" : "%g",
             ticks[i] >= 1000 ? ticks[i] / 1000 : ticks[i]);
    cairo_move_to(cr, 8, y + 4);
    cairo_show_text(cr, label);
    cairo_move_to(cr, MARGIN_L - 6, y);
    cairo_line_to(cr, MARGIN_L, y);
  }
  const double seconds = frames / rate;
  const double step = seconds > 20  ? 5
                      : seconds > 5 ? 1
                      : seconds > 2 ? 0.5
                                    : 0.1;
  for (double t = 0; t <= seconds + 1e-9; t += step) {
    const double x = MARGIN_L + W * t / seconds;
    char label[16];
    snprintf(label, sizeof(label), "%g s", t);
    cairo_move_to(cr, x - 10, TOP + H + 18);
    cairo_show_text(cr, label);
    cairo_move_to(cr, x, TOP + H);
    cairo_line_to(cr, x, TOP + H + 5);
  }
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);
  cairo_move_to(cr, MARGIN_L, 20);
  cairo_show_text(cr, title ? title : "");
  cairo_move_to(cr, MARGIN_L + W - 190, 20);
  cairo_show_text(cr, "Hz (log) / time, -110..0 dB");
  if (modes)
    draw_modes(cr, modes, MARGIN_L, TOP, W, H, seconds, f_lo, f_hi);

  const bool ok =
      cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS;
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
  free(spectrum);
  free(column);
  return ok;
}

bool
spectrogram_profile(const float* x, size_t frames, double rate, size_t from,
                    size_t length, double f_lo, double f_hi, int points,
                    float* db)
{
  int n = 256;
  while (n < 0.085 * rate)
    n *= 2;
  if (from >= frames || points < 2)
    return false;
  if (length > frames - from)
    length = frames - from;
  if (length < (size_t)n)
    return false;
  double complex* spectrum = malloc(sizeof(double complex) * n);
  double* power = (double*)calloc(n / 2 + 1, sizeof(double));
  if (!spectrum || !power) {
    free(spectrum);
    free(power);
    return false;
  }
  for (size_t at = from; at + (size_t)n <= from + length; at += (size_t)n / 2) {
    for (int t = 0; t < n; ++t) {
      spectrum[t] = x[at + (size_t)t] * fft_hann((size_t)t, (size_t)n);
    }
    if (fft_transform(spectrum, (size_t)n, -1))
      break;
    for (int k = 0; k <= n / 2; ++k)
      power[k] += creal(spectrum[k]) * creal(spectrum[k]) +
                  cimag(spectrum[k]) * cimag(spectrum[k]);
  }
  double top = -INFINITY;
  for (int i = 0; i < points; ++i) {
    /* point i covers the band half a step either side of its frequency */
    const double step = log(f_hi / f_lo) / (points - 1);
    const double fa = f_lo * exp(step * (i - 0.5)),
                 fb = f_lo * exp(step * (i + 0.5));
    int ka = (int)floor(fa / rate * n), kb = (int)ceil(fb / rate * n);
    if (ka < 0)
      ka = 0;
    if (kb > n / 2)
      kb = n / 2;
    double best = 0.0;
    for (int k = ka; k <= kb; ++k)
      best = fmax(best, power[k]);
    db[i] = (float)(10.0 * log10(best + 1e-300));
    top = fmax(top, db[i]);
  }
  for (int i = 0; i < points; ++i)
    db[i] -= (float)top;
  free(spectrum);
  free(power);
  return true;
}
