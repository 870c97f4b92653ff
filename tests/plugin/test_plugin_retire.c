/* SPDX-License-Identifier: ISC */
/*
 * Released voices are retired once they have gone quiet, even when the
 * exciter rests on the object (a rolling ball stopped on it, a hammer
 * pressed on it by an external force): the work done per block — the
 * voices computed, read from the `voices` meter — returns to that of an
 * idle instance within RETIRE_WITHIN_S of the output falling below
 * -120 dBFS for good, for one note and for 16 at once, and never before
 * (a voice retired while audible would click).  Usage: test_plugin_retire
 * URI
 */
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SILENCE 1e-6 /* -120 dBFS */
/* The bar: the hardening issue asks for 10 s; the voices retire 0.08 s
 * (rolling) to 0.14 s (impact) after going quiet, at the next look after
 * the unrest bound falls below the floor: 1 s is 7x the slowest. */
#define RETIRE_WITHIN_S 1.0
#define LONGEST_S       60.0 /* how long a test waits at most */
enum { BLOCK = 256 };

/* Play `notes` notes released at `release_s`, and follow the output and
 * the voices meter block by block.  Returns false if the voices never
 * came back to 0 within LONGEST_S. */
static bool
follow(const char* uri, int notes, float gain_db, double release_s,
       double* quiet_s, double* retired_s)
{
  host* h = host_open(uri, 48000.0, BLOCK);
  if (!h)
    exit(1);
  CHECK(host_port(h, "voices") >= 0, "%s has no voices meter", uri);
  if (!strcmp(uri, "urn:contact:impact"))
    CHECK(host_set(h, "ext_force", 1.0f), "no ext_force port"); /* resting */
  HOST_OK(host_set(h, "gain", gain_db));
  const double rate = host_sample_rate(h);
  for (int n = 0; n < notes; ++n) {
    HOST_OK(host_note_on(h, 0, 48 + n, 100));
    HOST_OK(host_note_off(h, (uint64_t)(release_s * rate), 48 + n));
  }
  float l[BLOCK], r[BLOCK];
  *quiet_s = *retired_s = -1.0;
  bool retired = false;
  const long blocks = (long)(LONGEST_S * rate / BLOCK);
  for (long b = 0; b < blocks && !retired; ++b) {
    host_run(h, BLOCK, BLOCK, l, r);
    const double t = (double)(b + 1) * BLOCK / rate;
    for (int i = 0; i < BLOCK; ++i) {
      if (fabsf(l[i]) > SILENCE || fabsf(r[i]) > SILENCE)
        *quiet_s = t; /* the end of the last block still audible */
    }
    const bool idle = host_get(h, "voices") == 0.0f;
    if (b * BLOCK > release_s * rate && idle) {
      *retired_s = t;
      retired = true;
    }
  }
  host_close(h);
  return retired;
}

int
main(int argc, char** argv)
{
  const char* uri = argc > 1 ? argv[1] : "urn:contact:rolling";
  /* the default gain, and -40 dB: the floor is the output's, so a quieter
   * output retires its voices sooner */
  const int counts[] = {1, 16, 1};
  const float gains[] = {12, 12, -40};
  for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); ++c) {
    double quiet, retired;
    const bool done = follow(uri, counts[c], gains[c], 0.5, &quiet, &retired);
    printf("%s, %d note(s) at %+.0f dB released at 0.5 s: below -120 dBFS "
           "from %.2f s, voices computed back to 0 at %.2f s (%.2f s later; "
           "bar %.1f s)\n",
           uri, counts[c], gains[c], quiet, retired, retired - quiet,
           RETIRE_WITHIN_S);
    CHECK(done, "%d note(s): voices still computed after %.0f s", counts[c],
          LONGEST_S);
    CHECK(retired >= quiet, "%d note(s): retired while still audible",
          counts[c]);
    CHECK(retired - quiet <= RETIRE_WITHIN_S,
          "%d note(s): retired %.2f s after going quiet", counts[c],
          retired - quiet);
  }
  return check_done("test_plugin_retire");
}
