/* SPDX-License-Identifier: ISC */
/*
 * What the contact solvers share about their Newton-Raphson iterations:
 * the cap that bounds every solve (a real-time rule: no loop without a
 * bound), and the statistics that count iterations and cap hits, which the
 * tests, the benchmark and the plugins' `newton_cap_hits` meters read.
 */
#ifndef CONTACT_NEWTON_H
#define CONTACT_NEWTON_H

#include <stdbool.h>
#include <stdint.h>

/* Newton iteration cap of every contact solve ([ch5] reports at most four
 * iterations at 1e-13; 16 leaves room without letting a solve run away). */
enum { NEWTON_CAP = 16 };

typedef struct newton_stats {
  uint64_t solves;                    /* Newton solves */
  uint64_t iterations;                /* total Newton iterations */
  uint64_t cap_hits;                  /* solves that reached NEWTON_CAP */
  uint64_t histogram[NEWTON_CAP + 1]; /* solves by iteration count */
} newton_stats;

/* Count a solve of `iterations` (1..NEWTON_CAP; 0: no solve was needed). */
static inline void
newton_stats_count(newton_stats* stats, int iterations, bool converged)
{
  if (iterations <= 0)
    return;
  if (iterations > NEWTON_CAP)
    iterations = NEWTON_CAP;
  stats->solves++;
  stats->iterations += (uint64_t)iterations;
  stats->histogram[iterations]++;
  if (!converged)
    stats->cap_hits++;
}

#endif
