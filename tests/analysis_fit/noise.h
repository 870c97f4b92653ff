/* SPDX-License-Identifier: ISC */
/* The synthetic recordings' random draws: a 64-bit linear congruential
 * generator (Knuth's MMIX constants), its top 53 bits as a uniform in
 * (0, 1), and Gaussian noise from two of them (Box-Muller).  One stream a
 * test program, seeded per case, so that every case is the same draws on
 * every run. */
#ifndef CONTACT_TEST_NOISE_H
#define CONTACT_TEST_NOISE_H

#include <math.h>
#include <stdint.h>

static uint64_t noise_state;

static inline void
noise_seed(uint64_t seed)
{
  noise_state = seed;
}

static inline double
noise_uniform(void)
{
  noise_state = noise_state * 6364136223846793005ull + 1442695040888963407ull;
  return ((double)(noise_state >> 11) + 0.5) * 0x1.0p-53;
}

static inline double
noise_gauss(void)
{
  return sqrt(-2.0 * log(noise_uniform())) *
         cos(2.0 * 3.14159265358979323846 * noise_uniform());
}

#endif
