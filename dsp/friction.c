/* SPDX-License-Identifier: ISC */
#include "friction.h"

#include "dsp_util.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* time constants of the glides: the hand changes its speed over tens of
 * milliseconds; the normal force follows faster (a lift is quick, still
 * without a click) */
static const double speed_glide_s = 0.03, force_glide_s = 0.005;

/* sin(pi u) and cos(pi u) on [-1/2, 1/2] by their Taylor series (to u^17
 * and u^18), for the sinusoidal transition of eq 8.19.  The coefficients
 * carry the powers of pi, so that no multiplication by pi comes first; and
 * the series is evaluated by Estrin's scheme in y = u^2: it sits on
 * Newton's critical path, and Estrin's depth is log2 of Horner's. */
static DSP_INLINE void
sin_cos_pi(double u, double* s, double* c)
{
  const double y = u * u, y2 = y * y, y4 = y2 * y2, y8 = y4 * y4;
  /* sin(pi u) / u = sum (-y)^k pi^(2k+1) / (2k+1)!,
   * cos(pi u) = sum (-y)^k pi^(2k) / (2k)! */
  const double s01 = 0x1.921fb54442d18p+1 - y * 0x1.4abbce625be53p+2,
               s23 = 0x1.466bc6775aae2p+1 - y * 0x1.32d2cce62bd86p-1;
  const double s45 = 0x1.50783487ee782p-4 - y * 0x1.e3074fde8871fp-8;
  const double s67 = 0x1.e8f434d018d63p-12 - y * 0x1.6fadb9f155744p-16;
  const double s8 = 0x1.aaec32af93359p-21;
  const double c01 = 1.0 - y * 0x1.3bd3cc9be45dep+2,
               c23 = 0x1.03c1f081b5ac4p+2 - y * 0x1.55d3c7e3cbffap+0;
  const double c45 = 0x1.e1f506891babbp-3 - y * 0x1.a6d1f2a204a8cp-6;
  const double c67 = 0x1.f9d38a3763cc3p-10 - y * 0x1.b6e24f44b128fp-14;
  const double c89 = 0x1.20c62c2f2d7f5p-18 - y * 0x1.2a0c591af8314p-23;
  *s = u * ((s01 + y2 * s23) + y4 * (s45 + y2 * s67) + y8 * s8);
  *c = (c01 + y2 * c23) + y4 * (c45 + y2 * c67) + y8 * c89;
}

static double
sign(double x)
{
  return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : 0.0;
}

/* What z' needs that depends only on the normal force, computed once per
 * step: |z_ss|(v) = base + dip e^{-(v/v_s)^2} (eq 8.17) and z_ba. */
typedef struct bristles {
  double base;    /* f_c / sigma0 */
  double dip;     /* (f_s - f_c) / sigma0 */
  double inv_vs;  /* 1 / v_s */
  double zba;     /* breakaway displacement */
  double largest; /* max |z_ss| = max(f_c, f_s) / sigma0 */
} bristles;

/* breakaway displacement, eq 8.28.  z_ba < min_v z_ss must hold for alpha
 * to be defined; the printed c mu_d f_N / sigma0 assumes mu_s >= mu_d, so
 * the smaller coefficient is used. */
static bristles
bristles_of(const friction_law* law, double fn)
{
  const double mu_min = law->mu_d < law->mu_s ? law->mu_d : law->mu_s;
  const double per_sigma0 = fn / law->sigma0;
  const double mu_max = law->mu_d < law->mu_s ? law->mu_s : law->mu_d;
  return (bristles){law->mu_d * per_sigma0,
                    (law->mu_s - law->mu_d) * per_sigma0, 1.0 / law->stribeck,
                    law->breakaway * mu_min * per_sigma0, mu_max * per_sigma0};
}

/* the same for a normal force fn given what it is for 1 N */
static bristles
bristles_scaled(const bristles* per_newton, double fn)
{
  return (bristles){per_newton->base * fn, per_newton->dip * fn,
                    per_newton->inv_vs, per_newton->zba * fn,
                    per_newton->largest * fn};
}

/* 2^{-j/256}, j = 0..255, correctly rounded */
static const double exp2_neg_256th[256] = {
    0x1.0000000000000p+0, 0x1.fe9d96b2a23d9p-1, 0x1.fd3c22b8f71f1p-1,
    0x1.fbdba3692d514p-1, 0x1.fa7c1819e90d8p-1, 0x1.f91d802243c89p-1,
    0x1.f7bfdad9cbe14p-1, 0x1.f6632798844f8p-1, 0x1.f50765b6e4540p-1,
    0x1.f3ac948dd7274p-1, 0x1.f252b376bba97p-1, 0x1.f0f9c1cb6412ap-1,
    0x1.efa1bee615a27p-1, 0x1.ee4aaa2188510p-1, 0x1.ecf482d8e67f1p-1,
    0x1.eb9f4867cca6ep-1, 0x1.ea4afa2a490dap-1, 0x1.e8f7977cdb740p-1,
    0x1.e7a51fbc74c83p-1, 0x1.e653924676d76p-1, 0x1.e502ee78b3ff6p-1,
    0x1.e3b333b16ee12p-1, 0x1.e264614f5a129p-1, 0x1.e11676b197d17p-1,
    0x1.dfc97337b9b5fp-1, 0x1.de7d5641c0658p-1, 0x1.dd321f301b460p-1,
    0x1.dbe7cd63a8315p-1, 0x1.da9e603db3285p-1, 0x1.d955d71ff6075p-1,
    0x1.d80e316c98398p-1, 0x1.d6c76e862e6d3p-1, 0x1.d5818dcfba487p-1,
    0x1.d43c8eacaa1d6p-1, 0x1.d2f87080d89f2p-1, 0x1.d1b532b08c968p-1,
    0x1.d072d4a07897cp-1, 0x1.cf3155b5bab74p-1, 0x1.cdf0b555dc3fap-1,
    0x1.ccb0f2e6d1675p-1, 0x1.cb720dcef9069p-1, 0x1.ca3405751c4dbp-1,
    0x1.c8f6d9406e7b5p-1, 0x1.c7ba88988c933p-1, 0x1.c67f12e57d14bp-1,
    0x1.c544778fafb22p-1, 0x1.c40ab5fffd07ap-1, 0x1.c2d1cd9fa652cp-1,
    0x1.c199bdd85529cp-1, 0x1.c06286141b33dp-1, 0x1.bf2c25bd71e09p-1,
    0x1.bdf69c3f3a207p-1, 0x1.bcc1e904bc1d2p-1, 0x1.bb8e0b79a6f1fp-1,
    0x1.ba5b030a1064ap-1, 0x1.b928cf22749e4p-1, 0x1.b7f76f2fb5e47p-1,
    0x1.b6c6e29f1c52ap-1, 0x1.b59728de5593ap-1, 0x1.b468415b749b1p-1,
    0x1.b33a2b84f15fbp-1, 0x1.b20ce6c9a8952p-1, 0x1.b0e07298db666p-1,
    0x1.afb4ce622f2ffp-1, 0x1.ae89f995ad3adp-1, 0x1.ad5ff3a3c2774p-1,
    0x1.ac36bbfd3f37ap-1, 0x1.ab0e521356ebap-1, 0x1.a9e6b5579fdbfp-1,
    0x1.a8bfe53c12e59p-1, 0x1.a799e1330b358p-1, 0x1.a674a8af46052p-1,
    0x1.a5503b23e255dp-1, 0x1.a42c980460ad8p-1, 0x1.a309bec4a2d33p-1,
    0x1.a1e7aed8eb8bbp-1, 0x1.a0c667b5de565p-1, 0x1.9fa5e8d07f29ep-1,
    0x1.9e86319e32323p-1, 0x1.9d674194bb8d5p-1, 0x1.9c49182a3f090p-1,
    0x1.9b2bb4d53fe0dp-1, 0x1.9a0f170ca07bap-1, 0x1.98f33e47a22a2p-1,
    0x1.97d829fde4e50p-1, 0x1.96bdd9a7670b3p-1, 0x1.95a44cbc8520fp-1,
    0x1.948b82b5f98e5p-1, 0x1.93737b0cdc5e5p-1, 0x1.925c353aa2fe2p-1,
    0x1.9145b0b91ffc6p-1, 0x1.902fed0282c8ap-1, 0x1.8f1ae99157736p-1,
    0x1.8e06a5e0866d9p-1, 0x1.8cf3216b5448cp-1, 0x1.8be05bad61778p-1,
    0x1.8ace5422aa0dbp-1, 0x1.89bd0a478580fp-1, 0x1.88ac7d98a6699p-1,
    0x1.879cad931a436p-1, 0x1.868d99b4492edp-1, 0x1.857f4179f5b21p-1,
    0x1.8471a4623c7adp-1, 0x1.8364c1eb941f7p-1, 0x1.82589994cce13p-1,
    0x1.814d2add106d9p-1, 0x1.80427543e1a12p-1, 0x1.7f3878491c491p-1,
    0x1.7e2f336cf4e62p-1, 0x1.7d26a62ff86f0p-1, 0x1.7c1ed0130c132p-1,
    0x1.7b17b0976cfdbp-1, 0x1.7a11473eb0187p-1, 0x1.790b938ac1cf6p-1,
    0x1.780694fde5d3fp-1, 0x1.77024b1ab6e09p-1, 0x1.75feb564267c9p-1,
    0x1.74fbd35d7cbfdp-1, 0x1.73f9a48a58174p-1, 0x1.72f8286ead08ap-1,
    0x1.71f75e8ec5f74p-1, 0x1.70f7466f42e87p-1, 0x1.6ff7df9519484p-1,
    0x1.6ef9298593ae5p-1, 0x1.6dfb23c651a2fp-1, 0x1.6cfdcddd47645p-1,
    0x1.6c012750bdabfp-1, 0x1.6b052fa75173ep-1, 0x1.6a09e667f3bcdp-1,
    0x1.690f4b19e9538p-1, 0x1.68155d44ca973p-1, 0x1.671c1c70833f6p-1,
    0x1.6623882552225p-1, 0x1.652b9febc8fb7p-1, 0x1.6434634ccc320p-1,
    0x1.633dd1d1929fdp-1, 0x1.6247eb03a5585p-1, 0x1.6152ae6cdf6f4p-1,
    0x1.605e1b976dc09p-1, 0x1.5f6a320dceb71p-1, 0x1.5e76f15ad2148p-1,
    0x1.5d84590998b93p-1, 0x1.5c9268a5946b7p-1, 0x1.5ba11fba87a03p-1,
    0x1.5ab07dd485429p-1, 0x1.59c0827ff07ccp-1, 0x1.58d12d497c7fdp-1,
    0x1.57e27dbe2c4cfp-1, 0x1.56f4736b527dap-1, 0x1.56070dde910d2p-1,
    0x1.551a4ca5d920fp-1, 0x1.542e2f4f6ad27p-1, 0x1.5342b569d4f82p-1,
    0x1.5257de83f4eefp-1, 0x1.516daa2cf6642p-1, 0x1.508417f4531eep-1,
    0x1.4f9b2769d2ca7p-1, 0x1.4eb2d81d8abffp-1, 0x1.4dcb299fddd0dp-1,
    0x1.4ce41b817c114p-1, 0x1.4bfdad5362a27p-1, 0x1.4b17dea6db7d7p-1,
    0x1.4a32af0d7d3dep-1, 0x1.494e1e192aed2p-1, 0x1.486a2b5c13cd0p-1,
    0x1.4786d668b3237p-1, 0x1.46a41ed1d0057p-1, 0x1.45c2042a7d232p-1,
    0x1.44e086061892dp-1, 0x1.43ffa3f84b9d4p-1, 0x1.431f5d950a897p-1,
    0x1.423fb2709468ap-1, 0x1.4160a21f72e2ap-1, 0x1.40822c367a024p-1,
    0x1.3fa4504ac801cp-1, 0x1.3ec70df1c5175p-1, 0x1.3dea64c123422p-1,
    0x1.3d0e544ede173p-1, 0x1.3c32dc313a8e5p-1, 0x1.3b57fbfec6cf4p-1,
    0x1.3a7db34e59ff7p-1, 0x1.39a401b7140efp-1, 0x1.38cae6d05d866p-1,
    0x1.37f26231e754ap-1, 0x1.371a7373aa9cbp-1, 0x1.36431a2de883bp-1,
    0x1.356c55f929ff1p-1, 0x1.3496266e3fa2dp-1, 0x1.33c08b26416ffp-1,
    0x1.32eb83ba8ea32p-1, 0x1.32170fc4cd831p-1, 0x1.31432edeeb2fdp-1,
    0x1.306fe0a31b715p-1, 0x1.2f9d24abd886bp-1, 0x1.2ecafa93e2f56p-1,
    0x1.2df961f641589p-1, 0x1.2d285a6e4030bp-1, 0x1.2c57e39771b2fp-1,
    0x1.2b87fd0dad990p-1, 0x1.2ab8a66d10f13p-1, 0x1.29e9df51fdee1p-1,
    0x1.291ba7591bb70p-1, 0x1.284dfe1f56381p-1, 0x1.2780e341ddf29p-1,
    0x1.26b4565e27cddp-1, 0x1.25e85711ece75p-1, 0x1.251ce4fb2a63fp-1,
    0x1.2451ffb82140ap-1, 0x1.2387a6e756238p-1, 0x1.22bdda27912d1p-1,
    0x1.21f49917ddc96p-1, 0x1.212be3578a819p-1, 0x1.2063b88628cd6p-1,
    0x1.1f9c18438ce4dp-1, 0x1.1ed5022fcd91dp-1, 0x1.1e0e75eb44027p-1,
    0x1.1d4873168b9aap-1, 0x1.1c82f95281c6bp-1, 0x1.1bbe084045cd4p-1,
    0x1.1af99f8138a1cp-1, 0x1.1a35beb6fcb75p-1, 0x1.1972658375d2fp-1,
    0x1.18af9388c8deap-1, 0x1.17ed48695bbc0p-1, 0x1.172b83c7d517bp-1,
    0x1.166a45471c3c2p-1, 0x1.15a98c8a58e51p-1, 0x1.14e95934f312ep-1,
    0x1.1429aaea92de0p-1, 0x1.136a814f204abp-1, 0x1.12abdc06c31ccp-1,
    0x1.11edbab5e2ab6p-1, 0x1.11301d0125b51p-1, 0x1.1073028d7233ep-1,
    0x1.0fb66affed31bp-1, 0x1.0efa55fdfa9c5p-1, 0x1.0e3ec32d3d1a2p-1,
    0x1.0d83b23395decp-1, 0x1.0cc922b7247f7p-1, 0x1.0c0f145e46c85p-1,
    0x1.0b5586cf9890fp-1, 0x1.0a9c79b1f3919p-1, 0x1.09e3ecac6f383p-1,
    0x1.092bdf66607e0p-1, 0x1.0874518759bc8p-1, 0x1.07bd42b72a836p-1,
    0x1.0706b29ddf6dep-1, 0x1.0650a0e3c1f89p-1, 0x1.059b0d3158574p-1,
    0x1.04e5f72f654b1p-1, 0x1.04315e86e7f85p-1, 0x1.037d42e11bbccp-1,
    0x1.02c9a3e778061p-1, 0x1.02168143b0281p-1, 0x1.0163da9fb3335p-1,
    0x1.00b1afa5abcbfp-1,
};

/* e^{-x} for x >= 0, inline and short in latency: the Stribeck curve is
 * on the path from one sample's force to the next one's (libm's exp() is
 * a call through a wrapper).  x = (256 q + j) ln2 / 256 + r with
 * |r| <= ln2 / 512, so e^{-x} = 2^{-q} 2^{-j/256} e^{-r}, e^{-r} - 1 by
 * its series to r^4 (the next term is below 4e-17): within an ulp of
 * libm's exp(-x).  Beyond x = 708, 2^{-q} would be subnormal: libm there
 * (e^{-x} is then below 1e-307 and changes no z_ss), 0 past its
 * underflow. */
static DSP_INLINE double
exp_neg(double x)
{
  if (!(x < 708.0))
    return x >= 746.0 ? 0.0 : exp(-x);
  const double shift = 0x1.8p52; /* adding it rounds to an integer */
  const double ln2_256_hi = 0x1.62e42fee00000p-9,
               ln2_256_lo = 0x1.a39ef35793c76p-41;
  const double big = x * (256.0 / 0.69314718055994530942) + shift;
  uint64_t n;
  memcpy(&n, &big, sizeof(n));
  n &= 0x3ffff; /* x < 708: n < 2^18 */
  const uint64_t scale_bits = (uint64_t)(1023 - (n >> 8)) << 52;
  double scale;
  memcpy(&scale, &scale_bits, sizeof(scale));
  const double t = exp2_neg_256th[n & 255] * scale; /* exact */
  const double nd = big - shift;
  const double r = (x - nd * ln2_256_hi) - nd * ln2_256_lo;
  const double r2 = r * r;
  /* e^{-r} = 1 - r + r^2 p, p = 1/2 - r/6 + r^2/24: t (1 - r) and the
   * small t r^2 p, summed last, so that the polynomial's chain and the
   * table's meet only there */
  const double p = (0.5 - r * (1.0 / 6.0)) + r2 * (1.0 / 24.0);
  return (t - t * r) + (t * r2) * p;
}

/* |z_ss|(v) and its derivative in v (eq 8.48 without the sign) */
static DSP_INLINE double
steady_magnitude(const bristles* b, double v, double* dm_dv)
{
  const double r = v * b->inv_vs;
  const double e = b->dip * exp_neg(r * r);
  *dm_dv = -2.0 * r * b->inv_vs * e;
  return b->base + e;
}

double
friction_steady_z(const friction_law* law, double fn, double v, double* dz_dv)
{
  const bristles b = bristles_of(law, fn);
  double dm;
  const double m = steady_magnitude(&b, v, &dm);
  *dz_dv = sign(v) * dm;
  return sign(v) * m;
}

/* z' at one point, with what Newton needs of it, and what its second
 * partials are computed from if they are needed (zdot_second_partials) */
typedef struct zdot_eval {
  double value;                   /* z' */
  double d_dv, d_dz;              /* its partials, eq 8.45 */
  bool engaged;                   /* alpha > 0 */
  bool transition;                /* 0 < alpha < 1 */
  double v, a;                    /* |v|, |z| */
  double m, m_v;                  /* |z_ss| and d|z_ss| / dv */
  double inv_m, inv_span, u, u_m; /* 1/|z_ss|, 1/(|z_ss| - z_ba), u, du/dm */
  double sn, c; /* sin(pi u), pi/2 cos(pi u) (where 0 < alpha < 1, else 0) */
  double alpha, alpha_a, alpha_m, phi_m;
} zdot_eval;

static DSP_INLINE void
zdot(const bristles* b, double v, double z, zdot_eval* e)
{
  if (v == 0.0) {
    *e = (zdot_eval){.d_dv = 1.0};
    return;
  }
  double m_v;
  const double m = steady_magnitude(b, v, &m_v);
  const double a = fabs(z);
  /* alpha and its partials in |z| and in |z_ss| (eqs 8.18-8.19, 8.46-8.47):
   * zero unless z and v agree in sign and |z| passed breakaway, one from
   * z_ss on, the sinusoid between.  A branch: the bristles stay in one
   * regime for runs of samples, so it is predicted, and the sinusoid is
   * only computed where it is used.  z_ba < z_ss, so span > 0. */
  const double span = m - b->zba;
  /* two divisions side by side: shorter than one of the product */
  const double inv_m = 1.0 / m, inv_span = 1.0 / span;
  const double u = (a - 0.5 * (m + b->zba)) * inv_span;
  const double u_m = (b->zba - a) * inv_span * inv_span;
  const bool engaged = z * v > 0.0 && a > b->zba;
  const bool transition = engaged && a < m;
  double sn = 0.0, c = 0.0, alpha = engaged ? 1.0 : 0.0, alpha_a = 0.0,
         alpha_m = 0.0;
  if (transition) {
    double cs;
    sin_cos_pi(u < -0.5 ? -0.5 : u > 0.5 ? 0.5 : u, &sn, &cs);
    c = 0.5 * DSP_PI * cs;
    alpha = 0.5 + 0.5 * sn; /* (1 + sn) / 2, halving exact: one operation */
    alpha_a = c * inv_span;
    alpha_m = c * u_m;
  }
  /* z' = v (1 - phi), phi = alpha |z| / |z_ss| */
  const double phi = alpha * a * inv_m;
  const double phi_m = a * (alpha_m - alpha * inv_m) * inv_m;
  *e = (zdot_eval){
      .value = v * (1.0 - phi),
      .d_dv = 1.0 - phi - v * phi_m * m_v,              /* eq 8.45 */
      .d_dz = -fabs(v) * inv_m * (a * alpha_a + alpha), /* eq 8.45 */
      .engaged = engaged,
      .transition = transition,
      .v = fabs(v),
      .a = a,
      .m = m,
      .m_v = m_v,
      .inv_m = inv_m,
      .inv_span = inv_span,
      .u = u,
      .u_m = u_m,
      .sn = sn,
      .c = c,
      .alpha = alpha,
      .alpha_a = alpha_a,
      .alpha_m = alpha_m,
      .phi_m = phi_m,
  };
}

/* The residual g = z' - x of the implicit step at x, where (v, z) is on
 * its line (v = v~ + k1 x, z = z~ + kz x), and its slope
 * g' = k1 dz'/dv + kz dz'/dz - 1 (eq 8.45), from an evaluation e there.
 * Both are written as affine in alpha and in c = pi/2 cos(pi u), with
 * coefficients that do not wait for the sinusoid: they are Newton's
 * critical path, and so its division follows the sinusoid closely.  (The
 * same numbers as e.value - x and the partials give, to rounding.)
 *   z' = v - alpha v q,  q = |z| / |z_ss|,
 *   g' = (k1 - 1) + alpha s1 - c s2,  r = v q d|z_ss|/dv,
 *   s1 = k1 (r / |z_ss| - q) - kz |v| / |z_ss|,
 *   s2 = k1 r du/d|z_ss| + kz |v| q du/d|z|. */
static DSP_INLINE void
residual_along(const zdot_eval* e, double v, double x, double k1, double kz,
               double* g, double* slope)
{
  const double q = e->a * e->inv_m;
  const double r = v * e->m_v * q;
  const double vm = e->v * e->inv_m;
  const double s1 = k1 * (r * e->inv_m - q) - kz * vm;
  const double s2 = k1 * r * e->u_m + kz * vm * e->a * e->inv_span;
  *g = (v - x) - e->alpha * (v * q);
  *slope = (k1 - 1.0) + e->alpha * s1 - e->c * s2;
}

/* The second partials of |z'| in V = |v| and A = |z| where engaged (z' is
 * odd, so along a line they give |z'|'' up to its sign).  With
 * phi = alpha A / m, m = |z_ss|(V), alpha = (1 + S(u)) / 2, S = sin pi u:
 *     z'_AA = -V phi_AA,  z'_VA = -phi_A - V phi_Am m_V,
 *     z'_VV = -2 phi_m m_V - V (phi_mm m_V^2 + phi_m m_VV). */
static DSP_INLINE void
zdot_second_partials(const bristles* b, const zdot_eval* e, double* d_vv,
                     double* d_vz, double* d_zz)
{
  const double a = e->a, w = e->inv_m;
  double phi_a, phi_aa, phi_am, phi_mm;
  if (e->transition) {
    const double p = e->inv_span, u_m = e->u_m;
    const double s2 = -0.5 * DSP_PI * DSP_PI * e->sn; /* S''(u) / 2 */
    const double alpha_aa = s2 * p * p;
    const double alpha_am = s2 * p * u_m - e->c * p * p;
    const double alpha_mm = s2 * u_m * u_m - 2.0 * e->c * u_m * p;
    phi_a = (e->alpha_a * a + e->alpha) * w;
    phi_aa = (alpha_aa * a + 2.0 * e->alpha_a) * w;
    phi_am = (alpha_am * a + e->alpha_m) * w - phi_a * w;
    phi_mm = a * w * (alpha_mm - 2.0 * e->alpha_m * w + 2.0 * e->alpha * w * w);
  } else {
    /* sliding, alpha = 1: its partials vanish (the same numbers as the
     * general formulas give) */
    phi_a = w;
    phi_aa = 0.0;
    phi_am = -(w * w);
    phi_mm = a * w * (2.0 * w * w);
  }
  /* |z_ss| = base + E, E = dip e^{-r^2}, r = V / v_s */
  const double dip_part = e->m - b->base;
  const double inv_vs2 = b->inv_vs * b->inv_vs;
  const double r2 = e->v * e->v * inv_vs2;
  const double m_V = -2.0 * e->v * inv_vs2 * dip_part;
  const double m_VV = 2.0 * inv_vs2 * (2.0 * r2 - 1.0) * dip_part;
  *d_zz = -e->v * phi_aa;
  *d_vz = -phi_a - e->v * phi_am * m_V;
  *d_vv = -2.0 * e->phi_m * m_V - e->v * (phi_mm * m_V * m_V + e->phi_m * m_VV);
}

/* Whether Chebyshev's step lands where Newton's step dx missed (see
 * newton_step_is_final); then *correction is its second-order term. */
static DSP_INLINE bool
chebyshev_lands(const bristles* b, const zdot_eval* e, double dz, double dv,
                double du, double g2, double slope, double dx, double g2_change,
                double allowed, double* correction)
{
  /* the relative change of g''s other factors along the step, and the
   * correction's relative size g'' dx / g' */
  const double r = e->v * b->inv_vs;
  const double others =
      4.0 * (du + dv / e->v + dv * b->inv_vs * (1.0 + 2.0 * r) +
             fabs(dz) / e->a + fabs(e->m_v) * dv * e->inv_span);
  const double relative = fabs(g2 * dx / slope);
  /* its bound rests on those scales, so it is asked to be well inside */
  if (!(g2_change + fabs(g2) * dx * dx * (others + 2.0 * relative) <=
        0.01 * allowed))
    return false;
  *correction = -0.5 * g2 * dx * dx / slope;
  return true;
}

/* Whether the Newton step x -> x + dx from an evaluation e at (v, z) lands
 * on the root to within `tolerance` without evaluating z' there.  Along
 * the step v = v + k1 x, z = z + kz x, and the residual g = z' - x has
 * slope g'.  Where alpha = 0 all along (z v <= 0 or |z| <= z_ba: a half
 * line) z' = v is linear and the step is exact.  Where z' is smooth along
 * it (engaged, v keeping its sign, the step short against the scales of
 * alpha and z_ss) the error left is |g''| dx^2 / (2 |g'|) to within the
 * change of g'' along the step, which is dominated by that of S'' in
 * alpha = (1 + S(u)) / 2, S = sin(pi u): g'' holds -|v z| S'' u'^2 / (2
 * |z_ss|), and S'' changes by at most pi^3 du inside the transition, by
 * pi^2 across its ends.
 *
 * When the error left is above the tolerance but small against the step,
 * the step is corrected by it: to second order the root is at
 * dx - g'' dx^2 / (2 g') (Chebyshev's step), and what that leaves is the
 * change of g'' along the step (S'' as above; the other factors of g'',
 * smooth on the scales the step is short against, by a few times the
 * step over those scales) and the square of the correction's relative
 * size.  Then `correction` is set (else it is left at 0). */
static DSP_INLINE bool
newton_step_is_final(const bristles* b, const zdot_eval* e, double v, double z,
                     double k1, double kz, double slope, double dx,
                     double tolerance, double* correction)
{
  const double v1 = v + k1 * dx, z1 = z + kz * dx;
  if (!(v1 * v > 0.0))
    return false;
  if (!e->engaged)
    return (v > 0.0 ? z1 : -z1) <= b->zba;
  const double dv = fabs(k1 * dx);
  const double du =
      e->inv_span *
      (fabs(kz * dx) + fabs(e->a - b->zba) * e->inv_span * fabs(e->m_v) * dv);
  if (!(du <= 1e-3 && dv <= 1e-3 * e->v && dv * b->inv_vs <= 1e-3))
    return false;
  const double u_lo = e->u - du, u_hi = e->u + du;
  const bool crosses_end =
      (u_lo < 0.5) != (u_hi < 0.5) || (u_lo < -0.5) != (u_hi < -0.5);
  const bool inside = u_hi > -0.5 && u_lo < 0.5;
  const double s2_change = crosses_end ? DSP_PI * DSP_PI
                           : inside    ? DSP_PI * DSP_PI * DSP_PI * du
                                       : 0.0;
  double d_vv, d_vz, d_zz;
  zdot_second_partials(b, e, &d_vv, &d_vz, &d_zz);
  /* g'' of |z'| along the step (that of z' times the sign of v) */
  const double g2_mag = k1 * k1 * d_vv + 2.0 * k1 * kz * d_vz + kz * kz * d_zz;
  const double g2 = fabs(g2_mag);
  const double g2_change =
      0.5 * s2_change * e->v * e->a * e->inv_m * du * du; /* times dx^2 */
  const double left = g2 * dx * dx + g2_change;
  const double small = fabs(slope) * fabs(dx) * 0.1;
  if (!(left <= small))
    return false;
  const double allowed = tolerance * fabs(slope);
  if (left <= allowed)
    return true;
  return chebyshev_lands(b, e, kz * dx, dv, du, v > 0.0 ? g2_mag : -g2_mag,
                         slope, dx, g2_change, allowed, correction);
}

double
friction_zdot(const friction_law* law, double fn, double v, double z,
              double* d_dv, double* d_dz)
{
  const bristles b = bristles_of(law, fn);
  zdot_eval e;
  zdot(&b, v, z, &e);
  *d_dv = e.d_dv;
  *d_dz = e.d_dz;
  return e.value;
}

void
friction_zdot_second(const friction_law* law, double fn, double v, double z,
                     double* d_vv, double* d_vz, double* d_zz)
{
  const bristles b = bristles_of(law, fn);
  zdot_eval e;
  zdot(&b, v, z, &e);
  *d_vv = *d_vz = *d_zz = 0.0;
  if (e.engaged)
    zdot_second_partials(&b, &e, d_vv, d_vz, d_zz);
}

void
friction_init(friction* fr, double sample_rate, uint64_t seed)
{
  memset(fr, 0, sizeof(*fr));
  fr->sample_rate = sample_rate;
  /* a smooth surface, v_s = 0.1 m/s (the plugin's defaults differ: see
   * friction_ports.c) */
  fr->law = (friction_law){1e6, 0.1, 0.1, 0.0, 0.8, 0.3, 0.1, 0.7};
  fractal_init(&fr->noise, sample_rate, seed);
  fr->seed = seed;
  modal_init(&fr->exciter, sample_rate);
  fr->grip = FRICTION_DRIVE_FREQ;
  friction_set_exciter(fr, 0.01, FRICTION_DRIVE_VELOCITY);
  friction_set_noise(fr, 1.0);
}

void
friction_set_law(friction* fr, friction_law law)
{
  /* z_ss must not vanish (z' divides by it) */
  law.mu_s = law.mu_s > FRICTION_MIN_MU ? law.mu_s : FRICTION_MIN_MU;
  law.mu_d = law.mu_d > FRICTION_MIN_MU ? law.mu_d : FRICTION_MIN_MU;
  fr->law = law;
}

/* the drive spring as one mode of the exciter in the anchor's frame */
static void
set_drive_spring(friction* fr)
{
  const double w0 = 2.0 * DSP_PI * fr->grip;
  const double zeta = FRICTION_DRIVE_DAMPING;
  modal_set_count(&fr->exciter, 1);
  modal_set_mass(&fr->exciter, fr->exciter_mass);
  modal_set_mode(&fr->exciter, 0, fr->grip * sqrt(1 - zeta * zeta),
                 1.0 / (zeta * w0), 1.0);
  modal_update(&fr->exciter);
  fr->object_changed = true;
}

void
friction_set_exciter(friction* fr, double mass, friction_drive drive)
{
  if (drive != fr->drive && drive == FRICTION_DRIVE_FORCE)
    fr->exciter_v = fr->anchor_v + fr->exciter.v[0]; /* keep its motion */
  fr->drive = drive;
  if (mass != fr->exciter_mass) {
    fr->exciter_mass = mass;
    set_drive_spring(fr);
  }
}

void
friction_set_body(friction* fr, modal_object* body, double level)
{
  fr->body = modal_has_modes(body) ? body : NULL;
  fr->body_level = level;
  fr->body_force = 0.0;
  fr->object_changed = true; /* its sub-step coefficients */
}

double
friction_body_unrest(const friction* fr)
{
  if (!fr->body)
    return 0.0;
  double reach, speed;
  modal_bounds(fr->body, &reach, &speed);
  return fr->body_level * fr->body->pickup_bound * speed;
}

void
friction_set_grip(friction* fr, double frequency)
{
  if (frequency != fr->grip) {
    fr->grip = frequency;
    set_drive_spring(fr);
  }
}

void
friction_set_motion(friction* fr, double bow_velocity, double ext_force)
{
  fr->bow_velocity = bow_velocity;
  fr->ext_force = ext_force;
}

void
friction_set_normal_force(friction* fr, double normal_force)
{
  fr->normal_force = normal_force > 0.0 ? normal_force : 0.0;
}

void
friction_set_noise(friction* fr, double beta)
{
  fractal_set(&fr->noise, beta, 10.0, 0.4 * fr->sample_rate, 2);
}

void
friction_reset(friction* fr)
{
  fr->z = fr->zdot = fr->force = fr->v = fr->fn = 0.0;
  fr->zdot_past[0] = fr->zdot_past[1] = 0.0;
  fr->relax = fr->zdot_v = 0.0;
  memset(fr->v_t_past, 0, sizeof(fr->v_t_past));
  memset(fr->z_t_past, 0, sizeof(fr->z_t_past));
  fr->past_at = 0;
  fr->exciter_v = fr->anchor_v = 0.0;
  fr->tracking = false; /* the object may be reset with it */
  fr->mean_force = fr->mean_slip = 0.0;
  fractal_restart(&fr->noise, fr->seed); /* every fresh note alike */
  modal_reset(&fr->exciter);
  fr->body_force = 0.0;
  if (fr->body)
    modal_reset(fr->body);
}

bool
friction_is_finite(const friction* fr)
{
  return isfinite(fr->z) && isfinite(fr->zdot) && isfinite(fr->force) &&
         isfinite(fr->zdot_past[0]) && isfinite(fr->zdot_past[1]) &&
         isfinite(fr->exciter_v) && isfinite(fr->anchor_v) &&
         modal_is_finite(&fr->exciter) &&
         (!fr->body || modal_is_finite(fr->body));
}

/* Solve z'1 = z'(v_t + k1 z'1, z_t + kz z'1) ([ch8] 8.A.2, eqs 8.41,
 * 8.44) from `guess`.
 *
 * Sticking first: where the bristles stay elastic (alpha = 0), z' = v and
 * the root is z'1 = v_t / (1 - k1) in closed form; it is the root if z
 * stays on the elastic side there.
 *
 * Otherwise Newton-Raphson.  z' has kinks where v changes sign, so: a step
 * may move z by at most a few bristle lengths (the largest steady
 * deflection f_s / sigma0, plus the deflection there is); the root is kept
 * in a bracket once the residual has taken both signs; and a Newton step
 * leaving the bracket, or not halving the residual, is replaced by a
 * secant step inside it (regula falsi, Illinois modification).
 *
 * Tolerance.  The guess extrapolates z' from the last steps, so its miss
 * (the distance from the guess to the root, as the iterates tell it)
 * measures the third difference of z', against which the theta rule's own
 * local error in z' is of the same order or larger.  Newton stops when
 * what remains is below 1e-4 of that miss (well under a thousandth of the
 * discretisation error) or below 1e-10 of |z'| + |v|, whichever is
 * larger. */
static DSP_INLINE double
tolerance_of(double zdot, double guess, double v)
{
  const double floor = 1e-10 * (fabs(zdot) + fabs(v)) + DBL_MIN;
  const double miss = 1e-4 * fabs(zdot - guess);
  return miss > floor ? miss : floor;
}

/* Where the root lies when the bristles do not stick: where they are
 * engaged, z having passed z_ba in the direction of v and v not having
 * changed sign.  k1 <= 0, so along x, v = v_t + k1 x falls and
 * z = z_t + kz x rises.  For v > 0 that is between x_a, where z = z_ba
 * and g = v_t + (k1 - 1) x_a > 0 (z' = v up to there), and x_0, where
 * v = 0 and g = -x_0 < 0; the mirror image for v < 0.  (If k1 = 0, x_0 is
 * at infinity, and the stick root, where g <= 0, closes it instead.) */
typedef struct bracket {
  double lo, hi;     /* lo < hi */
  double g_lo, g_hi; /* g(lo) > 0 > g(hi) */
} bracket;

static DSP_INLINE bracket
engaged_bracket(const bristles* b, double v_t, double k1, double z_t, double kz,
                double stick)
{
  const bool forward = stick > 0.0;
  const double x_a = ((forward ? b->zba : -b->zba) - z_t) / kz;
  const double g_a = v_t + (k1 - 1.0) * x_a;
  const double x_0 = k1 < 0.0 ? v_t / -k1 : stick;
  const double g_0 = k1 < 0.0 ? -x_0 : 0.0;
  return forward ? (bracket){x_a, x_0, g_a, g_0}
                 : (bracket){x_0, x_a, g_0, g_a};
}

static DSP_INLINE double
solve_zdot(newton_stats* stats, const bristles* b, double v_t, double k1,
           double z_t, double kz, double guess, double* relax, double* rate_v)
{
  const double stick = v_t / (1.0 - k1), z_stick = z_t + kz * stick;
  if (stick == 0.0 || (stick > 0.0 ? z_stick : -z_stick) <= b->zba) {
    *relax = 0.0;
    *rate_v = 1.0;
    newton_stats_count(stats, 1, true);
    return stick;
  }
  bracket br = {0};
  bool bracketed = false, converged = false;
  double x = guess;
  const double s = stick > 0.0 ? 1.0 : -1.0;
  if (!(s * (z_t + kz * x) > b->zba && s * (v_t + k1 * x) > 0.0)) {
    /* a guess outside the engaged range: regula falsi on it instead */
    br = engaged_bracket(b, v_t, k1, z_t, kz, stick);
    bracketed = true;
    x = (br.lo * br.g_hi - br.hi * br.g_lo) / (br.g_hi - br.g_lo);
  }
  double last_g = INFINITY;
  int it = 1;
  for (; it <= NEWTON_CAP; ++it) {
    const double v = v_t + k1 * x, z = z_t + kz * x;
    zdot_eval e;
    zdot(b, v, z, &e);
    double g, slope;
    residual_along(&e, v, x, k1, kz, &g, &slope);
    *relax = -e.d_dz; /* the bristles' relaxation rate, for the next step */
    *rate_v = e.d_dv;
    if (g == 0.0) {
      converged = true;
      break;
    }
    double next = x - g / slope;
    const double tolerance = tolerance_of(next, guess, v_t);
    double correction = 0.0;
    if (newton_step_is_final(b, &e, v, z, k1, kz, slope, next - x, tolerance,
                             &correction)) {
      x = next + correction;
      converged = true;
      break;
    }
    if (!bracketed) {
      br = engaged_bracket(b, v_t, k1, z_t, kz, stick);
      bracketed = true;
    }
    /* x is inside the bracket: it becomes one end */
    if (g > 0.0) {
      br.lo = x;
      br.g_lo = g;
    } else {
      br.hi = x;
      br.g_hi = g;
    }
    if (!(next > br.lo && next < br.hi) || fabs(g) > 0.5 * last_g) {
      next = (br.lo * br.g_hi - br.hi * br.g_lo) / (br.g_hi - br.g_lo);
      if (g > 0.0)
        br.g_hi *= 0.5; /* Illinois: the end that stays gets half weight */
      else
        br.g_lo *= 0.5;
      if (!(next > br.lo && next < br.hi))
        next = 0.5 * (br.lo + br.hi);
    }
    last_g = fabs(g);
    x = next;
    if (br.hi - br.lo <= tolerance) { /* closed on the root */
      converged = true;
      break;
    }
  }
  newton_stats_count(stats, it, converged);
  return x;
}

double
friction_solve_zdot(const friction_law* law, double fn, double v_t, double k1,
                    double z_t, double kz, double guess, newton_stats* stats)
{
  const bristles b = bristles_of(law, fn);
  double relax, rate_v;
  return solve_zdot(stats, &b, v_t, k1, z_t, kz, guess, &relax, &rate_v);
}

/* what stays constant over a friction_process() call */
typedef struct step_constants {
  const modal_coeffs* c;  /* object */
  const modal_coeffs* ex; /* exciter */
  const modal_coeffs* bc; /* the exciter's body, if it has one */
  double h;
  double kv;       /* v1 = v_free + kv F */
  double inv_den;  /* 1 / (1 - kv sigma2 / 2) */
  double half_kv;  /* kv / 2 / (1 - kv sigma2 / 2): v~ per newton */
  double sigma0_v; /* sigma0 half_kv: v~ per metre of z~, k1 per s of kz */
  double k1_0;     /* k1 at kz = 0 */
  bristles per_newton;
} step_constants;

/* The modes' pass for the last step's force, which also gives their free
 * motion over the next step (the solve does not need it); returns the
 * pickups' free velocities here, apart from the point's.  Called
 * just before the solve: the next step's v~ waits on the point's free
 * velocity, and after the solve in program order the pass would enter
 * the processor's window only as the solve drains it.  The right's is
 * read here, apart from the point's (read at the step's start): read
 * beside it, the two would be one pair, which modal_advance() stored one
 * by one, and such a read waits for them to reach the cache (no store
 * forwarding). */
static DSP_INLINE void
advance_modes(modal_object* o, const modal_coeffs* c, double to_apply,
              friction_track* ot, double* left_v, double* right_v)
{
  *left_v = ot->left_v;
  *right_v = ot->right_v;
  modal_advance(o, c, to_apply, &ot->point_v, &ot->left_v, &ot->right_v);
}

/* One step of h seconds.  f0, z0, z'0 are the values at its start; the
 * unknown is z'1 at its end ([ch8] 8.A.1).  The bodies move under the
 * step-average force F = (f0 + f1) / 2, so v1 = v_free + Kv F, and z
 * follows the theta rule
 *     z1 = z0 + h ((1 - theta) z'0 + theta z'1),
 * theta = 1/2 being the trapezoid of eq 8.34.  Then
 *     v1 = v~ + K1 z'1,  z1 = z~ + theta h z'1            (eqs 8.36, 8.39).
 * Where the bristles relax faster than the step resolves (rate lambda =
 * -dz'/dz, h lambda > 2) the trapezoid would ring; theta = 1 - 1 / (h
 * lambda) keeps the relaxation monotone (L-stable as h lambda grows). */
static DSP_INLINE void
step(friction* fr, modal_object* o, const step_constants* k, double anchor_a,
     double fn, double w, friction_track* ot)
{
  const friction_law* law = &fr->law;
  const bool velocity_drive = fr->drive == FRICTION_DRIVE_VELOCITY;
  const modal_coeffs* c = k->c;
  const modal_coeffs* ex = k->ex;
  const double h = k->h;
  const double kv = k->kv;

  /* free motion over the step; the exciter's one mode (the grip, in the
   * anchor's frame, where the anchor's acceleration acts as -m a) is
   * updated in place here */
  double ex_v, ex_bv, pv, pr;
  double* ey = &fr->exciter.x[0];
  double* ev = &fr->exciter.v[0];
  if (velocity_drive) {
    /* the anchor's term first: the state, which the last step's force
     * has just set, comes last */
    const double push = -fr->exciter_mass * anchor_a;
    const double y = ex->bx[0] * push + ex->a11[0] * *ey + ex->a12[0] * *ev;
    *ev = ex->bv[0] * push + ex->a21[0] * *ey + ex->a22[0] * *ev;
    *ey = y;
    ex_v = fr->anchor_v + *ev;
    ex_bv = ex->bv[0];
  } else {
    fr->exciter_v += h * fr->ext_force / fr->exciter_mass;
    ex_v = fr->exciter_v;
    ex_bv = h / fr->exciter_mass;
  }
  if (fr->body) {
    /* the body's free motion over the step, the last force applied: the
     * touching point moves with it ([ch8] 8.3.1) */
    double bx, bv;
    modal_correct_predict(fr->body, k->bc, fr->body_force, &bx, &bv, NULL,
                          NULL);
    ex_v += bv;
  }
  const double pending = ot->pending;
  pv = ot->point_v + c->sum_next_bv * pending;
  const double to_apply = pending - ot->applied;
  const double v_free = ex_v - pv;

  double f1_0 = 0.0, f1_z = 0.0, z1 = 0.0, zd1 = 0.0, left_v, right_v;
  if (fn > 0.0) {
    /* the surface's roughness is heard while it slides: the noise scales
     * with the load and fades in over the Stribeck velocity of slip (it
     * is explicit, from the last instant's slip).  A branch, not a
     * product with sigma3 = 0: the slip waits on the last solve, and its
     * division would hold v~ back */
    double noise = 0.0;
    if (law->sigma3 != 0.0) {
      const double slip = fabs(fr->v);
      noise = law->sigma3 * fn * w * slip / (slip + law->stribeck);
    }
    const double hl = h * fr->relax;
    const double theta = hl > 2.0 ? 1.0 - 1.0 / hl : 0.5;
    const double kz = theta * h;
    const double z_t = fr->z + (1.0 - theta) * h * fr->zdot;
    /* v_free, through the exciter's motion under the last force, comes
     * last */
    const double v_t =
        k->inv_den * v_free +
        (k->half_kv * fr->force + (k->sigma0_v * z_t + k->half_kv * noise));
    const double k1 = k->sigma0_v * kz + k->k1_0;
    const bristles b = bristles_scaled(&k->per_newton, fn);
    /* the guess: z' extrapolated from the last three steps, unless the
     * bristles can cross their whole range, -z_ss to z_ss, within the
     * step: then they end it saturated, at z_ss */
    double guess = 3.0 * (fr->zdot - fr->zdot_past[0]) + fr->zdot_past[1];
    if (law->sigma3 != 0.0) {
      /* with noise v~ and z~ jolt from step to step where z' is
       * extrapolated smoothly: the guess also takes the root's response
       * (from the last solve's partials) to what they differ from their
       * own extrapolations */
      double* vp = fr->v_t_past;
      double* zp = fr->z_t_past;
      const int i0 = fr->past_at, i1 = i0 > 0 ? i0 - 1 : 2,
                i2 = i1 > 0 ? i1 - 1 : 2;
      const double jolt_v = v_t - (3.0 * (vp[i0] - vp[i1]) + vp[i2]);
      const double jolt_z = z_t - (3.0 * (zp[i0] - zp[i1]) + zp[i2]);
      const double slope = fr->zdot_v * k1 - fr->relax * kz - 1.0;
      guess -= (fr->zdot_v * jolt_v - fr->relax * jolt_z) / slope;
      vp[i2] = v_t; /* the oldest's place */
      zp[i2] = z_t;
      fr->past_at = i2;
    }
    if (fabs(v_t) * kz > 2.0 * b.largest) {
      double dm;
      const double z_ss = sign(v_t) * steady_magnitude(&b, v_t, &dm);
      guess = (z_ss - z_t) / kz;
    }
    /* f1 (eq 8.16) = f1_0 + f1_z z'1 */
    f1_0 = law->sigma0 * z_t + law->sigma2 * v_t + noise;
    f1_z = law->sigma0 * kz + law->sigma1 + law->sigma2 * k1;
    advance_modes(o, c, to_apply, ot, &left_v, &right_v);
    zd1 = solve_zdot(&fr->stats, &b, v_t, k1, z_t, kz, guess, &fr->relax,
                     &fr->zdot_v);
    z1 = z_t + kz * zd1;
  } else {
    advance_modes(o, c, to_apply, ot, &left_v, &right_v);
  }
  /* f1, the step's mean force F = (f0 + f1) / 2 and the exciter's state
   * under F are affine in z'1: their offsets and slopes are formed beside
   * the solve, so that each is one operation after it (the next step's
   * chain starts from them) */
  const double f1 = f1_0 + f1_z * zd1;
  const double f_0 = 0.5 * fr->force + 0.5 * f1_0, f_z = 0.5 * f1_z;
  const double f = f_0 + f_z * zd1;
  ot->applied = 0.0;
  ot->pending = f;
  const double pl = left_v + c->sum_left_next_bv * pending;
  ot->left = pl + c->sum_left_bv * f;
  pr = right_v + c->sum_right_next_bv * pending;
  ot->right = pr + c->sum_right_bv * f;
  if (velocity_drive) {
    *ey = (*ey - ex->bx[0] * f_0) - (ex->bx[0] * f_z) * zd1;
    *ev = (*ev - ex->bv[0] * f_0) - (ex->bv[0] * f_z) * zd1;
  } else {
    fr->exciter_v = (fr->exciter_v - ex_bv * f_0) - (ex_bv * f_z) * zd1;
  }
  fr->body_force = -f;
  fr->v = v_free + kv * f;
  fr->z = z1;
  fr->zdot_past[1] = fr->zdot_past[0];
  fr->zdot_past[0] = fr->zdot;
  fr->zdot = zd1;
  fr->force = f1;
}

/* Sub-steps per sample: the bristles and the exciter form a spring-mass
 * resonance at sqrt(sigma0 / m) / (2 pi); it is kept below
 * 1/steps_per_resonance of the step rate (at most FRICTION_MAX_SUBSTEPS),
 * where the trapezoid still follows it (its phase error, (w h)^2 / 12, is
 * then below 2.3 %). */
static const double steps_per_resonance = 12.0;

static int
substeps_for(const friction* fr)
{
  /* with a body, the mass its touching point shows to a short push */
  const double mass =
      fr->body
          ? 1.0 / (1.0 / fr->exciter_mass + 1.0 / modal_point_mass(fr->body))
          : fr->exciter_mass;
  const double w = sqrt(fr->law.sigma0 / mass);
  const double wanted =
      steps_per_resonance * w / (2.0 * DSP_PI * fr->sample_rate);
  int m = 1;
  while (m < wanted && m < FRICTION_MAX_SUBSTEPS)
    m *= 2;
  return m;
}

static DSP_INLINE bool
lifted_at_rest(const friction* fr)
{
  return fr->normal_force == 0.0 && fr->fn == 0.0 && fr->force == 0.0;
}

DSP_VECTOR_CLONES void
friction_process(friction* fr, modal_object* o, int frames, float* out_l,
                 float* out_r, double scale)
{
  const double fs = fr->sample_rate;
  const double speed_glide = -expm1(-1.0 / (speed_glide_s * fs));
  const double force_glide = -expm1(-1.0 / (force_glide_s * fs));
  double sum_force = 0.0, sum_slip = 0.0;
  const int m = substeps_for(fr);
  if (m != fr->substeps || fr->object_changed) {
    fr->substeps = m;
    fr->object_changed = false;
    fr->tracking = false;
    if (m > 1) {
      modal_coeffs_compute(o, 1.0 / (fs * m), &fr->sub);
      modal_coeffs_compute(&fr->exciter, 1.0 / (fs * m), &fr->exciter_sub);
      if (fr->body)
        modal_coeffs_compute(fr->body, 1.0 / (fs * m), &fr->body_sub);
    }
  }
  if (fr->shapes_epoch != o->shapes_epoch) {
    /* rubbed or heard elsewhere (modal_set_shapes()): the modes are whole
     * (see the end of this function), the track is worked out again */
    fr->shapes_epoch = o->shapes_epoch;
    if (m > 1)
      modal_coeffs_weigh(o, &fr->sub);
    fr->tracking = false;
  }
  step_constants k;
  k.c = m > 1 ? &fr->sub : &o->audio;
  k.ex = m > 1 ? &fr->exciter_sub : &fr->exciter.audio;
  k.bc = !fr->body ? NULL : m > 1 ? &fr->body_sub : &fr->body->audio;
  k.h = 1.0 / (fs * m);
  k.kv = -((fr->drive == FRICTION_DRIVE_VELOCITY ? k.ex->bv[0]
                                                 : k.h / fr->exciter_mass) +
           k.c->sum_bv);
  if (fr->body) /* the body's compliance in series */
    k.kv -= k.bc->sum_bv;
  k.inv_den = 1.0 / (1.0 - 0.5 * k.kv * fr->law.sigma2);
  k.half_kv = 0.5 * k.kv * k.inv_den;
  k.sigma0_v = k.half_kv * fr->law.sigma0;
  k.k1_0 = k.half_kv * fr->law.sigma1;
  k.per_newton = bristles_of(&fr->law, 1.0);
  friction_track track = fr->track; /* a local the compiler keeps close */
  friction_track* ot = &track;
  if (!fr->tracking && !lifted_at_rest(fr)) {
    double point_x;
    track = (friction_track){0};
    modal_next(o, k.c, &point_x, &ot->point_v, &ot->left_v, &ot->right_v);
    fr->tracking = true;
  }
  for (int t = 0; t < frames; ++t) {
    if (lifted_at_rest(fr)) {
      /* lifted and at rest: the object rings on its own (decided sample
       * by sample, so wherever the host's blocks split the samples) */
      if (fr->tracking)
        modal_correct(o, k.c, ot->pending - ot->applied);
      fr->tracking = false;
      modal_ring(o, frames - t, out_l + t, out_r + t, scale);
      if (fr->body)
        modal_ring(fr->body, frames - t, out_l + t, out_r + t,
                   scale * fr->body_level);
      fr->anchor_v = 0.0;
      break;
    }
    const double anchor_before = fr->anchor_v;
    fr->anchor_v += (fr->bow_velocity - fr->anchor_v) * speed_glide;
    fr->fn += (fr->normal_force - fr->fn) * force_glide;
    if (fr->normal_force == 0.0 && fr->fn < 1e-9)
      fr->fn = 0.0; /* lifted */
    const double w = fr->law.sigma3 != 0.0 ? fractal_next(&fr->noise) : 0.0;
    const double anchor_a = (fr->anchor_v - anchor_before) * fs;
    for (int s = 0; s < m; ++s)
      step(fr, o, &k, anchor_a, fr->fn, w, ot);
    sum_force += fr->force;
    sum_slip += fr->v;
    double left = ot->left, right = ot->right;
    if (fr->body) { /* whole again, and heard */
      double bl, br;
      modal_correct(fr->body, k.bc, fr->body_force);
      fr->body_force = 0.0;
      modal_pickups(fr->body, &bl, &br);
      left += fr->body_level * bl;
      right += fr->body_level * br;
    }
    out_l[t] += (float)(scale * left);
    out_r[t] += (float)(scale * right);
  }
  /* the modes take the last force now, so that others read them whole;
   * the next call goes on from the track */
  if (fr->tracking) {
    modal_correct(o, k.c, ot->pending - ot->applied);
    ot->applied = ot->pending;
  }
  fr->track = track;
  if (frames > 0) {
    fr->mean_force = sum_force / frames;
    fr->mean_slip = sum_slip / frames;
  }
}

void
friction_object_changed(friction* fr)
{
  fr->object_changed = true;
  fr->tracking = false;
}
