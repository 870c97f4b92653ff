/* SPDX-License-Identifier: ISC */
#include "closed_form.h"

#include "dsp_util.h"

#include <math.h>

/*
 * Everything here is written in terms of phi(u) = u - log(1 + u), u = mu v,
 * through Phi(v) = phi(mu v) / mu^2, which stays finite as mu -> 0
 * (Phi -> v^2 / 2, the elastic limit).  With it eq 3 reads
 * x(v) = [(a + 1) m / k (Phi(v_in) - Phi(v))]^(1/(a+1)), eq 20 reads
 * H(v) = m v^2 / 2 + m (Phi(v_in) - Phi(v)), and eq 6 is Phi(v_out) =
 * Phi(v_in).
 */

/* psi(r) = phi(r) / r^2 = (r - log(1 + r)) / r^2, smooth through r = 0. */
static double
psi(double r)
{
  if (fabs(r) < 0.1) {
    /* sum_{j >= 0} (-r)^j / (j + 2); 20 terms reach 1e-20 at |r| = 0.1 */
    double term = 1.0;
    double sum = 0.0;
    for (int j = 0; j < 20; ++j) {
      sum += term / (j + 2);
      term *= -r;
    }
    return sum;
  }
  return (r - log1p(r)) / (r * r);
}

/* Phi(v + d) - Phi(v) without cancellation when d is small:
 * with s = d / (1 + mu v) it equals v s + s^2 psi(mu s). */
static double
delta_phi(double mu, double v, double d)
{
  const double s = d / (1.0 + mu * v);
  return v * s + s * s * psi(mu * s);
}

double
hc_rebound_velocity_approx(double mu, double v_in)
{
  const double u = mu * v_in;
  if (u < 1e-3) {
    /* the local expansion the ansatz is built on, eqs 30 and 33 */
    const double u_out =
        u * (-1.0 + u * (2.0 / 3.0 + u * (-4.0 / 9.0 + u * (44.0 / 135.0))));
    return mu > 0.0 ? u_out / mu : -v_in;
  }
  /* eqs 7-8 in u = mu v_in, v_lim = -1 / mu */
  const double poly =
      1.0 + u * (1.0 + u * (2.0 / 3.0 + u * (2.0 / 9.0 + u * (14.0 / 135.0))));
  return -(1.0 - poly * exp(-2.0 * u)) / mu;
}

/* u_out = mu v_out from u_in = mu v_in > 0, with log(1 + u_out) in *log_w:
 * near v_lim the latter underflows when rebuilt from u_out. */
static double
rebound(double u_in, double* log_w)
{
  const double c = u_in * u_in * psi(u_in); /* phi(u_in) = phi(u_out) */
  if (c < 1.0) {
    /* G(u) = -sqrt(phi(u)) = u sqrt(psi(u)) is smooth and increasing on
     * (-1, 0] with G'(u) = 1 / (2 (1 + u) sqrt(psi(u))): Newton on
     * G(u) = -sqrt(c), bracketed. */
    const double target = -sqrt(c);
    double lo = -1.0;
    double hi = 0.0;
    double u = hc_rebound_velocity_approx(1.0, u_in);
    if (!(u > lo && u < hi))
      u = -0.5;
    for (int it = 0; it < 100; ++it) {
      const double sp = sqrt(psi(u));
      const double err = u * sp - target;
      if (err > 0.0)
        hi = u;
      else
        lo = u;
      double next = u - err * 2.0 * (1.0 + u) * sp;
      if (!(next > lo && next < hi))
        next = 0.5 * (lo + hi);
      const double step = fabs(next - u);
      u = next;
      if (step <= 4e-16 * fabs(u))
        break;
    }
    *log_w = log1p(u);
    return u;
  }
  /* Near v_lim = -1/mu solve in s = log(1 + u): e^s - 1 - s = c.  The left
   * side is convex and decreasing for s < 0, so Newton started left of the
   * root at s = -(1 + c) converges monotonically. */
  double s = -(1.0 + c);
  for (int it = 0; it < 100; ++it) {
    const double es = exp(s);
    const double next = s - (es - 1.0 - s - c) / (es - 1.0);
    const double step = fabs(next - s);
    s = next;
    if (step <= 4e-16 * fabs(s))
      break;
  }
  *log_w = s;
  return expm1(s);
}

double
hc_rebound_velocity(double mu, double v_in)
{
  if (!(v_in > 0.0))
    return v_in;
  if (!(mu > 0.0))
    return -v_in;
  double log_w;
  return rebound(mu * v_in, &log_w) / mu;
}

double
hc_compression(double mass, double stiffness, double alpha, double mu,
               double v_in, double v)
{
  const double dphi = delta_phi(mu, v, v_in - v);
  if (!(dphi > 0.0))
    return 0.0;
  return pow((alpha + 1.0) * mass / stiffness * dphi, 1.0 / (alpha + 1.0));
}

double
hc_max_compression(double mass, double stiffness, double alpha, double mu,
                   double v_in)
{
  return hc_compression(mass, stiffness, alpha, mu, v_in, 0.0);
}

double
hc_energy(double mass, double mu, double v_in, double v)
{
  return mass * (0.5 * v * v + delta_phi(mu, v, v_in - v));
}

double
hc_contact_time_undamped(double mass, double stiffness, double alpha,
                         double v_in)
{
  /* energy balance m v^2 / 2 = k x_max^(a+1) / (a+1), then
   * t = 2 (x_max / v_in) int_0^1 du / sqrt(1 - u^(a+1)) */
  const double q = alpha + 1.0;
  const double x_max = pow(q * mass * v_in * v_in / (2.0 * stiffness), 1.0 / q);
  const double shape =
      sqrt(DSP_PI) * tgamma(1.0 + 1.0 / q) / tgamma(0.5 + 1.0 / q);
  return 2.0 * x_max / v_in * shape;
}

/* ---- contact time, eq 9 ------------------------------------------------
 * t = (m/k)^(1/q) q^(-a/q) int_{v_out}^{v_in} dv / ((1 + mu v) dPhi^(a/q))
 * with q = a + 1 and dPhi = Phi(v_in) - Phi(v).  The integrand has
 * (v_in - v)^(-a/q) and (v - v_out)^(-a/q) singularities ([ch5] 5.2.1).
 * Splitting at v = 0 and substituting v = v_end (1 - w^q) makes each half
 * smooth: dv carries w^(q-1) = w^a, which cancels dPhi^(a/q) ~ w^a
 * exactly, so the integrands below are evaluated without 0/0. */

typedef struct {
  double mu, v_end, q, p, y_end;
} half_integral;

/* compression half (v_end = v_in) or restitution half (v_end = v_out) */
static double
integrand_velocity(const half_integral* h, double w)
{
  const double wq = pow(w, h->q);
  const double v = h->v_end * (1.0 - wq);
  const double one_mu_v = 1.0 + h->mu * v;
  const double sigma = h->v_end / one_mu_v; /* s / w^q */
  const double dphi_wq =
      v * sigma + sigma * sigma * wq * psi(h->mu * sigma * wq);
  return fabs(h->v_end) * h->q / (one_mu_v * pow(dphi_wq, h->p));
}

/* restitution half when 1 + mu v_out is small: y = log(1 + mu v) runs from
 * y_end = log(1 + mu v_out) to 0, y = y_end (1 - w^q), and dv / (1 + mu v)
 * = dy / mu removes the near-pole at v_lim.  With eta = y - y_end,
 * mu^2 dPhi = phi(u_out) - phi(u) = eta - (e^y - e^y_end)
 *           = eta (1 - e^y_end expm1(eta) / eta),
 * which has no cancellation since e^y_end < 1/2 on this branch. */
static double
integrand_log(const half_integral* h, double w)
{
  const double wq = pow(w, h->q);
  const double ya = -h->y_end;
  const double eta = ya * wq;
  const double ratio = eta > 0.0 ? expm1(eta) / eta : 1.0;
  const double dphi_wq = ya * (1.0 - exp(h->y_end) * ratio) / (h->mu * h->mu);
  return ya * h->q / (h->mu * pow(dphi_wq, h->p));
}

typedef double (*integrand_fn)(const half_integral*, double);

/* Gauss-Kronrod 7-15 nodes and weights (QUADPACK qk15) */
static const double gk_x[8] = {
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
    0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
    0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0.0};
static const double gk_wk[8] = {
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
static const double gk_wg[4] = {
    0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
    0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

static double
gk15(integrand_fn f, const half_integral* h, double a, double b, double* err)
{
  const double c = 0.5 * (a + b);
  const double r = 0.5 * (b - a);
  const double fc = f(h, c);
  double kronrod = fc * gk_wk[7];
  double gauss = fc * gk_wg[3];
  for (int j = 0; j < 7; ++j) {
    const double sum = f(h, c - r * gk_x[j]) + f(h, c + r * gk_x[j]);
    kronrod += gk_wk[j] * sum;
    if (j % 2 == 1)
      gauss += gk_wg[j / 2] * sum;
  }
  *err = fabs(kronrod - gauss) * r;
  return kronrod * r;
}

/* adaptive bisection over [0, 1] with an explicit, bounded stack */
static double
integrate_unit(integrand_fn f, const half_integral* h)
{
  enum { STACK = 64, MAX_INTERVALS = 4000 };
  double err = 0.0;
  const double whole = gk15(f, h, 0.0, 1.0, &err);
  const double tol = 1e-13 * fabs(whole);
  double stack_a[STACK];
  double stack_b[STACK];
  int top = 0;
  double total = 0.0;
  stack_a[top] = 0.0;
  stack_b[top++] = 1.0;
  for (int n = 0; top > 0 && n < MAX_INTERVALS; ++n) {
    const double a = stack_a[--top];
    const double b = stack_b[top];
    const double part = gk15(f, h, a, b, &err);
    if (err <= tol * (b - a) || top + 2 > STACK || b - a < 1e-12) {
      total += part;
    } else {
      const double m = 0.5 * (a + b);
      stack_a[top] = m;
      stack_b[top++] = b;
      stack_a[top] = a;
      stack_b[top++] = m;
    }
  }
  while (top > 0) { /* interval budget spent: take what is left as is */
    const double a = stack_a[--top];
    total += gk15(f, h, a, stack_b[top], &err);
  }
  return total;
}

double
hc_contact_time(double mass, double stiffness, double alpha, double mu,
                double v_in)
{
  if (!(v_in > 0.0))
    return 0.0;
  mu = mu > 0.0 ? mu : 0.0;
  const double q = alpha + 1.0;
  const double p = alpha / q;
  double log_w = 0.0;
  const double u_out = mu > 0.0 ? rebound(mu * v_in, &log_w) : 0.0;
  const double v_out = mu > 0.0 ? u_out / mu : -v_in;

  half_integral compression = {mu, v_in, q, p, 0.0};
  double sum = integrate_unit(integrand_velocity, &compression);

  if (u_out > -0.5) {
    half_integral restitution = {mu, v_out, q, p, 0.0};
    sum += integrate_unit(integrand_velocity, &restitution);
  } else {
    half_integral restitution = {mu, v_out, q, p, log_w};
    sum += integrate_unit(integrand_log, &restitution);
  }
  return pow(mass / stiffness, 1.0 / q) * pow(q, -p) * sum;
}
