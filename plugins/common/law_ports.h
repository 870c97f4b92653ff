/* SPDX-License-Identifier: ISC */
/*
 * The contact's law (dsp/impact.h, dsp/felt.h): the ports the impact
 * instrument has after its place block, and the rolling one after its
 * exciter's (each added after the ports it had, so that every older port
 * kept its index).
 */
#ifndef CONTACT_LAW_PORTS_H
#define CONTACT_LAW_PORTS_H

#include "impact.h"
#include "port_info.h"

/* The contact_law enumeration's values. */
enum contact_law {
  CONTACT_LAW_HUNT_CROSSLEY,   /* [ch8] eq 8.11: stiffness, alpha, mu */
  CONTACT_LAW_FELT,            /* [borin] eq 1: felt_k at felt_y0, felt_eta */
  CONTACT_LAW_HYSTERETIC_FELT, /* [borin] 5: and epsilon, tau_0 */
  CONTACT_LAWS
};

enum law_port {
  LAW_LAW,     /* enumeration: contact_law */
  LAW_K,       /* N, the felt's force at y0 */
  LAW_Y0,      /* mm */
  LAW_ETA,     /* 0 (2nd order) .. 1 (4th order) */
  LAW_EPSILON, /* the hysteretic felt's: 0 .. 0.99 */
  LAW_TAU,     /* us */
  LAW_N_PORTS
};

extern const port_info law_ports[LAW_N_PORTS];

/* The law the ports at `values` (LAW_N_PORTS of them, from LAW_LAW) and
 * the Hunt-Crossley ones set. */
impact_law law_from_ports(const float* values, double stiffness, double alpha,
                          double mu);

#endif
