/* SPDX-License-Identifier: ISC */
/*
 * Every demo scene (argument: the scenes folder), rendered by contact-render
 * (argument: its path) at 48 kHz as tools/demo does, ends in silence: the
 * last 10 ms of the WAV file peak below -80 dBFS, and the file is no longer
 * than the scene's length plus the renderer's tail bound.
 *
 * Why -80 dBFS: a file cut while it still rings ends with a step, heard as
 * a click; a step of a thousandth of full scale (-60 dBFS) is inaudible at
 * any sane listening level.  The renderer stops once the sound has stayed
 * below -90 dBFS for 100 ms, so the files end at -90 dBFS or lower before
 * the fade: the bar is 3x (10 dB) above that, and does not depend on the
 * last fade.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "render_tail.h"

#include <sndfile.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_SCENES = 256 };

static const double rate = 48000.0;
static const double end_seconds = 0.010;
static const double end_limit_dbfs = -80.0;

static int
by_name(const void* a, const void* b)
{
  return strcmp(*(char* const*)a, *(char* const*)b);
}

/* the scene's "length SECONDS" line, or -1 */
static double
scene_length(const char* path)
{
  FILE* f = fopen(path, "r");
  double length = -1;
  char line[1024];
  while (f && fgets(line, sizeof(line), f))
    if (sscanf(line, " length %lf", &length) == 1)
      break;
  if (f)
    fclose(f);
  return length;
}

static bool
run_render(const char* render, const char* scene, const char* wav)
{
  const pid_t pid = fork();
  if (pid == 0) {
    execl(render, render, scene, "--rate", "48000", "-o", wav, (char*)NULL);
    perror(render);
    _exit(127);
  }
  int status;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

static void
check_scene(const char* render, const char* dir, const char* file,
            const char* tmp)
{
  char scene[4096], wav[4096];
  snprintf(scene, sizeof(scene), "%s/%s", dir, file);
  snprintf(wav, sizeof(wav), "%s/%s.wav", tmp, file);
  const double length = scene_length(scene);
  CHECK(length > 0, "%s: no length line", file);
  if (!run_render(render, scene, wav)) {
    CHECK(false, "%s: contact-render failed", file);
    return;
  }
  SF_INFO info = {0};
  SNDFILE* f = sf_open(wav, SFM_READ, &info);
  if (!f) {
    CHECK(false, "%s: cannot read %s", file, wav);
    return;
  }
  const sf_count_t frames = info.frames;
  float* x = (float*)malloc((size_t)frames * 2 * sizeof(float) + 1);
  const bool read =
      x && info.channels == 2 && sf_readf_float(f, x, frames) == frames;
  sf_close(f);
  unlink(wav);
  CHECK(read, "%s: short read", file);
  if (!read) {
    free(x);
    return;
  }

  const sf_count_t end = (sf_count_t)lround(end_seconds * info.samplerate);
  float peak = 0;
  for (sf_count_t i = frames > end ? frames - end : 0; i < frames; ++i)
    peak = fmaxf(peak, fmaxf(fabsf(x[2 * i]), fabsf(x[2 * i + 1])));
  free(x);
  const double peak_db = peak > 0 ? 20 * log10(peak) : -INFINITY;
  const double seconds = (double)frames / info.samplerate;
  const double tail = seconds - length;
  const bool ok = peak_db < end_limit_dbfs && info.samplerate == (int)rate &&
                  tail <= RENDER_TAIL_MAX + 1.0 / rate;
  printf("%s %-28s %6.2f s (length %g + tail %.2f), last 10 ms %7.1f dBFS\n",
         ok ? "  ok " : "FAIL ", file, seconds, length, tail, peak_db);
  CHECK(peak_db < end_limit_dbfs, "%s: ends at %.1f dBFS (limit %g)", file,
        peak_db, end_limit_dbfs);
  CHECK(tail <= RENDER_TAIL_MAX + 1.0 / rate,
        "%s: %.3f s past its length (bound %d s)", file, tail, RENDER_TAIL_MAX);
}

int
main(int argc, char** argv)
{
  if (argc != 3) {
    fputs("usage: test_render_tail CONTACT-RENDER SCENES-DIR\n", stderr);
    return 2;
  }
  DIR* d = opendir(argv[2]);
  if (!d) {
    perror(argv[2]);
    return 1;
  }
  char* names[MAX_SCENES];
  int n = 0;
  for (struct dirent* e; (e = readdir(d)) && n < MAX_SCENES;) {
    const size_t len = strlen(e->d_name);
    if (len > 6 && !strcmp(e->d_name + len - 6, ".scene"))
      names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof(*names), by_name);
  CHECK(n > 0, "no scenes in %s", argv[2]);

  char tmp[] = "/tmp/contact-render-tail-XXXXXX";
  if (!mkdtemp(tmp)) {
    perror("mkdtemp");
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    check_scene(argv[1], argv[2], names[i], tmp);
    free(names[i]);
  }
  rmdir(tmp);
  return check_done("render_tail");
}
