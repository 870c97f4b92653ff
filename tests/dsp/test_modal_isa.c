/* SPDX-License-Identifier: ISC */
/*
 * The per-mode loops' copies for each instruction set (modal.c compiles
 * modal_kernels.h once per set and picks one when the library loads) agree
 * with each other.  A machine runs one copy only, so the others would go
 * untested where they run; this program includes modal.c itself, reaches
 * every copy, and runs each one this processor can execute on the same
 * objects: 1 to 128 modes, mirror and other pickup shapes, mode shapes
 * (modal_set_shapes()), a force and none, every kernel.  Each result is
 * compared with the baseline copy's (2 lanes, no FMA): they differ only in the
 * order the lanes are summed and in FMA's roundings, so by a few ulps of the
 * terms' magnitudes.
 */
#include "../../dsp/modal.c"

#include "check.h"

#include <float.h>
#include <stdint.h>

#if DSP_DISPATCH

/* A sum of n terms in another order, and a product with or without FMA,
 * differ by at most about n ulps of the terms' sum of magnitudes (a mode
 * left out or counted twice, by one term: of the order of that sum / n).
 * Free ringing adds a step's roundings per frame to the state. */
static const double ulps_per_term = 4.0;

typedef struct copy {
  const char* name;
  bool runs; /* this processor has the instruction set */
  void (*ring)(modal_object*, int, float*, float*, double);
  void (*next)(const modal_object*, const modal_coeffs*, double*, double*,
               double*, double*);
  void (*advance_point)(modal_object*, const modal_coeffs*, double, double*,
                        double*, double*, double*);
  void (*advance)(modal_object*, const modal_coeffs*, double, double*, double*,
                  double*);
  void (*correct)(modal_object*, const modal_coeffs*, double);
  void (*point)(const modal_object*, double*, double*);
  void (*pickups)(const modal_object*, double*, double*);
  void (*bounds_about)(const modal_object*, double, double*, double*);
  bool (*is_finite)(const modal_object*);
  void (*advance_bounds)(modal_object*, const modal_coeffs*, double, double*,
                         double*, double*, double*, double*, double*);
  void (*correct_predict)(modal_object*, const modal_coeffs*, double, double*,
                          double*, double*, double*);
} copy;

#define COPY(suffix, name, runs)                                               \
  {                                                                            \
    name, runs, modal_ring##suffix, modal_next##suffix,                        \
        modal_advance_point##suffix, modal_advance##suffix,                    \
        modal_correct##suffix, modal_point##suffix, modal_pickups##suffix,     \
        modal_bounds_about##suffix, modal_is_finite##suffix,                   \
        modal_advance_bounds##suffix, modal_correct_predict##suffix            \
  }

static uint32_t rng = 2463534242u;

static double
uniform(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng / 4294967296.0;
}

/* How the pickups are heard: at the mirror point, through pickup shape
 * ratios, through mode shapes at the point and the pickups, through mode
 * shapes with the right pickup at the left one's mirror point (its phi
 * +-phi at the left, alternating: heard off the lanes). */
enum { MIRROR, SHAPED, WEIGHTED, WEIGHTED_MIRROR, PICKUP_KINDS };

/* an object of n modes from 50 Hz to 18 kHz in a random state */
static void
random_object(modal_object* o, int n, int kind)
{
  const bool shaped = kind == SHAPED;
  modal_init(o, 48000.0);
  modal_set_count(o, n);
  modal_set_width(o, 0.7);
  for (int l = 0; l < n; ++l) {
    const double f = 50.0 * pow(360.0, uniform());
    modal_set_mode(o, l, f, 0.01 + 2.0 * uniform(), 0.1 + uniform());
    if (shaped)
      modal_set_pickup_shape(o, l, 4.0 * uniform() - 2.0);
  }
  modal_update(o);
  if (kind == WEIGHTED || kind == WEIGHTED_MIRROR) {
    double p[MODAL_MAX_MODES], ql[MODAL_MAX_MODES], qr[MODAL_MAX_MODES];
    for (int l = 0; l < n; ++l) {
      p[l] = 2.0 * uniform() - 1.0;
      ql[l] = 2.0 * uniform() - 1.0;
      qr[l] = kind == WEIGHTED_MIRROR ? modal_mirror_shape(l) * ql[l]
                                      : 2.0 * uniform() - 1.0;
    }
    modal_set_shapes(o, p, ql, qr);
  }
  CHECK(o->pickup_alternating == (kind == MIRROR || kind == WEIGHTED_MIRROR),
        "%d modes, pickups of kind %d: heard off the lanes %d", n, kind,
        o->pickup_alternating);
  for (int l = 0; l < n; ++l) {
    o->x[l] = 1e-6 * (2.0 * uniform() - 1.0);
    o->v[l] = 1e-3 * (2.0 * uniform() - 1.0);
  }
}

/* what sums of displacements and of velocities (weighted as the right
 * pickup weighs them) may differ by: ulps of their terms' magnitudes, in
 * the state before and after a call */
typedef struct tolerance {
  double x, v;
} tolerance;

static tolerance
tolerance_of(const modal_object* before, const modal_object* after)
{
  double sx = 0.0, sv = 0.0;
  for (int l = 0; l < before->n; ++l) {
    const double w = 1.0 + fabs(before->pickup_r[l]) +
                     fabs(before->pickup_l[l]) + fabs(before->contact_w[l]);
    sx += w * (fabs(before->x[l]) + fabs(after->x[l]));
    sv += w * (fabs(before->v[l]) + fabs(after->v[l]));
  }
  const double ulps = ulps_per_term * (before->n + 8) * DBL_EPSILON;
  return (tolerance){ulps * sx, ulps * sv};
}

static double worst; /* the largest difference seen, in the tolerance's units */

static void
same(const char* what, const char* name, int n, double got, double want,
     double tol)
{
  const double err = fabs(got - want);
  if (err / tol > worst)
    worst = err / tol;
  CHECK(err <= tol, "%s copy, %d modes: %s %.17g, baseline %.17g (tol %.3g)",
        name, n, what, got, want, tol);
}

/* every mode's state, against the whole state's tolerance */
static void
same_state(const char* what, const char* name, const modal_object* a,
           const modal_object* b, tolerance tol)
{
  for (int l = 0; l < a->n; ++l) {
    same(what, name, a->n, a->x[l], b->x[l], tol.x);
    same(what, name, a->n, a->v[l], b->v[l], tol.v);
  }
}

enum { FRAMES = 300 };

static void
compare(const copy* c, const copy* base, int n, int kind)
{
  static modal_object a, b, before;
  random_object(&a, n, kind);
  b = a;
  const double force = 0.3;
  double ra[6], rb[6];
  tolerance tol = tolerance_of(&b, &b);

  c->next(&a, &a.audio, &ra[0], &ra[1], &ra[2], &ra[3]);
  base->next(&b, &b.audio, &rb[0], &rb[1], &rb[2], &rb[3]);
  same("modal_next point_x", c->name, n, ra[0], rb[0], tol.x);
  same("modal_next point_v", c->name, n, ra[1], rb[1], tol.v);
  same("modal_next left_v", c->name, n, ra[2], rb[2], tol.v);
  same("modal_next right_v", c->name, n, ra[3], rb[3], tol.v);

  c->point(&a, &ra[0], &ra[1]);
  base->point(&b, &rb[0], &rb[1]);
  same("modal_point x", c->name, n, ra[0], rb[0], tol.x);
  same("modal_point v", c->name, n, ra[1], rb[1], tol.v);

  c->pickups(&a, &ra[0], &ra[1]);
  base->pickups(&b, &rb[0], &rb[1]);
  same("modal_pickups left", c->name, n, ra[0], rb[0], tol.v);
  same("modal_pickups right", c->name, n, ra[1], rb[1], tol.v);
  /* and each with its weights summed as modal.h defines them, whether the
   * loops sum them or read them off the lanes */
  double left = 0.0, right = 0.0;
  for (int l = 0; l < n; ++l) {
    left += (b.weighted ? b.pickup_l[l] : 1.0) * b.v[l];
    right += b.pickup_r[l] * b.v[l];
  }
  same("modal_pickups left, summed", c->name, n, ra[0], left, tol.v);
  same("modal_pickups right, summed", c->name, n, ra[1], right, tol.v);

  /* amplitudes: sqrt(x^2 + (v / w0)^2) per mode, summed, and w0 times */
  c->bounds_about(&a, force, &ra[0], &ra[1]);
  base->bounds_about(&b, force, &rb[0], &rb[1]);
  same("modal_bounds_about reach", c->name, n, ra[0], rb[0],
       ulps_per_term * (n + 8) * DBL_EPSILON * rb[0]);
  same("modal_bounds_about speed", c->name, n, ra[1], rb[1],
       ulps_per_term * (n + 8) * DBL_EPSILON * rb[1]);

  CHECK(c->is_finite(&a) && base->is_finite(&b), "%s copy: finite state",
        c->name);

  before = b;
  c->advance_point(&a, &a.audio, force, &ra[0], &ra[1], &ra[2], &ra[3]);
  base->advance_point(&b, &b.audio, force, &rb[0], &rb[1], &rb[2], &rb[3]);
  tol = tolerance_of(&before, &b);
  same_state("modal_advance_point state", c->name, &a, &b, tol);
  same("modal_advance_point point_x", c->name, n, ra[0], rb[0], tol.x);
  same("modal_advance_point point_v", c->name, n, ra[1], rb[1], tol.v);
  same("modal_advance_point left_v", c->name, n, ra[2], rb[2], tol.v);
  same("modal_advance_point right_v", c->name, n, ra[3], rb[3], tol.v);

  before = b;
  c->advance(&a, &a.audio, -force, &ra[0], &ra[1], &ra[2]);
  base->advance(&b, &b.audio, -force, &rb[0], &rb[1], &rb[2]);
  tol = tolerance_of(&before, &b);
  same_state("modal_advance state", c->name, &a, &b, tol);
  same("modal_advance point_v", c->name, n, ra[0], rb[0], tol.v);
  same("modal_advance left_v", c->name, n, ra[1], rb[1], tol.v);
  same("modal_advance right_v", c->name, n, ra[2], rb[2], tol.v);

  before = b;
  c->correct(&a, &a.audio, force);
  base->correct(&b, &b.audio, force);
  same_state("modal_correct state", c->name, &a, &b, tolerance_of(&before, &b));

  before = b;
  c->advance_bounds(&a, &a.audio, -force, &ra[0], &ra[1], &ra[2], &ra[3],
                    &ra[4], &ra[5]);
  base->advance_bounds(&b, &b.audio, -force, &rb[0], &rb[1], &rb[2], &rb[3],
                       &rb[4], &rb[5]);
  tol = tolerance_of(&before, &b);
  same_state("modal_advance_bounds state", c->name, &a, &b, tol);
  same("modal_advance_bounds point_x", c->name, n, ra[0], rb[0], tol.x);
  same("modal_advance_bounds point_v", c->name, n, ra[1], rb[1], tol.v);
  same("modal_advance_bounds left_v", c->name, n, ra[2], rb[2], tol.v);
  same("modal_advance_bounds right_v", c->name, n, ra[3], rb[3], tol.v);
  same("modal_advance_bounds reach", c->name, n, ra[4], rb[4],
       ulps_per_term * (n + 8) * DBL_EPSILON * rb[4]);
  same("modal_advance_bounds speed", c->name, n, ra[5], rb[5],
       ulps_per_term * (n + 8) * DBL_EPSILON * rb[5]);

  before = b;
  c->correct_predict(&a, &a.audio, force, &ra[0], &ra[1], &ra[2], &ra[3]);
  base->correct_predict(&b, &b.audio, force, &rb[0], &rb[1], &rb[2], &rb[3]);
  tol = tolerance_of(&before, &b);
  same_state("modal_correct_predict state", c->name, &a, &b, tol);
  same("modal_correct_predict point_x", c->name, n, ra[0], rb[0], tol.x);
  same("modal_correct_predict point_v", c->name, n, ra[1], rb[1], tol.v);
  same("modal_correct_predict left_v", c->name, n, ra[2], rb[2], tol.v);
  same("modal_correct_predict right_v", c->name, n, ra[3], rb[3], tol.v);

  /* free ringing: every frame's float output, within its rounding (one
   * float ulp) or the state's drift, and the state it leaves */
  static float la[FRAMES], ra_[FRAMES], lb[FRAMES], rb_[FRAMES];
  memset(la, 0, sizeof(la));
  memset(ra_, 0, sizeof(ra_));
  memset(lb, 0, sizeof(lb));
  memset(rb_, 0, sizeof(rb_));
  before = b;
  c->ring(&a, FRAMES, la, ra_, 1.0);
  base->ring(&b, FRAMES, lb, rb_, 1.0);
  tol = tolerance_of(&before, &b);
  tol.x *= FRAMES;
  tol.v *= FRAMES;
  same_state("modal_ring state", c->name, &a, &b, tol);
  for (int t = 0; t < FRAMES; ++t) {
    same("modal_ring left", c->name, n, la[t], lb[t],
         tol.v + FLT_EPSILON * fabs(lb[t]));
    same("modal_ring right", c->name, n, ra_[t], rb_[t],
         tol.v + FLT_EPSILON * fabs(rb_[t]));
  }
}

int
main(void)
{
  __builtin_cpu_init();
  const copy base = COPY(_v1, "baseline", true);
  const copy copies[] = {
      COPY(_v3, "AVX2", __builtin_cpu_supports("x86-64-v3")),
      COPY(_v4, "AVX-512", __builtin_cpu_supports("x86-64-v4")),
  };
  int ran = 0;
  for (size_t k = 0; k < sizeof(copies) / sizeof(copies[0]); ++k) {
    if (!copies[k].runs) {
      printf("%s copy: this processor cannot run it\n", copies[k].name);
      continue;
    }
    ++ran;
    worst = 0.0;
    for (int n = 1; n <= MODAL_MAX_MODES; n += n < 20 ? 1 : 9)
      for (int kind = 0; kind < PICKUP_KINDS; ++kind)
        compare(&copies[k], &base, n, kind);
    printf("%s copy against the baseline: largest difference %.2f of its "
           "tolerance\n",
           copies[k].name, worst);
  }
  CHECK(ran > 0 || !__builtin_cpu_supports("x86-64-v3"),
        "no copy compared on a processor that has AVX2");
  return check_done("test_modal_isa");
}

#else

int
main(void)
{
  printf("one copy of the kernels on this platform: nothing to compare\n");
  return 77;
}

#endif
