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

/* Files by their rowid file part (engine.h, "Row identity"): an
** open-addressing table (empty slot: file NULL), at most half full.  Per
** part: the file put last and, when a different file with the same part
** was put before it, that one (other: a collision). */
typedef struct ls_part_slot {
  int64_t part;
  ls_file *file;
  ls_file *other;
} ls_part_slot;

typedef struct ls_part_map {
  ls_part_slot *slots;
  size_t cap, n; /* cap: 0 or a power of two */
} ls_part_map;

/* What one registered module knows: the shared session and its table. */
typedef struct ls_module_aux {
  ls_session *sess;
  const ls_table *table;
} ls_module_aux;

typedef struct ls_vtab {
  sqlite3_vtab base;
  sqlite3 *db;
  sqlite3_stmt *same_value;  /* compares a column's current value with a new one */
  ls_session *sess;
  const ls_table *table;
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

/* A path of the memo's expansion by its file part (memo_path_of_part). */
typedef struct ls_path_part {
  int64_t part;
  int index; /* in ls_memo.paths */
} ls_path_part;

/* A file this cursor loaded during its statement, by the path it came as. */
typedef struct ls_seen_file {
  char *path;
  ls_file *file;
} ls_seen_file;

/* What a cursor already found out during its statement, so that a join's
** inner scan, filtered again for every outer row, neither lists its source
** nor looks its files up on disk each time: the last source it expanded
** (with the options it was expanded under) and the files it loaded.  A
** cursor lives for one run of one statement (SQLite opens it when the
** statement starts and closes it at reset), so the next statement lists
** and checks everything again and sees the disk as it is then. */
typedef struct ls_memo {
  int expanded;        /* `paths` holds the expansion of source/options */
  char *source, *options;
  ls_pathlist paths;
  int sorted;          /* paths are in strcmp order: binary search */
  ls_path_part *by_part; /* paths' file parts in increasing order (the first rowid lookup makes it), or NULL */
  int nby_part;
  ls_seen_file *seen;  /* sorted by path */
  int nseen, seen_cap;
  ls_part_map parts;   /* the files its scans entered in the statement, by file part: two with one part are refused */
} ls_memo;

typedef struct ls_cursor {
  sqlite3_vtab_cursor base;
  ls_pathlist paths;   /* the files this scan visits */
  int ipath;           /* index of the current one */
  ls_file *file;       /* its cache entry (NULL when it could not be resolved) */
  ls_model *model;     /* the model being scanned; a reference is held */
  ls_file_info info;
  int eof;
  int has_rowid;       /* a rowid = ? scan: at most one row */
  int64_t rowid_key;
  ls_range *range;     /* one per table column */
  ls_scan scan;
  char *source;        /* the hidden columns' values for this scan */
  char *options_text;
  ls_options opts;
  int entered;         /* paths[ipath] has been loaded */
  int path_is_blob;    /* paths[ipath] is not UTF-8: `file` is a BLOB of its bytes */
  char *row_error;     /* levelsql_files: the current file's error message */
  char *scan_error;    /* set by a table's next() that could not go on */
  ls_memo memo;
  const ls_table *table;       /* the vtab's table, one load away per column read */
  const uint64_t *generation;  /* the session's write counter (ls_session.generation) */
  /* The current row as getters see it.  row.pos is the cursor's position
  ** (the scan moves it there); opts, file, rec and arena are the cursor's
  ** own (set at open); model is set by the first column read after the
  ** cursor moves (row_gen), so a row's later columns reuse it, and its
  ** record. */
  ls_row row;
  /* row is current and, where the table has records and the row a model,
  ** its record loaded without error, as of this generation of the session;
  ** REC_STALE after every move of the cursor (ls_next, ls_filter), so the
  ** next column read brings the row up to date (cursor_row_ready), and a
  ** write (which bumps the generation) makes the record load again. */
  uint64_t ready_gen;
  uint64_t row_gen;    /* row.model is current (what LS_COL_NOREC columns need), as of this generation */
  void *rec;           /* the current row's record (tables with records) */
  ls_arena *arena;     /* what loading it decoded */
  uint64_t rec_gen;    /* rec, or rec_error, is of the current row at this generation; REC_STALE after a move */
  char *rec_error;     /* why it could not be loaded */
  int rec_rc;          /* and load()'s code then (SQLITE_INTERRUPT: the statement was interrupted) */
  ls_interrupt interrupt; /* the statement's, polled by loads that decode much (row.cancel) */
  codec_cancel cancel;
  int64_t *run_at;     /* ls_table_run: the coordinate of row.pos that steps up to run_last (NULL: ask next()) */
  int64_t run_last;
  uint64_t run_gen;    /* the session generation run_last was found at */
  /* Parsing ahead (parse_ahead.h): once the scan meets a file that is not
  ** cached, the next files are parsed on the session's threads. */
  int ahead_on;
  struct ls_job **ahead; /* by path index: the job reading that file, or NULL */
  int ahead_next;        /* the first path index not yet considered */
} ls_cursor;

/* The generation of a cursor's record after the cursor moved: none (the
** session's counter starts at 0 and only counts up). */
#define REC_STALE UINT64_MAX

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

/* ---- files by rowid file part (ls_part_map) ---------------------------------- */

/* The slot of part in m, or NULL. */
static ls_part_slot *part_map_get(const ls_part_map *m, int64_t part) {
  size_t i;
  if (!m->cap) return NULL;
  for (i = (size_t)part & (m->cap - 1); m->slots[i].file; i = (i + 1) & (m->cap - 1)) {
    if (m->slots[i].part == part) return &m->slots[i];
  }
  return NULL;
}

/* The free slot where part goes, or its own (slots: cap, not full). */
static ls_part_slot *part_slot_for(ls_part_slot *slots, size_t cap, int64_t part) {
  size_t i;
  for (i = (size_t)part & (cap - 1); slots[i].file && slots[i].part != part; i = (i + 1) & (cap - 1)) {
  }
  return &slots[i];
}

/* Puts file f under its part.  *previous: a different file that had the
** part already (a collision: it stays as the slot's `other`), else NULL.
** Returns SQLITE_OK or SQLITE_NOMEM. */
static int part_map_put(ls_part_map *m, ls_file *f, ls_file **previous) {
  ls_part_slot *slot;
  *previous = NULL;
  if ((m->n + 1) * 2 > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 16, i;
    ls_part_slot *slots = sqlite3_malloc64(sizeof *slots * (sqlite3_uint64)cap);
    if (!slots) return SQLITE_NOMEM;
    memset(slots, 0, sizeof *slots * cap);
    for (i = 0; i < m->cap; i++) {
      if (m->slots[i].file) *part_slot_for(slots, cap, m->slots[i].part) = m->slots[i];
    }
    sqlite3_free(m->slots);
    m->slots = slots;
    m->cap = cap;
  }
  slot = part_slot_for(m->slots, m->cap, f->part);
  if (!slot->file) {
    m->n++;
    slot->part = f->part;
  } else if (slot->file != f) {
    *previous = slot->file;
    if (!slot->other) slot->other = slot->file;
  }
  slot->file = f;
  return SQLITE_OK;
}

static void part_map_clear(ls_part_map *m) {
  sqlite3_free(m->slots);
  memset(m, 0, sizeof *m);
}

/* "rowid collision: <a> and <b> ...": two different files whose rowids
** would share their file part (engine.h, "Row identity"). */
static char *collision_message(const char *a, const char *b, int64_t part) {
  return sqlite3_mprintf("rowid collision: %s and %s have the same rowid file part (%lld), so their rows cannot "
                         "be told apart by rowid; use them in separate statements",
                         a, b, (long long)part);
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
  part_map_clear(&v->parts);
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

/* About how many files `source` names, for the planner: 1 for a file, the
** entries of a folder, a guess for anything else.  Looks at the disk once
** (stat, and a listing without stats for a folder); never fails. */
static double plan_count_files(const char *source) {
  struct stat st;
  DIR *d;
  struct dirent *e;
  double n = 0;
  if (strpbrk(source, "*?[{")) return LS_PLAN_FILES_GUESS;
  if (stat(source, &st) != 0 || !S_ISDIR(st.st_mode)) return 1;
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
  if (v->table->record_size) {
    c->rec = sqlite3_malloc64(v->table->record_size < SMALL_RECORD ? SMALL_RECORD : v->table->record_size);
    c->arena = ls_arena_new();
  }
  if (!c->range || (v->table->record_size && (!c->rec || !c->arena))) {
    sqlite3_free(c->range);
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
  c->ready_gen = c->row_gen = c->rec_gen = REC_STALE;
  c->eof = 1;
  c->run_at = NULL;
  *out = &c->base;
  return SQLITE_OK;
}

/* Forgets the current file and model of a scan.  The scan may have
** decoded parts of a cached model (Teeworlds layers), so the cache counts
** its bytes again. */
static void cursor_leave_file(ls_cursor *c) {
  if (c->file && c->model && c->model == c->file->clean) ls_session_remeasure(((ls_vtab *)c->base.pVtab)->sess, c->file);
  ls_model_unref(c->model);
  c->model = NULL;
  c->file = NULL;
  c->entered = 0;
  c->run_at = NULL;
  sqlite3_free(c->row_error);
  c->row_error = NULL;
  memset(&c->info, 0, sizeof c->info);
}

/* Gives up the jobs still reading files ahead of the scan. */
static void ahead_cancel(ls_cursor *c) {
  ls_session *s = ((ls_vtab *)c->base.pVtab)->sess;
  int i;
  for (i = 0; c->ahead && i < c->ahead_next && i < c->paths.n; i++) ls_session_cancel_ahead(s, c->ahead[i]);
  sqlite3_free(c->ahead);
  c->ahead = NULL;
  c->ahead_next = 0;
  c->ahead_on = 0;
}

static void cursor_reset(ls_cursor *c) {
  cursor_leave_file(c);
  ahead_cancel(c);
  ls_pathlist_free(&c->paths);
  sqlite3_free(c->source);
  sqlite3_free(c->options_text);
  c->source = c->options_text = NULL;
  c->ipath = 0;
  c->eof = 1;
  c->has_rowid = 0;
}

/* ---- the statement memo (ls_memo) ------------------------------------------ */

static int text_equal(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

static void memo_forget_source(ls_memo *m) {
  ls_pathlist_free(&m->paths);
  sqlite3_free(m->by_part);
  m->by_part = NULL;
  m->nby_part = 0;
  sqlite3_free(m->source);
  sqlite3_free(m->options);
  m->source = m->options = NULL;
  m->expanded = 0;
}

static void memo_free(ls_memo *m) {
  int i;
  memo_forget_source(m);
  for (i = 0; i < m->nseen; i++) sqlite3_free(m->seen[i].path);
  sqlite3_free(m->seen);
  part_map_clear(&m->parts);
  memset(m, 0, sizeof *m);
}

/* The files `source` names under `options` (the text; nocase is what it
** says): listed at the cursor's first scan of that source in the
** statement, then taken from the memo.  *out belongs to the memo.  The
** listing stops when the statement is interrupted. */
static int memo_expand(ls_vtab *v, ls_memo *m, const char *source, const char *options, int nocase,
                       const ls_pathlist **out, char **err) {
  ls_interrupt ic;
  int i, rc;
  if (!m->expanded || !text_equal(m->source, source) || !text_equal(m->options, options)) {
    memo_forget_source(m);
    m->source = sqlite3_mprintf("%s", source);
    m->options = options ? sqlite3_mprintf("%s", options) : NULL;
    if (!m->source || (options && !m->options)) {
      *err = sqlite3_mprintf("out of memory");
      return SQLITE_NOMEM;
    }
    v->sess->expansions++;
    ls_interrupt_init(&ic, v->sess->db);
    rc = ls_source_expand(source, v->table->format, nocase, &ic, &m->paths, err);
    ls_interrupt_done(&ic);
    if (rc != SQLITE_OK) return rc;
    m->sorted = 1;
    for (i = 1; i < m->paths.n && m->sorted; i++) m->sorted = strcmp(m->paths.paths[i - 1], m->paths.paths[i]) < 0;
    m->expanded = 1;
  }
  *out = &m->paths;
  return SQLITE_OK;
}

/* Copies into *out (empty on entry) the paths a scan visits: all of
** `all`, or only those equal to `only` (the `file` column compares paths
** as the source spelled them; on Windows '/' and '\\' alike:
** ls_path_spelling_equal); all == NULL: `only` alone.  `sorted`: all is in
** strictly increasing strcmp order, so one binary search finds `only`
** spelled byte for byte.  Returns SQLITE_OK or SQLITE_NOMEM. */
static int paths_select(const ls_pathlist *all, int sorted, const char *only, ls_pathlist *out) {
  int i, lo = 0, hi = all ? all->n : 1;
  if (all && only && sorted) {
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2, cmp = strcmp(all->paths[mid], only);
      if (cmp == 0) lo = hi = mid;
      else if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo < all->n && strcmp(all->paths[lo], only) == 0) hi = lo + 1;
#ifdef _WIN32
    else lo = 0, hi = all->n; /* another spelling of the separators: look at each */
#else
    else return SQLITE_OK;
#endif
  }
  if (!all && !only) return SQLITE_OK;
  if (!(out->paths = sqlite3_malloc64(sizeof *out->paths * (sqlite3_uint64)(hi - lo + 1)))) return SQLITE_NOMEM;
  for (i = lo; i < hi; i++) {
    const char *path = all ? all->paths[i] : only;
    if (all && only && !ls_path_spelling_equal(path, only)) continue;
    if (!(out->paths[out->n] = sqlite3_mprintf("%s", path))) return SQLITE_NOMEM;
    out->n++;
  }
  return SQLITE_OK;
}

/* A path of the expansion with its file part and canonical path, while
** memo_path_of_part sorts them. */
typedef struct ls_part_entry {
  int64_t part;
  int index;
  char *canon;
} ls_part_entry;

static int part_entry_cmp(const void *a_, const void *b_) {
  const ls_part_entry *a = a_, *b = b_;
  if (a->part != b->part) return a->part < b->part ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* The file part of path (realpath, then ls_file_part) and its canonical
** path (*canon, malloc'd; NULL with part -1 when the path resolves to
** nothing: no rowid names it). */
static int64_t path_part(const char *path, char **canon) {
  *canon = realpath(path, NULL);
  return *canon ? ls_file_part(*canon) : -1;
}

/* Makes m->by_part: the file part of every path of the memo's expansion,
** in increasing order (a realpath per file, once per statement).  Two
** paths of different files with one part fail with the collision error
** naming both; two paths of one file (a link) keep the first in path
** order. */
static int memo_index_parts(ls_memo *m, char **err) {
  ls_part_entry *e = sqlite3_malloc64(sizeof *e * (sqlite3_uint64)(m->paths.n + 1));
  int i, n = 0, rc = SQLITE_OK;
  if (!e) return SQLITE_NOMEM;
  for (i = 0; i < m->paths.n; i++) {
    e[n].index = i;
    e[n].part = path_part(m->paths.paths[i], &e[n].canon);
    if (e[n].canon) n++;
  }
  qsort(e, (size_t)n, sizeof *e, part_entry_cmp);
  if (!(m->by_part = sqlite3_malloc64(sizeof *m->by_part * (sqlite3_uint64)(n + 1)))) rc = SQLITE_NOMEM;
  m->nby_part = 0;
  for (i = 0; i < n && rc == SQLITE_OK; i++) {
    if (m->nby_part && m->by_part[m->nby_part - 1].part == e[i].part) {
      if (strcmp(e[i - 1].canon, e[i].canon) != 0) { /* e[i - 1]: the same part, the last kept */
        *err = collision_message(m->paths.paths[e[i - 1].index], m->paths.paths[e[i].index], e[i].part);
        rc = SQLITE_ERROR;
      }
      continue;
    }
    m->by_part[m->nby_part].part = e[i].part;
    m->by_part[m->nby_part++].index = e[i].index;
  }
  for (i = 0; i < n; i++) free(e[i].canon);
  sqlite3_free(e);
  if (rc != SQLITE_OK) {
    sqlite3_free(m->by_part);
    m->by_part = NULL;
    m->nby_part = 0;
  }
  return rc;
}

/* The path of the memo's expansion whose file is the one with file part
** `part` (*path; NULL: none of them).  The parts are found at the
** statement's first rowid lookup and kept with the expansion. */
static int memo_path_of_part(ls_memo *m, int64_t part, const char **path, char **err) {
  int lo = 0, hi, rc;
  *path = NULL;
  if (!m->by_part && (rc = memo_index_parts(m, err)) != SQLITE_OK) return rc;
  hi = m->nby_part;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (m->by_part[mid].part < part) lo = mid + 1;
    else hi = mid;
  }
  if (lo < m->nby_part && m->by_part[lo].part == part) *path = m->paths.paths[m->by_part[lo].index];
  return SQLITE_OK;
}

/* Whether the statement memo knows path (loaded earlier in the statement);
** *at: its index, or where it would go. */
static int memo_find(const ls_memo *m, const char *path, int *at) {
  int lo = 0, hi = m->nseen;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2, cmp = strcmp(m->seen[mid].path, path);
    if (cmp == 0) {
      *at = mid;
      return 1;
    }
    if (cmp < 0) lo = mid + 1;
    else hi = mid;
  }
  *at = lo;
  return 0;
}

/* Notes file f, loaded by the cursor's scan, under its rowid file part:
** in the statement's memo, where another file with the same part fails
** the scan (its rows and f's could not be told apart by rowid), and in
** the table's map, where xUpdate looks rowids up (locate_for_write).
** Tables of one row per file number rows otherwise: nothing to note. */
static int cursor_note_part(ls_cursor *c, ls_file *f, char **err) {
  ls_vtab *v = (ls_vtab *)c->base.pVtab;
  ls_file *previous;
  if (v->table->one_row_per_file) return SQLITE_OK;
  if (part_map_put(&c->memo.parts, f, &previous) != SQLITE_OK) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  if (previous) {
    *err = collision_message(previous->shown, f->shown, f->part);
    return SQLITE_ERROR;
  }
  /* (a collision there is kept in the slot, for locate_for_write to refuse) */
  if (part_map_put(&v->parts, f, &previous) != SQLITE_OK) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

/* Loads the file at path for the cursor's scan: the first time in the
** statement through ls_session_load, later from the entry found then
** (ls_session_load_again), with what parsing ahead passes (ls_ahead). */
static int cursor_load(ls_cursor *c, const char *path, const ls_ahead *ahead, ls_file **out, char **err) {
  ls_vtab *v = (ls_vtab *)c->base.pVtab;
  ls_memo *m = &c->memo;
  int lo, found = memo_find(m, path, &lo), rc;
  char *copy;
  rc = ls_session_load_again(v->sess, found ? m->seen[lo].file : NULL, path, v->table->format, ahead, out, err);
  if (rc != SQLITE_OK) return rc;
  if (found) {
    m->seen[lo].file = *out;
    return SQLITE_OK;
  }
  /* Remembering is only an optimisation: out of memory here changes nothing. */
  if (m->nseen == m->seen_cap) {
    int cap = m->seen_cap ? m->seen_cap * 2 : 16;
    ls_seen_file *p = sqlite3_realloc64(m->seen, sizeof *p * (sqlite3_uint64)cap);
    if (!p) return SQLITE_OK;
    m->seen = p;
    m->seen_cap = cap;
  }
  if (!(copy = sqlite3_mprintf("%s", path))) return SQLITE_OK;
  memmove(&m->seen[lo + 1], &m->seen[lo], sizeof *m->seen * (size_t)(m->nseen - lo));
  m->seen[lo].path = copy;
  m->seen[lo].file = *out;
  m->nseen++;
  return SQLITE_OK;
}

/* Whether loading path would parse it: neither loaded earlier in the
** statement nor cached. */
static int cursor_would_parse(ls_cursor *c, const char *path) {
  ls_vtab *v = (ls_vtab *)c->base.pVtab;
  int at;
  return !memo_find(&c->memo, path, &at) && !ls_session_is_cached(v->sess, path, v->table->format);
}

/* Starts parsing the files that follow the current one and would need
** parsing, up to two per thread ahead, so that a thread that finishes
** one finds the next queued. */
static void ahead_fill(ls_cursor *c) {
  ls_vtab *v = (ls_vtab *)c->base.pVtab;
  int threads = ls_session_threads(v->sess, 0, 0);
  int64_t last = (int64_t)c->ipath + 2 * (int64_t)threads;
  if (!threads) return;
  if (!c->ahead) {
    if (!(c->ahead = sqlite3_malloc64(sizeof *c->ahead * (sqlite3_uint64)c->paths.n))) return;
    memset(c->ahead, 0, sizeof *c->ahead * (size_t)c->paths.n);
  }
  if (c->ahead_next <= c->ipath) c->ahead_next = c->ipath + 1;
  for (; c->ahead_next < c->paths.n && c->ahead_next <= last; c->ahead_next++) {
    const char *path = c->paths.paths[c->ahead_next];
    if (cursor_would_parse(c, path)) c->ahead[c->ahead_next] = ls_session_parse_ahead(v->sess, path, v->table->format);
  }
}

/* ls_ahead.on_parse of a scan: the load of its current file is about to
** parse it, so the files after it are likely not cached either. */
static void ahead_start(void *ctx) {
  ls_cursor *c = ctx;
  c->ahead_on = 1;
  ahead_fill(c);
}

/* Loads paths[ipath] for the scan, with the job that parsed it ahead if
** any.  Parsing ahead starts when the scan meets a file it has to parse,
** before that file is parsed, and then keeps going. */
static int cursor_load_next(ls_cursor *c, char **err) {
  ls_ahead ahead = {NULL, NULL, c};
  if (c->ahead && c->ipath < c->ahead_next) {
    ahead.job = c->ahead[c->ipath];
    c->ahead[c->ipath] = NULL;
  }
  if (c->ahead_on) ahead_fill(c);
  else if (c->ipath + 1 < c->paths.n && ls_session_threads(((ls_vtab *)c->base.pVtab)->sess, 0, 0))
    ahead.on_parse = ahead_start;
  return cursor_load(c, c->paths.paths[c->ipath], &ahead, &c->file, err);
}

static int ls_close(sqlite3_vtab_cursor *cur) {
  ls_cursor *c = (ls_cursor *)cur;
  cursor_reset(c);
  ls_session_scan_done(((ls_vtab *)c->base.pVtab)->sess);
  memo_free(&c->memo);
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

/* Loads paths[ipath] for scanning.  For levelsql_files, and for scans with
** on_error=skip, the format's validate hook first decodes what the tables
** decode lazily, so "readable" means readable by every table of the
** format.  levelsql_files shows an unreadable file as a row with its
** error; with on_error=skip another table passes over it (no model, so
** cursor_advance moves on); otherwise the scan fails with the error. */
static int cursor_enter_file(ls_cursor *c) {
  ls_vtab *v = (ls_vtab *)c->base.pVtab;
  const ls_table *t = v->table;
  const char *path = c->paths.paths[c->ipath];
  char *err = NULL;
  int rc = cursor_load_next(c, &err);
  if (rc == SQLITE_OK && (rc = cursor_note_part(c, c->file, &err)) != SQLITE_OK) {
    return cursor_error(c, rc, err); /* never skipped: the rows would mix */
  }
  c->entered = 1;
  c->info.path = path;
  c->path_is_blob = !ls_utf8_valid(path, strlen(path));
  c->info.size = -1;
  if (c->file) {
    c->info.format = c->file->fmt ? c->file->fmt->name : NULL;
    if (c->file->size >= 0 && (c->file->clean || c->file->error || c->file->working)) c->info.size = c->file->size;
    if ((c->model = ls_file_current(c->file)) != NULL) ls_model_ref(c->model);
  }
  if (rc == SQLITE_OK && c->model && c->model->fmt->validate && (t->one_row_per_file || c->opts.skip_errors)) {
    codec_error cerr;
    ls_interrupt ic;
    codec_cancel cancel;
    int ok;
    cerr.msg[0] = 0;
    ls_interrupt_init(&ic, v->db);
    cancel = ls_interrupt_cancel(&ic);
    ok = c->model->fmt->validate(c->model->p, &cancel, &cerr);
    ls_interrupt_done(&ic);
    if (!ok && cerr.code == CODEC_E_INTERRUPT) return cursor_error(c, SQLITE_INTERRUPT, NULL);
    if (!ok) {
      err = sqlite3_mprintf("%s: %s", path, cerr.msg[0] ? cerr.msg : "cannot be read");
      rc = err ? SQLITE_ERROR : SQLITE_NOMEM;
    }
  }
  if (rc == SQLITE_OK) return SQLITE_OK;
  if (rc == SQLITE_INTERRUPT) return cursor_error(c, rc, err); /* not a file's error: the statement stops */
  if (!t->one_row_per_file && c->opts.skip_errors && rc != SQLITE_NOMEM) {
    sqlite3_free(err);
    ls_model_unref(c->model);
    c->model = NULL;
    return SQLITE_OK;
  }
  if (!t->one_row_per_file) return cursor_error(c, rc, err);
  /* the message without the leading "<path>: " */
  c->row_error = err;
  c->info.error = err && strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':'
                      ? err + strlen(path) + 2
                      : err;
  return SQLITE_OK;
}

/* Moves to the next row (first_in_file: the first row of the file just
** entered), crossing into later files as needed. */
static int cursor_advance(ls_cursor *c, int first_in_file) {
  ls_vtab *v = (ls_vtab *)c->base.pVtab;
  const ls_table *t = v->table;
  for (;;) {
    if (c->entered) {
      if (t->one_row_per_file) {
        if (first_in_file) return SQLITE_OK;
      } else if (c->model && ls_table_next(t, c->model->p, &c->scan, &c->row.pos, first_in_file)) {
        int which = ls_table_run(t, c->model->p, &c->scan, &c->row.pos, &c->run_last);
        c->run_at = which == 0 ? &c->row.pos.a : which == 1 ? &c->row.pos.b : which == 2 ? &c->row.pos.c : NULL;
        c->run_gen = v->sess->generation;
        return SQLITE_OK;
      }
      if (c->scan_error) {
        char *msg = sqlite3_mprintf("%s: %s", c->info.path, c->scan_error);
        sqlite3_free(c->scan_error);
        c->scan_error = NULL;
        return cursor_error(c, SQLITE_ERROR, msg);
      }
      cursor_leave_file(c);
      c->ipath++;
    }
    if (c->ipath >= c->paths.n) {
      c->eof = 1;
      return SQLITE_OK;
    }
    {
      int rc = cursor_enter_file(c);
      if (rc != SQLITE_OK) return rc;
    }
    first_in_file = 1;
  }
}

/* Forgets what the cursor knew of its row (ls_row, record): it is about
** to move.  Every move goes through ls_next or ls_filter, which call it
** first, so a column read after a move sees the new row. */
static void cursor_moved(ls_cursor *c) {
  c->ready_gen = c->row_gen = c->rec_gen = REC_STALE;
}

/* The next row: along the run of rows ls_table_run found (a grid row)
** by one step of its position while the model is unchanged, else through
** cursor_advance.  Along a run the model stays the one c->row holds, so
** the row's position steps with the cursor's and the columns that read
** without a record (LS_COL_NOREC) stay ready (row_gen); the record is the
** next row's to load. */
static int ls_next(sqlite3_vtab_cursor *cur) {
  ls_cursor *c = (ls_cursor *)cur;
  if (c->run_at && *c->run_at < c->run_last && c->run_gen == *c->generation) { /* never in a rowid scan */
    ++*c->run_at;
    c->ready_gen = c->rec_gen = REC_STALE;
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

/* Sets c->paths to the files the scan visits: those of its source (listed
** once per statement, see ls_memo), or only `only` among them; without a
** source, `only` alone. */
static int cursor_paths(ls_cursor *c, const char *only) {
  ls_vtab *v = (ls_vtab *)c->base.pVtab;
  const ls_pathlist *all = NULL;
  char *err = NULL;
  int rc;
  if (c->source && (rc = memo_expand(v, &c->memo, c->source, c->options_text, c->opts.nocase, &all, &err)) != SQLITE_OK) {
    return cursor_error(c, rc, err);
  }
  if (paths_select(all, c->memo.sorted, only, &c->paths) != SQLITE_OK) {
    return cursor_error(c, SQLITE_NOMEM, sqlite3_mprintf("out of memory"));
  }
  return SQLITE_OK;
}

/* A rowid = ? scan (c->rowid_key): the row whose key the rowid holds, in
** the file whose file part it holds (engine.h, "Row identity"), found
** among the files the statement names: its source's (file_eq: and only
** that one of them), else file_eq's, else those this connection has
** loaded (a part two of them share is refused).  A rowid of no such file
** matches nothing. */
static int filter_rowid(ls_cursor *c, const char *file_eq) {
  ls_vtab *v = (ls_vtab *)c->base.pVtab;
  const ls_table *t = v->table;
  int64_t part = c->rowid_key >> LS_KEY_BITS;
  const ls_pathlist *all;
  const char *path = NULL;
  char *err = NULL, *canon = NULL;
  int rc;
  if (c->rowid_key < 0) return SQLITE_OK;
  if (c->source) {
    if ((rc = memo_expand(v, &c->memo, c->source, c->options_text, c->opts.nocase, &all, &err)) != SQLITE_OK ||
        (rc = memo_path_of_part(&c->memo, part, &path, &err)) != SQLITE_OK) {
      return cursor_error(c, rc, err);
    }
    if (path && file_eq && !ls_path_spelling_equal(file_eq, path)) path = NULL;
  } else if (file_eq) {
    if (path_part(file_eq, &canon) == part) path = file_eq;
    free(canon);
  } else {
    ls_file *other, *f = ls_session_file_by_part(v->sess, part, &other);
    if (other) return cursor_error(c, SQLITE_ERROR, collision_message(f->shown, other->shown, part));
    if (f) path = f->shown;
  }
  if (!path) return SQLITE_OK;
  /* a copy: loading may change what path points to (f->shown) */
  if (paths_select(NULL, 0, path, &c->paths) != SQLITE_OK) return cursor_error(c, SQLITE_NOMEM, sqlite3_mprintf("out of memory"));
  c->eof = 0;
  if ((rc = cursor_enter_file(c)) != SQLITE_OK) return rc;
  if (!c->model || c->file->part != part || !ls_table_seek(t, c->model->p, c->rowid_key & LS_KEY_MAX, &c->row.pos)) {
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
  if ((rc = cursor_paths(c, file_eq)) != SQLITE_OK) return rc;
  c->eof = 0;
  c->ipath = 0;
  if (c->paths.n == 0) {
    c->eof = 1;
    return SQLITE_OK;
  }
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
** again after a write): sets the row's model (row_gen; the position is
** the cursor's own), and loads its record (ready_gen) unless the column
** reads without one.  A record that
** failed to load is not loaded again for the same row and generation.
** Returns 1, or 0 when col needs the record and it cannot be loaded
** (c->rec_error).  Called by ls_column_value only when the generation the
** column needs (row_gen for LS_COL_NOREC columns, else ready_gen) is
** stale, so the column reads that find the row ready skip all of it. */
static __attribute__((noinline)) int cursor_row_ready(ls_cursor *c, const ls_column *col) {
  const ls_table *t = c->table;
  uint64_t generation = *c->generation;
  c->row_gen = generation;
  if (!c->model || !t->record_size) {
    c->row.model = c->model ? c->model->p : NULL;
    c->ready_gen = generation;
    return 1;
  }
  c->row.model = c->model->p;
  if (col->flags & LS_COL_NOREC) return 1;
  if (c->rec_gen != generation) {
    if (c->arena->head || c->rec_error) cursor_record_clear(c);
    /* a constant size is a few stores, not a call (ls_open allocated it) */
    if (t->record_size <= SMALL_RECORD) memset(c->rec, 0, SMALL_RECORD);
    else memset(c->rec, 0, t->record_size);
    c->rec_gen = generation;
    c->rec_rc = t->load(&c->row, &c->rec_error);
    if (c->rec_rc != SQLITE_OK && !c->rec_error) c->rec_error = sqlite3_mprintf("out of memory");
  }
  if (c->rec_error) return 0;
  c->ready_gen = generation;
  return 1;
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
    sqlite3_result_int64(ctx, col->offset == 0 ? c->row.pos.a : col->offset == 1 ? c->row.pos.b : c->row.pos.c);
    return SQLITE_OK;
  }
  if ((col->flags & LS_COL_NOREC ? c->row_gen : c->ready_gen) != *c->generation && !cursor_row_ready(c, col)) {
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
  } else if ((rc = rowid_of(t, c->file, c->info.path, ls_table_key(t, c->model->p, &c->row.pos), out, &err)) != SQLITE_OK) {
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
  const ls_part_slot *slot = rowid >= 0 ? part_map_get(&v->parts, rowid >> LS_KEY_BITS) : NULL;
  char *err = NULL;
  if (!slot || !slot->file->shown) {
    return vtab_error(v, SQLITE_ERROR, sqlite3_mprintf("no level file read by this statement has rowid %lld", (long long)rowid));
  }
  if (slot->other) return vtab_error(v, SQLITE_ERROR, collision_message(slot->other->shown, slot->file->shown, slot->part));
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
    rc = ls_source_expand(source, t->format, opts.nocase, &ic, &list, &err);
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
  const ls_part_slot *slot = rowid >= 0 ? part_map_get(&v->parts, rowid >> LS_KEY_BITS) : NULL;
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
    if ((rc = t->insert(m->p, argv + 3, &pos, &err)) != SQLITE_OK) {
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
  part_map_clear(&((ls_vtab *)base)->parts);
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

int ls_register_family(sqlite3 *db, ls_session *sess, const ls_family *family) {
  const ls_table *const *t;
  int rc = ls_register_format(sess, family->format);
  for (t = family->tables; rc == SQLITE_OK && *t; t++) rc = ls_register_table(db, sess, *t);
  return rc;
}

int ls_register_table(sqlite3 *db, ls_session *sess, const ls_table *table) {
  const ls_table **tables = sqlite3_realloc64(sess->tables, sizeof *tables * (sqlite3_uint64)(sess->ntables + 1));
  ls_module_aux *aux;
  if (!tables) return SQLITE_NOMEM;
  tables[sess->ntables++] = table;
  sess->tables = tables;
  aux = sqlite3_malloc(sizeof *aux);
  if (!aux) return SQLITE_NOMEM;
  aux->sess = sess;
  aux->table = table;
  sess->refs++;
  return sqlite3_create_module_v2(db, table->name, &ls_module, aux, module_aux_free);
}
