/* SPDX-License-Identifier: ISC */
/*
 * Output level safety: the loudest corner of each instrument's ranges
 * (heaviest exciter on the lightest object, hardest pressed, fastest, at
 * +80 dB of gain) comes out finite and under the limiter's +6 dBFS
 * ceiling, never at the hard clamp; and below full scale the limiter is
 * transparent: a render 20 dB quieter is the same sound scaled.
 * Usage: test_plugin_level URI
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "limiter.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HARD_CLAMP 16.0f /* the plugins' last line of defence */
/* Two renders 20 dB apart differ by the float rounding of each output
 * sample (2^-24 of it, 6e-8 of the peak, and the quieter one's ten times
 * scaled: 1.2e-7 at worst); achieved 6-7e-8. */
#define TRANSPARENT_WITHIN 5e-7

static void
loudest(host* h, const char* uri)
{
  CHECK(host_set(h, "gain", 80), "no gain port");
  CHECK(host_set(h, "object_mass", 0.01f), "no object_mass port");
  if (!strcmp(uri, "urn:contact:impact")) {
    CHECK(host_set(h, "hammer_mass", 10000), "no hammer_mass port");
    CHECK(host_set(h, "ext_force", 100), "no ext_force port");
    CHECK(host_set(h, "velocity_max", 20), "no velocity_max port");
  } else if (!strcmp(uri, "urn:contact:friction")) {
    CHECK(host_set(h, "normal_force", 200), "no normal_force port");
    CHECK(host_set(h, "bow_velocity", 2), "no bow_velocity port");
  } else {
    CHECK(host_set(h, "ball_mass", 10), "no ball_mass port");
    CHECK(host_set(h, "speed", 5), "no speed port");
  }
}

static render
play(const char* uri, bool extreme, float gain_db)
{
  host* h = host_open(uri, 48000.0, 256);
  if (!h)
    exit(1);
  if (extreme)
    loudest(h, uri);
  else
    CHECK(host_set(h, "gain", gain_db), "no gain port");
  HOST_OK(host_note_on(h, 0, 60, 127));
  HOST_OK(host_note_on(h, 0, 64, 127));
  HOST_OK(host_note_off(h, 24000, 60));
  HOST_OK(host_note_off(h, 24000, 64));
  render r = render_run(h, 1.0, 256);
  host_close(h);
  return r;
}

int
main(int argc, char** argv)
{
  const char* uri = argc > 1 ? argv[1] : "urn:contact:impact";

  render loud = play(uri, true, 0);
  size_t non_finite = 0, clamped = 0;
  double peak = 0.0;
  for (size_t t = 0; t < loud.frames; ++t)
    for (int c = 0; c < 2; ++c) {
      const float x = c ? loud.r[t] : loud.l[t];
      non_finite += !isfinite(x);
      clamped += fabsf(x) >= HARD_CLAMP;
      peak = fmax(peak, fabsf(x));
    }
  printf("%s at its loudest: peak %+.2f dBFS (ceiling %+.2f), %zu samples "
         "at the hard clamp, %zu non-finite\n",
         uri, 20.0 * log10(peak), 20.0 * log10(LIMITER_CEILING), clamped,
         non_finite);
  CHECK(non_finite == 0 && clamped == 0, "the loudest corner is not safe");
  CHECK(peak < LIMITER_CEILING, "the loudest corner passes the ceiling");
  render_free(&loud);

  /* find a gain that keeps the default patch below full scale */
  float gain = 12.0f;
  render a = play(uri, false, gain);
  while (fmax(peak_abs(a.l, a.frames), peak_abs(a.r, a.frames)) >= 0.9 &&
         gain > -40.0f) {
    render_free(&a);
    gain -= 10.0f;
    a = play(uri, false, gain);
  }
  render b = play(uri, false, gain - 20.0f);
  const double scale = pow(10.0, 20.0 / 20.0);
  double diff = 0.0;
  const double peak_a = fmax(peak_abs(a.l, a.frames), peak_abs(a.r, a.frames));
  for (size_t t = 0; t < a.frames; ++t)
    diff = fmax(diff, fmax(fabs(a.l[t] - scale * b.l[t]),
                           fabs(a.r[t] - scale * b.r[t])));
  printf("default patch at %+.0f dB (peak %.3g) against 20 dB less, scaled: "
         "largest difference %.3g of the peak (bar %.1g: float rounding)\n",
         gain, peak_a, diff / peak_a, TRANSPARENT_WITHIN);
  CHECK(peak_a < 1.0 && peak_a > 1e-4, "no level to compare at");
  CHECK(diff <= TRANSPARENT_WITHIN * peak_a,
        "the limiter acts below full scale");
  render_free(&a);
  render_free(&b);
  return check_done("test_plugin_level");
}
