/* SPDX-License-Identifier: ISC */
/*
 * The UI as a host loads it, without GTK: the UI binary is opened, each
 * instrument's UI instantiated in a window of its own (on the display the
 * test's Xvfb provides), fed port values and the 128-mode table a plugin
 * would announce, and idled.
 *
 *   ui_host BUNDLE TABLE [CYCLES IDLE_RUNS]
 *
 * (fewer cycles and idle calls under valgrind, which checks the memory
 * itself: tests/meson.build)
 *
 * Checks:
 *   - idle() stays within the host's frame while meters move and a
 *     128-mode table is shown (and, for the impact UI once more, with the
 *     object a membrane and its strike meter moving too: the object
 *     panel's map and nodal lines drawn again each frame beside the
 *     contact panel), at a host's pace: 99 calls in 100 below
 *     idle_limit_s, by their own work (the GUI thread's CPU time) and by
 *     the wall clock (the rest is the machine's: a VM's 2 shared cores
 *     stall a thread for 10-30 ms now and then, whatever it runs, and a
 *     thread's CPU time counts the hypervisor's steal and page faults);
 *   - opening and closing the UI 50 times leaks nothing: the heap in use
 *     and the open files after the last cycle are those after the warm-up
 *     cycles (a leak of one UI, its window or its drawing grows them by
 *     far more than leak_slack_bytes).
 */
#define _GNU_SOURCE /* mallinfo2, nanosleep */

#include "check.h"

#include "friction_ports.h"
#include "impact_ports.h"
#include "rolling_ports.h"
#include "shape.h"
#include "uris.h"

#include <lv2/ui/ui.h>

#include <dirent.h>
#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A host calls idle() at 25-60 Hz from its GUI thread: 5 ms leaves it
 * most of a 60 Hz frame (the bar). */
static const double idle_limit_s = 5e-3;
/* Idle calls timed per instrument, each after a meter moved, at a host's
 * pace (jalv and Ardour update their UIs 30 times a second). */
enum { IDLE_RUNS = 200 };
static int idle_runs = IDLE_RUNS;

/* Under AddressSanitizer the UI checks its memory: its times and its
 * heap (the sanitizer's allocator) say nothing of the UI's own. */
#if defined(__SANITIZE_ADDRESS__)
static const bool measured = false;
#else
static const bool measured = true;
#endif
static const double host_frame_s = 1.0 / 30.0;
/* Open/close cycles: the heap is compared after WARM_CYCLES (Mesa, cairo
 * and fontconfig fill their caches once) and after CYCLES. */
enum { WARM_CYCLES = 5, CYCLES = 50 };
static int cycles = CYCLES;
/* Heap growth allowed over the 45 cycles.  pugl-0, Xlib and Mesa keep
 * 0.1-0.6 kB per window opened and closed (a bare pugl-0 GL window does
 * the same: 55 kB over 100); the smallest thing the UI allocates per
 * opening is its state, ~0.2 MB, and its drawing is 1.8 MB, so a leak of
 * any of its own would exceed this 45 times over. */
static const size_t leak_slack_bytes = 64 * 1024;

/* ---- a minimal host --------------------------------------------------------
 */

enum { MAX_URIS = 256 };
static char* uri_table[MAX_URIS];
static unsigned n_uris;

static LV2_URID
map_uri(LV2_URID_Map_Handle handle, const char* uri)
{
  (void)handle;
  for (unsigned i = 0; i < n_uris; ++i)
    if (!strcmp(uri_table[i], uri))
      return i + 1;
  if (n_uris == MAX_URIS)
    return 0;
  uri_table[n_uris] = strdup(uri);
  return ++n_uris;
}

static unsigned writes;

static void
write_port(LV2UI_Controller controller, uint32_t port, uint32_t size,
           uint32_t protocol, const void* buffer)
{
  (void)controller, (void)port, (void)size, (void)protocol, (void)buffer;
  ++writes;
}

static double
clock_s(clockid_t clock)
{
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int
compare_doubles(const void* a, const void* b)
{
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static int
open_files(void)
{
  int n = 0;
  DIR* d = opendir("/proc/self/fd");
  if (!d)
    return -1;
  while (readdir(d))
    ++n;
  closedir(d);
  return n;
}

typedef struct host {
  const LV2UI_Descriptor* descriptor;
  LV2UI_Handle ui;
  const LV2UI_Idle_Interface* idle;
  LV2_URID_Map map;
  contact_uris uris;
  const char* bundle;
} host;

static bool
open_ui(host* h, const char* plugin_uri)
{
  const LV2_Feature map = {LV2_URID__map, &h->map};
  const LV2_Feature idle = {LV2_UI__idleInterface, NULL};
  const LV2_Feature* features[] = {&map, &idle, NULL};
  LV2UI_Widget widget = NULL;
  h->ui = h->descriptor->instantiate(h->descriptor, plugin_uri, h->bundle,
                                     write_port, h, &widget, features);
  return h->ui && widget;
}

/* The plugin's answer to the UI's patch:Get: it plays `table`. */
static void
announce_table(host* h, int notify_port, const char* table)
{
  uint8_t buffer[8192];
  LV2_Atom_Forge forge;
  lv2_atom_forge_init(&forge, &h->map);
  lv2_atom_forge_set_buffer(&forge, buffer, sizeof(buffer));
  const LV2_Atom* set = (const LV2_Atom*)contact_write_set_table(
      &forge, &h->uris, table, (uint32_t)strlen(table));
  h->descriptor->port_event(h->ui, (uint32_t)notify_port,
                            lv2_atom_total_size(set),
                            h->uris.atom_eventTransfer, set);
}

static const LV2UI_Descriptor*
find_descriptor(LV2UI_DescriptorFunction get, const char* uri)
{
  const LV2UI_Descriptor* d;
  for (uint32_t i = 0; (d = get(i)); ++i)
    if (!strcmp(d->URI, uri))
      return d;
  return NULL;
}

/* ---- checks
 * ------------------------------------------------------------------ */

typedef struct instrument {
  const char* uri;
  int meter;  /* a meter's port index, moved before each idle */
  int notify; /* the notify port's index */
  int strike; /* the object's strike meter, moved too, or -1 */
  int shape;  /* the shape port, set to `family` first, or -1 */
  float family;
} instrument;

static int
port_named(const plugin_info* p, const char* symbol)
{
  for (int i = 0; i < p->n_ports; ++i)
    if (!strcmp(plugin_port(p, i)->symbol, symbol))
      return i;
  return -1;
}

static instrument
instrument_of(const plugin_info* p, const char* meter)
{
  return (instrument){
      p->uri, port_named(p, meter), plugin_notify_port(p), -1, -1, 0.0f};
}

/* the same with the object a membrane, its strike meter moving too */
static instrument
membrane_of(const plugin_info* p, const char* meter)
{
  instrument in = instrument_of(p, meter);
  in.strike = port_named(p, "strike_position");
  in.shape = port_named(p, "shape");
  in.family = (float)SHAPE_MEMBRANE;
  return in;
}

/* One run of `idle_runs` idle() calls at the host's pace, each after a
 * meter moved; false if the UI did not open.  Sorted times in t and cpu. */
static bool
time_idle(host* h, const instrument* in, const char* table, double* t,
          double* cpu)
{
  if (!open_ui(h, in->uri))
    return false;
  announce_table(h, in->notify, table);
  if (in->shape >= 0)
    h->descriptor->port_event(h->ui, (uint32_t)in->shape, sizeof(float), 0,
                              &in->family);
  for (int k = 0; k < idle_runs; ++k) {
    const float value = 1.0f + (float)k;
    h->descriptor->port_event(h->ui, (uint32_t)in->meter, sizeof(float), 0,
                              &value);
    if (in->strike >= 0) {
      const float at = 0.05f + 0.9f * (float)(k % 19) / 18.0f;
      h->descriptor->port_event(h->ui, (uint32_t)in->strike, sizeof(float), 0,
                                &at);
    }
    const double t0 = clock_s(CLOCK_MONOTONIC);
    const double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
    h->idle->idle(h->ui);
    cpu[k] = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
    t[k] = clock_s(CLOCK_MONOTONIC) - t0;
    const double rest = host_frame_s - t[k];
    if (rest > 0) {
      const struct timespec pause = {0, (long)(rest * 1e9)};
      nanosleep(&pause, NULL);
    }
  }
  h->descriptor->cleanup(h->ui);
  qsort(t, idle_runs, sizeof(double), compare_doubles);
  qsort(cpu, idle_runs, sizeof(double), compare_doubles);
  return true;
}

/* Bar 4: idle() within idle_limit_s, 99 calls in 100 by their own work
 * (the CPU time of the thread that calls it, the host's GUI thread: not
 * the process's, which also counts what the GL driver's own threads do
 * meanwhile, such as writing its shader cache) and by the wall clock.  Not
 * the worst call: every frame draws the same partial redraw, yet the worst
 * of 200 took 2-3.7x the median CPU time where the 99th took 1.2-1.7x
 * (measured here; the worst alone failed CI's run on its shared VM).
 * A run that fails is measured again, up to idle_attempts runs, and the
 * last decides (a UI that is slow is slow every time), for what is not
 * the UI's:
 * - the wall clock also counts the X server's turn (the frame goes to
 *   Xvfb, another process, and the GL driver waits for it), and this is a
 *   shared two-core machine: a neighbour can hold the processor through a
 *   few calls;
 * - a software GL compiles the code for each kind of draw the first time
 *   it meets it, and on a fresh machine (as CI's is) Mesa's shader cache
 *   is empty: llvmpipe took 20-40 ms in the first partial redraw of a
 *   meter, in the first two runs after the cache was emptied (measured),
 *   and none after (the cache keeps it on disk).  The view draws its
 *   first frame while the UI is created (view.c), but which partial
 *   redraws need code of their own is the driver's affair. */
static const int idle_attempts = 5;

static void
check_idle(host* h, const instrument* in, const char* table)
{
  const int n = idle_runs;
  const int attempts = measured && n >= IDLE_RUNS ? idle_attempts : 1;
  double t[IDLE_RUNS], cpu[IDLE_RUNS], t99 = 0, cpu99 = 0;
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    if (!time_idle(h, in, table, t, cpu)) {
      CHECK(false, "%s: the UI did not open", in->uri);
      return;
    }
    const int p99 = n * 99 / 100 > 0 ? n * 99 / 100 - 1 : 0;
    t99 = t[p99];
    cpu99 = cpu[p99];
    printf("%s: idle() with 128 modes, %s: wall median %.2f ms, "
           "99 %% %.2f ms, worst %.2f ms; CPU median %.2f ms, 99 %% %.2f ms, "
           "worst %.2f ms (limit %.1f ms)\n",
           in->uri,
           in->strike >= 0 ? "a membrane, a meter and the strike moving"
                           : "a meter moving",
           1e3 * t[n / 2], 1e3 * t99, 1e3 * t[n - 1], 1e3 * cpu[n / 2],
           1e3 * cpu99, 1e3 * cpu[n - 1], 1e3 * idle_limit_s);
    if (cpu99 < idle_limit_s && t99 < idle_limit_s)
      break;
  }
  if (n < IDLE_RUNS || !measured)
    return; /* too few to time (under valgrind), or instrumented */
  CHECK(cpu99 < idle_limit_s, "%s: 1 idle() in 100 worked %.2f ms or more",
        in->uri, 1e3 * cpu99);
  CHECK(t99 < idle_limit_s, "%s: 1 idle() in 100 took %.2f ms or more", in->uri,
        1e3 * t99);
}

static void
check_cycles(host* h, const instrument* in, const char* table)
{
  size_t heap_warm = 0;
  int files_warm = 0;
  for (int c = 0; c < cycles; ++c) {
    if (!open_ui(h, in->uri)) {
      CHECK(false, "%s: the UI did not open on cycle %d", in->uri, c);
      return;
    }
    announce_table(h, in->notify, table);
    if (in->shape >= 0)
      h->descriptor->port_event(h->ui, (uint32_t)in->shape, sizeof(float), 0,
                                &in->family);
    for (int k = 0; k < 3; ++k)
      h->idle->idle(h->ui);
    h->descriptor->cleanup(h->ui);
    if (c + 1 == WARM_CYCLES) {
      heap_warm = mallinfo2().uordblks;
      files_warm = open_files();
    }
  }
  const size_t heap = mallinfo2().uordblks;
  const int files = open_files();
  const double growth = (double)heap - (double)heap_warm;
  printf("%s: %d open/close cycles: heap %+.0f bytes, open files %+d over "
         "the last %d\n",
         in->uri, cycles, growth, files - files_warm, cycles - WARM_CYCLES);
  if (cycles < CYCLES || !measured)
    return; /* too few to tell (under valgrind), or instrumented */
  CHECK(growth <= (double)leak_slack_bytes, "%s: heap grew %.0f bytes", in->uri,
        growth);
  CHECK(files == files_warm, "%s: %d more open files", in->uri,
        files - files_warm);
}

int
main(int argc, char** argv)
{
  if (argc != 3 && argc != 5) {
    fprintf(stderr, "usage: %s BUNDLE TABLE [CYCLES IDLE_RUNS]\n", argv[0]);
    return 2;
  }
  if (argc == 5) {
    cycles = atoi(argv[3]);
    idle_runs = atoi(argv[4]);
    if (cycles <= WARM_CYCLES || idle_runs < 1 || idle_runs > IDLE_RUNS)
      return 2;
  }
  char path[4096];
  snprintf(path, sizeof(path), "%s/contact_ui.so", argv[1]);
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  LV2UI_DescriptorFunction get =
      (LV2UI_DescriptorFunction)dlsym(lib, "lv2ui_descriptor");
  host h = {0};
  h.map = (LV2_URID_Map){NULL, map_uri};
  contact_uris_map(&h.uris, &h.map);
  snprintf(path, sizeof(path), "%s/", argv[1]);
  h.bundle = path;

  /* a meter of each instrument's contact panel */
  const instrument instruments[] = {
      instrument_of(&impact_info, "contact_time"),
      instrument_of(&friction_info, "slip_velocity"),
      instrument_of(&rolling_info, "contact_force"),
  };
  for (size_t i = 0; i < sizeof(instruments) / sizeof(instruments[0]); ++i) {
    const instrument in = instruments[i];
    char uri[128];
    snprintf(uri, sizeof(uri), "%s" CONTACT_UI_URI_SUFFIX, in.uri);
    h.descriptor = get ? find_descriptor(get, uri) : NULL;
    if (!h.descriptor) {
      CHECK(false, "no UI %s in the binary", uri);
      continue;
    }
    h.idle = h.descriptor->extension_data(LV2_UI__idleInterface);
    CHECK(h.idle, "%s: no idle interface", uri);
    if (!h.idle)
      continue;
    check_idle(&h, &in, argv[2]);
    /* the impact UI with shapes too: timed, and opened and closed with
     * the shapes it builds */
    const instrument shaped = membrane_of(&impact_info, "contact_time");
    if (i == 0)
      check_idle(&h, &shaped, argv[2]);
    check_cycles(&h, i == 0 ? &shaped : &in, argv[2]);
  }
  /* the library stays loaded: a leak report (ASan's, valgrind's) can then
   * name the code that allocated */
  (void)lib;
  return check_done("ui_host");
}
