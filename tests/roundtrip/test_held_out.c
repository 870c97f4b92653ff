/* SPDX-License-Identifier: ISC */
/*
 * Held-out notes (issue 25, bar 1): each measured keymap
 * (presets/tables/measured/) played at the recorded notes that were not
 * used to build it (its header's `# held out` line: samples of Debian's
 * FluidR3_GM.sf2), through the impact plugin, against those recordings:
 *   - the recording analysed (modal_analysis.h, default options), the
 *     keymap played at the note of its name (octaves_of_names; its root
 *     note, rounded, where the names tell none), at the recording's rate,
 *     through its preset (urn:contact:preset:impact-NAME-measured for
 *     measured-NAME.modes: the instrument's mallet and gain) with the
 *     keymap file loaded over the preset's copy of it, as long as the
 *     recording (at most 2 s);
 *   - its level matched: the recordings are normalised near 0 dBFS, the
 *     presets peak near -6 dBFS at velocity 127, so the `gain` port is
 *     the preset's plus the gap between the recording's peak and the
 *     render's at velocity 100 (kept in the port's range), and the
 *     velocity is bisected (1..127) until the render's peak over the
 *     first 0.5 s is the recording's within 0.5 dB;
 *   - the render analysed the same way; each analysis's modes grouped
 *     into partials (a click pole beside the ringing one, a doublet:
 *     modes chained within a quarter tone), each partial's frequency the
 *     energy-weighted mean (energy a^2 t_e), its level the root sum of
 *     squares of the amplitudes, its 1/e decay that of the summed
 *     envelope sqrt(sum a^2 exp(-2 t / t_e)) (a least-squares line
 *     through its log over [0, the longest t_e]);
 *   - each partial of the recording within 20 dB of its strongest by
 *     energy (level^2 t_e, the analysis's rule for the root) matched to
 *     the render's partial nearest in ratio, each ratio to its own
 *     analysis's root (the render's: its partial nearest the recording's
 *     root partial when the two roots are more than a quarter tone
 *     apart, which is printed);
 *   - per partial: the ratio within 1 %, the 1/e decay within 25 %, the
 *     level re its own note's strongest partial (by energy) within 4 dB:
 *     the absolute levels are matched by the velocity and the gain, so
 *     the bar's levels are the spectral balance (the absolute difference
 *     is printed too); per note: the log-spectral distance of the first
 *     second from each one's onset at most 3 dB, over the recording's
 *     noise (resynthesis_compare_over_noise(): the render, its level
 *     matched, has none, and the short bars' first second is mostly
 *     the recording's noise);
 *   - beside it, what a sampler of the same recordings reaches: the
 *     recording of the zone the note plays, transposed to the note,
 *     against the held-out one by the same distance.  Where that is over
 *     the bar, the recordings differ from note to note by more than it.
 * A keymap given as hold:PATH has the bar held; without the prefix its
 * figures and verdict are printed only.  Skipped (77) without the
 * soundfont.
 *
 * usage: test_held_out FILE.sf2 [hold:]KEYMAP.modes...
 */
#define _POSIX_C_SOURCE 200809L

#include "analysis_table.h"
#include "check.h"
#include "host.h"
#include "modal_analysis.h"
#include "modal_keymap.h"
#include "real_samples.h"
#include "resynthesis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the bar */
static const double ratio_tol = 0.01;
static const double decay_tol = 0.25;
static const double level_tol_db = 4.0;
static const double lsd_max_db = 3.0;
/* the partials compared: within 20 dB of the strongest by energy, as the
 * analysis reads the root (an energy ratio of 1/100) */
static const double partial_range_db = 20.0;
/* modes this close are one partial (a click pole, a doublet), and roots
 * this far apart are not one note: a quarter tone */
static const double quarter_tone_octaves = 1.0 / 24.0;
/* the level matched on the peak of the strike's first half second, to
 * half a dB (a velocity step near 100 moves it about 0.1 dB) */
static const double peak_seconds = 0.5;
static const double peak_match_db = 0.5;
/* the velocity the gain is set at: room to bisect either way */
static const int gain_velocity = 100;
/* renders no longer than this (the recordings' first seconds) */
static const double max_seconds = 2.0;
/* the distance over the first second */
static const double lsd_seconds = 1.0;
/* the sampler's interpolation: a windowed sinc of this many zero
 * crossings a side (Blackman window), low-passed under the Nyquist
 * frequency of the slower of the two rates, as a sampler transposes */
enum { SAMPLER_TAPS = 16 };
#define PI 3.14159265358979323846
/* a render quieter than 16-bit's last bit is silent (recording.h) */
static const double silent_dbfs = -90.0;
/* points of the summed envelope's fit (a smooth curve: a few dozen do) */
enum { ENVELOPE_POINTS = 64 };
static const char held_out_tag[] = "# held out (recorded, not analysed here): ";
enum { BLOCK = 256, MAX_HELD_OUT = 16, NAME_SIZE = 96, LINE_SIZE = 1024 };

/* the figures a note or an instrument meets */
typedef struct {
  int partials, ratios, decays, levels; /* counts within the bar */
  int notes, lsds;                      /* notes, LSDs within the bar */
  int as_sampled; /* LSDs at most the sampler's (sampler_distance()) */
} tally;

/* the keymap as played: through its preset, at a gain */
typedef struct {
  const char* path;
  char preset[NAME_SIZE + 40];
  double rate, gain;
  int note;
} player;

/* modes of one analysis grouped into partials */
typedef struct {
  double freq, level, decay, energy;
} partial;

typedef struct {
  int n;
  partial p[ANALYSIS_MAX_MODES];
} partials;

static bool
met(const tally* t)
{
  return t->notes > 0 && t->ratios == t->partials && t->decays == t->partials &&
         t->levels == t->partials && t->lsds == t->notes;
}

/* the names on the keymap's `# held out` line (none for `none (...)`) */
static int
held_out_names(const char* path, char names[][NAME_SIZE])
{
  FILE* f = fopen(path, "r");
  char line[LINE_SIZE];
  int n = 0;
  while (f && fgets(line, sizeof(line), f)) {
    if (strncmp(line, held_out_tag, sizeof(held_out_tag) - 1))
      continue;
    char* list = line + sizeof(held_out_tag) - 1;
    if (!strncmp(list, "none", 4))
      break;
    for (char* s = strtok(list, ",\n"); s && n < MAX_HELD_OUT;
         s = strtok(NULL, ",\n")) {
      while (*s == ' ')
        ++s;
      snprintf(names[n++], NAME_SIZE, "%s", s);
    }
    break;
  }
  if (f)
    fclose(f);
  return n;
}

/* the plugin with the preset loaded and the keymap file over its table
 * (both load in the worker, a couple of blocks each), at `gain` (NAN: the
 * preset's); NULL if the plugin, the preset or the keymap did not load */
static host*
open_player(const player* pl, double gain)
{
  host* h = host_open("urn:contact:impact", pl->rate, BLOCK);
  if (!h)
    return NULL;
  host_log_quiet(h, true);
  bool ok = host_load_preset(h, pl->preset);
  host_run(h, 2 * BLOCK, BLOCK, NULL, NULL);
  ok = ok && host_set_table(h, host_now(h), pl->path) &&
       (isnan(gain) || host_set(h, "gain", (float)gain));
  host_run(h, 2 * BLOCK, BLOCK, NULL, NULL);
  if (ok && host_log_errors(h) == 0)
    return h;
  fprintf(stderr, "%s (%s): %s\n", pl->path, pl->preset, host_log_last(h));
  host_close(h);
  return NULL;
}

/* the keymap struck once: `frames` of the left output into `out`, false
 * if it did not play */
static bool
render(const player* pl, int velocity, float* out, size_t frames)
{
  host* h = open_player(pl, pl->gain);
  const bool ok = h && host_note_on(h, host_now(h), pl->note, velocity);
  if (ok)
    host_run(h, frames, BLOCK, out, NULL);
  if (h)
    host_close(h);
  return ok;
}

static double
peak_of(const float* x, size_t frames)
{
  double p = 0.0;
  for (size_t i = 0; i < frames; ++i)
    p = fmax(p, fabs(x[i]));
  return p;
}

/* the peak over the first peak_seconds at `velocity`, NAN if the render
 * failed */
static double
trial_peak(const player* pl, int velocity)
{
  const size_t frames = (size_t)(peak_seconds * pl->rate);
  float* x = calloc(frames, sizeof(float));
  const bool ok = x && render(pl, velocity, x, frames);
  const double p = ok ? peak_of(x, frames) : NAN;
  free(x);
  return p;
}

/* the velocity whose peak is nearest `target` (in dB), by bisection; the
 * range's end when the target is out of reach; 0 if a render failed */
static int
matched_velocity(const player* pl, double target, double* peak)
{
  int lo = 1, hi = 127;
  double p_lo = trial_peak(pl, lo);
  double p_hi = trial_peak(pl, hi);
  while (hi - lo > 1 && p_lo < target && p_hi > target) {
    const int mid = (lo + hi) / 2;
    const double p = trial_peak(pl, mid);
    if (!isfinite(p))
      return 0;
    if (p < target)
      lo = mid, p_lo = p;
    else
      hi = mid, p_hi = p;
  }
  if (!isfinite(p_lo) || !isfinite(p_hi))
    return 0;
  const bool upper =
      p_hi <= target || fabs(log(p_lo / target)) > fabs(log(p_hi / target));
  *peak = upper ? p_hi : p_lo;
  return upper ? hi : lo;
}

static bool
analyse(const float* const* x, int channels, size_t frames, double rate,
        analysis_result* r, const char* what)
{
  const analysis_options options = analysis_default_options();
  const analysis_status st =
      analysis_run(x, channels, frames, rate, &options, r);
  CHECK(st == ANALYSIS_SUCCESS, "%s: %s", what, analysis_strerror(st));
  CHECK(st != ANALYSIS_SUCCESS || isfinite(r->root_note), "%s: root %g", what,
        r->root_note);
  return st == ANALYSIS_SUCCESS && isfinite(r->root_note);
}

/* the 1/e time of sqrt(sum a_i^2 exp(-2 t / t_i)): -1 / the slope of the
 * least-squares line through its log over [0, the longest t_i] */
static double
envelope_decay(const analysis_mode* m, int n)
{
  double t_max = 0.0;
  for (int i = 0; i < n; ++i)
    t_max = fmax(t_max, m[i].decay);
  double st = 0.0, sy = 0.0, stt = 0.0, sty = 0.0;
  for (int k = 0; k < ENVELOPE_POINTS; ++k) {
    const double t = t_max * k / (ENVELOPE_POINTS - 1);
    double e = 0.0;
    for (int i = 0; i < n; ++i)
      e += m[i].amplitude * m[i].amplitude * exp(-2.0 * t / m[i].decay);
    const double y = 0.5 * log(e);
    st += t, sy += y, stt += t * t, sty += t * y;
  }
  const double slope =
      (ENVELOPE_POINTS * sty - st * sy) / (ENVELOPE_POINTS * stt - st * st);
  return -1.0 / slope;
}

/* the modes (sorted by frequency) chained into partials within a quarter
 * tone of each other */
static void
group(const analysis_result* r, partials* out)
{
  out->n = 0;
  for (int i = 0, j; i < r->n_modes; i = j) {
    double e = 0.0, ef = 0.0, a2 = 0.0;
    for (j = i; j < r->n_modes &&
                (j == i || log2(r->modes[j].freq / r->modes[j - 1].freq) <=
                               quarter_tone_octaves);
         ++j) {
      const analysis_mode* m = &r->modes[j];
      e += m->amplitude * m->amplitude * m->decay;
      ef += m->amplitude * m->amplitude * m->decay * m->freq;
      a2 += m->amplitude * m->amplitude;
    }
    partial* p = &out->p[out->n++];
    p->freq = ef / e;
    p->level = sqrt(a2);
    p->decay = envelope_decay(&r->modes[i], j - i);
    p->energy = a2 * p->decay;
  }
}

/* the partial nearest `freq` in log frequency */
static const partial*
nearest(const partials* s, double freq)
{
  const partial* best = &s->p[0];
  for (int i = 1; i < s->n; ++i)
    if (fabs(log(s->p[i].freq / freq)) < fabs(log(best->freq / freq)))
      best = &s->p[i];
  return best;
}

static const partial*
strongest(const partials* s)
{
  const partial* best = &s->p[0];
  for (int i = 1; i < s->n; ++i)
    if (s->p[i].energy > best->energy)
      best = &s->p[i];
  return best;
}

/* x (n samples) played `ratio` times faster into y (m samples): y[i] =
 * x(i ratio), a windowed sinc cut at min(1, 1 / ratio) of the Nyquist
 * frequency (an octave up folds nothing over it) */
static void
transpose(const float* x, size_t n, double ratio, float* y, size_t m)
{
  const double cut = fmin(1.0, 1.0 / ratio);
  const double half = SAMPLER_TAPS / cut;
  for (size_t i = 0; i < m; ++i) {
    const double at = (double)i * ratio;
    const long lo = (long)ceil(at - half), hi = (long)floor(at + half);
    double sum = 0.0;
    for (long j = lo > 0 ? lo : 0; j <= hi && j < (long)n; ++j) {
      const double u = (double)j - at;
      const double w =
          0.42 + 0.5 * cos(PI * u / half) + 0.08 * cos(2.0 * PI * u / half);
      const double v = cut * u;
      sum += x[j] * cut * (v == 0.0 ? 1.0 : sin(PI * v) / (PI * v)) * w;
    }
    y[i] = (float)sum;
  }
}

/* The reference a recorded library sets: the recording of the zone the
 * note plays, transposed to the note as a sampler plays it (its decays
 * shortened with its pitch raised), against the held-out recording by the
 * same distance; NAN when it cannot be read. */
static double
sampler_distance(const sf2_file* sf, const modal_keymap* map, int note,
                 const float* held, size_t held_frames, size_t held_on,
                 double held_noise, double rate, char* zone_name, size_t size)
{
  const modal_table* zone = &map->zone[modal_keymap_zone_of(map, note)];
  snprintf(zone_name, size, "%s, root %.2f", zone->name, zone->root);
  recording z;
  char message[512];
  if (real_sample_read(sf, zone->name, &z, message, sizeof(message))) {
    CHECK(false, "%s: %s", zone->name, message);
    return NAN;
  }
  const double ratio =
      pow(2.0, ((double)note - zone->root) / 12.0) * z.rate / rate;
  const size_t frames = (size_t)((double)z.frames / ratio);
  float* y = malloc(sizeof(float) * (frames ? frames : 1));
  analysis_result* r = malloc(sizeof(*r));
  double lsd = NAN;
  CHECK(y && r, "out of memory");
  if (y && r) {
    transpose(z.channel[0], z.frames, ratio, y, frames);
    const float* left = y;
    if (analyse(&left, 1, frames, rate, r, zone->name)) {
      const size_t span = (size_t)(lsd_seconds * rate);
      const size_t on = (size_t)llround(r->onset * rate);
      const resynthesis_distance d = resynthesis_compare_over_noise(
          held, held_on + span < held_frames ? held_on + span : held_frames,
          held_on, y, on + span < frames ? on + span : frames, on, rate,
          held_noise);
      lsd = d.frames > 0 ? d.distance_db : NAN;
    }
  }
  free(y);
  free(r);
  recording_free(&z);
  return lsd;
}

/* one held-out note: its table printed, its figures added to `sum` */
static void
check_note(const sf2_file* sf, const modal_keymap* map, player* pl,
           double preset_gain, double gain_lo, double gain_hi,
           const char* instrument, const char* name, double name_offset,
           bool hold, tally* sum)
{
  const char* path = pl->path;
  recording rec;
  char message[512];
  if (real_sample_read(sf, name, &rec, message, sizeof(message))) {
    CHECK(false, "%s: %s", path, message);
    return;
  }
  analysis_result* a = malloc(sizeof(*a));
  analysis_result* b = malloc(sizeof(*b));
  partials* pa = malloc(sizeof(*pa));
  partials* pb = malloc(sizeof(*pb));
  const size_t frames = rec.frames < max_seconds * rec.rate
                            ? rec.frames
                            : (size_t)(max_seconds * rec.rate);
  float* x = calloc(frames, sizeof(float));
  CHECK(a && b && pa && pb && x, "out of memory");
  if (!a || !b || !pa || !pb || !x ||
      !analyse((const float* const*)rec.channel, rec.n_channels, rec.frames,
               rec.rate, a, name))
    goto done;

  /* the level: the gain at velocity 100, then the velocity */
  const double target = peak_of(rec.channel[0], rec.frames);
  pl->rate = rec.rate;
  double named = NAN;
  pl->note = isfinite(name_offset) && analysis_table_note_of_name(name, &named)
                 ? (int)lround(named + name_offset)
                 : (int)lround(a->root_note);
  pl->gain = preset_gain;
  const double p_gain = trial_peak(pl, gain_velocity);
  CHECK(isfinite(p_gain) && p_gain > 0.0, "%s: %s: the keymap did not play",
        path, name);
  if (!isfinite(p_gain) || !(p_gain > 0.0))
    goto done;
  pl->gain =
      fmin(fmax(preset_gain + 20.0 * log10(target / p_gain), gain_lo), gain_hi);
  double peak = NAN;
  const int velocity = matched_velocity(pl, target, &peak);
  CHECK(velocity > 0, "%s: %s: the keymap did not play", path, name);
  if (velocity == 0 || !render(pl, velocity, x, frames))
    goto done;
  CHECK(20.0 * log10(peak_of(x, frames)) > silent_dbfs,
        "%s: %s: the render is silent", path, name);
  const double peak_db = 20.0 * log10(peak / target);
  CHECK(!hold || fabs(peak_db) <= peak_match_db,
        "%s: %s: the peak %+.1f dB off the recording's", path, name, peak_db);
  const float* left = x;
  if (!analyse(&left, 1, frames, rec.rate, b, name))
    goto done;
  group(a, pa);
  group(b, pb);

  printf("  %s: note %d (%s; root %.2f, rendered %.2f), gain %.1f dB (the "
         "preset's %.1f %+.1f), velocity %d (peak %.3f, the recording's "
         "%.3f: %+.1f dB%s), %.2f s, %d/%d modes in %d/%d partials\n",
         name, pl->note, isfinite(named) ? "its name's" : "its root",
         a->root_note, b->root_note, pl->gain, preset_gain,
         pl->gain - preset_gain, velocity, peak, target, peak_db,
         fabs(peak_db) <= peak_match_db ? "" : ", not matched",
         (double)frames / rec.rate, a->n_modes, b->n_modes, pa->n, pb->n);
  /* each one's reference: its root; the render's partial nearest the
   * recording's root partial when the roots are not one note */
  const double rec_ref = modal_keymap_note_hz(a->root_note);
  double play_ref = modal_keymap_note_hz(b->root_note);
  if (fabs(b->root_note - a->root_note) > 12.0 * quarter_tone_octaves) {
    play_ref = nearest(pb, nearest(pa, rec_ref)->freq)->freq;
    printf("  %s: the roots %.2f apart: the render's reference is its "
           "partial at %.1f Hz\n",
           name, b->root_note - a->root_note, play_ref);
  }
  printf("     rec Hz  ratio   t_e s  re dB |  play Hz  ratio   t_e s  re dB"
         " | ratio %%  decay %%  level dB  abs dB\n");
  const partial* loudest_a = strongest(pa);
  const partial* loudest_b = strongest(pb);
  tally t = {.notes = 1};
  for (int i = 0; i < pa->n; ++i) {
    const partial* m = &pa->p[i];
    if (m->energy < loudest_a->energy * pow(10.0, -partial_range_db / 10.0))
      continue;
    const double rho = m->freq / rec_ref;
    const partial* p = nearest(pb, rho * play_ref);
    const double ratio = p->freq / play_ref / rho - 1.0;
    const double decay = p->decay / m->decay - 1.0;
    const double re_a = 20.0 * log10(m->level / loudest_a->level);
    const double re_b = 20.0 * log10(p->level / loudest_b->level);
    const double level = re_b - re_a;
    const double absolute = 20.0 * log10(p->level / m->level);
    CHECK(isfinite(ratio) && isfinite(decay) && isfinite(level) &&
              isfinite(absolute),
          "%s: %s: partial at %.1f Hz: non-finite figures", path, name,
          m->freq);
    printf("   %8.1f %6.3f %7.4f %6.1f | %8.1f %6.3f %7.4f %6.1f | %+7.2f "
           "%+8.1f %+9.1f %+7.1f\n",
           m->freq, rho, m->decay, re_a, p->freq, p->freq / play_ref, p->decay,
           re_b, 100.0 * ratio, 100.0 * decay, level, absolute);
    t.partials++;
    t.ratios += fabs(ratio) <= ratio_tol;
    t.decays += fabs(decay) <= decay_tol;
    t.levels += fabs(level) <= level_tol_db;
    CHECK(!hold || fabs(ratio) <= ratio_tol,
          "%s: %s: the partial at %.1f Hz: ratio %+.2f %% off", path, name,
          m->freq, 100.0 * ratio);
    CHECK(!hold || fabs(decay) <= decay_tol,
          "%s: %s: the partial at %.1f Hz: decay %+.1f %% off", path, name,
          m->freq, 100.0 * decay);
    CHECK(!hold || fabs(level) <= level_tol_db,
          "%s: %s: the partial at %.1f Hz: level %+.1f dB off", path, name,
          m->freq, level);
  }
  /* the first second from each one's onset */
  const size_t rec_on = (size_t)llround(a->onset * rec.rate);
  const size_t play_on = (size_t)llround(b->onset * rec.rate);
  const size_t span = (size_t)(lsd_seconds * rec.rate);
  const double noise = pow(10.0, a->noise_floor_db / 10.0);
  const resynthesis_distance d = resynthesis_compare_over_noise(
      rec.channel[0], rec_on + span < rec.frames ? rec_on + span : rec.frames,
      rec_on, x, play_on + span < frames ? play_on + span : frames, play_on,
      rec.rate, noise);
  CHECK(d.frames > 0 && isfinite(d.distance_db),
        "%s: %s: no log-spectral distance", path, name);
  t.lsds = d.distance_db <= lsd_max_db;
  CHECK(!hold || t.lsds, "%s: %s: log-spectral distance %.2f dB", path, name,
        d.distance_db);
  char zone[NAME_SIZE + 32];
  const double sampler =
      sampler_distance(sf, map, pl->note, rec.channel[0], rec.frames, rec_on,
                       noise, rec.rate, zone, sizeof(zone));
  t.as_sampled = d.distance_db <= sampler;
  printf("  %s: %s: %d partials, ratios %d/%d within %.0f %%, decays %d/%d "
         "within %.0f %%, levels %d/%d within %.0f dB, LSD %.1f dB (its "
         "zone's recording transposed, %s: %.1f dB): %s\n",
         instrument, name, t.partials, t.ratios, t.partials, 100.0 * ratio_tol,
         t.decays, t.partials, 100.0 * decay_tol, t.levels, t.partials,
         level_tol_db, d.distance_db, zone, sampler,
         met(&t) ? "bar met" : "NOT met");
  sum->partials += t.partials, sum->ratios += t.ratios;
  sum->decays += t.decays, sum->levels += t.levels;
  sum->notes += t.notes, sum->lsds += t.lsds;
  sum->as_sampled += t.as_sampled;
done:
  free(x);
  free(a);
  free(b);
  free(pa);
  free(pb);
  recording_free(&rec);
}

/* A keymap's zones are played at their roots, and its recordings are
 * named by notes in the soundfont's own octaves (its glockenspiel's names
 * are two octaves over the keys that play them, its marimba's one, its
 * celesta's none): the octaves from the names to the roots, the same for
 * every zone whose name has a note; NAN when none has or they differ.  A
 * held-out recording is played at its name's note plus these octaves, as
 * a sampler maps it: its root as the analysis reads it is its strongest
 * low partial's, which for the celesta's upper notes is not the
 * fundamental. */
static double
octaves_of_names(const modal_keymap* map)
{
  double offset = NAN;
  for (int i = 0; map->is_keymap && i < map->zones; ++i) {
    double named = 0.0;
    /* a name past MIDI's notes ("Glocken C10") tells nothing */
    if (!analysis_table_note_of_name(map->zone[i].name, &named))
      continue;
    const double o = 12.0 * round((map->zone[i].root - named) / 12.0);
    if (isfinite(offset) && o != offset)
      return NAN;
    offset = o;
  }
  return offset;
}

static void
check_keymap(const sf2_file* sf, const char* path, bool hold)
{
  /* the instrument: the file's name without measured- and .modes */
  char instrument[NAME_SIZE];
  const char* base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  if (!strncmp(base, "measured-", 9))
    base += 9;
  snprintf(instrument, sizeof(instrument), "%s", base);
  instrument[strcspn(instrument, ".")] = '\0';

  modal_keymap* map = malloc(sizeof(*map));
  modal_table_error error;
  const bool loads =
      map && modal_keymap_load(path, map, NULL, &error) == MODAL_TABLE_SUCCESS;
  CHECK(loads, "%s: %s", path, map ? error.message : "out of memory");
  const double name_offset = loads ? octaves_of_names(map) : NAN;
  if (!loads)
    goto done;
  /* its preset, its gain and the port's range */
  player pl = {.path = path, .rate = 48000.0};
  snprintf(pl.preset, sizeof(pl.preset),
           "urn:contact:preset:impact-%s-measured", instrument);
  host* h = open_player(&pl, NAN);
  float lo = 0.0f, def = 0.0f, hi = 0.0f;
  bool is_output = false;
  const bool opened =
      h && host_port_range(h, host_port(h, "gain"), &lo, &def, &hi, &is_output);
  const double preset_gain = opened ? host_get(h, "gain") : NAN;
  if (h)
    host_close(h);
  CHECK(opened, "%s: %s did not play it", path, pl.preset);
  if (!opened)
    goto done;
  char names[MAX_HELD_OUT][NAME_SIZE];
  const int n = held_out_names(path, names);
  printf("%s (%s, %s, gain %.1f dB in [%.0f, %.0f]): %d held-out notes\n",
         instrument, path, pl.preset, preset_gain, lo, hi, n);
  if (n == 0)
    goto done;
  tally sum = {0};
  for (int k = 0; k < n; ++k)
    check_note(sf, map, &pl, preset_gain, lo, hi, instrument, names[k],
               name_offset, hold, &sum);
  printf("%s: %s: %d notes, %d partials, ratios %d/%d within %.0f %%, decays "
         "%d/%d within %.0f %%, levels %d/%d within %.0f dB, LSD %d/%d within "
         "%.0f dB (%d/%d at most the sampler's)%s\n\n",
         instrument, met(&sum) && sum.notes == n ? "bar met" : "NOT met",
         sum.notes, sum.partials, sum.ratios, sum.partials, 100.0 * ratio_tol,
         sum.decays, sum.partials, 100.0 * decay_tol, sum.levels, sum.partials,
         level_tol_db, sum.lsds, sum.notes, lsd_max_db, sum.as_sampled,
         sum.notes, hold ? "" : " (measured, not held)");
done:
  free(map);
}

int
main(int argc, char** argv)
{
  sf2_file sf;
  const int opened = real_samples_open(argc, argv, &sf);
  if (opened == REAL_SAMPLES_SKIP)
    return opened;
  CHECK(opened == 0, "the soundfont did not open");
  for (int i = 2; opened == 0 && i < argc; ++i) {
    const bool hold = !strncmp(argv[i], "hold:", 5);
    check_keymap(&sf, argv[i] + (hold ? 5 : 0), hold);
  }
  if (opened == 0)
    sf2_close(&sf);
  return check_done("held_out");
}
