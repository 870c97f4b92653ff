/* SPDX-License-Identifier: ISC */
/*
 * Every instrument renders the same sound at any block size from 1 to 8192
 * (events are placed on their frame, and automation steps on a grid of
 * frames at which the host splits its blocks, as a sample-accurate host
 * does), and any sample rate from 22.05 to 384 kHz plays the object at its
 * pitch.
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { AUTOMATION_GRID = 32 }; /* frames between automation steps */

static void
cc(host* h, uint64_t frame, int number, int value)
{
  const uint8_t msg[3] = {0xB0, (uint8_t)number, (uint8_t)value};
  CHECK(host_midi(h, frame, msg, 3), "CC%d not queued", number);
}

static void
bend(host* h, uint64_t frame, int value)
{
  const uint8_t msg[3] = {0xE0, (uint8_t)(value & 0x7F),
                          (uint8_t)(value >> 7 & 0x7F)};
  CHECK(host_midi(h, frame, msg, 3), "bend not queued");
}

static void
pressure(host* h, uint64_t frame, int value)
{
  const uint8_t msg[2] = {0xD0, (uint8_t)value};
  CHECK(host_midi(h, frame, msg, 2), "pressure not queued");
}

/* notes at odd frames, re-strikes, releases, a bend, pressure, the mod
 * wheel and ramps of a physical control and of the gain, per instrument */
static render
play(const char* uri, double rate, uint32_t block)
{
  host* h = host_open(uri, rate, 8192);
  if (!h)
    exit(1);
  host_automation_grid(h, AUTOMATION_GRID);
  CHECK(host_ramp(h, "gain", 20000, 30000, 12, 6), "no gain port");
  if (!strcmp(uri, "urn:contact:impact")) {
    /* a hammer pressed on the object bounces and comes to rest: flights
     * of every length */
    CHECK(host_set(h, "ext_force", 2), "no ext_force port");
    CHECK(host_ramp(h, "hammer_mass", 9000, 15000, 10, 40), "no hammer_mass");
    HOST_OK(host_note_on(h, 0, 60, 90));
    HOST_OK(host_note_on(h, 777, 64, 70));
    HOST_OK(host_note_on(h, 5003, 60, 127));
    bend(h, 9001, 0x2800);
    HOST_OK(host_note_off(h, 12000, 64));
    HOST_OK(host_note_on(h, 16384, 67, 100));
  } else if (!strcmp(uri, "urn:contact:friction")) {
    CHECK(host_ramp(h, "normal_force", 6000, 18000, 3, 6), "no normal_force");
    HOST_OK(host_note_on(h, 0, 60, 100));
    HOST_OK(host_note_on(h, 3001, 67, 80));
    pressure(h, 8000, 60);
    cc(h, 10007, 1, 90);
    bend(h, 14000, 0x1800);
    HOST_OK(host_note_off(h, 24000, 60));
    HOST_OK(host_note_off(h, 30001, 67));
  } else {
    CHECK(host_ramp(h, "speed", 4000, 16000, 0.1f, 0.5f), "no speed port");
    HOST_OK(host_note_on(h, 0, 60, 110));
    HOST_OK(host_note_on(h, 2999, 72, 90));
    pressure(h, 7001, 80);
    cc(h, 11000, 1, 64);
    bend(h, 13000, 0x3000);
    HOST_OK(host_note_off(h, 20000, 72));
    HOST_OK(host_note_off(h, 26003, 60));
  }
  render r = render_run(h, 0.8, block);
  host_close(h);
  return r;
}

int
main(void)
{
  const char* uris[] = {"urn:contact:impact", "urn:contact:friction",
                        "urn:contact:rolling"};
  const uint32_t blocks[] = {1, 7, 64, 1024, 8192};
  for (size_t u = 0; u < sizeof(uris) / sizeof(uris[0]); ++u) {
    render ref = play(uris[u], 48000.0, 256);
    const double peak =
        fmax(peak_abs(ref.l, ref.frames), peak_abs(ref.r, ref.frames));
    CHECK(peak > 1e-3, "%s: silent", uris[u]);
    for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); ++b) {
      render r = play(uris[u], 48000.0, blocks[b]);
      double diff = 0.0;
      for (size_t i = 0; i < ref.frames; ++i)
        diff =
            fmax(diff, fmax(fabs(r.l[i] - ref.l[i]), fabs(r.r[i] - ref.r[i])));
      printf("%s, block %4u: largest difference from block 256 %.3g "
             "(peak %.3g; bar: bit-identical)\n",
             uris[u], blocks[b], diff, peak);
      CHECK(diff == 0.0, "%s: block %u renders differently", uris[u],
            blocks[b]);
      render_free(&r);
    }
    render_free(&ref);
  }

  const double rates[] = {22050, 32000,  44100,  48000,  88200,
                          96000, 176400, 192000, 352800, 384000};
  for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); ++i) {
    host* h = host_open("urn:contact:impact", rates[i], 1024);
    const double f1 = host_get(h, "mode1_freq");
    HOST_OK(host_note_on(h, 0, 60, 100));
    render r = render_run(h, 0.6, 1024);
    bool finite = true;
    for (size_t t = 0; t < r.frames; ++t)
      finite = finite && isfinite(r.l[t]) && isfinite(r.r[t]);
    const size_t at = (size_t)(0.05 * rates[i]);
    char label[64];
    snprintf(label, sizeof(label), "%g Hz: fundamental", rates[i]);
    CHECK(finite, "%g Hz: non-finite output", rates[i]);
    check_rel(label,
              peak_frequency(r.l + at, r.frames - at, rates[i], f1, 0.01), f1,
              1e-3);
    CHECK(peak_abs(r.l, r.frames) > 0.01, "%g Hz: silent", rates[i]);
    render_free(&r);
    host_close(h);
  }
  return check_done("test_plugin_blocks");
}
