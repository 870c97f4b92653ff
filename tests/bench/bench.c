/* SPDX-License-Identifier: ISC */
/*
 * Benchmark of the instruments (not a test: it asserts nothing).  Every
 * figure is printed in ns per output sample and as a ratio to the limit
 * measured in the same run (limit.h: a bare bank of as many modes), since
 * absolute ns vary by 1.5x and more between machines.
 *
 * The object: modes log-spaced from 100 Hz to 10 kHz, q = 1000, with equal
 * gains or gains falling with the mode number.  Impact, DSP level: one
 * voice with 8, 32 and 128 modes struck 8 times a second at random
 * velocities, with a free hammer and with one pushed back onto the object
 * by 5 N (it bounces, then rests between strikes); 16 voices of 32 modes;
 * the free ringing alone.  Friction: one voice rubbing continuously
 * (stick-slip), without and with surface noise, and 16 voices of 32 modes
 * (the share of one core they take).  Rolling: a marble at
 * 0.3 m/s (skipping from bump to bump) and at 0.03 m/s (in contact).
 * Plugin level: run() of the built plugins through lilv playing the same
 * cases with 16 voices of 16 modes, per voice against the DSP level's 16
 * voices of 16 modes; then the same with mode shapes (the free-free bar):
 * at fixed positions, with the position automated every block, and (the
 * rolling ball) rolling across the bar, each against the case without
 * shapes or moves.  Also the Newton iteration histograms.
 *
 * usage: bench [--quick | --seconds S] [--only SECTION] [--no-limit] (--quick:
 * a short smoke run; S seconds per figure, 10 by default; SECTION one of
 * impact, friction, rolling, contacts, plugin: only that one; --no-limit: skip
 * the limit, whose -march=native build valgrind cannot run, for callgrind)
 */
#define _POSIX_C_SOURCE 200809L

#include "friction.h"
#include "host.h"
#include "impact.h"
#include "limit.h"
#include "modal.h"
#include "rolling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 256, MAX_VOICES = 16 };
static const double rate = 48000.0;

typedef struct voice {
  modal_object object;
  impact contact;
} voice;

static uint32_t rng = 12345u;
static double
uniform(void)
{
  rng = rng * 1664525u + 1013904223u;
  return (rng >> 8) / 16777216.0;
}

/* the benchmark's object (limit.h's spectrum), gains equal or falling */
static bool falling;

/* voice k of a chord plays the object 2^(k/12) higher, as the plugin's
 * voices do with pitch tracking (frequencies up, decay times down) */
static bool chord_pitches;

static void
setup(voice* v, int modes, double ratio)
{
  modal_init(&v->object, rate);
  modal_set_count(&v->object, modes);
  for (int i = 0; i < modes; ++i) {
    const double f =
        100.0 * pow(100.0, modes > 1 ? (double)i / (modes - 1) : 0);
    modal_set_mode(&v->object, i, f * ratio,
                   1000.0 / (3.14159265358979 * f) / ratio,
                   falling ? 1.0 / (1.0 + 0.2 * i) : 1.0);
  }
  modal_update(&v->object);
  impact_init(&v->contact, rate);
  impact_set_law(&v->contact,
                 (impact_law){.stiffness = 1e8, .alpha = 1.5, .mu = 0.5});
  impact_set_hammer(&v->contact, 0.01, 0.0);
}

/* ns per sample of `voices` voices for `seconds`, strikes at `per_second`
 * per voice (0: none, the objects just ring), the hammer pushed towards
 * the object by ext_force */
static double
run_dsp(voice* vs, int voices, int modes, double seconds, double per_second,
        double ext_force, newton_stats* stats)
{
  static float l[BLOCK], r[BLOCK];
  for (int i = 0; i < voices; ++i) {
    setup(&vs[i], modes, chord_pitches ? pow(2.0, i / 12.0) : 1.0);
    impact_set_hammer(&vs[i].contact, 0.01, ext_force);
    impact_strike(&vs[i].contact, &vs[i].object, 1.0);
  }
  const long blocks = (long)(seconds * rate / BLOCK);
  const long period =
      per_second > 0 ? (long)(rate / per_second / BLOCK) : blocks + 1;
  double best = INFINITY;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = bench_now();
    for (long b = 0; b < blocks; ++b) {
      for (int i = 0; i < voices; ++i) {
        if ((b + i * 3) % period == 0)
          impact_strike(&vs[i].contact, &vs[i].object, 0.2 + 1.8 * uniform());
        impact_process(&vs[i].contact, &vs[i].object, BLOCK, l, r, 1.0);
      }
    }
    best = fmin(best, bench_now() - t0);
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

/* ns per sample of `voices` rubbing voices (default bristles, f_N = 3 N, bow
 * at 0.1 m/s on the plate-like object; voice k bowed 1 % faster than k - 1,
 * so that they do not run in lockstep) */
static double
run_friction(int voices, int modes, double sigma3, double seconds,
             newton_stats* stats)
{
  static modal_object o[MAX_VOICES];
  static friction fr[MAX_VOICES];
  static float l[BLOCK], r[BLOCK];
  for (int k = 0; k < voices; ++k) {
    voice v;
    setup(&v, modes, chord_pitches ? pow(2.0, k / 12.0) : 1.0);
    o[k] = v.object;
    friction_init(&fr[k], rate, 1);
    friction_law law = fr[k].law;
    law.sigma0 = 1e6;
    law.sigma3 = sigma3;
    friction_set_law(&fr[k], law);
    friction_set_normal_force(&fr[k], 3.0);
    friction_set_motion(&fr[k], 0.1 * pow(1.01, k), 0.0);
  }
  const long blocks = (long)(seconds * rate / BLOCK);
  double best = INFINITY;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = bench_now();
    for (long b = 0; b < blocks; ++b)
      for (int k = 0; k < voices; ++k)
        friction_process(&fr[k], &o[k], BLOCK, l, r, 1.0);
    best = fmin(best, bench_now() - t0);
  }
  *stats = fr[0].stats;
  return 1e9 * best / (blocks * BLOCK);
}

/* ns per sample of `voices` rolling voices: a marble (5 g, radius 8 mm, k
 * 1e9, mu 0.3) at `speed` on the plate-like object, surface 1 um RMS, beta
 * 1.5; *out: the first voice (its contact fraction averaged over the run) */
static double
run_rolling(int voices, int modes, double speed, double seconds, rolling** out)
{
  static modal_object o[MAX_VOICES];
  static rolling r[MAX_VOICES];
  static float l[BLOCK], rr[BLOCK];
  for (int k = 0; k < voices; ++k) {
    voice v;
    setup(&v, modes, chord_pitches ? pow(2.0, k / 12.0) : 1.0);
    o[k] = v.object;
    rolling_init(&r[k], rate, 1 + (unsigned)k);
    rolling_set_law(&r[k],
                    (impact_law){.stiffness = 1e9, .alpha = 1.5, .mu = 0.3});
    rolling_set_ball(&r[k], 0.005, 8e-3, 0.005 * 9.81);
    rolling_set_surface(&r[k], 1.5, 1e-6);
    rolling_set_asymmetry(&r[k], 0.2);
    rolling_place(&r[k], &o[k]);
    rolling_set_speed(&r[k], speed, 0.05);
  }
  const long blocks = (long)(seconds * rate / BLOCK);
  double best = INFINITY, touching = 0.0;
  for (int rep = 0; rep < 3; ++rep) {
    touching = 0.0;
    const double t0 = bench_now();
    for (long b = 0; b < blocks; ++b) {
      for (int k = 0; k < voices; ++k)
        rolling_process(&r[k], &o[k], BLOCK, l, rr, 1.0);
      touching += r[0].contact_fraction;
    }
    best = fmin(best, bench_now() - t0);
  }
  r[0].contact_fraction = touching / blocks;
  *out = &r[0];
  return 1e9 * best / (blocks * BLOCK);
}

/* The DSP level's cases as port values: the object (16 modes; the plugin's
 * voices play it at 16 pitches, untracked it would be one voice), the hammer
 * (the impact ports' defaults, with velocity mapped linearly onto 0 - 2 m/s as
 * the DSP level's strikes are drawn), the rubbing, the marble. */
typedef struct setting {
  const char* symbol;
  float value;
} setting;

static const setting impact_ports[] = {
    {"velocity_max", 2}, {"velocity_curve", 1}, {NULL, 0}};
static const setting friction_ports[] = {
    {"normal_force", 3},        {"bow_velocity", 0.1f},
    {"sigma0", 1e6f},           {"sigma3", 0},
    {"stribeck_velocity", 100}, {"grip", 250},
    {"exciter_mass", 10},       {NULL, 0}};
static const setting rolling_ports[] = {
    {"ball_mass", 0.005f}, {"ball_radius", 8},   {"stiffness", 1e9f},
    {"mu", 0.3f},          {"surface_depth", 1}, {"roughness", 1.5f},
    {"asymmetry", 0.2f},   {"speed", 0.03f},     {NULL, 0}};

static void
set_object(host* h, int modes)
{
  host_set(h, "modes", (float)modes);
  host_set(h, "object_mass", 1.0f);
  host_set(h, "damper", 0.0f);
  host_set(h, "root_note", 60.0f);
  for (int i = 0; i < modes; ++i) {
    char symbol[32];
    const double f = 100.0 * pow(100.0, (double)i / (modes - 1));
    snprintf(symbol, sizeof(symbol), "mode%d_freq", i + 1);
    host_set(h, symbol, (float)f);
    snprintf(symbol, sizeof(symbol), "mode%d_decay", i + 1);
    host_set(h, symbol, (float)(1e3 * 1000.0 / (3.14159265358979 * f)));
    snprintf(symbol, sizeof(symbol), "mode%d_gain", i + 1);
    host_set(h, symbol, 1.0f);
  }
}

/* s, the automated position's sweep across the bar (0.1 to 0.9 of it): a
 * brisk gesture (on the rolling bar's 0.5 m, 0.4 m/s) */
static const double position_sweep_s = 1.0;

/* A plugin set up to play the DSP level's case with 16 modes: `chord`
 * notes struck 8 times a second at the DSP level's random speeds, 0.2 - 2
 * m/s (impact), or held at velocity 127 (friction, rolling); with the place
 * settings `place` (or none) and the position automated (ramp); the strikes'
 * speeds the same draw for every setup. */
static host*
open_placed(const char* uri, const setting* ports, const setting* place,
            bool ramp, int chord, uint64_t frames)
{
  host* h = host_open(uri, rate, BLOCK);
  if (!h)
    return NULL;
  set_object(h, 16);
  for (const setting* p = ports; p->symbol; ++p)
    host_set(h, p->symbol, p->value);
  for (const setting* p = place; p && p->symbol; ++p)
    host_set(h, p->symbol, p->value);
  /* the position automated across the bar and back, a new value at every
   * block, at the same pace however long the run (a sweep as long as the
   * run dragged the bow along at 1.6 of the bar a second in the quick run,
   * at 0.08 in the full one: two costs, as far apart as their speeds) */
  const uint64_t sweep = (uint64_t)(position_sweep_s * rate);
  for (uint64_t k = 0; ramp && k * sweep < 4 * frames; ++k)
    host_ramp(h, "position", k * sweep, (k + 1) * sweep, k % 2 ? 0.9f : 0.1f,
              k % 2 ? 0.1f : 0.9f);
  const bool held = strstr(uri, "impact") == NULL;
  const uint64_t step = held ? 4 * frames : (uint64_t)(rate / 8);
  const uint32_t draw = rng;
  for (uint64_t t = 0; t < 4 * frames; t += step)
    for (int k = 0; k < chord; ++k)
      host_note_on(h, t, 60 + k,
                   held ? 127 : (int)lround(127.0 * (0.1 + 0.9 * uniform())));
  rng = draw;
  return h;
}

/* seconds inside run() for the next `frames` */
static double
timed_run(host* h, uint64_t frames)
{
  const double t0 = host_run_seconds(h);
  host_run(h, frames, BLOCK, NULL, NULL);
  return host_run_seconds(h) - t0;
}

/* ns per sample of a plugin's run() (the time inside it, not the
 * harness's) playing that case, the best of 3 runs */
static double
run_plugin(const char* uri, const setting* ports, int chord, double seconds)
{
  const uint64_t frames = (uint64_t)(seconds * rate);
  host* h = open_placed(uri, ports, NULL, false, chord, frames);
  if (!h)
    return NAN;
  double best = INFINITY;
  for (int rep = 0; rep < 3; ++rep)
    best = fmin(best, timed_run(h, frames));
  host_close(h);
  return 1e9 * best / (double)frames;
}

/* The cost of `place` against `base` (NULL: none), measured in pairs: a
 * short run of each in turn, compare_rounds times, the same notes in both
 * runs of a pair.  Two figures taken minutes apart on a shared machine
 * differ by more than the few per cent they are apart (and so do the
 * limits measured after each); the pair's ratio sees one machine, and the
 * median of the pairs' ignores the ones a burst of other work fell on.
 * ns per sample of the placed plugin (its best run); *relative the median
 * of its cost over the base's. */
enum { compare_rounds = 9 };

static int
by_value(const void* a, const void* b)
{
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double
compare_placed(const char* uri, const setting* ports, const setting* base,
               const setting* place, bool ramp, int chord, double seconds,
               double* relative)
{
  const uint64_t frames = (uint64_t)(seconds * rate);
  /* the rounds together play 3 runs' worth: open_placed() lays out 4 */
  const uint64_t round = 3 * frames / compare_rounds;
  host* plain = open_placed(uri, ports, base, ramp, chord, frames);
  host* placed = open_placed(uri, ports, place, ramp, chord, frames);
  double ratios[compare_rounds], best_placed = INFINITY;
  *relative = NAN;
  for (int k = 0; plain && placed && k < compare_rounds; ++k) {
    const double plain_s = timed_run(plain, round);
    const double placed_s = timed_run(placed, round);
    ratios[k] = placed_s / plain_s;
    best_placed = fmin(best_placed, placed_s);
  }
  if (plain && placed) {
    qsort(ratios, compare_rounds, sizeof(ratios[0]), by_value);
    *relative = ratios[compare_rounds / 2];
  }
  if (plain)
    host_close(plain);
  if (placed)
    host_close(placed);
  return 1e9 * best_placed / (double)round;
}

/* the free-free bar's shapes, struck or touched off centre, heard near an
 * end; the ball across the bar */
static const setting placed[] = {{"shape", 2},
                                 {"position", 0.3f},
                                 {"pickup_position", 0.05f},
                                 {"pickup_position_r", 0.95f},
                                 {NULL, 0}};
static const setting across[] = {{"shape", 2},
                                 {"position", 0.3f},
                                 {"path", 1},
                                 {"object_length", 0.5f},
                                 {"pickup_position", 0.05f},
                                 {"pickup_position_r", 0.95f},
                                 {NULL, 0}};

/* The hammer's own modes and the felt laws, the felt bearing 100 N at 0.1
 * mm as the default Hunt-Crossley law does (k 1e8, alpha 1.5): blows of
 * about the same length.  A hysteretic felt bears that at rest, relaxed:
 * (1 - epsilon) K = 100 N; the same felt with its instant law Hunt-
 * Crossley's, K = 100 N, is half as stiff at rest, its blows some 40 %
 * longer, printed beside it without a bar.  The bar, (16 + M) / 16 + 10
 * % for M exciter modes, is the cost of the modes the contact runs with: it is
 * taken on a mallet, the default rod's modes as a shaft behind a head
 * that barely moves in them (gains `shaft_gain`), whose blows are the
 * rigid hammer's.  Struck at its end (gains 1) the same rod is a soft
 * spring behind the contact: a blow lasts several times longer and
 * chatters, as a steel beater's does; it is printed beside it, without a
 * bar (its cost is the physics').  At 48 kHz the rod's four highest
 * modes, above 0.45 fs, are left out: "16" runs 12.  1.3x for a felt. */
static const double shaft_gain = 0.05;
/* the hysteretic felt (epsilon 0.5, tau_0 20 us) of force K at 0.1 mm */
/* clang-format off */
#define HYSTERETIC_FELT(k)                                                     \
  {{"contact_law", 2}, {"felt_k", k}, {"felt_y0", 0.1f}, {"felt_eta", 0},     \
   {"felt_hysteresis", 0.5f}, {"felt_relaxation", 20}, {NULL, 0}}
/* clang-format on */
static const struct {
  const char* what;
  setting ports[7];
  bool shaft; /* the exciter's gains shaft_gain */
  double bar; /* 0: none */
} contacts[] = {
    {"impact, mallet, 4 shaft modes",
     {{"exciter_modes", 4}, {NULL, 0}},
     true,
     1.35},
    {"impact, mallet, 8 shaft modes",
     {{"exciter_modes", 8}, {NULL, 0}},
     true,
     1.60},
    {"impact, mallet, 16 shaft modes",
     {{"exciter_modes", 16}, {NULL, 0}},
     true,
     2.10},
    {"impact, rod struck at its end, 4 modes",
     {{"exciter_modes", 4}, {NULL, 0}},
     false,
     0},
    {"impact, rod struck at its end, 16 modes",
     {{"exciter_modes", 16}, {NULL, 0}},
     false,
     0},
    {"impact, felt",
     {{"contact_law", 1},
      {"felt_k", 100},
      {"felt_y0", 0.1f},
      {"felt_eta", 0},
      {NULL, 0}},
     false,
     1.3},
    {"impact, hysteretic felt", HYSTERETIC_FELT(200), false, 1.3},
    {"impact, hysteretic felt, K 100 N", HYSTERETIC_FELT(100), false, 0},
};

enum { CONTACT_SETTINGS = 7 + 16 };

/* contacts[i]'s settings, with the shaft's gains */
static void
contact_settings(size_t i, setting* out)
{
  int n = 0, modes = 0;
  for (const setting* p = contacts[i].ports; p->symbol; ++p) {
    out[n++] = *p;
    if (!strcmp(p->symbol, "exciter_modes"))
      modes = (int)p->value;
  }
  static char symbols[16][32];
  for (int m = 0; contacts[i].shaft && m < modes; ++m) {
    snprintf(symbols[m], sizeof(symbols[m]), "exciter_mode%d_gain", m + 1);
    out[n++] = (setting){symbols[m], (float)shaft_gain};
  }
  out[n] = (setting){NULL, 0};
}

/* The limit at each size: measured at the start of the run, and again
 * right after every figure (a quarter of its time, best of 3), which is
 * the one its ratio takes: the machine's speed drifts over a run (by 10 %
 * and more on a shared one), and a figure is only comparable with a limit
 * measured under the same conditions.  The run's range is printed at the
 * end. */
static const int limit_sizes[] = {8, 16, 32, 128};
static double limits[4], limits_low[4], limits_high[4];
static double limit_seconds;

static double
limit_for(int modes)
{
  for (int i = 0; i < 4; ++i)
    if (limit_sizes[i] == modes) {
      if (isnan(limits[i]))
        return NAN;
      const double now = limit_ns_per_sample(modes, rate, limit_seconds);
      limits_low[i] = fmin(limits_low[i], now);
      limits_high[i] = fmax(limits_high[i], now);
      return now;
    }
  return NAN;
}

static void
report(const char* what, int modes, double ns, const char* extra)
{
  const double limit = limit_for(modes);
  printf("  %-40s %7.1f ns  limit %5.1f  ratio %5.2fx%s\n", what, ns, limit,
         ns / limit, extra ? extra : "");
}

static void
print_limits(void)
{
  printf("\nThe limit over the run (ns per sample):");
  for (int i = 0; i < 4; ++i)
    printf(" %.1f-%.1f at %d modes%s", limits_low[i], limits_high[i],
           limit_sizes[i], i < 3 ? "," : "\n");
}

static void
print_histogram(const newton_stats* st)
{
  for (int k = 0; k <= NEWTON_CAP; ++k)
    if (st->histogram[k])
      printf("    %2d: %10llu  %6.2f %%\n", k,
             (unsigned long long)st->histogram[k],
             100.0 * st->histogram[k] / st->solves);
}

/* The hammer's own modes and the felt, each against the rigid hammer with
 * Hunt-Crossley measured alongside. */
static void
two_bodies_and_felt(double seconds)
{
  char extra[160];
  printf("\nTwo bodies and felt: the impact plugin, 16 voices x 16 modes, "
         "per voice (against the rigid hammer, Hunt-Crossley, measured "
         "in pairs: an exciter of M modes at most (16 + M) / 16 + 10 %%, "
         "the felt at most 1.3x):\n");
  for (size_t i = 0; i < sizeof(contacts) / sizeof(contacts[0]); ++i) {
    setting with[CONTACT_SETTINGS];
    contact_settings(i, with);
    double relative;
    const double ns = compare_placed("urn:contact:impact", impact_ports, NULL,
                                     with, false, 16, seconds, &relative) /
                      16;
    if (contacts[i].bar > 0.0)
      snprintf(extra, sizeof(extra), "  (%.2fx the rigid hammer's; bar %.2fx)",
               relative, contacts[i].bar);
    else
      snprintf(extra, sizeof(extra), "  (%.2fx the rigid hammer's)", relative);
    report(contacts[i].what, 16, ns, extra);
  }
}

int
main(int argc, char** argv)
{
  double seconds = 10.0;
  const char* only = NULL;
  bool with_limit = true;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--quick"))
      seconds = 0.5;
    else if (i + 1 < argc && !strcmp(argv[i], "--seconds"))
      seconds = atof(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "--only"))
      only = argv[++i];
    else if (!strcmp(argv[i], "--no-limit"))
      with_limit = false;
    else {
      fprintf(stderr,
              "usage: bench [--quick | --seconds S] [--only "
              "impact|friction|rolling|contacts|plugin] [--no-limit]\n");
      return 2;
    }
  }
#define SECTION(name) (!only || !strcmp(only, name))
  voice* vs = (voice*)aligned_alloc(64, sizeof(voice) * MAX_VOICES);
  if (!vs)
    return 1;
  char extra[160];
  newton_stats stats;

  printf("contact benchmark, %g kHz, blocks of %d, %g s per figure "
         "(best of 3); ratio = ns / the limit's ns at as many modes\n\n",
         rate / 1e3, BLOCK, seconds);
  printf("Limit (a bare bank of modes, limit.h; measured again right after "
         "each figure, for its ratio):\n");
  limit_seconds = 0.25 * seconds;
  for (int i = 0; i < 4; ++i) {
    limits[i] =
        with_limit ? limit_ns_per_sample(limit_sizes[i], rate, seconds) : NAN;
    limits_low[i] = limits_high[i] = limits[i];
    printf("  %3d modes: %6.1f ns/sample\n", limit_sizes[i], limits[i]);
  }

  const int sizes[3] = {8, 32, 128};
  for (int pattern = 0; pattern < 2 && SECTION("impact"); ++pattern) {
    falling = pattern == 1;
    printf("\nImpact (dsp/impact + dsp/modal), %s gains, 8 strikes a second:\n",
           falling ? "falling" : "equal");
    for (int rest = 0; rest < 2; ++rest)
      for (int i = 0; i < 3; ++i) {
        char what[64];
        snprintf(what, sizeof(what), "1 voice, %3d modes%s", sizes[i],
                 rest ? ", resting (5 N)" : "");
        const double ns =
            run_dsp(vs, 1, sizes[i], seconds, 8.0, rest ? 5.0 : 0.0, &stats);
        snprintf(extra, sizeof(extra), "  (%.2f Newton iterations per solve)",
                 (double)stats.iterations / stats.solves);
        report(what, sizes[i], ns, extra);
      }
  }
  falling = false;
  if (SECTION("impact")) {
    const double ns16 = run_dsp(vs, 16, 32, seconds, 8.0, 0.0, &stats);
    snprintf(extra, sizeof(extra), "  (16 voices: %.1f ns)", ns16);
    report("16 voices, 32 modes, per voice", 32, ns16 / 16, extra);
    /* the modes' pass alone: what any contact regime costs at least */
    report("1 voice, 32 modes, ringing only", 32,
           run_dsp(vs, 1, 32, seconds, 0.0, 0.0, NULL), NULL);
    report("1 voice, 128 modes, ringing only", 128,
           run_dsp(vs, 1, 128, seconds, 0.0, 0.0, NULL), NULL);
    printf("  Newton iterations per solve, the 16-voice run (%llu solves, %llu "
           "cap hits):\n",
           (unsigned long long)stats.solves,
           (unsigned long long)stats.cap_hits);
    print_histogram(&stats);
  }

  if (SECTION("friction"))
    printf("\nFriction (dsp/friction + dsp/modal), one voice rubbing:\n");
  for (int i = 0; i < 3 && SECTION("friction"); ++i) {
    const int modes = i == 2 ? 16 : 32;
    const double sigma3 = i == 1 ? 0.02 : 0.0;
    newton_stats fs;
    const double ns = run_friction(1, modes, sigma3, seconds, &fs);
    snprintf(extra, sizeof(extra),
             "  (%.3f Newton iterations per solve, %llu cap hits)",
             (double)fs.iterations / fs.solves,
             (unsigned long long)fs.cap_hits);
    report(i == 1   ? "1 voice, 32 modes, with noise"
           : i == 2 ? "1 voice, 16 modes"
                    : "1 voice, 32 modes",
           modes, ns, extra);
  }

  if (SECTION("friction")) {
    newton_stats fs;
    const double ns = run_friction(MAX_VOICES, 32, 0.0, seconds, &fs);
    snprintf(extra, sizeof(extra),
             "  (16 voices: %.0f ns, %.1f %% of one core at %g kHz)", ns,
             100.0 * ns * 1e-9 * rate, rate / 1e3);
    report("16 voices, 32 modes, per voice", 32, ns / MAX_VOICES, extra);
  }
  if (SECTION("rolling"))
    printf("\nRolling (dsp/rolling + dsp/surface + dsp/modal), a marble:\n");
  for (int i = 0; i < 3 && SECTION("rolling"); ++i) {
    const int modes = i == 2 ? 16 : 32;
    const double speed = i == 0 ? 0.3 : 0.03;
    rolling* r;
    const double ns = run_rolling(1, modes, speed, seconds, &r);
    char what[64];
    snprintf(what, sizeof(what), "1 voice, %d modes, %.2f m/s", modes, speed);
    snprintf(extra, sizeof(extra),
             "  (in contact %.0f %%, %.3f Newton iterations per solve)",
             100.0 * r->contact_fraction,
             (double)r->stats.iterations / r->stats.solves);
    report(what, modes, ns, extra);
  }

  if (SECTION("contacts"))
    two_bodies_and_felt(seconds);
  if (!SECTION("plugin")) {
    print_limits();
    free(vs);
    return 0;
  }
  /* the DSP level's figures to compare with: as many voices and modes */
  newton_stats unused;
  rolling* unused_r;
  chord_pitches = true;
  const double dsp16[3] = {
      run_dsp(vs, MAX_VOICES, 16, seconds, 8.0, 0.0, NULL) / MAX_VOICES,
      run_friction(MAX_VOICES, 16, 0.0, seconds, &unused) / MAX_VOICES,
      run_rolling(MAX_VOICES, 16, 0.03, seconds, &unused_r) / MAX_VOICES};
  chord_pitches = false;
  printf("\nPlugin run() through lilv, 16 voices x 16 modes, per voice "
         "(against the DSP level's 16 voices x 16 modes, a semitone "
         "apart):\n");
  const char* uris[3] = {"urn:contact:impact", "urn:contact:friction",
                         "urn:contact:rolling"};
  const setting* ports[3] = {impact_ports, friction_ports, rolling_ports};
  for (int i = 0; i < 3; ++i) {
    const double ns = run_plugin(uris[i], ports[i], 16, seconds) / 16;
    snprintf(extra, sizeof(extra), "  (DSP %.1f ns: %+.0f %%)", dsp16[i],
             100.0 * (ns / dsp16[i] - 1.0));
    report(strrchr(uris[i], ':') + 1, 16, ns, extra);
  }
  /* each against the plugin without shapes measured alongside it
   * (compare_placed()): the ratio of the two ratios to the limit */
  printf("\nWhere it is struck (the free-free bar's shapes), the same 16 "
         "voices x 16 modes, per voice (against the same without shapes, "
         "measured in pairs: at most +5 %% at fixed positions, +15 %% "
         "automated, 1.3x along a path):\n");
  for (int i = 0; i < 3; ++i) {
    const char* name = strrchr(uris[i], ':') + 1;
    char what[64];
    double relative;
    const double fixed = compare_placed(uris[i], ports[i], NULL, placed, false,
                                        16, seconds, &relative) /
                         16;
    snprintf(what, sizeof(what), "%s, shapes, fixed positions", name);
    snprintf(extra, sizeof(extra), "  (%+.1f %% without shapes)",
             100.0 * (relative - 1.0));
    report(what, 16, fixed, extra);
    const double moving = compare_placed(uris[i], ports[i], NULL, placed, true,
                                         16, seconds, &relative) /
                          16;
    snprintf(what, sizeof(what), "%s, position ramp every block", name);
    snprintf(extra, sizeof(extra), "  (%+.1f %% without shapes)",
             100.0 * (relative - 1.0));
    report(what, 16, moving, extra);
    if (strstr(name, "rolling")) {
      /* against the ball held at the path's start, measured alongside */
      const double path = compare_placed(uris[i], ports[i], placed, across,
                                         false, 16, seconds, &relative) /
                          16;
      snprintf(what, sizeof(what), "%s, path across the bar", name);
      snprintf(extra, sizeof(extra), "  (%.2fx at the fixed point)", relative);
      report(what, 16, path, extra);
    }
  }
  print_limits();
  free(vs);
  return 0;
}
