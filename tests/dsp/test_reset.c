/* SPDX-License-Identifier: ISC */
/*
 * A voice whose state is no longer finite is detected, and a reset brings
 * it back to silence and to a normal strike (the plugins rely on both).
 */
#include "check.h"
#include "impact.h"
#include "modal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static modal_object o;
static impact im;

static void
fresh(void)
{
  static const double freq[3] = {300.0, 800.0, 2100.0};
  modal_init(&o, 48000.0);
  modal_set_count(&o, 3);
  for (int i = 0; i < 3; ++i)
    modal_set_mode(&o, i, freq[i], 0.5, 1.0);
  modal_update(&o);
  impact_init(&im, 48000.0);
  impact_set_law(&im, (impact_law){.stiffness = 1e9, .alpha = 1.5, .mu = 0.5});
}

static double
play(int frames)
{
  float l[512] = {0}, r[512] = {0};
  impact_process(&im, &o, frames, l, r, 1.0);
  double peak = 0.0;
  for (int i = 0; i < frames; ++i)
    peak = fmax(peak, fabs(l[i]) + fabs(r[i]));
  return peak;
}

int
main(void)
{
  fresh();
  impact_strike(&im, &o, 1.0);
  const double reference = play(512);
  CHECK(modal_is_finite(&o) && impact_is_finite(&im), "finite state flagged");

  o.v[1] = NAN;
  CHECK(!modal_is_finite(&o), "a NaN mode went unnoticed");
  impact_reset(&im, &o);
  CHECK(modal_is_finite(&o) && impact_is_finite(&im), "reset left NaN");
  CHECK(play(512) == 0.0, "a reset object is not silent");

  impact_strike(&im, &o, 1.0);
  im.hammer_v = INFINITY;
  CHECK(!impact_is_finite(&im), "an infinite hammer went unnoticed");
  impact_reset(&im, &o);
  impact_strike(&im, &o, 1.0);
  const double again = play(512);
  printf("strike before %.6g, after the resets %.6g\n", reference, again);
  CHECK(again == reference, "after a reset the strike sounds different");
  return check_done("test_reset");
}
