/* SPDX-License-Identifier: ISC */
/*
 * Bar 1 through the plugin binary: the table of Type I strikes (10 g
 * hammer, 1e12 kg object: a rigid wall, 44.1 kHz) read from the contact
 * meters against the closed forms.
 */
#include "check.h"
#include "closed_form.h"
#include "host.h"

#include <stdio.h>

int
main(void)
{
  const double rows[][6] = {
    {1e7, 1.5, 0.5, 0.5, 1e-4, 1e-3},    {1e9, 1.5, 0.5, 1, 5e-4, 1e-2},
    {1e9, 1.5, 2, 1, 1e-3, 1e-2},        {1e9, 1.5, 0.5, 3, 1e-3, 1e-2},
    {1.5e11, 1.5, 0.5, 1, 1e-3, 2e-2},   {1.5e11, 2.8, 0.6, 1, 1e-3, 1e-2},
    {1.5e11, 2.8, 0.6, 2, 1e-3, 1e-2},   {1.5e11, 2.8, 0.6, 3, 1e-3, 1e-2},
    {1.5e11, 2.8, 0.6, 4, 1e-3, 1e-2},   {1e7, 1.3, 0.01, 0.5, 1e-4, 1e-2},
  };
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    host* h = host_open("urn:contact:impact", 44100.0, 256);
    if (!h)
      return 1;
    /* the plugin sees float port values: compare with the same numbers */
    const float k = (float)rows[i][0], a = (float)rows[i][1],
                mu = (float)rows[i][2], v = (float)rows[i][3];
    host_set(h, "hammer_mass", 10.0f); /* g */
    host_set(h, "stiffness", k);
    host_set(h, "alpha", a);
    host_set(h, "mu", mu);
    host_set(h, "object_mass", 1e12f);
    host_set(h, "velocity_max", v);
    host_set(h, "velocity_curve", 1.0f);
    host_note_on(h, 100, 60, 127);
    host_run(h, 22050, 256, NULL, NULL);
    printf("k=%g alpha=%g mu=%g v_in=%g\n", k, a, mu, v);
    check_rel("impact_velocity", host_get(h, "impact_velocity"), v, 1e-6);
    check_rel("rebound_velocity vs eq 6", host_get(h, "rebound_velocity"),
              hc_rebound_velocity(mu, v), rows[i][4]);
    check_rel("contact_time (ms) vs eq 9", host_get(h, "contact_time"),
              1e3 * hc_contact_time(0.01, k, a, mu, v), rows[i][5]);
    CHECK(host_get(h, "peak_force") > 0.0f, "no peak force");
    CHECK(host_get(h, "newton_cap_hits") == 0.0f, "Newton cap hits");
    host_close(h);
  }
  return check_done("test_plugin_type1");
}
