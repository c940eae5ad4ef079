/*
** test_write_safety.c: the write-back under crashes, faults, concurrent
** writers and protected files (issue 11), for all four formats, judged on
** the files' bytes and on what is left in their folders.
**
** Each format has a chain of versions of one sample level (c0 = the sample,
** c(k+1) = c(k) after the format's UPDATE); a "set" is four copies in two
** folders (a/L0, a/L1, b/L2, b/L3) where Li starts as c(2i) and becomes
** c(2i+1), so every file's old and new bytes are known and differ from
** every other file's.  A multi-file commit is the UPDATE over the source
** '["<set>/a", "<set>/b"]' (four files, two folders: the journal and a
** pointer); a single-file one names L0.
**
** 1. kill -9: a child stages the UPDATE, signals, and COMMITs; it is killed
**    after a random delay within the commit's measured duration.  A fresh
**    connection then reads the set (which recovers it): every file must be
**    entirely old or entirely new, all alike, and no temporary file or
**    journal may be left.  Multi- and single-file commits alternate.
** 2. Faults: the test runs itself as a child under build/faultshim.so,
**    which fails the Nth write / fsync / folder fsync / close / rename /
**    mkstemp / link of the commit with EIO, ENOSPC, EDQUOT, EPERM or EROFS
**    (N = 1, 2, ... until the commit makes fewer such calls).  Then the
**    statement failed with the errno's text and "nothing was written" and
**    every file is old, or (a folder flush after the renames) it failed
**    with "not confirmed" and every file is new, or (a failure nothing
**    depends on, such as closing a lock) it succeeded and every file is
**    new; and nothing of ours is left, before any recovery.
** 3. Concurrent writers: 2 and 4 processes each run `SET counter =
**    counter + 1` on one level (WWD and Teeworlds) with a busy timeout; the
**    final value must be the initial one plus the successful commits (no
**    lost update); stale-file errors are allowed and counted.
** 4. Locks: a file another writer holds makes a commit wait for the busy
**    timeout, then fail with "locked by another writer"; released in time,
**    the commit goes through.
** 5. Protected files: read-only refused (levelsql_overwrite_readonly(1)
**    allows it, mode kept), hard links refused, owner, group and mode kept
**    (as root), a symbolic link stays a link.
** 6. Leftovers: an orphaned temporary file and an orphaned journal are
**    removed on the next read of their folder, a locked one is kept, and
**    no listing (dot-globs included) shows them.
** LEVELSQL_TORTURE=1 (`make torture`) multiplies the rounds.
*/
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "sqltest.h"
#include "fileutil.h"

#define NFILES 4
#define NCHAIN (2 * NFILES)

typedef struct format_case {
  const char *name;
  const char *sample;   /* in the samples folder */
  const char *ext;
  const char *module;   /* the table the UPDATE goes to */
  const char *column;   /* the counter it steps */
  const char *next;     /* the counter's next value */
  const char *row;      /* the one row it changes */
} format_case;

static const format_case formats[] = {
  {"wwd", "SAMPLE05.WWD", "WWD", "wwd_objects", "health", "health + 1", "plane = 0 AND idx = 0"},
  {"tw", "dm_sample.map", "map", "tw_layers", "color_env_offset", "color_env_offset + 1", "layer_index = 1"},
  {"wed", "AR0100.WED", "WED", "wed_polygons", "height", "(height + 1) % 256", "polygon = 0"},
  {"wz4", "intro.wz4", "wz4", "wz4_operators", "width", "width + 1", "page = 0 AND op = 0"},
};
#define NFORMATS (int)(sizeof formats / sizeof formats[0])

static char tmpdir[256];
static char samples[512];
static int torture;

/* ---- files -------------------------------------------------------------------- */

typedef struct blob {
  unsigned char *data;
  size_t size;
} blob;

static int file_is(const char *path, const blob *b) {
  size_t n = 0;
  unsigned char *now = file_read_all(path, &n);
  int same = now && n == b->size && memcmp(now, b->data, n) == 0;
  free(now);
  return same;
}

/* A new file (new inode) with the blob's bytes. */
static int file_reset(const char *path, const blob *b) {
  if (unlink(path) != 0 && errno != ENOENT) return 0;
  return file_write_all(path, b->data, b->size);
}

/* The format's UPDATE of its counter over source (sqlite3_malloc'd). */
static char *update_sql(const format_case *fc, const char *source) {
  return sqlite3_mprintf("UPDATE %s SET %s = %s WHERE source = '%s' AND %s", fc->module, fc->column, fc->next, source,
                         fc->row);
}

/* The format's counter in one file (fmt()'s buffer). */
static const char *counter_sql(const format_case *fc, const char *path) {
  return fmt("SELECT %s FROM %s('%s') WHERE %s", fc->column, fc->module, path, fc->row);
}

/* Runs sql; returns the result code and copies the message (or "") into
** msg. */
static int run(sqlite3 *db, const char *sql, char *msg, size_t size) {
  char *err = NULL;
  int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
  snprintf(msg, size, "%s", err ? err : "");
  sqlite3_free(err);
  return rc;
}

/* How many of our names (".<x>.levelsql-...", ".levelsql-journal-...") the
** folder holds. */
static int leftovers_in(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  if (!d) return 0;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' && strstr(e->d_name, ".levelsql-")) n++;
  }
  closedir(d);
  return n;
}

/* ---- a format's set of four levels ------------------------------------------ */

typedef struct level_set {
  const format_case *fc;
  char dir[320], a[340], b[340];
  char path[NFILES][400];
  char multi[800];     /* the JSON source of both folders */
  blob chain[NCHAIN];  /* file i: old chain[2i], new chain[2i+1] */
} level_set;

/* Makes the chain of versions of the format's sample and the set's
** folders.  Returns 1 when everything is there. */
static int set_make(level_set *s, const format_case *fc, const char *tag) {
  char scratch[400], *sql;
  int k, ok = 1;
  sqlite3 *db;
  memset(s, 0, sizeof *s);
  s->fc = fc;
  snprintf(s->dir, sizeof s->dir, "%s/%s-%s", tmpdir, fc->name, tag);
  snprintf(s->a, sizeof s->a, "%s/a", s->dir);
  snprintf(s->b, sizeof s->b, "%s/b", s->dir);
  mkdir(s->dir, 0755);
  mkdir(s->a, 0755);
  mkdir(s->b, 0755);
  for (k = 0; k < NFILES; k++) snprintf(s->path[k], sizeof s->path[k], "%s/L%d.%s", k < 2 ? s->a : s->b, k, fc->ext);
  snprintf(s->multi, sizeof s->multi, "[\"%s\", \"%s\"]", s->a, s->b);
  snprintf(scratch, sizeof scratch, "%s/chain.%s", s->dir, fc->ext);
  s->chain[0].data = file_read_all(fmt("%s/%s", samples, fc->sample), &s->chain[0].size);
  if (!s->chain[0].data || !file_write_all(scratch, s->chain[0].data, s->chain[0].size) || !(db = db_open())) return 0;
  sql = update_sql(fc, scratch);
  for (k = 1; ok && k < NCHAIN; k++) {
    ok = exec_ok(db, sql) && (s->chain[k].data = file_read_all(scratch, &s->chain[k].size)) != NULL;
  }
  sqlite3_free(sql);
  sqlite3_close(db);
  unlink(scratch);
  return ok;
}

static void set_free(level_set *s) {
  int k;
  for (k = 0; k < NCHAIN; k++) free(s->chain[k].data);
}

/* Every file back to its old bytes, as new files. */
static int set_reset(level_set *s) {
  int k, ok = 1;
  for (k = 0; k < NFILES; k++) ok = ok && file_reset(s->path[k], &s->chain[2 * k]);
  return ok;
}

/* 0: files 0..n-1 all old, 1: all new (the others old either way), -1:
** anything else (a mixed state, a damaged file). */
static int set_state(const level_set *s, int n) {
  int k, olds = 0, news = 0;
  for (k = 0; k < NFILES; k++) {
    if (file_is(s->path[k], &s->chain[2 * k])) olds += k < n;
    else if (k < n && file_is(s->path[k], &s->chain[2 * k + 1])) news++;
    else return -1;
  }
  return olds == n ? 0 : news == n ? 1 : -1;
}

static int set_leftovers(const level_set *s) {
  return leftovers_in(s->a) + leftovers_in(s->b);
}

/* The source of a commit of n files: the set (4) or its first file. */
static const char *set_source(const level_set *s, int n) {
  return n == NFILES ? s->multi : s->path[0];
}

/* Reads every file of the set through a fresh connection (which recovers
** the folders).  Returns the number of rows read, -1 on an error. */
static long long set_read(const level_set *s) {
  sqlite3 *db = db_open();
  long long rows;
  if (!db) return -1;
  rows = query_int(db, fmt("SELECT count(*) FROM %s('%s')", s->fc->module, s->multi));
  sqlite3_close(db);
  return rows;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Makes the format's set (tag names its folder), resets it and opens a
** connection; NULL (counted as a failed setup) when any of it fails. */
static sqlite3 *set_open(level_set *s, const format_case *fc, const char *tag) {
  sqlite3 *db = NULL;
  if (!set_make(s, fc, tag) || !set_reset(s) || !(db = db_open())) {
    REQUIRE(0, "%s: setting up the levels (%s)", fc->name, tag);
    set_free(s);
    return NULL;
  }
  return db;
}

/* ---- 1. kill -9 ------------------------------------------------------------- */

/* A child that stages the UPDATE over n files, writes one byte to fd,
** commits, and writes how long the COMMIT took (a double, seconds); never
** returns. */
static void committer(const level_set *s, int n, int fd) {
  sqlite3 *db = db_open();
  char *sql = update_sql(s->fc, set_source(s, n));
  char msg[512];
  int ok = db && sql && run(db, "BEGIN", msg, sizeof msg) == SQLITE_OK && run(db, sql, msg, sizeof msg) == SQLITE_OK;
  double t0;
  if (write(fd, ok ? "y" : "n", 1) != 1) _exit(3);
  t0 = now_s();
  ok = ok && run(db, "COMMIT", msg, sizeof msg) == SQLITE_OK;
  t0 = now_s() - t0;
  if (write(fd, &t0, sizeof t0) != (ssize_t)sizeof t0) _exit(3);
  _exit(ok ? 0 : 2);
}

/* Forks a committer and kills it delay_us after it started committing
** (delay_us < 0: lets it finish).  Returns the seconds the COMMIT took
** when it finished, -1 when it was killed, -2 when it failed. */
static double commit_and_kill(const level_set *s, int n, long delay_us) {
  int p[2], status = 0;
  char c = 0;
  pid_t pid;
  double took = -1;
  if (pipe(p) != 0) return -2;
  fflush(stdout);
  if ((pid = fork()) == 0) {
    close(p[0]);
    committer(s, n, p[1]);
  }
  close(p[1]);
  if (pid < 0 || read(p[0], &c, 1) != 1 || c != 'y') {
    close(p[0]);
    if (pid > 0) waitpid(pid, &status, 0);
    return -2;
  }
  if (delay_us >= 0) {
    if (delay_us > 0) usleep((useconds_t)delay_us);
    kill(pid, SIGKILL);
  }
  if (read(p[0], &took, sizeof took) != (ssize_t)sizeof took) took = -1;
  close(p[0]);
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return took;
  return WIFSIGNALED(status) ? -1 : -2;
}

/* ---- 2. faults -------------------------------------------------------------- */

static const char *const fault_calls[] = {"write", "fsync", "dirfsync", "close", "rename", "mkstemp", "link"};
static const struct {
  const char *name;
  int value;
} fault_errnos[] = {{"EIO", EIO}, {"ENOSPC", ENOSPC}, {"EDQUOT", EDQUOT}, {"EPERM", EPERM}, {"EROFS", EROFS}};

/* The child under the shim: runs sql (armed) and prints "<fired> <rc>
** <message>". */
static int fault_child(const char *sql) {
  void (*arm)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "faultshim_arm");
  int (*fired)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "faultshim_fired");
  int (*count)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "faultshim_count");
  sqlite3 *db = db_open();
  char msg[1024];
  int rc;
  if (!arm || !fired || !count || !db) {
    printf("-1 0 0 no shim or no connection\n");
    return 1;
  }
  arm(1);
  rc = run(db, sql, msg, sizeof msg);
  arm(0);
  printf("%d %d %d %s\n", fired(), rc, count(), msg);
  sqlite3_close(db);
  return 0;
}

/* The ASan runtime this process runs with (it must be preloaded before
** the shim), or "". */
static const char *asan_runtime(void) {
  static char path[512];
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[1024];
  path[0] = 0;
  while (maps && fgets(line, sizeof line, maps)) {
    char *p = strchr(line, '/');
    if (p && strstr(p, "libasan.so")) {
      p[strcspn(p, "\n")] = 0;
      snprintf(path, sizeof path, "%s", p);
      break;
    }
  }
  if (maps) fclose(maps);
  return path;
}

/* What a fault child did. */
typedef struct child_result {
  int killed;  /* by the shim (FAULTSHIM_KILL) */
  int fired, rc, count;
  char msg[1024];
} child_result;

/* Runs this test as the fault child for sql under the shim, with the
** environment FAULTSHIM_CALL=call, FAULTSHIM_NTH=nth, FAULTSHIM_ERRNO=
** err_name and, when kill is set, FAULTSHIM_KILL=1.  Returns 0 when it
** could not run or said nothing. */
static int run_faulted(const char *shim, const char *sql, const char *call, int nth, const char *err_name, int kill_it,
                       child_result *r) {
  int p[2], status;
  pid_t pid;
  char out[2048];
  ssize_t got, total = 0;
  memset(r, 0, sizeof *r);
  if (pipe(p) != 0) return 0;
  fflush(stdout);
  if ((pid = fork()) == 0) {
    char preload[1200], n[16];
    const char *asan = asan_runtime();
    dup2(p[1], 1);
    close(p[0]);
    snprintf(preload, sizeof preload, "%s%s%s", asan, *asan ? " " : "", shim);
    snprintf(n, sizeof n, "%d", nth);
    setenv("LD_PRELOAD", preload, 1);
    setenv("FAULTSHIM_CALL", call, 1);
    setenv("FAULTSHIM_NTH", n, 1);
    setenv("FAULTSHIM_ERRNO", err_name, 1);
    setenv("FAULTSHIM_KILL", kill_it ? "1" : "0", 1);
    if (*asan) setenv("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1:verify_asan_link_order=0", 1);
    execl("/proc/self/exe", "test_write_safety", "--fault-child", sql, (char *)NULL);
    _exit(127);
  }
  close(p[1]);
  while (pid > 0 && (got = read(p[0], out + total, sizeof out - 1 - (size_t)total)) > 0) total += got;
  out[total] = 0;
  close(p[0]);
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return 0;
  if (kill_it && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
    r->killed = 1;
    return 1;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 0;
  {
    int consumed = 0;
    if (sscanf(out, "%d %d %d %n", &r->fired, &r->rc, &r->count, &consumed) < 3) return 0;
    snprintf(r->msg, sizeof r->msg, "%s", out + consumed);
    r->msg[strcspn(r->msg, "\n")] = 0;
  }
  return r->fired >= 0;
}

static void fault_matrix(const format_case *fc, const char *shim) {
  level_set s;
  check_loop loop = {0, 0, 0};
  int c, n, multi, old_errors = 0, new_errors = 0, successes = 0;
  if (!set_make(&s, fc, "fault")) {
    REQUIRE(0, "%s: the chain of versions", fc->name);
    set_free(&s);
    return;
  }
  check_loop_enter(&loop);
  for (multi = 0; multi < 2; multi++) {
    int files = multi ? NFILES : 1;
    char *sql = update_sql(fc, set_source(&s, files));
    for (c = 0; c < (int)(sizeof fault_calls / sizeof fault_calls[0]); c++) {
      for (n = 1; n < 64; n++) {
        /* the errnos rotate over N, the call, the file count and the format */
        int e = (c + n + multi + (int)(fc - formats)) % (int)(sizeof fault_errnos / sizeof fault_errnos[0]);
        int fired, rc, state;
        const char *why = strerror(fault_errnos[e].value), *msg;
        child_result r;
        REQUIRE(set_reset(&s), "reset");
        if (!run_faulted(shim, sql, fault_calls[c], n, fault_errnos[e].name, 0, &r)) {
          CHECK(0, "%s: the fault child did not run (%s #%d)", fc->name, fault_calls[c], n);
          break;
        }
        loop.inputs++;
        fired = r.fired;
        rc = r.rc;
        msg = r.msg;
        state = set_state(&s, files);
        CHECK(set_leftovers(&s) == 0, "%s, %d file(s), %s #%d fails with %s: %d temporary file(s) or journal(s) left",
              fc->name, files, fault_calls[c], n, fault_errnos[e].name, set_leftovers(&s));
        if (!fired) {
          CHECK(rc == SQLITE_OK && state == 1, "%s, %d file(s), no fault: rc %d, state %d: %s", fc->name, files, rc,
                state, msg);
          break;
        }
        if (rc == SQLITE_OK) {
          successes++;
          CHECK(state == 1, "%s, %d file(s), %s #%d fails with %s: the commit succeeded but the files are %s",
                fc->name, files, fault_calls[c], n, fault_errnos[e].name, state == 0 ? "old" : "mixed");
        } else if (state == 1) {
          new_errors++;
          CHECK(strstr(msg, why) && strstr(msg, "not confirmed"),
                "%s, %d file(s), %s #%d fails with %s: files new, message: %s", fc->name, files, fault_calls[c], n,
                fault_errnos[e].name, msg);
        } else {
          old_errors++;
          CHECK(state == 0 && strstr(msg, why) && strstr(msg, "nothing was written"),
                "%s, %d file(s), %s #%d fails with %s: files %s, message: %s", fc->name, files, fault_calls[c], n,
                fault_errnos[e].name, state == 0 ? "old" : "mixed", msg);
        }
      }
    }
    sqlite3_free(sql);
  }
  check_loop_done(&loop,
                  "%s faults (write, fsync, folder fsync, close, rename, mkstemp, link x EIO, ENOSPC, EDQUOT, EPERM, "
                  "EROFS; 1 and 4 files): %d refused with nothing written, %d replaced but not confirmed, %d "
                  "succeeded (the failed call mattered not)",
                  fc->name, old_errors, new_errors, successes);
  set_free(&s);
}

/* The kill -9 loop: three rounds in four commit the four files, the
** fourth one file; rounds alternate two ways to pick the moment: a random delay within the
** COMMIT's measured duration (the parent kills the committer), and a
** random one of the file-system calls the commit makes (the shim kills
** it: every step between two calls is reached, also where serializing
** takes most of the time). */
static void kill_loop(const format_case *fc, const char *shim, int rounds) {
  level_set s;
  check_loop loop = {0, 0, 0};
  double window = 0;
  int it, outcome[2] = {0, 0}, interrupted = 0, mixed = 0, left = 0, failed = 0, calls[2] = {0, 0};
  char *sql[2];
  if (!set_make(&s, fc, "kill")) {
    REQUIRE(0, "%s: the chain of versions", fc->name);
    set_free(&s);
    return;
  }
  sql[0] = update_sql(fc, set_source(&s, 1));
  sql[1] = update_sql(fc, set_source(&s, NFILES));
  /* the COMMIT's duration, and how many calls each commit makes */
  for (it = 0; it < 5; it++) {
    double t;
    REQUIRE(set_reset(&s), "reset");
    t = commit_and_kill(&s, NFILES, -1);
    if (t > window) window = t;
  }
  for (it = 0; it < 2; it++) {
    child_result r;
    REQUIRE(set_reset(&s), "reset");
    REQUIRE(run_faulted(shim, sql[it], "any", 0, "EIO", 0, &r) && r.rc == SQLITE_OK && r.count > 0,
            "%s: counting the calls of a commit: %s", fc->name, r.msg);
    calls[it] = r.count;
  }
  check_loop_enter(&loop);
  for (it = 0; it < rounds; it++) {
    int multi = it % 4 != 3, n = multi ? NFILES : 1, state;
    loop.inputs++;
    REQUIRE(set_reset(&s), "reset");
    if (it % 2 == 0) {
      if (commit_and_kill(&s, n, (long)((double)rand() / RAND_MAX * window * 1.2e6)) < -1.5) failed++;
    } else {
      child_result r;
      int nth = 1 + rand() % (calls[multi] > 0 ? calls[multi] : 1);
      if (!run_faulted(shim, sql[multi], "any", nth, "EIO", 1, &r) || (!r.killed && r.rc != SQLITE_OK)) failed++;
    }
    if (set_leftovers(&s) > 0) interrupted++;
    CHECK(set_read(&s) >= 0, "%s: reading the set after the kill", fc->name);
    state = set_state(&s, n);
    CHECK(state >= 0, "%s: round %d (%d file(s)): a file is neither old nor new, or old and new are mixed", fc->name,
          it, n);
    CHECK(set_leftovers(&s) == 0, "%s: round %d: %d temporary file(s) or journal(s) left after recovery", fc->name, it,
          set_leftovers(&s));
    if (state < 0) mixed++;
    else outcome[state]++;
    left += set_leftovers(&s) > 0;
  }
  CHECK(failed == 0, "%s: %d committer(s) failed before the kill", fc->name, failed);
  check_loop_done(&loop,
                  "%s kill -9 during COMMIT (COMMIT ~%.1f ms; %d and %d file-system calls for 1 and 4 files): %d "
                  "rounds, %d killed mid-commit (leftovers seen), %d all old, %d all new, %d mixed, %d with "
                  "leftovers after recovery",
                  fc->name, window * 1000, calls[0], calls[1], rounds, interrupted, outcome[0], outcome[1], mixed, left);
  sqlite3_free(sql[0]);
  sqlite3_free(sql[1]);
  set_free(&s);
}

/* ---- 3. concurrent writers ---------------------------------------------------- */

typedef struct tally {
  int ok, stale, busy, other;
} tally;

/* A writer: rounds UPDATEs of one file, counted into what it writes to fd. */
static void writer(const format_case *fc, const char *path, int rounds, int fd) {
  sqlite3 *db = db_open();
  char *sql = update_sql(fc, path), msg[512];
  tally t = {0, 0, 0, 0};
  int k;
  if (!db || !sql) _exit(3);
  sqlite3_busy_timeout(db, 20000);
  for (k = 0; k < rounds; k++) {
    if (run(db, sql, msg, sizeof msg) == SQLITE_OK) t.ok++;
    else if (strstr(msg, "changed on disk since it was read")) t.stale++;
    else if (strstr(msg, "locked by another writer")) t.busy++;
    else if (t.other++ == 0) fprintf(stderr, "writer: %s\n", msg);
  }
  if (write(fd, &t, sizeof t) != (ssize_t)sizeof t) _exit(4);
  _exit(0);
}

/* What a writer process needs (fork_workers' context). */
typedef struct writer_job {
  const format_case *fc;
  const char *path;
  int rounds;
} writer_job;

/* fork_workers' worker: a writer. */
static void writer_worker(void *ctx, int fd) {
  const writer_job *job = ctx;
  writer(job->fc, job->path, job->rounds, fd);
}

/* procs writers UPDATE one file rounds times each: every commit lands,
** nothing else fails, nothing is left behind. */
static void concurrent(const format_case *fc, int procs, int rounds) {
  level_set s;
  tally each[16], sum = {0, 0, 0, 0};
  writer_job job;
  long long before, after;
  int k, got;
  double t0;
  sqlite3 *db;
  if (procs > 16 || !(db = set_open(&s, fc, fmt("conc%d", procs)))) return;
  job.fc = fc;
  job.path = s.path[0];
  job.rounds = rounds;
  before = query_int(db, counter_sql(fc, s.path[0]));
  t0 = now_s();
  if ((got = fork_workers(procs, writer_worker, &job, each, sizeof each[0])) < 0) {
    REQUIRE(0, "pipe");
    sqlite3_close(db);
    set_free(&s);
    return;
  }
  for (k = 0; k < got; k++) {
    sum.ok += each[k].ok;
    sum.stale += each[k].stale;
    sum.busy += each[k].busy;
    sum.other += each[k].other;
  }
  sqlite3_close(db);
  db = db_open();
  after = db ? query_int(db, counter_sql(fc, s.path[0])) : -1;
  sqlite3_close(db);
  CHECK(after == before + sum.ok, "%s, %d writers x %d: %lld + %d successful commits, but the file holds %lld (%lld lost)",
        fc->name, procs, rounds, before, sum.ok, after, before + sum.ok - after);
  CHECK(sum.other == 0 && sum.ok > 0, "%s, %d writers: %d unexpected errors, %d successes", fc->name, procs, sum.other,
        sum.ok);
  CHECK(set_leftovers(&s) == 0, "%s, %d writers: leftovers", fc->name, procs);
  printf("INFO %s (%s), %d writers x %d UPDATEs in %.1f s: %d committed, %d stale-file errors, %d locked-out, %lld lost\n",
         fc->name, tmpdir, procs, rounds, now_s() - t0, sum.ok, sum.stale, sum.busy, before + sum.ok - after);
  set_free(&s);
}

/* ---- 4. locks ------------------------------------------------------------------ */

static void lock_waits(const format_case *fc) {
  level_set s;
  sqlite3 *db;
  char *sql, msg[512];
  int fd, p[2], rc;
  double t0;
  pid_t pid;
  if (!(db = set_open(&s, fc, "lock"))) return;
  sql = update_sql(fc, s.path[0]);
  /* held by this process through another descriptor: a connection of the
  ** same process is excluded too */
  fd = open(s.path[0], O_RDONLY);
  REQUIRE(fd >= 0 && flock(fd, LOCK_EX) == 0, "lock the level");
  sqlite3_busy_timeout(db, 300);
  t0 = now_s();
  rc = run(db, sql, msg, sizeof msg);
  CHECK(rc != SQLITE_OK && strstr(msg, "locked by another writer (waited") && strstr(msg, "nothing was written") &&
            now_s() - t0 >= 0.29,
        "%s: a held file: %s after %.3f s", fc->name, msg, now_s() - t0);
  CHECK(set_state(&s, 1) == 0 && set_leftovers(&s) == 0, "%s: a held file stays as it was", fc->name);
  sqlite3_busy_timeout(db, 0);
  rc = run(db, sql, msg, sizeof msg);
  CHECK(rc != SQLITE_OK && strstr(msg, "locked by another writer"), "%s: busy timeout 0: %s", fc->name, msg);
  close(fd);
  /* released in time: the commit waits, then goes through */
  REQUIRE(pipe(p) == 0, "pipe");
  fflush(stdout);
  if ((pid = fork()) == 0) {
    int cfd = open(s.path[0], O_RDONLY);
    close(p[0]);
    if (cfd < 0 || flock(cfd, LOCK_EX) != 0 || write(p[1], "x", 1) != 1) _exit(1);
    usleep(200000);
    _exit(0);
  }
  close(p[1]);
  {
    char c;
    REQUIRE(read(p[0], &c, 1) == 1, "the child holds the lock");
  }
  close(p[0]);
  sqlite3_busy_timeout(db, 5000);
  t0 = now_s();
  rc = run(db, sql, msg, sizeof msg);
  CHECK(rc == SQLITE_OK && now_s() - t0 >= 0.1 && set_state(&s, 1) == 1,
        "%s: a lock released within the busy timeout: rc %d after %.3f s: %s", fc->name, rc, now_s() - t0, msg);
  waitpid(pid, NULL, 0);
  sqlite3_free(sql);
  sqlite3_close(db);
  set_free(&s);
}

/* ---- 5. protected files --------------------------------------------------------- */

static void protected_files(const format_case *fc) {
  level_set s;
  sqlite3 *db;
  char *sql, *via_link, msg[512], link_path[400], other[400];
  struct stat st;
  int rc;
  if (!(db = set_open(&s, fc, "protect"))) return;
  sql = update_sql(fc, s.path[0]);
  /* read-only */
  chmod(s.path[0], 0444);
  rc = run(db, sql, msg, sizeof msg);
  CHECK(rc != SQLITE_OK && strstr(msg, "permission denied: the file is read-only") &&
            strstr(msg, "nothing was written") && set_state(&s, 1) == 0,
        "%s: a read-only file is refused: %s", fc->name, msg);
  exec_ok(db, "SELECT levelsql_overwrite_readonly(1)");
  rc = run(db, sql, msg, sizeof msg);
  CHECK(rc == SQLITE_OK && set_state(&s, 1) == 1 && stat(s.path[0], &st) == 0 && (st.st_mode & 07777) == 0444,
        "%s: levelsql_overwrite_readonly(1) replaces it, mode kept: %s", fc->name, msg);
  exec_ok(db, "SELECT levelsql_overwrite_readonly(0)");
  /* hard links */
  REQUIRE(set_reset(&s), "reset");
  snprintf(other, sizeof other, "%s/hard.%s", s.a, fc->ext);
  unlink(other);
  REQUIRE(link(s.path[0], other) == 0, "hard link");
  rc = run(db, sql, msg, sizeof msg);
  CHECK(rc != SQLITE_OK && strstr(msg, "2 hard links") && strstr(msg, "nothing was written") &&
            set_state(&s, 1) == 0 && file_is(other, &s.chain[0]),
        "%s: a hard-linked file is refused: %s", fc->name, msg);
  unlink(other);
  /* owner, group and mode (needs root to give a file away) */
  REQUIRE(set_reset(&s), "reset");
  if (geteuid() == 0) {
    REQUIRE(chown(s.path[0], 4321, 8765) == 0 && chmod(s.path[0], 0640) == 0, "chown");
    rc = run(db, sql, msg, sizeof msg);
    CHECK(rc == SQLITE_OK && set_state(&s, 1) == 1 && stat(s.path[0], &st) == 0 && st.st_uid == 4321 &&
              st.st_gid == 8765 && (st.st_mode & 07777) == 0640,
          "%s: owner, group and mode kept: %s (uid %d gid %d mode %o)", fc->name, msg, (int)st.st_uid, (int)st.st_gid,
          (unsigned)(st.st_mode & 07777));
  } else {
    SKIP("%s: owner and group kept: not root, cannot give a file to another user", fc->name);
  }
  /* another user (nobody) in a folder anyone may write: the file it may
  ** not write is refused as read-only, as the shell's >> refuses it; with
  ** levelsql_overwrite_readonly(1) it is replaced, the new file belongs to
  ** that user (it may not give files away) and keeps the mode */
  REQUIRE(set_reset(&s), "reset");
  if (geteuid() == 0) {
    int p[2], status = 0;
    pid_t pid;
    char out[2][600];
    memset(out, 0, sizeof out);
    chmod(tmpdir, 0755);
    chmod(s.dir, 0755);
    chmod(s.a, 0777);
    chmod(s.path[0], 0644);
    REQUIRE(pipe(p) == 0, "pipe");
    fflush(stdout);
    if ((pid = fork()) == 0) {
      sqlite3 *cdb;
      close(p[0]);
      if (setgid(65534) != 0 || setuid(65534) != 0 || !(cdb = db_open())) _exit(1);
      run(cdb, sql, out[0], sizeof out[0]);
      exec_ok(cdb, "SELECT levelsql_overwrite_readonly(1)");
      run(cdb, sql, out[1], sizeof out[1]);
      _exit(write(p[1], out, sizeof out) == (ssize_t)sizeof out ? 0 : 1);
    }
    close(p[1]);
    CHECK(read(p[0], out, sizeof out) == (ssize_t)sizeof out, "%s: the child as nobody", fc->name);
    close(p[0]);
    waitpid(pid, &status, 0);
    CHECK(strstr(out[0], "permission denied: the file is read-only"),
          "%s: another user's file it may not write is refused: %s", fc->name, out[0]);
    CHECK(out[1][0] == 0 && set_state(&s, 1) == 1 && stat(s.path[0], &st) == 0 && st.st_uid == 65534 &&
              (st.st_mode & 07777) == 0644,
          "%s: overwritten by nobody: the file is new, belongs to nobody, mode kept: %s (uid %d, mode %o)", fc->name,
          out[1], (int)st.st_uid, (unsigned)(st.st_mode & 07777));
    chmod(s.a, 0755);
  } else {
    SKIP("%s: another user's file: not root, cannot become another user", fc->name);
  }
  /* a symbolic link stays a link; its target is replaced */
  REQUIRE(set_reset(&s), "reset");
  snprintf(link_path, sizeof link_path, "%s/link.%s", s.dir, fc->ext);
  unlink(link_path);
  REQUIRE(symlink(s.path[0], link_path) == 0, "symlink");
  via_link = update_sql(fc, link_path);
  rc = run(db, via_link, msg, sizeof msg);
  CHECK(rc == SQLITE_OK && lstat(link_path, &st) == 0 && S_ISLNK(st.st_mode) && set_state(&s, 1) == 1,
        "%s: through a symbolic link: the link stays, the target is new: %s", fc->name, msg);
  sqlite3_free(via_link);
  sqlite3_free(sql);
  sqlite3_close(db);
  set_free(&s);
}

/* ---- 6. leftovers and listings ------------------------------------------------------ */

static void orphans(const format_case *fc) {
  level_set s;
  sqlite3 *db;
  char orphan[500], held[500], journal[500], notes[500];
  int fd;
  if (!(db = set_open(&s, fc, "orphans"))) return;
  snprintf(orphan, sizeof orphan, "%s/.L0.%s.levelsql-Ab12Cd", s.a, fc->ext);
  snprintf(held, sizeof held, "%s/.L1.%s.levelsql-Zz99Yy", s.a, fc->ext);
  snprintf(journal, sizeof journal, "%s/.levelsql-journal-Qq0Rr1", s.b);
  snprintf(notes, sizeof notes, "%s/.levelsql-notes", s.a);
  REQUIRE(file_write_all(orphan, s.chain[1].data, s.chain[1].size) && file_write_all(held, s.chain[3].data, 10) &&
              file_write_all(journal, (const unsigned char *)"levelsql journal 1\n", 19) &&
              file_write_all(notes, (const unsigned char *)"mine", 4),
          "the leftovers");
  fd = open(held, O_RDONLY);
  REQUIRE(fd >= 0 && flock(fd, LOCK_EX) == 0, "hold one");
  CHECK(db && query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s/.*')", s.a)) == 1,
        "%s: a dot-glob lists none of the writer's files (only .levelsql-notes)", fc->name);
  CHECK(db && query_int(db, fmt("SELECT count(*) FROM %s('%s')", fc->module, s.multi)) > 0, "%s: read the set",
        fc->name);
  CHECK(access(orphan, F_OK) != 0 && access(journal, F_OK) != 0,
        "%s: the orphaned temporary file and the incomplete journal are removed on the next read", fc->name);
  CHECK(access(held, F_OK) == 0 && access(notes, F_OK) == 0,
        "%s: a temporary file a writer holds, and a file that only looks like ours, stay", fc->name);
  CHECK(set_state(&s, NFILES) == 0, "%s: the levels are untouched", fc->name);
  close(fd);
  sqlite3_close(db);
  db = db_open();
  CHECK(db && query_int(db, fmt("SELECT count(*) FROM %s('%s')", fc->module, s.multi)) > 0 &&
            access(held, F_OK) != 0,
        "%s: released, it goes on the next read by a new connection", fc->name);
  sqlite3_close(db);
  unlink(notes);
  set_free(&s);
}

/* ---- main ---------------------------------------------------------------------------- */

static void remove_tree(const char *dir) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) printf("could not remove %s\n", dir);
}

int main(int argc, char **argv) {
  const char *env = getenv("LEVELSQL_SAMPLES");
  const char *base = getenv("LEVELSQL_SAFETY_DIR");
  char shim[600];
  int f;
  if (argc == 3 && strcmp(argv[1], "--fault-child") == 0) return fault_child(argv[2]);
  torture = getenv("LEVELSQL_TORTURE") && atoi(getenv("LEVELSQL_TORTURE")) > 0;
  srand((unsigned)time(NULL) ^ (unsigned)getpid());
  /* tmpfs keeps `make test` quick (fsync costs nothing there); `make
  ** torture` runs on the disk of /tmp, where each fsync waits for it */
  if (!base) base = !torture && access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(tmpdir, sizeof tmpdir, "%s/levelsql-writesafety-XXXXXX", base);
  if (!mkdtemp(tmpdir)) {
    CHECK(0, "mkdtemp");
    return check_done();
  }
  if (env && *env) {
    snprintf(samples, sizeof samples, "%s", env);
  } else {
    snprintf(samples, sizeof samples, "%s/samples", tmpdir);
    if (system(fmt("sh tools/gen_samples.sh build '%s' >/dev/null", samples)) != 0) {
      CHECK(0, "no samples: $LEVELSQL_SAMPLES unset and tools/gen_samples.sh failed");
      remove_tree(tmpdir);
      return check_done();
    }
  }
  snprintf(shim, sizeof shim, "%s", tool_path("x"));
  snprintf(shim + strlen(shim) - strlen("tools/x"), sizeof shim - (strlen(shim) - strlen("tools/x")), "faultshim.so");
  for (f = 0; f < NFORMATS; f++) {
    protected_files(&formats[f]);
    orphans(&formats[f]);
    lock_waits(&formats[f]);
    if (access(shim, R_OK) != 0) {
      CHECK(0, "the fault shim %s is missing (make builds it)", shim);
      continue;
    }
    kill_loop(&formats[f], shim, torture ? 2000 : 68); /* 51 of 4 files: 204 in all */
    fault_matrix(&formats[f], shim);
  }
  concurrent(&formats[0], 2, torture ? 1000 : 200);
  concurrent(&formats[0], 4, torture ? 1000 : 200);
  concurrent(&formats[1], 2, torture ? 1000 : 200);
  concurrent(&formats[1], 4, torture ? 500 : 100);
  if (torture) concurrent(&formats[0], 8, 500);
  remove_tree(tmpdir);
  return check_done();
}
