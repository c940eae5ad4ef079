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
