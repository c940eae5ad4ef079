/*
** session.h: the per-connection state behind every levelsql table: the
** cache of parsed files and the transaction that stages edits to them.
**
** One ls_session per connection (created by sqlite3_levelsql_init, shared by
** all modules, freed when the last module is dropped).  No globals.
**
** A file entry (ls_file) holds:
**  - `clean`: the model parsed from the bytes on disk, with the stat
**    (device, inode, size, mtime) those bytes had.  Reused by later queries
**    while the file's stat is unchanged; evicted when over the cache budget.
**  - `working`: the transaction's copy, made on the first write to the file.
**    Readers in the same transaction see it.  COMMIT writes it out; ROLLBACK
**    drops it.
**  - `snaps`: copies of `working` taken at the first write after a savepoint
**    opened, so ROLLBACK TO (and a failed statement) restores exactly.
**  - a pin (`pinned_in`): inside a transaction, the first read of a file
**    fixes the version the rest of the transaction reads (a snapshot per
**    file), and COMMIT refuses to write a file changed on disk since then.
**
** Levels: SQLite numbers its savepoints 0, 1, ... (statement savepoints
** included) and tells a virtual table only of those opened after it joined
** the transaction; level -1 is the transaction itself (a SAVEPOINT that
** opened the transaction, or BEGIN).  On top of SQLite's levels the session
** keeps a level of its own for the statement that is writing (the
** "statement level", innermost): SQLite brackets some write statements
** with a statement savepoint but not all (UPDATE ... FROM never, single-row
** statements not, autocommit statements not), so the engine undoes a
** failed write itself, whatever SQLite does.
** Models are reference counted so a cursor keeps the one it scans alive.
*/
#ifndef LEVELSQL_SESSION_H
#define LEVELSQL_SESSION_H

#include <sys/types.h>

#include "engine/engine.h"
#include "engine/game.h"        /* ls_game, ls_res_loc: resources inside a game's archives */
#include "engine/parse_ahead.h" /* ls_parse_buffers */
#include "engine/win_port.h" /* Windows: 64-bit dev_t and ino_t (empty elsewhere) */

struct ls_job;      /* parse_ahead.h */
struct ls_pathlist; /* source.h */

/* What a scan passes to a load so that parsing overlaps it (vtab.c). */
typedef struct ls_ahead {
  struct ls_job *job;          /* the job that read this file ahead, or NULL: taken or cancelled by the load */
  void (*on_parse)(void *ctx); /* NULL, or called when the load is about to parse the file (a miss) */
  void *ctx;
} ls_ahead;

typedef struct ls_model {
  void *p;
  const ls_format *fmt;
  int refs;
  size_t footprint;
} ls_model;

typedef struct ls_snap {
  int level;          /* savepoint number this snapshot restores */
  ls_model *model;    /* the working copy then; NULL: the file was not dirty */
} ls_snap;

typedef struct ls_file {
  int64_t id;                 /* index in the session's files, 1-based, never reused */
  int64_t part;               /* the rowid's file part: ls_file_part(canon) */
  char *canon;                /* realpath(): one entry per file however it is spelled; for a
                              ** resource in a game's archives "<realpath of the key>:<RESREF.EXT>" (game.h) */
  ls_res_loc *loc;            /* a resource in a game's archives: where its bytes lie, as last resolved; NULL: a file */
  char *shown;                /* the path as last matched by a source (the `file` column) */
  /* the bytes `clean` was parsed from */
  dev_t dev;
  ino_t ino;
  int64_t size;
  int64_t mtime_ns;
  const ls_format *fmt;       /* format `clean` or `error` belongs to */
  ls_model *clean;
  char *error;                /* parse error for that stat (cached too) */
  ls_model *working;
  ls_snap *snaps;
  int nsnaps, snaps_cap;
  struct ls_file *lru_prev, *lru_next; /* clean models only */
  /* The transaction (ls_session.txn_serial) that pinned this file's
  ** version: while it lasts, the stat above is the one its first read
  ** found, reads never look at the disk again, and COMMIT checks against
  ** it (session.c, "transactions"). */
  int64_t pinned_in;
} ls_file;

/* A folder recovery found clean (session.c, recover_folder), as it was. */
typedef struct ls_seen_dir {
  char *dir;
  dev_t dev;
  ino_t ino;
  int64_t mtime_ns;
} ls_seen_dir;

struct ls_session {
  int refs;
  sqlite3 *db;                /* the connection: its busy timeout, for commits */
  int overwrite_readonly;     /* levelsql_overwrite_readonly(1): replace read-only files */
  uint64_t max_decoded;       /* levelsql_limit('decoded'): bytes one file may decode in all (limits.c) */
  ls_seen_dir *seen;          /* folders recovered lately (after a crash of a writer) */
  int nseen, seen_cap;
  ls_file **files;            /* index id-1 */
  int64_t nfiles, files_cap;
  int64_t *index;             /* ids by hash of the canonical path (session.c, file_find) */
  size_t index_cap;           /* a power of two, or 0 */
  struct ls_pool *pool;       /* threads that parse ahead of scans (parse_ahead.h); NULL: none */
  ls_parse_buffers buffers;   /* this thread's, for the files it parses itself; ls_session_scan_done frees them */
  ls_file *lru_head, *lru_tail; /* most recently used first */
  size_t cache_bytes, cache_limit;
  const ls_format **formats;
  int nformats;
  const ls_table **tables;    /* registered tables, for levelsql_columns */
  int ntables;
  int level;                  /* innermost open SQLite savepoint, -1 for none */
  int in_statement;           /* the statement level (level + 1) is open */
  int committed;              /* files already written by this transaction's xSync */
  /* Snapshot per file (session.c, "transactions"): files whose pinned_in
  ** is txn_serial keep the version this transaction first read. */
  int64_t txn_serial;         /* this transaction's number; bumped when one ends */
  int pins;                   /* some file is pinned in txn_serial */
  int tokens;                 /* schemas whose read transaction marks it (session.c, TOKEN_*) */
  int txn_writing;            /* between xBegin and xCommit/xRollback */
  int64_t parses;             /* files parsed (cache misses), for levelsql_cache_stats() */
  int64_t hits;               /* loads answered from the cache */
  int64_t parsed_ahead;       /* misses answered by a job started ahead (parse_ahead.h) */
  int64_t parsed_on_threads;  /* of those, the jobs a pool thread ran (else this one did) */
  int64_t writes;             /* files written back */
  int64_t expansions;         /* sources listed by scans (ls_filter) */
  ls_game *game;              /* the game keys and archive indexes read (game.h); NULL until a source names one */
  int64_t stats;              /* files looked up on disk (realpath, stat) to check the cache */
  uint64_t generation;        /* bumped by every write: a cursor's loaded record is stale once it moves */
};

/* Finds or loads the file at `path` (as matched) for reading with format fmt
** (NULL: detect among the registered formats).  Sets *out to the entry;
** the model to read is ls_file_current().  On failure returns an error code
** with *err = "<path>: <reason>" (malloc'd by sqlite3_mprintf); when the
** entry exists but did not parse, *out is still set (levelsql_files uses
** it). */
int ls_session_load(ls_session *s, const char *path, const ls_format *fmt, ls_file **out, char **err);

/* ls_session_load for a file the caller already loaded in this statement
** (`known`, the entry it got then; NULL: not yet): answered from `known`
** without looking at the disk again while its model is still held, so a
** join's inner scan does not stat the file once per outer row.  Only for
** use within one statement: the next one must call ls_session_load.
** `ahead` (NULL: none): the job reading the file ahead
** (ls_session_parse_ahead), always taken or cancelled here, and what to
** call on a miss. */
int ls_session_load_again(ls_session *s, ls_file *known, const char *path, const ls_format *fmt,
                          const ls_ahead *ahead, ls_file **out, char **err);

/* Lists the files source names (source.h, ls_source_expand) for tables
** of format fmt (NULL: every registered format), a game's resources of
** their types included, through the session's cache of game keys.
** Returns SQLITE_OK, or an error with *err (sqlite3_mprintf'd). */
int ls_session_expand(ls_session *s, const char *source, const ls_format *fmt, int nocase, ls_interrupt *ic,
                      struct ls_pathlist *out, char **err);

/* The session's cache of game keys and archive indexes (game.h), made on
** first use; NULL when out of memory. */
ls_game *ls_session_game(ls_session *s);

/* The canonical path of the file path names now (realpath; for a game's
** resource its "<key>:<NAME>" or its override file's realpath),
** malloc'd, or NULL when it names none. */
char *ls_session_canon(ls_session *s, const char *path);

/* Whether loading path with fmt now would be answered without parsing (the
** cache holds it unchanged on disk, or the transaction's copy). */
int ls_session_is_cached(ls_session *s, const char *path, const ls_format *fmt);

/* Starts reading and parsing path on the session's pool, for a load that
** will come soon (pass the job to ls_session_load_again, or cancel it with
** ls_session_cancel_ahead).  NULL: no thread will (parse on the spot). */
struct ls_job *ls_session_parse_ahead(ls_session *s, const char *path, const ls_format *fmt);
void ls_session_cancel_ahead(ls_session *s, struct ls_job *job);

/* A scan is over: gives back the buffers the connection's thread kept
** from one file it parsed to the next (the file's bytes, a format's
** scratch), so an idle connection holds only its cache. */
void ls_session_scan_done(ls_session *s);

/* The number of threads that parse ahead (levelsql_threads); set: change it. */
int ls_session_threads(ls_session *s, int threads, int set);

/* A file this connection has loaded (and matched by a source) whose
** rowid file part is `part`, or NULL; *other: a second, different one
** with the same part (a collision: the caller refuses the rowid), or
** NULL. */
ls_file *ls_session_file_by_part(ls_session *s, int64_t part, ls_file **other);

/* The model readers see: the transaction's copy, else the clean one. */
ls_model *ls_file_current(ls_file *f);

/* The model a write goes to: makes the working copy (and the snapshot of
** the open savepoint) first.  Returns NULL with *err set on failure. */
ls_model *ls_session_writable(ls_session *s, ls_file *f, const char *path, char **err);

void ls_model_ref(ls_model *m);
void ls_model_unref(ls_model *m);

/* Transaction hooks, idempotent because every table of the connection
** that takes part in a transaction calls them. */
void ls_session_begin(ls_session *s);
int ls_session_sync(ls_session *s, char **err);  /* writes every changed file */
void ls_session_commit(ls_session *s);
void ls_session_rollback(ls_session *s);
void ls_session_savepoint(ls_session *s, int level);
void ls_session_release_to(ls_session *s, int level);
void ls_session_rollback_to(ls_session *s, int level);

/* The statement level.  statement_begin opens it unless open (a write
** statement's first row); statement_end keeps what the statement did (a
** new statement begins: another scan starts, an INSERT row, any
** transaction event); statement_undo restores the files as they were when
** it opened (a row failed).  Both close it. */
void ls_session_statement_begin(ls_session *s);
void ls_session_statement_end(ls_session *s);
void ls_session_statement_undo(ls_session *s);

/* The model f had when the open statement level began (the state the
** writing statement read its rows from: its snapshot of f, or f's clean
** model when f was clean then), or NULL when no statement is writing to f
** (or that model is gone from the cache). */
const ls_model *ls_session_statement_model(const ls_session *s, const ls_file *f);

/* Re-measures the footprint of f's clean model (formats that decode parts
** of a model on first use grow it after parsing) and keeps the cache to
** its budget, f excepted.  The engine calls it when a scan leaves a file. */
void ls_session_remeasure(ls_session *s, ls_file *f);

/* levelsql_cache_stats(): the counters above, the cache's bytes and
** budget, and the files it holds (most recently used first), each with
** its size on disk and the bytes of its model, as JSON
** (sqlite3_malloc'd; NULL when out of memory). */
char *ls_session_stats_json(ls_session *s);

/* Cache budget in bytes of model memory (default: 2 GiB, at most a
** quarter of physical memory, at least 256 MiB). */
size_t ls_session_cache_limit(ls_session *s, size_t limit, int set);

#endif
