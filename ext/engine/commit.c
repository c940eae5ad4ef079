/*
** commit.c: the write-back of a COMMIT: locks, temporary files, the
** journal of a multi-file commit, and the recovery of what a writer that
** died left behind.  The protocol is described in commit.h; the guarantees
** in the README ("Writing, safely").
**
** Order of a commit (ls_commit):
**   1. lock every target (sorted canonical paths), waiting up to busy_ms;
**   2. recover what dead writers left in the targets' folders;
**   3. check each target: unchanged since read, writable, one link;
**   4. (several files) create the journal, locked, and a pointer to it in
**      every other folder, flushed with their folders;
**   5. write every temporary file (owner, group and mode of the target),
**      flushed and closed; (several files) link each target to its undo
**      name;
**   6. (several files) write the journal's records and checksum, flushed:
**      the commit point;
**   7. rename each temporary file over its target; if one fails, put the
**      replaced ones back from their undo links and drop the journal;
**   8. flush the folders; remove undo links, pointers, then the journal;
**      unlock.
** A writer that dies before 6 leaves an incomplete journal: recovery drops
** it and the orphans, the files are all old.  After 6, recovery renames the
** temporary files that are left: the files are all new.
*/
#include "engine/commit.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/file.h>
#endif
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"

#define JOURNAL_PREFIX ".levelsql-journal-"
#define OWN_MARK ".levelsql-"
#define UNDO_SUFFIX "-old"
/* How deep a pointer may lead to a journal (pointer -> journal: 1). */
#define MAX_HOPS 2

int64_t ls_stat_mtime_ns(const struct stat *st) {
  return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

char *ls_dir_of(const char *canon) {
  const char *slash = strrchr(canon, '/');
  if (!slash) return sqlite3_mprintf(".");
  if (slash == canon) return sqlite3_mprintf("/");
#ifdef _WIN32
  /* a file at the root of a drive: "C:/" (not "C:", that drive's current folder) */
  if (slash == canon + 2 && canon[1] == ':') return sqlite3_mprintf("%.3s", canon);
#endif
  return sqlite3_mprintf("%.*s", (int)(slash - canon), canon);
}

/* The name part of a path.  On Windows a path the user gave (the target of
** ls_commit_create) may separate with '\\' too, and may start with a drive
** letter ("C:name"). */
static const char *base_of(const char *path) {
  const char *slash = strrchr(path, '/');
#ifdef _WIN32
  const char *backslash = strrchr(path, '\\');
  if (backslash && (!slash || backslash > slash)) slash = backslash;
  if (!slash && path[0] && path[1] == ':') return path + 2;
#endif
  return slash ? slash + 1 : path;
}

/* Are the n characters at p the random part mkstemp gives (letters and
** digits)? */
static int is_random_part(const char *p, int n) {
  int i;
  for (i = 0; i < n; i++) {
    char c = p[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return 0;
  }
  return 1;
}

/* Our names: ".levelsql-journal-XXXXXX", ".<name>.levelsql-XXXXXX" and
** ".<name>.levelsql-XXXXXX-old".  Anything else (a user's ".levelsql-x"
** included) is not ours and is never listed as ours, nor removed. */
int ls_commit_owns_name(const char *name) {
  size_t n = strlen(name), mark = strlen(OWN_MARK), pj = strlen(JOURNAL_PREFIX);
  const char *p, *last = NULL;
  if (name[0] != '.') return 0;
  if (n == pj + 6 && strncmp(name, JOURNAL_PREFIX, pj) == 0) return is_random_part(name + pj, 6);
  for (p = strstr(name + 1, OWN_MARK); p; p = strstr(p + 1, OWN_MARK)) last = p;
  if (!last || last == name + 1) return 0;
  p = last + mark;
  if (strlen(p) != 6 && !(strlen(p) == 6 + strlen(UNDO_SUFFIX) && strcmp(p + 6, UNDO_SUFFIX) == 0)) return 0;
  return is_random_part(p, 6);
}

/* ---- locks -------------------------------------------------------------- */

/* A monotonic clock in milliseconds, for busy waits. */
static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Takes the exclusive flock of fd, retrying every few milliseconds until
** busy_ms have passed since `start` (ms of now_ms()).  flock, not fcntl:
** a POSIX record lock belongs to the process and is lost when any of its
** descriptors of the file closes (SQLite's documented trap), and two
** connections of one process would not exclude each other; a flock
** belongs to the open file description.  Returns 0, EWOULDBLOCK when the
** time is up, or another errno. */
static int lock_until(int fd, int64_t start, int busy_ms) {
  int pause = 1;
  for (;;) {
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) return 0;
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) return errno;
    if (now_ms() - start >= busy_ms) return EWOULDBLOCK;
    {
      struct timespec ts = {0, (long)pause * 1000000L};
      nanosleep(&ts, NULL);
    }
    if (pause < 20) pause *= 2;
  }
}

/* Opens and locks the file at path: the file the path names when the lock
** is taken (a writer that held it may have renamed another file over the
** path meanwhile: then the new one is locked).  Returns the descriptor,
** or -1 with *why: EWOULDBLOCK (busy past busy_ms), or the errno of open.
** On a file system that has no flock (some network and FUSE ones) the
** file is used unlocked: the stale-file check still guards it.
** *st gets the stat of the locked file. */
static int lock_path(const char *path, int64_t start, int busy_ms, struct stat *st, int *why) {
  for (;;) {
    struct stat now;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    int rc;
    if (fd < 0) {
      *why = errno;
      return -1;
    }
    rc = lock_until(fd, start, busy_ms);
    if (rc == ENOLCK || rc == EINVAL || rc == EOPNOTSUPP || rc == ENOSYS) {
      rc = 0; /* a file system without flock: written unlocked, as before locks */
    }
    if (rc != 0) {
      close(fd);
      *why = rc;
      return -1;
    }
    if (fstat(fd, st) == 0 && stat(path, &now) == 0 && now.st_dev == st->st_dev && now.st_ino == st->st_ino) {
      return fd;
    }
    close(fd); /* replaced while we waited: lock what the path names now */
  }
}

/* ---- our files: temporary files, journals, pointers ------------------------ */

/* Creates dir/<prefix>XXXXXX with mkstemp and locks it, so recovery leaves
** it alone.  A recovery may remove it between mkstemp and the lock (it was
** not locked yet): then another is made.  Returns the write descriptor and
** the path (*path, sqlite3_malloc'd) and, in *lock_fd, a second descriptor
** of the same open file that keeps the lock once the first is closed; -1
** with errno set on failure. */
static int create_owned(const char *dir, const char *prefix, char **path, int *lock_fd) {
  int attempt;
  for (attempt = 0; attempt < 8; attempt++) {
    struct stat st;
    int fd, e;
    char *p = sqlite3_mprintf("%s/%sXXXXXX", dir, prefix);
    if (!p) {
      errno = ENOMEM;
      return -1;
    }
    if ((fd = mkstemp(p)) < 0) {
      e = errno;
      sqlite3_free(p);
      errno = e;
      return -1;
    }
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {
    }
    if (fstat(fd, &st) == 0 && st.st_nlink > 0 && (*lock_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) >= 0) {
      *path = p;
      return fd;
    }
    e = errno;
    close(fd);
    sqlite3_free(p);
    if (st.st_nlink > 0) {
      errno = e;
      return -1;
    }
  }
  errno = EAGAIN;
  return -1;
}

/* Writes all of data to fd.  Returns 0 or an errno. */
static int write_all(int fd, const void *data, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(fd, (const unsigned char *)data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += (size_t)n;
  }
  return 0;
}

/* Writes, flushes (fsync) and closes fd, whatever fails; st (unless NULL)
** gets the file's stat once flushed.  Returns NULL, or the sqlite3_mprintf'd
** "<path>: <what failed>: <reason>". */
static char *write_flush_close(int fd, const char *path, const void *data, size_t size, struct stat *st) {
  int e = write_all(fd, data, size);
  char *err = NULL;
  if (e) err = sqlite3_mprintf("%s: cannot write: %s", path, strerror(e));
  else if (fsync(fd) != 0 || (st && fstat(fd, st) != 0)) err = sqlite3_mprintf("%s: cannot flush to disk: %s", path, strerror(errno));
  if (close(fd) != 0 && !err) err = sqlite3_mprintf("%s: cannot write (close): %s", path, strerror(errno));
  return err;
}

/* Appends "; nothing was written" to *err (an error before the commit
** point).  Returns 0, for `return nothing_written(err);`. */
static int nothing_written(char **err) {
  char *full = sqlite3_mprintf("%s; nothing was written", *err);
  sqlite3_free(*err);
  *err = full;
  return 0;
}

/* fsyncs a folder, so the names created, renamed or removed in it last.
** Returns 0 or an errno. */
static int flush_dir(const char *dir) {
#ifdef _WIN32
  /* Windows cannot flush a folder (FlushFileBuffers wants a file open for
  ** writing); NTFS journals its names itself. */
  (void)dir;
  return 0;
#else
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int e = 0;
  if (fd < 0) return errno;
  if (fsync(fd) != 0) e = errno;
  close(fd);
  return e;
#endif
}

/* Removes path when it is still the file open at fd (a name reused since
** must not go). */
static void unlink_if_same(const char *path, int fd) {
  struct stat a, b;
  if (fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) unlink(path);
}

/* ---- journal text -------------------------------------------------------- */

/* A journal or pointer file: records "<kind> <length>:<bytes>\n" after a
** header line, closed by "end <checksum>\n" (FNV-1a of all before it).
** Kinds: 'p' a pointer file of the commit, 't' a temporary file, 'u' its
** undo link, 'f' its target (t, u, f in that order per file); a pointer
** holds one 'j', the journal's path. */
#define JOURNAL_HEADER "levelsql journal 1\n"
#define POINTER_HEADER "levelsql pointer 1\n"

/* The checksum of a journal text (FNV-1a, 32 bits): a torn write shows. */
static uint32_t fnv1a(const char *p, size_t n) {
  uint32_t h = 2166136261u;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 16777619u;
  return h;
}

/* Appends one record: kind, length, value (paths may hold any byte but NUL). */
static void put_record(sqlite3_str *s, char kind, const char *value) {
  sqlite3_str_appendf(s, "%c %d:%s\n", kind, (int)strlen(value), value);
}

/* Closes the text with its checksum line; sqlite3_malloc'd, NULL when out
** of memory. */
static char *finish_records(sqlite3_str *s) {
  char *body = sqlite3_str_finish(s), *all;
  if (!body) return NULL;
  all = sqlite3_mprintf("%send %08x\n", body, fnv1a(body, strlen(body)));
  sqlite3_free(body);
  return all;
}

typedef struct records {
  int pointer;      /* a pointer file (else a journal) */
  int n;
  char *kind;       /* kind of record i */
  char **value;     /* sqlite3_malloc'd */
} records;

/* Frees what records_parse made. */
static void records_free(records *r) {
  int i;
  for (i = 0; i < r->n; i++) sqlite3_free(r->value[i]);
  sqlite3_free(r->value);
  sqlite3_free(r->kind);
  memset(r, 0, sizeof *r);
}

/* Parses a complete journal or pointer text.  Returns 1, or 0 when it is
** incomplete or damaged (a writer died while writing it) or out of memory. */
static int records_parse(const char *text, size_t size, records *r) {
  const char *p = text, *end = text + size, *tail;
  memset(r, 0, sizeof *r);
  if (size < 14 || text[size - 1] != '\n') return 0;
  for (tail = end - 2; tail > text && *tail != '\n'; tail--) {
  }
  tail++; /* the last line */
  if (strncmp(tail, "end ", 4) != 0 || end - tail != 13 ||
      strtoul(tail + 4, NULL, 16) != fnv1a(text, (size_t)(tail - text)))
    return 0;
  if (strncmp(p, JOURNAL_HEADER, strlen(JOURNAL_HEADER)) == 0) p += strlen(JOURNAL_HEADER);
  else if (strncmp(p, POINTER_HEADER, strlen(POINTER_HEADER)) == 0) p += strlen(POINTER_HEADER), r->pointer = 1;
  else return 0;
  while (p < tail) {
    char *colon;
    long len;
    char **values;
    char *kinds;
    if (tail - p < 4 || p[1] != ' ') break;
    len = strtol(p + 2, &colon, 10);
    if (*colon != ':' || len < 0 || colon + 1 + len >= tail || colon[1 + len] != '\n') break;
    values = sqlite3_realloc64(r->value, sizeof *values * (sqlite3_uint64)(r->n + 1));
    if (values) r->value = values;
    kinds = sqlite3_realloc64(r->kind, (sqlite3_uint64)(r->n + 1));
    if (kinds) r->kind = kinds;
    if (!values || !kinds || !(r->value[r->n] = sqlite3_mprintf("%.*s", (int)len, colon + 1))) break;
    r->kind[r->n++] = p[0];
    p = colon + 2 + len;
  }
  if (p != tail) {
    records_free(r);
    return 0;
  }
  return 1;
}

/* Reads a small file open at fd whole (journals are a few KiB). */
static char *read_small(int fd, size_t *size) {
  struct stat st;
  char *buf;
  size_t done = 0;
  if (fstat(fd, &st) != 0 || st.st_size > (1 << 24)) return NULL;
  if (!(buf = sqlite3_malloc64((sqlite3_uint64)st.st_size + 1))) return NULL;
  while (done < (size_t)st.st_size) {
    ssize_t n = pread(fd, buf + done, (size_t)st.st_size - done, (off_t)done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
  buf[done] = 0;
  *size = done;
  return buf;
}

/* ---- recovery ---------------------------------------------------------- */

/* What a recovery of one folder knows: the targets its caller holds
** locked (their journals are recovered without locking them again; an
** undo link of one of them is an orphan even though it is locked), and
** the names it must not remove (files of a journal someone else is still
** finishing). */
typedef struct recovery {
  const ls_commit_file *held;
  const int *held_fd;
  int nheld;
  int busy_ms;
  char **keep;
  int nkeep;
  int left; /* something of ours stays */
} recovery;

/* Adds path to the names recovery must not remove (silently not, when out
** of memory: then a leftover stays until the next look, nothing is lost). */
static void keep_name(recovery *rc, const char *path) {
  char **p = sqlite3_realloc64(rc->keep, sizeof *p * (sqlite3_uint64)(rc->nkeep + 1));
  if (!p) return;
  rc->keep = p;
  if ((p[rc->nkeep] = sqlite3_mprintf("%s", path)) != NULL) rc->nkeep++;
}

/* Is path among the names recovery must not remove? */
static int kept(const recovery *rc, const char *path) {
  int i;
  for (i = 0; i < rc->nkeep; i++) {
    if (strcmp(rc->keep[i], path) == 0) return 1;
  }
  return 0;
}

/* The index of path among the caller's held targets, or -1. */
static int held_index(const recovery *rc, const char *path) {
  int i;
  for (i = 0; i < rc->nheld; i++) {
    if (strcmp(rc->held[i].canon, path) == 0) return i;
  }
  return -1;
}

/* Is the file open at fd one of the caller's locked targets? */
static int is_held_file(const recovery *rc, int fd) {
  struct stat a, b;
  int i;
  if (fstat(fd, &a) != 0) return 0;
  for (i = 0; i < rc->nheld; i++) {
    if (fstat(rc->held_fd[i], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) return 1;
  }
  return 0;
}

static int recover_journal(recovery *rc, const char *path, int hops);

/* Rolls a complete journal forward (its writer is gone, we hold its lock):
** locks its targets, renames every temporary file still there over its
** target, flushes their folders, then removes the undo links, the
** pointers and the journal.  Returns 1 when done. */
static int roll_forward(recovery *rc, const char *path, int jfd, const records *r) {
  int *fds = sqlite3_malloc64(sizeof *fds * (sqlite3_uint64)(r->n + 1));
  int i, ok = fds != NULL;
  int64_t start = now_ms();
  for (i = 0; fds && i < r->n; i++) fds[i] = -1;
  for (i = 0; ok && i < r->n; i++) {
    struct stat st;
    int why;
    if (r->kind[i] != 'f' || held_index(rc, r->value[i]) >= 0) continue;
    fds[i] = lock_path(r->value[i], start, rc->busy_ms, &st, &why);
    if (fds[i] < 0 && why != ENOENT) ok = 0;
  }
  for (i = 2; ok && i < r->n; i++) {
    struct stat st;
    if (r->kind[i] != 'f' || r->kind[i - 2] != 't') continue;
    if (lstat(r->value[i - 2], &st) == 0 && rename(r->value[i - 2], r->value[i]) != 0) ok = 0;
  }
  for (i = 0; ok && i < r->n; i++) {
    if (r->kind[i] == 'f') {
      char *dir = ls_dir_of(r->value[i]);
      if (dir) (void)flush_dir(dir);
      sqlite3_free(dir);
    }
  }
  for (i = 0; ok && i < r->n; i++) {
    if (r->kind[i] == 'u' || r->kind[i] == 'p') unlink(r->value[i]);
  }
  if (ok) unlink_if_same(path, jfd);
  for (i = 0; fds && i < r->n; i++) {
    if (fds[i] >= 0) close(fds[i]);
  }
  sqlite3_free(fds);
  return ok;
}

/* Keeps the files a journal names from removal (it stays: someone else is
** finishing it, or it could not be finished now). */
static void keep_journal_files(recovery *rc, int fd) {
  size_t size = 0;
  char *text = read_small(fd, &size);
  records r;
  int i;
  rc->left = 1;
  if (text && records_parse(text, size, &r)) {
    for (i = 0; i < r.n; i++) {
      if (r.kind[i] == 't' || r.kind[i] == 'u') keep_name(rc, r.value[i]);
    }
    records_free(&r);
  }
  sqlite3_free(text);
}

/* Does the journal's text (r) list the pointer file at path? */
static int lists_pointer(const records *r, const char *path) {
  int i;
  for (i = 0; i < r->n; i++) {
    if (r->kind[i] == 'p' && strcmp(r->value[i], path) == 0) return 1;
  }
  return 0;
}

/* Follows a pointer file whose writer is gone (we hold its lock) to its
** journal, which is finished first when it is this commit's (it lists the
** pointer, or is still incomplete: recovering it decides); the pointer is
** removed once that journal is gone (finished, or dropped: its commit never
** happened).  Returns 1 when the pointer is gone. */
static int follow_pointer(recovery *rc, const char *path, int fd, const records *r, int hops) {
  int jfd;
  if (r->n == 1 && r->kind[0] == 'j' && (jfd = open(r->value[0], O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) >= 0) {
    size_t size = 0;
    char *text = read_small(jfd, &size);
    records jr;
    int ours = 1;
    if (text && records_parse(text, size, &jr)) {
      ours = !jr.pointer && lists_pointer(&jr, path);
      records_free(&jr);
    }
    sqlite3_free(text);
    close(jfd);
    if (ours && !recover_journal(rc, r->value[0], hops + 1)) return 0;
  }
  unlink_if_same(path, fd);
  return 1;
}

/* Finishes or drops the journal or pointer file at path when its writer
** is gone (its lock is free).  Returns 1 when it is gone. */
static int recover_journal(recovery *rc, const char *path, int hops) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  struct stat st;
  size_t size = 0;
  char *text;
  records r;
  int done = 1;
  if (fd < 0) return errno == ENOENT;
  if (hops > MAX_HOPS || flock(fd, LOCK_EX | LOCK_NB) != 0) {
    keep_journal_files(rc, fd); /* a live writer's, or another recovery's */
    close(fd);
    return 0;
  }
  if (fstat(fd, &st) != 0 || st.st_nlink == 0) {
    close(fd);
    return 1; /* finished by someone else meanwhile */
  }
  text = read_small(fd, &size);
  if (!text) {
    done = 0;
  } else if (!records_parse(text, size, &r)) {
    unlink_if_same(path, fd); /* never completed: no file was replaced */
  } else {
    done = r.pointer ? follow_pointer(rc, path, fd, &r, hops) : roll_forward(rc, path, fd, &r);
    records_free(&r);
  }
  if (!done) keep_journal_files(rc, fd);
  sqlite3_free(text);
  close(fd);
  return done;
}

/* Removes a temporary file or undo link nobody holds: its lock is free (a
** live writer holds its temporary files, and its targets, to which its
** undo links point), or it is an undo link of a target the caller holds. */
static void remove_orphan(recovery *rc, const char *path) {
  int fd;
  if (kept(rc, path)) {
    rc->left = 1;
    return;
  }
  fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return;
  if (flock(fd, LOCK_EX | LOCK_NB) == 0 || is_held_file(rc, fd)) unlink_if_same(path, fd);
  else rc->left = 1;
  close(fd);
}

/* Recovers folder dir with what rc says (see ls_commit_recover). */
static int recover_dir(recovery *rc, const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char **names = NULL;
  int n = 0, i, pass;
  if (!d) return 1;
  while ((e = readdir(d)) != NULL) {
    char **p;
    if (!ls_commit_owns_name(e->d_name)) continue;
    if (!(p = sqlite3_realloc64(names, sizeof *p * (sqlite3_uint64)(n + 1)))) break;
    names = p;
    if ((names[n] = sqlite3_mprintf("%s%s%s", dir, strcmp(dir, "/") ? "/" : "", e->d_name)) != NULL) n++;
  }
  closedir(d);
  /* journals and pointers first: they say which files are not orphans */
  for (pass = 0; pass < 2; pass++) {
    for (i = 0; i < n; i++) {
      int journal = strncmp(base_of(names[i]), JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)) == 0;
      if (pass == 0 && journal) recover_journal(rc, names[i], 0);
      else if (pass == 1 && !journal) remove_orphan(rc, names[i]);
    }
  }
  for (i = 0; i < n; i++) sqlite3_free(names[i]);
  sqlite3_free(names);
  for (i = 0; i < rc->nkeep; i++) sqlite3_free(rc->keep[i]);
  sqlite3_free(rc->keep);
  rc->keep = NULL;
  rc->nkeep = 0;
  return !rc->left;
}

int ls_commit_recover(const char *dir, int busy_ms) {
  recovery rc;
  memset(&rc, 0, sizeof rc);
  rc.busy_ms = busy_ms;
  return recover_dir(&rc, dir);
}

/* ---- the commit ------------------------------------------------------------ */

/* What a commit holds for one target. */
typedef struct target {
  ls_commit_file *f;
  int fd;          /* the target, locked */
  struct stat st;  /* of the target when locked */
  char *tmp;       /* temporary file beside it */
  int tmp_fd;      /* keeps the temporary file's lock */
  char *undo;      /* undo link (several files), once made */
  int renamed;
} target;

/* What a commit holds in all: its targets in lock order, the distinct
** folders, and the journal and pointer files. */
typedef struct commit {
  target *t;
  int n;
  char **dirs;
  int ndirs;
  char *journal;
  int journal_fd, journal_lock;
  char **pointers; /* one per folder but the journal's (index of dirs) */
  int *pointer_lock;
  int busy_ms, flags;
  int keep;        /* the journal stays with the temporary files (see replace_all) */
} commit;

/* qsort order of targets: byte order of the canonical path, the lock order. */
static int compare_targets(const void *a, const void *b) {
  return strcmp(((const target *)a)->f->canon, ((const target *)b)->f->canon);
}

/* Sets the out-of-memory error (before anything is written). */
static int out_of_memory(char **err) {
  *err = sqlite3_mprintf("out of memory; nothing was written");
  return SQLITE_NOMEM;
}

/* Locks every target in order, waiting up to busy_ms in all. */
static int lock_targets(commit *c, char **err) {
  int64_t start = now_ms();
  int i;
  for (i = 0; i < c->n; i++) {
    int why = 0;
    c->t[i].fd = lock_path(c->t[i].f->canon, start, c->busy_ms, &c->t[i].st, &why);
    if (c->t[i].fd >= 0) continue;
    if (why == EWOULDBLOCK) {
      *err = sqlite3_mprintf("%s: locked by another writer (waited %d ms); nothing was written", c->t[i].f->canon,
                             (int)(now_ms() - start));
      return SQLITE_BUSY;
    }
    *err = sqlite3_mprintf("%s: cannot stat before writing: %s; nothing was written", c->t[i].f->canon, strerror(why));
    return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

/* The distinct folders of the targets, in target order. */
static int collect_dirs(commit *c) {
  int i, k;
  if (!(c->dirs = sqlite3_malloc64(sizeof *c->dirs * (sqlite3_uint64)c->n))) return 0;
  for (i = 0; i < c->n; i++) {
    char *dir = ls_dir_of(c->t[i].f->canon);
    if (!dir) return 0;
    for (k = 0; k < c->ndirs && strcmp(c->dirs[k], dir) != 0; k++) {
    }
    if (k < c->ndirs) sqlite3_free(dir);
    else c->dirs[c->ndirs++] = dir;
  }
  return 1;
}

/* Recovers the targets' folders, with the targets held (a dead writer's
** journal over them is finished before they are checked). */
static void recover_target_dirs(commit *c) {
  recovery rc;
  int *fds = sqlite3_malloc64(sizeof *fds * (sqlite3_uint64)c->n);
  ls_commit_file *held = sqlite3_malloc64(sizeof *held * (sqlite3_uint64)c->n);
  int i;
  if (fds && held) {
    for (i = 0; i < c->n; i++) {
      fds[i] = c->t[i].fd;
      held[i] = *c->t[i].f;
    }
    for (i = 0; i < c->ndirs; i++) {
      memset(&rc, 0, sizeof rc);
      rc.held = held;
      rc.held_fd = fds;
      rc.nheld = c->n;
      rc.busy_ms = c->busy_ms;
      recover_dir(&rc, c->dirs[i]);
    }
  }
  sqlite3_free(fds);
  sqlite3_free(held);
}

/* Checks a locked target: nobody changed it since it was read; it is not
** read-only; it has no other hard link. */
static int check_target(commit *c, target *t, char **err) {
  const ls_commit_file *f = t->f;
  struct stat *st = &t->st;
  struct stat locked;
  /* the path's file now: a recovery may have put a dead writer's new file
  ** there since we locked the old one */
  if (fstat(t->fd, &locked) != 0 || stat(f->canon, st) != 0) {
    *err = sqlite3_mprintf("%s: cannot stat before writing: %s; nothing was written", f->canon, strerror(errno));
    return 0;
  }
  if (f->dev != st->st_dev || f->ino != st->st_ino || f->read_size != (int64_t)st->st_size ||
      f->read_mtime_ns != ls_stat_mtime_ns(st) || locked.st_dev != st->st_dev || locked.st_ino != st->st_ino) {
    *err = sqlite3_mprintf("%s: changed on disk since it was read (%s); nothing was written", f->canon,
                           f->read_size != (int64_t)st->st_size                ? "size differs"
                           : f->read_mtime_ns == ls_stat_mtime_ns(st) || f->ino != st->st_ino || f->dev != st->st_dev
                               ? "replaced by another file"
                               : "modification time differs");
    return 0;
  }
  if (!(c->flags & LS_COMMIT_OVERWRITE_READONLY) && ((st->st_mode & 0222) == 0 || access(f->canon, W_OK) != 0)) {
    *err = sqlite3_mprintf("%s: permission denied: the file is read-only; nothing was written "
                           "(SELECT levelsql_overwrite_readonly(1) lets this connection replace read-only files)",
                           f->canon);
    return 0;
  }
  if (st->st_nlink > 1) {
    *err = sqlite3_mprintf("%s: the file has %lu hard links, which replacing it would split (the other names would "
                           "keep the old content); nothing was written",
                           f->canon, (unsigned long)st->st_nlink);
    return 0;
  }
  return 1;
}

/* Writes the new bytes of t into a temporary file beside it, owned like
** the target where the system allows (chown needs privileges: without
** them the new file belongs to the writer) and with its mode, flushed and
** closed; its lock stays on t->tmp_fd. */
static int write_temp(target *t, const char *dir, char **err) {
  char *prefix = sqlite3_mprintf(".%s.levelsql-", base_of(t->f->canon));
  int fd = prefix ? create_owned(dir, prefix, &t->tmp, &t->tmp_fd) : -1;
  struct stat mine;
  sqlite3_free(prefix);
  if (fd < 0) {
    *err = sqlite3_mprintf("%s: cannot create a temporary file beside it: %s; nothing was written", t->f->canon,
                           strerror(prefix ? errno : ENOMEM));
    return 0;
  }
  if (fstat(fd, &mine) == 0 && (mine.st_uid != t->st.st_uid || mine.st_gid != t->st.st_gid)) {
    (void)fchown(fd, t->st.st_uid, t->st.st_gid); /* EPERM: not ours to give away; documented */
  }
  (void)fchmod(fd, t->st.st_mode & 07777);
  if ((*err = write_flush_close(fd, t->f->canon, t->f->data, t->f->size, &t->f->st)) != NULL) return nothing_written(err);
  return 1;
}

/* Creates the journal (in the first target's folder) and a pointer to it
** in every other folder, with the pointers' text, all flushed with their
** folders: from here every temporary file has a journal or pointer beside
** it that recovery finds. */
static int start_journal(commit *c, char **err) {
  int i;
  c->journal_fd = create_owned(c->dirs[0], JOURNAL_PREFIX, &c->journal, &c->journal_lock);
  if (c->journal_fd < 0) {
    *err = sqlite3_mprintf("%s: cannot create the commit journal: %s; nothing was written", c->dirs[0], strerror(errno));
    return 0;
  }
  if (!(c->pointers = sqlite3_malloc64(sizeof *c->pointers * (sqlite3_uint64)c->ndirs)) ||
      !(c->pointer_lock = sqlite3_malloc64(sizeof *c->pointer_lock * (sqlite3_uint64)c->ndirs))) {
    out_of_memory(err);
    return 0;
  }
  for (i = 0; i < c->ndirs; i++) {
    c->pointers[i] = NULL;
    c->pointer_lock[i] = -1;
  }
  for (i = 1; i < c->ndirs; i++) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    char *text;
    int fd;
    sqlite3_str_appendall(s, POINTER_HEADER);
    put_record(s, 'j', c->journal);
    if (!(text = finish_records(s))) {
      out_of_memory(err);
      return 0;
    }
    fd = create_owned(c->dirs[i], JOURNAL_PREFIX, &c->pointers[i], &c->pointer_lock[i]);
    if (fd < 0) {
      *err = sqlite3_mprintf("%s: cannot create the commit journal: %s; nothing was written", c->dirs[i], strerror(errno));
    } else if ((*err = write_flush_close(fd, c->pointers[i], text, strlen(text), NULL)) != NULL) {
      nothing_written(err);
    }
    sqlite3_free(text);
    if (*err) return 0;
  }
  for (i = 0; i < c->ndirs; i++) {
    int e = flush_dir(c->dirs[i]);
    if (e) {
      *err = sqlite3_mprintf("%s: cannot flush the folder to disk: %s; nothing was written", c->dirs[i], strerror(e));
      return 0;
    }
  }
  return 1;
}

/* Links each target to its undo name (the temporary file's name plus
** "-old"), so a failed rename can put the replaced files back. */
static int link_undo(commit *c, char **err) {
  int i;
  for (i = 0; i < c->n; i++) {
    target *t = &c->t[i];
    if (!(t->undo = sqlite3_mprintf("%s" UNDO_SUFFIX, t->tmp))) {
      out_of_memory(err);
      return 0;
    }
    if (link(t->f->canon, t->undo) != 0) {
      *err = sqlite3_mprintf("%s: cannot link it to %s before replacing it: %s; nothing was written", t->f->canon,
                             base_of(t->undo), strerror(errno));
      sqlite3_free(t->undo);
      t->undo = NULL;
      return 0;
    }
  }
  return 1;
}

/* Writes the journal's records and checksum and flushes it: the commit
** point. */
static int complete_journal(commit *c, char **err) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  char *text;
  int i;
  sqlite3_str_appendall(s, JOURNAL_HEADER);
  for (i = 1; i < c->ndirs; i++) put_record(s, 'p', c->pointers[i]);
  for (i = 0; i < c->n; i++) {
    put_record(s, 't', c->t[i].tmp);
    put_record(s, 'u', c->t[i].undo);
    put_record(s, 'f', c->t[i].f->canon);
  }
  if (!(text = finish_records(s))) {
    out_of_memory(err);
    return 0;
  }
  *err = write_flush_close(c->journal_fd, c->journal, text, strlen(text), NULL);
  c->journal_fd = -1;
  sqlite3_free(text);
  return *err ? nothing_written(err) : 1;
}

/* Puts back the first k targets (renamed) after the rename of target k
** failed: each one's new file gets its temporary name again (so a crash
** now still rolls forward to all new), its undo link becomes the target.
** Returns 1 when all k are old again. */
static int undo_renames(commit *c, int k) {
  int i;
  for (i = 0; i < k; i++) {
    target *t = &c->t[i];
    if (link(t->f->canon, t->tmp) != 0 || rename(t->undo, t->f->canon) != 0) return 0;
    sqlite3_free(t->undo);
    t->undo = NULL;
    t->renamed = 0;
    t->f->replaced = 0;
  }
  return 1;
}

/* Renames every temporary file over its target.  On a failure the
** replaced files are put back (several files) and the journal dropped. */
static int replace_all(commit *c, char **err) {
  int i;
  for (i = 0; i < c->n; i++) {
    target *t = &c->t[i];
    int e;
#ifdef _WIN32
    /* Windows cannot replace a file that is open: the target's lock goes
    ** just before its rename.  A writer that takes it in that moment sees
    ** the new file, which its own check (unchanged since read) refuses. */
    if (t->fd >= 0) {
      close(t->fd);
      t->fd = -1;
    }
#endif
    if (rename(t->tmp, t->f->canon) == 0) {
      t->renamed = t->f->replaced = 1;
      continue;
    }
    e = errno;
    if (i == 0 || undo_renames(c, i)) {
      if (c->journal) unlink(c->journal); /* before the temporary files go */
      sqlite3_free(c->journal);
      c->journal = NULL;
      *err = sqlite3_mprintf("%s: cannot replace: %s; nothing was written%s", t->f->canon, strerror(e),
                             i ? " (the files already replaced were put back)" : "");
    } else {
      sqlite3_free(c->journal); /* stays: the next access rolls it forward */
      c->journal = NULL;
      c->keep = 1;
      *err = sqlite3_mprintf("%s: cannot replace: %s, and the files replaced before it could not be put back: the "
                             "commit journal beside them completes the commit at the next access",
                             t->f->canon, strerror(e));
    }
    return 0;
  }
  return 1;
}

/* Flushes every folder after the renames.  A failure is reported: the
** files are replaced, but that this survives a power loss is not
** confirmed. */
static int flush_dirs(commit *c, char **err) {
  int i;
  for (i = 0; i < c->ndirs; i++) {
    int e = flush_dir(c->dirs[i]);
    if (e && !*err) {
      *err = sqlite3_mprintf("%s: the file(s) in this folder were replaced, but the folder could not be flushed to "
                             "disk (%s): that the change survives a power loss is not confirmed",
                             c->dirs[i], strerror(e));
    }
  }
  return *err == NULL;
}

/* Removes what the commit made and is left (temporary files not renamed,
** undo links, pointers, then the journal) and releases every lock.  A
** journal that must stay (c->journal NULL) keeps the temporary files too. */
static void commit_end(commit *c) {
  int i, keep_temps = c->keep;
  for (i = 0; i < c->n; i++) {
    target *t = &c->t[i];
    if (t->undo) unlink(t->undo);
    if (t->tmp && !t->renamed && !keep_temps) unlink(t->tmp);
    if (t->tmp_fd >= 0) close(t->tmp_fd);
    if (t->fd >= 0) close(t->fd);
    sqlite3_free(t->tmp);
    sqlite3_free(t->undo);
  }
  for (i = 1; c->pointers && i < c->ndirs; i++) {
    if (c->pointers[i] && !keep_temps) unlink(c->pointers[i]);
    if (c->pointer_lock && c->pointer_lock[i] >= 0) close(c->pointer_lock[i]);
    sqlite3_free(c->pointers[i]);
  }
  if (c->journal) unlink(c->journal);
  if (c->journal_fd >= 0) close(c->journal_fd);
  if (c->journal_lock >= 0) close(c->journal_lock);
  sqlite3_free(c->journal);
  sqlite3_free(c->pointers);
  sqlite3_free(c->pointer_lock);
  for (i = 0; i < c->ndirs; i++) sqlite3_free(c->dirs[i]);
  sqlite3_free(c->dirs);
  sqlite3_free(c->t);
}

int ls_commit(ls_commit_file *files, int n, int busy_ms, int flags, char **err) {
  commit c;
  int i, rc = SQLITE_OK, multi = n > 1;
  memset(&c, 0, sizeof c);
  c.journal_fd = c.journal_lock = -1;
  c.busy_ms = busy_ms;
  c.flags = flags;
  *err = NULL;
  if (n <= 0) return SQLITE_OK;
  if (!(c.t = sqlite3_malloc64(sizeof *c.t * (sqlite3_uint64)n))) return out_of_memory(err);
  memset(c.t, 0, sizeof *c.t * (size_t)n);
  for (i = 0; i < n; i++) {
    c.t[i].f = &files[i];
    c.t[i].fd = c.t[i].tmp_fd = -1;
    files[i].replaced = 0;
  }
  c.n = n;
  qsort(c.t, (size_t)n, sizeof *c.t, compare_targets);
  if (!collect_dirs(&c)) rc = out_of_memory(err);
  if (rc == SQLITE_OK) rc = lock_targets(&c, err);
  if (rc == SQLITE_OK) {
    recover_target_dirs(&c);
    for (i = 0; i < n && rc == SQLITE_OK; i++) {
      if (!check_target(&c, &c.t[i], err)) rc = SQLITE_ERROR;
    }
  }
  if (rc == SQLITE_OK && multi && !start_journal(&c, err)) rc = SQLITE_ERROR;
  for (i = 0; i < n && rc == SQLITE_OK; i++) {
    char *dir = ls_dir_of(c.t[i].f->canon);
    if (!dir) rc = out_of_memory(err);
    else if (!write_temp(&c.t[i], dir, err)) rc = SQLITE_ERROR;
    sqlite3_free(dir);
  }
  if (rc == SQLITE_OK && multi && (!link_undo(&c, err) || !complete_journal(&c, err))) rc = SQLITE_ERROR;
  if (rc == SQLITE_OK && !replace_all(&c, err)) rc = SQLITE_ERROR;
  if (rc == SQLITE_OK && !flush_dirs(&c, err)) rc = SQLITE_ERROR;
  commit_end(&c);
  return rc;
}

/* Writes a new file (see commit.h): a locked temporary file beside the
** target_path, written and fsync'd, then linked to the target_path's name (link(2)
** fails on an existing name, so nothing is overwritten) or, with overwrite,
** renamed over it; then the folder is fsync'd.  The file gets `mode`.  A crash leaves either no
** target_path or the whole of it, and at most a temporary file that the next
** recovery of the folder removes. */
int ls_commit_create(const char *path, const void *data, size_t size, mode_t mode, int overwrite, char **err) {
  const char *base = base_of(path);
  char *dir_given = base == path ? sqlite3_mprintf(".") : sqlite3_mprintf("%.*s", (int)(base - path), path);
  char *dir = NULL, *prefix = NULL, *tmp = NULL;
  int fd = -1, lock_fd = -1, rc = SQLITE_ERROR;
  *err = NULL;
  if (!dir_given) return out_of_memory(err);
  if (!*base) {
    *err = sqlite3_mprintf("%s: names a folder, not a file", path);
  } else if (!(dir = realpath(dir_given, NULL))) {
    *err = sqlite3_mprintf("%s: no such folder: %s", dir_given, strerror(errno));
  } else if (!(prefix = sqlite3_mprintf(".%s" OWN_MARK, base))) {
    rc = out_of_memory(err);
  } else if ((fd = create_owned(dir, prefix, &tmp, &lock_fd)) < 0) {
    *err = sqlite3_mprintf("%s: cannot create a temporary file in %s: %s", path, dir, strerror(errno));
  } else if (fchmod(fd, mode & 07777) != 0) {
    *err = sqlite3_mprintf("%s: cannot set the mode of %s: %s", path, tmp, strerror(errno));
    close(fd);
  } else if ((*err = write_flush_close(fd, tmp, data, size, NULL)) == NULL) {
    char *target_path = sqlite3_mprintf("%s/%s", dir, base);
    int e = 0;
    if (!target_path) {
      rc = out_of_memory(err);
    } else if (overwrite ? rename(tmp, target_path) != 0 : link(tmp, target_path) != 0) {
      e = errno;
      *err = e == EEXIST ? sqlite3_mprintf("%s: the file exists; nothing was written (pass overwrite = 1 to replace it)", path)
                         : sqlite3_mprintf("%s: cannot create: %s", path, strerror(e));
    } else if ((e = flush_dir(dir)) != 0) {
      *err = sqlite3_mprintf("%s: written, but its folder could not be flushed to disk: %s", path, strerror(e));
    } else {
      rc = SQLITE_OK;
    }
    sqlite3_free(target_path);
  }
  if (tmp && lock_fd >= 0) unlink_if_same(tmp, lock_fd); /* after a link, or a failure; a rename took the name */
  if (lock_fd >= 0) close(lock_fd);
  sqlite3_free(tmp);
  sqlite3_free(prefix);
  free(dir);
  sqlite3_free(dir_given);
  return rc;
}
