/*
** columns_table.c: levelsql_columns, the documentation of every table as a
** table: one row per column of every registered levelsql table, with its
** SQL type, whether UPDATE may set it, whether constraints on it are pushed
** down into the scan, and what it means.
**
**   SELECT column_name, writable, doc FROM levelsql_columns
**   WHERE table_name = 'wwd_objects';
**
** A plain eponymous virtual table over the session's list of tables (it
** reads no file, so it needs none of the engine's machinery).
*/
#include <string.h>

#include "engine/columns_table.h"
#include "engine/session.h"

typedef struct columns_vtab {
  sqlite3_vtab base;
  ls_session *sess;
} columns_vtab;

typedef struct columns_cursor {
  sqlite3_vtab_cursor base;
  int table;   /* index in sess->tables */
  int column;  /* -3: file, -2: source, -1: options, else the table's column */
} columns_cursor;

enum { COL_TABLE, COL_NAME, COL_TYPE, COL_WRITABLE, COL_PUSHED_DOWN, COL_DOC, COL_TABLE_DOC };

static int columns_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err) {
  columns_vtab *v;
  int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(table_name TEXT, column_name TEXT, type TEXT, writable INTEGER, pushed_down INTEGER, doc TEXT, table_doc TEXT)");
  (void)argc;
  (void)argv;
  (void)err;
  if (rc != SQLITE_OK) return rc;
  v = sqlite3_malloc(sizeof *v);
  if (!v) return SQLITE_NOMEM;
  memset(v, 0, sizeof *v);
  v->sess = aux;
  v->sess->refs++;
  *out = &v->base;
  return SQLITE_OK;
}

static int columns_disconnect(sqlite3_vtab *base) {
  columns_vtab *v = (columns_vtab *)base;
  ls_session_release(v->sess);
  sqlite3_free(v);
  return SQLITE_OK;
}

static int columns_best_index(sqlite3_vtab *base, sqlite3_index_info *info) {
  (void)base;
  info->estimatedCost = 1000;
  return SQLITE_OK;
}

static int columns_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out) {
  columns_cursor *c = sqlite3_malloc(sizeof *c);
  (void)base;
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  *out = &c->base;
  return SQLITE_OK;
}

static int columns_close(sqlite3_vtab_cursor *cur) {
  sqlite3_free(cur);
  return SQLITE_OK;
}

static int columns_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc, sqlite3_value **argv) {
  columns_cursor *c = (columns_cursor *)cur;
  (void)idx_num;
  (void)idx_str;
  (void)argc;
  (void)argv;
  c->table = 0;
  c->column = -1;
  return SQLITE_OK;
}

/* Rows per table: file, the table's columns, then the hidden source and
** options; columns -1 (file) .. ncolumns+1 (options). */
static int columns_next(sqlite3_vtab_cursor *cur) {
  columns_cursor *c = (columns_cursor *)cur;
  ls_session *s = ((columns_vtab *)cur->pVtab)->sess;
  if (c->table < s->ntables && ++c->column > s->tables[c->table]->ncolumns + 1) {
    c->table++;
    c->column = -1;
  }
  return SQLITE_OK;
}

static int columns_eof(sqlite3_vtab_cursor *cur) {
  columns_cursor *c = (columns_cursor *)cur;
  return c->table >= ((columns_vtab *)cur->pVtab)->sess->ntables;
}

static int columns_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  columns_cursor *c = (columns_cursor *)cur;
  const ls_table *t = ((columns_vtab *)cur->pVtab)->sess->tables[c->table];
  const char *name, *type, *doc;
  int writable = 0, pushed_down = 0;
  if (c->column < 0) {
    name = "file";
    type = "TEXT";
    doc = "path of the file the row comes from, as the source matched it (file = ? reads only that file)";
    pushed_down = !t->one_row_per_file;
  } else if (c->column == t->ncolumns) {
    name = "source";
    type = "HIDDEN";
    /* (a format an Infinity Engine game keeps in its archives also reads a game: game.h) */
    doc = !t->format || ls_format_game_type(t->format)
              ? "argument 1: a file, a folder, a glob pattern (**, {a,b}, any case), a JSON array of them, or a "
                "game's chitin.key (or its folder: the game's resources, override files first)"
              : "argument 1: a file, a folder, a glob pattern (**, {a,b}, any case) or a JSON array of them";
  } else if (c->column == t->ncolumns + 1) {
    name = "options";
    type = "HIDDEN";
    doc = NULL; /* from the options the format declares, below */
  } else {
    name = t->columns[c->column].name;
    type = t->columns[c->column].type;
    doc = t->columns[c->column].doc;
    writable = ls_column_writable(&t->columns[c->column]);
    pushed_down = (t->columns[c->column].flags & LS_COL_RANGE) != 0;
  }
  switch (i) {
    case COL_TABLE: sqlite3_result_text(ctx, t->name, -1, SQLITE_STATIC); break;
    case COL_NAME: sqlite3_result_text(ctx, name, -1, SQLITE_STATIC); break;
    case COL_TYPE: sqlite3_result_text(ctx, type, -1, SQLITE_STATIC); break;
    case COL_WRITABLE: sqlite3_result_int(ctx, writable); break;
    case COL_PUSHED_DOWN: sqlite3_result_int(ctx, pushed_down); break;
    case COL_DOC:
      if (doc) {
        sqlite3_result_text(ctx, doc, -1, SQLITE_STATIC);
      } else {
        char *examples = ls_options_examples(t->format);
        char *text = examples ? sqlite3_mprintf("argument 2: key=value options: %s", examples) : NULL;
        if (text) sqlite3_result_text(ctx, text, -1, sqlite3_free);
        else sqlite3_result_error_nomem(ctx);
        sqlite3_free(examples);
      }
      break;
    case COL_TABLE_DOC: sqlite3_result_text(ctx, t->doc, -1, SQLITE_STATIC); break;
  }
  return SQLITE_OK;
}

static int columns_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out) {
  columns_cursor *c = (columns_cursor *)cur;
  *out = (sqlite3_int64)c->table * 1000 + c->column + 1;
  return SQLITE_OK;
}

static const sqlite3_module columns_module = {
  0, NULL, columns_connect, columns_best_index, columns_disconnect, NULL,
  columns_open, columns_close, columns_filter, columns_next, columns_eof,
  columns_column, columns_rowid, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  NULL, NULL, NULL, NULL
};

static void columns_aux_free(void *p) {
  ls_session_release(p);
}

int columns_table_register(sqlite3 *db, ls_session *sess) {
  sess->refs++;
  return sqlite3_create_module_v2(db, "levelsql_columns", &columns_module, sess, columns_aux_free);
}
