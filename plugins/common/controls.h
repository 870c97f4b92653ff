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

/* Bad input seen in run(), reported later from a non-real-time thread. */
typedef struct input_report {
  uint32_t non_finite;   /* control values ignored */
  uint32_t clamped;      /* control values outside their declared range */
  uint32_t bad_midi;     /* MIDI events skipped */
  uint32_t voice_resets; /* voices reset after their state went non-finite */
  int32_t last_port;     /* port of the last rejected or clamped value */
} input_report;

bool input_report_any(const input_report* r);

/* Fill `values` with the declared defaults. */
void controls_defaults(const plugin_info* p, float* values);

/* Read the connected control inputs into `values`; true if any changed. */
bool controls_read(const plugin_info* p, float* const* ports, float* values,
                   input_report* report);

#endif
