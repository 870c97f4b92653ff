/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target over the modal table parser (dsp/modal_table.c): any
 * bytes parse or fail without a fault (ASan, UBSan), a failure leaves the
 * table as it was and says why, and a table that parses is one that
 * modal_table_check() accepts and that writes and parses back to the same
 * table.  The same bytes also make a table in memory (table_from_bytes):
 * the writer's side of the round trip.  They are also read as a keymap
 * (dsp/modal_keymap.h, check_keymap): a table is the keymap of one zone
 * and the same table, a failure leaves the keymap as it was, and a keymap
 * that parses is one that modal_keymap_check() accepts and that writes
 * and parses back to the same keymap.  Built and run by tools/fuzz; with
 * FUZZ_MAIN defined it is a plain program that runs the files, and the files in
 * the folders, named on its command line (the seed corpus, as a meson test).
 */
#define _POSIX_C_SOURCE 200809L

#include "modal_keymap.h"
#include "modal_table.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);               \
      abort();                                                                 \
    }                                                                          \
  } while (0)

static void
check_same(const modal_table* const a, const modal_table* const b)
{
  FUZZ_CHECK(a->count == b->count);
  FUZZ_CHECK(a->has_right_gain == b->has_right_gain);
  FUZZ_CHECK(a->root == b->root);
  FUZZ_CHECK(!strcmp(a->name, b->name));
  for (int i = 0; i < a->count; ++i) {
    FUZZ_CHECK(a->freq[i] == b->freq[i]);
    FUZZ_CHECK(a->decay[i] == b->decay[i]);
    FUZZ_CHECK(a->gain[i] == b->gain[i]);
    /* without right gains the array is not part of the table */
    FUZZ_CHECK(!a->has_right_gain || a->right_gain[i] == b->right_gain[i]);
  }
}

/* write t, parse it back: the same table */
static void
check_round_trip(const modal_table* const t)
{
  static char text[MODAL_TABLE_TEXT_MAX];
  size_t len = 0;
  FUZZ_CHECK(modal_table_write(t, text, sizeof(text), &len) ==
             MODAL_TABLE_SUCCESS);
  FUZZ_CHECK(len == strlen(text));
  /* one byte short: refused, not cut */
  static char small[MODAL_TABLE_TEXT_MAX];
  FUZZ_CHECK(modal_table_write(t, small, len, NULL) ==
             MODAL_TABLE_ERR_NO_SPACE);
  modal_table u;
  modal_table_init(&u);
  modal_table_error e;
  FUZZ_CHECK(modal_table_parse(text, len, "written", &u, &e) ==
             MODAL_TABLE_SUCCESS);
  check_same(t, &u);
}

/* 8 bytes of the input from `*pos` on, wrapping around */
static uint64_t
take64(const uint8_t* const data, const size_t size, size_t* const pos)
{
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v = v << 8 | data[(*pos)++ % size];
  return v;
}

/* A table in memory made from the input (count, flags, name bytes, then
 * values spread over each field's range, or raw doubles): whatever
 * modal_table_check() accepts writes and parses back the same, and what
 * it refuses the writer refuses too. */
static void
table_from_bytes(const uint8_t* const data, const size_t size)
{
  if (size < 3)
    return;
  modal_table t;
  modal_table_init(&t);
  /* about one mode per 32 bytes (its four doubles): small inputs make
   * small tables and stay fast, so the parser is fuzzed as often */
  const size_t most = size / 32 + 1;
  t.count =
      1 + (int)(data[0] % (most < MODAL_MAX_MODES ? most : MODAL_MAX_MODES));
  const unsigned flags = data[1];
  t.has_right_gain = flags & 1;
  const bool raw = flags & 4;
  size_t pos = 3;
  const size_t name_len = data[2] % MODAL_TABLE_NAME_SIZE;
  for (size_t i = 0; i < name_len; ++i)
    t.name[i] = (char)data[pos++ % size];
  static const double lo[4] = {MODAL_TABLE_MIN_FREQ, MODAL_TABLE_MIN_DECAY, 0.0,
                               -MODAL_TABLE_MAX_GAIN};
  static const double hi[4] = {MODAL_TABLE_MAX_FREQ, MODAL_TABLE_MAX_DECAY,
                               MODAL_TABLE_MAX_GAIN, MODAL_TABLE_MAX_GAIN};
  double* const fields[4] = {t.freq, t.decay, t.gain, t.right_gain};
  for (int i = 0; i < t.count; ++i)
    for (int k = 0; k < 4; ++k) {
      const uint64_t bits = take64(data, size, &pos);
      double v;
      if (raw)
        memcpy(&v, &bits, sizeof(v));
      else
        v = lo[k] + (hi[k] - lo[k]) * ((double)(bits >> 11) * 0x1p-53);
      fields[k][i] = v;
    }
  if (flags & 2) {
    const uint64_t bits = take64(data, size, &pos);
    if (raw)
      memcpy(&t.root, &bits, sizeof(t.root));
    else
      t.root = MODAL_TABLE_MAX_ROOT * ((double)(bits >> 11) * 0x1p-53);
  }
  const modal_table_status st = modal_table_check(&t, NULL);
  if (st) {
    static char text[MODAL_TABLE_TEXT_MAX];
    FUZZ_CHECK(modal_table_write(&t, text, sizeof(text), NULL) == st);
    return;
  }
  check_round_trip(&t);
}

static void
check_same_keymap(const modal_keymap* const a, const modal_keymap* const b)
{
  FUZZ_CHECK(a->zones == b->zones);
  FUZZ_CHECK(a->is_keymap == b->is_keymap);
  FUZZ_CHECK(a->law.decay_exponent == b->law.decay_exponent);
  FUZZ_CHECK(a->law.decay_slope == b->law.decay_slope);
  FUZZ_CHECK(a->law.ratio_drift == b->law.ratio_drift);
  FUZZ_CHECK(!strcmp(a->name, b->name));
  for (int k = 0; k < a->zones; ++k)
    check_same(&a->zone[k], &b->zone[k]);
}

/* The input read as a keymap; `table_status` and `table` are what
 * modal_table_parse() made of it.  Keymaps are 135 kB: static. */
static void
check_keymap(const uint8_t* const data, const size_t size,
             const modal_table_status table_status,
             const modal_table* const table)
{
  static modal_keymap empty, m, u;
  memset(&empty, 0, sizeof(empty));
  modal_keymap_init(&empty);
  memcpy(&m, &empty, sizeof(m));
  modal_table_error e;
  const modal_table_status st =
      modal_keymap_parse((const char*)data, size, "fuzz.modes", &m, NULL, &e);
  FUZZ_CHECK(e.status == st);
  FUZZ_CHECK(memchr(e.message, '\0', sizeof(e.message)));
  /* a table is a keymap of one zone with the constant-q law */
  if (!table_status) {
    FUZZ_CHECK(st == MODAL_TABLE_SUCCESS);
    FUZZ_CHECK(!m.is_keymap && m.zones == 1);
    FUZZ_CHECK(m.law.decay_exponent == 1.0 && m.law.decay_slope == 0.0 &&
               m.law.ratio_drift == 0.0);
    FUZZ_CHECK(!strcmp(m.name, table->name));
    check_same(table, &m.zone[0]);
  }
  if (st) {
    FUZZ_CHECK(st <= MODAL_TABLE_ERR_BAD_HEADER);
    FUZZ_CHECK(!memcmp(e.message, "fuzz.modes:", 11));
    FUZZ_CHECK(!memcmp(&m, &empty, sizeof(m)));
    return;
  }
  FUZZ_CHECK(!e.message[0]);
  /* what is not a keymap is a table the table parser takes */
  FUZZ_CHECK(m.is_keymap || table_status == MODAL_TABLE_SUCCESS);
  FUZZ_CHECK(m.zones >= 1 && m.zones <= MODAL_KEYMAP_MAX_ZONES);
  FUZZ_CHECK(modal_keymap_check(&m, NULL) == MODAL_TABLE_SUCCESS);

  /* write m, parse it back: the same keymap */
  static char text[MODAL_KEYMAP_TEXT_MAX];
  size_t len = 0;
  FUZZ_CHECK(modal_keymap_write(&m, text, sizeof(text), &len) ==
             MODAL_TABLE_SUCCESS);
  FUZZ_CHECK(len == strlen(text));
  /* one byte short: refused, not cut */
  static char small[MODAL_KEYMAP_TEXT_MAX];
  FUZZ_CHECK(modal_keymap_write(&m, small, len, NULL) ==
             MODAL_TABLE_ERR_NO_SPACE);
  modal_keymap_init(&u);
  FUZZ_CHECK(modal_keymap_parse(text, len, "written", &u, NULL, &e) ==
             MODAL_TABLE_SUCCESS);
  check_same_keymap(&m, &u);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t* const data, const size_t size)
{
  modal_table empty, t;
  modal_table_init(&empty);
  t = empty;
  modal_table_error e;
  table_from_bytes(data, size);
  const modal_table_status st =
      modal_table_parse((const char*)data, size, "fuzz.modes", &t, &e);
  check_keymap(data, size, st, &t);
  FUZZ_CHECK(e.status == st);
  FUZZ_CHECK(memchr(e.message, '\0', sizeof(e.message)));
  if (st) {
    FUZZ_CHECK(st <= MODAL_TABLE_ERR_BAD_HEADER);
    FUZZ_CHECK(!memcmp(e.message, "fuzz.modes:", 11));
    FUZZ_CHECK(!memcmp(&t, &empty, sizeof(t)));
    return 0;
  }
  FUZZ_CHECK(!e.message[0]);
  FUZZ_CHECK(t.count >= 1 && t.count <= MODAL_MAX_MODES);
  FUZZ_CHECK(modal_table_check(&t, NULL) == MODAL_TABLE_SUCCESS);

  check_round_trip(&t);
  return 0;
}

#ifdef FUZZ_MAIN
#include "corpus_main.h"

static int
run_file(const char* const path)
{
  static uint8_t buf[MODAL_TABLE_MAX_BYTES + 1];
  FILE* const f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  const size_t n = fread(buf, 1, sizeof(buf), f);
  fclose(f);
  LLVMFuzzerTestOneInput(buf, n);
  printf("ok %s (%zu bytes)\n", path, n);
  return 0;
}

int
main(int argc, char** argv)
{
  return corpus_main(argc, argv, run_file);
}
#endif
