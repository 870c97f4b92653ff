/* SPDX-License-Identifier: ISC */
/* One strike of a hammer on an object through the DSP API, for the tests. */
#ifndef CONTACT_TEST_STRIKE_H
#define CONTACT_TEST_STRIKE_H

#include "impact.h"
#include "modal.h"

#include <stdbool.h>
#include <stdlib.h>

typedef struct strike_setup {
  double rate;
  impact_law law;
  double hammer_mass, ext_force, v_in;
  double object_mass; /* 0: no modes at all, a rigid wall */
  int n_modes;
  const double* freq;
  const double* decay;
} strike_setup;

/* Strike and run until the hammer is out of play, or `seconds` pass, or
 * (first_only) the first contact is over. */
static inline impact*
strike(const strike_setup* s, double seconds, bool first_only,
       modal_object** object)
{
  static modal_object o;
  static impact im;
  static float l[4096], r[4096];
  modal_init(&o, s->rate);
  modal_set_count(&o, s->object_mass > 0 ? s->n_modes : 0);
  modal_set_mass(&o, s->object_mass > 0 ? s->object_mass : 1.0);
  for (int i = 0; i < s->n_modes; ++i)
    modal_set_mode(&o, i, s->freq[i], s->decay[i], 1.0);
  modal_update(&o);
  impact_init(&im, s->rate);
  impact_set_law(&im, s->law);
  impact_set_hammer(&im, s->hammer_mass, s->ext_force);
  impact_strike(&im, &o, s->v_in);
  const long total = (long)(seconds * s->rate);
  const int block = first_only ? 16 : 4096;
  for (long done = 0; done < total && impact_is_active(&im); done += block) {
    impact_process(&im, &o, block, l, r, 1.0);
    if (first_only && im.last.serial > 0)
      break;
  }
  if (object)
    *object = &o;
  return &im;
}

#endif
