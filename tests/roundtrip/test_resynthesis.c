/* SPDX-License-Identifier: ISC */
/*
 * The re-synthesis check itself (analysis/resynthesis.h): a table struck
 * through the impact DSP rings at the table's frequencies and decays; the
 * log-spectral distance of a render to itself is zero, and it grows with
 * a detuned mode or a wrong decay, so that --compare can tell a good
 * table from a bad one.
 */
#include "analysis.h"
#include "check.h"
#include "modal_table.h"
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

int
main(void)
{
  check_render();
  check_distance();
  return check_done("resynthesis");
}
