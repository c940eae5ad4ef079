/*
** session.c: the per-connection file cache and the transaction that stages
** edits and writes them back safely.  See session.h for the model.
*/
#include "engine/session.h"

#include "engine/commit.h"
#include "engine/engine.h"
#include "engine/game.h"
#include "engine/parse_ahead.h"
#include "engine/source.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The default cache budget: enough for a collection of 2,000 typical
** levels (a Claw level's model is about 1 MB, a Teeworlds map's a few
** hundred KB until its layers are decoded), but never more than a quarter
** of the machine's memory where that can be read, nor less than the
** former default of 256 MiB. */
#define LS_DEFAULT_CACHE_LIMIT ((uint64_t)2 << 30)
#define LS_MIN_DEFAULT_CACHE_LIMIT ((uint64_t)256 << 20)

/* ---- models --------------------------------------------------------------- */

/* Wraps a freshly parsed or cloned model with one reference. */
static ls_model *model_wrap(void *p, const ls_format *fmt) {
  ls_model *m = sqlite3_malloc(sizeof *m);
  if (!m) {
    fmt->free_model(p);
    return NULL;
  }
  m->p = p;
  m->fmt = fmt;
  m->refs = 1;
  m->footprint = fmt->footprint ? fmt->footprint(p) : 0;
  return m;
}

void ls_model_ref(ls_model *m) {
  if (m) m->refs++;
}

void ls_model_unref(ls_model *m) {
  if (m && --m->refs == 0) {
    m->fmt->free_model(m->p);
    sqlite3_free(m);
  }
}

/* ---- the LRU list of clean models ----------------------------------------- */

static void lru_unlink(ls_session *s, ls_file *f) {
  if (f->lru_prev) f->lru_prev->lru_next = f->lru_next;
  else if (s->lru_head == f) s->lru_head = f->lru_next;
  if (f->lru_next) f->lru_next->lru_prev = f->lru_prev;
  else if (s->lru_tail == f) s->lru_tail = f->lru_prev;
  f->lru_prev = f->lru_next = NULL;
}

static void lru_push_front(ls_session *s, ls_file *f) {
  f->lru_prev = NULL;
  f->lru_next = s->lru_head;
  if (s->lru_head) s->lru_head->lru_prev = f;
  s->lru_head = f;
  if (!s->lru_tail) s->lru_tail = f;
}

/* Forgets the clean model of f (a cursor still using it keeps its own
** reference); the recorded stat stays, for conflict checks at commit. */
static void drop_clean(ls_session *s, ls_file *f) {
  if (f->clean) {
    /* row state a cursor kept (vtab.c: ready_gen, rec_gen) must never be
    ** read against freed memory; cursors also drop it on every move, so
    ** this only guards a read that would come without one */
    s->generation++;
    s->cache_bytes -= f->clean->footprint;
    ls_model_unref(f->clean);
    f->clean = NULL;
    lru_unlink(s, f);
  }
  sqlite3_free(f->error);
  f->error = NULL;
}

/* Brings the cache within its budget: first, from the least recently used
** file on, drops what models decoded lazily (ls_format.shed; only models
** nothing else holds, so no scan loses data under it), and only then
** evicts least recently used clean models whole.  `keep` (the file just
** loaded) is never evicted. */
static void cache_trim(ls_session *s, ls_file *keep) {
  ls_file *f;
  for (f = s->lru_tail; f && s->cache_bytes > s->cache_limit; f = f->lru_prev) {
    ls_model *m = f->clean;
    if (m->fmt->shed && m->refs == 1) {
      size_t now = m->fmt->shed(m->p);
      s->cache_bytes = s->cache_bytes - m->footprint + now;
      m->footprint = now;
      s->generation++; /* as in drop_clean: no kept row state outlives what went */
    }
  }
  f = s->lru_tail;
  while (f && s->cache_bytes > s->cache_limit) {
    ls_file *prev = f->lru_prev;
    if (f != keep) drop_clean(s, f);
    f = prev;
  }
}

void ls_session_remeasure(ls_session *s, ls_file *f) {
  size_t now;
  if (!f->clean || !f->clean->fmt->footprint) return;
  now = f->clean->fmt->footprint(f->clean->p);
  if (now == f->clean->footprint) return;
  s->cache_bytes = s->cache_bytes - f->clean->footprint + now;
  f->clean->footprint = now;
  cache_trim(s, f);
}

size_t ls_session_cache_limit(ls_session *s, size_t limit, int set) {
  size_t old = s->cache_limit;
  if (set) {
    s->cache_limit = limit;
    cache_trim(s, NULL);
  }
  return old;
}

char *ls_session_stats_json(ls_session *s) {
  sqlite3_str *out = sqlite3_str_new(NULL);
  const ls_file *f;
  int64_t cached = 0;
  for (f = s->lru_head; f; f = f->lru_next) cached++;
  sqlite3_str_appendf(out,
                      "{\"parses\":%lld,\"parsed_ahead\":%lld,\"parsed_on_threads\":%lld,\"threads\":%d,\"hits\":%lld,\"writes\":%lld,\"bytes\":%lld,\"limit\":%lld,"
                      "\"expansions\":%lld,\"stats\":%lld,\"cached\":%lld,\"files\":[",
                      (long long)s->parses, (long long)s->parsed_ahead, (long long)s->parsed_on_threads,
                      ls_session_threads(s, 0, 0), (long long)s->hits, (long long)s->writes, (long long)s->cache_bytes,
                      (long long)s->cache_limit, (long long)s->expansions, (long long)s->stats, (long long)cached);
  for (f = s->lru_head; f; f = f->lru_next) {
    const char *path = f->shown ? f->shown : f->canon;
    sqlite3_str_appendf(out, "%s{\"file\":", f == s->lru_head ? "" : ",");
    ls_json_append_string(out, path, strlen(path));
    sqlite3_str_appendf(out, ",\"size\":%lld,\"bytes\":%lld}", (long long)f->size, (long long)f->clean->footprint);
  }
  sqlite3_str_appendall(out, "]}");
  return sqlite3_str_finish(out);
}

/* ---- session lifetime ---------------------------------------------------- */

/* LS_DEFAULT_CACHE_LIMIT within the bounds above, as a size_t. */
static size_t default_cache_limit(void) {
  uint64_t limit = LS_DEFAULT_CACHE_LIMIT;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0 && (uint64_t)pages / 4 < limit / (uint64_t)page) limit = (uint64_t)pages / 4 * (uint64_t)page;
#endif
  if (limit < LS_MIN_DEFAULT_CACHE_LIMIT) limit = LS_MIN_DEFAULT_CACHE_LIMIT;
  return limit > SIZE_MAX ? SIZE_MAX : (size_t)limit;
}

ls_session *ls_session_new(sqlite3 *db) {
  ls_session *s = sqlite3_malloc(sizeof *s);
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  s->db = db;
  s->refs = 1;
  s->level = -1;
  s->txn_serial = 1;
  s->cache_limit = default_cache_limit();
  s->max_decoded = LS_DEFAULT_MAX_DECODED;
  /* No pool (parsing on this thread only) when it cannot be made. */
  s->pool = ls_pool_new(ls_processors_online());
  return s;
}

/* Most folders remembered as recovered (ls_session.seen); past it the list
** starts again. */
#define LS_MAX_SEEN_DIRS 64

static void seen_dirs_free(ls_session *s) {
  int i;
  for (i = 0; i < s->nseen; i++) sqlite3_free(s->seen[i].dir);
  sqlite3_free(s->seen);
  s->seen = NULL;
  s->nseen = s->seen_cap = 0;
}

static void file_free(ls_file *f) {
  int i;
  ls_model_unref(f->clean);
  ls_model_unref(f->working);
  for (i = 0; i < f->nsnaps; i++) ls_model_unref(f->snaps[i].model);
  sqlite3_free(f->snaps);
  sqlite3_free(f->error);
  sqlite3_free(f->canon);
  sqlite3_free(f->shown);
  ls_res_loc_free(f->loc);
  sqlite3_free(f);
}

void ls_session_release(ls_session *s) {
  int64_t i;
  if (!s || --s->refs > 0) return;
  ls_pool_free(s->pool);
  ls_parse_buffers_free(&s->buffers);
  for (i = 0; i < s->nfiles; i++) file_free(s->files[i]);
  sqlite3_free(s->files);
  sqlite3_free(s->index);
  sqlite3_free(s->formats);
  sqlite3_free(s->tables);
  seen_dirs_free(s);
  ls_game_free(s->game);
  sqlite3_free(s);
}

int ls_register_format(ls_session *s, const ls_format *format) {
  const ls_format **p = sqlite3_realloc64(s->formats, sizeof *p * (sqlite3_uint64)(s->nformats + 1));
  if (!p) return SQLITE_NOMEM;
  p[s->nformats++] = format;
  s->formats = p;
  return SQLITE_OK;
}

/* ---- file entries ---------------------------------------------------------- */

/* FNV-1a (64 bits) of a canonical path's bytes. */
static uint64_t path_hash(const char *path) {
  uint64_t h = 1469598103934665603u;
  for (; *path; path++) h = (h ^ (unsigned char)*path) * 1099511628211u;
  return h;
}

/* The rowid file part of a canonical path (engine.h, "Row identity"):
** its FNV-1a hash folded to LS_FILE_BITS (the high bits xor'ed onto the
** low ones, so every bit of the hash counts).  Depends on the path's
** bytes alone: the same in every connection, process and platform. */
int64_t ls_file_part(const char *canon) {
  uint64_t h = path_hash(canon);
  return (int64_t)((h ^ (h >> LS_FILE_BITS)) & (uint64_t)LS_FILE_PART_MAX);
}

/* The index is probed from a file's part: file_find (by canonical path)
** and ls_session_file_by_part walk the same sequence. */
static size_t index_start(int64_t part, size_t cap) {
  return (size_t)part & (cap - 1);
}

ls_file *ls_session_file_by_part(ls_session *s, int64_t part, ls_file **other) {
  size_t mask = s->index_cap - 1, i;
  ls_file *found = NULL;
  *other = NULL;
  if (!s->index_cap) return NULL;
  for (i = index_start(part, s->index_cap); s->index[i]; i = (i + 1) & mask) {
    ls_file *f = s->files[s->index[i] - 1];
    if (f->part != part || !f->shown) continue;
    if (!found) {
      found = f;
    } else {
      *other = f;
      break;
    }
  }
  return found;
}

/* The entry of a canonical path, or NULL: an open-addressing index of
** entry numbers (0: empty slot), so a scan over thousands of files does
** not compare every path with every entry. */
static ls_file *file_find(const ls_session *s, const char *canon) {
  size_t mask = s->index_cap - 1, i;
  if (!s->index_cap) return NULL;
  for (i = index_start(ls_file_part(canon), s->index_cap); s->index[i]; i = (i + 1) & mask) {
    ls_file *f = s->files[s->index[i] - 1];
    if (strcmp(f->canon, canon) == 0) return f;
  }
  return NULL;
}

/* Puts f's id into the first free slot of its probe sequence in index
** (cap slots, a power of two, not full). */
static void index_put(int64_t *index, size_t cap, const ls_file *f) {
  size_t i;
  for (i = index_start(f->part, cap); index[i]; i = (i + 1) & (cap - 1)) {
  }
  index[i] = f->id;
}

/* Puts entry f into the index (growing it to keep it at most half full).
** Returns 0 when out of memory. */
static int index_add(ls_session *s, ls_file *f) {
  if ((size_t)(s->nfiles + 1) * 2 > s->index_cap) {
    size_t cap = s->index_cap ? s->index_cap * 2 : 64;
    int64_t *p = sqlite3_malloc64(sizeof *p * (sqlite3_uint64)cap), k;
    if (!p) return 0;
    memset(p, 0, sizeof *p * cap);
    for (k = 0; k < s->nfiles; k++) index_put(p, cap, s->files[k]);
    sqlite3_free(s->index);
    s->index = p;
    s->index_cap = cap;
  }
  index_put(s->index, s->index_cap, f);
  return 1;
}

/* Finds the entry of a canonical path, or adds one (taking ownership of
** canon either way).  NULL when out of memory. */
static ls_file *file_entry(ls_session *s, char *canon) {
  ls_file *f = file_find(s, canon);
  if (f) {
    sqlite3_free(canon);
    return f;
  }
  if (s->nfiles == s->files_cap) {
    int64_t cap = s->files_cap ? s->files_cap * 2 : 16;
    ls_file **p = sqlite3_realloc64(s->files, sizeof *p * (sqlite3_uint64)cap);
    if (!p) {
      sqlite3_free(canon);
      return NULL;
    }
    s->files = p;
    s->files_cap = cap;
  }
  f = sqlite3_malloc(sizeof *f);
  if (!f) {
    sqlite3_free(canon);
    return NULL;
  }
  memset(f, 0, sizeof *f);
  f->canon = canon;
  f->id = s->nfiles + 1;
  f->part = ls_file_part(canon);
  if (!index_add(s, f)) {
    sqlite3_free(canon);
    sqlite3_free(f);
    return NULL;
  }
  s->files[s->nfiles++] = f;
  return f;
}

static int stat_matches(const ls_file *f, const struct stat *st) {
  return f->dev == st->st_dev && f->ino == st->st_ino && f->size == (int64_t)st->st_size &&
         f->mtime_ns == ls_stat_mtime_ns(st);
}

static void stat_record(ls_file *f, const struct stat *st) {
  f->dev = st->st_dev;
  f->ino = st->st_ino;
  f->size = (int64_t)st->st_size;
  f->mtime_ns = ls_stat_mtime_ns(st);
}

/* The message for a result that could not be read: "<path>: <reason>",
** path as the user spelled it (sqlite3_mprintf'd; NULL when out of
** memory). */
static char *parsed_error(const char *path, const ls_parsed *r) {
  char reason[sizeof r->parse_error.msg + 64];
  ls_parsed_read_reason(r, reason, sizeof reason);
  return sqlite3_mprintf("%s: %s", path, reason);
}

/* Whether a result read ahead may stand for the file as it is now (st, its
** stat just taken) with format fmt (NULL: detected): the bytes read are
** those on disk, as far as the cache itself can tell. */
static int parsed_still_current(const ls_parsed *r, const struct stat *st, const ls_format *fmt) {
  return r->read_failure == LS_READ_OK && r->st.st_dev == st->st_dev && r->st.st_ino == st->st_ino &&
         r->st.st_size == st->st_size && ls_stat_mtime_ns(&r->st) == ls_stat_mtime_ns(st) && (!fmt || r->fmt == fmt);
}

/* Reads and parses the file into *r: the result of `ahead` (the job
** that read it ahead, taken here) when still current against st, else
** here on the connection's thread.  Both the wait for a thread and a
** parse here (a job no thread started included) poll sqlite3_interrupt:
** returns 0 when it stopped them (*r then holds nothing to free), else 1. */
static int file_parse(ls_session *s, ls_file *f, const char *path, const ls_format *fmt, ls_job *ahead,
                      const struct stat *st, ls_parsed *r) {
  ls_interrupt ic;
  codec_cancel cancel;
  int ok = 1;
  ls_interrupt_init(&ic, s->db);
  cancel = ls_interrupt_cancel(&ic);
  if (ahead) {
    if (!ls_pool_take(s->pool, ahead, &s->buffers, &cancel, r)) {
      ok = 0;
    } else if (!r->model && r->parse_error.code == CODEC_E_INTERRUPT) {
      ok = 0; /* the job ran here and was stopped */
    } else if (parsed_still_current(r, st, fmt)) {
      s->parsed_ahead++;
      s->parsed_on_threads += r->on_thread;
    } else {
      ls_parsed_free_model(r);
      ahead = NULL;
    }
  }
  if (ok && !ahead) {
    if (f->loc)
      ls_parse_read(ls_res_read, f->loc, path, fmt, s->formats, s->nformats, s->max_decoded, &s->buffers, &cancel, r);
    else
      ls_parse_file(f->canon, path, fmt, s->formats, s->nformats, s->max_decoded, &s->buffers, &cancel, r);
    if (!r->model && r->parse_error.code == CODEC_E_INTERRUPT) ok = 0;
  }
  ls_interrupt_done(&ic);
  return ok;
}

/* Parses the file's bytes into f->clean (or f->error) for format fmt (NULL:
** detect).  `ahead`: the job that read it ahead (taken here, used when
** still current against st, the stat taken just before; both NULL: none).  The stat
** recorded is that of the bytes parsed.  A file that cannot be read is
** not cached (the next load tries again); one that does not parse is,
** with its error; an interrupted parse leaves nothing (SQLITE_INTERRUPT,
** "interrupted"): the next load parses the file again. */
static int file_reload(ls_session *s, ls_file *f, const char *path, const ls_format *fmt, ls_job *ahead,
                       const struct stat *st, char **err) {
  ls_parsed r;
  drop_clean(s, f);
  if (!file_parse(s, f, path, fmt, ahead, st, &r)) {
    f->size = -1; /* nothing recorded: read again next time */
    *err = sqlite3_mprintf("interrupted");
    return SQLITE_INTERRUPT;
  }
  if (r.read_failure != LS_READ_OK) {
    *err = parsed_error(path, &r);
    return SQLITE_ERROR;
  }
  stat_record(f, &r.st);
  f->fmt = r.fmt;
  if (!r.fmt) {
    f->error = sqlite3_mprintf("not a level file of any known format");
  } else if (!r.model) {
    f->error = sqlite3_mprintf("%s", r.parse_error.msg[0] ? r.parse_error.msg : "cannot parse");
  } else if (!ls_check_decoded(r.fmt, r.model, s->max_decoded, &r.parse_error)) {
    r.fmt->free_model(r.model); /* over levelsql_limit('decoded') (limits.c) */
    f->error = sqlite3_mprintf("%s", r.parse_error.msg);
  } else if (!(f->clean = model_wrap(r.model, r.fmt))) { /* (frees the model) */
    f->error = sqlite3_mprintf("out of memory");
  } else {
    s->cache_bytes += f->clean->footprint;
    lru_push_front(s, f);
    cache_trim(s, f);
  }
  if (f->error) {
    *err = sqlite3_mprintf("%s: %s", path, f->error);
    return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

/* The connection's busy timeout (PRAGMA busy_timeout, set by
** sqlite3_busy_timeout or the pragma): how long a commit waits for a file
** another writer holds.  0 when it cannot be read. */
static int busy_timeout_ms(ls_session *s) {
  sqlite3_stmt *st = NULL;
  int ms = 0;
  if (s->db && sqlite3_prepare_v2(s->db, "PRAGMA busy_timeout", -1, &st, NULL) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    ms = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  return ms < 0 ? 0 : ms;
}

/* Before a file is read: finishes or drops what a writer that died left in
** its folder (commit.c: an interrupted multi-file commit is completed, so
** the files read are all old or all new; orphaned temporary files go).  A
** folder is looked at again only when its modification time changed, or
** when it was modified less than a second before the last look (a change
** in the same clock tick would not show). */
static void recover_folder(ls_session *s, const char *canon) {
  char *dir = ls_dir_of(canon);
  struct stat st;
  struct timespec now;
  int i, clean;
  if (!dir || stat(dir, &st) != 0) {
    sqlite3_free(dir);
    return;
  }
  for (i = 0; i < s->nseen && strcmp(s->seen[i].dir, dir) != 0; i++) {
  }
  if (i < s->nseen && s->seen[i].dev == st.st_dev && s->seen[i].ino == st.st_ino &&
      s->seen[i].mtime_ns == ls_stat_mtime_ns(&st)) {
    sqlite3_free(dir);
    return;
  }
  clock_gettime(CLOCK_REALTIME, &now);
  clean = ls_commit_recover(dir, busy_timeout_ms(s)) &&
          ls_stat_mtime_ns(&st) < (int64_t)now.tv_sec * 1000000000 + now.tv_nsec - 1000000000;
  if (i == s->nseen) {
    if (!clean) {
      sqlite3_free(dir);
      return;
    }
    if (s->nseen == LS_MAX_SEEN_DIRS) seen_dirs_free(s);
    if (s->nseen == s->seen_cap) {
      int cap = s->seen_cap ? s->seen_cap * 2 : 8;
      ls_seen_dir *p = sqlite3_realloc64(s->seen, sizeof *p * (sqlite3_uint64)cap);
      if (!p) {
        sqlite3_free(dir);
        return;
      }
      s->seen = p;
      s->seen_cap = cap;
    }
    s->seen[s->nseen].dir = dir;
    i = s->nseen++;
  } else {
    sqlite3_free(dir);
  }
  s->seen[i].dev = clean ? st.st_dev : 0;
  s->seen[i].ino = clean ? st.st_ino : 0;
  s->seen[i].mtime_ns = clean ? ls_stat_mtime_ns(&st) : -1;
}

/* Records `path` as the spelling the file was last matched by (the `file`
** column).  Returns 0 when out of memory. */
static int file_show_as(ls_file *f, const char *path) {
  char *shown;
  if (f->shown && strcmp(f->shown, path) == 0) return 1;
  if (!(shown = sqlite3_mprintf("%s", path))) return 0;
  sqlite3_free(f->shown);
  f->shown = shown;
  return 1;
}

/* ---- the transaction's view of files ---------------------------------------
**
** Inside a transaction every file keeps the version its first read found
** (a snapshot per file, "first read wins"): the first read pins the file
** (pinned_in = txn_serial), later reads answer from the cache without
** looking at the disk, and COMMIT writes a file only if it is still that
** version on disk (commit.c checks the stat recorded at the pin), like
** SQLite's SQLITE_BUSY_SNAPSHOT in WAL mode.  Pins do not hold models in
** the cache: a pinned model evicted under the memory budget is read again,
** and only the same bytes (same stat) are accepted.
**
** When is a read inside a transaction?  Between xBegin and xCommit or
** xRollback (txn_writing: every write statement, autocommit or not), and
** while an explicit transaction (BEGIN or SAVEPOINT) is open
** (sqlite3_get_autocommit() == 0).  SQLite tells a virtual table nothing of
** a transaction that never writes it, so the end of a read-only explicit
** transaction is seen through tokens: read transactions SQLite keeps open
** until the transaction ends.  At a pin, TEMP's (opened by a SELECT on
** temp.sqlite_master when not open: it changes nothing) and main's when
** it is open already or main is in memory (opening it on a database file
** would lock that file); a later read that finds pins and a token's
** schema without a read transaction knows the pinning transaction is
** over.  What this cannot see: a new transaction whose first levelsql read
** comes in a statement that itself opens every token's schema (it reads
** TEMP, and main too when main had a token), with no levelsql statement
** between the two transactions; that read keeps the old versions (README,
** "Transactions"). */

#define TOKEN_TEMP 1 /* ls_session.tokens: TEMP's read transaction is a token */
#define TOKEN_MAIN 2 /* ... main's */

/* Unpins every file: the transaction that pinned them is over. */
static void txn_end(ls_session *s) {
  s->txn_serial++;
  s->pins = 0;
  s->tokens = 0;
}

/* Whether a token's schema has no transaction open: its transaction ended. */
static int tokens_gone(const ls_session *s) {
  return ((s->tokens & TOKEN_TEMP) && sqlite3_txn_state(s->db, "temp") == SQLITE_TXN_NONE) ||
         ((s->tokens & TOKEN_MAIN) && sqlite3_txn_state(s->db, "main") == SQLITE_TXN_NONE);
}

/* Whether a read now is part of a transaction (1) or of an autocommit
** statement that writes no levelsql table (0: it sees the disk as it is).
** First drops the pins of a transaction that ended unannounced. */
static int txn_reading(ls_session *s) {
  if (s->txn_writing) return 1;
  if (!s->db || sqlite3_get_autocommit(s->db)) {
    if (s->pins) txn_end(s);
    return 0;
  }
  if (s->pins && tokens_gone(s)) txn_end(s);
  return 1;
}

/* Opens a read transaction on schema (SQLITE_OK, or an error code). */
static int read_transaction(ls_session *s, const char *schema) {
  sqlite3_stmt *st = NULL;
  char *sql = sqlite3_mprintf("SELECT 1 FROM %s.sqlite_master LIMIT 0", schema);
  int rc = sql ? sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) : SQLITE_NOMEM;
  if (rc == SQLITE_OK) rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
  sqlite3_finalize(st);
  sqlite3_free(sql);
  if (rc == SQLITE_OK && sqlite3_txn_state(s->db, schema) == SQLITE_TXN_NONE) rc = SQLITE_ERROR;
  return rc;
}

/* Takes the tokens of a read-only explicit transaction (see above) not
** taken yet.  Returns SQLITE_OK, or an error with *err set ("<path>:
** ..."), the file then not pinned: without TEMP's token the end of the
** transaction could not be seen. */
static int txn_tokens(ls_session *s, const char *path, char **err) {
  const char *main_file;
  if (!(s->tokens & TOKEN_TEMP)) {
    if (sqlite3_txn_state(s->db, "temp") == SQLITE_TXN_NONE && read_transaction(s, "temp") != SQLITE_OK) {
      *err = sqlite3_mprintf("%s: cannot keep this transaction's view of the file (a read transaction on the TEMP "
                             "schema could not be opened: %s)",
                             path, sqlite3_errmsg(s->db));
      return SQLITE_ERROR;
    }
    s->tokens |= TOKEN_TEMP;
  }
  if (!(s->tokens & TOKEN_MAIN)) {
    main_file = sqlite3_db_filename(s->db, "main");
    if (sqlite3_txn_state(s->db, "main") != SQLITE_TXN_NONE ||
        (main_file && !*main_file && read_transaction(s, "main") == SQLITE_OK)) {
      s->tokens |= TOKEN_MAIN;
    }
  }
  return SQLITE_OK;
}

/* After a successful read inside a transaction: f keeps this version (its
** recorded stat) for the rest of the transaction. */
static int txn_pin(ls_session *s, ls_file *f, const char *path, char **err) {
  if (f->pinned_in == s->txn_serial) return SQLITE_OK;
  if (!s->txn_writing && txn_tokens(s, path, err) != SQLITE_OK) return SQLITE_ERROR;
  f->pinned_in = s->txn_serial;
  s->pins = 1;
  return SQLITE_OK;
}

/* Whether f's version is pinned by the transaction a read now belongs to
** (call txn_reading first). */
static int txn_pinned(const ls_session *s, const ls_file *f) {
  return s->pins && f->pinned_in == s->txn_serial;
}

/* The message of a pinned file that changed on disk and is no longer in
** the cache: the version the transaction read cannot be given again. */
static char *pinned_gone_error(const char *path) {
  return sqlite3_mprintf("%s: changed on disk since it was read in this transaction, and the cache no longer holds "
                         "the version read (levelsql_cache_limit); end the transaction (ROLLBACK) and read it again",
                         path);
}

/* file_reload for a file whose version is fixed (pinned, or about to be
** written): accepts only the bytes f's recorded stat describes.  When the
** file changed, nothing of the new version is kept (the stat recorded
** stays the old one, which COMMIT checks against) and the load fails with
** `changed` (sqlite3_mprintf'd; freed otherwise). */
static int reload_same(ls_session *s, ls_file *f, const char *path, const ls_format *fmt, ls_job *ahead,
                       const struct stat *st, char *changed, char **err) {
  dev_t dev = f->dev;
  ino_t ino = f->ino;
  int64_t size = f->size, mtime_ns = f->mtime_ns;
  int rc = file_reload(s, f, path, fmt, ahead, st, err);
  if (rc == SQLITE_INTERRUPT || (f->dev == dev && f->ino == ino && f->size == size && f->mtime_ns == mtime_ns)) {
    /* (interrupted: nothing was read, the pinned version stands) */
    f->size = size;
    sqlite3_free(changed);
    return rc;
  }
  drop_clean(s, f);
  f->dev = dev;
  f->ino = ino;
  f->size = size;
  f->mtime_ns = mtime_ns;
  sqlite3_free(*err);
  *err = changed;
  return changed ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* ---- what a path names ---------------------------------------------------------
**
** A path names a file (realpath gives its entry), or a resource of a
** game's archives ("<key>:<RESREF.EXT>", game.h), whose entry is its
** "<realpath of the key>:<RESREF.EXT>", whose identity is the stamp
** game.c makes of the key and the archive, and whose bytes game.c reads;
** a resource the override folder holds is that file. */

/* The session's game cache, made on first use (NULL when out of memory). */
static ls_game *session_game(ls_session *s) {
  if (!s->game) s->game = ls_game_new();
  return s->game;
}

ls_game *ls_session_game(ls_session *s) {
  return session_game(s);
}

/* What path_resolve found. */
typedef struct resolved {
  char *canon;      /* sqlite3_malloc'd: the entry's canonical path */
  int resource;     /* a resource in a game's archives: st and loc hold */
  struct stat st;   /* its identity */
  ls_res_loc *loc;  /* where its bytes lie (want_loc), the caller's to free */
} resolved;

/* Resolves path into *r.  Returns SQLITE_OK, or an error with *err
** "<path>: <why>". */
static int path_resolve(ls_session *s, const char *path, int want_loc, resolved *r, char **err) {
  ls_game_path gp;
  const char *file = path;
  char *real;
  int rc;
  memset(r, 0, sizeof *r);
  memset(&gp, 0, sizeof gp);
  if (strchr(path, ':')) { /* (no resource path lacks one) */
    ls_game *g = session_game(s);
    if (!g) {
      *err = sqlite3_mprintf("out of memory");
      return SQLITE_NOMEM;
    }
    if ((rc = ls_game_resolve(g, path, want_loc, &gp, err)) != SQLITE_OK) return rc;
    if (gp.kind == LS_GAME_ARCHIVE) {
      r->canon = gp.canon;
      r->resource = 1;
      r->st = gp.st;
      r->loc = gp.loc;
      gp.canon = NULL;
      gp.loc = NULL;
      ls_game_path_clear(&gp);
      return SQLITE_OK;
    }
    if (gp.kind == LS_GAME_OVERRIDE) file = gp.file;
  }
  real = realpath(file, NULL);
  if (!real) {
    *err = sqlite3_mprintf("%s: cannot open: %s", path, strerror(errno));
    ls_game_path_clear(&gp);
    return SQLITE_ERROR;
  }
  r->canon = sqlite3_mprintf("%s", real);
  free(real);
  ls_game_path_clear(&gp);
  if (!r->canon) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

/* The stat of f's bytes now (*st): a file's stat after the recovery of
** its folder, a resource's identity as resolved (r).  Returns SQLITE_OK
** or an error with *err. */
static int entry_stat(ls_session *s, ls_file *f, const resolved *r, const char *path, struct stat *st, char **err) {
  if (r->resource) {
    *st = r->st;
    return SQLITE_OK;
  }
  recover_folder(s, f->canon);
  if (stat(f->canon, st) != 0) {
    *err = sqlite3_mprintf("%s: cannot stat: %s", path, strerror(errno));
    return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

char *ls_session_canon(ls_session *s, const char *path) {
  resolved r;
  char *err = NULL, *canon = NULL;
  if (path_resolve(s, path, 0, &r, &err) == SQLITE_OK) {
    canon = malloc(strlen(r.canon) + 1);
    if (canon) strcpy(canon, r.canon);
  }
  sqlite3_free(r.canon);
  sqlite3_free(err);
  return canon;
}

int ls_session_expand(ls_session *s, const char *source, const ls_format *fmt, int nocase, ls_interrupt *ic,
                      ls_pathlist *out, char **err) {
  ls_game_types types;
  ls_source_game game;
  int i, k;
  memset(&types, 0, sizeof types);
  types.format = fmt ? fmt->name : NULL;
  for (i = 0; i < (fmt ? 1 : s->nformats) && types.n < LS_GAME_MAX_TYPES; i++) {
    uint16_t t = ls_format_game_type(fmt ? fmt : s->formats[i]);
    for (k = 0; k < types.n && types.type[k] != t; k++) {
    }
    if (t && k == types.n) types.type[types.n++] = t;
  }
  game.game = session_game(s);
  game.types = &types;
  if (!game.game) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  return ls_source_expand(source, fmt, &game, nocase, ic, out, err);
}

/* The lookup half of a load: resolves path to its entry (*out) and
** answers from the transaction's copy or the cache when it can.  Returns
** SQLITE_OK with *miss 0 when answered, an error, or SQLITE_OK with *miss
** 1 and *st the file's stat when the file must be parsed.  in_txn: the
** read is part of a transaction (txn_reading); a file it pinned is
** answered without looking at the disk, or, evicted from the cache, must
** be parsed again from the same bytes (*miss 1 then, and the disk has that
** stat now).  A resource of a game's archives is looked up in its key and
** archive every time (game.c caches both), its identity standing for the
** stat. */
static int load_lookup(ls_session *s, const char *path, const ls_format *fmt, int in_txn, ls_file **out,
                       struct stat *st, int *miss, char **err) {
  resolved r;
  ls_file *f;
  int pinned, rc;
  *out = NULL;
  *miss = 0;
  s->stats++;
  if ((rc = path_resolve(s, path, 1, &r, err)) != SQLITE_OK) return rc;
  if (!(f = file_entry(s, r.canon))) {
    ls_res_loc_free(r.loc);
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  if (r.resource) { /* its bytes are where the key says now */
    ls_res_loc_free(f->loc);
    f->loc = r.loc;
  }
  *out = f;
  if (!file_show_as(f, path)) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  /* The transaction's own copy wins; a change on disk is caught at COMMIT. */
  if (f->working) return SQLITE_OK;
  pinned = in_txn && txn_pinned(s, f);
  if (!pinned && (rc = entry_stat(s, f, &r, path, st, err)) != SQLITE_OK) return rc;
  if ((pinned || stat_matches(f, st)) && (f->clean || f->error) && (!fmt || f->fmt == fmt)) {
    if (f->error) {
      *err = sqlite3_mprintf("%s: %s", path, f->error);
      return SQLITE_ERROR;
    }
    lru_unlink(s, f);
    lru_push_front(s, f);
    s->hits++;
    return SQLITE_OK;
  }
  if (pinned) {
    /* evicted (or asked for as another format): only the version pinned */
    if ((rc = entry_stat(s, f, &r, path, st, err)) != SQLITE_OK) return rc;
    if (!stat_matches(f, st)) {
      *err = pinned_gone_error(path);
      return SQLITE_ERROR;
    }
  }
  *miss = 1;
  return SQLITE_OK;
}

/* ls_session_load with what a scan passes (ls_ahead, or NULL): the job
** that reads the file ahead is taken by a parse, else cancelled, and
** on_parse runs before a miss parses.  Inside a transaction the file read
** is pinned (a pinned one parsed again must be the same version). */
static int load_with(ls_session *s, const char *path, const ls_format *fmt, const ls_ahead *how, ls_file **out,
                     char **err) {
  ls_job *ahead = how ? how->job : NULL;
  struct stat st;
  int in_txn = txn_reading(s);
  int miss, rc = load_lookup(s, path, fmt, in_txn, out, &st, &miss, err);
  if (rc != SQLITE_OK || !miss) {
    ls_session_cancel_ahead(s, ahead);
  } else {
    s->parses++;
    if (how && how->on_parse) how->on_parse(how->ctx);
    rc = in_txn && txn_pinned(s, *out) ? reload_same(s, *out, path, fmt, ahead, &st, pinned_gone_error(path), err)
                                       : file_reload(s, *out, path, fmt, ahead, &st, err);
  }
  if (rc == SQLITE_OK && in_txn) rc = txn_pin(s, *out, path, err);
  return rc;
}

int ls_session_load(ls_session *s, const char *path, const ls_format *fmt, ls_file **out, char **err) {
  return load_with(s, path, fmt, NULL, out, err);
}

int ls_session_load_again(ls_session *s, ls_file *known, const char *path, const ls_format *fmt,
                          const ls_ahead *ahead, ls_file **out, char **err) {
  if (!known || !(known->working || (known->clean && (!fmt || known->fmt == fmt)))) {
    return load_with(s, path, fmt, ahead, out, err);
  }
  if (ahead) ls_session_cancel_ahead(s, ahead->job);
  *out = known;
  if (!file_show_as(known, path)) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  if (!known->working) {
    lru_unlink(s, known);
    lru_push_front(s, known);
    s->hits++;
  }
  return SQLITE_OK;
}

int ls_session_is_cached(ls_session *s, const char *path, const ls_format *fmt) {
  struct stat st;
  resolved r;
  char *err = NULL;
  ls_file *f;
  s->stats++;
  if (path_resolve(s, path, 0, &r, &err) != SQLITE_OK) {
    sqlite3_free(err);
    return 0;
  }
  f = file_find(s, r.canon);
  sqlite3_free(r.canon);
  if (!f) return 0;
  if (f->working) return 1;
  if (txn_reading(s) && txn_pinned(s, f)) return (f->clean || f->error) && (!fmt || f->fmt == fmt);
  if (r.resource) st = r.st;
  else if (stat(f->canon, &st) != 0) return 0;
  return stat_matches(f, &st) && (f->clean || f->error) && (!fmt || f->fmt == fmt);
}

ls_job *ls_session_parse_ahead(ls_session *s, const char *path, const ls_format *fmt) {
  resolved r;
  char *err = NULL;
  if (!s->pool) return NULL;
  if (!strchr(path, ':')) return ls_pool_submit(s->pool, path, fmt, s->formats, s->nformats, s->max_decoded);
  /* a game's resource: the job reads it from where its archive holds it now */
  if (path_resolve(s, path, 1, &r, &err) != SQLITE_OK) {
    sqlite3_free(err);
    return NULL; /* the load reports it */
  }
  if (!r.resource) { /* a resource the override folder holds: that file */
    ls_job *job = ls_pool_submit(s->pool, r.canon, fmt, s->formats, s->nformats, s->max_decoded);
    sqlite3_free(r.canon);
    return job;
  }
  sqlite3_free(r.canon);
  return ls_pool_submit_read(s->pool, ls_res_read, r.loc, ls_res_loc_free, path, fmt, s->formats, s->nformats,
                             s->max_decoded);
}

void ls_session_cancel_ahead(ls_session *s, ls_job *job) {
  if (job) ls_pool_cancel(s->pool, job);
}

void ls_session_scan_done(ls_session *s) {
  ls_parse_buffers_free(&s->buffers);
}

int ls_session_threads(ls_session *s, int threads, int set) {
  int old = s->pool ? ls_pool_threads(s->pool) : 0;
  if (set && s->pool) ls_pool_set_threads(s->pool, threads);
  return old;
}

ls_model *ls_file_current(ls_file *f) {
  return f->working ? f->working : f->clean;
}

/* ---- staging writes -------------------------------------------------------- */

static int snap_push(ls_file *f, int level, ls_model *m) {
  if (f->nsnaps == f->snaps_cap) {
    int cap = f->snaps_cap ? f->snaps_cap * 2 : 4;
    ls_snap *p = sqlite3_realloc64(f->snaps, sizeof *p * (sqlite3_uint64)cap);
    if (!p) return 0;
    f->snaps = p;
    f->snaps_cap = cap;
  }
  f->snaps[f->nsnaps].level = level;
  f->snaps[f->nsnaps].model = m;
  f->nsnaps++;
  return 1;
}

static ls_model *model_clone(const ls_model *m) {
  void *p = m->fmt->clone(m->p);
  return p ? model_wrap(p, m->fmt) : NULL;
}

/* The innermost open level: the statement level when it is open, else
** SQLite's innermost savepoint (-1: only the transaction). */
static int innermost_level(const ls_session *s) {
  return s->in_statement ? s->level + 1 : s->level;
}

ls_model *ls_session_writable(ls_session *s, ls_file *f, const char *path, char **err) {
  s->generation++;
  int level = innermost_level(s);
  if (!f->working) {
    if (!f->clean) {
      /* Evicted since the scan read it: read again, but only the same bytes. */
      char *changed = sqlite3_mprintf("%s: changed on disk since it was read; nothing was written", path);
      if (reload_same(s, f, path, f->fmt, NULL, NULL, changed, err) != SQLITE_OK) return NULL;
    }
    if (!(f->working = model_clone(f->clean))) {
      *err = sqlite3_mprintf("%s: out of memory copying the level", path);
      return NULL;
    }
    /* The snapshot of a file that was clean is NULL: nothing to copy. */
    if (level >= 0 && !snap_push(f, level, NULL)) {
      ls_model_unref(f->working);
      f->working = NULL;
      *err = sqlite3_mprintf("out of memory");
      return NULL;
    }
  } else if (level >= 0 && (f->nsnaps == 0 || f->snaps[f->nsnaps - 1].level < level)) {
    ls_model *copy = model_clone(f->working);
    if (!copy || !snap_push(f, level, copy)) {
      ls_model_unref(copy);
      *err = sqlite3_mprintf("%s: out of memory saving a savepoint", path);
      return NULL;
    }
  }
  return f->working;
}

/* ---- savepoints ------------------------------------------------------------ */

/* Index of the first snapshot of f taken at `level` or deeper, or nsnaps. */
static int first_snap_from(const ls_file *f, int level) {
  int i = 0;
  while (i < f->nsnaps && f->snaps[i].level < level) i++;
  return i;
}

static void snaps_truncate(ls_file *f, int from) {
  int i;
  for (i = from; i < f->nsnaps; i++) ls_model_unref(f->snaps[i].model);
  if (from < f->nsnaps) f->nsnaps = from;
}

/* Every file back to its state when `level` opened.  Level -1 (or lower)
** is the transaction itself: every file back to what is on disk.  A file
** first written after `level` opened has a snapshot at a deeper level
** (SQLite announces only the savepoints opened after the table joined the
** transaction), and the first snapshot at or after `level` is the state
** then. */
static void restore_level(ls_session *s, int level) {
  int64_t k;
  for (k = 0; k < s->nfiles; k++) {
    ls_file *f = s->files[k];
    int i = level < 0 ? 0 : first_snap_from(f, level);
    if (level < 0) {
      snaps_truncate(f, 0);
      ls_model_unref(f->working);
      f->working = NULL;
    } else if (i < f->nsnaps) {
      ls_model_unref(f->working);
      f->working = f->snaps[i].model; /* NULL: the file was clean then */
      f->snaps[i].model = NULL;
      snaps_truncate(f, i);
    }
  }
}

/* Closes `level` keeping its changes: its snapshots become those of the
** enclosing level (level - 1), unless that one has its own already. */
static void merge_level(ls_session *s, int level) {
  int64_t k;
  for (k = 0; k < s->nfiles; k++) {
    ls_file *f = s->files[k];
    int i = first_snap_from(f, level);
    if (i == f->nsnaps) continue;
    if (level - 1 < 0 || (i > 0 && f->snaps[i - 1].level == level - 1)) {
      snaps_truncate(f, i);
    } else {
      /* Nothing was written while level-1 was innermost before `level`
      ** opened, so the state at `level` is also level-1's. */
      f->snaps[i].level = level - 1;
      snaps_truncate(f, i + 1);
    }
  }
}

void ls_session_statement_begin(ls_session *s) {
  s->in_statement = 1;
}

void ls_session_statement_end(ls_session *s) {
  if (!s->in_statement) return;
  merge_level(s, s->level + 1);
  s->in_statement = 0;
}

void ls_session_statement_undo(ls_session *s) {
  if (!s->in_statement) return;
  restore_level(s, s->level + 1);
  s->in_statement = 0;
}

/* The snapshot pushed at the statement level by its first write to f. */
const ls_model *ls_session_statement_model(const ls_session *s, const ls_file *f) {
  int i;
  if (!s->in_statement) return NULL;
  for (i = 0; i < f->nsnaps; i++) {
    if (f->snaps[i].level == s->level + 1) return f->snaps[i].model ? f->snaps[i].model : f->clean;
  }
  return NULL;
}

/* ---- transactions ------------------------------------------------------- */

/* xBegin: a statement that writes a levelsql table begins (in
** autocommit mode, a transaction of its own: the pins of an earlier one
** go); from now on xCommit or xRollback says when the transaction ends. */
void ls_session_begin(ls_session *s) {
  ls_session_statement_end(s);
  if (!s->txn_writing) {
    txn_reading(s);
    s->txn_writing = 1;
  }
}

void ls_session_savepoint(ls_session *s, int level) {
  ls_session_statement_end(s);
  s->level = level;
}

void ls_session_rollback_to(ls_session *s, int level) {
  ls_session_statement_end(s);
  restore_level(s, level);
  s->level = level < 0 ? -1 : level;
}

void ls_session_release_to(ls_session *s, int level) {
  ls_session_statement_end(s);
  merge_level(s, level);
  s->level = level - 1 < 0 ? -1 : level - 1;
}

static void discard_transaction(ls_session *s) {
  s->in_statement = 0;
  restore_level(s, -1);
  s->level = -1;
  s->committed = 0;
  s->txn_writing = 0;
  txn_end(s);
}

void ls_session_rollback(ls_session *s) {
  discard_transaction(s);
}

void ls_session_commit(ls_session *s) {
  discard_transaction(s); /* what was written is already the clean state */
}

/* ---- write-back ------------------------------------------------------------ */

/* After the rename: the bytes we wrote are the file's clean state. */
static void adopt_written(ls_session *s, ls_file *f, const ls_commit_file *w) {
  codec_error cerr;
  void *p;
  drop_clean(s, f);
  stat_record(f, &w->st);
  cerr.msg[0] = 0;
  p = f->fmt->parse(w->data, w->size, &cerr);
  if (p && (f->clean = model_wrap(p, f->fmt)) != NULL) {
    s->cache_bytes += f->clean->footprint;
    lru_push_front(s, f);
  } else {
    f->size = -1; /* forces a re-read next time */
  }
}

/* Frees the serialized bytes of the first n entries and the array. */
static void commit_files_free(ls_commit_file *w, int n) {
  int i;
  for (i = 0; i < n; i++) free((void *)w[i].data);
  sqlite3_free(w);
}

/* The stat f recorded (the identity of the bytes its model came from). */
static struct stat recorded_stat(const ls_file *f) {
  struct stat st;
  memset(&st, 0, sizeof st);
  st.st_dev = f->dev;
  st.st_ino = f->ino;
  st.st_size = (off_t)f->size;
  st.st_mtim.tv_sec = (time_t)(f->mtime_ns / 1000000000);
  st.st_mtim.tv_nsec = (long)(f->mtime_ns % 1000000000);
  return st;
}

/* The override files ls_game_materialize made for a commit (made[i] for
** file i, NULL for a file), and what to do with them after it. */
typedef struct override_copies {
  char **made;
  struct stat *st;
} override_copies;

/* Before the commit: every edited resource of a game's archives gets its
** override file, holding the archive's bytes of it (game.h), and the
** commit then replaces that file like any other: its target and its
** "unchanged since read" identity become the new file's.  Returns
** SQLITE_OK, or an error with *err (the copies made so far stay in
** *copies, for override_copies_end to remove). */
static int override_copies_make(ls_session *s, ls_file **of, ls_commit_file *w, int n, override_copies *copies,
                                char **err) {
  int i, rc = SQLITE_OK;
  copies->made = sqlite3_malloc64(sizeof *copies->made * (sqlite3_uint64)n);
  copies->st = sqlite3_malloc64(sizeof *copies->st * (sqlite3_uint64)n);
  if (!copies->made || !copies->st) {
    *err = sqlite3_mprintf("out of memory; nothing was written");
    return SQLITE_NOMEM;
  }
  memset(copies->made, 0, sizeof *copies->made * (size_t)n);
  for (i = 0; rc == SQLITE_OK && i < n; i++) {
    struct stat read_st = recorded_stat(of[i]);
    if (!of[i]->loc) continue;
    if (!session_game(s)) {
      *err = sqlite3_mprintf("out of memory; nothing was written");
      return SQLITE_NOMEM;
    }
    rc = ls_game_materialize(s->game, of[i]->canon, &read_st, &copies->made[i], &copies->st[i], err);
    if (rc != SQLITE_OK) break;
    w[i].canon = copies->made[i];
    w[i].dev = copies->st[i].st_dev;
    w[i].ino = copies->st[i].st_ino;
    w[i].read_size = (int64_t)copies->st[i].st_size;
    w[i].read_mtime_ns = ls_stat_mtime_ns(&copies->st[i]);
  }
  return rc;
}

/* After the commit: an override file made for it that the commit did not
** replace (it failed) is removed when it is still the copy made, so a
** failed commit leaves the game as it was; then the list is freed. */
static void override_copies_end(override_copies *copies, const ls_commit_file *w, int n) {
  int i;
  for (i = 0; copies->made && i < n; i++) {
    struct stat now;
    if (!copies->made[i]) continue;
    if (!w[i].replaced && stat(copies->made[i], &now) == 0 && now.st_dev == copies->st[i].st_dev &&
        now.st_ino == copies->st[i].st_ino && now.st_size == copies->st[i].st_size &&
        ls_stat_mtime_ns(&now) == ls_stat_mtime_ns(&copies->st[i])) {
      unlink(copies->made[i]);
    }
    sqlite3_free(copies->made[i]);
  }
  sqlite3_free(copies->made);
  sqlite3_free(copies->st);
}

int ls_session_sync(ls_session *s, char **err) {
  ls_commit_file *w = NULL;
  ls_file **of = NULL;
  override_copies copies = {NULL, NULL};
  int64_t k;
  int n = 0, i, rc = SQLITE_OK;
  if (s->committed) return SQLITE_OK;
  ls_session_statement_end(s);
  for (k = 0; k < s->nfiles; k++) {
    if (s->files[k]->working) n++;
  }
  if (n == 0) {
    s->committed = 1;
    return SQLITE_OK;
  }
  w = sqlite3_malloc64(sizeof *w * (sqlite3_uint64)n);
  of = sqlite3_malloc64(sizeof *of * (sqlite3_uint64)n);
  if (!w || !of) {
    sqlite3_free(w);
    sqlite3_free(of);
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  memset(w, 0, sizeof *w * (size_t)n);
  for (k = 0, i = 0; k < s->nfiles; k++) {
    ls_file *f = s->files[k];
    if (!f->working) continue;
    of[i] = f;
    w[i].canon = f->canon;
    w[i].dev = f->dev;
    w[i].ino = f->ino;
    w[i].read_size = f->size;
    w[i].read_mtime_ns = f->mtime_ns;
    i++;
  }
  /* Serialize everything before touching the disk. */
  for (i = 0; rc == SQLITE_OK && i < n; i++) {
    codec_error cerr;
    unsigned char *data = NULL;
    cerr.msg[0] = 0;
    if (!of[i]->fmt->serialize(of[i]->working->p, &data, &w[i].size, &cerr)) {
      *err = sqlite3_mprintf("%s: cannot save: %s; nothing was written", of[i]->canon, cerr.msg);
      rc = SQLITE_ERROR;
    }
    w[i].data = data;
  }
  /* Edits of a game's resources go to its override folder. */
  if (rc == SQLITE_OK) rc = override_copies_make(s, of, w, n, &copies, err);
  /* Lock, check, write, replace (commit.c). */
  if (rc == SQLITE_OK) {
    rc = ls_commit(w, n, busy_timeout_ms(s), s->overwrite_readonly ? LS_COMMIT_OVERWRITE_READONLY : 0, err);
  }
  for (i = 0; i < n; i++) {
    if (!w[i].replaced) continue;
    s->writes++;
    if (of[i]->loc) { /* the resource is the override file now, another entry: this one is read no more */
      drop_clean(s, of[i]);
      of[i]->size = -1;
    } else {
      adopt_written(s, of[i], &w[i]);
    }
  }
  override_copies_end(&copies, w, n);
  commit_files_free(w, n);
  sqlite3_free(of);
  if (rc != SQLITE_OK) return rc;
  s->committed = 1;
  cache_trim(s, NULL);
  return SQLITE_OK;
}
