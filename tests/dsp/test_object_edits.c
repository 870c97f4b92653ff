/* SPDX-License-Identifier: ISC */
/*
 * An edit of the object under the hammer strikes no blow
 * (impact_object_changed()).  A mode leaving the table, or a displacement
 * rescaled by a retune, moves the interaction point at once; a stiff
 * contact pressed millimetres deep by that jump would fire the hammer off at
 * kilometres a second (what the plugin fuzzer found).  Two cases:
 * 1. a hammer pressed on the object by an external force, whose push has
 *    displaced a slow mode, loses that mode from the table;
 * 2. a hammer flying clear of the object, whose point is moved past it.
 * In both the hammer's speed afterwards stays of the order of what the
 * force and the object give it.
 */
#include "check.h"
#include "impact.h"
#include "modal.h"

#include <math.h>
#include <stdio.h>

static modal_object o;
static impact im;

static void
setup(double ext_force)
{
  static const double freq[3] = {95.0, 896.0, 10364.0};
  static const double decay[3] = {0.11, 0.5, 2.0};
  modal_init(&o, 48000.0);
  modal_set_count(&o, 3);
  modal_set_mass(&o, 0.5);
  for (int l = 0; l < 3; ++l)
    modal_set_mode(&o, l, freq[l], decay[l], 1.0);
  modal_update(&o);
  impact_init(&im, 48000.0);
  impact_set_law(&im, (impact_law){.stiffness = 5e11, .alpha = 1.5, .mu = 0.0});
  impact_set_hammer(&im, 0.013, ext_force);
}

/* the hammer's fastest speed over `seconds` */
static double
run(double seconds)
{
  float l[64], r[64];
  double fastest = 0.0;
  for (long n = 0; n < (long)(seconds * 48000.0); n += 64) {
    impact_process(&im, &o, 64, l, r, 1.0);
    fastest = fmax(fastest, fabs(im.hammer_v));
  }
  return fastest;
}

int
main(void)
{
  /* A speed no hammer here reaches by the physics: a 13 g hammer pushed by
   * 20 N for 0.2 s reaches 300 m/s in free fall; on the object it is held
   * to the object's speed, centimetres a second. */
  const double blow = 10.0;

  /* 1. pressed: 20 N push the 95 Hz mode of a 0.5 kg object by
   * F / (m w^2) = 0.11 mm; the mode leaves the table (the point jumps
   * back by that much) */
  setup(20.0);
  impact_strike(&im, &o, 0.5);
  const double before = run(0.5);
  double px, pv;
  modal_point(&o, &px, &pv);
  modal_set_mode(&o, 0, 0.0, 0.11, 1.0); /* switched off: at rest */
  modal_update(&o);
  impact_object_changed(&im, &o);
  const double after = run(0.2);
  printf("pressed, a displaced mode (%.3g mm) leaves: hammer speed %.3g m/s "
         "before, %.3g m/s after\n",
         1e3 * px, before, after);
  CHECK(fabs(px) > 5e-5, "the slow mode was not displaced (%g m)", px);
  CHECK(after < blow, "the edit fired the hammer off at %g m/s", after);

  /* 2. clear: a ball dropped on the object (its weight pulls it back),
   * caught in the air; the point is moved 1 mm past it (a displacement
   * rescaled by a retune) */
  setup(0.013 * 9.81);
  impact_strike(&im, &o, 0.3);
  float l[1], r[1];
  for (long n = 0; n < 48000; ++n) { /* up to the first flight's top */
    impact_process(&im, &o, 1, l, r, 1.0);
    if (im.last.serial > 0 && im.hammer_v > 0.0)
      break;
  }
  const double speed = fabs(im.hammer_v);
  modal_point(&o, &px, &pv);
  const double gap = px - im.hammer_x;
  o.x[0] += im.hammer_x - px - 1e-3; /* compression +1 mm */
  impact_object_changed(&im, &o);
  const double clear_after = run(0.2);
  printf("clear, %.3g mm up, the point moved 1 mm past the hammer: hammer "
         "speed %.3g m/s before, %.3g m/s after\n",
         1e3 * gap, speed, clear_after);
  CHECK(gap > 1e-3, "the ball was %g mm off the object, not clear of it",
        1e3 * gap);
  CHECK(clear_after < blow, "the edit fired the hammer off at %g m/s",
        clear_after);
  return check_done("test_object_edits");
}
