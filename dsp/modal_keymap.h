/* SPDX-License-Identifier: ISC */
/*
 * Keymaps: an instrument measured at several notes, played as one object.
 *
 *     # name: Marimba
 *     # decay_law: 0.45 0.1
 *     # ratio_law: -0.02
 *     # zone: 48.1
 *     # name: Marimba C 4
 *     130.9  0.33  1
 *     521.4  0.09  0.2
 *     # zone: 60.05
 *     261.7  0.25  1
 *     ...
 *
 * A keymap file is a modal table file (modal_table.h) cut into zones by
 * `# zone: NOTE` headers, each zone a table of its own measured at that
 * MIDI note (its root; zones in rising order, at most
 * MODAL_KEYMAP_MAX_ZONES).  A note plays the zone whose root is nearest
 * (halfway between two: the lower), transposed by r = 2^(s/12) over the
 * s semitones from its root, by a law fitted across the zones in place of
 * a constant q ([ch5] 5.3 keeps q for one object scaled in size; a real
 * instrument's bars are not scaled copies):
 *     f'   = r f rho^(D log2 r)          rho = f / f_root, f_root the
 *     t_e' = t_e r^-(P0 + P1 log2 rho)   zone root's frequency (A4 440 Hz)
 * `# decay_law: P0 P1`: a partial at ratio rho to the root decays as
 * f_root^-(P0 + P1 log2 rho) across the keyboard (P0 = 1, P1 = 0 keeps
 * q; a real marimba's fundamental shortens more slowly, about 0.4).
 * `# ratio_law: D`: log2 rho stretches by D a octave (a bar's upper
 * partials go out of tune up the keyboard).  Both before the first zone;
 * missing, the constant-q law (1 0, 0).  Inside a zone: its modes and an
 * optional `# name:`; no `# root:` (the zone header is its root), no
 * shapes, no laws.  Before the first zone: headers and comments only.
 *
 * A file without a `# zone:` line is a plain table: the keymap of one
 * zone with the constant-q law, its shapes kept, which is how the plugins
 * play every table (written once).  Text rules and limits are
 * modal_table.h's: one file of at most MODAL_TABLE_MAX_BYTES.
 *
 * Threads: as modal_table.h (parse and load in a worker; the result is a
 * plain struct without pointers).
 */
#ifndef CONTACT_MODAL_KEYMAP_H
#define CONTACT_MODAL_KEYMAP_H

#include "modal_table.h"

#include <stdbool.h>
#include <stddef.h>

enum {
  /* A zone every 3 semitones over 8 octaves, or every note of a 32-bar
   * set; the keymap (32 tables of 4.2 kB) stays a 135 kB worker
   * allocation, and its text (32 x MODAL_TABLE_TEXT_MAX) inside
   * MODAL_TABLE_MAX_BYTES. */
  MODAL_KEYMAP_MAX_ZONES = 32,
  /* what modal_keymap_write() writes at most, NUL included */
  MODAL_KEYMAP_TEXT_MAX =
      512 + MODAL_KEYMAP_MAX_ZONES * (64 + MODAL_TABLE_TEXT_MAX),
};

/* The law's ranges.  |P0|, |P1| <= 4: a decay following f^4 across a
 * keyboard is far past any material's (constant q is 1, constant t_e 0);
 * more is a slip.  |D| <= 0.5: a ratio of 4 moving to 5.7 in an octave. */
#define MODAL_KEYMAP_MAX_DECAY_EXPONENT 4.0
#define MODAL_KEYMAP_MAX_RATIO_DRIFT    0.5
/* A transposition far from every zone must not fold the partials below
 * the root: the drifted exponent of rho, 1 + D log2 r, is kept at least
 * this. */
#define MODAL_KEYMAP_MIN_RATIO_POWER 0.25

typedef struct {
  double decay_exponent; /* P0: 1 keeps q */
  double decay_slope;    /* P1: the exponent's change an octave of rho */
  double ratio_drift;    /* D */
} modal_keymap_law;

typedef struct modal_keymap {
  modal_table zone[MODAL_KEYMAP_MAX_ZONES]; /* zone[i].root rising */
  int zones;                                /* 1..MODAL_KEYMAP_MAX_ZONES */
  bool is_keymap; /* false: a plain table, zone[0] (its root may be none) */
  modal_keymap_law law;
  char name[MODAL_TABLE_NAME_SIZE]; /* the keymap's, or the table's */
} modal_keymap;

/* P0 = 1, P1 = 0, D = 0: every mode keeps its q. */
modal_keymap_law modal_keymap_constant_q(void);

/* No zones, the constant-q law. */
void modal_keymap_init(modal_keymap* map);

/* Parse a keymap or a plain table (`shapes`: a plain table's shapes, or
 * NULL to drop them; nx = 0 for a keymap).  On failure *map and *shapes
 * are unchanged; messages name `source` and the line. */
modal_table_status modal_keymap_parse(const char* text, size_t length,
                                      const char* source, modal_keymap* map,
                                      modal_shapes* shapes,
                                      modal_table_error* error);

/* Read and parse the file at `path`, as modal_table_load_shapes() reads. */
modal_table_status modal_keymap_load(const char* path, modal_keymap* map,
                                     modal_shapes* shapes,
                                     modal_table_error* error);

/* Whether a keymap built in memory keeps the file's rules. */
modal_table_status modal_keymap_check(const modal_keymap* map,
                                      modal_table_error* error);

/* Write a checked keymap (a plain table: as modal_table_write()) into
 * `buffer`; MODAL_KEYMAP_TEXT_MAX always suffices.  Parse, write and parse
 * again gives the same keymap. */
modal_table_status modal_keymap_write(const modal_keymap* map, char* buffer,
                                      size_t size, size_t* length);

/* The zone a note plays: the nearest root, the lower one at a tie. */
int modal_keymap_zone_of(const modal_keymap* map, double note);

/* Mode (freq Hz, decay s) of a zone whose root sounds at root_hz,
 * transposed by `ratio` (r above) under `law`.  The constant-q law gives
 * exactly freq * ratio and decay / ratio. */
void modal_keymap_transpose(const modal_keymap_law* law, double root_hz,
                            double ratio, double* freq, double* decay);

/* The frequency of MIDI note `note` (A4 = 69 = 440 Hz). */
double modal_keymap_note_hz(double note);

#endif
