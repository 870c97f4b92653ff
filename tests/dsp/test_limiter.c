/* SPDX-License-Identifier: ISC */
/*
 * The output's safety limiter (dsp/limiter.h): bit-transparent below full
 * scale, a +20 dBFS blow held under its +6 dBFS ceiling with a level that
 * still rises with the input, back to transparent after the release, blind
 * to non-finite samples, and the same whatever the block size.
 */
#include "check.h"
#include "limiter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000.0
enum { N = 48000 };

static float in_l[N], in_r[N], out_l[N], out_r[N];

static void
tone(double amplitude, double freq)
{
  for (int t = 0; t < N; ++t) {
    in_l[t] =
        (float)(amplitude * sin(2.0 * 3.14159265358979 * freq * t / RATE));
    in_r[t] = (float)(amplitude *
                      sin(2.0 * 3.14159265358979 * 1.5 * freq * t / RATE));
  }
}

static double
run(output_limiter* lim, uint32_t block)
{
  memcpy(out_l, in_l, sizeof(in_l));
  memcpy(out_r, in_r, sizeof(in_r));
  for (uint32_t t = 0; t < N; t += block)
    limiter_process(lim, out_l + t, out_r + t, N - t < block ? N - t : block);
  double peak = 0.0;
  for (int t = 0; t < N; ++t)
    peak = fmax(peak, fmax(fabsf(out_l[t]), fabsf(out_r[t])));
  return peak;
}

static bool
unchanged(void)
{
  return !memcmp(in_l, out_l, sizeof(in_l)) &&
         !memcmp(in_r, out_r, sizeof(in_r));
}

int
main(void)
{
  output_limiter lim;
  limiter_init(&lim, RATE);

  /* just below full scale: every bit passes */
  tone(0.999, 220.0);
  run(&lim, 256);
  CHECK(unchanged(), "a signal below 0 dBFS was changed");
  printf("  ok  0.999 FS tone passes bit for bit: %s\n",
         unchanged() ? "yes" : "no");

  /* louder inputs come out louder, but never at the ceiling */
  double last = 0.0;
  const double levels_db[] = {1, 3, 6, 10, 20, 40, 60, 90};
  for (size_t i = 0; i < sizeof(levels_db) / sizeof(levels_db[0]); ++i) {
    limiter_reset(&lim);
    tone(pow(10.0, levels_db[i] / 20.0), 220.0);
    const double peak = run(&lim, 256);
    printf("  %+3.0f dBFS in: peak out %+.3f dBFS (ceiling %+.2f)\n",
           levels_db[i], 20.0 * log10(peak), 20.0 * log10(LIMITER_CEILING));
    CHECK(peak < LIMITER_CEILING, "%+g dBFS reaches the ceiling", levels_db[i]);
    CHECK(peak > last, "%+g dBFS comes out no louder than less", levels_db[i]);
    last = peak;
  }

  /* after a +20 dBFS blow, quiet playing is untouched again once the hold
   * and about 7 release times (e^-7 of +20 dB is below 0 dB) have passed */
  limiter_reset(&lim);
  tone(10.0, 220.0);
  run(&lim, 256);
  tone(0.5, 330.0);
  run(&lim, 256); /* 1 s: hold 0.02 s + ln(10) release times = 0.48 s */
  run(&lim, 256);
  CHECK(unchanged(), "still limiting a quiet signal 1 s after a blow");

  /* a steady level above full scale (a +10 dBFS square wave, peaks of the
   * same height at every sample) gets one steady gain: the hold restarts
   * at each peak as high as the envelope, nothing ripples */
  limiter_reset(&lim);
  for (int t = 0; t < N; ++t)
    in_l[t] = in_r[t] = (t / 50) % 2 ? 3.1622777f : -3.1622777f;
  run(&lim, 256);
  bool steady = true;
  for (int t = 1; t < N; ++t)
    steady = steady && fabsf(out_l[t]) == fabsf(out_l[0]);
  printf("  %s +10 dBFS square wave: one steady level %+.3f dBFS\n",
         steady ? "ok  " : "FAIL", 20.0 * log10(fabsf(out_l[0])));
  CHECK(steady, "a steady overload ripples");

  /* a non-finite sample is left to the sanitizer, not held */
  limiter_reset(&lim);
  tone(0.5, 220.0);
  in_l[100] = INFINITY;
  in_r[200] = NAN;
  run(&lim, 256);
  in_l[100] = out_l[100] = 0.0f;
  in_r[200] = out_r[200] = 0.0f;
  CHECK(unchanged(), "a non-finite sample made the limiter act");

  /* the same at any block size */
  tone(8.0, 110.0);
  limiter_reset(&lim);
  run(&lim, 256);
  static float ref_l[N];
  memcpy(ref_l, out_l, sizeof(ref_l));
  const uint32_t blocks[] = {1, 7, 64, 8192};
  for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); ++b) {
    limiter_reset(&lim);
    run(&lim, blocks[b]);
    CHECK(!memcmp(ref_l, out_l, sizeof(ref_l)), "block %u differs", blocks[b]);
  }
  return check_done("test_limiter");
}
