/* SPDX-License-Identifier: ISC */
/*
 * Bad control values are reported, each naming its port and what was
 * wrong with it: a NaN, an infinity and an out-of-range value sent to
 * three different ports in one block give three messages, each with the
 * right port.  The plugin keeps playing with the last good values and the
 * clamped one: it sounds, bit for bit, like an instance given the defaults
 * and the range's end.
 * Usage: test_plugin_inputs URI
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The first three continuous control inputs of the plugin. */
static int
controls(host* h, int* ports, int n)
{
  int found = 0;
  for (int i = 0; i < host_n_ports(h) && found < n; ++i) {
    float lo, def, hi;
    bool out;
    if (host_port_range(h, i, &lo, &def, &hi, &out) && !out && hi - lo > 1.0f)
      ports[found++] = i;
  }
  return found;
}

static void
expect(host* h, const char* symbol, const char* problem)
{
  char want[256];
  snprintf(want, sizeof(want), "port '%s': %s", symbol, problem);
  const bool said = strstr(host_log_all(h), want) != NULL;
  printf("%s reported \"%s\"\n", said ? "  ok " : "FAIL ", want);
  CHECK(said, "no report \"%s\"", want);
}

int
main(int argc, char** argv)
{
  const char* uri = argc > 1 ? argv[1] : "urn:contact:impact";
  host* h = host_open(uri, 48000.0, 256);
  if (!h)
    return 1;
  host_log_quiet(h, true);
  int port[3];
  CHECK(controls(h, port, 3) == 3, "fewer than three controls");
  float lo, def, hi;
  bool out;
  host_port_range(h, port[2], &lo, &def, &hi, &out);
  host_set_index(h, port[0], NAN);
  host_set_index(h, port[1], INFINITY);
  host_set_index(h, port[2], hi + 1.0f + fabsf(hi));
  HOST_OK(host_note_on(h, 0, 60, 100));
  host_run(h, 256, 256, NULL, NULL);
  printf("log:\n%s", host_log_all(h));
  expect(h, host_port_symbol(h, port[0]), "NaN ignored");
  expect(h, host_port_symbol(h, port[1]), "infinite value ignored");
  expect(h, host_port_symbol(h, port[2]), "");
  char range[64];
  snprintf(range, sizeof(range), "is outside its range %g..%g", lo, hi);
  CHECK(strstr(host_log_all(h), range) != NULL, "no range in the report");
  /* one message per problem: nothing names a port that had none */
  int named = 0;
  for (const char* at = host_log_all(h); (at = strstr(at, "port '")); ++at)
    ++named;
  CHECK(named == 3, "%d ports named, 3 expected", named);

  host* ref = host_open(uri, 48000.0, 256);
  if (!ref)
    return 1;
  host_set_index(ref, port[2], hi);
  HOST_OK(host_note_on(ref, 0, 60, 100));
  host_run(ref, 256, 256, NULL, NULL);
  render bad = render_run(h, 0.3, 256), good = render_run(ref, 0.3, 256);
  const bool same = !memcmp(bad.l, good.l, bad.frames * sizeof(float)) &&
                    !memcmp(bad.r, good.r, bad.frames * sizeof(float));
  printf("%s the last good values and %s = %g\n",
         same ? "  ok  plays as with" : "FAIL  does not play as with",
         host_port_symbol(h, port[2]), (double)hi);
  CHECK(same, "the bad values changed the sound");
  CHECK(peak_abs(good.l, good.frames) > 0.0, "silent: nothing compared");
  render_free(&bad);
  render_free(&good);
  host_close(ref);
  host_close(h);
  return check_done("test_plugin_inputs");
}
