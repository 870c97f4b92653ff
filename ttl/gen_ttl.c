/* SPDX-License-Identifier: ISC */
/*
 * Writes a plugin's Turtle description from its port table (the same table
 * the plugin clamps its controls with).
 *   gen_ttl PLUGIN OUTPUT.ttl   write the description
 *   gen_ttl --symbols PLUGIN    list the port symbols (for the tests)
 *   gen_ttl --controls PLUGIN   count the control ports (for the tests)
 */
#include "impact_ports.h"
#include "port_info.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const plugin_info* const plugins[] = {&impact_info};

static const struct {
  const char* id;
  const char* label;
  const char* symbol;
} custom_units[] = {
  {"gram", "gram", "g"},
  {"kilogram", "kilogram", "kg"},
  {"newton", "newton", "N"},
  {"metrePerSecond", "metre per second", "m/s"},
  {"secondPerMetre", "second per metre", "s/m"},
  {"newtonPerMetrePowAlpha", "newton per metre to the power alpha",
   "N/m^a"},
};

static const struct {
  const char* symbol;
  const char* label;
} groups[] = {
  {"meters", "Contact meters"}, {"hammer", "Hammer"}, {"object", "Object"},
  {"output", "Output"},
};

/* a Turtle number literal that keeps a float exactly */
static void
number(FILE* f, float value)
{
  char buf[64];
  snprintf(buf, sizeof(buf), "%.9g", (double)value);
  if (!strpbrk(buf, ".eE"))
    strcat(buf, ".0");
  fputs(buf, f);
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

static void
write_port(FILE* f, const plugin_info* p, int index)
{
  const port_info* port = p->port(index);
  fputs("\t[\n", f);
  switch (port->kind) {
  case PORT_MIDI_IN:
    fputs("\t\ta lv2:InputPort, atom:AtomPort ;\n"
          "\t\tatom:bufferType atom:Sequence ;\n"
          "\t\tatom:supports midi:MidiEvent ;\n"
          "\t\tlv2:designation lv2:control ;\n",
          f);
    break;
  case PORT_AUDIO_OUT:
    fputs("\t\ta lv2:OutputPort, lv2:AudioPort ;\n", f);
    break;
  case PORT_CONTROL_IN:
  case PORT_METER:
    fprintf(f, "\t\ta lv2:%s, lv2:ControlPort ;\n",
            port->kind == PORT_METER ? "OutputPort" : "InputPort");
    fputs("\t\tlv2:default ", f);
    number(f, port->def);
    fputs(" ;\n\t\tlv2:minimum ", f);
    number(f, port->min);
    fputs(" ;\n\t\tlv2:maximum ", f);
    number(f, port->max);
    fputs(" ;\n", f);
    if (port->flags & PORT_INTEGER)
      fputs("\t\tlv2:portProperty lv2:integer ;\n", f);
    if (port->flags & PORT_TOGGLE)
      fputs("\t\tlv2:portProperty lv2:toggled ;\n", f);
    if (port->flags & PORT_LOG)
      fputs("\t\tlv2:portProperty pprops:logarithmic ;\n", f);
    if (port->unit)
      fprintf(f, "\t\tunits:unit %s ;\n", port->unit);
    break;
  }
  if (port->group)
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
        "@prefix pg: <http://lv2plug.in/ns/ext/port-groups#> .\n"
        "@prefix pprops: <http://lv2plug.in/ns/ext/port-props#> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix units: <http://lv2plug.in/ns/extensions/units#> .\n"
        "@prefix urid: <http://lv2plug.in/ns/ext/urid#> .\n"
        "@prefix work: <http://lv2plug.in/ns/ext/worker#> .\n\n"
        "# Generated from the plugin's port table by ttl/gen_ttl.c.\n\n",
        f);

  fputs("<urn:contact:project>\n\ta doap:Project ;\n\tdoap:name \"contact\" ;\n"
        "\tdoap:license <http://opensource.org/licenses/isc> ;\n"
        "\tdoap:maintainer [\n\t\ta foaf:Person ;\n"
        "\t\tfoaf:name \"contact developers\" ;\n\t] .\n\n",
        f);

  for (size_t i = 0; i < sizeof(custom_units) / sizeof(custom_units[0]); ++i)
    fprintf(f,
            "cu:%s\n\ta units:Unit ;\n\trdfs:label \"%s\" ;\n"
            "\tunits:symbol \"%s\" ;\n\tunits:render \"%%f %s\" .\n\n",
            custom_units[i].id, custom_units[i].label, custom_units[i].symbol,
            custom_units[i].symbol);

  for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); ++i)
    fprintf(f,
            "<%s#%s>\n\ta pg:Group ;\n\tlv2:symbol \"%s\" ;\n"
            "\trdfs:label \"%s\" .\n\n",
            p->uri, groups[i].symbol, groups[i].symbol, groups[i].label);
  /* one group per mode of the modal table */
  for (int i = 0; i < p->n_ports; ++i) {
    const port_info* port = p->port(i);
    if (port->group && !strncmp(port->group, "mode", 4) &&
        strstr(port->symbol, "_freq"))
      fprintf(f,
              "<%s#%s>\n\ta pg:Group ;\n\tlv2:symbol \"%s\" ;\n"
              "\trdfs:label \"Mode %s\" .\n\n",
              p->uri, port->group, port->group, port->group + 4);
  }

  fprintf(f, "<%s>\n\ta lv2:Plugin, lv2:InstrumentPlugin ;\n\tdoap:name ",
          p->uri);
  string(f, p->name);
  fputs(" ;\n\tdoap:license <http://opensource.org/licenses/isc> ;\n"
        "\tlv2:project <urn:contact:project> ;\n"
        "\tlv2:minorVersion 1 ;\n\tlv2:microVersion 0 ;\n"
        "\trdfs:comment ",
        f);
  string(f, p->comment);
  fputs(" ;\n"
        "\tlv2:requiredFeature urid:map ;\n"
        "\tlv2:optionalFeature lv2:hardRTCapable, log:log, opts:options, "
        "work:schedule ;\n"
        "\tlv2:extensionData opts:interface, work:interface ;\n"
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

int
main(int argc, char** argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: %s PLUGIN OUTPUT.ttl | --symbols PLUGIN | "
            "--controls PLUGIN\n", argv[0]);
    return 2;
  }
  if (!strcmp(argv[1], "--symbols") || !strcmp(argv[1], "--controls")) {
    const plugin_info* p = find_plugin(argv[2]);
    if (!p)
      return 2;
    int controls = 0;
    for (int i = 0; i < p->n_ports; ++i) {
      const port_info* port = p->port(i);
      if (argv[1][2] == 's')
        puts(port->symbol);
      controls += port->kind == PORT_CONTROL_IN || port->kind == PORT_METER;
    }
    if (argv[1][2] == 'c')
      printf("%d\n", controls);
    return 0;
  }
  const plugin_info* p = find_plugin(argv[1]);
  if (!p)
    return 2;
  FILE* f = fopen(argv[2], "w");
  if (!f) {
    perror(argv[2]);
    return 1;
  }
  write_plugin(f, p);
  return fclose(f) ? 1 : 0;
}
