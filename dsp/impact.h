/* SPDX-License-Identifier: ISC */
/*
 * Impact interactor ([ch5] 5.1, [ch8] 8.3.1 and 8.A): a hammer (an inertial
 * mass under an optional constant external force) strikes the interaction
 * point of a modal object through the Hunt-Crossley force
 * f = k x^a (1 + mu v) for compression x > 0 ([ch8] eq 8.11).
 *
 * Positions are measured along the strike axis, positive toward and into
 * the object, from the object's rest surface; the compression is
 * x = hammer position - interaction point displacement.
 *
 * The contact force enters each step as its step average, discretised as
 * the discrete gradient of the contact potential plus the mean damping
 * force, and the delay-free loop it closes with hammer and object is solved
 * by the K method with Newton-Raphson ([ch8] eqs 8.32-8.43).  Hammer and
 * modes move exactly under a force constant over the step (modal.h), so
 * each step they gain exactly the work of the contact force, and the
 * discrete gradient makes that work exactly the change of the contact
 * potential plus a dissipation that is never negative: the whole discrete
 * system never gains energy, and without contact damping (mu = 0) it loses
 * none.  This answers the energy drift of the trapezoid and explicit
 * schemes measured in [papetti] III-IV, without the closed-form corrections
 * of IV that only hold for a rigid wall.
 *
 * Whenever the hammer can touch the object within a sample, that sample is
 * split into sub-steps sized so that an impact spans
 * IMPACT_STEPS_PER_CONTACT of them, which keeps short, hard contacts
 * accurate.  Hammer and object exchange the same impulse at every
 * sub-step, so momentum balances exactly.  The onset of a contact is
 * located inside its sub-step on the force-free trajectory (cubic Hermite
 * interpolation), the release by going back from the end of its sub-step
 * along the free motion.
 */
#ifndef CONTACT_IMPACT_H
#define CONTACT_IMPACT_H

#include "modal.h"

#include <stdbool.h>
#include <stdint.h>

/* Newton iteration cap; reaching it is counted in impact_stats. */
enum { IMPACT_NEWTON_CAP = 16 };

/* Sub-steps per impact the integrator aims for, the most it takes per
 * sample, and the most it takes in a resting (long-lasting) contact. */
enum {
  IMPACT_STEPS_PER_CONTACT = 128,
  IMPACT_MAX_SUBSTEPS = 1024,
  IMPACT_RESTING_SUBSTEPS = 4
};

typedef struct hunt_crossley {
  double stiffness; /* k, N/m^a */
  double alpha;     /* a, exponent of the local contact shape */
  double mu;        /* lambda / k, s/m */
} hunt_crossley;

/* Hunt-Crossley force of [ch8] eq 8.11, clamped at zero: beyond
 * v < -1/mu the law would pull ("sticky" force, [ch8] 8.3.1), which a
 * hammer cannot do. */
double hunt_crossley_force(const hunt_crossley* law, double x, double v);

/* Solve the K-method equation of one step for the step-average contact
 * force F ([ch8] eqs 8.33, 8.41-8.43): F = G(x0, x_free + kx F), where x0
 * is the compression at the start of the step, x_free its value at the
 * end without contact force, kx < 0 the compression's response to F, and
 * G the average of the Hunt-Crossley force over the step, discretised as
 * the discrete gradient of the contact potential plus the mean damping
 * force (see impact.c).  G grows with the compression, so g(F) = G - F
 * falls through [0, G(x0, x_free)] and Newton kept inside the shrinking
 * bracket always converges. */
typedef struct hc_solution {
  double force;   /* N, average over the step */
  int iterations; /* Newton iterations; 0 when no contact is possible */
  bool converged; /* false when IMPACT_NEWTON_CAP was reached */
} hc_solution;

hc_solution hunt_crossley_solve(const hunt_crossley* law, double x0,
                                double dx_free, double kx, double h,
                                double guess);

typedef struct impact_stats {
  uint64_t solves;     /* Newton solves */
  uint64_t iterations; /* total Newton iterations */
  uint64_t cap_hits;   /* solves that hit IMPACT_NEWTON_CAP */
  uint64_t histogram[IMPACT_NEWTON_CAP + 1]; /* solves by iteration count */
  uint64_t contact_steps;                    /* sub-steps integrated */
} impact_stats;

/* Count a solve (one that was needed) in the statistics. */
void impact_stats_count(impact_stats* stats, hc_solution sol);

/* What the meters show: the most recent completed contact, measured from
 * the simulated trajectory. */
typedef struct impact_contact {
  double onset;            /* s, on the impact clock */
  double impact_velocity;  /* m/s, compression velocity at onset */
  double rebound_velocity; /* m/s, at release; negative when it bounces */
  double contact_time;     /* s */
  double peak_force;       /* N */
  uint32_t serial;         /* counts completed contacts */
} impact_contact;

typedef struct impact {
  modal_coeffs sub; /* object coefficients for the current sub-step */
  hunt_crossley law;
  double hammer_mass; /* kg */
  double ext_force;   /* N, on the hammer, toward the object */
  double sample_rate;

  double hammer_x, hammer_v; /* m, m/s along the strike axis */
  bool hammer_flying;        /* false: parked, out of play */
  double force, force_prev;  /* N, step averages of the last two sub-steps */
  double x, v;               /* compression and its rate at the last instant */
  bool touching;
  long engaged_samples; /* samples the hammer has been within reach */
  double clock;         /* samples since init */

  int substeps;      /* per sample in engaged samples; 0 = coefficients stale */
  double point_mass; /* modal_point_mass() of the object */
  double shape_alpha, shape; /* contact time of m = k = v = 1 at alpha */

  /* contact in progress */
  double onset, onset_velocity, peak, peak_before, peak_at;

  impact_contact last;
  impact_stats stats;
} impact;

void impact_init(impact* im, double sample_rate);

/* Parameters; changes take effect at the next sample. */
void impact_set_law(impact* im, hunt_crossley law);
void impact_set_hammer(impact* im, double mass, double ext_force);

/* Bring the hammer to the interaction point (compression 0) moving toward
 * the object at `velocity` (m/s).  A ringing object is struck as it is. */
void impact_strike(impact* im, const modal_object* o, double velocity);

/* Take the hammer out of play and the object to rest. */
void impact_reset(impact* im, modal_object* o);

/* Run hammer and object for `frames` samples, adding scale * pickup
 * velocities to the outputs.  Tell it when the object's table changed. */
void impact_process(impact* im, modal_object* o, int frames, float* out_l,
                    float* out_r, double scale);
void impact_object_changed(impact* im);

/* Whether the hammer can still interact or the state is finite. */
bool impact_is_active(const impact* im);
bool impact_is_finite(const impact* im);

#endif
