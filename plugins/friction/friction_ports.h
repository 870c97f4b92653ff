/* SPDX-License-Identifier: ISC */
/* The ports of urn:contact:friction, by index. */
#ifndef CONTACT_FRICTION_PORTS_H
#define CONTACT_FRICTION_PORTS_H

#include "exciter_ports.h"
#include "object_ports.h"
#include "place_ports.h"
#include "port_info.h"

#define FRICTION_URI "urn:contact:friction"

enum friction_port {
  FRICTION_MIDI_IN,
  FRICTION_OUT_L,
  FRICTION_OUT_R,
  FRICTION_FORCE,
  FRICTION_SLIP_VELOCITY,
  FRICTION_NEWTON_CAP_HITS,
  FRICTION_VOICES,
  FRICTION_OUTPUT_REPAIRS,
  FRICTION_NORMAL_FORCE,
  FRICTION_DRIVE_MODE,
  FRICTION_BOW_VELOCITY,
  FRICTION_EXT_FORCE,
  FRICTION_VELOCITY_FLOOR,
  FRICTION_VELOCITY_CURVE,
  FRICTION_EXCITER_MASS,
  FRICTION_GRIP,
  FRICTION_SIGMA0,
  FRICTION_SIGMA1,
  FRICTION_SIGMA2,
  FRICTION_SIGMA3,
  FRICTION_MU_S,
  FRICTION_MU_D,
  FRICTION_STRIBECK_VELOCITY,
  FRICTION_BREAKAWAY,
  FRICTION_NOISE_BETA,
  FRICTION_OBJECT, /* the object ports follow, see object_ports.h */
  FRICTION_NOTIFY = FRICTION_OBJECT + OBJECT_N_PORTS, /* patch:Set replies */
  FRICTION_PLACE, /* where it is touched and heard, see place_ports.h */
  FRICTION_EXCITER = FRICTION_PLACE + PLACE_N_PORTS, /* the rod's own modes */
  FRICTION_N_PORTS = FRICTION_EXCITER + EXCITER_N_PORTS
};

extern const plugin_info friction_info;

#endif
