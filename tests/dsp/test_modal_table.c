/* SPDX-License-Identifier: ISC */
/*
 * Modal table files (dsp/modal_table.c):
 * 1. valid tables parse to the values written, and write and parse back
 *    to the same table (every double exactly); the writer's text is the
 *    shortest that does;
 * 2. every class of bad input is refused with its status, on its line,
 *    with a message that names the file, the line and the fault, and the
 *    caller's table is left as it was;
 * 3. the loader refuses a missing path, a directory, a FIFO (without
 *    waiting for a writer), an empty file and an oversize one (without
 *    reading it);
 * 4. numbers read the same under a locale whose decimal point is a comma;
 * 5. the writer refuses tables the parser would refuse, and a buffer too
 *    small, and MODAL_TABLE_TEXT_MAX holds the longest table.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "modal_table.h"

#include <fcntl.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/test_modal_table.XXXXXX";

static modal_table_status
parse(const char* const text, modal_table* const t, modal_table_error* const e)
{
  return modal_table_parse(text, strlen(text), "t.modes", t, e);
}

/* a table that is not the empty one, to see that failures leave it */
static void
sentinel(modal_table* const t)
{
  modal_table_init(t);
  t->count = 1;
  t->freq[0] = 123.0;
  t->decay[0] = 0.5;
  t->gain[0] = 0.25;
  t->root = 61.0;
  strcpy(t->name, "sentinel");
}

static void
expect_fail(const char* const what, const char* const text, const size_t length,
            const modal_table_status want, const int line,
            const char* const fragment)
{
  modal_table t, before;
  sentinel(&t);
  before = t;
  modal_table_error e;
  const modal_table_status st =
      modal_table_parse(text, length, "t.modes", &t, &e);
  CHECK(st == want, "%s: status '%s', want '%s' (%s)", what,
        modal_table_strerror(st), modal_table_strerror(want), e.message);
  CHECK(e.status == st, "%s: error status %d, returned %d", what, e.status, st);
  CHECK(e.line == line, "%s: line %d, want %d (%s)", what, e.line, line,
        e.message);
  char prefix[64];
  if (line > 0)
    snprintf(prefix, sizeof(prefix), "t.modes:%d: ", line);
  else
    snprintf(prefix, sizeof(prefix), "t.modes: ");
  CHECK(!strncmp(e.message, prefix, strlen(prefix)),
        "%s: message '%s' does not begin with '%s'", what, e.message, prefix);
  CHECK(strstr(e.message, fragment), "%s: message '%s' does not say '%s'", what,
        e.message, fragment);
  CHECK(!memcmp(&t, &before, sizeof(t)), "%s: the table was changed", what);
  printf("  ok   %-34s %s\n", what, e.message);
}

static void
expect_fail_text(const char* const what, const char* const text,
                 const modal_table_status want, const int line,
                 const char* const fragment)
{
  expect_fail(what, text, strlen(text), want, line, fragment);
}

static void
expect_ok(const char* const what, const char* const text, modal_table* const t)
{
  modal_table_init(t);
  modal_table_error e;
  const modal_table_status st = parse(text, t, &e);
  CHECK(st == MODAL_TABLE_SUCCESS, "%s: refused: %s", what, e.message);
}

static bool
same_table(const modal_table* const a, const modal_table* const b)
{
  bool same = a->count == b->count && a->has_right_gain == b->has_right_gain &&
              a->root == b->root && !strcmp(a->name, b->name);
  for (int i = 0; same && i < a->count; ++i)
    same = a->freq[i] == b->freq[i] && a->decay[i] == b->decay[i] &&
           a->gain[i] == b->gain[i] && a->right_gain[i] == b->right_gain[i];
  return same;
}

/* write t, parse it back: the same table */
static void
round_trip(const char* const what, const modal_table* const t)
{
  static char text[MODAL_TABLE_TEXT_MAX];
  size_t len = 0;
  const modal_table_status st = modal_table_write(t, text, sizeof(text), &len);
  CHECK(st == MODAL_TABLE_SUCCESS, "%s: write: %s", what,
        modal_table_strerror(st));
  CHECK(len == strlen(text), "%s: length %zu, text %zu", what, len,
        strlen(text));
  modal_table u;
  modal_table_error e;
  CHECK(modal_table_parse(text, len, "written", &u, &e) == MODAL_TABLE_SUCCESS,
        "%s: written text refused: %s", what, e.message);
  CHECK(same_table(t, &u), "%s: not the same table after write and parse",
        what);
}

/* ---- 1. valid tables ---- */

static void
valid_tables(void)
{
  modal_table t;
  /* the header's example: name, root, right gains, comments of every kind,
   * a blank line, a CRLF line, tabs, a last line without a newline */
  expect_ok("example",
            "\xEF\xBB\xBF# a bell\n"
            "# name:   Church bell  \n"
            "  # root: 48\n"
            "\n"
            "65.406\t9.73 1.0 1.0\n"
            "130.81  4.87  0.5   -0.5    # prime\r\n"
            "   # a comment between modes\n"
            "1e3 .25 2.5E-1 +0.125",
            &t);
  CHECK(t.count == 3, "example: %d modes, want 3", t.count);
  CHECK(!strcmp(t.name, "Church bell"), "example: name '%s'", t.name);
  CHECK(t.root == 48.0, "example: root %g", t.root);
  CHECK(t.has_right_gain, "example: right gains not seen");
  CHECK(t.freq[0] == 65.406 && t.decay[0] == 9.73 && t.gain[0] == 1.0 &&
            t.right_gain[0] == 1.0,
        "example: mode 1 %g %g %g %g", t.freq[0], t.decay[0], t.gain[0],
        t.right_gain[0]);
  CHECK(t.freq[1] == 130.81 && t.decay[1] == 4.87 && t.gain[1] == 0.5 &&
            t.right_gain[1] == -0.5,
        "example: mode 2 %g %g %g %g", t.freq[1], t.decay[1], t.gain[1],
        t.right_gain[1]);
  CHECK(t.freq[2] == 1000.0 && t.decay[2] == 0.25 && t.gain[2] == 0.25 &&
            t.right_gain[2] == 0.125,
        "example: mode 3 %g %g %g %g", t.freq[2], t.decay[2], t.gain[2],
        t.right_gain[2]);
  round_trip("example", &t);

  /* without right gain, name or root */
  expect_ok("bare", "440 0.5 1\n880 0.25 0\n", &t);
  CHECK(t.count == 2 && !t.has_right_gain && t.name[0] == '\0' &&
            t.root == MODAL_TABLE_NO_ROOT && t.gain[1] == 0.0,
        "bare: count %d right %d name '%s' root %g gain %g", t.count,
        t.has_right_gain, t.name, t.root, t.gain[1]);
  round_trip("bare", &t);

  /* the limits themselves are inside */
  expect_ok("limits",
            "# root: 0\n"
            "1 0.0001 0 -10000\n"
            "100000 1000 10000 10000\n",
            &t);
  CHECK(t.count == 2 && t.root == 0.0, "limits: %d modes, root %g", t.count,
        t.root);
  expect_ok("root 127", "# root: 127\n1 1 1\n", &t);
  CHECK(t.root == 127.0, "root 127: %g", t.root);

  /* the text past `length` is not read: "1" is the last field, not "1x" */
  const char* cut = "440 0.5 1x";
  modal_table_error e;
  CHECK(modal_table_parse(cut, 9, "t.modes", &t, &e) == MODAL_TABLE_SUCCESS &&
            t.gain[0] == 1.0,
        "a buffer read past its length: %s", e.message);

  /* 128 modes; awkward doubles and a 127-byte name round-trip exactly */
  static char text[MODAL_TABLE_TEXT_MAX];
  size_t len = 0;
  len += (size_t)snprintf(text + len, sizeof(text) - len, "# name: ");
  for (int i = 0; i < MODAL_TABLE_NAME_SIZE - 1; ++i)
    text[len++] = (char)('a' + i % 26);
  text[len++] = '\n';
  for (int i = 0; i < MODAL_MAX_MODES; ++i)
    len += (size_t)snprintf(text + len, sizeof(text) - len,
                            "%.17g %.17g %.17g %.17g\n", 1.0 + i / 3.0,
                            0.1 + 0.2 * i, nextafter(1.0 / (i + 1), 2.0),
                            -DBL_MIN * (i + 1));
  expect_ok("128 modes", text, &t);
  CHECK(t.count == MODAL_MAX_MODES, "128 modes: %d", t.count);
  CHECK(strlen(t.name) == MODAL_TABLE_NAME_SIZE - 1, "127-byte name: %zu",
        strlen(t.name));
  CHECK(t.freq[127] == 1.0 + 127 / 3.0 &&
            t.gain[127] == nextafter(1.0 / 128, 2.0) &&
            t.right_gain[127] == -DBL_MIN * 128,
        "128 modes: last mode %.17g %.17g %.17g", t.freq[127], t.gain[127],
        t.right_gain[127]);
  round_trip("128 modes", &t);

  /* the writer's text: shortest numbers, headers first */
  modal_table w;
  modal_table_init(&w);
  strcpy(w.name, "Bar");
  w.root = 60.0;
  w.count = 2;
  w.freq[0] = 261.63;
  w.decay[0] = 0.1 + 0.2; /* 0.30000000000000004: needs 17 digits */
  w.gain[0] = 1.0;
  w.freq[1] = 721.2;
  w.decay[1] = 1.0 / 3.0;
  w.gain[1] = 0.4;
  char out[256];
  size_t out_len = 0;
  CHECK(modal_table_write(&w, out, sizeof(out), &out_len) ==
            MODAL_TABLE_SUCCESS,
        "write Bar");
  const char* const want = "# name: Bar\n"
                           "# root: 60\n"
                           "# frequency_Hz decay_s gain\n"
                           "261.63 0.30000000000000004 1\n"
                           "721.2 0.3333333333333333 0.4\n";
  CHECK(!strcmp(out, want) && out_len == strlen(want),
        "writer's text:\n%s\nwant:\n%s", out, want);
  round_trip("Bar", &w);
}

/* ---- 2. bad input ---- */

/* a text of a million lines, at most two bytes each */
static char big[2 * 1000 * 1000 + 1];

/* the first *arg bytes of big parsed, timed by check_best_seconds */
static void
parse_blank_lines(void* arg)
{
  modal_table t;
  modal_table_error e;
  CHECK(modal_table_parse(big, *(const size_t*)arg, "blank", &t, &e) ==
            MODAL_TABLE_ERR_NO_MODES,
        "blank lines: %s", e.message);
}

static void
bad_inputs(void)
{
  /* nothing to play */
  expect_fail_text("empty", "", MODAL_TABLE_ERR_NO_MODES, 0, "no modes");
  expect_fail_text("comments only", "# name: x\n# root: 60\n\n  # hi\n",
                   MODAL_TABLE_ERR_NO_MODES, 0, "no modes");

  /* cut short or run on */
  expect_fail_text("missing gain", "# c\n440 0.5 1\n880 0.2\n",
                   MODAL_TABLE_ERR_MISSING_FIELD, 3, "gain missing");
  expect_fail_text("missing decay", "440\n", MODAL_TABLE_ERR_MISSING_FIELD, 1,
                   "decay missing");
  expect_fail_text("cut in an exponent", "440 0.5 1\n880 0.5 1e",
                   MODAL_TABLE_ERR_NOT_A_NUMBER, 2,
                   "gain '1e' is not a number");
  expect_fail_text("extra field", "440 0.5 1\n\n880 0.5 1 0.2 7\n",
                   MODAL_TABLE_ERR_EXTRA_FIELD, 3, "extra field '7'");
  expect_fail_text("right gain dropped", "440 0.5 1 0.5\n# x\n880 0.5 1\n",
                   MODAL_TABLE_ERR_MISSING_FIELD, 3,
                   "3 fields where line 1 has 4");
  expect_fail_text("right gain added", "440 0.5 1\n880 0.5 1 0.5\n",
                   MODAL_TABLE_ERR_EXTRA_FIELD, 2,
                   "4 fields where line 1 has 3");

  /* not text */
  expect_fail("NUL byte", "440 0.5 1\n88\0 0.5 1\n", 19,
              MODAL_TABLE_ERR_NOT_TEXT, 2, "byte 0x00 is not text");
  expect_fail("WAV header", "RIFF\x24\x00\x00\x00WAVEfmt ", 16,
              MODAL_TABLE_ERR_NOT_TEXT, 1, "not text");
  expect_fail_text("control byte", "440 0.5 1\n\n\x1b[0m\n",
                   MODAL_TABLE_ERR_NOT_TEXT, 3, "byte 0x1B");
  expect_fail_text("bad UTF-8 in a comment", "440 0.5 1 # caf\xe9\n",
                   MODAL_TABLE_ERR_NOT_TEXT, 1, "not UTF-8");
  expect_fail_text("overlong UTF-8", "# \xc0\xaf\n440 0.5 1\n",
                   MODAL_TABLE_ERR_NOT_TEXT, 1, "not UTF-8");
  expect_fail_text("overlong 3-byte UTF-8", "440 0.5 1 # \xe0\x80\xaf\n",
                   MODAL_TABLE_ERR_NOT_TEXT, 1, "not UTF-8");
  expect_fail_text("UTF-8 above U+10FFFF", "# \xf4\x90\x80\x80\n440 0.5 1\n",
                   MODAL_TABLE_ERR_NOT_TEXT, 1, "not UTF-8");
  expect_fail_text("UTF-8 surrogate", "440 0.5 1\n# \xed\xa0\x80\n",
                   MODAL_TABLE_ERR_NOT_TEXT, 2, "not UTF-8");
  expect_fail_text("UTF-8 cut at the end", "440 0.5 1\n# \xe2\x82",
                   MODAL_TABLE_ERR_NOT_TEXT, 2, "not UTF-8");
  /* binary is reported as such, not as the bad number before it */
  expect_fail("binary after a bad line", "x y z\n\xff\n", 8,
              MODAL_TABLE_ERR_NOT_TEXT, 2, "0xFF");

  /* not numbers */
  expect_fail_text("letters", "abc 0.5 1\n", MODAL_TABLE_ERR_NOT_A_NUMBER, 1,
                   "frequency 'abc' is not a number");
  expect_fail_text("decimal comma", "440 0,5 1\n", MODAL_TABLE_ERR_NOT_A_NUMBER,
                   1, "decay '0,5'");
  expect_fail_text("hex float", "0x1p9 0.5 1\n", MODAL_TABLE_ERR_NOT_A_NUMBER,
                   1, "'0x1p9'");
  expect_fail_text("two points", "440 0.5.1 1\n", MODAL_TABLE_ERR_NOT_A_NUMBER,
                   1, "'0.5.1'");
  expect_fail_text("lone point", "440 . 1\n", MODAL_TABLE_ERR_NOT_A_NUMBER, 1,
                   "decay '.'");
  expect_fail_text("lone sign", "440 0.5 -\n", MODAL_TABLE_ERR_NOT_A_NUMBER, 1,
                   "gain '-'");
  expect_fail_text("exponent alone", "e5 0.5 1\n", MODAL_TABLE_ERR_NOT_A_NUMBER,
                   1, "'e5'");
  expect_fail_text("too long",
                   "440.000000000000000000000000000000000000000000000000000000"
                   "000000001 0.5 1\n",
                   MODAL_TABLE_ERR_NOT_A_NUMBER, 1, "longer than 63");

  /* not finite */
  expect_fail_text("nan", "440 nan 1\n", MODAL_TABLE_ERR_NOT_FINITE, 1,
                   "decay 'nan' is not finite");
  expect_fail_text("-inf", "440 0.5 1 -inf\n", MODAL_TABLE_ERR_NOT_FINITE, 1,
                   "right_gain '-inf'");
  expect_fail_text("Infinity", "Infinity 0.5 1\n", MODAL_TABLE_ERR_NOT_FINITE,
                   1, "'Infinity'");
  expect_fail_text("overflow", "440 0.5 1e309\n", MODAL_TABLE_ERR_NOT_FINITE, 1,
                   "overflows");

  /* out of range, each limit on both sides */
  expect_fail_text("zero frequency", "0 0.5 1\n", MODAL_TABLE_ERR_OUT_OF_RANGE,
                   1, "frequency 0 Hz is out of range");
  expect_fail_text("negative frequency", "440 0.5 1\n-440 0.5 1\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 2, "frequency -440 Hz");
  expect_fail_text("below 1 Hz", "0.999 0.5 1\n", MODAL_TABLE_ERR_OUT_OF_RANGE,
                   1, "frequency 0.999 Hz");
  expect_fail_text("above 100 kHz", "100000.01 0.5 1\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "100000.01 Hz");
  expect_fail_text("zero decay", "440 0 1\n", MODAL_TABLE_ERR_OUT_OF_RANGE, 1,
                   "decay 0 s");
  expect_fail_text("negative decay", "440 -0.5 1\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "decay -0.5 s");
  expect_fail_text("decay below 0.1 ms", "440 0.0000999 1\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "decay 0.0000999 s");
  expect_fail_text("decay in ms", "440 1500 1\n", MODAL_TABLE_ERR_OUT_OF_RANGE,
                   1, "decay 1500 s");
  expect_fail_text("negative gain", "440 0.5 -0.1\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "gain -0.1 is out");
  expect_fail_text("gain too large", "440 0.5 10001\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "gain 10001");
  expect_fail_text("right gain too negative", "440 0.5 1 -10001\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "right_gain -10001");
  expect_fail_text("underflow to zero", "440 0.5 1e-400\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "too small");
  expect_fail_text("underflow", "440 0.5 1e-320\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "too small");

  /* headers */
  expect_fail_text("second name", "# name: a\n440 0.5 1\n#name: b\n",
                   MODAL_TABLE_ERR_BAD_HEADER, 3, "first is on line 1");
  expect_fail_text("second root", "# root: 60\n# root: 61\n440 0.5 1\n",
                   MODAL_TABLE_ERR_BAD_HEADER, 2, "second root");
  expect_fail_text("empty name", "# name:   \n440 0.5 1\n",
                   MODAL_TABLE_ERR_BAD_HEADER, 1, "empty name");
  expect_fail_text("tab in name", "# name: a\tb\n440 0.5 1\n",
                   MODAL_TABLE_ERR_BAD_HEADER, 1, "0x09");
  expect_fail_text("root 128", "# root: 128\n440 0.5 1\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "not a MIDI note");
  expect_fail_text("root -1", "# root: -1\n440 0.5 1\n",
                   MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "not a MIDI note");
  expect_fail_text("root C4", "440 0.5 1\n# root: C4\n",
                   MODAL_TABLE_ERR_NOT_A_NUMBER, 2, "root 'C4'");
  expect_fail_text("root with words", "# root: 60 (C4)\n440 0.5 1\n",
                   MODAL_TABLE_ERR_NOT_A_NUMBER, 1, "root '60 (C4)'");
  {
    char name[MODAL_TABLE_NAME_SIZE + 16];
    strcpy(name, "# name: ");
    memset(name + 8, 'n', MODAL_TABLE_NAME_SIZE);
    strcpy(name + 8 + MODAL_TABLE_NAME_SIZE, "\n1 1 1\n");
    expect_fail_text("128-byte name", name, MODAL_TABLE_ERR_BAD_HEADER, 1,
                     "name longer than 127 bytes");
  }

  /* too many modes: reported on the 129th mode's line */
  static char text[8192];
  size_t len = (size_t)snprintf(text, sizeof(text), "# c\n\n");
  for (int i = 0; i <= MODAL_MAX_MODES; ++i)
    len +=
        (size_t)snprintf(text + len, sizeof(text) - len, "%d 0.5 1\n", 100 + i);
  expect_fail("129 modes", text, len, MODAL_TABLE_ERR_TOO_MANY_MODES,
              MODAL_MAX_MODES + 3, "more than 128 modes");

  /* a million lines: blank ones parse (quickly) to nothing; comment or
   * mode lines are over the size limit */
  memset(big, '\n', 1000 * 1000);
  expect_fail("10^6 blank lines", big, 1000 * 1000, MODAL_TABLE_ERR_NO_MODES, 0,
              "no modes");
  /* in time linear in them, not quadratic */
  size_t blank_lines = 1000 * 1000;
  const double whole = check_best_seconds(parse_blank_lines, &blank_lines);
  blank_lines /= 8;
  const double eighth = check_best_seconds(parse_blank_lines, &blank_lines);
  check_linear("10^6 blank lines parsed", whole, eighth);
  for (int i = 0; i < 1000 * 1000; ++i)
    memcpy(big + 2 * i, "#\n", 2);
  expect_fail("10^6 comment lines", big, 2 * 1000 * 1000,
              MODAL_TABLE_ERR_TOO_LARGE, 0, "more than the 1048576");
  /* exactly the limit is allowed */
  memset(big, ' ', MODAL_TABLE_MAX_BYTES);
  memcpy(big + MODAL_TABLE_MAX_BYTES - 10, "440 0.5 1\n", 10);
  modal_table t;
  modal_table_error e;
  CHECK(modal_table_parse(big, MODAL_TABLE_MAX_BYTES, "t.modes", &t, &e) ==
            MODAL_TABLE_SUCCESS,
        "1 MiB exactly: %s", e.message);

  /* the example of the brief, whole */
  modal_table_parse("440 0.5 1\nabc 1 1\n", 18, "bell.modes", &t, &e);
  CHECK(!strcmp(e.message, "bell.modes:2: frequency 'abc' is not a number"),
        "message '%s'", e.message);
  /* a long source is shown by its tail, cut on a UTF-8 boundary, so that
   * the line and the fault still fit */
  char source[602];
  for (int i = 0; i < 295; ++i)
    memcpy(source + 2 * i, "\xc3\xa9", 2); /* 'e' acute, 2 bytes */
  /* 601 bytes: the 160-byte tail would begin inside a character */
  strcpy(source + 590, "/bell.modes");
  modal_table_parse("440 0.5 1\nabc 1 1\n", 18, source, &t, &e);
  CHECK(
      !strncmp(e.message, "...", 3) &&
          ((unsigned char)e.message[3] & 0xC0) != 0x80 &&
          strstr(e.message, "bell.modes:2: frequency 'abc' is not a number") &&
          strlen(e.message) < 250,
      "long source: message '%s'", e.message);
  /* no error struct: still refused */
  CHECK(modal_table_parse("x", 1, NULL, &t, NULL) ==
            MODAL_TABLE_ERR_NOT_A_NUMBER,
        "refused without an error struct");
}

/* ---- 3. the loader ---- */

static void
expect_load(const char* const what, const char* const path,
            const modal_table_status want, const char* const fragment)
{
  modal_table t, before;
  sentinel(&t);
  before = t;
  modal_table_error e;
  const clock_t t0 = clock();
  const modal_table_status st = modal_table_load(path, &t, &e);
  const double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(st == want, "%s: '%s', want '%s' (%s)", what, modal_table_strerror(st),
        modal_table_strerror(want), e.message);
  CHECK(strstr(e.message, path), "%s: message '%s' does not name the file",
        what, e.message);
  CHECK(strstr(e.message, fragment), "%s: message '%s' does not say '%s'", what,
        e.message, fragment);
  CHECK(!memcmp(&t, &before, sizeof(t)), "%s: table changed", what);
  /* refused without reading: far under the time to read 16 GiB */
  CHECK(seconds < 0.5, "%s: took %.3f s", what, seconds);
  printf("  ok   %-34s %s\n", what, e.message);
}

static void
loader(void)
{
  char path[256];
  modal_table t;
  modal_table_error e;

  snprintf(path, sizeof(path), "%s/bell.modes", tmpdir);
  check_write_file(path,
                   "# name: Bell\n# root: 48\n65.4 9.7 1\n130.8 4.9 0.5\n", 46);
  CHECK(modal_table_load(path, &t, &e) == MODAL_TABLE_SUCCESS && t.count == 2 &&
            t.freq[1] == 130.8 && !strcmp(t.name, "Bell"),
        "load a good file: %s", e.message);

  check_write_file(path, "# name: Bell\n65.4 9.7 1\n130.8 4.9 -0.5\n", 38);
  modal_table_load(path, &t, &e);
  char want[300];
  snprintf(want, sizeof(want), "%s:3: gain -0.5 is out of range", path);
  CHECK(e.line == 3 && strstr(e.message, want), "message '%s', want '%s'",
        e.message, want);

  snprintf(path, sizeof(path), "%s/missing.modes", tmpdir);
  expect_load("missing path", path, MODAL_TABLE_ERR_OPEN, "No such file");
  expect_load("directory", tmpdir, MODAL_TABLE_ERR_NOT_REGULAR,
              "is a directory");
  expect_load("/dev/null", "/dev/null", MODAL_TABLE_ERR_NOT_REGULAR,
              "not a regular file");

  snprintf(path, sizeof(path), "%s/fifo.modes", tmpdir);
  CHECK(!mkfifo(path, 0600), "mkfifo %s", path);
  expect_load("FIFO without a writer", path, MODAL_TABLE_ERR_NOT_REGULAR,
              "not a regular file");

  snprintf(path, sizeof(path), "%s/empty.modes", tmpdir);
  check_write_file(path, "", 0);
  expect_load("empty file", path, MODAL_TABLE_ERR_NO_MODES, "no modes");

  /* one byte over the limit, and 16 GiB (sparse): refused from the size */
  snprintf(path, sizeof(path), "%s/over.modes", tmpdir);
  static char over[MODAL_TABLE_MAX_BYTES + 1];
  memset(over, '\n', sizeof(over));
  memcpy(over, "440 0.5 1\n", 10);
  check_write_file(path, over, sizeof(over));
  expect_load("1 MiB + 1 byte", path, MODAL_TABLE_ERR_TOO_LARGE,
              "1048577 bytes");
  snprintf(path, sizeof(path), "%s/huge.modes", tmpdir);
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  CHECK(fd >= 0 && !ftruncate(fd, (off_t)16 << 30), "sparse 16 GiB file");
  if (fd >= 0)
    close(fd);
  expect_load("16 GiB", path, MODAL_TABLE_ERR_TOO_LARGE, "17179869184 bytes");
  unlink(path);
}

/* ---- 4. locale ---- */

/* A comma-decimal locale: an installed one, or de_DE built with localedef
 * (libc-bin) from its source (Debian's `locales`, in
 * tools/debian-packages) into the temporary folder: no root needed. */
static bool
comma_locale(void)
{
  static const char* const names[] = {"de_DE.UTF-8", "fr_FR.UTF-8",
                                      "de_DE.utf8"};
  for (size_t i = 0; i < 3; ++i)
    if (setlocale(LC_NUMERIC, names[i]))
      return true;
  char cmd[512];
  snprintf(cmd, sizeof(cmd),
           "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1",
           tmpdir);
  if (system(cmd) != 0)
    return false;
  setenv("LOCPATH", tmpdir, 1);
  return setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL;
}

static void
locale_independence(void)
{
  if (!comma_locale() || strcmp(localeconv()->decimal_point, ",")) {
    printf("  SKIP locale: no locale with a decimal comma could be made\n");
    setlocale(LC_NUMERIC, "C");
    return;
  }
  /* the hazard is real here: strtod stops at the point */
  char* end = NULL;
  const double naive = strtod("0.5", &end);
  CHECK(naive == 0.0 && *end == '.', "strtod under a comma locale read %g",
        naive);
  modal_table t;
  modal_table_error e;
  expect_ok("under a comma locale", "# root: 60.5\n440.25 0.5 1e-3 -0.75\n",
            &t);
  CHECK(t.freq[0] == 440.25 && t.decay[0] == 0.5 && t.gain[0] == 1e-3 &&
            t.right_gain[0] == -0.75 && t.root == 60.5,
        "comma locale: %g %g %g %g root %g", t.freq[0], t.decay[0], t.gain[0],
        t.right_gain[0], t.root);
  /* and "0,5" is still not a number */
  CHECK(parse("440 0,5 1\n", &t, &e) == MODAL_TABLE_ERR_NOT_A_NUMBER,
        "comma locale: 0,5 read as a number");
  char out[256];
  CHECK(modal_table_write(&t, out, sizeof(out), NULL) == MODAL_TABLE_SUCCESS &&
            strstr(out, "440.25 0.5 0.001 -0.75\n") &&
            strstr(out, "# root: 60.5\n"),
        "comma locale: written '%s'", out);
  /* the thread's locale is as it was */
  CHECK(!strcmp(localeconv()->decimal_point, ","),
        "the parser changed the caller's locale");
  printf("  ok   numbers under a decimal-comma locale\n");
  setlocale(LC_NUMERIC, "C");
}

/* ---- 5. check and write ---- */

static void
writer(void)
{
  modal_table t;
  modal_table_init(&t);
  char out[MODAL_TABLE_TEXT_MAX];
  CHECK(modal_table_write(&t, out, sizeof(out), NULL) ==
            MODAL_TABLE_ERR_NO_MODES,
        "empty table written");
  t.count = 1;
  t.freq[0] = 440.0;
  t.decay[0] = 0.5;
  t.gain[0] = 1.0;
  CHECK(modal_table_write(&t, out, sizeof(out), NULL) == MODAL_TABLE_SUCCESS,
        "one mode");
  struct {
    const char* what;
    double* field;
    double value;
    modal_table_status want;
  } bad[] = {
      {"nan frequency", &t.freq[0], NAN, MODAL_TABLE_ERR_NOT_FINITE},
      {"0.5 Hz", &t.freq[0], 0.5, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"zero decay", &t.decay[0], 0.0, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"negative gain", &t.gain[0], -1.0, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"denormal gain", &t.gain[0], DBL_MIN / 4, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"root 200", &t.root, 200.0, MODAL_TABLE_ERR_OUT_OF_RANGE},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    const double keep = *bad[i].field;
    *bad[i].field = bad[i].value;
    const modal_table_status st = modal_table_write(&t, out, sizeof(out), NULL);
    CHECK(st == bad[i].want, "write with %s: '%s'", bad[i].what,
          modal_table_strerror(st));
    *bad[i].field = keep;
  }
  /* a right gain that is not written is not checked */
  t.right_gain[0] = NAN;
  CHECK(modal_table_write(&t, out, sizeof(out), NULL) == MODAL_TABLE_SUCCESS,
        "unused right gain checked");
  t.has_right_gain = true;
  CHECK(modal_table_write(&t, out, sizeof(out), NULL) ==
            MODAL_TABLE_ERR_NOT_FINITE,
        "nan right gain written");
  t.right_gain[0] = -2.0;

  static const char* const names[] = {"two\nlines", " lead", "trail\t",
                                      "bad \xff utf8"};
  for (size_t i = 0; i < 4; ++i) {
    strcpy(t.name, names[i]);
    CHECK(modal_table_write(&t, out, sizeof(out), NULL) ==
              MODAL_TABLE_ERR_BAD_HEADER,
          "name '%s' written", names[i]);
  }
  strcpy(t.name, "caf\xc3\xa9"); /* UTF-8 is fine */
  size_t len = 0;
  CHECK(modal_table_write(&t, out, sizeof(out), &len) == MODAL_TABLE_SUCCESS,
        "UTF-8 name refused");
  round_trip("UTF-8 name", &t);
  /* too small: refused and empty, at every size short of the text */
  for (size_t size = 0; size <= len; ++size) {
    static char small[MODAL_TABLE_TEXT_MAX];
    memset(small, 'x', sizeof(small));
    const modal_table_status st = modal_table_write(&t, small, size, NULL);
    if (st != MODAL_TABLE_ERR_NO_SPACE || (size && small[0])) {
      CHECK(false, "buffer of %zu for %zu bytes: '%s'", size, len,
            modal_table_strerror(st));
      break;
    }
  }
  CHECK(modal_table_write(&t, out, len + 1, NULL) == MODAL_TABLE_SUCCESS,
        "a buffer of exactly the text and its NUL refused");

  /* the longest table fits MODAL_TABLE_TEXT_MAX */
  memset(t.name, 'n', MODAL_TABLE_NAME_SIZE - 1);
  t.name[MODAL_TABLE_NAME_SIZE - 1] = '\0';
  t.root = nextafter(100.0, 0.0);
  t.count = MODAL_MAX_MODES;
  t.has_right_gain = true;
  for (int i = 0; i < MODAL_MAX_MODES; ++i) {
    t.freq[i] = nextafter(1.0 + 1e-9 * i, 2.0);
    t.decay[i] = nextafter(1.234e-4, 1.0);
    t.gain[i] = nextafter(DBL_MIN, 1.0);
    t.right_gain[i] = -nextafter(DBL_MIN, 1.0);
  }
  CHECK(modal_table_write(&t, out, sizeof(out), &len) == MODAL_TABLE_SUCCESS,
        "the longest table does not fit MODAL_TABLE_TEXT_MAX");
  printf("  ok   longest table: %zu bytes of %d\n", len, MODAL_TABLE_TEXT_MAX);
  round_trip("longest table", &t);

  /* every status has its own description */
  for (int a = MODAL_TABLE_SUCCESS; a <= MODAL_TABLE_ERR_NO_SPACE; ++a)
    for (int b = a + 1; b <= MODAL_TABLE_ERR_NO_SPACE; ++b)
      CHECK(strcmp(modal_table_strerror((modal_table_status)a),
                   modal_table_strerror((modal_table_status)b)),
            "statuses %d and %d read the same", a, b);
  CHECK(!strcmp(modal_table_strerror((modal_table_status)99), "unknown status"),
        "unknown status");
}

int
main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  valid_tables();
  bad_inputs();
  loader();
  locale_independence();
  writer();
  char cmd[300];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", tmpdir);
  return check_done("modal_table");
}
