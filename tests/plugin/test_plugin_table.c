/* SPDX-License-Identifier: ISC */
/*
 * The modal table parameter (urn:contact:modal_table) through a host:
 *   a. a 128-mode table set with patch:Set plays its modes: the 16 strong
 *      ones ring at the file's frequency (0.1 %) and decay (3 %), measured
 *      on the audio; the table's `# root:` wins over the root_note port;
 *      patch:Get answers with the path (impact: a strike rings freely);
 *   b. tables swapped while a note rings: no step at the swap above the
 *      signal's own largest step in the 10 ms around it (modes leaving
 *      ring out, modes retuned keep their amplitude), and no allocation in
 *      run() or work_response() all along (impact);
 *   c. state: saved with a table, restored into fresh instances (by the
 *      worker, as while running, and in restore() itself): the next notes
 *      are bit-identical to the saving instance's; a state whose file has
 *      moved restores the mode ports, with a log:Error naming the file;
 *   d. bad files (empty, truncated, binary, NaN, negative or too high a
 *      frequency, 129 modes, over 1 MiB, a directory, no file) are each
 *      refused with a log:Error naming the file (and the line, where the
 *      fault is on one), the table in use kept: patch:Get still answers it
 *      and the notes after are bit-identical to an instance that never saw
 *      the bad files;
 *      a table whose every mode is above 0.45 of the sample rate (what a
 *      voice plays) is loaded, with a log:Warning naming the file; one
 *      with a mode under it loads without;
 *   e. right_gain: each mode's right / left ratio on the audio (its
 *      spectrum at the mode's frequency) is (1 - width) + width rho with
 *      rho = right_gain / gain, the table's second pickup, at width 0.6;
 *      width 0 is mono (right = left, bit for bit); a table without
 *      right_gain hears the mirror point (+1, -1, ... weights) and plays
 *      bit-identically to one whose right_gain is the mirror's.
 * Usage: test_plugin_table [PLUGIN-URI]
 */
#define _POSIX_C_SOURCE 200809L

#include "analysis.h"
#include "check.h"
#include "host.h"
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const double rate = 48000.0;
enum { BLOCK = 256, MODES = 128, STRONG = 16 };

static char dir[] = "/tmp/contact-table-XXXXXX";

static void
path_in(char* out, size_t size, const char* name)
{
  snprintf(out, size, "%s/%s", dir, name);
}

static void
write_file(const char* path, const char* text, size_t length)
{
  if (!check_write_file(path, text, length))
    exit(1);
}

/* Table A: 128 modes 3.8 % apart from 150 Hz; 16 strong ones (gain 1)
 * every 6th from the 24th, the others weak (0.01); decays 0.3-0.7 s.
 * Root 60. */
static double a_freq[MODES], a_decay[MODES];
static int strong[STRONG];

static void
write_table_a(const char* path)
{
  static char text[16384];
  size_t used =
      (size_t)snprintf(text, sizeof(text), "# name: test A\n# root: 60\n");
  for (int k = 0; k < MODES; ++k) {
    a_freq[k] = 150.0 * pow(1.038, k);
    a_decay[k] = 0.3 + 0.04 * ((k * 37) % 11);
    const bool is_strong = k >= 24 && (k - 24) % 6 == 0 && (k - 24) / 6 < 16;
    if (is_strong)
      strong[(k - 24) / 6] = k;
    used +=
        (size_t)snprintf(text + used, sizeof(text) - used, "%.17g %.17g %g\n",
                         a_freq[k], a_decay[k], is_strong ? 1.0 : 0.01);
  }
  write_file(path, text, used);
}

/* A table of n modes: frequency f0 r^k for k < split, then low strong
 * modes (a bell's hum under a bright bar: cutting them would click). */
static void
write_table(const char* path, int n, double f0, double r, int split)
{
  static char text[16384];
  size_t used = 0;
  for (int k = 0; k < n; ++k) {
    const bool low = k >= split;
    const double f = low ? 80.0 + 2.0 * (k - split) : f0 * pow(r, k);
    used += (size_t)snprintf(text + used, sizeof(text) - used, "%.17g %g %g\n",
                             f, low ? 2.0 : 0.5, low ? 1.0 : 0.3);
  }
  write_file(path, text, used);
}

static host*
open_host(const char* uri)
{
  host* h = host_open(uri, rate, BLOCK);
  if (!h)
    exit(1);
  host_log_quiet(h, true);
  HOST_OK(host_set(h, "modes", (float)MODES));
  HOST_OK(host_set(h, "gain", 0.0f));
  return h;
}

/* patch:Set, then a block for the worker and one for the swap */
static void
set_table(host* h, const char* path)
{
  HOST_OK(host_set_table(h, host_now(h), path));
  host_run(h, 2 * BLOCK, BLOCK, NULL, NULL);
}

static bool
answers(host* h, const char* path)
{
  const int before = host_table_replies(h);
  HOST_OK(host_get_table(h, host_now(h)));
  host_run(h, BLOCK, BLOCK, NULL, NULL);
  return host_table_replies(h) == before + 1 &&
         !strcmp(host_table_reply(h), path);
}

/* ---- a -------------------------------------------------------------- */

static void
test_modes(const char* uri)
{
  char path[256];
  path_in(path, sizeof(path), "a.modes");
  write_table_a(path);
  host* h = open_host(uri);
  /* the table's root (60) is what the note is played against, not the
   * port's 48: played at 60 the table sounds as written */
  HOST_OK(host_set(h, "root_note", 48.0f));
  HOST_OK(host_set(h, "stiffness", 1e12f));
  HOST_OK(host_set(h, "hammer_mass", 1.0f));
  set_table(h, path);
  CHECK(host_table_replies(h) == 1 && !strcmp(host_table_reply(h), path),
        "a: no patch:Set of '%s' after the swap (%d replies, '%s')", path,
        host_table_replies(h), host_table_reply(h));
  CHECK(answers(h, path), "a: patch:Get does not answer '%s'", path);
  CHECK(host_log_errors(h) == 0, "a: the good table was refused: %s",
        host_log_last(h));

  HOST_OK(host_note_on(h, host_now(h), 60, 100));
  render r = render_run(h, 1.2, BLOCK);
  const size_t at = (size_t)(0.02 * rate), len = r.frames - at;
  double worst_f = 0.0, worst_d = 0.0;
  for (int j = 0; j < STRONG; ++j) {
    const int k = strong[j];
    const double f = peak_frequency(r.l + at, len, rate, a_freq[k], 0.01);
    const double d = decay_time(r.l + at, len, rate, a_freq[k], 8192);
    worst_f = worst_of(worst_f, f / a_freq[k] - 1.0);
    worst_d = worst_of(worst_d, d / a_decay[k] - 1.0);
    char label[64];
    snprintf(label, sizeof(label), "a: mode %d frequency", k + 1);
    check_rel(label, f, a_freq[k], 1e-3);
    snprintf(label, sizeof(label), "a: mode %d decay", k + 1);
    check_rel(label, d, a_decay[k], 0.03);
  }
  printf("a: 16 strong modes of 128 (modes 25-115, %.0f-%.0f Hz): worst "
         "frequency error %.2e, decay error %.2e; peak %.3f\n",
         a_freq[strong[0]], a_freq[strong[STRONG - 1]], worst_f, worst_d,
         peak_abs(r.l, r.frames));
  CHECK(peak_abs(r.l, r.frames) < 0.9, "a: the limiter may have touched it");
  render_free(&r);
  host_close(h);
}

/* ---- b -------------------------------------------------------------- */

static double
step_at(const float* x, size_t i)
{
  return fabs((double)x[i] - (double)x[i - 1]);
}

/* the swap at frame b of x: the step into b against the largest step in
 * the 10 ms before and after it; the peak after against the peak before */
static void
check_swap(const char* what, const float* x, size_t b, double max_peak_ratio)
{
  const size_t w = (size_t)(0.01 * rate);
  const double before = max_step(x, b - w, b);
  const double after = max_step(x, b + 1, b + w);
  const double own = fmax(before, after);
  const double jump = step_at(x, b);
  const double peak_before = peak_abs(x + b - w, w);
  const double peak_after = peak_abs(x + b, w);
  printf("b: %s: step at the swap %.3g, largest step around %.3g (before "
         "%.3g, after %.3g); peak %.3g -> %.3g\n",
         what, jump, own, before, after, peak_before, peak_after);
  CHECK(jump <= own, "b: %s: a step of %.3g at the swap, above %.3g", what,
        jump, own);
  CHECK(peak_after <= max_peak_ratio * peak_before,
        "b: %s: the peak jumps from %.3g to %.3g", what, peak_before,
        peak_after);
}

static void
test_swap(const char* uri)
{
  char p1[256], p2[256], p3[256];
  path_in(p1, sizeof(p1), "b1.modes");
  path_in(p2, sizeof(p2), "b2.modes");
  path_in(p3, sizeof(p3), "b3.modes");
  /* 1: 64 bright modes and 64 low strong ones; 2: the bright ones a
   * semitone up, the low ones gone (they must ring out); 3: two octaves
   * above 2 (each mode's amplitude must stay) */
  write_table(p1, 128, 400.0, 1.03, 64);
  write_table(p2, 64, 400.0 * 1.0595, 1.03, 64);
  write_table(p3, 64, 1600.0 * 1.0595, 1.03, 64);
  host* h = open_host(uri);
  set_table(h, p1);
  const uint64_t t0 = host_now(h);
  HOST_OK(host_note_on(h, t0, 60, 127));
  /* each patch:Set in block k swaps at the start of block k + 1 */
  const uint64_t s1 = t0 + 40 * BLOCK, s2 = t0 + 80 * BLOCK;
  HOST_OK(host_set_table(h, s1 - BLOCK + 17, p2));
  HOST_OK(host_set_table(h, s2 - BLOCK + 101, p3));
  render r = render_run(h, (double)(120 * BLOCK) / rate, BLOCK);
  check_swap("128 modes -> 64 (64 low ones ring out)", r.l, s1 - t0, 1.5);
  check_swap("right, 128 -> 64", r.r, s1 - t0, 1.5);
  check_swap("64 modes two octaves up", r.l, s2 - t0, 1.5);
  CHECK(host_table_replies(h) == 3 && !strcmp(host_table_reply(h), p3),
        "b: %d table replies, the last '%s'", host_table_replies(h),
        host_table_reply(h));
  /* back to the ports with a note ringing, and a few more swaps */
  HOST_OK(host_note_on(h, host_now(h), 64, 90));
  HOST_OK(host_set_table(h, host_now(h) + 3000, ""));
  HOST_OK(host_set_table(h, host_now(h) + 6000, p1));
  HOST_OK(host_note_on(h, host_now(h) + 6500, 67, 90));
  HOST_OK(host_set_table(h, host_now(h) + 9000, p2));
  host_run(h, 24000, BLOCK, NULL, NULL);
  const long long allocations = host_run_allocations(h);
  printf("b: allocations in run() and work_response(): %lld\n", allocations);
  CHECK(allocations <= 0, "b: %lld allocations in the audio thread",
        allocations);
  CHECK(host_log_errors(h) == 0, "b: %s", host_log_last(h));
  render_free(&r);
  host_close(h);
}

/* ---- c -------------------------------------------------------------- */

/* the same notes on a fresh-played host, at a block-aligned frame (so
 * that the voices are looked after at the same frames) */
static render
play_notes(host* h)
{
  const uint64_t t = (host_now(h) + BLOCK - 1) / BLOCK * BLOCK + 4 * BLOCK;
  host_run(h, t - host_now(h), BLOCK, NULL, NULL);
  HOST_OK(host_note_on(h, t + 10, 60, 100));
  HOST_OK(host_note_on(h, t + 1001, 67, 127));
  HOST_OK(host_note_off(h, t + 4000, 60));
  return render_run(h, 0.3, BLOCK);
}

static size_t
count_differ(const render* a, const render* b)
{
  size_t n = 0;
  for (size_t i = 0; i < a->frames && i < b->frames; ++i)
    n += a->l[i] != b->l[i] || a->r[i] != b->r[i];
  return n;
}

/* the same notes on both; samples that differ */
static size_t
differ(host* a, host* b, double* peak)
{
  render ra = play_notes(a), rb = play_notes(b);
  const size_t n = count_differ(&ra, &rb);
  if (peak)
    *peak = peak_abs(ra.l, ra.frames);
  render_free(&ra);
  render_free(&rb);
  return n;
}

/* a fresh instance restoring `state`, through the worker or not, run on
 * to `frame` */
static host*
restored(const char* uri, const char* state, bool worker, uint64_t frame,
         const char* before)
{
  host* h = open_host(uri);
  if (before) /* a table in use that the state replaces */
    set_table(h, before);
  host_restore_with_worker(h, worker);
  CHECK(host_restore_state(h, state), "c: restoring %s failed", state);
  host_run(h, frame - host_now(h), BLOCK, NULL, NULL);
  return h;
}

static void
test_state(const char* uri)
{
  char table[256], moved[256], state_dir[256], state[300];
  path_in(table, sizeof(table), "c.modes");
  path_in(moved, sizeof(moved), "c-moved.modes");
  path_in(state_dir, sizeof(state_dir), "state");
  snprintf(state, sizeof(state), "%s/state.ttl", state_dir);
  write_table(table, 40, 300.0, 1.05, 30);

  host* a = open_host(uri);
  set_table(a, table);
  host_run(a, BLOCK, BLOCK, NULL, NULL);
  CHECK(host_save_state(a, state_dir, "state.ttl"), "c: saving failed");
  const uint64_t frame = host_now(a) + 8 * BLOCK;
  host_run(a, frame - host_now(a), BLOCK, NULL, NULL);

  host* by_worker = restored(uri, state, true, frame, NULL);
  host* in_restore = restored(uri, state, false, frame, NULL);
  host* ports = open_host(uri); /* never had a table */
  host_run(ports, frame, BLOCK, NULL, NULL);
  /* lilv links the file into the state's folder: the path comes back as
   * the link's */
  char linked[300];
  snprintf(linked, sizeof(linked), "%s/c.modes", state_dir);
  CHECK(answers(by_worker, linked) || answers(by_worker, table),
        "c: restored by the worker, patch:Get answers '%s'",
        host_table_reply(by_worker));
  CHECK(answers(in_restore, linked) || answers(in_restore, table),
        "c: restored in restore(), patch:Get answers '%s'",
        host_table_reply(in_restore));
  /* every host at the same frame, then the same notes */
  host_run(a, 2 * BLOCK, BLOCK, NULL, NULL);
  host_run(ports, 2 * BLOCK, BLOCK, NULL, NULL);
  render ra = play_notes(a), rw = play_notes(by_worker),
         rr = play_notes(in_restore), rp = play_notes(ports);
  const double peak = peak_abs(ra.l, ra.frames);
  const size_t d1 = count_differ(&ra, &rw), d2 = count_differ(&ra, &rr),
               d3 = count_differ(&ra, &rp);
  printf("c: restored by the worker: %zu samples differ, in restore(): %zu "
         "(peak %.3g); an instance without the table: %zu\n",
         d1, d2, peak, d3);
  CHECK(d1 == 0 && d2 == 0, "c: the restored instances play otherwise");
  CHECK(d3 > 1000 && peak > 1e-3, "c: the table makes no difference");
  render_free(&ra);
  render_free(&rw);
  render_free(&rr);
  render_free(&rp);

  /* the file the state names moves away (the link, and what it points
   * to): the mode ports, and an error naming it, even where another table
   * was in use before the restore */
  char other[256];
  path_in(other, sizeof(other), "c-other.modes");
  write_table(other, 12, 500.0, 1.1, 12);
  if (rename(table, moved) != 0) {
    perror(table);
    exit(1);
  }
  for (int worker = 0; worker < 2; ++worker) {
    host* e = restored(uri, state, worker, frame, other);
    host* fresh = open_host(uri);
    host_run(fresh, frame, BLOCK, NULL, NULL);
    const char* name = strrchr(table, '/') + 1;
    printf("c: file moved, restored %s: %d error(s): %s",
           worker ? "by the worker" : "in restore()", host_log_errors(e),
           host_log_last(e));
    CHECK(host_log_errors(e) == 1 && strstr(host_log_all(e), name),
          "c: no log:Error naming %s", name);
    CHECK(answers(e, ""), "c: file moved: patch:Get answers '%s'",
          host_table_reply(e));
    host_run(fresh, BLOCK, BLOCK, NULL, NULL);
    const size_t d = differ(fresh, e, NULL);
    CHECK(d == 0, "c: file moved: %zu samples differ from the mode ports", d);
    host_close(e);
    host_close(fresh);
  }
  if (rename(moved, table) != 0)
    perror(moved);
  host_close(a);
  host_close(by_worker);
  host_close(in_restore);
  host_close(ports);
}

/* ---- e -------------------------------------------------------------- */

enum { E_MODES = 5 };
static const double e_freq[E_MODES] = {300.0, 700.0, 1500.0, 3100.0, 6200.0};
static const double e_gain[E_MODES] = {1.0, 0.8, 0.6, 0.5, 0.4};
/* phi(q) / phi(p): modes 2 and 4 off the mirror point */
static const double e_rho[E_MODES] = {1.0, 0.5, 1.0, -2.0, 1.0};
static const double e_width = 0.6;

/* the table with right_gain = rho gain (mirror: rho +1, -1, ...), or
 * without it */
static void
write_table_e(const char* path, bool right, bool mirror)
{
  static char text[4096];
  size_t used = (size_t)snprintf(text, sizeof(text), "# root: 60\n");
  for (int k = 0; k < E_MODES; ++k) {
    const double rho = mirror ? (k % 2 ? -1.0 : 1.0) : e_rho[k];
    used += (size_t)snprintf(text + used, sizeof(text) - used, "%g 0.4 %g",
                             e_freq[k], e_gain[k]);
    if (right)
      used += (size_t)snprintf(text + used, sizeof(text) - used, " %.17g",
                               rho * e_gain[k]);
    used += (size_t)snprintf(text + used, sizeof(text) - used, "\n");
  }
  write_file(path, text, used);
}

/* a note on the table at `path` at `width`: 0.3 s played, then ringing */
static render
play_table(const char* uri, const char* path, double width)
{
  host* h = open_host(uri);
  HOST_OK(host_set(h, "width", (float)width));
  set_table(h, path);
  CHECK(host_log_errors(h) == 0, "e: %s refused: %s", path, host_log_last(h));
  const uint64_t t = host_now(h);
  HOST_OK(host_note_on(h, t, 60, 64));
  HOST_OK(host_note_off(h, t + (uint64_t)(0.3 * rate), 60));
  render r = render_run(h, 1.5, BLOCK);
  host_close(h);
  return r;
}

/* x's spectrum at f (Hann window) */
static void
spectrum_at(const float* x, size_t n, double f, double* re, double* im)
{
  const double pi = 3.14159265358979323846;
  double sr = 0.0, si = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double w = 0.5 - 0.5 * cos(2.0 * pi * (double)i / (double)n);
    const double ph = 2.0 * pi * f * (double)i / rate;
    sr += w * x[i] * cos(ph);
    si -= w * x[i] * sin(ph);
  }
  *re = sr;
  *im = si;
}

/* right / left at mode k's frequency: the right's spectrum projected on
 * the left's */
static double
ratio_at(const render* r, int k)
{
  double lr, li, rr, ri;
  spectrum_at(r->l, r->frames, e_freq[k], &lr, &li);
  spectrum_at(r->r, r->frames, e_freq[k], &rr, &ri);
  return (rr * lr + ri * li) / (lr * lr + li * li);
}

static void
test_right_gain(const char* uri)
{
  /* At a mode's frequency the others leak in by about their bandwidth
   * over their distance, 1 / (pi t_e) / 400 Hz ~ 2e-3 at most, times
   * their weights' difference (up to 2.2); a mode heard with the mirror's
   * weight instead is off by 0.3 or more. */
  const double leak_tol = 0.01;
  char right[256], plain[256], mirror[256];
  path_in(right, sizeof(right), "e-right.modes");
  path_in(plain, sizeof(plain), "e-plain.modes");
  path_in(mirror, sizeof(mirror), "e-mirror.modes");
  write_table_e(right, true, false);
  write_table_e(plain, false, false);
  write_table_e(mirror, true, true);

  render r = play_table(uri, right, e_width);
  render p = play_table(uri, plain, e_width);
  const double peak = fmax(peak_abs(r.l, r.frames), peak_abs(r.r, r.frames));
  printf("e: peak %.3g\n", peak);
  CHECK(peak > 1e-6 && peak < 0.5,
        "e: peak %.3g (silent, or the limiter may have touched it)", peak);
  for (int k = 0; k < E_MODES; ++k) {
    char label[64];
    snprintf(label, sizeof(label), "e: mode %d (rho %g) right/left", k + 1,
             e_rho[k]);
    check_rel(label, ratio_at(&r, k), 1.0 + e_width * (e_rho[k] - 1.0),
              leak_tol);
    snprintf(label, sizeof(label), "e: mode %d, no right_gain, right/left",
             k + 1);
    check_rel(label, ratio_at(&p, k), k % 2 ? 1.0 - 2.0 * e_width : 1.0,
              leak_tol);
  }
  render m = play_table(uri, mirror, e_width);
  const size_t d_mirror = count_differ(&p, &m);
  render mono = play_table(uri, right, 0.0);
  size_t d_mono = 0;
  for (size_t i = 0; i < mono.frames; ++i)
    d_mono += mono.l[i] != mono.r[i];
  printf("e: no right_gain against the mirror's right_gain: %zu samples "
         "differ; width 0: %zu right samples differ from the left\n",
         d_mirror, d_mono);
  CHECK(d_mirror == 0, "e: the mirror's right_gain plays otherwise");
  CHECK(d_mono == 0 && peak_abs(mono.l, mono.frames) > 1e-6,
        "e: width 0 is not mono");
  render_free(&r);
  render_free(&p);
  render_free(&m);
  render_free(&mono);
}

/* ---- d -------------------------------------------------------------- */

typedef struct bad_file {
  const char* name;
  const char* text; /* NULL: made otherwise */
  int line;         /* of the fault, 0: the file as a whole */
} bad_file;

static void
test_bad_files(const char* uri)
{
  static const bad_file bad[] = {
      {"empty.modes", "", 0},
      {"truncated.modes", "100 0.5 1\n200 0.5", 2},
      {"binary.modes", NULL, 1},
      {"nan.modes", "100 0.5 1\nnan 0.5 1\n", 2},
      {"negative.modes", "# root: 60\n-100 0.5 1\n", 2},
      {"too-high.modes", "100 0.5 1\n200 0.5 1\n2e5 0.5 1\n", 3},
      {"129.modes", NULL, 129},
      {"huge.modes", NULL, 0},
      {"a-directory.modes", NULL, 0},
      {"nonexistent.modes", NULL, 0},
  };
  const int n_bad = (int)(sizeof(bad) / sizeof(bad[0]));
  char good[256], path[256];
  path_in(good, sizeof(good), "good.modes");
  write_table(good, 24, 250.0, 1.07, 20);
  for (int i = 0; i < n_bad; ++i) {
    path_in(path, sizeof(path), bad[i].name);
    if (bad[i].text) {
      write_file(path, bad[i].text, strlen(bad[i].text));
    } else if (!strcmp(bad[i].name, "binary.modes")) {
      const char bytes[] = "\x7f"
                           "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0";
      write_file(path, bytes, sizeof(bytes) - 1);
    } else if (!strcmp(bad[i].name, "129.modes")) {
      write_table(path, 129, 100.0, 1.02, 129);
    } else if (!strcmp(bad[i].name, "huge.modes")) {
      const size_t size = 1100000;
      char* text = (char*)malloc(size);
      for (size_t k = 0; k < size; ++k)
        text[k] = k % 64 == 63 ? '\n' : k % 64 == 0 ? '#' : 'x';
      memcpy(text, "100 0.5 1\n", 10);
      write_file(path, text, size);
      free(text);
    } else if (!strcmp(bad[i].name, "a-directory.modes")) {
      mkdir(path, 0700);
    }
  }

  host* h = open_host(uri);
  host* ref = open_host(uri); /* the same life without the bad files */
  set_table(h, good);
  set_table(ref, good);
  for (int i = 0; i < n_bad; ++i) {
    path_in(path, sizeof(path), bad[i].name);
    host_log_clear(h);
    const int errors = host_log_errors(h);
    set_table(h, path);
    host_run(ref, 2 * BLOCK, BLOCK, NULL, NULL);
    char where[300];
    if (bad[i].line > 0)
      snprintf(where, sizeof(where), "%s:%d:", path, bad[i].line);
    else
      snprintf(where, sizeof(where), "%s", path);
    printf("d: %-18s %s", bad[i].name, host_log_all(h));
    CHECK(host_log_errors(h) == errors + 1,
          "d: %s: %d log:Error(s), expected 1", bad[i].name,
          host_log_errors(h) - errors);
    CHECK(strstr(host_log_all(h), where) != NULL,
          "d: %s: the error does not name '%s'", bad[i].name, where);
    CHECK(answers(h, good),
          "d: %s: patch:Get answers '%s', not the good "
          "table",
          bad[i].name, host_table_reply(h));
    host_run(ref, BLOCK, BLOCK, NULL, NULL);
  }
  CHECK(host_now(h) == host_now(ref), "d: the two hosts drifted apart");
  double peak = 0.0;
  const size_t d = differ(h, ref, &peak);
  printf("d: after the bad files: %zu samples differ from an instance that "
         "never saw them (peak %.3g)\n",
         d, peak);
  CHECK(d == 0 && peak > 1e-3, "d: the table in use changed");
  host_close(h);
  host_close(ref);
}

/* d: a table above what a voice plays (0.45 of the sample rate, 21.6 kHz
 * at 48 kHz) loads with a warning naming it; a mode under it, none */
static void
test_above_nyquist(const char* uri)
{
  static const char high[] = "22000 0.5 1\n23000 0.4 0.5\n";
  static const char low[] = "21000 0.5 1\n23000 0.4 0.5\n";
  char path_high[256], path_low[256];
  path_in(path_high, sizeof(path_high), "high.modes");
  path_in(path_low, sizeof(path_low), "low.modes");
  write_file(path_high, high, sizeof(high) - 1);
  write_file(path_low, low, sizeof(low) - 1);
  host* h = open_host(uri);
  host_log_clear(h);
  set_table(h, path_low);
  CHECK(host_log_warnings(h) == 0 && host_log_errors(h) == 0,
        "d: a table with a mode under 0.45 fs: %s", host_log_last(h));
  set_table(h, path_high);
  printf("d: every mode above 0.45 fs: %s", host_log_all(h));
  CHECK(host_log_warnings(h) == 1 && host_log_errors(h) == 0 &&
            strstr(host_log_all(h), path_high) != NULL,
        "d: every mode above 0.45 fs: %d warning(s), %d error(s)",
        host_log_warnings(h), host_log_errors(h));
  CHECK(answers(h, path_high), "d: the table above 0.45 fs was not loaded");
  host_close(h);
}

/* f: objects on the control input that are not the plugin's (jalv sends a
 * time:Position at start) pass without a word; a patch:Set that is not
 * about the table is named in a warning; neither changes the table. */
static void
test_foreign_objects(const char* uri)
{
  host* h = open_host(uri);
  host_log_quiet(h, true);
  host_log_clear(h);
  host_object(h, host_now(h), "http://lv2plug.in/ns/ext/time#Position");
  host_run(h, 2 * BLOCK, BLOCK, NULL, NULL);
  CHECK(host_log_warnings(h) == 0, "f: a time:Position was warned about: %s",
        host_log_last(h));
  host_object(h, host_now(h), "http://lv2plug.in/ns/ext/patch#Set");
  host_run(h, 2 * BLOCK, BLOCK, NULL, NULL);
  printf("f: an empty patch:Set: %s", host_log_all(h));
  CHECK(host_log_warnings(h) == 1 &&
            strstr(host_log_all(h), "patch message") != NULL,
        "f: an empty patch:Set gave %d warning(s)", host_log_warnings(h));
  host_close(h);
}

int
main(int argc, char** argv)
{
  const char* uri = argc > 1 ? argv[1] : "urn:contact:impact";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  const bool strikes = !strcmp(uri, "urn:contact:impact");
  if (strikes) {
    test_modes(uri);
    test_swap(uri);
  }
  test_state(uri);
  test_bad_files(uri);
  test_above_nyquist(uri);
  test_right_gain(uri);
  test_foreign_objects(uri);
  char cmd[300];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
  return check_done("test_plugin_table");
}
