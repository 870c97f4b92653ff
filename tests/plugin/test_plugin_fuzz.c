/* SPDX-License-Identifier: ISC */
/*
 * Bar 6, bad input: 10^5 blocks of random sizes with every control port
 * thrown to its minimum, maximum, NaN, +-inf, far out of range or a random
 * value, and random MIDI including truncated messages, system exclusive,
 * running status and garbage.  No output sample may be NaN or Inf, the
 * output stays bounded: the output_repairs meter (what the guard before
 * the output repaired) stays 0 and no sample reaches the clamp, run()
 * allocates nothing, the bad input is
 * reported through log:log, and afterwards, back at the defaults, the
 * plugin plays exactly like a fresh instance.
 * Usage: test_plugin_fuzz [PLUGIN-URI]
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t
next(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

static double
uniform(void)
{
  return next() / 4294967296.0;
}

static float
wild_value(float lo, float def, float hi)
{
  switch (next() % 10) {
  case 0:
    return lo;
  case 1:
    return hi;
  case 2:
    return NAN;
  case 3:
    return INFINITY;
  case 4:
    return -INFINITY;
  case 5:
    return (next() & 1 ? 1.0f : -1.0f) * 1e30f;
  case 6:
    return def;
  default:
    if (lo > 0.0f) /* log-uniform over a positive range */
      return (float)(lo * pow(hi / lo, uniform()));
    return (float)(lo + (hi - lo) * uniform());
  }
}

/* one random MIDI event, well-formed or not */
static uint32_t
random_midi(uint8_t* msg)
{
  const uint8_t ch = next() & 0x0F;
  switch (next() % 12) {
  case 0:
  case 1:
  case 2: /* note on */
    msg[0] = 0x90 | ch;
    msg[1] = next() & 0x7F;
    msg[2] = next() & 0x7F;
    return 3;
  case 3: /* note off */
    msg[0] = 0x80 | ch;
    msg[1] = next() & 0x7F;
    msg[2] = next() & 0x7F;
    return 3;
  case 4: { /* controllers, the ones the plugin knows among them */
    static const uint8_t cc[] = {1, 7, 64, 120, 121, 123};
    msg[0] = 0xB0 | ch;
    msg[1] = next() & 1 ? cc[next() % 6] : next() & 0x7F;
    msg[2] = next() & 0x7F;
    return 3;
  }
  case 5: /* pitch bend */
    msg[0] = 0xE0 | ch;
    msg[1] = next() & 0x7F;
    msg[2] = next() & 0x7F;
    return 3;
  case 6: /* truncated */
    msg[0] = (uint8_t)(0x80 | (next() % 7) << 4 | ch);
    msg[1] = next() & 0x7F;
    return 1 + next() % 2;
  case 7: { /* system exclusive, terminated or not */
    const uint32_t n = 2 + next() % 20;
    msg[0] = 0xF0;
    for (uint32_t i = 1; i < n; ++i)
      msg[i] = next() & 0x7F;
    if (next() & 1)
      msg[n - 1] = 0xF7;
    return n;
  }
  case 8: /* running status: data bytes only */
    msg[0] = next() & 0x7F;
    msg[1] = next() & 0x7F;
    return 2;
  case 9: /* system real time and common */
    msg[0] = (uint8_t)(0xF1 + next() % 15);
    return 1;
  case 10: /* a status byte where data belongs */
    msg[0] = 0x90 | ch;
    msg[1] = 0x80 | (next() & 0x7F);
    msg[2] = next() & 0xFF;
    return 3;
  default: { /* garbage */
    const uint32_t n = 1 + next() % 16;
    for (uint32_t i = 0; i < n; ++i)
      msg[i] = next() & 0xFF;
    return n;
  }
  }
}

static void
set_defaults(host* h)
{
  for (int i = 0; i < host_n_ports(h); ++i) {
    float lo, def, hi;
    bool out;
    if (host_port_range(h, i, &lo, &def, &hi, &out) && !out)
      host_set_index(h, i, def);
  }
}

int
main(int argc, char** argv)
{
  const char* uri = argc > 1 ? argv[1] : "urn:contact:impact";
  const double rate = 48000.0;
  enum { BLOCKS = 100000, MAX_BLOCK = 2048 };
  const int blocks =
      getenv("FUZZ_BLOCKS") ? atoi(getenv("FUZZ_BLOCKS")) : BLOCKS;
  host* h = host_open(uri, rate, MAX_BLOCK);
  if (!h)
    return 1;
  host_log_quiet(h, true);
  static float l[MAX_BLOCK], r[MAX_BLOCK];
  uint64_t samples = 0, non_finite = 0, clipped = 0;
  double peak = 0.0;

  for (int b = 0; b < blocks; ++b) {
    /* mostly small blocks, now and then a long one */
    const uint32_t n = next() % 50 ? 1 + next() % 256 : 1 + next() % MAX_BLOCK;
    if (b % 2000 == 1000)
      set_defaults(h); /* stretches of sane playing, too */
    if (next() % 20 == 0) {
      const int changes = 1 + (int)(next() % 8);
      for (int c = 0; c < changes; ++c) {
        const int i = (int)(next() % (uint32_t)host_n_ports(h));
        float lo, def, hi;
        bool out;
        if (host_port_range(h, i, &lo, &def, &hi, &out) && !out)
          host_set_index(h, i, wild_value(lo, def, hi));
      }
    }
    const int events = next() % 3 ? 0 : 1 + (int)(next() % 6);
    for (int e = 0; e < events; ++e) {
      uint8_t msg[64];
      const uint32_t size = random_midi(msg);
      HOST_OK(host_midi(h, host_now(h) + next() % n, msg, size));
    }
    host_run(h, n, n, l, r);
    for (uint32_t i = 0; i < n; ++i) {
      const float x[2] = {l[i], r[i]};
      for (int c = 0; c < 2; ++c) {
        if (!isfinite(x[c]))
          ++non_finite;
        else if (fabsf(x[c]) >= 16.0f)
          ++clipped;
        else
          peak = fmax(peak, fabsf(x[c]));
      }
    }
    samples += n;
  }
  const long long allocations = host_run_allocations(h);
  printf("%d blocks, %llu samples: %llu non-finite, %llu at the +-16 safety "
         "limit, peak below it %.3g; %d log messages (%d warnings), last: %s",
         blocks, (unsigned long long)samples, (unsigned long long)non_finite,
         (unsigned long long)clipped, peak, host_log_count(h),
         host_log_warnings(h), host_log_last(h));
  /* The output guard turns NaN into 0 and clamps at +-16, so the output
   * alone cannot show a blow-up: the output_repairs meter counts, before
   * the guard, every sample it repaired and every voice reset because its
   * state went non-finite.  Both stay 0, and nothing reaches the clamp. */
  const int repairs_port = host_port(h, "output_repairs");
  const double repairs = host_get(h, "output_repairs");
  printf("output_repairs meter: %.0f; samples at the clamp: %llu\n", repairs,
         (unsigned long long)clipped);
  CHECK(repairs_port >= 0, "no output_repairs meter");
  CHECK(repairs == 0.0, "the output guard repaired %.0f samples or voices",
        repairs);
  CHECK(clipped == 0, "%llu samples at the +-16 clamp",
        (unsigned long long)clipped);
  CHECK(non_finite == 0, "%llu non-finite output samples",
        (unsigned long long)non_finite);
  CHECK(host_log_warnings(h) > 0, "bad input went unreported");
  if (allocations >= 0) {
    printf("allocations inside run(): %lld\n", allocations);
    CHECK(allocations == 0, "run() allocated %lld times", allocations);
  } else {
    printf("allocations inside run(): not counted in this build\n");
  }

  /* back at the defaults, silenced, it must play like a fresh instance */
  set_defaults(h);
  const uint8_t all_sound_off[3] = {0xB0, 120, 0};
  const uint8_t reset_controllers[3] = {0xB0, 121, 0};
  HOST_OK(host_midi(h, host_now(h), all_sound_off, 3));
  HOST_OK(host_midi(h, host_now(h), reset_controllers, 3));
  host_run(h, (uint64_t)(0.1 * rate), 256, NULL, NULL);
  HOST_OK(host_note_on(h, host_now(h), 60, 100));
  render used = render_run(h, 0.5, 256);
  host* fresh = host_open(uri, rate, MAX_BLOCK);
  host_run(fresh, (uint64_t)(0.1 * rate), 256, NULL, NULL);
  HOST_OK(host_note_on(fresh, host_now(fresh), 60, 100));
  render ref = render_run(fresh, 0.5, 256);
  double diff = 0.0;
  for (size_t i = 0; i < ref.frames; ++i)
    diff = fmax(diff, fabs(used.l[i] - ref.l[i]) + fabs(used.r[i] - ref.r[i]));
  printf("after the fuzzing: largest difference from a fresh instance %.3g "
         "(peak %.3g)\n",
         diff, peak_abs(ref.l, ref.frames));
  CHECK(peak_abs(ref.l, ref.frames) > 1e-3, "the fresh instance is silent");
  CHECK(diff <= 1e-6 * peak_abs(ref.l, ref.frames),
        "the fuzzed instance plays differently from a fresh one");
  render_free(&used);
  render_free(&ref);
  host_close(fresh);
  host_close(h);
  return check_done("test_plugin_fuzz");
}
