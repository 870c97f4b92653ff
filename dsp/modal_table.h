/* SPDX-License-Identifier: ISC */
/*
 * Modal table files: the modes of an object ([ch8] 8.2) as plain text.
 *
 *     # name: Church bell
 *     # root: 48
 *     # frequency_Hz  decay_s  gain  right_gain
 *     65.406  19.47  1    1
 *     130.81  9.733  0.5  0.5    # prime
 *
 * One mode per line: frequency in Hz, 1/e amplitude decay time t_e in
 * seconds (q = pi f t_e, [material] table 2), gain, and optionally
 * right_gain, separated by spaces or tabs.  The gain is 1 / modal mass at
 * the interaction point relative to the object's mass ([ch8] 8.2.2), as
 * the plugins' mode ports use it: with mode shapes normalised to the
 * object's mass, phi(p)^2 at the struck point p.  right_gain is
 * phi(p) phi(q), the same weight from the struck point to the second
 * pickup q: it may be negative (q moves against p, across a nodal line).
 * Either every mode line has a right_gain or none has.  The plugins hear
 * their right output at q, mode l with weight 1 + width (rho_l - 1),
 * rho_l = right_gain / gain (modal_set_pickup_shape()); without
 * right_gain, at the mirror image of p (modal.h).
 *
 * `#` starts a comment, on a line of its own or after a mode.  Blank lines
 * are skipped.  Comment lines of three forms are headers, each at most
 * once: `# shape:` before the first mode (below), these two anywhere:
 *     # name: TEXT    the table's name, to the end of the line (UTF-8,
 *                     at most MODAL_TABLE_NAME_SIZE - 1 bytes)
 *     # root: NOTE    the MIDI note the table sounds at, 0..127 (a
 *                     fraction is a detuning: 60.5 is a quarter tone up)
 * (lowercase key, colon), so a table stays a plain column file that any
 * tool skipping `#` comments reads (numpy.loadtxt, gnuplot).  Numbers are
 * decimal with `.` as the point whatever the locale: [+-]digits[.digits]
 * [e[+-]digits]; no hex, no nan or inf.  Lines end in LF or CRLF; a UTF-8
 * byte order mark at the start is skipped.  Up to MODAL_MAX_MODES modes.
 *
 * Limits, each checked with the line it is broken on: see the
 * MODAL_TABLE_ constants below.  A table frequency above the Nyquist
 * frequency of the rate it is played at is not an error: the DSP disables
 * such modes at render time (MODAL_MAX_FREQ_RATIO), and a transposed note
 * may bring them down.
 *
 * Mode shapes (optional): a header line
 *     # shape: K      K samples of each mode's shape phi_n along x, at
 *                     x = 0, 1/(K-1), ..., 1
 *     # shape: KxJ    a grid, K along x and J rows along y (y = 0 first)
 * before the first mode line makes every mode line carry exactly K (or
 * K * J, x fastest) samples after its gain, as more columns:
 *     # shape: 5
 *     # frequency_Hz decay_s gain, phi at x = i/4 for i = 0..4
 *     261.63  1.8  1    1  -0.0992  -0.6078  -0.0992   1
 *     721.2   0.65 0.4  1  -0.5847   0        0.5847  -1
 * Columns rather than `# phi:` comment lines after each mode: the file
 * stays one matrix, one row a mode, that numpy.loadtxt reads whole
 * (samples = rows[:, 3:].reshape(-1, J, K)); comments keep carrying no
 * data but the headers; a line's sample count is checked on the line
 * itself, with no rule about which comment belongs to which mode; and a
 * parser that predates shapes refuses such a file ("extra field") rather
 * than playing it with the shapes silently dropped.  right_gain is not
 * allowed with shapes: the shapes give both pickups.  The gain is then
 * the mode's weight where |phi| = 1 (the plugins weigh mode n by
 * gain phi_n(p) phi_n(q) for a strike at p heard at q); phi may be
 * normalised as the author likes.  A comment line `# shape:` was an
 * ordinary comment before shapes; it is the only change to what an
 * existing file means.
 *
 * Threads: no global state.  Parsing and loading allocate (the loader's
 * buffer, a "C" locale object, the shapes until the text has parsed) and
 * read files, so they belong in a worker
 * thread; the result is a plain struct without pointers that the audio
 * thread can take over by copy or pointer swap.
 */
#ifndef CONTACT_MODAL_TABLE_H
#define CONTACT_MODAL_TABLE_H

#include "modal.h"

#include <stdbool.h>
#include <stddef.h>

/* Files above 1 MiB are refused before they are read: 128 modes of four
 * 17-digit numbers take 13 kB, so this leaves room for any commentary
 * while a worst-case parse stays a few milliseconds of a worker's time. */
#define MODAL_TABLE_MAX_BYTES (1024 * 1024)

/* Frequency range.  Below 1 Hz a mode is drift, not sound, and its static
 * compliance at the point, gain / (mass (2 pi f)^2), grows without bound.
 * Above 100 kHz nothing is heard even two octaves down (pitch tracking);
 * higher values are a slip of units. */
#define MODAL_TABLE_MIN_FREQ 1.0
#define MODAL_TABLE_MAX_FREQ 100e3

/* Decay range.  0.1 ms is a tenth of rubber's shortest t_e in [material]
 * table 2 (8e-4 s) and five samples at 48 kHz: shorter is a click, not a
 * mode.  1000 s is over ten times steel at q = 5000 ([material] table 2)
 * at 20 Hz (80 s); above it is most likely milliseconds written for
 * seconds (the plugins' decay ports are in ms). */
#define MODAL_TABLE_MIN_DECAY 1e-4
#define MODAL_TABLE_MAX_DECAY 1e3

/* |gain| bound.  Mass-normalised mode shapes reach phi^2 = 4 at a free end
 * of a beam and 16 at a free corner of a plate; 1e4 leaves room for
 * tables scaled otherwise while catching a lost decimal point.  A gain of
 * 0 is allowed: a point on a nodal line does not drive the mode
 * ([ch8] 8.2.2).  Negative gains are not (phi(p)^2 >= 0); a negative
 * right_gain is. */
#define MODAL_TABLE_MAX_GAIN 1e4

/* |phi| bound for shape samples.  Shapes normalised to max |phi| = 1
 * (dsp/shape.h) or to the object's mass (|phi| = 2 at a free end of a
 * beam, 4 at a free corner of a plate) stay far inside; 100 leaves room
 * for other scalings while catching a lost decimal point, and keeps
 * gain phi(p) phi(q) under 1e8. */
#define MODAL_TABLE_MAX_PHI 1e2

/* root when the file names none */
#define MODAL_TABLE_NO_ROOT  (-1.0)
#define MODAL_TABLE_MAX_ROOT 127.0

enum {
  /* the name's buffer, NUL included */
  MODAL_TABLE_NAME_SIZE = 128,
  /* the longest number token: 17 significant digits, a sign, a point and
   * an exponent take 24 characters; 63 leaves room for zeros written out */
  MODAL_TABLE_NUMBER_MAX = 63,
  /* what modal_table_write() writes at most, NUL included: three header
   * lines (under 200 bytes with the name) and 128 lines of four numbers
   * of at most 24 characters, 100 bytes a line */
  MODAL_TABLE_TEXT_MAX = 16384,
  /* the error message buffer, NUL included */
  MODAL_TABLE_MESSAGE_SIZE = 512,
  /* fewest samples along x (and along y on a grid): a spline through the
   * two ends, x = 0 and 1, is the least that spans the object */
  MODAL_TABLE_MIN_SHAPE_POINTS = 2,
  /* shape samples of all modes together (modes * K * J).  A table that
   * is written must load again: at MODAL_TABLE_SAMPLE_TEXT bytes a
   * sample, 2^15 samples take 800 kB, which with the mode columns stays
   * inside MODAL_TABLE_MAX_BYTES (2^16 would not).  That is 128 modes of
   * 256 samples (a 16 x 16 grid; along a bar, 8 samples a wavelength up
   * to its 60th mode, where the spline is within 0.5 %), or 62 modes on
   * a 33 x 16 grid.  The struct holding them is 256 kB: callers put it
   * on the heap. */
  MODAL_TABLE_MAX_SHAPE_VALUES = 32768,
  /* the writer's bytes for one sample at most: a blank and 24 characters
   * (sign, 17 digits, point, e-308) */
  MODAL_TABLE_SAMPLE_TEXT = 25,
  /* what modal_table_write_shapes() writes at most, NUL included: the
   * table's text, the shape header and its legend (under 256 bytes), and
   * every sample */
  MODAL_TABLE_SHAPES_TEXT_MAX =
      MODAL_TABLE_TEXT_MAX + 256 +
      MODAL_TABLE_MAX_SHAPE_VALUES * MODAL_TABLE_SAMPLE_TEXT,
};

/* Shapes add no status: a fault in a shape is one of these kinds (a
 * sample short is a missing field, a header twice a bad header), so the
 * numbers stay as they were and callers need no new case. */
typedef enum {
  MODAL_TABLE_SUCCESS,
  MODAL_TABLE_ERR_OPEN,           /* the path cannot be opened or stat'ed */
  MODAL_TABLE_ERR_NOT_REGULAR,    /* a directory, FIFO, device, ... */
  MODAL_TABLE_ERR_TOO_LARGE,      /* over MODAL_TABLE_MAX_BYTES */
  MODAL_TABLE_ERR_READ,           /* read failed or the file changed */
  MODAL_TABLE_ERR_NO_MEMORY,      /* an allocation failed */
  MODAL_TABLE_ERR_NOT_TEXT,       /* NUL or control byte, bad UTF-8 */
  MODAL_TABLE_ERR_NO_MODES,       /* no mode line */
  MODAL_TABLE_ERR_TOO_MANY_MODES, /* more than MODAL_MAX_MODES */
  MODAL_TABLE_ERR_MISSING_FIELD,  /* fewer fields than the mode needs */
  MODAL_TABLE_ERR_EXTRA_FIELD,    /* more fields than the mode takes */
  MODAL_TABLE_ERR_NOT_A_NUMBER,   /* a field is not a decimal number */
  MODAL_TABLE_ERR_NOT_FINITE,     /* nan, inf, or overflows a double */
  MODAL_TABLE_ERR_OUT_OF_RANGE,   /* outside the limits above */
  MODAL_TABLE_ERR_BAD_HEADER,     /* name or root repeated, empty, long */
  MODAL_TABLE_ERR_NO_SPACE,       /* the writer's buffer is too small */
} modal_table_status;

/* A short description of a status ("not a number", ...). */
const char* modal_table_strerror(modal_table_status status);

typedef struct modal_table {
  double freq[MODAL_MAX_MODES];       /* Hz */
  double decay[MODAL_MAX_MODES];      /* s, 1/e amplitude decay time */
  double gain[MODAL_MAX_MODES];       /* phi(p)^2, >= 0 */
  double right_gain[MODAL_MAX_MODES]; /* phi(p) phi(q); 0 when absent */
  double root;                        /* MIDI note, or MODAL_TABLE_NO_ROOT */
  int count;                          /* modes, 1..MODAL_MAX_MODES */
  bool has_right_gain;
  char name[MODAL_TABLE_NAME_SIZE]; /* UTF-8, "" when none */
} modal_table;

/* A table's mode shapes, apart from the table so that modal_table stays
 * small enough to copy and to hold on a stack; plain, no pointers.  The
 * table has no flag for them: modal_table_parse() drops shapes, so only
 * nx says whether a table has them.
 * value[(n * ny + j) * nx + i] is phi_n at x = i / (nx - 1),
 * y = j / (ny - 1), n < the table's count: the layout
 * shape_set_new_sampled() (dsp/shape.h) takes.  Values past the table's
 * modes are 0 after parsing. */
typedef struct modal_shapes {
  int nx; /* samples along x, >= 2; 0: the table has no shapes */
  int ny; /* rows along y: 1 (along x only) or >= 2 (a grid) */
  double value[MODAL_TABLE_MAX_SHAPE_VALUES];
} modal_shapes;

typedef struct modal_table_error {
  modal_table_status status;
  int line; /* 1-based line of the fault, 0 when not about one line */
  /* "bell.modes:12: frequency 'abc' is not a number" */
  char message[MODAL_TABLE_MESSAGE_SIZE];
} modal_table_error;

/* An empty table: no modes, no name, no root. */
void modal_table_init(modal_table* table);

/* No shapes: nx = ny = 0, every value 0. */
void modal_shapes_init(modal_shapes* shapes);

/* Parse `length` bytes of `text` (not NUL-terminated, at most
 * MODAL_TABLE_MAX_BYTES).  `source` names the text in messages (a file
 * name; NULL for "<text>").  On success *table holds the modes; on
 * failure it is unchanged.  `error` may be NULL.  Shapes in the text are
 * checked as modal_table_parse_shapes() checks them, then dropped. */
modal_table_status modal_table_parse(const char* text, size_t length,
                                     const char* source, modal_table* table,
                                     modal_table_error* error);

/* Read and parse the file at `path`: refuses what is not a regular file,
 * and a file over MODAL_TABLE_MAX_BYTES before reading it.  As
 * modal_table_parse() for the rest; messages name `path`. */
modal_table_status modal_table_load(const char* path, modal_table* table,
                                    modal_table_error* error);

/* As modal_table_parse() and modal_table_load(), and the shapes into
 * *shapes (nx = 0 when the text has none; `shapes` may be NULL: they are
 * dropped).  On failure neither *table nor *shapes is changed.  Parsing
 * shapes allocates a modal_shapes for the time of the call. */
modal_table_status modal_table_parse_shapes(const char* text, size_t length,
                                            const char* source,
                                            modal_table* table,
                                            modal_shapes* shapes,
                                            modal_table_error* error);
modal_table_status modal_table_load_shapes(const char* path, modal_table* table,
                                           modal_shapes* shapes,
                                           modal_table_error* error);

/* Whether a table in memory keeps the file's rules (a table built by the
 * UI or the analysis tool, before writing it). */
modal_table_status modal_table_check(const modal_table* table,
                                     modal_table_error* error);

/* Write a checked table as text into `buffer` (`size` bytes, NUL
 * terminated; MODAL_TABLE_TEXT_MAX always suffices).  Every number is the
 * shortest decimal that reads back as the same double, so writing and
 * parsing again gives the same table.  *length (may be NULL) gets the
 * text's length without the NUL. */
modal_table_status modal_table_write(const modal_table* table, char* buffer,
                                     size_t size, size_t* length);

/* As modal_table_check(), and `shapes` (NULL, or nx = 0: none) against
 * the file's rules and the table's count. */
modal_table_status modal_table_check_shapes(const modal_table* table,
                                            const modal_shapes* shapes,
                                            modal_table_error* error);

/* As modal_table_write(), with the shapes (NULL or nx = 0: the same text
 * as modal_table_write()): parse, write and parse again gives the same
 * table and shapes.  modal_table_text_size() bytes suffice. */
modal_table_status modal_table_write_shapes(const modal_table* table,
                                            const modal_shapes* shapes,
                                            char* buffer, size_t size,
                                            size_t* length);

/* A buffer size that always holds what modal_table_write_shapes() writes
 * for this table and these shapes (NULL: none), NUL included; at most
 * MODAL_TABLE_SHAPES_TEXT_MAX, and MODAL_TABLE_TEXT_MAX without shapes. */
size_t modal_table_text_size(const modal_table* table,
                             const modal_shapes* shapes);

#endif
