/* SPDX-License-Identifier: ISC */
/*
 * Small dense complex linear algebra for the subspace fit, written from
 * Golub & Van Loan, "Matrix Computations" (4th ed.): Householder QR and
 * least squares (5.2, 5.3), the one-sided Jacobi SVD (Hestenes 1958; 8.6),
 * eigenvalues by Hessenberg reduction and the implicitly shifted QR
 * iteration (7.4, 7.5).  Matrices are column-major: element (i, j) of an
 * m-row matrix is a[i + j * m].  Every function allocates what it needs
 * and returns 0, -1 when an allocation fails, or 1 on the numerical
 * failure said.
 */
#ifndef CONTACT_LINALG_H
#define CONTACT_LINALG_H

#include <complex.h>

/* Least squares min ||A x - B|| for A m x n (m >= n) of full rank, by
 * Householder QR.  A is destroyed; B (m x nrhs) holds X in its first n
 * rows on return.  1 when R has a zero on its diagonal (to 1e-14 of its
 * largest): A is rank deficient. */
int linalg_lstsq(int m, int n, int nrhs, double complex* a, double complex* b);

/* Householder QR in place: A (m x n, m >= n) becomes R in its upper
 * triangle (the strictly lower part is left undefined). */
int linalg_qr_r(int m, int n, double complex* a);

/* Singular value decomposition A = U diag(s) V^H of A (m x n, m >= n) by
 * one-sided Jacobi rotations: A is overwritten by U (m x n, orthonormal
 * columns; a zero column where s is 0), s (n) sorted descending, V (n x n)
 * unitary; v may be NULL when V is not wanted.  1 when the sweeps do not
 * converge. */
int linalg_svd(int m, int n, double complex* a, double* s, double complex* v);

/* The eigen-decomposition A = V diag(w) V^H of a Hermitian matrix A (n x
 * n, both triangles given): A is overwritten by V (orthonormal columns),
 * w (n) sorted descending.  Householder reduction to a tridiagonal
 * (G&VL 8.3.1, complex), made real by a diagonal of phases, then the
 * implicit symmetric QR iteration with Wilkinson's shift (8.3.2, 8.3.3):
 * some 9 n^3 flops where the one-sided Jacobi SVD takes ten sweeps of 8 n^3.
 * 1 when the QR iteration does not converge. */
int linalg_eigh(int n, double complex* a, double* w);

/* The eigenvalues w (n) of a general complex matrix A (n x n, destroyed),
 * in no particular order.  1 when the QR iteration does not converge. */
int linalg_eig(int n, double complex* a, double complex* w);

#endif
