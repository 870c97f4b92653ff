/* SPDX-License-Identifier: ISC */
/*
 * Bar 3: Newton-Raphson on the K-method equation ([ch8] 8.A.2) over the
 * grid k 1e3..1e13, alpha 1..4, mu 0..5, v_in 0.01..10 m/s, at 44.1 and
 * 192 kHz, a 10 g hammer on a 3-mode object: it never fails to converge,
 * one iteration is the median, at most 3 % of the solves need more
 * (achieved 1.3 %), and none more than 7 (achieved 7: a deterministic
 * count, so the bar is the figure; 8 would let a slower solver pass).
 */
#include "check.h"
#include "strike.h"

#include <stdio.h>

int
main(void)
{
  static const double freq[3] = {440.0, 1210.0, 3300.0};
  static const double decay[3] = {1.0, 0.5, 0.2};
  static const double alphas[] = {1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0};
  static const double mus[] = {0.0, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0};
  static const double rates[] = {44100.0, 192000.0};
  uint64_t histogram[NEWTON_CAP + 1] = {0};
  uint64_t solves = 0, iterations = 0, cap_hits = 0;
  int strikes = 0;

  for (int r = 0; r < 2; ++r)
    for (double k = 1e3; k < 2e13; k *= 10.0)
      for (size_t a = 0; a < sizeof(alphas) / sizeof(alphas[0]); ++a)
        for (size_t u = 0; u < sizeof(mus) / sizeof(mus[0]); ++u)
          for (double v = 0.01; v < 11.0; v *= sqrt(10.0)) {
            const strike_setup s = {
                rates[r], {.stiffness = k, .alpha = alphas[a], .mu = mus[u]},
                0.01,     0.0,
                v,        1.0,
                3,        freq,
                decay};
            const impact* im = strike(&s, 10.0, false, NULL);
            ++strikes;
            CHECK(im->last.serial >= 1, "no contact at k=%g a=%g mu=%g v=%g", k,
                  alphas[a], mus[u], v);
            for (int i = 0; i <= NEWTON_CAP; ++i)
              histogram[i] += im->stats.histogram[i];
            solves += im->stats.solves;
            iterations += im->stats.iterations;
            cap_hits += im->stats.cap_hits;
          }

  printf("%d strikes, %llu Newton solves, %.3f iterations per solve\n", strikes,
         (unsigned long long)solves, (double)iterations / solves);
  printf("iterations : solves\n");
  int median = -1, max = 0;
  uint64_t below = 0;
  for (int i = 0; i <= NEWTON_CAP; ++i) {
    if (histogram[i])
      printf("%10d : %llu\n", i, (unsigned long long)histogram[i]);
    below += histogram[i];
    if (median < 0 && 2 * below >= solves)
      median = i;
    if (histogram[i])
      max = i;
  }
  printf("median %d, maximum %d, cap hits %llu\n", median, max,
         (unsigned long long)cap_hits);
  CHECK(cap_hits == 0, "Newton hit its cap %llu times",
        (unsigned long long)cap_hits);
  const double more = 1.0 - (double)histogram[1] / (double)solves;
  const double more_bar = 0.03;
  printf("%.2f %% of the solves take more than one iteration (bar %.0f %%)\n",
         100.0 * more, 100.0 * more_bar);
  CHECK(median <= 1, "median %d iterations", median);
  CHECK(max <= 7, "maximum %d iterations", max);
  CHECK(more <= more_bar, "%.2f %% of the solves iterate more than once",
        100.0 * more);
  return check_done("test_newton");
}
