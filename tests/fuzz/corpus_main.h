/* SPDX-License-Identifier: ISC */
/*
 * A fuzz target as a plain program (built with FUZZ_MAIN): every file
 * named, and every file in every folder named, through the target's
 * run_file().  The seed corpus replayed as a meson test.
 */
#ifndef CONTACT_CORPUS_MAIN_H
#define CONTACT_CORPUS_MAIN_H

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

/* run_file: 0 when the input went through, else non-zero; 0 from here
 * when every input did and there was at least one */
static int
corpus_main(int argc, char** argv, int (*run_file)(const char* path))
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
