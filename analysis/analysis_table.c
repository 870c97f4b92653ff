/* SPDX-License-Identifier: ISC */
#define _POSIX_C_SOURCE 200809L

#include "analysis_table.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void
analysis_table_of(const analysis_result* r, const char* name, modal_table* t)
{
  modal_table_init(t);
  snprintf(t->name, sizeof(t->name), "%s", name ? name : "");
  t->root = r->root_note >= 0 && r->root_note <= MODAL_TABLE_MAX_ROOT
                ? r->root_note
                : MODAL_TABLE_NO_ROOT;
  t->count = r->n_modes;
  t->has_right_gain = r->n_channels > 1;
  for (int i = 0; i < r->n_modes; ++i) {
    t->freq[i] = r->modes[i].freq;
    t->decay[i] = r->modes[i].decay;
    t->gain[i] = r->modes[i].gain;
    t->right_gain[i] = t->has_right_gain ? r->modes[i].right_gain : 0.0;
  }
}

void
analysis_table_name_of(const char* recording, char* name, size_t size)
{
  const char* slash = strrchr(recording, '/');
  const char* base = slash ? slash + 1 : recording;
  const size_t n = strnlen(base, size - 1);
  memcpy(name, base, n);
  name[n] = '\0';
  char* dot = strrchr(name, '.');
  if (dot && dot != name)
    *dot = '\0';
}

bool
analysis_table_note_of_name(const char* path, double* note)
{
  static const int pitch_class[7] = {9, 11, 0, 2, 4, 5, 7}; /* A..G */
  char base[MODAL_TABLE_NAME_SIZE];
  analysis_table_name_of(path, base, sizeof(base));
  bool found = false;
  for (const char* c = base; *c; ++c) {
    if (*c < 'A' || *c > 'G' ||
        (c > base && (isalnum((unsigned char)c[-1]) || c[-1] == '#')))
      continue;
    const char* d = c + 1;
    int n = pitch_class[*c - 'A'];
    if (*d == '#' || *d == 's')
      ++n, ++d;
    else if (*d == 'b')
      --n, ++d;
    if (*d == ' ')
      ++d;
    const bool minus = *d == '-';
    if (minus)
      ++d;
    if (!isdigit((unsigned char)*d) || isdigit((unsigned char)d[1]))
      continue;
    const int octave = minus ? -(*d - '0') : *d - '0';
    const int midi = 12 * (octave + 1) + n;
    if (midi >= 0 && midi <= 127) {
      *note = midi;
      found = true;
    }
  }
  return found;
}

bool
analysis_table_folder(char* folder, size_t size)
{
  const char* data = getenv("XDG_DATA_HOME");
  const char* home = getenv("HOME");
  int n;
  if (data && *data == '/')
    n = snprintf(folder, size, "%s/contact/tables", data);
  else if (home && *home)
    n = snprintf(folder, size, "%s/.local/share/contact/tables", home);
  else
    return false;
  return n > 0 && (size_t)n < size;
}

/* mkdir -p */
static bool
make_folder(const char* folder)
{
  char path[4096];
  if (snprintf(path, sizeof(path), "%s", folder) >= (int)sizeof(path))
    return false;
  for (char* p = path + 1; *p; ++p)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(path, 0755) && errno != EEXIST)
        return false;
      *p = '/';
    }
  return !mkdir(path, 0755) || errno == EEXIST;
}

/* the table's name as a file name: letters, digits, - _ . kept */
static void
file_stem(const char* name, char* stem, size_t size)
{
  size_t n = 0;
  for (const char* c = name; *c && n + 1 < size; ++c)
    stem[n++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                        (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' ||
                        *c == '.'
                    ? *c
                    : '-';
  stem[n] = '\0';
  if (!n || stem[0] == '.')
    snprintf(stem, size, "analysed");
}

bool
analysis_table_save(const modal_table* table, const char* folder, char* path,
                    size_t size, char* message, size_t message_size)
{
  static const int max_tries = 1000;
  char text[MODAL_TABLE_TEXT_MAX];
  size_t length = 0;
  modal_table_error error;
  modal_table_status status = modal_table_check(table, &error);
  if (status == MODAL_TABLE_SUCCESS)
    status = modal_table_write(table, text, sizeof(text), &length);
  if (status != MODAL_TABLE_SUCCESS) {
    snprintf(message, message_size, "the modes found do not make a table: %s",
             status == MODAL_TABLE_ERR_NO_SPACE ? modal_table_strerror(status)
                                                : error.message);
    return false;
  }
  if (!make_folder(folder)) {
    snprintf(message, message_size, "cannot make the folder %s: %s", folder,
             strerror(errno));
    return false;
  }
  char stem[MODAL_TABLE_NAME_SIZE];
  file_stem(table->name, stem, sizeof(stem));
  for (int k = 1; k <= max_tries; ++k) {
    const int n = k == 1
                      ? snprintf(path, size, "%s/%s.modes", folder, stem)
                      : snprintf(path, size, "%s/%s-%d.modes", folder, stem, k);
    if (n < 0 || (size_t)n >= size) {
      snprintf(message, message_size, "the path in %s is too long", folder);
      return false;
    }
    /* O_EXCL: never over a file that is there, even one made meanwhile */
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 && errno == EEXIST)
      continue;
    if (fd < 0) {
      snprintf(message, message_size, "cannot write %s: %s", path,
               strerror(errno));
      return false;
    }
    FILE* f = fdopen(fd, "w");
    const bool ok = f && fwrite(text, 1, length, f) == length;
    if ((f ? fclose(f) : close(fd)) != 0 || !ok) {
      snprintf(message, message_size, "cannot write %s", path);
      unlink(path);
      return false;
    }
    return true;
  }
  snprintf(message, message_size, "%s holds %d tables named %s already", folder,
           max_tries, stem);
  return false;
}
