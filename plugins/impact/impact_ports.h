/* SPDX-License-Identifier: ISC */
/* The ports of urn:contact:impact, by index. */
#ifndef CONTACT_IMPACT_PORTS_H
#define CONTACT_IMPACT_PORTS_H

#include "exciter_ports.h"
#include "law_ports.h"
#include "object_ports.h"
#include "place_ports.h"
#include "port_info.h"

#define IMPACT_URI "urn:contact:impact"

enum impact_port {
  IMPACT_MIDI_IN,
  IMPACT_OUT_L,
  IMPACT_OUT_R,
  IMPACT_V_IN,  /* meter impact_velocity, [papetti]'s v_in */
  IMPACT_V_OUT, /* meter rebound_velocity, v_out */
  IMPACT_CONTACT_TIME,
  IMPACT_PEAK_FORCE,
  IMPACT_NEWTON_CAP_HITS,
  IMPACT_VOICES,
  IMPACT_OUTPUT_REPAIRS,
  IMPACT_HAMMER_MASS,
  IMPACT_STIFFNESS,
  IMPACT_ALPHA,
  IMPACT_MU,
  IMPACT_VELOCITY_MAX,
  IMPACT_VELOCITY_CURVE,
  IMPACT_EXT_FORCE,
  IMPACT_OBJECT, /* the object ports follow, see object_ports.h */
  IMPACT_NOTIFY = IMPACT_OBJECT + OBJECT_N_PORTS, /* patch:Set replies */
  IMPACT_PLACE, /* where it is touched and heard, see place_ports.h */
  IMPACT_LAW = IMPACT_PLACE + PLACE_N_PORTS, /* the law, see law_ports.h */
  IMPACT_EXCITER = IMPACT_LAW + LAW_N_PORTS, /* see exciter_ports.h */
  IMPACT_N_PORTS = IMPACT_EXCITER + EXCITER_N_PORTS
};

extern const plugin_info impact_info;

#endif
