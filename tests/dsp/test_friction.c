/* SPDX-License-Identifier: ISC */
/*
 * The friction interactor ([ch8] 8.3.2, 8.A):
 * 1. steady sliding at a constant relative velocity gives the Stribeck
 *    force sigma0 z_ss(v) + sigma2 v within 1 %, over 4 decades of v and
 *    both signs;
 * 2. below breakaway the contact is elastic: a force under the breakaway
 *    force deflects the bristles to f / sigma0 and nothing drifts;
 * 3. stick-slip of an exciter on a single 100 Hz mode driven at 0.05 m/s
 *    is periodic, and its period and peak-to-peak displacement agree
 *    within 2 % with the same model run at 8x the sample rate;
 * 4. Newton on z' over a grid of normal forces, velocities, bristle
 *    stiffnesses, both drives and two rates never fails, with a median of
 *    at most 3 and a maximum of at most 8 iterations;
 * 5. the second partials of z' (which decide when a Newton step needs no
 *    check) agree with central differences of its first partials;
 * 6. each solve lands within the tolerance it claims: over 2 10^5 random
 *    implicit steps, within 1e-4 of the guess's miss (or 1e-10 of
 *    |z'| + |v|) of the root found by bisection to machine precision;
 * 7. at the corners of the parameter ranges the interactor stays finite
 *    and Newton never reaches its cap.
 */
#include "check.h"
#include "friction.h"
#include "modal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static modal_object o;
static friction fr;
static float l[4800], r[4800];

/* The cases' bristles: soft (sigma0 = 1e4 N/m, the exciter-bristle
 * resonance at 160 Hz, well resolved), the rest as the plugin's defaults. */
static const friction_law soft_bristles = {1e4, 0.1, 0.1, 0.0,
                                           0.8, 0.3, 0.1, 0.7};

static void
setup(double rate, int modes, double mass, friction_drive drive)
{
  static const double freq[3] = {100.0, 470.0, 1330.0};
  static const double decay[3] = {1.0, 0.5, 0.3};
  modal_init(&o, rate);
  modal_set_count(&o, modes);
  modal_set_mass(&o, mass);
  for (int i = 0; i < modes; ++i)
    modal_set_mode(&o, i, freq[i], decay[i], 1.0 / (1 + i));
  modal_update(&o);
  friction_init(&fr, rate, 7);
  friction_set_law(&fr, soft_bristles);
  friction_set_exciter(&fr, 0.01, drive);
}

static void
run(double seconds)
{
  const long frames = (long)(seconds * fr.sample_rate);
  for (long done = 0; done < frames; done += 4800)
    friction_process(
        &fr, &o, (int)(frames - done < 4800 ? frames - done : 4800), l, r, 1.0);
}

/* period (s) and peak-to-peak displacement of the mode after 2 s, and the
 * spread of the periods relative to their mean */
static void
stick_slip(double rate, double* period, double* pp, double* jitter)
{
  setup(rate, 1, 0.1, FRICTION_DRIVE_VELOCITY);
  friction_set_normal_force(&fr, 1.0);
  friction_set_motion(&fr, 0.05, 0.0);
  run(2.0);
  const long n = (long)(2.0 * rate);
  double* x = (double*)malloc(sizeof(double) * (size_t)n);
  double mean = 0.0;
  for (long i = 0; i < n; ++i) {
    friction_process(&fr, &o, 1, l, r, 1.0);
    x[i] = o.x[0];
    mean += x[i] / n;
  }
  double lo = INFINITY, hi = -INFINITY, last = -1.0, sum = 0.0, sum2 = 0.0;
  int k = 0;
  for (long i = 1; i < n; ++i) {
    lo = fmin(lo, x[i]);
    hi = fmax(hi, x[i]);
    const double a = x[i - 1] - mean, b = x[i] - mean;
    if (a < 0.0 && b >= 0.0) { /* upward crossing, interpolated */
      const double t = (i - 1 + a / (a - b)) / rate;
      if (last >= 0.0) {
        sum += t - last;
        sum2 += (t - last) * (t - last);
        ++k;
      }
      last = t;
    }
  }
  free(x);
  *period = sum / k;
  *pp = hi - lo;
  *jitter = sqrt(fmax(sum2 / k - *period * *period, 0.0)) / *period;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double
uniform(double lo, double hi)
{
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return lo + (hi - lo) * ((rng * 2685821657736338717ull) >> 11) * 0x1p-53;
}

static double
residual(const friction_law* law, double fn, double v_t, double k1, double z_t,
         double kz, double x)
{
  double d_dv, d_dz;
  return friction_zdot(law, fn, v_t + k1 * x, z_t + kz * x, &d_dv, &d_dz) - x;
}

/* a root of the implicit step by bisection, to the last bit, from [lo, hi]
 * widened until the residual changes sign (it is positive far left and
 * negative far right) */
static double
bisect_root(const friction_law* law, double fn, double v_t, double k1,
            double z_t, double kz, double lo, double hi)
{
  for (double step = hi - lo; residual(law, fn, v_t, k1, z_t, kz, lo) <= 0.0;
       step *= 2.0)
    lo -= step;
  for (double step = hi - lo; residual(law, fn, v_t, k1, z_t, kz, hi) >= 0.0;
       step *= 2.0)
    hi += step;
  for (;;) {
    const double mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi))
      return mid;
    const double g = residual(law, fn, v_t, k1, z_t, kz, mid);
    if (g == 0.0)
      return mid;
    if (g > 0.0)
      lo = mid;
    else
      hi = mid;
  }
}

/* a law with bristle stiffness s0 and damping scaled with it */
static friction_law
law_with(double s0)
{
  friction_init(&fr, 48000.0, 1);
  friction_law law = fr.law;
  law.sigma0 = s0;
  law.sigma1 = 0.1 * sqrt(s0 / 1e4);
  return law;
}

static void
second_partials(void)
{
  const friction_law law = law_with(1e5);
  const double fn = 1.0, zss0 = law.mu_s * fn / law.sigma0;
  double worst = 0.0;
  int points = 0;
  for (double v = 0.01; v < 1.0; v *= 1.7)
    for (double a = 0.75; a < 1.2; a += 0.03) {
      const double z = a * zss0 * (law.mu_d / law.mu_s + 0.3); /* all regimes */
      double vv, vz, zz;
      friction_zdot_second(&law, fn, v, z, &vv, &vz, &zz);
      const double hv = 1e-6 * v, hz = 1e-7 * z;
      double dv_p, dz_p, dv_m, dz_m, dv_zp, dz_zp, dv_zm, dz_zm;
      friction_zdot(&law, fn, v + hv, z, &dv_p, &dz_p);
      friction_zdot(&law, fn, v - hv, z, &dv_m, &dz_m);
      friction_zdot(&law, fn, v, z + hz, &dv_zp, &dz_zp);
      friction_zdot(&law, fn, v, z - hz, &dv_zm, &dz_zm);
      const double fd_vv = (dv_p - dv_m) / (2 * hv);
      const double fd_vz = (dz_p - dz_m) / (2 * hv);
      const double fd_zv = (dv_zp - dv_zm) / (2 * hz);
      const double fd_zz = (dz_zp - dz_zm) / (2 * hz);
      /* scale: each partial against the size of its row */
      const double sv = fabs(fd_vv) + fabs(fd_vz) + 1.0;
      const double sz = fabs(fd_zz) + fabs(fd_zv) + 1.0 / zss0;
      worst = fmax(worst, fabs(vv - fd_vv) / sv);
      worst = fmax(worst, fabs(vz - fd_vz) / sv);
      worst = fmax(worst, fabs(vz - fd_zv) / sz);
      worst = fmax(worst, fabs(zz - fd_zz) / sz);
      ++points;
    }
  printf("second partials of z' at %d points: off the central differences "
         "by %.2e at worst (relative)\n",
         points, worst);
  CHECK(worst < 1e-6, "second partials off by %g", worst);
}

static void
solver_accuracy(void)
{
  newton_stats stats = {0};
  double worst = 0.0;
  long trials = 0;
  for (; trials < 200000; ++trials) {
    const double fn = pow(10.0, uniform(-2.0, 1.7));
    const friction_law law = law_with(pow(10.0, uniform(2.0, 8.0)));
    const double h = 1.0 / (48000.0 * (1 << (int)uniform(0.0, 4.0)));
    const double kz = h * uniform(0.5, 1.0);
    const double kv = -h / pow(10.0, uniform(-4.0, 1.0)); /* 1/mass */
    const double inv_den = 1.0 / (1.0 - 0.5 * kv * law.sigma2);
    const double k1 = 0.5 * kv * (kz * law.sigma0 + law.sigma1) * inv_den;
    const double v_t =
        (uniform(0, 1) < 0.5 ? -1 : 1) * pow(10, uniform(-4, 0.5));
    const double z_t = uniform(-2.0, 2.0) * law.mu_s * fn / law.sigma0;
    const double any_root = bisect_root(&law, fn, v_t, k1, z_t, kz, -1.0, 1.0);
    const double guess = any_root + (uniform(0, 1) < 0.5 ? -1 : 1) *
                                        pow(10.0, uniform(-9.0, 0.0)) *
                                        (fabs(any_root) + fabs(v_t));
    const double x =
        friction_solve_zdot(&law, fn, v_t, k1, z_t, kz, guess, &stats);
    /* the implicit step may have several roots (a strong coupling): the
     * one the solve is judged against is the one nearest its answer */
    const double span = 1e-6 * (fabs(x) + fabs(v_t));
    const double root =
        bisect_root(&law, fn, v_t, k1, z_t, kz, x - span, x + span);
    const double miss = guess - root;
    const double allowed =
        fmax(2e-4 * fabs(miss), 2e-10 * (fabs(root) + fabs(v_t))) +
        1e-15 * (fabs(root) + fabs(v_t));
    worst = fmax(worst, fabs(x - root) / allowed);
  }
  printf("%ld random implicit steps: the solve off the bisected root by at "
         "most %.3f of the tolerance (%.3f iterations per solve, %llu cap "
         "hits)\n",
         trials, worst, (double)stats.iterations / stats.solves,
         (unsigned long long)stats.cap_hits);
  CHECK(worst <= 1.0, "a solve missed the root by %g of its tolerance", worst);
  CHECK(stats.cap_hits == 0, "cap hit %llu times",
        (unsigned long long)stats.cap_hits);
}

/* every corner of (normal force, speed, sigma0, exciter mass, mu_s, mu_d,
 * drive) at 44.1 kHz, with noise */
static void
corners(void)
{
  static const double forces[] = {1e-3, 50}, speeds[] = {-2, 1e-3};
  static const double stiff[] = {100, 1e8}, masses[] = {1e-4, 10};
  static const double mus[] = {0.01, 2};
  uint64_t caps = 0;
  int bad = 0, runs = 0;
  for (int i = 0; i < 128; ++i) {
    setup(44100.0, 3, 0.05,
          (i & 64) ? FRICTION_DRIVE_FORCE : FRICTION_DRIVE_VELOCITY);
    friction_set_exciter(&fr, masses[(i >> 3) & 1],
                         (i & 64) ? FRICTION_DRIVE_FORCE
                                  : FRICTION_DRIVE_VELOCITY);
    friction_law law = fr.law;
    law.sigma0 = stiff[(i >> 2) & 1];
    law.mu_s = mus[(i >> 4) & 1];
    law.mu_d = mus[(i >> 5) & 1];
    law.sigma3 = 1.0;
    friction_set_law(&fr, law);
    friction_set_normal_force(&fr, forces[i & 1]);
    friction_set_motion(&fr, speeds[(i >> 1) & 1], 10.0 * speeds[(i >> 1) & 1]);
    run(0.25);
    bad += !(friction_is_finite(&fr) && modal_is_finite(&o) && isfinite(l[0]));
    caps += fr.stats.cap_hits;
    ++runs;
  }
  printf("%d parameter corners: %d not finite, %llu Newton cap hits\n", runs,
         bad, (unsigned long long)caps);
  CHECK(bad == 0, "%d corners went non-finite", bad);
  CHECK(caps == 0, "Newton hit its cap %llu times at the corners",
        (unsigned long long)caps);
}

int
main(void)
{
  /* 1. steady sliding over a rigid object */
  double worst = 0.0;
  for (int sign = -1; sign <= 1; sign += 2)
    for (double v = 1e-3; v < 11.0; v *= sqrt(10.0)) {
      setup(48000.0, 0, 1.0, FRICTION_DRIVE_VELOCITY);
      friction_set_normal_force(&fr, 1.0);
      friction_set_motion(&fr, sign * v, 0.0);
      run(4.0);
      double dz;
      const double expected =
          fr.law.sigma0 * friction_steady_z(&fr.law, 1.0, sign * v, &dz) +
          fr.law.sigma2 * sign * v;
      worst = fmax(worst, fabs(fr.force / expected - 1.0));
      CHECK(fabs(fr.v / (sign * v) - 1.0) < 1e-6, "not sliding at %g m/s",
            sign * v);
    }
  printf("steady sliding, 1e-3..10 m/s both ways: force off the Stribeck "
         "curve by %.2e at worst\n",
         worst);
  CHECK(worst < 0.01, "steady force off by %g", worst);

  /* 2. below breakaway: a free exciter pushed by 0.1 N; breakaway needs
   * c mu_d f_N = 0.21 N */
  setup(48000.0, 0, 1.0, FRICTION_DRIVE_FORCE);
  friction_set_normal_force(&fr, 1.0);
  friction_set_motion(&fr, 0.0, 0.1);
  run(2.0);
  double drift = 0.0;
  for (int i = 0; i < 8 * 48000; ++i) {
    friction_process(&fr, &o, 1, l, r, 1.0);
    drift += fr.v / 48000.0;
  }
  printf("below breakaway: z = %.6e m (f / sigma0 = %.6e), drift over 8 s "
         "%.2e m\n",
         fr.z, 0.1 / fr.law.sigma0, drift);
  check_rel("elastic deflection f / sigma0", fr.z, 0.1 / fr.law.sigma0, 1e-6);
  check_rel("elastic force", fr.force, 0.1, 1e-6);
  CHECK(fabs(drift) < 1e-12, "the exciter drifted by %g m", drift);

  /* 3. stick-slip, and the same at 8x the rate */
  double p1, a1, j1, p8, a8, j8;
  stick_slip(48000.0, &p1, &a1, &j1);
  stick_slip(384000.0, &p8, &a8, &j8);
  printf("stick-slip on 100 Hz at 0.05 m/s: period %.6f ms, p-p %.6e m, "
         "period spread %.1e (48 kHz); %.6f ms, %.6e m (384 kHz)\n",
         1e3 * p1, a1, j1, 1e3 * p8, a8);
  check_rel("period vs 8x the rate", p1, p8, 0.02);
  check_rel("peak-to-peak vs 8x the rate", a1, a8, 0.02);
  CHECK(j1 < 1e-3, "not periodic: period spread %g", j1);
  CHECK(fabs(p1 * 100.0 - 1.0) < 0.05, "not locked to the mode: %g s", p1);

  /* 4. Newton over the grid */
  static const double forces[] = {0.01, 0.1, 0.5, 1, 5, 10, 50};
  static const double speeds[] = {-2,   -0.3, -0.03, -0.003, 0.001,
                                  0.01, 0.1,  1,     2};
  static const double rates[] = {48000.0, 96000.0};
  uint64_t hist[NEWTON_CAP + 1] = {0}, solves = 0, caps = 0;
  for (int k = 0; k < 2; ++k)
    for (int d = 0; d < 2; ++d)
      for (size_t a = 0; a < sizeof(forces) / sizeof(forces[0]); ++a)
        for (size_t b = 0; b < sizeof(speeds) / sizeof(speeds[0]); ++b)
          for (double s0 = 1e2; s0 < 2e8; s0 *= 10.0) {
            setup(rates[k], 3, 0.1,
                  d ? FRICTION_DRIVE_FORCE : FRICTION_DRIVE_VELOCITY);
            friction_law law = fr.law;
            law.sigma0 = s0;
            law.sigma1 = 0.1 * sqrt(s0 / 1e4);
            law.sigma3 = 0.05;
            friction_set_law(&fr, law);
            friction_set_normal_force(&fr, forces[a]);
            friction_set_motion(&fr, speeds[b], speeds[b] * forces[a]);
            run(0.5);
            for (int i = 0; i <= NEWTON_CAP; ++i)
              hist[i] += fr.stats.histogram[i];
            solves += fr.stats.solves;
            caps += fr.stats.cap_hits;
          }
  int median = -1, max = 0;
  uint64_t below = 0;
  printf("Newton on z': %llu solves\n", (unsigned long long)solves);
  for (int i = 0; i <= NEWTON_CAP; ++i) {
    if (hist[i])
      printf("  %2d iterations: %llu\n", i, (unsigned long long)hist[i]);
    below += hist[i];
    if (median < 0 && 2 * below >= solves)
      median = i;
    if (hist[i])
      max = i;
  }
  printf("median %d, maximum %d, cap hits %llu\n", median, max,
         (unsigned long long)caps);
  CHECK(caps == 0, "Newton hit its cap %llu times", (unsigned long long)caps);
  CHECK(median <= 3, "median %d", median);
  CHECK(max <= 8, "maximum %d", max);

  second_partials();
  solver_accuracy();
  corners();
  return check_done("test_friction");
}
