/* SPDX-License-Identifier: ISC */
#define _POSIX_C_SOURCE 200809L

#include "sf2_sample.h"

#include <sndfile.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* a sample header record: name[20], five DWORDs, two BYTEs, two WORDs */
#define SHDR_SIZE 46

static uint32_t
le32(const unsigned char* p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static uint16_t
le16(const unsigned char* p)
{
  return (uint16_t)(p[0] | p[1] << 8);
}

static int
say(char* message, size_t size, const char* format, ...)
{
  if (message && size) {
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, size, format, ap);
    va_end(ap);
  }
  return -1;
}

typedef struct {
  long offset; /* of the chunk's data */
  uint32_t size;
} chunk;

/* The chunks of a LIST from `begin` to `end`: smpl and sm24 in sdta,
 * shdr in pdta; 0, or -1 when a chunk runs past the list. */
static int
walk_list(FILE* f, long begin, long end, chunk* smpl, chunk* sm24, chunk* shdr)
{
  for (long at = begin; at + 8 <= end;) {
    unsigned char head[8];
    if (fseek(f, at, SEEK_SET) || fread(head, 1, 8, f) != 8)
      return -1;
    const uint32_t size = le32(head + 4);
    if ((long)size > end - at - 8)
      return -1;
    const chunk c = {at + 8, size};
    if (!memcmp(head, "smpl", 4))
      *smpl = c;
    else if (!memcmp(head, "sm24", 4))
      *sm24 = c;
    else if (!memcmp(head, "shdr", 4))
      *shdr = c;
    /* RIFF pads a chunk to an even size */
    at += 8 + (long)size + (size & 1);
  }
  return 0;
}

int
sf2_open(sf2_file* sf, const char* path, char* message, size_t size)
{
  memset(sf, 0, sizeof(*sf));
  FILE* const f = fopen(path, "rb");
  if (!f)
    return say(message, size, "%s cannot be opened.", path);
  unsigned char head[12];
  if (fread(head, 1, 12, f) != 12 || memcmp(head, "RIFF", 4) ||
      memcmp(head + 8, "sfbk", 4)) {
    fclose(f);
    return say(message, size, "%s is not a SoundFont 2 file (no RIFF sfbk).",
               path);
  }
  fseek(f, 0, SEEK_END);
  const long length = ftell(f);
  long end = 8 + (long)le32(head + 4);
  if (end > length)
    end = length;
  chunk smpl = {0, 0}, sm24 = {0, 0}, shdr = {0, 0};
  for (long at = 12; at + 12 <= end;) {
    unsigned char list[12];
    if (fseek(f, at, SEEK_SET) || fread(list, 1, 12, f) != 12)
      break;
    const uint32_t list_size = le32(list + 4);
    if ((long)list_size > end - at - 8)
      break;
    if (!memcmp(list, "LIST", 4) &&
        walk_list(f, at + 12, at + 8 + list_size, &smpl, &sm24, &shdr)) {
      fclose(f);
      return say(message, size, "%s: a chunk in LIST %.4s runs past it.", path,
                 list + 8);
    }
    at += 8 + (long)list_size + (list_size & 1);
  }
  if (!smpl.offset || !shdr.offset || shdr.size % SHDR_SIZE ||
      shdr.size < 2 * SHDR_SIZE) {
    fclose(f);
    return say(message, size,
               "%s has no sample data or no sample headers (smpl, shdr).",
               path);
  }
  sf->file = f;
  sf->smpl_offset = smpl.offset;
  sf->smpl_points = smpl.size / 2;
  /* sm24 holds one byte per point of smpl, else it is ignored (SF2.04) */
  if (sm24.offset && sm24.size >= sf->smpl_points)
    sf->sm24_offset = sm24.offset;
  /* the last record is the terminal "EOS" */
  const int n = (int)(shdr.size / SHDR_SIZE) - 1;
  unsigned char* const raw = malloc(shdr.size);
  sf->samples = calloc((size_t)n, sizeof(sf2_sample));
  if (!raw || !sf->samples || fseek(f, shdr.offset, SEEK_SET) ||
      fread(raw, 1, shdr.size, f) != shdr.size) {
    free(raw);
    sf2_close(sf);
    return say(message, size, "%s: cannot read its sample headers.", path);
  }
  for (int i = 0; i < n; ++i) {
    const unsigned char* const r = raw + i * SHDR_SIZE;
    sf2_sample* const s = &sf->samples[i];
    memcpy(s->name, r, 20);
    s->name[20] = '\0';
    s->start = le32(r + 20);
    s->end = le32(r + 24);
    s->loop_start = le32(r + 28);
    s->loop_end = le32(r + 32);
    s->rate = le32(r + 36);
    s->pitch = r[40];
    s->correction = (int8_t)r[41];
    s->link = le16(r + 42);
    s->type = le16(r + 44);
  }
  free(raw);
  sf->n_samples = n;
  return 0;
}

void
sf2_close(sf2_file* sf)
{
  if (sf->file)
    fclose(sf->file);
  free(sf->samples);
  memset(sf, 0, sizeof(*sf));
}

int
sf2_find(const sf2_file* sf, const char* name)
{
  for (int i = 0; i < sf->n_samples; ++i)
    if (!strcmp(sf->samples[i].name, name))
      return i;
  return -1;
}

int
sf2_read(const sf2_file* sf, int index, int32_t* out)
{
  if (index < 0 || index >= sf->n_samples)
    return -1;
  const sf2_sample* const s = &sf->samples[index];
  if (s->end < s->start || s->end > sf->smpl_points)
    return -1;
  const size_t n = s->end - s->start;
  unsigned char* const hi = malloc(2 * n + 1);
  unsigned char* const lo = sf->sm24_offset ? malloc(n + 1) : NULL;
  int failed = !hi || (sf->sm24_offset && !lo);
  if (!failed)
    failed = fseek(sf->file, sf->smpl_offset + 2 * (long)s->start, SEEK_SET) ||
             fread(hi, 2, n, sf->file) != n;
  if (!failed && lo)
    failed = fseek(sf->file, sf->sm24_offset + (long)s->start, SEEK_SET) ||
             fread(lo, 1, n, sf->file) != n;
  for (size_t i = 0; !failed && i < n; ++i) {
    const int16_t v = (int16_t)le16(hi + 2 * i);
    out[i] = (int32_t)v * 256 + (lo ? lo[i] : 0);
  }
  free(hi);
  free(lo);
  return failed ? -1 : 0;
}

int
sf2_write_wav(const sf2_file* sf, int index, const char* path, char* message,
              size_t size)
{
  if (index < 0 || index >= sf->n_samples)
    return say(message, size, "no sample %d.", index);
  const sf2_sample* const s = &sf->samples[index];
  if (s->end <= s->start || s->end > sf->smpl_points)
    return say(message, size, "sample '%s' lies outside the sample data.",
               s->name);
  const size_t n = s->end - s->start;
  int32_t* const points = malloc(n * sizeof(int32_t));
  if (!points || sf2_read(sf, index, points)) {
    free(points);
    return say(message, size, "cannot read sample '%s'.", s->name);
  }
  SF_INFO info = {.samplerate = (int)s->rate,
                  .channels = 1,
                  .format =
                      SF_FORMAT_WAV |
                      (sf->sm24_offset ? SF_FORMAT_PCM_24 : SF_FORMAT_PCM_16)};
  SNDFILE* const out = sf_open(path, SFM_WRITE, &info);
  if (!out) {
    free(points);
    return say(message, size, "%s cannot be written (%s).", path,
               sf_strerror(NULL));
  }
  /* the original pitch as the WAV's unity note (its 'smpl' chunk) */
  SF_INSTRUMENT inst;
  memset(&inst, 0, sizeof(inst));
  inst.basenote = (char)s->pitch;
  inst.detune = s->correction;
  inst.velocity_hi = inst.key_hi = 127;
  sf_command(out, SFC_SET_INSTRUMENT, &inst, sizeof(inst));
  /* libsndfile's int is full scale at 2^31: the 24-bit points up by 8 */
  for (size_t i = 0; i < n; ++i)
    points[i] *= 256;
  const sf_count_t written = sf_write_int(out, points, (sf_count_t)n);
  sf_close(out);
  free(points);
  if (written != (sf_count_t)n)
    return say(message, size, "%s: only %lld of %zu samples written.", path,
               (long long)written, n);
  return 0;
}
