/* SPDX-License-Identifier: ISC */
/*
 * The rolling ball on a felt (dsp/rolling.c with IMPACT_FELT, [borin]):
 * a felt-covered ball on a table (3 modes, 48 kHz).
 *   1. rest: a 5 g ball put down under a quarter of its weight, then its
 *      weight W, the ball sinks and settles (speed 0) at the felt's static
 *      compression, f(x) = W elastic, (1 - epsilon) f(x) = W hysteretic
 *      ([borin] eq 1, 5), worked out here from the quadratic in (x/y0)^2,
 *      within static_tolerance; eta 0 and eta 1 are the 2nd- and
 *      4th-order laws: doubling the weight deepens the rest by 2^(1/2)
 *      and 2^(1/4) (within order_tolerance);
 *   2. passivity: a 1 kg ball in a hard hysteretic felt rolling over a
 *      rough surface, skipping, on undamped modes, some of its steps
 *      passive (felt.h): the energy of ball (less the weight's
 *      work), modes and felt (felt_energy()) never rises from one step to
 *      the next by more than the work of the drive, the contact force
 *      times the surface's rise under the ball, beyond rounding
 *      (energy_tolerance); Newton never reaches its cap and takes at most
 *      most_iterations a solve on average;
 *   3. a change of law under the resting ball, felt to a stiff
 *      Hunt-Crossley contact and back, gives no blow: the ball rides to
 *      where the new law bears its weight (rolling_set_law()), its force
 *      a sample later within blow_max of the weight, where at the felt's
 *      depth Hunt-Crossley's would bear thousands of times it.
 */
#include "check.h"
#include "felt.h"
#include "rolling.h"

#include <math.h>
#include <stdio.h>

static const double rate = 48000.0, g = 9.81;
static const double ball = 0.005, radius = 8e-3;

/* the settled compression against the law's (rounding, and what is left
 * of the sinking after 5 s: the contact rings at ~100 Hz, damped by its
 * mu and the table's modes) */
static const double static_tolerance = 1e-9;
/* the rest's growth with the weight against the law's order */
static const double order_tolerance = 1e-9;
/* a step's energy rise beyond the drive's work, of the energy's terms */
static const double energy_tolerance = 1e-12;
/* Newton's iterations a solve, on average (issue 24, bar 6) */
static const double most_iterations = 2.0;
/* the force a sample after a change of law, of the weight */
static const double blow_max = 1.01;

static modal_object o;
static rolling r;

/* a table of 3 modes of quality q (0: undamped), the ball on the felt */
static void
setup(const felt_law* felt, double q, double mu)
{
  static const double freq[3] = {110.0, 440.0, 1870.0};
  modal_init(&o, rate);
  modal_set_count(&o, 3);
  modal_set_mass(&o, 0.5);
  for (int i = 0; i < 3; ++i)
    modal_set_mode(&o, i, freq[i],
                   q > 0.0 ? q / (3.14159265358979 * freq[i]) : 1e9, 1.0);
  modal_update(&o);
  rolling_init(&r, rate, 3);
  impact_law law = {.kind = IMPACT_FELT, .mu = mu};
  law.felt = *felt;
  rolling_set_law(&r, law);
}

/* the static compression the law gives under `load`, from eta w^2 + (1 -
 * eta) w = load / ((1 - epsilon) K), w = (x / y0)^2, by the textbook root */
static double
law_rest(const felt_law* felt, double load)
{
  const double l = load / ((1.0 - felt->epsilon) * felt->k);
  const double e = felt->eta, b = 1.0 - e;
  const double w = e > 0.0 ? (sqrt(b * b + 4.0 * e * l) - b) / (2.0 * e) : l;
  return felt->y0 * sqrt(w);
}

/* the ball's compression after `seconds` at rest under `weight` */
static double
settle_under(double weight, double seconds)
{
  rolling_set_ball(&r, ball, radius, weight);
  static float l[256], rr[256];
  for (long n = 0; n < (long)(seconds * rate / 256); ++n)
    rolling_process(&r, &o, 256, l, rr, 1.0);
  return r.x0;
}

static void
test_rest(void)
{
  const double etas[3] = {0.0, 0.5, 1.0}, epsilons[2] = {0.0, 0.9};
  const double w = ball * g;
  for (int e = 0; e < 3; ++e)
    for (int h = 0; h < 2; ++h) {
      const felt_law felt = {40.0, 1e-3, etas[e], epsilons[h], 20e-6};
      setup(&felt, 60.0, 10.0);
      rolling_set_surface(&r, 1.5, 1e-12); /* flat */
      rolling_set_ball(&r, ball, radius, 0.25 * w);
      rolling_place(&r, &o);
      const double x1 = settle_under(w, 5.0), want1 = law_rest(&felt, w);
      const double x2 = settle_under(2.0 * w, 5.0),
                   want2 = law_rest(&felt, 2.0 * w);
      const double err = fmax(fabs(x1 / want1 - 1.0), fabs(x2 / want2 - 1.0));
      printf("felt ball at rest, eta %.1f, epsilon %.1f: %.6f mm under W "
             "(law %.6f), %.6f mm under 2 W; off the law by %.1e\n",
             etas[e], epsilons[h], 1e3 * x1, 1e3 * want1, 1e3 * x2, err);
      CHECK(err <= static_tolerance,
            "eta %g, epsilon %g: the rest off the law's by %.2e", etas[e],
            epsilons[h], err);
      if (etas[e] != 0.5) {
        const double order = etas[e] == 0.0 ? 2.0 : 4.0;
        char what[64];
        snprintf(what, sizeof what, "eta %.0f, eps %.1f: rest(2W)/rest(W)",
                 etas[e], epsilons[h]);
        check_rel(what, x2 / x1, pow(2.0, 1.0 / order), order_tolerance);
      }
    }
}

/* the energy of ball (less the weight's work), modes and felt */
static double
energy(double* terms)
{
  double e = 0.5 * r.ball_mass * r.ball_v * r.ball_v;
  const double weight = -r.weight * r.ball_x;
  double modes = 0.0;
  for (int i = 0; i < o.count; ++i) {
    const double m = o.mass / o.gain[i];
    modes += 0.5 * m * (o.v[i] * o.v[i] + o.w0[i] * o.w0[i] * o.x[i] * o.x[i]);
  }
  const double felt = felt_energy(&r.law.felt, r.felt.y, r.felt.q);
  *terms = e + fabs(weight) + modes + felt;
  return e + weight + modes + felt;
}

static void
test_passive(void)
{
  /* a 1 kg ball in a hard, lossy felt (K 1 kN at 0.1 mm, epsilon 0.95,
   * no damping but the felt's) skipping at 5 m/s over a surface rough to
   * 0.1 mm, hard enough for the felt's accurate step to overstate its
   * force now and then (felt.h): the passive step's */
  const felt_law felt = {1e3, 0.1e-3, 0.5, 0.95, 5e-6};
  const double mass = 1.0, speed = 5.0;
  setup(&felt, 0.0, 0.0);
  rolling_set_ball(&r, mass, radius, mass * g);
  rolling_set_surface(&r, 1.0, 100e-6);
  rolling_set_asymmetry(&r, 0.0);
  rolling_place(&r, &o);
  rolling_set_speed(&r, speed, 0.05);
  float l, rr;
  rolling_process(&r, &o, 1, &l, &rr, 1.0);
  CHECK(r.substeps == 1,
        "%d sub-steps: the drive's work is counted a step "
        "a sample",
        r.substeps);
  double terms, last = energy(&terms), rise = 0.0, fraction = 0.0;
  long steps = 0;
  for (long n = 0; n < (long)(2.0 * rate); ++n) {
    const double offset = r.offset;
    rolling_process(&r, &o, 1, &l, &rr, 1.0);
    const double e = energy(&terms);
    const double drive = r.force * (r.offset - offset);
    rise = fmax(rise, (e - last - drive) / terms);
    last = e;
    fraction += r.contact_fraction;
    steps++;
  }
  const double iterations = (double)r.stats.iterations / (double)r.stats.solves;
  printf("hysteretic felt ball skipping over a rough surface at %g m/s (in "
         "contact %.0f %% of the time): the energy's largest rise beyond the "
         "drive's work %.1e of its terms; %llu of %llu steps passive; %.3f "
         "Newton iterations a solve, %llu cap hits\n",
         speed, 100.0 * fraction / steps, rise,
         (unsigned long long)r.felt.passive_steps,
         (unsigned long long)r.contact_steps, iterations,
         (unsigned long long)r.stats.cap_hits);
  CHECK(fraction / steps < 0.9, "the ball hardly skipped: nothing tested");
  CHECK(r.felt.passive_steps > 0, "no passive step: nothing tested");
  CHECK(rise <= energy_tolerance, "the felt gave %.2e of the energy in a step",
        rise);
  CHECK(r.stats.cap_hits == 0, "%llu Newton cap hits",
        (unsigned long long)r.stats.cap_hits);
  CHECK(iterations <= most_iterations, "%.2f Newton iterations a solve",
        iterations);
}

static void
test_law_change(void)
{
  const felt_law felt = {40.0, 1e-3, 0.5, 0.9, 20e-6};
  setup(&felt, 60.0, 10.0);
  rolling_set_surface(&r, 1.5, 1e-12);
  rolling_set_ball(&r, ball, radius, ball * g);
  rolling_place(&r, &o);
  const impact_law felt_law = r.law;
  const impact_law hc = {.stiffness = 1e9, .alpha = 1.5, .mu = 10.0};
  const double w = ball * g;
  const double depth = r.x0;
  float l, rr;
  rolling_set_law(&r, hc);
  rolling_process(&r, &o, 1, &l, &rr, 1.0);
  const double to_hc = r.force / w;
  rolling_set_law(&r, felt_law);
  rolling_process(&r, &o, 1, &l, &rr, 1.0);
  const double back = r.force / w;
  printf("law changed under the resting ball: felt to Hunt-Crossley, force "
         "%.4f W (at the felt's depth it would bear %.0f W); back, %.4f W\n",
         to_hc, impact_law_force(&hc, depth, 0.0) / w, back);
  CHECK(to_hc <= blow_max && back <= blow_max,
        "a blow: %.3g W to Hunt-Crossley, %.3g W back", to_hc, back);
}

int
main(void)
{
  test_rest();
  test_passive();
  test_law_change();
  return check_done("test_rolling_felt");
}
