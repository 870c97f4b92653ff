/* SPDX-License-Identifier: ISC */
/*
 * The modal object (dsp/modal.c, [ch8] 8.2) against closed forms written
 * here:
 * 1. free vibration: each rendered mode follows x(t) = e^{-t/t_e} (x0 cos
 *    w_d t + (v0 + x0 / t_e) / w_d sin w_d t), the solution of [ch8] eq
 *    8.1 with g = 2 / t_e and damped frequency w_d = 2 pi f (modal.h), and
 *    its 1/e decay time, measured from the invariant (v + x / t_e)^2 +
 *    (w_d x)^2 = A^2 w_d^2 e^{-2 t / t_e}, is the table's;
 * 2. a force held over a step enters through the exact zero-order-hold
 *    response: the step's b coefficients equal a fine long-double RK4
 *    integration of eq 8.1 from rest under a unit force, at the audio step
 *    and at sub-steps down to 1/1024 of it;
 * 3. the right pickup hears mode i (1-based) with the weight 1 - width (1 -
 *    (-1)^(i-1)) (modal.h), the left with 1;
 * 4. free ringing (modal_ring) outputs, at every sample, the pickups'
 *    velocities of the state that modal_correct_predict() (no force)
 *    steps to, for any number
 *    of modes (whole vectors, chunks and their tails) and however the
 *    frames are split, with the mirror's pickup shapes (the lanes' right
 *    pickup) and with others (summed mode by mode).
 */
#include "check.h"
#include "modal.h"

#include <math.h>
#include <stdio.h>

#define PI 3.14159265358979323846

static modal_object o;

static const double freqs[] = {55.0, 440.0, 3300.0, 15000.0};
static const double decays[] = {0.004, 0.3, 3.0};
enum { N_F = sizeof(freqs) / sizeof(freqs[0]) };
enum { N_D = sizeof(decays) / sizeof(decays[0]) };

/* every (frequency, decay) pair as one mode of an object at `rate` */
static void
setup(double rate, double width)
{
  modal_init(&o, rate);
  modal_set_count(&o, N_F * N_D);
  modal_set_mass(&o, 0.5);
  for (int i = 0; i < N_F; ++i)
    for (int j = 0; j < N_D; ++j)
      modal_set_mode(&o, N_D * i + j, freqs[i], decays[j], 1.0 + 0.1 * i);
  modal_set_width(&o, width);
  modal_update(&o);
}

static void
free_vibration(void)
{
  static const double rates[] = {44100.0, 48000.0, 96000.0};
  static float l[4800], r[4800];
  double worst_traj = 0.0, worst_decay = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double rate = rates[k];
    setup(rate, 0.5);
    for (int l2 = 0; l2 < o.count; ++l2) {
      o.x[l2] = 1e-6 * (1.0 + 0.3 * l2);
      o.v[l2] = 1e-3 * (0.7 - 0.1 * l2);
    }
    double x0[MODAL_MAX_MODES], v0[MODAL_MAX_MODES], q0[MODAL_MAX_MODES];
    for (int m = 0; m < o.count; ++m) {
      const double s = 1.0 / o.decay[m], wd = 2.0 * PI * o.freq[m];
      x0[m] = o.x[m];
      v0[m] = o.v[m];
      q0[m] =
          (v0[m] + s * x0[m]) * (v0[m] + s * x0[m]) + wd * wd * x0[m] * x0[m];
    }
    /* 1 s in blocks, compared after each block */
    const int block = (int)(rate / 100.0);
    for (int b = 1; b <= 100; ++b) {
      modal_ring(&o, block, l, r, 1.0);
      const long n = (long)b * block;
      const long double t = (long double)n / rate;
      for (int m = 0; m < o.count; ++m) {
        if (!(o.freq[m] < MODAL_MAX_FREQ_RATIO * rate))
          continue;
        const long double s = 1.0L / o.decay[m];
        const long double wd = 2.0L * 3.14159265358979323846264338L * o.freq[m];
        const long double e = expl(-s * t);
        const long double c = cosl(wd * t), sn = sinl(wd * t);
        const long double a = v0[m] + s * x0[m];
        const long double x = e * (x0[m] * c + a / wd * sn);
        const long double v =
            e * (-s * (x0[m] * c + a / wd * sn) + (-x0[m] * wd * sn + a * c));
        /* relative to the amplitude left, sqrt(q) / w_d */
        const double amp = (double)(e * sqrtl((long double)q0[m]) / wd);
        if (amp < 1e-200)
          continue;
        worst_traj = fmax(worst_traj, fabs(o.x[m] - (double)x) / amp);
        worst_traj = fmax(worst_traj, fabs(o.v[m] - (double)v) / (amp * wd));
        if (b == 100 && (double)(s * t) < 600.0) {
          /* the rendered decay time from the invariant */
          const double ss = 1.0 / o.decay[m], wdd = 2.0 * PI * o.freq[m];
          const double q = (o.v[m] + ss * o.x[m]) * (o.v[m] + ss * o.x[m]) +
                           wdd * wdd * o.x[m] * o.x[m];
          const double te = -2.0 * (double)t / log(q / q0[m]);
          worst_decay = fmax(worst_decay, fabs(te / o.decay[m] - 1.0));
        }
      }
    }
  }
  /* achieved 1.1e-11 (trajectory) and 2.1e-11 (decay time): rounding
   * that grows with the samples (15 kHz at 96 kHz turns 1e5 radians in
   * the second); bars 10x and 5x.  A decay time off by 1 % is 1e-2. */
  const double traj_bar = 1e-10, decay_bar = 1e-10;
  printf("free vibration, 12 modes at 44.1, 48, 96 kHz over 1 s: off the "
         "closed form by %.1e of the amplitude (bar %.0e); decay time off "
         "the table by %.1e (bar %.0e)\n",
         worst_traj, traj_bar, worst_decay, decay_bar);
  CHECK(worst_traj < traj_bar, "free vibration off eq 8.1 by %g", worst_traj);
  CHECK(worst_decay < decay_bar, "rendered decay time off by %g", worst_decay);
}

/* response after h to a unit force from rest, by RK4 in long double */
static void
zoh_reference(double freq, double decay, double inv_mass, double h,
              long double* x, long double* v)
{
  const long double s = 1.0L / decay;
  const long double wd = 2.0L * 3.14159265358979323846264338L * freq;
  const long double w02 = wd * wd + s * s;
  enum { STEPS = 4096 };
  const long double k = (long double)h / STEPS;
  long double xx = 0.0L, vv = 0.0L;
  for (int i = 0; i < STEPS; ++i) {
#define ACC(X, V) (inv_mass - 2.0L * s * (V)-w02 * (X))
    const long double k1x = vv, k1v = ACC(xx, vv);
    const long double k2x = vv + 0.5L * k * k1v,
                      k2v = ACC(xx + 0.5L * k * k1x, vv + 0.5L * k * k1v);
    const long double k3x = vv + 0.5L * k * k2v,
                      k3v = ACC(xx + 0.5L * k * k2x, vv + 0.5L * k * k2v);
    const long double k4x = vv + k * k3v, k4v = ACC(xx + k * k3x, vv + k * k3v);
#undef ACC
    xx += k / 6.0L * (k1x + 2.0L * (k2x + k3x) + k4x);
    vv += k / 6.0L * (k1v + 2.0L * (k2v + k3v) + k4v);
  }
  *x = xx;
  *v = vv;
}

static void
zero_order_hold(void)
{
  static modal_coeffs c;
  double worst = 0.0;
  setup(48000.0, 0.5);
  for (int split = 1; split <= 1024; split *= 4) {
    const double h = 1.0 / (48000.0 * split);
    modal_coeffs_compute(&o, h, &c);
    for (int m = 0; m < o.count; ++m) {
      if (!(o.freq[m] < MODAL_MAX_FREQ_RATIO * 48000.0))
        continue;
      const double inv_mass = o.gain[m] / o.mass;
      long double x, v;
      zoh_reference(o.freq[m], o.decay[m], inv_mass, h, &x, &v);
      worst = fmax(worst, fabs(c.bx[m] / (double)x - 1.0));
      worst = fmax(worst, fabs(c.bv[m] / (double)v - 1.0));
    }
  }
  /* achieved 6.7e-16 (double rounding in the phi1 series and the
   * exponentials); the bar 10x that of a few roundings */
  const double zoh_bar = 5e-15;
  printf("zero-order-hold response at 1..1/1024 of a 48 kHz sample: off "
         "RK4 by %.1e (bar %.0e)\n",
         worst, zoh_bar);
  CHECK(worst < zoh_bar, "ZOH response off by %g", worst);
}

static void
pickups(void)
{
  static const double widths[] = {0.0, 0.3, 1.0};
  double worst = 0.0;
  for (int k = 0; k < 3; ++k) {
    setup(48000.0, widths[k]);
    for (int m = 0; m < o.count; ++m) {
      for (int j = 0; j < o.count; ++j)
        o.x[j] = o.v[j] = 0.0;
      o.v[m] = 1.0;
      double left, right;
      modal_pickups(&o, &left, &right);
      const int i = m + 1; /* 1-based */
      const double want = 1.0 - widths[k] * (1.0 - (i % 2 ? 1.0 : -1.0));
      worst = fmax(worst, fabs(right - want) + fabs(left - 1.0));
    }
  }
  printf("pickup weights at widths 0, 0.3, 1: off 1 - width (1 - "
         "(-1)^(i-1)) by %g\n",
         worst);
  /* exact arithmetic on small numbers: the bar is rounding */
  CHECK(worst < 1e-15, "pickup weights off by %g", worst);
}

/* the object with `count` modes log-spaced over 40 Hz - 18 kHz, ringing;
 * shaped: the right pickup at shapes other than the mirror's, summed
 * mode by mode */
static void
setup_ringing(int count, bool shaped)
{
  modal_init(&o, 48000.0);
  modal_set_count(&o, count);
  for (int m = 0; m < count; ++m)
    modal_set_mode(&o, m, 40.0 * pow(450.0, m / (count + 1.0)), 0.05 + 0.01 * m,
                   1.0);
  if (shaped)
    for (int m = 0; m < count; ++m)
      modal_set_pickup_shape(&o, m, 2.0 * cos(0.9 * m + 0.4));
  modal_set_width(&o, 0.3);
  modal_update(&o);
  for (int m = 0; m < count; ++m) {
    o.x[m] = 1e-6 * (1.0 + 0.01 * m);
    o.v[m] = 1e-3 * (m % 3 - 1.0);
  }
}

static void
ring_output(void)
{
  static const int counts[] = {1, 8, 9, 12, 16, 17, 33, 127, 128};
  static const int splits[] = {1, 63, 64, 65, 300};
  enum { FRAMES = 300 };
  static modal_object stepped;
  static float l[FRAMES], r[FRAMES], l2[FRAMES], r2[FRAMES];
  double worst = 0.0;
  bool split_alike = true;
  for (int k = 0; k < 2 * (int)(sizeof(counts) / sizeof(counts[0])); ++k) {
    const int i = k / 2;
    const bool shaped = k % 2;
    setup_ringing(counts[i], shaped);
    CHECK(o.pickup_alternating == !shaped, "%d modes: lanes' pickup %s",
          counts[i], shaped ? "kept" : "dropped");
    stepped = o;
    for (int t = 0; t < FRAMES; ++t)
      l[t] = r[t] = 0.0f;
    modal_ring(&o, FRAMES, l, r, 1.0);
    const modal_object rung = o;
    double peak = 0.0, off = 0.0;
    for (int t = 0; t < FRAMES; ++t) {
      double px, pv, left, right;
      modal_correct_predict(&stepped, &stepped.audio, 0.0, &px, &pv, NULL,
                            NULL);
      modal_pickups(&stepped, &left, &right);
      peak = fmax(peak, fmax(fabs(left), fabs(right)));
      off = fmax(off, fmax(fabs(l[t] - left), fabs(r[t] - right)));
    }
    for (int m = 0; m < counts[i]; ++m)
      off = fmax(off, fabs(rung.v[m] - stepped.v[m]) / 1e-3);
    worst = fmax(worst, off / peak);
    for (size_t j = 0; j < sizeof(splits) / sizeof(splits[0]); ++j) {
      setup_ringing(counts[i], shaped);
      for (int t = 0; t < FRAMES; ++t)
        l2[t] = r2[t] = 0.0f;
      for (int t = 0; t < FRAMES; t += splits[j]) {
        const int n = FRAMES - t < splits[j] ? FRAMES - t : splits[j];
        modal_ring(&o, n, l2 + t, r2 + t, 1.0);
      }
      for (int t = 0; t < FRAMES; ++t)
        split_alike = split_alike && l2[t] == l[t] && r2[t] == r[t];
    }
  }
  /* the output is float: its rounding, 6e-8 of the peak, is the bar */
  const double ring_bar = 1.2e-7;
  printf("free ringing, 1..128 modes, mirror and other shapes: output off the "
         "stepped state's "
         "pickups by %.1e of the peak (bar %.1e)\n",
         worst, ring_bar);
  CHECK(worst < ring_bar, "ring output off the pickups by %g", worst);
  CHECK(split_alike, "ring output depends on how the frames are split");
}

int
main(void)
{
  free_vibration();
  zero_order_hold();
  pickups();
  ring_output();
  return check_done("test_modal");
}
