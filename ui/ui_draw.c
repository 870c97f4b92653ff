/* SPDX-License-Identifier: ISC */
/*
 * Drawing the UI's state with cairo, in logical pixels: the header (the
 * table file), the mode editor, the material map, the contact panel and
 * the list of ports.  Places come from ui_model (the layout, the axes);
 * nothing here decides a value.
 */
#include "ui_state.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

typedef struct rgb {
  double r, g, b;
} rgb;

/* one look: dark panels, light text, a colour per material */
static const rgb background = {0.11, 0.12, 0.13};
static const rgb panel = {0.16, 0.17, 0.19};
static const rgb grid = {0.27, 0.29, 0.32};
static const rgb text = {0.88, 0.89, 0.90};
static const rgb dim = {0.58, 0.60, 0.63};
static const rgb accent = {0.98, 0.76, 0.28};
static const rgb live = {0.35, 0.85, 0.45};
static const rgb material_colour[UI_MATERIALS] = {
    [UI_RUBBER] = {0.86, 0.36, 0.33},
    [UI_WOOD] = {0.80, 0.58, 0.25},
    [UI_GLASS] = {0.38, 0.76, 0.88},
    [UI_STEEL] = {0.66, 0.72, 0.86},
};

static const char* const font = "DejaVu Sans";

static void
colour(cairo_t* cr, rgb c, double alpha)
{
  cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

static void
rect_path(cairo_t* cr, ui_rect r)
{
  cairo_rectangle(cr, r.x, r.y, r.w, r.h);
}

static void
rounded(cairo_t* cr, ui_rect r, double radius)
{
  cairo_new_sub_path(cr);
  cairo_arc(cr, r.x + r.w - radius, r.y + radius, radius, -PI / 2, 0);
  cairo_arc(cr, r.x + r.w - radius, r.y + r.h - radius, radius, 0, PI / 2);
  cairo_arc(cr, r.x + radius, r.y + r.h - radius, radius, PI / 2, PI);
  cairo_arc(cr, r.x + radius, r.y + radius, radius, PI, 1.5 * PI);
  cairo_close_path(cr);
}

typedef enum align { LEFT, CENTRE, RIGHT } align;

/* text with its baseline at y, aligned at x */
static void
label(cairo_t* cr, double x, double y, double size, bool bold, align a, rgb c,
      const char* s)
{
  cairo_select_font_face(cr, font, CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD
                              : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
  double dx = 0.0;
  if (a != LEFT) {
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    dx = a == CENTRE ? -0.5 * e.x_advance : -e.x_advance;
  }
  colour(cr, c, 1.0);
  cairo_move_to(cr, x + dx, y);
  cairo_show_text(cr, s);
}

static void
panel_box(cairo_t* cr, ui_rect r, const char* title)
{
  colour(cr, panel, 1.0);
  rounded(cr, r, 5.0);
  cairo_fill(cr);
  label(cr, r.x + 8, r.y + 15, 11.5, true, LEFT, text, title);
}

static void
button(cairo_t* cr, ui_rect r, const char* name, bool enabled)
{
  colour(cr, grid, 1.0);
  rounded(cr, r, 3.0);
  cairo_fill(cr);
  label(cr, r.x + 0.5 * r.w, r.y + r.h - 6, 11, false, CENTRE,
        enabled ? text : dim, name);
}

/* ---- numbers ----------------------------------------------------------------
 */

static const char*
unit_text(const char* unit)
{
  static const struct {
    const char* unit;
    const char* text;
  } units[] = {
      {UNIT_HZ, "Hz"},          {UNIT_S, "s"},
      {UNIT_MM, "mm"},          {UNIT_MS, "ms"},
      {UNIT_DB, "dB"},          {UNIT_SEMITONE, "st"},
      {UNIT_MIDI_NOTE, ""},     {UNIT_COEF, ""},
      {UNIT_EXPONENT, ""},      {UNIT_GRAM, "g"},
      {UNIT_KG, "kg"},          {UNIT_NEWTON, "N"},
      {UNIT_M_PER_S, "m/s"},    {UNIT_S_PER_M, "s/m"},
      {UNIT_MM_PER_S, "mm/s"},  {UNIT_M_PER_S2, "m/s\xc2\xb2"},
      {UNIT_UM, "\xc2\xb5m"},   {UNIT_N_PER_M, "N/m"},
      {UNIT_N_S_PER_M, "Ns/m"}, {UNIT_STIFFNESS, "N/m\xe1\xb5\x85"},
  };
  if (unit)
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); ++i)
      if (!strcmp(unit, units[i].unit))
        return units[i].text;
  return "";
}

/* a port's value as the player reads it: its label, on/off, a whole
 * number, or 3 significant digits and the unit */
static void
port_text(char* out, size_t size, const port_info* p, double v)
{
  if (p->flags & PORT_TOGGLE)
    snprintf(out, size, "%s", v > 0.5 ? "on" : "off");
  else if ((p->flags & PORT_ENUM) && p->labels)
    snprintf(out, size, "%s", p->labels[(int)(v - p->min)]);
  else if (p->flags & PORT_INTEGER)
    snprintf(out, size, "%.0f", v);
  else {
    const char* u = unit_text(p->unit);
    snprintf(out, size, "%.3g%s%s", v, *u ? " " : "", u);
  }
}

/* ---- plots
 * -------------------------------------------------------------------- */

static void
plot_frame(cairo_t* cr, ui_rect r)
{
  colour(cr, background, 1.0);
  rect_path(cr, r);
  cairo_fill(cr);
}

/* vertical grid lines and labels at 1-2-5 steps of a log frequency axis,
 * the labels under `r` (or none: a plot above another on the same axis) */
static void
frequency_lines(cairo_t* cr, const ui_axis* a, ui_rect r, bool labels)
{
  static const double ticks[] = {20,   50,   100,  200,   500,
                                 1000, 2000, 5000, 10000, 20000};
  enum { N = sizeof(ticks) / sizeof(ticks[0]) };
  cairo_set_line_width(cr, 1.0);
  /* every line; the labels that fit, the decades first (a narrow plot
   * has no room for 2 and 5 between them) */
  double left[N], right[N];
  int shown = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < N; ++i) {
      const bool decade = fmod(log10(ticks[i]), 1.0) == 0.0;
      if (decade != (pass == 0))
        continue;
      const double x = floor(ui_axis_to_px(a, ticks[i])) + 0.5;
      if (x < r.x || x > r.x + r.w)
        continue;
      colour(cr, grid, 1.0);
      cairo_move_to(cr, x, r.y);
      cairo_line_to(cr, x, r.y + r.h);
      cairo_stroke(cr);
      if (!labels)
        continue;
      char s[16];
      if (ticks[i] >= 1000)
        snprintf(s, sizeof(s), "%gk", ticks[i] / 1000);
      else
        snprintf(s, sizeof(s), "%g", ticks[i]);
      cairo_text_extents_t e;
      cairo_select_font_face(cr, font, CAIRO_FONT_SLANT_NORMAL,
                             CAIRO_FONT_WEIGHT_NORMAL);
      cairo_set_font_size(cr, 10);
      cairo_text_extents(cr, s, &e);
      const double x0 = x - 0.5 * e.x_advance - 2,
                   x1 = x + 0.5 * e.x_advance + 2;
      bool room = true;
      for (int k = 0; k < shown; ++k)
        room &= x1 <= left[k] || x0 >= right[k];
      if (!room)
        continue;
      left[shown] = x0;
      right[shown++] = x1;
      label(cr, x, r.y + r.h + 13, 10, false, CENTRE, dim, s);
    }
}

static void
frequency_grid(cairo_t* cr, const ui_axis* a, ui_rect r)
{
  frequency_lines(cr, a, r, true);
}

/* horizontal grid lines at decades of a log axis, labelled in `unit` */
static void
decade_grid(cairo_t* cr, const ui_axis* a, ui_rect r, double unit_scale,
            const char* unit)
{
  cairo_set_line_width(cr, 1.0);
  const double lo = fmin(a->lo, a->hi), hi = fmax(a->lo, a->hi);
  for (double d = pow(10, ceil(log10(lo))); d <= hi * 1.0001; d *= 10) {
    const double y = floor(ui_axis_to_px(a, d)) + 0.5;
    colour(cr, grid, 1.0);
    cairo_move_to(cr, r.x, y);
    cairo_line_to(cr, r.x + r.w, y);
    cairo_stroke(cr);
    char s[24];
    snprintf(s, sizeof(s), "%g%s", d * unit_scale, unit);
    label(cr, r.x - 4, y + 4, 10, false, RIGHT, dim, s);
  }
}

static void
curve(cairo_t* cr, const ui_axis* x, const ui_axis* y, const double* xs,
      const double* ys, int n)
{
  bool pen = false;
  for (int k = 0; k < n; ++k) {
    if (!isfinite(ys[k])) {
      pen = false;
      continue;
    }
    const double px = ui_axis_to_px(x, xs[k]), py = ui_axis_to_px(y, ys[k]);
    if (pen)
      cairo_line_to(cr, px, py);
    else
      cairo_move_to(cr, px, py);
    pen = true;
  }
  cairo_stroke(cr);
}

static void
dot(cairo_t* cr, double x, double y, double radius, rgb c)
{
  colour(cr, c, 1.0);
  cairo_arc(cr, x, y, radius, 0, 2 * PI);
  cairo_fill(cr);
}

/* ---- header
 * ------------------------------------------------------------------ */

static void
draw_header(const ui_state* s, cairo_t* cr)
{
  const ui_layout* l = &s->layout;
  label(cr, 10, 19, 14, true, LEFT, text, s->plugin->name);
  char m[64];
  snprintf(m, sizeof(m), "sounds like %s", ui_materials[s->material].name);
  label(cr, 150, 19, 12, false, LEFT, material_colour[s->material], m);

  const ui_rect f = l->path_field;
  colour(cr, s->field_focus ? grid : panel, 1.0);
  rounded(cr, f, 3.0);
  cairo_fill(cr);
  cairo_save(cr);
  rect_path(cr, (ui_rect){f.x + 4, f.y, f.w - 8, f.h});
  cairo_clip(cr);
  const char* shown = s->field;
  if (!*shown && !s->field_focus)
    label(cr, f.x + 6, f.y + 14, 11, false, LEFT, dim,
          "modal table, or a recording to analyse (Tab completes)");
  else {
    /* the end of a long path, where the file's name is */
    cairo_select_font_face(cr, font, CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    cairo_text_extents_t e;
    cairo_text_extents(cr, shown, &e);
    const double x =
        e.x_advance > f.w - 16 ? f.x + f.w - 10 - e.x_advance : f.x + 6;
    label(cr, x, f.y + 14, 11, false, LEFT, text, shown);
    if (s->field_focus) {
      colour(cr, accent, 1.0);
      cairo_rectangle(cr, x + e.x_advance + 1, f.y + 4, 1.5, f.h - 8);
      cairo_fill(cr);
    }
  }
  cairo_restore(cr);
  button(cr, l->analyse, s->analysing ? "Analysing" : "Analyse", !s->analysing);
  button(cr, l->load, "Load", true);
  button(cr, l->clear, "Clear", s->table_loaded);
  button(cr, l->undo, "Undo", s->n_undo > 0);
}

/* the completions, over everything below the field */
static void
draw_choices(const ui_state* s, cairo_t* cr)
{
  if (!s->field_focus)
    return;
  const ui_rect f = s->layout.path_field;
  for (int i = 0; i < s->n_choices; ++i) {
    const ui_rect r = {f.x, f.y + f.h + 2 + 16 * i, f.w, 16};
    colour(cr, grid, 0.97);
    rect_path(cr, r);
    cairo_fill(cr);
    label(cr, r.x + 6, r.y + 12, 11, false, LEFT, text, s->choice[i]);
  }
}

/* ---- mode editor
 * ------------------------------------------------------------- */

static ui_material
mode_material(const ui_mode* m)
{
  double q;
  return ui_classify(m, 1, &q);
}

/* Under the modes of a table analysed from a recording, the recording's
 * decay spectrum: 0 dB at the top of the plot, -spectrum_range_db at the
 * bottom, so its peaks stand where the fitted bars do. */
static const double spectrum_range_db = 60.0;

static void
draw_spectrum(const ui_state* s, cairo_t* cr, const ui_axis* freq, ui_rect r)
{
  if (!*s->spectrum_table || strcmp(s->spectrum_table, s->table_path))
    return;
  const double step =
      log(UI_SPECTRUM_HI_HZ / UI_SPECTRUM_LO_HZ) / (UI_SPECTRUM_POINTS - 1);
  cairo_move_to(cr, r.x, r.y + r.h);
  for (int i = 0; i < UI_SPECTRUM_POINTS; ++i) {
    const double f = UI_SPECTRUM_LO_HZ * exp(step * i);
    const double level = fmax(s->spectrum[i] / spectrum_range_db + 1.0, 0.0);
    cairo_line_to(cr, ui_axis_to_px(freq, f), r.y + r.h - level * r.h);
  }
  cairo_line_to(cr, r.x + r.w, r.y + r.h);
  cairo_close_path(cr);
  colour(cr, live, 0.3);
  cairo_fill(cr);
}

/* a bar of the mode editor: filled when it sounds, an outline when it is
 * left out (gain 0, or past its count) */
static void
mode_bar(cairo_t* cr, ui_rect b, rgb c, bool sounds, double alpha)
{
  if (sounds) {
    colour(cr, c, alpha);
    rect_path(cr, b);
    cairo_fill(cr);
    return;
  }
  colour(cr, dim, 0.8);
  cairo_set_line_width(cr, 1.0);
  rect_path(cr, (ui_rect){b.x + 0.5, b.y - 3.5, b.w - 1, b.h + 3});
  cairo_stroke(cr);
}

/* The exciter's modes (the hammer's own, exciter_ports.h): a smaller bar
 * set in a strip under the object's modes, on their frequency axis; the
 * bars past the Exciter modes count outlined, as the object's are. */
/* the selected mode's bar, outlined in the accent */
static void
outline_selected(cairo_t* cr, ui_rect b)
{
  colour(cr, accent, 1.0);
  cairo_set_line_width(cr, 1.5);
  cairo_rectangle(cr, b.x - 1.5, b.y - 1.5, b.w + 3, b.h + 3);
  cairo_stroke(cr);
}

static void
draw_exciter(const ui_state* s, cairo_t* cr)
{
  const ui_rect r = s->layout.exciter_plot;
  const ui_mode_view v = ui_state_exciter_view(s);
  plot_frame(cr, r);
  frequency_lines(cr, &v.freq, r, true);
  /* its name and how many of its modes take part, left of the strip
   * (full-gain bars fill the strip itself) */
  char count[32];
  if (s->exciter_taking_part > 0)
    snprintf(count, sizeof(count), "%d of %d", s->exciter_taking_part,
             s->n_exciter);
  else
    snprintf(count, sizeof(count), "rigid");
  label(cr, r.x - 4, r.y + 11, 10, false, RIGHT, dim, "exciter");
  label(cr, r.x - 4, r.y + r.h - 2, 10, false, RIGHT, dim, count);
  cairo_save(cr);
  rect_path(cr, r);
  cairo_clip(cr);
  for (int i = 0; i < s->n_exciter; ++i) {
    const ui_mode* m = &s->exciter_modes[i];
    mode_bar(cr, ui_mode_bar(&v, m), material_colour[mode_material(m)],
             m->enabled && m->gain > 0, 0.9);
  }
  if (s->exciter_selected >= 0 && s->exciter_selected < s->n_exciter)
    outline_selected(cr,
                     ui_mode_bar(&v, &s->exciter_modes[s->exciter_selected]));
  cairo_restore(cr);
}

static void
draw_modes(const ui_state* s, cairo_t* cr)
{
  const ui_layout* l = &s->layout;
  panel_box(cr, l->modes,
            ui_state_editable(s) ? "Modes"
                                 : "Modes (table file, "
                                   "read-only)");
  label(cr, l->modes.x + l->modes.w - 8, l->modes.y + 15, 10.5, false, RIGHT,
        dim, s->status);
  const ui_rect r = l->modes_plot;
  plot_frame(cr, r);
  const ui_mode_view v = ui_state_mode_view(s);
  const bool exciter = s->exciter >= 0;
  frequency_lines(cr, &v.freq, r, !exciter);
  for (int k = 1; k <= 4; ++k) {
    const double y = floor(ui_axis_to_px(&v.gain, 0.25 * k * v.gain.hi)) + 0.5;
    colour(cr, grid, 1.0);
    cairo_move_to(cr, r.x, y);
    cairo_line_to(cr, r.x + r.w, y);
    cairo_stroke(cr);
    char t[16];
    snprintf(t, sizeof(t), "%.2g", 0.25 * k * v.gain.hi);
    label(cr, r.x - 4, y + 4, 10, false, RIGHT, dim, t);
  }
  const ui_rect under = exciter ? l->exciter_plot : r;
  label(cr, under.x - 4, under.y + under.h + 13, 10, false, RIGHT, dim, "Hz");
  if (exciter)
    draw_exciter(s, cr);

  cairo_save(cr);
  rect_path(cr, r);
  cairo_clip(cr);
  draw_spectrum(s, cr, &v.freq, r);
  for (int i = 0; i < s->n_modes; ++i) {
    const ui_mode* m = &s->modes[i];
    const ui_rect b = ui_mode_bar(&v, m);
    const rgb c = material_colour[mode_material(m)];
    if (m->enabled && m->gain > 0 && s->shapes) {
      /* with shapes: the gain faint, and filled up to the share heard
       * where the object is struck and heard */
      const double heard = fmin(fmax(s->weight[i], 0.0), 1.0) * b.h;
      colour(cr, c, 0.28);
      rect_path(cr, b);
      cairo_fill(cr);
      colour(cr, c, 0.95);
      rect_path(cr, (ui_rect){b.x, b.y + b.h - heard, b.w, heard});
      cairo_fill(cr);
    } else {
      /* left out: an outline, and a tick at the axis when gain is 0 */
      mode_bar(cr, b, c, m->enabled && m->gain > 0, 0.9);
    }
  }
  if (s->selected >= 0 && s->selected < s->n_modes)
    outline_selected(cr, ui_mode_bar(&v, &s->modes[s->selected]));
  cairo_restore(cr);

  /* the selected mode's numbers, or how to edit */
  char info[192];
  if (s->exciter_selected >= 0 && s->exciter_selected < s->n_exciter) {
    const ui_mode* m = &s->exciter_modes[s->exciter_selected];
    snprintf(info, sizeof(info),
             "Exciter mode %d: %.2f Hz  %.4g ms  q %.0f  gain %.3f%s",
             s->exciter_selected + 1, m->freq, m->decay * 1e3, ui_mode_q(m),
             m->gain, m->enabled ? "" : "  (past Exciter modes)");
  } else if (s->selected >= 0 && s->selected < s->n_modes) {
    const ui_mode* m = &s->modes[s->selected];
    char heard[32] = "";
    if (s->shapes)
      snprintf(heard, sizeof(heard), "  heard \xc3\x97%.2f",
               s->weight[s->selected]);
    snprintf(info, sizeof(info),
             "Mode %d: %.2f Hz  %.4g ms  q %.0f (%s)  gain %.3f%s%s",
             s->selected + 1, m->freq, m->decay * 1e3, ui_mode_q(m),
             ui_materials[mode_material(m)].name, m->gain, heard,
             m->enabled ? "" : "  (left out)");
  } else {
    snprintf(info, sizeof(info), "%s",
             ui_state_editable(s)
                 ? "drag: frequency, gain   wheel: decay   double click, d: "
                   "on/off   u: undo"
                 : "a table file: clear it to edit the 16 mode ports");
  }
  label(cr, l->modes.x + 8, l->modes.y + 29, 10.5, false, LEFT,
        s->selected >= 0 || s->exciter_selected >= 0 ? accent : dim, info);
}

/* ---- the object panel
 * ------------------------------------------------------------- */

static void draw_param_row(const ui_state* s, cairo_t* cr, int k);

/* a mode's sign and size, |v| <= 1: warm up, cool down, dark at its nodes */
static rgb
deflection_colour(double v)
{
  const rgb up = accent, down = material_colour[UI_GLASS];
  const rgb c = v >= 0 ? up : down;
  const double a = fmin(fabs(v), 1.0);
  return (rgb){background.r + a * (c.r - background.r),
               background.g + a * (c.g - background.g),
               background.b + a * (c.b - background.b)};
}

static uint32_t
pixel(rgb c)
{
  return 0xff000000u | (uint32_t)(c.r * 255.0 + 0.5) << 16 |
         (uint32_t)(c.g * 255.0 + 0.5) << 8 | (uint32_t)(c.b * 255.0 + 0.5);
}

/* the pictured mode over the square (or the disc's square), smoothly
 * scaled up, and its nodal lines: the zero contour between the texels */
static void
draw_map(const ui_state* s, cairo_t* cr, const ui_shape_view* v)
{
  enum { N = UI_MAP_SIZE };
  static uint32_t texels[N * N]; /* the UI's thread only */
  for (int k = 0; k < N * N; ++k)
    texels[k] =
        pixel(isnan(s->map[k]) ? background : deflection_colour(s->map[k]));
  cairo_surface_t* image = cairo_image_surface_create_for_data(
      (unsigned char*)texels, CAIRO_FORMAT_RGB24, N, N, 4 * N);
  const ui_rect b = v->body;
  cairo_save(cr);
  cairo_new_path(cr);
  if (v->kind == UI_SHAPE_DISC)
    cairo_arc(cr, b.x + 0.5 * b.w, b.y + 0.5 * b.h, 0.5 * b.w, 0, 2 * PI);
  else
    rect_path(cr, b);
  cairo_clip(cr);
  cairo_translate(cr, b.x, b.y);
  cairo_scale(cr, b.w / N, b.h / N);
  cairo_set_source_surface(cr, image, 0, 0);
  cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR);
  cairo_paint(cr);
  cairo_restore(cr);
  cairo_surface_destroy(image);

  /* texel (i, j)'s centre is at ((i + 0.5) / N, (j + 0.5) / N) of b */
  const double sx = b.w / N, sy = b.h / N;
  for (int j = 0; j + 1 < N; ++j)
    for (int i = 0; i + 1 < N; ++i) {
      const double c[4] = {s->map[j * N + i], s->map[j * N + i + 1],
                           s->map[(j + 1) * N + i + 1],
                           s->map[(j + 1) * N + i]};
      double seg[2][4];
      const int n = ui_zero_segments(c, seg);
      for (int k = 0; k < n; ++k) {
        cairo_move_to(cr, b.x + (i + 0.5 + seg[k][0]) * sx,
                      b.y + (j + 0.5 + seg[k][1]) * sy);
        cairo_line_to(cr, b.x + (i + 0.5 + seg[k][2]) * sx,
                      b.y + (j + 0.5 + seg[k][3]) * sy);
      }
    }
  colour(cr, text, 0.9);
  cairo_set_line_width(cr, 1.2);
  cairo_stroke(cr);
  /* the edge: a plate's supported sides, a membrane's rim */
  colour(cr, dim, 1.0);
  cairo_set_line_width(cr, 1.5);
  cairo_new_path(cr);
  if (v->kind == UI_SHAPE_DISC)
    cairo_arc(cr, b.x + 0.5 * b.w, b.y + 0.5 * b.h, 0.5 * b.w, 0, 2 * PI);
  else
    rect_path(cr, b);
  cairo_stroke(cr);
}

/* the pictured mode as the strip's deflection, warm above and cool
 * below, with its nodes; the clamp of a cantilever, a string's ends */
static void
draw_strip(const ui_state* s, cairo_t* cr, const ui_shape_view* v)
{
  const ui_rect b = v->body, a = v->area;
  const double yc = b.y + 0.5 * b.h;
  colour(cr, grid, 1.0);
  rect_path(cr, b);
  cairo_fill(cr);
  if (v->clamped) {
    const ui_rect clamp = {b.x - 12, yc - 16, 12, 32};
    cairo_save(cr);
    rect_path(cr, clamp);
    cairo_clip(cr);
    colour(cr, dim, 1.0);
    cairo_paint(cr);
    colour(cr, panel, 1.0);
    cairo_set_line_width(cr, 1.5);
    for (double d = -clamp.h; d < clamp.w; d += 5) {
      cairo_move_to(cr, clamp.x + d, clamp.y + clamp.h);
      cairo_line_to(cr, clamp.x + d + clamp.h, clamp.y);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
  } else if (s->family == SHAPE_STRING) {
    colour(cr, dim, 1.0);
    rect_path(cr, (ui_rect){b.x - 3, yc - 10, 3, 20});
    rect_path(cr, (ui_rect){b.x + b.w, yc - 10, 3, 20});
    cairo_fill(cr);
  }
  if (!s->shapes)
    return;
  /* the deflection, filled to the strip's line: above it, then below */
  const int n = UI_STRIP_POINTS;
  for (int side = 0; side < 2; ++side) {
    cairo_save(cr);
    cairo_rectangle(cr, a.x, side ? yc : a.y, a.w,
                    side ? a.y + a.h - yc : yc - a.y);
    cairo_clip(cr);
    cairo_move_to(cr, b.x, yc);
    for (int k = 0; k < n; ++k)
      cairo_line_to(cr, b.x + b.w * k / (n - 1),
                    yc - v->amplitude * s->strip[k]);
    cairo_line_to(cr, b.x + b.w, yc);
    cairo_close_path(cr);
    const rgb c = deflection_colour(side ? -1.0 : 1.0);
    colour(cr, c, 0.45);
    cairo_fill(cr);
    cairo_restore(cr);
  }
  colour(cr, text, 0.9);
  cairo_set_line_width(cr, 1.5);
  for (int k = 0; k < n; ++k)
    cairo_line_to(cr, b.x + b.w * k / (n - 1), yc - v->amplitude * s->strip[k]);
  cairo_stroke(cr);
  /* the nodes: where the mode does not move, nor is driven or heard */
  cairo_set_line_width(cr, 1.0);
  cairo_set_dash(cr, (const double[]){2, 2}, 2, 0);
  colour(cr, text, 0.6);
  for (int k = 0; k < s->n_nodes; ++k) {
    const double x = b.x + s->nodes[k] * b.w;
    cairo_move_to(cr, x, yc - v->amplitude - 3);
    cairo_line_to(cr, x, yc + v->amplitude + 3);
  }
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  for (int k = 0; k < s->n_nodes; ++k)
    dot(cr, b.x + s->nodes[k] * b.w, yc, 2.0, text);
}

/* a triangle pointing down (the point, above a strip) or up (a pickup,
 * below it) with its tip at (x, y) */
static void
triangle(cairo_t* cr, double x, double y, double size, bool down)
{
  const double d = down ? -1.0 : 1.0;
  cairo_move_to(cr, x, y);
  cairo_line_to(cr, x - 0.6 * size, y + d * size);
  cairo_line_to(cr, x + 0.6 * size, y + d * size);
  cairo_close_path(cr);
}

static void
draw_handles(const ui_state* s, cairo_t* cr, const ui_shape_view* v)
{
  const ui_place p = ui_state_place(s);
  const rgb pickup = material_colour[UI_GLASS];
  const bool strip = v->kind == UI_SHAPE_STRIP;
  const double yc = v->body.y + 0.5 * v->body.h;
  cairo_set_line_width(cr, 1.0);
  for (int h = UI_HANDLE_RIGHT; h >= UI_HANDLE_LEFT; --h) {
    double x, y;
    ui_handle_px(v, &p, (ui_handle)h, &x, &y);
    const bool left = h == UI_HANDLE_LEFT;
    if (strip) {
      triangle(cr, x, y - 6, 9, false);
      colour(cr, pickup, 1.0);
      cairo_fill_preserve(cr);
      colour(cr, background, 1.0);
      cairo_stroke(cr);
    } else {
      /* a ring, edged dark: it shows on either sign's colour */
      cairo_new_path(cr);
      cairo_arc(cr, x, y, 4.5, 0, 2 * PI);
      colour(cr, background, 0.8);
      cairo_fill_preserve(cr);
      colour(cr, background, 1.0);
      cairo_set_line_width(cr, 4.0);
      cairo_stroke_preserve(cr);
      colour(cr, pickup, 1.0);
      cairo_set_line_width(cr, 2.0);
      cairo_stroke(cr);
      cairo_set_line_width(cr, 1.0);
    }
    label(cr, left ? x - 7 : x + 7, strip ? y + 3 : y + 4, 10, true,
          left ? RIGHT : LEFT, strip ? pickup : text, left ? "L" : "R");
  }
  double x, y;
  ui_handle_px(v, &p, UI_HANDLE_POINT, &x, &y);
  if (strip) {
    /* the hammer (bow, ball) above the strip, a line down to its point */
    colour(cr, accent, 0.7);
    cairo_set_dash(cr, (const double[]){3, 2}, 2, 0);
    cairo_move_to(cr, x, y + 6);
    cairo_line_to(cr, x, yc);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    triangle(cr, x, y + 6, 10, true);
  } else {
    cairo_new_path(cr);
    cairo_arc(cr, x, y, 5.5, 0, 2 * PI);
  }
  colour(cr, accent, 1.0);
  cairo_fill_preserve(cr);
  colour(cr, background, 1.0);
  cairo_stroke(cr);
}

/* where the last note's point was, along the object (the meter has x
 * only: on a square a tick at each side, on a disc its circle) */
static void
draw_strike(const ui_state* s, cairo_t* cr, const ui_shape_view* v)
{
  const double at = s->value[s->place + PLACE_STRIKE_METER];
  if (!(at > 0.0) || s->place + PLACE_STRIKE_METER >= s->n_ports)
    return;
  const ui_rect b = v->body;
  double x, y;
  ui_shape_to_px(v, at, 0.0, &x, &y);
  switch (v->kind) {
  case UI_SHAPE_STRIP:
    dot(cr, x, y, 3.5, live);
    break;
  case UI_SHAPE_SQUARE:
    colour(cr, live, 1.0);
    triangle(cr, x, b.y, 6, true);
    triangle(cr, x, b.y + b.h, 6, false);
    cairo_fill(cr);
    break;
  case UI_SHAPE_DISC:
    colour(cr, live, 0.9);
    cairo_set_line_width(cr, 1.5);
    cairo_set_dash(cr, (const double[]){3, 3}, 2, 0);
    cairo_new_path(cr);
    cairo_arc(cr, b.x + 0.5 * b.w, b.y + 0.5 * b.h, at * 0.5 * b.w, 0, 2 * PI);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    break;
  }
}

/* the value of a handle's ports as the drag sets them */
static void
handle_text(const ui_state* s, char* out, size_t size, ui_handle h, bool across)
{
  const int port = ui_state_handle_port(s, h);
  char v[32];
  port_text(v, sizeof(v), ui_port(s, port), s->value[port]);
  int n = snprintf(out, size, "%s %s", ui_port(s, port)->name, v);
  if (across && n > 0 && (size_t)n < size) {
    const int y = s->place + PLACE_POSITION_Y;
    port_text(v, sizeof(v), ui_port(s, y), s->value[y]);
    snprintf(out + n, size - n, ", across %s", v);
  }
}

static void
draw_object(const ui_state* s, cairo_t* cr)
{
  const ui_layout* l = &s->layout;
  const ui_rect o = l->object;
  panel_box(cr, o, "Object");
  const ui_shape_view v = ui_state_shape_view(s);
  const int mode = ui_state_pictured_mode(s);
  char t[96];
  if (s->shapes) {
    if (v.kind == UI_SHAPE_STRIP)
      snprintf(t, sizeof(t), "mode %d, %d node%s", mode + 1, s->n_nodes,
               s->n_nodes == 1 ? "" : "s");
    else
      snprintf(t, sizeof(t), "mode %d and its nodal lines", mode + 1);
    label(cr, o.x + o.w - 8, o.y + 15, 10, false, RIGHT, dim, t);
    if (s->drag.kind == UI_DRAG_HANDLE && s->drag.moved) {
      handle_text(s, t, sizeof(t), (ui_handle)s->drag.index,
                  s->drag.index == UI_HANDLE_POINT && v.kind != UI_SHAPE_STRIP);
      label(cr, o.x + 8, o.y + 29, 10, false, LEFT, accent, t);
    } else {
      label(cr, o.x + 8, o.y + 29, 10, false, LEFT, dim,
            "drag the point and pickups");
      const double at = s->value[s->place + PLACE_STRIKE_METER];
      if (at > 0.0) {
        snprintf(t, sizeof(t), "last %.2f", at);
        label(cr, o.x + o.w - 8, o.y + 29, 10, false, RIGHT, live, t);
      }
    }
  }
  const ui_rect a = ui_object_area(l, s->n_params - s->n_list);
  cairo_save(cr);
  rect_path(cr, a);
  cairo_clip(cr);
  if (v.kind == UI_SHAPE_STRIP)
    draw_strip(s, cr, &v);
  else
    draw_map(s, cr, &v);
  if (s->shapes) {
    draw_strike(s, cr, &v);
    draw_handles(s, cr, &v);
  } else {
    const int f = (int)s->value[s->place + PLACE_SHAPE];
    label(cr, a.x + 0.5 * a.w, a.y + 18, 10, false, CENTRE, dim,
          f == SHAPE_TABLE ? "the table file carries no shapes:"
                           : "no shapes:");
    label(cr, a.x + 0.5 * a.w, a.y + 31, 10, false, CENTRE, dim,
          "the modes' gains as given");
  }
  cairo_restore(cr);
  for (int k = s->n_list; k < s->n_params; ++k)
    draw_param_row(s, cr, k);
}

/* ---- material map
 * ------------------------------------------------------------ */

static void
draw_material(const ui_state* s, cairo_t* cr)
{
  const ui_layout* l = &s->layout;
  char title[96];
  snprintf(title, sizeof(title), "Material: %s (q %.0f)",
           ui_materials[s->material].name, s->q);
  panel_box(cr, l->material, title);
  label(cr, l->material.x + 8, l->material.y + 29, 10.5, false, LEFT, dim,
        "decay against frequency, q = \xcf\x80 f t\xe2\x82\x91");
  const ui_rect r = l->material_plot;
  plot_frame(cr, r);
  const ui_axis fx = {20.0, 20000.0, r.x, r.x + r.w, true};
  const ui_axis ty = {1e-3, 100.0, r.y + r.h, r.y, true};
  /* the grid first, under the bands and the modes: no line crosses a dot */
  frequency_grid(cr, &fx, r);
  decade_grid(cr, &ty, r, 1.0, " s");
  cairo_save(cr);
  rect_path(cr, r);
  cairo_clip(cr);
  /* [ch5] table 5.2: each material a band between two lines of constant
   * q, t_e = q / (pi f) */
  for (int m = 0; m < UI_MATERIALS; ++m) {
    const ui_material_range* range = &ui_materials[m];
    colour(cr, material_colour[m], m == (int)s->material ? 0.30 : 0.14);
    cairo_move_to(cr, r.x, ui_axis_to_px(&ty, range->q_lo / (PI * fx.lo)));
    cairo_line_to(cr, r.x + r.w,
                  ui_axis_to_px(&ty, range->q_lo / (PI * fx.hi)));
    cairo_line_to(cr, r.x + r.w,
                  ui_axis_to_px(&ty, range->q_hi / (PI * fx.hi)));
    cairo_line_to(cr, r.x, ui_axis_to_px(&ty, range->q_hi / (PI * fx.lo)));
    cairo_close_path(cr);
    cairo_fill(cr);
  }
  for (int i = 0; i < s->n_modes; ++i) {
    const ui_mode* m = &s->modes[i];
    if (!m->enabled || !(m->gain > 0))
      continue;
    const double x = ui_axis_to_px(&fx, m->freq);
    const double y = ui_axis_to_px(&ty, m->decay);
    dot(cr, x, y, 1.5 + 2.5 * sqrt(fmin(m->gain, 1.0)),
        i == s->selected ? accent : text);
  }
  cairo_restore(cr);
  /* each material's name inside its band, at 1 kHz */
  for (int m = 0; m < UI_MATERIALS; ++m) {
    const ui_material_range* range = &ui_materials[m];
    const double q = m == UI_STEEL   ? 2.5 * range->q_lo
                     : m == UI_GLASS ? 1.4 * range->q_lo
                                     : sqrt(range->q_lo * range->q_hi);
    const double f = m == UI_STEEL ? 2000 : m == UI_GLASS ? 150 : 400;
    const double y = ui_axis_to_px(&ty, q / (PI * f));
    if (y > r.y + 8 && y < r.y + r.h - 2)
      label(cr, ui_axis_to_px(&fx, f), y, 10, true, CENTRE, material_colour[m],
            range->name);
  }
}

/* ---- contact panel
 * ----------------------------------------------------------- */

static void
meter_line(const ui_state* s, cairo_t* cr, double x, double y,
           const char* symbol, const char* prefix)
{
  const int i = ui_port_index(s, symbol);
  if (i < 0)
    return;
  char value[48], line[96];
  port_text(value, sizeof(value), ui_port(s, i), s->value[i]);
  snprintf(line, sizeof(line), "%s%s %s", prefix, ui_port(s, i)->name, value);
  label(cr, x, y, 11, false, LEFT, live, line);
}

/* an axis over the curve's values with some room, log or linear */
static ui_axis
value_axis(const double* ys, int n, double px0, double px1, bool log_scale,
           double floor_value)
{
  double lo = INFINITY, hi = -INFINITY;
  for (int k = 0; k < n; ++k)
    if (isfinite(ys[k]) && (!log_scale || ys[k] > 0)) {
      lo = fmin(lo, ys[k]);
      hi = fmax(hi, ys[k]);
    }
  if (!(hi >= lo))
    lo = hi = log_scale ? 1.0 : 0.0;
  if (log_scale) {
    lo = fmax(lo / 2, floor_value);
    hi = fmax(hi * 2, lo * 10);
  } else {
    const double pad = fmax(0.1 * (hi - lo), 1e-6);
    lo -= pad;
    hi += pad;
  }
  return (ui_axis){lo, hi, px0, px1, log_scale};
}

static void
draw_impact(const ui_state* s, cairo_t* cr, ui_rect r)
{
  const double v_lo = s->curve_x[0], v_hi = s->curve_x[UI_CURVE_POINTS - 1];
  const ui_axis x = {v_lo, v_hi, r.x, r.x + r.w, true};
  const ui_axis y =
      value_axis(s->curve_y, UI_CURVE_POINTS, r.y + r.h, r.y, true, 1e-7);
  decade_grid(cr, &y, r, 1e3, " ms");
  /* rebound as a share of the impact velocity, 0..1 on the right */
  const ui_axis e = {0.0, 1.0, r.y + r.h, r.y, false};
  double ratio[UI_CURVE_POINTS];
  for (int k = 0; k < UI_CURVE_POINTS; ++k)
    ratio[k] = -s->curve_y2[k] / s->curve_x[k];
  cairo_set_line_width(cr, 2.0);
  colour(cr, text, 1.0);
  curve(cr, &x, &y, s->curve_x, s->curve_y, UI_CURVE_POINTS);
  colour(cr, material_colour[UI_GLASS], 1.0);
  curve(cr, &x, &e, s->curve_x, ratio, UI_CURVE_POINTS);
  label(cr, r.x + r.w + 4, r.y + 8, 10, false, LEFT, material_colour[UI_GLASS],
        "rebound");
  label(cr, r.x + r.w + 4, r.y + 20, 10, false, LEFT, material_colour[UI_GLASS],
        "/ impact");
  label(cr, r.x + r.w + 4, r.y + r.h, 10, false, LEFT, dim, "0");
  label(cr, r.x + r.w + 4, r.y + 32, 10, false, LEFT, dim, "1");
  char t[32];
  snprintf(t, sizeof(t), "%.2g", v_lo);
  label(cr, r.x, r.y + r.h + 13, 10, false, CENTRE, dim, t);
  snprintf(t, sizeof(t), "%.2g m/s", v_hi);
  label(cr, r.x + r.w, r.y + r.h + 13, 10, false, CENTRE, dim, t);
  label(cr, r.x + 0.5 * r.w, r.y + r.h + 13, 10, false, CENTRE, dim,
        "impact velocity");

  /* the last strike: measured beside predicted */
  const double v = ui_value(s, "impact_velocity");
  const double t_c = ui_value(s, "contact_time") * 1e-3;
  if (v > 0 && t_c > 0) {
    cairo_save(cr);
    rect_path(cr, r);
    cairo_clip(cr);
    dot(cr, ui_axis_to_px(&x, v), ui_axis_to_px(&y, t_c), 4.5, live);
    dot(cr, ui_axis_to_px(&x, v),
        ui_axis_to_px(&e, -ui_value(s, "rebound_velocity") / v), 3.5, live);
    cairo_restore(cr);
  }
  const double ly = r.y + r.h + 42;
  label(cr, r.x - 42, ly - 15, 10, false, LEFT, dim, "last strike (the dots):");
  meter_line(s, cr, r.x - 42, ly, "contact_time", "");
  meter_line(s, cr, r.x + 120, ly, "impact_velocity", "");
  meter_line(s, cr, r.x - 42, ly + 15, "peak_force", "");
  meter_line(s, cr, r.x + 120, ly + 15, "rebound_velocity", "");
}

/* The felt ([borin] eq 1): its static force against compression, the
 * compressions of the softest and strongest blows (dashed), K at y0, and
 * the last strike's peak force where the static felt bears it.  A
 * hysteretic felt's loop in the strongest blow is drawn under it when
 * there is one (not while the ports offer no hysteresis). */
static void
draw_felt(const ui_state* s, cairo_t* cr, ui_rect r)
{
  const int n = UI_CURVE_POINTS;
  const double reach = s->curve_x[n - 1];
  const ui_axis x = {0.0, reach, r.x, r.x + r.w, false};
  double f_peak = 1e-9;
  for (int k = 0; k < n; ++k)
    f_peak = fmax(f_peak, s->curve_y[k]);
  const ui_axis y = {0.0, 1.1 * f_peak, r.y + r.h, r.y, false};
  cairo_save(cr);
  rect_path(cr, r);
  cairo_clip(cr);
  cairo_set_line_width(cr, 1.0);
  colour(cr, accent, 0.8);
  cairo_set_dash(cr, (const double[]){4, 3}, 2, 0);
  for (int b = 0; b < 2; ++b) {
    const double px = floor(ui_axis_to_px(&x, s->felt_blow[b])) + 0.5;
    cairo_move_to(cr, px, r.y);
    cairo_line_to(cr, px, r.y + r.h);
  }
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  cairo_set_line_width(cr, 2.0);
  colour(cr, material_colour[UI_GLASS], 1.0);
  curve(cr, &x, &y, s->felt_loop_x, s->felt_loop_f, s->n_felt_loop);
  colour(cr, text, 1.0);
  curve(cr, &x, &y, s->curve_x, s->curve_y, n);
  if (s->felt.y0 < reach)
    dot(cr, ui_axis_to_px(&x, s->felt.y0), ui_axis_to_px(&y, s->felt.k), 3.5,
        accent);
  const double peak = ui_value(s, "peak_force");
  if (peak > 0) {
    const felt_law bare = {s->felt.k, s->felt.y0, s->felt.eta, 0.0, 0.0};
    const double xp = felt_static_compression(&bare, peak);
    dot(cr, ui_axis_to_px(&x, fmin(xp, reach)),
        ui_axis_to_px(&y, fmin(peak, y.hi)), 4.5, live);
  }
  cairo_restore(cr);
  char t[48];
  snprintf(t, sizeof(t), "%.3g N", y.hi);
  label(cr, r.x - 4, r.y + 8, 10, false, RIGHT, dim, t);
  label(cr, r.x - 4, r.y + r.h, 10, false, RIGHT, dim, "0");
  label(cr, r.x, r.y + r.h + 13, 10, false, CENTRE, dim, "0");
  snprintf(t, sizeof(t), "%.3g mm", reach * 1e3);
  label(cr, r.x + r.w, r.y + r.h + 13, 10, false, CENTRE, dim, t);
  label(cr, r.x + 0.5 * r.w, r.y + r.h + 13, 10, false, CENTRE, dim,
        "compression (dashed: blows 1, 127)");
  snprintf(t, sizeof(t), "K at y0");
  label(cr, r.x + r.w + 4, r.y + 8, 10, false, LEFT, accent, t);
  const double ly = r.y + r.h + 42;
  label(cr, r.x - 42, ly - 15, 10, false, LEFT, dim, "last strike (the dot):");
  meter_line(s, cr, r.x - 42, ly, "contact_time", "");
  meter_line(s, cr, r.x + 120, ly, "impact_velocity", "");
  meter_line(s, cr, r.x - 42, ly + 15, "peak_force", "");
  meter_line(s, cr, r.x + 120, ly + 15, "rebound_velocity", "");
}

static void
draw_friction(const ui_state* s, cairo_t* cr, ui_rect r)
{
  const int n = UI_CURVE_POINTS;
  const double reach = s->curve_x[n - 1];
  const ui_axis x = {-reach, reach, r.x, r.x + r.w, false};
  const double f_max = fmax(1e-6, 1.2 * fabs(s->curve_y[n / 2]));
  double f_peak = f_max;
  for (int k = 0; k < n; ++k)
    f_peak = fmax(f_peak, 1.1 * fabs(s->curve_y[k]));
  const ui_axis y = {-f_peak, f_peak, r.y + r.h, r.y, false};
  /* axes through 0 */
  colour(cr, grid, 1.0);
  cairo_set_line_width(cr, 1.0);
  cairo_move_to(cr, floor(ui_axis_to_px(&x, 0)) + 0.5, r.y);
  cairo_line_to(cr, floor(ui_axis_to_px(&x, 0)) + 0.5, r.y + r.h);
  cairo_move_to(cr, r.x, floor(ui_axis_to_px(&y, 0)) + 0.5);
  cairo_line_to(cr, r.x + r.w, floor(ui_axis_to_px(&y, 0)) + 0.5);
  cairo_stroke(cr);
  cairo_set_line_width(cr, 2.0);
  colour(cr, text, 1.0);
  curve(cr, &x, &y, s->curve_x, s->curve_y, n);
  char t[40];
  snprintf(t, sizeof(t), "%.3g N", f_peak);
  label(cr, r.x - 4, r.y + 8, 10, false, RIGHT, dim, t);
  snprintf(t, sizeof(t), "-%.3g", f_peak);
  label(cr, r.x - 4, r.y + r.h, 10, false, RIGHT, dim, t);
  snprintf(t, sizeof(t), "%.3g m/s", reach);
  label(cr, r.x + r.w, r.y + r.h + 13, 10, false, CENTRE, dim, t);
  snprintf(t, sizeof(t), "-%.3g", reach);
  label(cr, r.x, r.y + r.h + 13, 10, false, CENTRE, dim, t);
  label(cr, r.x + 0.5 * r.w, r.y + r.h + 13, 10, false, CENTRE, dim,
        "slip velocity (Stribeck curve)");
  /* the operating point: the friction force opposes the slip */
  const double v = ui_value(s, "slip_velocity");
  const double f = ui_value(s, "friction_force");
  cairo_save(cr);
  rect_path(cr, r);
  cairo_clip(cr);
  dot(cr, ui_axis_to_px(&x, fmax(-reach, fmin(reach, v))),
      ui_axis_to_px(&y, fmax(-f_peak, fmin(f_peak, f))), 4.5, live);
  cairo_restore(cr);
  const double ly = r.y + r.h + 42;
  meter_line(s, cr, r.x - 42, ly, "slip_velocity", "");
  meter_line(s, cr, r.x + 160, ly, "friction_force", "");
  meter_line(s, cr, r.x - 42, ly + 15, "voices", "");
}

static void
draw_rolling(const ui_state* s, cairo_t* cr, ui_rect r)
{
  const int n = UI_CURVE_POINTS;
  const ui_axis x = {s->curve_x[0], s->curve_x[n - 1], r.x, r.x + r.w, true};
  const ui_axis y = {-60.0, 20.0, r.y + r.h, r.y, false};
  frequency_grid(cr, &x, r);
  for (int db = -60; db <= 20; db += 20) {
    const double py = floor(ui_axis_to_px(&y, db)) + 0.5;
    colour(cr, grid, 1.0);
    cairo_move_to(cr, r.x, py);
    cairo_line_to(cr, r.x + r.w, py);
    cairo_stroke(cr);
    char t[16];
    snprintf(t, sizeof(t), "%d dB", db);
    label(cr, r.x - 4, py + 4, 10, false, RIGHT, dim, t);
  }
  cairo_save(cr);
  rect_path(cr, r);
  cairo_clip(cr);
  cairo_set_line_width(cr, 2.0);
  colour(cr, text, 1.0);
  curve(cr, &x, &y, s->curve_x, s->curve_y, n);
  /* the ball's size cut-off */
  if (isfinite(s->cutoff) && s->cutoff > 0) {
    const double px = ui_axis_to_px(&x, s->cutoff);
    colour(cr, accent, 1.0);
    cairo_set_dash(cr, (const double[]){4, 3}, 2, 0);
    cairo_move_to(cr, px, r.y);
    cairo_line_to(cr, px, r.y + r.h);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    char t[40];
    snprintf(t, sizeof(t), "ball cut-off %.0f Hz", s->cutoff);
    label(cr, fmin(px + 4, r.x + r.w - 110), r.y + 12, 10, false, LEFT, accent,
          t);
  }
  /* contact: the share of the block in contact as a bar on the right */
  const double share = fmax(0, fmin(1, ui_value(s, "contact_fraction")));
  cairo_restore(cr);
  const ui_rect bar = {r.x + r.w + 14, r.y, 10, r.h};
  colour(cr, background, 1.0);
  rect_path(cr, bar);
  cairo_fill(cr);
  colour(cr, live, 1.0);
  rect_path(
      cr, (ui_rect){bar.x, bar.y + bar.h * (1 - share), bar.w, bar.h * share});
  cairo_fill(cr);
  /* under the frequency ticks */
  label(cr, r.x + 0.5 * r.w, r.y + r.h + 26, 10, false, CENTRE, dim,
        "surface profile at the ball's speed (Hz)");
  const double ly = r.y + r.h + 42;
  meter_line(s, cr, r.x - 42, ly, "contact_force", "");
  meter_line(s, cr, r.x + 160, ly, "contact_fraction", "");
}

static void
draw_contact(const ui_state* s, cairo_t* cr)
{
  const ui_layout* l = &s->layout;
  static const char* const titles[] = {
      [UI_PANEL_IMPACT] = "Contact: time and rebound (Hunt-Crossley)",
      [UI_PANEL_FRICTION] = "Contact: friction against slip (Stribeck)",
      [UI_PANEL_ROLLING] = "Contact: surface and ball",
  };
  panel_box(cr, l->contact,
            s->felt_curve ? "Contact: felt force against compression"
                          : titles[s->panel]);
  const ui_rect r = l->contact_plot;
  plot_frame(cr, r);
  switch (s->panel) {
  case UI_PANEL_IMPACT:
    if (s->felt_curve)
      draw_felt(s, cr, r);
    else
      draw_impact(s, cr, r);
    break;
  case UI_PANEL_FRICTION:
    draw_friction(s, cr, r);
    break;
  case UI_PANEL_ROLLING:
    draw_rolling(s, cr, r);
    break;
  }
}

/* ---- ports
 * ---------------------------------------------------------------------- */

/* parameter row k (the list's, or the object panel's) */
static void
draw_param_row(const ui_state* s, cairo_t* cr, int k)
{
  const int index = s->param_port[k];
  const port_info* p = ui_port(s, index);
  const ui_rect row = ui_state_param_row(s, k);
  const ui_rect slider = ui_param_slider(row);
  const ui_axis a = ui_axis_of_port(p, slider.x, slider.x + slider.w);
  const double v = s->value[index];
  label(cr, row.x + 2, row.y + 10.5, 10.5, false, LEFT, dim, p->name);
  char t[48];
  port_text(t, sizeof(t), p, v);
  label(cr, slider.x - 4, row.y + 10.5, 10.5, false, RIGHT, text, t);
  colour(cr, background, 1.0);
  rect_path(cr, slider);
  cairo_fill(cr);
  const double fill =
      fmax(slider.x, fmin(slider.x + slider.w, ui_axis_to_px(&a, v)));
  colour(cr, accent, 0.8);
  rect_path(cr, (ui_rect){slider.x, slider.y, fill - slider.x, slider.h});
  cairo_fill(cr);
}

static void
draw_params(const ui_state* s, cairo_t* cr)
{
  panel_box(cr, s->layout.params, "Controls (drag, wheel; click toggles)");
  for (int k = 0; k < s->n_list; ++k)
    draw_param_row(s, cr, k);
}

ui_rect
ui_area_rect(const ui_state* s, unsigned area_bit)
{
  const ui_layout* l = &s->layout;
  switch (area_bit) {
  case UI_AREA_HEADER:
    return l->header;
  case UI_AREA_MODES:
    return l->modes;
  case UI_AREA_MATERIAL:
    return l->material;
  case UI_AREA_CONTACT:
    return l->contact;
  case UI_AREA_PARAMS:
    return l->params;
  case UI_AREA_OBJECT:
    return l->object;
  default:
    return (ui_rect){0, 0, UI_WIDTH, UI_HEIGHT};
  }
}

static bool
meets(ui_rect a, ui_rect b)
{
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h &&
         b.y < a.y + a.h;
}

void
ui_draw(const ui_state* s, cairo_t* cr, ui_rect clip)
{
  /* the background under the clip, then each part that meets it (the
   * completions lie over the others, so last) */
  colour(cr, background, 1.0);
  cairo_paint(cr);
  if (meets(clip, s->layout.header))
    draw_header(s, cr);
  if (meets(clip, s->layout.object))
    draw_object(s, cr);
  if (meets(clip, s->layout.modes))
    draw_modes(s, cr);
  if (meets(clip, s->layout.material))
    draw_material(s, cr);
  if (meets(clip, s->layout.contact))
    draw_contact(s, cr);
  if (meets(clip, s->layout.params))
    draw_params(s, cr);
  draw_choices(s, cr);
}
