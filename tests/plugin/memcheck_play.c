/* SPDX-License-Identifier: ISC */
/*
 * A short, busy performance on one instrument for valgrind's memcheck (the
 * suite `valgrind` runs it under valgrind): notes, a re-strike, releases,
 * pressure, the mod wheel, a pitch bend, ramps of a physical control and
 * of the gain, at an odd block size; then, where the instrument has them,
 * a note with the exciter's own modes and the hysteretic felt.
 * Usage: memcheck_play URI
 */
#include "check.h"
#include "host.h"
#include "render.h"

#include <string.h>

int
main(int argc, char** argv)
{
  const char* uri = argc > 1 ? argv[1] : "urn:contact:impact";
  host* h = host_open(uri, 48000.0, 512);
  if (!h)
    return 1;
  const char* physical = !strcmp(uri, "urn:contact:impact")     ? "stiffness"
                         : !strcmp(uri, "urn:contact:friction") ? "normal_force"
                                                                : "speed";
  float lo, def, hi;
  bool out;
  host_port_range(h, host_port(h, physical), &lo, &def, &hi, &out);
  CHECK(host_ramp(h, physical, 2000, 9000, def, def * 1.5f), "no %s", physical);
  CHECK(host_ramp(h, "gain", 4000, 8000, 12, 0), "no gain port");
  const uint8_t pressure[2] = {0xD0, 90}, wheel[3] = {0xB0, 1, 100},
                bend[3] = {0xE0, 0x00, 0x60}, poly[3] = {0xA0, 64, 70};
  HOST_OK(host_note_on(h, 0, 60, 100));
  HOST_OK(host_note_on(h, 1001, 64, 80));
  HOST_OK(host_midi(h, 2500, pressure, 2));
  HOST_OK(host_midi(h, 3001, poly, 3));
  HOST_OK(host_midi(h, 4000, wheel, 3));
  HOST_OK(host_note_on(h, 5003, 60, 127));
  HOST_OK(host_midi(h, 6000, bend, 3));
  HOST_OK(host_note_off(h, 8000, 64));
  HOST_OK(host_note_off(h, 11000, 60));
  render r = render_run(h, 0.3, 333);
  render_free(&r);
  /* the exciter's own modes and, where there is one, the hysteretic felt */
  if (host_port(h, "exciter_modes") >= 0) {
    host_set(h, "exciter_modes", 8);
    if (host_port(h, "contact_law") >= 0)
      host_set(h, "contact_law", 2);
    HOST_OK(host_note_on(h, host_now(h) + 100, 62, 110));
    r = render_run(h, 0.2, 333);
    render_free(&r);
  }
  host_close(h);
  return check_done("memcheck_play");
}
