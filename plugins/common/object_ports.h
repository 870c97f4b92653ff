/* SPDX-License-Identifier: ISC */
/*
 * The resonating object's ports, shared by every instrument: the modal
 * table, the object mass, pitch tracking, the damper and the output.  Each
 * plugin places this block at the end of its port list.
 */
#ifndef CONTACT_OBJECT_PORTS_H
#define CONTACT_OBJECT_PORTS_H

#include "modal.h"
#include "port_info.h"

#include <stdbool.h>

enum { OBJECT_TABLE_SIZE = 16 };

enum object_port {
  OBJECT_MODES,
  OBJECT_MASS,
  OBJECT_PITCH_TRACK,
  OBJECT_ROOT_NOTE,
  OBJECT_BEND_RANGE,
  OBJECT_DAMPER,
  OBJECT_DAMPER_DECAY,
  OBJECT_WIDTH,
  OBJECT_GAIN,
  OBJECT_MODE_TABLE, /* then freq, decay, gain of mode 1, mode 2, ... */
  OBJECT_N_PORTS = OBJECT_MODE_TABLE + 3 * OBJECT_TABLE_SIZE
};

#define OBJECT_MODE_FREQ(i) (OBJECT_MODE_TABLE + 3 * (i))
#define OBJECT_MODE_DECAY(i) (OBJECT_MODE_TABLE + 3 * (i) + 1)
#define OBJECT_MODE_GAIN(i) (OBJECT_MODE_TABLE + 3 * (i) + 2)

const port_info* object_port(int index);

/* The object's settings as read from its (clamped) port values. */
typedef struct object_settings {
  int modes;
  double mass;
  bool pitch_track;
  int root_note;
  double bend_range; /* semitones at full pitch bend */
  bool damper;
  double damper_decay; /* s */
  double width;
  double gain; /* linear */
  double freq[OBJECT_TABLE_SIZE];
  double decay[OBJECT_TABLE_SIZE];
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
