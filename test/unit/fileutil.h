/*
** fileutil.h: whole-file read/write for the C tests and tools (not used by
** the extension, which has its own error-reporting I/O in ext/), and the
** worker processes of the tests that write one file from many at once.
*/
#ifndef LEVELSQL_FILEUTIL_H
#define LEVELSQL_FILEUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Reads a whole file into a malloc'd buffer; NULL on any failure. */
static inline unsigned char *file_read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    buf = (unsigned char *)malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
    }
    if (buf) *size = (size_t)n;
  }
  fclose(f);
  return buf;
}

/* Writes a buffer to a file; returns 1 on success. */
static inline int file_write_all(const char *path, const unsigned char *data, size_t size) {
  FILE *f = fopen(path, "wb");
  int ok;
  if (!f) return 0;
  ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

/* Runs procs worker processes side by side (at most 64), each
** worker(ctx, fd): it writes one record of size bytes (its counts) to the
** pipe fd and calls _exit.  Reads every worker's record into records
** (procs x size bytes, zeroed first: a worker that wrote none adds
** nothing), in the order they arrive, and waits for every worker.  Returns
** the number of records read, -1 when no pipe could be made.  (stdout is
** flushed first: the workers would print its buffer again.) */
static inline int fork_workers(int procs, void (*worker)(void *ctx, int fd), void *ctx, void *records, size_t size) {
  pid_t pids[64];
  int p[2], k, got = 0;
  if (procs < 0 || procs > 64 || pipe(p) != 0) return -1;
  memset(records, 0, (size_t)procs * size);
  fflush(stdout);
  for (k = 0; k < procs; k++) {
    if ((pids[k] = fork()) == 0) {
      close(p[0]);
      worker(ctx, p[1]);
      _exit(5);
    }
  }
  close(p[1]);
  for (k = 0; k < procs; k++) {
    if (read(p[0], (char *)records + (size_t)got * size, size) == (ssize_t)size) got++;
    if (pids[k] > 0) waitpid(pids[k], NULL, 0);
  }
  close(p[0]);
  return got;
}

#endif
