/* SPDX-License-Identifier: ISC */
/*
 * Bar 1, Type I through the DSP API: a 10 g hammer on a rigid wall at
 * 44.1 kHz.  The simulated rebound velocity and contact time must match
 * the closed forms ([papetti] eq 6 and eq 9, dsp/closed_form.c, itself
 * checked against an independent RK4 in test_closed_form) to the accuracy
 * the DSP achieves.  type1_cases.h holds the looser bounds the plugin's
 * meters are held to; here each case has its own bars, 3x the error
 * achieved (in the comment) rounded up: an exponent alpha off by 1e-3
 * moves the contact time by 5e-3.
 */
#include "check.h"
#include "closed_form.h"
#include "strike.h"
#include "type1_cases.h"

#include <stdio.h>

/* v_out and contact-time bars per case of type1_cases.h */
static const double dsp_bars[N_TYPE1_CASES][2] = {
    {2e-5, 1.2e-4}, /* achieved -5.5e-6, +3.7e-5 */
    {2.5e-5, 1e-4}, /* -7.8e-6, +2.9e-5 */
    {5e-5, 5e-5},   /* -1.5e-5, +1.6e-5 */
    {2e-5, 2.5e-5}, /* -5.7e-6, +8.0e-6 */
    {2e-5, 8e-5},   /* -5.9e-6, +2.5e-5 */
    {5e-5, 6e-5},   /* -1.6e-5, +1.9e-5 */
    {3e-5, 5e-5},   /* -9.1e-6, +1.5e-5 */
    {5e-5, 6e-5},   /* -1.5e-5, +1.8e-5 */
    {1.6e-4, 6e-5}, /* -5.2e-5, +2.0e-5 */
    {3e-7, 1.3e-4}, /* -8.7e-8, +4.1e-5 */
};

int
main(void)
{
  const double m = 0.01, rate = 44100.0;
  for (int i = 0; i < N_TYPE1_CASES; ++i) {
    const type1_case* c = &type1_cases[i];
    const strike_setup s = {
        rate,    {.stiffness = c->stiffness, .alpha = c->alpha, .mu = c->mu},
        m,       0.0,
        c->v_in, 0.0,
        0,       NULL,
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
    /* the hammer meets the wall at its launch speed: rounding (achieved
     * 0) */
    check_rel("impact velocity", im->last.impact_velocity, c->v_in, 1e-15);
    check_rel("rebound velocity vs eq 6", im->last.rebound_velocity,
              hc_rebound_velocity(c->mu, c->v_in), dsp_bars[i][0]);
    check_rel("contact time vs eq 9", im->last.contact_time, tc,
              dsp_bars[i][1]);
  }
  return check_done("test_type1");
}
