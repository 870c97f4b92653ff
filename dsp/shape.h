/* SPDX-License-Identifier: ISC */
/*
 * Mode shapes ([ch8] 8.2.2): where an object is touched and heard.
 *
 * Mode n of an object has a shape phi_n over the object.  A force F at
 * point p drives the mode with phi_n(p) F / m_n, and a pickup at q hears
 * phi_n(q) times the mode's motion (the matrix M(l, j) of [ch8] 8.2.2 has
 * one row per interaction point).  Coordinates are normalised: x in [0, 1]
 * along the object (the radius for a membrane, 0 at the centre, 1 at the
 * rim), y in [0, 1] across it (the angle for a membrane, in turns).
 * One-dimensional families ignore y.
 *
 * Analytic families (shape_exact()) are normalised so that max |phi_n|
 * over the object is 1: a mode's gain is then its weight at the point
 * where it moves most.  Mode n (0-based) is the n-th in frequency order:
 *   string          sin((n+1) pi x)                       (fixed ends)
 *   free-free bar   Euler-Bernoulli beam, free ends
 *   clamped-free    Euler-Bernoulli cantilever, clamped at x = 0
 *   membrane        J_m(j_mk x) cos(2 pi m y), fixed rim, one row per
 *                   (m, k) in order of j_mk: the orientation the strike
 *                   excites (the other one of a pair, sin(m theta), is
 *                   not driven by a strike at angle 0 and is left out)
 *   plate           sin(a pi x) sin(b pi y), simply supported square, in
 *                   order of a^2 + b^2, then a; (a, b) and (b, a) are two
 *                   modes of the same frequency
 * Signs: the string's and the plate's as written (positive near x = 0),
 * the free-free bar's positive at x = 0, the cantilever's at its tip
 * x = 1, the membrane's positive at the centre side of its first nodal
 * circle along y = 0.
 * Their frequency ratios (shape_ratio()) are what a table or the mode ports
 * may follow; the plugins take frequencies from the modes as given.
 *
 * Evaluating a shape where it is played must be cheap (a moving contact
 * point re-weights the modes every few samples): a shape_set holds a
 * family's, or a table's sampled, shapes prepared for fast interpolation.
 * It is built off the audio thread (it allocates) and read-only after.
 */
#ifndef CONTACT_SHAPE_H
#define CONTACT_SHAPE_H

#include <stdbool.h>

typedef enum shape_family {
  SHAPE_NONE,        /* no shapes: the modes' gains as given */
  SHAPE_STRING,      /* ideal string, fixed ends */
  SHAPE_BAR_FREE,    /* free-free bar */
  SHAPE_BAR_CLAMPED, /* clamped-free bar (cantilever), clamped at x = 0 */
  SHAPE_MEMBRANE,    /* circular membrane, fixed rim */
  SHAPE_PLATE,       /* simply supported square plate */
  SHAPE_TABLE,       /* the shapes a modal table file carries */
  SHAPE_FAMILIES
} shape_family;

/* Most modes a shape set holds (MODAL_MAX_MODES). */
enum { SHAPE_MAX_MODES = 128 };

/* "none", "string", "free-free bar", ... */
const char* shape_family_name(shape_family f);

/* Whether y matters (membrane, plate; a table whose grid has rows).  For
 * SHAPE_TABLE false: whether a table's grid has rows is its set's
 * (shape_set_is_2d()). */
bool shape_family_is_2d(shape_family f);

/* phi_n(x, y) of an analytic family, to double precision (libm); 1 for
 * SHAPE_NONE, 0 for SHAPE_TABLE.  x and y are clamped to [0, 1].  n counts
 * from 0; the membrane's and the plate's modes stop at SHAPE_MAX_MODES - 1
 * (0 past them, as for n < 0).  Not real-time: a membrane mode works out
 * the zeros of J_m up to its own (tens of us). */
double shape_exact(shape_family f, int n, double x, double y);

/* phi_0 .. phi_{count-1} at (x, y) into phi, as shape_exact() gives them
 * one by one, with the family's mode table worked out once (tests, and
 * whatever needs many modes exactly; slow-ish, not real-time). */
void shape_exact_modes(shape_family f, int count, double x, double y,
                       double* phi);

/* f_n / f_0 of an analytic family (1 for n = 0); 0 for none and table
 * (and for the modes shape_exact() gives 0). */
double shape_ratio(shape_family f, int n);

typedef struct shape_set shape_set;

/* The first `modes` shapes of an analytic family, prepared: within 1e-4
 * of shape_exact() everywhere (allocates; NULL on failure or for
 * none/table). */
shape_set* shape_set_new_family(shape_family f, int modes);

/* Shapes sampled on a grid: samples[(n * ny + j) * nx + i] is phi_n at
 * x = i / (nx - 1), y = j / (ny - 1) (ny = 1: along x only, nx >= 2);
 * between samples a smooth (C2) cubic spline interpolant: the natural
 * spline along x, its tensor product on a grid (allocates; NULL on
 * failure: modes outside 1 .. SHAPE_MAX_MODES, nx < 2, ny < 1, no samples
 * or one not finite). */
shape_set* shape_set_new_sampled(int modes, int nx, int ny,
                                 const double* samples);

void shape_set_free(shape_set* s);

int shape_set_modes(const shape_set* s);
bool shape_set_is_2d(const shape_set* s);

/* phi_n(x, y) for n = 0 .. count - 1 into phi (count <= the set's modes;
 * x, y clamped to [0, 1]).  Real-time safe: no allocation, no locks,
 * bounded work of O(count). */
void shape_set_eval(const shape_set* s, double x, double y, int count,
                    double* phi);

#endif
