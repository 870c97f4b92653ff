/* SPDX-License-Identifier: ISC */
/*
 * The instruments' UI (one for the three): an X11 UI over pugl (view.c),
 * showing the object's modes, its material and the contact, from the
 * plugin's live port values.  Gestures become port writes, the table file
 * a patch:Set (uris.h, shared with the plugin).
 *
 * The modes shown are the 16 mode ports, editable; or, when the plugin
 * plays a table file, the file's modes, read-only (a file is edited as a
 * file; "clear" goes back to the ports); a keymap shows its middle zone.
 */
#define _POSIX_C_SOURCE 200809L

#include "modal_keymap.h"
#include "ui_state.h"
#include "uris.h"
#include "view.h"

#include "friction_ports.h"
#include "impact_ports.h"
#include "rolling_ports.h"

#include <lv2/log/logger.h>
#include <lv2/ui/ui.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Two presses on one mode within this time are a double click. */
static const double double_click_s = 0.4;
/* A press moves a mode only once the pointer has gone this far (px). */
static const double drag_threshold = 2.0;
/* Bars are grabbed this far (px) beside them: a 2 px bar is hard to hit. */
static const double hit_slop = 5.0;
/* Shift makes a drag this much finer. */
static const double fine_drag = 0.1;
/* The object's handles are grabbed this far (px) from their centres. */
static const double handle_radius = 9.0;

typedef struct ui {
  ui_state s;
  LV2UI_Write_Function write;
  LV2UI_Controller controller;
  LV2_URID_Map* map;
  LV2_Log_Logger logger;
  contact_uris uris;
  LV2_Atom_Forge forge;
  LV2UI_Resize* resize;
  view* view;
  bool closed;
  int notify;       /* the notify port's index */
  unsigned pending; /* parts to draw again (enum ui_area) */
  unsigned waited;  /* parts left for the next frame at the last one */
  ui_analysis* job; /* a recording being analysed, or NULL */
} ui;

static double
now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* draw again the parts in `areas` (enum ui_area), at the next idle() */
static void
redraw_areas(ui* u, unsigned areas)
{
  u->pending |= areas;
}

/* What one idle() draws: a frame costs in proportion to the pixels it
 * covers (a software GL rasterises ~7 ns a pixel; the whole window takes
 * longer than the 5 ms an idle() may), so the parts waiting are drawn in
 * this order, as many per frame as fit in frame_budget_px together; the
 * rest at the next idle, 1/30 s later.  Parts join a frame only when the
 * rectangle round them meets no other part (every part it meets is drawn
 * again, at a part's cost).  A meter (the contact panel, the object's
 * strike), a dragged mode (the editor) or handle (the object and the
 * editor beside it) is one frame; the whole window, five.  Parts left
 * out of a frame go first in the next, so that meters moving every frame
 * in one part cannot keep another from being drawn (the contact panel's
 * and the strike's, both moving, take turns). */
static const double frame_budget_px = 160e3;
static const unsigned draw_order[] = {UI_AREA_MODES,    UI_AREA_CONTACT,
                                      UI_AREA_OBJECT,   UI_AREA_HEADER,
                                      UI_AREA_MATERIAL, UI_AREA_PARAMS};

static ui_rect
bounds(ui_rect a, ui_rect b)
{
  const double x0 = fmin(a.x, b.x), y0 = fmin(a.y, b.y);
  const double x1 = fmax(a.x + a.w, b.x + b.w);
  const double y1 = fmax(a.y + a.h, b.y + b.h);
  return (ui_rect){x0, y0, x1 - x0, y1 - y0};
}

static bool
meets(ui_rect a, ui_rect b)
{
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h &&
         b.y < a.y + a.h;
}

/* whether `frame` meets a part not among `parts` */
static bool
meets_others(const ui* u, ui_rect frame, unsigned parts)
{
  for (size_t i = 0; i < sizeof(draw_order) / sizeof(draw_order[0]); ++i)
    if (!(parts & draw_order[i]) &&
        meets(frame, ui_area_rect(&u->s, draw_order[i])))
      return true;
  return false;
}

static void
draw_pending(ui* u)
{
  ui_rect frame = {0, 0, 0, 0};
  unsigned taken = 0;
  const size_t n = sizeof(draw_order) / sizeof(draw_order[0]);
  for (size_t i = 0; i < 2 * n; ++i) {
    /* first the parts that waited, then the others */
    const unsigned area = draw_order[i % n];
    const bool waited = (u->waited & area) != 0;
    if (!(u->pending & area) || (taken & area) || waited != (i < n))
      continue;
    const ui_rect r = ui_area_rect(&u->s, area);
    const ui_rect grown = taken ? bounds(frame, r) : r;
    if (taken && (grown.w * grown.h > frame_budget_px ||
                  meets_others(u, grown, taken | area)))
      continue;
    frame = grown;
    taken |= area;
  }
  u->waited = u->pending & ~taken;
  if (!taken)
    return;
  u->pending &= ~taken;
  view_redraw_area(u->view, frame.x, frame.y, frame.w, frame.h);
}

static void
redraw(ui* u)
{
  redraw_areas(u, UI_AREA_ALL);
}

/* ---- ports ----------------------------------------------------------------
 */

/* A port changed: what it makes stale, and the parts that show it (a
 * meter, 30 times a second while playing, only its own panel). */
static void
port_changed(ui* u, int index)
{
  redraw_areas(u, ui_state_port_changed(&u->s, index));
}

/* the state's writer: every value an edit sets goes to the plugin */
static void
write_port(void* handle, int index, float value)
{
  ui* u = handle;
  port_changed(u, index);
  u->write(u->controller, (uint32_t)index, sizeof(float), 0, &value);
}

static void
undo(ui* u)
{
  ui_state_undo(&u->s);
  redraw(u);
}

/* ---- the table file --------------------------------------------------------
 */

static void
send_table(ui* u, const char* path)
{
  uint8_t buffer[PATH_MAX + 256];
  lv2_atom_forge_set_buffer(&u->forge, buffer, sizeof(buffer));
  LV2_Atom* set = (LV2_Atom*)contact_write_set_table(&u->forge, &u->uris, path,
                                                     (uint32_t)strlen(path));
  if (!set)
    return;
  u->write(u->controller, 0, lv2_atom_total_size(set),
           u->uris.atom_eventTransfer, set);
}

static void
ask_table(ui* u)
{
  uint8_t buffer[256];
  lv2_atom_forge_set_buffer(&u->forge, buffer, sizeof(buffer));
  LV2_Atom* get = (LV2_Atom*)contact_write_get_table(&u->forge, &u->uris);
  if (get)
    u->write(u->controller, 0, lv2_atom_total_size(get),
             u->uris.atom_eventTransfer, get);
}

/* The recent paths: $XDG_CONFIG_HOME/contact/recent-tables (or
 * ~/.config/...), one per line, newest first. */
static bool
recent_file(char* out, size_t size)
{
  const char* config = getenv("XDG_CONFIG_HOME");
  const char* home = getenv("HOME");
  int n;
  if (config && *config)
    n = snprintf(out, size, "%s/contact/recent-tables", config);
  else if (home && *home)
    n = snprintf(out, size, "%s/.config/contact/recent-tables", home);
  else
    return false;
  return n > 0 && (size_t)n < size;
}

static void
load_recent(ui* u)
{
  char path[PATH_MAX];
  u->s.n_recent = 0;
  if (!recent_file(path, sizeof(path)))
    return;
  FILE* f = fopen(path, "r");
  if (!f)
    return;
  char line[PATH_MAX];
  while (u->s.n_recent < UI_RECENT && fgets(line, sizeof(line), f)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (*line)
      snprintf(u->s.recent[u->s.n_recent++], PATH_MAX, "%s", line);
  }
  fclose(f);
}

static void
mkdir_or_keep(const char* path)
{
  /* an existing folder is fine; any other failure shows when writing */
  (void)mkdir(path, 0755);
}

static void
make_parents(char* path)
{
  for (char* p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
    *p = '\0';
    mkdir_or_keep(path);
    *p = '/';
  }
}

static void
remember(ui* u, const char* table)
{
  /* newest first, once */
  char kept[UI_RECENT][PATH_MAX];
  int n = 0;
  snprintf(kept[n++], PATH_MAX, "%s", table);
  for (int i = 0; i < u->s.n_recent && n < UI_RECENT; ++i)
    if (strcmp(u->s.recent[i], table))
      snprintf(kept[n++], PATH_MAX, "%s", u->s.recent[i]);
  memcpy(u->s.recent, kept, sizeof(kept[0]) * n);
  u->s.n_recent = n;
  char path[PATH_MAX];
  if (!recent_file(path, sizeof(path)))
    return;
  make_parents(path);
  FILE* f = fopen(path, "w");
  if (!f)
    return;
  for (int i = 0; i < n; ++i)
    fprintf(f, "%s\n", u->s.recent[i]);
  fclose(f);
}

/* Read the table the plugin plays, to show it (a notification: the file
 * is the plugin's, loaded and checked there already; it is read here on
 * the UI's thread, at most MODAL_TABLE_MAX_BYTES). */
static void
show_table(ui* u, const char* path)
{
  snprintf(u->s.table_path, sizeof(u->s.table_path), "%s", path);
  if (!u->s.field_focus)
    snprintf(u->s.field, sizeof(u->s.field), "%s", path);
  u->s.table_loaded = false;
  u->s.modes_stale = true;
  u->s.selected = -1;
  if (!*path) {
    snprintf(u->s.status, sizeof(u->s.status), "Playing the 16 mode ports");
  } else {
    /* the shapes it may carry too (256 kB), or a keymap's zones (135 kB):
     * on the heap, for the call */
    modal_table_error error;
    modal_shapes* shapes = malloc(sizeof(modal_shapes));
    modal_keymap* map = malloc(sizeof(modal_keymap));
    if (shapes && map &&
        modal_keymap_load(path, map, shapes, &error) == MODAL_TABLE_SUCCESS) {
      u->s.table_loaded = true;
      /* a keymap shows its middle zone */
      const modal_table* zone = &map->zone[map->zones / 2];
      u->s.table = *zone;
      if (map->is_keymap)
        snprintf(u->s.status, sizeof(u->s.status),
                 "Keymap: %d zones%s%s; the zone at note %.0f: %d modes",
                 map->zones, *map->name ? ", " : "", map->name, zone->root,
                 zone->count);
      else
        snprintf(u->s.status, sizeof(u->s.status), "Table: %d modes%s%s%s",
                 u->s.table.count, *u->s.table.name ? ", " : "",
                 u->s.table.name, shapes->nx > 0 ? ", shapes" : "");
    } else {
      snprintf(u->s.status, sizeof(u->s.status),
               "Cannot show the table: %.200s",
               shapes ? error.message : "out of memory");
    }
    if (u->s.table_loaded)
      ui_state_set_table_shapes(&u->s, shapes);
    free(shapes);
    free(map);
  }
  if (!u->s.table_loaded)
    ui_state_set_table_shapes(&u->s, NULL);
  redraw(u);
}

/* Ask the plugin to play the table in the field; a file that does not
 * read as a table is named in the status line and not sent (the plugin
 * would refuse it too, and keep what it has). */
static void analyse_field(ui* u);

static void
commit_field(ui* u)
{
  if (ui_analysis_is_recording(u->s.field)) {
    analyse_field(u); /* a recording: its table is what gets loaded */
    return;
  }
  u->s.field_focus = false;
  u->s.n_choices = 0;
  if (*u->s.field) {
    modal_keymap* check = malloc(sizeof(modal_keymap));
    modal_table_error error = {.message = "out of memory"};
    const bool loaded =
        check && modal_keymap_load(u->s.field, check, NULL, &error) ==
                     MODAL_TABLE_SUCCESS;
    free(check);
    if (!loaded) {
      snprintf(u->s.status, sizeof(u->s.status), "Not loaded: %.200s",
               error.message);
      redraw(u);
      return;
    }
    remember(u, u->s.field);
  }
  send_table(u, u->s.field);
  snprintf(u->s.status, sizeof(u->s.status), "Loading %.200s",
           *u->s.field ? u->s.field : "the mode ports");
  redraw(u);
}

/* ---- a recording analysed into a table -------------------------------------
 * The job runs on its own thread (ui_analysis.h); idle() follows it, and
 * when its table is saved sends it to the plugin like a typed path. */

/* modes fitted from a recording: as many as a table holds that are within
 * the analysis's default range of the strongest */
static const int analysis_max_modes = 64;

static void
analyse_field(ui* u)
{
  u->s.field_focus = false;
  u->s.n_choices = 0;
  if (u->job) {
    snprintf(u->s.status, sizeof(u->s.status), "Already analysing");
  } else if (!ui_analysis_is_recording(u->s.field)) {
    snprintf(u->s.status, sizeof(u->s.status),
             "Type a recording's path (.wav, .flac) to analyse");
    snprintf(u->s.field, sizeof(u->s.field), "%s", u->s.table_path);
  } else if (!(u->job =
                   ui_analysis_start(u->s.field, NULL, analysis_max_modes))) {
    snprintf(u->s.status, sizeof(u->s.status), "Cannot start the analysis");
  } else {
    u->s.analysing = true;
    u->s.analysis_progress = 0.0;
    snprintf(u->s.status, sizeof(u->s.status), "Analysing...");
  }
  redraw_areas(u, UI_AREA_HEADER | UI_AREA_MODES | UI_AREA_MATERIAL);
}

static void
follow_analysis(ui* u)
{
  if (!u->job)
    return;
  double progress = 0.0;
  const ui_analysis_state state = ui_analysis_poll(u->job, &progress);
  if (state == UI_ANALYSIS_RUNNING) {
    if (progress - u->s.analysis_progress >= 0.01) {
      u->s.analysis_progress = progress;
      snprintf(u->s.status, sizeof(u->s.status), "Analysing... %.0f %%",
               100.0 * progress);
      redraw_areas(u, UI_AREA_MODES);
    }
    return;
  }
  if (state == UI_ANALYSIS_DONE) {
    const char* path = ui_analysis_table_path(u->job);
    const float* spectrum = ui_analysis_spectrum(u->job);
    if (spectrum) {
      snprintf(u->s.spectrum_table, sizeof(u->s.spectrum_table), "%s", path);
      memcpy(u->s.spectrum, spectrum, sizeof(u->s.spectrum));
    }
    remember(u, path);
    send_table(u, path);
    snprintf(u->s.field, sizeof(u->s.field), "%s", path);
    snprintf(u->s.status, sizeof(u->s.status), "Analysed: %.200s",
             ui_analysis_message(u->job));
  } else {
    snprintf(u->s.status, sizeof(u->s.status), "Not analysed: %.200s",
             ui_analysis_message(u->job));
    lv2_log_warning(&u->logger, "contact UI: %s\n", u->s.status);
  }
  ui_analysis_free(u->job);
  u->job = NULL;
  u->s.analysing = false;
  redraw_areas(u, UI_AREA_HEADER | UI_AREA_MODES);
}

static void
clear_table(ui* u)
{
  u->s.field[0] = '\0';
  commit_field(u);
}

static bool
has_suffix(const char* s, const char* suffix)
{
  const size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

static void
add_choice(ui* u, const char* path)
{
  for (int i = 0; i < u->s.n_choices; ++i)
    if (!strcmp(u->s.choice[i], path))
      return;
  if (u->s.n_choices < UI_CHOICES)
    snprintf(u->s.choice[u->s.n_choices++], PATH_MAX, "%s", path);
}

/* whether `path` completes what is typed: a path by its prefix, a bare
 * name by its file name's prefix */
static bool
completes(const char* typed, const char* path)
{
  if (strchr(typed, '/'))
    return !strncmp(path, typed, strlen(typed));
  const char* name = strrchr(path, '/');
  return !strncmp(name ? name + 1 : path, typed, strlen(typed));
}

/* The choices under the field: the recent paths and the bundle's shipped
 * tables that complete what is typed. */
static void
find_choices(ui* u)
{
  u->s.n_choices = 0;
  for (int i = 0; i < u->s.n_recent; ++i)
    if (completes(u->s.field, u->s.recent[i]))
      add_choice(u, u->s.recent[i]);
  char folder[PATH_MAX];
  if (snprintf(folder, sizeof(folder), "%stables", u->s.bundle_path) >=
      (int)sizeof(folder))
    return;
  DIR* dir = opendir(folder);
  if (!dir)
    return;
  const struct dirent* entry;
  while ((entry = readdir(dir))) {
    char path[PATH_MAX];
    if (!has_suffix(entry->d_name, ".modes") ||
        snprintf(path, sizeof(path), "%s/%s", folder, entry->d_name) >=
            (int)sizeof(path))
      continue;
    if (completes(u->s.field, path))
      add_choice(u, path);
  }
  closedir(dir);
}

/* Tab: the one choice, or the longest path every choice starts with */
static void
complete_field(ui* u)
{
  find_choices(u);
  if (u->s.n_choices == 0)
    return;
  size_t common = strlen(u->s.choice[0]);
  for (int i = 1; i < u->s.n_choices; ++i) {
    size_t k = 0;
    while (k < common && u->s.choice[i][k] == u->s.choice[0][k])
      ++k;
    common = k;
  }
  if (common > strlen(u->s.field) || strchr(u->s.field, '/') == NULL)
    snprintf(u->s.field, sizeof(u->s.field), "%.*s",
             (int)(u->s.n_choices == 1 ? strlen(u->s.choice[0]) : common),
             u->s.choice[0]);
  find_choices(u);
}

static ui_rect
choice_rect(const ui_state* s, int i)
{
  const ui_rect f = s->layout.path_field;
  return (ui_rect){f.x, f.y + f.h + 2 + 16 * i, f.w, 16};
}

/* ---- pointer and keys ------------------------------------------------------
 */

static void
start_mode_drag(ui* u, int m, double x, double y)
{
  u->s.drag = (ui_drag){.kind = UI_DRAG_MODE, .index = m, .x0 = x, .y0 = y};
  u->s.drag.start[0] = u->s.value[u->s.object + OBJECT_MODE_FREQ(m)];
  u->s.drag.start[1] = u->s.value[u->s.object + OBJECT_MODE_GAIN(m)];
  ui_state_begin_edit(&u->s);
}

/* whether (x, y) is in the exciter's strip (or the tick labels under it):
 * its presses and wheel go to the exciter's bars alone */
static bool
in_exciter(const ui* u, double x, double y)
{
  const ui_rect r = u->s.layout.exciter_plot;
  return u->s.exciter >= 0 && ui_rect_contains(u->s.layout.modes, x, y) &&
         y >= r.y - 2;
}

/* A press on the exciter's bars: select one and drag it (they are always
 * its ports, so always editable). */
static void
press_exciter(ui* u, double x, double y)
{
  const int m = ui_state_select_exciter(&u->s, x, y, hit_slop);
  redraw_areas(u, UI_AREA_MODES | UI_AREA_MATERIAL | UI_AREA_OBJECT);
  if (m < 0)
    return;
  u->s.drag = (ui_drag){.kind = UI_DRAG_EXCITER, .index = m, .x0 = x, .y0 = y};
  u->s.drag.start[0] = u->s.value[ui_state_exciter_port(&u->s, m, 0)];
  u->s.drag.start[1] = u->s.value[ui_state_exciter_port(&u->s, m, 2)];
  ui_state_begin_edit(&u->s);
}

static void
press_modes(ui* u, double x, double y)
{
  ui_state_refresh(&u->s);
  if (in_exciter(u, x, y)) {
    press_exciter(u, x, y);
    return;
  }
  const ui_mode_view v = ui_state_mode_view(&u->s);
  const int m =
      ui_mode_hit(&v, u->s.modes, u->s.n_modes, x, y, hit_slop, u->s.selected);
  const double t = now_s();
  const bool double_click = m >= 0 && m == u->s.last_press_mode &&
                            t - u->s.last_press_time < double_click_s;
  u->s.last_press_mode = m;
  u->s.last_press_time = double_click ? 0.0 : t;
  u->s.selected = m;
  u->s.exciter_selected = -1;
  redraw_areas(u, UI_AREA_MODES | UI_AREA_MATERIAL | UI_AREA_OBJECT);
  if (double_click)
    ui_state_toggle_mode(&u->s, m);
  else if (m >= 0 && ui_state_editable(&u->s))
    start_mode_drag(u, m, x, y);
}

/* A press on the object: a handle, grabbed where it is (a press beside
 * the handles does nothing: the point jumps only by a drag). */
static void
press_object(ui* u, double x, double y)
{
  ui_state_refresh(&u->s);
  if (!u->s.shapes)
    return;
  const ui_shape_view v = ui_state_shape_view(&u->s);
  const ui_place place = ui_state_place(&u->s);
  const int h = ui_handle_hit(&v, &place, x, y, handle_radius);
  if (h < 0)
    return;
  u->s.drag = (ui_drag){
      .kind = UI_DRAG_HANDLE, .index = h, .x0 = x, .y0 = y, .place = place};
  ui_state_begin_edit(&u->s);
}

static void
press_param(ui* u, int row, double x, double y)
{
  const int index = u->s.param_port[row];
  u->s.drag = (ui_drag){.kind = UI_DRAG_PARAM,
                        .index = row,
                        .x0 = x,
                        .y0 = y,
                        .start = {u->s.value[index], 0}};
  ui_state_begin_edit(&u->s);
}

static void
on_press(void* handle, int button, bool down, double x, double y,
         unsigned modifiers)
{
  ui* u = handle;
  (void)modifiers;
  if (button != 1)
    return;
  const ui_layout* l = &u->s.layout;
  if (!down) {
    if (u->s.drag.kind == UI_DRAG_PARAM && !u->s.drag.moved) {
      /* a click on a toggle flips it, on a list steps through it */
      const int index = u->s.param_port[u->s.drag.index];
      const port_info* p = ui_port(&u->s, index);
      if (p->flags & (PORT_TOGGLE | PORT_ENUM)) {
        const float next = u->s.value[index] + 1.0f > p->max
                               ? p->min
                               : u->s.value[index] + 1.0f;
        ui_state_edit_port(&u->s, index, next);
      }
    }
    if (u->s.drag.kind != UI_DRAG_NONE)
      ui_state_end_edit(&u->s);
    if (u->s.drag.kind == UI_DRAG_HANDLE)
      redraw_areas(u, UI_AREA_OBJECT); /* the handle's value gives way */
    u->s.drag.kind = UI_DRAG_NONE;
    return;
  }
  if (u->s.field_focus) {
    for (int i = 0; i < u->s.n_choices; ++i)
      if (ui_rect_contains(choice_rect(&u->s, i), x, y)) {
        snprintf(u->s.field, sizeof(u->s.field), "%s", u->s.choice[i]);
        commit_field(u);
        return;
      }
  }
  const bool in_field = ui_rect_contains(l->path_field, x, y);
  if (u->s.field_focus != in_field) {
    u->s.field_focus = in_field;
    if (in_field)
      find_choices(u);
    else
      snprintf(u->s.field, sizeof(u->s.field), "%s", u->s.table_path);
    redraw(u);
  }
  if (in_field)
    return;
  if (ui_rect_contains(l->analyse, x, y))
    analyse_field(u);
  else if (ui_rect_contains(l->load, x, y))
    commit_field(u);
  else if (ui_rect_contains(l->clear, x, y))
    clear_table(u);
  else if (ui_rect_contains(l->undo, x, y))
    undo(u);
  else if (ui_rect_contains(l->modes, x, y))
    press_modes(u, x, y);
  else {
    const int row = ui_state_param_hit(&u->s, x, y);
    if (row >= 0)
      press_param(u, row, x, y);
    else if (ui_rect_contains(l->object, x, y))
      press_object(u, x, y);
  }
}

static void
on_motion(void* handle, double x, double y, unsigned modifiers)
{
  ui* u = handle;
  ui_drag* d = &u->s.drag;
  if (d->kind == UI_DRAG_NONE || !u->s.editing)
    return;
  const double rate = (modifiers & VIEW_MOD_SHIFT) ? fine_drag : 1.0;
  const double dx = (x - d->x0) * rate, dy = (y - d->y0) * rate;
  if (!d->moved && fabs(x - d->x0) < drag_threshold &&
      fabs(y - d->y0) < drag_threshold)
    return;
  d->moved = true;
  if (d->kind == UI_DRAG_MODE) {
    /* horizontal: frequency, vertical: gain, each only once moved along */
    const ui_mode_view v = ui_state_mode_view(&u->s);
    const int freq = u->s.object + OBJECT_MODE_FREQ(d->index);
    const int gain = u->s.object + OBJECT_MODE_GAIN(d->index);
    if (dx != 0.0)
      ui_state_edit_port(
          &u->s, freq,
          (float)ui_drag_value(&v.freq, ui_port(&u->s, freq), d->start[0], dx));
    if (dy != 0.0)
      ui_state_edit_port(
          &u->s, gain,
          (float)ui_drag_value(&v.gain, ui_port(&u->s, gain), d->start[1], dy));
  } else if (d->kind == UI_DRAG_EXCITER) {
    ui_state_drag_exciter(&u->s, d->index, d->start, dx, dy);
  } else if (d->kind == UI_DRAG_HANDLE) {
    ui_state_drag_handle(&u->s, (ui_handle)d->index, &d->place, dx, dy);
  } else {
    const int index = u->s.param_port[d->index];
    const port_info* p = ui_port(&u->s, index);
    const ui_rect slider = ui_param_slider(ui_state_param_row(&u->s, d->index));
    const ui_axis a = ui_axis_of_port(p, slider.x, slider.x + slider.w);
    ui_state_edit_port(&u->s, index,
                       (float)ui_drag_value(&a, p, d->start[0], dx));
  }
}

static void
on_scroll(void* handle, double x, double y, double dy, unsigned modifiers)
{
  ui* u = handle;
  (void)modifiers;
  const int steps = dy > 0 ? 1 : -1;
  int index = -1;
  if (in_exciter(u, x, y)) {
    /* the decay of the exciter's mode under the pointer, or the selected */
    ui_state_refresh(&u->s);
    int m = ui_state_select_exciter(&u->s, x, y, hit_slop);
    if (m < 0)
      m = u->s.exciter_selected;
    index = ui_state_exciter_port(&u->s, m, 1);
  } else if (ui_rect_contains(u->s.layout.modes, x, y) &&
             ui_state_editable(&u->s)) {
    /* the decay of the mode under the pointer, or of the selected one */
    ui_state_refresh(&u->s);
    const ui_mode_view v = ui_state_mode_view(&u->s);
    int m = ui_mode_hit(&v, u->s.modes, u->s.n_modes, x, y, hit_slop,
                        u->s.selected);
    if (m < 0)
      m = u->s.selected;
    if (m >= 0) {
      u->s.selected = m;
      u->s.exciter_selected = -1;
      index = u->s.object + OBJECT_MODE_DECAY(m);
    }
  } else {
    const int row = ui_state_param_hit(&u->s, x, y);
    if (row >= 0)
      index = u->s.param_port[row];
  }
  if (index < 0 || u->s.drag.kind != UI_DRAG_NONE)
    return;
  ui_state_begin_edit(&u->s);
  ui_state_edit_port(
      &u->s, index,
      (float)ui_scroll_value(ui_port(&u->s, index), u->s.value[index], steps));
  ui_state_end_edit(&u->s);
}

static void
select_step(ui* u, int step)
{
  if (u->s.n_modes == 0)
    return;
  int m = u->s.selected < 0 ? 0 : u->s.selected + step;
  u->s.selected = m < 0 ? 0 : m >= u->s.n_modes ? u->s.n_modes - 1 : m;
  u->s.exciter_selected = -1;
  redraw_areas(u, UI_AREA_MODES | UI_AREA_MATERIAL | UI_AREA_OBJECT);
}

static void
on_key(void* handle, uint32_t c, view_key special, unsigned modifiers)
{
  ui* u = handle;
  if (u->s.field_focus) {
    size_t n = strlen(u->s.field);
    if (c == '\r' || c == '\n')
      commit_field(u);
    else if (c == 0x1B) { /* escape: back to what the plugin plays */
      u->s.field_focus = false;
      snprintf(u->s.field, sizeof(u->s.field), "%s", u->s.table_path);
    } else if (c == '\t')
      complete_field(u);
    else if ((c == 0x08 || c == 0x7F) && n > 0) {
      /* one UTF-8 character back */
      do
        --n;
      while (n > 0 && (u->s.field[n] & 0xC0) == 0x80);
      u->s.field[n] = '\0';
      find_choices(u);
    } else if (c >= 0x20 && c < 0x7F && n + 1 < sizeof(u->s.field)) {
      u->s.field[n] = (char)c;
      u->s.field[n + 1] = '\0';
      find_choices(u);
    }
    /* the field, and the completions over the plots below it */
    redraw_areas(u, UI_AREA_HEADER | UI_AREA_MODES | UI_AREA_MATERIAL);
    return;
  }
  if (special == VIEW_KEY_LEFT)
    select_step(u, -1);
  else if (special == VIEW_KEY_RIGHT)
    select_step(u, 1);
  else if (c == 'd' || c == 0x7F || c == 0x08)
    ui_state_toggle_mode(&u->s, u->s.selected);
  else if (c == 'u' || ((modifiers & VIEW_MOD_CTRL) && (c == 'z' || c == 26)))
    undo(u);
}

static void
on_close(void* handle)
{
  ((ui*)handle)->closed = true;
}

static void
on_draw(void* handle, cairo_t* cr, double x, double y, double w, double h)
{
  ui* u = handle;
  ui_state_refresh(&u->s);
  ui_draw(&u->s, cr, (ui_rect){x, y, w, h});
}

/* ---- LV2 -------------------------------------------------------------------
 */

static const plugin_info* const instruments[] = {&impact_info, &friction_info,
                                                 &rolling_info};

static const plugin_info*
find_instrument(const char* plugin_uri)
{
  for (size_t i = 0; i < sizeof(instruments) / sizeof(instruments[0]); ++i)
    if (!strcmp(instruments[i]->uri, plugin_uri))
      return instruments[i];
  return NULL;
}

static LV2UI_Handle
instantiate(const LV2UI_Descriptor* descriptor, const char* plugin_uri,
            const char* bundle_path, LV2UI_Write_Function write_function,
            LV2UI_Controller controller, LV2UI_Widget* widget,
            const LV2_Feature* const* features)
{
  (void)descriptor;
  const plugin_info* plugin = find_instrument(plugin_uri);
  if (!plugin)
    return NULL;
  ui* u = calloc(1, sizeof(ui));
  if (!u)
    return NULL;
  u->write = write_function;
  u->controller = controller;
  void* parent = NULL;
  LV2_Log_Log* log = NULL;
  for (int i = 0; features && features[i]; ++i) {
    if (!strcmp(features[i]->URI, LV2_URID__map))
      u->map = features[i]->data;
    else if (!strcmp(features[i]->URI, LV2_UI__parent))
      parent = features[i]->data;
    else if (!strcmp(features[i]->URI, LV2_UI__resize))
      u->resize = features[i]->data;
    else if (!strcmp(features[i]->URI, LV2_LOG__log))
      log = features[i]->data;
  }
  lv2_log_logger_init(&u->logger, u->map, log);
  if (!u->map) {
    lv2_log_error(&u->logger, "contact UI: the host has no urid:map\n");
    free(u);
    return NULL;
  }
  contact_uris_map(&u->uris, u->map);
  lv2_atom_forge_init(&u->forge, u->map);
  ui_state_init(&u->s, plugin);
  u->s.writer = write_port;
  u->s.writer_handle = u;
  u->notify = plugin_notify_port(plugin);
  snprintf(u->s.bundle_path, sizeof(u->s.bundle_path), "%s",
           bundle_path ? bundle_path : "");
  load_recent(u);

  const view_client client = {u,         on_draw, on_press, on_motion,
                              on_scroll, on_key,  on_close};
  u->view = view_create((uintptr_t)parent, plugin->name, UI_WIDTH, UI_HEIGHT,
                        &client);
  if (!u->view) {
    lv2_log_error(&u->logger,
                  "contact UI: cannot open a window (no X display, or no "
                  "OpenGL)\n");
    ui_state_free(&u->s);
    free(u);
    return NULL;
  }
  *widget = (LV2UI_Widget)view_native(u->view);
  if (u->resize) {
    int w, h;
    view_size(u->view, &w, &h);
    u->resize->ui_resize(u->resize->handle, w, h);
  }
  ask_table(u);
  return u;
}

static void
cleanup(LV2UI_Handle handle)
{
  ui* u = handle;
  ui_analysis_free(u->job); /* cancels it, and waits for its thread */
  view_destroy(u->view);
  ui_state_free(&u->s);
  free(u);
}

static void
port_event(LV2UI_Handle handle, uint32_t index, uint32_t size, uint32_t format,
           const void* buffer)
{
  ui* u = handle;
  if (format == 0 && size == sizeof(float) && index < (uint32_t)u->s.n_ports) {
    const float value = *(const float*)buffer;
    if (!isfinite(value) || u->s.value[index] == value)
      return;
    u->s.value[index] = value;
    port_changed(u, (int)index);
  } else if (format == u->uris.atom_eventTransfer &&
             index == (uint32_t)u->notify && size >= sizeof(LV2_Atom)) {
    const LV2_Atom* atom = buffer;
    if (lv2_atom_total_size(atom) > size)
      return;
    const char* path =
        contact_read_set_table(&u->uris, (const LV2_Atom_Object*)atom);
    if (path)
      show_table(u, path);
  }
}

static int
idle(LV2UI_Handle handle)
{
  ui* u = handle;
  if (u->closed)
    return 1;
  follow_analysis(u);
  draw_pending(u);
  view_process(u->view);
  return 0;
}

static const void*
extension_data(const char* uri)
{
  static const LV2UI_Idle_Interface idle_interface = {idle};
  if (!strcmp(uri, LV2_UI__idleInterface))
    return &idle_interface;
  return NULL;
}

#define UI_DESCRIPTOR(plugin_uri)                                              \
  {                                                                            \
    plugin_uri CONTACT_UI_URI_SUFFIX, instantiate, cleanup, port_event,        \
        extension_data                                                         \
  }

static const LV2UI_Descriptor descriptors[] = {
    UI_DESCRIPTOR(IMPACT_URI),
    UI_DESCRIPTOR(FRICTION_URI),
    UI_DESCRIPTOR(ROLLING_URI),
};

LV2_SYMBOL_EXPORT const LV2UI_Descriptor*
lv2ui_descriptor(uint32_t index)
{
  return index < sizeof(descriptors) / sizeof(descriptors[0])
             ? &descriptors[index]
             : NULL;
}
