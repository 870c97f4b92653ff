/* SPDX-License-Identifier: ISC */
/*
 * Port descriptions, written once: the plugins clamp and default their
 * controls from these tables and the Turtle generator writes the plugin
 * descriptions from them, so the two cannot disagree.
 */
#ifndef CONTACT_PORT_INFO_H
#define CONTACT_PORT_INFO_H

#include <stddef.h>

/* The modal table parameter (see uris.h): the plugins and the Turtle. */
#define CONTACT_MODAL_TABLE_URI "urn:contact:modal_table"
/* An instrument's UI is its URI with this suffix (ui/contact_ui.c). */
#define CONTACT_UI_URI_SUFFIX "#ui"

typedef enum port_kind {
  PORT_MIDI_IN,    /* atom:Sequence of midi:MidiEvent */
  PORT_AUDIO_OUT,  /* audio */
  PORT_CONTROL_IN, /* control input */
  PORT_METER,      /* control output */
  PORT_NOTIFY,     /* atom:Sequence out: patch:Set replies */
} port_kind;

enum port_flags {
  PORT_LOG = 1u << 0,     /* logarithmic scale */
  PORT_INTEGER = 1u << 1, /* whole numbers */
  PORT_TOGGLE = 1u << 2,  /* on/off */
  PORT_ENUM = 1u << 3,    /* whole numbers min..max named by `labels` */
};

typedef struct port_info {
  port_kind kind;
  const char* symbol;
  const char* name;
  const char* group; /* port group symbol, or NULL */
  const char* unit;  /* Turtle name of the unit, or NULL */
  float min, def, max;
  unsigned flags;
  const char* comment;
  const char* const* labels; /* PORT_ENUM: one per value from min */
} port_info;

/* Turtle names of the units (custom ones are defined by the generator in
 * the cu: namespace, urn:contact:units#). */
#define UNIT_HZ        "units:hz"
#define UNIT_S         "units:s"
#define UNIT_M         "units:m"
#define UNIT_MM        "units:mm"
#define UNIT_MS        "units:ms"
#define UNIT_DB        "units:db"
#define UNIT_SEMITONE  "units:semitone12TET"
#define UNIT_MIDI_NOTE "units:midiNote"
#define UNIT_COEF      "units:coef"  /* dimensionless scale: 1 is unity */
#define UNIT_EXPONENT  "cu:exponent" /* dimensionless power */
#define UNIT_GRAM      "cu:gram"
#define UNIT_KG        "cu:kilogram"
#define UNIT_NEWTON    "cu:newton"
#define UNIT_M_PER_S   "cu:metrePerSecond"
#define UNIT_S_PER_M   "cu:secondPerMetre"
#define UNIT_MM_PER_S  "cu:millimetrePerSecond"
#define UNIT_M_PER_S2  "cu:metrePerSecondSquared"
#define UNIT_UM        "cu:micrometre"
#define UNIT_US        "cu:microsecond"
#define UNIT_N_PER_M   "cu:newtonPerMetre"
#define UNIT_N_S_PER_M "cu:newtonSecondPerMetre"
#define UNIT_STIFFNESS "cu:newtonPerMetrePowAlpha"

/* A default of the shared object ports that an instrument sets its own
 * way (its natural object differs: a rubbed object is lighter than a
 * struck one). */
typedef struct port_default {
  const char* symbol;
  float value;
} port_default;

/* A plugin's whole port list, for the generator and the glue. */
/* A table of ports. */
typedef struct port_table {
  const port_info* ports;
  int n;
} port_table;

enum { PLUGIN_MAX_TAILS = 4 };

typedef struct plugin_info {
  const char* uri;
  const char* name;
  const char* comment;
  int n_ports;
  const port_info* own; /* the instrument's own ports, n_own of them; the */
  int n_own;            /* object's follow (object_ports.h), then notify, */
  const port_default* object_defaults; /* NULL-symbol terminated, or NULL */
  /* then the place block (place_ports.h), then the tails: more tables of
   * the instrument's ports, in order (the first with no ports ends them),
   * added after the place block so that every older port kept its index */
  port_table tails[PLUGIN_MAX_TAILS];
} plugin_info;

/* A row of a port table (every field; labels NULL). */
#define PORT(kind, sym, nm, grp, unit, lo, def, hi, fl, doc)                   \
  {                                                                            \
    kind, sym, nm, grp, unit, lo, def, hi, fl, doc, NULL                       \
  }

/* The rows every instrument's table starts with: MIDI in, the stereo pair
 * (what the player hears: the object's velocity at `heard` and at the
 * right pickup), and the meters every instrument has. */
#define INSTRUMENT_IO_PORTS(midi_doc, heard)                                   \
  PORT(PORT_MIDI_IN, "midi_in", "MIDI in", NULL, NULL, 0, 0, 0, 0, midi_doc),  \
      PORT(PORT_AUDIO_OUT, "out_l", "Left", NULL, NULL, 0, 0, 0, 0,            \
           "Velocity of the object " heard "."),                               \
      PORT(PORT_AUDIO_OUT, "out_r", "Right", NULL, NULL, 0, 0, 0, 0,           \
           "Velocity of the object at the right pickup (see Stereo width).")

#define INSTRUMENT_COMMON_METERS(solves)                                       \
  PORT(PORT_METER, "newton_cap_hits", "Newton cap hits", "meters", NULL, 0, 0, \
       1e9f, PORT_INTEGER,                                                     \
       solves " that reached the Newton iteration cap since the plugin "       \
              "started (expected to stay 0)."),                                \
      PORT(PORT_METER, "voices", "Voices", "meters", NULL, 0, 0, 17,           \
           PORT_INTEGER,                                                       \
           "Voices being computed: a voice is freed (or parked at rest) "      \
           "once its sound has decayed below -120 dBFS."),                     \
      PORT(PORT_METER, "output_repairs", "Output repairs", "meters", NULL, 0,  \
           0, 1e9f, PORT_INTEGER,                                              \
           "Output samples the last guard had to repair (not finite, or "      \
           "beyond +-16) and voices reset because their state was no longer "  \
           "finite, since the plugin started (expected to stay 0).")

/* The velocity response of a sustained instrument, where a note plays a
 * share of the full `gesture` its ports set (instrument_expression()). */
#define INSTRUMENT_VELOCITY_PORTS(group, gesture, floor_def, curve_def)        \
  PORT(PORT_CONTROL_IN, "velocity_floor", "Velocity floor", group, UNIT_COEF,  \
       0, floor_def, 1, 0,                                                     \
       "Share of the full " gesture " the softest note plays: the bottom "     \
       "of the velocity range (velocity 127 plays it all)."),                  \
      PORT(PORT_CONTROL_IN, "velocity_curve", "Velocity curve", group,         \
           UNIT_EXPONENT, 0.25f, curve_def, 4, PORT_LOG,                       \
           "Share of the " gesture " = floor + (1 - floor) x (MIDI "           \
           "velocity / 127)^curve: above 1 soft notes are softer.")

/* The notify output's index: after the own and the object's ports. */
int plugin_notify_port(const plugin_info* p);

/* Port `index` of the plugin, own, object's or the notify output (NULL
 * out of range), and its default for this plugin. */
const port_info* plugin_port(const plugin_info* p, int index);
float plugin_port_default(const plugin_info* p, int index);

#endif
