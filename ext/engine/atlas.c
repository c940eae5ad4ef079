/*
** atlas.c: levelsql_atlas(source, folder [, options]) (atlas.h): lists
** the source, compares it with the folder's manifest, draws what changed
** on a pool of threads, and writes the index and the manifest.
**
** A run, on the connection's thread:
**  1. the folder: made when missing (its parent must exist); one holding
**     files but no manifest.json is refused; img/ and levels/ inside must
**     be folders of their own (not links), made when missing;
**  2. the old manifest, when there is one and it was made by this version
**     with the same options: a level whose file and dependencies (the
**     files beside it its preview read) have the sizes and modification
**     times recorded, and whose files are all still there, is kept as it
**     is, unread;
**  3. every other listed file is a job: the threads (levelsql_threads of
**     them; none: the connection's thread does the jobs) take jobs in
**     order, each reading, parsing, validating (under levelsql_limit
**     ('decoded')), counting the rows of the format's tables, drawing with
**     the format's ls_atlas_kind and writing the pictures and the page of
**     its file.  Threads touch no connection and no session: they read
**     files and the registered formats and tables, which do not change;
**  4. the connection's thread waits, looking at sqlite3_interrupt every
**     10 ms: an interrupt tells the jobs to stop (a draw polls it) and
**     the call fails with SQLITE_INTERRUPT, after the manifest and index
**     are written with what was done, so the next run goes on from there;
**  5. index.html and manifest.json are written, and the files of img/ and
**     levels/ named like ours (<16 hex digits>...) that no level has now
**     are removed.
** The result is JSON: levels, unreadable and other files, how many were
** drawn and kept, files removed, threads and seconds.
*/
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include "common/sha256.h"
#include "engine/atlas.h"
#include "engine/commit.h" /* ls_stat_mtime_ns; win_port.h */
#include "engine/game.h"
#include "engine/parse_ahead.h"
#include "engine/session.h"
#include "engine/source.h"

/* Bumped whenever what the atlas writes changes: a manifest of another
** version is not trusted, every level is drawn again. */
#define ATLAS_VERSION 1
#define MANIFEST "manifest.json"

/* ---- names and files --------------------------------------------------------- */

void atlas_picture_name(const char *id, int k, int svg, char *out, size_t n) {
  if (k < 0) snprintf(out, n, "img/%s-t.png", id);
  else snprintf(out, n, "img/%s-%d.%s", id, k, svg ? "svg" : "png");
}

/* "<folder>/<name>" (malloc'd), NULL when out of memory. */
static char *join(const char *folder, const char *name) {
  size_t a = strlen(folder), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (!p) return NULL;
  memcpy(p, folder, a);
  p[a] = '/';
  memcpy(p + a + 1, name, b + 1);
  return p;
}

int atlas_write_file(const char *folder, const char *name, const void *data, size_t n, codec_error *err) {
  char *path = join(folder, name), *tmp = NULL;
  size_t done = 0;
  int fd = -1, ok = 0;
  if (!path || !(tmp = malloc(strlen(path) + 5))) goto oom;
  sprintf(tmp, "%s.tmp", path);
  unlink(tmp); /* a left-over (or a link someone put there) is replaced, never followed */
  fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    codec_fail(err, "%s: cannot create: %s", tmp, strerror(errno));
    goto done;
  }
  while (done < n) {
    ssize_t w = write(fd, (const unsigned char *)data + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      codec_fail(err, "%s: cannot write: %s", tmp, strerror(errno));
      goto done;
    }
    done += (size_t)w;
  }
  if (close(fd) != 0) {
    fd = -1;
    codec_fail(err, "%s: cannot write: %s", tmp, strerror(errno));
    goto done;
  }
  fd = -1;
  if (rename(tmp, path) != 0) codec_fail(err, "%s: cannot rename to %s: %s", tmp, name, strerror(errno));
  else ok = 1;
done:
  if (fd >= 0) close(fd);
  if (!ok && tmp) unlink(tmp);
  free(path);
  free(tmp);
  return ok;
oom:
  free(path);
  return codec_fail_oom(err, "out of memory");
}

/* size and modification time of path (size -1: absent). */
static void stat_pair(const char *path, int64_t *size, int64_t *mtime_ns) {
  struct stat st;
  if (stat(path, &st) == 0) *size = (int64_t)st.st_size, *mtime_ns = ls_stat_mtime_ns(&st);
  else *size = -1, *mtime_ns = 0;
}

/* The level's id: the first 16 hex digits of the SHA-256 of its path. */
static void level_id(const char *path, char id[ATLAS_ID_LEN + 1]) {
  unsigned char digest[32];
  char hex[65];
  sha256(path, strlen(path), digest);
  sha256_hex(digest, hex);
  memcpy(id, hex, ATLAS_ID_LEN);
  id[ATLAS_ID_LEN] = 0;
}

/* Whether name is one the atlas writes into img/ (levels 0) or levels/
** (levels 1): <id>-t.png, <id>-<k>.png, <id>-<k>.svg, <id>.html. */
static int our_name(const char *name, int levels) {
  size_t i;
  const char *rest = name + ATLAS_ID_LEN;
  for (i = 0; i < ATLAS_ID_LEN; i++) {
    if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f'))) return 0;
  }
  if (levels) return strcmp(rest, ".html") == 0;
  if (*rest++ != '-') return 0;
  if (strcmp(rest, "t.png") == 0) return 1;
  for (i = 0; rest[i] >= '0' && rest[i] <= '9'; i++) {
  }
  return i > 0 && i <= 4 && (strcmp(rest + i, ".png") == 0 || strcmp(rest + i, ".svg") == 0);
}

void atlas_entry_clear(atlas_entry *e) {
  size_t i;
  free(e->path);
  free(e->format);
  free(e->error);
  free(e->note);
  for (i = 0; i < e->nnumbers; i++) {
    free(e->numbers[i].list);
    free(e->numbers[i].name);
  }
  free(e->numbers);
  for (i = 0; i < e->ndeps; i++) free(e->deps[i].path);
  free(e->deps);
  for (i = 0; i < e->nfiles; i++) free(e->files[i]);
  free(e->files);
  memset(e, 0, sizeof *e);
}

/* Adds a file written for the entry; 1, or 0 when out of memory. */
static int entry_file(atlas_entry *e, const char *name) {
  char **files = realloc(e->files, (e->nfiles + 1) * sizeof *files);
  if (!files) return 0;
  e->files = files;
  if (!(files[e->nfiles] = strdup(name))) return 0;
  e->nfiles++;
  return 1;
}

/* ---- one run --------------------------------------------------------------------- */

/* A file to read and draw. */
typedef struct atlas_job {
  const char *path;        /* as listed (the run's list owns it) */
  char *open_path;         /* the file to read: the path, or a game resource's override file */
  ls_res_loc *loc;         /* a resource in a game's archives (open_path NULL) */
  atlas_entry entry;       /* what came of it */
  int done;                /* job_run ran it */
  int interrupted;         /* stopped before it was done: nothing recorded */
} atlas_job;

typedef struct atlas_kinds {
  ls_session *sess;
  const ls_atlas_kind *const *kinds;
  size_t n;
} atlas_kinds;

typedef struct atlas_run {
  const atlas_kinds *reg;
  ls_session *sess;          /* read only on the threads: formats and tables */
  ls_atlas_opts opts;
  const char *folder;
  const char *title;
  atlas_job *jobs;
  size_t njobs;
  pthread_mutex_t lock;
  pthread_cond_t finished_cond; /* a job finished */
  size_t next, finished;        /* under lock */
  atomic_int stop;              /* interrupted: the jobs stop */
  ls_interrupt *ic;             /* the connection's, for jobs run on its thread; NULL on the pool's */
} atlas_run;

/* The kind of format fmt, or NULL. */
static const ls_atlas_kind *kind_of(const atlas_kinds *reg, const ls_format *fmt) {
  size_t i;
  for (i = 0; fmt && i < reg->n; i++)
    if (reg->kinds[i]->format == fmt) return reg->kinds[i];
  return NULL;
}

static const ls_atlas_kind *kind_named(const atlas_kinds *reg, const char *name) {
  size_t i;
  for (i = 0; name && i < reg->n; i++)
    if (strcmp(reg->kinds[i]->format->name, name) == 0) return reg->kinds[i];
  return NULL;
}

/* What a job's codecs poll: the run was stopped (or, on the connection's
** thread, the statement was interrupted, which stops the run). */
typedef struct job_cancel {
  atlas_run *run;
  ls_interrupt *ic;
} job_cancel;

static int job_cancelled(void *ctx) {
  job_cancel *jc = ctx;
  if (atomic_load(&jc->run->stop)) return 1;
  if (jc->ic && ls_interrupt_check(jc->ic)) {
    atomic_store(&jc->run->stop, 1);
    return 1;
  }
  return 0;
}

/* The rows table t has in model: from its shape where that says (a
** grid's cells are width x height, nothing is visited), else by walking
** them with its iterator.  -1 when the walk fails. */
static int64_t table_rows(const ls_table *t, const void *model) {
  const ls_shape *sh = &t->shape;
  int64_t rows = 0, e, n;
  if (!t->next && sh->kind != LS_SHAPE_CUSTOM) {
    if (sh->kind == LS_SHAPE_ONE) return 1;
    n = sh->count(model);
    for (e = 0; e < n; e++) {
      if (sh->has && !sh->has(model, e, NULL)) continue;
      if (sh->kind == LS_SHAPE_ARRAY) rows++;
      else if (sh->kind == LS_SHAPE_NESTED) rows += sh->inner(model, e);
      else rows += sh->inner(model, e) * sh->height(model, e);
    }
    return rows;
  }
  {
    ls_range *ranges = malloc(((size_t)t->ncolumns + 1) * sizeof *ranges);
    ls_scan scan;
    ls_pos pos;
    char *error = NULL;
    int i, more;
    if (!ranges) return -1;
    for (i = 0; i < t->ncolumns; i++) ranges[i].lo = INT64_MIN, ranges[i].hi = INT64_MAX;
    memset(&scan, 0, sizeof scan);
    scan.range = ranges;
    scan.cols_used = ~(uint64_t)0;
    scan.error = &error;
    ls_scan_bind_positions(t, &scan);
    memset(&pos, 0, sizeof pos);
    for (more = ls_table_next(t, model, &scan, &pos, 1); more; more = ls_table_next(t, model, &scan, &pos, 0)) rows++;
    free(ranges);
    if (error) {
      sqlite3_free(error);
      return -1;
    }
    return rows;
  }
}

/* The row counts of the format's tables (malloc'd into *out). */
static int count_tables(const atlas_run *run, const ls_format *fmt, void *model, atlas_count **out, size_t *n) {
  int i;
  *n = 0;
  if (!(*out = malloc(((size_t)run->sess->ntables + 1) * sizeof **out))) return 0;
  for (i = 0; i < run->sess->ntables; i++) {
    const ls_table *t = run->sess->tables[i];
    if (t->format != fmt) continue;
    (*out)[*n].table = t->name;
    (*out)[(*n)++].rows = table_rows(t, model);
  }
  return 1;
}

/* Sets the entry's error (malloc'd copy of the message). */
static void entry_error(atlas_entry *e, const char *what, const char *msg) {
  size_t n = strlen(what) + strlen(msg) + 1;
  free(e->error);
  if ((e->error = malloc(n))) snprintf(e->error, n, "%s%s", what, msg);
}

/* A number with where it goes: its list's first appearance (card numbers:
** 0) and its place among the numbers as drawn. */
typedef struct ranked_number {
  ls_atlas_number num;
  size_t list_rank, order;
} ranked_number;

/* Card numbers first, as drawn; then each list, in the order the lists
** first appear, its lines by value, largest first (ties in drawn order). */
static int compare_ranked(const void *a, const void *b) {
  const ranked_number *x = a, *y = b;
  if (x->list_rank != y->list_rank) return x->list_rank < y->list_rank ? -1 : 1;
  if (x->list_rank && x->num.value != y->num.value) return x->num.value > y->num.value ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

/* Puts the numbers in the order the card and page show them
** (compare_ranked): the most objects of a logic first.  1, or 0 when out
** of memory (the order kept). */
static int sort_numbers(ls_atlas_number *nums, size_t n) {
  ranked_number *r = n ? malloc(n * sizeof *r) : NULL;
  size_t i, k, lists = 0;
  if (n && !r) return 0;
  for (i = 0; i < n; i++) {
    r[i].num = nums[i], r[i].order = i, r[i].list_rank = 0;
    if (!nums[i].list) continue;
    for (k = 0; k < i && !(nums[k].list && strcmp(nums[k].list, nums[i].list) == 0); k++) {
    }
    r[i].list_rank = k < i ? r[k].list_rank : ++lists;
  }
  qsort(r, n, sizeof *r, compare_ranked);
  for (i = 0; i < n; i++) nums[i] = r[i].num;
  free(r);
  return 1;
}

/* Writes the pictures and the page of a drawn card, and takes its numbers,
** note, dependencies and thumbnail into the entry.  1, or 0 with err. */
static int job_write(atlas_run *run, atlas_job *job, const ls_atlas_kind *kind, ls_atlas_card *card,
                     const atlas_count *counts, size_t ncounts, codec_error *err) {
  atlas_entry *e = &job->entry;
  atlas_page page;
  char name[64], *html = NULL;
  size_t i, n = 0;
  int ok = 1;
  e->kind = kind;
  if (!card->npictures) return codec_fail(err, "its preview has no picture");
  for (i = 0; ok && i < card->npictures; i++) {
    const ls_atlas_picture *p = &card->pictures[i];
    atlas_picture_name(e->id, (int)i, p->svg, name, sizeof name);
    ok = atlas_write_file(run->folder, name, p->data, p->size, err);
    if (ok && !entry_file(e, name)) ok = codec_fail_oom(err, "out of memory");
  }
  if (ok && !card->thumb.svg) {
    atlas_picture_name(e->id, -1, 0, name, sizeof name);
    ok = atlas_write_file(run->folder, name, card->thumb.data, card->thumb.size, err);
    if (ok && !entry_file(e, name)) ok = codec_fail_oom(err, "out of memory");
  }
  e->thumb_svg = card->thumb.svg, e->thumb_w = card->thumb.w, e->thumb_h = card->thumb.h;
  /* the numbers, note and dependencies move to the entry (the page reads them there) */
  if (ok && !sort_numbers(card->numbers, card->nnumbers)) ok = codec_fail_oom(err, "out of memory");
  e->numbers = card->numbers, e->nnumbers = card->nnumbers, card->numbers = NULL, card->nnumbers = 0;
  e->note = card->note, card->note = NULL;
  if (ok && card->nalso && !(e->deps = calloc(card->nalso, sizeof *e->deps))) ok = codec_fail_oom(err, "out of memory");
  for (i = 0; ok && i < card->nalso; i++) {
    e->deps[i].path = card->also[i], card->also[i] = NULL;
    stat_pair(e->deps[i].path, &e->deps[i].size, &e->deps[i].mtime_ns);
    e->ndeps++;
  }
  if (!ok) return 0;
  page.entry = e, page.card = card, page.counts = counts, page.ncounts = ncounts, page.title = run->title;
  if (!atlas_page_html(&page, &html, &n)) return codec_fail_oom(err, "out of memory");
  snprintf(name, sizeof name, "levels/%s.html", e->id);
  ok = atlas_write_file(run->folder, name, html, n, err) && (entry_file(e, name) || codec_fail_oom(err, "out of memory"));
  free(html);
  return ok;
}

/* Validates, counts and draws a parsed model into the job's entry. */
static void job_draw(atlas_run *run, atlas_job *job, const ls_format *fmt, void *model, const codec_cancel *cancel) {
  atlas_entry *e = &job->entry;
  const ls_atlas_kind *kind = kind_of(run->reg, fmt);
  codec_error err = {{0}, 0};
  ls_atlas_card card;
  ls_atlas_opts o = run->opts;
  atlas_count *counts = NULL;
  size_t ncounts = 0;
  memset(&card, 0, sizeof card);
  o.cancel = cancel;
  if (!ls_check_decoded(fmt, model, o.max_decoded, &err) || (fmt->validate && !fmt->validate(model, cancel, &err))) {
    if (err.code == CODEC_E_INTERRUPT) job->interrupted = 1;
    else entry_error(e, "", err.msg);
    return;
  }
  if (!kind) return; /* a file of a format the atlas draws nothing of (a tileset) */
  if (!count_tables(run, fmt, model, &counts, &ncounts)) {
    entry_error(e, "", "out of memory");
    return;
  }
  if (!kind->draw(model, job->path, &o, &card, &err) || !job_write(run, job, kind, &card, counts, ncounts, &err)) {
    if (err.code == CODEC_E_INTERRUPT) job->interrupted = 1;
    else entry_error(e, "cannot draw its preview: ", err.msg[0] ? err.msg : "failed");
  }
  ls_atlas_card_clear(&card);
  free(counts);
}

/* Does one job: read, parse, draw, write (any thread). */
static void job_do(atlas_run *run, atlas_job *job, ls_parse_buffers *bufs, ls_interrupt *ic) {
  atlas_entry *e = &job->entry;
  job_cancel jc = {run, ic};
  codec_cancel cancel = {job_cancelled, &jc};
  const ls_session *s = run->sess;
  ls_parsed r;
  if (job->loc) {
    ls_parse_read(ls_res_read, job->loc, job->path, NULL, (const ls_format *const *)s->formats, s->nformats,
                  run->opts.max_decoded, bufs, &cancel, &r);
  } else {
    ls_parse_file(job->open_path, job->path, NULL, (const ls_format *const *)s->formats, s->nformats,
                  run->opts.max_decoded, bufs, &cancel, &r);
  }
  if (r.read_failure != LS_READ_OK) {
    char reason[sizeof r.parse_error.msg + 64];
    ls_parsed_read_reason(&r, reason, sizeof reason);
    if (r.parse_error.code == CODEC_E_INTERRUPT) job->interrupted = 1;
    else entry_error(e, "", reason);
    e->size = -1;
    return;
  }
  e->size = (int64_t)r.st.st_size, e->mtime_ns = ls_stat_mtime_ns(&r.st);
  if (!r.fmt) return; /* no format: another file */
  if (!(e->format = strdup(r.fmt->name))) {
    entry_error(e, "", "out of memory");
  } else if (!r.model) {
    if (r.parse_error.code == CODEC_E_INTERRUPT) job->interrupted = 1;
    else entry_error(e, "", r.parse_error.msg[0] ? r.parse_error.msg : "cannot parse");
  } else {
    job_draw(run, job, r.fmt, r.model, &cancel);
  }
  ls_parsed_free_model(&r);
}

/* job_do, and the job marked done. */
static void job_run(atlas_run *run, atlas_job *job, ls_parse_buffers *bufs, ls_interrupt *ic) {
  job_do(run, job, bufs, ic);
  job->done = 1;
}

/* A pool thread: takes the next job until none is left or the run stops. */
static void *worker(void *arg) {
  atlas_run *run = arg;
  ls_parse_buffers bufs;
  memset(&bufs, 0, sizeof bufs);
  for (;;) {
    atlas_job *job = NULL;
    pthread_mutex_lock(&run->lock);
    if (run->next < run->njobs && !atomic_load(&run->stop)) job = &run->jobs[run->next++];
    pthread_mutex_unlock(&run->lock);
    if (!job) break;
    job_run(run, job, &bufs, NULL);
    pthread_mutex_lock(&run->lock);
    run->finished++;
    pthread_cond_broadcast(&run->finished_cond);
    pthread_mutex_unlock(&run->lock);
  }
  ls_parse_buffers_free(&bufs);
  return NULL;
}

/* Runs every job: on `threads` threads while this one waits and watches
** for an interrupt, or here when there are none (or none starts).
** Returns 0 when interrupted. */
static int run_jobs(atlas_run *run, int threads) {
  pthread_t *ids = NULL;
  int started = 0, i, stopped = 0;
  if ((size_t)threads > run->njobs) threads = (int)run->njobs;
  if (threads > 0 && (ids = malloc((size_t)threads * sizeof *ids))) {
    for (i = 0; i < threads; i++) {
      if (pthread_create(&ids[i], NULL, worker, run) != 0) break;
      started++;
    }
  }
  if (!started) {
    ls_parse_buffers bufs;
    size_t k;
    memset(&bufs, 0, sizeof bufs);
    for (k = 0; k < run->njobs && !atomic_load(&run->stop); k++) {
      if (ls_interrupt_check(run->ic)) atomic_store(&run->stop, 1);
      else job_run(run, &run->jobs[k], &bufs, run->ic);
    }
    ls_parse_buffers_free(&bufs);
  } else {
    pthread_mutex_lock(&run->lock);
    while (run->finished < run->next || (run->next < run->njobs && !atomic_load(&run->stop))) {
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_nsec += 10 * 1000 * 1000;
      if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
      pthread_cond_timedwait(&run->finished_cond, &run->lock, &until);
      if (!atomic_load(&run->stop)) {
        pthread_mutex_unlock(&run->lock);
        if (ls_interrupt_check(run->ic)) atomic_store(&run->stop, 1);
        pthread_mutex_lock(&run->lock);
      }
    }
    pthread_mutex_unlock(&run->lock);
    for (i = 0; i < started; i++) pthread_join(ids[i], NULL);
  }
  free(ids);
  stopped = atomic_load(&run->stop);
  return !stopped;
}

/* Entries in the byte order of their paths (qsort, bsearch). */
static int compare_entries_by_path(const void *a, const void *b) {
  return strcmp(((const atlas_entry *)a)->path, ((const atlas_entry *)b)->path);
}

/* ---- the manifest ------------------------------------------------------------------- */

/* Appends bytes as hex. */
static void append_hex(sqlite3_str *out, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  for (; *p; p++) sqlite3_str_appendf(out, "%02x", *p);
}

/* A hex string back into bytes (malloc'd), NULL when it is not hex or out of memory. */
static char *from_hex(const json_node *n) {
  size_t i;
  char *out;
  if (!n || n->type != JSON_STRING || n->n % 2 || !(out = malloc(n->n / 2 + 1))) return NULL;
  for (i = 0; i < n->n / 2; i++) {
    unsigned v = 0;
    int k, bad = 0;
    for (k = 0; k < 2; k++) {
      char c = n->s[2 * i + (size_t)k];
      bad |= !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
      v = v * 16 + (unsigned)(c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 0);
    }
    if (bad || v == 0) { /* not hex, or a NUL byte: no path the atlas wrote */
      free(out);
      return NULL;
    }
    out[i] = (char)v;
  }
  out[n->n / 2] = 0;
  return out;
}

static void append_text_or_null(sqlite3_str *out, const char *s) {
  if (s) ls_json_append_string(out, s, strlen(s));
  else sqlite3_str_appendall(out, "null");
}

/* The manifest's JSON of the entries (sqlite3_malloc'd), NULL when out of memory. */
static char *manifest_json(const char *options, atlas_entry *const *entries, size_t n) {
  sqlite3_str *out = sqlite3_str_new(NULL);
  size_t i, k;
  sqlite3_str_appendf(out, "{\"levelsql_atlas\": %d, \"options\": ", ATLAS_VERSION);
  ls_json_append_string(out, options, strlen(options));
  sqlite3_str_appendall(out, ", \"levels\": [");
  for (i = 0; i < n; i++) {
    const atlas_entry *e = entries[i];
    sqlite3_str_appendall(out, i ? ",\n" : "\n");
    sqlite3_str_appendall(out, "{\"key\": \"");
    append_hex(out, e->path);
    sqlite3_str_appendf(out, "\", \"id\": \"%s\", \"size\": %lld, \"mtime_ns\": %lld, \"format\": ", e->id,
                        (long long)e->size, (long long)e->mtime_ns);
    append_text_or_null(out, e->format);
    sqlite3_str_appendall(out, ", \"error\": ");
    append_text_or_null(out, e->error);
    sqlite3_str_appendall(out, ", \"note\": ");
    append_text_or_null(out, e->note);
    sqlite3_str_appendf(out, ", \"thumb\": [%d, %d, %d], \"numbers\": [", e->thumb_svg, e->thumb_w, e->thumb_h);
    for (k = 0; k < e->nnumbers; k++) {
      sqlite3_str_appendall(out, k ? ", [" : "[");
      append_text_or_null(out, e->numbers[k].list);
      sqlite3_str_appendall(out, ", ");
      ls_json_append_string(out, e->numbers[k].name, strlen(e->numbers[k].name));
      sqlite3_str_appendf(out, ", %lld]", (long long)e->numbers[k].value);
    }
    sqlite3_str_appendall(out, "], \"deps\": [");
    for (k = 0; k < e->ndeps; k++) {
      sqlite3_str_appendall(out, k ? ", [\"" : "[\"");
      append_hex(out, e->deps[k].path);
      sqlite3_str_appendf(out, "\", %lld, %lld]", (long long)e->deps[k].size, (long long)e->deps[k].mtime_ns);
    }
    sqlite3_str_appendall(out, "], \"files\": [");
    for (k = 0; k < e->nfiles; k++) sqlite3_str_appendf(out, "%s\"%s\"", k ? ", " : "", e->files[k]);
    sqlite3_str_appendall(out, "]}");
  }
  sqlite3_str_appendall(out, "\n]}\n");
  return sqlite3_str_finish(out);
}

/* A copy of a JSON string or NULL member: 1, or 0 when it is neither (or out of memory). */
static int json_text(const json_node *n, char **out) {
  *out = NULL;
  if (n && n->type == JSON_NULL) return 1;
  if (!n || n->type != JSON_STRING || memchr(n->s, 0, n->n)) return 0;
  return (*out = strdup(n->s)) != NULL;
}

static int json_int(const json_node *n, int64_t *out) {
  if (!n || n->type != JSON_INT) return 0;
  *out = n->i;
  return 1;
}

/* One level of the manifest into e (the kind looked up by format); 1, or
** 0 when it is not as the atlas writes it (the level is then drawn again). */
static int manifest_entry(const atlas_kinds *reg, const json_node *obj, atlas_entry *e) {
  const json_node *id = json_member(obj, "id"), *thumb = json_member(obj, "thumb"), *list, *item;
  int64_t v;
  memset(e, 0, sizeof *e);
  if (!(e->path = from_hex(json_member(obj, "key"))) || !id || id->type != JSON_STRING || id->n != ATLAS_ID_LEN) return 0;
  memcpy(e->id, id->s, ATLAS_ID_LEN + 1);
  for (v = 0; v < ATLAS_ID_LEN; v++) {
    if (!((e->id[v] >= '0' && e->id[v] <= '9') || (e->id[v] >= 'a' && e->id[v] <= 'f'))) return 0;
  }
  if (!json_int(json_member(obj, "size"), &e->size) || !json_int(json_member(obj, "mtime_ns"), &e->mtime_ns)) return 0;
  if (!json_text(json_member(obj, "format"), &e->format) || !json_text(json_member(obj, "error"), &e->error) ||
      !json_text(json_member(obj, "note"), &e->note)) return 0;
  e->kind = e->error ? NULL : kind_named(reg, e->format);
  if (!thumb || thumb->type != JSON_ARRAY || thumb->count != 3 || !json_int(json_at(thumb, 0), &v)) return 0;
  e->thumb_svg = v != 0;
  if (!json_int(json_at(thumb, 1), &v) || v < 0 || v > 100000) return 0;
  e->thumb_w = (int)v;
  if (!json_int(json_at(thumb, 2), &v) || v < 0 || v > 100000) return 0;
  e->thumb_h = (int)v;
  if (!(list = json_member(obj, "numbers")) || list->type != JSON_ARRAY || list->count > LS_ATLAS_MAX_NUMBERS) return 0;
  if (list->count && !(e->numbers = calloc(list->count, sizeof *e->numbers))) return 0;
  for (item = list->child; item; item = item->next, e->nnumbers++) {
    ls_atlas_number *num = &e->numbers[e->nnumbers];
    if (item->type != JSON_ARRAY || item->count != 3 || !json_text(json_at(item, 0), &num->list) ||
        !json_text(json_at(item, 1), &num->name) || !num->name || !json_int(json_at(item, 2), &num->value)) {
      e->nnumbers++;
      return 0;
    }
  }
  if (!(list = json_member(obj, "deps")) || list->type != JSON_ARRAY) return 0;
  if (list->count && !(e->deps = calloc(list->count, sizeof *e->deps))) return 0;
  for (item = list->child; item; item = item->next, e->ndeps++) {
    atlas_dep *d = &e->deps[e->ndeps];
    if (item->type != JSON_ARRAY || item->count != 3 || !(d->path = from_hex(json_at(item, 0))) ||
        !json_int(json_at(item, 1), &d->size) || !json_int(json_at(item, 2), &d->mtime_ns)) {
      e->ndeps++;
      return 0;
    }
  }
  if (!(list = json_member(obj, "files")) || list->type != JSON_ARRAY) return 0;
  for (item = list->child; item; item = item->next) {
    /* only names the atlas writes: anything else in a (damaged) manifest is never touched */
    int levels = item->type == JSON_STRING && strncmp(item->s, "levels/", 7) == 0;
    if (item->type != JSON_STRING || (!levels && strncmp(item->s, "img/", 4) != 0) ||
        !our_name(item->s + (levels ? 7 : 4), levels) || strncmp(item->s + (levels ? 7 : 4), e->id, ATLAS_ID_LEN) != 0 ||
        !entry_file(e, item->s)) return 0;
  }
  return 1;
}

/* The entries of the folder's manifest, sorted by path, when it was made
** by this version with these options (else none).  Returns 1, or 0 when
** out of memory. */
static int manifest_read(const atlas_kinds *reg, const char *folder, const char *options, atlas_entry **out,
                         size_t *n) {
  char *path = join(folder, MANIFEST);
  unsigned char *data = NULL;
  size_t size = 0;
  json_node *root = NULL;
  const json_node *levels, *item, *version, *opts;
  codec_error err = {{0}, 0};
  int ok = 1;
  *out = NULL, *n = 0;
  if (!path) return 0;
  {
    FILE *fp = fopen(path, "rb");
    long len;
    if (fp && fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 && len < (1L << 30) && fseek(fp, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)len + 1)) && fread(data, 1, (size_t)len, fp) == (size_t)len) {
      size = (size_t)len;
    } else {
      free(data);
      data = NULL;
    }
    if (fp) fclose(fp);
  }
  free(path);
  if (!data) return 1;
  if (json_parse((const char *)data, size, &root, &err) != 1) root = NULL;
  free(data);
  version = root ? json_member(root, "levelsql_atlas") : NULL;
  opts = root ? json_member(root, "options") : NULL;
  levels = root ? json_member(root, "levels") : NULL;
  if (version && version->type == JSON_INT && version->i == ATLAS_VERSION && opts && opts->type == JSON_STRING &&
      strcmp(opts->s, options) == 0 && levels && levels->type == JSON_ARRAY) {
    if (!(*out = calloc(levels->count + 1, sizeof **out))) ok = 0;
    for (item = ok ? levels->child : NULL; item; item = item->next) {
      if (manifest_entry(reg, item, &(*out)[*n])) (*n)++;
      else atlas_entry_clear(&(*out)[*n]);
    }
    if (*n) qsort(*out, *n, sizeof **out, compare_entries_by_path);
  }
  json_free(root);
  return ok;
}

/* ---- the folder ---------------------------------------------------------------------- */

/* Makes folder/sub a folder of its own: made when missing; one there must be
** a folder and no link.  Returns 1, or 0 with *err. */
static int own_folder(const char *folder, const char *sub, char **err) {
  char *path = sub ? join(folder, sub) : strdup(folder);
  struct stat st;
  int ok = 0;
  if (!path) {
    *err = sqlite3_mprintf("out of memory");
    return 0;
  }
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT && mkdir(path, 0755) == 0) ok = 1;
    else *err = sqlite3_mprintf("%s: cannot make the folder: %s", path, strerror(errno));
  } else if (sub && !S_ISDIR(st.st_mode)) {
    *err = sqlite3_mprintf("%s is not a folder of its own (a link or a file): the atlas writes only inside %s", path,
                           folder);
  } else if (!sub && stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
    *err = sqlite3_mprintf("%s is not a folder", path);
  } else {
    ok = 1;
  }
  free(path);
  return ok;
}

/* Whether folder/sub is a folder holding only files named like the
** atlas's (or nothing): what a first run stopped before its manifest left. */
static int ours_only(const char *folder, const char *sub) {
  char *dir = join(folder, sub);
  DIR *d = dir ? opendir(dir) : NULL;
  struct dirent *de;
  int ours = d != NULL;
  while (d && ours && (de = readdir(d)) != NULL) {
    ours = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
           our_name(de->d_name, strcmp(sub, "levels") == 0);
  }
  if (d) closedir(d);
  free(dir);
  return ours;
}

/* Whether the folder holds anything but what an atlas writes, while it
** has no manifest: then it is no atlas, and nothing is written there.
** (img/ and levels/ holding only the atlas's files are a first run that
** was interrupted before its manifest.) */
static int foreign_folder(const char *folder) {
  char *manifest = join(folder, MANIFEST);
  struct stat st;
  DIR *d;
  struct dirent *de;
  int foreign = 0;
  if (!manifest) return 0;
  if (stat(manifest, &st) == 0) {
    free(manifest);
    return 0;
  }
  free(manifest);
  if (!(d = opendir(folder))) return 0;
  while (!foreign && (de = readdir(d)) != NULL) {
    const char *n = de->d_name;
    if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0) continue;
    foreign = !((strcmp(n, "img") == 0 || strcmp(n, "levels") == 0) && ours_only(folder, n));
  }
  closedir(d);
  return foreign;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Removes from folder/sub the files named like the atlas's that no entry
** has now; returns how many. */
static int64_t sweep(const char *folder, const char *sub, char **keep, size_t nkeep) {
  char *dir = join(folder, sub);
  DIR *d;
  struct dirent *de;
  int64_t removed = 0;
  if (!dir) return 0;
  if ((d = opendir(dir)) != NULL) {
    while ((de = readdir(d)) != NULL) {
      char rel[300], *key = rel, *full;
      if (!our_name(de->d_name, strcmp(sub, "levels") == 0) || strlen(de->d_name) > 200) continue;
      snprintf(rel, sizeof rel, "%s/%s", sub, de->d_name);
      if (bsearch(&key, keep, nkeep, sizeof *keep, compare_names)) continue;
      if ((full = join(dir, de->d_name)) != NULL && unlink(full) == 0) removed++;
      free(full);
    }
    closedir(d);
  }
  free(dir);
  return removed;
}

/* ---- listing ------------------------------------------------------------------------- */

/* The position of path's extension (its last '.' after the last
** separator), or its end. */
static size_t extension_at(const char *path) {
  size_t n = strlen(path), i = n;
  while (i > 0 && path[i - 1] != '/' && path[i - 1] != '\\' && path[i - 1] != '.') i--;
  return i > 0 && path[i - 1] == '.' ? i - 1 : n;
}

/* Whether the listing holds (any case) path with its extension replaced by ext. */
static int sibling_listed(const ls_pathlist *list, const char *path, const char *ext) {
  size_t stem = extension_at(path), extlen = strlen(ext);
  int i;
  for (i = 0; i < list->n; i++) {
    const char *p = list->paths[i];
    if (strlen(p) == stem + extlen && sqlite3_strnicmp(p, path, (int)stem) == 0 &&
        sqlite3_stricmp(p + stem, ext) == 0 && p != path)
      return 1;
  }
  return 0;
}

/* Whether path is shown on another file's card (ls_atlas_kind.shown_with):
** a file on disk whose sibling of that extension is listed too.  (A game's
** resource, "<key>:AR0100.ARE", keeps its own card: what a draw reads
** beside a file it finds on disk, not in the game's archives.) */
static int shown_elsewhere(const atlas_kinds *reg, const ls_pathlist *list, const char *path) {
  const char *ext = path + extension_at(path);
  struct stat st;
  size_t i;
  if (stat(path, &st) != 0) return 0;
  for (i = 0; i < reg->n; i++) {
    const ls_atlas_kind *k = reg->kinds[i];
    const char *const *e;
    if (!k->shown_with || !k->format->extensions) continue;
    for (e = k->format->extensions; *e; e++) {
      if (sqlite3_stricmp(*e, ext) == 0 && sibling_listed(list, path, k->shown_with)) return 1;
    }
  }
  return 0;
}

/* Whether a kept entry still stands: its dependencies and files unchanged. */
static int entry_current(const char *folder, const atlas_entry *e) {
  size_t i;
  for (i = 0; i < e->ndeps; i++) {
    int64_t size, mtime;
    stat_pair(e->deps[i].path, &size, &mtime);
    if (size != e->deps[i].size || (size >= 0 && mtime != e->deps[i].mtime_ns)) return 0;
  }
  for (i = 0; i < e->nfiles; i++) {
    char *p = join(folder, e->files[i]);
    struct stat st;
    int there = p && stat(p, &st) == 0;
    free(p);
    if (!there) return 0;
  }
  /* (a level whose format draws nothing any more is drawn again: it shows as another file) */
  return e->kind || e->error || !e->nfiles;
}

/* The identity of a listed path now (size, mtime), and how to read it:
** *open_path (a file) or *loc (a resource in a game's archives).  0 when
** it cannot be found (its read will tell why). */
static int listed_identity(ls_session *s, const char *path, int64_t *size, int64_t *mtime, char **open_path,
                           ls_res_loc **loc) {
  struct stat st;
  *open_path = NULL, *loc = NULL;
  if (stat(path, &st) == 0 || !s->game || !strchr(path, ':')) {
    *open_path = strdup(path);
    stat_pair(path, size, mtime);
    return *size >= 0;
  }
  {
    ls_game_path gp;
    char *err = NULL;
    memset(&gp, 0, sizeof gp);
    if (ls_game_resolve(s->game, path, 1, &gp, &err) != SQLITE_OK || gp.kind == LS_GAME_NOT) {
      sqlite3_free(err);
      ls_game_path_clear(&gp);
      *open_path = strdup(path);
      *size = -1;
      return 0;
    }
    if (gp.kind == LS_GAME_OVERRIDE) {
      *open_path = strdup(gp.file);
      stat_pair(gp.file, size, mtime);
    } else {
      *loc = gp.loc, gp.loc = NULL;
      *size = (int64_t)gp.st.st_size, *mtime = ls_stat_mtime_ns(&gp.st);
    }
    ls_game_path_clear(&gp);
    return 1;
  }
}

/* ---- levelsql_atlas ------------------------------------------------------------------- */

/* The options of a call. */
typedef struct atlas_call {
  int thumb, large, nocase;
  char *mapres, *tilesets, *title;
} atlas_call;

/* "thumb=256 size=1024 mapres=... tilesets=...": what the pictures depend
** on, kept in the manifest (sqlite3_malloc'd). */
static char *options_signature(const atlas_call *c) {
  return sqlite3_mprintf("thumb=%d size=%d mapres=%s tilesets=%s", c->thumb, c->large, c->mapres ? c->mapres : "",
                         c->tilesets ? c->tilesets : "");
}

/* Seconds on a monotonic clock. */
static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The state of one call, freed by state_free. */
typedef struct atlas_state {
  ls_pathlist list;
  atlas_entry *old;      /* the manifest's, sorted by path */
  size_t nold;
  atlas_entry **kept;    /* those of old still current */
  size_t nkept;
  atlas_run run;
  int run_ready;         /* run's lock and condition made */
} atlas_state;

static void state_free(atlas_state *st) {
  size_t i;
  ls_pathlist_free(&st->list);
  for (i = 0; i < st->nold; i++) atlas_entry_clear(&st->old[i]);
  free(st->old);
  free(st->kept);
  for (i = 0; i < st->run.njobs; i++) {
    free(st->run.jobs[i].open_path);
    if (st->run.jobs[i].loc) ls_res_loc_free(st->run.jobs[i].loc);
    atlas_entry_clear(&st->run.jobs[i].entry);
  }
  free(st->run.jobs);
  if (st->run_ready) {
    pthread_mutex_destroy(&st->run.lock);
    pthread_cond_destroy(&st->run.finished_cond);
  }
}

/* Sorts the listing into the entries kept (unchanged since the manifest)
** and the jobs.  Returns SQLITE_OK, SQLITE_NOMEM or SQLITE_INTERRUPT. */
static int plan(const atlas_kinds *reg, atlas_state *st) {
  int i;
  st->run.jobs = calloc((size_t)st->list.n + 1, sizeof *st->run.jobs);
  st->kept = calloc((size_t)st->list.n + 1, sizeof *st->kept);
  if (!st->run.jobs || !st->kept) return SQLITE_NOMEM;
  for (i = 0; i < st->list.n; i++) {
    const char *path = st->list.paths[i];
    atlas_entry key, *old;
    atlas_job *job;
    int64_t size, mtime = 0;
    if (ls_interrupt_check(st->run.ic)) return SQLITE_INTERRUPT;
    if (shown_elsewhere(reg, &st->list, path)) continue;
    job = &st->run.jobs[st->run.njobs];
    listed_identity(reg->sess, path, &size, &mtime, &job->open_path, &job->loc);
    key.path = (char *)path;
    old = st->nold ? bsearch(&key, st->old, st->nold, sizeof *st->old, compare_entries_by_path) : NULL;
    if (old && size >= 0 && old->size == size && old->mtime_ns == mtime && entry_current(st->run.folder, old)) {
      st->kept[st->nkept++] = old;
      free(job->open_path);
      if (job->loc) ls_res_loc_free(job->loc);
      memset(job, 0, sizeof *job);
      continue;
    }
    st->run.njobs++;
    job->path = path;
    if (!(job->entry.path = strdup(path)) || (!job->open_path && !job->loc)) return SQLITE_NOMEM;
    level_id(path, job->entry.id);
  }
  return SQLITE_OK;
}

/* Entry pointers in the byte order of their paths. */
static int compare_entry_pointers(const void *a, const void *b) {
  return strcmp((*(const atlas_entry *const *)a)->path, (*(const atlas_entry *const *)b)->path);
}

/* What a call did, for its result. */
typedef struct atlas_tally {
  size_t levels, unreadable, other, drawn, kept;
  int64_t removed;
} atlas_tally;

/* Writes index.html and the manifest of every entry there is now (kept,
** and drawn by a job that finished), and removes the files no level has
** any more.  Returns SQLITE_OK or an error with *err. */
static int finish(atlas_state *st, const char *title, const char *source, const char *options, atlas_tally *t,
                  char **err) {
  size_t n = 0, i, k, nkeep = 0, len = 0;
  atlas_entry **all = malloc((st->nkept + st->run.njobs + 1) * sizeof *all);
  char *html = NULL, *manifest = NULL, **keep = NULL;
  codec_error cerr = {{0}, 0};
  int rc = SQLITE_OK;
  if (!all) return SQLITE_NOMEM;
  for (i = 0; i < st->nkept; i++) all[n++] = st->kept[i];
  t->kept = n;
  for (i = 0; i < st->run.njobs; i++) {
    if (st->run.jobs[i].done && !st->run.jobs[i].interrupted) all[n++] = &st->run.jobs[i].entry;
  }
  t->drawn = n - t->kept;
  qsort(all, n, sizeof *all, compare_entry_pointers);
  for (i = 0; i < n; i++) {
    if (all[i]->error) t->unreadable++;
    else if (all[i]->kind) t->levels++;
    else t->other++;
    nkeep += all[i]->nfiles;
  }
  if (!atlas_index_html(title, source, (const atlas_entry *const *)all, n, &html, &len)) rc = SQLITE_NOMEM;
  else if (!atlas_write_file(st->run.folder, "index.html", html, len, &cerr)) rc = SQLITE_ERROR;
  free(html);
  if (rc == SQLITE_OK && !(manifest = manifest_json(options, all, n))) rc = SQLITE_NOMEM;
  if (rc == SQLITE_OK && !atlas_write_file(st->run.folder, MANIFEST, manifest, strlen(manifest), &cerr)) rc = SQLITE_ERROR;
  sqlite3_free(manifest);
  if (rc == SQLITE_OK && !(keep = malloc((nkeep + 1) * sizeof *keep))) rc = SQLITE_NOMEM;
  if (rc == SQLITE_OK) {
    nkeep = 0;
    for (i = 0; i < n; i++)
      for (k = 0; k < all[i]->nfiles; k++) keep[nkeep++] = all[i]->files[k];
    qsort(keep, nkeep, sizeof *keep, compare_names);
    t->removed = sweep(st->run.folder, "img", keep, nkeep) + sweep(st->run.folder, "levels", keep, nkeep);
  }
  free(keep);
  free(all);
  if (rc == SQLITE_ERROR) *err = sqlite3_mprintf("%s", cerr.msg);
  return rc;
}

/* The call's options (render_option's parser): thumb=N, size=N,
** mapres=DIR, tilesets=DIR, title=TEXT, nocase=0|1. */
static int call_options(sqlite3_context *ctx, sqlite3_value *arg, atlas_call *c) {
  render_option opts[] = {
    {"thumb", OPT_INT, 64, 1024, &c->thumb, NULL},     {"size", OPT_INT, 256, 4096, &c->large, NULL},
    {"mapres", OPT_TEXT, 0, 0, &c->mapres, NULL},      {"tilesets", OPT_TEXT, 0, 0, &c->tilesets, NULL},
    {"title", OPT_TEXT, 0, 0, &c->title, NULL},        {"nocase", OPT_FLAG, 0, 1, &c->nocase, NULL},
  };
  struct stat st;
  c->thumb = 256, c->large = 1024, c->nocase = 1;
  if (!parse_options(ctx, "levelsql_atlas", arg, opts, sizeof opts / sizeof opts[0])) return 0;
  if (c->mapres && (stat(c->mapres, &st) != 0 || !S_ISDIR(st.st_mode))) {
    render_error(ctx, "levelsql_atlas", "option mapres: '%s' is not a folder", c->mapres);
    return 0;
  }
  if (c->tilesets && (stat(c->tilesets, &st) != 0 || !S_ISDIR(st.st_mode))) {
    render_error(ctx, "levelsql_atlas", "option tilesets: '%s' is not a folder", c->tilesets);
    return 0;
  }
  if (!c->title && !(c->title = sqlite3_mprintf("levelsql atlas"))) {
    sqlite3_result_error_nomem(ctx);
    return 0;
  }
  return 1;
}

/* Fails the call with rc and err (freed), "levelsql_atlas: <err>". */
static void call_failed(sqlite3_context *ctx, int rc, char *err) {
  if (rc == SQLITE_NOMEM) sqlite3_result_error_nomem(ctx);
  else if (rc == SQLITE_INTERRUPT) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
  else render_error(ctx, "levelsql_atlas", "%s", err ? err : "failed");
  sqlite3_free(err);
}

/* levelsql_atlas(source, folder [, options]): see atlas.h. */
static void atlas_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const atlas_kinds *reg = sqlite3_user_data(ctx);
  ls_session *s = reg->sess;
  const char *source = (const char *)sqlite3_value_text(argv[0]), *folder = (const char *)sqlite3_value_text(argv[1]);
  atlas_call c;
  atlas_state st;
  atlas_tally t;
  ls_interrupt ic;
  char *err = NULL, *options = NULL;
  double started = now_seconds();
  int rc = SQLITE_OK, threads;
  memset(&c, 0, sizeof c);
  memset(&st, 0, sizeof st);
  memset(&t, 0, sizeof t);
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT || !source || !*source || sqlite3_value_type(argv[1]) != SQLITE_TEXT ||
      !folder || !*folder) {
    render_error(ctx, "levelsql_atlas", "takes a source (text: a folder, pattern, file or JSON array) and the folder "
                 "to write the atlas into, e.g. levelsql_atlas('maps/**/*.map', 'atlas')");
    return;
  }
  if (!call_options(ctx, argc > 2 ? argv[2] : NULL, &c)) goto done;
  ls_interrupt_init(&ic, sqlite3_context_db_handle(ctx));
  st.run.ic = &ic;
  st.run.reg = reg;
  st.run.sess = s;
  st.run.folder = folder;
  st.run.title = c.title;
  st.run.opts.thumb = c.thumb, st.run.opts.large = c.large;
  st.run.opts.mapres = c.mapres, st.run.opts.tilesets = c.tilesets;
  st.run.opts.max_decoded = s->max_decoded;
  if (!(options = options_signature(&c))) rc = SQLITE_NOMEM;
  else if (!own_folder(folder, NULL, &err)) rc = SQLITE_ERROR;
  else if (foreign_folder(folder))
    rc = SQLITE_ERROR, err = sqlite3_mprintf("%s holds files but no %s: it is no atlas, so nothing is written there "
                                             "(give a new or empty folder)", folder, MANIFEST);
  else if (!own_folder(folder, "img", &err) || !own_folder(folder, "levels", &err)) rc = SQLITE_ERROR;
  else if (!manifest_read(reg, folder, options, &st.old, &st.nold)) rc = SQLITE_NOMEM;
  if (rc == SQLITE_OK) rc = ls_session_expand(s, source, NULL, c.nocase, &ic, &st.list, &err);
  if (rc == SQLITE_OK) rc = plan(reg, &st);
  if (rc == SQLITE_OK) {
    if (pthread_mutex_init(&st.run.lock, NULL) != 0) rc = SQLITE_NOMEM;
    else if (pthread_cond_init(&st.run.finished_cond, NULL) != 0) rc = SQLITE_NOMEM, pthread_mutex_destroy(&st.run.lock);
    else st.run_ready = 1;
  }
  threads = ls_session_threads(s, 0, 0);
  if (rc == SQLITE_OK) {
    /* what was drawn is recorded even when the drawing is interrupted: the
    ** next run goes on from there (an interrupt before, while listing or
    ** planning, leaves the folder as it was) */
    int frc;
    if (!run_jobs(&st.run, threads)) rc = SQLITE_INTERRUPT;
    frc = finish(&st, c.title, source, options, &t, &err);
    if (rc == SQLITE_OK) rc = frc;
  }
  ls_interrupt_done(&ic);
  if (rc == SQLITE_OK) {
    char *json = sqlite3_mprintf("{\"levels\":%lld,\"unreadable\":%lld,\"other\":%lld,\"drawn\":%lld,\"kept\":%lld,"
                                 "\"removed\":%lld,\"threads\":%d,\"seconds\":%.3f}",
                                 (long long)t.levels, (long long)t.unreadable, (long long)t.other, (long long)t.drawn,
                                 (long long)t.kept, (long long)t.removed, threads, now_seconds() - started);
    if (json) sqlite3_result_text(ctx, json, -1, sqlite3_free);
    else sqlite3_result_error_nomem(ctx);
  } else {
    call_failed(ctx, rc, err);
    err = NULL;
  }
  state_free(&st);
done:
  sqlite3_free(err);
  sqlite3_free(options);
  sqlite3_free(c.mapres);
  sqlite3_free(c.tilesets);
  sqlite3_free(c.title);
}

/* Frees the function's kinds and drops its session reference. */
static void kinds_free(void *p) {
  atlas_kinds *reg = p;
  ls_session_release(reg->sess);
  sqlite3_free(reg);
}

int ls_atlas_register(sqlite3 *db, ls_session *sess, const ls_atlas_kind *const *kinds, size_t n) {
  atlas_kinds *reg = sqlite3_malloc(sizeof *reg);
  int rc = SQLITE_OK, nargs;
  if (!reg) return SQLITE_NOMEM;
  reg->sess = sess, reg->kinds = kinds, reg->n = n;
  sess->refs++;
  for (nargs = 2; rc == SQLITE_OK && nargs <= 3; nargs++) {
    /* one registration owns reg: the 3-argument one, made last, frees it */
    rc = sqlite3_create_function_v2(db, "levelsql_atlas", nargs, SQLITE_UTF8 | SQLITE_DIRECTONLY, reg, atlas_func, NULL,
                                    NULL, nargs == 3 ? kinds_free : NULL);
  }
  if (rc != SQLITE_OK && nargs <= 3) kinds_free(reg);
  return rc;
}
