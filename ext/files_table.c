/*
** files_table.c: levelsql_files(source), one row per file the source
** matches, readable or not: the way to check a directory of levels.
**
**   SELECT file, error FROM levelsql_files('levels') WHERE NOT ok;
*/
#include "files_table.h"

static void get_format(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  if (row->file->format) sqlite3_result_text(ctx, row->file->format, -1, SQLITE_TRANSIENT);
}

static void get_size(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  if (row->file->size >= 0) sqlite3_result_int64(ctx, row->file->size);
}

static void get_ok(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  sqlite3_result_int(ctx, row->file->error == NULL);
}

static void get_error(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  if (row->file->error) sqlite3_result_text(ctx, row->file->error, -1, SQLITE_TRANSIENT);
}

static const ls_column file_columns[] = {
  {"format", "TEXT", get_format, NULL, 0, 0, 0, "'wwd', ... or NULL when no format recognises the file"},
  {"size", "INTEGER", get_size, NULL, 0, 0, 0, "bytes on disk"},
  {"ok", "INTEGER", get_ok, NULL, 0, 0, 0, "1 when every table of its format can read the file"},
  {"error", "TEXT", get_error, NULL, 0, 0, 0, "why it does not (section, index, byte offset)"},
};

static const ls_table levelsql_files = {
  "levelsql_files", NULL, "one row per file matched by the source, with its format and any error",
  file_columns, (int)(sizeof file_columns / sizeof file_columns[0]),
  NULL, NULL, NULL, NULL, NULL, NULL, 1, NULL, NULL,
};

int files_table_register(sqlite3 *db, ls_session *sess) {
  return ls_register_table(db, sess, &levelsql_files);
}
