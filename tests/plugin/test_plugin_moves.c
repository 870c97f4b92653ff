/* SPDX-License-Identifier: ISC */
/*
 * Moving where the object is touched and heard (dsp/place.h), on every
 * instrument with the free-free bar's shapes:
 * 1. no clicks: a `position` ramp, a `position` jump and a
 *    `pickup_position` ramp and jump during a sounding note (a struck bar
 * ringing, a bowed bar, a rolling ball) keep the output's largest step between
 *    neighbouring samples below twice its largest in the same note left
 *    where it is, at the move's start or at its end (a pickup moved
 *    toward the high modes' antinodes hears a brighter note: its steps
 *    grow, and that is no click);
 * 2. rolling across: a ball rolling across a free-free bar at constant
 *    speed (path "across") makes the level of mode 1 dip by at least
 *    20 dB as it crosses the mode's nodal points, 0.2242 L and 0.7758 L,
 *    at the times the speed predicts within 10 %.
 * 3. blocks: a ball rolling across, and a bowed note moved by CC74,
 *    render bit-identically in blocks of 256, 64 and 37 frames (the
 *    weights move on a grid of the sample clock).
 * The moves glide over a few ms; without the glide a jump of the pickup
 * steps the output by the whole change of its weights at once.
 */
#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"
#include "shape.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const double rate = 48000.0;
static const double pi = 3.14159265358979323846;

/* a note of `uri` on the free-free bar (its own modes, the shape port on
 * it), with the instrument's defaults otherwise */
static host*
bar(const char* uri)
{
  host* h = host_open(uri, rate, 256);
  if (!h)
    exit(1);
  HOST_OK(host_set(h, "shape", (float)SHAPE_BAR_FREE));
  HOST_OK(host_set(h, "position", 0.3f));
  HOST_OK(host_set(h, "pickup_position", 0.1f));
  HOST_OK(host_set(h, "pitch_track", 0.0f));
  return h;
}

typedef enum move {
  STILL,
  STILL_THERE,       /* the position at the end of the moves */
  STILL_HEARD_THERE, /* the pickup at the end of its ramp */
  POSITION_RAMP,
  POSITION_JUMP,
  PICKUP_RAMP,
  PICKUP_JUMP
} move;
static const char* const move_names[] = {
    "left where it is", "struck there", "heard there", "position ramp",
    "position jump",    "pickup ramp",  "pickup jump"};

/* the note, with the move at 0.3 s; the largest step from 0.25 s to 0.6 s */
static double
largest_step(const char* uri, move m)
{
  host* h = bar(uri);
  const uint64_t at = (uint64_t)(0.3 * rate), to = (uint64_t)(0.4 * rate);
  if (m == STILL_THERE)
    HOST_OK(host_set(h, "position", 0.65f));
  if (m == STILL_HEARD_THERE)
    HOST_OK(host_set(h, "pickup_position", 0.45f));
  HOST_OK(host_note_on(h, 0, 60, 100));
  if (m == POSITION_RAMP)
    HOST_OK(host_ramp(h, "position", at, to, 0.3f, 0.65f));
  else if (m == POSITION_JUMP)
    HOST_OK(host_ramp(h, "position", at, at, 0.65f, 0.65f));
  else if (m == PICKUP_RAMP)
    HOST_OK(host_ramp(h, "pickup_position", at, to, 0.1f, 0.45f));
  else if (m == PICKUP_JUMP)
    HOST_OK(host_ramp(h, "pickup_position", at, at, 0.45f, 0.45f));
  render r = render_run(h, 0.6, 64);
  const size_t from = (size_t)(0.25 * rate);
  const double step =
      fmax(max_step(r.l, from, r.frames), max_step(r.r, from, r.frames));
  render_free(&r);
  host_close(h);
  return step;
}

static void
no_clicks(void)
{
  const double click_ratio = 2.0; /* the bar */
  const char* uris[3] = {"urn:contact:impact", "urn:contact:friction",
                         "urn:contact:rolling"};
  for (int i = 0; i < 3; ++i) {
    const double here = largest_step(uris[i], STILL);
    const double there = largest_step(uris[i], STILL_THERE);
    const double heard_there = largest_step(uris[i], STILL_HEARD_THERE);
    CHECK(here > 0.0, "%s: silent", uris[i]);
    for (int m = POSITION_RAMP; m <= PICKUP_JUMP; ++m) {
      const double still = fmax(here, m >= PICKUP_RAMP ? heard_there : there);
      const double step = largest_step(uris[i], (move)m);
      printf("%s, %s: largest step %.3g, x%.2f of the still note's %.3g "
             "(at most x%.1f)\n",
             uris[i], move_names[m], step, step / still, still, click_ratio);
      CHECK(step < click_ratio * still, "%s, %s: a click (x%.2f)", uris[i],
            move_names[m], step / still);
    }
  }
}

/* the level of a sinusoid at f in windows of `window` s every `hop` s */
static int
level_at(const float* x, size_t n, double f, double window, double hop,
         double* level, int max)
{
  const size_t w = (size_t)(window * rate), step = (size_t)(hop * rate);
  int k = 0;
  for (size_t at = 0; at + w <= n && k < max; at += step, ++k) {
    double complex sum = 0.0;
    for (size_t t = 0; t < w; ++t) {
      /* a Hann window: the neighbouring modes' leakage far below */
      const double hann = 0.5 - 0.5 * cos(2.0 * pi * (t + 0.5) / w);
      sum += hann * x[at + t] * cexp(-I * 2.0 * pi * f * (at + t) / rate);
    }
    level[k] = cabs(sum);
  }
  return k;
}

static void
rolling_across(void)
{
  const double dip_db = 20.0, time_tol = 0.10;
  const double length = 0.5, speed = 0.1, start = 0.05; /* m, m/s, of L */
  const double f1 = 220.0;
  /* the bar's first 6 modes, each ringing 30 ms (wood's q ~ 20) so that
   * its level follows where the ball drives it */
  host* h = host_open("urn:contact:rolling", rate, 256);
  if (!h)
    exit(1);
  HOST_OK(host_set(h, "shape", (float)SHAPE_BAR_FREE));
  HOST_OK(host_set(h, "path", 1.0f)); /* across */
  HOST_OK(host_set(h, "object_length", (float)length));
  HOST_OK(host_set(h, "position", (float)start));
  HOST_OK(host_set(h, "pickup_position", 0.0f)); /* a free end */
  HOST_OK(host_set(h, "pitch_track", 0.0f));
  HOST_OK(host_set(h, "speed", (float)speed));
  HOST_OK(host_set(h, "modes", 6.0f));
  for (int i = 0; i < 6; ++i) {
    char sym[32];
    snprintf(sym, sizeof(sym), "mode%d_freq", i + 1);
    HOST_OK(host_set(h, sym, (float)(f1 * shape_ratio(SHAPE_BAR_FREE, i))));
    snprintf(sym, sizeof(sym), "mode%d_decay", i + 1);
    HOST_OK(host_set(h, sym, 30.0f));
    snprintf(sym, sizeof(sym), "mode%d_gain", i + 1);
    HOST_OK(host_set(h, sym, 1.0f));
  }
  HOST_OK(host_note_on(h, 0, 60, 127));
  const double seconds = 4.5;
  render r = render_run(h, seconds, 256);
  host_close(h);

  enum { MAX = 1000 };
  static double level[MAX];
  const double window = 0.04, hop = 0.01;
  const int n = level_at(r.l, r.frames, f1, window, hop, level, MAX);
  render_free(&r);
  /* the level where the ball is at x: windows centred there */
  const double nodes[2] = {0.22416, 0.77584};
  /* the reference: the ball over the middle, where |phi_1| is 0.6 of its
   * largest (a free end's), well away from both nodes */
  const double t_mid = (0.5 - start) * length / speed;
  const int k_mid = (int)((t_mid - 0.5 * window) / hop);
  double ref = 0.0;
  for (int k = k_mid - 10; k <= k_mid + 10; ++k)
    ref = fmax(ref, level[k]);
  for (int j = 0; j < 2; ++j) {
    const double t_node = (nodes[j] - start) * length / speed;
    /* the quietest window within 30 % of the predicted time */
    double lowest = INFINITY, t_lowest = 0.0;
    for (int k = 0; k < n; ++k) {
      const double t = k * hop + 0.5 * window;
      if (fabs(t - t_node) < 0.3 * t_node && level[k] < lowest) {
        lowest = level[k];
        t_lowest = t;
      }
    }
    const double dip = 20.0 * log10(ref / lowest);
    printf("ball across the bar: mode 1 dips %.1f dB (at least %.0f) at "
           "%.3f s, the node x = %.4f L predicts %.3f s (%+.1f %%, within "
           "%.0f %%)\n",
           dip, dip_db, t_lowest, nodes[j], t_node,
           100.0 * (t_lowest / t_node - 1.0), 100.0 * time_tol);
    CHECK(dip >= dip_db, "mode 1 dips only %.1f dB at node %d", dip, j + 1);
    CHECK(fabs(t_lowest / t_node - 1.0) <= time_tol,
          "the dip at %.3f s, predicted %.3f s", t_lowest, t_node);
  }
}

/* 3. the same moves whatever the blocks */
static render
moving(const char* uri, uint32_t block)
{
  host* h = bar(uri);
  if (host_port(h, "path") >= 0) /* the rolling ball's: across */
    HOST_OK(host_set(h, "path", 1.0f));
  HOST_OK(host_note_on(h, 0, 60, 100));
  const uint8_t cc74[3] = {0xB0, 74, 90};
  HOST_OK(host_midi(h, 5000, cc74, 3));
  const uint8_t back[3] = {0xB0, 74, 20};
  HOST_OK(host_midi(h, 12345, back, 3));
  render r = render_run(h, 0.5, block);
  host_close(h);
  return r;
}

static void
blocks(void)
{
  const char* uris[2] = {"urn:contact:friction", "urn:contact:rolling"};
  const uint32_t sizes[3] = {256, 64, 37};
  for (int i = 0; i < 2; ++i) {
    render a = moving(uris[i], sizes[0]);
    for (int k = 1; k < 3; ++k) {
      render b = moving(uris[i], sizes[k]);
      size_t differ = 0;
      for (size_t t = 0; t < a.frames; ++t)
        differ += a.l[t] != b.l[t] || a.r[t] != b.r[t];
      printf("%s moving, blocks of %u against %u: %zu samples differ\n",
             uris[i], sizes[k], sizes[0], differ);
      CHECK(differ == 0, "%s: blocks of %u change %zu samples", uris[i],
            sizes[k], differ);
      render_free(&b);
    }
    render_free(&a);
  }
}

/* 4. the shape switched on a sounding note takes effect at once (within
 * an update), the note ringing on */
static void
shape_switch(void)
{
  render r[2];
  for (int k = 0; k < 2; ++k) {
    host* h = host_open("urn:contact:friction", rate, 256);
    if (!h)
      exit(1);
    HOST_OK(host_set(h, "pickup_position", 0.1f));
    HOST_OK(host_note_on(h, 0, 60, 100));
    if (k)
      HOST_OK(host_ramp(h, "shape", 9600, 9600, (float)SHAPE_BAR_FREE,
                        (float)SHAPE_BAR_FREE));
    r[k] = render_run(h, 0.3, 256);
    host_close(h);
  }
  size_t first = r[0].frames;
  for (size_t t = 0; t < r[0].frames && first == r[0].frames; ++t)
    if (r[0].l[t] != r[1].l[t])
      first = t;
  printf("the shape switched at frame 9600 of a bowed note: the sound "
         "changes from frame %zu\n",
         first);
  CHECK(first >= 9600 && first < 9600 + 256 + 8,
        "a shape switched on a sounding note took effect at frame %zu", first);
  render_free(&r[0]);
  render_free(&r[1]);
}

int
main(void)
{
  no_clicks();
  rolling_across();
  blocks();
  shape_switch();
  return check_done("test_plugin_moves");
}
