/* SPDX-License-Identifier: ISC */
/*
 * The output's safety limiter.  The physics can be driven, inside the
 * ports' ranges, to levels no speaker should get (a 10 kg hammer on a
 * 10 g object, +60 dB of gain): this keeps them listenable without
 * touching anything that plays below full scale.
 *
 * Stereo-linked peak envelope e: it jumps to each new peak of max(|l|,
 * |r|), holds it for `hold` (longer than the period of any audible
 * fundamental, so a loud steady tone gets a steady gain rather than one
 * rippling at its own frequency) and then decays with the release time.
 * While e <= 1 (0 dBFS) the gain is exactly 1: below full scale the
 * output passes bit for bit.  Above, the gain is K(e) / e with the soft
 * knee K(e) = 1 + u / (1 + u / (C - 1)), u = e - 1, which leaves the level
 * continuous with slope 1 at 0 dBFS, keeps louder inputs louder, and never
 * lets a sample reach the ceiling C (+6 dBFS): a +20 dBFS blow comes out
 * at +5.6 dBFS, with its shape kept.  Per sample and with its state carried
 * from block to block, it does not depend on the host's block size.
 */
#ifndef CONTACT_LIMITER_H
#define CONTACT_LIMITER_H

#include <stdint.h>

#define LIMITER_CEILING   2.0  /* +6 dBFS, never reached */
#define LIMITER_HOLD_S    0.02 /* longer than a period down to 50 Hz */
#define LIMITER_RELEASE_S 0.2  /* 1/e time of the envelope's fall */

typedef struct output_limiter {
  double envelope;    /* peak envelope, full scale = 1 */
  double release;     /* per-sample factor of the envelope's fall */
  uint32_t hold;      /* samples of the hold */
  uint32_t hold_left; /* samples the current peak is still held */
  uint64_t limited;   /* samples whose gain was below 1 */
} output_limiter;

void limiter_init(output_limiter* lim, double sample_rate);
void limiter_reset(output_limiter* lim);

/* Limit `frames` samples of the stereo pair in place. */
void limiter_process(output_limiter* lim, float* l, float* r, uint32_t frames);

#endif
