/* SPDX-License-Identifier: ISC */
/*
 * Reading recordings (analysis/recording.c), every file made here at test
 * time in a temporary folder:
 * 1. the formats read to the samples written: 16/24/32-bit and float WAV,
 *    16/24-bit FLAC, mono and stereo (deinterleaved), 22050 to 192000 Hz,
 *    from a path and from memory alike;
 * 2. every bad file is refused with its status and a message that names
 *    the file and the fault: missing, a folder, 0 bytes, 0 frames, 1
 *    frame, text, a PNG, 8000 Hz, 384000 Hz, 4 channels, silent (zeros,
 *    16-bit dither), DC only, NaN, a header claiming 10 hours or 2^40
 *    frames, a file cut short;
 * 3. what is near the thresholds reads on the right side (-80 dBFS is
 *    sound, DC with a -80 dBFS tone is sound), and clipping reads with a
 *    count while a clean full-scale tone counts none.
 */
#define _GNU_SOURCE /* memmem */

#include "check.h"
#include "recording.h"

#include <math.h>
#include <sndfile.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PI 3.14159265358979323846

static char tmpdir[] = "/tmp/test_recording.XXXXXX";
static char paths[64][512];
static int n_paths;

static const char*
temp_path(const char* name)
{
  char* const p = paths[n_paths++];
  snprintf(p, sizeof(paths[0]), "%s/%s", tmpdir, name);
  return p;
}

/* a struck-object-like test signal: two decaying partials per channel,
 * the right channel's different from the left's */
static float
signal(int channel, size_t i, double rate, double amplitude)
{
  const double t = (double)i / rate;
  const double f = channel ? 660.0 : 440.0;
  return (float)(amplitude * exp(-t / 0.2) *
                 (0.7 * sin(2.0 * PI * f * t) +
                  0.3 * sin(2.0 * PI * 2.76 * f * t)));
}

typedef float (*signal_fn)(int channel, size_t i, double rate,
                           double amplitude);

/* writes `frames` of fn through libsndfile; false if it could not */
static bool
write_sound(const char* path, int format, int channels, int rate, size_t frames,
            signal_fn fn, double amplitude)
{
  SF_INFO info = {.samplerate = rate, .channels = channels, .format = format};
  SNDFILE* const sf = sf_open(path, SFM_WRITE, &info);
  if (!sf) {
    fprintf(stderr, "cannot write %s: %s\n", path, sf_strerror(NULL));
    ++check_failures;
    return false;
  }
  float frame[8];
  for (size_t i = 0; i < frames; ++i) {
    for (int c = 0; c < channels; ++c)
      frame[c] = fn(c, i, rate, amplitude);
    sf_writef_float(sf, frame, 1);
  }
  sf_close(sf);
  return true;
}

static bool
write_bytes(const char* path, const void* data, size_t size)
{
  FILE* const f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size) {
    perror(path);
    ++check_failures;
    if (f)
      fclose(f);
    return false;
  }
  fclose(f);
  return true;
}

/* the whole file in a malloc'd buffer */
static unsigned char*
slurp(const char* path, size_t* size)
{
  FILE* const f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char* const data = malloc(n > 0 ? (size_t)n : 1);
  *size = fread(data, 1, (size_t)n, f);
  fclose(f);
  return data;
}

/* a good file: reads, from the path and from memory, to the signal
 * written within the format's resolution */
static void
expect_read(const char* name, int format, int channels, int rate, size_t frames,
            double tolerance, const char* format_word)
{
  const char* const path = temp_path(name);
  if (!write_sound(path, format, channels, rate, frames, signal, 0.5))
    return;
  char msg[256];
  recording rec;
  const recording_status st = recording_read(path, &rec, msg, sizeof(msg));
  CHECK(st == RECORDING_SUCCESS, "%s: %s (%s)", name, recording_strerror(st),
        msg);
  if (st)
    return;
  CHECK(rec.n_channels == channels, "%s: %d channels", name, rec.n_channels);
  CHECK(rec.frames == frames, "%s: %zu frames, want %zu", name, rec.frames,
        frames);
  CHECK(rec.rate == rate, "%s: rate %g", name, rec.rate);
  CHECK(rec.clipped == 0, "%s: %zu clipped", name, rec.clipped);
  CHECK(strstr(rec.format, format_word), "%s: format '%s' does not say '%s'",
        name, rec.format, format_word);
  double err = 0.0, peak = 0.0;
  for (int c = 0; c < channels; ++c)
    for (size_t i = 0; i < frames; ++i) {
      const double want = signal(c, i, rate, 0.5);
      err = fmax(err, fabs(rec.channel[c][i] - want));
      peak = fmax(peak, fabs(want));
    }
  CHECK(err <= tolerance, "%s: samples off by %g (tolerance %g)", name, err,
        tolerance);
  CHECK(fabs(rec.peak - peak) <= tolerance, "%s: peak %g, want %g", name,
        rec.peak, peak);

  size_t size = 0;
  unsigned char* const data = slurp(path, &size);
  recording mem;
  const recording_status sm =
      recording_read_memory(data, size, &mem, msg, sizeof(msg));
  CHECK(sm == RECORDING_SUCCESS, "%s in memory: %s (%s)", name,
        recording_strerror(sm), msg);
  if (!sm) {
    CHECK(mem.frames == rec.frames && mem.n_channels == rec.n_channels &&
              mem.rate == rec.rate,
          "%s: memory and path read differently", name);
    for (int c = 0; c < channels && mem.frames == rec.frames; ++c)
      CHECK(!memcmp(mem.channel[c], rec.channel[c], frames * sizeof(float)),
            "%s: channel %d differs read from memory", name, c + 1);
  }
  printf("  ok   %-24s %zu frames, %d ch, %g Hz, %s, error %.2g\n", name,
         rec.frames, rec.n_channels, rec.rate, rec.format, err);
  free(data);
  recording_free(&mem);
  recording_free(&rec);
  CHECK(!rec.channel[0] && !rec.frames, "%s: recording_free left data", name);
}

/* a bad file: refused with `want`, the recording empty, the message
 * naming the file and saying `fragment` */
static void
expect_fail_path(const char* what, const char* path, recording_status want,
                 const char* fragment)
{
  char msg[256] = "unchanged";
  recording rec;
  memset(&rec, 0x5a, sizeof(rec)); /* garbage: the reader must zero it */
  const recording_status st = recording_read(path, &rec, msg, sizeof(msg));
  CHECK(st == want, "%s: status '%s', want '%s' (%s)", what,
        recording_strerror(st), recording_strerror(want), msg);
  CHECK(!rec.channel[0] && !rec.channel[1] && !rec.frames,
        "%s: a failed read left data", what);
  CHECK(strstr(msg, path), "%s: message '%s' does not name %s", what, msg,
        path);
  CHECK(strstr(msg, fragment), "%s: message '%s' does not say '%s'", what, msg,
        fragment);
  printf("  ok   %-24s %s\n", what, msg);
  recording_free(&rec);
}

static void
expect_fail_sound(const char* name, int format, int channels, int rate,
                  size_t frames, signal_fn fn, double amplitude,
                  recording_status want, const char* fragment)
{
  const char* const path = temp_path(name);
  if (write_sound(path, format, channels, rate, frames, fn, amplitude))
    expect_fail_path(name, path, want, fragment);
}

static void
expect_fail_bytes(const char* name, const void* data, size_t size,
                  recording_status want, const char* fragment)
{
  const char* const path = temp_path(name);
  if (write_bytes(path, data, size))
    expect_fail_path(name, path, want, fragment);
  /* and the same from memory */
  char msg[256] = "";
  recording rec;
  const recording_status st =
      recording_read_memory(data, size, &rec, msg, sizeof(msg));
  CHECK(st == want, "%s in memory: status '%s', want '%s' (%s)", name,
        recording_strerror(st), recording_strerror(want), msg);
  CHECK(strstr(msg, "recording in memory") && strstr(msg, fragment),
        "%s in memory: message '%s' does not name it or say '%s'", name, msg,
        fragment);
  recording_free(&rec);
}

static float
zero(int channel, size_t i, double rate, double amplitude)
{
  (void)channel, (void)i, (void)rate, (void)amplitude;
  return 0.0f;
}

static float
constant(int channel, size_t i, double rate, double amplitude)
{
  (void)channel, (void)i, (void)rate;
  return (float)amplitude;
}

/* amplitude: the tone's; on an offset of 0.25 */
static float
dc_and_tone(int channel, size_t i, double rate, double amplitude)
{
  (void)channel;
  return (float)(0.25 + amplitude * sin(2.0 * PI * 1000.0 * (double)i / rate));
}

static float
tone(int channel, size_t i, double rate, double amplitude)
{
  (void)channel;
  return (float)(amplitude * sin(2.0 * PI * 1000.0 * (double)i / rate));
}

/* flat tops at full scale: 2 samples at +1 (a peak between two samples,
 * not clipped), 3 at -1, 5 at +1 and 4 at +0.9995 (8 + 4 clipped), 3 at
 * 0.99 (below the level) */
static float
flat_tops(int channel, size_t i, double rate, double amplitude)
{
  (void)channel, (void)rate, (void)amplitude;
  static const struct {
    size_t at, n;
    float level;
  } tops[] = {{100, 2, 1.0f},
              {200, 3, -1.0f},
              {300, 5, 1.0f},
              {400, 4, 0.9995f},
              {500, 3, 0.99f}};
  for (size_t k = 0; k < sizeof(tops) / sizeof(tops[0]); ++k)
    if (i >= tops[k].at && i < tops[k].at + tops[k].n)
      return tops[k].level;
  return (float)(0.1 * sin(0.1 * (double)i));
}

/* a 20 Hz tone: its peaks are broad, 30 samples within RECORDING_CLIP_LEVEL
 * of full scale, but no three of them equal */
static float
slow_tone(int channel, size_t i, double rate, double amplitude)
{
  (void)channel;
  return (float)(amplitude * sin(2.0 * PI * 20.0 * (double)i / rate));
}

/* +-1 LSB of 16 bits at random: dither on digital silence */
static float
dither16(int channel, size_t i, double rate, double amplitude)
{
  (void)channel, (void)rate, (void)amplitude;
  return (float)((int)(((i * 2654435761u) >> 13) % 3) - 1) / 32768.0f;
}

static float
nan_at_100(int channel, size_t i, double rate, double amplitude)
{
  return i == 100 ? NAN : signal(channel, i, rate, amplitude);
}

/* a struck sound too loud for the converter: flat at full scale */
static float
clipped(int channel, size_t i, double rate, double amplitude)
{
  const float x = signal(channel, i, rate, amplitude);
  return x > 1.0f ? 1.0f : x < -1.0f ? -1.0f : x;
}

static void
put32(unsigned char* p, uint32_t v)
{
  for (int k = 0; k < 4; ++k)
    p[k] = (unsigned char)(v >> (8 * k));
}

/* A 16-bit mono WAV, 48 kHz, of `frames` frames of a tone, whose data
 * chunk claims `claimed_bytes`. */
static size_t
lying_wav(unsigned char* out, uint32_t frames, uint32_t claimed_bytes)
{
  static const unsigned char header[44] = {
      'R', 'I', 'F', 'F', 0,  0, 0,   0,   'W', 'A',  'V',  'E', 'f', 'm', 't',
      ' ', 16,  0,   0,   0,  1, 0,   1,   0,   0x80, 0xbb, 0,   0,   0,   0x77,
      1,   0,   2,   0,   16, 0, 'd', 'a', 't', 'a',  0,    0,   0,   0};
  memcpy(out, header, sizeof(header));
  put32(out + 4,
        claimed_bytes < 0xffffffffu - 36 ? 36 + claimed_bytes : 0xffffffffu);
  put32(out + 40, claimed_bytes);
  for (uint32_t i = 0; i < frames; ++i) {
    const int v = (int)(8000.0 * sin(2.0 * PI * 1000.0 * i / 48000.0));
    out[44 + 2 * i] = (unsigned char)(v & 0xff);
    out[45 + 2 * i] = (unsigned char)((v >> 8) & 0xff);
  }
  return 44 + 2 * (size_t)frames;
}

/* FLAC's STREAMINFO total samples (36 bits, after the 20-bit rate, 3-bit
 * channels and 5-bit depth at byte 18) set to `total` */
static void
set_flac_total(unsigned char* flac, uint64_t total)
{
  uint64_t v = 0;
  for (int k = 0; k < 8; ++k)
    v = v << 8 | flac[18 + k];
  v = (v & ~((UINT64_C(1) << 36) - 1)) | (total & ((UINT64_C(1) << 36) - 1));
  for (int k = 7; k >= 0; --k, v >>= 8)
    flac[18 + k] = (unsigned char)(v & 0xff);
}

static void
good_files(void)
{
  puts("formats:");
  const double q16 = 1.0 / 32768.0, q24 = 1.0 / 8388608.0;
  expect_read("16bit.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000, 24000,
              q16, "WAV");
  expect_read("24bit.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_24, 1, 44100, 22050,
              q24, "24 bit");
  expect_read("32bit.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_32, 1, 96000, 9600,
              1e-7, "32 bit");
  expect_read("float.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 48000, 4800, 0.0,
              "float");
  expect_read("16bit.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 1, 48000, 24000,
              q16, "FLAC");
  expect_read("24bit.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_24, 2, 96000, 9600,
              q24, "FLAC");
  expect_read("stereo.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 2, 48000, 12000,
              q16, "16 bit");
  expect_read("22050.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 22050, 2205,
              q16, "WAV");
  expect_read("192000.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_24, 2, 192000, 192000,
              q24, "WAV");
  /* longer than the buffers' first size, so that they grow */
  expect_read("long.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 2, 44100, 300000,
              q16, "FLAC");
  expect_read("64frames.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000,
              RECORDING_MIN_FRAMES, q16, "WAV");
}

static void
thresholds(void)
{
  puts("thresholds:");
  char msg[256];
  recording rec;
  /* -80 dBFS is quiet, not silent; -80 dBFS on DC is sound */
  const char* const quiet = temp_path("quiet-80dB.wav");
  write_sound(quiet, SF_FORMAT_WAV | SF_FORMAT_PCM_24, 1, 48000, 4800, tone,
              1e-4);
  recording_status st = recording_read(quiet, &rec, msg, sizeof(msg));
  CHECK(st == RECORDING_SUCCESS, "-80 dBFS tone: %s", msg);
  recording_free(&rec);
  const char* const dc_tone = temp_path("dc-and-tone.wav");
  write_sound(dc_tone, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 1, 48000, 4800,
              dc_and_tone, 1e-4);
  st = recording_read(dc_tone, &rec, msg, sizeof(msg));
  CHECK(st == RECORDING_SUCCESS, "-80 dBFS tone on DC: %s", msg);
  recording_free(&rec);

  /* clipping reads, and says how much */
  const char* const clip = temp_path("clipped.wav");
  write_sound(clip, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000, 9600, clipped,
              3.0);
  st = recording_read(clip, &rec, msg, sizeof(msg));
  CHECK(st == RECORDING_SUCCESS, "clipped: %s", msg);
  CHECK(rec.clipped >= 10, "clipped: %zu clipped samples", rec.clipped);
  printf(
      "  ok   clipped.wav              reads, %zu clipped samples, peak %g\n",
      rec.clipped, rec.peak);
  recording_free(&rec);
  /* a clean tone at full scale peaks once per cycle: not clipped */
  const char* const full = temp_path("full-scale.wav");
  write_sound(full, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000, 4800, tone,
              1.0);
  st = recording_read(full, &rec, msg, sizeof(msg));
  CHECK(st == RECORDING_SUCCESS && rec.clipped == 0 && rec.peak > 0.999,
        "full-scale tone: %s, %zu clipped, peak %g", msg, rec.clipped,
        rec.peak);
  recording_free(&rec);
  const char* const tops = temp_path("flat-tops.wav");
  write_sound(tops, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 1, 48000, 1000, flat_tops,
              0.0);
  st = recording_read(tops, &rec, msg, sizeof(msg));
  CHECK(st == RECORDING_SUCCESS && rec.clipped == 12,
        "flat tops: %s, %zu clipped, want 12", msg, rec.clipped);
  recording_free(&rec);
  const char* const slow = temp_path("full-scale-20Hz.wav");
  write_sound(slow, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 1, 48000, 9600, slow_tone,
              1.0);
  st = recording_read(slow, &rec, msg, sizeof(msg));
  CHECK(st == RECORDING_SUCCESS && rec.clipped == 0,
        "full-scale 20 Hz tone: %s, %zu clipped", msg, rec.clipped);
  recording_free(&rec);
}

static void
bad_files(void)
{
  puts("bad files:");
  expect_fail_path("missing", temp_path("missing.wav"), RECORDING_ERR_OPEN,
                   "No such file");
  expect_fail_path("folder", tmpdir, RECORDING_ERR_OPEN, "folder");
  expect_fail_bytes("empty.wav", "", 0, RECORDING_ERR_EMPTY, "empty");
  expect_fail_sound("0frames.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000,
                    0, signal, 0.5, RECORDING_ERR_EMPTY, "no audio");
  expect_fail_sound("1frame.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000, 1,
                    constant, 0.5, RECORDING_ERR_EMPTY, "only 1 frame");
  expect_fail_sound("63frames.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000,
                    RECORDING_MIN_FRAMES - 1, signal, 0.5, RECORDING_ERR_EMPTY,
                    "too few");
  static const char text[] = "This is not a sound file, but notes about one.\n";
  expect_fail_bytes("notes.txt", text, strlen(text), RECORDING_ERR_OPEN,
                    "not a sound file");
  /* a PNG's signature and IHDR chunk: 1x1 pixel, 8-bit grey */
  static const unsigned char png[] = {
      0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0,    0,    0,
      13,   'I', 'H', 'D', 'R',  0,    0,    0,    1,    0,    0,
      0,    1,   8,   0,   0,    0,    0,    0x3a, 0x7e, 0x9b, 0x55};
  expect_fail_bytes("picture.png", png, sizeof(png), RECORDING_ERR_OPEN,
                    "not a sound file");
  expect_fail_sound("8000.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 8000, 800,
                    signal, 0.5, RECORDING_ERR_RATE, "8000 Hz");
  expect_fail_sound("384000.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 384000,
                    3840, signal, 0.5, RECORDING_ERR_RATE, "384000 Hz");
  expect_fail_sound("4ch.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 4, 48000, 4800,
                    signal, 0.5, RECORDING_ERR_CHANNELS, "4 channels");
  expect_fail_sound("zeros.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 2, 48000,
                    4800, zero, 0.0, RECORDING_ERR_SILENT,
                    "every sample is zero");
  expect_fail_sound("dither.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000,
                    4800, dither16, 0.0, RECORDING_ERR_SILENT, "silent");
  expect_fail_sound("quiet-100dB.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 1,
                    48000, 4800, tone, 1e-5, RECORDING_ERR_SILENT,
                    "-100.0 dBFS");
  expect_fail_sound("dc.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_24, 1, 48000, 4800,
                    constant, 0.25, RECORDING_ERR_DC, "constant offset");
  expect_fail_sound("dc-hum.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 1, 48000,
                    4800, dc_and_tone, 1e-5, RECORDING_ERR_DC, "-12.0 dBFS");
  expect_fail_sound("nan.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 1, 48000, 4800,
                    nan_at_100, 0.5, RECORDING_ERR_NOT_FINITE,
                    "NaN sample at frame 100");

  /* headers that lie: 10 hours, and a cut file */
  static unsigned char wav[44 + 2 * 4800];
  const size_t n = lying_wav(wav, 4800, 0xfffffff0u);
  expect_fail_bytes("10h-claimed.wav", wav, n, RECORDING_ERR_TRUNCATED,
                    "truncated");
  lying_wav(wav, 4800, 2 * 4800);
  expect_fail_bytes("cut.wav", wav, n - 1000, RECORDING_ERR_TRUNCATED,
                    "4300 of the 4800 frames");

  const char* const good = temp_path("for-patching.flac");
  write_sound(good, SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 1, 48000, 48000, signal,
              0.5);
  size_t size = 0;
  unsigned char* const flac = slurp(good, &size);
  if (!flac || size < 42 || memcmp(flac, "fLaC", 4)) {
    CHECK(0, "cannot read back %s", good);
    free(flac);
    return;
  }
  set_flac_total(flac, (uint64_t)(10 * 3600) * 48000);
  expect_fail_bytes("10h-claimed.flac", flac, size, RECORDING_ERR_TOO_LONG,
                    "36000 s long");
  set_flac_total(flac, UINT64_C(1) << 35);
  expect_fail_bytes("2^35-claimed.flac", flac, size, RECORDING_ERR_TOO_LONG,
                    "long by its header");
  /* under the limit, but past the end: read to the end, not allocated */
  set_flac_total(flac, 300 * 48000);
  expect_fail_bytes("5min-claimed.flac", flac, size, RECORDING_ERR_TRUNCATED,
                    "48000 of the 14400000 frames");
  free(flac);

  /* an Ogg Vorbis stream cut: no length in a header, and no end */
  const char* const ogg = temp_path("for-cutting.ogg");
  write_sound(ogg, SF_FORMAT_OGG | SF_FORMAT_VORBIS, 1, 48000, 48000, signal,
              0.5);
  unsigned char* const vorbis = slurp(ogg, &size);
  recording rec;
  char msg[256];
  CHECK(recording_read(ogg, &rec, msg, sizeof(msg)) == RECORDING_SUCCESS &&
            rec.frames == 48000,
        "whole Ogg Vorbis: %s, %zu frames", msg, rec.frames);
  recording_free(&rec);
  if (vorbis && size > 4000)
    expect_fail_bytes("cut.ogg", vorbis, size - 2000, RECORDING_ERR_TRUNCATED,
                      "ends unexpectedly");
  free(vorbis);

  /* RF64's 64-bit sizes: a data chunk of 2^41 bytes, 2^40 frames */
  const char* const rf64 = temp_path("for-patching.rf64");
  write_sound(rf64, SF_FORMAT_RF64 | SF_FORMAT_PCM_16, 1, 48000, 4800, signal,
              0.5);
  unsigned char* const big = slurp(rf64, &size);
  unsigned char* const ds64 =
      big && size > 64 ? memmem(big, 64, "ds64", 4) : NULL;
  CHECK(ds64, "no ds64 chunk in %s", rf64);
  if (ds64) {
    const uint64_t bytes = UINT64_C(1) << 41;
    for (int k = 0; k < 8; ++k) {
      ds64[8 + 8 + k] = (unsigned char)(bytes >> (8 * k));        /* data */
      ds64[8 + 16 + k] = (unsigned char)((bytes / 2) >> (8 * k)); /* frames */
    }
    expect_fail_bytes("2^40-claimed.rf64", big, size, RECORDING_ERR_TRUNCATED,
                      "of the 1099511627776 frames");
  }
  free(big);
}

int
main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror(tmpdir);
    return 1;
  }
  good_files();
  thresholds();
  bad_files();
  for (int i = 0; i < n_paths; ++i)
    unlink(paths[i]);
  rmdir(tmpdir);
  return check_done("test_recording");
}
