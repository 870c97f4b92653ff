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
 *
 * The modal table parameter (uris.h): a patch:Set on the MIDI input asks
 * the worker to load the file (modal_table_load(), which checks it); the
 * worker's response swaps the loaded table in between two run() calls and
 * hands the old one back to the worker to free, so the audio thread
 * neither reads files nor allocates nor frees.  Ringing voices take the
 * new modes at the swap without a click: each mode keeps its velocity and
 * its displacement is scaled by w_old / w_new (its amplitude at the
 * pickups stays), and modes beyond the new table ring out (see
 * OBJECT_RING_OUT_S) instead of stopping dead.  A bad file is refused in
 * the worker with a log:Error naming file and line, the table in use
 * kept.  State (state:interface) saves the table's path through
 * state:mapPath.
 */
#ifndef CONTACT_INSTRUMENT_H
#define CONTACT_INSTRUMENT_H

#include "controls.h"
#include "glue.h"
#include "limiter.h"
#include "modal.h"
#include "newton.h"
#include "object.h"
#include "place.h"
#include "place_ports.h"
#include "port_info.h"
#include "shape.h"
#include "voices.h"

#include <lv2/atom/forge.h>
#include <lv2/core/lv2.h>

#include <math.h>
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

/* A meter showing the voice last started: the block's mean of the values
 * the voice reports after each stretch it renders (block_mean), or its
 * latest value. */
typedef struct instrument_meter {
  int port;
  bool block_mean;
} instrument_meter;

enum { INSTRUMENT_MAX_METERS = 4 };

typedef struct instrument_class {
  LV2_Descriptor descriptor; /* first: instantiate() finds the class by it */
  const plugin_info* info;
  int object_port; /* index of the object's first port */
  int out_l, out_r, midi_in, notify;
  int cap_hits_meter, voices_meter, repairs_meter; /* ports */
  const instrument_meter* meters; /* n_meters of them, of the last voice */
  int n_meters;
  size_t voice_size; /* bytes, a multiple of 64 */
  size_t user_size;  /* bytes of the instrument's own settings (in->user) */
  /* where in a voice its object and its contact's Newton statistics are */
  size_t object_offset, stats_offset;

  void (*voice_init)(instrument* in, int v);
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
  /* A bound of the pickup speed (m/s) the motion left in voice v can still
   * produce about the rest it comes to by itself; *driven: the player's
   * exciter still drives it (a key held, a hammer on its way, a ball
   * rolling, an exciter down). */
  double (*unrest)(instrument* in, int v, bool* driven);
  /* Put voice v exactly at that rest; true if something rests on the
   * object there (the voice is parked, at no cost, until something
   * changes), false if it is simply silent (the voice is freed). */
  bool (*settle)(instrument* in, int v);
  /* the contact's state is finite (the object's is checked too) */
  bool (*finite)(instrument* in, int v);
  /* back to rest (silent) */
  void (*reset)(instrument* in, int v);
  /* its object was retuned */
  void (*object_changed)(instrument* in, int v);
  /* voice v's meter values now, in the order of `meters` */
  void (*read_meters)(instrument* in, int v, double* values);
  /* how far voice v's exciter has travelled over the object (m), for a
   * path (place.h); NULL: it stays where it touches */
  double (*travel)(instrument* in, int v);
  /* whether voice v's exciter touches or may touch its object now, so that
   * where it touches matters (NULL: always) */
  bool (*touching)(instrument* in, int v);
  /* a note is a blow that lands where it lands (impact); otherwise a note
   * on a sounding voice moves its exciter there gliding */
  bool strikes;
} instrument_class;

/* The port fields of a class whose port enum is named PREFIX_MIDI_IN,
 * PREFIX_OUT_L, ..., and the fields of a voice type with members `object`
 * and `contact.stats`. */
#define INSTRUMENT_PORTS(PREFIX)                                               \
  .object_port = PREFIX##_OBJECT, .out_l = PREFIX##_OUT_L,                     \
  .out_r = PREFIX##_OUT_R, .midi_in = PREFIX##_MIDI_IN,                        \
  .notify = PREFIX##_NOTIFY, .cap_hits_meter = PREFIX##_NEWTON_CAP_HITS,       \
  .voices_meter = PREFIX##_VOICES, .repairs_meter = PREFIX##_OUTPUT_REPAIRS
#define INSTRUMENT_VOICE_LAYOUT(voice_type, settings_type)                     \
  .voice_size = sizeof(voice_type), .user_size = sizeof(settings_type),        \
  .object_offset = offsetof(voice_type, object),                               \
  .stats_offset = offsetof(voice_type, contact.stats)
/* The callbacks, for a file that defines them under these names. */
#define INSTRUMENT_CALLBACKS                                                   \
  .voice_init = voice_init, .controls = controls, .note_on = note_on,          \
  .note_off = note_off, .render = render, .unrest = unrest, .settle = settle,  \
  .finite = finite, .reset = reset, .object_changed = object_changed,          \
  .read_meters = read_meters

/* The last started voice's meters over the current block. */
typedef struct meter_sums {
  double value[INSTRUMENT_MAX_METERS];
  long frames;
} meter_sums;

struct instrument {
  const instrument_class* cls;
  float** ports; /* n_ports */
  float* values; /* clamped control values */
  float* tuned;  /* the values the voices were last tuned with (NAN: none) */
  control_inputs inputs;
  plugin_host host;
  input_report report;
  void* voices; /* INSTRUMENT_VOICES of cls->voice_size, 64-byte aligned */
  voice_slot slots[INSTRUMENT_VOICES];
  object_settings object;
  int last_started; /* voice the meters follow, or -1 */
  meter_sums meter;
  uint32_t starts;
  uint64_t clock;   /* frames since activation: voices are looked after at
                       every INSTRUMENT_CHUNK of it, whatever the blocks */
  double bend;      /* semitones */
  double mod_wheel; /* CC1, 0..1 */
  /* the velocity response of sustained instruments (their ports) */
  double velocity_floor, velocity_curve;
  bool retune;
  bool sustain;
  int keys_down;
  double gain_now, gain_coeff;
  output_limiter limiter;
  uint64_t repairs; /* output samples and voices the guards repaired */
  bool activated;
  float rate_option;
  /* the modal table file in use (NULL: the mode ports), owned by the
   * audio thread between the worker's load and free */
  object_table* table;
  object_table* to_free; /* swapped out, not yet handed to the worker */
  bool table_swapped;    /* the voices are still to take the new table */
  bool table_notify;     /* a patch:Set of the table is to go out */
  LV2_Atom_Forge forge;  /* on the notify port, in run() */
  /* Where the voices touch and hear their objects (place.h): the shapes
   * of the analytic families, built when the plugin starts; the place
   * ports as read; the point the notes take (the position port or CC74,
   * whichever moved last); each voice's place and its strike's offset
   * within the spread; how often each note has been struck (the spread's
   * seed). */
  shape_set* families[SHAPE_FAMILIES];
  struct {
    int shape;
    double position, position_y, pickup, pickup_r, spread;
    place_path path;
    double length;
  } where;
  double position_base;
  place places[INSTRUMENT_VOICES];
  double spread_offset[INSTRUMENT_VOICES];
  uint32_t note_strikes[128];
  float scratch_l[INSTRUMENT_CHUNK], scratch_r[INSTRUMENT_CHUNK];
  void* user; /* the instrument's own settings */
};

static inline void*
instrument_voice(instrument* in, int v)
{
  return (char*)in->voices + (size_t)v * in->cls->voice_size;
}

static inline modal_object*
instrument_object(instrument* in, int v)
{
  return (modal_object*)((char*)instrument_voice(in, v) +
                         in->cls->object_offset);
}

/* An instrument's typed accessors: voice(in, v) for its voice type and
 * settings(in) for its settings type. */
#define INSTRUMENT_ACCESSORS(voice_type, settings_type)                        \
  static inline voice_type* voice(instrument* in, int v)                       \
  {                                                                            \
    return (voice_type*)instrument_voice(in, v);                               \
  }                                                                            \
  static inline settings_type* settings(instrument* in)                        \
  {                                                                            \
    return (settings_type*)in->user;                                           \
  }

/* The player's expression on voice v, for sustained instruments.  The
 * note's velocity sets how much of the full gesture (the ports' values:
 * the stroke, the roll) it plays,
 *     gesture = floor + (1 - floor) (velocity / 127)^curve,
 * from the instrument's velocity_floor and velocity_curve ports (as
 * impact's velocity_curve shapes its hammer speed); the mod wheel scales
 * the speed by 1 + CC1 / 127, pressure the force by 1 + pressure.  At
 * rest, mod wheel and pressure leave the set values; a fresh note starts
 * without pressure. */
typedef struct expression {
  double gesture, wheel, press;
} expression;

static inline double
instrument_gesture(double velocity, double floor, double curve)
{
  return floor + (1.0 - floor) * pow(velocity, curve);
}

static inline expression
instrument_expression(const instrument* in, int v)
{
  const voice_slot* s = &in->slots[v];
  return (expression){
      instrument_gesture(s->velocity, in->velocity_floor, in->velocity_curve),
      1.0 + in->mod_wheel, 1.0 + s->pressure};
}

/* The rolling instrument's path (place.h) and its object's length, m. */
void instrument_set_path(instrument* in, place_path path, double length);

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
