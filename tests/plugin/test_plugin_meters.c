/* SPDX-License-Identifier: ISC */
/*
 * Every meter is defined from the very first block: finite and inside its
 * declared range, with a note starting in that block and without one.  The
 * suite runs it with MALLOC_PERTURB_ set, so that memory the plugin reads
 * before writing holds garbage rather than the zeros a fresh page has.
 * Usage: test_plugin_meters URI
 */
#include "check.h"
#include "host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void
check_meters(host* h, const char* when)
{
  for (int i = 0; i < host_n_ports(h); ++i) {
    float lo, def, hi;
    bool out;
    if (!host_port_range(h, i, &lo, &def, &hi, &out) || !out)
      continue;
    const float value = host_get_index(h, i);
    printf("  %s: %-18s %g\n", when, host_port_symbol(h, i), value);
    CHECK(isfinite(value) && value >= lo && value <= hi,
          "%s: meter %s reads %g, outside %g..%g", when, host_port_symbol(h, i),
          value, lo, hi);
  }
}

int
main(int argc, char** argv)
{
  const char* uri = argc > 1 ? argv[1] : "urn:contact:friction";
  const char* perturb = getenv("MALLOC_PERTURB_");
  printf("%s, MALLOC_PERTURB_=%s\n", uri, perturb ? perturb : "(unset)");
  for (int with_note = 0; with_note < 2; ++with_note) {
    host* h = host_open(uri, 48000.0, 256);
    if (!h)
      return 1;
    if (with_note)
      CHECK(host_note_on(h, 0, 60, 100), "note not queued");
    host_run(h, 256, 256, NULL, NULL);
    check_meters(h, with_note ? "first block, a note" : "first block, idle");
    host_run(h, 4800, 256, NULL, NULL);
    check_meters(h, with_note ? "0.1 s, a note" : "0.1 s, idle");
    host_close(h);
  }
  return check_done("test_plugin_meters");
}
