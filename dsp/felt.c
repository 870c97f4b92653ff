/* SPDX-License-Identifier: ISC */
#include "felt.h"

#include <math.h>

double
felt_compression(const felt_law* law, double force)
{
  if (!(force > 0.0))
    return 0.0;
  /* eta w^2 + (1 - eta) w = force / K in w = (x / y0)^2, by the root that
   * loses no digits */
  const double l = force / law->k, b = 1.0 - law->eta;
  const double w = 2.0 * l / (b + sqrt(b * b + 4.0 * law->eta * l));
  return law->y0 * sqrt(w);
}

double
felt_static_compression(const felt_law* law, double load)
{
  const double relaxed = 1.0 - law->epsilon;
  return relaxed > 0.0 ? felt_compression(law, load / relaxed) : 0.0;
}

double
felt_energy(const felt_law* law, double y, double q)
{
  /* P(y) - eps q y + eps P*(q), P*(q) = q z - P(z) at f(z) = q: the first
   * two terms and the Fenchel-Young gap P(y) - q y + P*(q) >= 0, summed
   * so that a relaxed felt (q = f(y), the gap 0) holds (1 - eps) P(y) */
  const double e = law->epsilon;
  if (!(q > 0.0) || e == 0.0)
    return felt_potential(law, y);
  const double z = felt_compression(law, q);
  const double gap = felt_potential(law, y) - felt_potential(law, z) -
                     q * (y - z); /* >= 0: P convex, P'(z) = q */
  return (1.0 - e) * felt_potential(law, y) + e * (gap > 0.0 ? gap : 0.0);
}

felt_step
felt_step_of(const felt_law* law, double h)
{
  if (!(law->tau > 0.0) || law->epsilon == 0.0) {
    /* relaxed at once (or nothing to relax): the static law, scaled */
    return (felt_step){1.0 - law->epsilon, 0.0, 0.0, 0.0};
  }
  const double r = h / law->tau;
  const double decay = exp(-r);
  /* phi = (1 - e^-r) / r, q's mean share of its start over the step */
  const double phi = r > 1e-8 ? -expm1(-r) / r : 1.0 - 0.5 * r;
  return (felt_step){1.0 - law->epsilon * (1.0 - phi), law->epsilon * phi,
                     decay, exp(-(1.0 - law->epsilon) * r)};
}

double
felt_step_force(const felt_law* law, const felt_step* step, double q, double x0,
                double x1)
{
  const double f = step->share * felt_gradient(law, x0, x1) - step->memory * q;
  return f > 0.0 ? f : 0.0;
}

double
felt_step_memory(const felt_law* law, const felt_step* step, double q,
                 double x0, double x1)
{
  return felt_step_remember(step, q, felt_gradient(law, x0, x1));
}

void
felt_contact_relax(felt_contact* c, const felt_law* law, double decay)
{
  c->q *= decay;
  c->y = felt_compression(law, law->epsilon * c->q);
}
