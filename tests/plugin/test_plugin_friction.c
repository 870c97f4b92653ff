/* SPDX-License-Identifier: ISC */
/*
 * The friction instrument through the plugin binary:
 * 1. no normal force, or no speed: silence (below -120 dBFS) after the
 *    release, even on a rough surface (its noise is heard while it slides);
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
glass_at(double fs)
{
  host* h = host_open("urn:contact:friction", fs, 256);
  if (!h)
    exit(1);
  HOST_OK(host_set(h, "pitch_track", 0.0f));
  HOST_OK(host_set(h, "modes", 1.0f));
  HOST_OK(host_set(h, "mode1_freq", 1000.0f));
  HOST_OK(host_set(h, "mode1_decay", 2000.0f));
  HOST_OK(host_set(h, "mode1_gain", 1.0f));
  HOST_OK(host_set(h, "object_mass", 0.05f));
  HOST_OK(host_set(h, "sigma0", 1e5f));
  HOST_OK(host_set(h, "sigma3", 0.0f)); /* smooth: the tone alone */
  HOST_OK(host_set(h, "stribeck_velocity", 100.0f));
  HOST_OK(host_set(h, "normal_force", 3.0f));
  HOST_OK(host_set(h, "bow_velocity", 0.05f));
  HOST_OK(host_set(h, "gain", 0.0f));
  return h;
}

static host*
glass(void)
{
  return glass_at(rate);
}

static double
max_kink(const float* x, size_t from, size_t to)
{
  double m = 0.0;
  for (size_t i = from + 2; i < to; ++i)
    m = fmax(m, fabs((double)x[i] - 2.0 * x[i - 1] + x[i - 2]));
  return m;
}

/* ---- steady sliding on a rigid object ------------------------------- */

/* An exciter drawn across a rigid object (1e12 kg) well above the
 * Stribeck velocity (100 mm/s against 1 mm/s: e^(-10^4) of the static
 * excess is left) slides steadily: the bristles sit at z_ss = mu_d f_N /
 * sigma0, so the friction force is mu_d f_N + sigma2 v and the slip is the
 * hand's speed v (velocity drive). */
static const float rigid_fn = 2.0f, rigid_v = 0.1f, rigid_mu_d = 0.3f,
                   rigid_sigma2 = 0.5f;

static host*
rigid(double rate_hz)
{
  host* h = host_open("urn:contact:friction", rate_hz, 256);
  if (!h)
    exit(1);
  HOST_OK(host_set(h, "pitch_track", 0.0f));
  HOST_OK(host_set(h, "modes", 1.0f));
  HOST_OK(host_set(h, "object_mass", 1e12f));
  HOST_OK(host_set(h, "normal_force", rigid_fn));
  HOST_OK(host_set(h, "bow_velocity", rigid_v));
  HOST_OK(host_set(h, "mu_d", rigid_mu_d));
  HOST_OK(host_set(h, "mu_s", 0.8f));
  HOST_OK(host_set(h, "stribeck_velocity", 1.0f));
  HOST_OK(host_set(h, "sigma2", rigid_sigma2));
  HOST_OK(host_set(h, "sigma3", 0.0f));
  return h;
}

/* run until `until` (s) and read the meters of the last block */
static void
meters_at(host* h, double until, double* force, double* slip)
{
  const uint64_t end = (uint64_t)(until * rate);
  if (end > host_now(h))
    host_run(h, end - host_now(h), 256, NULL, NULL);
  *force = host_get(h, "friction_force");
  *slip = host_get(h, "slip_velocity");
}

/* 5.-8. the meters against mu_d f_N (1 + p) + sigma2 v (1 + c/127) and the
 * slip v (1 + c/127): at rest, under channel pressure, under polyphonic
 * aftertouch (which then sets the note's pressure), with the mod wheel,
 * and after CC121 (reset controllers) back at rest */
static void
steady(void)
{
  host* h = rigid(rate);
  const double p_ch = 64.0 / 127.0, p_poly = 32.0 / 127.0, wheel = 1.0 + 0.5;
  const uint8_t channel[2] = {0xD0, 64}, poly[3] = {0xA0, 60, 32};
  const uint8_t mod[3] = {0xB0, 1, 127}, reset[3] = {0xB0, 121, 0};
  HOST_OK(host_note_on(h, 0, 60, 127));
  HOST_OK(host_midi(h, (uint64_t)(0.6 * rate), channel, 2));
  HOST_OK(host_midi(h, (uint64_t)(0.8 * rate), poly, 3));
  HOST_OK(host_midi(h, (uint64_t)(1.0 * rate), mod, 3));
  HOST_OK(host_midi(h, (uint64_t)(1.6 * rate), reset, 3));
  const double fn = rigid_fn, v = rigid_v, mu = rigid_mu_d, s2 = rigid_sigma2;
  /* (the mod wheel at 127: 1 + 127/127 = 2) */
  const struct {
    const char* what;
    double until, press, speed;
  } stage[5] = {
      {"at rest", 0.6, 1.0, 1.0},
      {"channel pressure 64", 0.8, 1.0 + p_ch, 1.0},
      {"poly aftertouch 32", 1.0, 1.0 + p_poly, 1.0},
      {"mod wheel 127", 1.6, 1.0 + p_poly, 2.0},
      {"after CC121", 2.2, 1.0, 1.0},
  };
  (void)wheel;
  double worst_f = 0.0, worst_v = 0.0;
  for (int k = 0; k < 5; ++k) {
    double force, slip;
    meters_at(h, stage[k].until, &force, &slip);
    const double want_f = mu * fn * stage[k].press + s2 * v * stage[k].speed;
    const double want_v = v * stage[k].speed;
    printf("rigid object, %-20s friction_force %.7f N (want %.7f), "
           "slip_velocity %.7f m/s (want %.7f)\n",
           stage[k].what, force, want_f, slip, want_v);
    worst_f = worst_of(worst_f, (force / want_f - 1.0));
    worst_v = worst_of(worst_v, (slip / want_v - 1.0));
  }
  /* achieved 1.9e-8 (force) and 0 (slip): the meters are floats, 6e-8;
   * a pressure or mod wheel law off by one in 127 is off by 4e-3 */
  const double tol = 1.8e-7;
  printf("steady sliding: worst force error %.2e, slip %.2e (tol %.0e)\n",
         worst_f, worst_v, tol);
  CHECK(worst_f <= tol, "friction force off by %.3g", worst_f);
  CHECK(worst_v <= tol, "slip velocity off by %.3g", worst_v);
  host_close(h);
}

/* 9. force drive: the exciter (100 g) is a free mass pushed by ext_force
 * (1 N) against the sliding friction mu_d f_N (0.6 N, sigma2 0): it
 * accelerates at (F - mu_d f_N) / m = 4 m/s^2, read as the slope of the
 * slip_velocity meter over 0.5..0.7 s (the push's 30 ms glide is done) */
static void
force_drive(void)
{
  host* h = rigid(rate);
  HOST_OK(host_set(h, "drive_mode", 1.0f));
  HOST_OK(host_set(h, "exciter_mass", 100.0f));
  HOST_OK(host_set(h, "ext_force", 1.0f));
  HOST_OK(host_set(h, "sigma2", 0.0f));
  HOST_OK(host_note_on(h, 0, 60, 127));
  host_run(h, (uint64_t)(0.5 * rate), 256, NULL, NULL);
  double st = 0, sv = 0, stt = 0, stv = 0;
  int n = 0;
  for (; host_now(h) < (uint64_t)(0.7 * rate); ++n) {
    host_run(h, 256, 256, NULL, NULL);
    const double t = (host_now(h) - 128.0) / rate; /* the block's middle */
    const double v = host_get(h, "slip_velocity");
    st += t;
    sv += v;
    stt += t * t;
    stv += t * v;
  }
  const double accel = (n * stv - st * sv) / (n * stt - st * st);
  const double want = (1.0 - (double)rigid_mu_d * rigid_fn) / 0.1;
  /* achieved 2.8e-8; velocity drive (no acceleration) or a lost friction
   * force is off by 100 % and more */
  check_rel("force drive: acceleration (m/s^2)", accel, want, 2.5e-7);
  host_close(h);
}

/* 11. velocity plays a share of the stroke, g = floor + (1 - floor)
 * (velocity / 127)^curve of both speed and force: on the rigid object the
 * meters read mu_d f_N g + sigma2 v g and the slip v g */
static void
stroke_share(void)
{
  const struct {
    float floor, curve;
    int velocity;
  } cases[3] = {{0.0f, 1.5f, 64}, {0.25f, 1.0f, 20}, {0.0f, 3.0f, 100}};
  double worst = 0.0;
  for (int k = 0; k < 3; ++k) {
    host* h = rigid(rate);
    HOST_OK(host_set(h, "velocity_floor", cases[k].floor));
    HOST_OK(host_set(h, "velocity_curve", cases[k].curve));
    HOST_OK(host_note_on(h, 0, 60, cases[k].velocity));
    double force, slip;
    meters_at(h, 0.6, &force, &slip);
    const double g =
        cases[k].floor +
        (1.0 - cases[k].floor) * pow(cases[k].velocity / 127.0, cases[k].curve);
    const double want_f =
        rigid_mu_d * rigid_fn * g + rigid_sigma2 * rigid_v * g;
    printf("velocity %3d, floor %.2f, curve %.1f: share %.6f; friction_force "
           "%.7f N (want %.7f), slip_velocity %.7f m/s (want %.7f)\n",
           cases[k].velocity, cases[k].floor, cases[k].curve, g, force, want_f,
           slip, rigid_v * g);
    worst = worst_of(worst, force / want_f - 1.0);
    worst = worst_of(worst, slip / (rigid_v * g) - 1.0);
    host_close(h);
  }
  /* the meters are floats (6e-8), as in steady(); a speed-only velocity
   * (the old law) is off by 1 - g in the force, a share of velocity/127
   * ignoring the curve by tens of percent */
  printf("stroke share: worst error %.2e (tol 1.8e-7)\n", worst);
  CHECK(worst <= 1.8e-7, "velocity's share of the stroke off by %.3g", worst);
}

/* 10. other rates: the glass sings at the same pitch and level as at
 * 48 kHz */
static void
rates(void)
{
  const double rates_hz[5] = {48000.0, 22050.0, 44100.0, 96000.0, 192000.0};
  double f48 = 0.0, level48 = 0.0, worst_f = 0.0, worst_db = 0.0;
  for (int k = 0; k < 5; ++k) {
    host* h = glass_at(rates_hz[k]);
    HOST_OK(host_note_on(h, 0, 60, 127));
    render r = render_run(h, 2.5, 256);
    /* sung out (the tone builds up over the first second) */
    const size_t at = (size_t)(2.0 * rates_hz[k]), len = r.frames - at;
    const double f = peak_frequency(r.l + at, len, rates_hz[k], 1000.0, 0.05);
    const double level = rms(r.l + at, len);
    if (k == 0) {
      f48 = f;
      level48 = level;
    }
    const double df = f / f48 - 1.0, db = 20.0 * log10(level / level48);
    printf("friction at %g kHz: sings at %.3f Hz (%+.2e of 48 kHz), "
           "%.2f dBFS rms (%+.4f dB)\n",
           rates_hz[k] / 1e3, f, df, 20.0 * log10(level), db);
    worst_f = worst_of(worst_f, (df));
    worst_db = worst_of(worst_db, (db));
    render_free(&r);
    host_close(h);
  }
  /* achieved 6.8e-5 and 0.001 dB (the stick-slip cycle's own
   * discretisation); a rate-dependent pitch or level, e.g. a coefficient
   * tuned for 48 kHz, moves them by percents */
  const double tol_f = 7e-4, tol_db = 0.01;
  printf("friction rates: pitch within %.2e of 48 kHz (bar %.0e), level "
         "within %.4f dB (bar %.2f)\n",
         worst_f, tol_f, worst_db, tol_db);
  CHECK(worst_f <= tol_f, "pitch moves with the rate: %.3g", worst_f);
  CHECK(worst_db <= tol_db, "level moves with the rate: %.3g dB", worst_db);
}

int
main(void)
{
  const size_t second = (size_t)rate;

  /* 1. silence without normal force or without speed */
  for (int k = 0; k < 2; ++k) {
    host* h = glass();
    HOST_OK(host_set(h, "sigma3", 1.0f)); /* rough, but not sliding */
    HOST_OK(host_set(h, k == 0 ? "normal_force" : "bow_velocity", 0.0f));
    HOST_OK(host_note_on(h, 0, 60, 127));
    HOST_OK(host_note_off(h, second, 60));
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
    HOST_OK(host_note_on(h, 0, 60, 127));
    HOST_OK(host_note_off(h, 4 * second, 60));
    render r = render_run(h, 4.0, 256);
    const size_t window = second / 10;
    double worst = 0.0, lowest = INFINITY, highest = 0.0;
    for (size_t at = second / 10; at + window <= 4 * second; at += window) {
      const double f = peak_frequency(r.l + at, window, rate, 1000.0, 0.05);
      worst = worst_of(worst, (f / 1000.0 - 1.0));
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
      HOST_OK(host_ramp(h, "normal_force", i * second / 2, i * second / 2,
                        steps[i], steps[i]));
    HOST_OK(host_note_on(h, 0, 60, 127));
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
    HOST_OK(host_note_on(h, 0, 60, 127));
    HOST_OK(host_note_off(h, 2 * second, 60));
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
  steady();
  force_drive();
  rates();
  stroke_share();
  return check_done("test_plugin_friction");
}
