/* SPDX-License-Identifier: ISC */
/*
 * The friction instrument through the plugin binary:
 * 1. no normal force, or no speed: silence (below -120 dBFS) after the
 *    release;
 * 2. a wine glass (one mode, 1 kHz, 2 s decay) rubbed steadily sings at its
 *    mode's frequency (within 1 %) for the whole note: from the first
 *    tenth of a second, while the self-oscillation builds up from the
 *    smooth touch ([ch8] 8.4.2), to the end, where it holds its level;
 * 3. the normal force automated up in 8 steps makes the level rise at
 *    every step ([ch8] table 8.1: a larger f_N is louder and rougher);
 * 4. note-off leaves the object ringing, without a click: around the
 *    release no sample-to-sample jump exceeds the signal's own maximum
 *    slope, 2 sin(pi f / Fs) times its amplitude there for the 1 kHz mode,
 *    nor any kink (second difference) 4 sin^2(pi f / Fs) times it.  (Lifting
 *    also releases the mode's static load from the mean friction force, so
 *    it swings a little wider for a few cycles: at its own frequency.)
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>

static const double rate = 48000.0;

static host*
glass(void)
{
  host* h = host_open("urn:contact:friction", rate, 256);
  if (!h)
    exit(1);
  host_set(h, "pitch_track", 0.0f);
  host_set(h, "modes", 1.0f);
  host_set(h, "mode1_freq", 1000.0f);
  host_set(h, "mode1_decay", 2000.0f);
  host_set(h, "mode1_gain", 1.0f);
  host_set(h, "object_mass", 0.05f);
  host_set(h, "sigma0", 1e5f);
  host_set(h, "normal_force", 3.0f);
  host_set(h, "bow_velocity", 0.05f);
  host_set(h, "gain", 0.0f);
  return h;
}

static double
max_step(const float* x, size_t from, size_t to)
{
  double m = 0.0;
  for (size_t i = from + 1; i < to; ++i)
    m = fmax(m, fabs((double)x[i] - x[i - 1]));
  return m;
}

static double
max_kink(const float* x, size_t from, size_t to)
{
  double m = 0.0;
  for (size_t i = from + 2; i < to; ++i)
    m = fmax(m, fabs((double)x[i] - 2.0 * x[i - 1] + x[i - 2]));
  return m;
}

int
main(void)
{
  const size_t second = (size_t)rate;

  /* 1. silence without normal force or without speed */
  for (int k = 0; k < 2; ++k) {
    host* h = glass();
    host_set(h, k == 0 ? "normal_force" : "bow_velocity", 0.0f);
    host_note_on(h, 0, 60, 127);
    host_note_off(h, second, 60);
    render r = render_run(h, 2.0, 256);
    const double after =
        peak_abs(r.l + second + second / 10, second - second / 10);
    printf("%s = 0: peak after the release %.3g dBFS\n",
           k == 0 ? "normal_force" : "bow_velocity",
           20.0 * log10(after + 1e-300));
    CHECK(after < 1e-6, "not silent: %g", after);
    render_free(&r);
    host_close(h);
  }

  /* 2. the glass sings at its mode for the whole note */
  {
    host* h = glass();
    host_note_on(h, 0, 60, 127);
    host_note_off(h, 4 * second, 60);
    render r = render_run(h, 4.0, 256);
    const size_t window = second / 10;
    double worst = 0.0, lowest = INFINITY, highest = 0.0;
    for (size_t at = second / 10; at + window <= 4 * second; at += window) {
      const double f = peak_frequency(r.l + at, window, rate, 1000.0, 0.05);
      worst = fmax(worst, fabs(f / 1000.0 - 1.0));
      if (at >= 2 * second) { /* the second half: sung out */
        const double level = rms(r.l + at, window);
        lowest = fmin(lowest, level);
        highest = fmax(highest, level);
      }
    }
    printf("rubbed glass: frequency off 1 kHz by %.2e at worst; second "
           "half between %.1f and %.1f dBFS rms\n",
           worst, 20.0 * log10(lowest), 20.0 * log10(highest));
    CHECK(worst < 0.01, "sings %.2e off its mode", worst);
    CHECK(lowest > 0.01, "not singing out (%g rms)", lowest);
    CHECK(highest < 1.41 * lowest, "the level wanders: %g..%g", lowest,
          highest);
    render_free(&r);
    host_close(h);
  }

  /* 3. normal force in 8 steps */
  {
    host* h = glass();
    const float steps[8] = {0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f};
    for (int i = 0; i < 8; ++i)
      host_ramp(h, "normal_force", i * second / 2, i * second / 2, steps[i],
                steps[i]);
    host_note_on(h, 0, 60, 127);
    render r = render_run(h, 4.0, 256);
    double last = 0.0;
    bool rising = true;
    for (int i = 0; i < 8; ++i) {
      const double level = rms(r.l + i * second / 2 + second / 4, second / 4);
      printf("normal force %.1f N: %.2f dBFS rms\n", steps[i],
             20.0 * log10(level));
      rising = rising && level > last;
      last = level;
    }
    CHECK(rising, "the level does not rise with the normal force");
    render_free(&r);
    host_close(h);
  }

  /* 4. release: rings on, no click */
  {
    host* h = glass();
    host_note_on(h, 0, 60, 127);
    host_note_off(h, 2 * second, 60);
    render r = render_run(h, 3.0, 256);
    const size_t off = 2 * second, near = second / 20;
    const double amplitude = peak_abs(r.l + off, near);
    const double w = 3.14159265358979323846 * 1000.0 / rate;
    const double slope = 2.0 * sin(w) * amplitude;
    const double bend = 4.0 * sin(w) * sin(w) * amplitude;
    const double step = max_step(r.l, off, off + near);
    const double kink = max_kink(r.l, off, off + near);
    const double before = rms(r.l + off - second / 10, second / 10);
    const double after = rms(r.l + off + near, second / 10);
    printf("release: largest step %.4g (a 1 kHz sine of that amplitude: "
           "%.4g), sharpest kink %.3g (%.3g); level after %.1f dB of "
           "before\n",
           step, slope, kink, bend, 20.0 * log10(after / before));
    CHECK(step <= 1.02 * slope, "jump at the release: %g > %g", step, slope);
    CHECK(kink <= 1.02 * bend, "kink at the release: %g > %g", kink, bend);
    CHECK(after > 0.3 * before, "the object does not ring on");
    render_free(&r);
    host_close(h);
  }
  return check_done("test_plugin_friction");
}
