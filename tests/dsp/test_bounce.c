/* SPDX-License-Identifier: ISC */
/*
 * Repeated contacts under a constant external force ([papetti] II-B): a
 * 10 g hammer falls on a rigid wall under gravity.  Between bounces it
 * flies a parabola, so it meets the wall again at the speed it left; each
 * bounce loses energy, so each flight has less energy than the one before
 * (within a flight it is exactly conserved); and the hammer comes to rest
 * on its static compression (f_e / k)^(1/alpha) with the contact force
 * equal to its weight, and stays there.
 */
#include "check.h"
#include "impact.h"
#include "modal.h"

#include <math.h>
#include <stdio.h>

static double
energy(const impact* im)
{
  /* kinetic + gravity (potential -f_e x) + contact spring (eq 13) */
  const double x = im->x > 0.0 ? im->x : 0.0;
  return 0.5 * im->hammer_mass * im->hammer_v * im->hammer_v -
         im->ext_force * im->hammer_x +
         im->law.stiffness * pow(x, im->law.alpha + 1.0) /
             (im->law.alpha + 1.0);
}

int
main(void)
{
  static modal_object o;
  static impact im;
  const double rate = 48000.0, m = 0.01, g = 9.81;
  const impact_law law = {.stiffness = 1e9, .alpha = 1.5, .mu = 0.5};
  modal_init(&o, rate);
  modal_set_count(&o, 0);
  modal_update(&o);
  impact_init(&im, rate);
  impact_set_law(&im, law);
  impact_set_hammer(&im, m, m * g);
  impact_strike(&im, &o, 1.0);

  float l[1], r[1];
  uint32_t seen = 0;
  double last_rebound = 0.0, flight_energy = energy(&im), worst_gain = 0.0;
  double worst_mismatch = 0.0;
  int bounces = 0;
  const long settle = (long)(4.0 * rate), total = (long)(8.0 * rate);
  uint32_t contacts_at_settle = 0;
  for (long n = 0; n < total; ++n) {
    impact_process(&im, &o, 1, l, r, 1.0);
    if (!im.touching && im.force == 0.0) {
      const double e = energy(&im);
      worst_gain = fmax(worst_gain, (e - flight_energy) / (0.5 * m));
      flight_energy = e;
    }
    if (im.last.serial != seen) {
      seen = im.last.serial;
      if (bounces > 0 && last_rebound < -1e-3)
        worst_mismatch =
            fmax(worst_mismatch,
                 fabs(im.last.impact_velocity / -last_rebound - 1.0));
      CHECK(im.last.rebound_velocity < 0 &&
                -im.last.rebound_velocity < im.last.impact_velocity,
            "bounce %d gained speed: in %g out %g", bounces,
            im.last.impact_velocity, im.last.rebound_velocity);
      last_rebound = im.last.rebound_velocity;
      ++bounces;
    }
    if (n == settle)
      contacts_at_settle = im.last.serial;
  }
  printf("%d bounces; worst energy gain between flights %.3e of m v_in^2 / 2; "
         "return speed off the rebound speed by %.3e at worst\n",
         bounces, worst_gain, worst_mismatch);
  CHECK(bounces > 10, "only %d bounces", bounces);
  CHECK(worst_mismatch < 1e-4,
        "a bounce met the wall at %g off the speed it left it", worst_mismatch);
  CHECK(worst_gain <= 1e-12, "a flight had more energy than the last: %g",
        worst_gain);
  CHECK(im.last.serial == contacts_at_settle,
        "the resting hammer left the wall again (%u contacts after settling)",
        (unsigned)(im.last.serial - contacts_at_settle));
  check_rel("rest compression (f_e/k)^(1/alpha)", im.x,
            pow(m * g / law.stiffness, 1.0 / law.alpha), 1e-3);
  check_rel("rest force = weight", im.force, m * g, 1e-3);
  return check_done("test_bounce");
}
