/* SPDX-License-Identifier: ISC */
#include "impact_ports.h"

static const port_info ports[IMPACT_OBJECT] = {
    INSTRUMENT_IO_PORTS(
        "Note-on strikes: velocity sets the impact velocity, the note picks "
        "the object. Pitch bend bends the objects, CC64 holds the dampers.",
        "at the struck point"),

    PORT(PORT_METER, "impact_velocity", "Impact velocity", "meters",
         UNIT_M_PER_S, 0, 0, 100, 0,
         "Compression velocity at the onset of the last completed contact of "
         "the last struck note."),
    PORT(PORT_METER, "rebound_velocity", "Rebound velocity", "meters",
         UNIT_M_PER_S, -100, 0, 100, 0,
         "Compression velocity at the release of that contact; negative when "
         "the hammer bounces back."),
    PORT(PORT_METER, "contact_time", "Contact time", "meters", UNIT_MS, 0, 0,
         10000, 0,
         "Duration of that contact: short contacts sound hard and bright."),
    PORT(PORT_METER, "peak_force", "Peak force", "meters", UNIT_NEWTON, 0, 0,
         1e9f, 0, "Largest contact force during that contact."),
    INSTRUMENT_COMMON_METERS("Contact solves"),

    PORT(PORT_CONTROL_IN, "hammer_mass", "Hammer mass", "hammer", UNIT_GRAM,
         0.1f, 10, 10000, PORT_LOG,
         "Mass of the hammer. Heavier hammers stay longer in contact: a "
         "darker, fuller blow."),
    PORT(PORT_CONTROL_IN, "stiffness", "Stiffness", "hammer", UNIT_STIFFNESS,
         100, 1e8f, 1e13f, PORT_LOG,
         "Contact stiffness k of f = k x^alpha (1 + mu v). The contact time "
         "goes as (hammer mass / k)^(1/(alpha+1)): stiffer is harder and "
         "brighter."),
    PORT(PORT_CONTROL_IN, "alpha", "Contact exponent", "hammer", UNIT_EXPONENT,
         1, 1.5f, 4, 0,
         "Exponent alpha of the contact law, set by the local shape of the "
         "contact: 1.5 for spheres (Hertz), 2.5-3.5 for felt."),
    PORT(PORT_CONTROL_IN, "mu", "Contact damping", "hammer", UNIT_S_PER_M, 0,
         0.5f, 10, 0,
         "mu = lambda / k, the viscous loss of the contact: higher is a "
         "deader, less bouncy blow."),
    PORT(PORT_CONTROL_IN, "velocity_max", "Velocity at 127", "hammer",
         UNIT_M_PER_S, 0.01f, 2, 20, PORT_LOG,
         "Impact velocity of a note-on of velocity 127."),
    PORT(PORT_CONTROL_IN, "velocity_curve", "Velocity curve", "hammer",
         UNIT_EXPONENT, 0.25f, 1.5f, 4, PORT_LOG,
         "Impact velocity = velocity at 127 x (MIDI velocity / 127)^curve: a "
         "strike's peak follows it, so velocity 10 to 127 spans about 22 dB "
         "x curve."),
    PORT(PORT_CONTROL_IN, "ext_force", "External force", "hammer", UNIT_NEWTON,
         0, 0, 100, 0,
         "Constant force on the hammer toward the object (gravity, a hand "
         "pressing): the hammer falls back and bounces, then rests on the "
         "object and damps it."),
};

const plugin_info impact_info = {
    IMPACT_URI,
    "Contact Impact",
    "A hammer strikes a resonating object; the sound comes from the "
    "contact between them (Hunt-Crossley, or a hammer's felt), solved "
    "sample by sample.",
    IMPACT_N_PORTS,
    ports,
    IMPACT_OBJECT,
    NULL,
    {{law_ports, LAW_N_PORTS}, {exciter_ports, EXCITER_N_PORTS}},
};
