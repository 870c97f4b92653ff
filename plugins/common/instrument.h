/* SPDX-License-Identifier: ISC */
/*
 * What the instruments share: the LV2 life cycle, control ports, MIDI,
 * voices (allocation, stealing, the damper, the sustain pedal, pitch
 * bend), rendering and the bad-input report.  Each instrument describes
 * its voices with an instrument_class; run() only forwards ports and
 * events to it.
 *
 * MIDI: note-on starts a voice (pitch tracking: one object per note, a
 * note still sounding is played again; without: one object for every
 * note); note-off releases it, deferred while the sustain pedal (CC64) is
 * down; pitch bend bends the objects; channel and polyphonic pressure and
 * the mod wheel (CC1) are kept here and passed on as the player's
 * expression; CC120 silences, CC121 resets controllers,
 * CC123 releases every note.  Malformed events are skipped and reported.
 */
#ifndef CONTACT_INSTRUMENT_H
#define CONTACT_INSTRUMENT_H

#include "controls.h"
#include "glue.h"
#include "modal.h"
#include "object.h"
#include "port_info.h"
#include "voices.h"

#include <lv2/core/lv2.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
  INSTRUMENT_POLYPHONY = 16,
  INSTRUMENT_VOICES = INSTRUMENT_POLYPHONY + 1, /* the spare lets a stolen
                                                   voice fade */
  INSTRUMENT_CHUNK = 256, /* samples rendered per voice at a time */
};

typedef struct instrument instrument;

typedef struct instrument_class {
  LV2_Descriptor descriptor; /* first: instantiate() finds the class by it */
  const plugin_info* info;
  int object_port; /* index of the object's first port */
  int out_l, out_r, midi_in;
  size_t voice_size; /* bytes, a multiple of 64 */
  size_t user_size;  /* bytes of the instrument's own state (in->user) */

  void (*voice_init)(instrument* in, int v);
  modal_object* (*voice_object)(instrument* in, int v);
  /* read the instrument's own controls (the object's are read already) */
  void (*controls)(instrument* in);
  /* a note starts or restarts voice v (its object already tuned) */
  void (*note_on)(instrument* in, int v, int velocity, bool fresh);
  /* the key of voice v is up (and the pedal too) */
  void (*note_off)(instrument* in, int v);
  /* the pressure on voice v or the mod wheel changed (NULL: the instrument
   * does not follow them); see instrument_expression() */
  void (*expression)(instrument* in, int v);
  /* add `frames` of voice v to l and r (velocity, m/s) */
  void (*render)(instrument* in, int v, float* l, float* r, int frames);
  /* the voice still drives its object (hammer in play, exciter down) */
  bool (*busy)(instrument* in, int v);
  bool (*finite)(instrument* in, int v);
  /* back to rest (silent) */
  void (*reset)(instrument* in, int v);
  /* its object was retuned */
  void (*object_changed)(instrument* in, int v);
  void (*meters)(instrument* in);
} instrument_class;

struct instrument {
  const instrument_class* cls;
  float** ports; /* n_ports */
  float* values; /* clamped control values */
  plugin_host host;
  input_report report;
  void* voices; /* INSTRUMENT_VOICES of cls->voice_size, 64-byte aligned */
  voice_slot slots[INSTRUMENT_VOICES];
  object_settings object;
  int last_started; /* voice the meters follow, or -1 */
  uint32_t starts;
  double bend;      /* semitones */
  double mod_wheel; /* CC1, 0..1 */
  bool retune;
  bool sustain;
  int keys_down;
  double gain_now, gain_coeff;
  bool activated;
  float rate_option;
  float scratch_l[INSTRUMENT_CHUNK], scratch_r[INSTRUMENT_CHUNK];
  void* user; /* the instrument's own state */
};

static inline void*
instrument_voice(instrument* in, int v)
{
  return (char*)in->voices + (size_t)v * in->cls->voice_size;
}

/* The player's expression on voice v, for sustained instruments: the
 * speed (or push) they play scaled by velocity (1 + mod wheel), and the
 * force they press with by 1 + pressure.  At rest, mod wheel and pressure
 * leave the set values; a fresh note starts without pressure. */
typedef struct expression {
  double speed, press;
} expression;

static inline expression
instrument_expression(const instrument* in, int v)
{
  const voice_slot* s = &in->slots[v];
  return (expression){s->velocity * (1.0 + in->mod_wheel), 1.0 + s->pressure};
}

/* The LV2 entry points, the same for every instrument: the descriptor is
 * the first member of the instrument's class, so instantiate() finds the
 * class from it (extension_data gives the worker and options interfaces).
 * A class starts with INSTRUMENT_DESCRIPTOR(its URI). */
LV2_Handle instrument_instantiate(const LV2_Descriptor* descriptor, double rate,
                                  const char* bundle_path,
                                  const LV2_Feature* const* features);
void instrument_connect_port(LV2_Handle h, uint32_t port, void* data);
void instrument_activate(LV2_Handle h);
void instrument_run(LV2_Handle h, uint32_t frames);
void instrument_cleanup(LV2_Handle h);
const void* instrument_extension_data(const char* uri);

#define INSTRUMENT_DESCRIPTOR(uri)                                             \
  {                                                                            \
    (uri), instrument_instantiate, instrument_connect_port,                    \
        instrument_activate, instrument_run, NULL, instrument_cleanup,         \
        instrument_extension_data                                              \
  }

#endif
