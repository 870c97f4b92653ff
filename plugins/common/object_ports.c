/* SPDX-License-Identifier: ISC */
#include "object_ports.h"

#include "place_ports.h"

#include <string.h>

#define CONTROL(sym, nm, grp, unit, lo, def, hi, fl, doc)                      \
  PORT(PORT_CONTROL_IN, sym, nm, grp, unit, lo, def, hi, fl, doc)

/* The default table is a free-free steel bar tuned to C4: frequency ratios
 * are the beam's (beta_n L / beta_1 L)^2, decay times keep q = pi f t_e =
 * 1500, and gains fall with the mode number. */
#define MODE_PORTS(i, freq, decay, gain)                                       \
  CONTROL("mode" #i "_freq", "Mode " #i " frequency", "mode" #i, UNIT_HZ, 10,  \
          freq, 48000, PORT_LOG, "Frequency of the mode at the root note."),   \
      CONTROL(                                                                 \
          "mode" #i "_decay", "Mode " #i " decay", "mode" #i, UNIT_MS, 0.5f,   \
          decay, 120000, PORT_LOG,                                             \
          "1/e amplitude decay time of the mode at the root note (quality "    \
          "factor q = pi f t_e: rubber 5-44, wood 15-132, glass 190-5000, "    \
          "steel 270-5000)."),                                                 \
      CONTROL("mode" #i "_gain", "Mode " #i " gain", "mode" #i, UNIT_COEF, 0,  \
              gain, 1, 0,                                                      \
              "How strongly the struck point drives the mode (object mass / "  \
              "modal mass); 0 leaves the mode out.")

static const port_info object_ports[OBJECT_N_PORTS] = {
    CONTROL("modes", "Modes", "object", NULL, 1, 8, OBJECT_MAX_MODES,
            PORT_INTEGER,
            "Number of modes of the object that take part, from the top of "
            "the modal table: of the 16 mode ports, or of a loaded table "
            "file (up to 128). More modes: a richer, more metallic "
            "spectrum."),
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
            PORT_INTEGER,
            "The note at which the modal table sounds as written (a loaded "
            "table file with a '# root:' line brings its own)."),
    CONTROL("bend_range", "Pitch bend range", "object", UNIT_SEMITONE, 0, 2, 24,
            0, "Transposition of the objects at full pitch bend."),
    CONTROL("damper", "Damper", "object", NULL, 0, 0, 1, PORT_TOGGLE,
            "On: releasing a key (with the sustain pedal up) lays a damper on "
            "its object, like a vibraphone. Off: objects ring freely."),
    CONTROL("damper_decay", "Damper decay", "object", UNIT_MS, 5, 150, 10000,
            PORT_LOG,
            "1/e decay time the damper adds to every mode of a released note."),
    CONTROL("width", "Stereo width", "output", UNIT_COEF, 0, 0.5f, 1, 0,
            "Left hears the struck point; right moves from the struck point "
            "(0, mono) to its mirror image across the object (1), where odd "
            "modes of a symmetric object change sign."),
    CONTROL("gain", "Gain", "output", UNIT_DB, -60, 12, 80, 0,
            "Output level. At 0 dB a pickup velocity of 1 m/s is full scale."),

    MODE_PORTS(1, 261.626f, 1825.0f, 1.0f),
    MODE_PORTS(2, 721.181f, 662.1f, 0.7f),
    MODE_PORTS(3, 1413.803f, 337.7f, 0.5f),
    MODE_PORTS(4, 2337.088f, 204.3f, 0.4f),
    MODE_PORTS(5, 3491.207f, 136.8f, 0.3f),
    MODE_PORTS(6, 4876.148f, 97.9f, 0.25f),
    MODE_PORTS(7, 6491.913f, 73.5f, 0.2f),
    MODE_PORTS(8, 8338.502f, 57.3f, 0.16f),
    MODE_PORTS(9, 10415.914f, 45.8f, 0.13f),
    MODE_PORTS(10, 12724.149f, 37.5f, 0.1f),
    MODE_PORTS(11, 15263.209f, 31.3f, 0.08f),
    MODE_PORTS(12, 18033.092f, 26.5f, 0.065f),
    MODE_PORTS(13, 21033.798f, 22.7f, 0.05f),
    MODE_PORTS(14, 24265.328f, 19.7f, 0.04f),
    MODE_PORTS(15, 27727.682f, 17.2f, 0.03f),
    MODE_PORTS(16, 31420.859f, 15.2f, 0.025f),
};

const port_info*
object_port(int index)
{
  return index >= 0 && index < OBJECT_N_PORTS ? &object_ports[index] : NULL;
}

const port_info object_notify_port =
    PORT(PORT_NOTIFY, "notify", "Notify", NULL, NULL, 0, 0, 0, 0,
         "patch:Set replies: the modal table in use, after it changed or "
         "when asked with patch:Get.");

int
plugin_notify_port(const plugin_info* p)
{
  return p->n_own + OBJECT_N_PORTS;
}

const port_info*
plugin_port(const plugin_info* p, int index)
{
  if (index < 0 || index >= p->n_ports)
    return NULL;
  if (index < p->n_own)
    return &p->own[index];
  const int notify = plugin_notify_port(p);
  if (index < notify)
    return object_port(index - p->n_own);
  if (index == notify)
    return &object_notify_port;
  if (index <= notify + PLACE_N_PORTS)
    return place_port(index - notify - 1);
  index -= notify + 1 + PLACE_N_PORTS;
  for (int t = 0; t < PLUGIN_MAX_TAILS && p->tails[t].n > 0; ++t) {
    if (index < p->tails[t].n)
      return &p->tails[t].ports[index];
    index -= p->tails[t].n;
  }
  return NULL;
}

float
plugin_port_default(const plugin_info* p, int index)
{
  const port_info* port = plugin_port(p, index);
  if (index >= p->n_own && p->object_defaults)
    for (const port_default* d = p->object_defaults; d->symbol; ++d)
      if (!strcmp(d->symbol, port->symbol))
        return d->value;
  return port->def;
}
