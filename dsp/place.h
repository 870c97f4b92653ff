/* SPDX-License-Identifier: ISC */
/*
 * Where a voice's object is touched and heard ([ch8] 8.2.2): the
 * interaction point (where the hammer strikes, the bow rubs, the ball
 * touches) and the two pickups, on an object whose modes have shapes
 * (shape.h); the modes' weights there go to the object through
 * modal_set_shapes().
 *
 * Moves glide: the points approach their targets by a one-pole of
 * PLACE_GLIDE_S, the weights re-evaluated every PLACE_UPDATE samples while
 * a pickup moves and every PLACE_POINT_UPDATE while only the interaction
 * point does (a contact moved a few metres a second, a glide, a path), so
 * that moving a pickup or the point of a rubbed or rolling contact never
 * clicks.  A jump (a strike landing elsewhere) moves the point at once.
 * Updates fall on the samples of a fixed grid of the caller's clock, so
 * the output does not depend on how the caller splits its blocks.
 *
 * Coordinates are the shapes': x along (a membrane's radius), y across (a
 * membrane's angle, in turns).  The pickups lie along x: on a plate at
 * y = PLACE_PICKUP_Y (left) and 1 - PLACE_PICKUP_Y (right), on a membrane
 * at angle 0 (left) and half a turn (right), so that with the right one
 * at 1 - x of the left it is the left's mirror image through the centre.
 *
 * A path moves the interaction point with the distance a rolling ball
 * travels (rolling.h): *across* the object and back (x from the set
 * point, reflected at the ends, at travel / length), or on a *circle*
 * about the centre of a plate or membrane whose radius is the set x (as a
 * fraction of the half-width) from the angle 2 pi y.  On a 1-D object a
 * circle goes across.
 */
#ifndef CONTACT_PLACE_H
#define CONTACT_PLACE_H

#include "modal.h"
#include "shape.h"

#include <stdbool.h>
#include <stdint.h>

/* samples between updates of a moving point's weights: a power of two,
 * dividing the instruments' chunk (a ball at 1 m/s on a 0.5 m bar moves
 * 1/3000 of it between updates at 48 kHz) */
enum { PLACE_UPDATE = 8 };
/* the same for the interaction point alone: its weights are not heard
 * directly, but through the contact (a position jumped at once does not
 * click), so it moves on a coarser grid, a multiple of PLACE_UPDATE (a
 * ball at 1 m/s on a 0.5 m bar moves 1/400 of it between updates) */
enum { PLACE_POINT_UPDATE = 64 };

/* 1/e time of a glide, s: each update then moves the weights by 1/60 of
 * the way at 48 kHz, a step below a ringing note's own from one sample to
 * the next (test_plugin_moves; a 3 ms glide's 1/18 still clicked) */
#define PLACE_GLIDE_S 10e-3

/* the pickups' y on a plate or a 2-D table: off the low modes' nodal lines
 * (0.5 is a node of every mode with b even) */
#define PLACE_PICKUP_Y 0.38

typedef enum place_path {
  PLACE_FIXED,  /* the point stays where it is set */
  PLACE_ACROSS, /* across the object and back, with the travel */
  PLACE_CIRCLE, /* round the centre (plate, membrane), with the travel */
  PLACE_PATHS
} place_path;

typedef struct place {
  const shape_set* shapes; /* NULL: no shapes (the modes' gains as given) */
  shape_family family;
  bool is_2d;
  double x, y, x_to, y_to;  /* the interaction point, its target */
  double left, right;       /* the pickups along x */
  double left_to, right_to; /* their targets */
  place_path path;
  double length;      /* m, the object's length (diameter) along x */
  double path_start;  /* m, the travel when the path started */
  double glide;       /* one update's share of the way to the target */
  double point_glide; /* the same on the point's grid */
  int countdown;      /* samples to the next update */
  bool stale;         /* the weights are to be evaluated again */
  double phi_p[SHAPE_MAX_MODES], phi_l[SHAPE_MAX_MODES], phi_r[SHAPE_MAX_MODES];
} place;

void place_init(place* p, double sample_rate);

/* The shapes (NULL: none; the set outlives the place's use of it). */
void place_set_shapes(place* p, shape_family family, const shape_set* shapes);

/* Move the interaction point: at once (jump) or gliding. */
void place_set_point(place* p, double x, double y, bool jump);
/* Move the pickups (positions along x), gliding unless jump. */
void place_set_pickups(place* p, double left, double right, bool jump);
/* The path and the object's length (m); `travel` (m) is where the
 * travelling exciter is now: a new path (or any, with `restart`) starts
 * from the set point there. */
void place_set_path(place* p, place_path path, double length, double travel,
                    bool restart);

/* Where the interaction point is now on its path, for the travel `travel`
 * (m): (x, y) in the shapes' coordinates. */
void place_point_at(const place* p, double travel, double* x, double* y);

/* Whether the weights change over time (a glide or a path; the point's
 * only with `point`), or are to be worked out again (new shapes). */
bool place_moving(const place* p, bool point);

/* Samples to the next update, counted from `clock` (the caller's sample
 * clock): to the next multiple of PLACE_UPDATE while a pickup moves, of
 * PLACE_POINT_UPDATE while the point alone does; else `limit`.  With
 * `point` false the point's moves wait (nothing touches the object, and
 * whatever touches it next is placed by place_apply()). */
int place_until_update(const place* p, uint64_t clock, int limit, bool point);

/* At an update (`clock` on the PLACE_UPDATE grid, the place moving): glide
 * one step (the point only with `point`), follow the path to `travel` and
 * give the object its modes' new weights (modal_set_shapes()). */
void place_step(place* p, modal_object* o, double travel, uint64_t clock,
                bool point);

/* Whenever the object or the place changed at once (a note, a retune):
 * the object's weights where the place is now (modal_clear_shapes() when
 * it has no shapes). */
void place_apply(place* p, modal_object* o, double travel);

#endif
