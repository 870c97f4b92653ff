/* SPDX-License-Identifier: ISC */
#include "keymap_fit.h"

#include <math.h>
#include <stdlib.h>

/* one partial of one zone, in the track of zones it was followed along */
typedef struct {
  int track;
  double u;      /* octaves of its zone's root from its track's mean */
  double x;      /* its track's mean log2 rho */
  double decay;  /* log2 t_e from its track's mean */
  double ratio;  /* log2 rho from its track's mean */
  double weight; /* its energy over its zone's strongest */
} point;

enum { MAX_POINTS = MODAL_KEYMAP_MAX_ZONES * MODAL_MAX_MODES };

static int
by_value(const void* a, const void* b)
{
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* what a partial rings: its energy gain^2 t_e (the gain is its onset
 * amplitude), as the analysis's root note weighs it */
static double
energy(const modal_table* t, int i)
{
  return t->gain[i] * t->gain[i] * t->decay[i];
}

static double
strongest(const modal_table* t)
{
  double e = 0.0;
  for (int i = 0; i < t->count; ++i)
    e = fmax(e, energy(t, i));
  return e;
}

static bool
takes_part(const modal_table* t, int i)
{
  return energy(t, i) >= strongest(t) * pow(10.0, -KEYMAP_FIT_RANGE_DB / 10.0);
}

static double
rho_octaves(const modal_table* t, int i)
{
  return log2(t->freq[i] / modal_keymap_note_hz(t->root));
}

/* the partial of t taking part nearest in log2 rho to x, or -1 */
static int
nearest(const modal_table* t, double x, double* distance)
{
  int best = -1;
  *distance = INFINITY;
  for (int i = 0; i < t->count; ++i) {
    const double d = fabs(rho_octaves(t, i) - x);
    if (takes_part(t, i) && d < *distance) {
      *distance = d;
      best = i;
    }
  }
  return best;
}

/* a's partial i's match in b (each the other's nearest, close enough), or
 * -1 */
static int
match_of(const modal_table* a, int i, const modal_table* b)
{
  double d, back;
  const int j = nearest(b, rho_octaves(a, i), &d);
  if (j < 0 || d > KEYMAP_FIT_MATCH_OCTAVES ||
      nearest(a, rho_octaves(b, j), &back) != i)
    return -1;
  return j;
}

/* y = b1 u1 + b2 u2 over the points (u2 = x u; b2 held at 0 unless
 * with_b2), the regressors' sign and the field given by `which` (0: the
 * decay, whose law is -(P0 + P1 x) u; 1: the ratio, D x u), by weighted
 * least squares reweighted ([huber], KEYMAP_FIT_HUBER robust deviations):
 * a partial followed by mistake, or a mallet's click taken for one, must
 * not set the law of every other.  The weighted rms residual. */
static double
robust_fit(const point* p, int n, int which, bool with_b2, double* b1,
           double* b2, double* scratch)
{
  *b1 = *b2 = 0.0;
  double scale = INFINITY, rms = 0.0;
  for (int iter = 0; iter < KEYMAP_FIT_ITERATIONS; ++iter) {
    double s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0, sw = 0, se = 0;
    for (int i = 0; i < n; ++i) {
      const double u1 = which == 0 ? -p[i].u : p[i].x * p[i].u;
      const double u2 = -p[i].x * p[i].u;
      const double y = which == 0 ? p[i].decay : p[i].ratio;
      const double r = y - *b1 * u1 - *b2 * u2;
      const double z = fabs(r) / scale;
      const double w =
          p[i].weight * (z <= KEYMAP_FIT_HUBER ? 1.0 : KEYMAP_FIT_HUBER / z);
      s11 += w * u1 * u1, s12 += w * u1 * u2, s22 += w * u2 * u2;
      s1y += w * u1 * y, s2y += w * u2 * y;
      sw += p[i].weight, se += p[i].weight * r * r;
    }
    rms = sqrt(se / sw);
    const double det = s11 * s22 - s12 * s12;
    if (with_b2 && det > 1e-12 * s11 * s22) {
      *b1 = (s22 * s1y - s12 * s2y) / det;
      *b2 = (s11 * s2y - s12 * s1y) / det;
    } else {
      *b1 = s11 > 0.0 ? s1y / s11 : 0.0;
      *b2 = 0.0;
    }
    /* the residuals' robust scale: 1.4826 times their median absolute */
    for (int i = 0; i < n; ++i) {
      const double u1 = which == 0 ? -p[i].u : p[i].x * p[i].u;
      const double y = which == 0 ? p[i].decay : p[i].ratio;
      scratch[i] = fabs(y - *b1 * u1 + *b2 * p[i].x * p[i].u);
    }
    qsort(scratch, (size_t)n, sizeof(double), by_value);
    scale = fmax(1.4826 * scratch[n / 2], 1e-6);
  }
  return rms;
}

void
keymap_fit_law(const modal_keymap* map, modal_keymap_law* law,
               keymap_fit_report* report)
{
  *law = modal_keymap_constant_q();
  if (report)
    *report = (keymap_fit_report){0, 0, 0.0, 0.0, false};
  int tracks = 0, n = 0, longest = 0; /* zones of the longest track */
  /* tracks: a partial followed from zone to zone, by matches */
  static const int none = -1;
  int* track = malloc(sizeof(int) * MAX_POINTS); /* [zone][mode] */
  point* p = malloc(sizeof(point) * MAX_POINTS);
  double* scratch = malloc(sizeof(double) * MAX_POINTS);
  if (!track || !p || !scratch)
    goto done;
  for (int k = 0; k < map->zones; ++k)
    for (int i = 0; i < MODAL_MAX_MODES; ++i)
      track[k * MODAL_MAX_MODES + i] = none;
  for (int k = 0; k + 1 < map->zones; ++k) {
    const modal_table *a = &map->zone[k], *b = &map->zone[k + 1];
    for (int i = 0; i < a->count; ++i) {
      if (!takes_part(a, i))
        continue;
      const int j = match_of(a, i, b);
      if (j < 0)
        continue;
      int* t = &track[k * MODAL_MAX_MODES + i];
      if (*t == none)
        *t = tracks++;
      track[(k + 1) * MODAL_MAX_MODES + j] = *t;
    }
  }
  /* each track's points about its means (weighed by energy) */
  for (int t = 0; t < tracks; ++t) {
    const int first = n;
    double sw = 0, so = 0, sx = 0, sd = 0;
    for (int k = 0; k < map->zones; ++k) {
      const modal_table* z = &map->zone[k];
      for (int i = 0; i < z->count; ++i)
        if (track[k * MODAL_MAX_MODES + i] == t) {
          const double w = energy(z, i) / strongest(z);
          p[n++] = (point){t,
                           z->root / 12.0,
                           rho_octaves(z, i),
                           log2(z->decay[i]),
                           rho_octaves(z, i),
                           w};
          sw += w, so += w * z->root / 12.0, sx += w * rho_octaves(z, i);
          sd += w * log2(z->decay[i]);
        }
    }
    if (n - first > longest)
      longest = n - first;
    for (int i = first; i < n; ++i) {
      p[i].u -= so / sw;
      p[i].decay -= sd / sw;
      p[i].ratio -= sx / sw;
      p[i].x = sx / sw;
    }
  }
  if (longest < KEYMAP_FIT_MIN_ZONES_FOLLOWED)
    goto done;
  /* P1 only where the tracks spread over enough octaves of rho */
  double sw = 0, sx = 0, sxx = 0;
  for (int i = 0; i < n; ++i)
    sw += p[i].weight, sx += p[i].weight * p[i].x;
  for (int i = 0; i < n; ++i)
    sxx += p[i].weight * (p[i].x - sx / sw) * (p[i].x - sx / sw);
  const bool spread = sqrt(sxx / sw) >= KEYMAP_FIT_MIN_SPREAD_OCTAVES;
  double p0, p1, d, unused;
  const double decay_rms = robust_fit(p, n, 0, spread, &p0, &p1, scratch);
  const double drift_rms = robust_fit(p, n, 1, false, &d, &unused, scratch);
  const double bound = MODAL_KEYMAP_MAX_DECAY_EXPONENT,
               dbound = MODAL_KEYMAP_MAX_RATIO_DRIFT;
  law->decay_exponent = fmax(-bound, fmin(bound, p0));
  law->decay_slope = fmax(-bound, fmin(bound, p1));
  law->ratio_drift = fmax(-dbound, fmin(dbound, d));
  if (report)
    *report = (keymap_fit_report){tracks, n, decay_rms, drift_rms, true};
done:
  if (report && longest < KEYMAP_FIT_MIN_ZONES_FOLLOWED)
    *report = (keymap_fit_report){tracks, n, 0.0, 0.0, false};
  free(track);
  free(p);
  free(scratch);
}
