/* SPDX-License-Identifier: ISC */
/*
 * In a sustained contact the modes run a step behind the contact solve
 * (impact.c, `carried`).  Two things must hold whatever that does:
 * 1. the output does not depend on how the host splits its blocks: a
 *    hammer pressed on a ringing object by 5 N and struck 8 times a
 *    second (it rattles, then rests), run in blocks of 1, 7, 64 and 256
 *    samples, gives the same samples, bit for bit;
 * 2. between two calls the object is whole, for whoever reads it (the
 *    plugins' unrest and settling): the interaction point the modes hold
 *    is the one the contact tracked, to rounding.  Modes left a step
 *    behind miss the last force's response: 6-10 % of the point's motion
 *    here.
 */
#include "check.h"
#include "impact.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double rate = 48000.0;
enum { MODES = 32, FRAMES = 24000, STRIKE_EVERY = 6000 };

/* the point's tracked and held motion may differ by this, relative to its
 * largest value: the sums run in another order (modal_kernels.h) */
static const double whole_tolerance = 1e-12;

static void
setup(modal_object* o, impact* im)
{
  modal_init(o, rate);
  modal_set_count(o, MODES);
  for (int i = 0; i < MODES; ++i) {
    const double f = 100.0 * pow(100.0, (double)i / (MODES - 1));
    modal_set_mode(o, i, f, 1000.0 / (3.14159265358979 * f), 1.0);
  }
  modal_update(o);
  impact_init(im, rate);
  impact_set_law(im, (impact_law){.stiffness = 1e8, .alpha = 1.5, .mu = 0.5});
  impact_set_hammer(im, 0.01, 5.0);
}

/* FRAMES samples in blocks of `block`, struck every STRIKE_EVERY; the
 * worst mismatch between the held and the tracked point after a call in
 * contact, relative to the largest value of each (displacement, speed) */
static double
play(int block, float* out_l, float* out_r)
{
  static modal_object o;
  static impact im;
  setup(&o, &im);
  double off_x = 0.0, off_v = 0.0, most_x = 0.0, most_v = 0.0;
  long calls_in_contact = 0;
  for (int t = 0; t < FRAMES;) {
    if (t % STRIKE_EVERY == 0)
      impact_strike(&im, &o, 0.3 + 0.2 * (t / STRIKE_EVERY));
    const int to_strike = STRIKE_EVERY - t % STRIKE_EVERY;
    const int n = block < to_strike ? block : to_strike;
    impact_process(&im, &o, n, out_l + t, out_r + t, 1.0);
    t += n;
    double px, pv;
    modal_point(&o, &px, &pv);
    most_x = fmax(most_x, fabs(px));
    most_v = fmax(most_v, fabs(pv));
    if (im.carried) {
      ++calls_in_contact;
      off_x = fmax(off_x, fabs(px - im.point_x));
      off_v = fmax(off_v, fabs(pv - im.point_v));
    }
  }
  CHECK(calls_in_contact > 0, "blocks of %d: never in a carried contact",
        block);
  return fmax(off_x / most_x, off_v / most_v);
}

int
main(void)
{
  static float l[4][FRAMES], r[4][FRAMES];
  static const int blocks[4] = {1, 7, 64, 256};
  for (int b = 0; b < 4; ++b) {
    const double off = play(blocks[b], l[b], r[b]);
    printf("blocks of %3d: the held point off the tracked one by %.2e of "
           "the largest point speed (bar %.0e)\n",
           blocks[b], off, whole_tolerance);
    CHECK(off <= whole_tolerance,
          "blocks of %d: the object is not whole "
          "between calls (%.3g)",
          blocks[b], off);
  }
  for (int b = 1; b < 4; ++b) {
    CHECK(!memcmp(l[0], l[b], sizeof(l[0])) &&
              !memcmp(r[0], r[b], sizeof(r[0])),
          "blocks of %d sound other than blocks of 1", blocks[b]);
  }
  return check_done("test_impact_blocks");
}
