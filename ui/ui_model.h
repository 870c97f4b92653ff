/* SPDX-License-Identifier: ISC */
/*
 * The mode editor's model: what the UI shows and how a gesture becomes a
 * port value, with no drawing, no X and no LV2 (unit-tested on its own,
 * tests/ui/test_ui_model.c).  The view (contact_ui.c) draws what these
 * functions place and sends what they compute.
 *
 * Everything is built from the instruments' own port tables (port_info.h):
 * a port's range, log scale and unit decide its axis and its drag, so a
 * new port needs no code here.
 */
#ifndef CONTACT_UI_MODEL_H
#define CONTACT_UI_MODEL_H

#include "felt.h"
#include "port_info.h"
#include "shape.h"

#include <stdbool.h>

/* ---- axes ---------------------------------------------------------------
 * A value range laid along a pixel range, linearly or logarithmically
 * (log when the port is PORT_LOG, or for frequency and decay axes). */
typedef struct ui_axis {
  double lo, hi;   /* values at px0 and px1; lo, hi > 0 when log */
  double px0, px1; /* pixels (px1 < px0 for a vertical axis upwards) */
  bool log;
} ui_axis;

ui_axis ui_axis_of_port(const port_info* p, double px0, double px1);
double ui_axis_to_px(const ui_axis* a, double value);
double ui_axis_from_px(const ui_axis* a, double px);

/* ---- the mode editor ----------------------------------------------------
 * Modes as bars on a log-frequency axis: x at the frequency, height the
 * gain, colour the decay (as q = pi f t_e, its material class). */
typedef struct ui_mode {
  double freq;  /* Hz */
  double decay; /* s, 1/e */
  double gain;  /* port units (0..max) */
  bool enabled;
} ui_mode;

typedef struct ui_rect {
  double x, y, w, h;
} ui_rect;

typedef struct ui_mode_view {
  ui_rect area;     /* the plot */
  ui_axis freq;     /* x: Hz, log */
  ui_axis gain;     /* y: gain, bottom to top */
  double bar_width; /* px */
} ui_mode_view;

/* The editor's axes for the plot `area`, from the ports' own ranges (the
 * mode frequency and gain ports of object_ports). */
ui_mode_view ui_mode_view_make(ui_rect area, const port_info* freq_port,
                               const port_info* gain_port);
ui_rect ui_mode_bar(const ui_mode_view* v, const ui_mode* m);

/* The mode whose bar is under (x, y), or nearest within `slop` px of it
 * horizontally; `selected` wins ties (so a selected bar stays grabbed over
 * a neighbour); -1 for none. */
int ui_mode_hit(const ui_mode_view* v, const ui_mode* modes, int n, double x,
                double y, double slop, int selected);

/* ---- gestures -> port values --------------------------------------------
 * A drag of d_px pixels along an axis from the value at the press: the
 * value under the pointer, clamped to the port's range (and rounded for
 * PORT_INTEGER).  Scroll steps (+1 up, -1 down) change a value by
 * ui_scroll_ratio per step on log ports, by 1/50 of the range on linear
 * ones, clamped likewise. */
double ui_drag_value(const ui_axis* a, const port_info* p, double start,
                     double d_px);
double ui_scroll_value(const port_info* p, double value, int steps);
double ui_clamp_to_port(const port_info* p, double value);
extern const double ui_scroll_ratio;

/* What a port value is multiplied by to be in SI units, from its unit
 * (grams, mm, ms, um, mm/s: 1e-3 or 1e-6; 1 otherwise): the hammer's
 * mass, the ball's radius, the Stribeck velocity of the panels below. */
double ui_port_si_scale(const port_info* p);

/* ---- material map ([ch5] fig 5.7, table 5.2; [material] table 2) --------
 * The decay-against-frequency plane with the regions where listeners hear
 * rubber, wood, glass and steel, by q = pi f t_e. */
typedef enum ui_material {
  UI_RUBBER,
  UI_WOOD,
  UI_GLASS,
  UI_STEEL,
  UI_MATERIALS
} ui_material;

typedef struct ui_material_range {
  const char* name;
  double q_lo, q_hi; /* [material] table 2 */
} ui_material_range;

extern const ui_material_range ui_materials[UI_MATERIALS];

double ui_mode_q(const ui_mode* m);
/* The material the object sounds like: the one whose q range holds the
 * gain-weighted geometric mean q of the enabled modes (nearest on a log
 * scale where ranges overlap or none holds it); *q_out gets that q.  With
 * no enabled mode of gain > 0, q is 0 and the material UI_RUBBER. */
ui_material ui_classify(const ui_mode* modes, int n, double* q_out);

/* ---- contact panels -----------------------------------------------------
 * impact: the contact time and rebound velocity the closed forms of
 * dsp/closed_form predict for the current hammer at impact velocity v
 * ([ch5] eq 9 for the undamped time, [papetti] with damping). */
typedef struct ui_hammer {
  double mass;      /* kg (the port's grams converted) */
  double stiffness; /* N/m^alpha */
  double alpha;
  double mu; /* s/m */
} ui_hammer;

double ui_contact_time(const ui_hammer* h, double v);
double ui_rebound_velocity(const ui_hammer* h, double v);

/* friction: the steady sliding force against slip velocity, the Stribeck
 * curve of [ch8] eq 8.17 f(v) = f_N (mu_d + (mu_s - mu_d) e^{-(v/v_s)^2})
 * (plus sigma2 v), as dsp/friction computes it */
typedef struct ui_stribeck {
  double normal_force; /* N */
  double mu_s, mu_d;
  double stribeck; /* v_s, m/s */
  double sigma2;   /* N s/m */
} ui_stribeck;

double ui_stribeck_force(const ui_stribeck* s, double v);

/* rolling: the surface profile's spectrum as dsp/surface makes it (slope
 * 1/k^beta, RMS depth) and the ball's cut-off, the wavenumber above which
 * a ball of radius R no longer follows the profile */
typedef struct ui_surface {
  double beta;   /* roughness exponent */
  double depth;  /* m, RMS */
  double radius; /* m, of the ball */
  double speed;  /* m/s */
} ui_surface;

/* the profile's amplitude spectrum at temporal frequency f (Hz) for the
 * ball's speed, relative to its level at 100 Hz, in dB; and the frequency
 * where the ball's size cuts it off */
double ui_surface_level_db(const ui_surface* s, double f);
double ui_surface_cutoff_hz(const ui_surface* s);

/* impact with a felt ([borin] eq 1, dsp/felt.h): the compression of a
 * blow at velocity v of a hammer of mass m (kg) on a rigid object, where
 * the felt's potential has taken the hammer's kinetic energy m v^2 / 2
 * (no loss: the deepest the static felt is pressed by that blow). */
double ui_felt_blow_compression(const felt_law* law, double mass, double v);

/* A hysteretic felt's loop ([borin] 5, dsp/felt.h): its force along a
 * compression to x_max and back, x(t) = x_max sin(pi t / duration),
 * stepped as the contact steps it (felt_step_of(), felt_step_force(),
 * felt_step_memory()) in n steps (n even) from a relaxed felt: x[0..n],
 * f[0..n], f[k] the step's force into x[k] (f[0] = 0).  Step n + 1 - k of
 * the release spans step k's compressions backwards; with epsilon 0 the
 * two forces are equal (the static law both ways), with epsilon > 0 the
 * release is the lower: the loop's area is the energy the felt takes. */
void ui_felt_loop(const felt_law* law, double x_max, double duration, int n,
                  double* x, double* f);

/* ---- the object's shape (dsp/shape.h, dsp/place.h) ------------------------
 * The object panel draws the object in a rectangle: a 1-D object
 * (string, bar, a table's shapes along x) as a horizontal strip, x from 0
 * at its left end to 1 at its right (a cantilever clamped at the left); a
 * plate (or a table's grid) as a square, x to the right and y upwards; a
 * membrane as a disc, x its radius and y the angle in turns, 0 to the
 * left (where the left pickup lies), a quarter turn up, half a turn to
 * the right (the right pickup).  The contact point and the two pickups
 * are handles: on a strip the point above it and the pickups below it,
 * on a square or a disc where they are (the pickups along x at
 * PLACE_PICKUP_Y and 1 - PLACE_PICKUP_Y, or at angles 0 and 1/2, as
 * dsp/place puts them). */
typedef enum ui_shape_kind {
  UI_SHAPE_STRIP,
  UI_SHAPE_SQUARE,
  UI_SHAPE_DISC
} ui_shape_kind;

typedef struct ui_shape_view {
  ui_shape_kind kind;
  bool clamped;       /* a cantilever: clamped at x = 0, drawn at the left */
  ui_rect area;       /* where the object and its handles are drawn */
  ui_rect body;       /* the strip, the square, the disc's bounding square */
  double amplitude;   /* strip: px of a deflection |phi| = 1 */
  double handle_y[2]; /* strip: the point's row above, the pickups' below */
} ui_shape_view;

/* The view of a family's object in `area` (is_2d: a table's grid is a
 * square; the analytic families know their own). */
ui_shape_view ui_shape_view_make(ui_rect area, shape_family f, bool is_2d);
/* Object coordinates (x along, y across: shape.h's) to pixels, and back
 * (clamped into the object: x, y in [0, 1], a disc's angle in [0, 1)). */
void ui_shape_to_px(const ui_shape_view* v, double x, double y, double* px,
                    double* py);
void ui_shape_from_px(const ui_shape_view* v, double px, double py, double* x,
                      double* y);
/* Whether a pixel is on the object (a disc's inside, a square's, the
 * strip's length) */
bool ui_shape_inside(const ui_shape_view* v, double px, double py);

typedef enum ui_handle {
  UI_HANDLE_POINT, /* where the object is struck, rubbed, rolled on */
  UI_HANDLE_LEFT,  /* the left pickup */
  UI_HANDLE_RIGHT, /* the right pickup */
  UI_HANDLES
} ui_handle;

/* The place ports' values: the point (x, y) and the pickups along x. */
typedef struct ui_place {
  double x, y, left, right;
} ui_place;

/* The object coordinates of a handle (a pickup's y: its row or angle). */
void ui_handle_coords(const ui_shape_view* v, const ui_place* p, ui_handle h,
                      double* x, double* y);
void ui_handle_px(const ui_shape_view* v, const ui_place* p, ui_handle h,
                  double* px, double* py);
/* The handle within `radius` px of (px, py), the nearest (the point on a
 * tie), or -1. */
int ui_handle_hit(const ui_shape_view* v, const ui_place* p, double px,
                  double py, double radius);
/* The place after handle h was dragged (dx, dy) px from where it was at
 * the press (`start`): the point to the object coordinates under it (on a
 * strip x only: it moves by the dragged fraction of the strip), a pickup
 * along its line (x on a strip or a square, its radius on a disc). */
ui_place ui_handle_drag(const ui_shape_view* v, const ui_place* start,
                        ui_handle h, double dx, double dy);

/* What mode n is heard at: |phi(point)| times the mean of the two
 * outputs' |phi| (the right one width of the way from the left pickup
 * to the right, as dsp/modal mixes it), 1 where every phi is 1. */
double ui_heard_weight(double phi_point, double phi_left, double phi_right,
                       double width);

/* The nodes of mode n of a 1-D set along x (inside (0, 1): not fixed
 * ends), ascending, at most `max`; how many. */
int ui_shape_nodes(const shape_set* s, int n, double* x, int max);

/* The zero contour of a grid cell (marching squares): corner values c[0]
 * at (0, 0), c[1] at (1, 0), c[2] at (1, 1), c[3] at (0, 1); up to two
 * segments x0 y0 x1 y1 in the cell's own coordinates (a saddle split by
 * the centre's sign); how many (none when a corner is not a number). */
int ui_zero_segments(const double c[4], double seg[2][4]);

/* ---- the window -----------------------------------------------------------
 * One fixed layout in logical pixels (the view multiplies them by the
 * screen's scale): 880 x 460 at 100 %, 1760 x 920 at 200 %, which leaves
 * a 1080p screen 160 px for the host's title bar and toolbar. */
enum { UI_WIDTH = 880, UI_HEIGHT = 460 };

typedef struct ui_layout {
  ui_rect header;                  /* name, table path, buttons */
  ui_rect object;                  /* the object's shape and its place */
  ui_rect path_field, load, clear; /* the table file's path and buttons */
  ui_rect analyse;                 /* analyse the recording in the field */
  ui_rect undo;                    /* undo the last edit */
  ui_rect modes, modes_plot;       /* the mode editor and its plot */
  ui_rect exciter_plot; /* the exciter's modes, under the object's on the
                         * same frequency axis (no height without one) */
  ui_rect material, material_plot; /* the material map and its plot */
  ui_rect contact, contact_plot;   /* the instrument's contact panel */
  ui_rect params;                  /* the ports as a list of sliders */
} ui_layout;

/* `exciter`: the instrument's exciter has modes of its own (exciter_ports.h),
 * drawn as a smaller bar set under the object's. */
ui_layout ui_layout_make(bool exciter);

/* The object panel with `rows` parameter rows at its foot: the rows, and
 * the area above them where the object is drawn. */
ui_rect ui_object_row(const ui_layout* l, int rows, int k);
ui_rect ui_object_area(const ui_layout* l, int rows);

/* The parameter list: rows of a name, a value and a slider, in two
 * columns; row k's rectangle, and how many rows fit. */
enum { UI_PARAM_ROW_HEIGHT = 13 };
int ui_param_capacity(const ui_layout* l);
ui_rect ui_param_row(const ui_layout* l, int k);
/* the slider's part of a row (the rest is the name and the value) */
ui_rect ui_param_slider(ui_rect row);
/* The row under (x, y), or -1. */
int ui_param_hit(const ui_layout* l, int n_rows, double x, double y);
bool ui_rect_contains(ui_rect r, double x, double y);

#endif
