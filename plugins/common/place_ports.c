/* SPDX-License-Identifier: ISC */
#include "place_ports.h"

#include "place.h"
#include "shape.h"

static const char* const shape_labels[SHAPE_FAMILIES] = {
    "None",     "String",       "Free-free bar",  "Clamped-free bar",
    "Membrane", "Square plate", "Table's shapes",
};

/* The defaults strike and listen off the low modes' nodal lines of every
 * family (no point is off all of them): over the first 8 modes of the
 * string, the bars and the membrane, |phi| at 0.35 is at least 0.04, the
 * strike at 0.37 away from those points, the right pickup at the left's
 * mirror image. */
static const port_info place_ports[PLACE_N_PORTS] = {
    {PORT_CONTROL_IN, "shape", "Shape", "place", NULL, 0, 0, SHAPE_FAMILIES - 1,
     PORT_ENUM,
     "The modes' shapes ([ch8] 8.2.2), which weigh each mode where the "
     "object is touched and heard: None keeps the modes' gains as given; "
     "string, free-free bar, clamped-free bar (clamped at 0), circular "
     "membrane, simply supported square plate; or the shapes the loaded "
     "modal table carries. The modes' frequencies stay the table's.",
     shape_labels},
    PORT(PORT_CONTROL_IN, "position", "Position", "place", UNIT_COEF, 0, 0.37f,
         1, 0,
         "Where the object is struck, rubbed or rolled on, along it from 0 "
         "to 1 (a membrane's radius: 0 the centre, 1 the rim). A mode whose "
         "nodal line passes there is not driven. CC74 sets it for the notes "
         "that follow."),
    PORT(PORT_CONTROL_IN, "position_y", "Position across", "place", UNIT_COEF,
         0, 0.23f, 1, 0,
         "Where the object is touched across it, 0 to 1, on a plate; a "
         "membrane's angle from the pickups, in turns."),
    PORT(PORT_CONTROL_IN, "pickup_position", "Pickup", "place", UNIT_COEF, 0,
         0.35f, 1, 0,
         "Where the left output listens, along the object (a membrane's "
         "radius); moves glide over a few ms."),
    PORT(PORT_CONTROL_IN, "pickup_position_r", "Right pickup", "place",
         UNIT_COEF, 0, 0.65f, 1, 0,
         "Where the right output listens, with Stereo width: at width 1 "
         "here, at 0 with the left pickup (mono). At 1 - Pickup it is the "
         "left's mirror image."),
    PORT(PORT_CONTROL_IN, "position_spread", "Position spread", "place",
         UNIT_COEF, 0, 0, 0.5f, 0,
         "Each strike lands at Position plus a random offset, uniform within "
         "+-spread (reflected at the ends), seeded by the note and how often "
         "it has been played: a repeated note varies as a played one does."),
    PORT(PORT_METER, "strike_position", "Strike position", "meters", UNIT_COEF,
         0, 0, 1, 0,
         "Where the last started note touches the object now, along it."),
};

const port_info*
place_port(int index)
{
  return index >= 0 && index < PLACE_N_PORTS ? &place_ports[index] : NULL;
}

static const char* const path_labels[PLACE_PATHS] = {"Fixed", "Across",
                                                     "Circle"};

const port_info path_ports[PATH_N_PORTS] = {
    {PORT_CONTROL_IN, "path", "Path", "place", NULL, 0, 0, PLACE_PATHS - 1,
     PORT_ENUM,
     "Where the ball rolls: at the fixed point; across the object and back "
     "(from Position, its contact moving with the distance rolled, so that "
     "a mode dips each time the ball crosses one of its nodal lines); or "
     "on a circle about the centre of a plate or membrane (radius "
     "Position, from the angle Position across).",
     path_labels},
    PORT(PORT_CONTROL_IN, "object_length", "Object length", "place", UNIT_M,
         0.02f, 0.5f, 10, PORT_LOG,
         "Length of the object along its path (a membrane's or plate's "
         "width): the distance rolled per length across."),
};
