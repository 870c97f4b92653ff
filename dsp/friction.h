/* SPDX-License-Identifier: ISC */
/*
 * Friction interactor ([ch8] 8.3.2 and 8.A.1-8.A.2): an exciter (finger,
 * bow, brake pad) rubs the interaction point of a modal object through the
 * elasto-plastic bristle model ([ch8] eq 8.16):
 *     z' = v (1 - alpha(v, z) z / z_ss(v))
 *     f  = sigma0 z + sigma1 z' + sigma2 v + sigma3 f_N w
 * with v the exciter's velocity relative to the object's surface, z the
 * mean bristle displacement, z_ss the Stribeck steady state (eq 8.17),
 * alpha the elastic-plastic transition (eqs 8.18-8.19) starting at the
 * breakaway displacement z_ba = c min(mu_s, mu_d) f_N / sigma0 (eq 8.28,
 * printed with mu_d: it assumes mu_s >= mu_d, and z_ba must stay below
 * the smallest steady state, mu f_N / sigma0 for the smaller mu), and w
 * fractal surface noise (fractal.h) of unit RMS.  The noise
 * term is printed as sigma3 w; here it scales with the load, as friction
 * noise does (its force is proportional to the normal force [akay]):
 * sigma3 is the noise's RMS per newton of f_N, so pressing harder is
 * rougher ([ch8] table 8.1); and it is heard while the surfaces slide,
 * fading in as |v| / (|v| + v_s).
 *
 * The force acts on the exciter as -f and on the object as +f, as the
 * average over each (sub-)step of its values at both ends; exciter and
 * modes move exactly under it (modal.h), so they exchange equal and
 * opposite impulses.  z follows the trapezoid rule (eq 8.34) where it
 * resolves the bristles' relaxation and a monotone theta rule where it
 * does not, and the delay-free loop between z', z, v and f is solved by the
 * K method for z' (eqs 8.36-8.48): in closed form while the bristles stick,
 * else by Newton-Raphson inside a bracket, usually in one step whose error
 * the second derivatives bound, or correct to second order (Chebyshev's
 * step) when it is a little over (see solve_zdot in friction.c).  When the
 * bristles and the exciter would resonate above a twelfth of the sample
 * rate, the sample is split into sub-steps.
 *
 * The exciter has mass m.  Driven by velocity, it is held to an anchor
 * moving at the bow velocity by a spring and damper, the grip, tuned to
 * 250 Hz unless set (friction_set_grip()) with damping ratio 0.7: below
 * that it follows the anchor, above it gives way like the flesh of a
 * finger or the hair of a bow.  The hand is at rest while the exciter is
 * lifted: a note sets the exciter down, stuck, and the hand accelerates
 * to the bow velocity (the speed glide), so that the first slip releases
 * the load the sticking built, as a bow's attack does [guettler].  Driven by
 * force, it is a free mass pushed along the surface by the external force.
 *
 * The exciter may have modes of its own besides (friction_set_body()): a
 * rod, a bow stick, a wine glass rubbing another, "a friction 'bow' is a
 * modal object too" ([ch8] 8.3.2, after the two resonators of 8.3.1).  Its
 * touching point then moves with the mass and with those modes, each
 * taking -F, so the solve sees both bodies' compliances (one implicit
 * solve a step, as before), and the body is heard at its level.
 */
#ifndef CONTACT_FRICTION_H
#define CONTACT_FRICTION_H

#include "fractal.h"
#include "modal.h"
#include "newton.h"

#include <stdbool.h>
#include <stdint.h>

enum { FRICTION_MAX_SUBSTEPS = 8 };

/* Friction coefficients are kept at or above this. */
#define FRICTION_MIN_MU 1e-6

/* The drive's natural frequency (Hz; friction_set_grip() sets another)
 * and damping ratio. */
#define FRICTION_DRIVE_FREQ    250.0
#define FRICTION_DRIVE_DAMPING 0.7

typedef struct friction_law {
  double sigma0;    /* bristle stiffness, N/m */
  double sigma1;    /* bristle damping, N s/m */
  double sigma2;    /* viscous friction, N s/m */
  double sigma3;    /* noise force per newton of normal force */
  double mu_s;      /* static friction coefficient */
  double mu_d;      /* dynamic friction coefficient */
  double stribeck;  /* Stribeck velocity v_s, m/s */
  double breakaway; /* c of z_ba = c min(mu_s, mu_d) f_N / sigma0, 0..1 */
} friction_law;

/* z_ss(v) of [ch8] eq 8.17 for normal force fn (and its derivative). */
double friction_steady_z(const friction_law* law, double fn, double v,
                         double* dz_dv);

/* z'(v, z) of eq 8.16 with its partial derivatives (eqs 8.45-8.48). */
double friction_zdot(const friction_law* law, double fn, double v, double z,
                     double* d_dv, double* d_dz);

/* Where alpha > 0: the second partials of |z'| in |v| and |z| (0 elsewhere),
 * which bound the error of a Newton step. */
void friction_zdot_second(const friction_law* law, double fn, double v,
                          double z, double* d_vv, double* d_vz, double* d_zz);

typedef enum friction_drive {
  FRICTION_DRIVE_VELOCITY,
  FRICTION_DRIVE_FORCE
} friction_drive;

/* The implicit step's equation z'1 = z'(v_t + k1 z'1, z_t + kz z'1) solved
 * from `guess` as friction_process() solves it (eqs 8.39-8.44). */
double friction_solve_zdot(const friction_law* law, double fn, double v_t,
                           double k1, double z_t, double kz, double guess,
                           newton_stats* stats);

/* The object's modes take the force of one step in the same pass as
 * their free motion over the next, and the velocities the step needs are
 * known before that pass (modal_advance()), so the solve does not wait for
 * it.  Carried from call to call, so that any split of the samples into
 * calls computes the same numbers. */
typedef struct friction_track {
  double pending;                  /* the last step's force */
  double applied;                  /* how much of it the modes have taken */
  double point_v, left_v, right_v; /* next step's free velocities
                                      without it */
  double left, right;              /* pickups after the last step */
} friction_track;

typedef struct friction {
  modal_coeffs sub;         /* object at the sub-step */
  modal_coeffs exciter_sub; /* exciter at the sub-step */
  modal_object exciter;     /* one mode: the drive spring (velocity drive) */
  modal_coeffs body_sub;    /* the body at the sub-step */
  modal_object* body;       /* the exciter's own modes, or none */
  double body_level;        /* how loud they are heard */
  double body_force;        /* the last step's force, not yet applied */
  fractal_noise noise;
  uint64_t seed; /* the noise's */
  friction_law law;
  friction_drive drive;
  double sample_rate;
  double exciter_mass;   /* kg */
  double grip;           /* Hz, the drive spring's natural frequency */
  double bow_velocity;   /* m/s, the anchor (velocity drive) */
  double ext_force;      /* N, along the surface (force drive) */
  double normal_force;   /* N, as set */
  double fn;             /* N, gliding to it */
  double exciter_v;      /* m/s, free exciter (force drive) */
  double anchor_v;       /* m/s, the anchor's velocity now */
  double z, zdot, force; /* bristles and friction force, last instant */
  double zdot_past[2];   /* z' one and two steps before */
  double v;              /* relative velocity, last instant */
  double relax;          /* -dz'/dz of the bristles, 1/s */
  double zdot_v;         /* dz'/dv of the bristles */
  /* v~ and z~ one, two and three steps before (kept with noise on): a
   * ring, the last at past_at, so that a step writes one of each (a shift
   * would have the compiler move them in pairs that the next step's reads
   * straddle, which store forwarding does not serve) */
  double v_t_past[3], z_t_past[3];
  int past_at;
  int substeps; /* per sample */
  bool object_changed;
  friction_track track;
  bool tracking;         /* track holds the object's motion */
  unsigned shapes_epoch; /* the object's shapes it follows (modal.h) */

  /* block means, for meters */
  double mean_force, mean_slip;
  newton_stats stats;
} friction;

void friction_init(friction* fr, double sample_rate, uint64_t seed);
void friction_set_law(friction* fr, friction_law law);
void friction_set_exciter(friction* fr, double mass, friction_drive drive);
/* The exciter's own modes (a modal object whose mass is the exciter's, its
 * interaction point where it touches; not owned; NULL or no modes: a
 * rigid exciter, as before, bit for bit) heard at `level`.  Call again
 * after the body changes. */
void friction_set_body(friction* fr, modal_object* body, double level);
/* A bound on how fast the body's own ring is heard (0 without one). */
double friction_body_unrest(const friction* fr);
/* The natural frequency of the hand's hold on the exciter (velocity drive):
 * the compliance of a finger's flesh, a bow's hair, a pad's mounting. */
void friction_set_grip(friction* fr, double frequency);
/* Bow velocity (velocity drive) and external force (force drive) now; the
 * player's controls are smoothed by the caller. */
void friction_set_motion(friction* fr, double bow_velocity, double ext_force);
void friction_set_normal_force(friction* fr, double normal_force);
void friction_set_noise(friction* fr, double beta);

/* Run exciter and object for `frames` samples, adding scale * pickup
 * velocities to the outputs.  Bow velocity and normal force glide to the
 * values set (30 ms and 5 ms), so that automation never clicks.  Tell it when
 * the object's table changed. */
void friction_process(friction* fr, modal_object* o, int frames, float* out_l,
                      float* out_r, double scale);
void friction_object_changed(friction* fr);

/* Exciter and bristles back to rest (the object is left as it is). */
void friction_reset(friction* fr);
bool friction_is_finite(const friction* fr);

#endif
