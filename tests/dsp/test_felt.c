/* SPDX-License-Identifier: ISC */
/*
 * The felt (dsp/felt.h, [borin]) at DSP level:
 *   - eta = 0 and eta = 1 are exactly the 2nd- and 4th-order laws, K at y0;
 *   - the discrete gradient's work over a step is exactly the change of the
 *     potential (to rounding), and it is f where the ends meet;
 *   - the step force grows with the end compression (the contact solve's
 *     bracket) whatever the memory;
 *   - a felt compressed sinusoidally traces a loop whose area (the energy it
 *     takes per cycle) matches an independent reference within
 *     loop_tolerance: Stulov's law of [borin] 5 (tau q' = f - q,
 *     F = max(f - epsilon q, 0)) integrated by an adaptive Runge-Kutta
 *     written here, the work summed with it; without hysteresis the loop
 *     closes to rounding;
 *   - a felt hammer (impact.h with IMPACT_FELT) striking an undamped modal
 *     object: without hysteresis hammer and object leave with the energy
 *     the hammer came with (within energy_tolerance), with it they leave
 *     with less; Newton never reaches its cap and takes at most
 *     most_iterations a solve on average; a felt changed mid-blow takes
 *     the blow on from the force it had;
 *   - off the object the felt bears nothing, f(y) = epsilon q, so its
 *     memory relaxes at (1 - epsilon) / tau and its dent with it, in the
 *     air and out of play alike, the same however the samples are split;
 *   - a hysteretic blow's sub-steps follow its storage stiffness: a felt
 *     relaxing within the blow takes about the steps of its relaxed law
 *     (not of its far stiffer instant one), and its blows at 48 kHz match
 *     the same blows at substep_reference_rate within substep_tolerance.
 */
#include "check.h"
#include "felt.h"
#include "impact.h"
#include "modal.h"

#include <math.h>
#include <stdio.h>

static const double pi = 3.14159265358979323846;

/* the loop's area against the reference: the scheme's steps, 256 a cycle,
 * are those of a contact split in IMPACT_STEPS_PER_CONTACT (impact.h) */
static const double loop_tolerance = 0.02;
enum { STEPS_PER_CYCLE = 256, CYCLES = 3 };

static void
test_orders(void)
{
  const felt_law second = {40.0, 1e-3, 0.0, 0.0, 0.0};
  const felt_law fourth = {40.0, 1e-3, 1.0, 0.0, 0.0};
  for (int i = 1; i <= 40; ++i) {
    const double x = 0.1e-3 * i, u = x / 1e-3;
    CHECK(felt_force(&second, x) == 40.0 * (u * u),
          "eta 0 at %g m: %.17g, not K (x/y0)^2 %.17g", x,
          felt_force(&second, x), 40.0 * u * u);
    CHECK(felt_force(&fourth, x) == 40.0 * ((u * u) * (u * u)),
          "eta 1 at %g m: %.17g, not K (x/y0)^4 %.17g", x,
          felt_force(&fourth, x), 40.0 * u * u * u * u);
  }
  const felt_law half = {40.0, 1e-3, 0.5, 0.0, 0.0};
  CHECK(felt_force(&half, 1e-3) == 40.0, "K at y0: %.17g",
        felt_force(&half, 1e-3));
  CHECK(felt_force(&half, 0.0) == 0.0 && felt_force(&half, -1e-3) == 0.0,
        "no force out of contact");
}

static void
test_gradient(void)
{
  const double etas[3] = {0.0, 0.3, 1.0};
  double worst = 0.0;
  for (int e = 0; e < 3; ++e) {
    const felt_law law = {1197.0, 1e-3, etas[e], 0.0, 0.0};
    for (int i = 0; i < 30; ++i)
      for (int j = 0; j < 30; ++j) {
        const double x0 = 0.07e-3 * (i - 5), x1 = 0.07e-3 * (j - 5);
        const double work = felt_gradient(&law, x0, x1) * (x1 - x0);
        const double change =
            felt_potential(&law, x1) - felt_potential(&law, x0);
        const double scale =
            felt_potential(&law, x1) + felt_potential(&law, x0) + 1e-300;
        worst = fmax(worst, fabs(work - change) / scale);
      }
    for (int i = 0; i < 30; ++i) {
      const double x = 0.05e-3 * i;
      const double g = felt_gradient(&law, x, x), f = felt_force(&law, x);
      CHECK(fabs(g - f) <= 4e-16 * f, "eta %g: G(x, x) %.17g, f %.17g", etas[e],
            g, f);
    }
  }
  CHECK(worst < 1e-14, "work over a step off the potential's change by %.2e",
        worst);
  printf("discrete gradient: work = change of potential within %.1e\n", worst);
}

static void
test_bracket(void)
{
  const felt_law law = {1197.0, 1e-3, 0.5, 0.936, 20e-6};
  const felt_step step = felt_step_of(&law, 1e-6);
  const double memories[3] = {0.0, 50.0, 500.0};
  for (int m = 0; m < 3; ++m) {
    double last = -1.0;
    for (int i = 0; i <= 200; ++i) {
      const double f =
          felt_step_force(&law, &step, memories[m], 0.2e-3, 0.004e-3 * i);
      CHECK(f >= last && f >= 0.0, "memory %g: F falls at x1 = %g mm",
            memories[m], 0.004 * i);
      last = f;
    }
  }
}

/* ---- the reference: Stulov's law on x(t) = A (1 - cos w t) / 2 -------- */

typedef struct cycle {
  felt_law law;
  double amplitude; /* m */
  double period;    /* s */
} cycle;

static double
compression(const cycle* c, double t)
{
  return 0.5 * c->amplitude * (1.0 - cos(2.0 * pi * t / c->period));
}

static double
compression_rate(const cycle* c, double t)
{
  const double w = 2.0 * pi / c->period;
  return 0.5 * c->amplitude * w * sin(w * t);
}

/* d/dt of (q, W) */
static void
derivatives(const cycle* c, double t, const double y[2], double dy[2])
{
  const double f = felt_force(&c->law, compression(c, t));
  const double force = fmax(f - c->law.epsilon * y[0], 0.0);
  dy[0] = (f - y[0]) / c->law.tau;
  dy[1] = force * compression_rate(c, t);
}

static void
rk4(const cycle* c, double t, double h, const double y[2], double out[2])
{
  double k1[2], k2[2], k3[2], k4[2], z[2];
  derivatives(c, t, y, k1);
  for (int i = 0; i < 2; ++i)
    z[i] = y[i] + 0.5 * h * k1[i];
  derivatives(c, t + 0.5 * h, z, k2);
  for (int i = 0; i < 2; ++i)
    z[i] = y[i] + 0.5 * h * k2[i];
  derivatives(c, t + 0.5 * h, z, k3);
  for (int i = 0; i < 2; ++i)
    z[i] = y[i] + h * k3[i];
  derivatives(c, t + h, z, k4);
  for (int i = 0; i < 2; ++i)
    out[i] = y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

/* The work over the last of CYCLES cycles, by RK4 with step doubling: a
 * step is kept when its two halves agree with it within 1e-10 of the
 * force and work scales. */
static double
reference_area(const cycle* c)
{
  double y[2] = {0.0, 0.0}, t = 0.0, h = c->period * 1e-4, start_work = 0.0;
  const double f_scale = felt_force(&c->law, c->amplitude);
  const double w_scale = f_scale * c->amplitude;
  for (int k = 0; k < CYCLES; ++k) {
    const double end = (k + 1) * c->period;
    if (k == CYCLES - 1)
      start_work = y[1];
    while (t < end) {
      const double step = fmin(h, end - t);
      double whole[2], half[2], halves[2];
      rk4(c, t, step, y, whole);
      rk4(c, t, 0.5 * step, y, half);
      rk4(c, t + 0.5 * step, 0.5 * step, half, halves);
      const double err = fmax(fabs(whole[0] - halves[0]) / f_scale,
                              fabs(whole[1] - halves[1]) / w_scale);
      if (err > 1e-10 && step > c->period * 1e-9) {
        h = 0.5 * step;
        continue;
      }
      y[0] = halves[0];
      y[1] = halves[1];
      t += step;
      if (err < 1e-12)
        h = 2.0 * step;
    }
  }
  return y[1] - start_work;
}

/* the same through the scheme's steps */
static double
scheme_area(const cycle* c, int steps_per_cycle)
{
  const double h = c->period / steps_per_cycle;
  const felt_step step = felt_step_of(&c->law, h);
  double q = 0.0, work = 0.0, start_work = 0.0;
  for (int n = 0; n < CYCLES * steps_per_cycle; ++n) {
    if (n == (CYCLES - 1) * steps_per_cycle)
      start_work = work;
    const double x0 = compression(c, n * h), x1 = compression(c, (n + 1) * h);
    work += felt_step_force(&c->law, &step, q, x0, x1) * (x1 - x0);
    q = felt_step_memory(&c->law, &step, q, x0, x1);
  }
  return work - start_work;
}

static void
test_loops(void)
{
  /* [borin] fig. 4 (Stulov's felt: 2nd order, k = 1197 N/mm^2, tau 20 us,
   * epsilon 0.936) over the 0.3 mm and 1 ms of its strike; a softer
   * blend; a 4th-order felt relaxing within a step */
  const cycle cycles[] = {
      {{1197.0, 1e-3, 0.0, 0.936, 20e-6}, 0.3e-3, 1e-3},
      {{1197.0, 1e-3, 0.0, 0.4, 80e-6}, 0.3e-3, 1e-3},
      {{40.0, 1e-3, 0.5, 0.8, 200e-6}, 1e-3, 2e-3},
      {{200.0, 1e-3, 1.0, 0.99, 1e-6}, 0.5e-3, 0.5e-3},
  };
  for (size_t i = 0; i < sizeof(cycles) / sizeof(cycles[0]); ++i) {
    const cycle* c = &cycles[i];
    const double want = reference_area(c);
    const double got = scheme_area(c, STEPS_PER_CYCLE);
    const double finer = scheme_area(c, 4 * STEPS_PER_CYCLE);
    const double err = fabs(got - want) / want;
    printf("%s eta %.1f, epsilon %.3f, tau %3.0f us: loop %.4e J, reference "
           "%.4e J (%+.2f %%; %+.3f %% at 4x the steps)\n",
           err <= loop_tolerance ? "  ok " : "FAIL ", c->law.eta,
           c->law.epsilon, c->law.tau * 1e6, got, want,
           100.0 * (got / want - 1), 100.0 * (finer / want - 1));
    CHECK(want > 0.0, "the reference loop takes no energy");
    CHECK(err <= loop_tolerance, "loop %d off the reference by %.2f %%", (int)i,
          100.0 * err);
    CHECK(fabs(finer - want) <= fabs(got - want) + 1e-9 * want,
          "loop %d: 4x the steps no closer (%.3e against %.3e)", (int)i, finer,
          got);
  }
  /* no hysteresis: the static law's loop closes */
  cycle elastic = cycles[2];
  elastic.law.epsilon = 0.0;
  const double closed = scheme_area(&elastic, STEPS_PER_CYCLE);
  const double scale = felt_potential(&elastic.law, elastic.amplitude);
  CHECK(fabs(closed) < 1e-13 * scale, "no hysteresis, loop %.3e J of %.3e",
        closed, scale);
}

/* ---- a felt hammer on a modal object --------------------------------- */

/* relative energy error over a strike without losses: the discrete
 * gradient's work is exact, so rounding over some thousand steps */
static const double energy_tolerance = 1e-9;
/* Newton's iterations a solve, on average (issue 24, bar 6) */
static const double most_iterations = 2.0;

static double
strike_energy(const impact* im, const modal_object* o)
{
  double e = 0.5 * im->hammer_mass * im->hammer_v * im->hammer_v, point = 0.0;
  for (int l = 0; l < o->count; ++l) {
    const double wd = 2.0 * pi * o->freq[l], sigma = 1.0 / o->decay[l];
    const double modal_mass = o->mass / o->gain[l];
    e += 0.5 * modal_mass *
         (o->v[l] * o->v[l] + (wd * wd + sigma * sigma) * o->x[l] * o->x[l]);
    point += o->x[l];
  }
  return e + felt_potential(&im->law.felt, im->hammer_x - point);
}

static void
test_strikes(void)
{
  static const double freq[3] = {440.0, 1210.0, 3300.0};
  static modal_object o;
  static impact im;
  const double etas[3] = {0.0, 0.5, 1.0}, epsilons[2] = {0.0, 0.9};
  const double speeds[3] = {0.2, 1.0, 5.0};
  newton_stats all = {0};
  for (int e = 0; e < 3; ++e)
    for (int h = 0; h < 2; ++h)
      for (int s = 0; s < 3; ++s) {
        modal_init(&o, 48000.0);
        modal_set_count(&o, 3);
        modal_set_mass(&o, 0.2);
        for (int i = 0; i < 3; ++i)
          modal_set_mode(&o, i, freq[i], 1e9, 1.0);
        modal_update(&o);
        impact_init(&im, 48000.0);
        impact_law law = {.kind = IMPACT_FELT};
        law.felt = (felt_law){40.0, 1e-3, etas[e], epsilons[h], 50e-6};
        impact_set_law(&im, law);
        impact_set_hammer(&im, 0.01, 0.0);
        impact_strike(&im, &o, speeds[s]);
        const double before = strike_energy(&im, &o);
        float l[64], r[64];
        uint32_t serial = im.last.serial;
        for (int b = 0; b < 200 && im.last.serial == serial; ++b)
          impact_process(&im, &o, 64, l, r, 1.0);
        const double after = strike_energy(&im, &o);
        const double change = (after - before) / before;
        CHECK(im.last.serial == serial + 1,
              "eta %g, epsilon %g, %g m/s: no "
              "contact ended",
              etas[e], epsilons[h], speeds[s]);
        if (epsilons[h] == 0.0)
          CHECK(fabs(change) < energy_tolerance,
                "eta %g, %g m/s, elastic felt: energy changed by %.2e", etas[e],
                speeds[s], change);
        else
          CHECK(change < -0.01,
                "eta %g, %g m/s, hysteresis: energy changed "
                "by %.2e",
                etas[e], speeds[s], change);
        printf("  eta %.1f, epsilon %.1f, %3.1f m/s: contact %.3f ms, peak "
               "%7.2f N, energy %+.2e, %.2f iterations a solve\n",
               etas[e], epsilons[h], speeds[s], 1e3 * im.last.contact_time,
               im.last.peak_force, change,
               (double)im.stats.iterations / (double)im.stats.solves);
        all.solves += im.stats.solves;
        all.iterations += im.stats.iterations;
        all.cap_hits += im.stats.cap_hits;
      }
  const double mean = (double)all.iterations / (double)all.solves;
  CHECK(all.cap_hits == 0, "%llu cap hits", (unsigned long long)all.cap_hits);
  CHECK(mean <= most_iterations, "%.2f Newton iterations a solve", mean);
  printf("felt strikes: %.3f Newton iterations a solve, %llu cap hits\n", mean,
         (unsigned long long)all.cap_hits);
}

/* a law changed under a resting hammer: the force a sample later within
 * this of what it was (the settled rest moves by rounding, and a sample of
 * the new law's own settling) */
static const double law_change_tolerance = 0.01;

/* A felt made ten times harder in the middle of a blow: the hammer rides
 * to where the new felt bears the same force (impact_set_law()), so the
 * force goes on from where it was rather than jumping tenfold. */
static void
test_law_change(void)
{
  static modal_object o;
  static impact im;
  modal_init(&o, 48000.0);
  modal_set_count(&o, 1);
  modal_set_mass(&o, 0.2);
  modal_set_mode(&o, 0, 440.0, 1e9, 1.0);
  modal_update(&o);
  impact_init(&im, 48000.0);
  impact_law law = {.kind = IMPACT_FELT};
  law.felt = (felt_law){40.0, 1e-3, 0.5, 0.0, 0.0};
  impact_set_law(&im, law);
  impact_set_hammer(&im, 0.01, 0.0);
  impact_strike(&im, &o, 1.0);
  float l[1], r[1];
  for (int t = 0; t < 4800 && im.force < 5.0; ++t)
    impact_process(&im, &o, 1, l, r, 1.0);
  const double before = im.force;
  law.felt.k *= 10.0;
  impact_set_law(&im, law);
  impact_process(&im, &o, 1, l, r, 1.0);
  printf("felt made 10x harder mid-blow: force %.3f N, then %.3f N\n", before,
         im.force);
  /* the blow goes on compressing over the sample: a quarter more, where
   * the felt's change alone would make it ten times */
  CHECK(before >= 5.0 && im.force > before && im.force < 2.0 * before,
        "force %.3f N before the change, %.3f N after", before, im.force);

  /* A hammer pressed by 2 N into a hysteretic felt, settled (the felt
   * relaxed: it bears (1 - epsilon) of its static force), then the law
   * made Hunt-Crossley, and back: the force a sample later stays the
   * press's (the static law at the depth would be 1 / (1 - epsilon) of
   * it) */
  law.felt = (felt_law){40.0, 1e-3, 0.5, 0.9, 50e-6};
  impact_init(&im, 48000.0);
  impact_set_law(&im, law);
  impact_set_hammer(&im, 0.01, 2.0);
  impact_strike(&im, &o, 0.1);
  for (int t = 0; t < 48000; ++t)
    impact_process(&im, &o, 1, l, r, 1.0);
  const double pressed = im.force;
  const impact_law hunt_crossley = {.stiffness = 1e8, .alpha = 1.5};
  impact_set_law(&im, hunt_crossley);
  impact_process(&im, &o, 1, l, r, 1.0);
  const double as_hc = im.force;
  impact_set_law(&im, law);
  impact_process(&im, &o, 1, l, r, 1.0);
  printf("pressed by 2 N on a relaxed hysteretic felt: %.4f N; made "
         "Hunt-Crossley %.4f N, felt again %.4f N\n",
         pressed, as_hc, im.force);
  CHECK(fabs(pressed / 2.0 - 1.0) < law_change_tolerance &&
            fabs(as_hc / pressed - 1.0) < law_change_tolerance &&
            fabs(im.force / pressed - 1.0) < law_change_tolerance,
        "the press %.4f N became %.4f N and %.4f N", pressed, as_hc, im.force);
}

/* The hysteretic felt never gives energy (felt.h): a 100 g hammer pressed
 * by 10 N, struck at 5 m/s, rattling with a hard felt (K 1e5 N at 0.05 mm,
 * epsilon 0.99, relaxed within a step) on a 1 g object, its contacts
 * resolved by few sub-steps.  The energy of hammer (less the force's
 * work), object and felt (felt_energy()) never rises from one sample to
 * the next by more than rounding. */
static void
test_rattle(void)
{
  static const double freq[3] = {440.0, 1210.0, 3300.0};
  static modal_object o;
  static impact im;
  modal_init(&o, 48000.0);
  modal_set_count(&o, 3);
  modal_set_mass(&o, 1e-3);
  for (int i = 0; i < 3; ++i)
    modal_set_mode(&o, i, freq[i], 1e9, 1.0);
  modal_update(&o);
  impact_init(&im, 48000.0);
  impact_law law = {.kind = IMPACT_FELT};
  law.felt = (felt_law){1e5, 0.05e-3, 0.5, 0.99, 1e-6};
  impact_set_law(&im, law);
  impact_set_hammer(&im, 0.1, 10.0);
  impact_strike(&im, &o, 5.0);
  double last = 0.0, rise = 0.0, e0 = 0.0;
  float l[1], r[1];
  for (long n = 0; n < 48000; ++n) {
    impact_process(&im, &o, 1, l, r, 1.0);
    double point = 0.0, e = 0.5 * im.hammer_mass * im.hammer_v * im.hammer_v -
                            im.ext_force * im.hammer_x;
    for (int i = 0; i < 3; ++i) {
      const double m = o.mass / o.gain[i];
      e += 0.5 * m * (o.v[i] * o.v[i] + o.w0[i] * o.w0[i] * o.x[i] * o.x[i]);
      point += o.x[i];
    }
    const double x = im.hammer_x - point;
    e += felt_energy(&im.law.felt, im.felt.y > x ? im.felt.y : x, im.felt.q);
    if (n == 0)
      e0 = e;
    else
      rise = fmax(rise, (e - last) / e0);
    last = e;
  }
  printf("rattling felt (epsilon 0.99, 100 g on 1 g): %u contacts, energy "
         "%.3g of its start, the largest rise in a sample %.1e of it; %llu "
         "steps of %llu passive\n",
         im.last.serial, last / e0, rise,
         (unsigned long long)im.felt.passive_steps,
         (unsigned long long)im.contact_steps);
  CHECK(rise < 1e-12, "the felt gave %.2e of the energy in a sample", rise);
  CHECK(last < e0, "the energy grew to %g of its start", last / e0);
  CHECK(im.stats.cap_hits == 0, "%llu Newton cap hits",
        (unsigned long long)im.stats.cap_hits);
}

/* The passive step (felt.h) over random steps: compressions x0 <= y0 and
 * x1 between -y0 and 3 y0, memories up to twice the static force, steps
 * from a hundredth to a hundred relaxation times: the force G(y0, x1) -
 * epsilon q0 (clamped at 0; the felt at max(x1, z(epsilon q0)) when it
 * lets go), the memory moved towards f(y1): the felt's energy never grows
 * by more than the work done on it.  The accurate step, for comparison,
 * does in some of them (printed). */
static void
test_passive_step(void)
{
  const felt_law law = {1e3, 0.2e-3, 0.5, 0.95, 20e-6};
  uint64_t seed = 0x2545F4914F6CDD1Dull;
  int accurate_gains = 0, passive_gains = 0;
  double worst = 0.0;
  enum { TRIALS = 100000 };
  for (int n = 0; n < TRIALS; ++n) {
    double u[5];
    for (int k = 0; k < 5; ++k) {
      seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
      u[k] = (double)(seed >> 11) / 9007199254740992.0;
    }
    const double y0 = 1e-3 * u[0], x0 = y0 * u[1], x1 = y0 * (4.0 * u[2] - 1.0);
    const double q0 = 2.0 * felt_force(&law, y0) * u[3];
    const double h = law.tau * pow(10.0, 4.0 * u[4] - 2.0);
    const double decay = exp(-h / law.tau);
    const double e0 = felt_energy(&law, y0, q0);
    const double free_y = felt_compression(&law, law.epsilon * q0);
    /* passive */
    double f = felt_gradient(&law, y0, x1) - law.epsilon * q0;
    f = f > 0.0 ? f : 0.0;
    double y1 = f > 0.0 || x1 >= free_y ? x1 : free_y;
    double q1 = decay * q0 + (1.0 - decay) * felt_force(&law, y1);
    double excess = felt_energy(&law, y1, q1) - e0 - f * (x1 - x0);
    const double scale = e0 + felt_potential(&law, fabs(x1)) +
                         law.epsilon * q0 * (y0 + fabs(x1));
    worst = fmax(worst, excess / scale);
    passive_gains += excess > 1e-12 * scale;
    /* accurate */
    const felt_step st = felt_step_of(&law, h);
    f = felt_step_force(&law, &st, q0, y0, x1);
    y1 = f > 0.0 || x1 >= free_y ? x1 : free_y;
    q1 = felt_step_memory(&law, &st, q0, y0, y1);
    excess = felt_energy(&law, y1, q1) - e0 - f * (x1 - x0);
    accurate_gains += excess > 1e-12 * scale;
  }
  printf("felt steps, %d random: the passive step gave energy in %d (at "
         "most %.1e of it), the accurate one in %d\n",
         TRIALS, passive_gains, worst, accurate_gains);
  CHECK(passive_gains == 0, "the passive step gave energy %d times",
        passive_gains);
}

/* a 3-mode object of 0.2 kg (undamped), struck by a 10 g felt hammer */
static void
felt_strike(modal_object* o, impact* im, double rate, felt_law felt,
            double speed)
{
  static const double freq[3] = {440.0, 1210.0, 3300.0};
  modal_init(o, rate);
  modal_set_count(o, 3);
  modal_set_mass(o, 0.2);
  for (int i = 0; i < 3; ++i)
    modal_set_mode(o, i, freq[i], 1e9, 1.0);
  modal_update(o);
  impact_init(im, rate);
  impact_law law = {.kind = IMPACT_FELT, .mu = 0.0};
  law.felt = felt;
  impact_set_law(im, law);
  impact_set_hammer(im, 0.01, 0.0);
  impact_strike(im, o, speed);
}

/* Off the object.  The blow's felt, left dented, relaxes as F = 0 makes
 * it: q(t2) / q(t1) = exp(-(1 - epsilon) (t2 - t1) / tau), f(y) =
 * epsilon q; out of play (it stayed dented there, for the next strike) and
 * in the air, the hammer thrown back by an external force (it relaxed at
 * 1 / tau there), and before, while the hammer leaves the dent, sub-stepped
 * (it relaxed under the step's mean static force there); the felt after
 * `after` samples is the same, to the bit, whether they come as one block
 * or as blocks of 7. */
static void
test_relaxing_off(void)
{
  const felt_law felt = {40.0, 1e-3, 0.5, 0.6, 200e-6};
  const double rate = 48000.0, speed = 1.0;
  const int after = 100;
  static modal_object o;
  static impact im;
  for (int pushed = 0; pushed < 2; ++pushed) {
    felt_strike(&o, &im, rate, felt, speed);
    impact_set_hammer(&im, 0.01, pushed ? 0.05 : 0.0);
    float l[128], r[128];
    const uint32_t serial = im.last.serial;
    const double per_sample = exp(-(1.0 - felt.epsilon) / (rate * felt.tau));
    long n = 0, in_dent = 0;
    double worst = 0.0;
    for (; n < 4800 && (im.last.serial == serial || im.x > -1e-5); ++n) {
      const double q0 = im.felt.q, f0 = im.force;
      impact_process(&im, &o, 1, l, r, 1.0);
      /* the hammer let go, the bodies' compression behind the dent */
      if (f0 == 0.0 && im.force == 0.0 && q0 > 0.0 && im.x > 0.0 &&
          im.felt.y > im.x) {
        in_dent++;
        worst = fmax(worst, fabs(im.felt.q / q0 / per_sample - 1.0));
      }
    }
    CHECK(im.last.serial == serial + 1 && im.felt.q > 0.0,
          "the blow did not end, dented, within 0.1 s");
    CHECK(in_dent >= 10 && worst < 1e-12,
          "in its dent (%ld samples) the memory fell by up to %.3g off "
          "exp(-(1 - eps) t / tau)",
          in_dent, worst);
    const double q1 = im.felt.q;
    impact_process(&im, &o, after, l, r, 1.0);
    const double q2 = im.felt.q, y2 = im.felt.y;
    const double expected =
        exp(-(1.0 - felt.epsilon) * after / (rate * felt.tau));
    const char* where = pushed ? "in the air" : "out of play";
    CHECK(impact_is_active(&im) == (pushed == 1), "the hammer %s",
          pushed ? "out of play" : "still in play");
    CHECK(fabs(q2 / q1 / expected - 1.0) < 1e-12,
          "%s the memory fell by %.9g over %d samples, not %.9g", where,
          q2 / q1, after, expected);
    CHECK(fabs(felt_force(&felt, y2) / (felt.epsilon * q2) - 1.0) < 1e-12,
          "%s the dent bears %.9g of epsilon q", where,
          felt_force(&felt, y2) / (felt.epsilon * q2));

    felt_strike(&o, &im, rate, felt, speed);
    impact_set_hammer(&im, 0.01, pushed ? 0.05 : 0.0);
    for (long k = 0; k < n; ++k)
      impact_process(&im, &o, 1, l, r, 1.0);
    for (int done = 0; done < after; done += 7)
      impact_process(&im, &o, done + 7 <= after ? 7 : after - done, l, r, 1.0);
    CHECK(im.felt.q == q2 && im.felt.y == y2,
          "%s in blocks of 7 the felt is at q %.17g, y %.17g, not %.17g, "
          "%.17g",
          where, im.felt.q, im.felt.y, q2, y2);
    printf("felt off the object, %s: its memory fell by %.6f over %d "
           "samples (exp(-(1 - eps) t / tau) %.6f), its dent bearing "
           "epsilon q; in the dent, before: %ld samples within %.2g\n",
           where, q2 / q1, after, expected, in_dent, worst);
  }
}

/* The blows against the same blows at this rate (the sub-steps' own
 * error, second order, a small fraction of the reference's)... */
static const double substep_reference_rate = 48000.0 * 32;
/* ... the hammer's velocity after the blow within this share of the
 * strike's: the 128 steps a blow (impact.h) of the rigid hammer's
 * Hunt-Crossley blows give 1e-5; a felt's many small re-contacts as it
 * lets go, a few times that */
static const double substep_tolerance = 1e-3;
/* A felt that relaxes within the blow (tau a hundredth of it) takes at
 * most this many times the sub-steps of a felt with its relaxed law:
 * 2 for the steps' powers of two, the rest for the pow()-free bound on the
 * blow's length (impact.c, choose_substeps()). */
static const double relaxed_steps_ratio = 1.25;

/* the hammer's velocity after a blow, and the sub-steps it took */
static double
blow(double rate, felt_law felt, double speed, uint64_t* steps)
{
  static modal_object o;
  static impact im;
  felt_strike(&o, &im, rate, felt, speed);
  float l[1], r[1];
  const uint32_t serial = im.last.serial;
  const long most = (long)(0.1 * rate);
  for (long n = 0; n < most && im.last.serial == serial; ++n)
    impact_process(&im, &o, 1, l, r, 1.0);
  CHECK(im.last.serial == serial + 1, "no blow ended at %g Hz", rate);
  CHECK(im.stats.cap_hits == 0, "%llu Newton cap hits",
        (unsigned long long)im.stats.cap_hits);
  *steps = im.contact_steps;
  return im.hammer_v;
}

static void
test_substeps(void)
{
  const double speeds[3] = {0.2, 1.0, 5.0};
  /* {K, eps, tau}: a felt relaxing within its blow, one about as slow as
   * the blow, one slower, and a hard felt at its most hysteretic */
  const double felts[4][3] = {{100.0, 0.5, 20e-6},
                              {40.0, 0.9, 100e-6},
                              {40.0, 0.5, 1e-3},
                              {1e3, 0.9, 20e-6}};
  double worst = 0.0;
  for (int f = 0; f < 4; ++f)
    for (int s = 0; s < 3; ++s) {
      const felt_law felt = {felts[f][0], 1e-3, 0.5, felts[f][1], felts[f][2]};
      uint64_t steps, reference_steps;
      const double v = blow(48000.0, felt, speeds[s], &steps);
      const double v_ref =
          blow(substep_reference_rate, felt, speeds[s], &reference_steps);
      const double error = fabs(v - v_ref) / speeds[s];
      worst = fmax(worst, error);
      CHECK(error < substep_tolerance,
            "K %g, eps %g, tau %g s, %g m/s: the hammer left at %.9g m/s, "
            "at %g Hz %.9g",
            felt.k, felt.epsilon, felt.tau, speeds[s], v,
            substep_reference_rate, v_ref);
    }
  printf("hysteretic blows at 48 kHz against %g kHz: the hammer's velocity "
         "after within %.1e of the strike's\n",
         substep_reference_rate / 1e3, worst);

  /* relaxing within the blow: the relaxed law's steps, not the instant's */
  for (int s = 0; s < 3; ++s) {
    const felt_law relaxed = {10.0, 1e-3, 0.5, 0.0, 0.0};
    felt_law fast = relaxed;
    fast.epsilon = 0.9;
    fast.k = relaxed.k / (1.0 - fast.epsilon);
    fast.tau = 1e-6; /* a hundredth of the blows at least */
    uint64_t relaxed_steps, fast_steps;
    blow(48000.0, relaxed, speeds[s], &relaxed_steps);
    blow(48000.0, fast, speeds[s], &fast_steps);
    CHECK((double)fast_steps <= relaxed_steps_ratio * (double)relaxed_steps,
          "%g m/s: a felt relaxing within its blow took %llu sub-steps, its "
          "relaxed law %llu",
          speeds[s], (unsigned long long)fast_steps,
          (unsigned long long)relaxed_steps);
    printf("  %3.1f m/s: a felt relaxing within the blow %llu sub-steps, "
           "its relaxed law %llu\n",
           speeds[s], (unsigned long long)fast_steps,
           (unsigned long long)relaxed_steps);
  }
}

int
main(void)
{
  test_orders();
  test_gradient();
  test_bracket();
  test_loops();
  test_strikes();
  test_law_change();
  test_rattle();
  test_passive_step();
  test_relaxing_off();
  test_substeps();
  return check_done("test_felt");
}
