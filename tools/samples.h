/*
** samples.h: what the sample generators (tools/gen_*_samples.c, one per
** format, run together by tools/gen_samples.sh for `make samples`) share:
** the output folder from the command line, and writing one sample file
** after checking that the format's own parser reads it back.
**
** Each generator builds its files in memory with the project's codecs and
** hands the bytes to sample_write; nothing here knows a format.
*/
#ifndef LEVELSQL_SAMPLES_H
#define LEVELSQL_SAMPLES_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "../test/unit/fileutil.h"
#include "codec_error.h"

/* A format's "does this parse" check: 1 when the codec reads the bytes
** back, else 0 with err set.  Each generator wraps its codec's parser. */
typedef int (*sample_reparse_fn)(const unsigned char *data, size_t size, codec_error *err);

/* The output folder of `tool OUTDIR`, created (one level, like mkdir)
** unless it exists.  Returns it, or NULL after printing why not (usage or
** the mkdir error). */
static inline const char *sample_out_dir(int argc, char **argv, const char *tool) {
  struct stat st;
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTDIR\n", tool);
    return NULL;
  }
  if (stat(argv[1], &st) == 0) {
    if (S_ISDIR(st.st_mode)) return argv[1];
    fprintf(stderr, "%s: %s exists and is not a folder\n", tool, argv[1]);
    return NULL;
  }
  if (mkdir(argv[1], 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "%s: cannot create %s: %s\n", tool, argv[1], strerror(errno));
    return NULL;
  }
  return argv[1];
}

/* Checks that `reparse` reads data back, then writes it to dir/name and
** prints "wrote dir/name (N bytes, what)".  A sample the codec cannot read
** is never written: the message names the file and the codec's error.
** Returns 1 on success. */
static inline int sample_write(const char *tool, const char *dir, const char *name, const unsigned char *data,
                               size_t size, sample_reparse_fn reparse, const char *what) {
  char path[4096];
  codec_error err;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  err.msg[0] = 0;
  if (!reparse(data, size, &err)) {
    fprintf(stderr, "%s: %s does not read back: %s\n", tool, path, err.msg);
    return 0;
  }
  if (!file_write_all(path, data, size)) {
    fprintf(stderr, "%s: cannot write %s: %s\n", tool, path, strerror(errno));
    return 0;
  }
  printf("wrote %s (%zu bytes, %s)\n", path, size, what);
  return 1;
}

#endif
