/* SPDX-License-Identifier: ISC */
#include "linalg.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define A(i, j) a[(size_t)(i) + (size_t)(j) * (size_t)m]

static double
norm2(double complex z)
{
  return creal(z) * creal(z) + cimag(z) * cimag(z);
}

/* The Householder vector of column k below row k (G&VL 5.1.2, complex):
 * v (length m - k, v[0] = x0 - alpha) with alpha = -e^{i arg x0} ||x|| so
 * that no cancellation happens; returns beta = 2 / ||v||^2 (0: nothing to
 * do).  I - beta v v^H maps the column to alpha e_k. */
static double
house(int m, int k, double complex* a, int col, double complex* v)
{
  double xn = 0.0;
  for (int i = k; i < m; ++i)
    xn += norm2(A(i, col));
  xn = sqrt(xn);
  if (xn == 0.0)
    return 0.0;
  const double complex x0 = A(k, col);
  const double complex ph = cabs(x0) > 0.0 ? x0 / cabs(x0) : 1.0;
  const double complex alpha = -ph * xn;
  v[0] = x0 - alpha;
  for (int i = k + 1; i < m; ++i)
    v[i - k] = A(i, col);
  double vn = 0.0;
  for (int i = 0; i < m - k; ++i)
    vn += norm2(v[i]);
  return vn > 0.0 ? 2.0 / vn : 0.0;
}

/* B(k:m, 0:nc) -= beta v (v^H B(k:m, 0:nc)), B with leading dimension m */
static void
apply_house(int m, int k, const double complex* v, double beta,
            double complex* b, int c0, int nc)
{
  for (int j = c0; j < nc; ++j) {
    double complex* col = b + (size_t)j * (size_t)m;
    double complex d = 0.0;
    for (int i = k; i < m; ++i)
      d += conj(v[i - k]) * col[i];
    d *= beta;
    for (int i = k; i < m; ++i)
      col[i] -= d * v[i - k];
  }
}

int
linalg_qr_r(int m, int n, double complex* a)
{
  double complex* v = malloc(sizeof(*v) * (size_t)m);
  if (!v)
    return -1;
  for (int k = 0; k < n && k < m; ++k) {
    const double beta = house(m, k, a, k, v);
    if (beta != 0.0)
      apply_house(m, k, v, beta, a, k, n);
  }
  free(v);
  return 0;
}

int
linalg_lstsq(int m, int n, int nrhs, double complex* a, double complex* b)
{
  double complex* v = malloc(sizeof(*v) * (size_t)m);
  if (!v)
    return -1;
  for (int k = 0; k < n; ++k) {
    const double beta = house(m, k, a, k, v);
    if (beta != 0.0) {
      apply_house(m, k, v, beta, a, k, n);
      apply_house(m, k, v, beta, b, 0, nrhs);
    }
  }
  free(v);
  /* back substitution R x = (Q^H b)(0:n) */
  double rmax = 0.0;
  for (int k = 0; k < n; ++k)
    rmax = fmax(rmax, cabs(A(k, k)));
  for (int k = 0; k < n; ++k)
    if (!(cabs(A(k, k)) > rmax * 1e-14))
      return 1;
  for (int r = 0; r < nrhs; ++r) {
    double complex* x = b + (size_t)r * (size_t)m;
    for (int i = n - 1; i >= 0; --i) {
      double complex s = x[i];
      for (int j = i + 1; j < n; ++j)
        s -= A(i, j) * x[j];
      x[i] = s / A(i, i);
    }
  }
  return 0;
}

int
linalg_svd(int m, int n, double complex* a, double* s, double complex* v)
{
  if (v) {
    memset(v, 0, sizeof(*v) * (size_t)n * (size_t)n);
    for (int i = 0; i < n; ++i)
      v[i + (size_t)i * (size_t)n] = 1.0;
  }
  /* Hestenes: rotate column pairs (p, q) until every pair is orthogonal to
   * working precision; a complex pair is first made real by the phase of
   * their inner product, then rotated as in the real case (G&VL 8.6.3). */
  const double tol = 4.0 * DBL_EPSILON;
  int converged = 0;
  for (int sweep = 0; sweep < 80 && !converged; ++sweep) {
    converged = 1;
    for (int p = 0; p < n - 1; ++p)
      for (int q = p + 1; q < n; ++q) {
        double complex* ap = a + (size_t)p * (size_t)m;
        double complex* aq = a + (size_t)q * (size_t)m;
        /* in real arithmetic: C's complex product checks for infinities
         * and NaN at every step, and this loop is the fit's hot spot */
        double alpha = 0.0, beta = 0.0, gr = 0.0, gi = 0.0;
        for (int i = 0; i < m; ++i) {
          const double pr = creal(ap[i]), pi = cimag(ap[i]);
          const double qr = creal(aq[i]), qi = cimag(aq[i]);
          alpha += pr * pr + pi * pi;
          beta += qr * qr + qi * qi;
          gr += pr * qr + pi * qi;
          gi += pr * qi - pi * qr;
        }
        const double complex gamma = CMPLX(gr, gi);
        const double g = cabs(gamma);
        if (!(g > tol * sqrt(alpha * beta)) || g == 0.0)
          continue;
        converged = 0;
        const double zeta = (beta - alpha) / (2.0 * g);
        const double t =
            (zeta >= 0.0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1.0 + zeta * zeta));
        const double c = 1.0 / sqrt(1.0 + t * t), sn = c * t;
        const double complex ph = conj(gamma) / g; /* e^{-i theta} */
        const double phr = creal(ph), phi = cimag(ph);
        for (int i = 0; i < m; ++i) {
          const double xr = creal(ap[i]), xi = cimag(ap[i]);
          const double yr = phr * creal(aq[i]) - phi * cimag(aq[i]);
          const double yi = phr * cimag(aq[i]) + phi * creal(aq[i]);
          ap[i] = CMPLX(c * xr - sn * yr, c * xi - sn * yi);
          aq[i] = CMPLX(sn * xr + c * yr, sn * xi + c * yi);
        }
        if (v) {
          double complex* vp = v + (size_t)p * (size_t)n;
          double complex* vq = v + (size_t)q * (size_t)n;
          for (int i = 0; i < n; ++i) {
            const double complex x = vp[i], y = ph * vq[i];
            vp[i] = c * x - sn * y;
            vq[i] = sn * x + c * y;
          }
        }
      }
  }
  for (int j = 0; j < n; ++j) {
    double complex* aj = a + (size_t)j * (size_t)m;
    double nn = 0.0;
    for (int i = 0; i < m; ++i)
      nn += norm2(aj[i]);
    s[j] = sqrt(nn);
    if (s[j] > 0.0)
      for (int i = 0; i < m; ++i)
        aj[i] /= s[j];
  }
  /* sort descending (selection sort: n is small), columns with them */
  for (int j = 0; j < n - 1; ++j) {
    int best = j;
    for (int k = j + 1; k < n; ++k)
      if (s[k] > s[best])
        best = k;
    if (best == j)
      continue;
    const double ts = s[j];
    s[j] = s[best], s[best] = ts;
    for (int i = 0; i < m; ++i) {
      const double complex t = A(i, j);
      A(i, j) = A(i, best), A(i, best) = t;
    }
    if (v)
      for (int i = 0; i < n; ++i) {
        const double complex t = v[i + (size_t)j * (size_t)n];
        v[i + (size_t)j * (size_t)n] = v[i + (size_t)best * (size_t)n];
        v[i + (size_t)best * (size_t)n] = t;
      }
  }
  return converged ? 0 : 1;
}

/* the complex Givens rotation G = [c s; -conj(s) c] with G [x; y] = [r; 0] */
static void
givens(double complex x, double complex y, double* c, double complex* s)
{
  const double ax = cabs(x), ay = cabs(y);
  if (ay == 0.0) {
    *c = 1.0, *s = 0.0;
  } else if (ax == 0.0) {
    *c = 0.0, *s = 1.0;
  } else {
    const double rho = hypot(ax, ay);
    *c = ax / rho;
    *s = (x / ax) * conj(y) / rho;
  }
}

/* One implicit symmetric QR step with Wilkinson's shift on the unreduced
 * block lo..hi of the real tridiagonal (d, e), e[k] between k and k + 1
 * (G&VL 8.3.2): rotations in the planes (k, k + 1) chase the bulge down,
 * each accumulated into the columns of z (n rows). */
static void
tridiagonal_qr_step(int n, double* d, double* e, int lo, int hi, double* z)
{
  const double half = 0.5 * (d[hi - 1] - d[hi]), b = e[hi - 1];
  const double mu = d[hi] - b * b / (half + copysign(hypot(half, b), half));
  double x = d[lo] - mu, y = e[lo];
  for (int k = lo; k < hi; ++k) {
    /* [c s; -s c] takes (x, y) to (r, 0) */
    const double r = hypot(x, y);
    const double c = r > 0.0 ? x / r : 1.0, s = r > 0.0 ? -y / r : 0.0;
    if (k > lo)
      e[k - 1] = r;
    const double a = d[k], g = e[k], f = d[k + 1];
    d[k] = c * c * a - 2.0 * c * s * g + s * s * f;
    d[k + 1] = s * s * a + 2.0 * c * s * g + c * c * f;
    e[k] = c * s * (a - f) + (c * c - s * s) * g;
    if (k + 1 < hi) { /* the bulge at (k, k + 2) */
      x = e[k];
      y = -s * e[k + 1];
      e[k + 1] *= c;
    }
    double* zk = z + (size_t)k * (size_t)n;
    double* zk1 = zk + n;
    for (int i = 0; i < n; ++i) {
      const double p = zk[i], q = zk1[i];
      zk[i] = c * p - s * q;
      zk1[i] = s * p + c * q;
    }
  }
}

int
linalg_eigh(int n, double complex* a, double* w)
{
  const int m = n; /* for A() */
  double complex* q = malloc(sizeof(*q) * (size_t)n * (size_t)n);
  double complex* v = malloc(sizeof(*v) * (size_t)n);
  double complex* p = malloc(sizeof(*p) * (size_t)n);
  double* e = malloc(sizeof(*e) * (size_t)n);
  double* z = malloc(sizeof(*z) * (size_t)n * (size_t)n);
  int err = -1;
  if (!q || !v || !p || !e || !z)
    goto done;
  memset(q, 0, sizeof(*q) * (size_t)n * (size_t)n);
  for (int i = 0; i < n; ++i)
    q[i + (size_t)i * (size_t)n] = 1.0;
  /* Q^H A Q tridiagonal, Q = H_0 H_1 ..., H_k = I - beta v v^H taking
   * column k below the diagonal to alpha e_(k+1) */
  for (int k = 0; k + 2 < n; ++k) {
    const int r = n - k - 1;
    double below = 0.0;
    for (int i = 1; i < r; ++i)
      below += norm2(A(k + 1 + i, k));
    if (below == 0.0)
      continue; /* the column is tridiagonal already */
    const double complex x0 = A(k + 1, k);
    const double ax0 = cabs(x0), xn = sqrt(below + ax0 * ax0);
    const double complex phase = ax0 > 0.0 ? x0 / ax0 : 1.0;
    const double complex alpha = -phase * xn;
    for (int i = 0; i < r; ++i)
      v[i] = A(k + 1 + i, k);
    v[0] = x0 - alpha;
    const double beta = 1.0 / (xn * (xn + ax0)); /* 2 / ||v||^2 */
    /* H B H = B - v w^H - w v^H on the trailing block B, p = beta B v, w
     * = p - (beta v^H p / 2) v */
    double complex vp = 0.0;
    for (int i = 0; i < r; ++i) {
      double complex t = 0.0;
      for (int j = 0; j < r; ++j)
        t += A(k + 1 + i, k + 1 + j) * v[j];
      p[i] = beta * t;
      vp += conj(v[i]) * p[i];
    }
    const double half = 0.5 * beta * creal(vp);
    for (int i = 0; i < r; ++i)
      p[i] -= half * v[i];
    for (int j = 0; j < r; ++j)
      for (int i = 0; i < r; ++i)
        A(k + 1 + i, k + 1 + j) -= v[i] * conj(p[j]) + p[i] * conj(v[j]);
    A(k + 1, k) = alpha;
    A(k, k + 1) = conj(alpha);
    for (int i = 1; i < r; ++i)
      A(k + 1 + i, k) = A(k, k + 1 + i) = 0.0;
    /* Q H: each row less beta (row . v) v^H */
    for (int i = 0; i < n; ++i) {
      double complex t = 0.0;
      for (int j = 0; j < r; ++j)
        t += q[i + (size_t)(k + 1 + j) * (size_t)n] * v[j];
      t *= beta;
      for (int j = 0; j < r; ++j)
        q[i + (size_t)(k + 1 + j) * (size_t)n] -= t * conj(v[j]);
    }
  }
  /* T = D T' D^H with T' real: phases phi_(k+1) = phi_k e_k / |e_k| */
  double complex phi = 1.0;
  for (int k = 0; k < n; ++k) {
    w[k] = creal(A(k, k));
    for (int i = 0; i < n; ++i)
      q[i + (size_t)k * (size_t)n] *= phi;
    if (k + 1 < n) {
      const double complex sub = A(k + 1, k);
      e[k] = cabs(sub);
      if (e[k] > 0.0)
        phi *= sub / e[k];
    }
  }
  memset(z, 0, sizeof(*z) * (size_t)n * (size_t)n);
  for (int i = 0; i < n; ++i)
    z[i + (size_t)i * (size_t)n] = 1.0;
  /* split where an off-diagonal is below rounding of its neighbours, QR
   * steps on the last unreduced block (G&VL 8.3.3) */
  int steps = 0;
  for (int hi = n - 1; hi > 0;) {
    if (fabs(e[hi - 1]) <= DBL_EPSILON * (fabs(w[hi - 1]) + fabs(w[hi]))) {
      e[hi - 1] = 0.0;
      --hi;
      continue;
    }
    int lo = hi - 1;
    while (lo > 0 &&
           fabs(e[lo - 1]) > DBL_EPSILON * (fabs(w[lo - 1]) + fabs(w[lo])))
      --lo;
    if (++steps > 30 * n) {
      err = 1;
      goto done;
    }
    tridiagonal_qr_step(n, w, e, lo, hi, z);
  }
  /* V = Q D Z, sorted by w descending (selection: n is small) */
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double complex t = 0.0;
      for (int k = 0; k < n; ++k)
        t += q[i + (size_t)k * (size_t)n] * z[k + (size_t)j * (size_t)n];
      A(i, j) = t;
    }
  for (int j = 0; j < n; ++j) {
    int best = j;
    for (int k = j + 1; k < n; ++k)
      if (w[k] > w[best])
        best = k;
    if (best != j) {
      const double t = w[j];
      w[j] = w[best];
      w[best] = t;
      for (int i = 0; i < n; ++i) {
        const double complex c = A(i, j);
        A(i, j) = A(i, best);
        A(i, best) = c;
      }
    }
  }
  err = 0;
done:
  free(q);
  free(v);
  free(p);
  free(e);
  free(z);
  return err;
}

int
linalg_eig(int n, double complex* a, double complex* w)
{
  const int m = n;
  if (n <= 0)
    return 0;
  double complex* v = malloc(sizeof(*v) * (size_t)n);
  if (!v)
    return -1;
  /* Hessenberg reduction by Householder similarities (G&VL 7.4.2) */
  for (int k = 0; k + 2 < n; ++k) {
    const double beta = house(m, k + 1, a, k, v);
    if (beta == 0.0)
      continue;
    apply_house(m, k + 1, v, beta, a, k, n); /* from the left */
    for (int i = 0; i < n; ++i) {            /* from the right */
      double complex d = 0.0;
      for (int j = k + 1; j < n; ++j)
        d += A(i, j) * v[j - k - 1];
      d *= beta;
      for (int j = k + 1; j < n; ++j)
        A(i, j) -= d * conj(v[j - k - 1]);
    }
    for (int i = k + 2; i < n; ++i)
      A(i, k) = 0.0;
  }
  free(v);
  /* single-shift implicit QR with Wilkinson shifts and deflation (G&VL
   * 7.5), bulge chased with Givens rotations; eigenvalues only */
  int hi = n - 1, iter = 0, total = 0;
  while (hi > 0) {
    int l = hi;
    for (; l > 0; --l) {
      const double scale = cabs(A(l - 1, l - 1)) + cabs(A(l, l));
      if (cabs(A(l, l - 1)) <= DBL_EPSILON * (scale > 0.0 ? scale : 1.0)) {
        A(l, l - 1) = 0.0;
        break;
      }
    }
    if (l == hi) {
      w[hi] = A(hi, hi);
      --hi;
      iter = 0;
      continue;
    }
    if (++total > 100 * n)
      return 1;
    const double complex p = A(hi - 1, hi - 1), q = A(hi - 1, hi),
                         r = A(hi, hi - 1), d = A(hi, hi);
    double complex mu;
    if (iter > 0 && iter % 11 == 0) {
      mu = d + cabs(r); /* exceptional shift against cycling */
    } else {
      const double complex half = 0.5 * (p - d);
      const double complex disc = csqrt(half * half + q * r);
      /* the eigenvalue of the trailing 2 x 2 nearer its corner */
      const double complex m1 = d + half + disc, m2 = d + half - disc;
      mu = cabs(m1 - d) < cabs(m2 - d) ? m1 : m2;
    }
    ++iter;
    double complex x = A(l, l) - mu, y = A(l + 1, l);
    for (int k = l; k < hi; ++k) {
      if (k > l)
        x = A(k, k - 1), y = A(k + 1, k - 1);
      double c;
      double complex s;
      givens(x, y, &c, &s);
      for (int j = (k > l ? k - 1 : l); j <= hi; ++j) {
        const double complex h0 = A(k, j), h1 = A(k + 1, j);
        A(k, j) = c * h0 + s * h1;
        A(k + 1, j) = -conj(s) * h0 + c * h1;
      }
      const int last = k + 2 < hi ? k + 2 : hi;
      for (int i = l; i <= last; ++i) {
        const double complex h0 = A(i, k), h1 = A(i, k + 1);
        A(i, k) = c * h0 + conj(s) * h1;
        A(i, k + 1) = -s * h0 + c * h1;
      }
      if (k > l)
        A(k + 1, k - 1) = 0.0;
    }
  }
  w[0] = A(0, 0);
  return 0;
}
