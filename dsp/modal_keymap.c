/* SPDX-License-Identifier: ISC */
/* Keymaps: the zone a note plays and the law that transposes it (the file
 * format's parser, checker and writer are modal_table.c's). */
#include "modal_keymap.h"

#include <math.h>
#include <string.h>

modal_keymap_law
modal_keymap_constant_q(void)
{
  return (modal_keymap_law){1.0, 0.0, 0.0};
}

void
modal_keymap_init(modal_keymap* const map)
{
  /* every byte, padding too: a keymap is copied and compared whole */
  memset(map, 0, sizeof(*map));
  map->law = modal_keymap_constant_q();
  for (int k = 0; k < MODAL_KEYMAP_MAX_ZONES; ++k)
    modal_table_init(&map->zone[k]);
}

int
modal_keymap_zone_of(const modal_keymap* const map, const double note)
{
  int best = 0;
  for (int k = 1; k < map->zones; ++k)
    if (fabs(map->zone[k].root - note) < fabs(map->zone[best].root - note))
      best = k;
  return best;
}

double
modal_keymap_note_hz(const double note)
{
  return 440.0 * exp2((note - 69.0) / 12.0);
}

void
modal_keymap_transpose(const modal_keymap_law* const law, const double root_hz,
                       const double ratio, double* const freq,
                       double* const decay)
{
  const double octaves_of_rho = log2(*freq / root_hz);
  const double p = law->decay_exponent + law->decay_slope * octaves_of_rho;
  /* the constant-q law stays exact: r * f, t / r */
  *decay /= p == 1.0 ? ratio : pow(ratio, p);
  if (law->ratio_drift == 0.0) {
    *freq *= ratio;
    return;
  }
  const double stretch =
      fmax(law->ratio_drift * log2(ratio), MODAL_KEYMAP_MIN_RATIO_POWER - 1.0);
  *freq = ratio * root_hz * exp2(octaves_of_rho * (1.0 + stretch));
}
