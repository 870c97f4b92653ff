/* SPDX-License-Identifier: ISC */
/* Modal table files: parser, loader and writer (format in modal_table.h),
 * and the keymap files cut into zone tables (modal_keymap.h), which are
 * the same grammar. */
#define _POSIX_C_SOURCE 200809L

#include "modal_table.h"
#include "modal_keymap.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

enum {
  /* a source name longer than this is shown by its tail, so that the
   * message keeps room for the line and what was wrong */
  SOURCE_SHOWN = 160,
  /* a bad field is quoted up to this many bytes */
  TOKEN_SHOWN = 32,
  /* fields looked at on a mode line: the four, and one more to report */
  FIELDS_SEEN = 5,
};

const char*
modal_table_strerror(const modal_table_status status)
{
  switch (status) {
  case MODAL_TABLE_SUCCESS:
    return "success";
  case MODAL_TABLE_ERR_OPEN:
    return "cannot open";
  case MODAL_TABLE_ERR_NOT_REGULAR:
    return "not a regular file";
  case MODAL_TABLE_ERR_TOO_LARGE:
    return "file too large";
  case MODAL_TABLE_ERR_READ:
    return "read error";
  case MODAL_TABLE_ERR_NO_MEMORY:
    return "out of memory";
  case MODAL_TABLE_ERR_NOT_TEXT:
    return "not text";
  case MODAL_TABLE_ERR_NO_MODES:
    return "no modes";
  case MODAL_TABLE_ERR_TOO_MANY_MODES:
    return "too many modes";
  case MODAL_TABLE_ERR_MISSING_FIELD:
    return "missing field";
  case MODAL_TABLE_ERR_EXTRA_FIELD:
    return "extra field";
  case MODAL_TABLE_ERR_NOT_A_NUMBER:
    return "not a number";
  case MODAL_TABLE_ERR_NOT_FINITE:
    return "not finite";
  case MODAL_TABLE_ERR_OUT_OF_RANGE:
    return "out of range";
  case MODAL_TABLE_ERR_BAD_HEADER:
    return "bad header";
  case MODAL_TABLE_ERR_NO_SPACE:
    return "buffer too small";
  }
  return "unknown status";
}

void
modal_table_init(modal_table* const table)
{
  memset(table, 0, sizeof(*table));
  table->root = MODAL_TABLE_NO_ROOT;
}

void
modal_shapes_init(modal_shapes* const shapes)
{
  memset(shapes, 0, sizeof(*shapes));
}

/* ---- error reports ---- */

/* The length of at most `max` bytes of the UTF-8 text s[0..n) that ends on
 * a character boundary. */
static size_t
utf8_prefix(const char* const s, const size_t n, const size_t max)
{
  if (n <= max)
    return n;
  size_t k = max;
  while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
    --k;
  return k;
}

typedef struct {
  const char* source;
  modal_table_error* error;
  int line;
} parser;

static void
report(const char* source, modal_table_error* const error,
       const modal_table_status status, const int line, const char* const fmt,
       va_list args)
{
  if (!error)
    return;
  error->status = status;
  error->line = line;
  if (!source)
    source = "<text>";
  /* the tail of a long name: its end is the file's own name */
  size_t n = strlen(source);
  const char* dots = "";
  if (n > SOURCE_SHOWN) {
    source += n - SOURCE_SHOWN;
    n = SOURCE_SHOWN;
    while (n > 0 && ((unsigned char)*source & 0xC0) == 0x80) {
      ++source;
      --n;
    }
    dots = "...";
  }
  int used;
  if (line > 0)
    used = snprintf(error->message, sizeof(error->message), "%s%s:%d: ", dots,
                    source, line);
  else
    used = snprintf(error->message, sizeof(error->message), "%s%s: ", dots,
                    source);
  if (used < 0 || (size_t)used >= sizeof(error->message))
    return;
  vsnprintf(error->message + used, sizeof(error->message) - (size_t)used, fmt,
            args);
}

static modal_table_status PRINTF_LIKE(3, 4)
    fail(const parser* const p, const modal_table_status status,
         const char* const fmt, ...)
{
  va_list args;
  va_start(args, fmt);
  report(p->source, p->error, status, p->line, fmt, args);
  va_end(args);
  return status;
}

static modal_table_status PRINTF_LIKE(4, 5)
    fail_file(const char* const path, modal_table_error* const error,
              const modal_table_status status, const char* const fmt, ...)
{
  va_list args;
  va_start(args, fmt);
  report(path, error, status, 0, fmt, args);
  va_end(args);
  return status;
}

/* ---- text check ---- */

/* The length of the well-formed UTF-8 sequence at s[0..n) (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), 0 if none. */
static size_t
utf8_char(const unsigned char* const s, const size_t n)
{
  const unsigned c = s[0];
  size_t len;
  unsigned lo = 0x80, hi = 0xBF; /* the second byte's range */
  if (c < 0x80)
    return 1;
  if (c >= 0xC2 && c <= 0xDF)
    len = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0)
      lo = 0xA0; /* overlong */
    else if (c == 0xED)
      hi = 0x9F; /* surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0)
      lo = 0x90; /* overlong */
    else if (c == 0xF4)
      hi = 0x8F; /* above U+10FFFF */
  } else
    return 0;
  if (n < len || s[1] < lo || s[1] > hi)
    return 0;
  for (size_t i = 2; i < len; ++i)
    if (s[i] < 0x80 || s[i] > 0xBF)
      return 0;
  return len;
}

/* Text is UTF-8 without NUL or control bytes other than tab, LF and CR:
 * binary data (a WAV file picked by mistake) fails here, on its line,
 * before any of it is read as numbers. */
static modal_table_status
check_text(parser* const p, const char* const text, const size_t length)
{
  const unsigned char* const s = (const unsigned char*)text;
  p->line = 1;
  for (size_t i = 0; i < length;) {
    const unsigned c = s[i];
    if (c == '\n') {
      ++p->line;
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      if (c != '\t' && c != '\r')
        return fail(p, MODAL_TABLE_ERR_NOT_TEXT,
                    "byte 0x%02X is not text (binary data?)", c);
      ++i;
    } else {
      const size_t len = utf8_char(s + i, length - i);
      if (!len)
        return fail(p, MODAL_TABLE_ERR_NOT_TEXT,
                    "byte 0x%02X is not UTF-8 text", c);
      i += len;
    }
  }
  return MODAL_TABLE_SUCCESS;
}

/* ---- numbers ---- */

static bool
is_blank(const char c)
{
  return c == ' ' || c == '\t' || c == '\r';
}

static bool
is_digit(const char c)
{
  return c >= '0' && c <= '9';
}

static size_t
skip_digits(const char* const s, size_t i, const size_t n)
{
  while (i < n && is_digit(s[i]))
    ++i;
  return i;
}

/* [+-] (digits [. digits] | . digits) [(e|E) [+-] digits], all of s[0..n):
 * the grammar strtod accepts in the "C" locale less hex, nan and inf. */
static bool
is_decimal(const char* const s, const size_t n)
{
  size_t i = 0;
  if (i < n && (s[i] == '+' || s[i] == '-'))
    ++i;
  const size_t int_start = i;
  i = skip_digits(s, i, n);
  size_t mantissa = i - int_start;
  if (i < n && s[i] == '.') {
    const size_t frac_start = ++i;
    i = skip_digits(s, i, n);
    mantissa += i - frac_start;
  }
  if (!mantissa)
    return false;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-'))
      ++i;
    const size_t exp_start = i;
    i = skip_digits(s, i, n);
    if (i == exp_start)
      return false;
  }
  return i == n;
}

/* nan, inf or infinity in any case, signed or not: named apart from other
 * non-numbers, as they are the usual output of a failed computation. */
static bool
is_nonfinite_word(const char* s, size_t n)
{
  if (n && (*s == '+' || *s == '-')) {
    ++s;
    --n;
  }
  static const char* const words[] = {"nan", "inf", "infinity"};
  for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); ++w) {
    const size_t len = strlen(words[w]);
    if (n != len)
      continue;
    size_t i = 0;
    while (i < n && (s[i] | 0x20) == words[w][i])
      ++i;
    if (i == n)
      return true;
  }
  return false;
}

/* Read the field s[0..n) as a double; `what` names it in messages.  The
 * caller has made LC_NUMERIC "C" for this thread (modal_table_parse). */
static modal_table_status
read_number(const parser* const p, const char* const s, const size_t n,
            const char* const what, double* const value)
{
  const int shown = (int)utf8_prefix(s, n, TOKEN_SHOWN);
  const char* const more = (size_t)shown < n ? "..." : "";
  if (is_nonfinite_word(s, n))
    return fail(p, MODAL_TABLE_ERR_NOT_FINITE, "%s '%.*s' is not finite", what,
                shown, s);
  if (!is_decimal(s, n))
    return fail(p, MODAL_TABLE_ERR_NOT_A_NUMBER, "%s '%.*s%s' is not a number",
                what, shown, s, more);
  if (n > MODAL_TABLE_NUMBER_MAX)
    return fail(p, MODAL_TABLE_ERR_NOT_A_NUMBER,
                "%s '%.*s%s' is longer than %d characters", what, shown, s,
                more, MODAL_TABLE_NUMBER_MAX);
  char buf[MODAL_TABLE_NUMBER_MAX + 1];
  memcpy(buf, s, n);
  buf[n] = '\0';
  errno = 0;
  char* end = NULL;
  const double v = strtod(buf, &end);
  if (end != buf + n) /* the grammar above is strtod's; never here */
    return fail(p, MODAL_TABLE_ERR_NOT_A_NUMBER, "%s '%.*s' is not a number",
                what, shown, s);
  if (!isfinite(v))
    return fail(p, MODAL_TABLE_ERR_NOT_FINITE, "%s '%.*s' overflows a double",
                what, shown, s);
  /* underflow: a denormal or a zero that was not written as one */
  if (errno == ERANGE || (v != 0.0 && fabs(v) < DBL_MIN))
    return fail(p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                "%s '%.*s' is too small for a double", what, shown, s);
  *value = v == 0.0 ? 0.0 : v; /* -0 reads as 0 */
  return MODAL_TABLE_SUCCESS;
}

/* ---- lines ---- */

typedef struct {
  const char* s;
  size_t n;
} span;

static span
trim(span t)
{
  while (t.n && is_blank(*t.s)) {
    ++t.s;
    --t.n;
  }
  while (t.n && is_blank(t.s[t.n - 1]))
    --t.n;
  return t;
}

static bool
starts_with(const span t, const char* const key)
{
  const size_t len = strlen(key);
  return t.n >= len && !memcmp(t.s, key, len);
}

/* which part of a file is being read: a plain table, a keymap's headers
 * before its first zone, or one of its zones */
typedef enum { PART_TABLE, PART_KEYMAP_HEAD, PART_ZONE } part_kind;

typedef struct {
  part_kind part;
  modal_keymap_law* law;    /* PART_KEYMAP_HEAD: where the laws go */
  int law_line[2];          /* decay_law's and ratio_law's lines, 0 before */
  int name_line, root_line; /* where the headers were, 0 before */
  int fields_line;          /* the first mode line */
  int fields;               /* its field count, 3 or 4 */
  int shape_line;           /* the shape header's line, 0: no shapes */
  int nx, ny;               /* its samples along x and y (1 for 1-D) */
  bool want_shapes;         /* the caller takes them: keep the samples */
  modal_shapes* shapes;     /* where they go, allocated at the header */
} progress;

/* A whole number of samples in the shape header from v.s[i] on; it
 * stops growing past the limit, so that it cannot overflow.  The index
 * after its digits. */
static size_t
read_count(const span v, size_t i, long* const count)
{
  *count = 0;
  for (; i < v.n && is_digit(v.s[i]); ++i)
    if (*count <= MODAL_TABLE_MAX_SHAPE_VALUES)
      *count = *count * 10 + (v.s[i] - '0');
  return i;
}

/* `# shape: K` or `# shape: KxJ` (blanks around the x allowed). */
static modal_table_status
shape_header(const parser* const p, const span v, progress* const seen)
{
  if (seen->shape_line)
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                "second shape (the first is on line %d)", seen->shape_line);
  if (seen->fields_line)
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                "shape after the first mode (line %d): it says how many "
                "samples each mode line has, so it comes before them",
                seen->fields_line);
  if (!v.n)
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER, "empty shape");
  long nx = 0, ny = 1;
  size_t i = read_count(v, 0, &nx);
  bool ok = i > 0;
  const bool grid = ok && i < v.n;
  if (grid) {
    while (i < v.n && is_blank(v.s[i]))
      ++i;
    ok = i < v.n && v.s[i] == 'x';
    if (ok)
      ++i;
    while (i < v.n && is_blank(v.s[i]))
      ++i;
    const size_t start = i;
    i = read_count(v, i, &ny);
    ok = ok && i > start && i == v.n;
  }
  if (!ok)
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                "shape '%.*s' is not K or KxJ (whole numbers of samples "
                "along x, and along y)",
                (int)utf8_prefix(v.s, v.n, TOKEN_SHOWN), v.s);
  if (nx < MODAL_TABLE_MIN_SHAPE_POINTS)
    return fail(p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                "K = %ld: a shape needs at least %d samples along x (the "
                "ends x = 0 and x = 1)",
                nx, MODAL_TABLE_MIN_SHAPE_POINTS);
  if (grid && ny < MODAL_TABLE_MIN_SHAPE_POINTS)
    return fail(p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                "J = %ld: a grid needs at least %d rows along y (one row is "
                "'# shape: %ld')",
                ny, MODAL_TABLE_MIN_SHAPE_POINTS, nx);
  if (nx > MODAL_TABLE_MAX_SHAPE_VALUES || ny > MODAL_TABLE_MAX_SHAPE_VALUES ||
      nx * ny > MODAL_TABLE_MAX_SHAPE_VALUES)
    return fail(p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                "shape '%.*s' has more samples a mode than the %d a table "
                "may hold",
                (int)utf8_prefix(v.s, v.n, TOKEN_SHOWN), v.s,
                MODAL_TABLE_MAX_SHAPE_VALUES);
  /* the samples are kept aside until the whole text has parsed */
  if (seen->want_shapes) {
    seen->shapes = calloc(1, sizeof(*seen->shapes));
    if (!seen->shapes)
      return fail(p, MODAL_TABLE_ERR_NO_MEMORY, "no memory for the shapes");
    seen->shapes->nx = (int)nx;
    seen->shapes->ny = (int)ny;
  }
  seen->nx = (int)nx;
  seen->ny = (int)ny;
  seen->shape_line = p->line;
  return MODAL_TABLE_SUCCESS;
}

static modal_table_status check_range(const parser* p, span f, const char* what,
                                      double v, double lo, double hi,
                                      const char* unit);
static bool next_field(span body, size_t* i, span* f);

/* The keymap's laws, `# decay_law: P0 P1` and `# ratio_law: D`, each
 * once before the first zone. */
static modal_table_status
law_header(const parser* const p, span v, const int which, progress* const seen)
{
  static const char* const names[2] = {"decay_law", "ratio_law"};
  const int want = which == 0 ? 2 : 1;
  const double bound = which == 0 ? MODAL_KEYMAP_MAX_DECAY_EXPONENT
                                  : MODAL_KEYMAP_MAX_RATIO_DRIFT;
  if (seen->part != PART_KEYMAP_HEAD)
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                "%s inside a zone (a keymap's laws come before its first "
                "'# zone:')",
                names[which]);
  if (seen->law_line[which])
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                "second %s (the first is on line %d)", names[which],
                seen->law_line[which]);
  double x[2] = {0.0, 0.0};
  int n = 0;
  size_t i = 0;
  for (span f; next_field(v, &i, &f); ++n) {
    if (n == want)
      return fail(p, MODAL_TABLE_ERR_EXTRA_FIELD,
                  "%s takes %d number%s: extra '%.*s'", names[which], want,
                  want > 1 ? "s" : "", (int)utf8_prefix(f.s, f.n, TOKEN_SHOWN),
                  f.s);
    modal_table_status st = read_number(p, f.s, f.n, names[which], &x[n]);
    if (st)
      return st;
    if ((st = check_range(p, f, names[which], x[n], -bound, bound, "")))
      return st;
  }
  if (n < want)
    return fail(p, MODAL_TABLE_ERR_MISSING_FIELD, "%s takes %d number%s (%s)",
                names[which], want, want > 1 ? "s" : "",
                which == 0 ? "P0 P1: t_e ~ f^-(P0 + P1 log2 ratio)"
                           : "D: log2 ratio grows by D an octave");
  if (which == 0) {
    seen->law->decay_exponent = x[0];
    seen->law->decay_slope = x[1];
  } else
    seen->law->ratio_drift = x[0];
  seen->law_line[which] = p->line;
  return MODAL_TABLE_SUCCESS;
}

/* The headers a keymap's parts take, or refuse, beyond a table's. */
static modal_table_status
keymap_header(const parser* const p, const span body, progress* const seen)
{
  if (starts_with(body, "decay_law:"))
    return law_header(p, trim((span){body.s + 10, body.n - 10}), 0, seen);
  if (starts_with(body, "ratio_law:"))
    return law_header(p, trim((span){body.s + 10, body.n - 10}), 1, seen);
  if (starts_with(body, "root:"))
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                "root in a keymap (each '# zone: NOTE' is its zone's root)");
  if (starts_with(body, "shape:"))
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                "shape in a keymap (a keymap's zones have no shapes)");
  return MODAL_TABLE_SUCCESS;
}

/* A comment line `# key: value`; other comments are skipped. */
static modal_table_status
header_line(const parser* const p, span body, progress* const seen,
            modal_table* const t)
{
  body = trim(body);
  if (seen->part != PART_TABLE) {
    const modal_table_status st = keymap_header(p, body, seen);
    if (st)
      return st;
  }
  if (seen->part == PART_TABLE && starts_with(body, "zone:"))
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                "a keymap's zone in a table (a keymap loads as one: "
                "modal_keymap.h)");
  if (starts_with(body, "name:")) {
    if (seen->name_line)
      return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                  "second name (the first is on line %d)", seen->name_line);
    const span v = trim((span){body.s + 5, body.n - 5});
    if (!v.n)
      return fail(p, MODAL_TABLE_ERR_BAD_HEADER, "empty name");
    if (v.n >= MODAL_TABLE_NAME_SIZE)
      return fail(p, MODAL_TABLE_ERR_BAD_HEADER, "name longer than %d bytes",
                  MODAL_TABLE_NAME_SIZE - 1);
    for (size_t i = 0; i < v.n; ++i)
      if ((unsigned char)v.s[i] < 0x20)
        return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                    "name has control byte 0x%02X (a tab?)",
                    (unsigned char)v.s[i]);
    memcpy(t->name, v.s, v.n);
    t->name[v.n] = '\0';
    seen->name_line = p->line;
  } else if (starts_with(body, "root:")) {
    if (seen->root_line)
      return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                  "second root (the first is on line %d)", seen->root_line);
    const span v = trim((span){body.s + 5, body.n - 5});
    if (!v.n)
      return fail(p, MODAL_TABLE_ERR_BAD_HEADER, "empty root");
    double root = 0.0;
    const modal_table_status st = read_number(p, v.s, v.n, "root", &root);
    if (st)
      return st;
    if (!(root >= 0.0 && root <= MODAL_TABLE_MAX_ROOT))
      return fail(p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                  "root %.*s is not a MIDI note (0 to 127)",
                  (int)utf8_prefix(v.s, v.n, TOKEN_SHOWN), v.s);
    t->root = root;
    seen->root_line = p->line;
  } else if (starts_with(body, "shape:"))
    return shape_header(p, trim((span){body.s + 6, body.n - 6}), seen);
  return MODAL_TABLE_SUCCESS;
}

static modal_table_status
check_range(const parser* const p, const span f, const char* const what,
            const double v, const double lo, const double hi,
            const char* const unit)
{
  if (v >= lo && v <= hi)
    return MODAL_TABLE_SUCCESS;
  const int shown = (int)utf8_prefix(f.s, f.n, TOKEN_SHOWN);
  return fail(p, MODAL_TABLE_ERR_OUT_OF_RANGE,
              "%s %.*s%s is out of range (%g to %g%s)", what, shown, f.s, unit,
              lo, hi, unit);
}

static const char* const field_names[] = {"frequency", "decay", "gain",
                                          "right_gain"};

/* The name of sample k (0-based) of a mode's shape, for messages. */
static const char*
sample_name(char* const out, const size_t size, const int k, const int nx,
            const int ny)
{
  if (ny == 1)
    snprintf(out, size, "sample %d", k + 1);
  else
    snprintf(out, size, "sample %d (column %d, row %d)", k + 1, k % nx + 1,
             k / nx + 1);
  return out;
}

/* Sample k of a mode: a number within +-MODAL_TABLE_MAX_PHI.  Its name is
 * only made when it is at fault (tables hold up to 2^15 samples). */
static modal_table_status
read_sample(const parser* const p, const span f, const int k,
            const progress* const seen, double* const value)
{
  parser quiet = *p;
  quiet.error = NULL;
  if (!read_number(&quiet, f.s, f.n, "", value) &&
      !check_range(&quiet, f, "", *value, -MODAL_TABLE_MAX_PHI,
                   MODAL_TABLE_MAX_PHI, ""))
    return MODAL_TABLE_SUCCESS;
  char what[64];
  sample_name(what, sizeof(what), k, seen->nx, seen->ny);
  modal_table_status st = read_number(p, f.s, f.n, what, value);
  if (!st)
    st = check_range(p, f, what, *value, -MODAL_TABLE_MAX_PHI,
                     MODAL_TABLE_MAX_PHI, "");
  return st;
}

/* The next blank-separated field of body from *i on; false at the end. */
static bool
next_field(const span body, size_t* const i, span* const f)
{
  while (*i < body.n && is_blank(body.s[*i]))
    ++*i;
  if (*i == body.n)
    return false;
  const size_t start = *i;
  while (*i < body.n && !is_blank(body.s[*i]))
    ++*i;
  *f = (span){body.s + start, *i - start};
  return true;
}

/* A mode line under a shape header: frequency decay gain and exactly
 * nx * ny samples.  The count is checked first (a line cut short or run
 * on), then the fields from left to right. */
static modal_table_status
shaped_mode_line(const parser* const p, const span body, progress* const seen,
                 modal_table* const t)
{
  const int per_mode = seen->nx * seen->ny;
  const int want = 3 + per_mode;
  if (t->count == MODAL_MAX_MODES)
    return fail(p, MODAL_TABLE_ERR_TOO_MANY_MODES, "more than %d modes",
                MODAL_MAX_MODES);
  if ((t->count + 1) * per_mode > MODAL_TABLE_MAX_SHAPE_VALUES)
    return fail(p, MODAL_TABLE_ERR_TOO_MANY_MODES,
                "more than %d modes of %d samples (a table holds at most %d "
                "samples)",
                MODAL_TABLE_MAX_SHAPE_VALUES / per_mode, per_mode,
                MODAL_TABLE_MAX_SHAPE_VALUES);
  span f[3];
  int nf = 0;
  size_t i = 0;
  for (span field; next_field(body, &i, &field); ++nf)
    if (nf < 3)
      f[nf] = field;
  if (nf > want)
    return fail(p, MODAL_TABLE_ERR_EXTRA_FIELD,
                "%d fields where the shape on line %d needs %d: frequency "
                "decay gain and %d samples (no right_gain: the shapes give "
                "both pickups)",
                nf, seen->shape_line, want, per_mode);
  if (nf < 3) {
    for (int k = 0; k < nf; ++k) {
      double v;
      const modal_table_status st =
          read_number(p, f[k].s, f[k].n, field_names[k], &v);
      if (st)
        return st;
    }
    return fail(p, MODAL_TABLE_ERR_MISSING_FIELD,
                "%s missing (a mode is frequency decay gain and %d samples)",
                field_names[nf], per_mode);
  }
  if (nf < want)
    return fail(p, MODAL_TABLE_ERR_MISSING_FIELD,
                "%d samples where the shape on line %d needs %d", nf - 3,
                seen->shape_line, per_mode);

  double v[3];
  modal_table_status st;
  for (int k = 0; k < 3; ++k)
    if ((st = read_number(p, f[k].s, f[k].n, field_names[k], &v[k])))
      return st;
  if ((st = check_range(p, f[0], "frequency", v[0], MODAL_TABLE_MIN_FREQ,
                        MODAL_TABLE_MAX_FREQ, " Hz")) ||
      (st = check_range(p, f[1], "decay", v[1], MODAL_TABLE_MIN_DECAY,
                        MODAL_TABLE_MAX_DECAY, " s")) ||
      (st = check_range(p, f[2], "gain", v[2], 0.0, MODAL_TABLE_MAX_GAIN, "")))
    return st;
  /* the samples, past the three fields */
  double* const out =
      seen->shapes ? seen->shapes->value + (size_t)t->count * per_mode : NULL;
  i = (size_t)(f[2].s + f[2].n - body.s);
  span field;
  for (int k = 0; k < per_mode && next_field(body, &i, &field); ++k) {
    double phi = 0.0;
    if ((st = read_sample(p, field, k, seen, &phi)))
      return st;
    if (out)
      out[k] = phi;
  }

  const int n = t->count++;
  t->freq[n] = v[0];
  t->decay[n] = v[1];
  t->gain[n] = v[2];
  return MODAL_TABLE_SUCCESS;
}

/* A mode line (comment already cut off): frequency decay gain [right]. */
static modal_table_status
mode_line(const parser* const p, const span body, progress* const seen,
          modal_table* const t)
{
  if (seen->shape_line)
    return shaped_mode_line(p, body, seen, t);
  span f[FIELDS_SEEN];
  int nf = 0;
  for (size_t i = 0; i < body.n && nf < FIELDS_SEEN;) {
    while (i < body.n && is_blank(body.s[i]))
      ++i;
    if (i == body.n)
      break;
    const size_t start = i;
    while (i < body.n && !is_blank(body.s[i]))
      ++i;
    f[nf++] = (span){body.s + start, i - start};
  }
  if (t->count == MODAL_MAX_MODES)
    return fail(p, MODAL_TABLE_ERR_TOO_MANY_MODES, "more than %d modes",
                MODAL_MAX_MODES);
  if (nf == FIELDS_SEEN)
    return fail(p, MODAL_TABLE_ERR_EXTRA_FIELD,
                "extra field '%.*s' (a mode is frequency decay gain "
                "[right_gain]; shape samples need a '# shape:' line before "
                "the modes)",
                (int)utf8_prefix(f[4].s, f[4].n, TOKEN_SHOWN), f[4].s);

  double v[4] = {0.0, 0.0, 0.0, 0.0};
  for (int k = 0; k < nf; ++k) {
    const modal_table_status st =
        read_number(p, f[k].s, f[k].n, field_names[k], &v[k]);
    if (st)
      return st;
  }
  if (nf < 3)
    return fail(p, MODAL_TABLE_ERR_MISSING_FIELD,
                "%s missing (a mode is frequency decay gain [right_gain])",
                field_names[nf]);
  /* all modes or none have a right_gain: a line that differs from the
   * first is more likely cut short or run on than meant */
  if (!seen->fields_line) {
    seen->fields_line = p->line;
    seen->fields = nf;
  } else if (nf != seen->fields)
    return fail(p,
                nf < seen->fields ? MODAL_TABLE_ERR_MISSING_FIELD
                                  : MODAL_TABLE_ERR_EXTRA_FIELD,
                "%d fields where line %d has %d (right_gain on every mode "
                "or on none)",
                nf, seen->fields_line, seen->fields);

  modal_table_status st;
  if ((st = check_range(p, f[0], "frequency", v[0], MODAL_TABLE_MIN_FREQ,
                        MODAL_TABLE_MAX_FREQ, " Hz")) ||
      (st = check_range(p, f[1], "decay", v[1], MODAL_TABLE_MIN_DECAY,
                        MODAL_TABLE_MAX_DECAY, " s")) ||
      (st =
           check_range(p, f[2], "gain", v[2], 0.0, MODAL_TABLE_MAX_GAIN, "")) ||
      (nf == 4 &&
       (st = check_range(p, f[3], "right_gain", v[3], -MODAL_TABLE_MAX_GAIN,
                         MODAL_TABLE_MAX_GAIN, ""))))
    return st;

  const int i = t->count++;
  t->freq[i] = v[0];
  t->decay[i] = v[1];
  t->gain[i] = v[2];
  t->right_gain[i] = v[3];
  t->has_right_gain = nf == 4;
  return MODAL_TABLE_SUCCESS;
}

/* The lines of text[0..length), counted on from p->line: headers and
 * modes into *t. */
static modal_table_status
parse_lines(parser* const p, const char* text, size_t length,
            modal_table* const t, progress* const seen)
{
  for (size_t pos = 0; pos < length;) {
    ++p->line;
    const char* const eol = memchr(text + pos, '\n', length - pos);
    const size_t end = eol ? (size_t)(eol - text) : length;
    const span line = trim((span){text + pos, end - pos});
    pos = end + 1;

    const char* const hash = memchr(line.s, '#', line.n);
    modal_table_status st = MODAL_TABLE_SUCCESS;
    if (hash == line.s)
      st = header_line(p, (span){line.s + 1, line.n - 1}, seen, t);
    else if (line.n && seen->part == PART_KEYMAP_HEAD)
      st = fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                "a mode before the keymap's first '# zone: NOTE'");
    else if (line.n)
      st = mode_line(p, (span){line.s, hash ? (size_t)(hash - line.s) : line.n},
                     seen, t);
    if (st)
      return st;
  }
  return MODAL_TABLE_SUCCESS;
}

/* The whole text's checks (size, bytes), its byte order mark skipped. */
static modal_table_status
check_whole(parser* const p, const char** text, size_t* length)
{
  if (*length > MODAL_TABLE_MAX_BYTES)
    return fail(p, MODAL_TABLE_ERR_TOO_LARGE,
                "%zu bytes, more than the %d a table may have", *length,
                MODAL_TABLE_MAX_BYTES);
  const modal_table_status st = check_text(p, *text, *length);
  if (st)
    return st;
  if (*length >= 3 && !memcmp(*text, "\xEF\xBB\xBF", 3)) {
    *text += 3;
    *length -= 3;
  }
  return MODAL_TABLE_SUCCESS;
}

static modal_table_status
parse_text(parser* const p, const char* text, size_t length,
           modal_table* const t, progress* const seen)
{
  modal_table_status st = check_whole(p, &text, &length);
  if (st)
    return st;
  p->line = 0;
  if ((st = parse_lines(p, text, length, t, seen)))
    return st;
  if (!t->count) {
    p->line = 0;
    return fail(p, MODAL_TABLE_ERR_NO_MODES,
                "no modes (a mode is a line: frequency decay gain "
                "[right_gain])");
  }
  return MODAL_TABLE_SUCCESS;
}

/* strtod and snprintf read the decimal point from LC_NUMERIC; this
 * thread's locale is "C" between the two calls (uselocale is per thread,
 * so a host's locale and other threads are left alone). */
typedef struct {
  locale_t c, old;
} c_locale;

static bool
c_locale_enter(c_locale* const l)
{
  l->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  if (l->c == (locale_t)0)
    return false;
  l->old = uselocale(l->c);
  return true;
}

static void
c_locale_leave(const c_locale* const l)
{
  uselocale(l->old);
  freelocale(l->c);
}

modal_table_status
modal_table_parse_shapes(const char* const text, const size_t length,
                         const char* const source, modal_table* const table,
                         modal_shapes* const shapes,
                         modal_table_error* const error)
{
  parser p = {source, error, 0};
  if (error) {
    error->status = MODAL_TABLE_SUCCESS;
    error->line = 0;
    error->message[0] = '\0';
  }
  c_locale locale;
  if (!c_locale_enter(&locale))
    return fail(&p, MODAL_TABLE_ERR_NO_MEMORY, "no C locale");
  /* parsed aside, so that a bad file leaves the caller's table (and
   * shapes) as they were */
  modal_table t;
  modal_table_init(&t);
  progress seen = {0};
  seen.want_shapes = shapes != NULL;
  const modal_table_status st = parse_text(&p, text, length, &t, &seen);
  c_locale_leave(&locale);
  if (!st) {
    *table = t;
    if (shapes && seen.shapes)
      *shapes = *seen.shapes;
    else if (shapes)
      modal_shapes_init(shapes);
  }
  free(seen.shapes);
  return st;
}

modal_table_status
modal_table_parse(const char* const text, const size_t length,
                  const char* const source, modal_table* const table,
                  modal_table_error* const error)
{
  return modal_table_parse_shapes(text, length, source, table, NULL, error);
}

/* ---- keymaps (modal_keymap.h) ---- */

/* Whether `line` is a `# zone: NOTE` header; NOTE's text in *v. */
static bool
zone_header(span line, span* const v)
{
  line = trim(line);
  if (!line.n || line.s[0] != '#')
    return false;
  const span body = trim((span){line.s + 1, line.n - 1});
  if (!starts_with(body, "zone:"))
    return false;
  *v = trim((span){body.s + 5, body.n - 5});
  return true;
}

/* A zone's header line, and where its line starts and ends in the text. */
typedef struct {
  int line;
  size_t start, end; /* end: past its newline */
  span note;
} zone_mark;

/* The keymap's zones into *m, the text already checked as a whole. */
static modal_table_status
parse_zones(parser* const p, const char* const text, const size_t length,
            modal_keymap* const m, const zone_mark* const marks,
            const int zones)
{
  /* the headers before the first zone: name and laws */
  modal_table head;
  modal_table_init(&head);
  progress seen = {.part = PART_KEYMAP_HEAD, .law = &m->law};
  p->line = 0;
  modal_table_status st = parse_lines(p, text, marks[0].start, &head, &seen);
  if (st)
    return st;
  memcpy(m->name, head.name, sizeof(m->name));
  for (int k = 0; k < zones; ++k) {
    p->line = marks[k].line;
    if (k == MODAL_KEYMAP_MAX_ZONES)
      return fail(p, MODAL_TABLE_ERR_TOO_MANY_MODES,
                  "more than %d zones in a keymap", MODAL_KEYMAP_MAX_ZONES);
    modal_table* const t = &m->zone[k];
    modal_table_init(t);
    const span v = marks[k].note;
    double root = 0.0;
    if (!v.n)
      return fail(p, MODAL_TABLE_ERR_BAD_HEADER, "empty zone (its root note)");
    if ((st = read_number(p, v.s, v.n, "zone", &root)))
      return st;
    if (!(root >= 0.0 && root <= MODAL_TABLE_MAX_ROOT))
      return fail(p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                  "zone %.*s is not a MIDI note (0 to 127)",
                  (int)utf8_prefix(v.s, v.n, TOKEN_SHOWN), v.s);
    if (k > 0 && !(root > m->zone[k - 1].root))
      return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                  "zone %.*s not above the zone on line %d (zones rise)",
                  (int)utf8_prefix(v.s, v.n, TOKEN_SHOWN), v.s,
                  marks[k - 1].line);
    const size_t end = k + 1 < zones ? marks[k + 1].start : length;
    progress zone = {.part = PART_ZONE};
    if ((st =
             parse_lines(p, text + marks[k].end, end - marks[k].end, t, &zone)))
      return st;
    if (!t->count) {
      p->line = marks[k].line;
      return fail(p, MODAL_TABLE_ERR_NO_MODES, "zone %.*s has no modes",
                  (int)utf8_prefix(v.s, v.n, TOKEN_SHOWN), v.s);
    }
    t->root = root;
    m->zones = k + 1;
  }
  m->is_keymap = true;
  return MODAL_TABLE_SUCCESS;
}

modal_table_status
modal_keymap_parse(const char* text, size_t length, const char* const source,
                   modal_keymap* const map, modal_shapes* const shapes,
                   modal_table_error* const error)
{
  parser p = {source, error, 0};
  if (error) {
    error->status = MODAL_TABLE_SUCCESS;
    error->line = 0;
    error->message[0] = '\0';
  }
  /* a plain table is parsed from the whole text, as modal_table_parse()
   * would: its byte order mark skipped there once, not here and again */
  const char* const whole = text;
  const size_t whole_length = length;
  modal_table_status st = check_whole(&p, &text, &length);
  if (st)
    return st;
  /* the zone headers: one more than a keymap may have is enough to say so */
  zone_mark marks[MODAL_KEYMAP_MAX_ZONES + 1];
  int zones = 0, line = 0;
  for (size_t pos = 0; pos < length && zones <= MODAL_KEYMAP_MAX_ZONES;) {
    ++line;
    const char* const eol = memchr(text + pos, '\n', length - pos);
    const size_t end = eol ? (size_t)(eol - text) : length;
    span v;
    if (zone_header((span){text + pos, end - pos}, &v))
      marks[zones++] = (zone_mark){line, pos, eol ? end + 1 : end, v};
    pos = end + 1;
  }
  /* aside, so that a bad file leaves the caller's keymap as it was */
  modal_keymap* const m = malloc(sizeof(*m));
  if (!m)
    return fail(&p, MODAL_TABLE_ERR_NO_MEMORY, "no memory for a keymap");
  modal_keymap_init(m);
  if (!zones) { /* a plain table: one zone, constant q */
    st = modal_table_parse_shapes(whole, whole_length, source, &m->zone[0],
                                  shapes, error);
    if (!st) {
      m->zones = 1;
      memcpy(m->name, m->zone[0].name, sizeof(m->name));
      *map = *m;
    }
    free(m);
    return st;
  }
  c_locale locale;
  if (!c_locale_enter(&locale)) {
    free(m);
    return fail(&p, MODAL_TABLE_ERR_NO_MEMORY, "no C locale");
  }
  st = parse_zones(&p, text, length, m, marks, zones);
  c_locale_leave(&locale);
  if (!st) {
    *map = *m;
    if (shapes)
      modal_shapes_init(shapes);
  }
  free(m);
  return st;
}

/* ---- loader ---- */

static modal_table_status
fail_errno(const char* const path, modal_table_error* const error,
           const modal_table_status status, const char* const what,
           const int err)
{
  char reason[128];
  if (strerror_r(err, reason, sizeof(reason)))
    snprintf(reason, sizeof(reason), "error %d", err);
  return fail_file(path, error, status, "%s: %s", what, reason);
}

/* The file at `path`, whole, into a buffer the caller frees (*text). */
static modal_table_status
read_file(const char* const path, modal_table_error* const error,
          char** const text, size_t* const length)
{
  if (error) {
    error->status = MODAL_TABLE_SUCCESS;
    error->line = 0;
    error->message[0] = '\0';
  }
  *text = NULL;
  /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
   * below, like every other file that is not regular */
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return fail_errno(path, error, MODAL_TABLE_ERR_OPEN, "cannot open", errno);
  struct stat st;
  if (fstat(fd, &st)) {
    const int err = errno;
    close(fd);
    return fail_errno(path, error, MODAL_TABLE_ERR_OPEN, "cannot stat", err);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return fail_file(path, error, MODAL_TABLE_ERR_NOT_REGULAR, "%s",
                     S_ISDIR(st.st_mode) ? "is a directory"
                                         : "is not a regular file");
  }
  if (st.st_size > MODAL_TABLE_MAX_BYTES) {
    close(fd);
    return fail_file(path, error, MODAL_TABLE_ERR_TOO_LARGE,
                     "%jd bytes, more than the %d a table may have",
                     (intmax_t)st.st_size, MODAL_TABLE_MAX_BYTES);
  }
  /* one byte more than stat said, to see a file that grew meanwhile */
  const size_t size = (size_t)st.st_size;
  char* const buf = malloc(size + 1);
  if (!buf) {
    close(fd);
    return fail_file(path, error, MODAL_TABLE_ERR_NO_MEMORY,
                     "no memory for %zu bytes", size + 1);
  }
  size_t got = 0;
  while (got < size + 1) {
    const ssize_t r = read(fd, buf + got, size + 1 - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      const int err = errno;
      free(buf);
      close(fd);
      return fail_errno(path, error, MODAL_TABLE_ERR_READ, "cannot read", err);
    }
    if (r == 0)
      break;
    got += (size_t)r;
  }
  close(fd);
  if (got != size) {
    free(buf);
    return fail_file(path, error, MODAL_TABLE_ERR_READ,
                     "changed while it was read (%zu bytes, then %s%zu)", size,
                     got > size ? "over " : "", got);
  }
  *text = buf;
  *length = got;
  return MODAL_TABLE_SUCCESS;
}

modal_table_status
modal_table_load_shapes(const char* const path, modal_table* const table,
                        modal_shapes* const shapes,
                        modal_table_error* const error)
{
  char* text;
  size_t length;
  modal_table_status status = read_file(path, error, &text, &length);
  if (!status)
    status = modal_table_parse_shapes(text, length, path, table, shapes, error);
  free(text);
  return status;
}

modal_table_status
modal_keymap_load(const char* const path, modal_keymap* const map,
                  modal_shapes* const shapes, modal_table_error* const error)
{
  char* text;
  size_t length;
  modal_table_status status = read_file(path, error, &text, &length);
  if (!status)
    status = modal_keymap_parse(text, length, path, map, shapes, error);
  free(text);
  return status;
}

modal_table_status
modal_table_load(const char* const path, modal_table* const table,
                 modal_table_error* const error)
{
  return modal_table_load_shapes(path, table, NULL, error);
}

/* ---- check and writer ---- */

static modal_table_status check_name(const parser* p, const char* name);

modal_table_status
modal_table_check(const modal_table* const t, modal_table_error* const error)
{
  const parser p = {"table", error, 0};
  if (t->count < 1)
    return fail(&p, MODAL_TABLE_ERR_NO_MODES, "no modes");
  if (t->count > MODAL_MAX_MODES)
    return fail(&p, MODAL_TABLE_ERR_TOO_MANY_MODES, "%d modes, more than %d",
                t->count, MODAL_MAX_MODES);
  for (int i = 0; i < t->count; ++i) {
    const double lo[4] = {MODAL_TABLE_MIN_FREQ, MODAL_TABLE_MIN_DECAY, 0.0,
                          -MODAL_TABLE_MAX_GAIN};
    const double hi[4] = {MODAL_TABLE_MAX_FREQ, MODAL_TABLE_MAX_DECAY,
                          MODAL_TABLE_MAX_GAIN, MODAL_TABLE_MAX_GAIN};
    const double v[4] = {t->freq[i], t->decay[i], t->gain[i], t->right_gain[i]};
    for (int k = 0; k < (t->has_right_gain ? 4 : 3); ++k) {
      if (!isfinite(v[k]))
        return fail(&p, MODAL_TABLE_ERR_NOT_FINITE, "mode %d: %s is not finite",
                    i + 1, field_names[k]);
      if (!(v[k] >= lo[k] && v[k] <= hi[k]) ||
          (v[k] != 0.0 && fabs(v[k]) < DBL_MIN))
        return fail(&p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                    "mode %d: %s %g is out of range (%g to %g)", i + 1,
                    field_names[k], v[k], lo[k], hi[k]);
    }
  }
  if (t->root != MODAL_TABLE_NO_ROOT &&
      !(t->root >= 0.0 && t->root <= MODAL_TABLE_MAX_ROOT))
    return fail(&p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                "root %g is not a MIDI note (0 to 127)", t->root);
  if (t->root != 0.0 && fabs(t->root) < DBL_MIN)
    return fail(&p, MODAL_TABLE_ERR_OUT_OF_RANGE, "root is denormal");
  return check_name(&p, t->name);
}

/* A name must read back as written: one line of text, no blanks at its
 * ends (the parser trims them). */
static modal_table_status
check_name(const parser* const p, const char* const name)
{
  const size_t n = strnlen(name, MODAL_TABLE_NAME_SIZE);
  if (n == MODAL_TABLE_NAME_SIZE)
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER, "name not terminated");
  for (size_t i = 0; i < n;) {
    const unsigned char c = (unsigned char)name[i];
    size_t len = 0;
    if (c >= 0x20 && c != 0x7F)
      len = utf8_char((const unsigned char*)name + i, n - i);
    if (!len)
      return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                  "name has byte 0x%02X, not one line of UTF-8 text", c);
    i += len;
  }
  if (n && (is_blank(name[0]) || is_blank(name[n - 1])))
    return fail(p, MODAL_TABLE_ERR_BAD_HEADER,
                "name begins or ends with a blank");
  return MODAL_TABLE_SUCCESS;
}

modal_table_status
modal_table_check_shapes(const modal_table* const t,
                         const modal_shapes* const s,
                         modal_table_error* const error)
{
  modal_table_status st = modal_table_check(t, error);
  if (st || !s || !s->nx)
    return st;
  const parser p = {"table", error, 0};
  if (s->nx < MODAL_TABLE_MIN_SHAPE_POINTS || s->ny < 1 ||
      s->nx > MODAL_TABLE_MAX_SHAPE_VALUES ||
      s->ny > MODAL_TABLE_MAX_SHAPE_VALUES ||
      (s->ny > 1 && s->ny < MODAL_TABLE_MIN_SHAPE_POINTS))
    return fail(&p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                "shape of %d x %d samples (at least %d along x; 1 row, or "
                "at least %d)",
                s->nx, s->ny, MODAL_TABLE_MIN_SHAPE_POINTS,
                MODAL_TABLE_MIN_SHAPE_POINTS);
  const int per_mode = s->nx * s->ny;
  if (per_mode > MODAL_TABLE_MAX_SHAPE_VALUES / t->count)
    return fail(&p, MODAL_TABLE_ERR_TOO_MANY_MODES,
                "%d modes of %d samples, more than the %d a table may hold",
                t->count, per_mode, MODAL_TABLE_MAX_SHAPE_VALUES);
  if (t->has_right_gain)
    return fail(&p, MODAL_TABLE_ERR_EXTRA_FIELD,
                "right_gain with shapes (the shapes give both pickups)");
  for (int k = 0; k < t->count * per_mode; ++k) {
    const double v = s->value[k];
    char what[64];
    if (!isfinite(v))
      return fail(&p, MODAL_TABLE_ERR_NOT_FINITE, "mode %d: %s is not finite",
                  k / per_mode + 1,
                  sample_name(what, sizeof(what), k % per_mode, s->nx, s->ny));
    if (!(fabs(v) <= MODAL_TABLE_MAX_PHI))
      return fail(&p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                  "mode %d: %s %g is out of range (%g to %g)", k / per_mode + 1,
                  sample_name(what, sizeof(what), k % per_mode, s->nx, s->ny),
                  v, -MODAL_TABLE_MAX_PHI, MODAL_TABLE_MAX_PHI);
    /* the parser refuses a denormal: it would not read back */
    if (v != 0.0 && fabs(v) < DBL_MIN)
      return fail(&p, MODAL_TABLE_ERR_OUT_OF_RANGE, "mode %d: %s is denormal",
                  k / per_mode + 1,
                  sample_name(what, sizeof(what), k % per_mode, s->nx, s->ny));
  }
  return MODAL_TABLE_SUCCESS;
}

/* The shortest of %.15g .. %.17g that reads back as v (%.17g always
 * does): tables stay readable and round-trip exactly. */
static int
format_number(char* const out, const size_t size, double v)
{
  if (v == 0.0)
    v = 0.0; /* "0", not "-0": the parser reads both as +0 */
  int n = 0;
  for (int digits = 15; digits <= 17; ++digits) {
    n = snprintf(out, size, "%.*g", digits, v);
    if (strtod(out, NULL) == v)
      break;
  }
  return n;
}

typedef struct {
  char* buf;
  size_t size, used;
  bool full;
} text_out;

static void PRINTF_LIKE(2, 3) put(text_out* const o, const char* const fmt, ...)
{
  if (o->full)
    return;
  va_list args;
  va_start(args, fmt);
  const int n = vsnprintf(o->buf + o->used, o->size - o->used, fmt, args);
  va_end(args);
  if (n < 0 || (size_t)n >= o->size - o->used)
    o->full = true;
  else
    o->used += (size_t)n;
}

/* whatever the writer writes loads again */
_Static_assert(MODAL_TABLE_SHAPES_TEXT_MAX - 1 <= MODAL_TABLE_MAX_BYTES,
               "a written table with shapes would be refused when loaded");

size_t
modal_table_text_size(const modal_table* const t, const modal_shapes* const s)
{
  if (!s || s->nx <= 0 || s->ny <= 0)
    return MODAL_TABLE_TEXT_MAX;
  const long modes = t->count < 0 ? 0 : t->count;
  long values = (long)s->nx * s->ny;
  if (s->nx > MODAL_TABLE_MAX_SHAPE_VALUES ||
      s->ny > MODAL_TABLE_MAX_SHAPE_VALUES ||
      values > MODAL_TABLE_MAX_SHAPE_VALUES / (modes ? modes : 1))
    return MODAL_TABLE_SHAPES_TEXT_MAX; /* the writer refuses these */
  values *= modes;
  return MODAL_TABLE_TEXT_MAX + 256 + (size_t)values * MODAL_TABLE_SAMPLE_TEXT;
}

modal_table_status
modal_table_write_shapes(const modal_table* const t,
                         const modal_shapes* const s, char* const buffer,
                         const size_t size, size_t* const length)
{
  if (length)
    *length = 0;
  if (size)
    buffer[0] = '\0';
  modal_table_status st = modal_table_check_shapes(t, s, NULL);
  if (st)
    return st;
  const bool shaped = s && s->nx;
  c_locale locale;
  if (!c_locale_enter(&locale))
    return MODAL_TABLE_ERR_NO_MEMORY;
  text_out o = {buffer, size, 0, size == 0};
  char num[4][32];
  if (t->name[0])
    put(&o, "# name: %s\n", t->name);
  if (t->root != MODAL_TABLE_NO_ROOT) {
    format_number(num[0], sizeof(num[0]), t->root);
    put(&o, "# root: %s\n", num[0]);
  }
  if (!shaped)
    put(&o, "# frequency_Hz decay_s gain%s\n",
        t->has_right_gain ? " right_gain" : "");
  else if (s->ny == 1)
    put(&o,
        "# shape: %d\n"
        "# frequency_Hz decay_s gain, phi at x = i/%d for i = 0..%d\n",
        s->nx, s->nx - 1, s->nx - 1);
  else
    put(&o,
        "# shape: %dx%d\n"
        "# frequency_Hz decay_s gain, phi at (x, y) = (i/%d, j/%d) for "
        "j = 0..%d, i = 0..%d\n",
        s->nx, s->ny, s->nx - 1, s->ny - 1, s->ny - 1, s->nx - 1);
  const int per_mode = shaped ? s->nx * s->ny : 0;
  for (int i = 0; i < t->count; ++i) {
    format_number(num[0], sizeof(num[0]), t->freq[i]);
    format_number(num[1], sizeof(num[1]), t->decay[i]);
    format_number(num[2], sizeof(num[2]), t->gain[i]);
    if (t->has_right_gain) {
      format_number(num[3], sizeof(num[3]), t->right_gain[i]);
      put(&o, "%s %s %s %s\n", num[0], num[1], num[2], num[3]);
    } else if (!shaped)
      put(&o, "%s %s %s\n", num[0], num[1], num[2]);
    else {
      put(&o, "%s %s %s", num[0], num[1], num[2]);
      const double* const phi = s->value + (size_t)i * per_mode;
      for (int k = 0; k < per_mode; ++k) {
        format_number(num[3], sizeof(num[3]), phi[k]);
        put(&o, " %s", num[3]);
      }
      put(&o, "\n");
    }
  }
  c_locale_leave(&locale);
  if (o.full) {
    if (size)
      buffer[0] = '\0';
    return MODAL_TABLE_ERR_NO_SPACE;
  }
  if (length)
    *length = o.used;
  return MODAL_TABLE_SUCCESS;
}

modal_table_status
modal_table_write(const modal_table* const t, char* const buffer,
                  const size_t size, size_t* const length)
{
  return modal_table_write_shapes(t, NULL, buffer, size, length);
}

/* ---- keymaps: check and writer (modal_keymap.h) ---- */

modal_table_status
modal_keymap_check(const modal_keymap* const m, modal_table_error* const error)
{
  const parser p = {"keymap", error, 0};
  if (!m->is_keymap)
    return m->zones == 1 ? modal_table_check(&m->zone[0], error)
                         : fail(&p, MODAL_TABLE_ERR_TOO_MANY_MODES,
                                "a plain table of %d zones", m->zones);
  if (m->zones < 1 || m->zones > MODAL_KEYMAP_MAX_ZONES)
    return fail(&p, MODAL_TABLE_ERR_TOO_MANY_MODES,
                "%d zones (1 to %d in a keymap)", m->zones,
                MODAL_KEYMAP_MAX_ZONES);
  const double law[3] = {m->law.decay_exponent, m->law.decay_slope,
                         m->law.ratio_drift};
  const double bound[3] = {MODAL_KEYMAP_MAX_DECAY_EXPONENT,
                           MODAL_KEYMAP_MAX_DECAY_EXPONENT,
                           MODAL_KEYMAP_MAX_RATIO_DRIFT};
  static const char* const law_names[3] = {"decay exponent", "decay slope",
                                           "ratio drift"};
  for (int k = 0; k < 3; ++k) {
    if (!isfinite(law[k]))
      return fail(&p, MODAL_TABLE_ERR_NOT_FINITE, "law's %s is not finite",
                  law_names[k]);
    if (!(fabs(law[k]) <= bound[k]) ||
        (law[k] != 0.0 && fabs(law[k]) < DBL_MIN))
      return fail(&p, MODAL_TABLE_ERR_OUT_OF_RANGE,
                  "law's %s %g is out of range (%g to %g)", law_names[k],
                  law[k], -bound[k], bound[k]);
  }
  modal_table_status st = check_name(&p, m->name);
  if (st)
    return st;
  for (int k = 0; k < m->zones; ++k) {
    const modal_table* const t = &m->zone[k];
    if ((st = modal_table_check(t, error)))
      return st;
    if (t->root == MODAL_TABLE_NO_ROOT)
      return fail(&p, MODAL_TABLE_ERR_BAD_HEADER, "zone %d has no root", k + 1);
    if (k > 0 && !(t->root > m->zone[k - 1].root))
      return fail(&p, MODAL_TABLE_ERR_BAD_HEADER,
                  "zone %d's root %g not above zone %d's (zones rise)", k + 1,
                  t->root, k);
  }
  return MODAL_TABLE_SUCCESS;
}

modal_table_status
modal_keymap_write(const modal_keymap* const m, char* const buffer,
                   const size_t size, size_t* const length)
{
  if (!m->is_keymap && m->zones == 1)
    return modal_table_write(&m->zone[0], buffer, size, length);
  if (length)
    *length = 0;
  if (size)
    buffer[0] = '\0';
  modal_table_status st = modal_keymap_check(m, NULL);
  if (st)
    return st;
  c_locale locale;
  if (!c_locale_enter(&locale))
    return MODAL_TABLE_ERR_NO_MEMORY;
  text_out o = {buffer, size, 0, size == 0};
  char num[2][32];
  if (m->name[0])
    put(&o, "# name: %s\n", m->name);
  format_number(num[0], sizeof(num[0]), m->law.decay_exponent);
  format_number(num[1], sizeof(num[1]), m->law.decay_slope);
  put(&o, "# decay_law: %s %s\n", num[0], num[1]);
  format_number(num[0], sizeof(num[0]), m->law.ratio_drift);
  put(&o, "# ratio_law: %s\n", num[0]);
  for (int k = 0; k < m->zones && !o.full; ++k) {
    modal_table zone = m->zone[k];
    zone.root = MODAL_TABLE_NO_ROOT; /* the zone header is its root */
    format_number(num[0], sizeof(num[0]), m->zone[k].root);
    put(&o, "# zone: %s\n", num[0]);
    size_t n = 0;
    if (!o.full && modal_table_write(&zone, o.buf + o.used, o.size - o.used,
                                     &n) != MODAL_TABLE_SUCCESS)
      o.full = true;
    o.used += n;
  }
  c_locale_leave(&locale);
  if (o.full) {
    if (size)
      buffer[0] = '\0';
    return MODAL_TABLE_ERR_NO_SPACE;
  }
  if (length)
    *length = o.used;
  return MODAL_TABLE_SUCCESS;
}
