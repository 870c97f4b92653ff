/* SPDX-License-Identifier: ISC */
/*
 * Bar 1 through the plugin binary: the table of Type I strikes (10 g
 * hammer, 1e12 kg object: a rigid wall, 44.1 kHz) read from the contact
 * meters against the closed forms.
 */
#include "check.h"
#include "closed_form.h"
#include "host.h"
#include "render.h"
#include "type1_cases.h"

#include <stdio.h>

int
main(void)
{
  for (int i = 0; i < N_TYPE1_CASES; ++i) {
    const type1_case* c = &type1_cases[i];
    host* h = host_open("urn:contact:impact", 44100.0, 256);
    if (!h)
      return 1;
    /* the plugin sees float port values: compare with the same numbers */
    const float k = (float)c->stiffness, a = (float)c->alpha, mu = (float)c->mu,
                v = (float)c->v_in;
    HOST_OK(host_set(h, "hammer_mass", 10.0f)); /* g */
    HOST_OK(host_set(h, "stiffness", k));
    HOST_OK(host_set(h, "alpha", a));
    HOST_OK(host_set(h, "mu", mu));
    HOST_OK(host_set(h, "object_mass", 1e12f));
    HOST_OK(host_set(h, "velocity_max", v));
    HOST_OK(host_set(h, "velocity_curve", 1.0f));
    HOST_OK(host_note_on(h, 100, 60, 127));
    host_run(h, 22050, 256, NULL, NULL);
    printf("k=%g alpha=%g mu=%g v_in=%g\n", k, a, mu, v);
    check_rel("impact_velocity", host_get(h, "impact_velocity"), v, 1e-6);
    check_rel("rebound_velocity vs eq 6", host_get(h, "rebound_velocity"),
              hc_rebound_velocity(mu, v), c->v_out_tolerance);
    check_rel("contact_time (ms) vs eq 9", host_get(h, "contact_time"),
              1e3 * hc_contact_time(0.01, k, a, mu, v),
              c->contact_time_tolerance);
    CHECK(host_get(h, "peak_force") > 0.0f, "no peak force");
    CHECK(host_get(h, "newton_cap_hits") == 0.0f, "Newton cap hits");
    host_close(h);
  }
  return check_done("test_plugin_type1");
}
