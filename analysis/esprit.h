/* SPDX-License-Identifier: ISC */
/*
 * One band of the subspace fit: the poles and complex amplitudes of a sum
 * of damped complex exponentials in white noise,
 *     y[n] = sum_k c_k z_k^n + e[n],   n = 0 .. len - 1,
 * by ESPRIT (Roy & Kailath 1989) on the signal subspace of the Hankel
 * matrix of y (the matrix-pencil form of Hua & Sarkar 1990), then the
 * amplitudes by least squares on the Vandermonde matrix of the poles.
 */
#ifndef CONTACT_ESPRIT_H
#define CONTACT_ESPRIT_H

#include <complex.h>

/* Hankel rows: the eigenproblem is at most this wide */
#define ESPRIT_MAX_ROWS  160
#define ESPRIT_MAX_ORDER 40

typedef struct {
  int order; /* poles found */
  double complex pole[ESPRIT_MAX_ORDER];
  double complex amp[ESPRIT_MAX_ORDER];
  int rows, cols;             /* the Hankel matrix's shape */
  double sv[ESPRIT_MAX_ROWS]; /* its singular values, descending (rows) */
  double threshold;           /* the noise edge the order was chosen against */
} esprit_fit;

/* Fit y (len samples).  noise_var: the variance of e (complex, E|e|^2);
 * <= 0 for a clean signal (the order is then the number of singular values
 * above 1e-6 of the largest: the singular values come squared, so 1e-8 is
 * rounding).  rows: Hankel rows wanted (clamped to ESPRIT_MAX_ROWS and len /
 * 2); max_order <= ESPRIT_MAX_ORDER.  Returns 0, or -1 when memory or the
 * linear algebra fails. */
int esprit_band(const double complex* y, int len, double noise_var, int rows,
                int max_order, esprit_fit* fit);

/* Refine poles and amplitudes (order of them) by Gauss-Newton on the
 * least squares of the model against y: the maximum-likelihood estimate
 * in white noise, from ESPRIT's as the start; stops where a step does
 * not lower the residual.  Returns 0, or -1 when an allocation fails. */
int esprit_refine(const double complex* y, int len, int order,
                  double complex* pole, double complex* amp);

/* Least-squares amplitudes of fixed poles: amp (order) such that y[n] ~
 * sum_k amp[k] pole[k]^n.  Returns 0, -1 when an allocation fails, 1 when
 * the poles are too close for their amplitudes to be told apart. */
int esprit_amplitudes(const double complex* y, int len, int order,
                      const double complex* pole, double complex* amp);

#endif
