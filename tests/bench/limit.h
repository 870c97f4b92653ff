/* SPDX-License-Identifier: ISC */
/*
 * The limit the instruments are measured against: a bare bank of modes and
 * nothing else (no contact, no per-voice bookkeeping), float
 * structure-of-arrays, each mode a 2x2 state update driven by one input
 * and summed into one output, built -O3 -march=native -ffast-math so that
 * the compiler vectorises it as far as this CPU allows.  A figure divided
 * by the limit measured in the same run is comparable across machines;
 * absolute ns are not.
 */
#ifndef CONTACT_BENCH_LIMIT_H
#define CONTACT_BENCH_LIMIT_H

/* ns per sample of `modes` modes (log-spaced 100 Hz - 10 kHz, q = 1000)
 * at `rate`, in blocks of 256, over `seconds` (best of 3), struck 8
 * times a second. */
double limit_ns_per_sample(int modes, double rate, double seconds);

/* The monotonic clock, in seconds, that both time by. */
double bench_now(void);

#endif
