/*
** test_isolation.c: what a transaction sees of the files other
** connections and processes write, and what its COMMIT may overwrite
** (issue 24; README, "Transactions").  For every format (the generated
** samples, one counter column each) x transaction kind (autocommit, BEGIN,
** a SAVEPOINT that opens the transaction, as DB Browser does) x other
** writer (a second connection in this process, a child process):
**
** 1. Repeatable reads: inside a transaction a file reads as the version
**    the transaction first read, whatever the other writer commits; a
**    read-only transaction commits fine; the next transaction (even right
**    after COMMIT, with no levelsql statement between) and a read after
**    ROLLBACK see the new version.  In autocommit mode every statement
**    sees the file as it is.
** 2. Read, then write: when the other writer changed the file after the
**    transaction read it, COMMIT fails with the stale-file error naming the
**    file, and nothing is written; the connection goes on, and its next
**    transaction sees (and may write over) the new version.  In autocommit
**    mode the other writer writes during the UPDATE (a function the SET
**    calls), which then fails the same way.
** 3. Write only: a transaction's first read is its UPDATE's scan: a
**    change before it is fine, one after it fails the COMMIT; the
**    transaction reads its own copy meanwhile.
** 4. Savepoints within a transaction (ROLLBACK TO, RELEASE) keep the
**    versions read; a pinned version evicted from the cache is read again
**    when unchanged, and a clear error when it changed, also in a folder
**    scan whose files are parsed ahead on threads; a levelsql table created
**    in TEMP sees the next transaction's versions too.
** 5. The tokens that tell a read-only transaction's end (read
**    transactions on TEMP and main) change nothing the user sees:
**    changes(), last_insert_rowid(), total_changes(), the TEMP schema.
** 6. Counters: 2 processes x N rounds of (BEGIN; SELECT v; UPDATE SET v =
**    <v + 1, a literal>; COMMIT), retrying on the stale-file or locked
**    error, must end at exactly 2 x N increments, on every format.  N is
**    25 in `make test`, 200 with LEVELSQL_TORTURE=1 (`make torture`).
*/
#include <errno.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fileutil.h"
#include "sqltest.h"

typedef struct format_case {
  const char *name;
  const char *sample;  /* in the samples folder */
  const char *ext;
  const char *module;  /* the table holding the counter */
  const char *column;  /* the counter */
  const char *row;     /* the one row that has it */
  long long modulo;    /* the counter's values are 0 .. modulo-1 (0: no limit) */
} format_case;

static const format_case formats[] = {
  {"wwd", "SAMPLE05.WWD", "WWD", "wwd_objects", "health", "plane = 0 AND idx = 0", 0},
  {"tw", "dm_sample.map", "map", "tw_layers", "color_env_offset", "layer_index = 1", 0},
  {"wed", "AR0100.WED", "WED", "wed_polygons", "height", "polygon = 0", 256},
  {"wz4", "intro.wz4", "wz4", "wz4_operators", "width", "page = 0 AND op = 0", 0},
};
#define NFORMATS (int)(sizeof formats / sizeof formats[0])

/* How a transaction is opened and ended. */
typedef enum { TXN_AUTOCOMMIT, TXN_BEGIN, TXN_SAVEPOINT } txn_kind;
static const char *const txn_names[] = {"autocommit", "BEGIN", "SAVEPOINT"};
static const char *const txn_open_sql[] = {NULL, "BEGIN", "SAVEPOINT t"};
static const char *const txn_commit_sql[] = {NULL, "COMMIT", "RELEASE t"};
static const char *const txn_rollback_sql[] = {NULL, "ROLLBACK", "ROLLBACK TO t; RELEASE t"};

/* Who else writes the file. */
typedef enum { OTHER_CONNECTION, OTHER_PROCESS } other_kind;
static const char *const other_names[] = {"second connection", "second process"};

static char tmpdir[256];
static char samples[512];
static int torture;

/* The message every stale-file error carries (commit.c, session.c). */
#define STALE "changed on disk since it was read"

/* ---- helpers ------------------------------------------------------------------ */

static sqlite3 *open_db(void) {
  sqlite3 *db = db_open();
  if (db) sqlite3_busy_timeout(db, 20000);
  return db;
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

static long long wrap(const format_case *fc, long long v) {
  return fc->modulo ? ((v % fc->modulo) + fc->modulo) % fc->modulo : v;
}

/* The counter as db reads it now (-999999 on error, printed). */
static long long counter(const format_case *fc, sqlite3 *db, const char *path) {
  return query_int(db, fmt("SELECT %s FROM %s('%s') WHERE %s", fc->column, fc->module, path, fc->row));
}

/* The counter as a new connection reads it: what is on disk. */
static long long counter_on_disk(const format_case *fc, const char *path) {
  sqlite3 *db = open_db();
  long long v = db ? counter(fc, db, path) : -999999;
  sqlite3_close(db);
  return v;
}

/* The UPDATE that sets the counter to the literal v (fmt()'s buffer). */
static const char *set_sql(const format_case *fc, const char *path, long long v) {
  return fmt("UPDATE %s SET %s = %lld WHERE source = '%s' AND %s", fc->module, fc->column, wrap(fc, v), path, fc->row);
}

/* The UPDATE that sets the counter to v while the other writer commits
** its value (other_writes(), below) in the middle of it. */
static const char *set_during_sql(const format_case *fc, const char *path, long long v) {
  return fmt("UPDATE %s SET %s = other_writes(%lld) WHERE source = '%s' AND %s", fc->module, fc->column, wrap(fc, v),
             path, fc->row);
}

/* A fresh copy of the format's sample, named after the test: its path
** (sqlite3_malloc'd), or NULL (counted) when it cannot be made. */
static char *fresh_copy(const format_case *fc, const char *tag) {
  char *path = sqlite3_mprintf("%s/%s-%s.%s", tmpdir, fc->name, tag, fc->ext);
  size_t n = 0;
  unsigned char *data = file_read_all(fmt("%s/%s", samples, fc->sample), &n);
  int ok = path && data && (unlink(path) == 0 || errno == ENOENT) && file_write_all(path, data, n);
  free(data);
  REQUIRE(ok, "cannot copy %s/%s to %s", samples, fc->sample, path ? path : "?");
  if (!ok) sqlite3_free(path);
  return ok ? path : NULL;
}

/* The other writer of a test: a second connection of this process, or a
** child process with its own connection, each an autocommit UPDATE. */
typedef struct other_writer {
  other_kind kind;
  sqlite3 *db;  /* OTHER_CONNECTION's */
  const format_case *fc;
  const char *path;
  long long value;  /* what other_writes() sets */
} other_writer;

/* The other writer sets the counter to v; returns whether it committed. */
static int other_sets(other_writer *o, long long v) {
  char msg[512];
  int status = 0;
  pid_t pid;
  if (o->kind == OTHER_CONNECTION) {
    int rc = run(o->db, set_sql(o->fc, o->path, v), msg, sizeof msg);
    REQUIRE(rc == SQLITE_OK, "the other connection's UPDATE failed: %s", msg);
    return rc == SQLITE_OK;
  }
  fflush(stdout);
  if ((pid = fork()) == 0) {
    sqlite3 *db = open_db();
    int rc = db ? run(db, set_sql(o->fc, o->path, v), msg, sizeof msg) : SQLITE_ERROR;
    if (rc != SQLITE_OK) printf("the other process's UPDATE failed: %s\n", msg);
    fflush(stdout);
    _exit(rc == SQLITE_OK ? 0 : 1);
  }
  REQUIRE(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "the other process did not commit");
  return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* SQL function other_writes(x): the other writer sets the counter to its
** value (other_writer.value) now, in the middle of the statement; returns
** x. */
static void other_writes_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  other_writer *o = sqlite3_user_data(ctx);
  (void)argc;
  other_sets(o, o->value);
  sqlite3_result_value(ctx, argv[0]);
}

/* Starts a test's other writer (a connection, for OTHER_CONNECTION) and
** registers other_writes() on db.  Returns 0 (counted) on failure. */
static int other_start(other_writer *o, other_kind kind, const format_case *fc, const char *path, sqlite3 *db) {
  memset(o, 0, sizeof *o);
  o->kind = kind;
  o->fc = fc;
  o->path = path;
  if (kind == OTHER_CONNECTION && !(o->db = open_db())) {
    REQUIRE(0, "cannot open the second connection");
    return 0;
  }
  if (sqlite3_create_function(db, "other_writes", 1, SQLITE_UTF8, o, other_writes_func, NULL, NULL) != SQLITE_OK) {
    REQUIRE(0, "cannot register other_writes");
    return 0;
  }
  return 1;
}

static void other_stop(other_writer *o) {
  sqlite3_close(o->db);
  o->db = NULL;
}

/* Ends a transaction whose COMMIT failed, if SQLite left it open. */
static void end_failed(sqlite3 *db, txn_kind kind) {
  if (!sqlite3_get_autocommit(db)) exec_ok(db, txn_rollback_sql[kind]);
}

/* What each test of sections 1-4 works on: a fresh copy of the sample,
** a label for its messages, the connection under test, the other writer. */
typedef struct scene {
  char *path;
  char what[256];
  sqlite3 *db;
  other_writer o;
} scene;

/* Sets up a scene for test `test` (its name in the copy's and the
** messages').  Returns 0 (counted) when something could not be made; end
** the scene either way. */
static int scene_start(scene *sc, const format_case *fc, txn_kind kind, other_kind who, const char *test) {
  memset(sc, 0, sizeof *sc);
  snprintf(sc->what, sizeof sc->what, "%s, %s, %s, %s", fc->name, txn_names[kind], other_names[who], test);
  sc->path = fresh_copy(fc, fmt("%s-%d-%d", test, kind, who));
  sc->db = open_db();
  return sc->path && sc->db && other_start(&sc->o, who, fc, sc->path, sc->db);
}

static void scene_end(scene *sc) {
  other_stop(&sc->o);
  sqlite3_close(sc->db);
  sqlite3_free(sc->path);
}

/* ---- 1. repeatable reads -------------------------------------------------------- */

static void repeatable_reads(const format_case *fc, txn_kind kind, other_kind who) {
  scene sc;
  int ready = scene_start(&sc, fc, kind, who, "repeatable-reads");
  const char *path = sc.path, *what = sc.what;
  sqlite3 *db = sc.db;
  long long first, again;
  char msg[512];
  if (!ready) goto done;
  if (kind == TXN_AUTOCOMMIT) {
    first = counter(fc, db, path);
    other_sets(&sc.o, first + 3);
    CHECK(counter(fc, db, path) == wrap(fc, first + 3), "%s: an autocommit read sees the other writer's commit", what);
    goto done;
  }
  /* a read-only transaction keeps the version it read first, and commits */
  exec_ok(db, txn_open_sql[kind]);
  first = counter(fc, db, path);
  other_sets(&sc.o, first + 3);
  again = counter(fc, db, path);
  CHECK(again == first, "%s: the transaction read %lld, then %lld after the other writer's commit", what, first, again);
  CHECK(run(db, txn_commit_sql[kind], msg, sizeof msg) == SQLITE_OK, "%s: a read-only transaction's end failed: %s",
        what, msg);
  /* the next transaction, opened with no levelsql statement since, sees
  ** what was committed meanwhile */
  other_sets(&sc.o, first + 5);
  exec_ok(db, txn_open_sql[kind]);
  again = counter(fc, db, path);
  CHECK(again == wrap(fc, first + 5), "%s: the next transaction read %lld, not the new %lld", what, again,
        wrap(fc, first + 5));
  exec_ok(db, txn_commit_sql[kind]);
  /* after ROLLBACK: the new version, in autocommit and in a transaction */
  exec_ok(db, txn_open_sql[kind]);
  first = counter(fc, db, path);
  other_sets(&sc.o, first + 2);
  again = counter(fc, db, path);
  CHECK(again == first, "%s: before ROLLBACK the transaction read %lld, then %lld", what, first, again);
  exec_ok(db, txn_rollback_sql[kind]);
  again = counter(fc, db, path);
  CHECK(again == wrap(fc, first + 2), "%s: after ROLLBACK an autocommit read gave %lld, not %lld", what, again,
        wrap(fc, first + 2));
  other_sets(&sc.o, first + 4);
  exec_ok(db, txn_open_sql[kind]);
  again = counter(fc, db, path);
  CHECK(again == wrap(fc, first + 4), "%s: a transaction after ROLLBACK read %lld, not %lld", what, again,
        wrap(fc, first + 4));
  exec_ok(db, txn_rollback_sql[kind]);
done:
  scene_end(&sc);
}

/* ---- 2. read, then write -------------------------------------------------------- */

/* COMMIT (or, in autocommit mode, the UPDATE) must fail with the stale-file
** error naming the file, and the file keep the other writer's value. */
static void expect_stale(sqlite3 *db, const format_case *fc, const char *path, const char *sql, long long theirs,
                         const char *what) {
  char msg[512];
  int rc = run(db, sql, msg, sizeof msg);
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  CHECK(rc != SQLITE_OK && strstr(msg, STALE) && strstr(msg, base),
        "%s: [%s] must fail with '%s' naming %s: %s", what, sql, STALE, base, rc == SQLITE_OK ? "it succeeded" : msg);
  CHECK(counter_on_disk(fc, path) == wrap(fc, theirs), "%s: the file holds %lld, not the other writer's %lld", what,
        counter_on_disk(fc, path), wrap(fc, theirs));
}

static void read_then_write(const format_case *fc, txn_kind kind, other_kind who) {
  scene sc;
  int ready = scene_start(&sc, fc, kind, who, "read-then-write");
  const char *path = sc.path, *what = sc.what;
  sqlite3 *db = sc.db;
  long long first, now;
  char msg[512];
  if (!ready) goto done;
  first = counter(fc, db, path);
  if (kind == TXN_AUTOCOMMIT) {
    sc.o.value = first + 7;
    expect_stale(db, fc, path,
                 set_during_sql(fc, path, first + 1),
                 first + 7, what);
  } else {
    exec_ok(db, txn_open_sql[kind]);
    first = counter(fc, db, path);
    other_sets(&sc.o, first + 7);
    exec_ok(db, set_sql(fc, path, first + 1));
    expect_stale(db, fc, path, txn_commit_sql[kind], first + 7, what);
    end_failed(db, kind);
  }
  /* the connection goes on: its next transaction sees the new version */
  if (kind != TXN_AUTOCOMMIT) exec_ok(db, txn_open_sql[kind]);
  now = counter(fc, db, path);
  CHECK(now == wrap(fc, first + 7), "%s: after the failed commit the connection read %lld, not %lld", what, now,
        wrap(fc, first + 7));
  exec_ok(db, set_sql(fc, path, now + 1));
  if (kind != TXN_AUTOCOMMIT) {
    CHECK(run(db, txn_commit_sql[kind], msg, sizeof msg) == SQLITE_OK, "%s: the next commit failed: %s", what, msg);
  }
  CHECK(counter_on_disk(fc, path) == wrap(fc, first + 8), "%s: the next commit wrote %lld, not %lld", what,
        counter_on_disk(fc, path), wrap(fc, first + 8));
done:
  scene_end(&sc);
}

/* ---- 3. write only -------------------------------------------------------------- */

static void write_only(const format_case *fc, txn_kind kind, other_kind who) {
  scene sc;
  int ready = scene_start(&sc, fc, kind, who, "write-only");
  const char *path = sc.path, *what = sc.what;
  sqlite3 *db = sc.db;
  long long start, mine;
  char msg[512];
  if (!ready) goto done;
  start = counter(fc, db, path);
  if (kind == TXN_AUTOCOMMIT) {
    /* a change before the statement is its starting point */
    other_sets(&sc.o, start + 1);
    exec_ok(db, set_sql(fc, path, start + 20));
    CHECK(counter_on_disk(fc, path) == wrap(fc, start + 20), "%s: the UPDATE did not land", what);
    /* a change during it fails it */
    sc.o.value = start + 2;
    expect_stale(db, fc, path,
                 set_during_sql(fc, path, start + 30),
                 start + 2, what);
    goto done;
  }
  /* a change after the transaction's first read (its UPDATE's scan) fails
  ** the COMMIT; meanwhile the transaction reads its own copy */
  exec_ok(db, txn_open_sql[kind]);
  exec_ok(db, set_sql(fc, path, start + 20));
  other_sets(&sc.o, start + 1);
  mine = counter(fc, db, path);
  CHECK(mine == wrap(fc, start + 20), "%s: the transaction read %lld, not its own %lld", what, mine,
        wrap(fc, start + 20));
  expect_stale(db, fc, path, txn_commit_sql[kind], start + 1, what);
  end_failed(db, kind);
  /* a change after BEGIN but before the first read is the starting point */
  exec_ok(db, txn_open_sql[kind]);
  other_sets(&sc.o, start + 2);
  exec_ok(db, set_sql(fc, path, start + 21));
  CHECK(run(db, txn_commit_sql[kind], msg, sizeof msg) == SQLITE_OK, "%s: a commit after the other's failed: %s", what,
        msg);
  CHECK(counter_on_disk(fc, path) == wrap(fc, start + 21), "%s: the file holds %lld, not %lld", what,
        counter_on_disk(fc, path), wrap(fc, start + 21));
done:
  scene_end(&sc);
}

/* ---- 4. savepoints inside a transaction, eviction ------------------------------ */

static void savepoints_and_eviction(const format_case *fc, other_kind who) {
  scene sc;
  int ready = scene_start(&sc, fc, TXN_BEGIN, who, "savepoints");
  const char *path = sc.path, *what = sc.what;
  sqlite3 *db = sc.db;
  long long first, again, limit;
  char msg[512];
  int rc;
  if (!ready) goto done;
  /* ROLLBACK TO and RELEASE keep the versions read */
  exec_ok(db, "BEGIN; SAVEPOINT a");
  first = counter(fc, db, path);
  other_sets(&sc.o, first + 1);
  exec_ok(db, "ROLLBACK TO a");
  again = counter(fc, db, path);
  CHECK(again == first, "%s: after ROLLBACK TO the transaction read %lld, not %lld", what, again, first);
  exec_ok(db, "RELEASE a");
  again = counter(fc, db, path);
  CHECK(again == first, "%s: after RELEASE the transaction read %lld, not %lld", what, again, first);
  exec_ok(db, "SAVEPOINT b");
  exec_ok(db, set_sql(fc, path, first + 9));
  exec_ok(db, "ROLLBACK TO b; RELEASE b");
  again = counter(fc, db, path);
  CHECK(again == first, "%s: after an UPDATE rolled back to its savepoint the transaction read %lld, not %lld", what,
        again, first);
  CHECK(run(db, "COMMIT", msg, sizeof msg) == SQLITE_OK, "%s: COMMIT with nothing to write failed: %s", what, msg);
  /* a pinned version evicted from the cache: read again when unchanged, a
  ** clear error when it changed */
  limit = query_int(db, "SELECT levelsql_cache_limit()");
  exec_ok(db, "BEGIN");
  first = counter(fc, db, path);
  query_int(db, "SELECT levelsql_cache_limit(0)");
  again = counter(fc, db, path);
  CHECK(again == first, "%s: after eviction the transaction read %lld, not %lld", what, again, first);
  other_sets(&sc.o, first + 3);
  query_int(db, "SELECT levelsql_cache_limit(0)");
  rc = run(db, fmt("SELECT %s FROM %s('%s') WHERE %s", fc->column, fc->module, path, fc->row), msg, sizeof msg);
  CHECK(rc != SQLITE_OK && strstr(msg, STALE) && strstr(msg, path) && strstr(msg, "this transaction"),
        "%s: reading an evicted version that changed on disk must fail clearly: %s", what,
        rc == SQLITE_OK ? "it succeeded" : msg);
  rc = run(db, set_sql(fc, path, first + 4), msg, sizeof msg);
  CHECK(rc != SQLITE_OK && strstr(msg, STALE), "%s: writing an evicted version that changed on disk must fail: %s",
        what, rc == SQLITE_OK ? "it succeeded" : msg);
  exec_ok(db, "ROLLBACK");
  query_int(db, fmt("SELECT levelsql_cache_limit(%lld)", limit));
  again = counter(fc, db, path);
  CHECK(again == wrap(fc, first + 3), "%s: after ROLLBACK the connection read %lld, not %lld", what, again,
        wrap(fc, first + 3));
done:
  scene_end(&sc);
}

/* The same through a levelsql table created in TEMP (README's CREATE
** VIRTUAL TABLE temp.x): its statements open TEMP's read transaction
** themselves, so the end of the first transaction is seen through main's. */
static void temp_table(const format_case *fc, txn_kind kind, other_kind who) {
  scene sc;
  int ready = scene_start(&sc, fc, kind, who, "temp-table");
  const char *what = sc.what;
  sqlite3 *db = sc.db;
  const char *read = fmt("SELECT %s FROM lv WHERE %s", fc->column, fc->row);
  char read_sql[512];
  long long first, again;
  snprintf(read_sql, sizeof read_sql, "%s", read);
  if (!ready || !exec_ok(db, fmt("CREATE VIRTUAL TABLE temp.lv USING %s('%s')", fc->module, sc.path))) goto done;
  exec_ok(db, txn_open_sql[kind]);
  first = query_int(db, read_sql);
  other_sets(&sc.o, first + 3);
  again = query_int(db, read_sql);
  CHECK(again == first, "%s: the transaction read %lld, then %lld", what, first, again);
  exec_ok(db, txn_commit_sql[kind]);
  other_sets(&sc.o, first + 5);
  exec_ok(db, txn_open_sql[kind]);
  again = query_int(db, read_sql);
  CHECK(again == wrap(fc, first + 5), "%s: the next transaction read %lld, not the new %lld", what, again,
        wrap(fc, first + 5));
  exec_ok(db, txn_commit_sql[kind]);
done:
  scene_end(&sc);
}

/* A scan of a folder in a transaction (files parsed ahead on the pool's
** threads): evicted, its versions are read again; one file changed since
** fails the scan rather than being replaced by the new version a thread
** parsed. */
static void folder_scan(const format_case *fc) {
  char dir[400], files[4][460], msg[512];
  const char *sum_sql;
  sqlite3 *db = open_db(), *other = open_db();
  long long first, again, limit, ahead;
  int k, ok = db && other, rc;
  size_t n = 0;
  unsigned char *data = file_read_all(fmt("%s/%s", samples, fc->sample), &n);
  snprintf(dir, sizeof dir, "%s/%s-folder", tmpdir, fc->name);
  ok = ok && data && mkdir(dir, 0700) == 0;
  for (k = 0; ok && k < 4; k++) {
    snprintf(files[k], sizeof files[k], "%s/L%d.%s", dir, k, fc->ext);
    ok = file_write_all(files[k], data, n);
  }
  free(data);
  REQUIRE(ok, "%s: cannot make the folder %s", fc->name, dir);
  if (!ok) goto done;
  sum_sql = fmt("SELECT sum(%s) FROM %s('%s') WHERE %s", fc->column, fc->module, dir, fc->row);
  limit = query_int(db, "SELECT levelsql_cache_limit()");
  exec_ok(db, "BEGIN");
  first = query_int(db, sum_sql);
  query_int(db, "SELECT levelsql_cache_limit(0)");
  ahead = query_int(db, "SELECT json_extract(levelsql_cache_stats(), '$.parsed_ahead')");
  again = query_int(db, sum_sql);
  CHECK(again == first, "%s: a folder read again after eviction summed %lld, not %lld", fc->name, again, first);
  CHECK(query_int(db, "SELECT levelsql_threads()") == 0 ||
            query_int(db, "SELECT json_extract(levelsql_cache_stats(), '$.parsed_ahead')") > ahead,
        "%s: the folder's files were not parsed ahead: the test does not cover that path", fc->name);
  exec_ok(other, fmt("UPDATE %s SET %s = %lld WHERE source = '%s' AND %s", fc->module, fc->column,
                     wrap(fc, query_int(other, fmt("SELECT %s FROM %s('%s') WHERE %s", fc->column, fc->module, files[2],
                                                   fc->row)) + 1),
                     files[2], fc->row));
  query_int(db, "SELECT levelsql_cache_limit(0)");
  rc = run(db, sum_sql, msg, sizeof msg);
  CHECK(rc != SQLITE_OK && strstr(msg, STALE) && strstr(msg, "L2."),
        "%s: a folder scan over an evicted file that changed must fail naming it: %s", fc->name,
        rc == SQLITE_OK ? "it succeeded" : msg);
  exec_ok(db, "ROLLBACK");
  query_int(db, fmt("SELECT levelsql_cache_limit(%lld)", limit));
  CHECK(query_int(db, sum_sql) != first, "%s: after ROLLBACK the folder still sums as before the change", fc->name);
done:
  sqlite3_close(db);
  sqlite3_close(other);
}

/* ---- 5. the token is invisible -------------------------------------------------- */

static void token_invisible(const format_case *fc) {
  char *path = fresh_copy(fc, "token");
  sqlite3 *db = open_db();
  long long changes, last, total, temps;
  if (!path || !db) goto done;
  exec_ok(db, "CREATE TABLE t(x); CREATE TEMP TABLE tt(y)");
  temps = query_int(db, "SELECT count(*) FROM temp.sqlite_master");
  exec_ok(db, "BEGIN; INSERT INTO t VALUES (1), (2), (3)");
  CHECK(sqlite3_txn_state(db, "temp") == SQLITE_TXN_NONE, "the test needs TEMP without a transaction");
  changes = sqlite3_changes(db);
  last = sqlite3_last_insert_rowid(db);
  total = sqlite3_total_changes(db);
  counter(fc, db, path);
  CHECK(sqlite3_txn_state(db, "temp") == SQLITE_TXN_READ, "a read in a transaction holds TEMP's read transaction");
  CHECK(sqlite3_changes(db) == changes && sqlite3_last_insert_rowid(db) == last && sqlite3_total_changes(db) == total,
        "%s: the read changed changes() %lld -> %d, last_insert_rowid() %lld -> %lld, total_changes() %lld -> %d",
        fc->name, changes, sqlite3_changes(db), last, (long long)sqlite3_last_insert_rowid(db), total,
        sqlite3_total_changes(db));
  exec_ok(db, "COMMIT");
  CHECK(query_int(db, "SELECT count(*) FROM temp.sqlite_master") == temps && query_int(db, "SELECT count(*) FROM t") == 3,
        "%s: the TEMP schema or the user's table changed", fc->name);
  /* a transaction that reads only through TEMP: main (in memory) gets a
  ** token too, as invisibly */
  exec_ok(db, fmt("CREATE VIRTUAL TABLE temp.lv USING %s('%s'); INSERT INTO t VALUES (4)", fc->module, path));
  changes = sqlite3_changes(db);
  last = sqlite3_last_insert_rowid(db);
  total = sqlite3_total_changes(db);
  exec_ok(db, "BEGIN");
  CHECK(sqlite3_txn_state(db, "main") == SQLITE_TXN_NONE, "the test needs main without a transaction");
  query_int(db, fmt("SELECT %s FROM lv WHERE %s", fc->column, fc->row));
  CHECK(sqlite3_txn_state(db, "main") == SQLITE_TXN_READ, "a read in a transaction holds main's read transaction");
  CHECK(sqlite3_changes(db) == changes && sqlite3_last_insert_rowid(db) == last && sqlite3_total_changes(db) == total,
        "%s: the read through TEMP changed changes(), last_insert_rowid() or total_changes()", fc->name);
  exec_ok(db, "COMMIT");
done:
  sqlite3_free(path);
  sqlite3_close(db);
}

/* ---- 6. counters ---------------------------------------------------------------- */

typedef struct tally {
  int done, retries, other;
} tally;

/* A process: rounds increments, each BEGIN; SELECT; UPDATE to the value
** read + 1; COMMIT, again after a stale-file or locked error. */
static void incrementer(const format_case *fc, const char *path, int rounds, int fd) {
  sqlite3 *db = open_db();
  tally t = {0, 0, 0};
  char msg[512];
  int k;
  if (!db) _exit(3);
  for (k = 0; k < rounds && t.other == 0; k++) {
    for (;;) {
      long long v;
      int rc = run(db, "BEGIN", msg, sizeof msg);
      if (rc == SQLITE_OK && (v = counter(fc, db, path)) != -999999) {
        rc = run(db, set_sql(fc, path, v + 1), msg, sizeof msg);
        if (rc == SQLITE_OK) rc = run(db, "COMMIT", msg, sizeof msg);
      } else if (rc == SQLITE_OK) {
        rc = SQLITE_ERROR;
        snprintf(msg, sizeof msg, "%s", sqlite3_errmsg(db));
      }
      if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
      if (rc == SQLITE_OK) break;
      if (strstr(msg, STALE) || strstr(msg, "locked by another writer")) {
        t.retries++;
        continue;
      }
      if (t.other++ == 0) fprintf(stderr, "incrementer: %s\n", msg);
      break;
    }
    if (t.other == 0) t.done++;
  }
  sqlite3_close(db);
  if (write(fd, &t, sizeof t) != (ssize_t)sizeof t) _exit(4);
  _exit(0);
}

/* What an incrementer process needs (fork_workers' context). */
typedef struct counter_job {
  const format_case *fc;
  const char *path;
  int rounds;
} counter_job;

/* fork_workers' worker: an incrementer. */
static void counter_worker(void *ctx, int fd) {
  const counter_job *job = ctx;
  incrementer(job->fc, job->path, job->rounds, fd);
}

/* procs processes increment one counter rounds times each: no update may
** be lost. */
static void counters(const format_case *fc, int procs, int rounds) {
  char *path = fresh_copy(fc, "counter");
  tally each[8], sum = {0, 0, 0};
  counter_job job = {fc, path, rounds};
  long long before, after;
  int k, got;
  if (!path || procs > 8) {
    sqlite3_free(path);
    return;
  }
  before = counter_on_disk(fc, path);
  if ((got = fork_workers(procs, counter_worker, &job, each, sizeof each[0])) < 0) {
    REQUIRE(0, "pipe");
    sqlite3_free(path);
    return;
  }
  for (k = 0; k < got; k++) {
    sum.done += each[k].done;
    sum.retries += each[k].retries;
    sum.other += each[k].other;
  }
  after = counter_on_disk(fc, path);
  CHECK(sum.done == procs * rounds && sum.other == 0, "%s: %d of %d increments done, %d unexpected errors", fc->name,
        sum.done, procs * rounds, sum.other);
  CHECK(after == wrap(fc, before + procs * rounds),
        "%s, %d processes x %d transactions: the counter went from %lld to %lld, not %lld (updates lost)", fc->name,
        procs, rounds, before, after, wrap(fc, before + procs * rounds));
  printf("INFO %s: %d processes x %d read-modify-write transactions: %d increments, %d retries after a stale or locked "
         "file\n",
         fc->name, procs, rounds, sum.done, sum.retries);
  sqlite3_free(path);
}

static void remove_tree(const char *dir) {
  if (system(fmt("rm -rf '%s'", dir)) != 0) printf("could not remove %s\n", dir);
}

int main(void) {
  const char *env = getenv("LEVELSQL_SAMPLES");
  int f, kind, who;
  torture = getenv("LEVELSQL_TORTURE") && atoi(getenv("LEVELSQL_TORTURE")) > 0;
  snprintf(tmpdir, sizeof tmpdir, "%s/levelsql-isolation-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  if (!mkdtemp(tmpdir)) {
    CHECK(0, "mkdtemp");
    return check_done();
  }
  /* test/run.sh and `make torture` make the samples */
  if (!env || !*env) {
    CHECK(0, "$LEVELSQL_SAMPLES must name a folder of samples (sh tools/gen_samples.sh build DIR makes one)");
    remove_tree(tmpdir);
    return check_done();
  }
  snprintf(samples, sizeof samples, "%s", env);
  for (f = 0; f < NFORMATS; f++) {
    for (kind = TXN_AUTOCOMMIT; kind <= TXN_SAVEPOINT; kind++) {
      for (who = OTHER_CONNECTION; who <= OTHER_PROCESS; who++) {
        repeatable_reads(&formats[f], (txn_kind)kind, (other_kind)who);
        read_then_write(&formats[f], (txn_kind)kind, (other_kind)who);
        write_only(&formats[f], (txn_kind)kind, (other_kind)who);
      }
    }
    for (who = OTHER_CONNECTION; who <= OTHER_PROCESS; who++) {
      savepoints_and_eviction(&formats[f], (other_kind)who);
      temp_table(&formats[f], TXN_BEGIN, (other_kind)who);
      temp_table(&formats[f], TXN_SAVEPOINT, (other_kind)who);
    }
    token_invisible(&formats[f]);
    folder_scan(&formats[f]);
  }
  for (f = 0; f < NFORMATS; f++) counters(&formats[f], 2, torture ? 200 : 25);
  remove_tree(tmpdir);
  return check_done();
}
