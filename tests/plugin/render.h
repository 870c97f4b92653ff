/* SPDX-License-Identifier: ISC */
/* Rendering helpers shared by the plugin tests. */
#ifndef CONTACT_TEST_RENDER_H
#define CONTACT_TEST_RENDER_H

#include "host.h"

#include <stdio.h>
#include <stdlib.h>

/* A host call that fails (a misspelt port, an event in the past) fails the
 * test; needs check.h. */
#define HOST_OK(call) CHECK((call), "host call failed: %s", #call)

typedef struct render {
  float* l;
  float* r;
  size_t frames;
} render;

static inline render
render_run(host* h, double seconds, uint32_t block)
{
  render out;
  out.frames = (size_t)(seconds * host_sample_rate(h));
  out.l = (float*)calloc(out.frames, sizeof(float));
  out.r = (float*)calloc(out.frames, sizeof(float));
  if (!out.l || !out.r) {
    fputs("out of memory\n", stderr);
    exit(1);
  }
  host_run(h, out.frames, block, out.l, out.r);
  return out;
}

static inline void
render_free(render* r)
{
  free(r->l);
  free(r->r);
}

#endif
