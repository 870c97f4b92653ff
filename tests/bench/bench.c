/* SPDX-License-Identifier: ISC */
/*
 * Benchmark of the instruments (not a test: it asserts nothing).
 *
 * Impact, DSP level: one voice (hammer + object) with 8, 32 and 128 modes,
 * and 16 voices of 32 modes, at 48 kHz in blocks of 256, struck 8 times a
 * second at random velocities (a fast drum roll) and ringing in between;
 * also the free ringing alone.  Friction, DSP level: one voice rubbing
 * continuously (stick-slip) with 8 and 32 modes, without and with surface
 * noise.  Rolling, DSP level: a marble rolling on the plate at 0.3 m/s
 * (bouncing from bump to bump) and at 0.03 m/s (in contact).  Plugin
 * level: run() of the built plugins through lilv with 16 modes.  Prints ns
 * per sample and the Newton iteration histograms.
 *
 * usage: bench [--quick]   (--quick: a short smoke run)
 */
#define _POSIX_C_SOURCE 200809L

#include "friction.h"
#include "host.h"
#include "impact.h"
#include "modal.h"
#include "rolling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BLOCK = 256, MAX_VOICES = 16 };
static const double rate = 48000.0;

typedef struct voice {
  modal_object object;
  impact contact;
} voice;

static double
now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static uint32_t rng = 12345u;
static double
uniform(void)
{
  rng = rng * 1664525u + 1013904223u;
  return (rng >> 8) / 16777216.0;
}

/* a plate-like spectrum: modes spread from 120 Hz to 0.4 Fs, decays that
 * shorten with frequency (q about 1000) */
static void
setup(voice* v, int modes)
{
  modal_init(&v->object, rate);
  modal_set_count(&v->object, modes);
  for (int i = 0; i < modes; ++i) {
    const double f = 120.0 * pow(0.4 * rate / 120.0, (double)i / modes);
    modal_set_mode(&v->object, i, f * (1.0 + 0.01 * uniform()),
                   1000.0 / (3.14159265358979 * f), 1.0 / (1.0 + 0.2 * i));
  }
  modal_update(&v->object);
  impact_init(&v->contact, rate);
  impact_set_law(&v->contact, (impact_law){1e8, 1.5, 0.5});
  impact_set_hammer(&v->contact, 0.01, 0.0);
}

/* ns per sample of `voices` voices for `seconds`, strikes at `per_second`
 * per voice (0: none, the objects just ring) */
static double
run_dsp(voice* vs, int voices, int modes, double seconds, double per_second,
        newton_stats* stats)
{
  static float l[BLOCK], r[BLOCK];
  for (int i = 0; i < voices; ++i) {
    setup(&vs[i], modes);
    impact_strike(&vs[i].contact, &vs[i].object, 1.0);
  }
  const long blocks = (long)(seconds * rate / BLOCK);
  const long period =
      per_second > 0 ? (long)(rate / per_second / BLOCK) : blocks + 1;
  double best = INFINITY;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = now();
    for (long b = 0; b < blocks; ++b) {
      for (int i = 0; i < voices; ++i) {
        if ((b + i * 3) % period == 0)
          impact_strike(&vs[i].contact, &vs[i].object, 0.2 + 1.8 * uniform());
        impact_process(&vs[i].contact, &vs[i].object, BLOCK, l, r, 1.0);
      }
    }
    best = fmin(best, now() - t0);
  }
  if (stats) {
    memset(stats, 0, sizeof(*stats));
    for (int i = 0; i < voices; ++i) {
      const newton_stats* s = &vs[i].contact.stats;
      stats->solves += s->solves;
      stats->iterations += s->iterations;
      stats->cap_hits += s->cap_hits;
      for (int k = 0; k <= NEWTON_CAP; ++k)
        stats->histogram[k] += s->histogram[k];
    }
  }
  return 1e9 * best / (blocks * BLOCK);
}

/* ns per sample of one rubbing voice (default bristles, f_N = 3 N, bow at
 * 0.1 m/s on the plate-like object) */
static double
run_friction(int modes, double sigma3, double seconds, newton_stats* stats)
{
  static modal_object o;
  static friction fr;
  static float l[BLOCK], r[BLOCK];
  voice v;
  setup(&v, modes);
  o = v.object;
  friction_init(&fr, rate, 1);
  friction_law law = fr.law;
  law.sigma0 = 1e6;
  law.sigma3 = sigma3;
  friction_set_law(&fr, law);
  friction_set_normal_force(&fr, 3.0);
  friction_set_motion(&fr, 0.1, 0.0);
  const long blocks = (long)(seconds * rate / BLOCK);
  double best = INFINITY;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = now();
    for (long b = 0; b < blocks; ++b)
      friction_process(&fr, &o, BLOCK, l, r, 1.0);
    best = fmin(best, now() - t0);
  }
  *stats = fr.stats;
  return 1e9 * best / (blocks * BLOCK);
}

/* ns per sample of one rolling voice: a marble (5 g, radius 8 mm, k 1e9,
 * mu 0.3) at `speed` on the plate-like object, surface 1 um RMS, beta 1.5 */
static double
run_rolling(int modes, double speed, double seconds, rolling** out)
{
  static modal_object o;
  static rolling r;
  static float l[BLOCK], rr[BLOCK];
  voice v;
  setup(&v, modes);
  o = v.object;
  rolling_init(&r, rate, 1);
  rolling_set_law(&r, (impact_law){1e9, 1.5, 0.3});
  rolling_set_ball(&r, 0.005, 8e-3, 0.005 * 9.81);
  rolling_set_surface(&r, 1.5, 1e-6);
  rolling_set_asymmetry(&r, 0.2);
  rolling_place(&r, &o);
  rolling_set_speed(&r, speed, 0.05);
  const long blocks = (long)(seconds * rate / BLOCK);
  double best = INFINITY, touching = 0.0;
  for (int rep = 0; rep < 3; ++rep) {
    touching = 0.0;
    const double t0 = now();
    for (long b = 0; b < blocks; ++b) {
      rolling_process(&r, &o, BLOCK, l, rr, 1.0);
      touching += r.contact_fraction;
    }
    best = fmin(best, now() - t0);
  }
  r.contact_fraction = touching / blocks;
  *out = &r;
  return 1e9 * best / (blocks * BLOCK);
}

/* ns per sample of a plugin's run(), notes of `chord` keys 8 times a
 * second (held for the friction and rolling instruments) */
static double
run_plugin(const char* uri, int chord, double seconds)
{
  host* h = host_open(uri, rate, BLOCK);
  if (!h)
    return NAN;
  host_set(h, "modes", 16.0f);
  host_set(h, "damper", 0.0f);
  const uint64_t frames = (uint64_t)(seconds * rate);
  const bool held = strstr(uri, "impact") == NULL;
  const uint64_t step = held ? 4 * frames : (uint64_t)(rate / 8);
  for (uint64_t t = 0; t < 4 * frames; t += step)
    for (int k = 0; k < chord; ++k)
      host_note_on(h, t, 48 + 2 * k, 40 + (int)(80 * uniform()));
  double best = INFINITY;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = now();
    host_run(h, frames, BLOCK, NULL, NULL);
    best = fmin(best, now() - t0);
  }
  host_close(h);
  return 1e9 * best / (double)frames;
}

int
main(int argc, char** argv)
{
  const bool quick = argc > 1 && !strcmp(argv[1], "--quick");
  const double seconds = quick ? 0.5 : 10.0;
  voice* vs = (voice*)aligned_alloc(64, sizeof(voice) * MAX_VOICES);
  if (!vs)
    return 1;
  newton_stats stats;

  printf("contact benchmark, %g kHz, blocks of %d, %g s per figure "
         "(best of 3)\n\n",
         rate / 1e3, BLOCK, seconds);
  printf("Impact (dsp/impact + dsp/modal), 8 strikes per second per voice:\n");
  const int sizes[3] = {8, 32, 128};
  for (int i = 0; i < 3; ++i) {
    const double ns = run_dsp(vs, 1, sizes[i], seconds, 8.0, &stats);
    printf("  1 voice,  %3d modes: %7.1f ns/sample  (%.2f Newton iterations "
           "per solve)\n",
           sizes[i], ns, (double)stats.iterations / stats.solves);
  }
  const double ns16 = run_dsp(vs, 16, 32, seconds, 8.0, &stats);
  printf("  16 voices, 32 modes: %7.1f ns/sample  (%.1f per voice)\n", ns16,
         ns16 / 16);
  printf("  1 voice,   32 modes, ringing only: %5.1f ns/sample\n",
         run_dsp(vs, 1, 32, seconds, 0.0, NULL));

  printf("\nNewton iterations per solve, 16 voices x 32 modes run (%llu "
         "solves, %llu cap hits):\n",
         (unsigned long long)stats.solves, (unsigned long long)stats.cap_hits);
  for (int k = 0; k <= NEWTON_CAP; ++k)
    if (stats.histogram[k])
      printf("  %2d: %10llu  %6.2f %%\n", k,
             (unsigned long long)stats.histogram[k],
             100.0 * stats.histogram[k] / stats.solves);

  printf("\nFriction (dsp/friction + dsp/modal), one voice rubbing:\n");
  for (int i = 0; i < 4; ++i) {
    const int modes = i < 2 ? 8 : 32;
    const double sigma3 = i % 2 ? 0.05 : 0.0;
    newton_stats fs;
    const double ns = run_friction(modes, sigma3, seconds, &fs);
    printf("  1 voice, %3d modes%s %6.1f ns/sample  (%.3f Newton iterations "
           "per solve, %llu cap hits)\n",
           modes, sigma3 > 0.0 ? ", with noise:" : ":            ", ns,
           (double)fs.iterations / fs.solves, (unsigned long long)fs.cap_hits);
  }

  printf("\nRolling (dsp/rolling + dsp/surface + dsp/modal), a marble on a "
         "plate:\n");
  for (int i = 0; i < 4; ++i) {
    const int modes = i % 2 ? 32 : 8;
    const double speed = i < 2 ? 0.3 : 0.03;
    rolling* r;
    const double ns = run_rolling(modes, speed, seconds, &r);
    printf("  1 voice, %3d modes, %.2f m/s: %6.1f ns/sample  (in contact "
           "%.0f %%, %.3f Newton iterations per solve, %llu cap hits)\n",
           modes, speed, ns, 100.0 * r->contact_fraction,
           (double)r->stats.iterations / r->stats.solves,
           (unsigned long long)r->stats.cap_hits);
  }

  printf("\nPlugin run() through lilv, 16 modes:\n");
  printf("  impact, 1 note 8 times a second:     %7.1f ns/sample\n",
         run_plugin("urn:contact:impact", 1, seconds));
  printf("  impact, 16-note chords:              %7.1f ns/sample\n",
         run_plugin("urn:contact:impact", 16, seconds));
  printf("  friction, 1 note held:               %7.1f ns/sample\n",
         run_plugin("urn:contact:friction", 1, seconds));
  printf("  friction, 16 notes held:             %7.1f ns/sample\n",
         run_plugin("urn:contact:friction", 16, seconds));
  printf("  rolling, 1 note held:                 %7.1f ns/sample\n",
         run_plugin("urn:contact:rolling", 1, seconds));
  printf("  rolling, 16 notes held:               %7.1f ns/sample\n",
         run_plugin("urn:contact:rolling", 16, seconds));
  free(vs);
  return 0;
}
