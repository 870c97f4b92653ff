/* SPDX-License-Identifier: ISC */
/*
 * Writes the bundle's Turtle from the port tables (the same tables the
 * plugins clamp their controls with) and the preset descriptions.
 *   gen_ttl PLUGIN OUTPUT.ttl                 a plugin's description
 *   gen_ttl --presets FILE.presets OUTPUT.ttl  its presets (see presets/)
 *   gen_ttl --manifest OUTPUT.ttl SHLIB_EXT FILE.presets...
 *                               the manifest, with the preset banks
 *   gen_ttl --symbols PLUGIN    list the port symbols (for the tests)
 *   gen_ttl --controls PLUGIN   count the control ports (for the tests)
 * A preset naming an unknown port or a value outside its range, or
 * lacking a comment or a bank (or naming an unknown one), fails.
 */
#include "friction_ports.h"
#include "impact_ports.h"
#include "port_info.h"
#include "rolling_ports.h"

#include <stdbool.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const plugin_info* const plugins[] = {&impact_info, &friction_info,
                                             &rolling_info};

/* The project: lv2lint wants a homepage and a maintainer with mailbox and
 * homepage.  LV2 versions: an odd minor or micro version, or minor 0, is a
 * development version. */
#define PROJECT_HOMEPAGE "https://github.com/contact-lv2/contact"
#define PROJECT_MBOX     "mailto:maintainers@contact-lv2.org"
#define MINOR_VERSION    2
#define MICRO_VERSION    0

/* The groups of the I/O ports (see write_io_groups). */
#define MIDI_GROUP   "midi_input"
#define AUDIO_GROUP  "audio_output"
#define NOTIFY_GROUP "notify_output"

/* The notify port's buffer: a patch:Set with the longest path the plugins
 * take (OBJECT_PATH_SIZE) and its headers. */
#define NOTIFY_MINIMUM_SIZE 8192

static const struct {
  const char* id;
  const char* label;
  const char* symbol;
  const char* render; /* NULL: "%f symbol" */
} custom_units[] = {
    {"gram", "gram", "g", NULL},
    {"kilogram", "kilogram", "kg", NULL},
    {"newton", "newton", "N", NULL},
    {"metrePerSecond", "metre per second", "m/s", NULL},
    {"millimetrePerSecond", "millimetre per second", "mm/s", NULL},
    {"metrePerSecondSquared", "metre per second squared", "m/s^2", NULL},
    {"micrometre", "micrometre", "um", NULL},
    {"microsecond", "microsecond", "us", NULL},
    {"newtonPerMetre", "newton per metre", "N/m", NULL},
    {"newtonSecondPerMetre", "newton second per metre", "N s/m", NULL},
    {"secondPerMetre", "second per metre", "s/m", NULL},
    {"newtonPerMetrePowAlpha", "newton per metre to the power alpha", "N/m^a",
     NULL},
    /* the power of a law (contact exponent, velocity curve, 1/f^beta):
     * dimensionless like units:coef, but not a scale to show in percent */
    {"exponent", "exponent", "", "^%f"},
};

static const struct {
  const char* symbol;
  const char* label;
} groups[] = {
    {"meters", "Meters"},   {"hammer", "Hammer"},
    {"exciter", "Exciter"}, {"bristles", "Bristles"},
    {"ball", "Ball"},       {"surface", "Surface"},
    {"contact", "Contact"}, {"object", "Object"},
    {"output", "Output"},   {"place", "Where it is touched and heard"},
    {"felt", "Felt"},       {"exciter_body", "Exciter's modes"},
};

static bool
uses_group(const plugin_info* p, const char* group)
{
  for (int i = 0; i < p->n_ports; ++i)
    if (plugin_port(p, i)->group && !strcmp(plugin_port(p, i)->group, group))
      return true;
  return false;
}

/* a Turtle number literal that keeps a float exactly */
static void
number(FILE* f, float value)
{
  /* the shortest form that reads back as the same float */
  char buf[64];
  for (int digits = 6; digits <= 9; ++digits) {
    snprintf(buf, sizeof(buf), "%.*g", digits, (double)value);
    if (strtof(buf, NULL) == value)
      break;
  }
  if (!strpbrk(buf, ".eE"))
    strcat(buf, ".0");
  fputs(buf, f);
}

/* a Turtle integer literal (xsd:integer), for whole-number ports */
static void
integer(FILE* f, float value)
{
  fprintf(f, "%ld", lrintf(value));
}

static void
string(FILE* f, const char* s)
{
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* the number of audio outputs among the first `n` ports */
static int
audio_outputs(const plugin_info* p, int n)
{
  int count = 0;
  for (int i = 0; i < n; ++i)
    count += plugin_port(p, i)->kind == PORT_AUDIO_OUT;
  return count;
}

/* The MIDI input and the audio outputs in an input and an output group
 * (port groups: pg:group on every port helps hosts draw generic UIs), the
 * outputs a stereo pair, pg:left and pg:right: the instrument's main input
 * and output, the output the result of the input (pg:source). */
static void
write_io_groups(FILE* f, const plugin_info* p)
{
  fprintf(f,
          "<%s#" MIDI_GROUP ">\n\ta pg:InputGroup ;\n"
          "\tlv2:symbol \"" MIDI_GROUP "\" ;\n"
          "\trdfs:label \"MIDI input\" .\n\n",
          p->uri);
  fprintf(f,
          "<%s#" AUDIO_GROUP ">\n\ta pg:OutputGroup%s ;\n"
          "\tlv2:symbol \"" AUDIO_GROUP "\" ;\n"
          "\trdfs:label \"Audio output\" ;\n"
          "\tpg:source <%s#" MIDI_GROUP "> .\n\n",
          p->uri, audio_outputs(p, p->n_ports) == 2 ? ", pg:StereoGroup" : "",
          p->uri);
  fprintf(f,
          "<%s#" NOTIFY_GROUP ">\n\ta pg:OutputGroup ;\n"
          "\tlv2:symbol \"" NOTIFY_GROUP "\" ;\n"
          "\trdfs:label \"Notifications\" ;\n"
          "\tpg:source <%s#" MIDI_GROUP "> .\n\n",
          p->uri, p->uri);
}

/* Whether the UI binary is built (meson option `ui`): the Turtle
 * describes it only then. */
static bool with_ui = false;

/* The UI (ui/contact_ui.c): an X11 UI per instrument in the one binary,
 * told of every port it shows and of the table notifications. */
static void
write_ui(FILE* f, const plugin_info* p)
{
  fprintf(f,
          "<%s" CONTACT_UI_URI_SUFFIX ">\n\ta ui:X11UI ;\n"
          "\tlv2:requiredFeature urid:map, ui:idleInterface ;\n"
          "\tlv2:optionalFeature ui:parent, ui:resize, ui:noUserResize, "
          "log:log ;\n"
          "\tlv2:extensionData ui:idleInterface ;\n"
          "\tui:portNotification",
          p->uri);
  bool first = true;
  for (int i = 0; i < p->n_ports; ++i) {
    const port_info* port = plugin_port(p, i);
    const bool control =
        port->kind == PORT_CONTROL_IN || port->kind == PORT_METER;
    if (!control && port->kind != PORT_NOTIFY)
      continue;
    fprintf(f,
            "%s\n\t\t[ ui:plugin <%s> ; lv2:symbol \"%s\" ; "
            "ui:protocol %s ]",
            first ? "" : " ,", p->uri, port->symbol,
            control ? "ui:floatProtocol" : "atom:eventTransfer");
    first = false;
  }
  fputs(" .\n\n", f);
}

/* The modal table parameter (plugins/common/uris.h): the same resource in
 * every plugin's file. */
static void
write_parameters(FILE* f)
{
  fputs("<" CONTACT_MODAL_TABLE_URI ">\n\ta lv2:Parameter ;\n"
        "\trdfs:label \"Modal table\" ;\n"
        "\trdfs:range atom:Path ;\n"
        "\trdfs:comment \"A modal table file (up to 128 modes; its format: "
        "doc/tables.md) in place of the 16 mode ports. An empty path "
        "goes back to the mode ports.\" .\n\n",
        f);
}

/* doap:shortdesc: the plugin's comment up to its first ';' or '.' */
static void
write_shortdesc(FILE* f, const plugin_info* p)
{
  char buf[128];
  snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(p->comment, ";."),
           p->comment);
  string(f, buf);
}

static void
write_port(FILE* f, const plugin_info* p, int index)
{
  const port_info* port = plugin_port(p, index);
  fputs("\t[\n", f);
  switch (port->kind) {
  case PORT_MIDI_IN:
    fprintf(f,
            "\t\ta lv2:InputPort, atom:AtomPort ;\n"
            "\t\tatom:bufferType atom:Sequence ;\n"
            "\t\tatom:supports midi:MidiEvent, patch:Message ;\n"
            "\t\tlv2:designation lv2:control ;\n"
            "\t\tpg:group <%s#" MIDI_GROUP "> ;\n",
            p->uri);
    break;
  case PORT_NOTIFY:
    fprintf(f,
            "\t\ta lv2:OutputPort, atom:AtomPort ;\n"
            "\t\tatom:bufferType atom:Sequence ;\n"
            "\t\tatom:supports patch:Message ;\n"
            "\t\tlv2:designation lv2:control ;\n"
            "\t\trsz:minimumSize %d ;\n"
            "\t\tpg:group <%s#" NOTIFY_GROUP "> ;\n",
            NOTIFY_MINIMUM_SIZE, p->uri);
    break;
  case PORT_AUDIO_OUT:
    fprintf(f,
            "\t\ta lv2:OutputPort, lv2:AudioPort ;\n"
            "\t\tpg:group <%s#" AUDIO_GROUP "> ;\n",
            p->uri);
    if (audio_outputs(p, p->n_ports) == 2)
      fprintf(f, "\t\tlv2:designation pg:%s ;\n",
              audio_outputs(p, index) ? "right" : "left");
    break;
  case PORT_CONTROL_IN:
  case PORT_METER: {
    /* whole numbers as xsd:integer; toggles too: lilv 0.24 reads an
     * xsd:boolean default as NaN (see doc/testing.md, Metadata and lint) */
    void (*value)(FILE*, float) =
        port->flags & (PORT_INTEGER | PORT_ENUM | PORT_TOGGLE) ? integer
                                                               : number;
    fprintf(f, "\t\ta lv2:%s, lv2:ControlPort ;\n",
            port->kind == PORT_METER ? "OutputPort" : "InputPort");
    fputs("\t\tlv2:default ", f);
    value(f, plugin_port_default(p, index));
    fputs(" ;\n\t\tlv2:minimum ", f);
    value(f, port->min);
    fputs(" ;\n\t\tlv2:maximum ", f);
    value(f, port->max);
    fputs(" ;\n", f);
    if (port->flags & PORT_INTEGER)
      fputs("\t\tlv2:portProperty lv2:integer ;\n", f);
    if (port->flags & PORT_TOGGLE)
      fputs("\t\tlv2:portProperty lv2:toggled ;\n", f);
    if (port->flags & PORT_ENUM) {
      fputs("\t\tlv2:portProperty lv2:integer, lv2:enumeration ;\n", f);
      for (int k = 0; k <= (int)(port->max - port->min); ++k) {
        fprintf(f, "\t\tlv2:scalePoint [\n\t\t\trdfs:label ");
        string(f, port->labels[k]);
        fprintf(f, " ;\n\t\t\trdf:value %d\n\t\t] ;\n", (int)port->min + k);
      }
    }
    if (port->flags & PORT_LOG)
      fputs("\t\tlv2:portProperty pprops:logarithmic ;\n", f);
    if (port->unit)
      fprintf(f, "\t\tunits:unit %s ;\n", port->unit);
    break;
  }
  }
  /* the I/O ports are in the I/O groups (write_io_groups) */
  if (port->group && port->kind != PORT_MIDI_IN &&
      port->kind != PORT_AUDIO_OUT && port->kind != PORT_NOTIFY)
    fprintf(f, "\t\tpg:group <%s#%s> ;\n", p->uri, port->group);
  fprintf(f, "\t\tlv2:index %d ;\n\t\tlv2:symbol \"%s\" ;\n\t\tlv2:name ",
          index, port->symbol);
  string(f, port->name);
  fputs(" ;\n\t\trdfs:comment ", f);
  string(f, port->comment);
  fputs(" ;\n\t]", f);
}

static void
write_plugin(FILE* f, const plugin_info* p)
{
  fputs("@prefix atom: <http://lv2plug.in/ns/ext/atom#> .\n"
        "@prefix bufsz: <http://lv2plug.in/ns/ext/buf-size#> .\n"
        "@prefix cu: <urn:contact:units#> .\n"
        "@prefix doap: <http://usefulinc.com/ns/doap#> .\n"
        "@prefix foaf: <http://xmlns.com/foaf/0.1/> .\n"
        "@prefix log: <http://lv2plug.in/ns/ext/log#> .\n"
        "@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n"
        "@prefix midi: <http://lv2plug.in/ns/ext/midi#> .\n"
        "@prefix opts: <http://lv2plug.in/ns/ext/options#> .\n"
        "@prefix param: <http://lv2plug.in/ns/ext/parameters#> .\n"
        "@prefix patch: <http://lv2plug.in/ns/ext/patch#> .\n"
        "@prefix pg: <http://lv2plug.in/ns/ext/port-groups#> .\n"
        "@prefix pprops: <http://lv2plug.in/ns/ext/port-props#> .\n"
        "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix rsz: <http://lv2plug.in/ns/ext/resize-port#> .\n"
        "@prefix state: <http://lv2plug.in/ns/ext/state#> .\n"
        "@prefix ui: <http://lv2plug.in/ns/extensions/ui#> .\n"
        "@prefix units: <http://lv2plug.in/ns/extensions/units#> .\n"
        "@prefix urid: <http://lv2plug.in/ns/ext/urid#> .\n"
        "@prefix work: <http://lv2plug.in/ns/ext/worker#> .\n\n"
        "# Generated from the plugin's port table by ttl/gen_ttl.c.\n\n",
        f);

  fputs("<urn:contact:project>\n\ta doap:Project ;\n\tdoap:name \"contact\" ;\n"
        "\tdoap:shortdesc \"Physically modelled impact, friction and rolling "
        "instruments\" ;\n"
        "\tdoap:homepage <" PROJECT_HOMEPAGE "> ;\n"
        "\tdoap:license <http://opensource.org/licenses/isc> ;\n"
        "\tdoap:maintainer <urn:contact:project#maintainers> .\n\n"
        "<urn:contact:project#maintainers>\n\ta foaf:Person ;\n"
        "\tfoaf:name \"contact developers\" ;\n"
        "\tfoaf:mbox <" PROJECT_MBOX "> ;\n"
        "\tfoaf:homepage <" PROJECT_HOMEPAGE "> .\n\n",
        f);

  for (size_t i = 0; i < sizeof(custom_units) / sizeof(custom_units[0]); ++i) {
    fprintf(f,
            "cu:%s\n\ta units:Unit ;\n\trdfs:label \"%s\" ;\n"
            "\tunits:symbol \"%s\" ;\n\tunits:render ",
            custom_units[i].id, custom_units[i].label, custom_units[i].symbol);
    if (custom_units[i].render)
      string(f, custom_units[i].render);
    else
      fprintf(f, "\"%%f %s\"", custom_units[i].symbol);
    fputs(" .\n\n", f);
  }

  for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); ++i)
    if (uses_group(p, groups[i].symbol))
      fprintf(f,
              "<%s#%s>\n\ta pg:Group ;\n\tlv2:symbol \"%s\" ;\n"
              "\trdfs:label \"%s\" .\n\n",
              p->uri, groups[i].symbol, groups[i].symbol, groups[i].label);
  /* one group per mode of the modal table, and of the exciter's */
  for (int i = 0; i < p->n_ports; ++i) {
    const port_info* port = plugin_port(p, i);
    if (!port->group || !strstr(port->symbol, "_freq"))
      continue;
    if (!strncmp(port->group, "mode", 4))
      fprintf(f,
              "<%s#%s>\n\ta pg:Group ;\n\tlv2:symbol \"%s\" ;\n"
              "\trdfs:label \"Mode %s\" .\n\n",
              p->uri, port->group, port->group, port->group + 4);
    else if (!strncmp(port->group, "exciter_mode", 12))
      fprintf(f,
              "<%s#%s>\n\ta pg:Group ;\n\tlv2:symbol \"%s\" ;\n"
              "\trdfs:label \"Exciter mode %s\" .\n\n",
              p->uri, port->group, port->group, port->group + 12);
  }

  write_io_groups(f, p);
  write_parameters(f);
  if (with_ui)
    write_ui(f, p);

  fprintf(f, "<%s>\n\ta lv2:Plugin, lv2:InstrumentPlugin ;\n\tdoap:name ",
          p->uri);
  string(f, p->name);
  fputs(" ;\n\tdoap:shortdesc ", f);
  write_shortdesc(f, p);
  fprintf(f,
          " ;\n\tdoap:license <http://opensource.org/licenses/isc> ;\n"
          "\tlv2:project <urn:contact:project> ;\n"
          "\tlv2:minorVersion %d ;\n\tlv2:microVersion %d ;\n"
          "\tpg:mainInput <%s#" MIDI_GROUP "> ;\n"
          "\tpg:mainOutput <%s#" AUDIO_GROUP "> ;\n"
          "\trdfs:comment ",
          MINOR_VERSION, MICRO_VERSION, p->uri, p->uri);
  string(f, p->comment);
  if (with_ui)
    fprintf(f, " ;\n\tui:ui <%s" CONTACT_UI_URI_SUFFIX ">", p->uri);
  fputs(" ;\n"
        "\tlv2:requiredFeature urid:map ;\n"
        "\tlv2:optionalFeature lv2:hardRTCapable, log:log, opts:options, "
        "work:schedule, state:threadSafeRestore ;\n"
        "\tlv2:extensionData opts:interface, work:interface, "
        "state:interface ;\n"
        "\tpatch:writable <" CONTACT_MODAL_TABLE_URI "> ;\n"
        "\tpatch:readable <" CONTACT_MODAL_TABLE_URI "> ;\n"
        "\topts:supportedOption param:sampleRate, bufsz:maxBlockLength, "
        "bufsz:nominalBlockLength ;\n"
        "\tlv2:port\n",
        f);
  for (int i = 0; i < p->n_ports; ++i) {
    write_port(f, p, i);
    fputs(i + 1 < p->n_ports ? " ,\n" : " .\n", f);
  }
}

static const plugin_info*
find_plugin(const char* name)
{
  for (size_t i = 0; i < sizeof(plugins) / sizeof(plugins[0]); ++i)
    if (!strcmp(strrchr(plugins[i]->uri, ':') + 1, name))
      return plugins[i];
  fprintf(stderr, "gen_ttl: no plugin '%s'\n", name);
  return NULL;
}

/* ---- presets ---------------------------------------------------------- */

enum { MAX_PORTS = 256, MAX_PRESETS = 64, MAX_MODES = 16 };

/* The preset banks (pset:Bank), declared once in the manifest; every
 * preset names one with `bank ID`. */
static const struct {
  const char* id;
  const char* label;
} banks[] = {
    /* the banks of models (textbook shapes and materials, one q), apart
     * from the instruments measured from recordings */
    {"materials", "Materials (models)"},
    {"objects", "Objects and shapes (models)"},
    {"mallets", "Hammers and mallets (models)"},
    {"friction", "Friction scenes"},
    {"rolling", "Rolling scenes"},
    {"measured", "Measured instruments (from recordings)"},
};
enum { N_BANKS = sizeof(banks) / sizeof(banks[0]) };

static int
bank_index(const char* id)
{
  for (int i = 0; i < N_BANKS; ++i)
    if (!strcmp(banks[i].id, id))
      return i;
  return -1;
}

typedef struct preset {
  char id[64];
  char label[160];
  char comment[512]; /* a measured instrument's says what it was measured
                       from */
  char material[32];
  char table[64]; /* a shipped modal table (contact.lv2/tables/), or "" */
  int bank;       /* index into banks, -1 until named */
  float values[MAX_PORTS];
  double ratios[MAX_MODES], gains[MAX_MODES];
  int n_ratios, n_gains;
  double q;
} preset;

typedef struct preset_file {
  const plugin_info* plugin;
  char name[64]; /* the plugin's short name, from the file name */
  preset presets[MAX_PRESETS];
  int n;
} preset_file;

static int
port_index(const plugin_info* p, const char* symbol)
{
  for (int i = 0; i < p->n_ports; ++i)
    if (!strcmp(plugin_port(p, i)->symbol, symbol))
      return i;
  return -1;
}

static bool
set_port(const char* path, int line, const plugin_info* p, preset* pr,
         const char* symbol, double value)
{
  const int i = port_index(p, symbol);
  if (i < 0 || plugin_port(p, i)->kind != PORT_CONTROL_IN) {
    fprintf(stderr, "%s:%d: no control port '%s'\n", path, line, symbol);
    return false;
  }
  const port_info* info = plugin_port(p, i);
  if (!(value >= info->min && value <= info->max)) {
    fprintf(stderr, "%s:%d: %s = %g is outside %g..%g\n", path, line, symbol,
            value, info->min, info->max);
    return false;
  }
  pr->values[i] = (float)value;
  return true;
}

/* the modal table from shape (ratios), material (q) and gains */
static bool
finish_preset(const char* path, const plugin_info* p, preset* pr)
{
  if (pr->bank < 0 || !pr->comment[0]) {
    fprintf(stderr, "%s: preset '%s' has no %s\n", path, pr->id,
            pr->bank < 0 ? "bank" : "comment");
    return false;
  }
  if (!pr->n_ratios)
    return true;
  const int root = port_index(p, "root_note");
  const double f0 = 440.0 * pow(2.0, (pr->values[root] - 69.0) / 12.0);
  char symbol[32];
  bool ok = set_port(path, 0, p, pr, "modes", pr->n_ratios);
  for (int m = 0; m < pr->n_ratios; ++m) {
    const double f = f0 * pr->ratios[m];
    snprintf(symbol, sizeof(symbol), "mode%d_freq", m + 1);
    ok = ok && set_port(path, 0, p, pr, symbol, f);
    if (pr->q > 0.0) {
      snprintf(symbol, sizeof(symbol), "mode%d_decay", m + 1);
      ok = ok && set_port(path, 0, p, pr, symbol,
                          1e3 * pr->q / (3.14159265358979323846 * f));
    }
    if (m < pr->n_gains) {
      snprintf(symbol, sizeof(symbol), "mode%d_gain", m + 1);
      ok = ok && set_port(path, 0, p, pr, symbol, pr->gains[m]);
    }
  }
  return ok;
}

static int
read_numbers(char* rest, double* out, int max)
{
  int n = 0;
  for (char* tok = strtok(rest, " \t"); tok && n < max;
       tok = strtok(NULL, " \t"))
    out[n++] = strtod(tok, NULL);
  return n;
}

static bool
read_presets(const char* path, preset_file* pf)
{
  const char* base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  snprintf(pf->name, sizeof(pf->name), "%.*s", (int)strcspn(base, "."), base);
  pf->plugin = find_plugin(pf->name);
  if (!pf->plugin)
    return false;
  FILE* f = fopen(path, "r");
  if (!f) {
    perror(path);
    return false;
  }
  const plugin_info* p = pf->plugin;
  char line[1024];
  int n = 0;
  bool ok = true;
  preset* pr = NULL;
  while (ok && fgets(line, sizeof(line), f)) {
    ++n;
    line[strcspn(line, "\r\n")] = '\0';
    char* key = line;
    while (isspace((unsigned char)*key))
      ++key;
    if (!*key || *key == '#')
      continue;
    char* rest = key + strcspn(key, " \t");
    if (*rest)
      *rest++ = '\0';
    while (isspace((unsigned char)*rest))
      ++rest;
    if (!strcmp(key, "preset")) {
      if (pr)
        ok = finish_preset(path, p, pr);
      if (pf->n == MAX_PRESETS) {
        fprintf(stderr, "%s:%d: too many presets\n", path, n);
        ok = false;
        break;
      }
      pr = &pf->presets[pf->n++];
      memset(pr, 0, sizeof(*pr));
      pr->bank = -1;
      for (int i = 0; i < p->n_ports && i < MAX_PORTS; ++i)
        pr->values[i] = plugin_port_default(p, i);
      const size_t id = strcspn(rest, " \t");
      snprintf(pr->id, sizeof(pr->id), "%.*s", (int)id, rest);
      snprintf(pr->label, sizeof(pr->label), "%s", rest + id + (rest[id] != 0));
    } else if (!pr) {
      fprintf(stderr, "%s:%d: '%s' before any preset\n", path, n, key);
      ok = false;
    } else if (!strcmp(key, "bank")) {
      pr->bank = bank_index(rest);
      if (pr->bank < 0) {
        fprintf(stderr, "%s:%d: no bank '%s'\n", path, n, rest);
        ok = false;
      }
    } else if (!strcmp(key, "comment")) {
      if (strlen(rest) >= sizeof(pr->comment)) {
        fprintf(stderr, "%s:%d: a comment longer than %zu bytes\n", path, n,
                sizeof(pr->comment) - 1);
        ok = false;
      }
      snprintf(pr->comment, sizeof(pr->comment), "%s", rest);
    } else if (!strcmp(key, "model")) {
      /* the shape model the tests check the ratios against (the shape
       * port is `shape`) */
    } else if (!strcmp(key, "table")) {
      /* a file of the bundle's tables/ folder, by name only */
      if (!*rest || strchr(rest, '/') || rest[0] == '.' ||
          strlen(rest) >= sizeof(pr->table)) {
        fprintf(stderr, "%s:%d: table '%s' is not a file name\n", path, n,
                rest);
        ok = false;
      }
      snprintf(pr->table, sizeof(pr->table), "%s", rest);
    } else if (!strcmp(key, "material")) {
      snprintf(pr->material, sizeof(pr->material), "%s", rest);
    } else if (!strcmp(key, "ratios")) {
      pr->n_ratios = read_numbers(rest, pr->ratios, MAX_MODES);
    } else if (!strcmp(key, "gains")) {
      pr->n_gains = read_numbers(rest, pr->gains, MAX_MODES);
    } else if (!strcmp(key, "q")) {
      pr->q = strtod(rest, NULL);
    } else {
      char* end;
      const double v = strtod(rest, &end);
      ok = end != rest && set_port(path, n, p, pr, key, v);
    }
  }
  if (ok && pr)
    ok = finish_preset(path, p, pr);
  fclose(f);
  return ok;
}

static void
preset_uri(FILE* f, const preset_file* pf, const preset* pr)
{
  fprintf(f, "<urn:contact:preset:%s-%s>", pf->name, pr->id);
}

static void
write_presets(FILE* f, const preset_file* pf)
{
  const plugin_info* p = pf->plugin;
  fputs("@prefix atom: <http://lv2plug.in/ns/ext/atom#> .\n"
        "@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n"
        "@prefix pset: <http://lv2plug.in/ns/ext/presets#> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix state: <http://lv2plug.in/ns/ext/state#> .\n\n"
        "# Generated from presets/ by ttl/gen_ttl.c.\n",
        f);
  for (int k = 0; k < pf->n; ++k) {
    const preset* pr = &pf->presets[k];
    fputc('\n', f);
    preset_uri(f, pf, pr);
    fprintf(f, "\n\ta pset:Preset ;\n\tlv2:appliesTo <%s> ;\n\trdfs:label ",
            p->uri);
    string(f, pr->label);
    char comment[640];
    if (pr->material[0])
      snprintf(comment, sizeof(comment), "%s Material: %s, q = pi f t_e = %g.",
               pr->comment, pr->material, pr->q);
    else
      snprintf(comment, sizeof(comment), "%s", pr->comment);
    fputs(" ;\n\trdfs:comment ", f);
    string(f, comment);
    fprintf(f, " ;\n\tpset:bank <urn:contact:bank:%s>", banks[pr->bank].id);
    if (pr->table[0]) /* a path relative to the preset's bundle (lilv maps
                       * it to an absolute one on restore) */
      fprintf(f, " ;\n\tstate:state [\n\t\t<%s> \"tables/%s\"^^atom:Path\n\t]",
              CONTACT_MODAL_TABLE_URI, pr->table);
    fputs(" ;\n\tlv2:port", f);
    bool first = true;
    for (int i = 0; i < p->n_ports; ++i) {
      if (plugin_port(p, i)->kind != PORT_CONTROL_IN)
        continue;
      fprintf(f, "%s [\n\t\tlv2:symbol \"%s\" ;\n\t\tpset:value ",
              first ? "" : " ,", plugin_port(p, i)->symbol);
      number(f, pr->values[i]);
      fputs("\n\t]", f);
      first = false;
    }
    fputs(" .\n", f);
  }
}

static void
write_manifest(FILE* f, const char* shlib_ext, preset_file* files, int n)
{
  fputs("@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n"
        "@prefix pset: <http://lv2plug.in/ns/ext/presets#> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix ui: <http://lv2plug.in/ns/extensions/ui#> .\n\n"
        "# Generated by ttl/gen_ttl.c.\n",
        f);
  for (size_t i = 0; i < sizeof(plugins) / sizeof(plugins[0]); ++i)
    fprintf(f,
            "\n<%s>\n\ta lv2:Plugin ;\n\tlv2:binary <contact%s> ;\n"
            "\trdfs:seeAlso <%s.ttl> .\n",
            plugins[i]->uri, shlib_ext, strrchr(plugins[i]->uri, ':') + 1);
  for (size_t i = 0; with_ui && i < sizeof(plugins) / sizeof(plugins[0]); ++i)
    fprintf(f,
            "\n<%s" CONTACT_UI_URI_SUFFIX ">\n\ta ui:X11UI ;\n"
            "\tlv2:binary <contact_ui%s> ;\n\trdfs:seeAlso <%s.ttl> .\n",
            plugins[i]->uri, shlib_ext, strrchr(plugins[i]->uri, ':') + 1);
  for (int b = 0; b < N_BANKS; ++b) {
    fprintf(f, "\n<urn:contact:bank:%s>\n\ta pset:Bank ;\n\trdfs:label ",
            banks[b].id);
    string(f, banks[b].label);
    fputs(" .\n", f);
  }
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < files[j].n; ++k) {
      fputc('\n', f);
      preset_uri(f, &files[j], &files[j].presets[k]);
      fprintf(f,
              "\n\ta pset:Preset ;\n\tlv2:appliesTo <%s> ;\n"
              "\trdfs:seeAlso <%s-presets.ttl> .\n",
              files[j].plugin->uri, files[j].name);
    }
}

static FILE*
open_output(const char* path)
{
  FILE* f = fopen(path, "w");
  if (!f)
    perror(path);
  return f;
}

int
main(int argc, char** argv)
{
  static preset_file files[8];
  /* --ui first: describe the UI too */
  if (argc >= 2 && !strcmp(argv[1], "--ui")) {
    with_ui = true;
    --argc;
    ++argv;
  }
  if (argc >= 3 &&
      (!strcmp(argv[1], "--symbols") || !strcmp(argv[1], "--controls"))) {
    const plugin_info* p = find_plugin(argv[2]);
    if (!p)
      return 2;
    int controls = 0;
    for (int i = 0; i < p->n_ports; ++i) {
      const port_info* port = plugin_port(p, i);
      if (argv[1][2] == 's')
        puts(port->symbol);
      controls += port->kind == PORT_CONTROL_IN || port->kind == PORT_METER;
    }
    if (argv[1][2] == 'c')
      printf("%d\n", controls);
    return 0;
  }
  if (argc == 4 && !strcmp(argv[1], "--presets")) {
    if (!read_presets(argv[2], &files[0]))
      return 1;
    FILE* f = open_output(argv[3]);
    if (!f)
      return 1;
    write_presets(f, &files[0]);
    return fclose(f) ? 1 : 0;
  }
  if (argc >= 4 && !strcmp(argv[1], "--manifest") && argc - 4 <= 8) {
    for (int i = 4; i < argc; ++i)
      if (!read_presets(argv[i], &files[i - 4]))
        return 1;
    FILE* f = open_output(argv[2]);
    if (!f)
      return 1;
    write_manifest(f, argv[3], files, argc - 4);
    return fclose(f) ? 1 : 0;
  }
  if (argc != 3) {
    fprintf(stderr,
            "usage: %s [--ui] PLUGIN OUTPUT.ttl | --presets FILE OUTPUT.ttl | "
            "--manifest OUTPUT.ttl SHLIB_EXT FILE... | --symbols PLUGIN | "
            "--controls PLUGIN\n",
            argv[0]);
    return 2;
  }
  const plugin_info* p = find_plugin(argv[1]);
  if (!p)
    return 2;
  FILE* f = open_output(argv[2]);
  if (!f)
    return 1;
  write_plugin(f, p);
  return fclose(f) ? 1 : 0;
}
