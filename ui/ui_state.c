/* SPDX-License-Identifier: ISC */
/*
 * The UI's state without X or LV2: what the editor and the panels show,
 * rebuilt from the port values (and used as is by tests/ui/ui_geometry).
 */
#include "ui_state.h"

#include "friction_ports.h"
#include "impact_ports.h"
#include "rolling_ports.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
  s->layout = ui_layout_make();
  for (int i = 0; i < s->n_ports; ++i)
    s->value[i] = plugin_port_default(plugin, i);
  /* the list: every control the editor does not show as a bar, from the
   * port table, as many as fit */
  const int capacity = ui_param_capacity(&s->layout);
  for (int i = 0; i < s->n_ports && s->n_params < capacity; ++i) {
    const port_info* p = ui_port(s, i);
    if (p->kind == PORT_CONTROL_IN && i < s->object + OBJECT_MODE_TABLE)
      s->param_port[s->n_params++] = i;
  }
  s->selected = -1;
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

static double
log_between(double lo, double hi, int k, int n)
{
  return lo * pow(hi / lo, (double)k / (n - 1));
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

void
ui_state_refresh(ui_state* s)
{
  if (s->modes_stale) {
    refresh_modes(s);
    s->modes_stale = false;
  }
  if (s->curve_stale) {
    refresh_curve(s);
    s->curve_stale = false;
  }
}

void
ui_state_port_changed(ui_state* s, int index)
{
  const bool mode_port = index >= s->object + OBJECT_MODE_TABLE &&
                         index < s->object + OBJECT_N_PORTS;
  if (mode_port || index == s->object + OBJECT_MODES)
    s->modes_stale = true;
  else if (ui_port(s, index)->kind == PORT_CONTROL_IN)
    s->curve_stale = true;
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
