/* SPDX-License-Identifier: ISC */
/*
 * Where the object is touched and heard (dsp/place.h, dsp/shape.h): the
 * ports every instrument has after its notify output (added after it, so
 * that every older port kept its index: hosts save automation by index).
 */
#ifndef CONTACT_PLACE_PORTS_H
#define CONTACT_PLACE_PORTS_H

#include "port_info.h"

enum place_port {
  PLACE_SHAPE,        /* enumeration: shape_family */
  PLACE_POSITION,     /* 0..1 along (a membrane's radius) */
  PLACE_POSITION_Y,   /* 0..1 across (a membrane's angle, turns) */
  PLACE_PICKUP,       /* 0..1, the left pickup along */
  PLACE_PICKUP_R,     /* 0..1, the right pickup along */
  PLACE_SPREAD,       /* 0..0.5, the strikes' scatter */
  PLACE_STRIKE_METER, /* meter: where the last note's point is */
  PLACE_N_PORTS
};

const port_info* place_port(int index);

/* The rolling instrument's path ports, after the place block. */
enum rolling_path_port {
  PATH_PATH,   /* enumeration: place_path */
  PATH_LENGTH, /* m */
  PATH_N_PORTS
};

extern const port_info path_ports[PATH_N_PORTS];

#endif
