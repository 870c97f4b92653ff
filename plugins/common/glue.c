/* SPDX-License-Identifier: ISC */
#include "glue.h"

#include <lv2/options/options.h>
#include <lv2/urid/urid.h>

#include <string.h>

bool
plugin_host_init(plugin_host* h, const plugin_info* p, double rate,
                 const LV2_Feature* const* features)
{
  memset(h, 0, sizeof(*h));
  h->sample_rate = rate;
  LV2_Log_Log* log = NULL;
  const LV2_Options_Option* options = NULL;
  for (int i = 0; features && features[i]; ++i) {
    const char* uri = features[i]->URI;
    if (!strcmp(uri, LV2_URID__map))
      h->map = (LV2_URID_Map*)features[i]->data;
    else if (!strcmp(uri, LV2_LOG__log))
      log = (LV2_Log_Log*)features[i]->data;
    else if (!strcmp(uri, LV2_OPTIONS__options))
      options = (const LV2_Options_Option*)features[i]->data;
    else if (!strcmp(uri, LV2_WORKER__schedule))
      h->schedule = (LV2_Worker_Schedule*)features[i]->data;
  }
  lv2_log_logger_init(&h->logger, h->map, log);
  if (!h->map) {
    lv2_log_error(&h->logger, "%s: the host does not provide urid:map\n",
                  p->name);
    return false;
  }
  contact_uris_map(&h->uris, h->map);

  for (int i = 0; options && options[i].key; ++i) {
    const LV2_Options_Option* o = &options[i];
    if (o->key == h->uris.param_sampleRate && o->type == h->uris.atom_Float &&
        *(const float*)o->value != (float)rate)
      lv2_log_note(&h->logger,
                   "%s: options say %g Hz, instantiated at %g Hz; using %g\n",
                   p->name, *(const float*)o->value, rate, rate);
  }
  if (rate < 22050.0 || rate > 384000.0)
    lv2_log_warning(&h->logger,
                    "%s: %g Hz is outside the tested 22050-384000 Hz\n",
                    p->name, rate);
  return true;
}

void
plugin_host_report(plugin_host* h, input_report* r, uint32_t frames)
{
  h->report_countdown =
      h->report_countdown > frames ? h->report_countdown - frames : 0;
  if (!h->schedule || !input_report_any(r) || h->report_countdown > 0)
    return;
  work_report message = {WORK_REPORT, *r};
  if (h->schedule->schedule_work(h->schedule->handle, sizeof(message),
                                 &message) == LV2_WORKER_SUCCESS) {
    memset(r, 0, sizeof(*r));
    h->report_countdown = (uint32_t)h->sample_rate;
  }
}

LV2_Worker_Status
plugin_host_work(plugin_host* h, const plugin_info* p, uint32_t size,
                 const void* data)
{
  work_report message;
  if (size != sizeof(message))
    return LV2_WORKER_ERR_UNKNOWN;
  memcpy(&message, data, sizeof(message));
  if (message.type != WORK_REPORT)
    return LV2_WORKER_ERR_UNKNOWN;
  const input_report r = message.report;
  for (int i = 0; i < p->n_ports && i < INPUT_REPORT_PORTS; ++i) {
    const port_info* port = plugin_port(p, i);
    if (input_report_has(&r, INPUT_NAN, i))
      lv2_log_warning(&h->logger,
                      "%s: port '%s': NaN ignored, the last good value "
                      "kept\n",
                      p->name, port->symbol);
    if (input_report_has(&r, INPUT_INFINITE, i))
      lv2_log_warning(&h->logger,
                      "%s: port '%s': infinite value ignored, the last good "
                      "value kept\n",
                      p->name, port->symbol);
    if (input_report_has(&r, INPUT_OUT_OF_RANGE, i))
      lv2_log_warning(&h->logger,
                      "%s: port '%s': %g is outside its range %g..%g, "
                      "clamped\n",
                      p->name, port->symbol, (double)r.out_of_range[i],
                      (double)port->min, (double)port->max);
  }
  if (r.bad_midi)
    lv2_log_warning(&h->logger, "%s: skipped %u malformed MIDI event(s)\n",
                    p->name, (unsigned)r.bad_midi);
  if (r.bad_patch)
    lv2_log_warning(&h->logger,
                    "%s: skipped %u patch message(s): not about "
                    "<urn:contact:modal_table>, a path too long, or no "
                    "worker (work:schedule) to load the table\n",
                    p->name, (unsigned)r.bad_patch);
  if (r.voice_resets)
    lv2_log_warning(&h->logger,
                    "%s: reset %u voice(s) whose state was no longer "
                    "finite\n",
                    p->name, (unsigned)r.voice_resets);
  return LV2_WORKER_SUCCESS;
}
