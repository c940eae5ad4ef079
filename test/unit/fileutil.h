/*
** fileutil.h: whole-file read/write for the C tests and tools (not used by
** the extension, which has its own error-reporting I/O in ext/).
*/
#ifndef LEVELSQL_FILEUTIL_H
#define LEVELSQL_FILEUTIL_H

#include <stdio.h>
#include <stdlib.h>

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

#endif
