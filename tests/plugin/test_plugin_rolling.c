/* SPDX-License-Identifier: ISC */
/*
 * The rolling instrument through the plugin binary (the marble-on-a-table
 * preset):
 * 1. momentum balance as the meters read it: over 10 s of rolling the
 *    contact_force meter averages the ball's weight m g within 1 %, and
 *    channel pressure p presses with (1 + p) m g;
 * 2. speed 0: the ball rests on the table, silent (below -120 dBFS), with
 *    contact_fraction 1 and the force m g;
 * 3. note-off: the ball slows to a stop within the stop time, its last
 *    bounces die within a second, then it rests (contact_fraction 1) and
 *    the table falls silent.
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double rate = 48000.0;

static host*
marble(void)
{
  host* h = host_open("urn:contact:rolling", rate, 256);
  if (!h || !host_load_preset(h, "urn:contact:preset:rolling-marble-table"))
    exit(1);
  return h;
}

/* the meters averaged over `seconds` of blocks of 256 */
static void
meters(host* h, double seconds, double* force, double* fraction)
{
  const int blocks = (int)(seconds * rate / 256);
  *force = *fraction = 0.0;
  for (int b = 0; b < blocks; ++b) {
    host_run(h, 256, 256, NULL, NULL);
    *force += host_get(h, "contact_force");
    *fraction += host_get(h, "contact_fraction");
  }
  *force /= blocks;
  *fraction /= blocks;
}

int
main(void)
{
  /* 1. the weight, as the meter reads it */
  {
    host* h = marble();
    const double weight = host_get(h, "ball_mass") * host_get(h, "gravity");
    host_note_on(h, 0, 45, 127);
    double force, fraction;
    meters(h, 1.0, &force, &fraction);
    meters(h, 10.0, &force, &fraction);
    printf("10 s of rolling: in contact %.0f %% of the time\n",
           100.0 * fraction);
    check_rel("contact_force meter / m g", force / weight, 1.0, 0.01);
    const uint8_t pressure[2] = {0xD0, 64}; /* p = 64/127 */
    host_midi(h, host_now(h), pressure, 2);
    meters(h, 1.0, &force, &fraction);
    meters(h, 10.0, &force, &fraction);
    check_rel("pressed: contact_force / (1 + p) m g",
              force / ((1.0 + 64.0 / 127.0) * weight), 1.0, 0.01);
    host_close(h);
  }

  /* 2. speed 0 */
  {
    host* h = marble();
    host_set(h, "speed", 0.0f);
    const double weight = host_get(h, "ball_mass") * host_get(h, "gravity");
    host_note_on(h, 0, 45, 127);
    render r = render_run(h, 2.0, 256);
    const double peak = peak_abs(r.l, r.frames);
    printf("speed 0: peak %.0f dBFS, contact_fraction %g, contact_force / m g "
           "%.9f\n",
           20.0 * log10(peak + 1e-300), host_get(h, "contact_fraction"),
           host_get(h, "contact_force") / weight);
    CHECK(peak < 1e-6, "a ball at rest sounds (%g)", peak);
    CHECK(host_get(h, "contact_fraction") == 1.0f, "a ball at rest bounces");
    check_rel("resting contact_force / m g", host_get(h, "contact_force"),
              weight, 1e-6);
    render_free(&r);
    host_close(h);
  }

  /* 3. note-off: to a stop, then silence */
  {
    host* h = marble();
    host_set(h, "stop_time", 0.5f);
    host_note_on(h, 0, 45, 127);
    host_note_off(h, (uint64_t)(1.0 * rate), 45);
    render r = render_run(h, 2.5, 256);
    const double rolling =
        rms(r.l + (size_t)(0.5 * rate), (size_t)(0.5 * rate));
    render_free(&r);
    double force, fraction;
    meters(h, 0.5, &force, &fraction);
    printf("1.5 s after note-off (stop time 0.5 s, 1 s for the last bounces): "
           "in contact %.0f %% of the time\n",
           100.0 * fraction);
    CHECK(fraction == 1.0, "the ball still bounces after its stop time");
    r = render_run(h, 12.0, 256);
    const double last = rms(r.l + r.frames - (size_t)rate, (size_t)rate);
    printf("12 s later the table is %.0f dB below the rolling\n",
           20.0 * log10(last / rolling));
    CHECK(last < 1e-5 * rolling, "the table still sounds (%g of the rolling)",
          last / rolling);
    render_free(&r);
    host_close(h);
  }
  return check_done("test_plugin_rolling");
}
