/*
** parse_ahead.h: reading and parsing one level file, on the connection's
** own thread or ahead of time on a small pool of worker threads.
**
** A scan over many files that are not cached spends nearly all its time
** reading, inflating and parsing them.  While SQLite consumes the rows of
** the current file, the pool parses the next few, one per core.  Nothing
** about the results changes: the engine takes each file's result when its
** scan reaches that file, in the same order as without the pool, and uses
** it only when the file on disk is still exactly the one the worker read
** (same device, inode, size and modification time, checked by the session
** right before); otherwise it parses the file again itself.  A job nobody
** has started yet when its file is reached is run on the calling thread, so
** the pool never makes a scan wait for work it could do itself.
**
** Workers only read files and run a format's parse(); they never touch
** SQLite, the session or the cache.  Everything here allocates with
** malloc/free (the codecs' allocator), so results may be freed on any
** thread.  One pool per connection (ls_session), created without threads;
** threads start on the first job and stop when the pool is freed or its
** size changes.
*/
#ifndef LEVELSQL_PARSE_AHEAD_H
#define LEVELSQL_PARSE_AHEAD_H

#include <sys/stat.h>

#include "engine/engine.h"
#include "engine/win_port.h"

/* Files larger than this are refused before reading (no level is near it). */
#define LS_MAX_FILE_BYTES ((int64_t)1 << 30)
/* Bytes one read() takes at most, between two looks at the caller's cancel
** (8 MiB: a few milliseconds from the page cache or a fast disk). */
#define LS_READ_CHUNK ((size_t)8 << 20)
/* Bytes read to recognise a file's format (levelsql_files). */
#define LS_SNIFF_BYTES 4096
/* Most worker threads a pool runs (levelsql_threads). */
#define LS_MAX_THREADS 64

/* Why reading a file failed (ls_parsed.read_failure). */
typedef enum ls_read_failure {
  LS_READ_OK = 0,
  LS_READ_OPEN,     /* open() failed: errno_value */
  LS_READ_STAT,     /* fstat() failed: errno_value */
  LS_READ_NOT_FILE, /* not a regular file */
  LS_READ_TOO_BIG,  /* larger than LS_MAX_FILE_BYTES (st.st_size) */
  LS_READ_NOMEM,    /* no buffer for `wanted` bytes */
  LS_READ_IO,       /* read() failed: errno_value */
  LS_READ_SHRANK,   /* the file ended before its size */
  LS_READ_ARCHIVE   /* a game resource: its archive could not be read (parse_error.msg says why, naming it) */
} ls_read_failure;

/* The outcome of reading and parsing one file (ls_parse_file). */
typedef struct ls_parsed {
  ls_read_failure read_failure;
  int errno_value;
  size_t wanted;        /* LS_READ_NOMEM: bytes that could not be allocated */
  struct stat st;       /* of the bytes read (the open descriptor), when read */
  const ls_format *fmt; /* the format asked for or detected; NULL: none matched */
  void *model;          /* fmt->parse's model, owned by whoever holds this; NULL: parse failed */
  codec_error parse_error; /* why parse() failed (msg may be empty) */
  int on_thread;        /* a pool thread did the work (ls_pool_take) */
} ls_parsed;

/* What a thread that parses file after file keeps between files: the
** buffer the file is read into and the format's own scratch
** (ls_format.parse_reusing), so each file reuses the memory of the last
** one instead of faulting in fresh pages.  Zeroed to start;
** ls_parse_buffers_free gives them back. */
typedef struct ls_parse_buffers {
  ls_scratch file;
  ls_scratch parse;
} ls_parse_buffers;

void ls_parse_buffers_free(ls_parse_buffers *bufs);

/* Reads the file at `open_path` and parses it with fmt, or, fmt NULL, with
** the first of formats[0..nformats) whose sniff accepts its first bytes
** (then the one whose extension `name` has), reading only those first
** bytes when none does.  bufs: the thread's buffers to reuse, or NULL
** (fresh ones, freed here).  Fills *out; never fails otherwise.  Safe on
** any thread: the formats must stay registered meanwhile.  A file whose
** header claims more than max_decoded bytes decoded
** (ls_check_bytes_claim) is refused before it is parsed.  `cancel`
** (NULL: none; only the connection's thread passes one) is polled while
** the parse inflates (ls_format.parse_reusing): a parse it stops leaves
** no model and parse_error.code CODEC_E_INTERRUPT, which says nothing
** about the file. */
void ls_parse_file(const char *open_path, const char *name, const ls_format *fmt, const ls_format *const *formats,
                   int nformats, uint64_t max_decoded, ls_parse_buffers *bufs, const codec_cancel *cancel,
                   ls_parsed *out);

/* Where a parse gets its bytes from: a file on disk (ls_parse_file), or
** a resource inside a game's archives (game.c).  Reads the whole of them
** (limit 0) or their first `limit` bytes into reuse's buffer (NULL: a
** malloc'd one; one spare byte, so an empty file still gets one), and the
** identity of exactly the bytes read into out->st.  Returns the buffer
** and its length in *n, or NULL with out->read_failure set, or with
** out->parse_error CODEC_E_INTERRUPT when `cancel` stopped it.  Safe on
** any thread: ctx must hold all it needs. */
typedef unsigned char *(*ls_read_fn)(const void *ctx, size_t limit, ls_scratch *reuse, const codec_cancel *cancel,
                                     ls_parsed *out, size_t *n);

/* ls_parse_file with the bytes `read` gives for ctx; `name` is what
** format detection goes by (its extension). */
void ls_parse_read(ls_read_fn read, const void *ctx, const char *name, const ls_format *fmt,
                   const ls_format *const *formats, int nformats, uint64_t max_decoded, ls_parse_buffers *bufs,
                   const codec_cancel *cancel, ls_parsed *out);

/* Why a result's read failed (read_failure not LS_READ_OK), in words
** ("cannot open: No such file or directory"), into buf[0..n). */
void ls_parsed_read_reason(const ls_parsed *r, char *buf, size_t n);

/* Frees the model of a result (keeps the rest). */
void ls_parsed_free_model(ls_parsed *r);

typedef struct ls_pool ls_pool;
typedef struct ls_job ls_job;

/* A pool with no threads yet, or NULL when out of memory.  `threads`: how
** many it may start (0: none; jobs are then refused). */
ls_pool *ls_pool_new(int threads);

/* Stops the threads (each finishes the file it is parsing) and frees the
** pool.  Every job must have been taken or cancelled. */
void ls_pool_free(ls_pool *pool);

/* The number of threads the pool may run; ls_pool_set_threads changes it
** (0 to LS_MAX_THREADS), stopping the running threads first.  Jobs already
** submitted are kept (taking one runs it on the caller if no thread did). */
int ls_pool_threads(const ls_pool *pool);
void ls_pool_set_threads(ls_pool *pool, int threads);

/* Queues a job that runs ls_parse_file(path, path, fmt, formats, nformats, max_decoded)
** (both arrays are copied).  Returns NULL when the pool runs no threads,
** cannot start one, or is out of memory: the caller parses when it gets
** there, as without a pool. */
ls_job *ls_pool_submit(ls_pool *pool, const char *path, const ls_format *fmt, const ls_format *const *formats,
                       int nformats, uint64_t max_decoded);

/* ls_pool_submit of a job that runs ls_parse_read(read, ctx, name, ...).
** The job owns ctx from now on, and frees it with ctx_free (also when
** NULL is returned). */
ls_job *ls_pool_submit_read(ls_pool *pool, ls_read_fn read, void *ctx, void (*ctx_free)(void *), const char *name,
                            const ls_format *fmt, const ls_format *const *formats, int nformats,
                            uint64_t max_decoded);

/* The job's result into *out (the caller owns out->model), waiting for a
** thread that is running it, or running it here, with the calling
** thread's buffers `bufs` (NULL: fresh ones), if none has started it.
** Frees the job.  While it waits, `cancel` (NULL: none) is polled every
** 10 ms: when it says stop, the job is given up (ls_pool_cancel) and 0 is
** returned with *out untouched; else 1.  A job run here polls `cancel`
** in its parse (ls_parse_file): stopped, it returns 1 with a result whose
** parse_error.code is CODEC_E_INTERRUPT. */
int ls_pool_take(ls_pool *pool, ls_job *job, ls_parse_buffers *bufs, const codec_cancel *cancel, ls_parsed *out);

/* Gives up a job: its result, when there is one, is freed now or by the
** thread that finishes it.  NULL is ignored. */
void ls_pool_cancel(ls_pool *pool, ls_job *job);

/* The number of processors online (at least 1): the default pool size. */
int ls_processors_online(void);

#endif
