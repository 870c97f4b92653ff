/* SPDX-License-Identifier: ISC */
/* The exciter's modal object from its ports (the plugins only). */
#include "exciter_ports.h"

bool
exciter_from_ports(modal_object* e, const float* v, double mass)
{
  const int count = (int)v[EXCITER_MODES];
  bool changed = count != e->count || mass != e->mass;
  for (int i = 0; i < count && !changed; ++i) {
    const float* m = v + EXCITER_MODE1 + 3 * i;
    changed =
        m[0] != e->freq[i] || 1e-3 * m[1] != e->decay[i] || m[2] != e->gain[i];
  }
  if (!changed)
    return false;
  modal_set_count(e, count);
  modal_set_mass(e, mass);
  for (int i = 0; i < count; ++i) {
    const float* m = v + EXCITER_MODE1 + 3 * i;
    modal_set_mode(e, i, m[0], 1e-3 * m[1], m[2]);
  }
  modal_update(e);
  return true;
}
