/* SPDX-License-Identifier: ISC */
/*
 * Any block size from 1 to 8192 renders the same sound (events are placed
 * on their frame, whatever the blocks), and any sample rate from 22.05 to
 * 384 kHz plays the object at its pitch.
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>

static render
play(double rate, uint32_t block)
{
  host* h = host_open("urn:contact:impact", rate, 8192);
  if (!h)
    exit(1);
  /* notes at odd frames, a re-strike, a bend and a note-off */
  host_note_on(h, 0, 60, 90);
  host_note_on(h, 777, 64, 70);
  host_note_on(h, 5003, 60, 127);
  const uint8_t bend[3] = {0xE0, 0x00, 0x50};
  host_midi(h, 9001, bend, 3);
  host_note_off(h, 12000, 64);
  host_note_on(h, 16384, 67, 100);
  render r = render_run(h, 0.5, block);
  host_close(h);
  return r;
}

int
main(void)
{
  render ref = play(48000.0, 256);
  const double peak = peak_abs(ref.l, ref.frames);
  const uint32_t blocks[] = {1, 2, 7, 64, 100, 255, 1000, 4096, 8192};
  for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); ++b) {
    render r = play(48000.0, blocks[b]);
    double diff = 0.0;
    for (size_t i = 0; i < ref.frames; ++i)
      diff = fmax(diff, fmax(fabs(r.l[i] - ref.l[i]), fabs(r.r[i] - ref.r[i])));
    printf("block %4u: largest difference from block 256: %.3g of peak\n",
           blocks[b], diff / peak);
    CHECK(diff <= 1e-6 * peak, "block %u renders differently", blocks[b]);
    render_free(&r);
  }
  render_free(&ref);

  const double rates[] = {22050, 32000,  44100,  48000,  88200,
                          96000, 176400, 192000, 352800, 384000};
  for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); ++i) {
    host* h = host_open("urn:contact:impact", rates[i], 1024);
    const double f1 = host_get(h, "mode1_freq");
    host_note_on(h, 0, 60, 100);
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
