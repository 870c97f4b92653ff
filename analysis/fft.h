/* SPDX-License-Identifier: ISC */
/* The discrete Fourier transform, radix 2, in place: the one FFT of the
 * analysis, its pictures and the tests' measurements. */
#ifndef CONTACT_FFT_H
#define CONTACT_FFT_H

#include <complex.h>
#include <stddef.h>

/* X_k = sum_t x_t e^{sign 2 pi i k t / n}: sign -1 forward, +1 inverse
 * (unnormalised); n a power of two.  0, or -1 if out of memory. */
int fft_transform(double complex* x, size_t n, int sign);

/* the Hann window's sample t of n (periodic form: it sums to n / 2) */
double fft_hann(size_t t, size_t n);

#endif
