/* SPDX-License-Identifier: ISC */
/*
 * The re-synthesis check itself (analysis/resynthesis.h): a table struck
 * through the impact DSP rings at the table's frequencies and decays; the
 * log-spectral distance of a render to itself is zero, and it grows with
 * a detuned mode or a wrong decay, so that --compare can tell a good
 * table from a bad one; over a recording's noise, a render without it is
 * as near as its sound is.
 */
#include "analysis.h"
#include "check.h"
#include "modal_table.h"
#include "noise.h"
#include "resynthesis.h"

#include <math.h>
#include <stdlib.h>

static const double rate = 48000.0;
enum { FRAMES = 3 * 48000 };

/* a wooden-bar-like table: four modes, q = 60 */
static modal_table
bar_table(void)
{
  modal_table t;
  modal_table_init(&t);
  static const double ratios[] = {1, 2.756, 5.404, 8.933};
  t.count = 4;
  for (int i = 0; i < t.count; ++i) {
    t.freq[i] = 440.0 * ratios[i];
    t.decay[i] = 60.0 / (3.14159265358979323846 * t.freq[i]);
    t.gain[i] = 1.0 / (1.0 + i);
  }
  return t;
}

/* The render rings at the table's modes: the frequency of the first mode
 * to 0.01 % and its decay to 1 % (tests/analysis.h fits, over 0.2 s). */
static void
check_render(void)
{
  modal_table t = bar_table();
  float* x = (float*)calloc(FRAMES, sizeof(float));
  CHECK(resynthesis_render(&t, rate, x, NULL, FRAMES), "render failed");
  const double f = peak_frequency(x + 480, 9600, rate, 440.0, 0.05);
  CHECK(fabs(f / 440.0 - 1) < 1e-4, "mode 1 rings at %.3f Hz, not 440", f);
  const double te = decay_time(x + 480, 9600, rate, f, 1024);
  CHECK(fabs(te / t.decay[0] - 1) < 0.01, "mode 1 decays in %.4f s, not %.4f",
        te, t.decay[0]);
  free(x);
}

/* Distance: zero to itself; a mode 1 % off or decaying twice as fast is
 * more than the 1 dB the round trip must stay under. */
static void
check_distance(void)
{
  modal_table t = bar_table();
  float* a = (float*)calloc(FRAMES, sizeof(float));
  float* b = (float*)calloc(FRAMES, sizeof(float));
  CHECK(resynthesis_render(&t, rate, a, NULL, FRAMES), "render failed");
  resynthesis_distance d =
      resynthesis_compare(a, FRAMES, 240, a, FRAMES, 240, rate);
  CHECK(d.frames > 10 && d.distance_db < 1e-9,
        "a render against itself: %.3g dB over %d frames", d.distance_db,
        d.frames);
  /* a level change alone is no distance: the gains are relative */
  for (int i = 0; i < FRAMES; ++i)
    b[i] = 0.25f * a[i];
  d = resynthesis_compare(a, FRAMES, 240, b, FRAMES, 240, rate);
  CHECK(d.distance_db < 1e-3, "a render at -12 dB: %.3g dB", d.distance_db);
  modal_table detuned = t;
  detuned.freq[1] *= 1.01;
  CHECK(resynthesis_render(&detuned, rate, b, NULL, FRAMES), "render failed");
  d = resynthesis_compare(a, FRAMES, 240, b, FRAMES, 240, rate);
  printf("mode 2 detuned by 1 %%: %.2f dB\n", d.distance_db);
  CHECK(d.distance_db > 1.0, "mode 2 detuned by 1 %%: only %.2f dB",
        d.distance_db);
  modal_table damped = t;
  damped.decay[0] *= 0.5;
  CHECK(resynthesis_render(&damped, rate, b, NULL, FRAMES), "render failed");
  d = resynthesis_compare(a, FRAMES, 240, b, FRAMES, 240, rate);
  printf("mode 1 decaying twice as fast: %.2f dB\n", d.distance_db);
  CHECK(d.distance_db > 1.0, "mode 1 decaying twice as fast: only %.2f dB",
        d.distance_db);
  free(a);
  free(b);
}

/* A recording is the render with white noise 50 dB under its first
 * frame's level: past 0.4 s it is all noise.  Against the render by
 * resynthesis_compare() every noise bin counts, and the distance is the
 * noise's; over the noise (resynthesis_compare_over_noise()) the render
 * is near (0.5 dB: the noise added where the sound stands over it),
 * and a mode decaying twice as fast is still told apart (1 dB). */
static void
check_over_noise(void)
{
  modal_table t = bar_table();
  float* a = (float*)calloc(FRAMES, sizeof(float));
  float* b = (float*)calloc(FRAMES, sizeof(float));
  float* noisy = (float*)calloc(FRAMES, sizeof(float));
  CHECK(resynthesis_render(&t, rate, a, NULL, FRAMES), "render failed");
  double first = 0.0;
  for (int i = 240; i < 240 + 4096; ++i)
    first += (double)a[i] * a[i] / 4096.0;
  const double var = first * pow(10.0, -50.0 / 10.0);
  noise_seed(25);
  for (int i = 0; i < FRAMES; ++i)
    noisy[i] = a[i] + (float)(sqrt(var) * noise_gauss());
  const resynthesis_distance plain =
      resynthesis_compare(noisy, FRAMES, 240, a, FRAMES, 240, rate);
  const resynthesis_distance over = resynthesis_compare_over_noise(
      noisy, FRAMES, 240, a, FRAMES, 240, rate, var);
  printf("a render against itself with noise 50 dB under: %.2f dB, over the "
         "noise %.2f dB\n",
         plain.distance_db, over.distance_db);
  CHECK(plain.distance_db > 3.0, "the noise counted: only %.2f dB",
        plain.distance_db);
  CHECK(over.distance_db < 0.5, "over the noise: %.2f dB", over.distance_db);
  modal_table damped = t;
  damped.decay[0] *= 0.5;
  CHECK(resynthesis_render(&damped, rate, b, NULL, FRAMES), "render failed");
  const resynthesis_distance off = resynthesis_compare_over_noise(
      noisy, FRAMES, 240, b, FRAMES, 240, rate, var);
  printf("mode 1 decaying twice as fast, over the noise: %.2f dB\n",
         off.distance_db);
  CHECK(off.distance_db > 1.0,
        "mode 1 decaying twice as fast, over the noise: only %.2f dB",
        off.distance_db);
  free(a);
  free(b);
  free(noisy);
}

int
main(void)
{
  check_render();
  check_distance();
  check_over_noise();
  return check_done("resynthesis");
}
