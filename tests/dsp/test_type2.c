/* SPDX-License-Identifier: ISC */
/*
 * Bar 2, Type II ([ch5] 5.2.2, fig 5.5): the hammer strikes a free modal
 * object of 3 modes.  The contact lasts longer than on a rigid wall (Type
 * I), and shortens monotonically toward the Type I value as the object's
 * mass grows over 5 decades.
 *
 * And the rebound velocity the interactor reports (the compression
 * velocity at the release, which it follows step by step from the force's
 * response K, eq 8.32) is the hammer's velocity less the point's read from
 * the state after the contact: on a free object (one mode at 1 mHz, whose
 * spring does nothing in a contact of 0.1 ms) of the hammer's mass, the
 * relative velocity stays as the release left it.
 */
#include "check.h"
#include "closed_form.h"
#include "strike.h"

#include <math.h>
#include <stdio.h>

/* The rebound velocity against the state: contacts short enough to be
 * split into 64..512 sub-steps (the force's response kv = -(h / m_h +
 * sum b_v) carries the compression velocity from one to the next), the
 * object's point mass equal to the hammer's, so that sum b_v is as large
 * as h / m_h. */
static void
rebound_against_state(void)
{
  static const double freq[1] = {1e-3}, decay[1] = {1e9};
  static const impact_law laws[3] = {
      {.stiffness = 1e9, .alpha = 1.5, .mu = 0.6},
      {.stiffness = 1e12, .alpha = 1.5, .mu = 0.0},
      {.stiffness = 1e14, .alpha = 2.0, .mu = 0.5}};
  static const double rates[2] = {44100.0, 96000.0};
  double worst = 0.0;
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 3; ++k) {
      const strike_setup s = {rates[r], laws[k], 0.01, 0.0,  1.0,
                              0.01,     1,       freq, decay};
      modal_object* o;
      const impact* im = strike(&s, 0.05, true, &o);
      double px, pv;
      modal_point(o, &px, &pv);
      const double state = im->hammer_v - pv;
      const double err = fabs(im->last.rebound_velocity / state - 1.0);
      printf("  k %g alpha %g mu %g at %g Hz, %d sub-steps: rebound %.15f "
             "m/s, hammer - point after it %.15f m/s (off by %.1e)\n",
             laws[k].stiffness, laws[k].alpha, laws[k].mu, rates[r],
             im->substeps, im->last.rebound_velocity, state, err);
      CHECK(im->last.serial == 1, "%u contacts", (unsigned)im->last.serial);
      worst = fmax(worst, err);
    }
  /* achieved 4.1e-12: the 1 mHz mode's spring pulls the point (3e-4 m
   * out) back by ~1e-12 m/s over the block of 16 samples that ends after
   * the release, and rounding; 5x.  A compression velocity whose response
   * to the force had the point's part reversed is off by 2.5e-6 to
   * 4.6e-5. */
  const double rebound_bar = 2e-11;
  printf("rebound velocity against the state after the release: off by "
         "%.1e at worst (bar %.0e)\n",
         worst, rebound_bar);
  CHECK(worst <= rebound_bar, "rebound velocity off the state by %g", worst);
}

int
main(void)
{
  static const double freq[3] = {420.0, 1130.0, 2250.0};
  static const double decay[3] = {0.8, 0.4, 0.2};
  /* [ch5] fig 5.1's hammer: m = 10 g, k = 1.5e11, mu = 0.6, alpha = 2.8 */
  const impact_law law = {.stiffness = 1.5e11, .alpha = 2.8, .mu = 0.6};
  const double m = 0.01, v_in = 1.0;
  const double rates[2] = {44100.0, 96000.0};
  for (int r = 0; r < 2; ++r) {
    const double type1 =
        hc_contact_time(m, law.stiffness, law.alpha, law.mu, v_in);
    printf("%g Hz: Type I contact time %.6f ms\n", rates[r], 1e3 * type1);
    double previous = INFINITY;
    for (double mass = 0.01; mass <= 1000.0 * 1.0001; mass *= sqrt(10.0)) {
      const strike_setup s = {rates[r], law, m,    0.0,  v_in,
                              mass,     3,   freq, decay};
      modal_object* o;
      const impact* im = strike(&s, 0.05, true, &o);
      (void)o;
      /* the first contact is over when the first one is reported */
      const double t = im->last.contact_time;
      printf("  object %9.4f kg: contact time %.6f ms (%+.3f %% of Type I), "
             "%u contact(s)\n",
             mass, 1e3 * t, 100 * (t / type1 - 1), (unsigned)im->last.serial);
      CHECK(im->last.serial >= 1, "no contact");
      CHECK(t > type1, "object %g kg: %g s not longer than Type I %g s", mass,
            t, type1);
      CHECK(t < previous, "object %g kg: %g s not shorter than %g s", mass, t,
            previous);
      previous = t;
    }
    /* 1000 kg: the object's compliance adds ~ +0.67 % x (1 kg / 1000 kg)
     * = 7e-6 (the excess falls 10x a decade of mass, as printed) and the
     * DSP's Type I error for this hammer is +1.9e-5 (test_type1): achieved
     * +2.7e-5, the bar 3x */
    check_rel("heaviest object tends to Type I", previous, type1, 8e-5);
  }
  rebound_against_state();
  return check_done("test_type2");
}
