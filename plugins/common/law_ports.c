/* SPDX-License-Identifier: ISC */
#include "law_ports.h"

static const char* const law_labels[CONTACT_LAWS] = {
    "Hunt-Crossley",
    "Felt",
    "Hysteretic felt",
};

const port_info law_ports[LAW_N_PORTS] = {
    {PORT_CONTROL_IN, "contact_law", "Contact law", "felt", NULL, 0, 0,
     CONTACT_LAWS - 1, PORT_ENUM,
     "How the contact answers its compression: Hunt-Crossley, k x^alpha "
     "(1 + mu v) (Stiffness, Contact exponent, Contact damping); or a "
     "felt (a hammer's or mallet's head, a felt or yarn ball), K eta "
     "(x/y0)^4 + K (1 - eta) (x/y0)^2 ([borin] eq 1) times (1 + mu v) (Felt "
     "force, Felt compression, Felt shape, Contact damping), which stiffens "
     "as it is compressed: a soft touch is dark, a hard one bright; or that "
     "felt with the hysteresis of a real one ([borin] 5: Felt hysteresis, "
     "Felt relaxation), which gives back less than it took: a deader, "
     "rounder sound.",
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
    PORT(PORT_CONTROL_IN, "felt_hysteresis", "Felt hysteresis", "felt",
         UNIT_COEF, 0, 0.9f, 0.99f, 0,
         "epsilon (hysteretic felt): the share of the felt's force that "
         "relaxes when it is held; the loop a blow traces, the energy the "
         "felt takes, grows with it."),
    PORT(PORT_CONTROL_IN, "felt_relaxation", "Felt relaxation", "felt", UNIT_US,
         1, 20, 10000, PORT_LOG,
         "tau_0 (hysteretic felt): how fast the felt relaxes (Stulov's "
         "piano hammers: tens of microseconds)."),
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
  if (kind == CONTACT_LAW_HYSTERETIC_FELT) {
    law.felt.epsilon = v[LAW_EPSILON];
    law.felt.tau = 1e-6 * v[LAW_TAU];
  }
  return law;
}
