/* SPDX-License-Identifier: ISC */
/*
 * Keymap files (dsp/modal_keymap.h; parser, checker and writer in
 * dsp/modal_table.c, lookup and law in dsp/modal_keymap.c), one test a
 * behaviour:
 * 1. a keymap of zones with a name and both laws parses to the zones,
 *    roots, names, modes and law written;
 * 2. a file without `# zone:` is a plain table: one zone, the constant-q
 *    law, the modes modal_table_parse() gives, its shapes kept;
 * 3. every keymap fault is refused with its status, on its line of the
 *    whole file, with a message `source:LINE: ...`;
 * 4. the plain table parser refuses a keymap at its first zone;
 * 5. a refusal leaves the caller's keymap and shapes as they were;
 * 6. write and parse again gives the same keymap bit for bit; the
 *    checker refuses what the parser would; a small buffer is refused;
 * 7. a note plays the zone of the nearest root, the lower at a tie;
 * 8. the transposition law against its closed form, the constant-q law
 *    exactly, and the floor of the drifted exponent;
 * 9. the loader gives what the parser gives, and refuses a missing file.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "modal_keymap.h"
#include "modal_table.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/test_modal_keymap.XXXXXX";

/* The header's example, whole: 3 zones, a name, both laws; zone 1 named,
 * zone 2 with right gains, zone 3 named after a comment. */
static const char marimba[] = "# name: Marimba\n"               /* 1 */
                              "# decay_law: 0.45 0.1\n"         /* 2 */
                              "# ratio_law: -0.02\n"            /* 3 */
                              "# zone: 48.1\n"                  /* 4 */
                              "# name: Marimba C 4\n"           /* 5 */
                              "130.9  0.33  1\n"                /* 6 */
                              "521.4  0.09  0.2\n"              /* 7 */
                              "# zone: 60.05\n"                 /* 8 */
                              "261.7 0.25 1 0.5\n"              /* 9 */
                              "1046.8 0.07 0.3 -0.125\n"        /* 10 */
                              "\n"                              /* 11 */
                              "# zone: 72\n"                    /* 12 */
                              "  # the top bar\n"               /* 13 */
                              "# name: top\n"                   /* 14 */
                              "523.3\t0.2\t1  # fundamental\n"; /* 15 */

static const char plain[] = "# name: Bar\n"
                            "# root: 60\n"
                            "261.63 1.8 1\n"
                            "721.2 0.65 0.4\n"
                            "1413.8 0.33 0.2\n";

/* keymaps are 135 kB: on the heap, never on the stack */
static modal_keymap*
new_keymap(void)
{
  modal_keymap* const m = malloc(sizeof(*m));
  if (!m) {
    perror("malloc");
    exit(1);
  }
  /* padding too, so that memcmp compares only what a parse wrote */
  memset(m, 0, sizeof(*m));
  modal_keymap_init(m);
  return m;
}

static modal_shapes*
new_shapes(void)
{
  modal_shapes* const s = malloc(sizeof(*s));
  if (!s) {
    perror("malloc");
    exit(1);
  }
  modal_shapes_init(s);
  return s;
}

static modal_table_status
parse(const char* const text, modal_keymap* const m, modal_shapes* const s,
      modal_table_error* const e)
{
  return modal_keymap_parse(text, strlen(text), "t.modes", m, s, e);
}

static bool
same_bits(const double a, const double b)
{
  return !memcmp(&a, &b, sizeof(a));
}

/* the zones' count, modes, root and name, the law and the name, every
 * double bit for bit (right_gain where the zone has it: the array is not
 * part of a zone without) */
static bool
same_keymap(const modal_keymap* const a, const modal_keymap* const b)
{
  bool same = a->zones == b->zones && a->is_keymap == b->is_keymap &&
              same_bits(a->law.decay_exponent, b->law.decay_exponent) &&
              same_bits(a->law.decay_slope, b->law.decay_slope) &&
              same_bits(a->law.ratio_drift, b->law.ratio_drift) &&
              !strcmp(a->name, b->name);
  for (int k = 0; same && k < a->zones; ++k) {
    const modal_table* const s = &a->zone[k];
    const modal_table* const t = &b->zone[k];
    same = s->count == t->count && s->has_right_gain == t->has_right_gain &&
           same_bits(s->root, t->root) && !strcmp(s->name, t->name);
    for (int i = 0; same && i < s->count; ++i)
      same =
          same_bits(s->freq[i], t->freq[i]) &&
          same_bits(s->decay[i], t->decay[i]) &&
          same_bits(s->gain[i], t->gain[i]) &&
          (!s->has_right_gain || same_bits(s->right_gain[i], t->right_gain[i]));
  }
  return same;
}

static bool
same_table(const modal_table* const a, const modal_table* const b)
{
  bool same = a->count == b->count && a->has_right_gain == b->has_right_gain &&
              same_bits(a->root, b->root) && !strcmp(a->name, b->name);
  for (int i = 0; same && i < a->count; ++i)
    same = same_bits(a->freq[i], b->freq[i]) &&
           same_bits(a->decay[i], b->decay[i]) &&
           same_bits(a->gain[i], b->gain[i]) &&
           same_bits(a->right_gain[i], b->right_gain[i]);
  return same;
}

/* ---- 1. a keymap ---- */

static void
test_keymap_parses(void)
{
  modal_keymap* const m = new_keymap();
  modal_table_error e;
  const modal_table_status st = parse(marimba, m, NULL, &e);
  CHECK(st == MODAL_TABLE_SUCCESS, "keymap: refused: %s", e.message);
  CHECK(e.status == MODAL_TABLE_SUCCESS && e.line == 0 && !e.message[0],
        "keymap: error %d line %d '%s' after a success", e.status, e.line,
        e.message);
  CHECK(m->is_keymap, "keymap: is_keymap false");
  CHECK(m->zones == 3, "keymap: %d zones, want 3", m->zones);
  CHECK(!strcmp(m->name, "Marimba"), "keymap: name '%s'", m->name);
  CHECK(m->law.decay_exponent == 0.45 && m->law.decay_slope == 0.1 &&
            m->law.ratio_drift == -0.02,
        "keymap: law %g %g %g", m->law.decay_exponent, m->law.decay_slope,
        m->law.ratio_drift);

  const modal_table* const z = m->zone;
  CHECK(z[0].root == 48.1 && z[1].root == 60.05 && z[2].root == 72.0,
        "keymap: roots %g %g %g", z[0].root, z[1].root, z[2].root);
  CHECK(!strcmp(z[0].name, "Marimba C 4") && z[1].name[0] == '\0' &&
            !strcmp(z[2].name, "top"),
        "keymap: zone names '%s' '%s' '%s'", z[0].name, z[1].name, z[2].name);
  CHECK(z[0].count == 2 && z[1].count == 2 && z[2].count == 1,
        "keymap: modes %d %d %d", z[0].count, z[1].count, z[2].count);
  CHECK(!z[0].has_right_gain && z[1].has_right_gain && !z[2].has_right_gain,
        "keymap: right gains %d %d %d", z[0].has_right_gain,
        z[1].has_right_gain, z[2].has_right_gain);
  CHECK(z[0].freq[0] == 130.9 && z[0].decay[0] == 0.33 && z[0].gain[0] == 1.0 &&
            z[0].freq[1] == 521.4 && z[0].decay[1] == 0.09 &&
            z[0].gain[1] == 0.2,
        "keymap: zone 1 modes %g %g %g, %g %g %g", z[0].freq[0], z[0].decay[0],
        z[0].gain[0], z[0].freq[1], z[0].decay[1], z[0].gain[1]);
  CHECK(z[1].freq[0] == 261.7 && z[1].decay[0] == 0.25 && z[1].gain[0] == 1.0 &&
            z[1].right_gain[0] == 0.5 && z[1].freq[1] == 1046.8 &&
            z[1].decay[1] == 0.07 && z[1].gain[1] == 0.3 &&
            z[1].right_gain[1] == -0.125,
        "keymap: zone 2 modes %g %g %g %g, %g %g %g %g", z[1].freq[0],
        z[1].decay[0], z[1].gain[0], z[1].right_gain[0], z[1].freq[1],
        z[1].decay[1], z[1].gain[1], z[1].right_gain[1]);
  CHECK(z[2].freq[0] == 523.3 && z[2].decay[0] == 0.2 && z[2].gain[0] == 1.0,
        "keymap: zone 3 mode %g %g %g", z[2].freq[0], z[2].decay[0],
        z[2].gain[0]);

  /* without laws: the constant-q law; shapes asked for come back none */
  modal_shapes* const s = new_shapes();
  s->nx = 3;
  s->ny = 1;
  s->value[0] = 1.0;
  CHECK(parse("# zone: 60\n440 0.5 1\n", m, s, &e) == MODAL_TABLE_SUCCESS,
        "keymap without laws: %s", e.message);
  CHECK(m->is_keymap && m->zones == 1 && m->law.decay_exponent == 1.0 &&
            m->law.decay_slope == 0.0 && m->law.ratio_drift == 0.0 &&
            m->zone[0].root == 60.0 && m->name[0] == '\0',
        "keymap without laws: zones %d law %g %g %g root %g name '%s'",
        m->zones, m->law.decay_exponent, m->law.decay_slope, m->law.ratio_drift,
        m->zone[0].root, m->name);
  CHECK(s->nx == 0 && s->ny == 0 && s->value[0] == 0.0,
        "keymap: shapes %d x %d, want none", s->nx, s->ny);
  printf("  ok   a keymap of 3 zones, and one without laws\n");
  free(s);
  free(m);
}

/* ---- 2. a plain table ---- */

static void
test_plain_table(void)
{
  modal_keymap* const m = new_keymap();
  modal_table t;
  modal_table_error e;
  CHECK(parse(plain, m, NULL, &e) == MODAL_TABLE_SUCCESS, "plain: refused: %s",
        e.message);
  CHECK(modal_table_parse(plain, strlen(plain), "t.modes", &t, &e) ==
            MODAL_TABLE_SUCCESS,
        "plain: modal_table_parse refused: %s", e.message);
  CHECK(m->zones == 1 && !m->is_keymap, "plain: zones %d is_keymap %d",
        m->zones, m->is_keymap);
  CHECK(m->law.decay_exponent == 1.0 && m->law.decay_slope == 0.0 &&
            m->law.ratio_drift == 0.0,
        "plain: law %g %g %g, want 1 0 0", m->law.decay_exponent,
        m->law.decay_slope, m->law.ratio_drift);
  CHECK(same_table(&m->zone[0], &t), "plain: not the table modal_table_parse "
                                     "gives");
  CHECK(m->zone[0].root == 60.0 && !strcmp(m->name, "Bar"),
        "plain: root %g name '%s'", m->zone[0].root, m->name);

  /* without a root, and (a byte order mark, then U+FEFF as text) where the
   * table parser refuses: the same answer either way */
  CHECK(parse("440 0.5 1\n", m, NULL, &e) == MODAL_TABLE_SUCCESS &&
            m->zone[0].root == MODAL_TABLE_NO_ROOT,
        "plain without root: %s, root %g", e.message, m->zone[0].root);
  const char* const two_marks = "\xEF\xBB\xBF\xEF\xBB\xBF"
                                "440 0.5 1\n";
  modal_table_error te;
  const modal_table_status ts =
      modal_table_parse(two_marks, strlen(two_marks), "t.modes", &t, &te);
  const modal_table_status ks = parse(two_marks, m, NULL, &e);
  CHECK(ks == ts && e.line == te.line && !strcmp(e.message, te.message),
        "two byte order marks: keymap '%s' (%s), table '%s' (%s)",
        modal_table_strerror(ks), e.message, modal_table_strerror(ts),
        te.message);

  /* shapes kept */
  const char* const shaped = "# name: Shaped bar\n"
                             "# shape: 3\n"
                             "261.63 1.8 1   1 -0.5 1\n"
                             "721.2 0.65 0.4 1 0 -1\n";
  modal_shapes* const s = new_shapes();
  modal_shapes* const want = new_shapes();
  CHECK(parse(shaped, m, s, &e) == MODAL_TABLE_SUCCESS, "shaped: refused: %s",
        e.message);
  CHECK(modal_table_parse_shapes(shaped, strlen(shaped), "t.modes", &t, want,
                                 &e) == MODAL_TABLE_SUCCESS,
        "shaped: modal_table_parse_shapes refused: %s", e.message);
  CHECK(m->zones == 1 && !m->is_keymap && same_table(&m->zone[0], &t),
        "shaped: zones %d is_keymap %d, or not the table", m->zones,
        m->is_keymap);
  CHECK(s->nx == 3 && s->ny == 1 && !memcmp(s, want, sizeof(*s)),
        "shaped: shapes %d x %d, not modal_table_parse_shapes'", s->nx, s->ny);
  CHECK(s->value[1] == -0.5 && s->value[5] == -1.0, "shaped: samples %g %g",
        s->value[1], s->value[5]);
  /* and dropped when not asked for */
  CHECK(parse(shaped, m, NULL, &e) == MODAL_TABLE_SUCCESS && m->zones == 1 &&
            m->zone[0].count == 2,
        "shaped without shapes: %s", e.message);
  printf("  ok   a plain table is one zone of constant q, shapes kept\n");
  free(want);
  free(s);
  free(m);
}

/* ---- 3. refusals (and 5., the caller's keymap kept) ---- */

typedef struct {
  const char* what;
  const char* text;
  modal_table_status status;
  int line;
  const char* fragment;
} refusal;

/* 33 zones, each one mode: refused at the 33rd zone's line (filled in) */
static char many_zones[4096];
static int many_zones_line;

static void
make_many_zones(void)
{
  size_t len = 0;
  int line = 0;
  len += (size_t)snprintf(many_zones + len, sizeof(many_zones) - len,
                          "# decay_law: 1 0\n");
  ++line;
  for (int k = 0; k <= MODAL_KEYMAP_MAX_ZONES; ++k) {
    len += (size_t)snprintf(many_zones + len, sizeof(many_zones) - len,
                            "# zone: %d\n%d 0.5 1\n", 30 + k, 100 + k);
    if (k == MODAL_KEYMAP_MAX_ZONES)
      many_zones_line = line + 1;
    line += 2;
  }
}

static refusal refusals[] = {
    {"mode before the first zone",
     "# name: x\n440 0.5 1\n# zone: 60\n440 0.5 1\n",
     MODAL_TABLE_ERR_BAD_HEADER, 2,
     "a mode before the keymap's first '# zone: NOTE'"},
    {"root inside a zone", "# zone: 60\n440 0.5 1\n# root: 60\n",
     MODAL_TABLE_ERR_BAD_HEADER, 3, "root in a keymap"},
    {"root before the first zone", "# root: 60\n# zone: 60\n440 0.5 1\n",
     MODAL_TABLE_ERR_BAD_HEADER, 1, "root in a keymap"},
    {"shape before the first zone",
     "# name: x\n# shape: 3\n# zone: 60\n440 0.5 1 0 0 0\n",
     MODAL_TABLE_ERR_BAD_HEADER, 2, "shape in a keymap"},
    {"shape inside a zone", "# zone: 60\n# shape: 3\n440 0.5 1 0 0 0\n",
     MODAL_TABLE_ERR_BAD_HEADER, 2, "shape in a keymap"},
    {"decay_law inside a zone",
     "# zone: 48\n220 0.5 1\n# zone: 60\n# decay_law: 1 0\n440 0.5 1\n",
     MODAL_TABLE_ERR_BAD_HEADER, 4, "decay_law inside a zone"},
    {"ratio_law inside a zone", "# zone: 60\n440 0.5 1\n# ratio_law: 0\n",
     MODAL_TABLE_ERR_BAD_HEADER, 3, "ratio_law inside a zone"},
    {"decay_law repeated",
     "# decay_law: 1 0\n# ratio_law: 0\n# decay_law: 1 0\n# zone: 60\n"
     "440 0.5 1\n",
     MODAL_TABLE_ERR_BAD_HEADER, 3,
     "second decay_law (the first is on line 1)"},
    {"decay_law of 1 number", "\n# decay_law: 0.5\n# zone: 60\n440 0.5 1\n",
     MODAL_TABLE_ERR_MISSING_FIELD, 2, "decay_law takes 2 numbers"},
    {"decay_law of 3 numbers",
     "# decay_law: 0.5 0.1 0\n# zone: 60\n440 0.5 1\n",
     MODAL_TABLE_ERR_EXTRA_FIELD, 1, "decay_law takes 2 numbers: extra '0'"},
    {"decay_law 5", "# name: x\n# decay_law: 5 0\n# zone: 60\n440 0.5 1\n",
     MODAL_TABLE_ERR_OUT_OF_RANGE, 2, "decay_law 5 is out of range (-4 to 4)"},
    {"decay_law slope -5", "# decay_law: 1 -5\n# zone: 60\n440 0.5 1\n",
     MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "decay_law -5 is out of range"},
    {"ratio_law 0.6", "# ratio_law: 0.6\n# zone: 60\n440 0.5 1\n",
     MODAL_TABLE_ERR_OUT_OF_RANGE, 1,
     "ratio_law 0.6 is out of range (-0.5 to 0.5)"},
    {"zones falling, 60 then 48",
     "# zone: 60\n440 0.5 1\n# zone: 48\n220 0.5 1\n",
     MODAL_TABLE_ERR_BAD_HEADER, 3, "zone 48 not above the zone on line 1"},
    {"zones equal, 60 then 60",
     "# zone: 60\n440 0.5 1\n\n# zone: 60\n220 0.5 1\n",
     MODAL_TABLE_ERR_BAD_HEADER, 4, "zone 60 not above the zone on line 1"},
    {"zone note not a number", "# zone: 48\n220 0.5 1\n# zone: C4\n440 0.5 1\n",
     MODAL_TABLE_ERR_NOT_A_NUMBER, 3, "zone 'C4' is not a number"},
    {"zone note 128", "# zone: 128\n440 0.5 1\n", MODAL_TABLE_ERR_OUT_OF_RANGE,
     1, "zone 128 is not a MIDI note"},
    {"empty zone", "# name: x\n# zone: 48\n# zone: 60\n440 0.5 1\n",
     MODAL_TABLE_ERR_NO_MODES, 2, "zone 48 has no modes"},
    {"empty last zone", "# zone: 48\n220 0.5 1\n# zone: 60\n# only a comment\n",
     MODAL_TABLE_ERR_NO_MODES, 3, "zone 60 has no modes"},
    {"33 zones", many_zones, MODAL_TABLE_ERR_TOO_MANY_MODES, 0,
     "more than 32 zones"},
    {"bad mode in zone 2",
     "# name: x\n# decay_law: 1 0\n# zone: 48\n220 0.5 1\n440 0.2 0.5\n\n"
     "# zone: 60\n# a comment\nabc 0.25 1\n",
     MODAL_TABLE_ERR_NOT_A_NUMBER, 9, "frequency 'abc' is not a number"},
    {"mode fields differ in zone 2",
     "# zone: 48\n220 0.5 1 0.5\n# zone: 60\n440 0.5 1 0.5\n880 0.1 1\n",
     MODAL_TABLE_ERR_MISSING_FIELD, 5, "3 fields where line 4 has 4"},
};

enum { REFUSALS = sizeof(refusals) / sizeof(refusals[0]) };

static void
test_refusals(void)
{
  modal_keymap* const m = new_keymap();
  for (int i = 0; i < REFUSALS; ++i) {
    refusal r = refusals[i];
    if (r.text == many_zones)
      r.line = many_zones_line;
    modal_table_error e;
    const modal_table_status st = parse(r.text, m, NULL, &e);
    CHECK(st == r.status, "%s: status '%s', want '%s' (%s)", r.what,
          modal_table_strerror(st), modal_table_strerror(r.status), e.message);
    CHECK(e.status == st, "%s: error status %d, returned %d", r.what, e.status,
          st);
    CHECK(e.line == r.line, "%s: line %d, want %d (%s)", r.what, e.line, r.line,
          e.message);
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "t.modes:%d: ", r.line);
    CHECK(!strncmp(e.message, prefix, strlen(prefix)),
          "%s: message '%s' does not begin with '%s'", r.what, e.message,
          prefix);
    CHECK(strstr(e.message, r.fragment), "%s: message '%s' does not say '%s'",
          r.what, e.message, r.fragment);
    printf("  ok   %-34s %s\n", r.what, e.message);
  }
  free(m);
}

/* ---- 4. the plain parser refuses a keymap ---- */

static void
test_table_parser_refuses_keymap(void)
{
  modal_table t;
  modal_table_error e;
  const modal_table_status st =
      modal_table_parse(marimba, strlen(marimba), "t.modes", &t, &e);
  CHECK(st == MODAL_TABLE_ERR_BAD_HEADER && e.line == 4 &&
            !strncmp(e.message, "t.modes:4: ", 11) && strstr(e.message, "zone"),
        "modal_table_parse of a keymap: '%s' line %d (%s), want bad header "
        "on line 4",
        modal_table_strerror(st), e.line, e.message);
  printf("  ok   the table parser refuses a keymap: %s\n", e.message);
  /* and a zone as the first line, shapes asked for */
  modal_shapes* const s = new_shapes();
  const char* const first = "#zone: 60\n440 0.5 1\n";
  CHECK(modal_table_parse_shapes(first, strlen(first), "t.modes", &t, s, &e) ==
                MODAL_TABLE_ERR_BAD_HEADER &&
            e.line == 1 && !strncmp(e.message, "t.modes:1: ", 11),
        "modal_table_parse_shapes of a keymap: line %d (%s)", e.line,
        e.message);
  free(s);
}

/* ---- 5. a refusal leaves the caller's keymap ---- */

static void
test_refusal_keeps_keymap(void)
{
  modal_keymap* const m = new_keymap();
  modal_keymap* const before = new_keymap();
  modal_shapes* const s = new_shapes();
  modal_shapes* const shapes_before = new_shapes();
  modal_table_error e;
  CHECK(parse(marimba, m, NULL, &e) == MODAL_TABLE_SUCCESS, "marimba: %s",
        e.message);
  s->nx = 3;
  s->ny = 1;
  for (int k = 0; k < 9; ++k)
    s->value[k] = 0.125 * (k + 1);
  memcpy(before, m, sizeof(*m));
  memcpy(shapes_before, s, sizeof(*s));

  /* the keymap refusals, a plain table refused, text refused whole */
  const char* const more[] = {
      "440 0.5 1\nabc 1 1\n",
      "# shape: 3\n440 0.5 1 0 0\n",
      "# zone: 60\n440 0.5 1\n\x01\n",
      "",
  };
  int n = 0;
  for (int i = 0; i < REFUSALS + 4; ++i) {
    const char* const text =
        i < REFUSALS ? refusals[i].text : more[i - REFUSALS];
    const modal_table_status st = parse(text, m, s, &e);
    CHECK(st != MODAL_TABLE_SUCCESS, "refusal %d parsed", i);
    CHECK(!memcmp(m, before, sizeof(*m)), "refusal %d (%s) changed the keymap",
          i, e.message);
    CHECK(!memcmp(s, shapes_before, sizeof(*s)),
          "refusal %d (%s) changed the shapes", i, e.message);
    ++n;
  }
  /* past the size limit, before a byte is read */
  CHECK(modal_keymap_parse(marimba, MODAL_TABLE_MAX_BYTES + 1, "t.modes", m, s,
                           &e) == MODAL_TABLE_ERR_TOO_LARGE &&
            !memcmp(m, before, sizeof(*m)),
        "too large: %s", e.message);
  printf("  ok   %d refusals leave the keymap and shapes\n", n + 1);
  free(shapes_before);
  free(s);
  free(before);
  free(m);
}

/* ---- 6. write, parse again; check; small buffers ---- */

static char text[MODAL_KEYMAP_TEXT_MAX];

static void
round_trip(const char* const what, const modal_keymap* const m)
{
  size_t len = 0;
  const modal_table_status st = modal_keymap_write(m, text, sizeof(text), &len);
  CHECK(st == MODAL_TABLE_SUCCESS, "%s: write: %s", what,
        modal_table_strerror(st));
  CHECK(len == strlen(text), "%s: length %zu, text %zu", what, len,
        strlen(text));
  modal_keymap* const u = new_keymap();
  modal_table_error e;
  CHECK(modal_keymap_parse(text, len, "written", u, NULL, &e) ==
            MODAL_TABLE_SUCCESS,
        "%s: written text refused: %s", what, e.message);
  CHECK(same_keymap(m, u), "%s: not the same keymap after write and parse:\n%s",
        what, text);
  free(u);
}

static void
test_write_round_trip(void)
{
  modal_keymap* const m = new_keymap();
  modal_table_error e;
  CHECK(parse(marimba, m, NULL, &e) == MODAL_TABLE_SUCCESS, "marimba: %s",
        e.message);
  round_trip("marimba", m);
  CHECK(parse(plain, m, NULL, &e) == MODAL_TABLE_SUCCESS, "plain: %s",
        e.message);
  round_trip("plain table", m);

  /* built in memory: doubles that need 17 digits, a law at its bounds */
  modal_keymap_init(m);
  m->is_keymap = true;
  m->zones = 2;
  m->law = (modal_keymap_law){-MODAL_KEYMAP_MAX_DECAY_EXPONENT, 0.1 + 0.2,
                              MODAL_KEYMAP_MAX_RATIO_DRIFT};
  strcpy(m->name, "caf\xc3\xa9 keys");
  for (int k = 0; k < 2; ++k) {
    modal_table* const t = &m->zone[k];
    t->root = k ? MODAL_TABLE_MAX_ROOT : 1.0 / 3.0;
    t->count = 3;
    t->has_right_gain = k == 1;
    for (int i = 0; i < 3; ++i) {
      t->freq[i] = nextafter(100.0 * (i + 1) + k, 1e9);
      t->decay[i] = 1.0 / (7.0 + i);
      t->gain[i] = i ? 1.0 / 3.0 : 0.0;
      t->right_gain[i] = k ? -DBL_MIN * (i + 1) : 0.0;
    }
  }
  strcpy(m->zone[1].name, "high");
  round_trip("in memory", m);
  printf("  ok   write and parse again: the same keymap\n");
  free(m);
}

/* the longest keymap fits MODAL_KEYMAP_TEXT_MAX and reads back */
static void
test_write_longest(void)
{
  modal_keymap* const m = new_keymap();
  m->is_keymap = true;
  m->zones = MODAL_KEYMAP_MAX_ZONES;
  m->law =
      (modal_keymap_law){nextafter(-1.0 / 3.0, 0.0), nextafter(1.0 / 7.0, 1.0),
                         -nextafter(1.0 / 9.0, 0.0)};
  memset(m->name, 'n', MODAL_TABLE_NAME_SIZE - 1);
  m->name[MODAL_TABLE_NAME_SIZE - 1] = '\0';
  for (int k = 0; k < MODAL_KEYMAP_MAX_ZONES; ++k) {
    modal_table* const t = &m->zone[k];
    memset(t->name, 'a' + k % 26, MODAL_TABLE_NAME_SIZE - 1);
    t->name[MODAL_TABLE_NAME_SIZE - 1] = '\0';
    t->root = nextafter(3.0 * k + 1.0, 0.0);
    t->count = MODAL_MAX_MODES;
    t->has_right_gain = true;
    for (int i = 0; i < MODAL_MAX_MODES; ++i) {
      t->freq[i] = nextafter(1.0 + 1e-9 * i, 2.0);
      t->decay[i] = nextafter(1.234e-4, 1.0);
      t->gain[i] = nextafter(DBL_MIN, 1.0);
      t->right_gain[i] = -nextafter(DBL_MIN, 1.0);
    }
  }
  size_t len = 0;
  CHECK(modal_keymap_write(m, text, sizeof(text), &len) == MODAL_TABLE_SUCCESS,
        "the longest keymap does not fit MODAL_KEYMAP_TEXT_MAX");
  printf("  ok   longest keymap: %zu bytes of %d\n", len,
         (int)MODAL_KEYMAP_TEXT_MAX);
  round_trip("longest keymap", m);
  free(m);
}

static void
test_check_refuses(void)
{
  modal_keymap* const m = new_keymap();
  modal_table_error e;
  CHECK(parse(marimba, m, NULL, &e) == MODAL_TABLE_SUCCESS, "marimba: %s",
        e.message);
  CHECK(modal_keymap_check(m, &e) == MODAL_TABLE_SUCCESS, "check marimba: %s",
        e.message);
  struct {
    const char* what;
    double* field;
    double value;
    modal_table_status want;
  } bad[] = {
      {"zones falling", &m->zone[1].root, 48.0, MODAL_TABLE_ERR_BAD_HEADER},
      {"zones equal", &m->zone[2].root, 60.05, MODAL_TABLE_ERR_BAD_HEADER},
      {"a zone without root", &m->zone[1].root, MODAL_TABLE_NO_ROOT,
       MODAL_TABLE_ERR_BAD_HEADER},
      {"root 128", &m->zone[2].root, 128.0, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"decay exponent 4.5", &m->law.decay_exponent, 4.5,
       MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"decay slope -5", &m->law.decay_slope, -5.0,
       MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"ratio drift 0.6", &m->law.ratio_drift, 0.6,
       MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"nan ratio drift", &m->law.ratio_drift, NAN,
       MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"denormal decay slope", &m->law.decay_slope, DBL_MIN / 4,
       MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"zone mode 0 Hz", &m->zone[0].freq[1], 0.0,
       MODAL_TABLE_ERR_OUT_OF_RANGE},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    const double keep = *bad[i].field;
    *bad[i].field = bad[i].value;
    const modal_table_status st = modal_keymap_check(m, &e);
    /* a nan law: refused as out of range or as not finite */
    const bool status_ok =
        st == bad[i].want ||
        (isnan(bad[i].value) && st == MODAL_TABLE_ERR_NOT_FINITE);
    CHECK(status_ok && e.status == st, "check with %s: '%s', want '%s' (%s)",
          bad[i].what, modal_table_strerror(st),
          modal_table_strerror(bad[i].want), e.message);
    /* the writer refuses it too, and leaves an empty text */
    text[0] = 'x';
    const modal_table_status ws =
        modal_keymap_write(m, text, sizeof(text), NULL);
    CHECK(ws == st && !text[0], "write with %s: '%s'", bad[i].what,
          modal_table_strerror(ws));
    printf("  ok   check refuses %-22s %s\n", bad[i].what, e.message);
    *bad[i].field = keep;
  }
  /* zone counts */
  const int zones = m->zones;
  m->zones = 0;
  CHECK(modal_keymap_check(m, &e) == MODAL_TABLE_ERR_TOO_MANY_MODES,
        "a keymap of no zones: %s", e.message);
  m->zones = MODAL_KEYMAP_MAX_ZONES + 1;
  CHECK(modal_keymap_check(m, &e) == MODAL_TABLE_ERR_TOO_MANY_MODES,
        "a keymap of 33 zones: %s", e.message);
  m->zones = zones;
  CHECK(modal_keymap_check(m, &e) == MODAL_TABLE_SUCCESS, "restored keymap: %s",
        e.message);
  free(m);
}

static void
test_write_no_space(void)
{
  modal_keymap* const m = new_keymap();
  modal_table_error e;
  CHECK(parse(marimba, m, NULL, &e) == MODAL_TABLE_SUCCESS, "marimba: %s",
        e.message);
  size_t len = 0;
  CHECK(modal_keymap_write(m, text, sizeof(text), &len) == MODAL_TABLE_SUCCESS,
        "marimba written");
  /* too small: refused and empty, at every size short of the text */
  static char small[MODAL_KEYMAP_TEXT_MAX];
  size_t size = 0;
  for (; size <= len; ++size) {
    memset(small, 'x', len + 1);
    size_t got = 99;
    const modal_table_status st = modal_keymap_write(m, small, size, &got);
    if (st != MODAL_TABLE_ERR_NO_SPACE || (size && small[0]) || got != 0) {
      CHECK(false, "buffer of %zu for %zu bytes: '%s', length %zu", size, len,
            modal_table_strerror(st), got);
      break;
    }
  }
  CHECK(modal_keymap_write(m, small, len + 1, NULL) == MODAL_TABLE_SUCCESS &&
            !strcmp(small, text),
        "a buffer of exactly the text and its NUL refused");
  printf("  ok   writer: every buffer under %zu bytes refused\n", len + 1);
  free(m);
}

/* ---- 7. the zone a note plays ---- */

static void
test_zone_of(void)
{
  modal_keymap* const m = new_keymap();
  m->is_keymap = true;
  m->zones = 2;
  m->zone[0].root = 48.0;
  m->zone[1].root = 60.0;
  const struct {
    double note;
    int zone;
  } cases[] = {
      {54.0, 0}, {55.0, 1},  {0.0, 0},   {127.0, 1}, {48.0, 0},
      {60.0, 1}, {53.99, 0}, {54.01, 1}, {30.0, 0},  {90.0, 1},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const int got = modal_keymap_zone_of(m, cases[i].note);
    CHECK(got == cases[i].zone, "roots 48 60: note %g plays zone %d, want %d",
          cases[i].note, got, cases[i].zone);
  }
  /* three zones: the ties between each pair go down */
  m->zones = 3;
  m->zone[2].root = 72.5;
  CHECK(modal_keymap_zone_of(m, 66.25) == 1 &&
            modal_keymap_zone_of(m, 66.26) == 2 &&
            modal_keymap_zone_of(m, 127.0) == 2 &&
            modal_keymap_zone_of(m, 0.0) == 0,
        "roots 48 60 72.5: zones %d %d %d %d", modal_keymap_zone_of(m, 66.25),
        modal_keymap_zone_of(m, 66.26), modal_keymap_zone_of(m, 127.0),
        modal_keymap_zone_of(m, 0.0));
  /* one zone plays every note */
  m->zones = 1;
  CHECK(modal_keymap_zone_of(m, 0.0) == 0 &&
            modal_keymap_zone_of(m, 127.0) == 0,
        "one zone");
  printf("  ok   nearest root, the lower at a tie\n");
  free(m);
}

/* ---- 8. the transposition law ---- */

static void
test_transpose_constant_q(void)
{
  const modal_keymap_law law = modal_keymap_constant_q();
  CHECK(law.decay_exponent == 1.0 && law.decay_slope == 0.0 &&
            law.ratio_drift == 0.0,
        "constant q: %g %g %g", law.decay_exponent, law.decay_slope,
        law.ratio_drift);
  const double root_hz = modal_keymap_note_hz(60.0);
  CHECK(modal_keymap_note_hz(69.0) == 440.0 &&
            modal_keymap_note_hz(81.0) == 880.0 &&
            modal_keymap_note_hz(57.0) == 220.0,
        "note_hz: %.17g %.17g %.17g", modal_keymap_note_hz(69.0),
        modal_keymap_note_hz(81.0), modal_keymap_note_hz(57.0));
  check_rel("note_hz(60), C4", root_hz, 261.6255653005986, 1e-15);
  const double freqs[] = {root_hz, 130.9, 721.2, 4567.8};
  const double decays[] = {1.8, 0.33, 0.07, 9.5};
  const double ratios[] = {exp2(5.0 / 12.0), 0.5, exp2(-7.0 / 12.0), 3.7, 1.0};
  int n = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) {
      double f = freqs[i], t = decays[i];
      modal_keymap_transpose(&law, root_hz, ratios[j], &f, &t);
      CHECK(f == freqs[i] * ratios[j] && t == decays[i] / ratios[j],
            "constant q: %g Hz %g s by %g gave %.17g %.17g, want %.17g %.17g",
            freqs[i], decays[i], ratios[j], f, t, freqs[i] * ratios[j],
            decays[i] / ratios[j]);
      ++n;
    }
  printf("  ok   constant q: %d transpositions exactly f r, t / r\n", n);
}

static void
test_transpose_law(void)
{
  const modal_keymap_law law = {0.4, 0.2, 0.05};
  const double p0 = 0.4, p1 = 0.2, d = 0.05;
  const double root_hz = modal_keymap_note_hz(48.1);
  const double freqs[] = {root_hz, 2.76 * root_hz, 5.4 * root_hz, 0.8 * root_hz,
                          11.3 * root_hz};
  const double ratios[] = {exp2(5.0 / 12.0), exp2(-7.0 / 12.0), 2.0, 0.25,
                           exp2(11.0 / 12.0)};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      const double f = freqs[i], t = 0.9, r = ratios[j];
      const double rho = f / root_hz;
      /* the closed form, as modal_keymap.h writes it */
      const double want_f = r * f * pow(rho, d * log2(r));
      const double want_t = t * pow(r, -(p0 + p1 * log2(rho)));
      double got_f = f, got_t = t;
      modal_keymap_transpose(&law, root_hz, r, &got_f, &got_t);
      char what[64];
      snprintf(what, sizeof(what), "law: rho %.3g r %.4g freq", rho, r);
      check_rel(what, got_f, want_f, 1e-12);
      snprintf(what, sizeof(what), "law: rho %.3g r %.4g decay", rho, r);
      check_rel(what, got_t, want_t, 1e-12);
    }
}

static void
test_transpose_floor(void)
{
  /* D = 0.5 three octaves down: 1 + D log2 r = -0.5, held at 0.25 */
  const modal_keymap_law law = {1.0, 0.0, 0.5};
  const double root_hz = 523.25;
  const double r = exp2(-3.0);
  CHECK(1.0 + 0.5 * log2(r) < MODAL_KEYMAP_MIN_RATIO_POWER,
        "the case is not past the floor");
  const double rhos[] = {1.0, 2.76, 5.4, 13.2};
  for (int i = 0; i < 4; ++i) {
    double f = rhos[i] * root_hz, t = 2.0;
    modal_keymap_transpose(&law, root_hz, r, &f, &t);
    char what[64];
    snprintf(what, sizeof(what), "floor: rho %.3g freq", rhos[i]);
    check_rel(what, f, r * root_hz * pow(rhos[i], MODAL_KEYMAP_MIN_RATIO_POWER),
              1e-12);
    snprintf(what, sizeof(what), "floor: rho %.3g decay", rhos[i]);
    check_rel(what, t, 2.0 / r, 1e-12);
    /* the partials stay above the transposed root, in order */
    CHECK(f >= r * root_hz * (1.0 - 1e-12), "floor: rho %g fell to %g Hz",
          rhos[i], f);
  }
  /* one octave down is above the floor: 1 + D log2 r = 0.5 */
  double f = 4.0 * root_hz, t = 1.0;
  modal_keymap_transpose(&law, root_hz, 0.5, &f, &t);
  check_rel("above the floor: rho 4 an octave down", f,
            0.5 * root_hz * pow(4.0, 0.5), 1e-12);
}

/* ---- 9. the loader ---- */

static void
test_load(void)
{
  char path[256];
  modal_keymap* const m = new_keymap();
  modal_keymap* const want = new_keymap();
  modal_table_error e;
  snprintf(path, sizeof(path), "%s/marimba.modes", tmpdir);
  check_write_file(path, marimba, strlen(marimba));
  CHECK(parse(marimba, want, NULL, &e) == MODAL_TABLE_SUCCESS, "parse: %s",
        e.message);
  CHECK(modal_keymap_load(path, m, NULL, &e) == MODAL_TABLE_SUCCESS,
        "load marimba: %s", e.message);
  CHECK(same_keymap(m, want), "load marimba: not what parse gives");

  /* a plain table, with its shapes */
  const char* const shaped = "# shape: 2\n261.63 1.8 1 1 -1\n";
  modal_shapes* const s = new_shapes();
  modal_shapes* const ps = new_shapes();
  snprintf(path, sizeof(path), "%s/shaped.modes", tmpdir);
  check_write_file(path, shaped, strlen(shaped));
  CHECK(parse(shaped, want, ps, &e) == MODAL_TABLE_SUCCESS, "parse: %s",
        e.message);
  CHECK(modal_keymap_load(path, m, s, &e) == MODAL_TABLE_SUCCESS &&
            same_keymap(m, want) && !m->is_keymap && s->nx == 2 &&
            !memcmp(s, ps, sizeof(*s)),
        "load a shaped table: %s", e.message);

  /* a refusal names the path and the line */
  snprintf(path, sizeof(path), "%s/falling.modes", tmpdir);
  const char* const falling = "# zone: 60\n440 0.5 1\n# zone: 48\n220 0.5 1\n";
  check_write_file(path, falling, strlen(falling));
  char prefix[300];
  snprintf(prefix, sizeof(prefix), "%s:3: ", path);
  CHECK(modal_keymap_load(path, m, NULL, &e) == MODAL_TABLE_ERR_BAD_HEADER &&
            e.line == 3 && !strncmp(e.message, prefix, strlen(prefix)),
        "load falling zones: line %d '%s'", e.line, e.message);
  printf("  ok   load: as parse gives (%s)\n", e.message);
  free(ps);
  free(s);
  free(want);
  free(m);
}

static void
test_load_missing(void)
{
  char path[256];
  modal_keymap* const m = new_keymap();
  modal_keymap* const before = new_keymap();
  modal_table_error e;
  CHECK(parse(marimba, m, NULL, &e) == MODAL_TABLE_SUCCESS, "parse: %s",
        e.message);
  memcpy(before, m, sizeof(*m));
  snprintf(path, sizeof(path), "%s/missing.modes", tmpdir);
  const modal_table_status st = modal_keymap_load(path, m, NULL, &e);
  CHECK(st == MODAL_TABLE_ERR_OPEN && e.status == st && e.line == 0,
        "missing file: '%s' line %d (%s)", modal_table_strerror(st), e.line,
        e.message);
  CHECK(strstr(e.message, path) && strstr(e.message, "No such file"),
        "missing file: message '%s'", e.message);
  CHECK(!memcmp(m, before, sizeof(*m)), "missing file: keymap changed");
  printf("  ok   missing file: %s\n", e.message);
  CHECK(modal_keymap_load(tmpdir, m, NULL, &e) == MODAL_TABLE_ERR_NOT_REGULAR &&
            !memcmp(m, before, sizeof(*m)),
        "a directory: %s", e.message);
  printf("  ok   a directory: %s\n", e.message);
  free(before);
  free(m);
}

int
main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  make_many_zones();
  test_keymap_parses();
  test_plain_table();
  test_refusals();
  test_table_parser_refuses_keymap();
  test_refusal_keeps_keymap();
  test_write_round_trip();
  test_write_longest();
  test_check_refuses();
  test_write_no_space();
  test_zone_of();
  test_transpose_constant_q();
  test_transpose_law();
  test_transpose_floor();
  test_load();
  test_load_missing();
  char cmd[300];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", tmpdir);
  return check_done("modal_keymap");
}
