/*
** table_helpers.c: the functions of engine.h's helpers for tables over a
** codec's arrays (the rest of them are macros and inline functions there).
*/
#include <stdarg.h>
#include <stdint.h>

#include "engine/engine.h"

/* One element more than the run, so that an empty run allocates too. */
int ls_span_run(ls_arena *arena, ls_span *out, int64_t first, size_t n) {
  int64_t *run;
  size_t i;
  if (n >= SIZE_MAX / sizeof *run || !(run = ls_arena_alloc(arena, sizeof *run * (n + 1)))) return SQLITE_NOMEM;
  for (i = 0; i < n; i++) run[i] = first + (int64_t)i;
  out->p = run;
  out->n = n;
  return SQLITE_OK;
}

/* Out of memory for the message is out of memory. */
int ls_refuse(char **err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  *err = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  return *err ? SQLITE_CONSTRAINT : SQLITE_NOMEM;
}
