/* SPDX-License-Identifier: ISC */
/*
 * The felt law through the plugin (issue 24, bar 4): a felt stiffens as it
 * is compressed ([borin] eq 1), so a soft blow is dark and a hard one
 * bright.  The felt-piano preset struck at velocities 20 and 127: the
 * strike's spectral centroid (its first CENTROID_WINDOW_S) rises by at
 * least FELT_RISE_MIN, and by more than with Hunt-Crossley of the same
 * static exponent: the power law k x^alpha tangent to the felt at the soft
 * blow's peak compression (the same force and the same exponent d ln f /
 * d ln x there), which misses only the felt's stiffening beyond it.
 * Printed side by side.
 */
#include "analysis.h"
#include "check.h"
#include "felt.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>

static const double rate = 48000.0;
#define FELT_RISE_MIN     1.5 /* the bar */
#define CENTROID_WINDOW_S 0.1 /* the strike, before the decay weighs in */
#define PRESET            "urn:contact:preset:impact-felt-piano"

typedef struct strike_result {
  double centroid; /* Hz */
  double peak;     /* N, the peak_force meter */
} strike_result;

/* A strike at `velocity`, the preset's felt replaced by Hunt-Crossley of k
 * and alpha when k > 0 */
static strike_result
strike(int velocity, double k, double alpha)
{
  host* h = host_open("urn:contact:impact", rate, 256);
  CHECK(h && host_load_preset(h, PRESET), "no preset %s", PRESET);
  if (!h)
    return (strike_result){0.0, 0.0};
  if (k > 0.0) {
    host_set(h, "contact_law", 0);
    host_set(h, "stiffness", (float)k);
    host_set(h, "alpha", (float)alpha);
  }
  host_run(h, 256, 256, NULL, NULL);
  host_note_on(h, host_now(h), 60, velocity);
  render r = render_run(h, CENTROID_WINDOW_S, 256);
  const strike_result s = {spectral_centroid(r.l, r.frames, rate),
                           host_get(h, "peak_force")};
  render_free(&r);
  host_close(h);
  return s;
}

int
main(void)
{
  host* h = host_open("urn:contact:impact", rate, 256);
  CHECK(h && host_load_preset(h, PRESET), "no preset %s", PRESET);
  if (!h)
    return check_done("test_plugin_felt");
  CHECK(host_get(h, "contact_law") == 1, "%s strikes with no felt", PRESET);
  const felt_law felt = {host_get(h, "felt_k"), 1e-3 * host_get(h, "felt_y0"),
                         host_get(h, "felt_eta"), 0.0, 0.0};
  host_close(h);

  const strike_result soft = strike(20, 0.0, 0.0);
  const strike_result hard = strike(127, 0.0, 0.0);
  /* the tangent power law at the soft blow's peak compression */
  const double x = felt_static_compression(&felt, soft.peak);
  const double alpha = x * felt_slope(&felt, x) / soft.peak;
  const double k = soft.peak / pow(x, alpha);
  const strike_result hc_soft = strike(20, k, alpha);
  const strike_result hc_hard = strike(127, k, alpha);

  const double felt_rise = hard.centroid / soft.centroid;
  const double hc_rise = hc_hard.centroid / hc_soft.centroid;
  printf("%s, centroid of the first %.0f ms:\n", PRESET,
         1e3 * CENTROID_WINDOW_S);
  printf("  felt (K %.3g N at %.3g mm, eta %.2f): velocity 20 %5.0f Hz "
         "(%.3g N), 127 %5.0f Hz (%.3g N): x%.2f\n",
         felt.k, 1e3 * felt.y0, felt.eta, soft.centroid, soft.peak,
         hard.centroid, hard.peak, felt_rise);
  printf("  Hunt-Crossley tangent at %.3g mm (k %.3g, alpha %.2f): velocity "
         "20 %5.0f Hz (%.3g N), 127 %5.0f Hz (%.3g N): x%.2f\n",
         1e3 * x, k, alpha, hc_soft.centroid, hc_soft.peak, hc_hard.centroid,
         hc_hard.peak, hc_rise);
  CHECK(fabs(hc_soft.peak / soft.peak - 1.0) < 0.05,
        "the tangent law's soft blow is no like for like (%.3g N, %.3g N)",
        hc_soft.peak, soft.peak);
  CHECK(felt_rise >= FELT_RISE_MIN, "the felt's centroid rose x%.2f",
        felt_rise);
  CHECK(felt_rise > hc_rise,
        "the felt brightens no more than Hunt-Crossley (x%.2f, x%.2f)",
        felt_rise, hc_rise);
  return check_done("test_plugin_felt");
}
