/* SPDX-License-Identifier: ISC */
/*
 * What the UI holds: the plugin's live port values, the modal table file
 * it plays, and the editing state.  contact_ui.c keeps it up to date from
 * the host and the pointer; ui_draw.c draws it.
 */
#ifndef CONTACT_UI_STATE_H
#define CONTACT_UI_STATE_H

#include "exciter_ports.h"
#include "friction_ports.h"
#include "impact_ports.h"
#include "modal_table.h"
#include "object_ports.h"
#include "place_ports.h"
#include "port_info.h"
#include "rolling_ports.h"
#include "shape.h"
#include "ui_analysis.h"
#include "ui_model.h"

#include <cairo.h>
#include <limits.h>
#include <stdbool.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The most ports of any instrument, from their port tables (own,
 * object, notify, place and the tails: ui_state_init() checks it). */
#define UI_MAX2(a, b) ((int)(a) > (int)(b) ? (int)(a) : (int)(b))
enum {
  UI_MAX_PORTS =
      UI_MAX2(IMPACT_N_PORTS, UI_MAX2(FRICTION_N_PORTS, ROLLING_N_PORTS))
};
/* Edits undone by undo, newest first (a gesture is one edit). */
enum { UI_UNDO_DEPTH = 64 };
/* Ports one edit may change (a mode's gain and the mode count). */
enum { UI_EDIT_PORTS = 3 };
/* Points of the contact panel's curves, and steps of a felt's loop. */
enum { UI_CURVE_POINTS = 96, UI_FELT_LOOP = 2 * UI_CURVE_POINTS };
/* The object panel's picture of a mode: samples along a strip, texels
 * of a square or a disc's square (a disc's corners are NAN), and the
 * most nodes marked on a strip. */
enum { UI_STRIP_POINTS = 161, UI_MAP_SIZE = 64, UI_MAX_NODES = 160 };
/* Paths offered to complete the table field: recent and shipped. */
enum { UI_RECENT = 8, UI_CHOICES = 8 };

typedef enum ui_panel {
  UI_PANEL_IMPACT,
  UI_PANEL_FRICTION,
  UI_PANEL_ROLLING
} ui_panel;

typedef struct ui_edit {
  int n;
  int port[UI_EDIT_PORTS];
  float before[UI_EDIT_PORTS];
} ui_edit;

typedef enum ui_drag_kind {
  UI_DRAG_NONE,
  UI_DRAG_MODE,
  UI_DRAG_PARAM,
  UI_DRAG_HANDLE,
  UI_DRAG_EXCITER
} ui_drag_kind;

typedef struct ui_drag {
  ui_drag_kind kind;
  int index;      /* mode, exciter mode, parameter row, or handle (ui_handle) */
  double x0, y0;  /* where the press was */
  float start[2]; /* values at the press: freq and gain, or the port's */
  ui_place place; /* a handle's: the place at the press */
  bool moved;
} ui_drag;

typedef struct ui_state {
  const plugin_info* plugin;
  ui_panel panel;
  int n_ports;
  int object; /* index of the first object port */
  float value[UI_MAX_PORTS];
  ui_layout layout;

  /* the modal table file the plugin plays ("" : the mode ports) */
  char table_path[PATH_MAX];
  modal_table table;
  bool table_loaded;

  /* what the editor shows, rebuilt when a mode port or the table changes */
  ui_mode modes[OBJECT_MAX_MODES];
  int n_modes;
  bool modes_stale;
  ui_material material;
  double q;

  /* the exciter's own modes (exciter_ports.h), from `exciter` (the
   * exciter_modes port) on, or -1 without; always its ports (editable) */
  int exciter;
  ui_mode exciter_modes[EXCITER_MAX_MODES];
  int n_exciter; /* bars: EXCITER_MAX_MODES with an exciter, else 0 */
  int exciter_taking_part;
  int exciter_selected; /* exciter mode, or -1 */
  bool exciter_stale;

  /* the contact panel's predicted curve, rebuilt when its ports change */
  double curve_x[UI_CURVE_POINTS], curve_y[UI_CURVE_POINTS],
      curve_y2[UI_CURVE_POINTS];
  double cutoff; /* rolling: the ball's cut-off, Hz */
  bool curve_stale;
  /* impact with a felt (the contact_law port, `law` on, or -1 without):
   * the curve is the felt's static force (N) against compression (m)
   * instead, felt_blow the compressions of the softest and strongest
   * blows, and the loop a hysteretic felt traces in the strongest blow
   * (ui_felt_loop(); none, n_felt_loop 0, while the ports offer no
   * hysteresis: epsilon is 0) */
  int law;
  bool felt_curve;
  felt_law felt;
  double felt_blow[2];
  double felt_loop_x[UI_FELT_LOOP + 1], felt_loop_f[UI_FELT_LOOP + 1];
  int n_felt_loop;

  /* the parameter rows: port indices, in table order; the first n_list
   * in the list, the rest (the place group's, but for the handles) at
   * the foot of the object panel */
  int param_port[UI_MAX_PORTS];
  int n_params, n_list;

  /* the object panel: the place ports (place_ports.h) from `place` on,
   * the shapes they choose, and what the panel and the bars show */
  int place;
  shape_set* family_shapes;  /* the family's, built when first shown */
  shape_family family_built; /* which family family_shapes holds */
  shape_set* table_shapes;   /* the table file's, or NULL */
  bool shapes_stale;
  shape_family family; /* what the shapes are: SHAPE_NONE without */
  const shape_set* shapes;
  bool is_2d;
  double weight[OBJECT_MAX_MODES]; /* heard at the place (ui_heard_weight) */
  int pictured;                    /* the mode pictured, -1 for none yet */
  const shape_set* pictured_shapes;
  double strip[UI_STRIP_POINTS];         /* phi / peak along a strip */
  double map[UI_MAP_SIZE * UI_MAP_SIZE]; /* phi / peak, rows top down */
  double nodes[UI_MAX_NODES];
  int n_nodes;

  /* editing */
  int selected; /* mode, or -1 */
  int hovered_param;
  ui_drag drag;
  ui_edit undo[UI_UNDO_DEPTH];
  int n_undo;
  bool editing;                           /* between begin and end of an edit */
  float disabled_gain[OBJECT_TABLE_SIZE]; /* a disabled mode's gain */
  double last_press_time;
  int last_press_mode;

  /* a recording being analysed (its progress 0..1), and the decay
   * spectrum of the one `spectrum_table` came from, drawn under the modes
   * while that table is shown */
  bool analysing;
  double analysis_progress;
  char spectrum_table[PATH_MAX];
  float spectrum[UI_SPECTRUM_POINTS];
  /* the table path field */
  char field[PATH_MAX];
  bool field_focus;
  char recent[UI_RECENT][PATH_MAX];
  int n_recent;
  char choice[UI_CHOICES][PATH_MAX]; /* completions on show */
  int n_choices;
  char bundle_path[PATH_MAX];

  char status[256]; /* the last message, shown in the header */

  /* where an edit's values go (the plugin, through the host) */
  void (*writer)(void* handle, int port, float value);
  void* writer_handle;
} ui_state;

/* A state for `plugin` at its ports' defaults, with no table; and what
 * it holds freed (the shapes it built), before it goes or is made again. */
void ui_state_init(ui_state* s, const plugin_info* plugin);
void ui_state_free(ui_state* s);

/* The port index of `symbol`, or -1. */
int ui_port_index(const ui_state* s, const char* symbol);
/* The port's live value, or its default when the instrument has none. */
double ui_value(const ui_state* s, const char* symbol);
const port_info* ui_port(const ui_state* s, int index);

/* Rebuild the editor's modes and material, the contact curves and the
 * object's picture, when stale: ui_state_port_changed() marks what a
 * port's new value makes stale, and says which parts of the window show
 * it (enum ui_area). */
void ui_state_refresh(ui_state* s);
unsigned ui_state_port_changed(ui_state* s, int index);

/* ---- the object panel ------------------------------------------------------
 * The table file's shapes (NULL or none: the file carries none), for the
 * "Table's shapes" family. */
void ui_state_set_table_shapes(ui_state* s, const modal_shapes* shapes);
/* the view of the object as the shape port chooses it, the place as the
 * ports set it, and the mode pictured (the selected one, else the first) */
ui_shape_view ui_state_shape_view(const ui_state* s);
ui_place ui_state_place(const ui_state* s);
int ui_state_pictured_mode(const ui_state* s);
/* the port a handle sets, and the place's ports a drag of handle h by
 * (dx, dy) px from `start` sets (within an edit) */
int ui_state_handle_port(const ui_state* s, ui_handle h);
void ui_state_drag_handle(ui_state* s, ui_handle h, const ui_place* start,
                          double dx, double dy);

/* The parameter rows, in the list and the object panel: row k's
 * rectangle, and the row under (x, y) or -1. */
ui_rect ui_state_param_row(const ui_state* s, int k);
int ui_state_param_hit(const ui_state* s, double x, double y);

/* ---- edits ----------------------------------------------------------------
 * A gesture is one edit: begin, set ports (each value goes to the writer
 * and the port's value before the edit is kept), end.  An edit that left
 * every port as it was is dropped; the last UI_UNDO_DEPTH are kept. */
void ui_state_begin_edit(ui_state* s);
void ui_state_edit_port(ui_state* s, int port, float value);
void ui_state_end_edit(ui_state* s);
/* Take back the last edit (false: nothing to undo). */
bool ui_state_undo(ui_state* s);
/* A mode of the ports sounds or is left out: its gain to 0 and back
 * (raising the `modes` count when the mode was past it).  One edit. */
void ui_state_toggle_mode(ui_state* s, int m);

/* the mode editor's axes in the window */
ui_mode_view ui_state_mode_view(const ui_state* s);
/* the exciter's bars' axes (the object's frequency axis, in its strip) */
ui_mode_view ui_state_exciter_view(const ui_state* s);
/* The exciter's mode whose bar is under (x, y) (within the slop), made the
 * selected one (the object's mode unselected); -1 for none (then nothing
 * changes). */
int ui_state_select_exciter(ui_state* s, double x, double y, double slop);
/* exciter mode m's frequency and gain after a drag of (dx, dy) px from
 * their values at the press, `start` (within an edit) */
void ui_state_drag_exciter(ui_state* s, int m, const float start[2], double dx,
                           double dy);
/* the port of exciter mode m's frequency (k 0), decay (1) or gain (2) */
int ui_state_exciter_port(const ui_state* s, int m, int k);
/* whether port i is one of the exciter's mode ports (shown as its bars) */
bool ui_state_is_exciter_mode_port(const ui_state* s, int i);
/* whether the shown modes are the mode ports (editable) or a table file */
bool ui_state_editable(const ui_state* s);

/* The parts of the window, to draw again what a change touches. */
enum ui_area {
  UI_AREA_HEADER = 1u << 0,
  UI_AREA_MODES = 1u << 1,
  UI_AREA_MATERIAL = 1u << 2,
  UI_AREA_CONTACT = 1u << 3,
  UI_AREA_PARAMS = 1u << 4,
  UI_AREA_OBJECT = 1u << 5,
  UI_AREA_ALL = (1u << 6) - 1,
};
ui_rect ui_area_rect(const ui_state* s, unsigned area_bit);

/* Draw the parts of the window that meet the area `clip`. */
void ui_draw(const ui_state* s, cairo_t* cr, ui_rect clip);

#endif
