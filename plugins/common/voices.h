/* SPDX-License-Identifier: ISC */
/*
 * Voice bookkeeping shared by the instruments.  The pool holds one spare
 * voice beyond the polyphony so that a stolen voice fades out (no click)
 * while the new note already sounds in the spare.
 */
#ifndef CONTACT_VOICES_H
#define CONTACT_VOICES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct voice_slot {
  int note;                /* MIDI note of the object */
  bool sounding;           /* the voice is in use */
  bool key_down;           /* its key is held */
  bool sustained;          /* released while the sustain pedal is down */
  bool damped;             /* the damper lies on it */
  bool resting;            /* parked exactly at rest under a static load: not
                              rendered until something changes */
  float velocity;          /* of the note that started it, 0..1 */
  float pressure;          /* channel or polyphonic pressure on it, 0..1 */
  uint32_t started;        /* strike order */
  float level;             /* loudness estimate, for stealing */
  float fade;              /* 1, or falling to 0 after being stolen */
  float fade_step;         /* per sample */
  int ring_out;            /* modes kept ringing out after a table swap, or 0 */
  uint64_t ring_out_until; /* instrument clock when they are let go */
} voice_slot;

/* The voice still playing `note` (not fading), or -1. */
int voices_find(const voice_slot* slots, int n_slots, int note);

/* A voice for a new note among n_slots = polyphony + 1: a free slot, else
 * one parked at rest (silent).  When all `polyphony` voices play, the
 * quietest (the oldest among equals) starts a fade of `fade_samples` and
 * the note goes to a free slot; only if none is free is a fading voice
 * cut.  Returns the slot; it is not yet marked
 * as sounding. */
int voices_allocate(voice_slot* slots, int n_slots, int polyphony,
                    int fade_samples);

#endif
