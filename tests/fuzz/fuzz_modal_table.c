/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target over the modal table parser (dsp/modal_table.c): any
 * bytes parse or fail without a fault (ASan, UBSan), a failure leaves the
 * table as it was and says why, and a table that parses is one that
 * modal_table_check() accepts and that writes and parses back to the same
 * table.  Built and run by tools/fuzz; with FUZZ_MAIN defined it is a
 * plain program that runs the files, and the files in the folders, named
 * on its command line (the seed corpus, as a meson test).
 */
#define _POSIX_C_SOURCE 200809L

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
    FUZZ_CHECK(a->right_gain[i] == b->right_gain[i]);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t* const data, const size_t size)
{
  modal_table empty, t;
  modal_table_init(&empty);
  t = empty;
  modal_table_error e;
  const modal_table_status st =
      modal_table_parse((const char*)data, size, "fuzz.modes", &t, &e);
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

  static char text[MODAL_TABLE_TEXT_MAX];
  size_t len = 0;
  FUZZ_CHECK(modal_table_write(&t, text, sizeof(text), &len) ==
             MODAL_TABLE_SUCCESS);
  FUZZ_CHECK(len == strlen(text));
  /* one byte short: refused, not cut */
  static char small[MODAL_TABLE_TEXT_MAX];
  FUZZ_CHECK(modal_table_write(&t, small, len, NULL) ==
             MODAL_TABLE_ERR_NO_SPACE);

  modal_table u;
  modal_table_init(&u);
  FUZZ_CHECK(modal_table_parse(text, len, "written", &u, &e) ==
             MODAL_TABLE_SUCCESS);
  check_same(&t, &u);
  return 0;
}

#ifdef FUZZ_MAIN
#include <dirent.h>
#include <sys/stat.h>

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
  int failed = 0, files = 0;
  for (int i = 1; i < argc; ++i) {
    struct stat st;
    if (stat(argv[i], &st) || !S_ISDIR(st.st_mode)) {
      failed |= run_file(argv[i]);
      ++files;
      continue;
    }
    DIR* const dir = opendir(argv[i]);
    if (!dir) {
      perror(argv[i]);
      return 1;
    }
    for (struct dirent* e; (e = readdir(dir));) {
      if (e->d_name[0] == '.')
        continue;
      char path[4096];
      snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
      failed |= run_file(path);
      ++files;
    }
    closedir(dir);
  }
  printf("%d inputs\n", files);
  return failed || !files;
}
#endif
