/*
** test_differential.c: a query's answer does not depend on the plan.
**
** Every table, levelsql_files too (levelsql_columns names them;
** pragma_table_xinfo gives each one's columns and the name of its source
** argument, `source` or `source_path`), is read over every generated
** sample ($LEVELSQL_SAMPLES),
** over the folder of each format's samples, and over every corpus file that
** reads (LEVELSQL_CORPUS; skipped when unset), each one a private copy in a
** temporary folder.  For each (table, source) pair the rows are copied
** into a plain temporary table:
**
**   CREATE TEMP TABLE copy AS SELECT rowid AS rid, file, <columns> FROM t('src')
**
** and random queries run twice, on the virtual table (where file = ?,
** rowid = ?, the source and the key columns' =, <, <=, >, >= are pushed
** down) and on the copy (where SQLite does everything itself); the two
** answers must be equal, value for value and type for type.  The queries
** are built from =, <, >, <=, >=, !=, IS, BETWEEN, IN, IS NULL, LIKE, GLOB,
** COLLATE NOCASE / RTRIM, AND, OR and NOT over every column, `file` and
** rowid included, with literals taken from the rows (as they are, in
** another case, with trailing spaces, as text for a number, as 2.5 for 2)
** and a few absent ones; ORDER BY random columns with LIMIT / OFFSET; the
** source given as the function's argument or as WHERE source = '...'.
**
** Comparing: without ORDER BY, as multisets; with an ORDER BY the sort keys
** come first in the projection and their sequence must be equal (it is the
** same whatever the order among ties), and the whole rows as multisets
** unless a LIMIT cuts among ties; an ORDER BY that ends with rowid fixes
** the order, and the rows are compared as lists.  Rowids are compared only
** within one run (the copy holds those this run's virtual table gave).
**
** A pair whose rows are too many to copy quickly (the corpus' big tile
** layers) is narrowed to a frame of its key columns (grp = 3 AND x >= 10
** AND x <= 40): the copy is made with the frame written +col, which SQLite
** checks itself, and every query on the virtual table is ANDed with the
** frame as it is, pushed down.
**
** Each (table, source) pair is one case; the first mismatches are printed
** with the seed, the table, both queries and both answers.  The seed is
** fixed (LEVELSQL_DIFF_SEED overrides it); LEVELSQL_DIFF_TABLE=name runs
** that table alone.  In `make test`: 25 queries per sample, 60 per folder
** of samples, 4 per corpus file (a few hundred per table; about 10 s of
** CPU), BLOB columns left out over the corpus (encoded on every read, the
** corpus' images would take most of the time).  LEVELSQL_TORTURE=1 (`make
** torture`): ten times the queries, the BLOB columns, bigger frames and
** the corpus folders as sources too.
**
** Then the transaction phase (issue 24, item 1): for each (table, sample
** file) pair, and each (table, corpus file) pair under torture, with the
** copy taken, a transaction opened with BEGIN or SAVEPOINT (in turn) runs
** random queries; a second connection changes a writable integer value of
** the file (of that table, else of another table of its format), and the
** transaction's queries must still answer as the copy (repeatable reads).
** Read-only, its COMMIT succeeds and a new read sees the change; over a
** new copy, a transaction that reads, sees the file change again and
** writes must get the stale-file error at the write or the COMMIT, the
** file must keep the second connection's bytes and a new read must see
** its value.  Each pair's sequence is one case (3 queries per step; 20
** under torture, 4 over the corpus).
*/
#include <dirent.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fileutil.h"
#include "sqltest.h"

#define MAX_COLUMNS 96      /* wwd_objects has 82 */
#define MAX_TABLES 64
#define SAMPLED_ROWS 48     /* rows whose values make the literals */
#ifndef MISMATCHES_SHOWN
#define MISMATCHES_SHOWN 6 /* printed in full; the others are counted */
#endif
#define FAILED_PAIRS_SHOWN 20 /* the FAIL lines of the others are not printed */
#define ROWS_SHOWN 8        /* of each answer, in a printed mismatch */
#define ORDER_KEYS_MAX 3

/* ---- random numbers ------------------------------------------------------ */

/* splitmix64: small, and the same sequence on every platform. */
typedef struct rng_state {
  uint64_t s;
} rng_state;

static uint64_t rng_next(rng_state *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A number in [0, n); 0 when n is 0. */
static uint32_t pick(rng_state *r, uint32_t n) {
  return n ? (uint32_t)(rng_next(r) % n) : 0;
}

/* True `percent` times in a hundred. */
static int chance(rng_state *r, int percent) {
  return (int)pick(r, 100) < percent;
}

/* ---- tables, columns, sources --------------------------------------------- */

/* One column as the queries name it: on the virtual table and in the copy
** (they differ only for the row id: rowid there, rid here). */
typedef struct column {
  char name[64];      /* in the virtual table */
  char copy_name[64]; /* in the copy */
  char type;          /* declared: 'i' integer, 't' text, 'r' real, 'b' blob */
  int pushed;         /* file, rowid and the key columns: pushed down */
  int writable;       /* UPDATE can set it (levelsql_columns) */
} column;

/* A table: cols[0] is the row id, cols[1] `file`, then the others in their
** declared order. */
typedef struct table_def {
  char name[64];
  char family[16];     /* levelsql_files' format ("wwd", ...); "" for any */
  char source_arg[32]; /* the hidden argument's name: source or source_path */
  int ncols;
  column cols[MAX_COLUMNS];
} table_def;

/* A source the tables read: one file, or a folder of one format's files. */
typedef struct target {
  char source[1024];
  char family[16];
  int is_folder;
  int queries;    /* per table */
  long row_cap;   /* more rows than this: a frame (see the header) */
  int skip_blobs; /* leave BLOB columns out (see main) */
  int tx_queries; /* the transaction phase: queries per step (0: none) */
  int tis_no_png; /* copy_readable's template: tilesets without png (their pages are not beside them) */
} target;

typedef struct target_list {
  target *items;
  int n, cap;
} target_list;

static int target_add(target_list *l, const char *source, const char *family, int is_folder, int queries,
                      long row_cap, int skip_blobs) {
  target *t;
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 64;
    target *grown = realloc(l->items, (size_t)cap * sizeof *grown);
    if (!grown) return 0;
    l->items = grown;
    l->cap = cap;
  }
  t = &l->items[l->n++];
  snprintf(t->source, sizeof t->source, "%s", source);
  snprintf(t->family, sizeof t->family, "%s", family);
  t->is_folder = is_folder;
  t->queries = queries;
  t->row_cap = row_cap;
  t->skip_blobs = skip_blobs;
  return 1;
}

/* Reads the tables of the extension: their names from levelsql_columns,
** their columns, types and hidden arguments from pragma_table_xinfo, which
** columns are pushed down from levelsql_columns.  Returns how many, 0 on
** failure (printed). */
static int load_tables(sqlite3 *db, table_def *tables, int max) {
  sqlite3_stmt *names = NULL, *cols = NULL;
  int n = 0;
  if (sqlite3_prepare_v2(db, "SELECT DISTINCT table_name FROM levelsql_columns ORDER BY 1", -1, &names, NULL) ||
      sqlite3_prepare_v2(db,
                         "SELECT x.name, upper(x.type), x.hidden,"
                         " (SELECT c.pushed_down FROM levelsql_columns AS c WHERE c.table_name = ?1 AND c.column_name = x.name),"
                         " (SELECT c.writable FROM levelsql_columns AS c WHERE c.table_name = ?1 AND c.column_name = x.name)"
                         " FROM pragma_table_xinfo(?1) AS x ORDER BY x.cid",
                         -1, &cols, NULL)) {
    printf("cannot read the tables: %s\n", sqlite3_errmsg(db));
    sqlite3_finalize(names);
    return 0;
  }
  while (sqlite3_step(names) == SQLITE_ROW && n < max) {
    table_def *t = &tables[n];
    const char *name = (const char *)sqlite3_column_text(names, 0);
    const char *under = strchr(name, '_');
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    if (strcmp(name, "levelsql_files") != 0 && under)
      snprintf(t->family, sizeof t->family, "%.*s", (int)(under - name), name);
    snprintf(t->cols[0].name, sizeof t->cols[0].name, "rowid");
    snprintf(t->cols[0].copy_name, sizeof t->cols[0].copy_name, "rid");
    t->cols[0].type = 'i';
    t->cols[0].pushed = 1;
    t->ncols = 1;
    sqlite3_bind_text(cols, 1, name, -1, SQLITE_TRANSIENT);
    while (sqlite3_step(cols) == SQLITE_ROW) {
      const char *cname = (const char *)sqlite3_column_text(cols, 0);
      const char *type = (const char *)sqlite3_column_text(cols, 1);
      column *c;
      if (sqlite3_column_int(cols, 2)) {
        if (!t->source_arg[0]) snprintf(t->source_arg, sizeof t->source_arg, "%s", cname);
        continue;
      }
      if (t->ncols == MAX_COLUMNS) break;
      c = &t->cols[t->ncols++];
      snprintf(c->name, sizeof c->name, "\"%s\"", cname);
      snprintf(c->copy_name, sizeof c->copy_name, "\"%s\"", cname);
      c->type = !type ? 'b' : strstr(type, "INT") ? 'i' : strstr(type, "TEXT") ? 't' : strstr(type, "REAL") ? 'r' : 'b';
      c->pushed = sqlite3_column_int(cols, 3);
      c->writable = sqlite3_column_int(cols, 4);
    }
    sqlite3_reset(cols);
    if (t->ncols > 1 && t->source_arg[0]) n++;
    else printf("note: %s has no columns or no source argument\n", name);
  }
  sqlite3_finalize(names);
  sqlite3_finalize(cols);
  return n;
}

/* The format levelsql_files gives the file at path when every table of its
** format reads it (into out, "" otherwise). */
static void file_format(sqlite3 *db, const char *path, char *out, size_t size) {
  sqlite3_stmt *st = NULL;
  out[0] = 0;
  if (sqlite3_prepare_v2(db, "SELECT format FROM levelsql_files(?1) WHERE ok AND format IS NOT NULL", -1, &st, NULL) ==
      SQLITE_OK) {
    sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW) snprintf(out, size, "%s", (const char *)sqlite3_column_text(st, 0));
  }
  sqlite3_finalize(st);
}

/* Copies each file of folder `from` (one level; `from`/<sub>/ too when
** `subfolders`) that some format reads into into/<format>/, and adds it as
** a target with the settings of `like`; returns the number of bits set in *formats_seen for the
** formats found (bit per entry of `formats`). */
static int copy_readable(sqlite3 *db, const char *from, const char *into, int subfolders, const target *like,
                         target_list *targets, const char *const *formats, unsigned *formats_seen) {
  DIR *d = opendir(from);
  struct dirent *e;
  int copied = 0;
  if (!d) return 0;
  while ((e = readdir(d)) != NULL) {
    char path[1024], format[16], dest[1024];
    struct stat st;
    size_t size = 0;
    unsigned char *data;
    int f, k, companion;
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", from, e->d_name);
    if (stat(path, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      if (subfolders)
        copied += copy_readable(db, path, into, 0, like, targets, formats, formats_seen);
      continue;
    }
    file_format(db, path, format, sizeof format);
    /* a PVRZ page (a format without tables) goes beside the tilesets, whose
    ** png reads it; it is no target */
    companion = strcmp(format, "pvrz") == 0;
    if (companion) snprintf(format, sizeof format, "tis");
    for (f = 0; formats[f] && strcmp(formats[f], format) != 0; f++) {
    }
    if (!formats[f]) continue;
    mkdir(fmt("%s/%s", into, format), 0755);
    /* two files of the same name (from two folders) keep both */
    snprintf(dest, sizeof dest, "%s/%s/%s", into, format, e->d_name);
    for (k = 1; access(dest, F_OK) == 0; k++) snprintf(dest, sizeof dest, "%s/%s/%d_%s", into, format, k, e->d_name);
    data = file_read_all(path, &size);
    if (data && file_write_all(dest, data, size) && companion) {
      copied++;
    } else if (data && target_add(targets, dest, format, 0, like->queries, like->row_cap,
                                  like->skip_blobs || (like->tis_no_png && strcmp(format, "tis") == 0))) {
      /* tis_tiles is read-only: nothing for a second connection to change */
      targets->items[targets->n - 1].tx_queries = strcmp(format, "tis") == 0 ? 0 : like->tx_queries;
      *formats_seen |= 1u << f;
      copied++;
    } else {
      CHECK(0, "copy %s to %s", path, dest);
    }
    free(data);
  }
  closedir(d);
  return copied;
}

/* ---- the copy and its frame ------------------------------------------------ */

/* Runs sql and returns its single integer (-1 on error, printed). */
static sqlite3_int64 one_int(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st = NULL;
  sqlite3_int64 v = -1;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    v = sqlite3_column_int64(st, 0);
  else
    printf("query failed: %s: %s\n", sql, sqlite3_errmsg(db));
  sqlite3_finalize(st);
  return v;
}

/* The frame of a pair (see the header): `pushed` is ANDed with every query
** on the virtual table, `checked` (the same with +col) makes the copy.
** Empty strings when the pair is small enough. */
typedef struct frame {
  char pushed[512];
  char checked[512];
} frame;

/* The number of the pair's rows within the frame so far and `extra`
** (both pushed down); -1 on error. */
static sqlite3_int64 frame_count(sqlite3 *db, const table_def *t, const target *tg, const frame *fr, const char *extra) {
  char *sql = sqlite3_mprintf("SELECT count(*) FROM \"%s\"(%Q) WHERE %s%s%s", t->name, tg->source,
                              fr->pushed[0] ? fr->pushed : "1", extra[0] ? " AND " : "", extra);
  sqlite3_int64 n = sql ? one_int(db, sql) : -1;
  sqlite3_free(sql);
  return n;
}

/* Adds one condition to the frame, in both forms. */
static void frame_add(frame *fr, const char *name, const char *lo, const char *hi) {
  size_t lp = strlen(fr->pushed), lc = strlen(fr->checked);
  const char *and_ = lp ? " AND " : "";
  if (!hi) {
    snprintf(fr->pushed + lp, sizeof fr->pushed - lp, "%s%s = %s", and_, name, lo);
    snprintf(fr->checked + lc, sizeof fr->checked - lc, "%s+%s = %s", and_, name, lo);
  } else {
    snprintf(fr->pushed + lp, sizeof fr->pushed - lp, "%s%s >= %s AND %s <= %s", and_, name, lo, name, hi);
    snprintf(fr->checked + lc, sizeof fr->checked - lc, "%s+%s >= %s AND +%s <= %s", and_, name, lo, name, hi);
  }
}

/* Narrows the pair's rows under the target's cap, one key column after the
** other (file first for a folder): the value v of the column in a random
** row of the frame; when more than cap rows have it, the frame gets
** col = v and the next column goes on; else col >= v AND col <= v + w,
** w doubling while the rows stay under cap, ends it.  Each step costs one
** scan of the frame (OFFSET) and a few counts, never a sort.  Choosing
** asks the virtual table with the frame pushed down: a wrong answer only
** makes a worse frame, the copy is made without pushing it down. */
static void frame_choose(sqlite3 *db, const table_def *t, const target *tg, rng_state *rng, sqlite3_int64 total,
                         frame *fr) {
  int c;
  fr->pushed[0] = fr->checked[0] = 0;
  for (c = 1; c < t->ncols && total > tg->row_cap; c++) {
    const column *col = &t->cols[c];
    sqlite3_stmt *st = NULL;
    char *sql, *value = NULL;
    sqlite3_int64 v = 0, n, w, fits_hi = 0, fits_n = 0;
    if (!col->pushed || (c == 1 && !tg->is_folder)) continue;
    sql = sqlite3_mprintf("SELECT quote(%s), %s FROM \"%s\"(%Q) WHERE %s LIMIT 1 OFFSET %u", col->name, col->name,
                          t->name, tg->source, fr->pushed[0] ? fr->pushed : "1",
                          pick(rng, total > UINT32_MAX ? UINT32_MAX : (uint32_t)total));
    if (sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
      value = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
      v = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    sqlite3_free(sql);
    if (!value) break;
    n = frame_count(db, t, tg, fr, fmt("%s = %s", col->name, value));
    if (n > tg->row_cap || col->type != 'i' || n < 1) {
      frame_add(fr, col->name, value, NULL);
      total = n;
    } else {
      fits_hi = v;
      fits_n = n;
      for (w = 1; w <= 256 && fits_n < total && v <= INT64_MAX - w; w *= 2) {
        n = frame_count(db, t, tg, fr, fmt("%s >= %lld AND %s <= %lld", col->name, (long long)v, col->name, (long long)(v + w)));
        if (n > tg->row_cap || n < 0) break;
        fits_hi = v + w;
        fits_n = n;
      }
      frame_add(fr, col->name, value, fits_hi > v ? fmt("%lld", (long long)fits_hi) : NULL);
      total = fits_n;
    }
    sqlite3_free(value);
  }
}

/* Makes temp.copy of the pair's rows (within the frame, checked by
** SQLite); returns its number of rows, -1 on failure (printed). */
static sqlite3_int64 copy_make(sqlite3 *db, const table_def *t, const target *tg, const frame *fr) {
  sqlite3_str *s = sqlite3_str_new(db);
  char *sql;
  int c, rc;
  char *err = NULL;
  sqlite3_str_appendall(s, "DROP TABLE IF EXISTS temp.copy; CREATE TEMP TABLE copy AS SELECT rowid AS rid");
  for (c = 1; c < t->ncols; c++) sqlite3_str_appendf(s, ", %s", t->cols[c].name);
  sqlite3_str_appendf(s, " FROM \"%s\"(%Q)", t->name, tg->source);
  if (fr->checked[0]) sqlite3_str_appendf(s, " WHERE %s", fr->checked);
  sql = sqlite3_str_finish(s);
  rc = sqlite3_exec(db, sql, NULL, NULL, &err);
  if (rc != SQLITE_OK) printf("FAIL cannot copy: %s: %s\n", sql, err ? err : "?");
  sqlite3_free(sql);
  sqlite3_free(err);
  return rc == SQLITE_OK ? one_int(db, "SELECT count(*) FROM temp.copy") : -1;
}

/* The values of up to SAMPLED_ROWS rows of the copy, chosen evenly at
** random in one pass (reservoir): vals[row * ncols + col]. */
typedef struct sampled {
  sqlite3_value **vals;
  int nrows, ncols;
} sampled;

static void sampled_free(sampled *sv) {
  int i;
  for (i = 0; sv->vals && i < sv->nrows * sv->ncols; i++) sqlite3_value_free(sv->vals[i]);
  free(sv->vals);
  sv->vals = NULL;
  sv->nrows = 0;
}

static void sampled_take(sqlite3 *db, int ncols, rng_state *rng, sampled *sv) {
  sqlite3_stmt *st = NULL;
  long seen = 0;
  int c;
  sv->ncols = ncols;
  sv->nrows = 0;
  sv->vals = calloc((size_t)SAMPLED_ROWS * (size_t)ncols, sizeof *sv->vals);
  if (!sv->vals || sqlite3_prepare_v2(db, "SELECT * FROM temp.copy", -1, &st, NULL) != SQLITE_OK) return;
  while (sqlite3_step(st) == SQLITE_ROW) {
    long slot = seen < SAMPLED_ROWS ? seen : (long)pick(rng, (uint32_t)(seen + 1));
    seen++;
    if (slot >= SAMPLED_ROWS) continue;
    for (c = 0; c < ncols; c++) {
      sqlite3_value **v = &sv->vals[slot * ncols + c];
      sqlite3_value_free(*v);
      *v = sqlite3_value_dup(sqlite3_column_value(st, c));
    }
    if (slot == sv->nrows) sv->nrows++;
  }
  sqlite3_finalize(st);
}

/* ---- generating a query ---------------------------------------------------- */

/* The two texts of one query, written together: on the virtual table and on
** the copy. */
typedef struct query_pair {
  sqlite3_str *v, *c;
} query_pair;

static void both(query_pair *q, const char *text) {
  sqlite3_str_appendall(q->v, text);
  sqlite3_str_appendall(q->c, text);
}

static void both_col(query_pair *q, const column *col) {
  sqlite3_str_appendall(q->v, col->name);
  sqlite3_str_appendall(q->c, col->copy_name);
}

/* What the generator draws from. */
typedef struct gen {
  rng_state *rng;
  const table_def *t;
  const sampled *sv;
} gen;

/* A column: half the time one that is pushed down (rowid, file, keys). */
static int gen_column(gen *g) {
  int pushed[MAX_COLUMNS], n = 0, c;
  for (c = 0; c < g->t->ncols; c++)
    if (g->t->cols[c].pushed) pushed[n++] = c;
  if (n && chance(g->rng, 50)) return pushed[pick(g->rng, (uint32_t)n)];
  return (int)pick(g->rng, (uint32_t)g->t->ncols);
}

/* A sampled value of column col, or NULL when none was sampled. */
static sqlite3_value *gen_sampled(gen *g, int col) {
  if (g->sv->nrows == 0) return NULL;
  return g->sv->vals[pick(g->rng, (uint32_t)g->sv->nrows) * g->sv->ncols + col];
}

/* text with the case of its ASCII letters swapped (sqlite3_malloc'd). */
static char *flip_case(const char *text) {
  char *out = sqlite3_mprintf("%s", text);
  char *p;
  for (p = out; p && *p; p++) {
    if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
    else if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
  }
  return out;
}

/* Literals that no row need hold, of every type and at the ends of the
** integers (the pushed-down ranges' edges). */
static const char *const absent_literals[] = {
  "-1", "0", "1", "2.5", "-2.5", "'5'", "5", "1000000007", "-9223372036854775808", "(-9223372036854775807 - 1)",
  "9223372036854775807", "1e300", "-1e300", "''", "'zz'", "'X.WWD'", "NULL", "X'00'", "'  '", "'1e2'",
};

/* A literal for column col (sqlite3_malloc'd SQL): mostly a value of the
** rows, as it is or changed (another case, trailing spaces, a number as
** text, 2.5 for 2, one more or less), else one of absent_literals. */
static char *gen_literal(gen *g, int col) {
  sqlite3_value *v = chance(g->rng, 80) ? gen_sampled(g, col) : NULL;
  if (!v) return sqlite3_mprintf("%s", absent_literals[pick(g->rng, sizeof absent_literals / sizeof *absent_literals)]);
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER: {
      sqlite3_int64 x = sqlite3_value_int64(v);
      switch (pick(g->rng, 10)) {
        case 0: return sqlite3_mprintf("'%lld'", x);
        case 1: return sqlite3_mprintf("%lld.0", x);
        case 2: return sqlite3_mprintf("(%lld + 0.5)", x);
        case 3: return sqlite3_mprintf("(%lld - 0.5)", x);
        case 4: return sqlite3_mprintf("%lld", x < INT64_MAX ? x + 1 : x);
        case 5: return sqlite3_mprintf("%lld", x > INT64_MIN ? x - 1 : x);
        default: return sqlite3_mprintf("%lld", x);
      }
    }
    case SQLITE_FLOAT: {
      double d = sqlite3_value_double(v);
      return chance(g->rng, 70) ? sqlite3_mprintf("%!.17g", d) : sqlite3_mprintf("'%!.17g'", d);
    }
    case SQLITE_TEXT: {
      const char *s = (const char *)sqlite3_value_text(v);
      char *changed, *out;
      switch (pick(g->rng, 8)) {
        case 0:
          changed = flip_case(s);
          out = sqlite3_mprintf("%Q", changed);
          sqlite3_free(changed);
          return out;
        case 1: return sqlite3_mprintf("'%q  '", s);
        case 2: return sqlite3_mprintf("%.*Q", (int)pick(g->rng, (uint32_t)strlen(s) + 1), s);
        case 3: return sqlite3_mprintf("'%q\t'", s);
        default: return sqlite3_mprintf("%Q", s);
      }
    }
    case SQLITE_BLOB: {
      int n = sqlite3_value_bytes(v), i;
      const unsigned char *b = sqlite3_value_blob(v);
      sqlite3_str *s;
      if (n > 32 || chance(g->rng, 30)) return sqlite3_mprintf("X'00'");
      s = sqlite3_str_new(NULL);
      sqlite3_str_appendall(s, "X'");
      for (i = 0; i < n; i++) sqlite3_str_appendf(s, "%02X", b[i]);
      sqlite3_str_appendall(s, "'");
      return sqlite3_str_finish(s);
    }
    default: return sqlite3_mprintf("NULL");
  }
}

/* A LIKE or GLOB pattern from a value of col: a prefix and %, one letter
** made _, another case (LIKE ignores it for ASCII, GLOB does not). */
static char *gen_pattern(gen *g, int col, int glob) {
  sqlite3_value *v = gen_sampled(g, col);
  const char *s = v ? (const char *)sqlite3_value_text(v) : NULL;
  char *p, *out;
  size_t n;
  if (!s) return sqlite3_mprintf(glob ? "'*'" : "'%%'");
  p = pick(g->rng, 4) == 0 ? flip_case(s) : sqlite3_mprintf("%s", s);
  if (!p) return NULL;
  n = strlen(p);
  switch (pick(g->rng, 3)) {
    case 0: p[pick(g->rng, (uint32_t)n + 1)] = 0; out = sqlite3_mprintf(glob ? "'%q*'" : "'%q%%'", p); break;
    case 1: if (n) p[pick(g->rng, (uint32_t)n)] = glob ? '?' : '_'; out = sqlite3_mprintf("%Q", p); break;
    default: out = sqlite3_mprintf("%Q", p); break;
  }
  sqlite3_free(p);
  return out;
}

static const char *const comparisons[] = {"=", "<", ">", "<=", ">=", "!=", "IS", "IS NOT", "=="};
/* the same comparison with its sides swapped */
static const char *const swapped[] = {"=", ">", "<", ">=", "<=", "!=", "IS", "IS NOT", "=="};
static const char *const collations[] = {"NOCASE", "RTRIM", "BINARY"};

/* Appends one literal of col to both texts. */
static void both_literal(query_pair *q, gen *g, int col) {
  char *lit = gen_literal(g, col);
  both(q, lit ? lit : "NULL");
  sqlite3_free(lit);
}

/* One condition on one column. */
static void gen_term(query_pair *q, gen *g) {
  int col = gen_column(g);
  const column *c = &g->t->cols[col];
  int textual = c->type == 't';
  uint32_t kind = pick(g->rng, 100);
  uint32_t op = pick(g->rng, sizeof comparisons / sizeof *comparisons);
  if (kind < 30) { /* col OP literal, or literal OP col */
    if (chance(g->rng, 25)) {
      both_literal(q, g, col);
      both(q, fmt(" %s ", swapped[op]));
      both_col(q, c);
    } else {
      both_col(q, c);
      both(q, fmt(" %s ", comparisons[op]));
      both_literal(q, g, col);
    }
  } else if (kind < 38) { /* BETWEEN */
    both_col(q, c);
    both(q, chance(g->rng, 20) ? " NOT BETWEEN " : " BETWEEN ");
    both_literal(q, g, col);
    both(q, " AND ");
    both_literal(q, g, col);
  } else if (kind < 53) { /* IN (...) */
    int k, n = 1 + (int)pick(g->rng, 4);
    both_col(q, c);
    both(q, chance(g->rng, 20) ? " NOT IN (" : " IN (");
    for (k = 0; k < n; k++) {
      if (k) both(q, ", ");
      both_literal(q, g, col);
    }
    both(q, ")");
  } else if (kind < 60) { /* IS [NOT] NULL */
    both_col(q, c);
    both(q, chance(g->rng, 50) ? " IS NULL" : " IS NOT NULL");
  } else if (kind < 68) { /* LIKE, GLOB */
    int glob = chance(g->rng, 25);
    char *p = gen_pattern(g, col, glob);
    both_col(q, c);
    both(q, glob ? " GLOB " : chance(g->rng, 15) ? " NOT LIKE " : " LIKE ");
    both(q, p ? p : "''");
    sqlite3_free(p);
  } else if (kind < 90 && (textual || chance(g->rng, 20))) { /* a collation, on either side */
    const char *coll = collations[pick(g->rng, 3)];
    uint32_t cop = pick(g->rng, 6);
    if (chance(g->rng, 20)) { /* IN with a collation */
      int k, n = 1 + (int)pick(g->rng, 3);
      both_col(q, c);
      both(q, fmt(" COLLATE %s IN (", coll));
      for (k = 0; k < n; k++) {
        if (k) both(q, ", ");
        both_literal(q, g, col);
      }
      both(q, ")");
    } else if (chance(g->rng, 50)) {
      both_col(q, c);
      both(q, fmt(" COLLATE %s %s ", coll, comparisons[cop]));
      both_literal(q, g, col);
    } else {
      both_col(q, c);
      both(q, fmt(" %s ", comparisons[cop]));
      both_literal(q, g, col);
      both(q, fmt(" COLLATE %s", coll));
    }
  } else { /* an expression on the column: never pushed down */
    both(q, "+");
    both_col(q, c);
    both(q, fmt(" %s ", comparisons[op]));
    both_literal(q, g, col);
  }
}

/* A condition: a term, or AND / OR / NOT of conditions. */
static void gen_condition(query_pair *q, gen *g, int depth) {
  uint32_t k = pick(g->rng, 100);
  if (depth >= 3 || k < 45) {
    gen_term(q, g);
  } else if (k < 90) {
    both(q, "(");
    gen_condition(q, g, depth + 1);
    both(q, k < 70 ? " AND " : " OR ");
    gen_condition(q, g, depth + 1);
    both(q, ")");
  } else {
    both(q, "NOT (");
    gen_condition(q, g, depth + 1);
    both(q, ")");
  }
}

/* A rowid lookup: rowid = X or rowid IN (...) with rowids of the rows (and
** one absent), sometimes with file = its file or another condition. */
static void gen_rowid_lookup(query_pair *q, gen *g) {
  const column *rowid = &g->t->cols[0];
  int k, n = chance(g->rng, 50) ? 1 : 2 + (int)pick(g->rng, 4);
  both_col(q, rowid);
  both(q, n == 1 ? " = " : " IN (");
  for (k = 0; k < n; k++) {
    sqlite3_value *v = gen_sampled(g, 0);
    if (k) both(q, ", ");
    if (v && !chance(g->rng, 10)) both(q, fmt("%lld", (long long)sqlite3_value_int64(v)));
    else both(q, chance(g->rng, 50) ? "123456789" : "-1");
  }
  if (n > 1) both(q, ")");
  if (chance(g->rng, 40)) {
    both(q, " AND ");
    gen_condition(q, g, 1);
  }
}

/* How the answers of a query are compared (see the header). */
typedef struct shape {
  int nkeys;   /* the first nkeys columns are the ORDER BY keys */
  int total;   /* the ORDER BY fixes the order: compare as lists */
  int limited; /* LIMIT cuts the answer */
} shape;

/* The whole query: the projection (ORDER BY keys first), FROM with the
** source as argument or as WHERE source = ..., the condition, ORDER BY,
** LIMIT / OFFSET.  The first query of each pair reads every row. */
static void gen_query(query_pair *q, gen *g, const target *tg, const frame *fr, int first, shape *sh) {
  const table_def *t = g->t;
  int keys[ORDER_KEYS_MAX + 1], desc[ORDER_KEYS_MAX + 1], nkeys = 0, k, c;
  int where_source = !first && chance(g->rng, 25);
  int has_condition = !first && chance(g->rng, 92);
  int cond_open = 0;
  memset(sh, 0, sizeof *sh);
  if (!first && chance(g->rng, 55)) {
    if (chance(g->rng, 20)) { /* the natural order: file, then the keys, ascending */
      for (c = 1; c < t->ncols && nkeys < ORDER_KEYS_MAX; c++)
        if (t->cols[c].pushed && (c == 1 || chance(g->rng, 80))) keys[nkeys] = c, desc[nkeys++] = 0;
    } else {
      int n = 1 + (int)pick(g->rng, ORDER_KEYS_MAX);
      for (k = 0; k < n; k++) keys[nkeys] = gen_column(g), desc[nkeys++] = chance(g->rng, 40);
    }
    if (chance(g->rng, 50)) {
      keys[nkeys] = 0, desc[nkeys++] = chance(g->rng, 30);
      sh->total = 1;
    }
    for (k = 0; k < nkeys; k++) sh->total |= keys[k] == 0;
  }
  sh->nkeys = nkeys;
  both(q, "SELECT ");
  for (k = 0; k < nkeys; k++) {
    both_col(q, &t->cols[keys[k]]);
    both(q, ", ");
  }
  if (first || chance(g->rng, 15)) {
    for (c = 0; c < t->ncols; c++) {
      if (c) both(q, ", ");
      both_col(q, &t->cols[c]);
    }
  } else {
    int n = 1 + (int)pick(g->rng, 6);
    if (chance(g->rng, 60)) {
      both_col(q, &t->cols[0]);
      both(q, ", ");
    }
    for (k = 0; k < n; k++) {
      if (k) both(q, ", ");
      both_col(q, &t->cols[1 + pick(g->rng, (uint32_t)t->ncols - 1)]);
    }
  }
  if (where_source) {
    sqlite3_str_appendf(q->v, " FROM \"%s\" WHERE \"%s\" = %Q", t->name, t->source_arg, tg->source);
    cond_open = 1;
  } else {
    sqlite3_str_appendf(q->v, " FROM \"%s\"(%Q)", t->name, tg->source);
  }
  sqlite3_str_appendall(q->c, " FROM temp.copy");
  if (fr->pushed[0]) {
    sqlite3_str_appendf(q->v, " %s (%s)", cond_open ? "AND" : "WHERE", fr->pushed);
    cond_open = 1;
  }
  if (has_condition) {
    sqlite3_str_appendall(q->v, cond_open ? " AND (" : " WHERE (");
    sqlite3_str_appendall(q->c, " WHERE (");
    if (chance(g->rng, 15)) gen_rowid_lookup(q, g);
    else gen_condition(q, g, 0);
    both(q, ")");
  }
  if (nkeys) {
    both(q, " ORDER BY ");
    for (k = 0; k < nkeys; k++) {
      if (k) both(q, ", ");
      both_col(q, &t->cols[keys[k]]);
      both(q, desc[k] ? " DESC" : " ASC");
    }
    if (chance(g->rng, 45)) {
      sh->limited = 1;
      both(q, fmt(" LIMIT %d", chance(g->rng, 10) ? -1 : (int)pick(g->rng, 25)));
      if (chance(g->rng, 60)) both(q, fmt(" OFFSET %d", (int)pick(g->rng, 30)));
    }
  }
}

/* ---- running and comparing ------------------------------------------------- */

/* One row's values, serialized (type byte, then 8 bytes or a length and the
** bytes), the ORDER BY keys first: key_len bytes. */
typedef struct row_bytes {
  unsigned char *data;
  size_t len, key_len;
} row_bytes;

typedef struct answer {
  row_bytes *rows;
  int n, cap;
  char *error; /* sqlite3_malloc'd */
} answer;

static void answer_free(answer *a) {
  int i;
  for (i = 0; i < a->n; i++) free(a->rows[i].data);
  free(a->rows);
  sqlite3_free(a->error);
  memset(a, 0, sizeof *a);
}

/* Appends n bytes to a growing buffer; returns 0 when out of memory. */
static int put(unsigned char **buf, size_t *len, size_t *cap, const void *bytes, size_t n) {
  if (*len + n > *cap) {
    size_t grown = (*cap ? *cap * 2 : 64) + n;
    unsigned char *b = realloc(*buf, grown);
    if (!b) return 0;
    *buf = b;
    *cap = grown;
  }
  if (n) memcpy(*buf + *len, bytes, n); /* (an empty blob's bytes may be NULL) */
  *len += n;
  return 1;
}

/* Runs sql and keeps its rows (serialized) or its error. */
static void run_query(sqlite3 *db, const char *sql, int nkeys, answer *a) {
  sqlite3_stmt *st = NULL;
  int rc;
  memset(a, 0, sizeof *a);
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    a->error = sqlite3_mprintf("prepare: %s", sqlite3_errmsg(db));
    return;
  }
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int ncol = sqlite3_column_count(st), i;
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0, key_len = 0;
    int ok = 1;
    for (i = 0; i < ncol && ok; i++) {
      unsigned char type = (unsigned char)sqlite3_column_type(st, i);
      if (i == nkeys) key_len = len;
      ok = put(&buf, &len, &cap, &type, 1);
      if (type == SQLITE_INTEGER) {
        sqlite3_int64 x = sqlite3_column_int64(st, i);
        ok = ok && put(&buf, &len, &cap, &x, sizeof x);
      } else if (type == SQLITE_FLOAT) {
        double d = sqlite3_column_double(st, i);
        ok = ok && put(&buf, &len, &cap, &d, sizeof d);
      } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
        const void *p = type == SQLITE_TEXT ? (const void *)sqlite3_column_text(st, i) : sqlite3_column_blob(st, i);
        uint32_t n = (uint32_t)sqlite3_column_bytes(st, i);
        ok = ok && put(&buf, &len, &cap, &n, sizeof n) && (n == 0 || put(&buf, &len, &cap, p, n));
      }
    }
    if (i == nkeys) key_len = len;
    if (a->n == a->cap) {
      int grown = a->cap ? a->cap * 2 : 64;
      row_bytes *r = realloc(a->rows, (size_t)grown * sizeof *r);
      if (!r) ok = 0;
      else a->rows = r, a->cap = grown;
    }
    if (!ok) {
      free(buf);
      a->error = sqlite3_mprintf("out of memory");
      break;
    }
    a->rows[a->n].data = buf;
    a->rows[a->n].len = len;
    a->rows[a->n++].key_len = key_len;
  }
  if (!a->error && rc != SQLITE_DONE) a->error = sqlite3_mprintf("step: %s", sqlite3_errmsg(db));
  sqlite3_finalize(st);
}

static int bytes_cmp(const unsigned char *a, size_t na, const unsigned char *b, size_t nb) {
  int d = na && nb ? memcmp(a, b, na < nb ? na : nb) : 0;
  return d ? d : (na > nb) - (na < nb);
}

static int row_cmp(const void *x, const void *y) {
  const row_bytes *a = x, *b = y;
  return bytes_cmp(a->data, a->len, b->data, b->len);
}

/* Are the two answers the same, as the query's shape says? */
static int answers_agree(answer *a, answer *b, const shape *sh) {
  int i;
  if (a->error || b->error) return 0;
  if (a->n != b->n) return 0;
  for (i = 0; i < a->n && sh->nkeys; i++) /* the keys in order */
    if (bytes_cmp(a->rows[i].data, a->rows[i].key_len, b->rows[i].data, b->rows[i].key_len)) return 0;
  if (sh->limited && !sh->total) return 1; /* the rows among ties may differ */
  if (!sh->total && a->n > 0) { /* (qsort of no rows may get NULL) */
    qsort(a->rows, (size_t)a->n, sizeof *a->rows, row_cmp);
    qsort(b->rows, (size_t)b->n, sizeof *b->rows, row_cmp);
  }
  for (i = 0; i < a->n; i++)
    if (row_cmp(&a->rows[i], &b->rows[i])) return 0;
  return 1;
}

/* Prints one serialized row the way quote() would (text cut at 40). */
static void print_row(const row_bytes *r) {
  size_t at = 0;
  int first = 1;
  printf("    ");
  while (at < r->len) {
    unsigned char type = r->data[at++];
    if (!first) printf("|");
    first = 0;
    if (type == SQLITE_INTEGER) {
      sqlite3_int64 x;
      memcpy(&x, r->data + at, sizeof x);
      at += sizeof x;
      printf("%lld", (long long)x);
    } else if (type == SQLITE_FLOAT) {
      double d;
      memcpy(&d, r->data + at, sizeof d);
      at += sizeof d;
      printf("%.17g(real)", d);
    } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
      uint32_t n, k;
      memcpy(&n, r->data + at, sizeof n);
      at += sizeof n;
      if (type == SQLITE_TEXT) printf("'%.*s%s'", n > 40 ? 40 : (int)n, (const char *)r->data + at, n > 40 ? "..." : "");
      else for (printf("X'"), k = 0; k < n && k < 16; k++) printf("%02X%s", r->data[at + k], k + 1 == n ? "'" : k == 15 ? "...'" : "");
      if (type == SQLITE_BLOB && n == 0) printf("'");
      at += n;
    } else {
      printf("NULL");
    }
  }
  printf("\n");
}

static void print_answer(const char *label, const answer *a) {
  int i;
  if (a->error) {
    printf("  %s: error: %s\n", label, a->error);
    return;
  }
  printf("  %s: %d rows%s\n", label, a->n, a->n > ROWS_SHOWN ? fmt(" (the first %d)", ROWS_SHOWN) : "");
  for (i = 0; i < a->n && i < ROWS_SHOWN; i++) print_row(&a->rows[i]);
}

/* The run's totals. */
typedef struct tally_counts {
  uint64_t seed; /* the run's (each pair's is derived from it) */
  long pairs, queries, mismatches, shown, framed, rows, failed_pairs;
  long tx_pairs, tx_failed; /* the transaction phase's */
} tally_counts;

/* The table t without its BLOB columns, in *out. */
static const table_def *table_without_blobs(const table_def *t, table_def *out) {
  int c;
  *out = *t;
  out->ncols = 0;
  for (c = 0; c < t->ncols; c++)
    if (t->cols[c].type != 'b') out->cols[out->ncols++] = t->cols[c];
  return out;
}

/* Runs queries first..first+n-1 of the generator g against temp.copy (see
** the header); returns the mismatches (the first `shown` printed in
** full, `when` saying at which step), and in *first_bad, unless already
** set, the first query (on the virtual table) whose answer differs
** (sqlite3_malloc'd). */
static long run_queries(sqlite3 *db, gen *g, const target *tg, const frame *fr, int first, int n, uint64_t seed,
                        const char *when, tally_counts *tally, char **first_bad) {
  long mismatches = 0;
  int i;
  for (i = first; i < first + n; i++) {
    query_pair q = {sqlite3_str_new(db), sqlite3_str_new(db)};
    char *sql_v, *sql_c;
    answer av, ac;
    shape sh;
    gen_query(&q, g, tg, fr, i == 0, &sh);
    sql_v = sqlite3_str_finish(q.v);
    sql_c = sqlite3_str_finish(q.c);
    run_query(db, sql_v, sh.nkeys, &av);
    run_query(db, sql_c, sh.nkeys, &ac);
    tally->queries++;
    if (!answers_agree(&av, &ac, &sh)) {
      if (!mismatches++ && !*first_bad) *first_bad = sqlite3_mprintf("%s", sql_v);
      tally->mismatches++;
      if (tally->shown++ < MISMATCHES_SHOWN) {
        printf("MISMATCH LEVELSQL_DIFF_SEED=%llu (this pair's: %llu), query %d of %s over %s%s%s%s:\n"
               "  virtual table: %s\n  copy:          %s\n",
               (unsigned long long)tally->seed, (unsigned long long)seed, i, g->t->name, tg->source,
               fr->pushed[0] ? " framed by " : "", fr->pushed, when, sql_v, sql_c);
        print_answer("virtual table", &av);
        print_answer("copy", &ac);
      }
    }
    answer_free(&av);
    answer_free(&ac);
    sqlite3_free(sql_v);
    sqlite3_free(sql_c);
  }
  return mismatches;
}

/* Counts the pair's rows, chooses its frame and makes temp.copy with a
** sample of its values (g's); returns 0 on failure (printed). */
static int pair_prepare(sqlite3 *db, const table_def *t, const target *tg, rng_state *rng, frame *fr,
                        sampled *sv, gen *g, tally_counts *tally) {
  char *count_sql = sqlite3_mprintf("SELECT count(*) FROM \"%s\"(%Q)", t->name, tg->source);
  sqlite3_int64 total = one_int(db, count_sql), copied;
  sqlite3_free(count_sql);
  if (total < 0) return 0;
  frame_choose(db, t, tg, rng, total, fr);
  if (fr->pushed[0]) tally->framed++;
  copied = copy_make(db, t, tg, fr);
  if (copied < 0) return 0;
  tally->rows += copied;
  sampled_take(db, t->ncols, rng, sv);
  g->rng = rng;
  g->t = t;
  g->sv = sv;
  return 1;
}

/* Runs the random queries of one (table, target) pair; returns its
** mismatches, and in *first_bad the first query (on the virtual table)
** whose answer differs (sqlite3_malloc'd; NULL when none did). */
static long run_pair(sqlite3 *db, const table_def *all_columns, const target *tg, uint64_t seed, int nqueries,
                     tally_counts *tally, char **first_bad) {
  static table_def without_blobs;
  const table_def *t = tg->skip_blobs ? table_without_blobs(all_columns, &without_blobs) : all_columns;
  rng_state rng = {seed};
  sampled sv = {0};
  frame fr;
  gen g;
  long mismatches;
  *first_bad = NULL;
  if (!pair_prepare(db, t, tg, &rng, &fr, &sv, &g, tally)) return 1;
  mismatches = run_queries(db, &g, tg, &fr, 0, nqueries, seed, "", tally, first_bad);
  sampled_free(&sv);
  exec_ok(db, "DROP TABLE temp.copy");
  return mismatches;
}

/* ---- the transaction phase ------------------------------------------------- */

#define STALE_MESSAGE "changed on disk since it was read"

/* One value changed in the file: which table, column and row, and the
** value before and after.  The row is named by its position in the
** file's rows (their natural order), not by a rowid, so that the
** sequence does not depend on rowids being the same in two connections
** (another promise, tested elsewhere). */
typedef struct change {
  const table_def *table;
  const column *col;
  unsigned row; /* OFFSET among the table's rows of the file */
  sqlite3_int64 before, after;
} change;

/* The integer in column col of the row at `row` of table t over the
** target, as connection db reads it now; 0 and *ok = 0 when it cannot be
** read or is no integer. */
static sqlite3_int64 read_cell(sqlite3 *db, const table_def *t, const column *col, const target *tg, unsigned row,
                               int *ok) {
  sqlite3_stmt *st = NULL;
  sqlite3_int64 v = 0;
  char *sql = sqlite3_mprintf("SELECT %s FROM \"%s\"(%Q) LIMIT 1 OFFSET %u", col->name, t->name, tg->source, row);
  *ok = 0;
  if (sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
      sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
    v = sqlite3_column_int64(st, 0);
    *ok = 1;
  }
  sqlite3_finalize(st);
  sqlite3_free(sql);
  return v;
}

/* The values tried as a new value of an integer cell holding v: near it
** and small ones, the column's own checks refuse the others. */
static int change_candidates(sqlite3_int64 v, sqlite3_int64 *out) {
  int n = 0;
  if (v < INT64_MAX) out[n++] = v + 1;
  if (v > INT64_MIN) out[n++] = v - 1;
  out[n++] = v ^ 1;
  out[n++] = 0;
  out[n++] = 1;
  out[n++] = 2;
  return n;
}

/* The UPDATE of one cell (sqlite3_malloc'd). */
static char *update_sql(const change *ch, const target *tg, sqlite3_int64 value) {
  return sqlite3_mprintf("UPDATE \"%s\" SET %s = %lld WHERE \"%s\" = %Q AND rowid ="
                         " (SELECT rowid FROM \"%s\"(%Q) LIMIT 1 OFFSET %u)",
                         ch->table->name, ch->col->name, (long long)value, ch->table->source_arg, tg->source,
                         ch->table->name, tg->source, ch->row);
}

/* From connection db2, changes one value of the target's file: an integer
** column that levelsql_columns says is writable, of table t first, else of
** another table of the same format, in a row chosen at random; the first
** new value the column takes (and reads back different) is kept.  Returns
** 1 with *ch filled, 0 when no column of the file could be changed. */
static int change_file(sqlite3 *db2, const table_def *t, const table_def *tables, int ntables, const target *tg,
                       rng_state *rng, change *ch) {
  int k, attempts = 0;
  for (k = -1; k < ntables && attempts < 60; k++) {
    const table_def *tt = k < 0 ? t : &tables[k];
    int c, start;
    if ((k >= 0 && tt == t) || strcmp(tt->family, tg->family) != 0 || tt->ncols < 3) continue;
    start = (int)pick(rng, (uint32_t)tt->ncols);
    for (c = 0; c < tt->ncols && attempts < 60; c++) {
      const column *col = &tt->cols[(start + c) % tt->ncols];
      sqlite3_int64 candidates[8];
      int i, n, ok;
      if (!col->writable || col->type != 'i') continue;
      ch->table = tt;
      ch->col = col;
      ch->row = pick(rng, 16);
      ch->before = read_cell(db2, tt, col, tg, ch->row, &ok);
      if (!ok) { /* fewer rows, or no integer there: the first row */
        ch->row = 0;
        ch->before = read_cell(db2, tt, col, tg, ch->row, &ok);
      }
      if (!ok) continue;
      n = change_candidates(ch->before, candidates);
      for (i = 0; i < n && attempts < 60; i++) {
        char *upd;
        int rc;
        if (candidates[i] == ch->before) continue;
        attempts++;
        upd = update_sql(ch, tg, candidates[i]);
        rc = sqlite3_exec(db2, upd, NULL, NULL, NULL);
        sqlite3_free(upd);
        if (rc != SQLITE_OK || sqlite3_changes(db2) != 1) continue;
        ch->after = read_cell(db2, tt, col, tg, ch->row, &ok);
        if (ok && ch->after != ch->before) return 1;
      }
    }
  }
  return 0;
}

/* The problems of one pair's sequence: each printed as it is found, the
** first kept for the FAIL line. */
typedef struct tx_problems {
  int n;
  char first[600];
} tx_problems;

static void tx_problem(tx_problems *p, const table_def *t, const target *tg, const char *what) {
  if (!p->n++) snprintf(p->first, sizeof p->first, "%s", what);
  printf("  TX %s over %s: %s\n", t->name, tg->source, what);
}

/* The two ways a transaction opens and ends: BEGIN ... COMMIT and an
** outermost SAVEPOINT ... RELEASE. */
static const char *const tx_open[] = {"BEGIN", "SAVEPOINT tx_diff"};
static const char *const tx_close[] = {"COMMIT", "RELEASE tx_diff"};

/* The transaction sequence of one (table, single file) pair (issue 24,
** item 1, as the header says): with db's copy of the rows taken, a
** transaction reads; db2 changes the file; the same transaction still
** reads the copy's rows (repeatable reads).  First read-only: its
** COMMIT succeeds and the next read sees db2's change.  Then, over a new
** copy, a transaction that reads, sees db2 change the file again, and
** writes: the write or its COMMIT fails with the stale-file error, the
** file keeps db2's bytes, and after the rollback db reads db2's value.
** `style` chooses BEGIN or SAVEPOINT for the first (the other for the
** second).  Returns the problems (0: the pair passes). */
static int run_tx_pair(sqlite3 *db, sqlite3 *db2, const table_def *all_columns, const table_def *tables,
                       int ntables, const target *tg, uint64_t seed, int nqueries, int style, tally_counts *tally) {
  static table_def without_blobs;
  const table_def *t = tg->skip_blobs ? table_without_blobs(all_columns, &without_blobs) : all_columns;
  rng_state rng = {seed};
  tx_problems problems = {0};
  int phase;
  for (phase = 0; phase < 2 && !problems.n; phase++) {
    int writes = phase == 1, kind = (style + phase) % 2, ok, rc, i, stale_seen = 0;
    sampled sv = {0};
    frame fr;
    gen g;
    change ch;
    char *first_bad = NULL, *err = NULL;
    unsigned char *written = NULL, *now = NULL;
    size_t written_len = 0, now_len = 0;
    long m;
    if (!pair_prepare(db, t, tg, &rng, &fr, &sv, &g, tally)) {
      tx_problem(&problems, t, tg, "cannot copy the rows");
      break;
    }
    exec_ok(db, tx_open[kind]);
    m = run_queries(db, &g, tg, &fr, 0, nqueries, seed, fmt(" (in %s, before the change)", tx_open[kind]), tally,
                    &first_bad);
    if (m) tx_problem(&problems, t, tg, fmt("%ld queries disagree before the change: %s", m, first_bad));
    if (!change_file(db2, t, tables, ntables, tg, &rng, &ch)) {
      tx_problem(&problems, t, tg, "a second connection could change no writable integer column of the file");
    } else {
      written = file_read_all(tg->source, &written_len);
      m = run_queries(db, &g, tg, &fr, 0, nqueries, seed,
                      fmt(" (in %s, after another connection set %s.%s of row %u from %lld to %lld)", tx_open[kind],
                          ch.table->name, ch.col->name, ch.row, (long long)ch.before, (long long)ch.after),
                      tally, &first_bad);
      if (m)
        tx_problem(&problems, t, tg,
                   fmt("%ld queries of the open transaction disagree with its first read after another connection"
                       " set %s.%s of row %u from %lld to %lld: %s",
                       m, ch.table->name, ch.col->name, ch.row, (long long)ch.before, (long long)ch.after,
                       first_bad));
      if (!writes) {
        rc = sqlite3_exec(db, tx_close[kind], NULL, NULL, &err);
        if (rc != SQLITE_OK) tx_problem(&problems, t, tg, fmt("a read-only %s fails: %s", tx_close[kind], err ? err : "?"));
      } else {
        /* db writes the same cell, a value other than the one it read:
        ** first those db2 did not write, then db2's (a column of two
        ** values has no other) */
        sqlite3_int64 candidates[8];
        int n = change_candidates(ch.before, candidates), wrote = 0;
        for (i = 0; i < 2 * n && !wrote && !stale_seen; i++) {
          sqlite3_int64 value = candidates[i % n];
          char *upd;
          if (value == ch.before || (value == ch.after) != (i >= n)) continue;
          upd = update_sql(&ch, tg, value);
          sqlite3_free(err);
          err = NULL;
          rc = sqlite3_exec(db, upd, NULL, NULL, &err);
          sqlite3_free(upd);
          if (rc == SQLITE_OK) wrote = 1;
          else if (err && strstr(err, STALE_MESSAGE)) stale_seen = 1;
        }
        if (!wrote && !stale_seen) {
          tx_problem(&problems, t, tg, fmt("the transaction's own UPDATE of %s.%s fails: %s", ch.table->name,
                                           ch.col->name, err ? err : "?"));
        } else if (wrote) {
          sqlite3_free(err);
          err = NULL;
          rc = sqlite3_exec(db, tx_close[kind], NULL, NULL, &err);
          if (rc == SQLITE_OK)
            tx_problem(&problems, t, tg,
                       fmt("%s of a write succeeds although another connection changed the file after the"
                           " transaction read it (a lost update)",
                           tx_close[kind]));
          else if (!err || !strstr(err, STALE_MESSAGE))
            tx_problem(&problems, t, tg, fmt("%s fails with another error than \"" STALE_MESSAGE "\": %s",
                                             tx_close[kind], err ? err : "?"));
          else if (!strstr(err, tg->source))
            tx_problem(&problems, t, tg, fmt("the stale-file error does not name the file: %s", err));
        }
      }
      if (!sqlite3_get_autocommit(db)) exec_ok(db, "ROLLBACK");
      now = file_read_all(tg->source, &now_len);
      if (!written || !now || now_len != written_len || memcmp(now, written, now_len) != 0)
        tx_problem(&problems, t, tg, "the file's bytes are no longer those the second connection wrote");
      /* a new read in db sees db2's change */
      {
        sqlite3_int64 seen = read_cell(db, ch.table, ch.col, tg, ch.row, &ok);
        if (!ok || seen != ch.after)
          tx_problem(&problems, t, tg,
                     fmt("after the transaction, %s.%s of row %u reads %s, not the other connection's %lld",
                         ch.table->name, ch.col->name, ch.row, ok ? fmt("%lld", (long long)seen) : "nothing",
                         (long long)ch.after));
      }
    }
    if (!sqlite3_get_autocommit(db)) exec_ok(db, "ROLLBACK");
    free(written);
    free(now);
    sqlite3_free(err);
    sqlite3_free(first_bad);
    sampled_free(&sv);
    exec_ok(db, "DROP TABLE temp.copy");
  }
  if (!check_count(problems.n == 0, 1))
    printf("FAIL transaction sequence of %s over %s (seed %llu): %s\n", t->name, tg->source,
           (unsigned long long)seed, problems.first);
  return problems.n;
}

/* Every (table, target) pair whose formats match: one case each. */
static void run_all(sqlite3 *db, const table_def *tables, int ntables, const target_list *targets, uint64_t seed,
                    const char *only_table, tally_counts *tally) {
  int ti, gi;
  for (ti = 0; ti < ntables; ti++) {
    const table_def *t = &tables[ti];
    long pairs = 0;
    if (only_table && strcmp(only_table, t->name) != 0) continue;
    for (gi = 0; gi < targets->n; gi++) {
      const target *tg = &targets->items[gi];
      char *first_bad = NULL;
      long m;
      if (t->family[0] && strcmp(t->family, tg->family) != 0) continue;
      m = run_pair(db, t, tg, seed ^ ((uint64_t)(ti + 1) << 40) ^ ((uint64_t)(gi + 1) << 16), tg->queries, tally,
                   &first_bad);
      pairs++;
      tally->pairs++;
      if (!check_count(m == 0, 1) && tally->failed_pairs++ < FAILED_PAIRS_SHOWN)
        printf("FAIL %s over %s: %ld of %d queries disagree with the copy (seed %llu), the first: %s\n", t->name,
               tg->source, m, tg->queries, (unsigned long long)seed, first_bad ? first_bad : "(the copy)");
      sqlite3_free(first_bad);
    }
    if (pairs == 0 && !only_table) CHECK(0, "%s: no source of its format was found", t->name);
  }
}

/* The transaction phase: every (table, single file) pair whose target
** asks for it, its sequence one case; BEGIN and SAVEPOINT alternate. */
static void run_tx_all(sqlite3 *db, sqlite3 *db2, const table_def *tables, int ntables, const target_list *targets,
                       uint64_t seed, const char *only_table, tally_counts *tally) {
  int ti, gi, style = 0;
  for (ti = 0; ti < ntables; ti++) {
    const table_def *t = &tables[ti];
    if (only_table && strcmp(only_table, t->name) != 0) continue;
    for (gi = 0; gi < targets->n; gi++) {
      const target *tg = &targets->items[gi];
      if (!tg->tx_queries || tg->is_folder || (t->family[0] && strcmp(t->family, tg->family) != 0)) continue;
      tally->tx_pairs++;
      if (run_tx_pair(db, db2, t, tables, ntables, tg, seed ^ 0x7478u ^ ((uint64_t)(ti + 1) << 40) ^ ((uint64_t)(gi + 1) << 16),
                      tg->tx_queries, style++ % 2, tally))
        tally->tx_failed++;
    }
  }
}

int main(void) {
  static const char *const formats[] = {"wwd", "tw", "wed", "wz4", "tis", "are", NULL};
  const char *samples = getenv("LEVELSQL_SAMPLES");
  const char *corpus = check_corpus_dir();
  const char *seed_text = getenv("LEVELSQL_DIFF_SEED");
  const char *only_table = getenv("LEVELSQL_DIFF_TABLE");
  int torture = getenv("LEVELSQL_TORTURE") && atoi(getenv("LEVELSQL_TORTURE")) > 0;
  int scale = torture ? 10 : 1;
  uint64_t seed = seed_text ? strtoull(seed_text, NULL, 10) : 20261128u;
  char tmpdir[] = "/tmp/levelsql-diff-XXXXXX";
  static table_def tables[MAX_TABLES];
  target_list targets = {0};
  tally_counts tally = {0};
  unsigned seen = 0;
  time_t started = time(NULL);
  int ntables, f;
  sqlite3 *db = db_open();
  REQUIRE(db != NULL, "the extension loads");
  if (!db || !mkdtemp(tmpdir)) return check_done();
  exec_ok(db, "PRAGMA temp_store = MEMORY");
  ntables = load_tables(db, tables, MAX_TABLES);
  REQUIRE(ntables >= 20, "the tables are listed: %d", ntables);
  printf("seed %llu (LEVELSQL_DIFF_SEED overrides it)%s\n", (unsigned long long)seed, torture ? ", torture" : "");

  /* the samples, each alone, then each format's folder of them */
  if (!samples) {
    CHECK(0, "LEVELSQL_SAMPLES names the generated samples (test/run.sh sets it)");
  } else {
    char into[600];
    /* tis_tiles' png is the one column that costs: every read encodes a
    ** PNG (7 s of this test's 10 with it); which rows a plan gives is
    ** what is compared, and test_tiles checks the pictures, so the
    ** tilesets are read without it except under torture */
    target like = {.queries = 25 * scale, .row_cap = 4000, .tx_queries = torture ? 20 : 3, .tis_no_png = !torture};
    snprintf(into, sizeof into, "%s/samples", tmpdir);
    mkdir(into, 0755);
    copy_readable(db, samples, into, 0, &like, &targets, formats, &seen);
    CHECK(seen == (1u << 6) - 1, "samples of every format in %s (mask %x)", samples, seen);
    for (f = 0; formats[f]; f++)
      if (seen & (1u << f))
        target_add(&targets, fmt("%s/%s", into, formats[f]), formats[f], 1, 60 * scale, 4000,
                   like.tis_no_png && strcmp(formats[f], "tis") == 0);
  }
  /* the corpus: each file alone (fewer queries, smaller frames); its
  ** folders under torture */
  if (!corpus) {
    SKIP("../shared/corpus is absent: the corpus files as sources");
  } else {
    char into[600];
    unsigned corpus_seen = 0;
    /* the BLOB columns (png, data, mask) are encoded again on every read:
    ** the corpus' many images would take most of the time, and the samples
    ** have them too */
    /* the corpus flattens names: its PVRZ tilesets lie apart from their
    ** pages, so tilesets are read without png */
    target like = {.queries = 4 * scale, .row_cap = torture ? 20000 : 2500, .skip_blobs = !torture,
                   .tx_queries = torture ? 4 : 0, .tis_no_png = 1};
    snprintf(into, sizeof into, "%s/corpus", tmpdir);
    mkdir(into, 0755);
    copy_readable(db, corpus, into, 1, &like, &targets, formats, &corpus_seen);
    CHECK(corpus_seen == (1u << 6) - 1, "corpus files of every format in %s (mask %x)", corpus, corpus_seen);
    for (f = 0; torture && formats[f]; f++)
      if (corpus_seen & (1u << f)) target_add(&targets, fmt("%s/%s", into, formats[f]), formats[f], 1, 200, 20000, 0);
  }

  tally.seed = seed;
  run_all(db, tables, ntables, &targets, seed, only_table, &tally);
  {
    time_t tx_started = time(NULL);
    sqlite3 *db2 = db_open();
    REQUIRE(db2 != NULL, "a second connection loads the extension");
    if (db2) {
      run_tx_all(db, db2, tables, ntables, &targets, seed, only_table, &tally);
      sqlite3_close(db2);
    }
    printf("INFO transaction phase: %ld (table, file) sequences, %ld failed, %lds\n", tally.tx_pairs, tally.tx_failed,
           (long)(time(NULL) - tx_started));
  }
  printf("INFO differential (seed %llu): %ld (table, source) pairs, %ld queries, %ld disagree, %ld pairs framed,"
         " %ld rows copied, %lds\n",
         (unsigned long long)seed, tally.pairs, tally.queries, tally.mismatches, tally.framed, tally.rows,
         (long)(time(NULL) - started));
  sqlite3_close(db);
  free(targets.items);
  if (check_failed == 0) {
    if (system(fmt("rm -rf '%s'", tmpdir)) != 0) printf("note: could not remove %s\n", tmpdir);
  } else {
    printf("files kept in %s\n", tmpdir);
  }
  return check_done();
}
