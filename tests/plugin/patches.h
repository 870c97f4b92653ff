/* SPDX-License-Identifier: ISC */
/* An instrument's patches for the plugin tests: its default (the ports'
 * defaults) and every preset of presets/NAME.presets, read from the
 * source tree (CONTACT_SOURCE_ROOT), with the preset's root note,
 * material and model. */
#ifndef CONTACT_TEST_PATCHES_H
#define CONTACT_TEST_PATCHES_H

#include "host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PATCHES_MAX = 64 };

typedef struct patch {
  char id[64];       /* "default" or the preset's ID */
  char uri[128];     /* empty for the default */
  char material[32]; /* empty unless the preset names one */
  char model[32];    /* the model of its ratios, empty if none */
  char table[64];    /* the shipped modal table it loads, empty if none */
  double q;          /* the preset's q, 0 if none */
  int root;          /* the note it is made for */
} patch;

/* The patches of plugin `uri` (default first when with_default); the count,
 * or -1 if the preset file cannot be read. */
static inline int
patches_read(const char* uri, bool with_default, patch* out, int max)
{
  const char* name = strrchr(uri, ':') + 1;
  const char* root_dir = getenv("CONTACT_SOURCE_ROOT");
  char path[1024];
  snprintf(path, sizeof(path), "%s/presets/%s.presets",
           root_dir ? root_dir : ".", name);
  FILE* f = fopen(path, "r");
  if (!f) {
    perror(path);
    return -1;
  }
  int n = 0;
  if (with_default && n < max)
    out[n++] = (patch){.id = "default", .root = 60};
  char line[512];
  patch* p = NULL;
  while (fgets(line, sizeof(line), f)) {
    if (!strncmp(line, "preset ", 7)) {
      if (n == max) { /* no room: the preset's lines are nobody's */
        fprintf(stderr, "%s: more than %d patches\n", path, max);
        p = NULL;
        continue;
      }
      p = &out[n++];
      *p = (patch){.root = 60};
      sscanf(line + 7, "%63s", p->id);
      snprintf(p->uri, sizeof(p->uri), "urn:contact:preset:%s-%s", name, p->id);
    } else if (p && !strncmp(line, "material ", 9)) {
      sscanf(line + 9, "%31s", p->material);
    } else if (p && !strncmp(line, "table ", 6)) {
      sscanf(line + 6, "%63s", p->table);
    } else if (p && !strncmp(line, "model ", 6)) {
      sscanf(line + 6, "%31s", p->model);
    } else if (p && !strncmp(line, "q ", 2)) {
      p->q = atof(line + 2);
    } else if (p && !strncmp(line, "root_note ", 10)) {
      p->root = atoi(line + 10);
    }
  }
  fclose(f);
  return n;
}

/* The plugin with the patch loaded; exits if it cannot be. */
static inline host*
patch_open(const char* plugin_uri, const patch* p, double rate,
           uint32_t max_block)
{
  host* h = host_open(plugin_uri, rate, max_block);
  if (!h || (p->uri[0] && !host_load_preset(h, p->uri))) {
    fprintf(stderr, "cannot open %s with %s\n", plugin_uri, p->id);
    exit(1);
  }
  return h;
}

#endif
