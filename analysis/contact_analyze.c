/* SPDX-License-Identifier: ISC */
/*
 * contact-analyze: a struck object's recording to a modal table.
 *
 * usage: contact-analyze IN.wav [-n MODES] [-o OUT.modes] [--plot OUT.png]
 *                        [--compare] [--name NAME] [--range DB]
 *                        [--min-freq HZ] [--max-freq HZ] [--quiet]
 *        contact-analyze --keymap OUT.modes [--roots-from-names] [-n MODES]
 *                        [--name NAME] [--range DB] [--min-freq HZ]
 *                        [--max-freq HZ] [--quiet] IN.wav...
 *
 * Reads IN (WAV, FLAC, ... through libsndfile), finds the strike and fits
 * the modes of its free decay (modal_analysis.h), and writes them as a
 * modal table (dsp/modal_table.h) to OUT, or to standard output without
 * -o.  A report of the modes goes to standard error; --plot draws the
 * recording's spectrogram with the modes over it; --compare strikes the
 * table through the impact DSP and prints the log-spectral distance to the
 * recording over the decay (on standard output with -o, else on standard
 * error).  --keymap: every recording a zone of one keymap
 * (dsp/modal_keymap.h) at the root note read from its audio (or from its
 * file's name, "marimba C4.wav", C4 = 60), with the law across the zones
 * fitted (keymap_fit.h); its provenance in comments.  Exit status: 0 done, 1
 * the input or the analysis failed (the message says why), 2 a usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include "analysis_table.h"
#include "keymap_fit.h"
#include "modal_analysis.h"
#include "modal_table.h"
#include "recording.h"
#include "resynthesis.h"
#include "spectrogram.h"

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PI 3.14159265358979323846

/* Progress is shown for recordings longer than this, when standard error
 * is a terminal: shorter ones take well under a second. */
static const double progress_min_seconds = 5.0;

static void
usage(FILE* out)
{
  fprintf(out,
          "usage: contact-analyze IN.wav [options]\n"
          "  -n, --modes N      at most N modes (1-%d, default 32)\n"
          "  -o, --output FILE  write the modal table there (default: "
          "standard output)\n"
          "      --plot FILE    draw the spectrogram with the modes (PNG)\n"
          "      --compare      strike the table through the impact DSP and\n"
          "                     print its spectral distance to the recording\n"
          "      --name NAME    the table's name (default: IN's file name)\n"
          "      --range DB     modes within DB of the strongest (default "
          "60)\n"
          "      --min-freq HZ, --max-freq HZ   the band searched\n"
          "  -q, --quiet        no report on standard error\n"
          "  -h, --help         print this and exit\n"
          "usage: contact-analyze --keymap OUT [options] IN.wav...\n"
          "      --keymap FILE  the recordings as the zones of one keymap\n"
          "      --roots-from-names  each zone's root from its file's name\n"
          "                     (a note name, C4 = 60), not from its audio\n",
          ANALYSIS_MAX_MODES);
}

static bool
show_progress(void* data, double fraction)
{
  (void)data;
  fprintf(stderr, "\ranalysing: %3.0f %%", 100.0 * fraction);
  fflush(stderr);
  return true;
}

static bool
parse_number(const char* text, double lo, double hi, double* value)
{
  char* end = NULL;
  const double v = strtod(text, &end);
  if (!end || end == text || *end || !(v >= lo && v <= hi))
    return false;
  *value = v;
  return true;
}

static void
report(const analysis_result* r, const recording* rec, const char* path)
{
  fprintf(stderr,
          "%s: %s, %d channel(s), %.0f Hz, %.2f s; strike at %.3f s, free "
          "decay from %.3f s; noise floor %.1f dBFS\n",
          path, rec->format, rec->n_channels, rec->rate,
          rec->frames / rec->rate, r->onset, r->decay_start, r->noise_floor_db);
  fprintf(stderr, "%d modes, root note %.2f\n", r->n_modes, r->root_note);
  fprintf(stderr, "  mode  frequency/Hz   t_e/s         q   gain/dB  SNR/dB  "
                  "quality\n");
  for (int i = 0; i < r->n_modes; ++i) {
    const analysis_mode* m = &r->modes[i];
    fprintf(stderr, "  %4d  %12.3f  %7.4f  %8.1f  %8.2f  %6.1f  %7.2f\n", i + 1,
            m->freq, m->decay, PI * m->freq * m->decay, 20.0 * log10(m->gain),
            m->snr_db, m->quality);
  }
}

/* --compare: the table struck through the impact DSP, its t = 0 at the
 * strike, against each channel over the free decay */
static int
compare(const modal_table* t, const analysis_result* r, const recording* rec,
        FILE* out)
{
  float* left = (float*)calloc(rec->frames, sizeof(float));
  float* right = (float*)calloc(rec->frames, sizeof(float));
  const size_t onset = (size_t)llround(r->onset * rec->rate);
  const size_t start = (size_t)llround(r->decay_start * rec->rate);
  if (!left || !right || start < onset ||
      !resynthesis_render(t, rec->rate, left, right, rec->frames - onset)) {
    fprintf(stderr, "contact-analyze: --compare: out of memory\n");
    free(left);
    free(right);
    return 1;
  }
  for (int c = 0; c < rec->n_channels; ++c) {
    const resynthesis_distance d = resynthesis_compare(
        rec->channel[c], rec->frames, start, c == 0 ? left : right,
        rec->frames - onset, start - onset, rec->rate);
    fprintf(out,
            "re-synthesis, channel %d: log-spectral distance %.2f dB over the "
            "decay (%.2f-%.2f s, %d frames; worst frame %.2f dB)\n",
            c + 1, d.distance_db, d.from, d.to, d.frames, d.worst_frame_db);
  }
  free(left);
  free(right);
  return 0;
}

/* one recording analysed as a keymap's zone */
typedef struct {
  const char* path;
  modal_table table;
  bool root_from_name;
} zone_source;

static int
by_root(const void* a, const void* b)
{
  const double x = ((const zone_source*)a)->table.root,
               y = ((const zone_source*)b)->table.root;
  return (x > y) - (x < y);
}

/* --keymap: the recordings' tables as one keymap's zones, its law fitted */
static int
build_keymap(const char* const* files, int n_files, const char* out,
             const char* name, const analysis_options* options,
             bool roots_from_names, bool quiet)
{
  zone_source* zones = calloc((size_t)n_files, sizeof(zone_source));
  analysis_result* result = malloc(sizeof(*result));
  modal_keymap* map = malloc(sizeof(*map));
  char* text = malloc(MODAL_KEYMAP_TEXT_MAX);
  int status = 0;
  if (!zones || !result || !map || !text) {
    fprintf(stderr, "contact-analyze: out of memory\n");
    status = 1;
    goto done;
  }
  for (int k = 0; k < n_files && !status; ++k) {
    recording rec;
    char message[512];
    zone_source* z = &zones[k];
    z->path = files[k];
    if (recording_read(z->path, &rec, message, sizeof(message)) !=
        RECORDING_SUCCESS) {
      fprintf(stderr, "contact-analyze: %s\n", message);
      status = 1;
      break;
    }
    const analysis_status as =
        analysis_run((const float* const*)rec.channel, rec.n_channels,
                     rec.frames, rec.rate, options, result);
    recording_free(&rec);
    if (as != ANALYSIS_SUCCESS) {
      fprintf(stderr, "contact-analyze: %s: %s\n", z->path,
              analysis_strerror(as));
      status = 1;
      break;
    }
    char zone_name[MODAL_TABLE_NAME_SIZE];
    analysis_table_name_of(z->path, zone_name, sizeof(zone_name));
    analysis_table_of(result, zone_name, &z->table);
    double note;
    if (roots_from_names && analysis_table_note_of_name(z->path, &note)) {
      z->table.root = note;
      z->root_from_name = true;
    } else if (roots_from_names) {
      fprintf(stderr, "contact-analyze: %s: no note in its name\n", z->path);
      status = 2;
    } else if (z->table.root == MODAL_TABLE_NO_ROOT) {
      fprintf(stderr, "contact-analyze: %s: no root note in its audio\n",
              z->path);
      status = 1;
    }
    if (!quiet && !status)
      fprintf(stderr, "%s: %d modes, root note %.2f%s\n", z->path,
              z->table.count, z->table.root,
              z->root_from_name ? " (from its name)" : "");
  }
  if (status)
    goto done;
  qsort(zones, (size_t)n_files, sizeof(zones[0]), by_root);
  modal_keymap_init(map);
  map->is_keymap = true;
  map->zones = n_files;
  snprintf(map->name, sizeof(map->name), "%s", name ? name : "");
  for (int k = 0; k < n_files; ++k) {
    if (k > 0 && !(zones[k].table.root > zones[k - 1].table.root)) {
      fprintf(stderr, "contact-analyze: %s and %s are both at note %.2f\n",
              zones[k - 1].path, zones[k].path, zones[k].table.root);
      status = 1;
      goto done;
    }
    map->zone[k] = zones[k].table;
  }
  keymap_fit_report fit;
  keymap_fit_law(map, &map->law, &fit);
  char law[256];
  if (fit.fitted)
    snprintf(law, sizeof(law),
             "law fitted from %d partials in %d tracks across the zones "
             "(rms residuals: log2 t_e %.3f, log2 ratio %.4f)",
             fit.points, fit.tracks, fit.decay_rms, fit.drift_rms);
  else
    snprintf(law, sizeof(law),
             "constant-q law: no partial followed across %d zones (%d "
             "partials in %d tracks)",
             KEYMAP_FIT_MIN_ZONES_FOLLOWED, fit.points, fit.tracks);
  if (!quiet)
    fprintf(stderr,
            "%s: decay exponent %.3f %+.3f log2 ratio (1: constant q), "
            "ratio drift %+.4f an octave\n",
            law, map->law.decay_exponent, map->law.decay_slope,
            map->law.ratio_drift);
  modal_table_error error;
  modal_table_status ts = modal_keymap_check(map, &error);
  if (ts == MODAL_TABLE_SUCCESS)
    ts = modal_keymap_write(map, text, MODAL_KEYMAP_TEXT_MAX, NULL);
  if (ts != MODAL_TABLE_SUCCESS) {
    fprintf(stderr, "contact-analyze: the zones do not make a keymap: %s\n",
            ts == MODAL_TABLE_ERR_NO_SPACE ? modal_table_strerror(ts)
                                           : error.message);
    status = 1;
    goto done;
  }
  FILE* f = fopen(out, "w");
  bool written = f != NULL;
  if (f) {
    /* provenance: what each zone was measured from, and how */
    fprintf(f,
            "# measured by contact-analyze --keymap (-n %d --range %g "
            "--min-freq %g --max-freq %g) from %d recordings:\n",
            options->max_modes, options->dynamic_range_db, options->min_freq,
            options->max_freq, n_files);
    for (int k = 0; k < n_files; ++k) {
      char base[MODAL_TABLE_NAME_SIZE];
      analysis_table_name_of(zones[k].path, base, sizeof(base));
      fprintf(f, "#   zone %d: %s, root %.2f (from its %s), %d modes\n", k + 1,
              base, zones[k].table.root,
              zones[k].root_from_name ? "name" : "audio", zones[k].table.count);
    }
    fprintf(f, "# %s\n", law);
    written = fputs(text, f) != EOF;
    written = fclose(f) == 0 && written;
  }
  if (!written) {
    fprintf(stderr, "contact-analyze: cannot write %s\n", out);
    status = 1;
  }
done:
  free(zones);
  free(result);
  free(map);
  free(text);
  return status;
}

int
main(int argc, char** argv)
{
  const char *in = NULL, *out = NULL, *plot = NULL, *name_arg = NULL,
             *keymap = NULL;
  bool quiet = false, want_compare = false, roots_from_names = false;
  /* the recordings named, in argv's order (one, or a keymap's zones) */
  const char* files[MODAL_KEYMAP_MAX_ZONES];
  int n_files = 0;
  analysis_options options = analysis_default_options();
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const bool has_value = i + 1 < argc;
    double v = 0.0;
    if ((!strcmp(a, "-n") || !strcmp(a, "--modes")) && has_value) {
      if (!parse_number(argv[++i], 1, ANALYSIS_MAX_MODES, &v) ||
          v != floor(v)) {
        fprintf(stderr, "contact-analyze: -n wants 1 to %d modes, not '%s'\n",
                ANALYSIS_MAX_MODES, argv[i]);
        return 2;
      }
      options.max_modes = (int)v;
    } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has_value) {
      out = argv[++i];
    } else if (!strcmp(a, "--plot") && has_value) {
      plot = argv[++i];
    } else if (!strcmp(a, "--name") && has_value) {
      name_arg = argv[++i];
    } else if (!strcmp(a, "--range") && has_value) {
      if (!parse_number(argv[++i], 6, 120, &options.dynamic_range_db)) {
        fprintf(stderr, "contact-analyze: --range wants 6 to 120 dB\n");
        return 2;
      }
    } else if (!strcmp(a, "--min-freq") && has_value) {
      if (!parse_number(argv[++i], 1, 100e3, &options.min_freq)) {
        fprintf(stderr, "contact-analyze: --min-freq wants 1 Hz to 100 kHz\n");
        return 2;
      }
    } else if (!strcmp(a, "--max-freq") && has_value) {
      if (!parse_number(argv[++i], 1, 100e3, &options.max_freq)) {
        fprintf(stderr, "contact-analyze: --max-freq wants 1 Hz to 100 kHz\n");
        return 2;
      }
    } else if (!strcmp(a, "--keymap") && has_value) {
      keymap = argv[++i];
    } else if (!strcmp(a, "--roots-from-names")) {
      roots_from_names = true;
    } else if (!strcmp(a, "--compare")) {
      want_compare = true;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      quiet = true;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "contact-analyze: unknown option or missing value: %s\n",
              a);
      usage(stderr);
      return 2;
    } else if (n_files < MODAL_KEYMAP_MAX_ZONES) {
      files[n_files++] = a;
    } else {
      fprintf(stderr, "contact-analyze: more than %d recordings\n",
              MODAL_KEYMAP_MAX_ZONES);
      return 2;
    }
  }
  if (keymap) {
    if (!n_files || out || plot || want_compare) {
      fprintf(stderr, "contact-analyze: --keymap OUT takes recordings, and "
                      "no -o, --plot or --compare\n");
      return 2;
    }
    return build_keymap(files, n_files, keymap, name_arg, &options,
                        roots_from_names, quiet);
  }
  in = n_files ? files[0] : NULL;
  if (n_files > 1 || roots_from_names) {
    fprintf(stderr, "contact-analyze: %s\n",
            roots_from_names ? "--roots-from-names goes with --keymap"
                             : "one recording at a time (or --keymap)");
    return 2;
  }
  if (!in) {
    usage(stderr);
    return 2;
  }

  recording rec;
  char message[512];
  const recording_status rs =
      recording_read(in, &rec, message, sizeof(message));
  if (rs != RECORDING_SUCCESS) {
    fprintf(stderr, "contact-analyze: %s\n", message);
    return 1;
  }
  if (rec.clipped && !quiet)
    fprintf(stderr,
            "contact-analyze: warning: %s has %zu clipped samples (peak "
            "%.2f dBFS): the strike was too loud; the modes' gains and "
            "the attack are less reliable\n",
            in, rec.clipped, 20.0 * log10(rec.peak));
  const bool progress =
      !quiet && rec.frames / rec.rate > progress_min_seconds && isatty(2);
  if (progress)
    options.progress = show_progress;

  analysis_result* result = (analysis_result*)malloc(sizeof(*result));
  if (!result) {
    recording_free(&rec);
    fprintf(stderr, "contact-analyze: out of memory\n");
    return 1;
  }
  const analysis_status as =
      analysis_run((const float* const*)rec.channel, rec.n_channels, rec.frames,
                   rec.rate, &options, result);
  if (progress)
    fprintf(stderr, "\r%*s\r", 20, "");
  int status = 0;
  if (as != ANALYSIS_SUCCESS) {
    fprintf(stderr, "contact-analyze: %s: %s\n", in, analysis_strerror(as));
    status = 1;
    goto done;
  }
  if (!quiet)
    report(result, &rec, in);

  char name[MODAL_TABLE_NAME_SIZE];
  if (name_arg)
    snprintf(name, sizeof(name), "%s", name_arg);
  else
    analysis_table_name_of(in, name, sizeof(name));
  modal_table table;
  analysis_table_of(result, name, &table);
  static char text[MODAL_TABLE_TEXT_MAX];
  modal_table_error error;
  modal_table_status ts = modal_table_check(&table, &error);
  if (ts == MODAL_TABLE_SUCCESS)
    ts = modal_table_write(&table, text, sizeof(text), NULL);
  if (ts != MODAL_TABLE_SUCCESS) {
    fprintf(stderr,
            "contact-analyze: the modes found do not make a table: %s\n",
            ts == MODAL_TABLE_ERR_NO_SPACE ? modal_table_strerror(ts)
                                           : error.message);
    status = 1;
    goto done;
  }
  FILE* f = out ? fopen(out, "w") : stdout;
  if (!f || fputs(text, f) == EOF || (out && fclose(f) != 0)) {
    fprintf(stderr, "contact-analyze: cannot write %s\n", out ? out : "-");
    status = 1;
    goto done;
  }
  if (plot) {
    double freq[ANALYSIS_MAX_MODES], decay[ANALYSIS_MAX_MODES],
        gain[ANALYSIS_MAX_MODES];
    for (int i = 0; i < result->n_modes; ++i) {
      freq[i] = result->modes[i].freq;
      decay[i] = result->modes[i].decay;
      gain[i] = result->modes[i].gain;
    }
    const spectrogram_modes modes = {freq, decay, gain, result->n_modes,
                                     result->onset};
    char title[MODAL_TABLE_NAME_SIZE + 64];
    snprintf(title, sizeof(title), "%s: %d modes", name, result->n_modes);
    if (!spectrogram_png(rec.channel[0],
                         rec.n_channels > 1 ? rec.channel[1] : NULL, rec.frames,
                         rec.rate, plot, title, &modes)) {
      fprintf(stderr, "contact-analyze: cannot write %s\n", plot);
      status = 1;
    }
  }
  /* beside the table on standard output only when the table is in a file */
  if (want_compare && compare(&table, result, &rec, out ? stdout : stderr))
    status = 1;
done:
  free(result);
  recording_free(&rec);
  /* cairo's and fontconfig's caches for the plot's font, so that a leak
   * checker sees only what is ours */
  cairo_debug_reset_static_data();
  FcFini();
  return status;
}
