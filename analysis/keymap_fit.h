/* SPDX-License-Identifier: ISC */
/*
 * The law across a keymap's zones (dsp/modal_keymap.h), fitted from the
 * partials that neighbouring zones share: how a partial's decay and its
 * ratio to the root move with the root, where a scaled object would keep
 * its q and its ratios.  A partial is followed from zone to zone (each
 * zone's partial and the next's, each the other's nearest in log2 rho),
 * a track; within each track log2 t_e and log2 rho against the root's
 * octaves, about the track's means, fitted together: log2 t_e falls by
 * (P0 + P1 x) an octave, log2 rho grows by D x (x the track's log2 rho),
 * weighed by the partials' energies, robustly.
 */
#ifndef CONTACT_KEYMAP_FIT_H
#define CONTACT_KEYMAP_FIT_H

#include "modal_keymap.h"

#include <stdbool.h>

/* Partials taking part: within this of their zone's strongest by energy
 * (gain^2 t_e: what rings, not a mallet's click), as the analysis's root
 * note counts them. */
#define KEYMAP_FIT_RANGE_DB 20.0
/* Two zones' partials are one partial when their ratios to their roots
 * are within this many octaves (7 %), each the other's nearest: a bar's
 * tuned partials drift by less between neighbouring zones, and distinct
 * partials lie further apart. */
#define KEYMAP_FIT_MATCH_OCTAVES 0.1
/* The decay exponent's slope over rho is fitted only when the matched
 * partials spread over at least this many octaves of rho (weighted
 * spread); else it is 0 and P0 their mean exponent. */
#define KEYMAP_FIT_MIN_SPREAD_OCTAVES 0.5

/* The fits' robustness: residuals beyond this many robust deviations
 * (1.4826 median absolute residuals) weigh less ([huber]), over this many
 * reweightings. */
#define KEYMAP_FIT_HUBER      1.5
#define KEYMAP_FIT_ITERATIONS 10
/* The law is fitted only when some partial is followed across this many
 * zones (else constant q): a slope between two recordings is whatever
 * those two gave (the SoundFont celesta's two-zone tracks made its decay
 * exponent 4, the bound). */
#define KEYMAP_FIT_MIN_ZONES_FOLLOWED 3

typedef struct {
  int tracks;       /* partials followed across two zones or more */
  int points;       /* their zones' partials in all */
  double decay_rms; /* the decay fit's rms residual, log2 t_e */
  double drift_rms; /* the drift fit's rms residual, log2 rho */
  bool fitted;      /* false: too little followed, the constant-q law */
} keymap_fit_report;

/* The law of map's zones (2 or more, roots rising) into *law; with fewer
 * than two zones or no partial followed, the constant-q law.  report may be
 * NULL. */
void keymap_fit_law(const modal_keymap* map, modal_keymap_law* law,
                    keymap_fit_report* report);

#endif
