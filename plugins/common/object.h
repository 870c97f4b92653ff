/* SPDX-License-Identifier: ISC */
/* The resonating object as its ports describe it, tuned per voice. */
#ifndef CONTACT_OBJECT_H
#define CONTACT_OBJECT_H

#include "modal.h"
#include "modal_keymap.h"
#include "modal_table.h"
#include "object_ports.h"
#include "shape.h"

#include <stdbool.h>
#include <stdint.h>

/* The longest modal table path, NUL included (PATH_MAX on Linux). */
enum { OBJECT_PATH_SIZE = 4096 };

/* A modal table or keymap file as the worker loads it and the audio
 * thread plays it: the parsed zones (decay in s, as object_tune() wants
 * them; a plain table is one zone) and the path it came from, for
 * patch:Get answers and the saved state.  Allocated and freed by the
 * worker only; the audio thread swaps pointers. */
typedef struct object_table {
  modal_keymap map;
  shape_set* shapes;    /* a plain table's shapes, or NULL */
  uint32_t path_length; /* bytes, without the NUL */
  char path[OBJECT_PATH_SIZE];
  struct object_table* next; /* tables waiting to be freed, in a chain */
} object_table;

/* Free a chain of tables (worker, cleanup). */
void object_table_free_chain(object_table* t);

/* The object's settings as read from its (clamped) port values. */
typedef struct object_settings {
  int modes; /* the port: modes from the top of the table in use */
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
  /* a loaded modal table, in place of the 16 mode ports; NULL: none.  Not
   * read from the ports: the instrument sets it when a table swaps in. */
  const object_table* table;
} object_settings;

void object_settings_read(object_settings* s, const float* values);

/* Tune a voice's object to `note` (pitch tracking) bent by `bend`
 * semitones, damped or not.  The note plays its zone of a keymap (the one
 * table, or the 16 mode ports), transposed by r = 2^(semitones/12) from
 * the zone's root under the keymap's law (modal_keymap.h); without one,
 * the constant-q law: every frequency times r, every decay time over r,
 * each mode keeping its quality factor q = pi f t_e, as a same-material
 * object scaled in size does ([ch5] 5.3: q is the material's signature).
 * Pitch tracking off, every note plays the zone nearest the root_note
 * port at its own pitch.  The damper (a felt laid on the object) adds its
 * own decay rate: 1/t_e' = 1/t_e + 1/t_damper. */
void object_tune(const object_settings* s, modal_object* o, int note,
                 double bend, bool damped);

/* The zone `note` plays, or NULL for the mode ports. */
const modal_table* object_zone(const object_settings* s, int note);

/* The modes `note` plays: its zone's (when a table is loaded) or the
 * ports', the first `modes` of them (the port), and the note its zone
 * sounds at as written: a table's own `# root:` (or the keymap zone's)
 * takes the place of the root_note port (its frequencies were measured
 * at that note), else the port. */
int object_mode_count(const object_settings* s, int note);
double object_root(const object_settings* s, int note);

/* Modes a voice keeps ringing out beyond the table after a swap to a
 * table with fewer modes: they keep their frequency, no longer feel the
 * contact force (gain 0) and die away with a 1/e time of
 * OBJECT_RING_OUT_S, instead of stopping dead (a click).  object_tune()
 * with `ring_out` > the table's count keeps modes count..ring_out-1 so. */
#define OBJECT_RING_OUT_S 2e-3
void object_tune_ring_out(const object_settings* s, modal_object* o, int note,
                          double bend, bool damped, int ring_out);

#endif
