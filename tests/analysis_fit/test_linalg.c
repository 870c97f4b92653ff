/* SPDX-License-Identifier: ISC */
/*
 * The linear algebra of the subspace fit (analysis/linalg.c) and one band
 * of ESPRIT (analysis/esprit.c) on cases with exact answers:
 * 1. SVD: U diag(s) V^H rebuilds A, U and V have orthonormal columns, s
 *    descending, for random complex matrices, tall and square, and one of
 *    rank 2;
 * 1b. Hermitian eigen-decomposition: V diag(w) V^H rebuilds A, V unitary,
 *    w descending and the squared singular values of B for A = B B^H,
 *    full rank and rank 3; an indefinite one;
 * 2. least squares: an overdetermined system whose right side is A x0
 *    returns x0; with a residual, the residual is orthogonal to A's
 *    columns (the normal equations);
 * 3. eigenvalues: X T X^-1 (T triangular, X random) has T's diagonal; a
 *    companion matrix has its polynomial's roots; a rotation e^{+-i t};
 * 4. ESPRIT on a clean band of 2 damped exponentials 0.02 rad apart: the
 *    poles and amplitudes to 1e-8, order 2 found.
 */
#include "check.h"
#include "esprit.h"
#include "linalg.h"

#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* tolerances: double rounding through O(n^3) work on n <= 40 */
#define TOL_EXACT 1e-11

static uint64_t state = 12345u;

static double
urand(void)
{
  state = state * 6364136223846793005u + 1442695040888963407u;
  return (double)(state >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

static double complex
crand(void)
{
  return urand() + I * urand();
}

static void
svd_case(int m, int n, int rank)
{
  double complex* a = malloc(sizeof(*a) * (size_t)(m * n));
  double complex* u = malloc(sizeof(*u) * (size_t)(m * n));
  double complex* v = malloc(sizeof(*v) * (size_t)(n * n));
  double* s = malloc(sizeof(*s) * (size_t)n);
  for (int i = 0; i < m * n; ++i)
    a[i] = crand();
  if (rank < n) /* columns beyond rank: combinations of the first two */
    for (int j = rank; j < n; ++j)
      for (int i = 0; i < m; ++i)
        a[i + j * m] = (0.3 + j) * a[i] - 0.7 * I * a[i + m];
  memcpy(u, a, sizeof(*a) * (size_t)(m * n));
  CHECK(linalg_svd(m, n, u, s, v) == 0, "svd %dx%d failed", m, n);
  double rec = 0.0, orth_v = 0.0, orth_u = 0.0, anorm = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double complex t = 0.0;
      for (int k = 0; k < n; ++k)
        t += u[i + k * m] * s[k] * conj(v[j + k * n]);
      rec = fmax(rec, cabs(t - a[i + j * m]));
      anorm = fmax(anorm, cabs(a[i + j * m]));
    }
  for (int p = 0; p < n; ++p)
    for (int q = 0; q < n; ++q) {
      double complex tv = 0.0, tu = 0.0;
      for (int k = 0; k < n; ++k)
        tv += conj(v[k + p * n]) * v[k + q * n];
      for (int k = 0; k < m; ++k)
        tu += conj(u[k + p * m]) * u[k + q * m];
      orth_v = fmax(orth_v, cabs(tv - (p == q)));
      if (p < rank && q < rank)
        orth_u = fmax(orth_u, cabs(tu - (p == q)));
    }
  int sorted = 1;
  for (int k = 1; k < n; ++k)
    sorted &= s[k] <= s[k - 1];
  char what[64];
  snprintf(what, sizeof(what), "svd %dx%d rank %d: rebuilt A", m, n, rank);
  check_rel(what, rec / anorm, 0.0, TOL_EXACT);
  snprintf(what, sizeof(what), "svd %dx%d: V^H V - I", m, n);
  check_rel(what, orth_v, 0.0, TOL_EXACT);
  snprintf(what, sizeof(what), "svd %dx%d: U^H U - I", m, n);
  check_rel(what, orth_u, 0.0, TOL_EXACT);
  CHECK(sorted, "svd %dx%d: singular values not descending", m, n);
  if (rank < n)
    check_rel("svd rank 2: third singular value / first", s[2] / s[0], 0.0,
              TOL_EXACT);
  free(a), free(u), free(v), free(s);
}

/* A Hermitian matrix, positive semidefinite of rank `rank` (B B^H) or
 * indefinite (B + B^H): V diag(w) V^H rebuilds it, V is unitary, w
 * descending and, for B B^H, the squares of B's singular values. */
static void
eigh_case(int n, int rank, bool definite)
{
  double complex* b = malloc(sizeof(*b) * (size_t)(n * n));
  double complex* a = malloc(sizeof(*a) * (size_t)(n * n));
  double complex* v = malloc(sizeof(*v) * (size_t)(n * n));
  double* w = malloc(sizeof(*w) * (size_t)n);
  double* s = malloc(sizeof(*s) * (size_t)n);
  for (int i = 0; i < n * n; ++i)
    b[i] = i < n * rank ? crand() : 0.0;
  double anorm = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double complex t = 0.0;
      if (definite)
        for (int k = 0; k < rank; ++k)
          t += b[i + k * n] * conj(b[j + k * n]);
      else
        t = b[i + j * n] + conj(b[j + i * n]);
      a[i + j * n] = t;
      anorm = fmax(anorm, cabs(t));
    }
  memcpy(v, a, sizeof(*a) * (size_t)(n * n));
  CHECK(linalg_eigh(n, v, w) == 0, "eigh %dx%d failed", n, n);
  double rec = 0.0, orth = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double complex t = 0.0, u = 0.0;
      for (int k = 0; k < n; ++k) {
        t += v[i + k * n] * w[k] * conj(v[j + k * n]);
        u += conj(v[k + i * n]) * v[k + j * n];
      }
      rec = fmax(rec, cabs(t - a[i + j * n]));
      orth = fmax(orth, cabs(u - (i == j)));
    }
  int sorted = 1;
  for (int k = 1; k < n; ++k)
    sorted &= w[k] <= w[k - 1];
  char what[80];
  snprintf(what, sizeof(what), "eigh %dx%d rank %d%s: rebuilt A", n, n, rank,
           definite ? " (B B^H)" : "");
  check_rel(what, rec / anorm, 0.0, TOL_EXACT);
  snprintf(what, sizeof(what), "eigh %dx%d: V^H V - I", n, n);
  check_rel(what, orth, 0.0, TOL_EXACT);
  CHECK(sorted, "eigh %dx%d: eigenvalues not descending", n, n);
  if (definite) { /* against the SVD of B */
    memcpy(v, b, sizeof(*b) * (size_t)(n * n));
    CHECK(linalg_svd(n, n, v, s, NULL) == 0, "svd %dx%d failed", n, n);
    double err = 0.0;
    for (int k = 0; k < n; ++k)
      err = fmax(err, fabs(w[k] - s[k] * s[k]) / (s[0] * s[0]));
    snprintf(what, sizeof(what), "eigh %dx%d rank %d: w - svd(B)^2", n, n,
             rank);
    check_rel(what, err, 0.0, TOL_EXACT);
  }
  free(b), free(a), free(v), free(w), free(s);
}

static void
lstsq_case(void)
{
  enum { M = 12, N = 5 };
  double complex a[M * N], a2[M * N], b[M], x0[N], res[M];
  for (int i = 0; i < M * N; ++i)
    a[i] = a2[i] = crand();
  for (int j = 0; j < N; ++j)
    x0[j] = crand();
  for (int i = 0; i < M; ++i) {
    b[i] = 0.0;
    for (int j = 0; j < N; ++j)
      b[i] += a[i + j * M] * x0[j];
  }
  CHECK(linalg_lstsq(M, N, 1, a2, b) == 0, "lstsq failed");
  double err = 0.0;
  for (int j = 0; j < N; ++j)
    err = fmax(err, cabs(b[j] - x0[j]));
  check_rel("lstsq: consistent system, |x - x0|", err, 0.0, TOL_EXACT);
  /* inconsistent: A^H (A x - b) = 0 */
  for (int i = 0; i < M * N; ++i)
    a2[i] = a[i];
  for (int i = 0; i < M; ++i)
    res[i] = b[i] = crand();
  CHECK(linalg_lstsq(M, N, 1, a2, b) == 0, "lstsq failed");
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      res[i] -= a[i + j * M] * b[j];
  double ortho = 0.0;
  for (int j = 0; j < N; ++j) {
    double complex t = 0.0;
    for (int i = 0; i < M; ++i)
      t += conj(a[i + j * M]) * res[i];
    ortho = fmax(ortho, cabs(t));
  }
  check_rel("lstsq: normal equations A^H r", ortho, 0.0, TOL_EXACT);
}

/* the largest distance from a wanted eigenvalue to the nearest found */
static double
eig_error(int n, const double complex* want, const double complex* got)
{
  double worst = 0.0;
  for (int i = 0; i < n; ++i) {
    double best = INFINITY;
    for (int j = 0; j < n; ++j)
      best = fmin(best, cabs(got[j] - want[i]));
    worst = fmax(worst, best);
  }
  return worst;
}

static void
eig_cases(void)
{
  enum { N = 8 };
  double complex t[N * N], x[N * N], b[N * N], xh[N * N], ah[N * N];
  double complex want[N], got[N];
  /* X T X^-1: A X = X T, so X^H A^H = (X T)^H */
  for (int i = 0; i < N * N; ++i) {
    x[i] = crand();
    t[i] = 0.0;
  }
  for (int j = 0; j < N; ++j)
    for (int i = 0; i <= j; ++i)
      t[i + j * N] =
          i == j ? (want[i] = (j - 3.5) + 0.5 * I * (j % 3)) : crand();
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double complex s = 0.0;
      for (int k = 0; k < N; ++k)
        s += x[i + k * N] * t[k + j * N];
      b[j + i * N] = conj(s); /* (X T)^H */
      xh[j + i * N] = conj(x[i + j * N]);
    }
  CHECK(linalg_lstsq(N, N, N, xh, b) == 0, "solve failed");
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      ah[i + j * N] = conj(b[j + i * N]);
  CHECK(linalg_eig(N, ah, got) == 0, "eig failed");
  check_rel("eig of X T X^-1: distance to T's diagonal",
            eig_error(N, want, got), 0.0, 1e-9);
  /* companion matrix of prod (z - r_k) with roots on a damped circle,
   * as ESPRIT's poles are */
  double complex poly[N + 1] = {1.0};
  for (int k = 0; k < N; ++k) {
    want[k] = (0.9 + 0.01 * k) * cexp(I * (0.3 + 0.7 * k));
    for (int i = k + 1; i > 0; --i)
      poly[i] = poly[i] - want[k] * poly[i - 1];
  }
  double complex c[N * N] = {0};
  for (int j = 0; j < N; ++j)
    c[0 + j * N] = -poly[j + 1];
  for (int i = 1; i < N; ++i)
    c[i + (i - 1) * N] = 1.0;
  CHECK(linalg_eig(N, c, got) == 0, "eig failed");
  check_rel("eig of a companion matrix: distance to the roots",
            eig_error(N, want, got), 0.0, 1e-9);
  /* a real rotation: e^{+-i 0.4}, a complex pair from a real matrix */
  double complex rot[4] = {cos(0.4), sin(0.4), -sin(0.4), cos(0.4)};
  double complex rw[2] = {cexp(0.4 * I), cexp(-0.4 * I)};
  CHECK(linalg_eig(2, rot, got) == 0, "eig failed");
  check_rel("eig of a rotation by 0.4", eig_error(2, rw, got), 0.0, TOL_EXACT);
}

static void
esprit_case(void)
{
  enum { LEN = 200 };
  const double complex z[2] = {0.995 * cexp(0.30 * I), 0.99 * cexp(0.32 * I)};
  const double complex c[2] = {1.0 - 0.5 * I, 0.3 + 0.2 * I};
  double complex y[LEN];
  for (int n = 0; n < LEN; ++n)
    y[n] = c[0] * cpow(z[0], n) + c[1] * cpow(z[1], n);
  esprit_fit fit;
  CHECK(esprit_band(y, LEN, 0.0, 60, 10, &fit) == 0, "esprit failed");
  CHECK(fit.order == 2, "esprit order %d, want 2", fit.order);
  double ep = fit.order == 2 ? 0.0 : INFINITY, ea = ep;
  for (int i = 0; i < 2 && fit.order == 2; ++i) {
    const int j = cabs(fit.pole[0] - z[i]) < cabs(fit.pole[1] - z[i]) ? 0 : 1;
    ep = fmax(ep, cabs(fit.pole[j] - z[i]));
    ea = fmax(ea, cabs(fit.amp[j] - c[i]) / cabs(c[i]));
  }
  check_rel("esprit clean 2 poles: |pole error|", ep, 0.0, 1e-8);
  check_rel("esprit clean 2 poles: relative amplitude error", ea, 0.0, 1e-8);
}

int
main(void)
{
  svd_case(9, 6, 6);
  svd_case(12, 12, 12);
  svd_case(10, 5, 2);
  eigh_case(1, 1, true);
  eigh_case(7, 7, true);
  eigh_case(12, 3, true);
  eigh_case(40, 40, true);
  eigh_case(12, 12, false);
  lstsq_case();
  eig_cases();
  esprit_case();
  return check_done("analysis_linalg");
}
