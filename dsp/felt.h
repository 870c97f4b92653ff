/* SPDX-License-Identifier: ISC */
/*
 * The felt of a hammer or mallet ([borin]): a static force-compression law
 * between 2nd and 4th order, and the hysteresis of a real felt.
 *
 * Static law ([borin] eq 1): for compression x > 0,
 *   f(x) = K eta (x / y0)^4 + K (1 - eta) (x / y0)^2
 * where K is the force at the compression y0 and eta the shape: 0 gives
 * the 2nd-order law, 1 the 4th-order one, in between a blend.
 *
 * Hysteresis ([borin] 5, after Stulov, eqs 16-17): the force is the static
 * force less a memory of it,
 *   F(t) = f(x(t)) - (h * f)(t),  h(t) = (epsilon / tau) exp(-t / tau),
 * i.e. F = f - epsilon q with tau q' = f - q: compressed fast the felt
 * answers with f, held it relaxes to (1 - epsilon) f, and a compression
 * and release trace a loop whose area is the energy the felt takes.
 * [borin] discretises the kernel by the bilinear transform (eqs 18-19);
 * here q moves exactly over a step under the step's mean static force,
 * which keeps the step force F increasing in the end compression (the
 * contact solve's bracket, impact.h) at any step size, and turns into the
 * static law (times 1 - epsilon) as tau goes to 0.
 *
 * Passivity.  The continuous law is passive: the felt holds the energy
 *   E(y, q) = P(y) - epsilon q y + epsilon P*(q) >= 0
 * (P the static law's potential, P* its Legendre transform, y the felt's
 * own compression), dE/dy = f - epsilon q = F, and relaxation only takes
 * energy: dE/dq = epsilon (z(q) - y), f(z) = q, has the sign opposite to
 * q' = (f(y) - q) / tau.  The step above (its memory over the step, for
 * accuracy) is not always passive: a deep, coarse step overstates the
 * step's mean static force, and a hammer rattling on an object far
 * lighter than it gained energy without bound (epsilon 0.99, K 1e5 N at
 * 0.05 mm, a 10 kg hammer at 20 m/s on 1 g).  A step with the memory held
 * at its start and moved after it towards the end's static force is:
 * F = G(y0, x1) - epsilon q0 does the work E(x1, q0) - E(y0, q0), and
 * q1 = decay q0 + (1 - decay) f(y1) then takes energy.  A contact solver
 * takes the accurate step where it keeps E within its work
 * (felt_energy()), else the passive one.  When the felt would pull it
 * lets go: its own compression y stays where its dent (the memory) holds
 * it, z(epsilon q), ahead of the bodies' compression x, until they meet
 * it again.
 *
 * A step of a contact solver takes the static law's mean over the step as
 * the discrete gradient of its potential P (P' = f): G(x0, x1) =
 * (P(x1) - P(x0)) / (x1 - x0), so that its work over the step is exactly
 * the change of P, summed here without cancellation.
 *
 * The law and its derivatives are inline: the contact solve evaluates
 * them several times a Newton iteration, on its latency chain.
 */
#ifndef CONTACT_FELT_H
#define CONTACT_FELT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct felt_law {
  double k;       /* N, the static force at the compression y0 (K) */
  double y0;      /* m, where K is measured */
  double eta;     /* 0 (2nd order) .. 1 (4th order) */
  double epsilon; /* 0 (no hysteresis) .. 1, the share that relaxes */
  double tau;     /* s, the relaxation time tau_0 */
} felt_law;

/* Whether two felts are the same law. */
static inline bool
felt_law_same(const felt_law* a, const felt_law* b)
{
  return a->k == b->k && a->y0 == b->y0 && a->eta == b->eta &&
         a->epsilon == b->epsilon && a->tau == b->tau;
}

/* The law in units of y0, u = x / y0, where f = K eta u^4 + K (1 - eta)
 * u^2: what a solver works in, free of divisions. */
typedef struct felt_scaled {
  double quartic;   /* N, K eta */
  double quadratic; /* N, K (1 - eta) */
} felt_scaled;

static inline felt_scaled
felt_scaled_of(const felt_law* law)
{
  return (felt_scaled){law->k * law->eta, law->k * (1.0 - law->eta)};
}

/* The static force f of [borin] eq 1 at u; 0 for u <= 0. */
static inline double
felt_scaled_force(felt_scaled s, double u)
{
  if (!(u > 0.0))
    return 0.0;
  const double u2 = u * u;
  /* [borin] eq 1 */
  return s.quartic * (u2 * u2) + s.quadratic * u2;
}

/* The potential over y0, P / y0 = K eta u^5 / 5 + K (1 - eta) u^3 / 3; 0
 * for u <= 0. */
static inline double
felt_scaled_potential(felt_scaled s, double u)
{
  if (!(u > 0.0))
    return 0.0;
  const double u2 = u * u;
  return s.quartic * (u2 * u2 * u) / 5.0 + s.quadratic * (u2 * u) / 3.0;
}

/* f's mean between a and b, the discrete gradient of the potential; f(a)
 * when they are equal. */
static inline double
felt_scaled_gradient(felt_scaled s, double a, double b)
{
  if (a >= 0.0 && b >= 0.0) {
    /* (b^n - a^n) / (b - a) = sum of a^i b^(n-1-i): no difference taken,
     * and f(a) when a = b */
    const double a2 = a * a, b2 = b * b, ab = a * b;
    const double cubic = (a2 + ab + b2) / 3.0;
    const double quintic = (a2 * a2 + ab * (a2 + ab + b2) + b2 * b2) / 5.0;
    return s.quartic * quintic + s.quadratic * cubic;
  }
  if (a == b)
    return 0.0; /* both out of contact */
  /* one end out of contact, where P = 0: no cancellation */
  return (felt_scaled_potential(s, b) - felt_scaled_potential(s, a)) / (b - a);
}

/* df/du; 0 for u <= 0. */
static inline double
felt_scaled_slope(felt_scaled s, double u)
{
  if (!(u > 0.0))
    return 0.0;
  return 4.0 * s.quartic * (u * u * u) + 2.0 * s.quadratic * u;
}

/* d2f/du2; 0 for u <= 0. */
static inline double
felt_scaled_bend(felt_scaled s, double u)
{
  if (!(u > 0.0))
    return 0.0;
  return 12.0 * s.quartic * (u * u) + 2.0 * s.quadratic;
}

/* The derivative of felt_scaled_gradient() in b. */
static inline double
felt_scaled_gradient_slope(felt_scaled s, double a, double b)
{
  if (a >= 0.0 && b >= 0.0) {
    /* d/db of the sums in felt_scaled_gradient() */
    const double cubic = (a + 2.0 * b) / 3.0;
    const double quintic =
        (a * a * a + b * (2.0 * a * a + b * (3.0 * a + 4.0 * b))) / 5.0;
    return s.quartic * quintic + s.quadratic * cubic;
  }
  if (a == b)
    return 0.0;
  /* the quotient's derivative, (f(b) - G) / (b - a) */
  return (felt_scaled_force(s, b) - felt_scaled_gradient(s, a, b)) / (b - a);
}

/* The second derivative of felt_scaled_gradient() in b, for a, b >= 0: it
 * grows with b, so its value at the larger of two ends bounds it between
 * them. */
static inline double
felt_scaled_gradient_curvature(felt_scaled s, double a, double b)
{
  return s.quartic * (2.0 * a * a + 6.0 * a * b + 12.0 * b * b) / 5.0 +
         s.quadratic * (2.0 / 3.0);
}

/* The same in the compression x (m) itself. */

/* The static force f(x) of [borin] eq 1; 0 for x <= 0. */
static inline double
felt_force(const felt_law* law, double x)
{
  return felt_scaled_force(felt_scaled_of(law), x / law->y0);
}

/* Its potential P(x), the integral of f from 0; 0 for x <= 0. */
static inline double
felt_potential(const felt_law* law, double x)
{
  return law->y0 * felt_scaled_potential(felt_scaled_of(law), x / law->y0);
}

/* f's mean between the compressions x0 and x1, the discrete gradient
 * (P(x1) - P(x0)) / (x1 - x0); f(x0) when they are equal. */
static inline double
felt_gradient(const felt_law* law, double x0, double x1)
{
  return felt_scaled_gradient(felt_scaled_of(law), x0 / law->y0, x1 / law->y0);
}

/* df/dx, the felt's stiffness at x; 0 for x <= 0. */
static inline double
felt_slope(const felt_law* law, double x)
{
  return felt_scaled_slope(felt_scaled_of(law), x / law->y0) / law->y0;
}

/* The compression at which the relaxed felt bears a static load:
 * (1 - epsilon) f(x) = load. */
double felt_static_compression(const felt_law* law, double load);

/* The compression at which the static law bears `force`: f's inverse (0
 * for force <= 0). */
double felt_compression(const felt_law* law, double force);

/* The energy E(y, q) the felt holds at its compression y with memory q
 * (above); P(y) without hysteresis. */
double felt_energy(const felt_law* law, double y, double q);

/* One step of h seconds of the hysteresis: F = share G - memory q, and q
 * becomes decay q + (1 - decay) G (felt_step_remember()). */
typedef struct felt_step {
  double share;  /* 1 - epsilon (1 - phi), phi = tau / h (1 - decay) */
  double memory; /* epsilon phi */
  double decay;  /* exp(-h / tau) */
  /* exp(-(1 - epsilon) h / tau): off the object the felt bears nothing,
   * f(y) = epsilon q, and tau q' = f - q relaxes q at (1 - epsilon) / tau */
  double free_decay;
} felt_step;

felt_step felt_step_of(const felt_law* law, double h);

/* The memory at the step's end from q, the static law's mean g over it. */
static inline double
felt_step_remember(const felt_step* step, double q, double g)
{
  return step->decay * q + (1.0 - step->decay) * g;
}

/* The step's mean force for the end compression x1 from x0, with the
 * memory q at the step's start: never negative (a felt does not pull). */
double felt_step_force(const felt_law* law, const felt_step* step, double q,
                       double x0, double x1);

/* The memory at the step's end. */
double felt_step_memory(const felt_law* law, const felt_step* step, double q,
                        double x0, double x1);

/* A felt in a contact solver's hands (impact.h, impact_felt_solve()): its
 * memory q and its own compression y (ahead of the bodies' while its dent
 * holds it off them); its energy e at the (e_y, e_q) the last step left
 * (felt_energy(); e_q NAN: not worked out), so that the next step need not
 * work it out again; its step for the sub-step step_h (0: none); and the
 * steps it took passive (above). */
typedef struct felt_contact {
  double q, y;
  double e, e_y, e_q;
  felt_step step;
  double step_h;
  uint64_t passive_steps;
} felt_contact;

/* Its step for a sub-step of h seconds, worked out when h changes. */
static inline void
felt_contact_step(felt_contact* c, const felt_law* law, double h)
{
  if (c->step_h != h) {
    c->step = felt_step_of(law, h);
    c->step_h = h;
  }
}

/* The felt off the object: its memory relaxes by `decay`, and its dent
 * with it (which takes energy, above). */
void felt_contact_relax(felt_contact* c, const felt_law* law, double decay);

#endif
