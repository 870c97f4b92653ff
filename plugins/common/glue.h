/* SPDX-License-Identifier: ISC */
/*
 * What every instrument needs from its host: the features, the options,
 * and the bad-input report, logged from the worker thread because only
 * log:Trace may be posted from run().
 */
#ifndef CONTACT_GLUE_H
#define CONTACT_GLUE_H

#include "controls.h"
#include "port_info.h"
#include "uris.h"

#include <lv2/core/lv2.h>
#include <lv2/log/logger.h>
#include <lv2/worker/worker.h>

#include <stdbool.h>
#include <stdint.h>

/* Worker messages and responses, told apart by their first field (never
 * by their size). */
typedef enum work_type {
  WORK_REPORT = 0x52505254,     /* work_report: log the bad input */
  WORK_LOAD_TABLE = 0x4c4f4144, /* work_load: load (or clear) a table */
  WORK_FREE_TABLE = 0x46524545, /* work_table: free a table swapped out */
  WORK_TABLE_READY = 0x52454459 /* work_table (response): swap it in */
} work_type;

typedef struct work_report {
  uint32_t type; /* WORK_REPORT */
  input_report report;
} work_report;

typedef struct plugin_host {
  LV2_URID_Map* map;
  LV2_Log_Logger logger;
  LV2_Worker_Schedule* schedule; /* NULL without work:schedule */
  contact_uris uris;
  double sample_rate;
  uint32_t report_countdown; /* samples until the next report may go */
} plugin_host;

/* Collect features and options; false (logged) without urid:map. */
bool plugin_host_init(plugin_host* h, const plugin_info* p, double rate,
                      const LV2_Feature* const* features);

/* run(): pass the bad input seen so far to the worker, at most once a
 * second, and start counting afresh. */
void plugin_host_report(plugin_host* h, input_report* r, uint32_t frames);

/* work(): log a report (a work_report) handed over by
 * plugin_host_report(). */
LV2_Worker_Status plugin_host_work(plugin_host* h, const plugin_info* p,
                                   uint32_t size, const void* data);

#endif
