/*
** files_table.c: levelsql_files(source), one row per file the source
** matches, readable or not: the way to check a directory of levels.
**
**   SELECT file, error FROM levelsql_files('levels') WHERE NOT ok;
*/
#include "engine/files_table.h"

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
  LS_COL_CUSTOM("format", "TEXT", get_format, NULL, "'wwd', ... or NULL when no format recognises the file"),
  LS_COL_CUSTOM("size", "INTEGER", get_size, NULL, "bytes on disk (a game's resource: its bytes in the archive)"),
  LS_COL_CUSTOM("ok", "INTEGER", get_ok, NULL, "1 when every table of its format can read the file"),
  LS_COL_CUSTOM("error", "TEXT", get_error, NULL, "why it does not (section, index, byte offset)"),
};

/* Its rows come from the files the source matches, not from a model (the
** engine steps through the files itself for a one_row_per_file table). */
static const ls_table levelsql_files = {
  .name = "levelsql_files", .doc = "one row per file matched by the source, with its format and any error",
  .columns = file_columns, .ncolumns = (int)(sizeof file_columns / sizeof file_columns[0]),
  .one_row_per_file = 1, .rows_per_file = 1,
};

int files_table_register(sqlite3 *db, ls_session *sess) {
  return ls_register_table(db, sess, &levelsql_files, NULL);
}
