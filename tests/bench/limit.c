/* SPDX-License-Identifier: ISC */
#define _POSIX_C_SOURCE 200809L

#include "limit.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

enum { LIMIT_BLOCK = 256, LIMIT_MAX_MODES = 256 };

typedef struct bank {
  float a11[LIMIT_MAX_MODES], a12[LIMIT_MAX_MODES];
  float a21[LIMIT_MAX_MODES], a22[LIMIT_MAX_MODES];
  float b1[LIMIT_MAX_MODES], b2[LIMIT_MAX_MODES], g[LIMIT_MAX_MODES];
  float x[LIMIT_MAX_MODES], v[LIMIT_MAX_MODES];
} bank;

/* the thread's processor time: on a shared machine the time it spends
 * descheduled is not the code's */
double
bench_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* exact flow of x'' + 2 s x' + w^2 x = u over h, u held (as dsp/modal) */
static void
set_mode(bank* b, int i, double f, double q, double h)
{
  const double w = 2.0 * 3.14159265358979323846 * f, s = w / (2.0 * q);
  const double wd = sqrt(w * w - s * s), e = exp(-s * h);
  const double c = cos(wd * h), sn = sin(wd * h) / wd;
  b->a11[i] = (float)(e * (c + s * sn));
  b->a12[i] = (float)(e * sn);
  b->a21[i] = (float)(-e * w * w * sn);
  b->a22[i] = (float)(e * (c - s * sn));
  b->b1[i] = (float)((1.0 - e * (c + s * sn)) / (w * w));
  b->b2[i] = (float)(e * sn);
  b->g[i] = 1.0f;
  b->x[i] = b->v[i] = 0.0f;
}

static float
run_block(bank* b, int modes, const float* u, float* out)
{
  for (int t = 0; t < LIMIT_BLOCK; ++t) {
    const float ut = u[t];
    float y = 0.0f;
    for (int i = 0; i < modes; ++i) {
      const float x = b->a11[i] * b->x[i] + b->a12[i] * b->v[i] + b->b1[i] * ut;
      const float v = b->a21[i] * b->x[i] + b->a22[i] * b->v[i] + b->b2[i] * ut;
      b->x[i] = x;
      b->v[i] = v;
      y += b->g[i] * v;
    }
    out[t] = y;
  }
  return out[LIMIT_BLOCK - 1];
}

double
limit_ns_per_sample(int modes, double rate, double seconds)
{
  static bank b;
  static float u[LIMIT_BLOCK], out[LIMIT_BLOCK];
  if (modes > LIMIT_MAX_MODES)
    modes = LIMIT_MAX_MODES;
  for (int i = 0; i < modes; ++i)
    set_mode(&b, i, 100.0 * pow(100.0, modes > 1 ? (double)i / (modes - 1) : 0),
             1000.0, 1.0 / rate);
  const long blocks = (long)(seconds * rate / LIMIT_BLOCK);
  const long period = (long)(rate / 8.0 / LIMIT_BLOCK);
  volatile float sink = 0.0f;
  double best = INFINITY;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = bench_now();
    for (long k = 0; k < blocks; ++k) {
      u[0] = k % period == 0 ? 1.0f : 0.0f; /* a strike */
      sink += run_block(&b, modes, u, out);
    }
    best = fmin(best, bench_now() - t0);
  }
  (void)sink;
  return 1e9 * best / ((double)blocks * LIMIT_BLOCK);
}
