/* SPDX-License-Identifier: ISC */
/*
 * Bar 1, Type I through the DSP API: a 10 g hammer on a rigid wall at
 * 44.1 kHz.  The simulated rebound velocity and contact time must match
 * the closed forms ([papetti] eq 6 and eq 9) within the bounds.
 */
#include "check.h"
#include "closed_form.h"
#include "strike.h"
#include "type1_cases.h"

#include <stdio.h>

int
main(void)
{
  const double m = 0.01, rate = 44100.0;
  for (int i = 0; i < N_TYPE1_CASES; ++i) {
    const type1_case* c = &type1_cases[i];
    const strike_setup s = {
        rate, {c->stiffness, c->alpha, c->mu}, m, 0.0, c->v_in, 0.0, 0, NULL,
        NULL};
    const impact* im = strike(&s, 1.0, false, NULL);
    const double tc =
        hc_contact_time(m, c->stiffness, c->alpha, c->mu, c->v_in);
    printf("k=%g alpha=%g mu=%g v_in=%g: contact %.2f samples, %d sub-steps "
           "per sample\n",
           c->stiffness, c->alpha, c->mu, c->v_in, tc * rate, im->substeps);
    CHECK(im->last.serial == 1, "%u contacts, expected one",
          (unsigned)im->last.serial);
    CHECK(im->stats.cap_hits == 0, "Newton cap hit %llu times",
          (unsigned long long)im->stats.cap_hits);
    check_rel("impact velocity", im->last.impact_velocity, c->v_in, 1e-12);
    check_rel("rebound velocity vs eq 6", im->last.rebound_velocity,
              hc_rebound_velocity(c->mu, c->v_in), c->v_out_tolerance);
    check_rel("contact time vs eq 9", im->last.contact_time, tc,
              c->contact_time_tolerance);
  }
  return check_done("test_type1");
}
