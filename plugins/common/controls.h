/* SPDX-License-Identifier: ISC */
/*
 * Control inputs as the DSP sees them: every value clamped to its declared
 * range, whole numbers rounded, and a non-finite value ignored (the last
 * good one kept).  What was rejected is counted for the bad-input report.
 */
#ifndef CONTACT_CONTROLS_H
#define CONTACT_CONTROLS_H

#include "port_info.h"

#include <stdbool.h>
#include <stdint.h>

/* Ports a report can name (every instrument has fewer). */
enum { INPUT_REPORT_PORTS = 128 };

/* What was wrong with a control value. */
typedef enum input_problem {
  INPUT_NAN,          /* ignored, the last good value kept */
  INPUT_INFINITE,     /* ignored, the last good value kept */
  INPUT_OUT_OF_RANGE, /* clamped to the declared range */
  INPUT_PROBLEMS
} input_problem;

/* Bad input seen in run(), reported later from a non-real-time thread:
 * each problem with the ports it was seen on, so that every report names
 * the right port. */
typedef struct input_report {
  uint32_t count[INPUT_PROBLEMS]; /* control values with each problem */
  uint64_t ports[INPUT_PROBLEMS][INPUT_REPORT_PORTS / 64]; /* bit sets */
  float out_of_range[INPUT_REPORT_PORTS]; /* the last such value, by port */
  uint32_t bad_midi;                      /* MIDI events skipped */
  uint32_t bad_patch;    /* patch messages skipped (not about the table, a
                            path too long, or no worker to load it) */
  uint32_t voice_resets; /* voices reset after their state went non-finite */
} input_report;

bool input_report_has(const input_report* r, input_problem problem, int port);

bool input_report_any(const input_report* r);

/* Fill `values` with the declared defaults. */
void controls_defaults(const plugin_info* p, float* values);

/* The plugin's control inputs, and the last good (finite, in range) value
 * read from each: a port still holding it needs no other look (run() reads
 * every port at every block). */
typedef struct control_inputs {
  int n;
  int* index;  /* n port indices */
  float* seen; /* by port index; NaN: none yet */
} control_inputs;

/* false if out of memory */
bool control_inputs_init(control_inputs* c, const plugin_info* p);
void control_inputs_free(control_inputs* c);

/* Read the connected control inputs into `values`; true if any changed. */
bool controls_read(const plugin_info* p, control_inputs* c, float* const* ports,
                   float* values, input_report* report);

#endif
