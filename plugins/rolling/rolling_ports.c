/* SPDX-License-Identifier: ISC */
#include "rolling_ports.h"

static const port_info ports[ROLLING_OBJECT] = {
    INSTRUMENT_IO_PORTS(
        "Note-on sets a ball rolling (velocity scales the speed), note-off "
        "lets it slow to a stop; CC1 scales the speed, channel pressure the "
        "weight.",
        "under the ball"),

    PORT(PORT_METER, "contact_force", "Contact force", "meters", UNIT_NEWTON, 0,
         0, 1e6f, 0,
         "Mean contact force between ball and object over the last block, of "
         "the last started note: the weight, on average."),
    PORT(PORT_METER, "contact_fraction", "Contact fraction", "meters",
         UNIT_COEF, 0, 0, 1, 0,
         "Share of the last block the ball touched the object: 1 rolls "
         "smoothly, low values skip from bump to bump."),
    INSTRUMENT_COMMON_METERS("Contact solves"),

    PORT(PORT_CONTROL_IN, "speed", "Speed", "ball", UNIT_M_PER_S, 0, 0.1f, 10,
         0,
         "Rolling speed: faster rolls are louder and brighter, the surface's "
         "texture passing by quicker."),
    PORT(PORT_CONTROL_IN, "stop_time", "Stop time", "ball", UNIT_S, 0.01f, 1,
         20, PORT_LOG, "How long the ball takes to stop after note-off."),
    INSTRUMENT_VELOCITY_PORTS("ball", "roll (speed)", 0.17f, 2.5f),
    PORT(PORT_CONTROL_IN, "ball_mass", "Ball mass", "ball", UNIT_KG, 0.0005f,
         0.017f, 10, PORT_LOG,
         "Mass of the ball (a marble 5 g, a steel ball of 8 mm radius 17 g, a "
         "billiard ball 170 g, a bowling "
         "ball 7 kg): heavier is louder, fuller and lower."),
    PORT(PORT_CONTROL_IN, "ball_radius", "Ball radius", "ball", UNIT_MM, 1, 8,
         120, PORT_LOG,
         "Radius of the ball: a larger ball bridges the dents it cannot sink "
         "into and meets fewer bumps, a smoother, darker roll."),
    PORT(PORT_CONTROL_IN, "gravity", "Gravity", "ball", UNIT_M_PER_S2, 0, 9.81f,
         50, 0,
         "Acceleration pressing the ball on the object (its weight is mass "
         "times gravity): low gravity makes it skip and fly."),
    PORT(PORT_CONTROL_IN, "asymmetry", "Asymmetry", "ball", UNIT_COEF, 0, 0.2f,
         1, 0,
         "Out-of-roundness of the ball (up to 2e-4 of its radius): a "
         "modulation of the contact once per revolution."),
    PORT(PORT_CONTROL_IN, "roughness", "Roughness", "surface", UNIT_EXPONENT, 0,
         1.5f, 3, 0,
         "beta of the surface's 1/f^beta profile: low values are fine-grained "
         "and hissing, high values smooth and rumbling."),
    PORT(PORT_CONTROL_IN, "surface_depth", "Surface depth", "surface", UNIT_UM,
         0.01f, 3, 100, PORT_LOG,
         "RMS height of the surface profile: a polished surface is below "
         "0.1 um, sanded wood a few um."),
    PORT(PORT_CONTROL_IN, "stiffness", "Stiffness", "contact", UNIT_STIFFNESS,
         100, 1e9f, 1e13f, PORT_LOG,
         "Contact stiffness k of f = k x^alpha (1 + mu v): stiffer is harder "
         "and brighter."),
    PORT(PORT_CONTROL_IN, "alpha", "Contact exponent", "contact", UNIT_EXPONENT,
         1, 1.5f, 4, 0,
         "Exponent of the contact law: 1.5 for a sphere on a flat (Hertz)."),
    PORT(PORT_CONTROL_IN, "mu", "Contact damping", "contact", UNIT_S_PER_M, 0,
         10, 100, 0,
         "mu = lambda / k, the contact's viscous loss: higher is deader. It "
         "damps the ball ringing on the contact (zeta = mu g / (2 w_c)), "
         "which a rough surface drives above sqrt(1.5 g R) / pi."),
};

/* A ball rolling in contact moves its object by micrometres per second
 * (its force ripple is under its weight): +52 dB brings the default ball
 * to -20 dBFS RMS. */
static const port_default object_defaults[] = {
    {"gain", 52.0f},
    {NULL, 0},
};

const plugin_info rolling_info = {
    ROLLING_URI,
    "Contact Rolling",
    "A ball rolls over a resonating object; the sound is a train of "
    "micro-impacts (Hunt-Crossley, or a felt-covered ball's felt) on a "
    "fractal surface, as the ball's size lets it feel it.",
    ROLLING_N_PORTS,
    ports,
    ROLLING_OBJECT,
    object_defaults,
    {{path_ports, PATH_N_PORTS},
     {exciter_ports, EXCITER_N_PORTS},
     {law_ports, LAW_N_PORTS}},
};
