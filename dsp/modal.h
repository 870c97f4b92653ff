/* SPDX-License-Identifier: ISC */
/*
 * Modal object ([ch8] 8.2): a bank of second-order modes driven by a force
 * at one interaction point and heard at two pickup points.
 *
 * Mode l obeys x'' + g x' + w^2 x = f / m_l ([ch8] eq 8.1), where x is the
 * mode's contribution to the displacement of the interaction point and
 * m_l = object mass / gain_l is the modal mass there ([ch8] 8.2.2).  The
 * interaction point moves by sum_l x_l ([ch8] eq 8.4 with t = 1).
 *
 * Each mode is discretised exactly: over a step h its free motion is the
 * exact flow, so the rendered modes ring at the table's frequency and 1/e
 * decay time at any rate, and a force held constant over the step enters
 * through the exact zero-order-hold response.  [ch8] 8.2.3 uses the
 * bilinear transform instead (eqs 8.5-8.7), whose pre-warped continuous
 * system differs for every step size; the contact integrator changes step
 * size (sub-steps), and each change then perturbed the modal energy by
 * O((w T)^2) - up to 0.5 % gained in one undamped impact at 44.1 kHz.  The
 * exact flow composes exactly over any steps (e^(A h)^m = e^(A m h)) and
 * conserves w^2 x^2 + x'^2 when undamped, so the coupled system stays
 * passive; it costs the same per sample.
 *
 * Pickups.  The left pickup is the interaction point p itself (weight 1
 * for every mode).  The right pickup is a second point q, heard through
 * each mode's shape ratio rho_l = phi_l(q) / phi_l(p)
 * (modal_set_pickup_shape(); a table's right_gain / gain).  By default q
 * is the mirror image of p across the object's centre: on an object
 * symmetric about its centre every mode is either even or odd under the
 * reflection, and in frequency order they alternate (strings, bars,
 * beams, and plates along one axis), so rho = (-1)^(i-1) for mode i
 * (1-based).  `width` blends the right pickup from the interaction point
 * (0, mono) to q (1): weight 1 + width (rho_l - 1).  While the ratios
 * alternate exactly the per-mode loops read the right pickup off the lanes
 * of the left one's sum (modal_kernels.h); otherwise they sum it.
 *
 * Mode shapes ([ch8] 8.2.2, shape.h).  modal_set_shapes() gives every
 * mode its shape's value phi_l at the interaction point p and at the two
 * pickups: the force then drives mode l with weight phi_l(p) (its gain
 * being 1 / modal mass where |phi_l| = 1), the point moves by
 * sum_l phi_l(p) x_l, and a pickup at q hears sum_l phi_l(q) v_l.  x and v
 * are then the modes' own coordinates, which do not depend on where the
 * object is touched: moving p or q re-weights the modes and keeps the
 * object's state (the same object touched elsewhere).  Without shapes
 * (`weighted` false: every phi_l(p) = 1) x_l is the mode's share of the
 * point's displacement and the loops are as they always were.
 *
 * All arrays are structure-of-arrays, padded to a multiple of MODAL_LANES
 * modes with inert modes, so the per-sample loops work on whole vectors.
 */
#ifndef CONTACT_MODAL_H
#define CONTACT_MODAL_H

#include <stdalign.h>
#include <stdbool.h>

enum {
  MODAL_MAX_MODES = 128,
  MODAL_LANES = 8, /* modes per vector in the per-mode loops */
};

/* Modes at or above this fraction of the sample rate are disabled. */
#define MODAL_MAX_FREQ_RATIO 0.45

/* One step of the modes ([ch8] eq 8.6 in form) for a given step size:
 * [x; v](n) = A [x; v](n-1) + b F, with F the force's average over the
 * step. */
typedef struct modal_coeffs {
  alignas(64) double a11[MODAL_MAX_MODES];
  alignas(64) double a12[MODAL_MAX_MODES];
  alignas(64) double a21[MODAL_MAX_MODES];
  alignas(64) double a22[MODAL_MAX_MODES];
  alignas(64) double bx[MODAL_MAX_MODES]; /* per newton, / m_l included */
  alignas(64) double bv[MODAL_MAX_MODES];
  double step;           /* s */
  double sum_bx, sum_bv; /* interaction point's instantaneous response */
  double sum_left_bv, sum_right_bv; /* the pickups' */
  double sum_next_bx, sum_next_bv;  /* one step later */
  double sum_left_next_bv, sum_right_next_bv;
} modal_coeffs;

typedef struct modal_object {
  alignas(64) double x[MODAL_MAX_MODES]; /* m, contribution to the point */
  alignas(64) double v[MODAL_MAX_MODES]; /* m/s */
  alignas(64) double pickup_r[MODAL_MAX_MODES]; /* right pickup weights */
  double pickup_shape[MODAL_MAX_MODES];         /* rho_l, as set */
  /* while `weighted`: phi_l at the interaction point and at the left
   * pickup, the bounds' weights |phi_l(p)| and max(|phi_l| at p and at
   * the pickups) w0 (modal_bounds_about()), and phi_l at the right
   * pickup as set (pickup_r blends it with the left by width) */
  alignas(64) double contact_w[MODAL_MAX_MODES];
  alignas(64) double pickup_l[MODAL_MAX_MODES];
  alignas(64) double reach_w[MODAL_MAX_MODES];
  alignas(64) double speed_w[MODAL_MAX_MODES];
  double shape_r[MODAL_MAX_MODES];
  double freq[MODAL_MAX_MODES];  /* Hz, as rendered (after transposition) */
  double decay[MODAL_MAX_MODES]; /* s, 1/e amplitude decay time */
  double gain[MODAL_MAX_MODES];  /* 1 / modal mass, relative to the mass */
  /* per mode, for modal_bounds_about() (0 for modes that are off): the
   * natural frequency w0 (rad/s), 1 / w0, and the static deflection per
   * newton at the point, gain / (mass w0^2) */
  alignas(64) double w0[MODAL_MAX_MODES];
  alignas(64) double inv_w0[MODAL_MAX_MODES];
  alignas(64) double deflection[MODAL_MAX_MODES];
  double compliance[MODAL_MAX_MODES]; /* the same where |phi| = 1 */
  modal_coeffs audio;                 /* step 1 / sample rate */
  double sample_rate;
  double mass;  /* kg */
  double width; /* stereo width of the pickups, 0..1 */
  /* max(1, max |pickup_r|): the pickups' speeds are at most this times
   * modal_bounds()' speed (a point q off a nodal line of p hears a mode
   * louder than p does) */
  double pickup_bound;
  /* the shapes in use alternate +1, -1 (the mirror point; with mode
   * shapes, the right pickup's phi alternates +-phi at the left): the
   * right pickup comes off the lanes of the left one's sums */
  bool pickup_alternating;
  bool weighted; /* mode shapes in use (modal_set_shapes()) */
  /* counts modal_set_shapes() and modal_clear_shapes(): a contact solver
   * that keeps coefficients of its own re-weighs them
   * (modal_coeffs_weigh()) and what it kept of the point when it moves */
  unsigned shapes_epoch;
  /* counts modal_update()s that changed a mode's natural frequency or
   * static compliance (a retune, a bend): the point may have moved */
  unsigned tune_epoch;
  int count; /* modes in the table */
  int n;     /* count rounded up to a multiple of MODAL_LANES */
} modal_object;

void modal_init(modal_object* o, double sample_rate);

/* Table edits take effect at the next modal_update(). */
void modal_set_mode(modal_object* o, int i, double freq, double decay,
                    double gain);
void modal_set_count(modal_object* o, int count);
void modal_set_mass(modal_object* o, double mass);
void modal_set_width(modal_object* o, double width);
/* Mode i's shape ratio phi_i(q) / phi_i(p) at the right pickup q; by
 * default (modal_init) the mirror point's +1, -1, ... */
void modal_set_pickup_shape(modal_object* o, int i, double rho);
/* That default for mode i: +1 for even i (0-based), -1 for odd. */
double modal_mirror_shape(int i);

/* Mode shapes at the interaction point and the pickups (see above):
 * contact[l], left[l], right[l] = phi_l at p, at the left pickup and at
 * the right pickup, for the first `count` modes (the right pickup heard
 * through width: phi_l(left) + width (phi_l(right) - phi_l(left))).
 * Takes effect at once, without modal_update(); the state is kept.  With
 * left and right NULL the pickups stay where they were (only the point
 * moved; not the first time).
 * modal_clear_shapes(): back to no shapes (modal_set_pickup_shape()'s
 * ratios apply again). */
void modal_set_shapes(modal_object* o, const double* contact,
                      const double* left, const double* right);
void modal_clear_shapes(modal_object* o);

/* Recompute the sums of coefficients for an arbitrary step (from
 * modal_coeffs_compute()) after the shapes changed: cheap, no
 * transcendental functions. */
void modal_coeffs_weigh(const modal_object* o, modal_coeffs* c);

/* Recompute the audio-rate coefficients and pickups; the state is kept, so
 * a ringing object changes pitch or decay without a click. */
void modal_update(modal_object* o);

/* Coefficients for an arbitrary step (the contact integrator's sub-steps). */
void modal_coeffs_compute(const modal_object* o, double step, modal_coeffs* c);

/* Free vibration over `frames` samples; adds scale * pickup velocity. */
void modal_ring(modal_object* o, int frames, float* out_l, float* out_r,
                double scale);
/* The same for o and a second object e heard at e_scale (a hammer's own
 * modes), in one pass over the
 * frames. */
void modal_ring_with(modal_object* o, modal_object* e, double e_scale,
                     int frames, float* out_l, float* out_r, double scale);

/* One step under contact force, in two halves (the K method, [ch8] 8.A.1):
 * the modes advance freely (modal_correct_predict() below, with the last
 * step's force) and give the interaction point's displacement and velocity
 * so far; correct() adds the response to the step's force once it is
 * known. */
void modal_correct(modal_object* o, const modal_coeffs* c, double force);
/* The same with the force's effect on the next step split off, so that a
 * contact solver need not wait for the pass over the modes: with the
 * arrays holding a step's free motion, and its force f not yet applied,
 * the next step's predicted point displacement, point velocity and right
 * pickup velocity are
 *     point_x + sum_next_bx f,  point_v + sum_next_bv f,
 *     right_v + sum_right_next_bv f
 * (and left_v + sum_left_next_bv f for the left pickup, which is the
 * point itself without shapes), where point_x, point_v, left_v, right_v
 * come from modal_next() (on the first step) or from the modal_advance()
 * of the step before (_point() when the displacement is wanted).
 * modal_advance() applies f and the free motion of the next step, and
 * returns them for the step after it.  modal_correct() applies the last
 * f. */
void modal_next(const modal_object* o, const modal_coeffs* c, double* point_x,
                double* point_v, double* left_v, double* right_v);
void modal_advance(modal_object* o, const modal_coeffs* c, double force,
                   double* point_v, double* left_v, double* right_v);
void modal_advance_point(modal_object* o, const modal_coeffs* c, double force,
                         double* point_x, double* point_v, double* left_v,
                         double* right_v);
/* modal_advance_point() that also bounds (modal_bounds()) the vibration
 * as f leaves it, before the free motion of the next step */
void modal_advance_bounds(modal_object* o, const modal_coeffs* c, double force,
                          double* point_x, double* point_v, double* left_v,
                          double* right_v, double* reach, double* speed);

/* Interaction point displacement and velocity now. */
void modal_point(const modal_object* o, double* point_x, double* point_v);

/* A body that may have modes of its own (an exciter: NULL or without
 * modes, a rigid one): whether it has, and its point's motion (0 if not). */
bool modal_has_modes(const modal_object* o);
void modal_point_if_any(const modal_object* o, double* point_x,
                        double* point_v);

/* Pickup velocities now (what modal_ring outputs per sample). */
void modal_pickups(const modal_object* o, double* left, double* right);

/* Upper bounds, during free vibration, of the interaction point's
 * displacement magnitude (reach) and velocity magnitude (speed); the
 * pickups' speeds by pickup_bound times `speed` (the left's weights are
 * 1, the right's |pickup_r|; with shapes `speed` bounds the pickups too,
 * and pickup_bound is 1).  _about(): of the vibration about the rest under
 * a static force at the point (a weight lying on it). */
void modal_bounds(const modal_object* o, double* reach, double* speed);
void modal_bounds_about(const modal_object* o, double static_force,
                        double* reach, double* speed);

/* 1 / sum(1 / m_l): the mass the interaction point shows to a short blow. */
double modal_point_mass(const modal_object* o);

/* Add the static deflection under a constant force at the interaction
 * point (as of a weight laid on it long ago); the vibration is kept. */
void modal_press(modal_object* o, double force);
/* At rest under a static force at the point: the static deflection only. */
void modal_settle(modal_object* o, double static_force);
void modal_reset(modal_object* o);
bool modal_is_finite(const modal_object* o);

/* modal_correct() with one step's force, then the free motion of the next
 * step, in one pass (force 0: the free motion alone); left_v, right_v
 * (unless NULL, both or neither): the pickups' predicted velocities. */
void modal_correct_predict(modal_object* o, const modal_coeffs* c, double force,
                           double* point_x, double* point_v, double* left_v,
                           double* right_v);

#endif
