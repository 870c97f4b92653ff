/* SPDX-License-Identifier: ISC */
#include "esprit.h"

#include "linalg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int
esprit_amplitudes(const double complex* y, int len, int order,
                  const double complex* pole, double complex* amp)
{
  if (order <= 0)
    return 0;
  double complex* v = malloc(sizeof(*v) * (size_t)len * (size_t)order);
  double complex* b = malloc(sizeof(*b) * (size_t)len);
  int err = -1;
  if (v && b) {
    for (int k = 0; k < order; ++k) {
      double complex p = 1.0;
      for (int n = 0; n < len; ++n) {
        v[n + (size_t)k * (size_t)len] = p;
        p *= pole[k];
      }
    }
    memcpy(b, y, sizeof(*b) * (size_t)len);
    err = linalg_lstsq(len, order, 1, v, b);
    if (!err)
      memcpy(amp, b, sizeof(*amp) * (size_t)order);
  }
  free(v);
  free(b);
  return err;
}

/* squared norm of y - sum_k amp_k pole_k^n */
static double
residual(const double complex* y, int len, int order,
         const double complex* pole, const double complex* amp)
{
  double complex p[ESPRIT_MAX_ORDER];
  for (int k = 0; k < order; ++k)
    p[k] = amp[k];
  double e = 0.0;
  for (int n = 0; n < len; ++n) {
    double complex v = y[n];
    for (int k = 0; k < order; ++k) {
      v -= p[k];
      p[k] *= pole[k];
    }
    e += creal(v) * creal(v) + cimag(v) * cimag(v);
  }
  return e;
}

int
esprit_refine(const double complex* y, int len, int order, double complex* pole,
              double complex* amp)
{
  /* Gauss-Newton on the nonlinear least squares min ||y - V(z) c||^2
   * over poles and amplitudes together (the maximum-likelihood fit in
   * white noise, which ESPRIT only approaches): the Jacobian's columns are
   * z_k^n (for c_k) and c_k n z_k^(n-1) (for z_k); a step is kept only
   * when it lowers the residual, halved otherwise. */
  if (order <= 0)
    return 0;
  const int m = 2 * order;
  double complex* j = malloc(sizeof(*j) * (size_t)len * (size_t)m);
  double complex* r = malloc(sizeof(*r) * (size_t)len);
  int err = -1;
  if (!j || !r)
    goto done;
  double e0 = residual(y, len, order, pole, amp);
  for (int it = 0; it < 8; ++it) {
    for (int k = 0; k < order; ++k) {
      double complex p = 1.0, pm = 0.0; /* z^n, n z^(n-1) */
      for (int n = 0; n < len; ++n) {
        j[n + (size_t)k * (size_t)len] = p;
        j[n + (size_t)(order + k) * (size_t)len] = amp[k] * pm;
        pm = pm * pole[k] + p;
        p *= pole[k];
      }
    }
    for (int n = 0; n < len; ++n) {
      double complex v = y[n];
      for (int k = 0; k < order; ++k)
        v -= amp[k] * j[n + (size_t)k * (size_t)len];
      r[n] = v;
    }
    const int st = linalg_lstsq(len, m, 1, j, r);
    if (st < 0)
      goto done;
    if (st > 0)
      break; /* singular: keep what we have */
    double complex np[ESPRIT_MAX_ORDER], na[ESPRIT_MAX_ORDER];
    double step = 1.0, e1 = e0;
    for (int h = 0; h < 6; ++h, step *= 0.5) {
      for (int k = 0; k < order; ++k) {
        na[k] = amp[k] + step * r[k];
        np[k] = pole[k] + step * r[order + k];
      }
      e1 = residual(y, len, order, np, na);
      if (e1 < e0)
        break;
    }
    if (!(e1 < e0))
      break;
    memcpy(pole, np, sizeof(*pole) * (size_t)order);
    memcpy(amp, na, sizeof(*amp) * (size_t)order);
    const double gain = (e0 - e1) / e0;
    e0 = e1;
    if (gain < 1e-10)
      break;
  }
  err = 0;
done:
  free(j);
  free(r);
  return err;
}

int
esprit_band(const double complex* y, int len, double noise_var, int rows,
            int max_order, esprit_fit* fit)
{
  memset(fit, 0, sizeof(*fit));
  int l = rows < ESPRIT_MAX_ROWS ? rows : ESPRIT_MAX_ROWS;
  if (l > len / 2)
    l = len / 2;
  if (max_order > ESPRIT_MAX_ORDER)
    max_order = ESPRIT_MAX_ORDER;
  if (l < 3 || max_order < 1)
    return 0;
  const int k = len - l + 1;
  fit->rows = l, fit->cols = k;
  double complex* c = malloc(sizeof(*c) * (size_t)l * (size_t)l);
  double complex* r = malloc(sizeof(*r) * (size_t)l * (size_t)l);
  /* (u1 and u2 hold at least one column for the power iteration) */
  double complex* u1 = malloc(sizeof(*u1) * (size_t)l * (size_t)max_order);
  double complex* u2 = malloc(sizeof(*u2) * (size_t)l * (size_t)max_order);
  int err = -1;
  if (!c || !r || !u1 || !u2)
    goto done;
  /* The left singular vectors of the Hankel matrix H (l x k, H_ij =
   * y[i + j]) are the eigenvectors of C = H H^H (l x l), whose eigenvalues
   * are H's squared singular values: C costs O(l k) by the recursion
   * C(i+1, j+1) = C(i, j) + y[i+k] y*[j+k] - y[i] y*[j], and its
   * Hermitian eigen-decomposition O(l^3), however long the band's signal:
   * never an SVD of the whole Hankel matrix.  Squaring the
   * singular values costs relative accuracy only below 1e-8 of the
   * largest, far under the noise of a recording. */
  for (int i = 0; i < l; ++i) {
    double complex s = 0.0;
    for (int t = 0; t < k; ++t)
      s += y[i + t] * conj(y[t]);
    c[i] = s;
  }
  for (int j = 1; j < l; ++j) {
    for (int i = 0; i < j; ++i)
      c[i + (size_t)j * (size_t)l] = conj(c[j + (size_t)i * (size_t)l]);
    for (int i = j; i < l; ++i)
      c[i + (size_t)j * (size_t)l] = c[i - 1 + (size_t)(j - 1) * (size_t)l] +
                                     y[i - 1 + k] * conj(y[j - 1 + k]) -
                                     y[i - 1] * conj(y[j - 1]);
  }
  /* Model order: the singular values of an l x k matrix of white noise of
   * variance s^2 lie below s (sqrt(k) + sqrt(l)), the edge of the
   * Marchenko-Pastur law (Geman 1980); those above carry signal.  A
   * Hankel matrix's noise is not independent from entry to entry: its
   * largest values reach some 1.9 times the edge (measured on the band
   * signals of white noise, which the band's window also colours, and
   * with the noise floor's estimate), hence 2.
   * Singular values are not a detector on their own: the pipeline keeps
   * a pole by its energy over the noise.  Simpler than MDL or ESTER,
   * and, with the noise level known from the recording's floor, it needs
   * no search over orders. */
  fit->threshold = noise_var > 0.0 ? 2.0 * sqrt(noise_var) *
                                         (sqrt((double)k) + sqrt((double)l))
                                   : 0.0;
  /* a band of noise alone (most are) ends here, without the
   * eigen-decomposition: the power iteration's Rayleigh quotient, a lower bound
   * of the largest eigenvalue of C, against the threshold */
  if (noise_var > 0.0) {
    double complex* x = u1;
    double lambda = 0.0;
    for (int i = 0; i < l; ++i)
      x[i] = 1.0 + 0.1 * i;
    for (int it = 0; it < 30; ++it) {
      double nx = 0.0;
      for (int i = 0; i < l; ++i)
        nx += creal(x[i]) * creal(x[i]) + cimag(x[i]) * cimag(x[i]);
      nx = sqrt(nx);
      lambda = 0.0;
      for (int i = 0; i < l; ++i) {
        double complex t = 0.0;
        for (int j = 0; j < l; ++j)
          t += c[i + (size_t)j * (size_t)l] * x[j];
        u2[i] = t / nx;
        lambda += creal(conj(x[i]) * u2[i]) / nx;
      }
      memcpy(x, u2, sizeof(*x) * (size_t)l);
    }
    if (lambda < fit->threshold * fit->threshold) {
      err = 0;
      goto done;
    }
  }
  int st = linalg_eigh(l, c, fit->sv);
  if (st) { /* no convergence: nothing from this band */
    err = st < 0 ? -1 : 0;
    goto done;
  }
  for (int i = 0; i < l; ++i)
    fit->sv[i] = sqrt(fmax(fit->sv[i], 0.0));
  if (!(noise_var > 0.0))
    fit->threshold = 1e-6 * fit->sv[0];
  int order = 0;
  while (order < max_order && order < l - 2 && fit->sv[order] > fit->threshold)
    ++order;
  /* Shift invariance (ESPRIT, Roy & Kailath 1989), least-squares variant:
   * U1 Psi = U2 with U1, U2 the signal subspace without its last / first
   * row; Psi's eigenvalues are the poles.  Should the linear algebra fail
   * (two poles as one: their amplitudes cannot be told apart), one order
   * less. */
  const int m = l - 1;
  err = 0;
  for (; order > 0; --order) {
    for (int j = 0; j < order; ++j)
      for (int i = 0; i < m; ++i) {
        u1[i + (size_t)j * (size_t)m] = c[i + (size_t)j * (size_t)l];
        u2[i + (size_t)j * (size_t)m] = c[i + 1 + (size_t)j * (size_t)l];
      }
    st = linalg_lstsq(m, order, order, u1, u2);
    if (!st) {
      for (int j = 0; j < order; ++j)
        for (int i = 0; i < order; ++i)
          r[i + (size_t)j * (size_t)order] = u2[i + (size_t)j * (size_t)m];
      st = linalg_eig(order, r, fit->pole);
    }
    if (!st)
      st = esprit_amplitudes(y, len, order, fit->pole, fit->amp);
    if (!st)
      st = esprit_refine(y, len, order, fit->pole, fit->amp);
    if (st < 0) {
      err = -1;
      break;
    }
    if (!st) {
      fit->order = order;
      break;
    }
  }
done:
  free(c);
  free(r);
  free(u1);
  free(u2);
  return err;
}
