/* SPDX-License-Identifier: ISC */
#define _POSIX_C_SOURCE 200809L

#include "recording.h"

#include <errno.h>
#include <math.h>
#include <sndfile.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* frames decoded per sf_readf_float call (32 kB of stereo float) */
#define CHUNK_FRAMES 4096
/* the buffers' first size, then doubled: 1.4 s at 48 kHz, so most struck
 * sounds take a reallocation or two and a lying header none */
#define INITIAL_FRAMES 65536

#define MEMORY_NAME "recording in memory"

const char*
recording_strerror(recording_status status)
{
  switch (status) {
  case RECORDING_SUCCESS:
    return "success";
  case RECORDING_ERR_OPEN:
    return "cannot open, or not a sound file";
  case RECORDING_ERR_EMPTY:
    return "no audio, or too few frames";
  case RECORDING_ERR_RATE:
    return "sample rate outside 22.05-192 kHz";
  case RECORDING_ERR_CHANNELS:
    return "more than two channels";
  case RECORDING_ERR_TOO_LONG:
    return "longer than the longest read";
  case RECORDING_ERR_TRUNCATED:
    return "fewer frames than the header claims";
  case RECORDING_ERR_SILENT:
    return "silent";
  case RECORDING_ERR_DC:
    return "a constant offset, no sound";
  case RECORDING_ERR_MEMORY:
    return "out of memory";
  case RECORDING_ERR_NOT_FINITE:
    return "a NaN or infinite sample";
  }
  return "unknown status";
}

static recording_status
fail(recording* rec, recording_status status, char* message,
     size_t message_size, const char* format, ...)
{
  recording_free(rec);
  if (message && message_size) {
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, message_size, format, ap);
    va_end(ap);
  }
  return status;
}

static double
to_dbfs(double level)
{
  return 20.0 * log10(level);
}

/* libsndfile's error text without its closing full stop, to sit inside
 * our sentence */
static void
sndfile_reason(SNDFILE* sf, char* out, size_t size)
{
  snprintf(out, size, "%s", sf_strerror(sf));
  size_t n = strlen(out);
  while (n && (out[n - 1] == '.' || out[n - 1] == '\n' || out[n - 1] == ' '))
    out[--n] = '\0';
}

/* libsndfile's account of the header it read: where it says what it
 * forgave */
static void
sndfile_log(SNDFILE* sf, char* log, size_t size)
{
  log[0] = '\0';
  sf_command(sf, SFC_GET_LOG_INFO, log, (int)size - 1);
  log[size - 1] = '\0';
}

/* The frames the header claims when they are more than the `got` read,
 * else 0.  libsndfile shortens an audio chunk that runs past the end of the
 * file and reads on, saying so only in its log ("data : 9600 (should be
 * 8600)"; "SSND" in AIFF), and it takes an RF64 file's length from the
 * file, not from the ds64 chunk's claim ("Frames : N"), so the log is where
 * a cut file shows.  A 32-bit chunk size of 0xffffffff is what streaming
 * writers put when they cannot go back to fill it in: a length unknown,
 * not a claim. */
static double
claimed_beyond(const char* log, size_t got)
{
  for (const char* line = log; line && *line;) {
    long long c = 0, p = 0;
    if ((!strncmp(line, "data :", 6) || !strncmp(line, "SSND :", 6)) &&
        sscanf(line + 6, "%lld (should be %lld)", &c, &p) == 2 && c > p &&
        p > 0 && c != 0xffffffffLL)
      /* frames in proportion: exact for PCM, whose frames are all alike */
      return floor((double)got * (double)c / (double)p);
    if (sscanf(line, " Frames : %lld", &c) == 1 && c > 0 && (size_t)c > got)
      return (double)c;
    line = strchr(line, '\n');
    if (line)
      ++line;
  }
  return 0.0;
}

static bool
grow(recording* rec, size_t want, size_t limit, size_t* capacity)
{
  if (want <= *capacity)
    return true;
  size_t cap = *capacity ? *capacity : INITIAL_FRAMES;
  while (cap < want)
    cap *= 2;
  if (cap > limit)
    cap = limit;
  for (int c = 0; c < rec->n_channels; ++c) {
    float* const p = realloc(rec->channel[c], cap * sizeof(float));
    if (!p)
      return false;
    rec->channel[c] = p;
  }
  *capacity = cap;
  return true;
}

/* samples in runs of RECORDING_CLIP_RUN or more equal ones near full
 * scale */
static size_t
count_clipped(const float* x, size_t n)
{
  size_t clipped = 0, run = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool at_top = fabsf(x[i]) >= (float)RECORDING_CLIP_LEVEL;
    run = at_top && run && x[i] == x[i - 1] ? run + 1 : at_top;
    if (run == RECORDING_CLIP_RUN)
      clipped += RECORDING_CLIP_RUN;
    else if (run > RECORDING_CLIP_RUN)
      ++clipped;
  }
  return clipped;
}

static void
format_name(const SF_INFO* info, char* out, size_t size)
{
  SF_FORMAT_INFO major = {.format = info->format & SF_FORMAT_TYPEMASK};
  SF_FORMAT_INFO sub = {.format = info->format & SF_FORMAT_SUBMASK};
  const bool has_major =
      !sf_command(NULL, SFC_GET_FORMAT_INFO, &major, sizeof(major));
  const bool has_sub =
      !sf_command(NULL, SFC_GET_FORMAT_INFO, &sub, sizeof(sub));
  snprintf(out, size, "%s, %s", has_major ? major.name : "unknown format",
           has_sub ? sub.name : "unknown encoding");
}

/* the checks and the read shared by files and memory; closes nothing */
static recording_status
read_sound(SNDFILE* sf, const SF_INFO* info, const char* name, recording* rec,
           char* message, size_t message_size)
{
  format_name(info, rec->format, sizeof(rec->format));
  if (info->channels > RECORDING_MAX_CHANNELS)
    return fail(rec, RECORDING_ERR_CHANNELS, message, message_size,
                "%s has %d channels, and only mono or stereo is read (choose "
                "the one or two to analyse and save them alone).",
                name, info->channels);
  if (info->channels < 1)
    return fail(rec, RECORDING_ERR_OPEN, message, message_size,
                "%s claims %d channels.", name, info->channels);
  if (info->samplerate < RECORDING_MIN_RATE ||
      info->samplerate > RECORDING_MAX_RATE)
    return fail(rec, RECORDING_ERR_RATE, message, message_size,
                "%s is sampled at %d Hz, outside the %.0f-%.0f Hz read.", name,
                info->samplerate, RECORDING_MIN_RATE, RECORDING_MAX_RATE);
  rec->n_channels = info->channels;
  rec->rate = info->samplerate;

  const size_t max_frames = (size_t)(RECORDING_MAX_SECONDS * rec->rate);
  /* libsndfile says SF_COUNT_MAX when it cannot tell the length */
  const bool known = info->frames >= 0 && info->frames < SF_COUNT_MAX;
  if (known && (uint64_t)info->frames > max_frames)
    return fail(rec, RECORDING_ERR_TOO_LONG, message, message_size,
                "%s is %.0f s long by its header, longer than the %.0f s "
                "read.",
                name, (double)info->frames / rec->rate, RECORDING_MAX_SECONDS);
  /* one past the longest, so that a file of unknown length that goes on
   * is seen to */
  const size_t limit = known ? (size_t)info->frames : max_frames + 1;

  float buf[CHUNK_FRAMES * RECORDING_MAX_CHANNELS];
  size_t capacity = 0, got = 0;
  const int nc = rec->n_channels;
  while (got < limit) {
    const size_t want =
        limit - got < CHUNK_FRAMES ? limit - got : (size_t)CHUNK_FRAMES;
    const sf_count_t n = sf_readf_float(sf, buf, (sf_count_t)want);
    if (n <= 0)
      break;
    if (!grow(rec, got + (size_t)n, limit, &capacity))
      return fail(rec, RECORDING_ERR_MEMORY, message, message_size,
                  "%s: out of memory after reading %zu frames.", name, got);
    for (sf_count_t i = 0; i < n; ++i)
      for (int c = 0; c < nc; ++c)
        rec->channel[c][got + (size_t)i] = buf[i * nc + c];
    got += (size_t)n;
  }
  if (got > max_frames)
    return fail(rec, RECORDING_ERR_TOO_LONG, message, message_size,
                "%s is longer than the %.0f s read.", name,
                RECORDING_MAX_SECONDS);
  if (known && got < limit) {
    char reason[160] = "";
    if (sf_error(sf))
      sndfile_reason(sf, reason, sizeof(reason));
    return fail(rec, RECORDING_ERR_TRUNCATED, message, message_size,
                "%s is truncated: it ends after %zu of the %zu frames its "
                "header claims%s%s%s.",
                name, got, limit, reason[0] ? " (" : "", reason,
                reason[0] ? ")" : "");
  }
  char log[4096];
  sndfile_log(sf, log, sizeof(log));
  /* a stream (Ogg) without its end, whose length was not in a header */
  if (strstr(log, "ended unexpectedly"))
    return fail(rec, RECORDING_ERR_TRUNCATED, message, message_size,
                "%s is truncated: its stream ends unexpectedly after %zu "
                "frames.",
                name, got);
  const double claimed = got ? claimed_beyond(log, got) : 0.0;
  if (claimed > 0.0)
    return fail(rec, RECORDING_ERR_TRUNCATED, message, message_size,
                "%s is truncated: it ends after %zu of the %.0f frames its "
                "header claims.",
                name, got, claimed);
  if (got == 0)
    return fail(rec, RECORDING_ERR_EMPTY, message, message_size,
                "%s holds no audio (0 frames).", name);
  if (got < RECORDING_MIN_FRAMES)
    return fail(rec, RECORDING_ERR_EMPTY, message, message_size,
                "%s holds only %zu frame%s, too few for a recording (at "
                "least %d).",
                name, got, got == 1 ? "" : "s", RECORDING_MIN_FRAMES);
  rec->frames = got;

  double peak = 0.0, dc = 0.0, ac = 0.0;
  for (int c = 0; c < nc; ++c) {
    const float* const x = rec->channel[c];
    double sum = 0.0, lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < got; ++i) {
      if (!isfinite(x[i]))
        return fail(rec, RECORDING_ERR_NOT_FINITE, message, message_size,
                    "%s holds a %s sample at frame %zu of channel %d.", name,
                    isnan(x[i]) ? "NaN" : "infinite", i, c + 1);
      sum += x[i];
      lo = fmin(lo, x[i]);
      hi = fmax(hi, x[i]);
    }
    const double mean = sum / (double)got;
    peak = fmax(peak, fmax(fabs(lo), fabs(hi)));
    dc = fmax(dc, fabs(mean));
    ac = fmax(ac, fmax(hi - mean, mean - lo));
    rec->clipped += count_clipped(x, got);
  }
  rec->peak = peak;
  const double silence = pow(10.0, RECORDING_SILENT_DBFS / 20.0);
  if (peak < silence) {
    if (peak == 0.0)
      return fail(rec, RECORDING_ERR_SILENT, message, message_size,
                  "%s is silent: every sample is zero.", name);
    return fail(rec, RECORDING_ERR_SILENT, message, message_size,
                "%s is silent: its peak, %.1f dBFS, is below the %.0f dBFS "
                "taken for silence.",
                name, to_dbfs(peak), RECORDING_SILENT_DBFS);
  }
  if (ac < pow(10.0, RECORDING_DC_DBFS / 20.0))
    return fail(rec, RECORDING_ERR_DC, message, message_size,
                "%s holds only a constant offset (DC at %.1f dBFS), no "
                "sound.",
                name, to_dbfs(dc));
  /* give back what the last doubling took beyond the end */
  for (int c = 0; c < nc; ++c) {
    float* const p = realloc(rec->channel[c], got * sizeof(float));
    if (p)
      rec->channel[c] = p;
  }
  if (message && message_size)
    message[0] = '\0';
  return RECORDING_SUCCESS;
}

recording_status
recording_read(const char* path, recording* rec, char* message,
               size_t message_size)
{
  memset(rec, 0, sizeof(*rec));
  struct stat st;
  if (stat(path, &st))
    return fail(rec, RECORDING_ERR_OPEN, message, message_size,
                "%s cannot be opened (%s).", path, strerror(errno));
  if (S_ISDIR(st.st_mode))
    return fail(rec, RECORDING_ERR_OPEN, message, message_size,
                "%s is a folder, not a sound file.", path);
  if (S_ISREG(st.st_mode) && st.st_size == 0)
    return fail(rec, RECORDING_ERR_EMPTY, message, message_size,
                "%s is empty (0 bytes).", path);
  SF_INFO info = {0};
  SNDFILE* const sf = sf_open(path, SFM_READ, &info);
  if (!sf) {
    char reason[160];
    sndfile_reason(NULL, reason, sizeof(reason));
    return fail(rec, RECORDING_ERR_OPEN, message, message_size,
                "%s is not a sound file that can be read (%s).", path, reason);
  }
  const recording_status status =
      read_sound(sf, &info, path, rec, message, message_size);
  sf_close(sf);
  return status;
}

typedef struct {
  const unsigned char* data;
  sf_count_t size, pos;
} memory_file;

static sf_count_t
memory_length(void* user)
{
  return ((memory_file*)user)->size;
}

static sf_count_t
memory_seek(sf_count_t offset, int whence, void* user)
{
  memory_file* const m = user;
  sf_count_t base = whence == SEEK_CUR   ? m->pos
                    : whence == SEEK_END ? m->size
                                         : 0;
  /* out of the image: stay put and say so, as fseek would */
  if (offset < -base || offset > m->size - base)
    return -1;
  m->pos = base + offset;
  return m->pos;
}

static sf_count_t
memory_read(void* ptr, sf_count_t count, void* user)
{
  memory_file* const m = user;
  if (count <= 0 || m->pos >= m->size)
    return 0;
  const sf_count_t n = count < m->size - m->pos ? count : m->size - m->pos;
  memcpy(ptr, m->data + m->pos, (size_t)n);
  m->pos += n;
  return n;
}

static sf_count_t
memory_write(const void* ptr, sf_count_t count, void* user)
{
  (void)ptr, (void)count, (void)user;
  return 0;
}

static sf_count_t
memory_tell(void* user)
{
  return ((memory_file*)user)->pos;
}

recording_status
recording_read_memory(const void* data, size_t size, recording* rec,
                      char* message, size_t message_size)
{
  memset(rec, 0, sizeof(*rec));
  if (!data || size == 0)
    return fail(rec, RECORDING_ERR_EMPTY, message, message_size,
                "%s is empty (0 bytes).", MEMORY_NAME);
  memory_file m = {data, (sf_count_t)size, 0};
  SF_VIRTUAL_IO io = {memory_length, memory_seek, memory_read, memory_write,
                      memory_tell};
  SF_INFO info = {0};
  SNDFILE* const sf = sf_open_virtual(&io, SFM_READ, &info, &m);
  if (!sf) {
    char reason[160];
    sndfile_reason(NULL, reason, sizeof(reason));
    return fail(rec, RECORDING_ERR_OPEN, message, message_size,
                "%s is not a sound file that can be read (%s).", MEMORY_NAME,
                reason);
  }
  const recording_status status =
      read_sound(sf, &info, MEMORY_NAME, rec, message, message_size);
  sf_close(sf);
  return status;
}

void
recording_free(recording* rec)
{
  for (int c = 0; c < RECORDING_MAX_CHANNELS; ++c)
    free(rec->channel[c]);
  memset(rec, 0, sizeof(*rec));
}
