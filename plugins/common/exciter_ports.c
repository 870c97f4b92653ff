/* SPDX-License-Identifier: ISC */
#include "exciter_ports.h"

#define CONTROL(sym, nm, grp, unit, lo, def, hi, fl, doc)                      \
  PORT(PORT_CONTROL_IN, sym, nm, grp, unit, lo, def, hi, fl, doc)

/* The default modes are a free-free steel rod's, 6 mm across and 30 cm
 * long (a triangle beater): f_1 = (beta_1 L)^2 / (2 pi L^2) sqrt(E I /
 * (rho A)) = 300 Hz and the beam's ratios (beta_n L / beta_1 L)^2, decay
 * times for q = pi f t_e = 2000 (steel). */
#define EXCITER_MODE_PORTS(i, freq, decay)                                     \
  CONTROL("exciter_mode" #i "_freq", "Exciter mode " #i " frequency",          \
          "exciter_mode" #i, UNIT_HZ, 10, freq, 48000, PORT_LOG,               \
          "Frequency of the exciter's mode (it does not follow the note)."),   \
      CONTROL("exciter_mode" #i "_decay", "Exciter mode " #i " decay",         \
              "exciter_mode" #i, UNIT_MS, 0.5f, decay, 120000, PORT_LOG,       \
              "1/e amplitude decay time of the exciter's mode."),              \
      CONTROL("exciter_mode" #i "_gain", "Exciter mode " #i " gain",           \
              "exciter_mode" #i, UNIT_COEF, 0, 1, 1, 0,                        \
              "How strongly the touching point drives the exciter's mode "     \
              "(exciter mass / modal mass); 0 leaves the mode out.")

const port_info exciter_ports[EXCITER_N_PORTS] = {
    CONTROL("exciter_modes", "Exciter modes", "exciter_body", NULL, 0, 0,
            EXCITER_MAX_MODES, PORT_INTEGER,
            "How many of the exciter's modes take part: 0, a rigid hammer or "
            "ball (inertia without a voice); more, a beater, clapper, rod or "
            "hollow ball that rings and yields as it touches ([ch8] 8.3.1: "
            "two modal bodies in contact)."),
    CONTROL("exciter_level", "Exciter level", "exciter_body", UNIT_COEF, 0, 1,
            4, 0,
            "How loud the exciter's own ring is, relative to the object's "
            "(its pickup velocity at the touching point); 0 silences it "
            "without changing how it strikes."),
    EXCITER_MODE_PORTS(1, 300.0f, 2122.1f),
    EXCITER_MODE_PORTS(2, 827.0f, 769.8f),
    EXCITER_MODE_PORTS(3, 1621.2f, 392.7f),
    EXCITER_MODE_PORTS(4, 2679.9f, 237.6f),
    EXCITER_MODE_PORTS(5, 4003.3f, 159.0f),
    EXCITER_MODE_PORTS(6, 5591.4f, 113.9f),
    EXCITER_MODE_PORTS(7, 7444.1f, 85.5f),
    EXCITER_MODE_PORTS(8, 9561.6f, 66.6f),
    EXCITER_MODE_PORTS(9, 11943.7f, 53.3f),
    EXCITER_MODE_PORTS(10, 14590.5f, 43.6f),
    EXCITER_MODE_PORTS(11, 17502.0f, 36.4f),
    EXCITER_MODE_PORTS(12, 20678.1f, 30.8f),
    EXCITER_MODE_PORTS(13, 24119.0f, 26.4f),
    EXCITER_MODE_PORTS(14, 27824.5f, 22.9f),
    EXCITER_MODE_PORTS(15, 31794.7f, 20.0f),
    EXCITER_MODE_PORTS(16, 36029.6f, 17.7f),
};
