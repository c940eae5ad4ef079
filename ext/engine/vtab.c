/*
** vtab.c: the one sqlite3_module behind every levelsql table.
**
** Each table is an ls_table (engine.h): a column list and a row iterator.
** This file turns it into a virtual table whose SQL columns are
**
**     file, <the table's columns>, source HIDDEN, options HIDDEN
**
** so `wwd_objects('levels/a.WWD', 'encoding=cp1250')` passes source and
** options as table-valued-function arguments, and a named table
** (CREATE VIRTUAL TABLE t USING wwd_objects('levels', encoding=cp1250))
** keeps them from its CREATE arguments.
*/
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/record.h"
#include "engine/session.h"
#include "engine/source.h"

/* What one registered module knows: the shared session, its table and,
** for its insert's arguments, the index of each one's column (resolved by
** name when the table is registered). */
typedef struct ls_module_aux {
  ls_session *sess;
  const ls_table *table;
  int insert_columns[LS_INSERT_ARGS_MAX];
} ls_module_aux;

typedef struct ls_vtab {
  sqlite3_vtab base;
  sqlite3 *db;
  sqlite3_stmt *same_value;  /* compares a column's current value with a new one */
  ls_session *sess;
  const ls_table *table;
  const int *insert_columns; /* ls_module_aux.insert_columns */
  char *source;        /* a named table's source, NULL for the eponymous table */
  char *options_text;  /* a named table's options, NULL when none */
  ls_options opts;
  /* Between xBegin and the transaction's end: SQLite begins a virtual
  ** table before any statement that may write it, so only then can a
  ** column read be part of an UPDATE that leaves the column unchanged
  ** (sqlite3_vtab_nochange).  Reads outside skip the question. */
  int writing;
  /* The files this table's scans loaded since its transaction began
  ** (xBegin clears it; before any, since it was connected): where the
  ** second pass of an UPDATE or DELETE (xUpdate, which gets only the
  ** rowid) finds the file of a rowid its scan returned. */
  ls_part_map parts;
} ls_vtab;

typedef struct ls_cursor {
  sqlite3_vtab_cursor base;
  ls_walk *walk;       /* the files this scan visits (walk.c), and what the statement found out about them */
  ls_file *file;       /* the current file's cache entry (NULL when it could not be resolved) */
  void *model;         /* the model being scanned (the walk holds it), or NULL */
  ls_file_info info;
  int eof;
  int has_rowid;       /* a rowid = ? scan: at most one row */
  int64_t rowid_key;
  ls_range *range;     /* one per table column */
  ls_scan scan;
  char *source;        /* the hidden columns' values for this scan */
  char *options_text;
  ls_options opts;
  int entered;         /* a file of the walk is current */
  int path_is_blob;    /* info.path is not UTF-8: `file` is a BLOB of its bytes */
  char *scan_error;    /* set by a table's next() that could not go on */
  const ls_table *table;       /* the vtab's table, one load away per column read */
  const uint64_t *generation;  /* the session's write counter (ls_session.generation) */
  /* The current row as getters see it.  row.pos is the cursor's position
  ** (the scan moves it there); opts, file, rec and arena are the cursor's
  ** own (set at open); model is set by the first column read after the
  ** cursor moves, so a row's later columns reuse it, and its record. */
  ls_row row;
  /* How far the row is current: ROW_STATE(generation, level), the
  ** session's write counter when the cursor last moved or brought the row
  ** up to date, and how far (ROW_MOVED .. ROW_RECORD).  A column read
  ** needing a level the state lacks at the session's generation brings the
  ** row up to date (cursor_row_ready): after every move of the cursor
  ** (ls_next, ls_filter: level ROW_MOVED), and after every write (which
  ** bumps the generation).  A run of rows (run_at) is followed only while
  ** the generation is the one stamped in the state. */
  uint64_t row_state;
  void *rec;           /* the current row's record (tables with records) */
  ls_arena *arena;     /* what loading it decoded */
  char *rec_error;     /* why it could not be loaded (level ROW_FAILED) */
  int rec_rc;          /* and load()'s code then (SQLITE_INTERRUPT: the statement was interrupted) */
  ls_interrupt interrupt; /* the statement's, polled by loads that decode much (row.cancel) */
  codec_cancel cancel;
  int64_t *run_at;     /* ls_table_run: the coordinate of row.pos that steps up to run_last (NULL: ask next()) */
  int64_t run_last;
} ls_cursor;

/* The levels of ls_cursor.row_state, in the order a row gets ready: moved
** (nothing known), its model set (LS_COL_NOREC columns read), its record
** failed to load (not tried again at this generation), its record loaded. */
enum { ROW_MOVED = 0, ROW_MODEL = 1, ROW_FAILED = 2, ROW_RECORD = 3 };
#define ROW_STATE(generation, level) (((generation) << 2) | (uint64_t)(level))
#define ROW_STATE_GENERATION(state) ((state) >> 2)
#define ROW_STATE_LEVEL(state) ((int)((state) & 3))

/* Records of up to this many bytes (grid cells, most rows) are cleared
** before each load() with fixed-size stores rather than a call to memset:
** the cursor allocates at least this much for its record. */
#define SMALL_RECORD 32

/* SQL column numbers: 0 is `file`, then the table's columns, then hidden. */
#define COL_FILE 0
static int col_source(const ls_table *t) { return t->ncolumns + 1; }
static int col_options(const ls_table *t) { return t->ncolumns + 2; }

/* The name of the hidden source argument: `source`, or `source_path` in
** a table with a visible column named source (tw_sound_sources), since
** table-valued arguments bind by position and INSERT can name its target
** with `file`.  Messages name the argument the table takes. */
static const char *source_arg(const ls_table *t) {
  int i;
  for (i = 0; i < t->ncolumns; i++) {
    if (strcmp(t->columns[i].name, "source") == 0) return "source_path";
  }
  return "source";
}

/* The rowid of the row with key `key` in file f (*out), or an error
** message (sqlite3_mprintf'd, NULL: out of memory) when the key does not
** fit in the rowid's LS_KEY_BITS. */
static int rowid_of(const ls_table *t, const ls_file *f, const char *path, int64_t key, sqlite3_int64 *out,
                    char **err) {
  if (key < 0 || key > LS_KEY_MAX) {
    *err = sqlite3_mprintf("%s: %s: row key %lld does not fit in a rowid (keys of one file end at %lld)", path,
                           t->name, (long long)key, (long long)LS_KEY_MAX);
    return SQLITE_ERROR;
  }
  *out = (sqlite3_int64)((f->part << LS_KEY_BITS) | key);
  return SQLITE_OK;
}

/* ---- options -------------------------------------------------------------- */

/* Removes SQL quotes from a CREATE VIRTUAL TABLE argument ('x', "x", [x]). */
static char *dequote(const char *arg) {
  size_t n = strlen(arg);
  char q = arg[0], close = q == '[' ? ']' : q;
  char *out, *o;
  size_t i;
  if (n < 2 || (q != '\'' && q != '"' && q != '[' && q != '`') || arg[n - 1] != close) {
    return sqlite3_mprintf("%s", arg);
  }
  out = o = sqlite3_malloc64(n);
  if (!out) return NULL;
  for (i = 1; i + 1 < n; i++) {
    *o++ = arg[i];
    if (arg[i] == close && arg[i + 1] == close && q != '[') i++;
  }
  *o = 0;
  return out;
}

/* ---- connect / disconnect --------------------------------------------------- */

/* Declares the schema and reads a named table's arguments: the first is the
** source, the others key=value options.  Every table is DIRECTONLY: views
** and triggers of an untrusted database cannot reach files through it. */
static int ls_connect(sqlite3 *db, void *aux_, int argc, const char *const *argv, sqlite3_vtab **out,
                      char **err) {
  ls_module_aux *aux = aux_;
  const ls_table *t = aux->table;
  ls_vtab *v;
  sqlite3_str *sql;
  char *schema;
  int i, rc;
  v = sqlite3_malloc(sizeof *v);
  if (!v) return SQLITE_NOMEM;
  memset(v, 0, sizeof *v);
  v->db = db;
  v->sess = aux->sess;
  v->insert_columns = aux->insert_columns;
  v->table = t;
  for (i = 3; i < argc; i++) {
    char *arg = dequote(argv[i]);
    if (!arg) {
      rc = SQLITE_NOMEM;
      goto fail;
    }
    if (i == 3 && !strchr(arg, '=')) {
      v->source = arg;
    } else {
      char *joined = v->options_text ? sqlite3_mprintf("%s,%s", v->options_text, arg) : arg;
      if (joined != arg) sqlite3_free(arg);
      sqlite3_free(v->options_text);
      v->options_text = joined;
      if (!joined) {
        rc = SQLITE_NOMEM;
        goto fail;
      }
    }
  }
  if ((rc = ls_options_parse(v->table->format, v->options_text, &v->opts, err)) != SQLITE_OK) goto fail;

  sql = sqlite3_str_new(db);
  sqlite3_str_appendf(sql, "CREATE TABLE x(file TEXT");
  for (i = 0; i < t->ncolumns; i++) {
    sqlite3_str_appendf(sql, ", \"%w\" %s", t->columns[i].name, t->columns[i].type);
  }
  sqlite3_str_appendf(sql, ", %s HIDDEN, options HIDDEN)", source_arg(t));
  schema = sqlite3_str_finish(sql);
  if (!schema) {
    rc = SQLITE_NOMEM;
    goto fail;
  }
  rc = sqlite3_declare_vtab(db, schema);
  sqlite3_free(schema);
  if (rc != SQLITE_OK) goto fail;
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  aux->sess->refs++;
  *out = &v->base;
  return SQLITE_OK;
fail:
  sqlite3_free(v->source);
  sqlite3_free(v->options_text);
  sqlite3_free(v);
  return rc;
}

static int ls_disconnect(sqlite3_vtab *base) {
  ls_vtab *v = (ls_vtab *)base;
  sqlite3_finalize(v->same_value);
  ls_part_map_clear(&v->parts);
  ls_session_release(v->sess);
  sqlite3_free(v->source);
  sqlite3_free(v->options_text);
  sqlite3_free(v);
  return SQLITE_OK;
}

/* ---- planning ------------------------------------------------------------- */

/* Is the name of SQL column `col` the `len` bytes at `name`? */
static int column_is(const ls_table *t, int col, const char *name, size_t len) {
  const char *c = col == COL_FILE ? "file" : (col >= 1 && col <= t->ncolumns) ? t->columns[col - 1].name : NULL;
  return c && strlen(c) == len && memcmp(c, name, len) == 0;
}

/* Does the ORDER BY (or GROUP BY) ask for the order rows come in anyway:
** ascending on a prefix of file,<the table's natural_order>?  With a single
** file (file = ? or rowid = ?) the prefix may also start after `file`. */
static int order_is_natural(const ls_table *t, const sqlite3_index_info *info, int single_file) {
  const char *order = t->natural_order;
  int i = 0;
  if (info->nOrderBy == 0) return 0;
  if (info->aOrderBy[0].iColumn == COL_FILE) {
    if (info->aOrderBy[0].desc) return 0;
    i = 1;
  } else if (!single_file) {
    return 0;
  }
  for (; i < info->nOrderBy; i++) {
    size_t len;
    if (!order || !*order || info->aOrderBy[i].desc) return 0;
    len = strcspn(order, ",");
    if (!column_is(t, info->aOrderBy[i].iColumn, order, len)) return 0;
    order += len;
    if (*order == ',') order++;
  }
  return 1;
}

/* The planner's cost model, in rows (producing one row costs 1): */
/* opening one file of a scan: finding it, checking the cache, the filter */
#define LS_PLAN_FILE_COST 8.0
/* files of a source whose value is not known while planning (a pattern, a
** list, a parameter, another table's column) */
#define LS_PLAN_FILES_GUESS 10.0
/* the share of a file's rows a bound (<, <=, >, >=) on a pushed-down range
** column keeps; an equality keeps 1 / the column's values_per_file */
#define LS_PLAN_BOUND_KEEPS 0.33
/* the share of rows a constraint SQLite checks itself (on a column that is
** not pushed down) lets through: as SQLite guesses for its own tables */
#define LS_PLAN_CHECK_KEEPS 0.25
/* a scan that cannot run: no source, no file, no rowid */
#define LS_PLAN_IMPOSSIBLE 1e30

/* About how many resources of one type a game lists (a game of the
** Infinity Engine has hundreds to thousands of areas). */
#define LS_PLAN_GAME_FILES 1000.0

/* About how many files `source` names, for the planner: 1 for a file, the
** entries of a folder, a guess for a game (game.h) or anything else.
** Looks at the disk once or twice (stat; a listing without stats for a
** folder; a key's first bytes); never fails. */
static double plan_count_files(const char *source) {
  struct stat st;
  DIR *d;
  struct dirent *e;
  char *key = NULL;
  double n = 0;
  int folder;
  if (strpbrk(source, "*?[{")) return LS_PLAN_FILES_GUESS;
  if (stat(source, &st) != 0) return 1;
  folder = S_ISDIR(st.st_mode);
  if (ls_game_key_of(source, folder, &key)) {
    sqlite3_free(key);
    return LS_PLAN_GAME_FILES;
  }
  if (!folder) return 1;
  if (!(d = opendir(source))) return LS_PLAN_FILES_GUESS;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] != '.') n++;
  }
  closedir(d);
  return n > 1 ? n : 1;
}

/* The files a scan without file = ? or rowid = ? visits: those of the
** named table's source, or of the source constraint's value when SQLite
** knows it while planning (sqlite3_vtab_rhs_value, SQLite 3.38+). */
static double plan_files(const ls_vtab *v, sqlite3_index_info *info, int source_i) {
  const char *source = source_i < 0 ? v->source : NULL;
#if SQLITE_VERSION_NUMBER >= 3038000
  sqlite3_value *val = NULL;
  if (source_i >= 0 && sqlite3_libversion_number() >= 3038000 &&
      sqlite3_vtab_rhs_value(info, source_i, &val) == SQLITE_OK && val) {
    source = (const char *)sqlite3_value_text(val);
  }
#else
  (void)info;
#endif
  return source ? plan_count_files(source) : LS_PLAN_FILES_GUESS;
}

/* Whether constraint i compares with the BINARY collation, the only one
** the pushed-down `file` match (strcmp) agrees with.  A constraint under
** another (file = 'x' COLLATE NOCASE, RTRIM, an IN list with a COLLATE)
** is left to SQLite, so the answer does not depend on the plan.  Integer
** ranges and rowid need no such check: a collation only applies between
** two texts, and SQLite checks ranges again itself. */
static int binary_collation(sqlite3_index_info *info, int i) {
  const char *coll = sqlite3_vtab_collation(info, i);
  return !coll || sqlite3_stricmp(coll, "BINARY") == 0;
}

/* The share of a scan's rows that pass the usable constraints SQLite
** checks after the scan (those on columns not pushed down, other than
** "differs" and "is not null"): the scan reads every row, but fewer come
** out, so a table with such a filter is a better outer loop. */
static double plan_checked_share(const ls_table *t, sqlite3_index_info *info) {
  double share = 1;
  int i;
  for (i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    int pushable_op = c->op == SQLITE_INDEX_CONSTRAINT_EQ || c->op == SQLITE_INDEX_CONSTRAINT_GT ||
                      c->op == SQLITE_INDEX_CONSTRAINT_GE || c->op == SQLITE_INDEX_CONSTRAINT_LT ||
                      c->op == SQLITE_INDEX_CONSTRAINT_LE;
    if (!c->usable || c->iColumn < 0 || c->iColumn > t->ncolumns) continue;
    if (c->iColumn == COL_FILE ? c->op == SQLITE_INDEX_CONSTRAINT_EQ && binary_collation(info, i)
                               : (t->columns[c->iColumn - 1].flags & LS_COL_RANGE) && pushable_op) {
      continue;
    }
    if (c->op == SQLITE_INDEX_CONSTRAINT_NE || c->op == SQLITE_INDEX_CONSTRAINT_ISNOT ||
        c->op == SQLITE_INDEX_CONSTRAINT_ISNOTNULL) {
      continue;
    }
    share *= LS_PLAN_CHECK_KEEPS;
  }
  return share;
}

/* Plans a scan.  Pushed down: source and options (required arguments of
** the eponymous table: arguments, not filters, so a COLLATE on them
** changes nothing), file = ? (under the BINARY collation only:
** binary_collation), rowid = ?, and =, <, <=, >, >= on
** integer columns flagged LS_COL_RANGE.  The plan is written to idxStr as
** one token per argv entry ("S", "O", "F", "R", "C<col>:<op>") plus
** "U<colUsed>".
**
** The cost is what the scan reads: for each file, LS_PLAN_FILE_COST plus
** its rows (the table's rows_per_file, narrowed by the pushed-down
** ranges); a scan without file = ? also lists its source.  So in a join on
** `file` the table with fewer rows per file goes outside and the other is
** looked up one file at a time.  The rows that come out are fewer by the
** constraints SQLite checks itself (plan_checked_share).
**
** Returns SQLITE_CONSTRAINT when the source (or file, or rowid) is given
** but not usable in this join order, so SQLite tries another.  When
** nothing names any file, no join order can help: the plan "N" fails when
** run with a message naming the two ways to give a source. */
static int ls_best_index(sqlite3_vtab *base, sqlite3_index_info *info) {
  ls_vtab *v = (ls_vtab *)base;
  const ls_table *t = v->table;
  sqlite3_str *plan;
  int i, argv_n = 0, source_blocked = 0, options_blocked = 0, files_named = 0;
  int source_i = -1, options_i = -1, file_i = -1, rowid_i = -1;
  double files, rows, keep = 1, cost;
  for (i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    int eq = c->op == SQLITE_INDEX_CONSTRAINT_EQ;
    int rowid = c->iColumn == -1 && eq && !t->one_row_per_file;
    int file = c->iColumn == COL_FILE && eq && binary_collation(info, i);
    /* anything that could name the files in some join order */
    if ((eq && c->iColumn == col_source(t)) || file || rowid) files_named = 1;
    if (c->iColumn == col_source(t) || c->iColumn == col_options(t)) {
      if (!c->usable) {
        if (eq && c->iColumn == col_source(t)) source_blocked = 1;
        if (eq && c->iColumn == col_options(t)) options_blocked = 1;
        continue;
      }
      if (!eq) continue;
      if (c->iColumn == col_source(t)) source_i = i;
      else options_i = i;
    } else if (!c->usable) {
      continue;
    } else if (file && file_i < 0) {
      file_i = i;
    } else if (rowid && rowid_i < 0) {
      rowid_i = i;
    }
  }
  if (!v->source && !files_named) {
    /* Not an error here: SQLite also asks about each branch of an OR
    ** alone, without the source.  A plan that costs more than any other
    ** and fails when run (ls_filter's "N") is only chosen when there is
    ** no source anywhere. */
    info->idxStr = sqlite3_mprintf("N,U%llx", (unsigned long long)(info->colUsed >> 1));
    if (!info->idxStr) return SQLITE_NOMEM;
    info->needToFreeIdxStr = 1;
    info->estimatedCost = LS_PLAN_IMPOSSIBLE;
    info->estimatedRows = (sqlite3_int64)1 << 40;
    return SQLITE_OK;
  }
  if ((source_i < 0 && (source_blocked || (!v->source && file_i < 0 && rowid_i < 0))) ||
      (options_i < 0 && options_blocked)) {
    return SQLITE_CONSTRAINT;
  }
  plan = sqlite3_str_new(NULL);
#define USE(idx, tag)                                         \
  do {                                                        \
    info->aConstraintUsage[idx].argvIndex = ++argv_n;         \
    info->aConstraintUsage[idx].omit = 1;                     \
    sqlite3_str_appendf(plan, "%s,", tag);                    \
  } while (0)
  if (source_i >= 0) USE(source_i, "S");
  if (options_i >= 0) USE(options_i, "O");
  if (file_i >= 0) USE(file_i, "F");
  if (rowid_i >= 0) USE(rowid_i, "R");
#undef USE
  for (i = 0; i < info->nConstraint && rowid_i < 0; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    char op;
    if (!c->usable || c->iColumn < 1 || c->iColumn > t->ncolumns) continue;
    if (!(t->columns[c->iColumn - 1].flags & LS_COL_RANGE)) continue;
    switch (c->op) {
      case SQLITE_INDEX_CONSTRAINT_EQ: op = 'e'; break;
      case SQLITE_INDEX_CONSTRAINT_GT: op = 'g'; break;
      case SQLITE_INDEX_CONSTRAINT_GE: op = 'G'; break;
      case SQLITE_INDEX_CONSTRAINT_LT: op = 'l'; break;
      case SQLITE_INDEX_CONSTRAINT_LE: op = 'L'; break;
      default: continue;
    }
    /* SQLite still checks the value: the iterator may skip, not decide. */
    info->aConstraintUsage[i].argvIndex = ++argv_n;
    sqlite3_str_appendf(plan, "C%d:%c,", c->iColumn - 1, op);
    if (op != 'e') {
      keep *= LS_PLAN_BOUND_KEEPS;
    } else {
      unsigned values = LS_COL_VALUES_OF(t->columns[c->iColumn - 1].flags);
      keep /= values ? values : LS_PLAN_VALUES_PER_FILE;
    }
  }
  info->orderByConsumed = order_is_natural(t, info, file_i >= 0 || rowid_i >= 0);
  sqlite3_str_appendf(plan, "U%llx", (unsigned long long)(info->colUsed >> 1));
  info->idxStr = sqlite3_str_finish(plan);
  if (!info->idxStr) return SQLITE_NOMEM;
  info->needToFreeIdxStr = 1;
  if (rowid_i >= 0) {
    /* one row of one file, found by its key */
    rows = 1;
    cost = LS_PLAN_FILE_COST + 1;
    info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
  } else {
    files = file_i >= 0 ? 1 : plan_files(v, info, source_i);
    rows = files * (t->rows_per_file > 0 ? t->rows_per_file : LS_PLAN_ROWS_PER_FILE) * keep;
    cost = files * LS_PLAN_FILE_COST + rows;
    if (file_i < 0) cost += LS_PLAN_FILE_COST; /* listing the source */
    rows *= plan_checked_share(t, info);
  }
  info->estimatedCost = cost;
  info->estimatedRows = (sqlite3_int64)(rows < 1 ? 1 : rows);
  return SQLITE_OK;
}

/* ---- scanning ------------------------------------------------------------ */

static int ls_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out) {
  ls_vtab *v = (ls_vtab *)base;
  ls_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  c->range = sqlite3_malloc64(sizeof *c->range * (sqlite3_uint64)(v->table->ncolumns + 1));
  c->walk = ls_walk_new(v->sess, 1);
  if (v->table->record_size) {
    c->rec = sqlite3_malloc64(v->table->record_size < SMALL_RECORD ? SMALL_RECORD : v->table->record_size);
    c->arena = ls_arena_new();
  }
  if (!c->range || !c->walk || (v->table->record_size && (!c->rec || !c->arena))) {
    sqlite3_free(c->range);
    ls_walk_free(c->walk);
    sqlite3_free(c->rec);
    ls_arena_free(c->arena);
    sqlite3_free(c);
    return SQLITE_NOMEM;
  }
  c->table = v->table;
  c->generation = &v->sess->generation;
  c->row.opts = &c->opts;
  c->row.file = &c->info;
  c->row.rec = c->rec;
  c->row.arena = c->arena;
  ls_interrupt_init(&c->interrupt, v->db);
  c->cancel = ls_interrupt_cancel(&c->interrupt);
  c->row.cancel = &c->cancel;
  c->row_state = ROW_STATE(0, ROW_MOVED);
  c->eof = 1;
  c->run_at = NULL;
  *out = &c->base;
  return SQLITE_OK;
}

/* Forgets the current file of a scan (the walk leaves it when it moves
** on or closes). */
static void cursor_leave_file(ls_cursor *c) {
  c->model = NULL;
  c->file = NULL;
  c->entered = 0;
  c->run_at = NULL;
  memset(&c->info, 0, sizeof c->info);
}

/* Ends the scan in progress: its walk and the hidden columns' values. */
static void cursor_reset(ls_cursor *c) {
  cursor_leave_file(c);
  ls_walk_close(c->walk);
  sqlite3_free(c->source);
  sqlite3_free(c->options_text);
  c->source = c->options_text = NULL;
  c->eof = 1;
  c->has_rowid = 0;
}

static int ls_close(sqlite3_vtab_cursor *cur) {
  ls_cursor *c = (ls_cursor *)cur;
  cursor_reset(c);
  ls_walk_free(c->walk);
  sqlite3_free(c->scan_error);
  sqlite3_free(c->range);
  sqlite3_free(c->rec);
  sqlite3_free(c->rec_error);
  ls_arena_free(c->arena);
  ls_interrupt_done(&c->interrupt);
  sqlite3_free(c);
  return SQLITE_OK;
}

/* Sets the cursor's error message (and returns the code) for the vtab. */
static int cursor_error(ls_cursor *c, int rc, char *msg) {
  sqlite3_vtab *vt = c->base.pVtab;
  sqlite3_free(vt->zErrMsg);
  vt->zErrMsg = msg;
  return rc;
}

/* Asks the walk for the scan's next file and makes it current.  Returns
** SQLITE_OK with c->entered set, SQLITE_OK with c->eof set after the last
** file, or the walk's error. */
static int cursor_next_file(ls_cursor *c) {
  const ls_walk_file *wf;
  char *err = NULL;
  int rc = ls_walk_next(c->walk, &wf, &err);
  if (rc == SQLITE_DONE) {
    c->eof = 1;
    return SQLITE_OK;
  }
  if (rc != SQLITE_ROW) return cursor_error(c, rc, err);
  c->entered = 1;
  c->file = wf->entry;
  c->model = wf->model;
  c->info = wf->info;
  c->path_is_blob = wf->path_is_blob;
  return SQLITE_OK;
}

/* Moves to the next row (first_in_file: the first row of the file just
** entered), crossing into later files as needed.  A row found is stamped
** with the session's generation (row_state), which its run of rows
** (run_at) is valid for. */
static int cursor_advance(ls_cursor *c, int first_in_file) {
  const ls_table *t = c->table;
  for (;;) {
    if (c->entered) {
      if (t->one_row_per_file) {
        if (first_in_file) return SQLITE_OK;
      } else if (c->model && ls_table_next(t, c->model, &c->scan, &c->row.pos, first_in_file)) {
        int which = ls_table_run(t, c->model, &c->scan, &c->row.pos, &c->run_last);
        c->run_at = which >= 0 ? ls_pos_slot(&c->row.pos, which) : NULL;
        c->row_state = ROW_STATE(*c->generation, ROW_MOVED);
        return SQLITE_OK;
      }
      if (c->scan_error) {
        char *msg = sqlite3_mprintf("%s: %s", c->info.path, c->scan_error);
        sqlite3_free(c->scan_error);
        c->scan_error = NULL;
        return cursor_error(c, SQLITE_ERROR, msg);
      }
      cursor_leave_file(c);
    }
    {
      int rc = cursor_next_file(c);
      if (rc != SQLITE_OK || c->eof) return rc;
    }
    first_in_file = 1;
  }
}

/* Forgets what the cursor knew of its row (ls_row, record): it is about
** to move.  Every move goes through ls_next or ls_filter, which call it
** first, so a column read after a move sees the new row. */
static void cursor_moved(ls_cursor *c) {
  c->row_state = ROW_STATE(*c->generation, ROW_MOVED);
}

/* The next row: along the run of rows ls_table_run found (a grid row)
** by one step of its position while the model is unchanged (the
** generation stamped in row_state), else through cursor_advance.  Along a
** run the model stays the one c->row holds, so the row's position steps
** with the cursor's and the columns that read without a record
** (LS_COL_NOREC) stay ready (ROW_MODEL); the record is the next row's to
** load. */
static int ls_next(sqlite3_vtab_cursor *cur) {
  ls_cursor *c = (ls_cursor *)cur;
  if (c->run_at && *c->run_at < c->run_last && ROW_STATE_GENERATION(c->row_state) == *c->generation) { /* never in a rowid scan */
    ++*c->run_at;
    if (ROW_STATE_LEVEL(c->row_state) > ROW_MODEL) c->row_state = ROW_STATE(*c->generation, ROW_MODEL);
    return SQLITE_OK;
  }
  cursor_moved(c);
  if (c->has_rowid) {
    c->eof = 1;
    return SQLITE_OK;
  }
  return cursor_advance(c, 0);
}

/* Narrows the bounds of column col by one pushed-down constraint.  Values
** that are not numbers leave the bounds alone (SQLite's own check decides). */
static void range_apply(ls_range *r, char op, sqlite3_value *val) {
  int64_t x;
  double d;
  int type = sqlite3_value_numeric_type(val);
  if (type == SQLITE_INTEGER) {
    x = sqlite3_value_int64(val);
    switch (op) {
      case 'e': if (x > r->lo) r->lo = x; if (x < r->hi) r->hi = x; break;
      case 'g': if (x < INT64_MAX && x + 1 > r->lo) r->lo = x + 1; break;
      case 'G': if (x > r->lo) r->lo = x; break;
      case 'l': if (x > INT64_MIN && x - 1 < r->hi) r->hi = x - 1; break;
      case 'L': if (x < r->hi) r->hi = x; break;
    }
  } else if (type == SQLITE_FLOAT) {
    d = sqlite3_value_double(val);
    if (!(d > -9.0e18 && d < 9.0e18)) return;
    switch (op) {
      case 'g': case 'G': { int64_t lo = (int64_t)d; if ((double)lo < d || (op == 'g' && (double)lo == d)) lo++; if (lo > r->lo) r->lo = lo; break; }
      case 'l': case 'L': { int64_t hi = (int64_t)d; if ((double)hi > d || (op == 'l' && (double)hi == d)) hi--; if (hi < r->hi) r->hi = hi; break; }
      case 'e':
        if (d != (double)(int64_t)d) { /* no integer equals 2.5: an empty range */
          r->lo = 1;
          r->hi = 0;
        } else {
          x = (int64_t)d;
          if (x > r->lo) r->lo = x;
          if (x < r->hi) r->hi = x;
        }
        break;
    }
  }
}

/* Starts the scan's walk (walk.c): the files of its source (listed once
** per statement), or only `only` among them; without a source, `only`
** alone; by_part: only the file a rowid = ? scan's rowid names.  Tables
** of one row per file show an unreadable file with its error
** (levelsql_files); the others fail, or with on_error=skip pass over it,
** and note each file by its rowid file part for xUpdate (v->parts). */
static int cursor_walk_open(ls_cursor *c, const char *only, int by_part) {
  ls_vtab *v = (ls_vtab *)c->base.pVtab;
  const ls_table *t = v->table;
  ls_walk_spec spec;
  char *err = NULL;
  int rc;
  memset(&spec, 0, sizeof spec);
  spec.format = t->format;
  spec.source = c->source;
  spec.options = c->options_text;
  spec.nocase = c->opts.nocase;
  spec.only = only;
  spec.by_part = by_part;
  spec.part = c->rowid_key >> LS_KEY_BITS;
  spec.on_error = t->one_row_per_file ? LS_WALK_SHOW : c->opts.skip_errors ? LS_WALK_SKIP : LS_WALK_FAIL;
  spec.parts = t->one_row_per_file ? NULL : &v->parts;
  if ((rc = ls_walk_open(c->walk, &spec, &err)) != SQLITE_OK) return cursor_error(c, rc, err);
  return SQLITE_OK;
}

/* A rowid = ? scan (c->rowid_key): the row whose key the rowid holds, in
** the file whose file part it holds (engine.h, "Row identity"), found
** among the files the statement names (walk.c, by_part).  A rowid of no
** such file matches nothing. */
static int filter_rowid(ls_cursor *c, const char *file_eq) {
  int64_t part = c->rowid_key >> LS_KEY_BITS;
  int rc;
  if (c->rowid_key < 0) return SQLITE_OK;
  if ((rc = cursor_walk_open(c, file_eq, 1)) != SQLITE_OK) return rc;
  c->eof = 0;
  if ((rc = cursor_next_file(c)) != SQLITE_OK || c->eof) return rc;
  if (!c->model || c->file->part != part || !ls_table_seek(c->table, c->model, c->rowid_key & LS_KEY_MAX, &c->row.pos)) {
    c->eof = 1;
  }
  return SQLITE_OK;
}

/* The integer a rowid = ? constraint's value names (*out): an integer, or
** a real or text equal to one exactly (SQLite compares 5.0 and '5' with
** the rowid 5 as equal).  0 when no rowid can equal it. */
static int rowid_value(sqlite3_value *val, int64_t *out) {
  double d;
  switch (sqlite3_value_numeric_type(val)) {
    case SQLITE_INTEGER: *out = sqlite3_value_int64(val); return 1;
    case SQLITE_FLOAT:
      d = sqlite3_value_double(val);
      /* [-2^63, 2^63): every integral double there is an int64 */
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || d != (double)(int64_t)d) return 0;
      *out = (int64_t)d;
      return 1;
    default: return 0;
  }
}

static int ls_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                     sqlite3_value **argv) {
  ls_cursor *c = (ls_cursor *)cur;
  ls_vtab *v = (ls_vtab *)cur->pVtab;
  const ls_table *t = v->table;
  const char *p = idx_str ? idx_str : "";
  const char *file_eq = NULL;
  char *err = NULL;
  int i, a = 0, rc, empty = 0;
  (void)idx_num;
  /* A scan starts: the statement that was writing (if any) is over (see
  ** ls_update). */
  ls_session_statement_end(v->sess);
  cursor_moved(c);
  cursor_reset(c);
  for (i = 0; i < t->ncolumns; i++) {
    c->range[i].lo = INT64_MIN;
    c->range[i].hi = INT64_MAX;
  }
  c->scan.range = c->range;
  c->scan.cols_used = ~(uint64_t)0;
  c->scan.error = &c->scan_error;
  ls_scan_bind_positions(t, &c->scan);
  c->opts = v->opts;
  while (*p) {
    sqlite3_value *val = a < argc ? argv[a] : NULL;
    switch (*p) {
      case 'S': c->source = val && sqlite3_value_text(val) ? sqlite3_mprintf("%s", sqlite3_value_text(val)) : NULL;
        if (!c->source) empty = 1;
        a++; break;
      case 'O': c->options_text = val && sqlite3_value_text(val) ? sqlite3_mprintf("%s", sqlite3_value_text(val)) : NULL;
        a++; break;
      case 'F': file_eq = val ? (const char *)sqlite3_value_text(val) : NULL;
        if (!file_eq) empty = 1;
        a++; break;
      case 'R':
        if (!val || !rowid_value(val, &c->rowid_key)) {
          empty = 1;
        } else {
          c->has_rowid = 1;
        }
        a++; break;
      case 'C': {
        int col = atoi(p + 1);
        const char *colon = strchr(p, ':');
        if (val && colon && col >= 0 && col < t->ncolumns) range_apply(&c->range[col], colon[1], val);
        a++; break;
      }
      case 'U': c->scan.cols_used = strtoull(p + 1, NULL, 16); break;
      case 'N':
        return cursor_error(c, SQLITE_ERROR, sqlite3_mprintf("%s needs a source: %s('folder') or WHERE %s = '...'",
                                                              t->name, t->name, source_arg(t)));
    }
    p = strchr(p, ',');
    if (!p) break;
    p++;
  }
  if (!c->options_text && v->options_text) c->options_text = sqlite3_mprintf("%s", v->options_text);
  if (c->options_text && (rc = ls_options_parse(t->format, c->options_text, &c->opts, &err)) != SQLITE_OK) {
    return cursor_error(c, rc, err);
  }
  if (!c->source && v->source && !empty) c->source = sqlite3_mprintf("%s", v->source);
  if (empty) return SQLITE_OK;
  if (c->has_rowid) return filter_rowid(c, file_eq);
  if ((rc = cursor_walk_open(c, file_eq, 0)) != SQLITE_OK) return rc;
  c->eof = 0;
  return cursor_advance(c, 1);
}

static int ls_eof(sqlite3_vtab_cursor *cur) {
  return ((ls_cursor *)cur)->eof;
}

/* Frees what the previous row's record left: its arena's allocations
** and its load error. */
static __attribute__((noinline)) void cursor_record_clear(ls_cursor *c) {
  if (!ls_arena_empty(c->arena)) ls_arena_reset(c->arena);
  sqlite3_free(c->rec_error);
  c->rec_error = NULL;
}

/* Brings c->row up to date for reading column col, once per row (and
** again after a write): sets the row's model (level ROW_MODEL; the
** position is the cursor's own), and loads its record (ROW_RECORD) unless
** the column reads without one.  A record that failed to load (ROW_FAILED)
** is not loaded again for the same row and generation.  A write since the
** row was found ends its run (run_at): the model may have changed.
** Returns 1, or 0 when col needs the record and it cannot be loaded
** (c->rec_error).  Called by ls_column_value only when row_state lacks
** the level col needs at the session's generation, so the column reads
** that find the row ready skip all of it. */
static __attribute__((noinline)) int cursor_row_ready(ls_cursor *c, const ls_column *col) {
  const ls_table *t = c->table;
  uint64_t generation = *c->generation;
  if (ROW_STATE_GENERATION(c->row_state) != generation) {
    c->run_at = NULL;
    c->row_state = ROW_STATE(generation, ROW_MOVED);
  }
  c->row.model = c->model;
  if (!c->model || !t->record_size) {
    c->row_state = ROW_STATE(generation, ROW_RECORD);
    return 1;
  }
  if (ROW_STATE_LEVEL(c->row_state) < ROW_MODEL) c->row_state = ROW_STATE(generation, ROW_MODEL);
  if (col->flags & LS_COL_NOREC) return 1;
  if (ROW_STATE_LEVEL(c->row_state) == ROW_MODEL) {
    if (c->arena->head || c->rec_error) cursor_record_clear(c);
    /* a constant size is a few stores, not a call (ls_open allocated it) */
    if (t->record_size <= SMALL_RECORD) memset(c->rec, 0, SMALL_RECORD);
    else memset(c->rec, 0, t->record_size);
    c->rec_rc = t->load(&c->row, &c->rec_error);
    if (c->rec_rc != SQLITE_OK && !c->rec_error) c->rec_error = sqlite3_mprintf("out of memory");
    c->row_state = ROW_STATE(generation, c->rec_error ? ROW_FAILED : ROW_RECORD);
  }
  return ROW_STATE_LEVEL(c->row_state) == ROW_RECORD;
}

/* Fails a column read whose record cannot be loaded: "<file>: <why>";
** an interrupted load fails the statement with SQLITE_INTERRUPT. */
static __attribute__((noinline)) void column_unloadable(ls_cursor *c, sqlite3_context *ctx) {
  char *msg;
  if (c->rec_rc == SQLITE_INTERRUPT) {
    sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
    return;
  }
  msg = sqlite3_mprintf("%s: %s", c->info.path, c->rec_error);
  sqlite3_result_error(ctx, msg ? msg : c->rec_error, -1);
  sqlite3_free(msg);
}

/* Sets a path as TEXT, or as a BLOB of its bytes when it is not UTF-8 (a
** file name in another encoding): lossless, and no host fails to decode
** the result.  `WHERE file = <that blob>` finds it (ls_filter reads the
** bytes). */
static void result_path(sqlite3_context *ctx, const char *path, int is_blob) {
  if (is_blob) sqlite3_result_blob(ctx, path, (int)strlen(path), SQLITE_TRANSIENT);
  else sqlite3_result_text(ctx, path, -1, SQLITE_TRANSIENT);
}

/* The columns beside the table's own: `file`, and the hidden arguments,
** which are always given (an UPDATE's unchanged ones too), so xUpdate
** knows the options (encoding) in force. */
static __attribute__((noinline)) int column_outside_table(ls_cursor *c, sqlite3_context *ctx, int i) {
  if (i == COL_FILE) {
    result_path(ctx, c->info.path, c->path_is_blob);
  } else if (i == col_source(c->table)) {
    if (c->source) result_path(ctx, c->source, !ls_utf8_valid(c->source, strlen(c->source)));
  } else if (i == col_options(c->table)) {
    if (c->options_text) sqlite3_result_text(ctx, c->options_text, -1, SQLITE_TRANSIENT);
  }
  return SQLITE_OK;
}

/* The value of SQL column i of the cursor's row.  Columns an UPDATE leaves
** alone are not computed.  Position columns are answered without a record
** (a grid scan reading x and y loads nothing per row).  The other columns
** see the row through c->row, brought up to date once per row, and share
** its record (cursor_row_ready).  The rare cases are out of line, so this
** path, run for every column of every row, stays short. */
static int ls_column_value(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  ls_cursor *c = (ls_cursor *)cur;
  const ls_column *col;
  if ((unsigned)i - 1u >= (unsigned)c->table->ncolumns) return column_outside_table(c, ctx, i);
  if (((ls_vtab *)cur->pVtab)->writing && sqlite3_vtab_nochange(ctx)) return SQLITE_OK;
  col = &c->table->columns[i - 1];
  if (col->kind == LS_POS) {
    sqlite3_result_int64(ctx, ls_pos_get(&c->row.pos, (int)col->offset));
    return SQLITE_OK;
  }
  if (c->row_state < ROW_STATE(*c->generation, col->flags & LS_COL_NOREC ? ROW_MODEL : ROW_RECORD) && !cursor_row_ready(c, col)) {
    column_unloadable(c, ctx);
  } else if (col->kind == LS_CUSTOM) {
    col->get(&c->row, ctx, col);
  } else {
    ls_column_get(c->table, &c->row, ctx, col);
  }
  return SQLITE_OK;
}

static int ls_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out) {
  ls_cursor *c = (ls_cursor *)cur;
  const ls_table *t = ((ls_vtab *)cur->pVtab)->table;
  char *err = NULL;
  int rc;
  if (t->one_row_per_file || !c->model || !c->file) {
    /* one row per file: the file's part alone, so the rowid is the same
    ** however the statement narrowed its list (not the row's place in it) */
    int64_t part = c->file ? c->file->part : c->info.path ? ls_file_part(c->info.path) : 0;
    *out = (sqlite3_int64)(part << LS_KEY_BITS);
  } else if ((rc = rowid_of(t, c->file, c->info.path, ls_table_key(t, c->model, &c->row.pos), out, &err)) != SQLITE_OK) {
    return cursor_error(c, err ? rc : SQLITE_NOMEM, err);
  }
  return SQLITE_OK;
}

/* ---- writing ---------------------------------------------------------------- */

static int vtab_error(ls_vtab *v, int rc, char *msg) {
  sqlite3_free(v->base.zErrMsg);
  v->base.zErrMsg = msg;
  return rc;
}

/* Finds the file of a rowid and its working model, and positions *pos on
** the row.  The file is the one with the rowid's file part among those
** this table's scans loaded in the transaction (v->parts): the statement's
** own scan returned the rowid, so its file is there; a part two of them
** share is refused.  Errors say which file and that the row is gone. */
static int locate_for_write(ls_vtab *v, sqlite3_int64 rowid, ls_file **f, ls_model **m, ls_pos *pos) {
  const ls_part_slot *slot = rowid >= 0 ? ls_part_map_get(&v->parts, rowid >> LS_KEY_BITS) : NULL;
  char *err = NULL;
  if (!slot || !slot->file->shown) {
    return vtab_error(v, SQLITE_ERROR, sqlite3_mprintf("no level file read by this statement has rowid %lld", (long long)rowid));
  }
  if (slot->other) return vtab_error(v, SQLITE_ERROR, ls_collision_message(slot->other->shown, slot->file->shown, slot->part));
  *f = slot->file;
  if (!(*m = ls_session_writable(v->sess, *f, (*f)->shown, &err))) return vtab_error(v, SQLITE_ERROR, err);
  if (!ls_table_seek(v->table, (*m)->p, rowid & LS_KEY_MAX, pos)) {
    return vtab_error(v, SQLITE_ERROR,
                      sqlite3_mprintf("%s: %s row %lld no longer exists", (*f)->shown, v->table->name,
                                      (long long)(rowid & LS_KEY_MAX)));
  }
  return SQLITE_OK;
}

/* The name of the row at pos as the statement's user saw it: found by its
** key in the model the statement started from, since earlier rows of the
** same statement may have moved it (a DELETE of walls shifts the door
** polygons after them); where it is now when it is not there (a row the
** statement inserted). */
static char *describe_as_seen(ls_vtab *v, ls_file *f, const void *model, const ls_pos *pos) {
  const ls_model *start = ls_session_statement_model(v->sess, f);
  ls_pos then;
  if (start && start->p != model &&
      ls_table_seek(v->table, start->p, ls_table_key(v->table, model, pos) & LS_KEY_MAX, &then)) {
    return ls_table_describe(v->table, start->p, &then);
  }
  return ls_table_describe(v->table, model, pos);
}

/* Sets the vtab error "<file>: <row>: <message>" for a failed edit of the
** row at pos (the row part when the table can name it, as the statement
** saw it); takes msg. */
static int row_error(ls_vtab *v, int rc, ls_file *f, const void *model, const ls_pos *pos, char *msg) {
  char *row = describe_as_seen(v, f, model, pos);
  char *full = row ? sqlite3_mprintf("%s: %s: %s", f->shown, row, msg ? msg : "invalid value")
                   : sqlite3_mprintf("%s: %s", f->shown, msg ? msg : "invalid value");
  sqlite3_free(row);
  sqlite3_free(msg);
  return vtab_error(v, rc, full);
}

/* What levelsql_column_value() reads: one column of one row.  It travels
** as a pointer value (sqlite3_bind_pointer), which SQL cannot forge. */
typedef struct ls_column_ref {
  const ls_table *table;
  const ls_column *col;
  const ls_row *row;
} ls_column_ref;

#define LS_COLUMN_REF "levelsql_column_ref"

/* levelsql_column_value(ref): a column's current value, through its
** getter.  A getter writes into an sqlite3_context, which only a SQL
** function has; the engine needs the value to tell whether an UPDATE
** changes a column (see column_holds). */
static void column_value_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const ls_column_ref *ref = sqlite3_value_pointer(argv[0], LS_COLUMN_REF);
  (void)argc;
  if (ref) ls_column_get(ref->table, ref->row, ctx, ref->col);
}

int ls_register_engine_functions(sqlite3 *db) {
  return sqlite3_create_function(db, "levelsql_column_value", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL,
                                 column_value_func, NULL, NULL);
}

/* Sets *same to whether the row's column already holds `value` (SQL's IS:
** equal, or both NULL).  Returns an SQLite code with the vtab error set. */
static int column_holds(ls_vtab *v, const ls_row *row, const ls_column *col, sqlite3_value *value, int *same) {
  ls_column_ref ref;
  int rc;
  if (!v->same_value &&
      (rc = sqlite3_prepare_v2(v->db, "SELECT levelsql_column_value(?1) IS ?2", -1, &v->same_value, NULL)) != SQLITE_OK) {
    return vtab_error(v, rc, sqlite3_mprintf("%s", sqlite3_errmsg(v->db)));
  }
  ref.table = v->table;
  ref.col = col;
  ref.row = row;
  sqlite3_bind_pointer(v->same_value, 1, &ref, LS_COLUMN_REF, NULL);
  sqlite3_bind_value(v->same_value, 2, value);
  rc = sqlite3_step(v->same_value);
  /* A getter that fails (a damaged part of the file) holds no value. */
  *same = rc == SQLITE_ROW && sqlite3_column_int(v->same_value, 0);
  sqlite3_reset(v->same_value);
  sqlite3_clear_bindings(v->same_value); /* ref lives on this stack */
  return SQLITE_OK;
}

/* Why a write cannot load its row (takes msg): "column x: <msg>", naming
** the first writable column the statement gives, as a setter's error
** would (the row's data, e.g. a damaged layer, is what the write needs). */
static char *unloadable(const ls_table *t, sqlite3_value **values, char *msg) {
  char *full;
  int i;
  for (i = 1; i <= t->ncolumns; i++) {
    if (!sqlite3_value_nochange(values[i]) && ls_column_writable(&t->columns[i - 1])) break;
  }
  if (i > t->ncolumns || !msg) return msg;
  full = sqlite3_mprintf("column %s: %s", t->columns[i - 1].name, msg);
  if (!full) return msg;
  sqlite3_free(msg);
  return full;
}

/* Applies the values of an UPDATE or INSERT to the row.  values[0] is
** `file`, values[1..n] the table's columns.
**
** On UPDATE the columns that change are the ones SQL sets: SQLite marks
** the others sqlite3_value_nochange.  Two exceptions compare the new value
** with what the row holds: a read-only column given the value it holds is
** no change; and SQLite 3.40 hands an UPDATE ... FROM every column, set or
** not, so when no column is marked unchanged, a value equal to the row's
** is taken as not set (columns outside SET then keep their stored values).
** Which columns change is decided for the whole row before any value is
** written.  INSERT ignores read-only columns (they are derived: idx,
** counts...) and NULLs (the blank row's defaults).
**
** Tables with records: the row's record is loaded, the new values are
** written into it column by column (in column order, so a kind set in the
** same UPDATE decides what later columns may hold), and the table's
** store() checks the row as a whole and writes it to the model.  In a
** table without a record, every writable column is custom and its setter
** writes the model itself. */
static int apply_values(ls_vtab *v, ls_file *f, ls_model *m, ls_pos *pos, sqlite3_value **values, int insert) {
  const ls_table *t = v->table;
  const char *options = (const char *)sqlite3_value_text(values[col_options(t)]);
  ls_options opts = v->opts;
  ls_file_info info;
  ls_row row;
  unsigned char *changes = NULL;
  void *old = NULL;
  char *err = NULL;
  int i, every_column_given, rc = SQLITE_OK;
  /* the statement's options (the hidden column) override the table's */
  if (options && (rc = ls_options_parse(t->format, options, &opts, &err)) != SQLITE_OK) return vtab_error(v, rc, err);
  memset(&info, 0, sizeof info);
  info.path = f->shown;
  info.format = f->fmt ? f->fmt->name : NULL;
  info.size = f->size;
  memset(&row, 0, sizeof row);
  row.model = m->p;
  row.pos = *pos;
  row.opts = &opts;
  row.file = &info;
  if (t->record_size) {
    row.rec = sqlite3_malloc64(t->record_size);
    old = sqlite3_malloc64(t->record_size);
    row.arena = ls_arena_new();
    if (!row.rec || !old || !row.arena) rc = SQLITE_NOMEM;
    if (rc == SQLITE_OK) {
      memset(row.rec, 0, t->record_size);
      if ((rc = t->load(&row, &err)) != SQLITE_OK) rc = row_error(v, rc, f, m->p, pos, unloadable(t, values, err));
      else memcpy(old, row.rec, t->record_size);
    }
  }
  if (rc == SQLITE_OK && !(changes = sqlite3_malloc(t->ncolumns + 1))) rc = SQLITE_NOMEM;
  for (i = 1; i <= t->ncolumns && !sqlite3_value_nochange(values[i]); i++) {
  }
  every_column_given = i > t->ncolumns;
  for (i = 1; rc == SQLITE_OK && i <= t->ncolumns; i++) {
    const ls_column *col = &t->columns[i - 1];
    sqlite3_value *val = values[i];
    int same = 0, writable = ls_column_writable(col);
    changes[i] = 0;
    if (sqlite3_value_nochange(val)) continue;
    if (insert) {
      changes[i] = writable && sqlite3_value_type(val) != SQLITE_NULL;
      continue;
    }
    if ((!writable || every_column_given) && ((rc = column_holds(v, &row, col, val, &same)) != SQLITE_OK || same)) continue;
    if (!writable) {
      rc = row_error(v, SQLITE_ERROR, f, m->p, pos, sqlite3_mprintf("column %s of %s is read-only", col->name, t->name));
    }
    changes[i] = 1;
  }
  for (i = 1; rc == SQLITE_OK && i <= t->ncolumns; i++) {
    const ls_column *col = &t->columns[i - 1];
    if (changes[i] && (rc = ls_column_set(t, &row, values[i], col, &err)) != SQLITE_OK) rc = row_error(v, rc, f, m->p, pos, err);
  }
  if (rc == SQLITE_OK && t->store && (rc = t->store(&row, old, changes + 1, &err)) != SQLITE_OK) {
    rc = row_error(v, rc, f, m->p, pos, err);
  }
  sqlite3_free(changes);
  sqlite3_free(row.rec);
  sqlite3_free(old);
  ls_arena_free(row.arena);
  return rc;
}

/* The file an INSERT goes to.  A source that names one file decides: the
** statement's hidden `source` value, else a named table's source.  Every
** row then goes into that file, whatever its `file` value says (INSERT ...
** SELECT * brings along the `file` of the level it copies from).  A source
** of several files needs `file` to name one of them; without any source the
** `file` value is the target. */
static int insert_target(ls_vtab *v, sqlite3_value **values, char **path) {
  const ls_table *t = v->table;
  const char *file = (const char *)sqlite3_value_text(values[0]);
  const char *given = (const char *)sqlite3_value_text(values[col_source(t)]);
  const char *source = v->source ? v->source : given;
  ls_pathlist list;
  char *err = NULL;
  int rc, i, found = 0;
  *path = NULL;
  if (v->source && given && strcmp(given, v->source) != 0) {
    return vtab_error(v, SQLITE_ERROR, sqlite3_mprintf("INSERT into %s: the table writes only inside its own source '%s', not '%s'", t->name, v->source, given));
  }
  if (!source) {
    if (!file) return vtab_error(v, SQLITE_ERROR, sqlite3_mprintf("INSERT into %s needs a target: give the %s column (INSERT INTO %s(%s, ...)) or the file column", t->name, source_arg(t), t->name, source_arg(t)));
    *path = sqlite3_mprintf("%s", file);
    return *path ? SQLITE_OK : SQLITE_NOMEM;
  }
  {
    /* the statement's options (nocase) override the table's, as for reads */
    const char *options = (const char *)sqlite3_value_text(values[col_options(t)]);
    ls_options opts = v->opts;
    if (options && (rc = ls_options_parse(t->format, options, &opts, &err)) != SQLITE_OK) return vtab_error(v, rc, err);
    ls_interrupt ic;
    ls_interrupt_init(&ic, v->sess->db);
    rc = ls_session_expand(v->sess, source, t->format, opts.nocase, &ic, &list, &err);
    ls_interrupt_done(&ic);
  }
  if (rc != SQLITE_OK) return vtab_error(v, rc, err);
  if (list.n == 1) {
    *path = sqlite3_mprintf("%s", list.paths[0]);
  } else if (!file) {
    err = sqlite3_mprintf("INSERT into %s: the source '%s' names %d files; say which with the file column", t->name, source, list.n);
  } else {
    /* (on Windows either separator; the listing's spelling is kept) */
    for (i = 0; i < list.n && !found; i++) {
      if ((found = ls_path_spelling_equal(list.paths[i], file)) != 0) *path = sqlite3_mprintf("%s", list.paths[i]);
    }
    if (!found) err = sqlite3_mprintf("INSERT into %s: file '%s' is not among the %d files of source '%s'", t->name, file, list.n, source);
  }
  ls_pathlist_free(&list);
  if (err) return vtab_error(v, SQLITE_ERROR, err);
  return *path ? SQLITE_OK : SQLITE_NOMEM;
}

/* Sets *nothing when an UPDATE of the row `rowid` of a clean file (no
** working copy in this transaction yet) gives every column it sets the
** value the row already holds, as `UPDATE t SET c = c` does: the row is
** then left alone and the file stays clean, so COMMIT does not rewrite it
** (saving an unchanged model may still change bytes: a block compressed
** again, a legacy header fixed).  Anything unusual (the row not found, a
** record that does not load, a `file` value given) answers 0, and the
** write goes the usual way, which reports it.  The table option rewrite=1
** turns this off (re-saving a level: `SET name = name` then rewrites it). */
static int update_changes_nothing(ls_vtab *v, sqlite3_int64 rowid, sqlite3_value **values, int *nothing) {
  const ls_table *t = v->table;
  const char *options = (const char *)sqlite3_value_text(values[col_options(t)]);
  /* the file as locate_for_write finds it (a collision: the usual way) */
  const ls_part_slot *slot = rowid >= 0 ? ls_part_map_get(&v->parts, rowid >> LS_KEY_BITS) : NULL;
  ls_file *f = slot && !slot->other ? slot->file : NULL;
  ls_model *m = f && !f->working ? ls_file_current(f) : NULL;
  ls_options opts = v->opts;
  ls_file_info info;
  ls_row row;
  char *err = NULL;
  int i, same = 1, rc = SQLITE_OK;
  *nothing = 0;
  if (!m || !f->shown) return SQLITE_OK;
  if (!sqlite3_value_nochange(values[0])) { /* `file`, given: a new value is refused by the usual way */
    const char *file = (const char *)sqlite3_value_text(values[0]);
    if (!file || strcmp(file, f->shown) != 0) return SQLITE_OK;
  }
  if (options && ls_options_parse(t->format, options, &opts, &err) != SQLITE_OK) {
    sqlite3_free(err);
    return SQLITE_OK;
  }
  if (opts.rewrite) return SQLITE_OK; /* rewrite=1: re-save it anyway */
  memset(&row, 0, sizeof row);
  if (!ls_table_seek(t, m->p, rowid & LS_KEY_MAX, &row.pos)) return SQLITE_OK;
  memset(&info, 0, sizeof info);
  info.path = f->shown;
  info.format = f->fmt ? f->fmt->name : NULL;
  info.size = f->size;
  row.model = m->p;
  row.opts = &opts;
  row.file = &info;
  if (t->record_size) {
    row.rec = sqlite3_malloc64(t->record_size);
    row.arena = ls_arena_new();
    if (!row.rec || !row.arena) rc = SQLITE_NOMEM;
    else memset(row.rec, 0, t->record_size);
    if (rc == SQLITE_OK && t->load(&row, &err) != SQLITE_OK) same = 0;
    sqlite3_free(err);
  }
  for (i = 1; rc == SQLITE_OK && same && i <= t->ncolumns; i++) {
    if (!sqlite3_value_nochange(values[i])) rc = column_holds(v, &row, &t->columns[i - 1], values[i], &same);
  }
  *nothing = rc == SQLITE_OK && same;
  sqlite3_free(row.rec);
  ls_arena_free(row.arena);
  return rc;
}

/* Checks one argument of an INSERT as its declaration d says (ls_arg_check),
** leaving the result in a; args holds the arguments declared before it,
** already checked, for bounds that depend on them.  Integers of the
** position kinds are taken as SQLite's numeric affinity sees them ('3' is
** 3, 3.0 is not), which it applies to the value: only those kinds ask. */
static int check_arg(const ls_insert_arg *d, const char *table, const void *model, const unsigned char *args, ls_arg *a,
                     char **err) {
  const char *name = a->column->name;
  int64_t n = d->count ? d->count(model) : d->inner ? d->inner(model, ((const ls_arg *)(args + d->of))->i) : 0;
  int64_t hi = n + d->hi, dflt = d->dflt_of ? d->dflt_of(model) : n + d->dflt;
  int given = ls_arg_given(a);
  const char *s = "";
  size_t len = 0;
  int rc = SQLITE_OK;
  if (d->needs && !(d->check == LS_CHECK_TEXT ? ls_arg_type(a) == SQLITE_TEXT && sqlite3_value_bytes(a->value) > 0 : given))
    return ls_refuse(err, "column %s: an INSERT into %s needs %s", name, table, d->needs);
  a->i = d->check == LS_CHECK_APPENDED ? n : dflt;
  switch (d->check) {
  case LS_CHECK_INT:
    return ls_value_int(a->value, a->column, d->lo, hi, &a->i, err);
  case LS_CHECK_INT_OR:
    return given ? ls_value_int(a->value, a->column, d->lo, hi, &a->i, err) : SQLITE_OK;
  case LS_CHECK_POSITION:
    if (!given) return SQLITE_OK;
    if (sqlite3_value_numeric_type(a->value) == SQLITE_INTEGER && sqlite3_value_int64(a->value) >= 0 &&
        sqlite3_value_int64(a->value) <= hi) {
      a->i = sqlite3_value_int64(a->value);
      return SQLITE_OK;
    }
    return ls_refuse(err, "column %s: an INSERT takes an integer from 0 to %lld here, or NULL (last)", name, (long long)hi);
  case LS_CHECK_APPENDED:
    if (!given || (sqlite3_value_numeric_type(a->value) == SQLITE_INTEGER && sqlite3_value_int64(a->value) == n))
      return SQLITE_OK;
    return ls_refuse(err, "column %s: new rows are appended (%s %lld); give NULL or %lld", name, name, (long long)n, (long long)n);
  case LS_CHECK_WTF8:
    if (given) rc = ls_value_wtf8(a->value, a->column, (size_t)a->column->min, (size_t)a->column->max, &s, &len, err);
    a->text = (ls_span){s, len};
    return rc;
  case LS_CHECK_TEXT:
    a->text.p = ls_arg_text(a); /* (text before its length: sqlite3_value_bytes) */
    a->text.n = given ? (size_t)sqlite3_value_bytes(a->value) : 0;
    return given && !a->text.p ? SQLITE_NOMEM : SQLITE_OK;
  case LS_CHECK_CUSTOM:
    return d->custom(model, args, a, err);
  case LS_CHECK_RAW:
    break;
  }
  return SQLITE_OK;
}

/* Runs the table's insert on the model with the INSERT's values (indexed
** like the table's columns): each declared argument gets its column's
** value in a fresh argument struct, which lives for the call, and is
** checked in declaration order before run() sees them. */
static int run_insert(const ls_table *t, const int *insert_columns, sqlite3_value **values, void *model, ls_pos *pos,
                      char **err) {
  const ls_insert *ins = t->insert;
  unsigned char *args = sqlite3_malloc64(ins->args_size ? ins->args_size : 1);
  int i, rc = SQLITE_OK;
  if (!args) return SQLITE_NOMEM;
  memset(args, 0, ins->args_size);
  for (i = 0; i < LS_INSERT_ARGS_MAX && ins->args[i].column; i++) {
    ls_arg *a = (ls_arg *)(args + ins->args[i].offset);
    a->value = values[insert_columns[i]];
    a->column = &t->columns[insert_columns[i]];
  }
  for (i = 0; rc == SQLITE_OK && i < LS_INSERT_ARGS_MAX && ins->args[i].column; i++)
    rc = check_arg(&ins->args[i], t->name, model, args, (ls_arg *)(args + ins->args[i].offset), err);
  if (rc == SQLITE_OK) rc = ins->run(model, args, pos, err);
  sqlite3_free(args);
  return rc;
}

/* One INSERT, UPDATE or DELETE of ls_update. */
static int write_row(ls_vtab *v, int argc, sqlite3_value **argv, sqlite3_int64 *rowid_out) {
  const ls_table *t = v->table;
  ls_file *f;
  ls_model *m;
  ls_pos pos;
  char *err = NULL;
  int rc, nothing;
  if (argc == 1) { /* DELETE */
    if (!t->remove) return vtab_error(v, SQLITE_ERROR, sqlite3_mprintf("rows cannot be deleted from %s", t->name));
    if ((rc = locate_for_write(v, sqlite3_value_int64(argv[0]), &f, &m, &pos)) != SQLITE_OK) return rc;
    if ((rc = t->remove(m->p, &pos, &err)) != SQLITE_OK) {
      return row_error(v, rc, f, m->p, &pos, err ? err : sqlite3_mprintf("cannot delete"));
    }
    return SQLITE_OK;
  }
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) { /* INSERT */
    char *path = NULL;
    if (!t->insert) return vtab_error(v, SQLITE_ERROR, sqlite3_mprintf("rows cannot be inserted into %s", t->name));
    if (sqlite3_value_type(argv[1]) != SQLITE_NULL) {
      return vtab_error(v, SQLITE_ERROR, sqlite3_mprintf("%s: rowids are chosen by levelsql; insert without one", t->name));
    }
    if ((rc = insert_target(v, argv + 2, &path)) != SQLITE_OK) return rc;
    rc = ls_session_load(v->sess, path, t->format, &f, &err);
    if (rc == SQLITE_OK && !(m = ls_session_writable(v->sess, f, path, &err))) rc = SQLITE_ERROR;
    sqlite3_free(path);
    if (rc != SQLITE_OK) return vtab_error(v, rc, err);
    if ((rc = run_insert(t, v->insert_columns, argv + 3, m->p, &pos, &err)) != SQLITE_OK) {
      char *msg = sqlite3_mprintf("%s: %s", f->shown, err ? err : "cannot insert");
      sqlite3_free(err);
      return vtab_error(v, rc, msg);
    }
    if ((rc = apply_values(v, f, m, &pos, argv + 2, 1)) != SQLITE_OK) return rc;
    if ((rc = rowid_of(t, f, f->shown, ls_table_key(t, m->p, &pos), rowid_out, &err)) != SQLITE_OK) {
      return vtab_error(v, err ? rc : SQLITE_NOMEM, err);
    }
    return SQLITE_OK;
  }
  /* UPDATE */
  if (sqlite3_value_type(argv[1]) != SQLITE_NULL && sqlite3_value_int64(argv[0]) != sqlite3_value_int64(argv[1])) {
    return vtab_error(v, SQLITE_ERROR, sqlite3_mprintf("%s: the rowid cannot be changed", t->name));
  }
  if ((rc = update_changes_nothing(v, sqlite3_value_int64(argv[0]), argv + 2, &nothing)) != SQLITE_OK || nothing) return rc;
  if ((rc = locate_for_write(v, sqlite3_value_int64(argv[0]), &f, &m, &pos)) != SQLITE_OK) return rc;
  if (!sqlite3_value_nochange(argv[2])) {
    const char *file = (const char *)sqlite3_value_text(argv[2]);
    if (!file || strcmp(file, f->shown) != 0) {
      return vtab_error(v, SQLITE_ERROR, sqlite3_mprintf("%s: column file of %s is read-only (copy rows with INSERT ... SELECT instead)", f->shown, t->name));
    }
  }
  return apply_values(v, f, m, &pos, argv + 2, 0);
}

/* INSERT, UPDATE and DELETE: every change goes to the file's working copy
** in the session; nothing touches the disk before COMMIT (ls_sync).
**
** A statement that fails changes nothing, whatever its shape.  SQLite
** brackets only some write statements with a statement savepoint (never
** UPDATE ... FROM, not single-row ones), so each row is written inside the
** session's statement level: a row that fails undoes the statement's
** earlier rows and its own partial changes here.  The level lasts from a
** statement's first row to the next scan (every UPDATE and DELETE scans
** its table before its first row), the next INSERT row (single-row INSERTs
** do not scan; SQLite brackets multi-row ones itself) or the next
** transaction event. */
static int ls_update(sqlite3_vtab *base, int argc, sqlite3_value **argv, sqlite3_int64 *rowid_out) {
  ls_vtab *v = (ls_vtab *)base;
  const ls_table *t = v->table;
  int rc;
  if (t->one_row_per_file || (!t->insert && !t->remove && !t->ncolumns)) {
    return vtab_error(v, SQLITE_READONLY, sqlite3_mprintf("%s is read-only", t->name));
  }
  if (argc > 1 && sqlite3_value_type(argv[0]) == SQLITE_NULL) ls_session_statement_end(v->sess);
  ls_session_statement_begin(v->sess);
  rc = write_row(v, argc, argv, rowid_out);
  if (rc != SQLITE_OK) ls_session_statement_undo(v->sess);
  return rc;
}

/* ---- transactions --------------------------------------------------------- */

/* A transaction begins (before the scan of its first write statement):
** the rowids the table's writes look up (v->parts) are those of files its
** scans load from now on. */
static int ls_begin(sqlite3_vtab *base) {
  ((ls_vtab *)base)->writing = 1;
  ls_part_map_clear(&((ls_vtab *)base)->parts);
  ls_session_begin(((ls_vtab *)base)->sess);
  return SQLITE_OK;
}

/* Writes every file changed in the transaction (see ls_session_sync): all
** files are checked and serialized before the first one is replaced. */
static int ls_sync(sqlite3_vtab *base) {
  ls_vtab *v = (ls_vtab *)base;
  char *err = NULL;
  int rc = ls_session_sync(v->sess, &err);
  if (rc != SQLITE_OK) return vtab_error(v, rc, err);
  return SQLITE_OK;
}

static int ls_commit(sqlite3_vtab *base) {
  ((ls_vtab *)base)->writing = 0;
  ls_session_commit(((ls_vtab *)base)->sess);
  return SQLITE_OK;
}

static int ls_rollback(sqlite3_vtab *base) {
  ((ls_vtab *)base)->writing = 0;
  ls_session_rollback(((ls_vtab *)base)->sess);
  return SQLITE_OK;
}

static int ls_savepoint(sqlite3_vtab *base, int n) {
  ls_session_savepoint(((ls_vtab *)base)->sess, n);
  return SQLITE_OK;
}

static int ls_release(sqlite3_vtab *base, int n) {
  ls_session_release_to(((ls_vtab *)base)->sess, n);
  return SQLITE_OK;
}

static int ls_rollback_to(sqlite3_vtab *base, int n) {
  ls_session_rollback_to(((ls_vtab *)base)->sess, n);
  return SQLITE_OK;
}

static int ls_shadow_name(const char *name) {
  (void)name;
  return 0;
}

static const sqlite3_module ls_module = {
  3,               /* iVersion: savepoints */
  ls_connect,      /* xCreate == xConnect: eponymous and CREATE VIRTUAL TABLE */
  ls_connect,
  ls_best_index,
  ls_disconnect,
  ls_disconnect,
  ls_open,
  ls_close,
  ls_filter,
  ls_next,
  ls_eof,
  ls_column_value,
  ls_rowid,
  ls_update,
  ls_begin,
  ls_sync,
  ls_commit,
  ls_rollback,
  NULL,            /* xFindFunction */
  NULL,            /* xRename */
  ls_savepoint,
  ls_release,
  ls_rollback_to,
  ls_shadow_name
};

static void module_aux_free(void *p) {
  ls_module_aux *aux = p;
  ls_session_release(aux->sess);
  sqlite3_free(aux);
}

int ls_register_family(sqlite3 *db, ls_session *sess, const ls_family *family, char **err) {
  const ls_table *const *t;
  int rc = ls_register_format(sess, family->format);
  for (t = family->tables; rc == SQLITE_OK && *t; t++) rc = ls_register_table(db, sess, *t, err);
  return rc;
}

/* Finds the column of each argument the table's insert declares, into
** columns[]: a name the table has no column of, an argument that does not
** fit in the argument struct, a count in the element of an argument not
** declared before (not checked when it is asked), or more than
** LS_INSERT_ARGS_MAX arguments fail (SQLITE_ERROR with *err naming the
** table and the argument), so a declaration that disagrees with the
** column list never registers. */
static int resolve_insert_args(const ls_table *t, int *columns, char **err) {
  const ls_insert *ins = t->insert;
  int i, c, j;
  if (!ins) return SQLITE_OK;
  for (i = 0; i < LS_INSERT_ARGS_MAX && ins->args[i].column; i++) {
    const ls_insert_arg *arg = &ins->args[i];
    for (c = 0; c < t->ncolumns && strcmp(t->columns[c].name, arg->column) != 0; c++) {
    }
    if (c == t->ncolumns) {
      if (err) *err = sqlite3_mprintf("%s: its INSERT takes column '%s', which the table does not have", t->name, arg->column);
      return SQLITE_ERROR;
    }
    if (arg->offset > ins->args_size || ins->args_size - arg->offset < sizeof(ls_arg)) {
      if (err) *err = sqlite3_mprintf("%s: INSERT argument '%s' lies outside its argument struct", t->name, arg->column);
      return SQLITE_ERROR;
    }
    for (j = 0; arg->inner && j < i && ins->args[j].offset != arg->of; j++) {
    }
    if (arg->inner && j == i) {
      if (err) *err = sqlite3_mprintf("%s: INSERT argument '%s' counts in an argument not declared before it", t->name, arg->column);
      return SQLITE_ERROR;
    }
    columns[i] = c;
  }
  if (ins->args[LS_INSERT_ARGS_MAX].column) {
    if (err) *err = sqlite3_mprintf("%s: its INSERT takes more than %d columns", t->name, LS_INSERT_ARGS_MAX);
    return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

int ls_register_table(sqlite3 *db, ls_session *sess, const ls_table *table, char **err) {
  const ls_table **tables;
  ls_module_aux *aux = sqlite3_malloc(sizeof *aux);
  int rc;
  if (!aux) return SQLITE_NOMEM;
  memset(aux, 0, sizeof *aux);
  if ((rc = resolve_insert_args(table, aux->insert_columns, err)) != SQLITE_OK) {
    sqlite3_free(aux);
    return rc;
  }
  tables = sqlite3_realloc64(sess->tables, sizeof *tables * (sqlite3_uint64)(sess->ntables + 1));
  if (!tables) {
    sqlite3_free(aux);
    return SQLITE_NOMEM;
  }
  tables[sess->ntables++] = table;
  sess->tables = tables;
  aux->sess = sess;
  aux->table = table;
  sess->refs++;
  return sqlite3_create_module_v2(db, table->name, &ls_module, aux, module_aux_free);
}
