/* SPDX-License-Identifier: ISC */
/* The ports of urn:contact:rolling, by index. */
#ifndef CONTACT_ROLLING_PORTS_H
#define CONTACT_ROLLING_PORTS_H

#include "exciter_ports.h"
#include "law_ports.h"
#include "object_ports.h"
#include "place_ports.h"
#include "port_info.h"

#define ROLLING_URI "urn:contact:rolling"

enum rolling_port {
  ROLLING_MIDI_IN,
  ROLLING_OUT_L,
  ROLLING_OUT_R,
  ROLLING_CONTACT_FORCE,
  ROLLING_CONTACT_FRACTION,
  ROLLING_NEWTON_CAP_HITS,
  ROLLING_VOICES,
  ROLLING_OUTPUT_REPAIRS,
  ROLLING_SPEED,
  ROLLING_STOP_TIME,
  ROLLING_VELOCITY_FLOOR,
  ROLLING_VELOCITY_CURVE,
  ROLLING_BALL_MASS,
  ROLLING_BALL_RADIUS,
  ROLLING_GRAVITY,
  ROLLING_ASYMMETRY,
  ROLLING_ROUGHNESS,
  ROLLING_SURFACE_DEPTH,
  ROLLING_STIFFNESS,
  ROLLING_ALPHA,
  ROLLING_MU,
  ROLLING_OBJECT, /* the object ports follow, see object_ports.h */
  ROLLING_NOTIFY = ROLLING_OBJECT + OBJECT_N_PORTS, /* patch:Set replies */
  ROLLING_PLACE, /* where it is touched and heard, see place_ports.h */
  ROLLING_PATH = ROLLING_PLACE + PLACE_N_PORTS,    /* the path ports follow */
  ROLLING_EXCITER = ROLLING_PATH + PATH_N_PORTS,   /* the ball's own modes */
  ROLLING_LAW = ROLLING_EXCITER + EXCITER_N_PORTS, /* see law_ports.h */
  ROLLING_N_PORTS = ROLLING_LAW + LAW_N_PORTS
};

extern const plugin_info rolling_info;

#endif
