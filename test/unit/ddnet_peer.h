/*
** ddnet_peer.h: what the Teeworlds codec tests share to compare with
** DDNet's own tools (Debian package ddnet-tools): the corpus maps, sorted,
** and a scratch folder with the storage.cfg the tools need to run in it.
*/
#ifndef LEVELSQL_DDNET_PEER_H
#define LEVELSQL_DDNET_PEER_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fileutil.h"

#define DDNET_TOOLS "/usr/lib/x86_64-linux-gnu/ddnet"

static inline int ddnet_name_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists the .map files of folder dir into names (strdup'd, sorted, at
** most max).  Returns the count, or -1 when the folder is missing. */
static inline int ddnet_list_maps(const char *dir, char **names, int max) {
  struct dirent *de;
  DIR *dh;
  int n = 0;
  if (!(dh = opendir(dir))) return -1;
  while ((de = readdir(dh)) != NULL && n < max) {
    size_t len = strlen(de->d_name);
    if (len >= 4 && strcmp(de->d_name + len - 4, ".map") == 0) names[n++] = strdup(de->d_name);
  }
  closedir(dh);
  qsort(names, (size_t)n, sizeof *names, ddnet_name_cmp);
  return n;
}

/* Lists the .map files of <corpus>/tw into names (strdup'd, sorted, at most
** max) and sets dir to that folder as an absolute path (the tools run in
** another directory).  Returns the count, or -1 when the folder is
** missing. */
static inline int ddnet_corpus_maps(const char *corpus, char *dir, size_t dir_size, char **names, int max) {
  char *abs = realpath(corpus, NULL);
  snprintf(dir, dir_size, "%s/tw", abs ? abs : corpus);
  free(abs);
  return ddnet_list_maps(dir, names, max);
}

/* A test's work on one map: its bytes, file name and a label for messages. */
typedef void ddnet_map_case(const unsigned char *buf, size_t n, const char *name, const char *label);

/* Runs map_case on each of the count maps `names` of dir, labelled
** "what NAME"; a file that cannot be read is a failed check. */
static inline void ddnet_each_map(const char *dir, char **names, int count, const char *what,
                                  ddnet_map_case *map_case) {
  int i;
  for (i = 0; i < count; i++) {
    char path[2048], label[2300];
    size_t n = 0;
    unsigned char *buf;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    snprintf(label, sizeof label, "%s %s", what, names[i]);
    buf = file_read_all(path, &n);
    REQUIRE(buf != NULL, "read %s", path);
    if (!buf) continue;
    map_case(buf, n, names[i], label);
    free(buf);
  }
}

/* Runs map_case on every map of the generated samples ($LEVELSQL_SAMPLES)
** and then of the corpus's tw folder, skipping (with `purpose` in the
** message) a set that is not there.  Returns the number of sample maps. */
static inline int ddnet_each_test_map(const char *purpose, ddnet_map_case *map_case) {
  const char *samples = getenv("LEVELSQL_SAMPLES"), *corpus = check_corpus_dir();
  char *names[256], dir[1024];
  int n, i, nsamples = 0;
  if (!samples || (n = ddnet_list_maps(samples, names, 256)) <= 0) {
    SKIP("$LEVELSQL_SAMPLES unset or without maps: sample %s", purpose);
  } else {
    ddnet_each_map(samples, names, n, "sample", map_case);
    for (i = 0; i < n; i++) free(names[i]);
    nsamples = n;
  }
  if (!corpus || (n = ddnet_corpus_maps(corpus, dir, sizeof dir, names, 256)) < 0) {
    SKIP("LEVELSQL_CORPUS unset: corpus %s", purpose);
  } else {
    ddnet_each_map(dir, names, n, "corpus", map_case);
    for (i = 0; i < n; i++) free(names[i]);
  }
  return nsamples;
}

/* Writes the storage.cfg ("add_path $CURRENTDIR") the tools need in the
** folder they run in.  Returns 1, or 0 when it cannot. */
static inline int ddnet_write_storage_cfg(const char *dir) {
  char path[512];
  FILE *f;
  snprintf(path, sizeof path, "%s/storage.cfg", dir);
  if (!(f = fopen(path, "w"))) return 0;
  fputs("add_path $CURRENTDIR\n", f);
  return fclose(f) == 0;
}

/* Makes a scratch folder from the mkdtemp template in tmpdir (overwritten
** with its name) holding the storage.cfg.  Returns 1, or 0 when it cannot. */
static inline int ddnet_workspace_open(char *tmpdir) {
  return mkdtemp(tmpdir) != NULL && ddnet_write_storage_cfg(tmpdir);
}

/* Runs DDNet's `tool a b` inside dir (which holds the storage.cfg; a is an
** absolute path, b may be relative to dir), output to the file log or
** /dev/null.  Returns the exit status, -1 when it could not run. */
static inline int ddnet_run(const char *dir, const char *tool, const char *a, const char *b, const char *log) {
  char cmd[8192];
  int rc;
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s/%s' '%s' '%s' >'%s' 2>&1", dir, DDNET_TOOLS, tool, a, b,
           log ? log : "/dev/null");
  rc = system(cmd);
  return rc == -1 ? -1 : (rc >> 8) & 0xFF;
}

/* Removes the storage.cfg and the (otherwise emptied) scratch folder. */
static inline void ddnet_workspace_close(const char *tmpdir) {
  char path[512];
  snprintf(path, sizeof path, "%s/storage.cfg", tmpdir);
  unlink(path);
  rmdir(tmpdir);
}

#endif
