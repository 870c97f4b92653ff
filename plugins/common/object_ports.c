/* SPDX-License-Identifier: ISC */
#include "object_ports.h"

#include <math.h>

#define CONTROL(sym, nm, grp, unit, lo, def, hi, fl, doc)                      \
  {PORT_CONTROL_IN, sym, nm, grp, unit, lo, def, hi, fl, doc}

/* The default table is a free-free steel bar tuned to C4: frequency ratios
 * are the beam's (beta_n L / beta_1 L)^2, decay times keep q = pi f t_e =
 * 1500, and gains fall with the mode number. */
#define MODE_PORTS(i, freq, decay, gain)                                       \
  CONTROL("mode" #i "_freq", "Mode " #i " frequency", "mode" #i, UNIT_HZ, 10,  \
          freq, 32000, PORT_LOG,                                               \
          "Frequency of the mode at the root note."),                          \
    CONTROL("mode" #i "_decay", "Mode " #i " decay", "mode" #i, UNIT_S,        \
            0.0005f, decay, 120, PORT_LOG,                                     \
            "1/e amplitude decay time of the mode at the root note (quality "  \
            "factor q = pi f t_e: rubber 5-44, wood 15-132, glass 190-5000, "  \
            "steel 270-5000)."),                                               \
    CONTROL("mode" #i "_gain", "Mode " #i " gain", "mode" #i, NULL, 0, gain,   \
            1, 0,                                                              \
            "How strongly the struck point drives the mode (object mass / "    \
            "modal mass); 0 leaves the mode out.")

static const port_info object_ports[OBJECT_N_PORTS] = {
  CONTROL("modes", "Modes", "object", NULL, 1, 8, OBJECT_TABLE_SIZE,
          PORT_INTEGER,
          "Number of modes of the object that take part, from the top of "
          "the modal table. More modes: a richer, more metallic spectrum."),
  CONTROL("object_mass", "Object mass", "object", UNIT_KG, 0.001f, 1, 1e12f,
          PORT_LOG,
          "Mass of the struck object. Modal masses are this mass divided by "
          "each mode's gain. A light object is pushed away by the blow and "
          "rings loudly with a longer contact; 1e12 kg acts as a rigid "
          "wall."),
  CONTROL("pitch_track", "Pitch tracking", "object", NULL, 0, 1, 1,
          PORT_TOGGLE,
          "On: every note is its own object, the table transposed by "
          "2^((note - root)/12). Off: every note strikes the same object."),
  CONTROL("root_note", "Root note", "object", UNIT_MIDI_NOTE, 0, 60, 127,
          PORT_INTEGER, "The note at which the modal table sounds as written."),
  CONTROL("bend_range", "Pitch bend range", "object", UNIT_SEMITONE, 0, 2, 24,
          0, "Transposition of the objects at full pitch bend."),
  CONTROL("damper", "Damper", "object", NULL, 0, 0, 1, PORT_TOGGLE,
          "On: releasing a key (with the sustain pedal up) lays a damper on "
          "its object, like a vibraphone. Off: objects ring freely."),
  CONTROL("damper_decay", "Damper decay", "object", UNIT_S, 0.005f, 0.15f, 10,
          PORT_LOG,
          "1/e decay time the damper adds to every mode of a released note."),
  CONTROL("width", "Stereo width", "output", NULL, 0, 0.5f, 1, 0,
          "Left hears the struck point; right moves from the struck point "
          "(0, mono) to its mirror image across the object (1), where odd "
          "modes of a symmetric object change sign."),
  CONTROL("gain", "Gain", "output", UNIT_DB, -60, 12, 40, 0,
          "Output level. At 0 dB a pickup velocity of 1 m/s is full scale."),

  MODE_PORTS(1, 261.626f, 1.825f, 1.0f),
  MODE_PORTS(2, 721.181f, 0.6621f, 0.7f),
  MODE_PORTS(3, 1413.803f, 0.3377f, 0.5f),
  MODE_PORTS(4, 2337.088f, 0.2043f, 0.4f),
  MODE_PORTS(5, 3491.207f, 0.1368f, 0.3f),
  MODE_PORTS(6, 4876.148f, 0.0979f, 0.25f),
  MODE_PORTS(7, 6491.913f, 0.0735f, 0.2f),
  MODE_PORTS(8, 8338.502f, 0.0573f, 0.16f),
  MODE_PORTS(9, 10415.914f, 0.0458f, 0.13f),
  MODE_PORTS(10, 12724.149f, 0.0375f, 0.1f),
  MODE_PORTS(11, 15263.209f, 0.0313f, 0.08f),
  MODE_PORTS(12, 18033.092f, 0.0265f, 0.065f),
  MODE_PORTS(13, 21033.798f, 0.0227f, 0.05f),
  MODE_PORTS(14, 24265.328f, 0.0197f, 0.04f),
  MODE_PORTS(15, 27727.682f, 0.0172f, 0.03f),
  MODE_PORTS(16, 31420.859f, 0.0152f, 0.025f),
};

const port_info*
object_port(int index)
{
  return index >= 0 && index < OBJECT_N_PORTS ? &object_ports[index] : NULL;
}

void
object_settings_read(object_settings* s, const float* values)
{
  s->modes = (int)values[OBJECT_MODES];
  s->mass = values[OBJECT_MASS];
  s->pitch_track = values[OBJECT_PITCH_TRACK] > 0.5f;
  s->root_note = (int)values[OBJECT_ROOT_NOTE];
  s->bend_range = values[OBJECT_BEND_RANGE];
  s->damper = values[OBJECT_DAMPER] > 0.5f;
  s->damper_decay = values[OBJECT_DAMPER_DECAY];
  s->width = values[OBJECT_WIDTH];
  s->gain = pow(10.0, values[OBJECT_GAIN] / 20.0);
  for (int i = 0; i < OBJECT_TABLE_SIZE; ++i) {
    s->freq[i] = values[OBJECT_MODE_FREQ(i)];
    s->decay[i] = values[OBJECT_MODE_DECAY(i)];
    s->gain_of_mode[i] = values[OBJECT_MODE_GAIN(i)];
  }
}

void
object_tune(const object_settings* s, modal_object* o, int note, double bend,
            bool damped)
{
  const double semitones = (s->pitch_track ? note - s->root_note : 0) + bend;
  const double ratio = exp2(semitones / 12.0);
  const double damper_rate = damped ? 1.0 / s->damper_decay : 0.0;
  modal_set_count(o, s->modes);
  modal_set_mass(o, s->mass);
  modal_set_width(o, s->width);
  for (int i = 0; i < s->modes; ++i) {
    const double decay = s->decay[i] / ratio;
    modal_set_mode(o, i, s->freq[i] * ratio, 1.0 / (1.0 / decay + damper_rate),
                   s->gain_of_mode[i]);
  }
  modal_update(o);
}
