/* SPDX-License-Identifier: ISC */
/*
 * jack_note: play one MIDI note into a JACK port, for the UI test
 * (tests/ui/run-ui-test).
 *
 *   jack_note DEST_PORT NOTE VELOCITY HOLD_SECONDS
 *
 * Registers a MIDI output, connects it to DEST_PORT (a full port name such
 * as "contact_impact:midi_in"), sends note-on (channel 1) on the next
 * process cycle, note-off HOLD_SECONDS later, waits one more cycle so the
 * note-off has been delivered, and closes.  Never starts a server (the
 * test runs its own, named by JACK_DEFAULT_SERVER).  Every wait is bounded;
 * any failure is a message on stderr and exit status 1.
 */
#define _POSIX_C_SOURCE 200809L

#include <jack/jack.h>
#include <jack/midiport.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long to wait for the server to run a process cycle (the dummy
 * driver runs one every 5 ms at 256 frames / 48 kHz; seconds means the
 * server is stuck). */
#define CYCLE_TIMEOUT_S 5.0

enum { IDLE, WANT_ON, ON_SENT, WANT_OFF, OFF_SENT };

static jack_port_t* out_port;
static unsigned char note_number, note_velocity;
static atomic_int state = IDLE;
static atomic_ulong cycles;
static atomic_bool server_gone;

static int
process(jack_nframes_t nframes, void* arg)
{
  (void)arg;
  void* buf = jack_port_get_buffer(out_port, nframes);
  jack_midi_clear_buffer(buf);

  int s = atomic_load(&state);
  if (s == WANT_ON || s == WANT_OFF) {
    const jack_midi_data_t msg[3] = {
        (jack_midi_data_t)(s == WANT_ON ? 0x90 : 0x80), note_number,
        s == WANT_ON ? note_velocity : 0};
    if (jack_midi_event_write(buf, 0, msg, sizeof msg) == 0)
      atomic_store(&state, s == WANT_ON ? ON_SENT : OFF_SENT);
  }
  atomic_fetch_add(&cycles, 1);
  return 0;
}

static void
on_shutdown(void* arg)
{
  (void)arg;
  atomic_store(&server_gone, true);
}

static double
now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void
sleep_s(double s)
{
  struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  while (nanosleep(&t, &t) != 0 && errno == EINTR) {
  }
}

/* Wait until the process callback has moved `state` to `want`, or one
 * cycle has passed after `start` when want < 0. */
static int
wait_for(int want, unsigned long start, const char* what)
{
  const double deadline = now_s() + CYCLE_TIMEOUT_S;
  while (now_s() < deadline) {
    if (atomic_load(&server_gone)) {
      fprintf(stderr, "jack_note: JACK server shut down while %s\n", what);
      return -1;
    }
    if (want >= 0 ? atomic_load(&state) == want : atomic_load(&cycles) > start)
      return 0;
    sleep_s(0.001);
  }
  fprintf(stderr, "jack_note: timed out after %.0f s %s\n", CYCLE_TIMEOUT_S,
          what);
  return -1;
}

static int
parse_int(const char* s, int lo, int hi, const char* what)
{
  char* end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) {
    fprintf(stderr, "jack_note: %s must be an integer %d..%d, not '%s'\n", what,
            lo, hi, s);
    exit(1);
  }
  return (int)v;
}

int
main(int argc, char** argv)
{
  if (argc != 5) {
    fprintf(stderr, "usage: jack_note DEST_PORT NOTE VELOCITY HOLD_SECONDS\n");
    return 1;
  }
  const char* dest = argv[1];
  note_number = (unsigned char)parse_int(argv[2], 0, 127, "NOTE");
  note_velocity = (unsigned char)parse_int(argv[3], 1, 127, "VELOCITY");
  char* end;
  double hold = strtod(argv[4], &end);
  if (end == argv[4] || *end || !(hold >= 0.0 && hold <= 60.0)) {
    fprintf(stderr, "jack_note: HOLD_SECONDS must be 0..60, not '%s'\n",
            argv[4]);
    return 1;
  }

  jack_status_t status;
  jack_client_t* client =
      jack_client_open("jack_note", JackNoStartServer, &status);
  if (!client) {
    fprintf(stderr,
            "jack_note: cannot connect to the JACK server (status 0x%x; "
            "is it running, with JACK_DEFAULT_SERVER set to its name?)\n",
            (unsigned)status);
    return 1;
  }

  int rc = 1;
  out_port = jack_port_register(client, "midi_out", JACK_DEFAULT_MIDI_TYPE,
                                JackPortIsOutput, 0);
  if (!out_port) {
    fprintf(stderr, "jack_note: cannot register a MIDI output port\n");
    goto close;
  }
  jack_port_t* dest_port = jack_port_by_name(client, dest);
  if (!dest_port) {
    fprintf(stderr, "jack_note: no such port '%s'\n", dest);
    goto close;
  }
  if (!(jack_port_flags(dest_port) & JackPortIsInput) ||
      strcmp(jack_port_type(dest_port), JACK_DEFAULT_MIDI_TYPE) != 0) {
    fprintf(stderr, "jack_note: '%s' is not a MIDI input port\n", dest);
    goto close;
  }
  jack_on_shutdown(client, on_shutdown, NULL);
  if (jack_set_process_callback(client, process, NULL) ||
      jack_activate(client)) {
    fprintf(stderr, "jack_note: cannot activate the client\n");
    goto close;
  }
  int err = jack_connect(client, jack_port_name(out_port), dest);
  if (err && err != EEXIST) {
    fprintf(stderr, "jack_note: cannot connect %s to %s (error %d)\n",
            jack_port_name(out_port), dest, err);
    goto deactivate;
  }

  atomic_store(&state, WANT_ON);
  if (wait_for(ON_SENT, 0, "sending the note-on"))
    goto deactivate;
  sleep_s(hold);
  atomic_store(&state, WANT_OFF);
  if (wait_for(OFF_SENT, 0, "sending the note-off"))
    goto deactivate;
  /* one more cycle: the note-off's cycle has finished, so the plugin has
   * read it before the port disappears */
  if (wait_for(-1, atomic_load(&cycles), "waiting one more cycle"))
    goto deactivate;
  rc = 0;

deactivate:
  if (!atomic_load(&server_gone))
    jack_deactivate(client);
close:
  jack_client_close(client);
  return rc;
}
