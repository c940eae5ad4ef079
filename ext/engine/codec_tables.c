/*
** codec_tables.c: helpers for the tables whose columns map a codec's
** structs and whose rules are the codec's calls (engine.h, "tables over a
** codec"): a store()'s codec refusal named after a column, a BLOB a setter
** keeps for store(), and the arguments an INSERT reads (a position, the
** index of an appended row, an argument the row cannot do without).
*/
#include <string.h>

#include "engine/engine.h"

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

/* An integer as SQLite's numeric affinity sees it ('3' is 3, 3.0 is not). */
int ls_arg_position(const ls_arg *a, int64_t dflt, int64_t max, int64_t *out, char **err) {
  sqlite3_value *v = a->value;
  if (sqlite3_value_type(v) == SQLITE_NULL) {
    *out = dflt;
    return SQLITE_OK;
  }
  if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER || sqlite3_value_int64(v) < 0 || sqlite3_value_int64(v) > max) {
    *err = sqlite3_mprintf("column %s: an INSERT takes an integer from 0 to %lld here, or NULL (last)", a->column->name,
                           (long long)max);
    return SQLITE_CONSTRAINT;
  }
  *out = sqlite3_value_int64(v);
  return SQLITE_OK;
}

int ls_arg_appended(const ls_arg *a, int64_t count, char **err) {
  sqlite3_value *v = a->value;
  const char *column = a->column->name;
  if (sqlite3_value_type(v) == SQLITE_NULL ||
      (sqlite3_value_numeric_type(v) == SQLITE_INTEGER && sqlite3_value_int64(v) == count))
    return SQLITE_OK;
  *err = sqlite3_mprintf("column %s: new rows are appended (%s %lld); give NULL or %lld", column, column,
                         (long long)count, (long long)count);
  return SQLITE_CONSTRAINT;
}

int ls_arg_needed(const ls_arg *a, int type, const char *table, const char *what, char **err) {
  int given = type == SQLITE_TEXT ? ls_arg_type(a) == SQLITE_TEXT && sqlite3_value_bytes(a->value) > 0 : ls_arg_given(a);
  if (given) return SQLITE_OK;
  *err = sqlite3_mprintf("column %s: an INSERT into %s needs %s", a->column->name, table, what);
  return SQLITE_CONSTRAINT;
}
