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
 *
 * Logical pixels from the UI window's top-left (run-ui-test multiplies
 * them by its scale for the pointer).
 */
#include "friction_ports.h"
#include "impact_ports.h"
#include "rolling_ports.h"
#include "ui_state.h"

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

int
main(int argc, char** argv)
{
  static ui_state s;
  const plugin_info* p = argc >= 3 ? instrument(argv[1]) : NULL;
  if (!p) {
    fprintf(stderr,
            "usage: %s impact|friction|rolling bar|freq|gain|decay|"
            "panel|size|field|modes [MODE [PX|STEPS]]\n",
            argv[0]);
    return 2;
  }
  ui_state_init(&s, p);
  ui_state_refresh(&s);
  const char* what = argv[2];
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
