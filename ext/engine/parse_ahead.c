/*
** parse_ahead.c: reading and parsing one file, and the pool of threads that
** does it ahead of a scan.  See parse_ahead.h for the contract.
*/
#include "engine/parse_ahead.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef _WIN32
#include <sys/mman.h>
#endif

#ifdef _WIN32
#include <windows.h>
#endif

/* ---- one file -------------------------------------------------------------- */

/* Allocations of at least this size are 2 MiB-aligned whole multiples of
** 2 MiB, advised for transparent huge pages where the system has them.  A
** parse writes its buffers and its model's large parts whole, and on
** virtual machines each first touch of a 4 KiB page costs microseconds: a
** cold WWD query spent over a third of its time faulting in pages.  A
** huge page is one fault.  Smaller ones, and all where there is no
** MADV_HUGEPAGE, are plain malloc. */
#define LS_HUGE_PAGE ((size_t)2 << 20)
#define LS_HUGE_FROM (LS_HUGE_PAGE / 4)

/* A new allocation of at least n bytes (its size in *cap) that free() and
** realloc() accept. */
static void *alloc_large(size_t n, size_t *cap) {
#if defined(MADV_HUGEPAGE) && !defined(_WIN32)
  void *p = NULL;
  if (n >= LS_HUGE_FROM && n <= SIZE_MAX - LS_HUGE_PAGE) {
    n = (n + LS_HUGE_PAGE - 1) / LS_HUGE_PAGE * LS_HUGE_PAGE;
    if (posix_memalign(&p, LS_HUGE_PAGE, n) != 0) return NULL;
    (void)madvise(p, n, MADV_HUGEPAGE); /* advice only: without it, plain pages */
    *cap = n;
    return p;
  }
#endif
  *cap = n;
  return malloc(n);
}

void *ls_alloc_large(size_t n) {
  size_t cap;
  return alloc_large(n, &cap);
}

unsigned char *ls_scratch_reserve(ls_scratch *scratch, size_t n) {
  unsigned char *fresh;
  size_t cap;
  if (scratch->cap >= n && scratch->data) return scratch->data;
  /* the old contents are not kept: a scratch holds one file's bytes */
  if (!(fresh = alloc_large(n ? n : 1, &cap))) return NULL;
  free(scratch->data);
  scratch->data = fresh;
  scratch->cap = cap;
  return fresh;
}

/* A buffer of at least n bytes: reuse's (ls_scratch_reserve), or (reuse
** NULL) a new one of its own.  NULL when out of memory. */
static unsigned char *buffer_for(ls_scratch *reuse, size_t n) {
  return reuse ? ls_scratch_reserve(reuse, n) : malloc(n);
}

void ls_parse_buffers_free(ls_parse_buffers *bufs) {
  free(bufs->file.data);
  free(bufs->parse.data);
  memset(bufs, 0, sizeof *bufs);
}

/* Reads the regular file at path, whole (limit 0) or its first `limit`
** bytes, into reuse's buffer (NULL: a malloc'd one; one spare byte, so an
** empty file still gets one); the stat of the open descriptor, the
** identity of exactly the bytes read, goes to out->st.  Returns the buffer
** and its length in *n, or NULL with out->read_failure set, or with
** out->parse_error CODEC_E_INTERRUPT when `cancel` (NULL: none) stopped
** it: a file of up to LS_MAX_FILE_BYTES is read LS_READ_CHUNK bytes at a
** time, so an interrupt is seen within one chunk's read. */
static unsigned char *read_whole(const void *ctx, size_t limit, ls_scratch *reuse, const codec_cancel *cancel,
                                 ls_parsed *out, size_t *n) {
  const char *path = ctx;
  unsigned char *buf = NULL;
  size_t done = 0, want;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  *n = 0;
  if (fd < 0) {
    out->read_failure = LS_READ_OPEN;
    out->errno_value = errno;
    return NULL;
  }
  if (fstat(fd, &out->st) != 0) {
    out->read_failure = LS_READ_STAT;
    out->errno_value = errno;
  } else if (!S_ISREG(out->st.st_mode)) {
    out->read_failure = LS_READ_NOT_FILE;
  } else if (!limit && (int64_t)out->st.st_size > LS_MAX_FILE_BYTES) {
    out->read_failure = LS_READ_TOO_BIG;
  } else {
    want = limit && (size_t)out->st.st_size > limit ? limit : (size_t)out->st.st_size;
    if (!(buf = buffer_for(reuse, want + 1))) {
      out->read_failure = LS_READ_NOMEM;
      out->wanted = want;
    }
    while (buf && done < want) {
      ssize_t got;
      if (done && codec_cancelled(cancel)) {
        codec_fail_interrupted(&out->parse_error);
        if (!reuse) free(buf);
        buf = NULL;
        break;
      }
      got = read(fd, buf + done, want - done < LS_READ_CHUNK ? want - done : LS_READ_CHUNK);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        out->read_failure = got < 0 ? LS_READ_IO : LS_READ_SHRANK;
        out->errno_value = got < 0 ? errno : 0;
        if (!reuse) free(buf);
        buf = NULL;
        break;
      }
      done += (size_t)got;
    }
  }
  close(fd);
  *n = done;
  return buf;
}

/* The format whose sniff accepts the bytes; failing that, the one whose
** extension `name` has (so a damaged level reports what is wrong with it
** rather than "unknown format"); else NULL. */
static const ls_format *detect_format(const ls_format *const *formats, int nformats, const char *name,
                                      const unsigned char *data, size_t size) {
  const char *dot = strrchr(name, '.');
  int i;
  for (i = 0; i < nformats; i++) {
    if (formats[i]->sniff(data, size)) return formats[i];
  }
  for (i = 0; dot && i < nformats; i++) {
    const char *const *ext;
    for (ext = formats[i]->extensions; ext && *ext; ext++) {
      if (sqlite3_stricmp(dot, *ext) == 0) return formats[i];
    }
  }
  return NULL;
}

void ls_parse_file(const char *open_path, const char *name, const ls_format *fmt, const ls_format *const *formats,
                   int nformats, uint64_t max_decoded, ls_parse_buffers *bufs, const codec_cancel *cancel,
                   ls_parsed *out) {
  ls_parse_read(read_whole, open_path, name, fmt, formats, nformats, max_decoded, bufs, cancel, out);
}

void ls_parse_read(ls_read_fn read, const void *ctx, const char *name, const ls_format *fmt,
                   const ls_format *const *formats, int nformats, uint64_t max_decoded, ls_parse_buffers *bufs,
                   const codec_cancel *cancel, ls_parsed *out) {
  ls_scratch *file_buf = bufs ? &bufs->file : NULL;
  unsigned char *data;
  size_t n;
  memset(out, 0, sizeof *out);
  if (!fmt) {
    /* Detect from the first bytes, so a folder's large non-level files
    ** (videos, archives) are never read whole. */
    if (!(data = read(ctx, LS_SNIFF_BYTES, file_buf, NULL, out, &n))) return;
    fmt = detect_format(formats, nformats, name, data, n);
    if (!bufs) free(data);
    if (!fmt) return;
  }
  out->fmt = fmt;
  if (!(data = read(ctx, 0, file_buf, cancel, out, &n))) return;
  if (!ls_check_bytes_claim(fmt, data, n, max_decoded, &out->parse_error)) out->model = NULL;
  else
    out->model = bufs && fmt->parse_reusing ? fmt->parse_reusing(data, n, &bufs->parse, cancel, &out->parse_error)
                                            : fmt->parse(data, n, &out->parse_error);
  if (!bufs) free(data);
}

void ls_parsed_read_reason(const ls_parsed *r, char *buf, size_t n) {
  switch (r->read_failure) {
    case LS_READ_OPEN: snprintf(buf, n, "cannot open: %s", strerror(r->errno_value)); return;
    case LS_READ_STAT: snprintf(buf, n, "cannot stat: %s", strerror(r->errno_value)); return;
    case LS_READ_NOT_FILE: snprintf(buf, n, "not a regular file"); return;
    case LS_READ_TOO_BIG:
      snprintf(buf, n, "file of %lld bytes is larger than the %lld-byte limit", (long long)r->st.st_size,
               (long long)LS_MAX_FILE_BYTES);
      return;
    case LS_READ_NOMEM: snprintf(buf, n, "out of memory reading %lld bytes", (long long)r->wanted); return;
    case LS_READ_IO: snprintf(buf, n, "read error: %s", strerror(r->errno_value)); return;
    case LS_READ_SHRANK: snprintf(buf, n, "file shrank while being read"); return;
    case LS_READ_ARCHIVE: snprintf(buf, n, "%s", r->parse_error.msg); return;
    case LS_READ_OK: break;
  }
  snprintf(buf, n, "read");
}

void ls_parsed_free_model(ls_parsed *r) {
  if (r->model) r->fmt->free_model(r->model);
  r->model = NULL;
}

/* ---- the pool --------------------------------------------------------------- */

typedef enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE } job_state;

struct ls_job {
  char *path;                 /* malloc'd: the name formats are detected by (and, without `read`, the file read) */
  ls_read_fn read;            /* where the bytes come from (read_whole of path, or a game resource's reader) */
  void *ctx;                  /* read's, owned: freed with ctx_free (NULL: ctx is path) */
  void (*ctx_free)(void *);
  const ls_format *fmt;
  const ls_format **formats;  /* malloc'd copy, only when fmt is NULL */
  int nformats;
  uint64_t max_decoded;       /* levelsql_limit('decoded') when submitted */
  job_state state;            /* under the pool's lock */
  int abandoned;              /* cancelled while running: the thread frees it */
  ls_parsed result;           /* valid once JOB_DONE */
  ls_job *prev, *next;        /* the queue, while JOB_QUEUED */
};

struct ls_pool {
  pthread_mutex_t lock;
  pthread_cond_t queued;      /* a job was queued, or the threads must stop */
  pthread_cond_t finished;    /* a job is done */
  ls_job *head, *tail;        /* queued jobs, oldest first */
  pthread_t *threads;
  int nthreads;               /* running */
  int wanted;                 /* the size asked for */
  int stopping;
  int failed;                 /* a thread could not be started: no more tries */
};

static void job_free(ls_job *job) {
  ls_parsed_free_model(&job->result);
  if (job->ctx_free) job->ctx_free(job->ctx);
  free(job->formats);
  free(job->path);
  free(job);
}

/* Runs a job; bufs: the running thread's buffers, or NULL; cancel: the
** connection's interrupt when it runs the job itself, or on a worker
** (which never calls SQLite) whether the job was abandoned (job_abandoned). */
static void job_run(ls_job *job, ls_parse_buffers *bufs, const codec_cancel *cancel) {
  ls_parse_read(job->read, job->ctx_free ? job->ctx : job->path, job->path, job->fmt,
                (const ls_format *const *)job->formats, job->nformats, job->max_decoded, bufs, cancel, &job->result);
}

/* Unlinks a queued job (lock held). */
static void queue_remove(ls_pool *pool, ls_job *job) {
  if (job->prev) job->prev->next = job->next;
  else pool->head = job->next;
  if (job->next) job->next->prev = job->prev;
  else pool->tail = job->prev;
  job->prev = job->next = NULL;
}

/* A worker's cancel: its running job was abandoned (ls_pool_cancel: the
** statement that wanted the file was interrupted or ended), so the rest of
** its parse is wasted work; the parse stops at its next poll and the worker
** frees the job. */
typedef struct job_watch {
  ls_pool *pool;
  ls_job *job;
} job_watch;

static int job_abandoned(void *arg) {
  job_watch *w = arg;
  int abandoned;
  pthread_mutex_lock(&w->pool->lock);
  abandoned = w->job->abandoned;
  pthread_mutex_unlock(&w->pool->lock);
  return abandoned;
}

/* A worker: runs queued jobs, oldest first, until the pool stops.  It
** keeps its buffers from one job to the next and gives them back whenever
** the queue runs dry, so an idle pool holds no memory. */
static void *worker_main(void *arg) {
  ls_pool *pool = arg;
  ls_parse_buffers bufs;
  memset(&bufs, 0, sizeof bufs);
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    ls_job *job;
    if (!pool->head && (bufs.file.data || bufs.parse.data)) {
      pthread_mutex_unlock(&pool->lock);
      ls_parse_buffers_free(&bufs);
      pthread_mutex_lock(&pool->lock);
      continue;
    }
    while (!pool->stopping && !pool->head) pthread_cond_wait(&pool->queued, &pool->lock);
    if (pool->stopping) break;
    job = pool->head;
    queue_remove(pool, job);
    job->state = JOB_RUNNING;
    pthread_mutex_unlock(&pool->lock);
    {
      job_watch watch = {pool, job};
      codec_cancel abandoned = {job_abandoned, &watch};
      job_run(job, &bufs, &abandoned);
    }
    job->result.on_thread = 1;
    pthread_mutex_lock(&pool->lock);
    job->state = JOB_DONE;
    if (job->abandoned) job_free(job);
    else pthread_cond_broadcast(&pool->finished);
  }
  pthread_mutex_unlock(&pool->lock);
  ls_parse_buffers_free(&bufs);
  return NULL;
}

ls_pool *ls_pool_new(int threads) {
  ls_pool *pool = calloc(1, sizeof *pool);
  if (!pool) return NULL;
  if (pthread_mutex_init(&pool->lock, NULL) != 0) {
    free(pool);
    return NULL;
  }
  if (pthread_cond_init(&pool->queued, NULL) != 0) {
    pthread_mutex_destroy(&pool->lock);
    free(pool);
    return NULL;
  }
  if (pthread_cond_init(&pool->finished, NULL) != 0) {
    pthread_cond_destroy(&pool->queued);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
    return NULL;
  }
  pool->wanted = threads < 0 ? 0 : threads > LS_MAX_THREADS ? LS_MAX_THREADS : threads;
  return pool;
}

/* Stops and joins the running threads; queued jobs stay queued. */
static void threads_stop(ls_pool *pool) {
  int i;
  if (!pool->nthreads) return;
  pthread_mutex_lock(&pool->lock);
  pool->stopping = 1;
  pthread_cond_broadcast(&pool->queued);
  pthread_mutex_unlock(&pool->lock);
  for (i = 0; i < pool->nthreads; i++) pthread_join(pool->threads[i], NULL);
  free(pool->threads);
  pool->threads = NULL;
  pool->nthreads = 0;
  pool->stopping = 0;
}

/* Starts the pool's threads unless running.  Returns the number running:
** 0 when none may or none could start (then none is tried again until the
** size changes). */
static int threads_start(ls_pool *pool) {
  if (pool->nthreads || !pool->wanted || pool->failed) return pool->nthreads;
  if (!(pool->threads = malloc(sizeof *pool->threads * (size_t)pool->wanted))) return 0;
  while (pool->nthreads < pool->wanted &&
         pthread_create(&pool->threads[pool->nthreads], NULL, worker_main, pool) == 0)
    pool->nthreads++;
  if (pool->nthreads < pool->wanted) pool->failed = 1;
  if (!pool->nthreads) {
    free(pool->threads);
    pool->threads = NULL;
  }
  return pool->nthreads;
}

void ls_pool_free(ls_pool *pool) {
  if (!pool) return;
  threads_stop(pool);
  while (pool->head) {
    ls_job *job = pool->head;
    queue_remove(pool, job);
    job_free(job);
  }
  pthread_cond_destroy(&pool->finished);
  pthread_cond_destroy(&pool->queued);
  pthread_mutex_destroy(&pool->lock);
  free(pool);
}

int ls_pool_threads(const ls_pool *pool) {
  return pool->wanted;
}

void ls_pool_set_threads(ls_pool *pool, int threads) {
  threads = threads < 0 ? 0 : threads > LS_MAX_THREADS ? LS_MAX_THREADS : threads;
  if (threads == pool->wanted) return;
  threads_stop(pool);
  pool->wanted = threads;
  pool->failed = 0;
}

ls_job *ls_pool_submit(ls_pool *pool, const char *path, const ls_format *fmt, const ls_format *const *formats,
                       int nformats, uint64_t max_decoded) {
  return ls_pool_submit_read(pool, read_whole, NULL, NULL, path, fmt, formats, nformats, max_decoded);
}

ls_job *ls_pool_submit_read(ls_pool *pool, ls_read_fn read, void *ctx, void (*ctx_free)(void *), const char *path,
                            const ls_format *fmt, const ls_format *const *formats, int nformats,
                            uint64_t max_decoded) {
  ls_job *job;
  if (!threads_start(pool) || !(job = calloc(1, sizeof *job))) {
    if (ctx_free) ctx_free(ctx);
    return NULL;
  }
  job->read = read;
  job->ctx = ctx;
  job->ctx_free = ctx_free;
  job->fmt = fmt;
  job->max_decoded = max_decoded;
  if (!(job->path = malloc(strlen(path) + 1))) {
    job_free(job);
    return NULL;
  }
  strcpy(job->path, path);
  if (!fmt && nformats > 0) {
    if (!(job->formats = malloc(sizeof *job->formats * (size_t)nformats))) {
      job_free(job);
      return NULL;
    }
    memcpy(job->formats, formats, sizeof *job->formats * (size_t)nformats);
    job->nformats = nformats;
  }
  pthread_mutex_lock(&pool->lock);
  job->state = JOB_QUEUED;
  job->prev = pool->tail;
  if (pool->tail) pool->tail->next = job;
  else pool->head = job;
  pool->tail = job;
  pthread_cond_signal(&pool->queued);
  pthread_mutex_unlock(&pool->lock);
  return job;
}

/* Waits until the running job is done (1), or `cancel` says stop (0),
** looking every 10 ms; called and returns with the pool's lock held. */
static int wait_done(ls_pool *pool, ls_job *job, const codec_cancel *cancel) {
  while (job->state != JOB_DONE) {
    struct timespec until;
    int stop;
    if (!cancel) {
      pthread_cond_wait(&pool->finished, &pool->lock);
      continue;
    }
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 10000000;
    if (until.tv_nsec >= 1000000000) until.tv_sec++, until.tv_nsec -= 1000000000;
    if (pthread_cond_timedwait(&pool->finished, &pool->lock, &until) == 0 || job->state == JOB_DONE) continue;
    pthread_mutex_unlock(&pool->lock); /* the callback may step SQLite: not under the lock */
    stop = codec_cancelled(cancel);
    pthread_mutex_lock(&pool->lock);
    if (stop && job->state != JOB_DONE) return 0;
  }
  return 1;
}

int ls_pool_take(ls_pool *pool, ls_job *job, ls_parse_buffers *bufs, const codec_cancel *cancel, ls_parsed *out) {
  int run_here = 0, done = 1;
  pthread_mutex_lock(&pool->lock);
  if (job->state == JOB_QUEUED) {
    queue_remove(pool, job);
    run_here = 1;
  } else {
    done = wait_done(pool, job, cancel);
  }
  pthread_mutex_unlock(&pool->lock);
  if (!done) {
    ls_pool_cancel(pool, job);
    return 0;
  }
  if (run_here) job_run(job, bufs, cancel);
  *out = job->result;
  job->result.model = NULL;
  job_free(job);
  return 1;
}

void ls_pool_cancel(ls_pool *pool, ls_job *job) {
  int free_now = 1;
  if (!job) return;
  pthread_mutex_lock(&pool->lock);
  if (job->state == JOB_QUEUED) queue_remove(pool, job);
  else if (job->state == JOB_RUNNING) free_now = 0, job->abandoned = 1;
  pthread_mutex_unlock(&pool->lock);
  if (free_now) job_free(job);
}

int ls_processors_online(void) {
#ifdef _WIN32
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return info.dwNumberOfProcessors > 0 ? (int)info.dwNumberOfProcessors : 1;
#else
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > LS_MAX_THREADS ? LS_MAX_THREADS : (int)n;
#endif
}
