/* SPDX-License-Identifier: ISC */
/*
 * The resonating object's ports, shared by every instrument: the modal
 * table, the object mass, pitch tracking, the damper and the output.  Each
 * plugin places this block after its own ports, and then one atom output,
 * `notify` (patch:Set replies about the modal_table parameter): added
 * last, so that every older port kept its index.
 */
#ifndef CONTACT_OBJECT_PORTS_H
#define CONTACT_OBJECT_PORTS_H

#include "port_info.h"

enum { OBJECT_TABLE_SIZE = 16 };

/* The `modes` port's maximum: a loaded table file has up to 128 modes. */
enum { OBJECT_MAX_MODES = 128 };

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

#define OBJECT_MODE_FREQ(i)  (OBJECT_MODE_TABLE + 3 * (i))
#define OBJECT_MODE_DECAY(i) (OBJECT_MODE_TABLE + 3 * (i) + 1)
#define OBJECT_MODE_GAIN(i)  (OBJECT_MODE_TABLE + 3 * (i) + 2)

const port_info* object_port(int index);

/* The notify output, the port after the object's. */
extern const port_info object_notify_port;

#endif
