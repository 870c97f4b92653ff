/* SPDX-License-Identifier: ISC */
/*
 * A small lilv host: loads a plugin of the built bundle (LV2_PATH), sets
 * ports by symbol, plays MIDI and patch messages at given frames, applies
 * linear port ramps, runs the worker synchronously (between run() calls),
 * renders any block size and rate, and counts the allocations made inside
 * run().  It drives the plugin tests and the renderer, contact-render.
 *
 * The worker: what the plugin schedules in run() is worked right after
 * that run() returns, in the same thread, and the responses are delivered
 * just before the next run() (as jalv does, with its worker thread
 * replaced by the gap between blocks): a patch:Set in block k takes
 * effect at the start of block k + 1, at the same frame whatever the
 * machine's speed, so tests are repeatable.  work_response() and end_run()
 * are counted with run() by the allocation counter.
 */
#ifndef CONTACT_HOST_H
#define CONTACT_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct host host;

/* Load `uri` from the bundles on LV2_PATH; NULL (with a message on stderr)
 * if it cannot be found or instantiated.  max_block bounds host_run's
 * block argument. */
host* host_open(const char* uri, double sample_rate, uint32_t max_block);
void host_close(host* h);

double host_sample_rate(const host* h);
uint64_t host_now(const host* h); /* frames rendered so far */

/* Ports by symbol: -1 / false if there is no such control port. */
int host_port(const host* h, const char* symbol);
int host_n_ports(const host* h);
const char* host_port_symbol(const host* h, int index);
bool host_port_range(const host* h, int index, float* min, float* def,
                     float* max, bool* is_output);
bool host_port_logarithmic(const host* h, int index);
bool host_set(host* h, const char* symbol, float value);
void host_set_index(host* h, int index, float value);
float host_get(const host* h, const char* symbol);
float host_get_index(const host* h, int index);

/* Events and automation, at absolute frames (>= host_now()). */
bool host_midi(host* h, uint64_t frame, const uint8_t* msg, uint32_t size);
bool host_note_on(host* h, uint64_t frame, int note, int velocity);
bool host_note_off(host* h, uint64_t frame, int note);
bool host_ramp(host* h, const char* symbol, uint64_t start, uint64_t end,
               float from, float to);

/* The modal table parameter: a patch:Set of `path` ("" clears it) and a
 * patch:Get, on the MIDI (control) input at `frame`; the patch:Set
 * replies seen on the notify port so far, and the last one's path. */
bool host_set_table(host* h, uint64_t frame, const char* path);
bool host_get_table(host* h, uint64_t frame);
int host_table_replies(const host* h);
/* An empty atom:Object of type `otype` (a URI) on the control input: a
 * host's time:Position, or a patch:Set with nothing in it. */
bool host_object(host* h, uint64_t frame, const char* otype);
const char* host_table_reply(const host* h);

/* Sample-accurate automation, as a host that splits its blocks at
 * automation points: ramps then change value only at multiples of
 * `frames` (0: at block starts, the default), and every block ends at the
 * next of them while a ramp is set. */
void host_automation_grid(host* h, uint32_t frames);

/* Render `frames` frames in blocks of at most `block` (<= max_block),
 * appending to out_l / out_r when they are not NULL.  Ramps are applied at
 * block starts, events are placed sample-accurately. */
void host_run(host* h, uint64_t frames, uint32_t block, float* out_l,
              float* out_r);

/* Processor time spent inside the plugin's run() since host_open, in
 * seconds (what the benchmark's plugin figures time, without the harness's
 * own event handling around it, nor the reading of the clock: its cost,
 * measured at host_open, is taken off each call). */
double host_run_seconds(const host* h);

/* Allocations (malloc family) made inside run() since host_open, or -1
 * when this build cannot count them (sanitizer builds). */
long long host_run_allocations(const host* h);

/* Presets and state. */
bool host_load_preset(host* h, const char* preset_uri);
bool host_save_state(host* h, const char* dir, const char* filename);
bool host_restore_state(host* h, const char* path);
/* Whether restore() gets work:schedule (default: yes, as a host restoring
 * while it runs; no: the plugin must load in restore() itself). */
void host_restore_with_worker(host* h, bool worker);

/* Log messages the plugin sent (all kinds / warnings and errors), and the
 * text of the last one. */
int host_log_count(const host* h);
int host_log_warnings(const host* h);
int host_log_errors(const host* h);
void host_log_clear(host* h); /* empties host_log_all() and _last() */
const char* host_log_last(const host* h);
const char* host_log_all(const host* h); /* every message, concatenated */
void host_log_quiet(host* h, bool quiet);

#endif
