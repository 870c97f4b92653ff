/* SPDX-License-Identifier: ISC */
#include "controls.h"

#include <math.h>
#include <stdlib.h>

bool
input_report_any(const input_report* r)
{
  uint32_t values = 0;
  for (int k = 0; k < INPUT_PROBLEMS; ++k)
    values += r->count[k];
  return values || r->bad_midi || r->bad_patch || r->voice_resets;
}

bool
input_report_has(const input_report* r, input_problem problem, int port)
{
  return port >= 0 && port < INPUT_REPORT_PORTS &&
         (r->ports[problem][port / 64] >> (port % 64) & 1u);
}

static void
input_report_add(input_report* r, input_problem problem, int port)
{
  r->count[problem]++;
  if (port < INPUT_REPORT_PORTS)
    r->ports[problem][port / 64] |= (uint64_t)1 << (port % 64);
}

static float
conform(const port_info* info, float value)
{
  if (value < info->min)
    value = info->min;
  if (value > info->max)
    value = info->max;
  if (info->flags & PORT_TOGGLE)
    value = value > 0.5f ? 1.0f : 0.0f;
  else if (info->flags & (PORT_INTEGER | PORT_ENUM))
    value = roundf(value);
  return value;
}

void
controls_defaults(const plugin_info* p, float* values)
{
  for (int i = 0; i < p->n_ports; ++i)
    values[i] = conform(plugin_port(p, i), plugin_port_default(p, i));
}

bool
control_inputs_init(control_inputs* c, const plugin_info* p)
{
  const size_t n = p->n_ports > 0 ? (size_t)p->n_ports : 1;
  c->n = 0;
  c->index = (int*)calloc(n, sizeof(int));
  c->seen = (float*)calloc(n, sizeof(float));
  if (!c->index || !c->seen) {
    control_inputs_free(c);
    return false;
  }
  for (int i = 0; i < p->n_ports; ++i) {
    c->seen[i] = NAN;
    if (plugin_port(p, i)->kind == PORT_CONTROL_IN)
      c->index[c->n++] = i;
  }
  return true;
}

void
control_inputs_free(control_inputs* c)
{
  free(c->index);
  free(c->seen);
  c->index = NULL;
  c->seen = NULL;
  c->n = 0;
}

bool
controls_read(const plugin_info* p, control_inputs* c, float* const* ports,
              float* values, input_report* report)
{
  bool changed = false;
  for (int k = 0; k < c->n; ++k) {
    const int i = c->index[k];
    if (!ports[i])
      continue;
    const float raw = *ports[i];
    /* values[i] is conform(seen[i]) already, and nothing to report */
    if (raw == c->seen[i])
      continue;
    const port_info* info = plugin_port(p, i);
    if (!isfinite(raw)) {
      input_report_add(report, isnan(raw) ? INPUT_NAN : INPUT_INFINITE, i);
      continue;
    }
    if (raw < info->min || raw > info->max) {
      input_report_add(report, INPUT_OUT_OF_RANGE, i);
      if (i < INPUT_REPORT_PORTS)
        report->out_of_range[i] = raw;
      c->seen[i] = NAN; /* values[i] is clamped: seen is out of date */
    } else {
      c->seen[i] = raw;
    }
    const float value = conform(info, raw);
    if (value != values[i]) {
      values[i] = value;
      changed = true;
    }
  }
  return changed;
}
