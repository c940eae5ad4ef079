/*
** codec_error.h: how codecs report what went wrong.
**
** A codec does not know the file name; it writes "section: byte offset N:
** what" (for example "plane 2 tiles: byte offset 1524: truncated, need 4096
** bytes, 100 left") into a caller-owned codec_error, and the SQLite layer
** puts the file name in front.  No allocation, so reporting cannot fail.
**
** Every failure also sets a code, so a caller decides what to do without
** reading the message (as zlib's Z_MEM_ERROR):
**
**   CODEC_OK        0: nothing failed (what codec_error_clear leaves).
**   CODEC_E_FORMAT   : the bytes are not a file the codec reads: truncated,
**                      damaged, inconsistent, an unsupported version.  The
**                      default of codec_fail().
**   CODEC_E_MEMORY   : malloc, calloc or realloc (or zlib's allocator)
**                      failed; the same call may succeed with more memory.
**                      Every allocation failure sets it: codec_fail_oom().
**   CODEC_E_LIMIT    : a size or count beyond a cap: one the codec sets so a
**                      small hostile file cannot make it allocate gigabytes
**                      (a claimed decompressed size, the number of names),
**                      or what the format's fields can hold on writing
**                      (32-bit offsets, 16-bit indices, 2 GiB datafiles).
**   CODEC_E_ARG      : a value or model the caller handed in is refused: a
**                      setter's value out of range or not fitting its field,
**                      an index that does not exist, text that is not valid
**                      UTF-8/JSON, a model too inconsistent to serialize.
**   CODEC_E_INTERRUPT: the caller's cancel callback asked a long loop to
**                      stop (codec_limits.h); nothing is wrong with the file.
**
** On success a codec leaves the codec_error untouched.  A codec that passes
** an inner failure on with more context uses codec_prefix(), which keeps the
** inner code.  err may be NULL everywhere: the failure is then only returned.
*/
#ifndef LEVELSQL_CODEC_ERROR_H
#define LEVELSQL_CODEC_ERROR_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum codec_code { CODEC_OK = 0, CODEC_E_FORMAT, CODEC_E_MEMORY, CODEC_E_LIMIT, CODEC_E_ARG, CODEC_E_INTERRUPT };

typedef struct codec_error {
  char msg[512]; /* first, so `codec_error e = {0};` empties both */
  int code;      /* enum codec_code */
} codec_error;

/* Empties e: code CODEC_OK, message "". */
static inline void codec_error_clear(codec_error *e) {
  if (e) {
    e->code = CODEC_OK;
    e->msg[0] = 0;
  }
}

/* Sets the code and the formatted message; returns 0 so a codec can
** `return codec_fail_code(...)` from a 1-on-success function. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline int codec_fail_code(codec_error *e, int code, const char *fmt, ...) {
  if (e) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->code = code;
  }
  return 0;
}

/* The four kinds by name (each takes a printf format and its arguments). */
#define codec_fail(e, ...) codec_fail_code((e), CODEC_E_FORMAT, __VA_ARGS__)
#define codec_fail_oom(e, ...) codec_fail_code((e), CODEC_E_MEMORY, __VA_ARGS__)
#define codec_fail_limit(e, ...) codec_fail_code((e), CODEC_E_LIMIT, __VA_ARGS__)
#define codec_fail_arg(e, ...) codec_fail_code((e), CODEC_E_ARG, __VA_ARGS__)

/* Puts the formatted context in front of the message an inner call left
** ("item type 5 id 3 (layer 2): " + "data 7: out of memory"), keeping its
** code; the result is cut at the buffer's size like any message.
** Returns 0. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline int codec_prefix(codec_error *e, const char *fmt, ...) {
  if (e) {
    char inner[sizeof e->msg];
    va_list ap;
    int n;
    memcpy(inner, e->msg, sizeof inner);
    va_start(ap, fmt);
    n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof e->msg) snprintf(e->msg + n, sizeof e->msg - (size_t)n, "%s", inner);
  }
  return 0;
}

#endif
