/* SPDX-License-Identifier: ISC */
/*
 * A keymap (dsp/modal_keymap.h) through the impact plugin's modal_table
 * parameter, measured on the audio:
 *   a. each note plays its nearest zone: two zones (roots 48 and 72) of
 *      different partials (ratios 1, 2.9 and 1, 3.9), notes 50 and 66
 *      ring the zone's partials, not the other's;
 *   b. transposed under the keymap's law, not constant q: notes a major
 *      third and a fourth from their zone's root ring at
 *      r f rho^(D log2 r) and decay over t_e r^-(P0 + P1 log2 rho) (the
 *      closed form written here), within 0.1 % and 3 %;
 *   c. at a zone's root, the zone sounds as written;
 *   d. pitch tracking off: every note plays the zone nearest the
 *      root_note port, untransposed;
 *   e. a refused keymap (zones not rising) keeps the table in use, with a
 *      log:Error naming the file and line.
 * Usage: test_plugin_keymap
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
#include <unistd.h>

static const double rate = 48000.0;
enum { BLOCK = 256 };

/* the law of the test keymap */
static const double P0 = 0.4, P1 = 0.25, D = 0.05;
/* zone roots and their partials (ratio to the root, decay s) */
static const double roots[2] = {48.0, 72.0};
static const double ratios[2][2] = {{1.0, 2.9}, {1.0, 3.9}};
static const double decays[2][2] = {{0.5, 0.2}, {0.3, 0.1}};

static char dir[] = "/tmp/contact-keymap-XXXXXX";

static double
note_hz(double note)
{
  return 440.0 * pow(2.0, (note - 69.0) / 12.0);
}

static void
write_text(const char* path, const char* text)
{
  if (!check_write_file(path, text, strlen(text)))
    exit(1);
}

static void
write_keymap(const char* path)
{
  char text[1024];
  int n = snprintf(text, sizeof(text),
                   "# name: test keymap\n# decay_law: %g %g\n# ratio_law: %g\n",
                   P0, P1, D);
  for (int z = 0; z < 2; ++z) {
    n += snprintf(text + n, sizeof(text) - (size_t)n, "# zone: %g\n", roots[z]);
    for (int k = 0; k < 2; ++k)
      n += snprintf(text + n, sizeof(text) - (size_t)n, "%.17g %g 1\n",
                    note_hz(roots[z]) * ratios[z][k], decays[z][k]);
  }
  write_text(path, text);
}

static host*
open_host(void)
{
  host* h = host_open("urn:contact:impact", rate, BLOCK);
  if (!h)
    exit(1);
  host_log_quiet(h, true);
  HOST_OK(host_set(h, "gain", 0.0f));
  HOST_OK(host_set(h, "stiffness", 1e12f));
  HOST_OK(host_set(h, "hammer_mass", 1.0f));
  return h;
}

static void
set_table(host* h, const char* path)
{
  HOST_OK(host_set_table(h, host_now(h), path));
  host_run(h, 2 * BLOCK, BLOCK, NULL, NULL);
}

/* note's partial k as the law makes it from zone z */
static void
expected(int z, int k, double note, double* f, double* t)
{
  const double r = pow(2.0, (note - roots[z]) / 12.0);
  const double rho = ratios[z][k];
  *f = r * note_hz(roots[z]) * rho * pow(rho, D * log2(r));
  *t = decays[z][k] * pow(r, -(P0 + P1 * log2(rho)));
}

/* plays `note`, checks zone z's partials at (f, t) of expected() (or as
 * written when `as_written`), and that the other zone's upper partial is
 * not there */
static void
check_note(host* h, const char* what, int note, int z, bool as_written)
{
  HOST_OK(host_note_on(h, host_now(h), note, 100));
  render r = render_run(h, 1.5, BLOCK);
  const size_t at = (size_t)(0.02 * rate), len = r.frames - at;
  for (int k = 0; k < 2; ++k) {
    double f, t;
    if (as_written) {
      f = note_hz(roots[z]) * ratios[z][k];
      t = decays[z][k];
    } else
      expected(z, k, note, &f, &t);
    const double got_f = peak_frequency(r.l + at, len, rate, f, 0.01);
    const double got_t = decay_time(r.l + at, len, rate, f, 8192);
    char label[96];
    snprintf(label, sizeof(label), "%s: partial %d frequency", what, k + 1);
    check_rel(label, got_f, f, 1e-3);
    snprintf(label, sizeof(label), "%s: partial %d decay", what, k + 1);
    check_rel(label, got_t, t, 0.03);
    printf("%s: partial %d at %.2f Hz (law %.2f), t_e %.4f s (law %.4f; "
           "constant q would give %.4f)\n",
           what, k + 1, got_f, f, got_t, t,
           decays[z][k] / pow(2.0, (note - roots[z]) / 12.0));
  }
  /* the other zone's upper partial over this fundamental: absent */
  const double f1 = as_written ? note_hz(roots[z]) : note_hz(note);
  const double other = f1 * ratios[1 - z][1];
  const double p_other = dtft_power(r.l + at, len, other, rate);
  const double p_fund = dtft_power(r.l + at, len, f1, rate);
  CHECK(p_other < 1e-4 * p_fund,
        "%s: the other zone's partial at %.1f Hz is there (%.2e of the "
        "fundamental's power)",
        what, other, p_other / p_fund);
  render_free(&r);
  HOST_OK(host_note_off(h, host_now(h), note));
  host_run(h, (uint64_t)(2.0 * rate), BLOCK, NULL, NULL);
}

int
main(void)
{
  if (!mkdtemp(dir)) {
    perror(dir);
    return 1;
  }
  char path[256], bad[256];
  snprintf(path, sizeof(path), "%s/test.modes", dir);
  snprintf(bad, sizeof(bad), "%s/bad.modes", dir);
  write_keymap(path);
  write_text(bad, "# zone: 60\n261.6 0.5 1\n# zone: 48\n130.8 0.5 1\n");

  host* h = open_host();
  set_table(h, path);
  CHECK(host_log_errors(h) == 0, "the keymap was refused: %s",
        host_log_last(h));
  check_note(h, "a/b: note 52 from zone 48", 52, 0, false);
  check_note(h, "a/b: note 67 from zone 72", 67, 1, false);
  check_note(h, "c: note 48, zone 48's root", 48, 0, true);
  check_note(h, "c: note 72, zone 72's root", 72, 1, true);

  /* e: the bad keymap refused, naming its line; the keymap stays */
  host_log_clear(h);
  set_table(h, bad);
  CHECK(host_log_errors(h) == 1 && strstr(host_log_last(h), "bad.modes:3:"),
        "e: the bad keymap: %d errors, '%s'", host_log_errors(h),
        host_log_last(h));
  check_note(h, "e: note 67 after the refusal", 67, 1, false);

  /* d: no pitch tracking, the root_note port's nearest zone as written */
  HOST_OK(host_set(h, "pitch_track", 0.0f));
  HOST_OK(host_set(h, "root_note", 70.0f));
  check_note(h, "d: no tracking, root port 70: zone 72", 50, 1, true);
  host_close(h);
  unlink(path);
  unlink(bad);
  rmdir(dir);
  return check_done("plugin_keymap");
}
