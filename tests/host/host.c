/* SPDX-License-Identifier: ISC */
#define _POSIX_C_SOURCE 200809L

#include "host.h"

#include "alloc_count.h"
#include "uris.h"

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/core/lv2.h>
#include <lv2/log/log.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <lv2/port-props/port-props.h>
#include <lv2/state/state.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { EVENT_MAX = 64, SEQ_CAPACITY = 1 << 16, QUEUE = 1 << 16 };

typedef struct event {
  uint64_t frame;
  uint32_t size;
  LV2_URID type;
  uint8_t data[EVENT_MAX];
  uint8_t* heap; /* the body when it is longer than EVENT_MAX, or NULL */
} event;

typedef struct ramp {
  int port;
  uint64_t start, end;
  float from, to;
} ramp;

typedef struct byte_queue {
  uint8_t data[QUEUE];
  uint32_t fill;
} byte_queue;

struct host {
  LilvWorld* world;
  const LilvPlugin* plugin;
  LilvInstance* instance;
  double rate;
  uint32_t max_block;
  uint64_t now;
  double run_seconds; /* processor time spent inside the plugin's run() */
  double clock_cost;  /* s, what reading the clock around run() adds */

  char** uris;
  uint32_t n_uris;
  LV2_URID_Map map;
  LV2_URID_Unmap unmap;
  LV2_URID atom_Float, atom_Int, atom_Double, atom_Sequence, midi_Event;
  LV2_URID log_Error, log_Warning;
  contact_uris curis; /* the plugins' own, for the patch messages */

  LV2_Log_Log log;
  int log_count, log_warnings, log_errors;
  char log_last[1024];
  char log_all[1 << 15]; /* every message, as long as they fit */
  size_t log_used;
  bool quiet;

  LV2_Worker_Schedule schedule;
  const LV2_Worker_Interface* worker;
  byte_queue* requests;  /* scheduled from run(), worked after it */
  byte_queue* responses; /* delivered before the next run() */

  int32_t min_block_option, max_block_option, nominal_block_option;
  float rate_option;
  LV2_Options_Option options[5];
  LV2_Feature feature_map, feature_unmap, feature_log, feature_options,
      feature_schedule, feature_bounded;
  const LV2_Feature* features[7];

  uint32_t n_ports;
  char** symbols;
  float* values; /* control ports, inputs and outputs */
  float *mins, *defs, *maxs;
  bool *is_control, *is_output;
  int midi_port;
  int audio_port[2];
  float* audio[2];
  LV2_Atom_Sequence* seq;
  int notify_port;
  LV2_Atom_Sequence* notify;
  int notify_sets;        /* patch:Set replies of the table seen */
  char notify_path[8192]; /* the last one's path */
  bool worker_in_restore; /* restore gets work:schedule */

  event* events;
  size_t n_events, cap_events;
  ramp* ramps;
  size_t n_ramps, cap_ramps;
  uint32_t grid; /* ramps step at its multiples, blocks split there; 0: off */
};

/* ---- URID map --------------------------------------------------------- */

static LV2_URID
map_uri(LV2_URID_Map_Handle handle, const char* uri)
{
  host* h = (host*)handle;
  for (uint32_t i = 0; i < h->n_uris; ++i)
    if (!strcmp(h->uris[i], uri))
      return i + 1;
  char** grown = (char**)realloc(h->uris, sizeof(char*) * (h->n_uris + 1));
  if (!grown)
    return 0;
  h->uris = grown;
  h->uris[h->n_uris] = strdup(uri);
  return ++h->n_uris;
}

static const char*
unmap_uri(LV2_URID_Unmap_Handle handle, LV2_URID urid)
{
  host* h = (host*)handle;
  return urid > 0 && urid <= h->n_uris ? h->uris[urid - 1] : NULL;
}

/* ---- log -------------------------------------------------------------- */

static int
log_vprintf(LV2_Log_Handle handle, LV2_URID type, const char* fmt, va_list ap)
{
  host* h = (host*)handle;
  const int n = vsnprintf(h->log_last, sizeof(h->log_last), fmt, ap);
  const size_t len = strlen(h->log_last);
  if (h->log_used + len < sizeof(h->log_all)) {
    memcpy(h->log_all + h->log_used, h->log_last, len + 1);
    h->log_used += len;
  }
  h->log_count++;
  if (type == h->log_Warning || type == h->log_Error)
    h->log_warnings++;
  if (type == h->log_Error)
    h->log_errors++;
  if (!h->quiet)
    fprintf(stderr, "[plugin] %s", h->log_last);
  return n;
}

static int
log_printf(LV2_Log_Handle handle, LV2_URID type, const char* fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  const int n = log_vprintf(handle, type, fmt, ap);
  va_end(ap);
  return n;
}

/* ---- worker: requests queue up during run() and are worked after it --- */

static bool
queue_push(byte_queue* q, uint32_t size, const void* data)
{
  if (q->fill + sizeof(uint32_t) + size > QUEUE)
    return false;
  memcpy(q->data + q->fill, &size, sizeof(size));
  memcpy(q->data + q->fill + sizeof(size), data, size);
  q->fill += (uint32_t)sizeof(size) + size;
  return true;
}

static LV2_Worker_Status
schedule_work(LV2_Worker_Schedule_Handle handle, uint32_t size,
              const void* data)
{
  host* h = (host*)handle;
  return queue_push(h->requests, size, data) ? LV2_WORKER_SUCCESS
                                             : LV2_WORKER_ERR_NO_SPACE;
}

static LV2_Worker_Status
respond(LV2_Worker_Respond_Handle handle, uint32_t size, const void* data)
{
  host* h = (host*)handle;
  return queue_push(h->responses, size, data) ? LV2_WORKER_SUCCESS
                                              : LV2_WORKER_ERR_NO_SPACE;
}

static void
drain(host* h, byte_queue* q, bool responses)
{
  uint32_t at = 0;
  const uint32_t fill = q->fill;
  q->fill = 0;
  while (at + sizeof(uint32_t) <= fill) {
    uint32_t size;
    memcpy(&size, q->data + at, sizeof(size));
    const void* data = q->data + at + sizeof(size);
    if (responses)
      h->worker->work_response(h->instance->lv2_handle, size, data);
    else
      h->worker->work(h->instance->lv2_handle, respond, h, size, data);
    at += (uint32_t)sizeof(size) + size;
  }
}

static void
run_worker(host* h)
{
  if (!h->worker)
    return;
  drain(h, h->requests, false);
}

/* ---- life cycle ------------------------------------------------------- */

static bool
setup_ports(host* h)
{
  const LilvPlugin* p = h->plugin;
  h->n_ports = lilv_plugin_get_num_ports(p);
  const uint32_t n = h->n_ports;
  h->symbols = (char**)calloc(n, sizeof(char*));
  h->values = (float*)calloc(n, sizeof(float));
  h->mins = (float*)calloc(n, sizeof(float));
  h->defs = (float*)calloc(n, sizeof(float));
  h->maxs = (float*)calloc(n, sizeof(float));
  h->is_control = (bool*)calloc(n, sizeof(bool));
  h->is_output = (bool*)calloc(n, sizeof(bool));
  h->audio[0] = (float*)calloc(h->max_block, sizeof(float));
  h->audio[1] = (float*)calloc(h->max_block, sizeof(float));
  h->seq = (LV2_Atom_Sequence*)calloc(1, SEQ_CAPACITY);
  h->notify = (LV2_Atom_Sequence*)calloc(1, SEQ_CAPACITY);
  h->requests = (byte_queue*)calloc(1, sizeof(byte_queue));
  h->responses = (byte_queue*)calloc(1, sizeof(byte_queue));
  if (!h->symbols || !h->values || !h->mins || !h->defs || !h->maxs ||
      !h->is_control || !h->is_output || !h->audio[0] || !h->audio[1] ||
      !h->seq || !h->notify || !h->requests || !h->responses)
    return false;
  lilv_plugin_get_port_ranges_float(p, h->mins, h->maxs, h->defs);

  LilvNode* control = lilv_new_uri(h->world, LV2_CORE__ControlPort);
  LilvNode* audio = lilv_new_uri(h->world, LV2_CORE__AudioPort);
  LilvNode* atom = lilv_new_uri(h->world, LV2_ATOM__AtomPort);
  LilvNode* output = lilv_new_uri(h->world, LV2_CORE__OutputPort);
  h->midi_port = h->audio_port[0] = h->audio_port[1] = -1;
  h->notify_port = -1;
  int n_audio = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const LilvPort* port = lilv_plugin_get_port_by_index(p, i);
    h->symbols[i] = strdup(lilv_node_as_string(lilv_port_get_symbol(p, port)));
    h->is_output[i] = lilv_port_is_a(p, port, output);
    if (lilv_port_is_a(p, port, control)) {
      h->is_control[i] = true;
      h->values[i] = h->defs[i];
      lilv_instance_connect_port(h->instance, i, &h->values[i]);
    } else if (lilv_port_is_a(p, port, audio) && h->is_output[i] &&
               n_audio < 2) {
      h->audio_port[n_audio] = (int)i;
      lilv_instance_connect_port(h->instance, i, h->audio[n_audio]);
      ++n_audio;
    } else if (lilv_port_is_a(p, port, atom) && !h->is_output[i]) {
      h->midi_port = (int)i;
      lilv_instance_connect_port(h->instance, i, h->seq);
    } else if (lilv_port_is_a(p, port, atom) && h->notify_port < 0) {
      h->notify_port = (int)i;
      lilv_instance_connect_port(h->instance, i, h->notify);
    } else {
      lilv_instance_connect_port(h->instance, i, NULL);
    }
  }
  lilv_node_free(control);
  lilv_node_free(audio);
  lilv_node_free(atom);
  lilv_node_free(output);
  return true;
}

/* lilv 0.24.14 crashes on a relative folder in LV2_PATH (a natural
 * LV2_PATH=build/lv2): make every entry absolute first. */
static void
absolute_lv2_path(void)
{
  const char* path = getenv("LV2_PATH");
  char cwd[4096];
  if (!path || !getcwd(cwd, sizeof(cwd)))
    return;
  char fixed[16384] = "";
  size_t used = 0;
  for (const char* at = path; *at;) {
    const size_t len = strcspn(at, ":");
    const bool relative = len > 0 && at[0] != '/' && at[0] != '~';
    const int n = snprintf(fixed + used, sizeof(fixed) - used, "%s%s%s%.*s",
                           used ? ":" : "", relative ? cwd : "",
                           relative ? "/" : "", (int)len, at);
    if (n < 0 || (size_t)n >= sizeof(fixed) - used)
      return; /* too long: leave it as it is */
    used += (size_t)n;
    at += len + (at[len] == ':');
  }
  setenv("LV2_PATH", fixed, 1);
}

static double
seconds_between(const struct timespec* t0, const struct timespec* t1)
{
  return (double)(t1->tv_sec - t0->tv_sec) +
         1e-9 * (double)(t1->tv_nsec - t0->tv_nsec);
}

/* The processor time an empty interval measures: the thread's CPU clock is
 * a system call on some machines (1.3 us here, against some 10 us of a
 * 256-frame run() of 16 struck voices), which the DSP level's benchmark,
 * timing whole loops, does not pay per block.  The least of many, so that
 * no more than the clock's own cost is taken off. */
static double
clock_cost(void)
{
  double least = INFINITY;
  for (int i = 0; i < 255; ++i) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    const double d = seconds_between(&t0, &t1);
    least = d < least ? d : least;
  }
  return least;
}

host*
host_open(const char* uri, double sample_rate, uint32_t max_block)
{
  host* h = (host*)calloc(1, sizeof(host));
  if (!h)
    return NULL;
  h->rate = sample_rate;
  h->max_block = max_block ? max_block : 1;
  h->clock_cost = clock_cost();
  h->map = (LV2_URID_Map){h, map_uri};
  h->unmap = (LV2_URID_Unmap){h, unmap_uri};
  h->atom_Float = map_uri(h, LV2_ATOM__Float);
  h->atom_Int = map_uri(h, LV2_ATOM__Int);
  h->atom_Double = map_uri(h, LV2_ATOM__Double);
  h->atom_Sequence = map_uri(h, LV2_ATOM__Sequence);
  h->midi_Event = map_uri(h, LV2_MIDI__MidiEvent);
  h->log_Error = map_uri(h, LV2_LOG__Error);
  h->log_Warning = map_uri(h, LV2_LOG__Warning);
  contact_uris_map(&h->curis, &h->map);
  h->worker_in_restore = true;
  h->log = (LV2_Log_Log){h, log_printf, log_vprintf};
  h->schedule = (LV2_Worker_Schedule){h, schedule_work};

  h->min_block_option = 1;
  h->max_block_option = (int32_t)h->max_block;
  h->nominal_block_option = (int32_t)h->max_block;
  h->rate_option = (float)sample_rate;
  const LV2_URID int_type = h->atom_Int;
  h->options[0] = (LV2_Options_Option){
      LV2_OPTIONS_INSTANCE, 0,        map_uri(h, LV2_BUF_SIZE__minBlockLength),
      sizeof(int32_t),      int_type, &h->min_block_option};
  h->options[1] = (LV2_Options_Option){
      LV2_OPTIONS_INSTANCE, 0,        map_uri(h, LV2_BUF_SIZE__maxBlockLength),
      sizeof(int32_t),      int_type, &h->max_block_option};
  h->options[2] =
      (LV2_Options_Option){LV2_OPTIONS_INSTANCE,
                           0,
                           map_uri(h, LV2_BUF_SIZE__nominalBlockLength),
                           sizeof(int32_t),
                           int_type,
                           &h->nominal_block_option};
  h->options[3] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE,
                                       0,
                                       map_uri(h, LV2_PARAMETERS__sampleRate),
                                       sizeof(float),
                                       h->atom_Float,
                                       &h->rate_option};
  h->options[4] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL};

  h->feature_map = (LV2_Feature){LV2_URID__map, &h->map};
  h->feature_unmap = (LV2_Feature){LV2_URID__unmap, &h->unmap};
  h->feature_log = (LV2_Feature){LV2_LOG__log, &h->log};
  h->feature_options = (LV2_Feature){LV2_OPTIONS__options, h->options};
  h->feature_schedule = (LV2_Feature){LV2_WORKER__schedule, &h->schedule};
  h->feature_bounded = (LV2_Feature){LV2_BUF_SIZE__boundedBlockLength, NULL};
  const LV2_Feature* features[7] = {&h->feature_map,
                                    &h->feature_unmap,
                                    &h->feature_log,
                                    &h->feature_options,
                                    &h->feature_schedule,
                                    &h->feature_bounded,
                                    NULL};
  memcpy(h->features, features, sizeof(features));

  absolute_lv2_path();
  h->world = lilv_world_new();
  lilv_world_load_all(h->world);
  LilvNode* plugin_uri = lilv_new_uri(h->world, uri);
  h->plugin =
      lilv_plugins_get_by_uri(lilv_world_get_all_plugins(h->world), plugin_uri);
  lilv_node_free(plugin_uri);
  if (!h->plugin) {
    fprintf(stderr, "host: no plugin <%s> on LV2_PATH=%s\n", uri,
            getenv("LV2_PATH") ? getenv("LV2_PATH") : "(unset)");
    host_close(h);
    return NULL;
  }
  h->instance = lilv_plugin_instantiate(h->plugin, sample_rate, h->features);
  if (!h->instance) {
    fprintf(stderr, "host: <%s> failed to instantiate\n", uri);
    host_close(h);
    return NULL;
  }
  if (!setup_ports(h)) {
    host_close(h);
    return NULL;
  }
  h->worker = (const LV2_Worker_Interface*)lilv_instance_get_extension_data(
      h->instance, LV2_WORKER__interface);
  lilv_instance_activate(h->instance);
  return h;
}

void
host_close(host* h)
{
  if (!h)
    return;
  if (h->instance) {
    lilv_instance_deactivate(h->instance);
    lilv_instance_free(h->instance);
  }
  if (h->world)
    lilv_world_free(h->world);
  for (uint32_t i = 0; i < h->n_uris; ++i)
    free(h->uris[i]);
  for (uint32_t i = 0; h->symbols && i < h->n_ports; ++i)
    free(h->symbols[i]);
  free(h->uris);
  free(h->symbols);
  free(h->values);
  free(h->mins);
  free(h->defs);
  free(h->maxs);
  free(h->is_control);
  free(h->is_output);
  free(h->audio[0]);
  free(h->audio[1]);
  free(h->seq);
  free(h->notify);
  for (size_t i = 0; i < h->n_events; ++i)
    free(h->events[i].heap);
  free(h->requests);
  free(h->responses);
  free(h->events);
  free(h->ramps);
  free(h);
}

double
host_sample_rate(const host* h)
{
  return h->rate;
}

uint64_t
host_now(const host* h)
{
  return h->now;
}

/* ---- ports ------------------------------------------------------------ */

int
host_port(const host* h, const char* symbol)
{
  for (uint32_t i = 0; i < h->n_ports; ++i)
    if (h->is_control[i] && !strcmp(h->symbols[i], symbol))
      return (int)i;
  return -1;
}

int
host_n_ports(const host* h)
{
  return (int)h->n_ports;
}

const char*
host_port_symbol(const host* h, int index)
{
  return index >= 0 && (uint32_t)index < h->n_ports ? h->symbols[index] : NULL;
}

bool
host_port_range(const host* h, int index, float* min, float* def, float* max,
                bool* is_output)
{
  if (index < 0 || (uint32_t)index >= h->n_ports || !h->is_control[index])
    return false;
  *min = h->mins[index];
  *def = h->defs[index];
  *max = h->maxs[index];
  *is_output = h->is_output[index];
  return true;
}

bool
host_port_logarithmic(const host* h, int index)
{
  if (index < 0 || (uint32_t)index >= h->n_ports)
    return false;
  LilvNode* log = lilv_new_uri(h->world, LV2_PORT_PROPS__logarithmic);
  const bool is_log = lilv_port_has_property(
      h->plugin, lilv_plugin_get_port_by_index(h->plugin, (uint32_t)index),
      log);
  lilv_node_free(log);
  return is_log;
}

bool
host_set(host* h, const char* symbol, float value)
{
  const int i = host_port(h, symbol);
  if (i < 0) {
    fprintf(stderr, "host: no control port '%s'\n", symbol);
    return false;
  }
  h->values[i] = value;
  return true;
}

void
host_set_index(host* h, int index, float value)
{
  if (index >= 0 && (uint32_t)index < h->n_ports && h->is_control[index])
    h->values[index] = value;
}

float
host_get(const host* h, const char* symbol)
{
  const int i = host_port(h, symbol);
  return i < 0 ? 0.0f : h->values[i];
}

float
host_get_index(const host* h, int index)
{
  return index >= 0 && (uint32_t)index < h->n_ports ? h->values[index] : 0.0f;
}

/* ---- events and ramps ------------------------------------------------- */

/* an event of any type at `frame`, its body copied */
static bool
host_event(host* h, uint64_t frame, LV2_URID type, const void* body,
           uint32_t size)
{
  if (frame < h->now || size > SEQ_CAPACITY / 2)
    return false;
  if (h->n_events == h->cap_events) {
    const size_t cap = h->cap_events ? 2 * h->cap_events : 64;
    event* grown = (event*)realloc(h->events, cap * sizeof(event));
    if (!grown)
      return false;
    h->events = grown;
    h->cap_events = cap;
  }
  uint8_t* heap = NULL;
  if (size > EVENT_MAX) {
    heap = (uint8_t*)malloc(size);
    if (!heap)
      return false;
    memcpy(heap, body, size);
  }
  /* keep the queue sorted by frame, equal frames in arrival order */
  size_t at = h->n_events;
  while (at > 0 && h->events[at - 1].frame > frame)
    --at;
  memmove(&h->events[at + 1], &h->events[at],
          (h->n_events - at) * sizeof(event));
  event* e = &h->events[at];
  e->frame = frame;
  e->size = size;
  e->type = type;
  e->heap = heap;
  if (!heap)
    memcpy(e->data, body, size);
  h->n_events++;
  return true;
}

bool
host_midi(host* h, uint64_t frame, const uint8_t* msg, uint32_t size)
{
  return size <= EVENT_MAX && host_event(h, frame, h->midi_Event, msg, size);
}

/* a patch message forged by the plugins' own helpers (uris.h) */
static bool
host_patch(host* h, uint64_t frame, const char* path)
{
  static uint8_t buf[16384];
  LV2_Atom_Forge forge;
  lv2_atom_forge_init(&forge, &h->map);
  lv2_atom_forge_set_buffer(&forge, buf, sizeof(buf));
  const LV2_Atom_Forge_Ref ref =
      path ? contact_write_set_table(&forge, &h->curis, path,
                                     (uint32_t)strlen(path))
           : contact_write_get_table(&forge, &h->curis);
  if (!ref)
    return false;
  const LV2_Atom* atom = (const LV2_Atom*)buf;
  return host_event(h, frame, atom->type, LV2_ATOM_BODY_CONST(atom),
                    atom->size);
}

bool
host_object(host* h, uint64_t frame, const char* otype)
{
  uint8_t buf[64];
  LV2_Atom_Forge forge;
  LV2_Atom_Forge_Frame object;
  lv2_atom_forge_init(&forge, &h->map);
  lv2_atom_forge_set_buffer(&forge, buf, sizeof(buf));
  if (!lv2_atom_forge_object(&forge, &object, 0,
                             h->map.map(h->map.handle, otype)))
    return false;
  lv2_atom_forge_pop(&forge, &object);
  const LV2_Atom* atom = (const LV2_Atom*)buf;
  return host_event(h, frame, atom->type, LV2_ATOM_BODY_CONST(atom),
                    atom->size);
}

bool
host_set_table(host* h, uint64_t frame, const char* path)
{
  return host_patch(h, frame, path);
}

bool
host_get_table(host* h, uint64_t frame)
{
  return host_patch(h, frame, NULL);
}

int
host_table_replies(const host* h)
{
  return h->notify_sets;
}

const char*
host_table_reply(const host* h)
{
  return h->notify_path;
}

bool
host_note_on(host* h, uint64_t frame, int note, int velocity)
{
  const uint8_t msg[3] = {0x90, (uint8_t)(note & 0x7F),
                          (uint8_t)(velocity & 0x7F)};
  return host_midi(h, frame, msg, 3);
}

bool
host_note_off(host* h, uint64_t frame, int note)
{
  const uint8_t msg[3] = {0x80, (uint8_t)(note & 0x7F), 0};
  return host_midi(h, frame, msg, 3);
}

bool
host_ramp(host* h, const char* symbol, uint64_t start, uint64_t end, float from,
          float to)
{
  const int port = host_port(h, symbol);
  if (port < 0 || end < start)
    return false;
  if (h->n_ramps == h->cap_ramps) {
    const size_t cap = h->cap_ramps ? 2 * h->cap_ramps : 16;
    ramp* grown = (ramp*)realloc(h->ramps, cap * sizeof(ramp));
    if (!grown)
      return false;
    h->ramps = grown;
    h->cap_ramps = cap;
  }
  h->ramps[h->n_ramps++] = (ramp){port, start, end, from, to};
  return true;
}

void
host_automation_grid(host* h, uint32_t frames)
{
  h->grid = frames;
}

static void
apply_ramps(host* h)
{
  const uint64_t at = h->grid ? h->now - h->now % h->grid : h->now;
  for (size_t i = 0; i < h->n_ramps; ++i) {
    const ramp* r = &h->ramps[i];
    if (at < r->start)
      continue;
    const double x =
        at >= r->end || r->end == r->start
            ? 1.0
            : (double)(at - r->start) / (double)(r->end - r->start);
    h->values[r->port] = (float)(r->from + (r->to - r->from) * x);
  }
}

/* ---- running ---------------------------------------------------------- */

static void
fill_sequence(host* h, uint32_t frames)
{
  LV2_Atom_Sequence* seq = h->seq;
  seq->atom.type = h->atom_Sequence;
  lv2_atom_sequence_clear(seq);
  size_t used = 0;
  while (used < h->n_events && h->events[used].frame < h->now + frames) {
    const event* e = &h->events[used];
    static union {
      LV2_Atom_Event header;
      uint8_t bytes[SEQ_CAPACITY / 2 + sizeof(LV2_Atom_Event)];
    } ev;
    ev.header.time.frames = (int64_t)(e->frame - h->now);
    ev.header.body.type = e->type;
    ev.header.body.size = e->size;
    memcpy(ev.bytes + sizeof(LV2_Atom_Event), e->heap ? e->heap : e->data,
           e->size);
    if (!lv2_atom_sequence_append_event(
            seq, SEQ_CAPACITY - (uint32_t)sizeof(LV2_Atom), &ev.header))
      break; /* full: the rest waits for the next block */
    free(e->heap);
    ++used;
  }
  if (used > 0) {
    memmove(h->events, h->events + used, (h->n_events - used) * sizeof(event));
    h->n_events -= used;
  }
}

/* the patch:Set replies the plugin wrote on its notify port */
static void
read_notify(host* h)
{
  const LV2_Atom_Sequence* seq = h->notify;
  if (h->notify_port < 0 || seq->atom.type != h->atom_Sequence)
    return;
  LV2_ATOM_SEQUENCE_FOREACH(seq, ev)
  {
    if (ev->body.type != h->curis.atom_Object)
      continue;
    const char* path =
        contact_read_set_table(&h->curis, (const LV2_Atom_Object*)&ev->body);
    if (path) {
      h->notify_sets++;
      snprintf(h->notify_path, sizeof(h->notify_path), "%s", path);
    }
  }
}

void
host_run(host* h, uint64_t frames, uint32_t block, float* out_l, float* out_r)
{
  if (block == 0 || block > h->max_block)
    block = h->max_block;
  uint64_t done = 0;
  while (done < frames) {
    uint32_t n = (uint32_t)(frames - done < block ? frames - done : block);
    if (h->grid && h->n_ramps > 0) { /* end the block at the next step */
      const uint32_t to_step = h->grid - (uint32_t)(h->now % h->grid);
      n = n < to_step ? n : to_step;
    }
    apply_ramps(h);
    fill_sequence(h, n);
    /* the notify port: an empty chunk of the buffer's capacity */
    h->notify->atom.type = 0;
    h->notify->atom.size = SEQ_CAPACITY - (uint32_t)sizeof(LV2_Atom);

    /* work_response() and end_run() belong to the audio thread: counted */
    alloc_count_begin();
    if (h->worker)
      drain(h, h->responses, true);
    /* processor time, as the benchmark measures (limit.c) */
    struct timespec t0, t1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    lilv_instance_run(h->instance, n);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    const double ran = seconds_between(&t0, &t1) - h->clock_cost;
    h->run_seconds += ran > 0.0 ? ran : 0.0;
    if (h->worker && h->worker->end_run)
      h->worker->end_run(h->instance->lv2_handle);
    alloc_count_end();

    read_notify(h);
    run_worker(h);
    if (out_l && h->audio_port[0] >= 0)
      memcpy(out_l + done, h->audio[0], n * sizeof(float));
    if (out_r && h->audio_port[1] >= 0)
      memcpy(out_r + done, h->audio[1], n * sizeof(float));
    h->now += n;
    done += n;
  }
}

double
host_run_seconds(const host* h)
{
  return h->run_seconds;
}

long long
host_run_allocations(const host* h)
{
  (void)h;
  return alloc_count_total();
}

/* ---- presets and state ------------------------------------------------ */

static void
set_port_value(const char* symbol, void* user_data, const void* value,
               uint32_t size, uint32_t type)
{
  host* h = (host*)user_data;
  const int i = host_port(h, symbol);
  if (i < 0)
    return;
  if (type == h->atom_Float && size == sizeof(float))
    h->values[i] = *(const float*)value;
  else if (type == h->atom_Double && size == sizeof(double))
    h->values[i] = (float)*(const double*)value;
  else if (type == h->atom_Int && size == sizeof(int32_t))
    h->values[i] = (float)*(const int32_t*)value;
}

static const void*
get_port_value(const char* symbol, void* user_data, uint32_t* size,
               uint32_t* type)
{
  host* h = (host*)user_data;
  const int i = host_port(h, symbol);
  if (i < 0 || h->is_output[i]) {
    *size = *type = 0;
    return NULL;
  }
  *size = sizeof(float);
  *type = h->atom_Float;
  return &h->values[i];
}

bool
host_load_preset(host* h, const char* preset_uri)
{
  LilvNode* preset = lilv_new_uri(h->world, preset_uri);
  lilv_world_load_resource(h->world, preset);
  LilvState* state = lilv_state_new_from_world(h->world, &h->map, preset);
  lilv_node_free(preset);
  if (!state) {
    fprintf(stderr, "host: no preset <%s>\n", preset_uri);
    return false;
  }
  lilv_state_restore(state, h->instance, set_port_value, h, 0, h->features);
  lilv_state_free(state);
  return true;
}

bool
host_save_state(host* h, const char* dir, const char* filename)
{
  LilvState* state = lilv_state_new_from_instance(
      h->plugin, h->instance, &h->map, NULL, dir, dir, dir, get_port_value, h,
      LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE, h->features);
  if (!state)
    return false;
  const int rc =
      lilv_state_save(h->world, &h->map, &h->unmap, state, NULL, dir, filename);
  lilv_state_free(state);
  return rc == 0;
}

void
host_restore_with_worker(host* h, bool worker)
{
  h->worker_in_restore = worker;
}

bool
host_restore_state(host* h, const char* path)
{
  LilvState* state = lilv_state_new_from_file(h->world, &h->map, NULL, path);
  if (!state)
    return false;
  /* without work:schedule the plugin loads its files in restore() itself;
   * with it (as a host that restores while running, state:threadSafeRestore)
   * it hands them to the worker, which works after the next run() */
  const LV2_Feature* no_worker[] = {&h->feature_map, &h->feature_unmap,
                                    &h->feature_log, &h->feature_options, NULL};
  lilv_state_restore(state, h->instance, set_port_value, h, 0,
                     h->worker_in_restore ? h->features : no_worker);
  lilv_state_free(state);
  return true;
}

/* ---- log -------------------------------------------------------------- */

int
host_log_count(const host* h)
{
  return h->log_count;
}

int
host_log_warnings(const host* h)
{
  return h->log_warnings;
}

int
host_log_errors(const host* h)
{
  return h->log_errors;
}

void
host_log_clear(host* h)
{
  h->log_used = 0;
  h->log_all[0] = '\0';
  h->log_last[0] = '\0';
}

const char*
host_log_last(const host* h)
{
  return h->log_last;
}

const char*
host_log_all(const host* h)
{
  return h->log_all;
}

void
host_log_quiet(host* h, bool quiet)
{
  h->quiet = quiet;
}
