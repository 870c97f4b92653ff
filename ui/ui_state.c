/* SPDX-License-Identifier: ISC */
/*
 * The UI's state without X or LV2: what the editor and the panels show,
 * rebuilt from the port values (and used as is by tests/ui/ui_geometry).
 */
#include "ui_state.h"

#include "law_ports.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The most rows at the foot of the object panel (the rolling instrument
 * has four): more would squeeze the object out. */
static const int object_rows = 4;

static bool
is_mode_port(const ui_state* s, int i)
{
  return i >= s->object + OBJECT_MODE_TABLE && i < s->object + OBJECT_N_PORTS;
}

bool
ui_state_is_exciter_mode_port(const ui_state* s, int i)
{
  return s->exciter >= 0 && i >= s->exciter + EXCITER_MODE1 &&
         i < s->exciter + EXCITER_N_PORTS;
}

int
ui_state_exciter_port(const ui_state* s, int m, int k)
{
  if (s->exciter < 0 || m < 0 || m >= EXCITER_MAX_MODES || k < 0 || k > 2)
    return -1;
  return s->exciter + EXCITER_MODE1 + 3 * m + k;
}

/* The first port of a block of `n` found by its first port's symbol (a
 * tail of the port table, port_info.h), or -1 when the instrument has no
 * such block or it is not whole. */
static int
find_block(const ui_state* s, const port_info* first, int n)
{
  const int i = ui_port_index(s, first->symbol);
  return i >= 0 && i + n <= s->n_ports ? i : -1;
}

/* the place block (place_ports.h) and the rest of the place group (the
 * rolling instrument's path): what the object panel shows */
static bool
in_place_block(const ui_state* s, int i)
{
  return i >= s->place && i < s->place + PLACE_N_PORTS;
}

static bool
in_object_panel(const ui_state* s, int i)
{
  const port_info* p = ui_port(s, i);
  return in_place_block(s, i) || (p->group && !strcmp(p->group, "place"));
}

/* the handle that sets port i, or -1 */
static int
handle_of(const ui_state* s, int i)
{
  if (!in_place_block(s, i))
    return -1;
  switch (i - s->place) {
  case PLACE_POSITION:
  case PLACE_POSITION_Y:
    return UI_HANDLE_POINT;
  case PLACE_PICKUP:
    return UI_HANDLE_LEFT;
  case PLACE_PICKUP_R:
    return UI_HANDLE_RIGHT;
  default:
    return -1;
  }
}

static double
place_value(const ui_state* s, int k)
{
  return s->place + k < s->n_ports ? s->value[s->place + k]
                                   : place_port(k)->def;
}

void
ui_state_free(ui_state* s)
{
  shape_set_free(s->family_shapes);
  shape_set_free(s->table_shapes);
  s->family_shapes = s->table_shapes = NULL;
  s->shapes = s->pictured_shapes = NULL;
}

void
ui_state_init(ui_state* s, const plugin_info* plugin)
{
  memset(s, 0, sizeof(*s));
  s->plugin = plugin;
  s->panel = plugin == &friction_info  ? UI_PANEL_FRICTION
             : plugin == &rolling_info ? UI_PANEL_ROLLING
                                       : UI_PANEL_IMPACT;
  s->n_ports = plugin->n_ports < UI_MAX_PORTS ? plugin->n_ports : UI_MAX_PORTS;
  s->object = plugin->n_own;
  s->place = plugin_notify_port(plugin) + 1;
  /* the tails the editor draws panels for, found in the table: the
   * exciter's modes (bars) and the contact law (the felt's curve) */
  s->exciter = find_block(s, &exciter_ports[0], EXCITER_N_PORTS);
  s->n_exciter = s->exciter >= 0 ? EXCITER_MAX_MODES : 0;
  s->law = find_block(s, &law_ports[0], LAW_N_PORTS);
  s->layout = ui_layout_make(s->exciter >= 0);
  for (int i = 0; i < s->n_ports; ++i)
    s->value[i] = plugin_port_default(plugin, i);
  /* the rows: every control the editor does not show as a bar or a
   * handle, from the port table; the list's as many as fit, then the
   * place group's in the object panel */
  const int capacity = ui_param_capacity(&s->layout);
  for (int i = 0; i < s->n_ports && s->n_params < capacity; ++i)
    if (ui_port(s, i)->kind == PORT_CONTROL_IN && !is_mode_port(s, i) &&
        !ui_state_is_exciter_mode_port(s, i) && !in_object_panel(s, i))
      s->param_port[s->n_params++] = i;
  s->n_list = s->n_params;
  for (int i = 0; i < s->n_ports && s->n_params - s->n_list < object_rows; ++i)
    if (ui_port(s, i)->kind == PORT_CONTROL_IN && in_object_panel(s, i) &&
        handle_of(s, i) < 0)
      s->param_port[s->n_params++] = i;
  s->selected = -1;
  s->exciter_selected = -1;
  s->exciter_stale = true;
  s->pictured = -1;
  s->shapes_stale = true;
  s->hovered_param = -1;
  s->last_press_mode = -1;
  s->modes_stale = true;
  s->curve_stale = true;
}

const port_info*
ui_port(const ui_state* s, int index)
{
  return plugin_port(s->plugin, index);
}

int
ui_port_index(const ui_state* s, const char* symbol)
{
  for (int i = 0; i < s->n_ports; ++i)
    if (!strcmp(ui_port(s, i)->symbol, symbol))
      return i;
  return -1;
}

double
ui_value(const ui_state* s, const char* symbol)
{
  const int i = ui_port_index(s, symbol);
  return i >= 0 ? s->value[i] : 0.0;
}

/* a port's value in SI units (grams to kg, mm/s to m/s, ...) */
static double
si_value(const ui_state* s, const char* symbol)
{
  const int i = ui_port_index(s, symbol);
  return i >= 0 ? s->value[i] * ui_port_si_scale(ui_port(s, i)) : 0.0;
}

bool
ui_state_editable(const ui_state* s)
{
  return !s->table_loaded;
}

ui_mode_view
ui_state_mode_view(const ui_state* s)
{
  return ui_mode_view_make(s->layout.modes_plot,
                           ui_port(s, s->object + OBJECT_MODE_FREQ(0)),
                           ui_port(s, s->object + OBJECT_MODE_GAIN(0)));
}

static void
refresh_modes(ui_state* s)
{
  const int taking_part = (int)s->value[s->object + OBJECT_MODES];
  if (s->table_loaded) {
    s->n_modes = s->table.count;
    for (int i = 0; i < s->n_modes; ++i)
      s->modes[i] = (ui_mode){s->table.freq[i], s->table.decay[i],
                              s->table.gain[i], i < taking_part};
  } else {
    s->n_modes = OBJECT_TABLE_SIZE;
    for (int i = 0; i < s->n_modes; ++i) {
      const float* v = &s->value[s->object + OBJECT_MODE_FREQ(i)];
      /* the ports: Hz, ms, gain */
      s->modes[i] = (ui_mode){v[0], v[1] * 1e-3, v[2], i < taking_part};
    }
  }
  s->material = ui_classify(s->modes, s->n_modes, &s->q);
}

ui_mode_view
ui_state_exciter_view(const ui_state* s)
{
  /* the object's frequency port: the two bar sets share one axis */
  return ui_mode_view_make(
      s->layout.exciter_plot, ui_port(s, s->object + OBJECT_MODE_FREQ(0)),
      ui_port(s, s->exciter >= 0 ? s->exciter + EXCITER_MODE1 + 2
                                 : s->object + OBJECT_MODE_GAIN(0)));
}

static void
refresh_exciter(ui_state* s)
{
  if (s->exciter < 0)
    return;
  s->exciter_taking_part = (int)s->value[s->exciter + EXCITER_MODES];
  for (int i = 0; i < s->n_exciter; ++i) {
    const float* v = &s->value[s->exciter + EXCITER_MODE1 + 3 * i];
    /* the ports: Hz, ms, gain */
    s->exciter_modes[i] =
        (ui_mode){v[0], v[1] * 1e-3, v[2], i < s->exciter_taking_part};
  }
}

int
ui_state_select_exciter(ui_state* s, double x, double y, double slop)
{
  if (s->exciter < 0)
    return -1;
  if (s->exciter_stale)
    refresh_exciter(s);
  s->exciter_stale = false;
  const ui_mode_view v = ui_state_exciter_view(s);
  /* only within the strip: the object's bars are just above it */
  if (y < v.area.y - 2 || y > v.area.y + v.area.h + 2)
    return -1;
  const int m = ui_mode_hit(&v, s->exciter_modes, s->n_exciter, x, y, slop,
                            s->exciter_selected);
  if (m >= 0) {
    s->exciter_selected = m;
    s->selected = -1;
  }
  return m;
}

void
ui_state_drag_exciter(ui_state* s, int m, const float start[2], double dx,
                      double dy)
{
  const int freq = ui_state_exciter_port(s, m, 0);
  const int gain = ui_state_exciter_port(s, m, 2);
  if (freq < 0)
    return;
  /* as the object's bars: sideways the frequency, up and down the gain,
   * each only once moved along */
  const ui_mode_view v = ui_state_exciter_view(s);
  if (dx != 0.0)
    ui_state_edit_port(
        s, freq, (float)ui_drag_value(&v.freq, ui_port(s, freq), start[0], dx));
  if (dy != 0.0)
    ui_state_edit_port(
        s, gain, (float)ui_drag_value(&v.gain, ui_port(s, gain), start[1], dy));
}

static double
log_between(double lo, double hi, int k, int n)
{
  return lo * pow(hi / lo, (double)k / (n - 1));
}

/* The felt's static force f(x) ([borin] eq 1, felt_force()) from 0 to a
 * quarter past the compression of the strongest blow (a few y0 when that
 * is not known), as the plugin takes the law from the ports
 * (law_from_ports()); and a hysteretic felt's loop in the strongest blow,
 * over the last strike's contact time (else 4 tau).  The ports offer no
 * hysteresis yet (law_ports.h): epsilon is 0 and there is no loop until
 * they do. */
static void
refresh_felt(ui_state* s, double mass, double v_min, double v_max)
{
  const int n = UI_CURVE_POINTS;
  const impact_law law =
      law_from_ports(&s->value[s->law], ui_value(s, "stiffness"),
                     ui_value(s, "alpha"), ui_value(s, "mu"));
  s->felt = law.felt;
  s->felt_blow[0] = ui_felt_blow_compression(&s->felt, mass, v_min);
  s->felt_blow[1] = ui_felt_blow_compression(&s->felt, mass, v_max);
  const double reach =
      s->felt_blow[1] > 0.0 ? 1.25 * s->felt_blow[1] : 3.0 * s->felt.y0;
  for (int k = 0; k < n; ++k) {
    const double x = reach * k / (n - 1);
    s->curve_x[k] = x;
    s->curve_y[k] = felt_force(&s->felt, x);
    s->curve_y2[k] = NAN;
  }
  s->n_felt_loop = 0;
  if (s->felt.epsilon > 0.0 && s->felt.tau > 0.0 && s->felt_blow[1] > 0.0) {
    const double t_c = 1e-3 * ui_value(s, "contact_time");
    ui_felt_loop(&s->felt, s->felt_blow[1], t_c > 0.0 ? t_c : 4.0 * s->felt.tau,
                 UI_FELT_LOOP, s->felt_loop_x, s->felt_loop_f);
    s->n_felt_loop = UI_FELT_LOOP + 1;
  }
}

/* The panel's curve over its x range: impact, contact time and rebound
 * over the velocities a note can play; friction, the Stribeck force over
 * slip velocity; rolling, the surface's level over frequency. */
static void
refresh_curve(ui_state* s)
{
  const int n = UI_CURVE_POINTS;
  switch (s->panel) {
  case UI_PANEL_IMPACT: {
    const ui_hammer h = {si_value(s, "hammer_mass"), ui_value(s, "stiffness"),
                         ui_value(s, "alpha"), ui_value(s, "mu")};
    const double v_max = ui_value(s, "velocity_max");
    /* velocity 1 to 127 of the velocity curve */
    const double v_min =
        v_max * pow(1.0 / 127.0, ui_value(s, "velocity_curve"));
    s->felt_curve =
        s->law >= 0 && (int)s->value[s->law + LAW_LAW] == CONTACT_LAW_FELT;
    if (s->felt_curve) {
      refresh_felt(s, h.mass, v_min, v_max);
      break;
    }
    for (int k = 0; k < n; ++k) {
      const double v = log_between(v_min, v_max, k, n);
      s->curve_x[k] = v;
      s->curve_y[k] = ui_contact_time(&h, v);
      s->curve_y2[k] = ui_rebound_velocity(&h, v);
    }
    break;
  }
  case UI_PANEL_FRICTION: {
    const ui_stribeck f = {
        ui_value(s, "normal_force"), ui_value(s, "mu_s"), ui_value(s, "mu_d"),
        si_value(s, "stribeck_velocity"), ui_value(s, "sigma2")};
    /* symmetric, out to 5 v_s or past the bow's speed */
    double reach = 5.0 * f.stribeck;
    const double bow = 1.5 * fabs(ui_value(s, "bow_velocity"));
    if (bow > reach)
      reach = bow;
    for (int k = 0; k < n; ++k) {
      const double v = reach * (2.0 * k / (n - 1) - 1.0);
      s->curve_x[k] = v;
      s->curve_y[k] = ui_stribeck_force(&f, v);
      s->curve_y2[k] = 0.0;
    }
    break;
  }
  case UI_PANEL_ROLLING: {
    const ui_surface r = {ui_value(s, "roughness"),
                          si_value(s, "surface_depth"),
                          si_value(s, "ball_radius"), ui_value(s, "speed")};
    for (int k = 0; k < n; ++k) {
      const double f = log_between(20.0, 20000.0, k, n);
      s->curve_x[k] = f;
      s->curve_y[k] = ui_surface_level_db(&r, f);
      s->curve_y2[k] = 0.0;
    }
    s->cutoff = ui_surface_cutoff_hz(&r);
    break;
  }
  }
}

/* ---- the object panel ---------------------------------------------------- */

ui_place
ui_state_place(const ui_state* s)
{
  return (ui_place){
      place_value(s, PLACE_POSITION), place_value(s, PLACE_POSITION_Y),
      place_value(s, PLACE_PICKUP), place_value(s, PLACE_PICKUP_R)};
}

ui_shape_view
ui_state_shape_view(const ui_state* s)
{
  return ui_shape_view_make(ui_object_area(&s->layout, s->n_params - s->n_list),
                            s->family, s->is_2d);
}

int
ui_state_pictured_mode(const ui_state* s)
{
  return s->selected >= 0 && s->selected < s->n_modes ? s->selected : 0;
}

void
ui_state_set_table_shapes(ui_state* s, const modal_shapes* shapes)
{
  shape_set_free(s->table_shapes);
  s->table_shapes = NULL;
  if (shapes && shapes->nx > 0 && s->table.count > 0)
    s->table_shapes = shape_set_new_sampled(s->table.count, shapes->nx,
                                            shapes->ny, shapes->value);
  s->shapes_stale = true;
}

/* The shapes the shape port chooses, as the plugin takes them: a
 * family's (built here once it is shown), the table's when a table file
 * with shapes is played, or none. */
static const shape_set*
chosen_shapes(ui_state* s, shape_family* family)
{
  const int f = (int)place_value(s, PLACE_SHAPE);
  *family = SHAPE_NONE;
  if (f == SHAPE_TABLE) {
    if (!s->table_loaded || !s->table_shapes)
      return NULL;
    *family = SHAPE_TABLE;
    return s->table_shapes;
  }
  if (f <= SHAPE_NONE || f >= SHAPE_TABLE)
    return NULL;
  if (!s->family_shapes || s->family_built != (shape_family)f) {
    shape_set_free(s->family_shapes);
    s->family_shapes = shape_set_new_family((shape_family)f, SHAPE_MAX_MODES);
    s->family_built = (shape_family)f;
  }
  if (s->family_shapes)
    *family = (shape_family)f;
  return s->family_shapes;
}

/* Each mode's weight where it is struck and heard, as dsp/place weighs
 * it (a mode past the shapes is not touched: 0). */
static void
refresh_weights(ui_state* s)
{
  const ui_shape_view v = ui_state_shape_view(s);
  const ui_place p = ui_state_place(s);
  const int n = s->n_modes < shape_set_modes(s->shapes)
                    ? s->n_modes
                    : shape_set_modes(s->shapes);
  double point[SHAPE_MAX_MODES], left[SHAPE_MAX_MODES], right[SHAPE_MAX_MODES];
  double x, y;
  shape_set_eval(s->shapes, p.x, p.y, n, point);
  ui_handle_coords(&v, &p, UI_HANDLE_LEFT, &x, &y);
  shape_set_eval(s->shapes, x, y, n, left);
  ui_handle_coords(&v, &p, UI_HANDLE_RIGHT, &x, &y);
  shape_set_eval(s->shapes, x, y, n, right);
  const double width = s->value[s->object + OBJECT_WIDTH];
  for (int i = 0; i < s->n_modes; ++i)
    s->weight[i] =
        i < n ? ui_heard_weight(point[i], left[i], right[i], width) : 0.0;
}

static double
mode_value(const shape_set* set, int n, double x, double y)
{
  double phi[SHAPE_MAX_MODES];
  shape_set_eval(set, x, y, n + 1, phi);
  return phi[n];
}

static void
normalise(double* v, int n)
{
  double peak = 0.0;
  for (int k = 0; k < n; ++k)
    if (!isnan(v[k]))
      peak = fmax(peak, fabs(v[k]));
  if (peak > 0.0)
    for (int k = 0; k < n; ++k)
      v[k] /= peak;
}

/* The pictured mode: its deflection along a strip and its nodes, or its
 * values over the square (a disc's square, NAN off the disc); each
 * scaled to a peak of 1 (a table's shapes may be scaled any way). */
static void
refresh_picture(ui_state* s, int mode)
{
  s->pictured = mode;
  s->pictured_shapes = s->shapes;
  s->n_nodes = 0;
  if (!s->shapes || mode >= shape_set_modes(s->shapes))
    return;
  const ui_shape_view v = ui_state_shape_view(s);
  if (v.kind == UI_SHAPE_STRIP) {
    for (int k = 0; k < UI_STRIP_POINTS; ++k)
      s->strip[k] =
          mode_value(s->shapes, mode, (double)k / (UI_STRIP_POINTS - 1), 0.0);
    normalise(s->strip, UI_STRIP_POINTS);
    s->n_nodes = ui_shape_nodes(s->shapes, mode, s->nodes, UI_MAX_NODES);
    return;
  }
  const ui_rect b = v.body;
  for (int j = 0; j < UI_MAP_SIZE; ++j)
    for (int i = 0; i < UI_MAP_SIZE; ++i) {
      const double px = b.x + (i + 0.5) / UI_MAP_SIZE * b.w;
      const double py = b.y + (j + 0.5) / UI_MAP_SIZE * b.h;
      double x, y, value = NAN;
      if (ui_shape_inside(&v, px, py)) {
        ui_shape_from_px(&v, px, py, &x, &y);
        value = mode_value(s->shapes, mode, x, y);
      }
      s->map[j * UI_MAP_SIZE + i] = value;
    }
  normalise(s->map, UI_MAP_SIZE * UI_MAP_SIZE);
}

static void
refresh_shapes(ui_state* s)
{
  if (s->shapes_stale) {
    s->shapes = chosen_shapes(s, &s->family);
    s->is_2d = s->shapes && shape_set_is_2d(s->shapes);
    if (s->shapes)
      refresh_weights(s);
  }
  const int mode = ui_state_pictured_mode(s);
  if (s->shapes_stale || mode != s->pictured || s->shapes != s->pictured_shapes)
    refresh_picture(s, mode);
  s->shapes_stale = false;
}

int
ui_state_handle_port(const ui_state* s, ui_handle h)
{
  switch (h) {
  case UI_HANDLE_POINT:
    return s->place + PLACE_POSITION;
  case UI_HANDLE_LEFT:
    return s->place + PLACE_PICKUP;
  case UI_HANDLE_RIGHT:
    return s->place + PLACE_PICKUP_R;
  default:
    return -1;
  }
}

static void
edit_clamped(ui_state* s, int port, double value)
{
  ui_state_edit_port(s, port, (float)ui_clamp_to_port(ui_port(s, port), value));
}

void
ui_state_drag_handle(ui_state* s, ui_handle h, const ui_place* start, double dx,
                     double dy)
{
  const ui_shape_view v = ui_state_shape_view(s);
  const ui_place p = ui_handle_drag(&v, start, h, dx, dy);
  switch (h) {
  case UI_HANDLE_POINT:
    edit_clamped(s, s->place + PLACE_POSITION, p.x);
    if (v.kind != UI_SHAPE_STRIP)
      edit_clamped(s, s->place + PLACE_POSITION_Y, p.y);
    break;
  case UI_HANDLE_LEFT:
    edit_clamped(s, s->place + PLACE_PICKUP, p.left);
    break;
  case UI_HANDLE_RIGHT:
    edit_clamped(s, s->place + PLACE_PICKUP_R, p.right);
    break;
  default:
    break;
  }
}

ui_rect
ui_state_param_row(const ui_state* s, int k)
{
  if (k < s->n_list)
    return ui_param_row(&s->layout, k);
  return ui_object_row(&s->layout, s->n_params - s->n_list, k - s->n_list);
}

int
ui_state_param_hit(const ui_state* s, double x, double y)
{
  for (int k = 0; k < s->n_params; ++k)
    if (ui_rect_contains(ui_state_param_row(s, k), x, y))
      return k;
  return -1;
}

void
ui_state_refresh(ui_state* s)
{
  if (s->modes_stale) {
    refresh_modes(s);
    s->modes_stale = false;
    s->shapes_stale = true; /* the weights are the modes' */
  }
  if (s->exciter_stale) {
    refresh_exciter(s);
    s->exciter_stale = false;
  }
  if (s->curve_stale) {
    refresh_curve(s);
    s->curve_stale = false;
  }
  refresh_shapes(s);
}

unsigned
ui_state_port_changed(ui_state* s, int index)
{
  const port_kind kind = ui_port(s, index)->kind;
  if (ui_state_is_exciter_mode_port(s, index) ||
      (s->exciter >= 0 && index == s->exciter + EXCITER_MODES)) {
    /* the exciter's bars (and the count in the list) */
    s->exciter_stale = true;
    return UI_AREA_HEADER | UI_AREA_MODES | UI_AREA_PARAMS;
  }
  if (is_mode_port(s, index) || index == s->object + OBJECT_MODES) {
    s->modes_stale = true;
    return UI_AREA_HEADER | UI_AREA_MODES | UI_AREA_MATERIAL | UI_AREA_PARAMS;
  }
  if (in_object_panel(s, index)) {
    /* the strike meter is drawn on the object; a control moves the
     * weights on the bars too (and the header's Undo) */
    if (kind == PORT_METER)
      return UI_AREA_OBJECT;
    s->shapes_stale = true;
    return UI_AREA_HEADER | UI_AREA_OBJECT | UI_AREA_MODES;
  }
  if (kind == PORT_CONTROL_IN) {
    s->curve_stale = true;
    if (index == s->object + OBJECT_WIDTH) {
      /* the right output's share in the weights */
      s->shapes_stale = true;
      return UI_AREA_HEADER | UI_AREA_CONTACT | UI_AREA_PARAMS | UI_AREA_MODES;
    }
    return UI_AREA_HEADER | UI_AREA_CONTACT | UI_AREA_PARAMS;
  }
  return kind == PORT_METER ? UI_AREA_CONTACT : 0;
}

/* ---- edits ----------------------------------------------------------------
 */

void
ui_state_begin_edit(ui_state* s)
{
  if (s->n_undo == UI_UNDO_DEPTH) {
    memmove(s->undo, s->undo + 1, sizeof(ui_edit) * (UI_UNDO_DEPTH - 1));
    --s->n_undo;
  }
  s->undo[s->n_undo++].n = 0;
  s->editing = true;
}

static void
write_value(ui_state* s, int port, float value)
{
  if (s->value[port] == value)
    return;
  s->value[port] = value;
  ui_state_port_changed(s, port);
  if (s->writer)
    s->writer(s->writer_handle, port, value);
}

void
ui_state_edit_port(ui_state* s, int port, float value)
{
  if (!s->editing || port < 0 || port >= s->n_ports)
    return;
  ui_edit* e = &s->undo[s->n_undo - 1];
  int k = 0;
  while (k < e->n && e->port[k] != port)
    ++k;
  if (k == e->n) {
    if (e->n == UI_EDIT_PORTS)
      return; /* an edit sets at most UI_EDIT_PORTS ports */
    e->port[k] = port;
    e->before[k] = s->value[port];
    ++e->n;
  }
  write_value(s, port, value);
}

void
ui_state_end_edit(ui_state* s)
{
  if (!s->editing)
    return;
  s->editing = false;
  const ui_edit* e = &s->undo[s->n_undo - 1];
  bool changed = false;
  for (int k = 0; k < e->n; ++k)
    changed |= s->value[e->port[k]] != e->before[k];
  if (!changed)
    --s->n_undo;
}

bool
ui_state_undo(ui_state* s)
{
  if (s->editing)
    ui_state_end_edit(s);
  if (s->n_undo == 0) {
    snprintf(s->status, sizeof(s->status), "Nothing to undo");
    return false;
  }
  const ui_edit* e = &s->undo[--s->n_undo];
  for (int k = e->n - 1; k >= 0; --k)
    write_value(s, e->port[k], e->before[k]);
  snprintf(s->status, sizeof(s->status), "Undone: %s",
           ui_port(s, e->port[0])->name);
  return true;
}

void
ui_state_toggle_mode(ui_state* s, int m)
{
  if (!ui_state_editable(s) || m < 0 || m >= OBJECT_TABLE_SIZE)
    return;
  const int gain = s->object + OBJECT_MODE_GAIN(m);
  const int count = s->object + OBJECT_MODES;
  const bool sounding = s->value[gain] > 0.0f && m < s->value[count];
  ui_state_begin_edit(s);
  if (sounding) {
    s->disabled_gain[m] = s->value[gain];
    ui_state_edit_port(s, gain, 0.0f);
  } else {
    /* back to the gain it had, or the port's default */
    float g = s->value[gain] > 0.0f ? s->value[gain]
              : s->disabled_gain[m] > 0.0f
                  ? s->disabled_gain[m]
                  : plugin_port_default(s->plugin, gain);
    if (!(g > 0.0f))
      g = 0.5f;
    ui_state_edit_port(s, gain, g);
    if (m >= s->value[count])
      ui_state_edit_port(s, count, (float)(m + 1));
  }
  ui_state_end_edit(s);
  snprintf(s->status, sizeof(s->status), "Mode %d %s", m + 1,
           sounding ? "left out" : "sounds");
}
