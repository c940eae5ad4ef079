/*
** table_helpers.c: the functions behind engine.h's helpers for table
** families over a codec (the rest of them are macros and inline functions
** there): runs for JSON columns, error messages and their codes, 0/1
** options, JSON columns a codec reads and writes, string arrays for a
** codec, NULL-only writes to columns of other row kinds; a store()'s codec
** refusal named after a column and a BLOB a setter keeps for store().
** ls_copy_back lives in columns.c, beside the field sizes it needs; the
** engine checks INSERT arguments as declared in vtab.c (check_arg).
*/
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
int ls_fail(char **err, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  *err = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  return *err ? rc : SQLITE_NOMEM;
}

int ls_option_flag(const char *name, const char *one_means, const char *value, int64_t *out, char **err) {
  if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
    *err = sqlite3_mprintf("option %s takes 1 (%s) or 0 (the default), not '%s'", name, one_means, value);
    return 0;
  }
  *out = value[0] == '1';
  return 1;
}

void ls_codec_json_get(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const ls_codec_json *json = col->aux;
  size_t len = 0;
  char *text = json->to_json(row->rec, &len);
  if (!text) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text64(ctx, text, len, free, SQLITE_UTF8);
  sqlite3_result_subtype(ctx, 'J');
}

/* The text is copied with its NUL, for codecs that read up to it. */
int ls_codec_json_set(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  const ls_codec_json *json = col->aux;
  const unsigned char *text = sqlite3_value_text(v);
  size_t n = (size_t)sqlite3_value_bytes(v);
  ls_span span;
  char *copy;
  if (sqlite3_value_type(v) != SQLITE_TEXT) return ls_refuse(err, "column %s takes %s", col->name, json->takes);
  if (!text || !(copy = ls_arena_alloc(row->arena, n + 1))) return SQLITE_NOMEM;
  memcpy(copy, text, n + 1);
  span = (ls_span){copy, n};
  memcpy((unsigned char *)row->rec + col->offset, &span, sizeof span);
  return SQLITE_OK;
}

int ls_spans_split(ls_arena *arena, ls_span strings, const char *const **ptrs, const size_t **lens) {
  const ls_span *s = strings.p;
  const char **p = ls_arena_alloc(arena, sizeof *p * (strings.n + 1));
  size_t *n = ls_arena_alloc(arena, sizeof *n * (strings.n + 1)), i;
  if (!p || !n) return SQLITE_NOMEM;
  for (i = 0; i < strings.n; i++) {
    p[i] = s[i].p;
    n[i] = s[i].n;
  }
  *ptrs = p;
  *lens = n;
  return SQLITE_OK;
}

int ls_refuse_unless_null(sqlite3_value *v, const ls_column *col, const char *why, char **err) {
  if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  return ls_refuse(err, "column %s: %s", col->name, why);
}

/* Names the first column the write changed (the last one when none is
** marked, which cannot happen in a store()). */
int ls_store_failed(const ls_column *cols, int ncols, const unsigned char *changed, const codec_error *e, char **err) {
  int i = 0;
  while (i < ncols - 1 && !changed[i]) i++;
  return ls_codec_failed(e, SQLITE_CONSTRAINT, err, "column %s", cols[i].name);
}

int ls_stage_blob(ls_row *row, sqlite3_value *v, const ls_column *col, const char *takes, int reads_null, ls_span *out,
                  char **err) {
  void *copy;
  size_t n = (size_t)sqlite3_value_bytes(v);
  if (sqlite3_value_type(v) == SQLITE_NULL && reads_null) return SQLITE_OK;
  if (sqlite3_value_type(v) != SQLITE_BLOB || n == 0) {
    *err = sqlite3_mprintf("column %s: takes %s", col->name, takes);
    return SQLITE_CONSTRAINT;
  }
  if (!(copy = ls_arena_alloc(row->arena, n))) return SQLITE_NOMEM;
  memcpy(copy, sqlite3_value_blob(v), n);
  out->p = copy;
  out->n = n;
  return SQLITE_OK;
}
