/* SPDX-License-Identifier: ISC */
#include "controls.h"

#include <math.h>

bool
input_report_any(const input_report* r)
{
  return r->non_finite || r->clamped || r->bad_midi || r->voice_resets;
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
    values[i] = conform(plugin_port(p, i), plugin_port(p, i)->def);
}

bool
controls_read(const plugin_info* p, float* const* ports, float* values,
              input_report* report)
{
  bool changed = false;
  for (int i = 0; i < p->n_ports; ++i) {
    const port_info* info = plugin_port(p, i);
    if (info->kind != PORT_CONTROL_IN || !ports[i])
      continue;
    const float raw = *ports[i];
    if (!isfinite(raw)) {
      report->non_finite++;
      report->last_port = i;
      continue;
    }
    if (raw < info->min || raw > info->max) {
      report->clamped++;
      report->last_port = i;
    }
    const float value = conform(info, raw);
    if (value != values[i]) {
      values[i] = value;
      changed = true;
    }
  }
  return changed;
}
