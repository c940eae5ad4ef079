/*
** copy.c: levelsql_copy(src, dst [, overwrite]): a new level from a
** template, so that "make 10 variants of this level" is SQL:
**
**   SELECT levelsql_copy('levels/L1.WWD', printf('out/L1_%02d.WWD', value))
**   FROM generate_series(1, 10);
**
** then UPDATE the copies like any level.  Generic: the source may be a file
** of any registered format (WWD, Teeworlds map, WED, wz4), or a resource
** inside a game's archives ("game/chitin.key:AR0602.WED", game.h: the copy
** is the resource as a loose file); it must be one levelsql can read, and
** it is copied byte for byte as it is on disk, so the copy is exactly the
** template (checksum, compression, unknown fields).
** It gets the template's permissions, made writable by its owner (a
** read-only template makes copies one can edit).
**
** Writing, and why it is not part of the transaction: the copy is written
** at once, as safely as a commit writes (ls_commit_create: a temporary file
** beside it, fsync, then the name, then the folder's fsync), and an
** existing file is refused unless overwrite is 1.  A scalar function is
** not told when its statement or transaction ends (a SELECT in autocommit
** never reaches the virtual tables' commit), so a staged copy could not be
** written reliably; and the copy must exist for the statements after it to
** edit it.  So ROLLBACK does not remove a copy.  A source with edits not
** yet committed in this connection is refused: the copy would not hold
** what the transaction shows, so commit first.
** Returns the destination path as given.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/commit.h"
#include "engine/copy.h"
#include "engine/session.h"

/* Reads the whole file at path into *data (sqlite3_malloc'd) with its
** stat.  Returns NULL, or the error message (sqlite3_mprintf'd). */
static char *read_whole(const char *path, unsigned char **data, size_t *size, struct stat *st) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  size_t done = 0;
  char *err = NULL;
  *data = NULL;
  *size = 0;
  if (fd < 0) return sqlite3_mprintf("%s: cannot open: %s", path, strerror(errno));
  if (fstat(fd, st) != 0) {
    err = sqlite3_mprintf("%s: cannot stat: %s", path, strerror(errno));
  } else if (!(*data = sqlite3_malloc64((sqlite3_uint64)st->st_size + 1))) {
    err = sqlite3_mprintf("%s: out of memory for %lld bytes", path, (long long)st->st_size);
  }
  while (!err && done < (size_t)st->st_size) {
    ssize_t n = read(fd, *data + done, (size_t)st->st_size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) err = sqlite3_mprintf("%s: cannot read: %s", path, n < 0 ? strerror(errno) : "the file shrank");
    else done += (size_t)n;
  }
  close(fd);
  if (err) {
    sqlite3_free(*data);
    *data = NULL;
    return err;
  }
  *size = done;
  return NULL;
}

/* read_whole for the file a walk loaded: a resource of a game's archives
** (game.h) is read from its archive, *st its identity. */
static char *read_source(const ls_file *f, const char *path, unsigned char **data, size_t *size, struct stat *st) {
  ls_parsed r;
  unsigned char *bytes;
  size_t n = 0;
  if (!f->loc) return read_whole(path, data, size, st);
  memset(&r, 0, sizeof r);
  *data = NULL;
  *size = 0;
  if (!(bytes = ls_res_read(f->loc, 0, NULL, NULL, &r, &n)))
    return sqlite3_mprintf("%s: %s", path, r.parse_error.msg[0] ? r.parse_error.msg : "cannot read it from its archive");
  if ((*data = sqlite3_malloc64((sqlite3_uint64)n + 1)) != NULL) memcpy(*data, bytes, n);
  free(bytes);
  if (!*data) return sqlite3_mprintf("%s: out of memory for %lld bytes", path, (long long)n);
  *size = n;
  *st = r.st;
  return NULL;
}

/* Loads src (any format) through a walk of that one file (engine.h, "the
** file walk"), which holds it until freed (*walk, freed by the caller
** whatever happens): *f is its cache entry.  SQLITE_OK, or an error with
** *err (NULL: out of memory or interrupted, as the code says). */
static int copy_source_load(ls_session *s, const char *src, ls_walk **walk, ls_file **f, char **err) {
  const ls_walk_file *wf = NULL;
  ls_walk_spec spec;
  int rc;
  memset(&spec, 0, sizeof spec);
  spec.only = src;
  if (!(*walk = ls_walk_new(s, 0))) return SQLITE_NOMEM;
  if ((rc = ls_walk_open(*walk, &spec, err)) == SQLITE_OK) rc = ls_walk_next(*walk, &wf, err);
  if (rc != SQLITE_ROW) return rc == SQLITE_DONE ? SQLITE_ERROR : rc;
  *f = wf->entry;
  return SQLITE_OK;
}

/* levelsql_copy(src, dst [, overwrite]): see the top of the file. */
static void copy_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  ls_session *s = sqlite3_user_data(ctx);
  ls_walk *walk = NULL;
  const char *src = (const char *)sqlite3_value_text(argv[0]);
  const char *dst = (const char *)sqlite3_value_text(argv[1]);
  int overwrite = argc > 2 && sqlite3_value_int(argv[2]) != 0;
  unsigned char *data = NULL;
  size_t size = 0;
  struct stat st, dst_st;
  ls_file *f = NULL;
  char *err = NULL;
  int rc;
  if (!src || !dst || !*src || !*dst) {
    sqlite3_result_error(ctx, "levelsql_copy(src, dst [, overwrite]): src and dst are paths of files", -1);
    return;
  }
  if ((rc = copy_source_load(s, src, &walk, &f, &err)) != SQLITE_OK && !err) {
    ls_walk_free(walk);
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  if (rc == SQLITE_OK && f->working) {
    err = sqlite3_mprintf("levelsql_copy: %s has changes not yet committed in this connection; COMMIT first, then copy", src);
  }
  if (!err && !(err = read_source(f, src, &data, &size, &st)) &&
      (st.st_dev != f->dev || st.st_ino != f->ino || (int64_t)st.st_size != f->size || ls_stat_mtime_ns(&st) != f->mtime_ns)) {
    err = sqlite3_mprintf("levelsql_copy: %s changed on disk while it was copied; nothing was written", src);
  }
  if (!err && stat(dst, &dst_st) == 0 && dst_st.st_dev == st.st_dev &&
      dst_st.st_ino == st.st_ino) {
    err = sqlite3_mprintf("levelsql_copy: %s and %s are the same file", src, dst);
  }
  if (!err && (rc = ls_commit_create(dst, data, size, (st.st_mode & 0777) | S_IWUSR, overwrite, &err)) != SQLITE_OK && !err) {
    err = sqlite3_mprintf("levelsql_copy: %s: cannot write", dst);
  }
  sqlite3_free(data);
  ls_walk_free(walk);
  if (err) {
    sqlite3_result_error(ctx, err, -1);
    sqlite3_free(err);
    return;
  }
  sqlite3_result_text(ctx, dst, -1, SQLITE_TRANSIENT);
}

static void session_unref(void *p) {
  ls_session_release(p);
}

int copy_function_register(sqlite3 *db, ls_session *sess) {
  int n, rc = SQLITE_OK;
  for (n = 2; rc == SQLITE_OK && n <= 3; n++) {
    sess->refs++;
    rc = sqlite3_create_function_v2(db, "levelsql_copy", n, SQLITE_UTF8 | SQLITE_DIRECTONLY, sess, copy_func, NULL, NULL,
                                    session_unref);
  }
  return rc;
}
