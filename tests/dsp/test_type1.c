/* SPDX-License-Identifier: ISC */
/*
 * Bar 1, Type I through the DSP API: a 10 g hammer on a rigid wall at
 * 44.1 kHz.  The simulated rebound velocity and contact time must match
 * the closed forms ([papetti] eq 6 and eq 9) within the bounds.
 */
#include "check.h"
#include "closed_form.h"
#include "strike.h"

#include <stdio.h>

int
main(void)
{
  /* k, alpha, mu, v_in, v_out tolerance, contact time tolerance */
  const double rows[][6] = {
    {1e7, 1.5, 0.5, 0.5, 1e-4, 1e-3},    {1e9, 1.5, 0.5, 1, 5e-4, 1e-2},
    {1e9, 1.5, 2, 1, 1e-3, 1e-2},        {1e9, 1.5, 0.5, 3, 1e-3, 1e-2},
    {1.5e11, 1.5, 0.5, 1, 1e-3, 2e-2},   {1.5e11, 2.8, 0.6, 1, 1e-3, 1e-2},
    {1.5e11, 2.8, 0.6, 2, 1e-3, 1e-2},   {1.5e11, 2.8, 0.6, 3, 1e-3, 1e-2},
    {1.5e11, 2.8, 0.6, 4, 1e-3, 1e-2},   {1e7, 1.3, 0.01, 0.5, 1e-4, 1e-2},
  };
  const double m = 0.01, rate = 44100.0;
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    const double* row = rows[i];
    const strike_setup s = {rate, {row[0], row[1], row[2]}, m, 0.0, row[3],
                            0.0, 0, NULL, NULL};
    const impact* im = strike(&s, 1.0, false, NULL);
    const double tc = hc_contact_time(m, row[0], row[1], row[2], row[3]);
    printf("k=%g alpha=%g mu=%g v_in=%g: contact %.2f samples, %d sub-steps "
           "per sample\n",
           row[0], row[1], row[2], row[3], tc * rate, im->substeps);
    CHECK(im->last.serial == 1, "%u contacts, expected one",
          (unsigned)im->last.serial);
    CHECK(im->stats.cap_hits == 0, "Newton cap hit %llu times",
          (unsigned long long)im->stats.cap_hits);
    check_rel("impact velocity", im->last.impact_velocity, row[3], 1e-12);
    check_rel("rebound velocity vs eq 6", im->last.rebound_velocity,
              hc_rebound_velocity(row[2], row[3]), row[4]);
    check_rel("contact time vs eq 9", im->last.contact_time, tc, row[5]);
  }
  return check_done("test_type1");
}
