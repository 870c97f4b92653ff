/* SPDX-License-Identifier: ISC */
/*
 * Settling a quiet voice at rest (impact_settle, rolling_settle) changes
 * nothing a listener could hear, now or later:
 * 1. once the unrest bound is below the audible floor, settling leaves the
 *    voice with no unrest, and the settled state is an equilibrium of the
 *    discrete system: run on, it stays silent;
 * 2. a strike (a hammer pressed on a bar by 1 N) or a roll (a marble
 *    stopped on a table) started from the settled state sounds like the
 *    same one started from the unsettled state: they differ by less than
 *    the floor the settling was allowed at, up to where the hammer lands
 *    again (how a rattling hammer lands depends on any perturbation, so
 *    there on the level: the RMS of the second within 0.1 dB);
 * 3. the unrest bound holds: no later free output of the unsettled voice
 *    exceeds the unrest it had.
 */
#include "check.h"
#include "impact.h"
#include "rolling.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double rate = 48000.0;
#define FLOOR 1e-6 /* the plugins' audible floor at 0 dB gain */
enum { CHUNK = 256, LONG_RUN = 48000 };
/* the first contact and flight of the hammer (a 1 m/s strike leaves it
 * in the air for about 10 ms under 100 m/s^2) */
#define FIRST_CONTACT_S 0.005

static float l[LONG_RUN], r[LONG_RUN];

static void
table(modal_object* o)
{
  modal_init(o, rate);
  modal_set_count(o, 6);
  modal_set_mass(o, 1.0);
  for (int i = 0; i < 6; ++i) {
    const double f = 180.0 * pow(2.7, i);
    modal_set_mode(o, i, f, 120.0 / (3.14159265358979 * f), 1.0 / (1 + i));
  }
  modal_update(o);
}

static double
peak(int frames)
{
  double p = 0.0;
  for (int t = 0; t < frames; ++t)
    p = fmax(p, fmax(fabsf(l[t]), fabsf(r[t])));
  return p;
}

static double
rms(const float* x, int frames)
{
  double s = 0.0;
  for (int t = 0; t < frames; ++t)
    s += (double)x[t] * x[t];
  return sqrt(s / frames);
}

static double
largest_difference(const float* a, const float* b, int frames)
{
  double d = 0.0;
  for (int t = 0; t < frames; ++t)
    d = fmax(d, fabs((double)a[t] - b[t]));
  return d;
}

/* An interactor on its object, seen through what the checks need. */
typedef struct subject {
  const char* name;
  void (*process)(void* dsp, modal_object* o, int frames, float* l, float* r);
  double (*unrest)(const void* dsp, const modal_object* o);
  void (*settle)(void* dsp, modal_object* o);
  /* what is left once settled: the rounding of the rest state, as unrest
   * and as output over the next second (bars 6-8x what is achieved) */
  double settled_bar, still_bar;
} subject;

static void
silence(int frames)
{
  for (int t = 0; t < frames; ++t)
    l[t] = r[t] = 0.0f;
}

/* Run until the unrest is below FLOOR, then checks 3 and 1 on copies;
 * leaves *settled_dsp, *settled_o settled (of dsp_size bytes). */
static void
check_rest(const subject* s, void* dsp, modal_object* o, size_t dsp_size,
           void* settled_dsp, modal_object* settled_o)
{
  long frames = 0;
  double unrest = INFINITY;
  while (frames < 120 * (long)rate && !((unrest = s->unrest(dsp, o)) < FLOOR)) {
    s->process(dsp, o, CHUNK, l, r);
    frames += CHUNK;
  }
  printf("%s: unrest %.3g after %.2f s\n", s->name, unrest, frames / rate);
  CHECK(unrest < FLOOR, "%s never came to rest", s->name);

  /* 3: the bound holds over the next second of the unsettled voice */
  memcpy(settled_dsp, dsp, dsp_size);
  *settled_o = *o;
  silence(LONG_RUN);
  s->process(settled_dsp, settled_o, LONG_RUN, l, r);
  printf("  unsettled, the next second peaks at %.3g (bound %.3g)\n",
         peak(LONG_RUN), unrest);
  CHECK(peak(LONG_RUN) <= unrest, "%s: the output beat the unrest bound",
        s->name);

  /* 1 */
  memcpy(settled_dsp, dsp, dsp_size);
  *settled_o = *o;
  s->settle(settled_dsp, settled_o);
  const double settled = s->unrest(settled_dsp, settled_o);
  silence(LONG_RUN);
  s->process(settled_dsp, settled_o, LONG_RUN, l, r);
  printf("  settled: unrest %.3g, the next second peaks at %.3g\n", settled,
         peak(LONG_RUN));
  printf("  (bars: unrest %.1g, output %.1g)\n", s->settled_bar, s->still_bar);
  CHECK(settled < s->settled_bar, "%s settled, unrest %.3g remains", s->name,
        settled);
  CHECK(peak(LONG_RUN) < s->still_bar, "%s moves once settled", s->name);
}

static void
impact_run(void* dsp, modal_object* o, int frames, float* out_l, float* out_r)
{
  impact_process((impact*)dsp, o, frames, out_l, out_r, 1.0);
}

static double
impact_rest(const void* dsp, const modal_object* o)
{
  return impact_unrest((const impact*)dsp, o);
}

static void
impact_put_at_rest(void* dsp, modal_object* o)
{
  impact_settle((impact*)dsp, o);
}

static void
rolling_run(void* dsp, modal_object* o, int frames, float* out_l, float* out_r)
{
  rolling_process((rolling*)dsp, o, frames, out_l, out_r, 1.0);
}

static double
rolling_rest(const void* dsp, const modal_object* o)
{
  const rolling* ro = (const rolling*)dsp;
  return ro->speed == 0.0 ? rolling_unrest(ro, o) : INFINITY;
}

static void
rolling_put_at_rest(void* dsp, modal_object* o)
{
  rolling_settle((rolling*)dsp, o);
}

static void
test_impact(void)
{
  /* achieved: unrest 8.8e-11, output 3.6e-21 */
  static const subject hammer = {"impact, a hammer pressed by 1 N",
                                 impact_run,
                                 impact_rest,
                                 impact_put_at_rest,
                                 6e-10,
                                 3e-20};
  static modal_object o, o2;
  static impact im, im2;
  static float later[LONG_RUN];
  table(&o);
  impact_init(&im, rate);
  impact_set_law(&im, (impact_law){.stiffness = 1e8, .alpha = 1.5, .mu = 0.5});
  impact_set_hammer(&im, 0.01, 1.0);
  impact_strike(&im, &o, 1.0);
  check_rest(&hammer, &im, &o, sizeof(im), &im2, &o2);

  /* 2 */
  impact_strike(&im, &o, 1.0);
  impact_strike(&im2, &o2, 1.0);
  silence(LONG_RUN);
  for (int t = 0; t < LONG_RUN; ++t)
    later[t] = 0.0f;
  impact_process(&im, &o, LONG_RUN, later, r, 1.0);
  impact_process(&im2, &o2, LONG_RUN, l, r, 1.0);
  const int first = (int)(FIRST_CONTACT_S * rate);
  const double diff = largest_difference(l, later, first);
  const double level_db = 20.0 * log10(rms(l, LONG_RUN) / rms(later, LONG_RUN));
  printf("  a strike from either: peak %.3g, largest difference %.3g over "
         "the first %.0f ms (floor %.1g), RMS of the second %+.4f dB\n",
         peak(LONG_RUN), diff, 1e3 * FIRST_CONTACT_S, FLOOR, level_db);
  CHECK(diff < FLOOR, "settling changed the next strike by %.3g", diff);
  CHECK(fabs(level_db) < 0.1, "settling changed the strike's level");
}

static void
test_rolling(void)
{
  /* achieved: unrest 3.9e-12, output 6.7e-19 */
  static const subject ball = {"rolling, a marble stopped on a table",
                               rolling_run,
                               rolling_rest,
                               rolling_put_at_rest,
                               3e-11,
                               5e-18};
  static modal_object o, o2;
  static rolling ro, ro2;
  static float later[LONG_RUN];
  table(&o);
  rolling_init(&ro, rate, 7);
  rolling_set_law(&ro, (impact_law){.stiffness = 1e9, .alpha = 1.5, .mu = 0.3});
  rolling_set_ball(&ro, 0.005, 8e-3, 0.005 * 9.81);
  rolling_set_surface(&ro, 1.5, 1e-6);
  rolling_place(&ro, &o);
  rolling_set_speed(&ro, 0.05, 0.0);
  rolling_process(&ro, &o, LONG_RUN, l, r, 1.0);
  rolling_set_speed(&ro, 0.0, 0.2);
  check_rest(&ball, &ro, &o, sizeof(ro), &ro2, &o2);

  /* 2 */
  rolling_set_speed(&ro, 0.05, 0.0);
  rolling_set_speed(&ro2, 0.05, 0.0);
  silence(LONG_RUN);
  for (int t = 0; t < LONG_RUN; ++t)
    later[t] = 0.0f;
  rolling_process(&ro, &o, LONG_RUN / 4, later, r, 1.0);
  rolling_process(&ro2, &o2, LONG_RUN / 4, l, r, 1.0);
  const double diff = largest_difference(l, later, LONG_RUN / 4);
  printf("  rolling on from either: peak %.3g, largest difference %.3g "
         "(floor %.1g)\n",
         peak(LONG_RUN / 4), diff, FLOOR);
  CHECK(diff < FLOOR, "settling changed the roll by %.3g", diff);
}

int
main(void)
{
  test_impact();
  test_rolling();
  return check_done("test_settle");
}
