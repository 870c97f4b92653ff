/* SPDX-License-Identifier: ISC */
/*
 * Bar 4: the rendered modes ring at the table's frequency (0.1 %) and 1/e
 * decay time (3 %) for modes up to 0.45 Fs, at 44.1, 48 and 96 kHz; modes
 * at or above 0.45 Fs are silent.
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>

/* strike a one-mode object and measure what rings */
static void
one_mode(double rate, double freq, double decay)
{
  host* h = host_open("urn:contact:impact", rate, 512);
  if (!h)
    exit(1);
  HOST_OK(host_set(h, "pitch_track", 0.0f));
  HOST_OK(host_set(h, "modes", 1.0f));
  HOST_OK(host_set(h, "mode1_freq", (float)freq));
  HOST_OK(host_set(h, "mode1_decay", (float)(1e3 * decay))); /* ms */
  HOST_OK(host_set(h, "mode1_gain", 1.0f));
  HOST_OK(host_note_on(h, 0, 60, 100));
  const double span = fmin(2.0 * decay, 3.0); /* about 17 dB of decay */
  const double start = 0.01;
  render r = render_run(h, start + span, 512);
  const size_t at = (size_t)(start * rate), len = r.frames - at;
  char label[96];
  snprintf(label, sizeof(label), "%g kHz: %.1f Hz frequency", rate / 1e3, freq);
  check_rel(label, peak_frequency(r.l + at, len, rate, freq, 0.01), freq, 1e-3);
  /* frames of a few periods and at most a tenth of the decay */
  size_t frame = (size_t)fmin(decay * rate / 10.0, 16384.0);
  if (frame < (size_t)(8.0 * rate / freq))
    frame = (size_t)(8.0 * rate / freq);
  snprintf(label, sizeof(label), "%g kHz: %.1f Hz decay %g s", rate / 1e3, freq,
           decay);
  check_rel(label, decay_time(r.l + at, len, rate, freq, frame), decay, 0.03);
  render_free(&r);
  host_close(h);
}

int
main(void)
{
  const double rates[3] = {44100.0, 48000.0, 96000.0};
  for (int i = 0; i < 3; ++i) {
    const double fs = rates[i];
    const double freqs[] = {30.0,   100.0,   440.0,    1000.0,   3000.0,
                            8000.0, 15000.0, 0.3 * fs, 0.4 * fs, 0.449 * fs};
    const double decays[] = {3.0, 1.5, 0.8,  0.05, 0.4,
                             0.2, 0.1, 0.08, 0.05, 0.02};
    for (size_t j = 0; j < sizeof(freqs) / sizeof(freqs[0]); ++j)
      one_mode(fs, freqs[j], decays[j]);

    /* at or above 0.45 Fs: disabled */
    host* h = host_open("urn:contact:impact", fs, 512);
    HOST_OK(host_set(h, "pitch_track", 0.0f));
    HOST_OK(host_set(h, "modes", 1.0f));
    HOST_OK(host_set(h, "mode1_freq", (float)(0.45 * fs)));
    HOST_OK(host_note_on(h, 0, 60, 127));
    render r = render_run(h, 0.2, 512);
    printf("%g kHz: mode at 0.45 Fs, peak %g\n", fs / 1e3,
           peak_abs(r.l, r.frames));
    CHECK(peak_abs(r.l, r.frames) == 0.0, "a mode at 0.45 Fs sounds");
    render_free(&r);
    host_close(h);
  }
  return check_done("test_plugin_modes");
}
