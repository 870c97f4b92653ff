/* SPDX-License-Identifier: ISC */
/* Channel voice messages out of a MIDI event, anything malformed refused. */
#ifndef CONTACT_MIDI_H
#define CONTACT_MIDI_H

#include <stdbool.h>
#include <stdint.h>

typedef enum midi_kind {
  MIDI_NOTE_OFF,
  MIDI_NOTE_ON, /* velocity > 0 */
  MIDI_POLY_PRESSURE,
  MIDI_CONTROL,
  MIDI_PROGRAM,
  MIDI_CHANNEL_PRESSURE,
  MIDI_PITCH_BEND,
  MIDI_SYSTEM, /* well-formed system message: nothing for an instrument */
} midi_kind;

typedef struct midi_message {
  midi_kind kind;
  uint8_t channel;
  uint8_t data1; /* note, controller, program or pressure */
  uint8_t data2; /* velocity, value or pressure */
  int bend;      /* -8192..8191 for MIDI_PITCH_BEND */
} midi_message;

/* False for an empty or truncated event, a data byte where a status byte
 * belongs (running status has no place in an LV2 event), a status byte
 * where data belongs, or an unterminated system exclusive. */
bool midi_parse(const uint8_t* data, uint32_t size, midi_message* msg);

#endif
