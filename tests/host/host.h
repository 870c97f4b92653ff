/* SPDX-License-Identifier: ISC */
/*
 * A small lilv host: loads a plugin of the built bundle (LV2_PATH), sets
 * ports by symbol, plays MIDI at given frames, applies linear port ramps,
 * runs the worker synchronously (between run() calls), renders any block
 * size and rate, and counts the allocations made inside run().  It drives
 * the plugin tests and the renderer, contact-render.
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

/* Allocations (malloc family) made inside run() since host_open, or -1
 * when this build cannot count them (sanitizer builds). */
long long host_run_allocations(const host* h);

/* Presets and state. */
bool host_load_preset(host* h, const char* preset_uri);
bool host_save_state(host* h, const char* dir, const char* filename);
bool host_restore_state(host* h, const char* path);

/* Log messages the plugin sent (all kinds / warnings and errors), and the
 * text of the last one. */
int host_log_count(const host* h);
int host_log_warnings(const host* h);
const char* host_log_last(const host* h);
const char* host_log_all(const host* h); /* every message, concatenated */
void host_log_quiet(host* h, bool quiet);

#endif
