/* SPDX-License-Identifier: ISC */
/*
 * Saved state keeps every control: each port is set across its range, the
 * state is saved to a file by lilv (Debian 12's lilv writes port values in
 * fixed point with 8 decimals), restored into a fresh instance, and read
 * back.  Logarithmic ports must keep 1e-6 of their value everywhere in
 * their range, linear ports 1e-6 of their span; the port units are chosen
 * so that they can.
 * The restored instance also plays: lilv's own buffers holding the values
 * prove nothing about the plugin, so the restored instance (whose values
 * now survive lilv's 8 decimals exactly) saves its state again, a third
 * instance that has already run at the defaults restores it, and both play
 * the same notes: bit-identical audio, or a port the plugin ignores after
 * a restore (or one the state leaves out) shows.
 * Usage: test_plugin_state [PLUGIN-URI]
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

/* the same notes on both, after `silence` frames; true if bit-identical */
static bool
same_audio(host* a, host* b, size_t* differ, double* peak)
{
  const uint64_t t = host_now(a);
  if (host_now(b) != t)
    return false;
  bool ok = true;
  for (int k = 0; k < 2; ++k) {
    host* h = k ? b : a;
    ok = host_note_on(h, t, 60, 100) && ok;
    ok = host_note_on(h, t + 1001, 64, 127) && ok;
    ok = host_note_off(h, t + 4000, 60) && ok;
  }
  render ra = render_run(a, 0.25, 256), rb = render_run(b, 0.25, 256);
  *differ = 0;
  *peak = fmax(peak_abs(ra.l, ra.frames), peak_abs(ra.r, ra.frames));
  for (size_t i = 0; i < ra.frames; ++i)
    *differ += ra.l[i] != rb.l[i] || ra.r[i] != rb.r[i];
  render_free(&ra);
  render_free(&rb);
  return ok;
}

int
main(int argc, char** argv)
{
  const char* uri = argc > 1 ? argv[1] : "urn:contact:impact";
  char dir[] = "/tmp/contact-state-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  /* five rounds: minima, maxima, then values spread over each range */
  const double where[5] = {0.0, 1.0, 0.1234567, 0.5432109, 0.9876543};
  double worst_log = 0.0, worst_lin = 0.0;
  for (int round = 0; round < 5; ++round) {
    host* a = host_open(uri, 48000.0, 256);
    if (!a)
      return 1;
    const int n = host_n_ports(a);
    float* want = (float*)calloc((size_t)n, sizeof(float));
    for (int i = 0; i < n; ++i) {
      float lo, def, hi;
      bool out;
      if (!host_port_range(a, i, &lo, &def, &hi, &out) || out)
        continue;
      const double x = where[round];
      want[i] = host_port_logarithmic(a, i) ? (float)(lo * pow(hi / lo, x))
                                            : (float)(lo + (hi - lo) * x);
      host_set_index(a, i, want[i]);
    }
    host_run(a, 256, 256, NULL, NULL);
    char file[64];
    snprintf(file, sizeof(file), "state%d.ttl", round);
    CHECK(host_save_state(a, dir, file), "saving the state failed");

    host* b = host_open(uri, 48000.0, 256);
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    CHECK(host_restore_state(b, path), "restoring %s failed", path);
    for (int i = 0; i < n; ++i) {
      float lo, def, hi;
      bool out;
      if (!host_port_range(a, i, &lo, &def, &hi, &out) || out)
        continue;
      const char* sym = host_port_symbol(a, i);
      const double got = host_get_index(b, i);
      if (host_port_logarithmic(a, i)) {
        const double err = fabs(got / want[i] - 1.0);
        worst_log = fmax(worst_log, err);
        CHECK(err <= 1e-6, "%s: set %.9g, restored %.9g (%.2e)", sym, want[i],
              got, err);
      } else {
        const double err = fabs(got - want[i]) / (hi - lo);
        worst_lin = fmax(worst_lin, err);
        CHECK(err <= 1e-6, "%s: set %.9g, restored %.9g (%.2e of span)", sym,
              want[i], got, err);
      }
    }
    free(want);

    /* b plays as a restored instance c that ran at the defaults first */
    host* c = host_open(uri, 48000.0, 256);
    if (!c)
      return 1;
    host_run(c, 256, 256, NULL, NULL);
    snprintf(file, sizeof(file), "restored%d.ttl", round);
    CHECK(host_save_state(b, dir, file), "saving the restored state failed");
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    CHECK(host_restore_state(c, path), "restoring %s failed", path);
    host_run(b, 256, 256, NULL, NULL);
    /* the gain glides 5 ms to a new value: 0.25 s leaves nothing of it */
    host_run(b, 12000, 256, NULL, NULL);
    host_run(c, 12000, 256, NULL, NULL);
    size_t differ = 0;
    double peak = 0.0;
    CHECK(same_audio(b, c, &differ, &peak), "host calls failed");
    printf("round %d: restored instances play %zu differing samples (peak "
           "%.3g)\n",
           round, differ, peak);
    CHECK(differ == 0, "round %d: %zu samples differ after a restore", round,
          differ);
    /* at the minima every instrument is silent (no force, no speed,
     * -60 dB); elsewhere the comparison must compare sound */
    CHECK(round == 0 || peak > 0.0, "round %d: the notes are silent", round);
    host_close(a);
    host_close(b);
    host_close(c);
  }
  printf("worst round trip: %.2e relative (log ports), %.2e of span (linear)\n",
         worst_log, worst_lin);
  char cmd[300];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
  return check_done("test_plugin_state");
}
