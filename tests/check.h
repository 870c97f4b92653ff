/* SPDX-License-Identifier: ISC */
/* Assertions for the test programs: every failure is printed and counted. */
#ifndef CONTACT_CHECK_H
#define CONTACT_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

static int check_failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      ++check_failures;                                                        \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                     \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

/* |got / want - 1| <= tol, printed either way */
static inline bool
check_rel(const char* what, double got, double want, double tol)
{
  const double err = want != 0.0 ? got / want - 1.0 : got;
  const bool ok = isfinite(got) && fabs(err) <= tol;
  printf("%s %-44s got %.10g want %.10g err %+.2e (tol %.1e)\n",
         ok ? "  ok " : "FAIL ", what, got, want, err, tol);
  if (!ok)
    ++check_failures;
  return ok;
}

/* n bytes written to a new file at path, a failure checked; false then */
static inline bool
check_write_file(const char* path, const void* bytes, size_t n)
{
  FILE* const f = fopen(path, "wb");
  CHECK(f, "cannot create %s", path);
  if (!f)
    return false;
  const bool written = fwrite(bytes, 1, n, f) == n;
  CHECK(written, "cannot write %s", path);
  return fclose(f) == 0 && written;
}

/* Costs are timed against themselves, never in seconds (which depend on
 * the machine: the aarch64 build's tests run emulated).  A cost linear in
 * its input, timed at the whole input and at an eighth of it, may take
 * this much more than eight times the eighth's (caches, the machine's
 * load); a quadratic one would take 64 times. */
#define CHECK_LINEAR_SLACK 2.0
enum { CHECK_TIMING_TRIES = 3 }; /* the best of them: the least disturbed */

/* the processor time of run(arg), the best of CHECK_TIMING_TRIES runs */
static inline double
check_best_seconds(void (*run)(void*), void* arg)
{
  double best = INFINITY;
  for (int i = 0; i < CHECK_TIMING_TRIES; ++i) {
    const clock_t t0 = clock();
    run(arg);
    best = fmin(best, (double)(clock() - t0) / CLOCKS_PER_SEC);
  }
  return best;
}

/* whole <= 8 x eighth within CHECK_LINEAR_SLACK, printed either way */
static inline bool
check_linear(const char* what, double whole, double eighth)
{
  const bool ok = whole <= 8.0 * CHECK_LINEAR_SLACK * eighth;
  printf("%s %s: %.4f s, an eighth of it %.4f s: %.1f times (bar %.0f)\n",
         ok ? "  ok " : "FAIL ", what, whole, eighth, whole / eighth,
         8.0 * CHECK_LINEAR_SLACK);
  if (!ok)
    ++check_failures;
  return ok;
}

static inline int
check_done(const char* name)
{
  if (check_failures)
    fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
  else
    printf("%s: all checks passed\n", name);
  return check_failures ? 1 : 0;
}

#endif
