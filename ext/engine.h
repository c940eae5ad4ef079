/*
** engine.h: the generic virtual-table engine of levelsql.
**
** A table family is declared once, as data: an ls_format (how to recognise,
** parse, serialize, clone and free one file's model: a thin wrapper over a
** codec in codecs/) and, per table, an ls_table (a list of ls_column plus a
** row iterator over one model).  The engine does the rest for every table
** alike: the hidden `source` and `options` arguments, the visible `file`
** column, constraint push-down (file, rowid, and integer ranges on columns
** flagged LS_COL_RANGE), the per-connection cache of parsed files, staged
** writes with savepoints, and the atomic write-back at COMMIT.
**
** Row identity: a rowid is (file id << LS_KEY_BITS) | key, where the file id
** is handed out per connection and the key is the table's stable row key
** within that file (it must survive inserts and deletes of other rows in the
** same transaction, so that SQLite's two-pass UPDATE/DELETE finds the rows
** it collected).
*/
#ifndef LEVELSQL_ENGINE_H
#define LEVELSQL_ENGINE_H

/* Every file of the extension calls SQLite through the loader's routine
** table (sqlite3ext.h), so it works inside hosts that link SQLite
** statically; levelsql.c defines the table (SQLITE_EXTENSION_INIT1). */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#include <stddef.h>
#include <stdint.h>

#include "../codecs/codec_error.h"
#include "../codecs/text8.h"

#define LS_KEY_BITS 40
#define LS_KEY_MAX ((((int64_t)1) << LS_KEY_BITS) - 1)

/* ---- formats ---------------------------------------------------------- */

typedef struct ls_format {
  const char *name;               /* levelsql_files.format: "wwd", "tw", ... */
  const char *const *extensions;  /* lower-case, with dot, NULL-terminated: files taken from a directory */
  int (*sniff)(const unsigned char *data, size_t size);
  /* Returns the model, or NULL with err set.  The data buffer is only
  ** borrowed for the duration of the call. */
  void *(*parse)(const unsigned char *data, size_t size, codec_error *err);
  int (*serialize)(const void *model, unsigned char **out, size_t *size, codec_error *err);
  void *(*clone)(const void *model); /* NULL when out of memory */
  void (*free_model)(void *model);
  /* Approximate bytes of memory a model holds, for the cache budget. */
  size_t (*footprint)(const void *model);
  /* Optional, for formats whose tables decode parts of a parsed model only
  ** when a row needs them (Teeworlds layer data, strings in blobs): decodes
  ** all of it now, so a model it accepts can be read by every table of the
  ** format.  Returns 1, or 0 with err.  Run for levelsql_files (its `ok`)
  ** and for scans with on_error=skip; must be cheap when repeated on the
  ** same model (what it decoded stays decoded).  NULL: a parsed model is
  ** always readable. */
  int (*validate)(void *model, codec_error *err);
} ls_format;

/* ---- rows and columns ------------------------------------------------- */

/* Table options given as `key=value` arguments (named tables) or as the
** hidden `options` column ('encoding=cp1250'). */
typedef struct ls_options {
  text8_codepage encoding;
  int nocase;      /* nocase=1 (default): glob patterns match names in any case */
  int skip_errors; /* on_error=skip: scans pass over files they cannot read (default fail) */
} ls_options;

/* A table-defined position of a row inside one model (plane/index, ...). */
typedef struct ls_pos {
  int64_t a, b, c;
} ls_pos;

/* What a file looks like to levelsql_files and to getters that need it. */
typedef struct ls_file_info {
  const char *path;         /* as matched by the source */
  const char *format;       /* format name, or NULL when not recognised */
  int64_t size;             /* bytes on disk, -1 when it could not be read */
  const char *error;        /* NULL when the file parsed */
} ls_file_info;

/* The row a getter or setter works on. */
typedef struct ls_row {
  void *model;              /* setters get the transaction's working copy */
  ls_pos pos;
  const ls_options *opts;
  const ls_file_info *file;
} ls_row;

struct ls_column;

/* Sets the result of column `col` for the row (sqlite3_result_*). */
typedef void (*ls_getter)(const ls_row *row, sqlite3_context *ctx, const struct ls_column *col);
/* Stores value v into the row.  Returns SQLITE_OK, or an error code with
** *err set by sqlite3_mprintf naming the column and the limit. */
typedef int (*ls_setter)(ls_row *row, sqlite3_value *v, const struct ls_column *col, char **err);

enum ls_column_flags {
  LS_COL_RANGE = 1 /* integer =, <, <=, >, >= constraints are passed to the iterator */
};

typedef struct ls_column {
  const char *name;
  const char *type;         /* declared SQL type */
  ls_getter get;
  ls_setter set;            /* NULL: read-only */
  int arg;                  /* free for the getter/setter: a field index, an offset... */
  int arg2;                 /* a second one: a field size, a flag bit... */
  unsigned flags;           /* enum ls_column_flags */
  const char *doc;
} ls_column;

/* Integer bounds pushed down on a LS_COL_RANGE column (inclusive). */
typedef struct ls_range {
  int64_t lo, hi;
} ls_range;

/* What a scan is asked for: range[i] bounds column i of the table's column
** list (INT64_MIN..INT64_MAX when unconstrained); cols_used is SQLite's
** colUsed mask over those columns (bit 63 = column 63 or later), so a
** table can skip decoding what nobody reads. */
typedef struct ls_scan {
  const ls_range *range;
  uint64_t cols_used;
  /* A next() that cannot go on (out of memory while deriving rows) sets
  ** *error to a sqlite3_mprintf'd message and returns 0; the engine fails
  ** the query with it, prefixed by the file. */
  char **error;
} ls_scan;

/* Iterator helpers shared by the tables (ranges.c). */

/* The first index i with from <= i < count that lies in r; returns 1 and
** sets *out, or 0 when there is none. */
int ls_range_first(const ls_range *r, int64_t from, int64_t count, int64_t *out);

/* One step of a row-by-row scan of a width x height grid restricted to the
** x and y ranges: moves (*x, *y) to the first cell in range at or after it
** (any (*x, *y) before the grid, such as INT64_MIN, means from the start).
** Returns 1 on a cell, 0 when the grid has none left. */
int ls_grid_step(const ls_range *rx, const ls_range *ry, int64_t width, int64_t height, int64_t *x, int64_t *y);

/* Tables whose rows are an array of n elements, in order: the position's
** `a` and the key are the index, and the table's column 0 is that index
** (its pushed-down range is honoured). */
int ls_index_next(int64_t n, const ls_scan *scan, ls_pos *pos, int first);
int ls_index_seek(int64_t n, int64_t key, ls_pos *pos);
int64_t ls_key_pos_a(const void *model, const ls_pos *pos);

/* Getters of the position itself (an index, a y, an x). */
void ls_get_pos_a(const struct ls_row *row, sqlite3_context *ctx, const struct ls_column *col);
void ls_get_pos_b(const struct ls_row *row, sqlite3_context *ctx, const struct ls_column *col);
void ls_get_pos_c(const struct ls_row *row, sqlite3_context *ctx, const struct ls_column *col);

typedef struct ls_table {
  const char *name;
  const ls_format *format;  /* NULL: every registered format (levelsql_files) */
  const char *doc;
  const ls_column *columns; /* visible columns after `file` */
  int ncolumns;
  /* Positions *pos on the first row (first != 0) or the next row after
  ** *pos, skipping rows outside scan->range where that is cheap (the engine
  ** does not rely on it: SQLite re-checks).  Returns 1 on a row, 0 at end. */
  int (*next)(const void *model, const ls_scan *scan, ls_pos *pos, int first);
  /* The stable key of the row at pos, 0 .. LS_KEY_MAX. */
  int64_t (*key)(const void *model, const ls_pos *pos);
  /* Finds the row with that key; returns 1 and sets *pos, or 0. */
  int (*seek)(const void *model, int64_t key, ls_pos *pos);
  /* INSERT: adds a blank row placed by the values (indexed like columns;
  ** e.g. `plane`), sets *pos to it.  The engine then applies the setters of
  ** the non-NULL writable values.  NULL: the table takes no INSERT. */
  int (*insert)(void *model, sqlite3_value *const *values, ls_pos *pos, char **err);
  /* DELETE of the row at pos.  NULL: the table takes no DELETE. */
  int (*remove)(void *model, const ls_pos *pos, char **err);
  /* Optional: checks a row after UPDATE/INSERT set its columns (values that
  ** only make sense together, such as a mask and its width*height). */
  int (*check)(const ls_row *row, char **err);
  /* levelsql_files: one row per matched file, unreadable files included. */
  int one_row_per_file;
  /* Optional: names the row in error messages ("object 17 of plane 1"),
  ** sqlite3_malloc'd. */
  char *(*describe)(const void *model, const ls_pos *pos);
  /* Optional: the columns (comma-separated names) whose ascending order the
  ** rows of one file come in, e.g. "plane,y,x".  Files are visited in
  ** ascending `file` order, so an ORDER BY or GROUP BY on a prefix of
  ** file,<natural_order> needs no sort.  NULL: no order promised. */
  const char *natural_order;
} ls_table;

/* ---- registration ----------------------------------------------------- */

/* Registers every table of a family on the connection, sharing the
** connection's file cache (created by levelsql_engine_open).  The table and
** format declarations must outlive the connection (static const data). */
typedef struct ls_session ls_session;
ls_session *ls_session_new(sqlite3 *db);
int ls_register_table(sqlite3 *db, ls_session *sess, const ls_table *table);
/* The engine's own SQL function (levelsql_column_value, for comparing an
** UPDATE's values with the row's), once per connection. */
int ls_register_engine_functions(sqlite3 *db);
/* Makes a format known to levelsql_files' format detection. */
int ls_register_format(ls_session *sess, const ls_format *format);
/* Drops the caller's reference (each registered module holds one more). */
void ls_session_release(ls_session *sess);

/* ---- helpers for getters and setters --------------------------------- */

/* Reads an integer for column col within [min, max].  Accepts integers,
** integral reals and text holding an integer; anything else or out of range
** fails with a message naming the column and the limit. */
int ls_value_int(sqlite3_value *v, const ls_column *col, int64_t min, int64_t max, int64_t *out, char **err);

/* Reads a text value for col and encodes it into the options' code page,
** at most max_len bytes (malloc'd into *out).  Fails naming the column and
** the limit for NULL, blobs, unrepresentable characters or too long text. */
int ls_value_text8(sqlite3_value *v, const ls_column *col, const ls_options *opts, size_t max_len,
                   unsigned char **out, size_t *out_len, char **err);

/* Sets a text result decoded from 8-bit bytes with the options' code page. */
void ls_result_text8(sqlite3_context *ctx, const ls_options *opts, const unsigned char *s, size_t n);

/* Names of set bits: "mirror|invert" from a table of {bit, name}; unknown
** bits come out as hex ("0x100").  ls_flags_parse is the reverse (names or
** numbers separated by '|', ',' or spaces); returns 0 on an unknown name. */
typedef struct ls_flag_name {
  uint32_t bit;
  const char *name;
} ls_flag_name;
char *ls_flags_format(const ls_flag_name *names, uint32_t value);
int ls_flags_parse(const ls_flag_name *names, const char *text, uint32_t *out, char **bad);

#endif
