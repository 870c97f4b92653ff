/* SPDX-License-Identifier: ISC */
/* Assertions for the test programs: every failure is printed and counted. */
#ifndef CONTACT_CHECK_H
#define CONTACT_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

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
