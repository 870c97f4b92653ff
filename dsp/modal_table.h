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
 * are skipped.  Two comment lines are headers, each at most once, anywhere:
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
 * Threads: no global state.  Parsing and loading allocate (the loader's
 * buffer, a "C" locale object) and read files, so they belong in a worker
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
};

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

typedef struct modal_table_error {
  modal_table_status status;
  int line; /* 1-based line of the fault, 0 when not about one line */
  /* "bell.modes:12: frequency 'abc' is not a number" */
  char message[MODAL_TABLE_MESSAGE_SIZE];
} modal_table_error;

/* An empty table: no modes, no name, no root. */
void modal_table_init(modal_table* table);

/* Parse `length` bytes of `text` (not NUL-terminated, at most
 * MODAL_TABLE_MAX_BYTES).  `source` names the text in messages (a file
 * name; NULL for "<text>").  On success *table holds the modes; on
 * failure it is unchanged.  `error` may be NULL. */
modal_table_status modal_table_parse(const char* text, size_t length,
                                     const char* source, modal_table* table,
                                     modal_table_error* error);

/* Read and parse the file at `path`: refuses what is not a regular file,
 * and a file over MODAL_TABLE_MAX_BYTES before reading it.  As
 * modal_table_parse() for the rest; messages name `path`. */
modal_table_status modal_table_load(const char* path, modal_table* table,
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

#endif
