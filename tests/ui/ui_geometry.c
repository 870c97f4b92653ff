/* SPDX-License-Identifier: ISC */
/*
 * Where the UI draws things and what a gesture there should do, from the
 * UI's own model (ui/ui_state.c, ui/ui_model.c) at the ports' defaults:
 * run-ui-test asks it where to drag and what to expect back.
 *
 *   ui_geometry INSTRUMENT bar MODE          centre of mode MODE's bar: X Y
 *   ui_geometry INSTRUMENT freq MODE DX      frequency after a DX px drag
 *   ui_geometry INSTRUMENT gain MODE DY      gain after a DY px drag (down)
 *   ui_geometry INSTRUMENT decay MODE STEPS  decay (ms) after STEPS wheel
 *                                            clicks up (negative: down)
 *   ui_geometry INSTRUMENT panel             the contact panel: X Y W H
 *   ui_geometry INSTRUMENT size              the window: W H
 *   ui_geometry INSTRUMENT field             the path field's centre: X Y
 *   ui_geometry INSTRUMENT modes             the mode editor: X Y W H
 *   ui_geometry INSTRUMENT object            the object panel: X Y W H
 *   ui_geometry INSTRUMENT row SYMBOL        centre of the port's row: X Y
 *   ui_geometry INSTRUMENT handle H          centre of handle H (point,
 *                                            left, right): X Y
 *   ui_geometry INSTRUMENT place H DX DY     the ports a drag of handle H
 *                                            by (DX, DY) px sets, as
 *                                            "SYMBOL VALUE" pairs
 *   ui_geometry INSTRUMENT strip             the strip the object is
 *                                            drawn as: X W (its ends)
 *
 * Any argument SYMBOL=VALUE sets that port first (the shape for the
 * object's handles, a place moved by an earlier drag); the rest are at
 * their defaults.  Logical pixels from the UI window's top-left
 * (run-ui-test multiplies them by its scale for the pointer).
 */
#include "friction_ports.h"
#include "impact_ports.h"
#include "rolling_ports.h"
#include "ui_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const plugin_info*
instrument(const char* name)
{
  static const plugin_info* const all[] = {&impact_info, &friction_info,
                                           &rolling_info};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i)
    if (!strcmp(strrchr(all[i]->uri, ':') + 1, name))
      return all[i];
  return NULL;
}

static ui_handle
handle_named(const char* name)
{
  return !strcmp(name, "left")    ? UI_HANDLE_LEFT
         : !strcmp(name, "right") ? UI_HANDLE_RIGHT
         : !strcmp(name, "point") ? UI_HANDLE_POINT
                                  : UI_HANDLES;
}

/* the object panel's answers (0), or 2 for a bad request */
static int
object(ui_state* s, const char* what, int argc, char** argv)
{
  const ui_shape_view v = ui_state_shape_view(s);
  const ui_place place = ui_state_place(s);
  if (!strcmp(what, "object")) {
    const ui_rect r = s->layout.object;
    printf("%.0f %.0f %.0f %.0f\n", r.x, r.y, r.w, r.h);
  } else if (!strcmp(what, "row") && argc >= 1) {
    const int port = ui_port_index(s, argv[0]);
    for (int k = 0; k < s->n_params; ++k)
      if (s->param_port[k] == port) {
        const ui_rect r = ui_state_param_row(s, k);
        printf("%.0f %.0f\n", floor(r.x + 0.5 * r.w), floor(r.y + 0.5 * r.h));
        return 0;
      }
    return 2;
  } else if (!strcmp(what, "handle") && argc >= 1) {
    const ui_handle h = handle_named(argv[0]);
    if (h == UI_HANDLES || !s->shapes)
      return 2;
    double x, y;
    ui_handle_px(&v, &place, h, &x, &y);
    /* whole pixels: where a pointer can be */
    printf("%.0f %.0f\n", x, y);
  } else if (!strcmp(what, "place") && argc >= 3) {
    const ui_handle h = handle_named(argv[0]);
    if (h == UI_HANDLES || !s->shapes)
      return 2;
    /* the UI drags from the place at the press by the pointer's distance,
     * and the ports hold floats */
    const ui_place p =
        ui_handle_drag(&v, &place, h, atof(argv[1]), atof(argv[2]));
    if (h == UI_HANDLE_POINT) {
      printf("position %.9g", (float)p.x);
      if (v.kind != UI_SHAPE_STRIP)
        printf(" position_y %.9g", (float)p.y);
    } else if (h == UI_HANDLE_LEFT) {
      printf("pickup_position %.9g", (float)p.left);
    } else {
      printf("pickup_position_r %.9g", (float)p.right);
    }
    printf("\n");
  } else if (!strcmp(what, "strip")) {
    if (v.kind != UI_SHAPE_STRIP)
      return 2;
    printf("%.9g %.9g\n", v.body.x, v.body.w);
  } else {
    return 2;
  }
  return 0;
}

int
main(int argc, char** argv)
{
  static ui_state s;
  const plugin_info* p = argc >= 3 ? instrument(argv[1]) : NULL;
  if (!p) {
    fprintf(stderr,
            "usage: %s impact|friction|rolling bar|freq|gain|decay|"
            "panel|size|field|modes|object|row|handle|place|strip "
            "[MODE|SYMBOL|HANDLE [PX|STEPS [PX]]] [SYMBOL=VALUE...]\n",
            argv[0]);
    return 2;
  }
  ui_state_init(&s, p);
  /* SYMBOL=VALUE arguments set ports; the others are the request */
  int n = 0;
  for (int i = 2; i < argc; ++i) {
    const char* eq = strchr(argv[i], '=');
    if (!eq) {
      argv[2 + n++] = argv[i];
      continue;
    }
    char symbol[64];
    snprintf(symbol, sizeof(symbol), "%.*s", (int)(eq - argv[i]), argv[i]);
    const int port = ui_port_index(&s, symbol);
    if (port < 0) {
      fprintf(stderr, "%s: no port '%s'\n", argv[0], symbol);
      return 2;
    }
    s.value[port] = (float)atof(eq + 1);
    ui_state_port_changed(&s, port);
  }
  argc = 2 + n;
  ui_state_refresh(&s);
  const char* what = argv[2];
  const char* const object_requests[] = {"object", "row", "handle", "place",
                                         "strip"};
  for (size_t i = 0; i < sizeof(object_requests) / sizeof(*object_requests);
       ++i)
    if (!strcmp(what, object_requests[i])) {
      const int rc = object(&s, what, argc - 3, argv + 3);
      ui_state_free(&s);
      return rc;
    }
  if (!strcmp(what, "panel")) {
    const ui_rect r = s.layout.contact;
    printf("%.0f %.0f %.0f %.0f\n", r.x, r.y, r.w, r.h);
    return 0;
  }
  if (!strcmp(what, "modes")) {
    const ui_rect r = s.layout.modes;
    printf("%.0f %.0f %.0f %.0f\n", r.x, r.y, r.w, r.h);
    return 0;
  }
  if (!strcmp(what, "field")) {
    const ui_rect r = s.layout.path_field;
    printf("%.0f %.0f\n", r.x + 0.5 * r.w, r.y + 0.5 * r.h);
    return 0;
  }
  if (!strcmp(what, "size")) {
    printf("%d %d\n", UI_WIDTH, UI_HEIGHT);
    return 0;
  }
  const int m = argc >= 4 ? atoi(argv[3]) - 1 : -1;
  if (m < 0 || m >= s.n_modes)
    return 2;
  const ui_mode_view v = ui_state_mode_view(&s);
  const int freq = s.object + OBJECT_MODE_FREQ(m);
  const int decay = s.object + OBJECT_MODE_DECAY(m);
  const int gain = s.object + OBJECT_MODE_GAIN(m);
  const double arg = argc >= 5 ? atof(argv[4]) : 0.0;
  if (!strcmp(what, "bar")) {
    const ui_rect b = ui_mode_bar(&v, &s.modes[m]);
    /* whole pixels: where a pointer can be */
    printf("%.0f %.0f\n", b.x + 0.5 * b.w, b.y + 0.5 * b.h);
  } else if (!strcmp(what, "freq") || !strcmp(what, "gain")) {
    const bool is_freq = what[0] == 'f';
    const int port = is_freq ? freq : gain;
    /* the UI drags from the press's value by the pointer's distance, and
     * the port holds a float */
    printf("%.9g\n",
           (float)ui_drag_value(is_freq ? &v.freq : &v.gain, ui_port(&s, port),
                                s.value[port], arg));
  } else if (!strcmp(what, "decay")) {
    /* one port write per wheel click */
    float value = s.value[decay];
    const int steps = (int)arg;
    for (int k = 0; k < abs(steps); ++k)
      value =
          (float)ui_scroll_value(ui_port(&s, decay), value, steps > 0 ? 1 : -1);
    printf("%.9g\n", value);
  } else {
    return 2;
  }
  return 0;
}
