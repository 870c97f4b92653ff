/* SPDX-License-Identifier: ISC */
/*
 * Rolling ([papetti] I-B, [ch8] 8.3.3): a ball rolls over the interaction
 * point of a modal object, and the sound is a dense train of micro-impacts
 * computed by the contact of the impact interactor: Hunt-Crossley, or a
 * felt ([borin], felt.h), elastic or hysteretic.
 *
 * The ball (mass m, radius R) is pressed on the object by its weight W and
 * moves along the surface at the rolling speed V; its travelled distance X
 * indexes the surface (surface.h), on which its bottom rides at the height
 * c(X), the upper envelope of the profile as a ball of radius R can follow
 * it.  Across the surface the ball and the object's interaction point move
 * along the contact axis (positive into the object) under the weight and
 * the contact force, with the compression
 *     x = ball position - point displacement + c(X) + e R cos(X / R),
 * the profile entering as an offset of the compression, and the last term
 * the ball's out-of-roundness e (asymmetry), which modulates the contact
 * once per revolution.  Where the surface falls away faster than the
 * weight can pull the ball down the ball flies, and lands again: the
 * micro-impacts.
 *
 * Each step is the impact interactor's: the step-average contact force
 * (the discrete gradient of the contact potential plus the mean damping
 * force, impact_solve) by the K method, ball and modes moving
 * exactly under it; so at rest (V = 0) the ball keeps its static
 * compression (W / k)^(1/alpha) exactly, and the discrete system is
 * passive.  A felt's step is impact's too (impact_felt_solve()): at rest
 * the ball sinks to where the felt bears its weight, f(x) = W, or relaxed
 * (1 - epsilon) f(x) = W ([borin] eq 1 and 5), and the hysteretic felt
 * stays passive by its passive step; its memory relaxes whenever the ball
 * is off the object, step by step.  Sub-steps are chosen so that the
 * contact spring under the static load rings over at least 16 steps.
 *
 * The speed moves to its target at a bounded acceleration: 20 ms for a
 * change of the controls, or a set stopping time.
 *
 * When the ball skips.  On its contact the ball is an oscillator at
 * f_c = sqrt(alpha g / x_s) / (2 pi) (x_s the static compression), damped
 * by zeta = mu g / (2 w_c), whose base the ride c(X) moves: the compression
 * departs by xi, xi'' + 2 zeta w_c xi' + w_c^2 xi = v^2 c''(X).  The ball
 * stays in contact while xi_rms < x_s / 2.  The patch 2 sqrt(R x_s)
 * crosses the texture in one period of f_c at v_c = sqrt(alpha g R) / pi,
 * whatever the stiffness and mass: below it the patch's cut-off v / 2a
 * rises through the object's modes with the speed; above it the texture
 * rings the contact itself (tests/dsp/test_rolling checks the criterion
 * against the model).
 */
#ifndef CONTACT_ROLLING_H
#define CONTACT_ROLLING_H

#include "impact.h"
#include "modal.h"
#include "surface.h"

#include <stdbool.h>
#include <stdint.h>

enum { ROLLING_MAX_SUBSTEPS = 16 };

/* The ball's out-of-roundness at asymmetry 1 (relative radius change). */
#define ROLLING_MAX_ECCENTRICITY 2e-4

typedef struct rolling {
  modal_coeffs sub; /* object coefficients for the sub-step */
  /* The ball's own modes (rolling_set_exciter(); as impact's exciter),
   * or NULL: a rigid ball; its coefficients for the sub-step */
  modal_object* exciter;
  double exciter_level;
  modal_coeffs exciter_sub;
  surface ground;
  impact_law law;
  impact_series series; /* of law.alpha, for the solve */
  felt_contact felt;    /* with a felt law (felt.h) */
  double sample_rate;
  uint64_t seed;    /* of the surface */
  double ball_mass; /* kg */
  double weight;    /* N, pressing the ball on the object */
  double asymmetry; /* 0..1 */

  double speed, target, accel;           /* m/s, m/s, m/s^2 */
  double distance;                       /* m, X */
  double ball_x, ball_v;                 /* m, m/s along the contact axis */
  double force, force_prev, force_prev2; /* N, of the last three steps */
  double offset;       /* m, c(X) + e R cos(X / R) + point_shift now */
  double point_shift;  /* m, what moves of the point (place.h) changed
                          its displacement by, the ball riding along */
  int substeps;        /* per sample; 0: coefficients stale */
  bool spring_changed; /* law or load: the count may change */

  /* Carried from one rolling_process() to the next, so that any split of
   * the samples into calls computes the same numbers: the interaction
   * point's displacement, its next step's free motion without the last
   * step's force `pending` (which the modes took at the end of the call),
   * the compression and the ball's turn.  Worked out afresh (carried
   * false) after anything moved the object or changed the sub-step. */
  bool carried;
  bool point_known; /* point_x is the point's at the end of the last call */
  unsigned shapes_epoch, tune_epoch; /* the object's it follows (modal.h) */
  double point_x, next_x, next_v, next_l, next_r, pending, x0, turn_c, turn_s;

  /* the last block, for the meters */
  double mean_force;       /* N */
  double contact_fraction; /* of its steps */
  newton_stats stats;
  uint64_t contact_steps; /* sub-steps integrated */
} rolling;

void rolling_init(rolling* r, double sample_rate, uint64_t seed);

/* Contact law, ball (kg, m, and the weight pressing it, N), surface
 * (roughness beta, RMS depth m) and asymmetry 0..1. */
void rolling_set_law(rolling* r, impact_law law);
void rolling_set_ball(rolling* r, double mass, double radius, double weight);
void rolling_set_surface(rolling* r, double beta, double depth);
void rolling_set_asymmetry(rolling* r, double asymmetry);

/* Roll toward `speed` (m/s, >= 0), getting there in `seconds`. */
void rolling_set_speed(rolling* r, double speed, double seconds);

/* Put the ball down at rest on the object with its static compression,
 * the object deflected under its weight as if it had lain there long. */
void rolling_place(rolling* r, modal_object* o);

/* Run ball and object for `frames` samples, adding scale * pickup
 * velocities to the outputs.  Tell it when the object's table changed. */
void rolling_process(rolling* r, modal_object* o, int frames, float* out_l,
                     float* out_r, double scale);
void rolling_object_changed(rolling* r);

/* The ball's own modes (a modal object of the ball's mass, touching where
 * the ball does; NULL or no modes: a rigid ball, rendered exactly as
 * without), heard with `level` times its pickups; call again when its
 * table changes. */
void rolling_set_exciter(rolling* r, modal_object* exciter, double level);
/* What the ball's own pickups give the output, bounded (0 without). */
double rolling_exciter_unrest(const rolling* r);

/* Everything back to the start: the surface from its beginning, the
 * object at rest, the ball off it (rolling_place() puts it down). */
void rolling_reset(rolling* r, modal_object* o);

/* The rest ball and object come to when the ball has stopped: the ball at
 * its static compression under its weight, the object deflected under it.
 * rolling_unrest() bounds the pickup speed the motion left about it can
 * still produce (as impact_unrest()); rolling_settle() puts both exactly
 * there, the ball where it is on the surface. */
double rolling_unrest(const rolling* r, const modal_object* o);
void rolling_settle(rolling* r, modal_object* o);
bool rolling_is_finite(const rolling* r);

#endif
