/* SPDX-License-Identifier: ISC */
#include "law_ports.h"

static const char* const law_labels[CONTACT_LAWS] = {
    "Hunt-Crossley",
    "Felt",
};

const port_info law_ports[LAW_N_PORTS] = {
    {PORT_CONTROL_IN, "contact_law", "Contact law", "felt", NULL, 0, 0,
     CONTACT_LAWS - 1, PORT_ENUM,
     "How the contact answers its compression: Hunt-Crossley, k x^alpha "
     "(1 + mu v) (Stiffness, Contact exponent, Contact damping); or a "
     "hammer's felt, K eta (x/y0)^4 + K (1 - eta) (x/y0)^2 ([borin] eq 1) "
     "times (1 + mu v) (Felt force, Felt compression, Felt shape, Contact "
     "damping), which stiffens as it is compressed: a soft blow is dark, a "
     "hard one bright.",
     law_labels},
    PORT(PORT_CONTROL_IN, "felt_k", "Felt force", "felt", UNIT_NEWTON, 0.1f,
         100, 100000, PORT_LOG,
         "K: the felt's force when compressed by Felt compression. A harder "
         "felt is brighter."),
    PORT(PORT_CONTROL_IN, "felt_y0", "Felt compression", "felt", UNIT_MM, 0.05f,
         1, 20, PORT_LOG, "y0: the compression at which K is measured."),
    PORT(PORT_CONTROL_IN, "felt_eta", "Felt shape", "felt", UNIT_COEF, 0, 0.5f,
         1, 0,
         "eta: 0 a 2nd-order felt, 1 a 4th-order one, which stiffens more as "
         "it is compressed: its blows brighten more with velocity."),
};

impact_law
law_from_ports(const float* v, double stiffness, double alpha, double mu)
{
  impact_law law = {.stiffness = stiffness, .alpha = alpha, .mu = mu};
  const int kind = (int)v[LAW_LAW];
  if (kind == CONTACT_LAW_HUNT_CROSSLEY)
    return law;
  law.kind = IMPACT_FELT;
  law.felt = (felt_law){v[LAW_K], 1e-3 * v[LAW_Y0], v[LAW_ETA], 0.0, 0.0};
  return law;
}
