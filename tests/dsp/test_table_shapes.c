/* SPDX-License-Identifier: ISC */
/*
 * Mode shapes in modal table files (dsp/modal_table.c, `# shape:`):
 * 1. a 1-D table (a free-free bar's first modes at 17 points, from the
 *    closed form) and a 2-D grid (a square plate's modes on 9 x 5 points)
 *    parse to the samples written, in shape_set_new_sampled()'s layout;
 * 2. parse, write and parse again gives the same table and shapes, bit
 *    for bit, and the writer's text is the shortest; the largest shaped
 *    table fits modal_table_text_size() and loads again from a file;
 * 3. every fault is refused with its status on its line, by the parser
 *    that keeps the shapes and by the one that drops them, and neither
 *    the caller's table nor its shapes change;
 * 4. a table without shapes parses as it did: the same table with and
 *    without a modal_shapes, and no shapes;
 * 5. the checker and writer refuse shapes the parser would refuse;
 * 6. the loader reads shapes, and names the file and line of a fault.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* M_PI */

#include "check.h"
#include "modal_table.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the free-free bar: beta_n L, the roots of cos(x) cosh(x) = 1 */
static const double bar_beta[] = {4.7300407448627, 7.8532046240958,
                                  10.995607838002, 14.137165491257,
                                  17.278759657400};
enum {
  BAR_MODES = 5,
  BAR_POINTS = 17,
  PLATE_NX = 9,
  PLATE_NY = 5,
  PLATE_MODES = 4,
};

/* mass-normalised free-free shape: phi(0) = 2, integral of phi^2 = 1 */
static double
bar_phi(const int n, const double x)
{
  const double b = bar_beta[n];
  const double s = (cosh(b) - cos(b)) / (sinh(b) - sin(b));
  return cosh(b * x) + cos(b * x) - s * (sinh(b * x) + sin(b * x));
}

/* simply supported square plate, mode (a, b) */
static const int plate_ab[PLATE_MODES][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}};

static double
plate_phi(const int n, const double x, const double y)
{
  return sin(plate_ab[n][0] * M_PI * x) * sin(plate_ab[n][1] * M_PI * y);
}

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

static modal_shapes* shapes_a;   /* parse results */
static modal_shapes* shapes_b;   /* a second one, for round trips */
static modal_shapes* shapes_old; /* a sentinel's copy */
static char text[MODAL_TABLE_SHAPES_TEXT_MAX];
static char text2[MODAL_TABLE_SHAPES_TEXT_MAX];
static char tmpdir[] = "/tmp/test_table_shapes.XXXXXX";

/* printf to the end of buf[0..len) (a buffer of the largest text) */
static size_t PRINTF_LIKE(3, 4)
    append(char* const buf, const size_t len, const char* const fmt, ...)
{
  va_list args;
  va_start(args, fmt);
  const int n =
      vsnprintf(buf + len, MODAL_TABLE_SHAPES_TEXT_MAX - len, fmt, args);
  va_end(args);
  return len + (n > 0 ? (size_t)n : 0);
}

/* a table and shapes that are not empty ones, to see failures leave them */
static void
sentinel(modal_table* const t, modal_shapes* const s)
{
  modal_table_init(t);
  t->count = 1;
  t->freq[0] = 123.0;
  t->decay[0] = 0.5;
  t->gain[0] = 0.25;
  strcpy(t->name, "sentinel");
  modal_shapes_init(s);
  s->nx = 3;
  s->ny = 1;
  s->value[0] = 1.0;
  s->value[1] = -0.5;
  s->value[2] = 0.25;
}

/* ---- 1. shaped tables parse to their samples ---- */

static int
bar_text(char* const buf)
{
  size_t len = append(buf, 0,
                      "# name: Free-free bar\n"
                      "# root: 60\n"
                      "# shape: %d\n",
                      BAR_POINTS);
  for (int n = 0; n < BAR_MODES; ++n) {
    const double ratio = bar_beta[n] / bar_beta[0];
    len = append(buf, len, "%.17g 1.5 %.17g", 261.63 * ratio * ratio,
                 1.0 / (n + 1));
    for (int i = 0; i < BAR_POINTS; ++i)
      len = append(buf, len, "\t%.17g", bar_phi(n, i / (BAR_POINTS - 1.0)));
    len = append(buf, len, "%s", n == 2 ? "   # third\n" : "\n");
  }
  return (int)len;
}

static void
one_dimension(void)
{
  const int len = bar_text(text);
  modal_table t;
  modal_table_error e;
  sentinel(&t, shapes_a);
  modal_table_status st =
      modal_table_parse_shapes(text, (size_t)len, "bar", &t, shapes_a, &e);
  CHECK(st == MODAL_TABLE_SUCCESS, "bar: refused: %s", e.message);
  CHECK(t.count == BAR_MODES && !t.has_right_gain && t.root == 60.0 &&
            !strcmp(t.name, "Free-free bar"),
        "bar: %d modes, right %d, root %g, name '%s'", t.count,
        t.has_right_gain, t.root, t.name);
  CHECK(shapes_a->nx == BAR_POINTS && shapes_a->ny == 1, "bar: shape %d x %d",
        shapes_a->nx, shapes_a->ny);
  int wrong = 0;
  for (int n = 0; n < BAR_MODES; ++n)
    for (int i = 0; i < BAR_POINTS; ++i)
      wrong += shapes_a->value[n * BAR_POINTS + i] !=
               bar_phi(n, i / (BAR_POINTS - 1.0));
  for (int k = BAR_MODES * BAR_POINTS; k < MODAL_TABLE_MAX_SHAPE_VALUES; ++k)
    wrong += shapes_a->value[k] != 0.0;
  CHECK(!wrong, "bar: %d samples differ from the closed form", wrong);
  CHECK(t.gain[2] == 1.0 / 3.0, "bar: third gain %.17g", t.gain[2]);

  /* what the samples are: the mass-normalised shape, phi(0) = 2 and
   * Simpson's integral of phi^2 over the 17 points 1 */
  for (int n = 0; n < 2; ++n) {
    double sum = 0.0;
    for (int i = 0; i < BAR_POINTS; ++i) {
      const double w = i == 0 || i == BAR_POINTS - 1 ? 1 : i % 2 ? 4 : 2;
      const double phi = shapes_a->value[n * BAR_POINTS + i];
      sum += w * phi * phi;
    }
    sum /= 3.0 * (BAR_POINTS - 1);
    char what[64];
    snprintf(what, sizeof(what), "bar mode %d: phi(0)", n + 1);
    check_rel(what, shapes_a->value[n * BAR_POINTS], 2.0, 1e-9);
    snprintf(what, sizeof(what), "bar mode %d: integral of phi^2", n + 1);
    check_rel(what, sum, 1.0, 2e-3);
  }

  /* the parser that drops the shapes gives the same table */
  modal_table u;
  sentinel(&u, shapes_b);
  CHECK(modal_table_parse(text, (size_t)len, "bar", &u, &e) ==
                MODAL_TABLE_SUCCESS &&
            !memcmp(&t, &u, sizeof(t)),
        "bar: modal_table_parse: %s, or another table", e.message);
  printf("  ok   1-D: %d modes x %d samples of a free-free bar\n", t.count,
         shapes_a->nx);
}

static size_t
plate_text(void)
{
  /* blanks around the x; a row of the grid a group of columns */
  size_t len = append(text, 0, "# a plate on a grid\n#shape:%d x %d\n\n",
                      PLATE_NX, PLATE_NY);
  for (int n = 0; n < PLATE_MODES; ++n) {
    const int a = plate_ab[n][0], b = plate_ab[n][1];
    len = append(text, len, "%.17g 2 1", 82.41 * (a * a + b * b) / 2.0);
    for (int j = 0; j < PLATE_NY; ++j) {
      for (int i = 0; i < PLATE_NX; ++i)
        len = append(text, len, " %.17g",
                     plate_phi(n, i / (PLATE_NX - 1.0), j / (PLATE_NY - 1.0)));
      len = append(text, len, "  ");
    }
    len = append(text, len, "\r\n");
  }
  return len;
}

static void
two_dimensions(void)
{
  const size_t len = plate_text();
  modal_table t;
  modal_table_error e;
  sentinel(&t, shapes_a);
  CHECK(modal_table_parse_shapes(text, len, "plate", &t, shapes_a, &e) ==
            MODAL_TABLE_SUCCESS,
        "plate: refused: %s", e.message);
  CHECK(t.count == PLATE_MODES && shapes_a->nx == PLATE_NX &&
            shapes_a->ny == PLATE_NY,
        "plate: %d modes, shape %d x %d", t.count, shapes_a->nx, shapes_a->ny);
  int wrong = 0;
  for (int n = 0; n < PLATE_MODES; ++n)
    for (int j = 0; j < PLATE_NY; ++j)
      for (int i = 0; i < PLATE_NX; ++i)
        wrong += shapes_a->value[(n * PLATE_NY + j) * PLATE_NX + i] !=
                 plate_phi(n, i / (PLATE_NX - 1.0), j / (PLATE_NY - 1.0));
  CHECK(!wrong, "plate: %d samples out of place or wrong", wrong);
  /* mode (2, 1) against (1, 2): x is along a row, y across rows */
  const double* const m21 = shapes_a->value + 1 * PLATE_NX * PLATE_NY;
  CHECK(fabs(m21[2 * PLATE_NX + 2] - 1.0) < 1e-15 &&
            fabs(m21[2 * PLATE_NX + 4]) < 1e-15,
        "plate (2,1) at (1/4, 1/2) %g and (1/2, 1/2) %g", m21[2 * PLATE_NX + 2],
        m21[2 * PLATE_NX + 4]);
  printf("  ok   2-D: %d modes on a %d x %d grid\n", t.count, shapes_a->nx,
         shapes_a->ny);
}

/* ---- 2. round trips ---- */

static void
round_trip(const char* const what, const modal_table* const t,
           const modal_shapes* const s)
{
  size_t len = 0;
  const size_t size = modal_table_text_size(t, s);
  CHECK(size <= sizeof(text), "%s: text size %zu", what, size);
  modal_table_status st = modal_table_write_shapes(t, s, text, size, &len);
  CHECK(st == MODAL_TABLE_SUCCESS && len == strlen(text), "%s: write: %s", what,
        modal_table_strerror(st));
  CHECK(len <= MODAL_TABLE_MAX_BYTES, "%s: %zu bytes", what, len);
  modal_table u;
  modal_table_error e;
  sentinel(&u, shapes_b);
  st = modal_table_parse_shapes(text, len, "written", &u, shapes_b, &e);
  CHECK(st == MODAL_TABLE_SUCCESS, "%s: written text refused: %s", what,
        e.message);
  CHECK(!memcmp(t, &u, sizeof(u)), "%s: another table after write and parse",
        what);
  CHECK(!memcmp(s, shapes_b, sizeof(*s)),
        "%s: other shapes after write and parse", what);
  /* and the same text again */
  size_t len2 = 0;
  CHECK(modal_table_write_shapes(&u, shapes_b, text2, sizeof(text2), &len2) ==
                MODAL_TABLE_SUCCESS &&
            len2 == len && !memcmp(text, text2, len),
        "%s: written twice, two texts", what);
  /* one byte short: refused, not cut */
  CHECK(modal_table_write_shapes(t, s, text2, len, NULL) ==
                MODAL_TABLE_ERR_NO_SPACE &&
            text2[0] == '\0',
        "%s: a buffer one byte short", what);
  printf("  ok   round trip: %-24s %zu bytes (bound %zu)\n", what, len, size);
}

/* one write of a table and its parse back, timed */
typedef struct timed_table {
  const modal_table* table;
  const modal_shapes* shapes;
} timed_table;

static void
round_trip_timed(void* arg)
{
  const timed_table* const tt = arg;
  size_t len = 0;
  modal_table u;
  modal_table_error e;
  CHECK(modal_table_write_shapes(tt->table, tt->shapes, text, sizeof(text),
                                 &len) == MODAL_TABLE_SUCCESS &&
            modal_table_parse_shapes(text, len, "timed", &u, shapes_b, &e) ==
                MODAL_TABLE_SUCCESS,
        "timed round trip refused");
}

static void
round_trips(void)
{
  modal_table t;
  modal_table_error e;
  const int len = bar_text(text);
  CHECK(modal_table_parse_shapes(text, (size_t)len, "bar", &t, shapes_a, &e) ==
            MODAL_TABLE_SUCCESS,
        "bar: %s", e.message);
  round_trip("bar", &t, shapes_a);
  CHECK(modal_table_parse_shapes(text, plate_text(), "plate", &t, shapes_a,
                                 &e) == MODAL_TABLE_SUCCESS,
        "plate: %s", e.message);
  round_trip("plate", &t, shapes_a);

  /* the writer's text */
  modal_table_init(&t);
  modal_shapes_init(shapes_a);
  strcpy(t.name, "Bar");
  t.count = 2;
  t.freq[0] = 261.63;
  t.decay[0] = 1.8;
  t.gain[0] = 1.0;
  t.freq[1] = 721.2;
  t.decay[1] = 0.65;
  t.gain[1] = 0.4;
  shapes_a->nx = 3;
  shapes_a->ny = 1;
  const double phi[6] = {2, -0.1 - 0.2, 2, 2, 0, -2};
  memcpy(shapes_a->value, phi, sizeof(phi));
  char out[512];
  size_t out_len = 0;
  CHECK(modal_table_write_shapes(&t, shapes_a, out, sizeof(out), &out_len) ==
            MODAL_TABLE_SUCCESS,
        "write Bar");
  const char* want = "# name: Bar\n"
                     "# shape: 3\n"
                     "# frequency_Hz decay_s gain, phi at x = i/2 for i = "
                     "0..2\n"
                     "261.63 1.8 1 2 -0.30000000000000004 2\n"
                     "721.2 0.65 0.4 2 0 -2\n";
  CHECK(!strcmp(out, want) && out_len == strlen(want),
        "writer's text:\n%s\nwant:\n%s", out, want);
  shapes_a->nx = 3;
  shapes_a->ny = 2;
  const double grid[12] = {0, 0.5, 1, 0, -0.5, -1, 1, 1, 1, -1, -1, -1};
  memcpy(shapes_a->value, grid, sizeof(grid));
  CHECK(modal_table_write_shapes(&t, shapes_a, out, sizeof(out), &out_len) ==
            MODAL_TABLE_SUCCESS,
        "write Bar on a grid");
  want = "# name: Bar\n"
         "# shape: 3x2\n"
         "# frequency_Hz decay_s gain, phi at (x, y) = (i/2, j/1) for j = "
         "0..1, i = 0..2\n"
         "261.63 1.8 1 0 0.5 1 0 -0.5 -1\n"
         "721.2 0.65 0.4 1 1 1 -1 -1 -1\n";
  CHECK(!strcmp(out, want) && out_len == strlen(want),
        "writer's grid text:\n%s\nwant:\n%s", out, want);
  round_trip("Bar on a grid", &t, shapes_a);
  /* without shapes, or with nx = 0: modal_table_write()'s text */
  char plain[512];
  CHECK(modal_table_write(&t, plain, sizeof(plain), NULL) ==
                MODAL_TABLE_SUCCESS &&
            modal_table_write_shapes(&t, NULL, out, sizeof(out), NULL) ==
                MODAL_TABLE_SUCCESS &&
            !strcmp(out, plain),
        "write_shapes without shapes:\n%s\nwant:\n%s", out, plain);
  shapes_a->nx = 0;
  CHECK(modal_table_write_shapes(&t, shapes_a, out, sizeof(out), NULL) ==
                MODAL_TABLE_SUCCESS &&
            !strcmp(out, plain),
        "write_shapes with nx = 0:\n%s\nwant:\n%s", out, plain);
  CHECK(modal_table_text_size(&t, NULL) == MODAL_TABLE_TEXT_MAX,
        "text size without shapes");

  /* the largest: 128 modes of 256 samples, every number the longest,
   * and a 127-byte name */
  modal_table_init(&t);
  modal_shapes_init(shapes_a);
  memset(t.name, 'n', MODAL_TABLE_NAME_SIZE - 1);
  t.root = nextafter(100.0, 0.0);
  t.count = MODAL_MAX_MODES;
  shapes_a->nx = 32;
  shapes_a->ny = MODAL_TABLE_MAX_SHAPE_VALUES / MODAL_MAX_MODES / 32;
  for (int i = 0; i < MODAL_MAX_MODES; ++i) {
    t.freq[i] = nextafter(1.0 + 1e-9 * i, 2.0);
    t.decay[i] = nextafter(1.234e-4, 1.0);
    t.gain[i] = nextafter(DBL_MIN, 1.0);
  }
  for (int k = 0; k < MODAL_TABLE_MAX_SHAPE_VALUES; ++k)
    shapes_a->value[k] = -nextafter(DBL_MIN * (1 + k % 7), 1.0);
  CHECK(modal_table_text_size(&t, shapes_a) <= MODAL_TABLE_SHAPES_TEXT_MAX,
        "text size %zu over %d", modal_table_text_size(&t, shapes_a),
        MODAL_TABLE_SHAPES_TEXT_MAX);
  round_trip("largest", &t, shapes_a);
  /* linear in its text, not quadratic: the largest table against the
   * same table cut to an eighth of its modes, an eighth of its text */
  timed_table tt = {&t, shapes_a};
  const double whole = check_best_seconds(round_trip_timed, &tt);
  t.count = MODAL_MAX_MODES / 8;
  const double eighth = check_best_seconds(round_trip_timed, &tt);
  t.count = MODAL_MAX_MODES;
  check_linear("largest table written and parsed", whole, eighth);

  /* ... and loads from a file */
  char path[256];
  snprintf(path, sizeof(path), "%s/largest.modes", tmpdir);
  size_t len2 = 0;
  modal_table_write_shapes(&t, shapes_a, text, sizeof(text), &len2);
  FILE* const f = fopen(path, "wb");
  CHECK(f && fwrite(text, 1, len2, f) == len2, "cannot write %s", path);
  if (f)
    fclose(f);
  modal_table u;
  CHECK(modal_table_load_shapes(path, &u, shapes_b, &e) ==
                MODAL_TABLE_SUCCESS &&
            !memcmp(&t, &u, sizeof(t)) &&
            !memcmp(shapes_a, shapes_b, sizeof(*shapes_b)),
        "largest table from a file: %s", e.message);
  unlink(path);
}

/* ---- 3. faults ---- */

static void
expect_fail(const char* const what, const char* const in,
            const modal_table_status want, const int line,
            const char* const fragment)
{
  const size_t length = strlen(in);
  for (int keep = 1; keep >= 0; --keep) {
    modal_table t, before;
    sentinel(&t, shapes_a);
    before = t;
    memcpy(shapes_old, shapes_a, sizeof(*shapes_a));
    modal_table_error e;
    const modal_table_status st =
        keep ? modal_table_parse_shapes(in, length, "t.modes", &t, shapes_a, &e)
             : modal_table_parse(in, length, "t.modes", &t, &e);
    const char* const how = keep ? "" : " (shapes dropped)";
    CHECK(st == want, "%s%s: status '%s', want '%s' (%s)", what, how,
          modal_table_strerror(st), modal_table_strerror(want), e.message);
    CHECK(e.status == st && e.line == line, "%s%s: line %d, want %d (%s)", what,
          how, e.line, line, e.message);
    char prefix[64];
    snprintf(prefix, sizeof(prefix), line ? "t.modes:%d: " : "t.modes: ", line);
    CHECK(!strncmp(e.message, prefix, strlen(prefix)),
          "%s%s: message '%s' does not begin with '%s'", what, how, e.message,
          prefix);
    CHECK(strstr(e.message, fragment), "%s%s: message '%s' does not say '%s'",
          what, how, e.message, fragment);
    CHECK(!memcmp(&t, &before, sizeof(t)), "%s%s: the table was changed", what,
          how);
    CHECK(!memcmp(shapes_a, shapes_old, sizeof(*shapes_a)),
          "%s%s: the shapes were changed", what, how);
    if (keep)
      printf("  ok   %-30s %s\n", what, e.message);
  }
}

static void
faults(void)
{
  /* the count of samples against the header */
  expect_fail("a sample short", "# shape: 4\n440 0.5 1 1 0 -1\n",
              MODAL_TABLE_ERR_MISSING_FIELD, 2,
              "3 samples where the shape on line 1 needs 4");
  expect_fail("a sample over", "# shape: 3\n440 0.5 1 1 0 -1\n1 1 1 1 0 -1 0\n",
              MODAL_TABLE_ERR_EXTRA_FIELD, 3,
              "7 fields where the shape on line 1 needs 6");
  expect_fail("grid a row short", "# shape: 2x3\n440 0.5 1 1 0 -1 1\n",
              MODAL_TABLE_ERR_MISSING_FIELD, 2, "4 samples where");
  expect_fail("header without samples", "# shape: 4\n440 0.5 1\n",
              MODAL_TABLE_ERR_MISSING_FIELD, 2,
              "0 samples where the shape on line 1 needs 4");
  expect_fail("header and no modes", "# shape: 4\n# 440 0.5 1\n",
              MODAL_TABLE_ERR_NO_MODES, 0, "no modes");
  expect_fail("gain missing", "# shape: 4\n\n440 0.5\n",
              MODAL_TABLE_ERR_MISSING_FIELD, 3, "gain missing");
  expect_fail("samples without header", "440 0.5 1 1 0 -1\n",
              MODAL_TABLE_ERR_EXTRA_FIELD, 1, "'# shape:' line");
  expect_fail("right_gain with shapes", "# shape: 3\n440 0.5 1 0.5 1 0 -1\n",
              MODAL_TABLE_ERR_EXTRA_FIELD, 2, "no right_gain");

  /* the header */
  expect_fail("shape twice", "# shape: 3\n# name: x\n#shape: 3\n1 1 1 1 0 1\n",
              MODAL_TABLE_ERR_BAD_HEADER, 3,
              "second shape (the first is on line 1)");
  expect_fail("shape after a mode", "440 0.5 1\n# shape: 3\n",
              MODAL_TABLE_ERR_BAD_HEADER, 2, "shape after the first mode");
  expect_fail("K = 1", "# shape: 1\n440 0.5 1 1\n",
              MODAL_TABLE_ERR_OUT_OF_RANGE, 1,
              "K = 1: a shape needs at least 2");
  expect_fail("K = 0", "# shape: 0\n440 0.5 1\n", MODAL_TABLE_ERR_OUT_OF_RANGE,
              1, "needs at least 2");
  expect_fail("J = 1", "# shape: 3x1\n440 0.5 1 1 0 1\n",
              MODAL_TABLE_ERR_OUT_OF_RANGE, 1,
              "J = 1: a grid needs at least 2 rows");
  expect_fail("K too large", "# shape: 32769\n440 0.5 1\n",
              MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "more samples a mode");
  expect_fail("K huge", "# shape: 99999999999999999999999999\n440 0.5 1\n",
              MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "more samples a mode");
  expect_fail("grid too large", "# shape: 200 x 200\n440 0.5 1\n",
              MODAL_TABLE_ERR_OUT_OF_RANGE, 1, "than the 32768");
  expect_fail("empty shape", "# shape:  \n440 0.5 1\n",
              MODAL_TABLE_ERR_BAD_HEADER, 1, "empty shape");
  static const char* const malformed[] = {"1.5",  "17x",  "x9",    "-4",  "+4",
                                          "17X9", "17 9", "4x4x4", "four"};
  for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); ++i) {
    char in[64], what[64];
    snprintf(in, sizeof(in), "# root: 60\n# shape: %s\n440 0.5 1\n",
             malformed[i]);
    snprintf(what, sizeof(what), "shape '%s'", malformed[i]);
    expect_fail(what, in, MODAL_TABLE_ERR_BAD_HEADER, 2, "is not K or KxJ");
  }

  /* the samples */
  expect_fail("nan sample", "# shape: 3\n440 0.5 1 1 nan 1\n",
              MODAL_TABLE_ERR_NOT_FINITE, 2, "sample 2 'nan' is not finite");
  expect_fail("-inf sample", "# shape: 3\n440 0.5 1 1 0 -inf\n",
              MODAL_TABLE_ERR_NOT_FINITE, 2, "sample 3 '-inf'");
  expect_fail("overflowing sample", "# shape: 3\n440 0.5 1 1e999 0 1\n",
              MODAL_TABLE_ERR_NOT_FINITE, 2, "sample 1 '1e999' overflows");
  expect_fail("sample not a number", "# shape: 3\n440 0.5 1 1 0,5 1\n",
              MODAL_TABLE_ERR_NOT_A_NUMBER, 2,
              "sample 2 '0,5' is not a number");
  expect_fail("sample over 100", "# shape: 3\n440 0.5 1 1 100.5 1\n",
              MODAL_TABLE_ERR_OUT_OF_RANGE, 2,
              "sample 2 100.5 is out of range (-100 to 100)");
  expect_fail("sample under -100", "# shape: 2x2\n440 0.5 1 0 0 1 -101\n",
              MODAL_TABLE_ERR_OUT_OF_RANGE, 2, "sample 4 (column 2, row 2)");
  expect_fail("denormal sample", "# shape: 2\n440 0.5 1 1e-320 1\n",
              MODAL_TABLE_ERR_OUT_OF_RANGE, 2, "too small");
  expect_fail("bad gain before samples", "# shape: 2\n440 0.5 -1 nan 1\n",
              MODAL_TABLE_ERR_OUT_OF_RANGE, 2, "gain -1");
  /* 100 itself is inside */
  modal_table t;
  modal_table_error e;
  CHECK(modal_table_parse_shapes("# shape: 2\n1 1 0 100 -100\n", 26, NULL, &t,
                                 shapes_a, &e) == MODAL_TABLE_SUCCESS &&
            shapes_a->value[0] == 100.0 && shapes_a->value[1] == -100.0,
        "samples of +-100: %s", e.message);

  /* more samples than a table holds: 110 modes of 300 */
  size_t len = append(text, 0, "# shape: 300\n");
  for (int n = 0; n < 110; ++n) {
    len = append(text, len, "%d 1 1", 100 + n);
    for (int k = 0; k < 300; ++k)
      len = append(text, len, " 0.5");
    len = append(text, len, "\n");
  }
  expect_fail("110 modes of 300 samples", text, MODAL_TABLE_ERR_TOO_MANY_MODES,
              111, "more than 109 modes of 300 samples");
  /* 109 of them fit */
  char* const cut = strstr(text, "\n209 1 1");
  CHECK(cut &&
            modal_table_parse_shapes(text, (size_t)(cut - text + 1), NULL, &t,
                                     shapes_a, &e) == MODAL_TABLE_SUCCESS &&
            t.count == 109 && shapes_a->value[109 * 300 - 1] == 0.5,
        "109 modes of 300 samples: %s", e.message);
}

/* ---- 4. without shapes, as before ---- */

static void
without_shapes(void)
{
  static const char* const tables[] = {
      ("\xEF\xBB\xBF# name: Bell\n# root: 48\n65.4 9.7 1 1\n"
       "130.8 4.9 0.5 -0.5 # x\r\n"),
      "440 0.5 1\n880 0.25 0\n",
      "# phi: 1 2 3\n# shapes: 4\n# shape of the bar: free\n440 0.5 1\n",
  };
  for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); ++i) {
    modal_table t, u;
    modal_table_error e;
    sentinel(&t, shapes_a);
    sentinel(&u, shapes_b);
    const size_t n = strlen(tables[i]);
    CHECK(modal_table_parse_shapes(tables[i], n, NULL, &t, shapes_a, &e) ==
              MODAL_TABLE_SUCCESS,
          "table %zu with shapes: %s", i, e.message);
    CHECK(modal_table_parse(tables[i], n, NULL, &u, &e) == MODAL_TABLE_SUCCESS,
          "table %zu: %s", i, e.message);
    CHECK(!memcmp(&t, &u, sizeof(t)), "table %zu: two tables", i);
    modal_shapes_init(shapes_b);
    CHECK(!memcmp(shapes_a, shapes_b, sizeof(*shapes_a)),
          "table %zu: shapes where there are none", i);
    /* NULL shapes: the same again */
    CHECK(modal_table_parse_shapes(tables[i], n, NULL, &u, NULL, &e) ==
                  MODAL_TABLE_SUCCESS &&
              !memcmp(&t, &u, sizeof(t)),
          "table %zu without a modal_shapes: %s", i, e.message);
  }
  printf("  ok   tables without shapes: the same with and without "
         "modal_shapes; sizeof(modal_table) %zu, sizeof(modal_shapes) %zu\n",
         sizeof(modal_table), sizeof(modal_shapes));
  /* the table does not grow: its arrays, root, count, a flag and the name
   * (with its padding) */
  CHECK(sizeof(modal_table) <= 4 * MODAL_MAX_MODES * sizeof(double) +
                                   sizeof(double) + sizeof(int) + sizeof(bool) +
                                   MODAL_TABLE_NAME_SIZE + 8,
        "sizeof(modal_table) %zu", sizeof(modal_table));
}

/* ---- 5. check and write ---- */

static void
checker(void)
{
  modal_table t;
  modal_table_init(&t);
  t.count = 2;
  t.freq[0] = 440.0;
  t.freq[1] = 880.0;
  t.decay[0] = t.decay[1] = 0.5;
  t.gain[0] = t.gain[1] = 1.0;
  modal_shapes_init(shapes_a);
  shapes_a->nx = 2;
  shapes_a->ny = 1;
  shapes_a->value[0] = 1.0;
  CHECK(modal_table_check_shapes(&t, shapes_a, NULL) == MODAL_TABLE_SUCCESS,
        "a good table refused");
  struct {
    const char* what;
    int nx, ny;
    int k;
    double v;
    bool right;
    int count;
    modal_table_status want;
  } bad[] = {
      {"nx 1", 1, 1, 0, 1, false, 2, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"nx -2", -2, 1, 0, 1, false, 2, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"ny 0", 2, 0, 0, 1, false, 2, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"ny -1", 2, -1, 0, 1, false, 2, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"nx huge", 1 << 30, 1, 0, 1, false, 2, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"too many samples", 128, 129, 0, 1, false, 2,
       MODAL_TABLE_ERR_TOO_MANY_MODES},
      {"128 modes of 257", 257, 1, 0, 1, false, 128,
       MODAL_TABLE_ERR_TOO_MANY_MODES},
      {"right gain", 2, 1, 0, 1, true, 2, MODAL_TABLE_ERR_EXTRA_FIELD},
      {"nan sample", 2, 2, 7, NAN, false, 2, MODAL_TABLE_ERR_NOT_FINITE},
      {"sample 101", 2, 1, 3, 101, false, 2, MODAL_TABLE_ERR_OUT_OF_RANGE},
      {"denormal sample", 2, 1, 1, DBL_MIN / 2, false, 2,
       MODAL_TABLE_ERR_OUT_OF_RANGE},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    modal_table u = t;
    u.has_right_gain = bad[i].right;
    u.count = bad[i].count;
    for (int n = 2; n < u.count; ++n) {
      u.freq[n] = 1000.0 + n;
      u.decay[n] = 0.5;
      u.gain[n] = 1.0;
    }
    shapes_a->nx = bad[i].nx;
    shapes_a->ny = bad[i].ny;
    const double keep = shapes_a->value[bad[i].k];
    shapes_a->value[bad[i].k] = bad[i].v;
    modal_table_error e;
    const modal_table_status st = modal_table_check_shapes(&u, shapes_a, &e);
    CHECK(st == bad[i].want, "check with %s: '%s' (%s)", bad[i].what,
          modal_table_strerror(st), e.message);
    static char out[MODAL_TABLE_SHAPES_TEXT_MAX];
    CHECK(modal_table_write_shapes(&u, shapes_a, out, sizeof(out), NULL) == st,
          "write with %s", bad[i].what);
    /* the size bound stays a bound for what cannot be written */
    CHECK(modal_table_text_size(&u, shapes_a) <= MODAL_TABLE_SHAPES_TEXT_MAX,
          "text size with %s", bad[i].what);
    printf("  ok   check: %-20s %s\n", bad[i].what, e.message);
    shapes_a->value[bad[i].k] = keep;
  }
  /* samples past the table's modes are not part of it */
  shapes_a->nx = 2;
  shapes_a->ny = 1;
  shapes_a->value[4] = NAN;
  CHECK(modal_table_check_shapes(&t, shapes_a, NULL) == MODAL_TABLE_SUCCESS,
        "a sample past the modes checked");
  /* the table's own faults come first, as modal_table_check() has them */
  t.decay[1] = 0.0;
  CHECK(modal_table_check_shapes(&t, shapes_a, NULL) ==
            MODAL_TABLE_ERR_OUT_OF_RANGE,
        "a bad table with good shapes");
}

/* ---- 6. the loader ---- */

static void
loader(void)
{
  char path[256];
  snprintf(path, sizeof(path), "%s/bar.modes", tmpdir);
  const int len = bar_text(text);
  FILE* f = fopen(path, "wb");
  CHECK(f && fwrite(text, 1, (size_t)len, f) == (size_t)len, "write %s", path);
  if (f)
    fclose(f);
  modal_table t, u;
  modal_table_error e;
  CHECK(modal_table_load_shapes(path, &t, shapes_a, &e) ==
                MODAL_TABLE_SUCCESS &&
            shapes_a->nx == BAR_POINTS &&
            shapes_a->value[BAR_POINTS] == bar_phi(1, 0.0),
        "load a shaped file: %s", e.message);
  CHECK(modal_table_load(path, &u, &e) == MODAL_TABLE_SUCCESS &&
            !memcmp(&t, &u, sizeof(t)),
        "load a shaped file without its shapes: %s", e.message);

  f = fopen(path, "wb");
  CHECK(f && fputs("# shape: 3\n440 0.5 1 1 0 1\n880 0.5 1 1 0\n", f) >= 0,
        "write %s", path);
  if (f)
    fclose(f);
  sentinel(&t, shapes_a);
  u = t;
  memcpy(shapes_old, shapes_a, sizeof(*shapes_a));
  char want[320];
  snprintf(want, sizeof(want),
           "%s:3: 2 samples where the shape on line 1 needs 3", path);
  CHECK(modal_table_load_shapes(path, &t, shapes_a, &e) ==
                MODAL_TABLE_ERR_MISSING_FIELD &&
            !strcmp(e.message, want) && !memcmp(&t, &u, sizeof(t)) &&
            !memcmp(shapes_a, shapes_old, sizeof(*shapes_a)),
        "load a bad shaped file: '%s', want '%s'", e.message, want);
  unlink(path);
  CHECK(modal_table_load_shapes(path, &t, shapes_a, &e) ==
                MODAL_TABLE_ERR_OPEN &&
            !memcmp(&t, &u, sizeof(t)) &&
            !memcmp(shapes_a, shapes_old, sizeof(*shapes_a)),
        "load a missing file: %s", e.message);
  printf("  ok   loader: %s\n", want);
}

int
main(void)
{
  shapes_a = malloc(sizeof(*shapes_a));
  shapes_b = malloc(sizeof(*shapes_b));
  shapes_old = malloc(sizeof(*shapes_old));
  if (!shapes_a || !shapes_b || !shapes_old || !mkdtemp(tmpdir)) {
    perror("test_table_shapes");
    return 1;
  }
  one_dimension();
  two_dimensions();
  round_trips();
  faults();
  without_shapes();
  checker();
  loader();
  rmdir(tmpdir);
  free(shapes_a);
  free(shapes_b);
  free(shapes_old);
  return check_done("table_shapes");
}
