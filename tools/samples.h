/*
** samples.h: what the sample generators (tools/gen_*_samples.c, one per
** format, run together by tools/gen_samples.sh for `make samples`) share:
** the command line, the output folder, and writing each sample file after
** checking that the format's own parser reads it back.
**
** A generator's main is one sample_run call: it passes a function that
** builds its i-th file in memory with the project's codecs (sample_build_fn)
** and one that parses bytes with its codec (sample_reparse_fn).  Nothing
** here knows a format.
*/
#ifndef LEVELSQL_SAMPLES_H
#define LEVELSQL_SAMPLES_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "../test/unit/fileutil.h"
#include "codec_error.h"

/* One sample file, as a generator's build function fills it in. */
typedef struct sample_file {
  const char *name;    /* file name inside the output folder */
  char what[128];      /* a short description for the "wrote" line */
  unsigned char *data; /* the file's bytes, malloc'd (sample_run frees them) */
  size_t size;
} sample_file;

/* Builds sample i (0 <= i < count) into *f.  Returns 1, or 0 with err set
** (f->name set when known, for the message). */
typedef int (*sample_build_fn)(size_t i, sample_file *f, codec_error *err);

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

/* The whole of a generator's main: `tool OUTDIR` builds samples 0 ..
** count-1 with `build` and writes each (see sample_write).  Returns the
** exit status: 0, 1 when a sample fails, 2 for a usage or folder error. */
static inline int sample_run(int argc, char **argv, const char *tool, size_t count, sample_build_fn build,
                             sample_reparse_fn reparse) {
  const char *dir = sample_out_dir(argc, argv, tool);
  size_t i;
  if (!dir) return 2;
  for (i = 0; i < count; i++) {
    sample_file f;
    codec_error err;
    int ok;
    memset(&f, 0, sizeof f);
    err.msg[0] = 0;
    ok = build(i, &f, &err);
    if (!ok) fprintf(stderr, "%s: %s: %s\n", tool, f.name ? f.name : "sample", err.msg);
    ok = ok && sample_write(tool, dir, f.name, f.data, f.size, reparse, f.what);
    free(f.data);
    if (!ok) return 1;
  }
  return 0;
}

#endif
