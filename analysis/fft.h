/* SPDX-License-Identifier: ISC */
/* The discrete Fourier transform, radix 2, in place. */
#ifndef CONTACT_FFT_H
#define CONTACT_FFT_H

/* X_k = sum_t x_t e^{-2 pi i k t / n}, n a power of two; the twiddles are
 * computed directly per index (no recurrence), so the error stays at a
 * few ulps times log2 n */
void fft_transform(double* re, double* im, int n);

/* the Hann window's sample t of n (periodic form: it sums to n / 2) */
double fft_hann(int t, int n);

#endif
