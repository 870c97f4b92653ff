/* SPDX-License-Identifier: ISC */
/*
 * What the UI holds: the plugin's live port values, the modal table file
 * it plays, and the editing state.  contact_ui.c keeps it up to date from
 * the host and the pointer; ui_draw.c draws it.
 */
#ifndef CONTACT_UI_STATE_H
#define CONTACT_UI_STATE_H

#include "modal_table.h"
#include "object_ports.h"
#include "place_ports.h"
#include "port_info.h"
#include "ui_analysis.h"
#include "ui_model.h"

#include <cairo.h>
#include <limits.h>
#include <stdbool.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The most ports of any instrument (own + object + notify + place +
 * the rolling path's). */
enum { UI_MAX_PORTS = 64 + OBJECT_N_PORTS + 1 + PLACE_N_PORTS + PATH_N_PORTS };
/* Edits undone by undo, newest first (a gesture is one edit). */
enum { UI_UNDO_DEPTH = 64 };
/* Ports one edit may change (a mode's gain and the mode count). */
enum { UI_EDIT_PORTS = 3 };
/* Points of the contact panel's curves. */
enum { UI_CURVE_POINTS = 96 };
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
  UI_DRAG_PARAM
} ui_drag_kind;

typedef struct ui_drag {
  ui_drag_kind kind;
  int index;      /* mode, or parameter row */
  double x0, y0;  /* where the press was */
  float start[2]; /* values at the press: freq and gain, or the port's */
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

  /* the contact panel's predicted curve, rebuilt when its ports change */
  double curve_x[UI_CURVE_POINTS], curve_y[UI_CURVE_POINTS],
      curve_y2[UI_CURVE_POINTS];
  double cutoff; /* rolling: the ball's cut-off, Hz */
  bool curve_stale;

  /* the parameter list: port indices, in table order */
  int param_port[UI_MAX_PORTS];
  int n_params;

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

/* A state for `plugin` at its ports' defaults, with no table. */
void ui_state_init(ui_state* s, const plugin_info* plugin);

/* The port index of `symbol`, or -1. */
int ui_port_index(const ui_state* s, const char* symbol);
/* The port's live value, or its default when the instrument has none. */
double ui_value(const ui_state* s, const char* symbol);
const port_info* ui_port(const ui_state* s, int index);

/* Rebuild the editor's modes and material, and the contact curves, when
 * stale: ui_state_port_changed() marks what a port's new value makes
 * stale. */
void ui_state_refresh(ui_state* s);
void ui_state_port_changed(ui_state* s, int index);

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
/* whether the shown modes are the mode ports (editable) or a table file */
bool ui_state_editable(const ui_state* s);

/* The parts of the window, to draw again what a change touches. */
enum ui_area {
  UI_AREA_HEADER = 1u << 0,
  UI_AREA_MODES = 1u << 1,
  UI_AREA_MATERIAL = 1u << 2,
  UI_AREA_CONTACT = 1u << 3,
  UI_AREA_PARAMS = 1u << 4,
  UI_AREA_ALL = (1u << 5) - 1,
};
ui_rect ui_area_rect(const ui_state* s, unsigned area_bit);

/* Draw the parts of the window that meet the area `clip`. */
void ui_draw(const ui_state* s, cairo_t* cr, ui_rect clip);

#endif
