/* SPDX-License-Identifier: ISC */
/*
 * The exciter's own modes (dsp/impact.h, impact_set_exciter(); dsp/
 * rolling.h, rolling_set_exciter()): the hammer, beater, clapper or ball
 * as a modal object of up to EXCITER_MAX_MODES modes, heard through its
 * own pickups.  Its mass is the instrument's hammer or ball mass; its
 * modes do not follow the note (one beater plays every key).
 */
#ifndef CONTACT_EXCITER_PORTS_H
#define CONTACT_EXCITER_PORTS_H

#include "modal.h"
#include "port_info.h"

enum { EXCITER_MAX_MODES = 16 };

enum exciter_port {
  EXCITER_MODES, /* how many of the modes below take part; 0: rigid */
  EXCITER_LEVEL, /* its pickups' share of the output */
  EXCITER_MODE1, /* freq (Hz), decay (ms), gain, for each mode */
  EXCITER_N_PORTS = EXCITER_MODE1 + 3 * EXCITER_MAX_MODES
};

/* The port table's rows (in a tail of an instrument's table). */
extern const port_info exciter_ports[EXCITER_N_PORTS];

/* (common/exciter.c, in the plugins only) Set the modal object `e` from
 * the port values at `values` (from
 * EXCITER_MODES) and the hammer's mass (kg); returns whether anything
 * changed (then modal_update() was called and the contact must be told,
 * impact_set_exciter()). */
bool exciter_from_ports(modal_object* e, const float* values, double mass);

#endif
