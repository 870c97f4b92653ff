/* SPDX-License-Identifier: ISC */
#include "friction_ports.h"

static const char* const drive_modes[] = {"Velocity", "Force"};

static const port_info ports[FRICTION_OBJECT] = {
    INSTRUMENT_IO_PORTS(
        "Note-on puts the exciter on the object (velocity scales the speed or "
        "the force), note-off lifts it. Pressure scales the normal force, "
        "CC1 the speed.",
        "at the rubbed point"),

    PORT(PORT_METER, "friction_force", "Friction force", "meters", UNIT_NEWTON,
         -1000, 0, 1000, 0,
         "Friction force of the last started note, averaged over the block."),
    PORT(PORT_METER, "slip_velocity", "Slip velocity", "meters", UNIT_M_PER_S,
         -100, 0, 100, 0,
         "Velocity of the exciter relative to the object at the contact, "
         "averaged over the block: near zero while it sticks."),
    INSTRUMENT_COMMON_METERS("Bristle solves"),

    PORT(PORT_CONTROL_IN, "normal_force", "Normal force", "exciter",
         UNIT_NEWTON, 0, 3, 200, 0,
         "Force pressing the exciter on the object, f_N: harder is louder and "
         "rougher ([ch8] table 8.1). 0 lifts the exciter."),
    {PORT_CONTROL_IN, "drive_mode", "Drive", "exciter", NULL, 0, 0, 1,
     PORT_ENUM,
     "Velocity: the exciter is held to a hand moving at the bow velocity "
     "(through the grip, damped at 0.7 of critical). Force: the exciter "
     "is a free mass "
     "pushed along by the external force.",
     drive_modes},
    PORT(PORT_CONTROL_IN, "bow_velocity", "Bow velocity", "exciter",
         UNIT_M_PER_S, -2, 0.1f, 2, 0,
         "Speed of the hand along the surface (velocity drive), signed. Slow "
         "and pressed: stick-slip and squeaks; fast: smooth sliding."),
    PORT(PORT_CONTROL_IN, "ext_force", "External force", "exciter", UNIT_NEWTON,
         -50, 0.5f, 50, 0,
         "Force pushing the exciter along the surface (force drive), signed."),
    INSTRUMENT_VELOCITY_PORTS("exciter", "stroke (speed and normal force)", 0,
                              1.5f),
    PORT(PORT_CONTROL_IN, "exciter_mass", "Exciter mass", "exciter", UNIT_GRAM,
         0.1f, 10, 10000, PORT_LOG, "Mass of the finger, bow or pad."),
    PORT(PORT_CONTROL_IN, "grip", "Grip", "exciter", UNIT_HZ, 10, 250, 5000,
         PORT_LOG,
         "Natural frequency of the hand's hold on the exciter (velocity "
         "drive): a finger's flesh or a bow's hair give way (tens to hundreds "
         "of Hz), a brake pad's mounting hardly (kHz)."),
    PORT(PORT_CONTROL_IN, "sigma0", "Bristle stiffness", "bristles",
         UNIT_N_PER_M, 100, 1e6f, 1e8f, PORT_LOG,
         "sigma0: how stiff the contact's bristles are; sets how the rubbing "
         "locks onto the object's modes."),
    PORT(PORT_CONTROL_IN, "sigma1", "Bristle damping", "bristles",
         UNIT_N_S_PER_M, 0, 0.1f, 10, 0,
         "sigma1: internal damping of the bristles; narrows or widens the "
         "sound's bandwidth."),
    PORT(PORT_CONTROL_IN, "sigma2", "Viscous friction", "bristles",
         UNIT_N_S_PER_M, 0, 0.1f, 10, 0,
         "sigma2: friction growing with the sliding speed (lubrication); "
         "changes how fast the timbre evolves."),
    PORT(PORT_CONTROL_IN, "sigma3", "Roughness noise", "bristles", UNIT_COEF, 0,
         0.1f, 1, 0,
         "sigma3: RMS of the fractal surface noise in the friction force, "
         "per newton of normal force: the surface's roughness, heard more "
         "the harder the exciter presses."),
    PORT(PORT_CONTROL_IN, "mu_s", "Static friction", "bristles", UNIT_COEF,
         0.01f, 0.8f, 2, 0,
         "mu_s: friction coefficient at rest (stiction); with the Stribeck "
         "velocity, how smooth the attack is."),
    PORT(PORT_CONTROL_IN, "mu_d", "Dynamic friction", "bristles", UNIT_COEF,
         0.01f, 0.3f, 2, 0,
         "mu_d: friction coefficient while sliding; high values narrow the "
         "sound's bandwidth."),
    PORT(PORT_CONTROL_IN, "stribeck_velocity", "Stribeck velocity", "bristles",
         UNIT_MM_PER_S, 1, 20, 1000, PORT_LOG,
         "v_s: speed over which friction falls from static to dynamic."),
    PORT(PORT_CONTROL_IN, "breakaway", "Breakaway", "bristles", UNIT_COEF, 0,
         0.7f, 0.99f, 0,
         "c of the breakaway displacement z_ba = c min(mu_s, mu_d) f_N / "
         "sigma0: below it "
         "the contact is purely elastic."),
    PORT(PORT_CONTROL_IN, "noise_beta", "Noise slope", "bristles",
         UNIT_EXPONENT, 0, 1, 3, 0,
         "beta of the 1/f^beta surface noise: 0 white (fine grain), 2 brown "
         "(coarse)."),
};

/* The default object is the struck bar made light enough to be rubbed:
 * stick-slip starts at the first slip when the friction's drop, (mu_s -
 * mu_d) f_N, is of the order of the force that swings the first mode at
 * the bow velocity, m_1 omega_1 v_b (here 0.46 of it); see doc/friction.md,
 * "Playing the friction instrument". */
static const port_default object_defaults[] = {
    {"object_mass", 0.02f},
    {"gain", 2.0f},
    {NULL, 0},
};

const plugin_info friction_info = {
    FRICTION_URI,
    "Contact Friction",
    "An exciter (finger, bow, pad) rubs a resonating object; the sound comes "
    "from the elasto-plastic friction between them: squeaks, squeals, "
    "singing glasses, bowed bars.",
    FRICTION_N_PORTS,
    ports,
    FRICTION_OBJECT,
    object_defaults,
    {{exciter_ports, EXCITER_N_PORTS}},
};
