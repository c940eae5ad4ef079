/*
** engine.h: the generic virtual-table engine of levelsql.
**
** A table family is declared once, as data (an ls_family that levelsql.c
** registers): an ls_format (how to recognise, parse, serialize, clone and
** free one file's model: a thin wrapper over a codec in codecs/, generated
** by LS_CODEC_ADAPTERS for a codec with the usual API, plus the table
** options the format takes) and, per table, an ls_table:
**  - its columns: typed descriptors (ls_column: a kind, the field's offset
**    in the row's record, limits, a NULL sentinel, the row kinds it applies
**    to, a doc string); hand-written get/set only for computed columns;
**  - its shape (one row per file, an array, an array nested in an array,
**    grids; optionally only the elements a filter keeps, and keys from a
**    per-element base), from which the engine steps, keys and seeks rows
**    (shapes.c), or its own next/key/seek where rows are found otherwise;
**  - its record: load() copies one row out of the model into a struct the
**    columns describe; store() checks a changed row as a whole and writes
**    it back (row-level writes: the engine applies the changed columns to
**    the record, in column order, then calls store());
**  - optional insert/remove, a row name template for errors, the natural
**    order of its rows and its typical rows per file (for the planner).
** The engine does the rest for every table alike (vtab.c, columns.c,
** options.c, session.c, source.c, commit.c): the hidden `source` and
** `options` arguments, the visible `file` column, constraint push-down
** (file, rowid, and integer ranges on columns flagged LS_COL_RANGE),
** get/set/range checks and error messages for every column kind, the JSON
** layer (json.c), the per-connection cache of parsed files, staged writes
** with savepoints and statement-level undo, and the atomic write-back at
** COMMIT (locked against other levelsql writers, journaled across files).
**
** Row identity: a rowid is (file part << LS_KEY_BITS) | key.  The key is
** the table's stable row key within its file (it must survive inserts and
** deletes of other rows in the same transaction, so that SQLite's two-pass
** UPDATE/DELETE finds the rows it collected).  The file part is
** ls_file_part() of the file's canonical path (realpath): FNV-1a 64 of its
** bytes, folded to LS_FILE_BITS, so the same row of the same file has the
** same rowid in every connection and process, and a rowid kept by a host
** names that row until the file's structure changes or it moves (the key of a row can
** change when rows before it are inserted or deleted and the file is read
** again).  Not the inode: every commit renames a new file into place.
** The split: 29 key bits (536,870,912 keys per table per file; the
** largest key among the real levels of the test corpus is 9.7 million, a
** DDNet map's tiles) and 34 file bits,
** 63 in all, so rowids are never negative; 34 bits make two files of a
** statement share a part with probability about n^2 / 2^35 (n = 1,000
** files: 3 in 100,000).  When they do, the statement is refused with an
** error naming both files (vtab.c), never answered with mixed rows; a key
** above LS_KEY_MAX fails the statement the same way instead of wrapping
** (the Teeworlds tables leave a layer whose keys would not fit out of
** their scans: tw_tables.c).
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

#include "common/codec_error.h"
#include "common/codec_limits.h"
#include "common/json.h"
#include "common/text8.h"

/* Memory in ext/, one rule: what SQLite allocates, frees or accounts for
** is sqlite3_malloc'd and sqlite3_free'd: error messages (*err, zErrMsg),
** results handed over with sqlite3_free, the vtab, cursor, module and
** session structures, and the engine's short-lived bookkeeping of a
** statement or a write (argument structs, row records, scratch lists).
** What belongs to a model, or passes to or from codecs/ (pure C, malloc
** and free), is malloc'd and free'd: a model's parts and side tables
** (the wrappers the format callbacks return), bytes a codec
** returns or takes (ls_value_text8, ls_text8_encode), ls_scratch and
** ls_alloc_large; so is what the C library returns (realpath).  Each
** block goes back through its own family's free. */

#define LS_KEY_BITS 29
#define LS_KEY_MAX ((((int64_t)1) << LS_KEY_BITS) - 1)
#define LS_FILE_BITS 34
#define LS_FILE_PART_MAX ((((int64_t)1) << LS_FILE_BITS) - 1)

/* The rowid file part of a canonical path (see Row identity above;
** session.c). */
int64_t ls_file_part(const char *canon);

/* ---- formats ---------------------------------------------------------- */

/* A buffer lent to a parse so that parsing many files in a row on one
** thread reuses one allocation, and its pages, instead of a fresh one per
** file (parse_ahead.c): owned by the lender (free(data) when done); the
** borrower grows it with realloc and keeps no pointer into it. */
typedef struct ls_scratch {
  unsigned char *data;
  size_t cap;
} ls_scratch;

/* Makes scratch hold at least n bytes and returns its data, or NULL when
** out of memory (scratch unchanged).  Growing does not keep the contents.
** Large buffers are aligned and advised for huge pages (parse_ahead.c);
** data is always released with free(). */
unsigned char *ls_scratch_reserve(ls_scratch *scratch, size_t n);

/* Memory for a model's large parts (a WWD level's block): at least n
** bytes, in huge pages where the system has them, so it is faulted in at
** once instead of page by page.  Large requests are rounded
** up to whole huge pages: the caller realloc()s it to the size it keeps,
** which gives the rest back, and releases it with free().  NULL when out
** of memory. */
void *ls_alloc_large(size_t n);

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
  ** always readable.  `cancel` (NULL: none) stops a long validation (CODEC_E_INTERRUPT). */
  int (*validate)(void *model, const codec_cancel *cancel, codec_error *err);
  /* The table options the format takes beside the engine's own (nocase,
  ** on_error), NULL-terminated; NULL: none. */
  const struct ls_option *const *options;
  /* Optional, for formats that decode parts of a model lazily: frees what
  ** was decoded and can be decoded again from what the model keeps (so
  ** the cache can keep a file without its decoded data before it drops
  ** the whole file), and returns the model's footprint after.  Called only
  ** on a clean model that nothing but the cache holds. NULL: none. */
  size_t (*shed)(void *model);
  /* Optional: parse() with what it decodes on the way (an inflated block)
  ** in *scratch, for threads that parse file after file (a format may
  ** keep nothing there), and `cancel` (NULL: none) polled while it
  ** inflates, copies or hashes, so an interrupted statement stops a long
  ** parse on the connection's thread (CODEC_E_INTERRUPT; parse-ahead
  ** workers pass NULL).  NULL: parse() is used, which the format keeps
  ** short. */
  void *(*parse_reusing)(const unsigned char *data, size_t size, ls_scratch *scratch, const codec_cancel *cancel,
                         codec_error *err);
  /* Optional, for formats that decode lazily from compressed blobs: adds
  ** to *claim what the model would decode in all, from the sizes it
  ** claims (nothing decoded), for levelsql_limit('decoded').  NULL: the
  ** parse decoded everything already, and the model's footprint counts. */
  void (*decoded_claim)(const void *model, codec_claim *claim);
  /* Optional, for formats whose parse inflates: adds to *claim what
  ** parsing these bytes would decode, from their header alone, so a file
  ** over levelsql_limit('decoded') is refused before its parse allocates
  ** (ls_parse_file; any thread: pure C). */
  void (*bytes_claim)(const unsigned char *data, size_t size, codec_claim *claim);
  /* The Infinity Engine resource type of the format's files inside a
  ** game's archives (codecs/key/key.h: 0x3e9 WED, 0x3f2 ARE, 0x3eb TIS): a
  ** source naming a chitin.key, or a game folder holding one, lists the
  ** game's resources of this type (game.c; README, "The game as a
  ** source").  0: the type of the format's first extension that names one
  ** (".wed" is WED, ".are" ARE), if any; a format with neither reads no
  ** game (a source naming a key is an error for its tables). */
  uint16_t game_type;
} ls_format;

/* The ls_format callbacks of a codec whose model is its own struct T and
** whose API has the usual shape: parse(data, size, &T *, err) returning 1
** or 0, serialize(const T *, &out, &size, err), clone(const T *) returning
** NULL on OOM, free(T *), footprint(const T *).  Defines the static
** functions prefix_format_parse, _serialize, _clone, _free, _footprint. */
#define LS_CODEC_ADAPTERS(prefix, T, parse_fn, serialize_fn, clone_fn, free_fn, footprint_fn)                  \
  static void *prefix##_format_parse(const unsigned char *data, size_t size, codec_error *err) {                \
    T *model = NULL;                                                                                            \
    return parse_fn(data, size, &model, err) ? model : NULL;                                                    \
  }                                                                                                             \
  static int prefix##_format_serialize(const void *model, unsigned char **out, size_t *size, codec_error *err) { \
    return serialize_fn((const T *)model, out, size, err);                                                      \
  }                                                                                                             \
  static void *prefix##_format_clone(const void *model) { return clone_fn((const T *)model); }                  \
  static void prefix##_format_free(void *model) { free_fn((T *)model); }                                        \
  static size_t prefix##_format_footprint(const void *model) { return footprint_fn((const T *)model); }

/* For a codec whose parse takes a codec_cancel (parse_cancel_fn: data,
** size, cancel, &model, err): prefix##_format_parse_reusing, the ls_format
** parse_reusing that polls the cancel and keeps nothing in the scratch. */
#define LS_CODEC_CANCEL_ADAPTER(prefix, T, parse_cancel_fn)                                                    \
  static void *prefix##_format_parse_reusing(const unsigned char *data, size_t size, ls_scratch *scratch,      \
                                             const codec_cancel *cancel, codec_error *err) {                   \
    T *model = NULL;                                                                                            \
    (void)scratch;                                                                                              \
    return parse_cancel_fn(data, size, cancel, &model, err) ? model : NULL;                                     \
  }

/* The ls_format fields LS_CODEC_ADAPTERS(prefix, ...) defined. */
#define LS_CODEC_FORMAT_FIELDS(prefix)                                                                       \
  .parse = prefix##_format_parse, .serialize = prefix##_format_serialize, .clone = prefix##_format_clone, \
  .free_model = prefix##_format_free, .footprint = prefix##_format_footprint

/* ---- rows and columns ------------------------------------------------- */

/* Table options given as `key=value` arguments (named tables) or as the
** hidden `options` column ('encoding=cp1250'). */
#define LS_FORMAT_OPTIONS 4

typedef struct ls_options {
  text8_codepage encoding; /* the code page of 8-bit text columns (ls_option_encoding) */
  int nocase;      /* nocase=1 (default): glob patterns match names in any case */
  int skip_errors; /* on_error=skip: scans pass over files they cannot read (default fail) */
  int rewrite;     /* rewrite=1: an UPDATE re-saves every file it touches, even with the values the rows hold
                   ** (default 0: such an UPDATE changes nothing and leaves the file alone) */
  int64_t format[LS_FORMAT_OPTIONS]; /* free for the options a format declares */
} ls_options;

/* A table option a format declares (ls_format.options): `name=value` in
** the options argument.  parse() stores the value into *opts, or returns
** 0 with *err saying what it takes (sqlite3_mprintf'd).  default_value is
** parsed before the given options; NULL: none. */
typedef struct ls_option {
  const char *name;
  const char *example;      /* "encoding=cp1250", for levelsql_columns */
  const char *default_value;
  int (*parse)(const char *value, ls_options *opts, char **err);
} ls_option;

/* encoding=cp1252 (default), cp1250, cp1251, latin1: for formats with
** 8-bit text columns (LS_TEXT8). */
extern const ls_option ls_option_encoding;

/* Parses "key=value" options separated by commas, semicolons or spaces
** into *opts (unset ones get their defaults): the engine's nocase and
** on_error, and the options of the format (NULL: the engine's alone).
** Returns SQLITE_OK or SQLITE_ERROR with *err naming the bad option. */
int ls_options_parse(const ls_format *fmt, const char *text, ls_options *opts, char **err);
/* "encoding=cp1250, nocase=0, on_error=skip": the options a table of the
** format takes, sqlite3_mprintf'd. */
char *ls_options_examples(const ls_format *fmt);

/* Where a row sits inside one model, in the terms of its table's shape
** (ls_shape), three slots:
**  - element: the part of the file the row is (an ARRAY's row: a door of
**    wed_doors, an image of tw_images) or belongs to (NESTED and GRID: the
**    plane of a wwd_objects or wwd_tiles row, the layer of a tw_quads row,
**    the overlay of a wed_tiles cell, the polygon of a wed_vertices row);
**  - index (NESTED): the row's place inside its element (the object in its
**    plane, the vertex in its polygon); y (GRID): the cell's row.  One slot
**    under two names;
**  - x (GRID): the cell's column.
** Tables with iterators of their own use the slots in the same sense.
** LS_COL_POS columns and ls_table_run name a slot by number (LS_POS_*),
** ls_pos_slot turns the number into the slot. */
typedef struct ls_pos {
  int64_t element;
  union {
    int64_t index;
    int64_t y;
  };
  int64_t x;
} ls_pos;

enum { LS_POS_ELEMENT = 0, LS_POS_INDEX = 1, LS_POS_Y = 1, LS_POS_X = 2 };

static inline int64_t *ls_pos_slot(ls_pos *pos, int which) {
  return which == LS_POS_ELEMENT ? &pos->element : which == LS_POS_INDEX ? &pos->index : &pos->x;
}
static inline int64_t ls_pos_get(const ls_pos *pos, int which) {
  return which == LS_POS_ELEMENT ? pos->element : which == LS_POS_INDEX ? pos->index : pos->x;
}

/* What a file looks like to levelsql_files and to getters that need it. */
typedef struct ls_file_info {
  const char *path;         /* as matched by the source */
  const char *format;       /* format name, or NULL when not recognised */
  int64_t size;             /* bytes on disk, -1 when it could not be read */
  const char *error;        /* NULL when the file parsed */
} ls_file_info;

/* Bytes or elements a record borrows from the model (after load) or from
** the row's arena (after a setter): text and blobs count bytes; JSON
** integer arrays count int64_t elements (uint16_t for LS_SPAN16); JSON
** text arrays count ls_span elements (each a string of bytes; bytes for
** LS_NUL_STRINGS); JSON record arrays count elements (structs). */
typedef struct ls_span {
  const void *p;
  size_t n;
} ls_span;

/* Memory that lives as long as one row is being read or written: what a
** load() decodes for a record, what a setter stages.  Freed by the engine
** (when the cursor moves, and after a write's store()). */
typedef struct ls_arena ls_arena;
/* NULL when out of memory. */
void *ls_arena_alloc(ls_arena *arena, size_t bytes);

/* The row a column, load() or store() works on. */
typedef struct ls_row {
  void *model;              /* writes get the transaction's working copy */
  ls_pos pos;
  const ls_options *opts;
  const ls_file_info *file;
  void *rec;                /* the row's record (table record_size bytes), or NULL when the table has none */
  ls_arena *arena;
  /* The statement's interrupt (NULL: none), for a load() that decodes
  ** much on a row's first read (a Teeworlds layer's cells): it polls this
  ** and fails with SQLITE_INTERRUPT when it says stop, decoding nothing. */
  const codec_cancel *cancel;
} ls_row;

struct ls_column;

/* Sets the result of column `col` for the row (sqlite3_result_*). */
typedef void (*ls_getter)(const ls_row *row, sqlite3_context *ctx, const struct ls_column *col);
/* Stores value v into the row: into row->rec (tables with records: the
** table's store() writes it to the model) or into the model.  Returns
** SQLITE_OK, or an error code with *err set by sqlite3_mprintf naming the
** column and the limit. */
typedef int (*ls_setter)(ls_row *row, sqlite3_value *v, const struct ls_column *col, char **err);

enum ls_column_flags {
  LS_COL_RANGE = 1,   /* integer =, <, <=, >, >= constraints are passed to the iterator */
  LS_COL_RO = 2,      /* typed columns: read-only */
  LS_COL_NULL = 4,    /* typed columns: the field's .null_value reads as NULL, and NULL writes it
                      ** (writing the null value as a number is checked against .min/.max) */
  LS_COL_FULL = 8,    /* LS_CHARS text may fill the whole array (no terminating NUL needed) */
  LS_COL_NOREC = 16,  /* LS_CUSTOM: the getter reads only the model and the position, so reading
                      ** the column loads no record (it stays cheap where load() decodes data,
                      ** and readable where that data is damaged) */
  LS_COL_UTF8 = 32,   /* LS_JSON_TEXTS: the strings are UTF-8 as they are, not text in the code page */
  LS_COL_WTF8 = 64,   /* LS_JSON_TEXTS: the strings are WTF-8 (LS_WTF8: lone surrogates, NULs allowed),
                      ** lone surrogates shown as \udXXX escapes */
  LS_COL_NULL_EMPTY = 128, /* text columns over a codec's own strings: a NULL pointer reads ''
                          ** (LS_COL_CODEC_STR below) */
  LS_COL_NEGNULL = 256 /* with LS_COL_NULL (integers): every negative value reads NULL, not only
                      ** .null_value (a format whose "none" is any negative index); NULL writes
                      ** .null_value where the field reads a number, and leaves it as it is where
                      ** it reads NULL already */
};

/* Flag of a LS_COL_RANGE column, for the planner: the column takes about
** n values in one file (measured on real files), so an equality keeps
** 1/n of a file's rows; without it, LS_PLAN_VALUES_PER_FILE.  E.g.
** LS_COL_RANGE | LS_COL_VALUES(490) for the x of a grid 490 cells wide.
** (Bits 0..11 of the flags are ls_column_flags, so n < 2^20.) */
#define LS_COL_VALUES(n) ((unsigned)(n) << 12)
#define LS_COL_VALUES_OF(flags) ((flags) >> 12)
#define LS_PLAN_VALUES_PER_FILE 10

/* What a column is.  LS_CUSTOM columns are computed by their get/set
** callbacks; every other kind is a field of the row's record, read,
** checked and written by the engine (columns.c). */
typedef enum ls_kind {
  LS_CUSTOM = 0,
  LS_POS,       /* the row's position: .offset is the slot, LS_POS_ELEMENT, LS_POS_INDEX (LS_POS_Y) or LS_POS_X; read-only */
  LS_INT,       /* an integer field within [.min, .max] */
  LS_BIT,       /* 0 or 1: the bits .max of an unsigned integer field */
  LS_ENUM,      /* an integer field shown by name: .aux is a NULL-terminated list indexed from .min */
  LS_FLOAT,     /* a float field */
  LS_TEXT8,     /* 8-bit text in the format's code page: LS_CHARS (.size bytes) or LS_SPAN (.max bytes) */
  LS_UTF8,      /* UTF-8 text without NUL characters, .min to .max bytes (LS_CHARS or LS_SPAN) */
  LS_BLOB,      /* bytes (LS_SPAN), at most .max */
  LS_JSON_INTS, /* JSON array of integers or of integer tuples (.aux: ls_json_shape): LS_SPAN of int64_t,
                ** LS_SPAN16, or LS_I32: a fixed int32_t array of .size bytes in the record (the shape's
                ** min_items = max_items elements) */
  /* JSON array of strings, .max bytes each: 8-bit text in the code page,
  ** or UTF-8 with LS_COL_UTF8 (without NUL characters either way);
  ** LS_SPAN of ls_span, or LS_NUL_STRINGS; .aux: ls_json_shape */
  LS_JSON_TEXTS,
  /* JSON array of objects of a fixed member layout, one per element of an
  ** LS_SPAN of C structs (.aux: ls_json_records) */
  LS_JSON_RECORDS,
  /* Text that is UTF-16 in the file, held in the record as WTF-8
  ** (codecs/common/utf16.h: UTF-8, except that an unpaired surrogate is its own
  ** 3-byte sequence ED A0..BF xx), .min to .max bytes, NUL characters
  ** allowed (LS_SPAN; LS_CHARS refuses them).  load() converts the
  ** codec's UTF-16 (utf16le_to_wtf8, into the arena) unless the codec
  ** keeps WTF-8 already; store() converts back (wtf8_to_utf16le).  Reads
  ** give the WTF-8 bytes as they are: SQLite keeps a lone surrogate's
  ** bytes and hands them back unchanged, so writing a value back is
  ** lossless.  Writes take text of WTF-8 bytes (numbers, blobs and
  ** NULL are refused, unless LS_COL_NULL on a span) and check them. */
  LS_WTF8
} ls_kind;

/* How a field is stored in the record. */
typedef enum ls_store {
  LS_I32 = 0, LS_U32, LS_I8, LS_U8, LS_I16, LS_U16, LS_I64,
  LS_LE16, LS_LE32, LS_LE32S, /* little-endian bytes (raw headers); LE32S signed */
  LS_F32, LS_F64,
  LS_CHARS,                   /* char[.size], NUL-padded */
  LS_SPAN,                    /* ls_span */
  LS_SPAN32,                  /* ls_span of uint32_t (LS_JSON_INTS; a negative .min stores two's complement) */
  LS_SPAN16,                  /* ls_span of uint16_t (LS_JSON_INTS within 0..65535): a load() can show a
                              ** run of 16-bit numbers in the model without copying it */
  LS_NUL_STRINGS              /* ls_span of bytes: strings back to back, each ended by a NUL ("sv_a 1\0sv_b 2\0";
                              ** a last one without its NUL reads as a string too), for LS_JSON_TEXTS */
} ls_store;

/* The shape of a JSON array column: `tuple` integers per element (1: a
** flat array, 2: [x,y] pairs...), min_items..max_items elements, and an
** example of a valid value for error messages.  Optional `takes`: what the
** column takes, in words ("a JSON array of [x,y] pairs of integers from 0
** to 65535, e.g. '[[10,20]]'"); when set, every message about a bad value
** ends with "; it takes <takes>" instead of the engine's limit or example. */
typedef struct ls_json_shape {
  int tuple;
  size_t min_items, max_items;
  const char *example;
  const char *takes;
} ls_json_shape;

/* A member of the objects of a LS_JSON_RECORDS column: an integer, or a
** JSON array of 1 to max_ints integers held back to back, each an integer
** field of the element (`store`, the first at `offset`) from min to max. */
typedef struct ls_json_member {
  const char *key;
  ls_store store;
  size_t offset;
  int64_t min, max;
  int max_ints;         /* 0: one integer; n: an array of 1 to n */
  /* Arrays: offsetof an int in the element: how many integers the member
  ** shows (the table sets it; 0 leaves the member out) or was given (a
  ** write sets it; 0 when absent). */
  size_t count_offset;
  int optional;         /* may be absent from an object: its integers are then 0 */
} ls_json_member;

/* The layout of a LS_JSON_RECORDS column: a JSON array of up to max_items
** objects, each an element of `size` bytes (the record's span holds them
** back to back) with the members in the order they are shown and checked;
** no other key is taken.  Messages name element i "<noun> i" ("point 3
** values[1]"); `example` is a valid value.  A write parses every object
** into new elements (absent optional members are 0); what depends on the
** model or on other elements is for the table's store() to check.
** Optional `decode`: fills the span when the column is first read, for
** elements load() leaves out ({NULL, 0}) so that rows whose column nobody
** reads stay cheap; it returns SQLITE_OK, or an error with *err (the
** read fails with "<file>: <err>"). */
typedef struct ls_json_records {
  size_t size;
  const char *noun;
  size_t max_items;
  const char *example;
  const ls_json_member *members;
  size_t nmembers;
  int (*decode)(const ls_row *row, ls_span *elements, char **err);
} ls_json_records;

typedef struct ls_column {
  const char *name;
  const char *type;         /* declared SQL type */
  ls_getter get;            /* LS_CUSTOM */
  ls_setter set;            /* LS_CUSTOM; NULL: read-only */
  unsigned flags;           /* enum ls_column_flags, LS_COL_VALUES */
  const char *doc;
  /* typed columns */
  ls_kind kind;
  ls_store store;
  size_t offset;            /* offsetof the field in the record */
  size_t size;              /* LS_CHARS: bytes of the array */
  int64_t min, max;         /* value limits; text and blobs: bytes; LS_BIT: the bit mask */
  int64_t null_value;       /* LS_COL_NULL: the stored value that means "none" */
  uint32_t applies;         /* bit k: rows of kind k (table row_kind) have it; 0: every row */
  const void *aux;          /* LS_ENUM names, JSON shape or records, LS_INT ls_index_ref */
} ls_column;

/* What an LS_INT column's .aux may point to when its value refers to an
** element of another list of the file (an image, an envelope): a value
** written must be an existing index, 0 .. count(model) - 1, or the null
** value (LS_COL_NULL); the value the row holds always passes.  Messages say
** "it takes an <noun> index from 0 to 2 (the <container> has 3)".
** Optional refuse: an existing index written may still be of the wrong
** sort for the column (a color envelope where a position one goes):
** returns SQLITE_OK, or an error with *why (sqlite3_mprintf'd; the write
** fails with "column <name>: <why>"); `sort` is for refuse to read (what
** the column takes). */
typedef struct ls_index_ref {
  int64_t (*count)(const void *model);
  const char *noun;
  const char *container;
  int (*refuse)(const void *model, int64_t index, const struct ls_index_ref *ref, char **why);
  int64_t sort;
} ls_index_ref;

/* Declarations of typed columns, one line each.  S is the record's type,
** field the member (an array element is fine: header[WWD_HDR_NAME]).  An
** LS_INT column with min == max == 0 takes its store's whole range. */
#define LS_TYPED(nm, sqltype, k, st, S, field, lo, hi, fl, doc_) \
  {.name = nm, .type = sqltype, .kind = k, .store = st, .offset = offsetof(S, field), \
   .min = lo, .max = hi, .flags = fl, .doc = doc_}
#define LS_COL_INT(nm, st, S, field, fl, doc_) LS_TYPED(nm, "INTEGER", LS_INT, st, S, field, 0, 0, fl, doc_)
#define LS_COL_INT_IN(nm, st, S, field, lo, hi, fl, doc_) LS_TYPED(nm, "INTEGER", LS_INT, st, S, field, lo, hi, fl, doc_)
#define LS_COL_BIT(nm, st, S, field, bit, doc_) LS_TYPED(nm, "INTEGER", LS_BIT, st, S, field, 0, bit, 0, doc_)
#define LS_COL_CHARS(nm, S, field, doc_) \
  {.name = nm, .type = "TEXT", .kind = LS_TEXT8, .store = LS_CHARS, .offset = offsetof(S, field), \
   .size = sizeof(((S *)0)->field), .doc = doc_}
#define LS_COL_WTF8(nm, S, field, maxbytes, fl, doc_) \
  {.name = nm, .type = "TEXT", .kind = LS_WTF8, .store = LS_SPAN, .offset = offsetof(S, field), .max = maxbytes, \
   .flags = fl, .doc = doc_}
/* An integer column of the row kinds `kinds` (ls_column.applies; 0: all). */
#define LS_COL_KIND_INT(nm, st, S, field, lo, hi, fl, kinds, doc_) \
  {.name = nm, .type = "INTEGER", .kind = LS_INT, .store = st, .offset = offsetof(S, field), .min = lo, .max = hi, \
   .flags = fl, .applies = kinds, .doc = doc_}
/* An integer column whose field holds -1 for NULL (LS_COL_NULL). */
#define LS_COL_INT_NULL(nm, st, S, field, lo, hi, fl, doc_) \
  {.name = nm, .type = "INTEGER", .kind = LS_INT, .store = st, .offset = offsetof(S, field), .min = lo, .max = hi, \
   .flags = LS_COL_NULL | (fl), .null_value = -1, .doc = doc_}
/* An index into another list of the file (ref: ls_index_ref), -1 for NULL. */
#define LS_COL_INDEX(nm, st, S, field, ref, fl, kinds, doc_) \
  {.name = nm, .type = "INTEGER", .kind = LS_INT, .store = st, .offset = offsetof(S, field), \
   .flags = LS_COL_NULL | (fl), .null_value = -1, .applies = kinds, .aux = ref, .doc = doc_}
/* Text of kind k (LS_TEXT8, LS_UTF8, LS_WTF8) in an ls_span field, up to
** maxbytes bytes, on rows of `kinds` (0: all). */
#define LS_COL_TEXT(nm, k, S, field, maxbytes, fl, kinds, doc_) \
  {.name = nm, .type = "TEXT", .kind = k, .store = LS_SPAN, .offset = offsetof(S, field), .max = maxbytes, \
   .flags = fl, .applies = kinds, .doc = doc_}
/* Text of kind k in a NUL-padded char array of `bytes` bytes at field
** (LS_SIZEOF for a whole member). */
#define LS_COL_TEXT_CHARS(nm, k, S, field, bytes, fl, kinds, doc_) \
  {.name = nm, .type = "TEXT", .kind = k, .store = LS_CHARS, .offset = offsetof(S, field), .size = bytes, \
   .flags = fl, .applies = kinds, .doc = doc_}
#define LS_SIZEOF(S, field) sizeof(((S *)0)->field)
/* A JSON array of integers (.aux: the ls_json_shape), each from lo to hi
** (0, 0: the store's range): an LS_SPAN, LS_SPAN16 or LS_SPAN32 field, or
** LS_I32, a fixed int32_t array (its size taken from the field). */
#define LS_COL_JSON_INTS(nm, st, S, field, lo, hi, fl, shape, doc_) \
  {.name = nm, .type = "TEXT", .kind = LS_JSON_INTS, .store = st, .offset = offsetof(S, field), \
   .size = (st) == LS_I32 ? LS_SIZEOF(S, field) : 0, .min = lo, .max = hi, .flags = fl, .aux = shape, .doc = doc_}
/* A column computed by its getter (and setter; NULL: read-only). */
#define LS_COL_COMPUTED(nm, sqltype, getter, setter, fl, doc_) \
  {.name = nm, .type = sqltype, .kind = LS_CUSTOM, .get = getter, .set = setter, .flags = fl, .doc = doc_}
#define LS_COL_POS(nm, which, fl, doc_) {.name = nm, .type = "INTEGER", .kind = LS_POS, .offset = which, .flags = fl, .doc = doc_}
#define LS_COL_CUSTOM(nm, sqltype, getter, setter, doc_) \
  {.name = nm, .type = sqltype, .kind = LS_CUSTOM, .get = getter, .set = setter, .doc = doc_}
/* A read-only column of what the model says of the row's element, reading
** no record (LS_COL_NOREC: a row of a layer showing its layer's group):
** of(model, pos.element), NULL when negative; with `names` (NULL-terminated,
** naming 0, 1, ...) the value's name, a value past them reading as the
** number.  LS_ELEMENT_FIELD defines such an ls_element_of `var` over the
** integer field `field` of the model's array `arr` (T the model's type). */
typedef struct ls_element_of {
  int64_t (*of)(const void *model, int64_t element);
  const char *const *names;
} ls_element_of;
void ls_element_of_get(const ls_row *row, sqlite3_context *ctx, const ls_column *col);
#define LS_COL_ELEMENT_OF(nm, sqltype, element_of, fl, doc_) \
  {.name = nm, .type = sqltype, .kind = LS_CUSTOM, .get = ls_element_of_get, .flags = LS_COL_NOREC | (fl), \
   .aux = element_of, .doc = doc_}
#define LS_ELEMENT_FIELD(var, T, arr, field, names_)                               \
  static int64_t var##_of(const void *model, int64_t e) {                          \
    return (int64_t)((const T *)model)->arr[e].field;                              \
  }                                                                                \
  static const ls_element_of var = {var##_of, names_}

/* ---- INSERT arguments ------------------------------------------------- */

/* The value an INSERT gave for one column a table's insert names, with
** that column (for messages): NULL values are SQL NULLs as given.  The
** engine checks it as its declaration says before run() and leaves the
** result here: i for the integer kinds (and what a custom check sets),
** text for the text kinds (valid while the INSERT runs). */
typedef struct ls_arg {
  sqlite3_value *value;
  const ls_column *column;
  int64_t i;
  ls_span text;
} ls_arg;

/* How the engine checks an argument before run(), in declaration order,
** so run() reads the result and checks nothing:
**  - LS_CHECK_RAW: not at all (run() reads the value);
**  - LS_CHECK_INT: an integer in [lo, hi] (ls_value_int: integral reals
**    and integer text count; its messages), NULL failing as a non-integer;
**  - LS_CHECK_INT_OR: the same, NULL giving the default;
**  - LS_CHECK_POSITION: NULL gives the default, else an integer (SQLite's
**    numeric affinity: '3' is 3, 3.0 is not) from 0 to hi, else "column
**    <name>: an INSERT takes an integer from 0 to <hi> here, or NULL (last)";
**  - LS_CHECK_APPENDED: the index of a row the INSERT appends: NULL or
**    the count (i), else "column <name>: new rows are appended (<name>
**    <count>); give NULL or <count>";
**  - LS_CHECK_WTF8: NULL gives "", else WTF-8 text (ls_value_wtf8) of
**    its column's .min to .max bytes;
**  - LS_CHECK_TEXT: the text as it is (NULL: {NULL, 0});
**  - LS_CHECK_CUSTOM: custom(model, args, arg, err), a check the kinds do
**    not cover (one message for several arguments, say; args holds every
**    value, the earlier ones checked): SQLITE_OK after setting arg->i
**    (the default, 0 unless declared, when it does not), or an error with
**    *err. */
typedef enum ls_arg_check {
  LS_CHECK_RAW = 0,
  LS_CHECK_INT,
  LS_CHECK_INT_OR,
  LS_CHECK_POSITION,
  LS_CHECK_APPENDED,
  LS_CHECK_WTF8,
  LS_CHECK_TEXT,
  LS_CHECK_CUSTOM
} ls_arg_check;

/* One column an insert reads, by name: the engine finds the column when
** it registers the table (a name the table lacks fails the registration)
** and puts its ls_arg at `offset` of the insert's argument struct.  The
** bounds of the integer kinds are lo, hi and the default dflt, unless
** they come from the model: with count (count(model)) or inner (the
** inner count of the element an earlier argument chose: inner(model,
** i of the ls_arg at offset `of`), named n here), hi is n + hi and dflt
** n + dflt (so 0, 0: up to n, NULL giving n: after the last); dflt_of
** gives the default from the model instead.  needs: when set, the
** argument cannot be NULL (an LS_CHECK_TEXT one empty either): "column
** <name>: an INSERT into <table> needs <needs>", checked first. */
typedef struct ls_insert_arg {
  const char *column;
  size_t offset;
  ls_arg_check check;
  int64_t lo, hi, dflt;
  int64_t (*count)(const void *model);
  int64_t (*inner)(const void *model, int64_t element);
  size_t of;
  int64_t (*dflt_of)(const void *model);
  const char *needs;
  int (*custom)(const void *model, const void *args, ls_arg *arg, char **err);
} ls_insert_arg;

#define LS_INSERT_ARGS_MAX 8

/* A table's INSERT: run() gets the argument struct (args_size bytes) with
** an ls_arg per declared column, filled by the engine from the row the
** INSERT gives and checked as declared; it adds a blank row placed by them
** and sets *pos to it.  args: the columns it reads, up to
** LS_INSERT_ARGS_MAX, ended by an entry without a column (LS_ARG declares
** one from a field named like its column).  Returns SQLITE_OK, or an
** error with *err. */
typedef struct ls_insert {
  int (*run)(void *model, const void *args, ls_pos *pos, char **err);
  size_t args_size;
  ls_insert_arg args[LS_INSERT_ARGS_MAX + 1];
} ls_insert;

/* An argument of the argument struct S read from the column named like
** `field` (LS_ARG_NAMED: from column `name`), checked as the fragments
** that follow say (none: LS_CHECK_RAW), e.g.
**     LS_ARG(plane_args, plane, LS_IS_AT(plane_count)) */
#define LS_ARG(S, field, ...) {.column = #field, .offset = offsetof(S, field), __VA_ARGS__}
#define LS_ARG_NAMED(name, S, field, ...) {.column = name, .offset = offsetof(S, field), __VA_ARGS__}

/* The check fragments, one per way an INSERT places or fills a row:
**  - LS_IS_INT: an integer in [lo, hi]; LS_IS_INT_OR: the same, NULL
**    giving dflt_fn(model) (a default the model decides);
**  - LS_IS_AT: where a new row goes, 0 to count(model), NULL: after the
**    last; LS_IS_AT_IN: the same in the element the earlier argument `of`
**    of S chose (its count inner_fn(model, that element));
**  - LS_IS_INDEX_OR: an existing element, 0 to count - 1, NULL giving
**    dflt_fn(model);
**  - the same as LS_CHECK_POSITION (its integers and message):
**    LS_IS_POSITION (0 to max, NULL giving dflt), LS_IS_POSITION_AT,
**    LS_IS_POSITION_AT_IN (as LS_IS_AT, LS_IS_AT_IN) and LS_IS_POSITION_OF
**    (an existing element, for an argument that LS_NEEDS);
**  - LS_IS_APPENDED: the index of an appended row, NULL or count(model);
**  - LS_IS_WTF8, LS_IS_TEXT: text (LS_CHECK_WTF8, LS_CHECK_TEXT);
**  - LS_NEEDS: not NULL (with any of those); LS_CHECKED_BY: a custom check. */
#define LS_IS_INT(lo_, hi_) .check = LS_CHECK_INT, .lo = (lo_), .hi = (hi_)
#define LS_IS_INT_OR(lo_, hi_, dflt_fn) .check = LS_CHECK_INT_OR, .lo = (lo_), .hi = (hi_), .dflt_of = (dflt_fn)
#define LS_IS_AT(count_fn) .check = LS_CHECK_INT_OR, .count = (count_fn)
#define LS_IS_AT_IN(inner_fn, S, of_) .check = LS_CHECK_INT_OR, .inner = (inner_fn), .of = offsetof(S, of_)
#define LS_IS_INDEX_OR(count_fn, dflt_fn) .check = LS_CHECK_INT_OR, .count = (count_fn), .hi = -1, .dflt_of = (dflt_fn)
#define LS_IS_POSITION(max, dflt_) .check = LS_CHECK_POSITION, .hi = (max), .dflt = (dflt_)
#define LS_IS_POSITION_AT(count_fn) .check = LS_CHECK_POSITION, .count = (count_fn)
#define LS_IS_POSITION_AT_IN(inner_fn, S, of_) .check = LS_CHECK_POSITION, .inner = (inner_fn), .of = offsetof(S, of_)
#define LS_IS_POSITION_OF(count_fn) .check = LS_CHECK_POSITION, .count = (count_fn), .hi = -1
#define LS_IS_APPENDED(count_fn) .check = LS_CHECK_APPENDED, .count = (count_fn)
#define LS_IS_WTF8 .check = LS_CHECK_WTF8
#define LS_IS_TEXT .check = LS_CHECK_TEXT
#define LS_NEEDS(what) .needs = (what)
#define LS_CHECKED_BY(fn) .check = LS_CHECK_CUSTOM, .custom = (fn)

/* Whether the INSERT gave the column a value other than NULL. */
static inline int ls_arg_given(const ls_arg *a) { return sqlite3_value_type(a->value) != SQLITE_NULL; }
/* The value's SQL type (SQLITE_INTEGER, SQLITE_NULL, ...). */
static inline int ls_arg_type(const ls_arg *a) { return sqlite3_value_type(a->value); }
/* The value as text, NULL for NULL (valid while the INSERT runs). */
static inline const char *ls_arg_text(const ls_arg *a) { return (const char *)sqlite3_value_text(a->value); }
/* The value as an integer, unchecked (sqlite3_value_int64). */
static inline int64_t ls_arg_int64(const ls_arg *a) { return sqlite3_value_int64(a->value); }

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
  /* The ranges of the LS_COL_POS columns of the element, index/y and x slots (an
  ** unbounded range for a position the table shows no column of), bound
  ** once per scan by ls_scan_bind_positions, so an iterator needs no
  ** lookup per row. */
  const ls_range *pos[3];
  /* Set by ls_scan_bind_positions when the table has LS_COL_ELEMENT_OF
  ** columns flagged LS_COL_RANGE: the declared shapes then leave out the
  ** elements whose value lies outside their ranges (NULL outside any
  ** bound), as they do for the element's LS_COL_POS range. */
  int element_ranges;
} ls_scan;

/* Iterator helpers shared by the tables (shapes.c). */

/* The first index i with from <= i < count that lies in r; returns 1 and
** sets *out, or 0 when there is none. */
int ls_range_first(const ls_range *r, int64_t from, int64_t count, int64_t *out);

/* One step of a row-by-row scan of a width x height grid restricted to the
** x and y ranges: moves (*x, *y) to the first cell in range at or after it
** (any (*x, *y) before the grid, such as INT64_MIN, means from the start).
** Returns 1 on a cell, 0 when the grid has none left. */
int ls_grid_step(const ls_range *rx, const ls_range *ry, int64_t width, int64_t height, int64_t *x, int64_t *y);

/* How a table's rows sit in a model, for the iterators the engine
** provides (a table may give its own next/key/seek instead):
**  - LS_SHAPE_ONE: one row per file (pos 0, key 0);
**  - LS_SHAPE_ARRAY: count(model) rows; pos.element and the key are the
**    row's number;
**  - LS_SHAPE_NESTED: count(model) outer elements, each with
**    inner(model, element) rows at (element, index); the key counts the rows
**    before;
**  - LS_SHAPE_GRID: count(model) grids, grid e being inner(model, e) cells
**    wide and height(model, e) high, at (element e, y, x), row by row; the
**    key counts the cells before.
** The pushed-down ranges of the LS_COL_POS columns bound the slots.
** Optional for ARRAY, NESTED and GRID: has(model, element, scan) says
** whether the element has rows in the scan (scan NULL: at all), so a table can leave
** out elements of another family or outside ranges on its own columns
** (tw_tiles: tilemap layers only; the ranges on grp and layer, LS_COL_ELEMENT_OF
** columns, the engine applies itself: ls_scan.element_ranges); base(model, element)
** is the key of the element's first row where the table keeps it, for O(1) keys
** (without it, keys count the rows of the elements before). */
typedef enum ls_shape_kind { LS_SHAPE_CUSTOM = 0, LS_SHAPE_ONE, LS_SHAPE_ARRAY, LS_SHAPE_NESTED, LS_SHAPE_GRID } ls_shape_kind;

typedef struct ls_shape {
  ls_shape_kind kind;
  int64_t (*count)(const void *model);
  int64_t (*inner)(const void *model, int64_t element);
  int64_t (*height)(const void *model, int64_t element);
  int (*has)(const void *model, int64_t element, const struct ls_scan *scan);
  int64_t (*base)(const void *model, int64_t element);
} ls_shape;

/* Shapes without has() or base(), for `.shape = ...`. */
#define LS_ONE_ROW {.kind = LS_SHAPE_ONE}
#define LS_ARRAY(count_fn) {.kind = LS_SHAPE_ARRAY, .count = count_fn}
#define LS_NESTED(count_fn, inner_fn) {.kind = LS_SHAPE_NESTED, .count = count_fn, .inner = inner_fn}
#define LS_GRID(count_fn, wide_fn, high_fn) {.kind = LS_SHAPE_GRID, .count = count_fn, .inner = wide_fn, .height = high_fn}

typedef struct ls_table {
  const char *name;
  const ls_format *format;  /* NULL: every registered format (levelsql_files) */
  const char *doc;
  const ls_column *columns; /* visible columns after `file` */
  int ncolumns;
  /* Positions *pos on the first row (first != 0) or the next row after
  ** *pos, skipping rows outside scan->range where that is cheap (the engine
  ** does not rely on it: SQLite re-checks).  Returns 1 on a row, 0 at end.
  ** NULL: from the shape. */
  int (*next)(const void *model, const ls_scan *scan, ls_pos *pos, int first);
  /* The stable key of the row at pos, 0 .. LS_KEY_MAX.  NULL: from the shape. */
  int64_t (*key)(const void *model, const ls_pos *pos);
  /* Finds the row with that key; returns 1 and sets *pos, or 0.  NULL: from the shape. */
  int (*seek)(const void *model, int64_t key, ls_pos *pos);
  /* INSERT: adds a blank row placed by the values of the columns it
  ** names (ls_insert), sets *pos to it.  The engine then applies the
  ** setters of the non-NULL writable values.  NULL: the table takes no
  ** INSERT. */
  const struct ls_insert *insert;
  /* DELETE of the row at pos.  NULL: the table takes no DELETE. */
  int (*remove)(void *model, const ls_pos *pos, char **err);
  /* levelsql_files: one row per matched file, unreadable files included. */
  int one_row_per_file;
  /* Optional: names the row in error messages ("object 17 of plane 1"),
  ** sqlite3_malloc'd.  NULL: from row_name. */
  char *(*describe)(const void *model, const ls_pos *pos);
  /* Optional: the columns (comma-separated names) whose ascending order the
  ** rows of one file come in, e.g. "plane,y,x".  Files are visited in
  ** ascending `file` order, so an ORDER BY or GROUP BY on a prefix of
  ** file,<natural_order> needs no sort.  NULL: no order promised. */
  const char *natural_order;
  /* Optional: about how many rows one file has (measured on real files),
  ** so the planner puts the table with fewer rows per file outside a join
  ** on `file`.  0: LS_PLAN_ROWS_PER_FILE. */
  double rows_per_file;
  /* ---- declared as data ---- */
  ls_shape shape;
  /* The row's name in error messages: a template where {element},
  ** {index}, {y} and {x} are the position's slots ("object {index} of
  ** plane {element}"), and {element_name} what element_name says of the
  ** element ("quad {index} of {element_name}": "quad 2 of group 0 layer
  ** 1"; sqlite3_malloc'd, NULL when out of memory). */
  const char *row_name;
  char *(*element_name)(const void *model, int64_t element);
  /* Records: the typed columns are fields of a record of record_size
  ** bytes (zeroed first) that load() fills for the row at row->pos (row->rec; borrowed
  ** spans stay valid until the model changes; decoded data goes to the
  ** row's arena).  A write loads the record, applies the new values of the
  ** changed columns to it (changed[i] for column i), then store() checks
  ** the row as a whole and writes it to the model; `old` is the record as
  ** loaded.  store() copies what it keeps: spans point to memory the
  ** engine frees afterwards.  Both return SQLITE_OK or an error with *err. */
  size_t record_size;
  int (*load)(const ls_row *row, char **err);
  int (*store)(ls_row *row, const void *old, const unsigned char *changed, char **err);
  /* Optional: the kind of the row in row->rec (a column with `applies`
  ** reads NULL on rows of other kinds, and refuses writes there), and the
  ** kinds' names for messages, indexed by kind, NULL-terminated. */
  int (*row_kind)(const ls_row *row);
  const char *const *kind_names;
  /* Optional, with row_kind: answers a write of v to a typed column that
  ** does not apply to the row's kind: SQLITE_OK takes it as no change
  ** (e.g. for NULL, which is what the column reads there), else an error
  ** with *err.  NULL: every such write fails, naming the kinds the column
  ** applies to. */
  int (*other_kind)(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err);
} ls_table;

/* A table's column list, for its ls_table: `LS_COLUMNS(plane_columns),`. */
#define LS_COLUMNS(list) .columns = list, .ncolumns = (int)(sizeof list / sizeof list[0])

/* The engine's iterators and row names for a table (shape or the table's
** own), shapes.c. */
int ls_table_next(const ls_table *t, const void *model, const ls_scan *scan, ls_pos *pos, int first);
/* The run of rows after the one at pos that ls_table_next would give one
** by one, each the last with its innermost position (element of an ARRAY,
** index of a NESTED shape, x of a GRID) one higher, up to *last:
** returns which slot that is (LS_POS_*), or -1 when no such run
** follows (tables with their own next, ARRAYs with has()).  Lets a scan
** step along a grid row without asking the shape again per cell; valid
** while the model is unchanged. */
int ls_table_run(const ls_table *t, const void *model, const ls_scan *scan, const ls_pos *pos, int64_t *last);
int64_t ls_table_key(const ls_table *t, const void *model, const ls_pos *pos);
int ls_table_seek(const ls_table *t, const void *model, int64_t key, ls_pos *pos);
char *ls_table_describe(const ls_table *t, const void *model, const ls_pos *pos);
/* Points scan->pos at the ranges of the table's LS_COL_POS columns in
** scan->range (the engine calls it when a scan starts). */
void ls_scan_bind_positions(const ls_table *t, ls_scan *scan);

/* Typed columns (columns.c). */
/* Whether a column takes writes. */
int ls_column_writable(const ls_column *col);
/* Sets the column's value for the row (its record loaded) as the result. */
void ls_column_get(const ls_table *t, const ls_row *row, sqlite3_context *ctx, const ls_column *col);
/* Checks v for the column and writes it into the row's record (or through
** a custom setter).  Returns SQLITE_OK, or an error with *err. */
int ls_column_set(const ls_table *t, ls_row *row, sqlite3_value *v, const ls_column *col, char **err);

#define LS_PLAN_ROWS_PER_FILE 1000.0

/* ---- interrupts ------------------------------------------------------- */

/* Long work on the connection's thread (expanding a source, parsing or
** rendering a large file) stops when the statement is interrupted
** (sqlite3_interrupt): it calls ls_interrupt_check now and then, which
** looks at most every 10 ms (interrupt.c), and fails with SQLITE_INTERRUPT
** ("interrupted") when it returns 1.  Init with the connection (NULL: never
** interrupted); done finalizes what a check prepared.  Not for threads
** other than the connection's. */
typedef struct ls_interrupt {
  sqlite3 *db;
  sqlite3_stmt *probe; /* "SELECT 1", prepared by the first look */
  int64_t next_ns;     /* CLOCK_MONOTONIC time of the next look */
  int hit;             /* seen interrupted: stays so */
} ls_interrupt;
void ls_interrupt_init(ls_interrupt *ic, sqlite3 *db);
int ls_interrupt_check(ls_interrupt *ic);
void ls_interrupt_done(ls_interrupt *ic);
/* A codec_cancel that polls ls_interrupt_check(ic), for codec loops. */
codec_cancel ls_interrupt_cancel(ls_interrupt *ic);

/* ---- bounded decoding (limits.c) ---------------------------------------- */

/* What one file may decode in all by default (levelsql_limit('decoded')):
** 1 GiB, far above the largest real level (ddnet_Tutorial.map claims 95 MB). */
#define LS_DEFAULT_MAX_DECODED ((uint64_t)1 << 30)

/* Checks a freshly parsed model against the connection's cap on decoded
** bytes: its format's decoded_claim (else its footprint) must not pass
** `limit`.  Returns 1, or 0 with *err naming the part that passes it and
** the figures (CODEC_E_LIMIT). */
int ls_check_decoded(const ls_format *fmt, const void *model, uint64_t limit, codec_error *err);
/* The same before parsing, on the file's bytes (ls_format.bytes_claim; 1
** when the format has none).  Pure C: safe on parse-ahead threads. */
int ls_check_bytes_claim(const ls_format *fmt, const unsigned char *data, size_t size, uint64_t limit,
                         codec_error *err);

/* ---- registration ----------------------------------------------------- */

/* Registers every table of a family on the connection, sharing the
** connection's file cache (created by levelsql_engine_open).  The table and
** format declarations must outlive the connection (static const data). */
typedef struct ls_session ls_session;
/* Registers levelsql_limit(name [, value]) on the connection (limits.c). */
int ls_limit_register(sqlite3 *db, ls_session *sess);
ls_session *ls_session_new(sqlite3 *db);
/* Registers one table; a table whose insert names a column it does not
** have fails with SQLITE_ERROR and *err (sqlite3_mprintf'd; err may be
** NULL) naming the table and the column. */
int ls_register_table(sqlite3 *db, ls_session *sess, const ls_table *table, char **err);
/* A table family as data: its format and its tables (NULL-terminated);
** registering it makes the format known to levelsql_files and creates
** every table's module. */
typedef struct ls_family {
  const ls_format *format;
  const ls_table *const *tables;
  /* The family's SQL functions (its render functions included), registered
  ** by levelsql.c after its tables; NULL: none. */
  int (*register_functions)(sqlite3 *db, ls_session *sess);
} ls_family;
int ls_register_family(sqlite3 *db, ls_session *sess, const ls_family *family, char **err);
/* The engine's own SQL function (levelsql_column_value, for comparing an
** UPDATE's values with the row's), once per connection. */
int ls_register_engine_functions(sqlite3 *db);
/* Makes a format known to levelsql_files' format detection. */
int ls_register_format(ls_session *sess, const ls_format *format);
/* Drops the caller's reference (each registered module holds one more). */
void ls_session_release(ls_session *sess);

/* ---- the file walk (walk.c) ------------------------------------------- */

/* Every read of level files goes through a walk: a table's scan (vtab.c)
** walks the files of its source, a render function or levelsql_copy the
** one file it names.  A walker (ls_walk_new) lives for one statement and
** remembers what it found out there (the source's listing, the files it
** loaded), so a join's inner scan, opened again for every outer row,
** neither lists nor looks its files up on disk again.  Each walk
** (ls_walk_open .. ls_walk_close) visits its files in order; ls_walk_next
** hands over the next one loaded through the session's cache, already
** validated or passed over as on_error says, with the files after it
** parsed ahead on the session's threads once one had to be parsed.  Long
** work inside (listing, parsing, validating) stops when the statement is
** interrupted (SQLITE_INTERRUPT). */
struct ls_file;  /* session.h: a file's cache entry */
typedef struct ls_walk ls_walk;

/* Files by their rowid file part (engine.h, "Row identity"): an
** open-addressing table (empty slot: file NULL), at most half full.  Per
** part: the file put last and, when a different file with the same part
** was put before it, that one (other: a collision). */
typedef struct ls_part_slot {
  int64_t part;
  struct ls_file *file;
  struct ls_file *other;
} ls_part_slot;
typedef struct ls_part_map {
  ls_part_slot *slots;
  size_t cap, n; /* cap: 0 or a power of two */
} ls_part_map;
/* The slot of part in m, or NULL. */
ls_part_slot *ls_part_map_get(const ls_part_map *m, int64_t part);
/* Puts file f under its part.  *previous: a different file that had the
** part already (a collision: it stays as the slot's `other`), else NULL.
** Returns SQLITE_OK or SQLITE_NOMEM. */
int ls_part_map_put(ls_part_map *m, struct ls_file *f, struct ls_file **previous);
void ls_part_map_clear(ls_part_map *m);
/* "rowid collision: <a> and <b> ...": two different files whose rowids
** would share their file part (sqlite3_mprintf'd). */
char *ls_collision_message(const char *a, const char *b, int64_t part);

/* What a walk does with a file that cannot be read. */
typedef enum ls_walk_on_error {
  LS_WALK_FAIL = 0, /* the walk fails with the file's error */
  LS_WALK_SKIP,     /* on_error=skip: validated, and passed over when unreadable */
  LS_WALK_SHOW      /* levelsql_files: validated, and handed over with its error */
} ls_walk_on_error;

/* Which files a walk visits and how.  Strings are read by ls_walk_open
** only; `parts` must outlive the walk. */
typedef struct ls_walk_spec {
  const ls_format *format;  /* the files' format; NULL: detected per file */
  const char *source;       /* a file, folder, pattern or JSON array (source.c); NULL: `only` alone */
  const char *options;      /* the options text the source is listed under (NULL: none) */
  int nocase;               /* the source's patterns ignore case */
  const char *only;         /* NULL, or only the source's file spelled so (or this file, without a source) */
  int by_part;              /* only the file whose rowid file part is `part` (a rowid = ? scan) */
  int64_t part;
  ls_walk_on_error on_error;
  /* NULL, or where each file loaded is noted by its rowid file part
  ** (tables of many rows per file): two files with one part in a statement
  ** fail the walk with the collision error, and the map keeps the
  ** collision for a later rowid lookup to refuse. */
  ls_part_map *parts;
} ls_walk_spec;

/* A file a walk entered: valid until the walk moves on or closes. */
typedef struct ls_walk_file {
  const char *path;         /* as the source spelled it */
  int path_is_blob;         /* path is not UTF-8: `file` shows it as a BLOB of its bytes */
  struct ls_file *entry;    /* its cache entry (NULL when the path resolved to none) */
  void *model;              /* the model readers see (the transaction's copy, else the cached one); NULL: unreadable */
  const ls_format *fmt;     /* model's format */
  ls_file_info info;        /* path, format name, size; error: on_error show, why it is unreadable */
} ls_walk_file;

/* A walker for the session's files, NULL when out of memory.  scan: it
** serves a table's scans, so freeing it gives back the parse buffers the
** connection's thread kept between files (a render or a copy keeps them). */
ls_walk *ls_walk_new(ls_session *s, int scan);
/* Starts a walk of spec's files (closing the one in progress): lists the
** source, once per statement.  SQLITE_OK, or an error with *err set. */
int ls_walk_open(ls_walk *w, const ls_walk_spec *spec, char **err);
/* The next file (*out): SQLITE_ROW; SQLITE_DONE after the last; or an
** error with *err = "<path>: <why>" (NULL for an interrupt or out of
** memory).  The walk holds the file's model until it moves on. */
int ls_walk_next(ls_walk *w, const ls_walk_file **out, char **err);
/* Ends the walk: leaves the file entered, gives up the files parsed ahead. */
void ls_walk_close(ls_walk *w);
/* Closes and frees the walker (NULL is ignored). */
void ls_walk_free(ls_walk *w);

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

/* Reads a text value for col: UTF-8 without NUL characters, min_len to
** max_len bytes.  *s points into the value (valid until it changes).
** NULL and blobs are refused; callers that take NULL check for it first. */
int ls_value_utf8(sqlite3_value *v, const ls_column *col, size_t min_len, size_t max_len, const char **s, size_t *n,
                  char **err);

/* Reads a text value for col: WTF-8 (utf16.h), NUL characters allowed,
** min_len to max_len bytes.  *s points into the value (valid until it
** changes).  NULL, numbers and blobs are refused (as by every text column;
** CAST(x'..' AS TEXT) gives text of any bytes); callers that take NULL
** check for it first. */
int ls_value_wtf8(sqlite3_value *v, const ls_column *col, size_t min_len, size_t max_len, const char **s, size_t *n,
                  char **err);
/* The checks of ls_value_utf8 on bytes s[0..n) (a string from JSON, say):
** UTF-8 without NUL characters, min_len to max_len bytes. */
int ls_text_utf8(const char *s, size_t n, const ls_column *col, size_t min_len, size_t max_len, char **err);
/* The checks of ls_value_wtf8 on bytes s[0..n): WTF-8 (NULs allowed),
** min_len to max_len bytes. */
int ls_text_wtf8(const char *s, size_t n, const ls_column *col, size_t min_len, size_t max_len, char **err);

/* Encodes UTF-8 s[0..n) into the options' code page (malloc'd into *out).
** Fails naming the column and `what` ("the text", "element 3") when s is
** not UTF-8, or the character the code page cannot hold. */
int ls_text8_encode(const char *s, size_t n, const ls_column *col, const ls_options *opts, const char *what,
                    unsigned char **out, size_t *out_len, char **err);

/* Sets a text result decoded from 8-bit bytes with the options' code page. */
void ls_result_text8(sqlite3_context *ctx, const ls_options *opts, const unsigned char *s, size_t n);

/* A codec's failure as a load()'s, store()'s or setter's error: *err is
** "<prefix>: <codec message>" (prefix printf-style; NULL: the message
** alone) and the result is rc, or SQLITE_NOMEM without a message when the
** codec ran out of memory (CODEC_E_MEMORY). */
int ls_codec_failed(const codec_error *e, int rc, char **err, const char *prefix, ...);
/* A codec's failure inside a getter fails the statement: "<file>: <codec
** message>" (out of memory as such). */
void ls_result_codec_error(sqlite3_context *ctx, const ls_row *row, const codec_error *e);

/* Names of set bits: "mirror|invert" from a table of {bit, name}; unknown
** bits come out as hex ("0x100").  ls_flags_parse is the reverse (names or
** numbers separated by '|', ',' or spaces); returns 0 on an unknown name. */
typedef struct ls_flag_name {
  uint32_t bit;
  const char *name;
} ls_flag_name;
char *ls_flags_format(const ls_flag_name *names, uint32_t value);
int ls_flags_parse(const ls_flag_name *names, const char *text, uint32_t *out, char **bad);

/* ---- helpers for table families over a codec (table_helpers.c, columns.c) */

/* Most tables show an array of a codec's model, one row per element, and
** change it through codec functions (add, delete, write back) that say
** why they refuse in a codec_error.  The callbacks that only pass a row
** on to such a function are the same in every family; these write them.
** The macros define a static function `fn`: Model is the codec's model
** struct, `array` and `field` its members.  Rules about what a file may
** hold, and the messages that state them, stay in the codec; a table maps
** its columns to the codec's calls. */

/* A codec call's outcome as a callback's result: SQLITE_OK when ok is
** non-zero, else the codec's error `e` as SQLITE_CONSTRAINT with *err
** "<prefix>: <codec message>" (prefix NULL: the message alone), or
** SQLITE_NOMEM when the codec ran out of memory (ls_codec_failed).  The
** call can be the first argument, since arguments are evaluated before
** the function runs:
**     codec_error cerr = {0};
**     return ls_codec_check(wed_vertex_set(a, p, k, pt, &cerr), &cerr, err, "cannot move the vertex"); */
static inline int ls_codec_check(int ok, const codec_error *e, char **err, const char *prefix) {
  if (ok) return SQLITE_OK;
  return prefix ? ls_codec_failed(e, SQLITE_CONSTRAINT, err, "%s", prefix) : ls_codec_failed(e, SQLITE_CONSTRAINT, err, NULL);
}

/* Fails with *err = the printf-formatted message (sqlite3_mprintf'd) and
** returns rc, or SQLITE_NOMEM when the message cannot be made:
** `return ls_fail(err, SQLITE_ERROR, "...", ...);`.  ls_refuse is the
** usual case, a refused value or edit (SQLITE_CONSTRAINT):
** `if (...) return ls_refuse(err, "column door: ...", ...);`. */
int ls_fail(char **err, int rc, const char *fmt, ...);
#define ls_refuse(err, ...) ls_fail((err), SQLITE_CONSTRAINT, __VA_ARGS__)

/* An optional integer argument for a codec call that takes one as a
** pointer (NULL: not given): NULL when the INSERT gave the column NULL,
** else `slot` holding the value, or `not_int` when it is no integer (a
** value the codec refuses, as it refuses a wrong number). */
static inline const int64_t *ls_arg_opt_int(const ls_arg *a, int64_t not_int, int64_t *slot) {
  if (!ls_arg_given(a)) return NULL;
  *slot = ls_arg_type(a) == SQLITE_INTEGER ? ls_arg_int64(a) : not_int;
  return slot;
}

/* Which of the n columns first, first+1, ... store()'s `changed` marks,
** as bits 1 << k: for a codec call that takes a set of fields. */
static inline unsigned ls_changed_bits(const unsigned char *changed, int first, int n) {
  unsigned bits = 0;
  int k;
  for (k = 0; k < n; k++) bits |= changed[first + k] ? 1u << k : 0;
  return bits;
}

/* A JSON integer array column's span showing the run first, first+1, ...,
** first+n-1 (int64_t elements in the row's arena: a door's polygons, say).
** SQLITE_OK or SQLITE_NOMEM. */
int ls_span_run(ls_arena *arena, ls_span *out, int64_t first, size_t n);

/* For a load(): span `s` shows in place a run of the model, elements of
** type E, that a codec accessor gives: `call` returns the run's length
** and sets `run` (a const E *, declared by the macro) to its first
** element, e.g. LS_SPAN_CALL(r->cells, uint16_t, wed_door_cells(a, i, &run)). */
#define LS_SPAN_CALL(s, E, call) \
  do {                           \
    const E *run = NULL;         \
    (s).n = (call);              \
    (s).p = run;                 \
  } while (0)

/* The key of a NESTED row the codec gives: key_fn(const Model *, uint32_t
** element, uint32_t index), a uid that stays while rows come and go. */
#define LS_KEY_CALL_NESTED(fn, Model, key_fn)                                                    \
  static int64_t fn(const void *model, const ls_pos *pos) {                                      \
    return (int64_t)key_fn((const Model *)model, (uint32_t)pos->element, (uint32_t)pos->index); \
  }

/* The seek for such a key, the row found as (element, index) by
** find(const Model *, key, uint32_t *element, uint32_t *index), its key
** type 32 bits or wider. */
#define LS_SEEK_FIND_NESTED(fn, Model, find_fn)                                                         \
  static int fn(const void *model, int64_t key, ls_pos *pos) {                                          \
    uint32_t element, index;                                                                            \
    if (key < 0 || key > UINT32_MAX || !find_fn((const Model *)model, (uint32_t)key, &element, &index)) \
      return 0;                                                                                         \
    *pos = (ls_pos){.element = element, .index = index};                                                \
    return 1;                                                                                           \
  }

/* A store() that writes the record back through one codec call: `call`
** is an expression returning 1 or 0 that may use `row`, `rec` (the
** record, const Rec *), `old` and `changed` (store()'s) and `cerr` (a
** codec_error for the call); a refusal is "<prefix>: <codec message>"
** (ls_codec_check). */
#define LS_STORE_CALL(fn, Rec, prefix, call)                                              \
  static int fn(ls_row *row, const void *old, const unsigned char *changed, char **err) { \
    const Rec *rec = row->rec;                                                            \
    codec_error cerr = {0};                                                               \
    (void)old, (void)changed, (void)rec;                                                  \
    return ls_codec_check((call), &cerr, err, prefix);                                    \
  }

/* An INSERT run() that adds the row through one codec call: `call` is an
** expression returning 1 or 0 that may use `model`, `args` (the argument
** struct, const Args *, its arguments checked), `cerr` (a codec_error for
** the call) and `element` and `index` (uint32_t the call may set to the
** new row's place); a refusal is the codec's message as it is.  The row
** is at (element, index); LS_INSERT_CALL_AT places it at (elem, idx),
** expressions read after the call (args->grp.i, say). */
#define LS_INSERT_CALL_AT(fn, Args, elem, idx, call)                          \
  static int fn(void *model, const void *args_, ls_pos *pos, char **err) {    \
    const Args *args = args_;                                                 \
    uint32_t element = 0, index = 0;                                          \
    codec_error cerr = {0};                                                   \
    (void)model, (void)args, (void)element, (void)index;                      \
    if (!(call)) return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL); \
    *pos = (ls_pos){.element = (elem), .index = (idx)};                       \
    return SQLITE_OK;                                                         \
  }
#define LS_INSERT_CALL(fn, Args, call) LS_INSERT_CALL_AT(fn, Args, element, index, call)

/* A DELETE (ls_table.remove) of the row's element through the codec's
** remove(Model *, uint32_t element, codec_error *), its refusal as
** "<prefix>: <codec message>" ("cannot delete"; NULL: the codec's
** message as it is). */
#define LS_REMOVE_CALL(fn, Model, remove_fn, prefix)                   \
  static int fn(void *model, const ls_pos *pos, char **err) {          \
    codec_error cerr = {0};                                            \
    int ok = remove_fn((Model *)model, (uint32_t)pos->element, &cerr); \
    return ls_codec_check(ok, &cerr, err, prefix);                     \
  }

/* The same for a NESTED row: remove(Model *, uint32_t element, uint32_t
** index, codec_error *). */
#define LS_REMOVE_CALL_NESTED(fn, Model, remove_fn, prefix)                                  \
  static int fn(void *model, const ls_pos *pos, char **err) {                                \
    codec_error cerr = {0};                                                                  \
    int ok = remove_fn((Model *)model, (uint32_t)pos->element, (uint32_t)pos->index, &cerr); \
    return ls_codec_check(ok, &cerr, err, prefix);                                           \
  }

/* A describe (ls_table.describe) through the codec's naming of an
** element, describe_fn(const Model *, uint32_t element, char *buf,
** size_t size) (NUL-terminated, cut at size). */
#define LS_DESCRIBE_CALL(fn, Model, describe_fn)                                   \
  static char *fn(const void *model, const ls_pos *pos) {                          \
    char name[256];                                                                \
    describe_fn((const Model *)model, (uint32_t)pos->element, name, sizeof name); \
    return sqlite3_mprintf("%s", name);                                            \
  }

/* The same for a NESTED row: describe_fn(const Model *, uint32_t element,
** uint32_t index, char *buf, size_t size). */
#define LS_DESCRIBE_CALL_NESTED(fn, Model, describe_fn)                                                 \
  static char *fn(const void *model, const ls_pos *pos) {                                               \
    char name[256];                                                                                     \
    describe_fn((const Model *)model, (uint32_t)pos->element, (uint32_t)pos->index, name, sizeof name); \
    return sqlite3_mprintf("%s", name);                                                                 \
  }

/* A column showing integer field `field` by name (LS_ENUM): `names`,
** NULL-terminated, stand for the values first, first+1, ... */
#define LS_COL_ENUM(nm, st, S, field, first, names, fl, doc_)                                                          \
  {.name = nm, .type = "TEXT", .kind = LS_ENUM, .store = st, .offset = offsetof(S, field), .min = first, .aux = names, \
   .flags = fl, .doc = doc_}
/* ls_shape.count and .inner as static functions `fn`: the integer field
** `num` of the model, or of element e of the model's array `arr`. */
#define LS_COUNT_OF(fn, T, num) \
  static int64_t fn(const void *model) { return (int64_t)((const T *)model)->num; }
#define LS_INNER_COUNT_OF(fn, T, arr, num) \
  static int64_t fn(const void *model, int64_t e) { return (int64_t)((const T *)model)->arr[e].num; }
/* ls_shape.inner as `fn`: what the codec's count_fn says of element e of
** the model's array `arr` (a pointer to it). */
#define LS_INNER_COUNT_BY(fn, T, arr, count_fn) \
  static int64_t fn(const void *model, int64_t e) { return (int64_t)count_fn(&((const T *)model)->arr[e]); }

/* A NESTED shape's inner() `inner_fn` and has() `has_fn` over rows_fn(model,
** element), a count of the element's rows that can fail (-1: it cannot be
** computed, out of memory): inner() gives 0 then, and has() fails the scan
** with fail_fmt (printf with the element as a long long; every element
** after it has no rows) instead of letting the element look empty. */
#define LS_FALLIBLE_INNER(inner_fn, has_fn, rows_fn, fail_fmt)                              \
  static int64_t inner_fn(const void *model, int64_t e) {                                  \
    int64_t n = rows_fn(model, e);                                                         \
    return n < 0 ? 0 : n;                                                                  \
  }                                                                                        \
  static int has_fn(const void *model, int64_t e, const ls_scan *scan) {                   \
    int64_t n;                                                                             \
    if (scan && *scan->error) return 0;                                                    \
    n = rows_fn(model, e);                                                                 \
    if (n < 0 && scan) *scan->error = sqlite3_mprintf(fail_fmt, (long long)e);             \
    return n > 0;                                                                          \
  }

/* Row keys that are uids a codec gives its elements (a uint32_t field
** `uid` that stays with an element while others are inserted and deleted,
** so a row keeps its rowid): defines prefix##_key and prefix##_seek for
** `.key`, `.seek`.  LS_UID_KEYS: the elements of the model's array `arr`
** (an ARRAY shape), found by find(model, uid, &element); LS_NESTED_UID_KEYS:
** model->arr[element].inner[index] (NESTED), find(model, uid, &element,
** &index).  find returns 1 when it found the uid. */
#define LS_UID_KEYS(prefix, T, arr, find)                                                          \
  static int64_t prefix##_key(const void *model, const ls_pos *pos) {                            \
    return ((const T *)model)->arr[pos->element].uid;                                            \
  }                                                                                              \
  static int prefix##_seek(const void *model, int64_t key, ls_pos *pos) {                        \
    uint32_t e;                                                                                  \
    if (key < 0 || key > UINT32_MAX || !find((const T *)model, (uint32_t)key, &e)) return 0;    \
    *pos = (ls_pos){.element = e};                                                               \
    return 1;                                                                                    \
  }
#define LS_NESTED_UID_KEYS(prefix, T, arr, inner, find)                                            \
  static int64_t prefix##_key(const void *model, const ls_pos *pos) {                            \
    return ((const T *)model)->arr[pos->element].inner[pos->index].uid;                          \
  }                                                                                              \
  static int prefix##_seek(const void *model, int64_t key, ls_pos *pos) {                        \
    uint32_t e, i;                                                                               \
    if (key < 0 || key > UINT32_MAX || !find((const T *)model, (uint32_t)key, &e, &i)) return 0; \
    *pos = (ls_pos){.element = e, .index = i};                                                   \
    return 1;                                                                                    \
  }

/* An ls_insert whose run() reads the argument struct S, the arguments
** (LS_ARG, LS_ARG_NAMED) following. */
#define LS_INSERT(run_fn, S, ...) {.run = run_fn, .args_size = sizeof(S), .args = {__VA_ARGS__}}

/* A load() `fn` whose record is a copy of element pos.element (of type
** E) of the model's array `arr`: the typed columns read the codec's
** struct itself.  (Every load() gets its record zeroed by the engine, so
** a field it leaves alone is 0 or {NULL, 0}.) */
#define LS_LOAD_ELEMENT(fn, T, arr, E)                                   \
  static int fn(const ls_row *row, char **err) {                        \
    (void)err;                                                           \
    *(E *)row->rec = ((const T *)row->model)->arr[row->pos.element];     \
    return SQLITE_OK;                                                    \
  }

/* A load() `fn` whose record (type R) is the value of `expr`, an
** expression that may use `row` and cannot fail: a codec accessor's
** result, or a compound literal of what it gives,
** e.g. LS_LOAD_VALUE(vertex_load, wed_point, wed_vertex_at(...)). */
#define LS_LOAD_VALUE(fn, R, expr)                \
  static int fn(const ls_row *row, char **err) { \
    (void)err;                                    \
    *(R *)row->rec = (expr);                      \
    return SQLITE_OK;                             \
  }

/* A text column of kind k (LS_TEXT8, LS_UTF8, LS_WTF8) over a codec's
** string, up to maxbytes bytes, on rows of `kinds`: its LS_SPAN field is
** the codec's own string, laid out as an ls_span ({char *, size_t}: the
** engine reads and writes fields with memcpy), and flagged
** LS_COL_NULL_EMPTY: empty when its pointer is NULL, it reads as ''
** instead of NULL.  A write leaves the new text (in the row's arena) in
** the field; store() hands it to the codec, which owns the model's
** strings (ls_copy_back's set_text). */
#define LS_COL_CODEC_STR(nm, k, S, field, maxbytes, fl, kinds, doc_) \
  LS_COL_TEXT(nm, k, S, field, maxbytes, LS_COL_NULL_EMPTY | (fl), kinds, doc_)

/* store() help for a record holding at offset `at` a copy of a struct of
** the model (`size` bytes, copied there by load()), for the changed
** columns (changed[i] for cols[i], as store() gets it) whose fields lie
** inside the copy: a typed integer or real column's field (LS_INT, LS_BIT,
** LS_ENUM, LS_FLOAT) is copied to the same place in `to`, the model's
** struct; a text column's new text (an ls_span) goes to set_text(the
** field in `to`, the text, arg), the codec's setter (NULL: text columns
** are left out), which returns 1, or 0 to stop: then ls_copy_back returns
** 0 (arg says why), else 1.  LS_COPY_BACK names the copy by its member of
** the record type S. */
int ls_copy_back(const ls_column *cols, size_t ncols, const unsigned char *changed, const void *rec, size_t at,
                 size_t size, void *to, int (*set_text)(void *field, const ls_span *text, void *arg), void *arg);
#define LS_COPY_BACK(cols, changed, rec, S, member, to, set_text, arg)                                         \
  ls_copy_back(cols, sizeof cols / sizeof cols[0], changed, rec, offsetof(S, member), LS_SIZEOF(S, member), to, \
               set_text, arg)

/* A 0/1 table option of a format (ls_format.options), 0 by default, kept
** in opts->format[slot]: defines the static ls_option `var` named `nm`.
** Any other value fails with "option <nm> takes 1 (<one_means>) or 0 (the
** default), not '<value>'" (ls_option_flag). */
#define LS_FLAG_OPTION(var, nm, slot, one_means)                                 \
  static int var##_parse(const char *value, ls_options *opts, char **err) {      \
    return ls_option_flag(nm, one_means, value, &opts->format[slot], err);       \
  }                                                                              \
  static const ls_option var = {nm, nm "=1", "0", var##_parse}
int ls_option_flag(const char *name, const char *one_means, const char *value, int64_t *out, char **err);

/* A JSON text column a codec writes and parses, LS_COL_CODEC_JSON (S the
** record type, field its ls_span, json an ls_codec_json): a read sets
** to_json(the row's record, &len), JSON text the codec malloc'd (NULL: out
** of memory), as the result with subtype 'J'; a write must be text (else
** "column <name> takes <takes>") and is copied into the row's arena as
** the field, for store() to hand to the codec (the field is {NULL, 0}
** until then). */
typedef struct ls_codec_json {
  char *(*to_json)(const void *rec, size_t *len);
  const char *takes;
} ls_codec_json;
void ls_codec_json_get(const ls_row *row, sqlite3_context *ctx, const ls_column *col);
int ls_codec_json_set(ls_row *row, sqlite3_value *v, const ls_column *col, char **err);
#define LS_COL_CODEC_JSON(nm, S, field, json, doc_)                                                       \
  {.name = nm, .type = "TEXT", .kind = LS_CUSTOM, .get = ls_codec_json_get, .set = ls_codec_json_set, \
   .offset = offsetof(S, field), .aux = json, .doc = doc_}

/* The strings of an LS_JSON_TEXTS span (of ls_span, as a write leaves it)
** as the two arrays a codec takes, made in the arena: (*ptrs)[i] and
** (*lens)[i] for i < strings.n.  SQLITE_OK or SQLITE_NOMEM. */
int ls_spans_split(ls_arena *arena, ls_span strings, const char *const **ptrs, const size_t **lens);

/* An other_kind() (ls_table) `fn` taking NULL, what a column that does not
** apply reads, as no change, and refusing any other value with "column
** <name>: <why>". */
#define LS_OTHER_KIND_TAKES_NULL(fn, why)                                                 \
  static int fn(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) { \
    (void)row;                                                                            \
    return ls_refuse_unless_null(v, col, why, err);                                       \
  }
int ls_refuse_unless_null(sqlite3_value *v, const ls_column *col, const char *why, char **err);

/* A real column (LS_FLOAT, store LS_F32 or LS_F64) of the row kinds
** `kinds` (0: all). */
#define LS_COL_FLOAT(nm, st, S, field, fl, kinds, doc_) \
  {.name = nm, .type = "REAL", .kind = LS_FLOAT, .store = st, .offset = offsetof(S, field), .flags = fl, \
   .applies = kinds, .doc = doc_}
/* A JSON array of strings (LS_JSON_TEXTS: an LS_SPAN of ls_span, or of a
** codec's strings laid out as ls_span, a NULL pointer reading ''; or
** LS_NUL_STRINGS), maxbytes each, shape its ls_json_shape. */
#define LS_COL_JSON_TEXTS(nm, st, S, field, maxbytes, fl, shape, doc_) \
  {.name = nm, .type = "TEXT", .kind = LS_JSON_TEXTS, .store = st, .offset = offsetof(S, field), .max = maxbytes, \
   .flags = fl, .aux = shape, .doc = doc_}
/* A row_kind() `fn` (ls_table) reading the integer field of the record
** (type S), clamped to the kinds 0..max (a format version, say). */
#define LS_ROW_KIND_FIELD(fn, S, field, max)                           \
  static int fn(const ls_row *row) {                                   \
    int64_t k = ((const S *)row->rec)->field;                          \
    return k < 0 ? 0 : k > (max) ? (int)(max) : (int)k;                \
  }
/* The row kinds from..n-1 as an `applies` mask (kinds numbered by a
** format's versions: a field a version added). */
#define LS_KINDS_FROM(from, n) ((((uint32_t)1 << (n)) - 1) & ~(((uint32_t)1 << (from)) - 1))
/* Helpers for tables whose keys, records and rules are a codec's, each
** row a struct the codec reads and writes whole (the Teeworlds tables):
** a codec call's failure in a load(), a store() that writes a changed
** record and names the column a refusal concerns, keys with a list
** selector, file bytes a setter keeps for store(), the arguments an
** INSERT reads (table_helpers.c). */

/* A codec call's result (ok: its 1 or 0, the failure in *e) as a load()'s:
** SQLITE_ERROR (the engine names the file and row) with the codec's
** message as *err, or SQLITE_NOMEM (ls_codec_failed).  ls_codec_check is
** the same for an edit (SQLITE_CONSTRAINT). */
static inline int ls_codec_loaded(int ok, const codec_error *e, char **err) {
  return ok ? SQLITE_OK : ls_codec_failed(e, SQLITE_ERROR, err, NULL);
}

/* The number of elements of an array (a column list, JSON members...). */
#define LS_NELEMS(array) ((int)(sizeof array / sizeof array[0]))

/* A codec's refusal in a store() as the write's error, named after the
** first column the write changed: "column <name>: <codec message>"
** (SQLITE_CONSTRAINT, or SQLITE_NOMEM).  LS_STORE_FAILED takes the
** table's column array itself. */
int ls_store_failed(const ls_column *cols, int ncols, const unsigned char *changed, const codec_error *e, char **err);
#define LS_STORE_FAILED(cols, changed, e, err) ls_store_failed(cols, LS_NELEMS(cols), changed, e, err)

/* The end of a store() whose record is the codec's own struct (size
** bytes): nothing to write when the record is as loaded (old), else
** set_call, the codec's setter given &e, must succeed, its refusal named
** after the first changed column (LS_STORE_FAILED).  Uses memcmp
** (<string.h>). */
#define LS_STORE_CODEC(cols, row, old, size, set_call, changed, e, err) \
  (memcmp((row)->rec, old, size) == 0 || (set_call) ? SQLITE_OK : LS_STORE_FAILED(cols, changed, e, err))

/* A load() `fn` whose record is, or starts with, the codec's own struct R
** for the row's element: get_fn(model, element, &rec, &e) reads it (T is
** the model's type); a failure is the codec's (ls_codec_loaded). */
#define LS_CODEC_LOAD(fn, T, R, get_fn)                                                                  \
  static int fn(const ls_row *row, char **err) {                                                        \
    codec_error e;                                                                                       \
    return ls_codec_loaded(get_fn((T *)row->model, (size_t)row->pos.element, (R *)row->rec, &e), &e, err); \
  }

/* load() and store() of a table whose record is the codec's own struct R
** for the row's element: LS_CODEC_LOAD, and set_fn(model, element, &rec,
** &e) writes a changed one (LS_STORE_CODEC; cols: the table's column
** array, declared before).  T is the model's type.  Defines prefix##_load
** and prefix##_store. */
#define LS_CODEC_RECORD(prefix, T, R, get_fn, set_fn, cols)                                                          \
  LS_CODEC_LOAD(prefix##_load, T, R, get_fn)                                                                         \
  static int prefix##_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {                \
    codec_error e;                                                                                                   \
    return LS_STORE_CODEC(cols, row, old, sizeof(R),                                                                 \
                          set_fn((T *)row->model, (size_t)row->pos.element, (const R *)row->rec, &e), changed, &e, err); \
  }

/* A table's key() and seek() from the keys its codec keeps for rows that
** survive inserts and deletes of others (engine.h, "Row identity"), of
** any width: key_fn(model, which, element, index) is a row's key,
** find_fn(model, which, key, &element, &index) finds it (1, or 0 when no
** row has it); `which` tells the codec's lists apart.  Defines
** prefix##_key and prefix##_seek (LS_CODEC_KEY_FIELDS sets them). */
#define LS_CODEC_KEYS(prefix, T, key_fn, find_fn, which)                              \
  static int64_t prefix##_key(const void *model, const ls_pos *pos) {                 \
    return key_fn((const T *)model, which, (size_t)pos->element, (size_t)pos->index); \
  }                                                                                   \
  static int prefix##_seek(const void *model, int64_t key, ls_pos *pos) {             \
    size_t element, index;                                                            \
    if (!find_fn((const T *)model, which, key, &element, &index)) return 0;           \
    *pos = (ls_pos){.element = (int64_t)element, .index = (int64_t)index};            \
    return 1;                                                                         \
  }
#define LS_CODEC_KEY_FIELDS(prefix) .key = prefix##_key, .seek = prefix##_seek

/* A setter that keeps a BLOB for store() to write (file bytes: a PNG, a
** sound): copies a non-empty BLOB value into *out, in the row's arena;
** anything else fails with "column <name>: takes <takes>".  NULL where the
** column reads NULL (reads_null) is what it read: no change, *out stays
** {NULL, 0}. */
int ls_stage_blob(ls_row *row, sqlite3_value *v, const ls_column *col, const char *takes, int reads_null, ls_span *out,
                  char **err);

/* Sets *pos to the row an INSERT added (element, index) and returns
** SQLITE_OK, for the end of an insert's run(). */
static inline int ls_inserted_at(ls_pos *pos, int64_t element, int64_t index) {
  *pos = (ls_pos){.element = element, .index = index};
  return SQLITE_OK;
}

/* Text of kind k in an ls_span field, lo to hi bytes (a name that must not
** be empty); a JSON array of records (LS_JSON_RECORDS over an LS_SPAN;
** records: its ls_json_records). */
#define LS_COL_TEXT_IN(nm, k, S, field, lo, hi, fl, doc_) \
  {.name = nm, .type = "TEXT", .kind = k, .store = LS_SPAN, .offset = offsetof(S, field), .min = lo, .max = hi, \
   .flags = fl, .doc = doc_}
#define LS_COL_JSON_RECORDS(nm, S, field, records, doc_) \
  {.name = nm, .type = "TEXT", .kind = LS_JSON_RECORDS, .store = LS_SPAN, .offset = offsetof(S, field), \
   .aux = records, .doc = doc_}

/* ---- SQL functions that read files (render_functions.c) ---------------- */

/* A function a family registers with ls_register_session_functions: called
** with nmin..nmax arguments, sqlite3_user_data is the session. */
typedef struct ls_session_function {
  const char *name;
  int nmin, nmax;
  void (*fn)(sqlite3_context *ctx, int argc, sqlite3_value **argv);
} ls_session_function;
int ls_register_session_functions(sqlite3 *db, ls_session *sess, const ls_session_function *fns, size_t n);

/* The largest list an option takes (groups, layers). */
#define RENDER_LIST_MAX 256
/* One option a function takes: its name, what it takes (for messages) and
** where its value goes.  Kinds: an integer in [lo, hi], a 0/1 flag, a
** '|'-separated list of integers, a colour, a real number in (0, hi], a
** text. */
typedef enum opt_kind { OPT_INT, OPT_FLAG, OPT_LIST, OPT_COLOR, OPT_REAL, OPT_TEXT } opt_kind;
typedef struct render_option {
  const char *name;
  opt_kind kind;
  int64_t lo, hi;
  void *dest;       /* int*, int*, long[RENDER_LIST_MAX] (count in *count), canvas_color*, double*, char ** */
  size_t *count;
} render_option;
/* Parses "key=value, key=value" (commas, semicolons or spaces between)
** into the options of opts[0..n).  Returns 1, or 0 after failing the call
** with what is wrong (an unknown key lists the known ones). */
int parse_options(sqlite3_context *ctx, const char *fn, sqlite3_value *arg, const render_option *opts, size_t n);

/* A file loaded for a render: the model the transaction sees, held by a
** walk of that one file ("the file walk" above) until render_file_done;
** data is the family's model (the codec's own struct: wwd_level, wed_area,
** wz4's, tw_map). */
typedef struct render_file {
  const char *path;
  void *data;
  ls_walk *walk;
} render_file;
/* Loads the file named by arg with format fmt through a walk of it.
** Returns 1, or 0 after failing the call (nothing left to free). */
int render_file_open(sqlite3_context *ctx, const char *fn, sqlite3_value *arg, const ls_format *fmt, render_file *rf);
/* Ends a render's walk: the model is no longer held. */
void render_file_done(render_file *rf);

/* Fails the call with "<fn>: <message>" (printf-style). */
void render_error(sqlite3_context *ctx, const char *fn, const char *fmt, ...);
/* A codec's failure as the call's error, naming the file. */
void codec_result_error(sqlite3_context *ctx, const char *fn, const char *path, const codec_error *e);
/* Sets a malloc'd buffer as the result (blob or text), taking it. */
void result_take(sqlite3_context *ctx, unsigned char *data, size_t n, int text);

/* ---- files beside a file (find.c) ------------------------------------- */

/* A file needs others the engine does not list: a tileset beside its
** area, a tileset's PVRZ pages beside it.  ls_find looks for one by name
** where the games would, for a file as the engine names it (`file`):
**  - a file on disk: its folder (the name in any case); a file of a
**    game's override folder: that folder, then the game's archives;
**  - a game's resource ("<key>:<RESREF.EXT>", README "The game as a
**    source"): the game, as it loads a resource: its override folder
**    first, then the archives its key lists, read through the
**    connection's cache of keys and archive indexes (one resource's bytes,
**    never a whole archive);
**  - with LS_FIND_IN, `near` is a folder to look in instead, or a game
**    when it holds a chitin.key or is a key.
** Only committed bytes are read (the disk, never an open transaction's
** copy).  A getter reaches the connection through
** sqlite3_context_db_handle. */

/* A file's identity: it changed when one of these did. */
typedef struct ls_stamp {
  uint64_t dev, ino;
  int64_t size, mtime_ns;
} ls_stamp;

static inline int ls_stamp_same(const ls_stamp *a, const ls_stamp *b) {
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

typedef struct ls_found {
  int found;           /* 0: there is none (path NULL) */
  char *path;          /* the file found, or "<key>:<NAME>" for a resource in a game's archives */
  char *where;         /* where it was looked for, for messages ("areas", "game/chitin.key (override, archives)") */
  /* found: its identity; else that of where it was looked for (a folder,
  ** a key and its override folder), which changes when the name may have
  ** appeared there */
  ls_stamp stamp;
  unsigned char *data; /* read (max_bytes > 0): its bytes (NULL when empty) */
  size_t size;
} ls_found;

enum { LS_FIND_BESIDE = 0, LS_FIND_IN = 1 };

/* Looks for `name` ("AR0100.TIS", "A010000.PVRZ") beside the file `near`
** (how LS_FIND_BESIDE) or in it (LS_FIND_IN), as above, and with
** max_bytes > 0 reads it: one of more than max_bytes bytes is refused
** before it is read (CODEC_E_LIMIT, naming levelsql_limit('decoded')).
** Returns 1 with *out (out->found 0 when there is none: not an error), or
** 0 with err naming the file, the archive and the resource.  Strings and
** bytes of *out are malloc'd: ls_found_clear frees them. */
int ls_find(sqlite3 *db, const char *near, int how, const char *name, uint64_t max_bytes, ls_found *out,
            codec_error *err);
void ls_found_clear(ls_found *f);
/* The name part of a path as the engine names files: after its last
** folder separator, the NAME of a game's "<key>:<NAME>". */
const char *ls_file_name(const char *path);
/* Registers the function ls_find reaches the connection's session through. */
int ls_find_register(sqlite3 *db, ls_session *sess);

/* ---- JSON columns (json.c; the parser is codecs/common/json.c) ---------- */

/* Parses a JSON column's value: text holding JSON.  Returns SQLITE_OK
** with *out (json_free it), SQLITE_NOMEM, or SQLITE_CONSTRAINT with *err
** naming the column, what is wrong and `example`, a valid value. */
int ls_json_value(sqlite3_value *v, const ls_column *col, const char *example, json_node **out, char **err);

/* Checks for JSON columns, with the messages every table gives: `node`
** is an array of min..max elements; an integer within min..max (or equal
** to *keep, the value the row holds); `what` names the place ("element
** [2][1]"), `example` a valid value of the column. */
int ls_json_check_array(const json_node *node, const ls_column *col, const char *what, size_t min, size_t max,
                        const char *example, char **err);
int ls_json_check_int(const json_node *node, const ls_column *col, const char *what, int64_t min, int64_t max,
                      const int64_t *keep, int64_t *out, char **err);
/* `node` is an object whose keys are all keys of the n members. */
int ls_json_check_object(const json_node *node, const ls_column *col, const char *what, const ls_json_member *members,
                         size_t nmembers, const char *example, char **err);

/* Appends s[0..n) as a JSON string: UTF-8, or WTF-8 whose lone surrogates
** (ED A0..BF xx, never in UTF-8) become \udXXX escapes, so the JSON is
** valid UTF-8 and parses back to the same bytes. */
void ls_json_append_string(sqlite3_str *out, const char *s, size_t n);
/* Sets a JSON text result from a builder (subtype 'J') and finishes it. */
void ls_json_result(sqlite3_context *ctx, sqlite3_str *s);


/* ---- an atlas of a collection (atlas.c: levelsql_atlas) ---------------- */

/* What levelsql_atlas shows of one file of a family's format: its card in
** index.html and its own page (README, "Atlas").  A family declares an
** ls_atlas_kind; draw() runs on any of the atlas's threads with a model
** parsed for it alone (pure C and file reads: no SQLite, no session) and
** fills the card through the helpers below, which copy what they are
** given (malloc); the atlas frees the card (ls_atlas_card_clear).  Text
** handed to the helpers is UTF-8 (invalid bytes are shown as U+FFFD) and
** is escaped where it is written.  A draw finds the files beside its file
** with ls_find(NULL, ...): without a connection, ls_find looks on disk
** only, on any thread (a game's resources are not found). */
struct canvas;

typedef struct ls_atlas_opts {
  int thumb;                  /* the card's picture fits thumb x thumb pixels */
  int large;                  /* the page's pictures fit large x large */
  const char *mapres;         /* NULL, or the folder of Teeworlds' external images (tw_render's mapres) */
  const char *tilesets;       /* NULL, or where an area's tileset is when not beside it (wed_render's) */
  uint64_t max_decoded;       /* levelsql_limit('decoded'), for what a draw reads beside the file */
  const codec_cancel *cancel; /* the statement's interrupt: a draw polls it (CODEC_E_INTERRUPT) */
} ls_atlas_opts;

typedef struct ls_atlas_marker {
  double x, y;  /* in the picture's pixels */
  uint32_t rgb; /* 0xRRGGBB */
  char *label;
} ls_atlas_marker;

typedef struct ls_atlas_picture {
  char *caption;       /* "plane 1: Action" */
  unsigned char *data; /* PNG bytes or SVG text */
  size_t size;
  int svg;
  int w, h;            /* in pixels (an SVG's width and height) */
  ls_atlas_marker *markers;
  size_t nmarkers, markers_cap;
} ls_atlas_picture;

/* A number of the card (list NULL: sortable and filterable in index.html,
** name a short lower-case word) or a line of a named list shown on the
** page and the card ("objects per logic": name "Officer", value 12). */
typedef struct ls_atlas_number {
  char *list, *name;
  int64_t value;
} ls_atlas_number;

typedef struct ls_atlas_card {
  ls_atlas_picture *pictures;  /* the page's; the first is also the card's, shrunk */
  size_t npictures;
  ls_atlas_picture thumb;      /* made from the first picture (a PNG shrunk; an SVG shown as it is) */
  ls_atlas_number *numbers;
  size_t nnumbers;
  char **also;                 /* files beside it the draw read (a tileset, the ARE): changing one redraws it */
  size_t nalso;
  char *note;                  /* what the pictures leave out and why (ls_atlas_note adds to it), or NULL */
} ls_atlas_card;

typedef struct ls_atlas_kind {
  const ls_format *format;
  const char *noun;             /* "level", "map", "area", "project" */
  /* Fills the card of the file at path (its model); 1, or 0 with err. */
  int (*draw)(void *model, const char *path, const ls_atlas_opts *o, ls_atlas_card *card, codec_error *err);
  const char *const *queries;   /* NULL-terminated; each {file} is the file as an SQL string literal */
  /* NULL, or an extension (".wed"): a file of the format beside one of
  ** that extension and the same name, any case, is shown on that file's
  ** card instead of its own (an ARE on its WED's). */
  const char *shown_with;
} ls_atlas_kind;

/* The helpers of draw(): each returns 1, or 0 with err when out of memory
** (or, for pictures, when encoding fails). */
int ls_atlas_number_add(ls_atlas_card *card, const char *list, const char *name, size_t len, int64_t value,
                        codec_error *err);
/* Adds c as a PNG picture (the first also makes the thumbnail); c stays the caller's. */
ls_atlas_picture *ls_atlas_add_canvas(ls_atlas_card *card, const char *caption, const struct canvas *c,
                                      const ls_atlas_opts *o, codec_error *err);
/* Adds an SVG picture of w x h pixels, taking svg (malloc'd, freed on failure too). */
ls_atlas_picture *ls_atlas_add_svg(ls_atlas_card *card, const char *caption, char *svg, size_t n, double w, double h,
                                   codec_error *err);
int ls_atlas_marker_add(ls_atlas_picture *p, double x, double y, uint32_t rgb, const char *label, size_t len,
                        codec_error *err);
int ls_atlas_also(ls_atlas_card *card, const char *path, codec_error *err);
int ls_atlas_note(ls_atlas_card *card, const char *note, codec_error *err);
void ls_atlas_card_clear(ls_atlas_card *card);

#endif
