/* SPDX-License-Identifier: ISC */
/*
 * contact-render: render a plugin of the bundle, a preset and some notes to
 * a WAV file (and a spectrogram picture).  See usage(), doc/contact-render.md.
 */
#define _POSIX_C_SOURCE 200809L

#include "host.h"
#include "render_tail.h"
#include "spectrogram.h"

#include <sndfile.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ITEMS = 1024 };

typedef struct note {
  double time, duration;
  int key, velocity;
} note;

typedef struct midi_event {
  double time;
  uint8_t bytes[3];
} midi_event;

typedef struct setting {
  char symbol[64];
  double value;
} setting;

typedef struct ramp_spec {
  char symbol[64];
  double start, end, from, to;
} ramp_spec;

typedef struct scene {
  char plugin[256];
  char preset[256];
  char title[256];
  double rate, length, tail;
  unsigned block;
  setting sets[MAX_ITEMS];
  int n_sets;
  note notes[MAX_ITEMS];
  int n_notes;
  ramp_spec ramps[MAX_ITEMS];
  int n_ramps;
  midi_event events[MAX_ITEMS];
  int n_events;
} scene;

static void
usage(FILE* f)
{
  fputs("usage: contact-render [OPTION]... [SCENE]...\n"
        "Render an LV2 plugin of the contact bundle (found on LV2_PATH).\n\n"
        "  -o, --out FILE.wav         write the render (32-bit float WAV)\n"
        "      --png FILE.png         write a spectrogram picture\n"
        "      --raw FILE             write raw interleaved float32 stereo\n"
        "  -p, --plugin URI           plugin (default urn:contact:impact)\n"
        "  -P, --preset URI           load a preset first\n"
        "  -r, --rate HZ              sample rate (default 48000)\n"
        "  -b, --block N              block size (default 256)\n"
        "  -l, --length SECONDS       length (default: last note + 3 s)\n",
        f);
  fprintf(f,
          "      --tail SECONDS         render at most this long past the "
          "length\n"
          "                             while the sound rings (default %d)\n"
          "      --no-tail              stop at the length exactly, no fade\n",
          RENDER_TAIL_MAX);
  fputs(
      "  -s, --set SYMBOL=VALUE     set a control port\n"
      "  -n, --note T:KEY:VEL[:DUR] note-on at T seconds (note-off after DUR)\n"
      "  -a, --ramp SYM:T0:T1:V0:V1 move a control linearly from T0 to T1\n"
      "  -c, --cc T:CONTROLLER:VALUE  a MIDI control change at T seconds\n"
      "  -B, --bend T:AMOUNT        pitch bend at T seconds, -1..1 of the\n"
      "                             plugin's bend range\n"
      "  -t, --title TEXT           title of the picture\n"
      "  -m, --meters               print the output control ports at the end\n"
      "  -h, --help\n\n"
      "A SCENE file holds the same options, one per line, long names without\n"
      "dashes and values separated by blanks, e.g.\n"
      "  plugin urn:contact:impact\n"
      "  set stiffness 1e9\n"
      "  note 0.5 60 100 0.3\n"
      "  ramp ext_force 1 2 0 0.5\n"
      "Lines starting with # are comments.\n\n",
      f);
  fprintf(f,
          "At its length held keys and the sustain pedal are let go, and the\n"
          "render goes on until the output has stayed\n"
          "below %d dBFS for %d ms (the sound has rung out), or for the tail\n"
          "at most, and its last %d ms fade to zero: a file does not end with\n"
          "a step, which would click.\n",
          RENDER_QUIET_DBFS, RENDER_QUIET_MS, RENDER_FADE_MS);
}

static bool
parse_double(const char* s, double* out)
{
  char* end;
  errno = 0;
  *out = strtod(s, &end);
  return end != s && *end == '\0' && errno == 0 && isfinite(*out);
}

/* split "a:b:c" (or "a b c") into at most n fields */
static int
split(char* s, char** fields, int n, const char* seps)
{
  int count = 0;
  for (char* tok = strtok(s, seps); tok && count < n; tok = strtok(NULL, seps))
    fields[count++] = tok;
  return count;
}

static bool
apply(scene* sc, const char* key, char* value, const char* seps)
{
  char* f[5];
  if (!strcmp(key, "plugin") || !strcmp(key, "p")) {
    snprintf(sc->plugin, sizeof(sc->plugin), "%s", value);
  } else if (!strcmp(key, "preset") || !strcmp(key, "P")) {
    snprintf(sc->preset, sizeof(sc->preset), "%s", value);
  } else if (!strcmp(key, "title") || !strcmp(key, "t")) {
    snprintf(sc->title, sizeof(sc->title), "%s", value);
  } else if (!strcmp(key, "rate") || !strcmp(key, "r")) {
    return parse_double(value, &sc->rate) && sc->rate > 0;
  } else if (!strcmp(key, "length") || !strcmp(key, "l")) {
    return parse_double(value, &sc->length) && sc->length >= 0;
  } else if (!strcmp(key, "tail")) {
    return parse_double(value, &sc->tail) && sc->tail >= 0;
  } else if (!strcmp(key, "block") || !strcmp(key, "b")) {
    double b;
    if (!parse_double(value, &b) || b < 1 || b > 65536)
      return false;
    sc->block = (unsigned)b;
  } else if (!strcmp(key, "set") || !strcmp(key, "s")) {
    char* eq = strchr(value, '=');
    char* sym = value;
    char* val = NULL;
    if (eq) {
      *eq = '\0';
      val = eq + 1;
    } else if (split(value, f, 2, " \t") == 2) {
      sym = f[0];
      val = f[1];
    }
    if (!val || sc->n_sets >= MAX_ITEMS)
      return false;
    setting* s = &sc->sets[sc->n_sets];
    snprintf(s->symbol, sizeof(s->symbol), "%s", sym);
    if (!parse_double(val, &s->value))
      return false;
    sc->n_sets++;
  } else if (!strcmp(key, "note") || !strcmp(key, "n")) {
    const int k = split(value, f, 4, seps);
    double t, key_d, vel, dur = 0;
    if (k < 3 || sc->n_notes >= MAX_ITEMS || !parse_double(f[0], &t) ||
        !parse_double(f[1], &key_d) || !parse_double(f[2], &vel) ||
        (k == 4 && !parse_double(f[3], &dur)) || t < 0)
      return false;
    sc->notes[sc->n_notes++] = (note){t, dur, (int)key_d, (int)vel};
  } else if (!strcmp(key, "ramp") || !strcmp(key, "a")) {
    if (split(value, f, 5, seps) != 5 || sc->n_ramps >= MAX_ITEMS)
      return false;
    ramp_spec* r = &sc->ramps[sc->n_ramps];
    snprintf(r->symbol, sizeof(r->symbol), "%s", f[0]);
    if (!parse_double(f[1], &r->start) || !parse_double(f[2], &r->end) ||
        !parse_double(f[3], &r->from) || !parse_double(f[4], &r->to))
      return false;
    sc->n_ramps++;
  } else if (!strcmp(key, "cc") || !strcmp(key, "c")) {
    double t, ctl, val;
    if (split(value, f, 3, seps) != 3 || sc->n_events >= MAX_ITEMS ||
        !parse_double(f[0], &t) || !parse_double(f[1], &ctl) ||
        !parse_double(f[2], &val) || t < 0 || ctl < 0 || ctl > 127 || val < 0 ||
        val > 127)
      return false;
    sc->events[sc->n_events++] =
        (midi_event){t, {0xB0, (uint8_t)ctl, (uint8_t)val}};
  } else if (!strcmp(key, "bend") || !strcmp(key, "B")) {
    double t, amount;
    if (split(value, f, 2, seps) != 2 || sc->n_events >= MAX_ITEMS ||
        !parse_double(f[0], &t) || !parse_double(f[1], &amount) || t < 0 ||
        amount < -1 || amount > 1)
      return false;
    const int v = (int)lround(8192 + amount * 8191);
    sc->events[sc->n_events++] =
        (midi_event){t, {0xE0, (uint8_t)(v & 0x7F), (uint8_t)(v >> 7)}};
  } else {
    return false;
  }
  return true;
}

static bool
read_scene(scene* sc, const char* path)
{
  FILE* f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "contact-render: %s: %s\n", path, strerror(errno));
    return false;
  }
  char line[1024];
  int n = 0;
  bool ok = true;
  while (ok && fgets(line, sizeof(line), f)) {
    ++n;
    char* s = line;
    while (isspace((unsigned char)*s))
      ++s;
    char* end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
      *--end = '\0';
    if (*s == '\0' || *s == '#')
      continue;
    char* value = s;
    while (*value && !isspace((unsigned char)*value))
      ++value;
    if (*value)
      *value++ = '\0';
    while (isspace((unsigned char)*value))
      ++value;
    if (!apply(sc, s, value, " \t")) {
      fprintf(stderr, "contact-render: %s:%d: cannot read '%s %s'\n", path, n,
              s, value);
      ok = false;
    }
  }
  fclose(f);
  return ok;
}

static bool
write_wav(const char* path, const float* l, const float* r, size_t frames,
          double rate)
{
  SF_INFO info = {0};
  info.samplerate = (int)rate;
  info.channels = 2;
  info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
  SNDFILE* f = sf_open(path, SFM_WRITE, &info);
  if (!f) {
    fprintf(stderr, "contact-render: %s: %s\n", path, sf_strerror(NULL));
    return false;
  }
  float buf[2 * 4096];
  for (size_t at = 0; at < frames; at += 4096) {
    const size_t n = frames - at < 4096 ? frames - at : 4096;
    for (size_t i = 0; i < n; ++i) {
      buf[2 * i] = l[at + i];
      buf[2 * i + 1] = r[at + i];
    }
    sf_writef_float(f, buf, (sf_count_t)n);
  }
  return sf_close(f) == 0;
}

/* Render the stated frames, then on (in blocks) until the output has
 * stayed below RENDER_QUIET_DBFS for RENDER_QUIET_MS, or max_frames;
 * the frames to keep: up to the end of that quiet stretch. */
static size_t
render_until_quiet(host* h, unsigned block, size_t stated, size_t max_frames,
                   float* l, float* r)
{
  const double rate = host_sample_rate(h);
  const float quiet = (float)pow(10.0, RENDER_QUIET_DBFS / 20.0);
  const size_t window = (size_t)llround(RENDER_QUIET_MS * 1e-3 * rate);
  size_t done = 0, loud_end = 0; /* one past the last loud frame */
  for (;;) {
    const size_t want = done < stated ? stated : loud_end + window;
    if (want <= done || done >= max_frames)
      break;
    size_t n = done < stated ? stated - done : block;
    if (n > max_frames - done)
      n = max_frames - done;
    host_run(h, n, block, l + done, r + done);
    for (size_t i = done; i < done + n; ++i)
      if (fabsf(l[i]) > quiet || fabsf(r[i]) > quiet)
        loud_end = i + 1;
    done += n;
  }
  const size_t keep = loud_end + window;
  return keep < stated ? stated : keep < done ? keep : done;
}

/* raised-cosine fade of the last RENDER_FADE_MS down to zero */
static void
fade_out(float* l, float* r, size_t frames, double rate)
{
  size_t n = (size_t)llround(RENDER_FADE_MS * 1e-3 * rate);
  if (n > frames)
    n = frames;
  const double pi = 3.14159265358979323846;
  for (size_t i = 0; i < n; ++i) {
    const size_t at = frames - n + i;
    const double g = 0.5 + 0.5 * cos(pi * (double)(i + 1) / (double)n);
    l[at] = (float)(l[at] * g);
    r[at] = (float)(r[at] * g);
  }
}

int
main(int argc, char** argv)
{
  static scene sc;
  snprintf(sc.plugin, sizeof(sc.plugin), "urn:contact:impact");
  sc.rate = 48000;
  sc.block = 256;
  sc.length = -1;
  sc.tail = RENDER_TAIL_MAX;
  const char *wav = NULL, *png = NULL, *raw = NULL;
  bool meters = false, tail = true;

  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "-m") || !strcmp(a, "--meters")) {
      meters = true;
      continue;
    }
    if (!strcmp(a, "--no-tail")) {
      tail = false;
      continue;
    }
    if (a[0] != '-') {
      if (!read_scene(&sc, a))
        return 1;
      continue;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "contact-render: %s needs a value\n", a);
      return 1;
    }
    char* v = argv[++i];
    const char* key = a[1] == '-' ? a + 2 : a + 1;
    if (!strcmp(key, "o") || !strcmp(key, "out"))
      wav = v;
    else if (!strcmp(key, "png"))
      png = v;
    else if (!strcmp(key, "raw"))
      raw = v;
    else if (!apply(&sc, key, v, ":")) {
      fprintf(stderr, "contact-render: cannot read %s %s\n", a, v);
      usage(stderr);
      return 1;
    }
  }

  double last = 0;
  for (int i = 0; i < sc.n_notes; ++i)
    last = fmax(last, sc.notes[i].time + sc.notes[i].duration);
  for (int i = 0; i < sc.n_ramps; ++i)
    last = fmax(last, sc.ramps[i].end);
  for (int i = 0; i < sc.n_events; ++i)
    last = fmax(last, sc.events[i].time);
  const double stated = sc.length >= 0 ? sc.length : last + 3.0;
  const size_t stated_frames = (size_t)llround(stated * sc.rate);
  const size_t max_frames =
      stated_frames + (tail ? (size_t)llround(sc.tail * sc.rate) : 0);

  host* h = host_open(sc.plugin, sc.rate, sc.block);
  if (!h)
    return 1;
  if (sc.preset[0] && !host_load_preset(h, sc.preset))
    return 1;
  for (int i = 0; i < sc.n_sets; ++i)
    if (!host_set(h, sc.sets[i].symbol, (float)sc.sets[i].value))
      return 1;
  for (int i = 0; i < sc.n_notes; ++i) {
    const note* n = &sc.notes[i];
    const uint64_t on = (uint64_t)llround(n->time * sc.rate);
    host_note_on(h, on, n->key, n->velocity);
    if (n->duration > 0)
      host_note_off(h, on + (uint64_t)llround(n->duration * sc.rate), n->key);
  }
  for (int i = 0; i < sc.n_events; ++i)
    host_midi(h, (uint64_t)llround(sc.events[i].time * sc.rate),
              sc.events[i].bytes, 3);
  if (tail) { /* the scene is over: the pedal and every key let go */
    const uint8_t pedal_up[3] = {0xB0, 64, 0},
                  all_notes_off[3] = {0xB0, 123, 0};
    host_midi(h, stated_frames, pedal_up, 3);
    host_midi(h, stated_frames, all_notes_off, 3);
  }
  for (int i = 0; i < sc.n_ramps; ++i) {
    const ramp_spec* r = &sc.ramps[i];
    if (!host_ramp(h, r->symbol, (uint64_t)llround(r->start * sc.rate),
                   (uint64_t)llround(r->end * sc.rate), (float)r->from,
                   (float)r->to))
      return 1;
  }

  float* l = (float*)calloc(max_frames + 1, sizeof(float));
  float* r = (float*)calloc(max_frames + 1, sizeof(float));
  if (!l || !r) {
    fputs("contact-render: out of memory\n", stderr);
    return 1;
  }
  const size_t frames =
      tail ? render_until_quiet(h, sc.block, stated_frames, max_frames, l, r)
           : (host_run(h, stated_frames, sc.block, l, r), stated_frames);
  if (tail)
    fade_out(l, r, frames, sc.rate);
  const double length = (double)frames / sc.rate;

  float peak = 0;
  for (size_t i = 0; i < frames; ++i)
    peak = fmaxf(peak, fmaxf(fabsf(l[i]), fabsf(r[i])));
  if (peak > 1.0f)
    fprintf(stderr, "contact-render: peak %.2f dBFS exceeds full scale\n",
            20 * log10(peak));

  int status = 0;
  if (wav && !write_wav(wav, l, r, frames, sc.rate))
    status = 1;
  if (raw) {
    FILE* f = fopen(raw, "wb");
    for (size_t i = 0; f && i < frames; ++i) {
      const float pair[2] = {l[i], r[i]};
      fwrite(pair, sizeof(float), 2, f);
    }
    if (!f || fclose(f)) {
      fprintf(stderr, "contact-render: cannot write %s\n", raw);
      status = 1;
    }
  }
  if (png && !spectrogram_png(l, r, frames, sc.rate, png,
                              sc.title[0] ? sc.title : sc.plugin, NULL)) {
    fprintf(stderr, "contact-render: cannot write %s\n", png);
    status = 1;
  }
  if (meters) {
    for (int i = 0; i < host_n_ports(h); ++i) {
      float lo, def, hi;
      bool out;
      if (host_port_range(h, i, &lo, &def, &hi, &out) && out)
        printf("%s %.9g\n", host_port_symbol(h, i), host_get_index(h, i));
    }
  }
  printf("%s: %.2f s at %g Hz, peak %.1f dBFS\n", wav ? wav : "(no file)",
         length, sc.rate, peak > 0 ? 20 * log10(peak) : -INFINITY);
  free(l);
  free(r);
  host_close(h);
  return status;
}
