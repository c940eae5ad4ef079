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
**
** `tool --fuzz OUTDIR` writes the generator's fuzz seeds instead
** (test/fuzz/run.sh): files of a few KB that still hold every section kind
** of the format, so libFuzzer runs thousands of them a second, and the
** hostile ones of issue 24 (a small file claiming a huge decoded size),
** which are written without being read back (reading them back is the
** attack) or must be refused by the codec.
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
#include "common/codec_error.h"

/* What sample_write checks before writing a file: that the codec reads it
** back (every sample and ordinary seed), that the codec refuses it (a seed
** whose header claims more than the codec accepts), or nothing (a hostile
** seed the codec parses but whose full decoding is the attack). */
typedef enum sample_check { SAMPLE_READS_BACK = 0, SAMPLE_REFUSED, SAMPLE_UNCHECKED } sample_check;

/* One sample file, as a generator's build function fills it in. */
typedef struct sample_file {
  const char *name;    /* file name inside the output folder */
  char what[128];      /* a short description for the "wrote" line */
  unsigned char *data; /* the file's bytes, malloc'd (sample_run frees them) */
  size_t size;
  sample_check check;  /* SAMPLE_READS_BACK unless the build function says otherwise */
} sample_file;

/* Builds sample i (0 <= i < count) into *f.  Returns 1, or 0 with err set
** (f->name set when known, for the message). */
typedef int (*sample_build_fn)(size_t i, sample_file *f, codec_error *err);

/* One set of files a generator writes: `count` files built by `build`. */
typedef struct sample_set {
  size_t count;
  sample_build_fn build;
} sample_set;

/* A format's "does this parse" check: 1 when the codec reads the bytes
** back, else 0 with err set.  Each generator wraps its codec's parser. */
typedef int (*sample_reparse_fn)(const unsigned char *data, size_t size, codec_error *err);

/* The output folder of `tool [--fuzz] OUTDIR`, created (one level, like
** mkdir) unless it exists; *fuzz tells whether --fuzz was given.  Returns
** it, or NULL after printing why not (usage or the mkdir error). */
static inline const char *sample_out_dir(int argc, char **argv, const char *tool, int *fuzz) {
  struct stat st;
  const char *dir;
  *fuzz = argc == 3 && strcmp(argv[1], "--fuzz") == 0;
  if (argc != 2 + *fuzz || argv[1 + *fuzz][0] == '-') { /* an option is no folder name */
    fprintf(stderr, "usage: %s [--fuzz] OUTDIR\n", tool);
    return NULL;
  }
  dir = argv[1 + *fuzz];
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return dir;
    fprintf(stderr, "%s: %s exists and is not a folder\n", tool, dir);
    return NULL;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "%s: cannot create %s: %s\n", tool, dir, strerror(errno));
    return NULL;
  }
  return dir;
}

/* Checks the file as f->check says (by default that `reparse` reads it
** back), then writes it to dir/name and prints "wrote dir/name (N bytes,
** what)".  A sample that fails its check is never written: the message
** names the file and the codec's error.  Returns 1 on success. */
static inline int sample_write(const char *tool, const char *dir, const sample_file *f, sample_reparse_fn reparse) {
  char path[4096];
  codec_error err;
  const char *name = f->name, *what = f->what;
  const unsigned char *data = f->data;
  size_t size = f->size;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  err.msg[0] = 0;
  if (f->check == SAMPLE_READS_BACK && !reparse(data, size, &err)) {
    fprintf(stderr, "%s: %s does not read back: %s\n", tool, path, err.msg);
    return 0;
  }
  if (f->check == SAMPLE_REFUSED && reparse(data, size, &err)) {
    fprintf(stderr, "%s: %s is read although the codec must refuse it\n", tool, path);
    return 0;
  }
  if (!file_write_all(path, data, size)) {
    fprintf(stderr, "%s: cannot write %s: %s\n", tool, path, strerror(errno));
    return 0;
  }
  printf("wrote %s (%zu bytes, %s)\n", path, size, what);
  return 1;
}

/* The whole of a generator's main: `tool OUTDIR` builds the files of
** `samples` (0 .. count-1), `tool --fuzz OUTDIR` those of `seeds`, and
** writes each (see sample_write).  Returns the exit status: 0, 1 when a
** file fails, 2 for a usage or folder error. */
static inline int sample_run(int argc, char **argv, const char *tool, sample_set samples, sample_set seeds,
                             sample_reparse_fn reparse) {
  int fuzz;
  const char *dir = sample_out_dir(argc, argv, tool, &fuzz);
  size_t i, count = fuzz ? seeds.count : samples.count;
  sample_build_fn build = fuzz ? seeds.build : samples.build;
  if (!dir) return 2;
  for (i = 0; i < count; i++) {
    sample_file f;
    codec_error err;
    int ok;
    memset(&f, 0, sizeof f);
    err.msg[0] = 0;
    ok = build(i, &f, &err);
    if (!ok) fprintf(stderr, "%s: %s: %s\n", tool, f.name ? f.name : "sample", err.msg);
    ok = ok && sample_write(tool, dir, &f, reparse);
    free(f.data);
    if (!ok) return 1;
  }
  return 0;
}

#endif
