/*
** commit.h: writing changed level files back at COMMIT, safely against
** crashes and against other levelsql writers (README, "Writing, safely").
**
** The model is how SQLite, git and editors that save atomically treat the
** files they own: advisory locks between writers, a journal that makes a
** commit of several files all-or-nothing, and cleanup on the next open.
**
**  - Locks: every file of a commit is locked with flock(2) (an exclusive
**    lock on its own open file description, so two connections of one
**    process exclude each other as two processes do), in byte order of the
**    canonical path, from the check "unchanged since it was read" through
**    the rename.  A busy file is retried until the connection's busy
**    timeout has passed.
**  - Temporary files ".<name>.levelsql-XXXXXX" beside the target, locked
**    while their writer lives; a multi-file commit also links each
**    original to ".<name>.levelsql-XXXXXX-old" (its undo) and writes a
**    journal ".levelsql-journal-XXXXXX" in the folder of its first file
**    (with a pointer file of the same pattern in every other folder).  The
**    journal is complete (its checksum line written and flushed) only when
**    every temporary file is: that is the commit point.
**  - Recovery (ls_commit_recover): a journal whose writer died is rolled
**    forward when complete, dropped otherwise; temporary files and undo
**    links nobody holds are removed.  Source listings never show these
**    names (ls_commit_owns_name).
*/
#ifndef LEVELSQL_COMMIT_H
#define LEVELSQL_COMMIT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "engine/win_port.h" /* Windows: the POSIX file calls (empty elsewhere) */

/* One file to replace. */
typedef struct ls_commit_file {
  const char *canon;          /* realpath() of the target */
  const unsigned char *data;  /* the new bytes */
  size_t size;
  /* identity of the bytes the transaction read (stat_record) */
  dev_t dev;
  ino_t ino;
  int64_t read_size;
  int64_t read_mtime_ns;
  /* out */
  int replaced;               /* the new bytes are the file now */
  struct stat st;             /* of the new file, once replaced */
} ls_commit_file;

/* ls_commit flags */
#define LS_COMMIT_OVERWRITE_READONLY 1 /* levelsql_overwrite_readonly(1) */

/* Replaces the n files with their new bytes, all or none of them (see
** above).  busy_ms: how long to wait for a file another writer holds.
** Returns SQLITE_OK; SQLITE_BUSY or SQLITE_ERROR with *err naming the
** file, and with every file's `replaced` telling which ones hold the new
** bytes (none, except after an error of the folder flush, which comes
** after the commit point). */
int ls_commit(ls_commit_file *files, int n, int busy_ms, int flags, char **err);

/* Creates the file at `path` (its folder must exist) holding data, as
** safely as a commit writes: temporary file, fsync, then the name, then
** the folder's fsync; the file gets permissions `mode`.  Refuses an existing file unless overwrite (then
** replaced atomically by rename).  For levelsql_copy, which writes a new
** file at once, outside any transaction.  Returns SQLITE_OK, or an error
** with *err naming the file (nothing is then left behind). */
int ls_commit_create(const char *path, const void *data, size_t size, mode_t mode, int overwrite, char **err);

/* Finishes or drops what a dead writer left in folder dir (a canonical
** path): rolls complete journals forward, removes incomplete ones and the
** temporary files and undo links nobody holds.  Waits for files of a
** journal up to busy_ms.  Returns 1 when nothing of ours is left there
** (0: something is held by a live writer, or could not be removed). */
int ls_commit_recover(const char *dir, int busy_ms);

/* Is this file name (no folder) one of ours: a temporary file, an undo
** link or a journal? */
int ls_commit_owns_name(const char *name);

/* A stat's modification time in nanoseconds. */
int64_t ls_stat_mtime_ns(const struct stat *st);

/* The folder part of a canonical path ("/" for "/x"), sqlite3_malloc'd. */
char *ls_dir_of(const char *canon);

#endif
