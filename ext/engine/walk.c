/*
** walk.c: the file walk behind every read of level files: a scan's files
** one after another (vtab.c), or the one file a render function or
** levelsql_copy reads.
**
** A walk lists its source (once per statement: the statement memo below),
** loads each file through the session's cache, parses the next files ahead
** on the session's threads once it meets one that is not cached, and
** validates or skips a file as the caller's on_error says.  Its caller asks
** for the next file (ls_walk_next) and reads the model it gets; it never
** calls the session's loading internals itself (engine.h, "the file walk").
*/
#include <stdlib.h>
#include <string.h>

#include "engine/session.h"
#include "engine/source.h"

/* A path of the memo's expansion by its file part (memo_path_of_part). */
typedef struct ls_path_part {
  int64_t part;
  int index; /* in ls_memo.paths */
} ls_path_part;

/* A file this walk loaded during its statement, by the path it came as. */
typedef struct ls_seen_file {
  char *path;
  ls_file *file;
} ls_seen_file;

/* What a walker already found out during its statement, so that a join's
** inner scan, filtered again for every outer row, neither lists its source
** nor looks its files up on disk each time: the last source it expanded
** (with the options it was expanded under) and the files it loaded.  A
** walker lives for one run of one statement (a cursor: SQLite opens it
** when the statement starts and closes it at reset), so the next statement
** lists and checks everything again and sees the disk as it is then. */
typedef struct ls_memo {
  int expanded;        /* `paths` holds the expansion of source/options */
  char *source, *options;
  ls_pathlist paths;
  int sorted;          /* paths are in strcmp order: binary search */
  ls_path_part *by_part; /* paths' file parts in increasing order (the first rowid lookup makes it), or NULL */
  int nby_part;
  ls_seen_file *seen;  /* sorted by path */
  int nseen, seen_cap;
  ls_part_map parts;   /* the files its walks entered in the statement, by file part: two with one part are refused */
} ls_memo;

struct ls_walk {
  ls_session *sess;
  int scan;              /* ls_walk_new's scan: freeing gives back the connection's parse buffers */
  ls_memo memo;
  ls_walk_spec spec;     /* of the walk in progress (its strings are the caller's) */
  ls_pathlist paths;     /* the files this walk visits */
  int next_path;         /* index of the next one to enter */
  ls_walk_file at;       /* the file entered last (at.path: NULL before the first) */
  ls_model *held;        /* at's model, referenced until the walk moves on */
  char *error;           /* on_error=LS_WALK_SHOW: the current file's error message */
  /* Parsing ahead (parse_ahead.h): once the walk meets a file that is not
  ** cached, the next files are parsed on the session's threads. */
  int ahead_on;
  struct ls_job **ahead; /* by path index: the job reading that file, or NULL */
  int ahead_next;        /* the first path index not yet considered */
};

/* ---- files by rowid file part (ls_part_map) ---------------------------------- */

ls_part_slot *ls_part_map_get(const ls_part_map *m, int64_t part) {
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

/* Puts file f under its part (engine.h). */
int ls_part_map_put(ls_part_map *m, ls_file *f, ls_file **previous) {
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

void ls_part_map_clear(ls_part_map *m) {
  sqlite3_free(m->slots);
  memset(m, 0, sizeof *m);
}

char *ls_collision_message(const char *a, const char *b, int64_t part) {
  return sqlite3_mprintf("rowid collision: %s and %s have the same rowid file part (%lld), so their rows cannot "
                         "be told apart by rowid; use them in separate statements",
                         a, b, (long long)part);
}

/* ---- the statement memo (ls_memo) ------------------------------------------ */

static int text_equal(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* Forgets the memo's expansion (a walk of another source comes). */
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

/* Frees everything the memo holds (the walker is closing). */
static void memo_free(ls_memo *m) {
  int i;
  memo_forget_source(m);
  for (i = 0; i < m->nseen; i++) sqlite3_free(m->seen[i].path);
  sqlite3_free(m->seen);
  ls_part_map_clear(&m->parts);
  memset(m, 0, sizeof *m);
}

/* The files spec's source names under its options (the text; nocase is
** what it says): listed at the walker's first walk of that source in the
** statement, then taken from the memo.  *out belongs to the memo.  The
** listing stops when the statement is interrupted. */
static int memo_expand(ls_walk *w, const ls_pathlist **out, char **err) {
  ls_memo *m = &w->memo;
  const ls_walk_spec *spec = &w->spec;
  ls_interrupt ic;
  int i, rc;
  if (!m->expanded || !text_equal(m->source, spec->source) || !text_equal(m->options, spec->options)) {
    memo_forget_source(m);
    m->source = sqlite3_mprintf("%s", spec->source);
    m->options = spec->options ? sqlite3_mprintf("%s", spec->options) : NULL;
    if (!m->source || (spec->options && !m->options)) {
      *err = sqlite3_mprintf("out of memory");
      return SQLITE_NOMEM;
    }
    w->sess->expansions++;
    ls_interrupt_init(&ic, w->sess->db);
    rc = ls_session_expand(w->sess, spec->source, spec->format, spec->nocase, &ic, &m->paths, err);
    ls_interrupt_done(&ic);
    if (rc != SQLITE_OK) return rc;
    m->sorted = 1;
    for (i = 1; i < m->paths.n && m->sorted; i++) m->sorted = strcmp(m->paths.paths[i - 1], m->paths.paths[i]) < 0;
    m->expanded = 1;
  }
  *out = &m->paths;
  return SQLITE_OK;
}

/* Copies into *out (empty on entry) the paths a walk visits: all of
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
** memo_index_parts sorts them. */
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

/* The file part of path (its canonical path, then ls_file_part) and its
** canonical path (*canon, malloc'd; NULL with part -1 when the path
** resolves to nothing: no rowid names it).  A game's resource has the
** canonical path of its entry (ls_session_canon). */
static int64_t path_part(ls_session *s, const char *path, char **canon) {
  *canon = ls_session_canon(s, path);
  return *canon ? ls_file_part(*canon) : -1;
}

/* Makes m->by_part: the file part of every path of the memo's expansion,
** in increasing order (a realpath per file, once per statement).  Two
** paths of different files with one part fail with the collision error
** naming both; two paths of one file (a link) keep the first in path
** order. */
static int memo_index_parts(ls_session *s, ls_memo *m, char **err) {
  ls_part_entry *e = sqlite3_malloc64(sizeof *e * (sqlite3_uint64)(m->paths.n + 1));
  int i, n = 0, rc = SQLITE_OK;
  if (!e) return SQLITE_NOMEM;
  for (i = 0; i < m->paths.n; i++) {
    e[n].index = i;
    e[n].part = path_part(s, m->paths.paths[i], &e[n].canon);
    if (e[n].canon) n++;
  }
  qsort(e, (size_t)n, sizeof *e, part_entry_cmp);
  if (!(m->by_part = sqlite3_malloc64(sizeof *m->by_part * (sqlite3_uint64)(n + 1)))) rc = SQLITE_NOMEM;
  m->nby_part = 0;
  for (i = 0; i < n && rc == SQLITE_OK; i++) {
    if (m->nby_part && m->by_part[m->nby_part - 1].part == e[i].part) {
      if (strcmp(e[i - 1].canon, e[i].canon) != 0) { /* e[i - 1]: the same part, the last kept */
        *err = ls_collision_message(m->paths.paths[e[i - 1].index], m->paths.paths[e[i].index], e[i].part);
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
static int memo_path_of_part(ls_session *s, ls_memo *m, int64_t part, const char **path, char **err) {
  int lo = 0, hi, rc;
  *path = NULL;
  if (!m->by_part && (rc = memo_index_parts(s, m, err)) != SQLITE_OK) return rc;
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

/* Remembers that path was loaded as entry f, at memo index `at` (from
** memo_find).  Remembering is only an optimisation: out of memory here
** changes nothing. */
static void memo_remember(ls_memo *m, int at, const char *path, ls_file *f) {
  char *copy;
  if (m->nseen == m->seen_cap) {
    int cap = m->seen_cap ? m->seen_cap * 2 : 16;
    ls_seen_file *p = sqlite3_realloc64(m->seen, sizeof *p * (sqlite3_uint64)cap);
    if (!p) return;
    m->seen = p;
    m->seen_cap = cap;
  }
  if (!(copy = sqlite3_mprintf("%s", path))) return;
  memmove(&m->seen[at + 1], &m->seen[at], sizeof *m->seen * (size_t)(m->nseen - at));
  m->seen[at].path = copy;
  m->seen[at].file = f;
  m->nseen++;
}

/* ---- parsing ahead ------------------------------------------------------------ */

/* Whether loading path would parse it: neither loaded earlier in the
** statement nor cached. */
static int walk_would_parse(ls_walk *w, const char *path) {
  int at;
  return !memo_find(&w->memo, path, &at) && !ls_session_is_cached(w->sess, path, w->spec.format);
}

/* Starts parsing the files that follow the one being entered
** (next_path) and would need parsing, up to two per thread ahead, so that
** a thread that finishes one finds the next queued. */
static void ahead_fill(ls_walk *w) {
  int threads = ls_session_threads(w->sess, 0, 0);
  int64_t last = (int64_t)w->next_path + 2 * (int64_t)threads;
  if (!threads) return;
  if (!w->ahead) {
    if (!(w->ahead = sqlite3_malloc64(sizeof *w->ahead * (sqlite3_uint64)w->paths.n))) return;
    memset(w->ahead, 0, sizeof *w->ahead * (size_t)w->paths.n);
  }
  if (w->ahead_next <= w->next_path) w->ahead_next = w->next_path + 1;
  for (; w->ahead_next < w->paths.n && w->ahead_next <= last; w->ahead_next++) {
    const char *path = w->paths.paths[w->ahead_next];
    if (walk_would_parse(w, path)) w->ahead[w->ahead_next] = ls_session_parse_ahead(w->sess, path, w->spec.format);
  }
}

/* ls_ahead.on_parse of a walk: the load of the file being entered is
** about to parse it, so the files after it are likely not cached either. */
static void ahead_start(void *ctx) {
  ls_walk *w = ctx;
  w->ahead_on = 1;
  ahead_fill(w);
}

/* Gives up the jobs still reading files ahead of the walk. */
static void ahead_cancel(ls_walk *w) {
  int i;
  for (i = 0; w->ahead && i < w->ahead_next && i < w->paths.n; i++) ls_session_cancel_ahead(w->sess, w->ahead[i]);
  sqlite3_free(w->ahead);
  w->ahead = NULL;
  w->ahead_next = 0;
  w->ahead_on = 0;
}

/* ---- entering a file ------------------------------------------------------------ */

/* Loads paths[next_path], with the job that parsed it ahead if any: the
** first time in the statement through the session's load, later from the
** entry found then (ls_session_load_again).  Parsing ahead starts when the
** walk meets a file it has to parse, before that file is parsed, and then
** keeps going. */
static int walk_load(ls_walk *w, ls_file **out, char **err) {
  const char *path = w->paths.paths[w->next_path];
  ls_ahead ahead = {NULL, NULL, w};
  ls_memo *m = &w->memo;
  int at, found = memo_find(m, path, &at), rc;
  if (w->ahead && w->next_path < w->ahead_next) {
    ahead.job = w->ahead[w->next_path];
    w->ahead[w->next_path] = NULL;
  }
  if (w->ahead_on) ahead_fill(w);
  else if (w->next_path + 1 < w->paths.n && ls_session_threads(w->sess, 0, 0)) ahead.on_parse = ahead_start;
  rc = ls_session_load_again(w->sess, found ? m->seen[at].file : NULL, path, w->spec.format, &ahead, out, err);
  if (rc != SQLITE_OK) return rc;
  if (found) m->seen[at].file = *out;
  else memo_remember(m, at, path, *out);
  return SQLITE_OK;
}

/* Notes file f under its rowid file part (spec.parts given: tables of
** many rows per file): in the statement's memo, where another file with
** the same part fails the walk (its rows and f's could not be told apart
** by rowid), and in the caller's map, where a collision is kept for the
** caller to refuse. */
static int walk_note_part(ls_walk *w, ls_file *f, char **err) {
  ls_file *previous;
  if (!w->spec.parts) return SQLITE_OK;
  if (ls_part_map_put(&w->memo.parts, f, &previous) != SQLITE_OK) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  if (previous) {
    *err = ls_collision_message(previous->shown, f->shown, f->part);
    return SQLITE_ERROR;
  }
  if (ls_part_map_put(w->spec.parts, f, &previous) != SQLITE_OK) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

/* Runs the format's validate hook on the entered file's model (on_error
** skip or show), which decodes what the tables decode lazily, so
** "readable" means readable by every table of the format.  Returns
** SQLITE_OK, SQLITE_INTERRUPT (*err NULL), or an error with
** *err = "<path>: <why>". */
static int walk_validate(ls_walk *w, char **err) {
  codec_error cerr;
  ls_interrupt ic;
  codec_cancel cancel;
  int ok;
  if (w->spec.on_error == LS_WALK_FAIL || !w->held || !w->held->fmt->validate) return SQLITE_OK;
  cerr.msg[0] = 0;
  ls_interrupt_init(&ic, w->sess->db);
  cancel = ls_interrupt_cancel(&ic);
  ok = w->held->fmt->validate(w->held->p, &cancel, &cerr);
  ls_interrupt_done(&ic);
  if (ok) return SQLITE_OK;
  if (cerr.code == CODEC_E_INTERRUPT) return SQLITE_INTERRUPT;
  *err = sqlite3_mprintf("%s: %s", w->at.path, cerr.msg[0] ? cerr.msg : "cannot be read");
  return *err ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* Leaves the entered file: the walk may have decoded parts of a cached
** model (Teeworlds layers), so the cache counts its bytes again. */
static void walk_leave_file(ls_walk *w) {
  ls_file *f = w->at.entry;
  if (w->held) {
    if (f && w->held == f->clean) ls_session_remeasure(w->sess, f);
    ls_model_unref(w->held);
    w->held = NULL;
  }
  sqlite3_free(w->error);
  w->error = NULL;
  memset(&w->at, 0, sizeof w->at);
}

/* Enters paths[next_path] as w->at: loads it, notes its part, validates
** it (on_error skip or show).  A file that cannot be read fails the walk
** (on_error fail), is passed over (*skipped 1: skip; never for a rowid
** collision, an interrupt or out of memory), or is entered with its error
** (show: at.info.error, without the leading "<path>: "). */
static int walk_enter(ls_walk *w, int *skipped, char **err) {
  const char *path = w->paths.paths[w->next_path];
  ls_file *f = NULL;
  int rc = walk_load(w, &f, err);
  *skipped = 0;
  if (rc == SQLITE_OK && (rc = walk_note_part(w, f, err)) != SQLITE_OK) return rc; /* never skipped: the rows would mix */
  w->at.path = w->at.info.path = path;
  w->at.path_is_blob = !ls_utf8_valid(path, strlen(path));
  w->at.entry = f;
  w->at.info.size = -1;
  if (f) {
    w->at.info.format = f->fmt ? f->fmt->name : NULL;
    if (f->size >= 0 && (f->clean || f->error || f->working)) w->at.info.size = f->size;
    if ((w->held = ls_file_current(f)) != NULL) ls_model_ref(w->held);
  }
  if (w->held) {
    w->at.model = w->held->p;
    w->at.fmt = w->held->fmt;
  }
  if (rc == SQLITE_OK) rc = walk_validate(w, err);
  if (rc == SQLITE_OK || rc == SQLITE_INTERRUPT) return rc; /* an interrupt is not a file's error: the statement stops */
  if (w->spec.on_error == LS_WALK_SKIP && rc != SQLITE_NOMEM) {
    sqlite3_free(*err);
    *err = NULL;
    *skipped = 1;
    return SQLITE_OK;
  }
  if (w->spec.on_error != LS_WALK_SHOW) return rc;
  w->error = *err;
  *err = NULL;
  w->at.info.error = w->error && strncmp(w->error, path, strlen(path)) == 0 && w->error[strlen(path)] == ':'
                         ? w->error + strlen(path) + 2
                         : w->error;
  return SQLITE_OK;
}

/* ---- the API (engine.h, "the file walk") ------------------------------------------ */

ls_walk *ls_walk_new(ls_session *s, int scan) {
  ls_walk *w = sqlite3_malloc(sizeof *w);
  if (!w) return NULL;
  memset(w, 0, sizeof *w);
  w->sess = s;
  w->scan = scan;
  return w;
}

/* The single path of a rowid walk (spec.by_part): the file whose file
** part is spec.part among the files the walk may name: its source's
** (spec.only: and only that one of them), else spec.only, else those this
** connection has loaded (a part two of them share is refused).  A part of
** no such file leaves the walk empty. */
static int walk_open_part(ls_walk *w, char **err) {
  const ls_walk_spec *spec = &w->spec;
  const ls_pathlist *all;
  const char *path = NULL;
  char *canon = NULL;
  int rc;
  if (spec->source) {
    if ((rc = memo_expand(w, &all, err)) != SQLITE_OK || (rc = memo_path_of_part(w->sess, &w->memo, spec->part, &path, err)) != SQLITE_OK) {
      return rc;
    }
    if (path && spec->only && !ls_path_spelling_equal(spec->only, path)) path = NULL;
  } else if (spec->only) {
    if (path_part(w->sess, spec->only, &canon) == spec->part) path = spec->only;
    free(canon);
  } else {
    ls_file *other, *f = ls_session_file_by_part(w->sess, spec->part, &other);
    if (other) {
      *err = ls_collision_message(f->shown, other->shown, spec->part);
      return SQLITE_ERROR;
    }
    if (f) path = f->shown;
  }
  /* a copy: loading may change what path points to (f->shown) */
  if (path && paths_select(NULL, 0, path, &w->paths) != SQLITE_OK) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

int ls_walk_open(ls_walk *w, const ls_walk_spec *spec, char **err) {
  const ls_pathlist *all = NULL;
  int rc;
  ls_walk_close(w);
  w->spec = *spec;
  if (spec->by_part) return walk_open_part(w, err);
  if (spec->source && (rc = memo_expand(w, &all, err)) != SQLITE_OK) return rc;
  if (paths_select(all, w->memo.sorted, spec->only, &w->paths) != SQLITE_OK) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

int ls_walk_next(ls_walk *w, const ls_walk_file **out, char **err) {
  int skipped, rc;
  *out = NULL;
  *err = NULL;
  for (;;) {
    walk_leave_file(w);
    if (w->next_path >= w->paths.n) return SQLITE_DONE;
    rc = walk_enter(w, &skipped, err);
    w->next_path++;
    if (rc != SQLITE_OK) return rc;
    if (!skipped) {
      *out = &w->at;
      return SQLITE_ROW;
    }
  }
}

void ls_walk_close(ls_walk *w) {
  walk_leave_file(w);
  ahead_cancel(w);
  ls_pathlist_free(&w->paths);
  w->next_path = 0;
}

void ls_walk_free(ls_walk *w) {
  if (!w) return;
  ls_walk_close(w);
  if (w->scan) ls_session_scan_done(w->sess);
  memo_free(&w->memo);
  sqlite3_free(w);
}
