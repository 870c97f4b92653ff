/* SPDX-License-Identifier: ISC */
/* The resonating object as its ports describe it, tuned per voice. */
#ifndef CONTACT_OBJECT_H
#define CONTACT_OBJECT_H

#include "modal.h"
#include "object_ports.h"

#include <stdbool.h>

/* The object's settings as read from its (clamped) port values. */
typedef struct object_settings {
  int modes;
  double mass;
  bool pitch_track;
  int root_note;
  double bend_range; /* semitones at full pitch bend */
  bool damper;
  double damper_decay; /* s (the port is in ms) */
  double width;
  double gain; /* linear */
  double freq[OBJECT_TABLE_SIZE];
  double decay[OBJECT_TABLE_SIZE]; /* s (the ports are in ms) */
  double gain_of_mode[OBJECT_TABLE_SIZE];
} object_settings;

void object_settings_read(object_settings* s, const float* values);

/* Tune a voice's object to `note` (pitch tracking) bent by `bend`
 * semitones, damped or not.  Transposition by r = 2^(semitones/12)
 * multiplies every frequency by r and divides every decay time by r:
 * each mode keeps its quality factor q = pi f t_e, as a same-material
 * object scaled in size does ([ch5] 5.3: q is the material's signature).
 * The damper (a felt laid on the object) adds its own decay rate:
 * 1/t_e' = 1/t_e + 1/t_damper. */
void object_tune(const object_settings* s, modal_object* o, int note,
                 double bend, bool damped);

#endif
