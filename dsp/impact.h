/* SPDX-License-Identifier: ISC */
/*
 * Impact interactor ([ch5] 5.1, [ch8] 8.3.1 and 8.A): a hammer (an inertial
 * mass under an optional constant external force) strikes the interaction
 * point of a modal object through the Hunt-Crossley force
 * f = k x^a (1 + mu v) for compression x > 0 ([ch8] eq 8.11), or through
 * a felt ([borin], felt.h: IMPACT_FELT).
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
 * accurate; a hammer pressed to rest or rattle on the object needs no
 * transient accuracy, and takes IMPACT_RESTING_STEPS_PER_CONTACT (at most
 * IMPACT_RESTING_SUBSTEPS per sample, as a long contact of a free hammer).  A
 * sample the hammer certainly stays clear through goes in one free step.  The
 * rest impact_settle() leaves is held until something disturbs it.  Hammer and
 * object exchange the same impulse at every sub-step, so momentum balances
 * exactly.  The onset of a contact is located inside its sub-step on the
 * force-free trajectory (cubic Hermite interpolation), the release by going
 * back from the end of its sub-step along the free motion.
 */
#ifndef CONTACT_IMPACT_H
#define CONTACT_IMPACT_H

#include "felt.h"
#include "modal.h"
#include "newton.h"

#include <stdbool.h>
#include <stdint.h>

/* Sub-steps per impact the integrator aims for, the most it takes per
 * sample; in a long-lasting contact, the steps per contact time it aims for
 * when the hammer is pressed on the object (a free hammer keeps
 * IMPACT_STEPS_PER_CONTACT) and the most sub-steps it takes per sample. */
enum {
  IMPACT_STEPS_PER_CONTACT = 128,
  IMPACT_MAX_SUBSTEPS = 1024,
  IMPACT_RESTING_STEPS_PER_CONTACT = 16,
  IMPACT_RESTING_SUBSTEPS = 4
};

/* The contact's law: Hunt-Crossley ([ch8] eq 8.11), or a hammer's felt
 * ([borin] eq 1 and 5, felt.h) */
typedef enum impact_law_kind {
  IMPACT_HUNT_CROSSLEY,
  IMPACT_FELT,
  IMPACT_LAW_KINDS
} impact_law_kind;

typedef struct impact_law {
  double stiffness;     /* k, N/m^a */
  double alpha;         /* a, exponent of the local contact shape */
  double mu;            /* lambda / k, s/m */
  impact_law_kind kind; /* Hunt-Crossley unless set */
  felt_law felt;        /* with IMPACT_FELT (stiffness, alpha, mu unused) */
} impact_law;

/* Hunt-Crossley force of [ch8] eq 8.11, clamped at zero: beyond
 * v < -1/mu the law would pull ("sticky" force, [ch8] 8.3.1), which a
 * hammer cannot do.  A felt's static force (its memory aside). */
double impact_law_force(const impact_law* law, double x, double v);

/* The compression at which the law bears a static load (k x^a = load; a
 * felt relaxed, (1 - epsilon) f(x) = load). */
double impact_law_static_compression(const impact_law* law, double load);

/* The energy of a body of mass m pressed on the contact by a static load,
 * about its rest at the static compression x_s: m v^2 / 2 + U(x), U(x) =
 * P(x) - P(x_s) - load (x - x_s) >= 0 with P the contact potential
 * k x^(a+1) / (a+1) (0 out of contact); x the compression, v its speed. */
double impact_law_rest_energy(const impact_law* law, double load, double mass,
                              double x, double v);

/* The unrest (impact_unrest()) of a body of mass m at `position` (the
 * compression being position - the point's displacement) moving at v,
 * pressed on object o through the law by a static load (0: nothing rests
 * on the object, only its vibration counts). */
double impact_body_unrest(const impact_law* law, double load, double mass,
                          double position, double v, const modal_object* o);

/* Solve the K-method equation of one step for the step-average contact
 * force F ([ch8] eqs 8.33, 8.41-8.43): F = G(x0, x_free + kx F), where x0
 * is the compression at the start of the step, x_free its value at the
 * end without contact force, kx < 0 the compression's response to F, and
 * G the average of the Hunt-Crossley force over the step, discretised as
 * the discrete gradient of the contact potential plus the mean damping
 * force (see impact.c).  G grows with the compression, so g(F) = G - F
 * falls through [0, G(x0, x_free)] and Newton kept inside the shrinking
 * bracket always converges. */
typedef struct impact_solution {
  double force;   /* N, average over the step */
  int iterations; /* Newton iterations; 0 when no contact is possible */
  bool converged; /* false when NEWTON_CAP was reached */
} impact_solution;

impact_solution impact_solve(const impact_law* law, double x0, double dx_free,
                             double kx, double h, double guess);

/* The binomial series of the contact exponent (impact.c), kept while the
 * exponent stays. */
typedef struct impact_series {
  double a, c[9], b[9], e[8], dc[8];
  int twice;     /* 2 a when a is a multiple of 1/2 in (0, 6], else 0 */
  double curv;   /* |a (a-1)| / 3, in the bound of g'' */
  double spread; /* max(1, |a-1|, |a-2|), the powers in that bound */
} impact_series;

impact_series impact_series_of(double alpha);

/* impact_solve() with the series of law->alpha at hand (a caller solving
 * every sample keeps it) */
impact_solution impact_solve_series(const impact_law* law,
                                    const impact_series* series, double x0,
                                    double dx_free, double kx, double h,
                                    double guess);

/* A felt's step (felt.h) of the solve above, law->kind IMPACT_FELT: the
 * accurate step where it keeps the felt's energy within the work done on
 * it, else the passive step (counted in c->passive_steps).  The felt c as
 * the step starts, x0 the bodies' compression then; c is left as the step
 * ends. */
impact_solution impact_felt_solve(felt_contact* c, const impact_law* law,
                                  double h, double x0, double dx_free,
                                  double kx, double guess);

/* The felt c at rest at the compression x, relaxed (its memory the static
 * force); no memory for Hunt-Crossley. */
void impact_felt_rest(felt_contact* c, const impact_law* law, double x);

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
  /* The hammer's own modes ([ch8] 8.3.1, eq 8.14: a "hammer" object of
   * N^(h) modes), or NULL: a rigid mass.  Its mass is the hammer's; the
   * hammer's contact point is hammer_x plus the exciter's point
   * displacement.  exciter_sub: its coefficients at `substeps` (for
   * exciter_sub_m of them, 0: none). */
  modal_object* exciter;
  double exciter_level; /* its pickups' share of the output */
  modal_coeffs exciter_sub;
  int exciter_sub_m;
  double exciter_mass; /* modal_point_mass() of the exciter, or INFINITY */
  impact_law law;
  double hammer_mass; /* kg */
  double ext_force;   /* N, on the hammer, toward the object */
  double sample_rate;

  double hammer_x, hammer_v; /* m, m/s along the strike axis */
  bool hammer_flying;        /* false: parked, out of play */
  double force, force_prev,
      force_prev2; /* N, step averages of the last three sub-steps */
  double x, v;     /* compression and its rate at the last instant */
  bool touching;
  long engaged_samples; /* samples the hammer has been within reach */
  double clock;         /* samples since init */
  /* Free flight: the parabola from where the hammer last left the object
   * (or was struck), so that splitting a flight into any pieces lands the
   * hammer on the same sample (output independent of the block size). */
  double flight_x, flight_v; /* m, m/s at its start */
  long flight_samples;       /* samples flown since */
  long clear_left; /* samples still known clear of the object (decided once) */

  int substeps;      /* per sample in engaged samples; 0 = coefficients stale */
  int sub_m;         /* sub-steps per sample `sub` holds (0: none) */
  double point_mass; /* modal_point_mass() of the object */
  double shape_alpha, shape; /* contact time of m = k = v = 1 at alpha */

  /* What depends on the parameters alone, worked out again when the law
   * changes (law_kept false) or one of the kept values does
   * (choose_substeps() in impact.c). */
  bool law_kept;
  double kept_mass, kept_ext_force, kept_point, kept_exciter;
  double m_eff;       /* kg, hammer and interaction point in series */
  double x_static;    /* m, static compression under ext_force */
  double half_static; /* s, half period on the contact spring at x_static */
  double tau_scale, tau_exponent; /* impact time = scale approach^exponent */
  double resting_steps; /* steps per contact time in a resting contact */
  /* the sub-step h for `substeps`, and the hammer's response to a force
   * over it, h^2 / (2 m) and h / m, for the mass h_mass */
  double h, hx, hv, h_mass;
  /* approach speeds up to which an impact lasts the resting steps per
   * contact at 1, 2, 4 ... sub-steps per sample */
  double resting_approach[3];
  /* compressions up to which a resting contact lasts the resting steps at
   * 1, 2, 4 ... sub-steps per sample (-1: none, for a <= 1) */
  double resting_compression[3];
  impact_series series;
  /* the felt's memory (felt.h); its decay over a sample off the object,
   * and its value as the flight began (a flight's felt, as its parabola,
   * worked out from the flight's start) */
  felt_contact felt;
  double felt_free_decay, felt_flight_q;

  /* With `tracked`: the interaction point's displacement and velocity and
   * the bounds of the vibration (modal_bounds()) as the last engaged
   * sample left the object, which nothing has moved since.  With `carried`
   * as well, the modes run a step behind (modal_advance()): next_x, next_v,
   * next_l and next_r are the point's and the pickups' free motion over the
   * next step but for `pending`, the last step's force, of which the modes
   * hold `applied`; carried_m the sub-steps per sample they run at. */
  bool tracked, carried;
  double point_x, point_v, reach, speed;
  double next_x, next_v, next_l, next_r, pending, applied;
  int carried_m;
  unsigned shapes_epoch; /* the object's shapes it follows (modal.h) */
  /* at the rest impact_settle() left, which nothing has disturbed since */
  bool settled;

  /* contact in progress */
  double onset, onset_velocity, peak, peak_before, peak_at;

  impact_contact last;
  newton_stats stats;
  uint64_t contact_steps; /* sub-steps integrated */
} impact;

void impact_init(impact* im, double sample_rate);

/* Parameters; changes take effect at the next sample. */
void impact_set_law(impact* im, impact_law law);
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
void impact_object_changed(impact* im, const modal_object* o);

/* The hammer's own modes (a modal object whose mass is the hammer's, its
 * interaction point where the hammer touches; NULL or no modes: a rigid
 * hammer, rendered exactly as without), heard with `level` times its
 * pickups.  The exciter stays the caller's; call again when its table
 * changes. */
void impact_set_exciter(impact* im, modal_object* exciter, double level);

/* Whether the hammer can still interact or the state is finite. */
bool impact_is_active(const impact* im);
bool impact_is_finite(const impact* im);

/* The rest hammer and object come to: the hammer pressed on the object by
 * the external force at the static compression (ext_force > 0), the object
 * deflected under it; or, without external force, the hammer out of play
 * and the object still.  impact_unrest() bounds the pickup speed that the
 * motion left about that rest can still produce (m/s; 0 at rest): the
 * object's vibration about its deflection, plus the speed the hammer's
 * energy about its rest (kinetic, and contact potential less the external
 * force's work) could give the interaction point, sqrt(2 E / m_point).
 * impact_settle() puts both exactly at that rest. */
double impact_unrest(const impact* im, const modal_object* o);
/* The same for what the exciter's own pickups give the output (0 without
 * one): the voice is silent when both are. */
double impact_exciter_unrest(const impact* im);
void impact_settle(impact* im, modal_object* o);

#endif
