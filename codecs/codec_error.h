/*
** codec_error.h: how codecs report what went wrong.
**
** A codec does not know the file name; it writes "section: byte offset N:
** what" (for example "plane 2 tiles: byte offset 1524: truncated, need 4096
** bytes, 100 left") into a caller-owned codec_error, and the SQLite layer
** puts the file name in front.  No allocation, so reporting cannot fail.
*/
#ifndef LEVELSQL_CODEC_ERROR_H
#define LEVELSQL_CODEC_ERROR_H

#include <stdarg.h>
#include <stdio.h>

typedef struct codec_error {
  char msg[512];
} codec_error;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline int codec_fail(codec_error *e, const char *fmt, ...) {
  if (e) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
  }
  return 0; /* so a codec can `return codec_fail(...)` from a 1-on-success function */
}

#endif
