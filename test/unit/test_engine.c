/*
** test_engine.c: what of the SQL layer needs C, through the loaded
** extension: write safety judged on the files' inodes and times (atomic
** replace, ROLLBACK, failed statements, savepoints, conflicts with other
** writers, untouched files), random constraint sets against a plain table,
** a sparse 3 GiB file, a missing folder named by an absolute path, and the
** no-op rewrites of the real corpus judged on its bytes.  Levels are
** generated in a temporary folder with the codec's own writer
** (wwd_fixture.h); corpus files are copied to a temporary folder, never
** into the project.  Value errors, INSERT and DELETE, the cache, named
** tables and levelsql_files are SQL: test/sql/engine.sql.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "sqltest.h"
#include "fileutil.h"
#include "common/bytes.h"
#include "wwd/wwd.h"
#include "wwd_fixture.h"

static char tmpdir[256];

/* ---- helpers ---------------------------------------------------------------- */

static char *path_in(const char *name) {
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
  return buf[k];
}

typedef struct file_id {
  ino_t ino;
  int64_t mtime_ns;
  int64_t size;
  mode_t mode;
} file_id;

static file_id identify(const char *path) {
  struct stat st;
  file_id id = {0, 0, -1, 0};
  if (stat(path, &st) == 0) {
    id.ino = st.st_ino;
    id.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    id.size = st.st_size;
    id.mode = st.st_mode & 07777;
  }
  return id;
}

static int same_identity(file_id a, file_id b) {
  return a.ino == b.ino && a.mtime_ns == b.mtime_ns && a.size == b.size;
}

/* No leftover temporary files (".<name>.levelsql-XXXXXX") in the folder. */
static int count_temp_files(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  if (!d) return -1;
  while ((e = readdir(d)) != NULL) {
    if (strstr(e->d_name, ".levelsql-")) n++;
  }
  closedir(d);
  return n;
}

/* ---- tests -------------------------------------------------------------- */

/* An UPDATE in autocommit replaces the file atomically; other files and
** reads leave files alone. */
static void test_write_back(sqlite3 *db) {
  file_id a0, b0, a1, b1;
  write_level(path_in("a.wwd"), 6, 0);
  write_level(path_in("b.wwd"), 4, 1);
  chmod(path_in("a.wwd"), 0640);
  a0 = identify(path_in("a.wwd"));
  b0 = identify(path_in("b.wwd"));
  CHECK(query_int(db, fmt("SELECT count(*) FROM wwd_objects('%s')", tmpdir)) == 10, "objects in the folder");
  CHECK(same_identity(a0, identify(path_in("a.wwd"))), "a SELECT does not touch a file");
  exec_ok(db, fmt("UPDATE wwd_objects SET health = health * 2 WHERE source = '%s' AND file LIKE '%%a.wwd' AND logic = 'Officer'", tmpdir));
  a1 = identify(path_in("a.wwd"));
  b1 = identify(path_in("b.wwd"));
  CHECK(a1.ino != a0.ino, "the changed file was replaced by rename (new inode)");
  CHECK(a1.mode == 0640, "permissions kept: %o", (unsigned)a1.mode);
  CHECK(same_identity(b0, b1), "a file nobody changed is not rewritten");
  CHECK(count_temp_files(tmpdir) == 0, "no temporary files left");
  CHECK(query_int(db, fmt("SELECT sum(health) FROM wwd_objects('%s') WHERE logic = 'Officer'", path_in("a.wwd"))) == 2 * (10 + 12 + 14),
        "the update is on disk");
  CHECK(query_int(db, fmt("SELECT sum(health) FROM wwd_objects('%s') WHERE logic = 'Rat'", path_in("a.wwd"))) == 11 + 13 + 15,
        "other objects unchanged");
  CHECK(strcmp(query_text(db, fmt("SELECT checksum_kind FROM wwd_levels('%s')", path_in("a.wwd"))), "exact") == 0,
        "written checksum is exact");
  /* a fresh connection (no cache) reads the same */
  {
    sqlite3 *db2 = db_open();
    CHECK(db2 && query_int(db2, fmt("SELECT sum(health) FROM wwd_objects('%s') WHERE logic = 'Officer'", path_in("a.wwd"))) == 72,
          "a new connection sees the update");
    sqlite3_close(db2);
  }
}

/* ROLLBACK, failed statements and savepoints change nothing on disk. */
static void test_rollback(sqlite3 *db) {
  const char *p = path_in("r.wwd");
  file_id before;
  write_level(p, 6, 1);
  before = identify(p);
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE wwd_objects SET health = 1 WHERE source = '%s'", p));
  CHECK(query_int(db, fmt("SELECT sum(health) FROM wwd_objects('%s')", p)) == 6, "the transaction sees its own writes");
  exec_ok(db, "ROLLBACK");
  CHECK(same_identity(before, identify(p)), "ROLLBACK leaves the file as it was");
  CHECK(query_int(db, fmt("SELECT sum(health) FROM wwd_objects('%s')", p)) == 75, "after ROLLBACK the old values");

  /* a statement failing on its 4th row, in autocommit */
  exec_err(db, fmt("UPDATE wwd_objects SET health = 0, user1 = CASE WHEN idx = 3 THEN 'text' ELSE 1 END WHERE source = '%s'", p),
           "column user1", "integer");
  CHECK(same_identity(before, identify(p)), "a failed autocommit UPDATE writes nothing");
  CHECK(query_int(db, fmt("SELECT sum(health) FROM wwd_objects('%s')", p)) == 75, "... and leaves no staged change");

  /* inside a transaction: the failed statement is undone, the earlier one kept */
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE wwd_objects SET health = 2 WHERE source = '%s' AND idx < 2", p));
  exec_err(db, fmt("UPDATE wwd_objects SET health = 9, user2 = CASE WHEN idx = 4 THEN 5000000000 ELSE 0 END WHERE source = '%s'", p),
           "column user2", "out of range");
  CHECK(query_int(db, fmt("SELECT sum(health) FROM wwd_objects('%s')", p)) == 2 + 2 + 12 + 13 + 14 + 15,
        "the failed statement's rows are undone, the earlier statement kept");
  exec_ok(db, "SAVEPOINT s1");
  exec_ok(db, fmt("DELETE FROM wwd_objects WHERE source = '%s' AND idx = 5", p));
  CHECK(query_int(db, fmt("SELECT count(*) FROM wwd_objects('%s')", p)) == 5, "delete inside a savepoint");
  exec_ok(db, "ROLLBACK TO s1");
  CHECK(query_int(db, fmt("SELECT count(*) FROM wwd_objects('%s')", p)) == 6, "ROLLBACK TO restores the row");
  exec_ok(db, fmt("UPDATE wwd_objects SET health = 3 WHERE source = '%s' AND idx = 5", p));
  exec_ok(db, "RELEASE s1");
  CHECK(same_identity(before, identify(p)), "nothing on disk before COMMIT");
  exec_ok(db, "COMMIT");
  CHECK(!same_identity(before, identify(p)), "COMMIT wrote the file");
  CHECK(query_int(db, fmt("SELECT sum(health) FROM wwd_objects('%s')", p)) == 2 + 2 + 12 + 13 + 14 + 3, "committed values");
  CHECK(query_int(db, fmt("SELECT compressed FROM wwd_levels('%s')", p)) == 1, "compression kept");
}

/* Nested savepoints: RELEASE folds an inner savepoint into the outer one,
** ROLLBACK TO goes back to where a savepoint began, and a file whose edits
** were all rolled back is not rewritten at COMMIT. */
static void test_nested_savepoints(sqlite3 *db) {
  const char *p = path_in("sp.wwd"), *q = path_in("sq.wwd");
  const char *sum = fmt("SELECT sum(health) FROM wwd_objects('%s')", p);
  char sum_sql[512];
  file_id q0;
  snprintf(sum_sql, sizeof sum_sql, "%s", sum);
  write_level(p, 2, 0);
  write_level(q, 2, 0);
  q0 = identify(q);
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE wwd_objects SET health = 1 WHERE source = '%s'", p));
  exec_ok(db, "SAVEPOINT a");
  exec_ok(db, fmt("UPDATE wwd_objects SET health = 2 WHERE source = '%s'", p));
  exec_ok(db, "SAVEPOINT b");
  exec_ok(db, fmt("UPDATE wwd_objects SET health = 3 WHERE source = '%s'", p));
  exec_ok(db, fmt("UPDATE wwd_objects SET health = 9 WHERE source = '%s'", q));
  exec_ok(db, "RELEASE b");
  CHECK(query_int(db, sum_sql) == 6, "after RELEASE b the inner edits stay");
  exec_ok(db, "ROLLBACK TO a");
  CHECK(query_int(db, sum_sql) == 2, "ROLLBACK TO a undoes what b did too");
  CHECK(query_int(db, fmt("SELECT sum(health) FROM wwd_objects('%s')", q)) == 21, "the other file is back as well");
  exec_ok(db, fmt("UPDATE wwd_objects SET health = 4 WHERE source = '%s'", p));
  exec_ok(db, "SAVEPOINT c");
  exec_ok(db, fmt("DELETE FROM wwd_objects WHERE source = '%s'", p));
  exec_ok(db, "ROLLBACK TO c");
  exec_ok(db, "RELEASE a");
  exec_ok(db, "COMMIT");
  CHECK(query_int(db, sum_sql) == 8, "committed: the edit made after ROLLBACK TO");
  CHECK(same_identity(q0, identify(q)), "a file whose edits were all rolled back is not rewritten");
}

/* The undo cases SQLite leaves to the table: a savepoint that opened the
** transaction before the table joined it (DB Browser for SQLite sends
** SAVEPOINT before every grid edit and ROLLBACK TO for Revert), UPDATE ...
** FROM failing part-way inside a transaction (SQLite gives it no statement
** savepoint), and a single-row UPDATE failing on its second column. */
static void test_unbracketed_undo(sqlite3 *db) {
  const char *p = path_in("u.wwd");
  const char *sum = fmt("SELECT sum(health) || ',' || sum(x) FROM wwd_objects('%s')", p);
  char sum_sql[512], before_sum[64];
  file_id before;
  snprintf(sum_sql, sizeof sum_sql, "%s", sum);
  write_level(p, 4, 0);
  before = identify(p);
  snprintf(before_sum, sizeof before_sum, "%s", query_text(db, sum_sql));

  exec_ok(db, "SAVEPOINT a");
  exec_ok(db, fmt("UPDATE wwd_objects SET id = 77 WHERE source = '%s' AND idx = 0", p));
  exec_ok(db, "ROLLBACK TO a");
  exec_ok(db, "RELEASE a");
  CHECK(same_identity(before, identify(p)), "ROLLBACK TO a savepoint that opened the transaction, then RELEASE, writes nothing");
  CHECK(query_int(db, fmt("SELECT id FROM wwd_objects('%s') WHERE idx = 0", p)) != 77, "... and the edit is gone");

  exec_ok(db, "BEGIN");
  exec_err(db, fmt("UPDATE wwd_objects AS o SET health = CASE WHEN d.k = 2 THEN 'bad' ELSE 5 END "
                   "FROM (SELECT 0 AS k UNION SELECT 1 UNION SELECT 2) AS d WHERE o.source = '%s' AND o.idx = d.k", p),
           "column health", "integer");
  exec_err(db, fmt("UPDATE wwd_objects SET x = 1, health = 'lots' WHERE source = '%s' AND idx = 3", p), "column health", NULL);
  CHECK(strcmp(query_text(db, sum_sql), before_sum) == 0, "failed UPDATE ... FROM and single-row UPDATE leave nothing staged");
  exec_ok(db, "COMMIT");
  CHECK(same_identity(before, identify(p)), "... and COMMIT writes nothing");

  /* SQLite 3.40 hands UPDATE ... FROM every column: read-only ones given
  ** their own value are no change */
  exec_ok(db, fmt("UPDATE wwd_objects AS o SET health = 5 FROM (SELECT 0 AS k UNION SELECT 1) AS d "
                  "WHERE o.source = '%s' AND o.idx = d.k", p));
  CHECK(query_int(db, fmt("SELECT count(*) FROM wwd_objects('%s') WHERE health = 5", p)) == 2, "UPDATE ... FROM writes");
}

/* A file changed by someone else since we read it is never overwritten. */
static void test_conflict(sqlite3 *db) {
  const char *p = path_in("c.wwd");
  const char *q = path_in("c2.wwd");
  struct timespec times[2];
  write_level(p, 3, 0);
  write_level(q, 3, 0);
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE wwd_levels SET author = 'me' WHERE source = '%s'", p));
  exec_ok(db, fmt("UPDATE wwd_levels SET author = 'me' WHERE source = '%s'", q));
  /* another tool saves c.wwd meanwhile (same size, new time) */
  write_level(p, 3, 0);
  times[0].tv_sec = times[1].tv_sec = 1000000000;
  times[0].tv_nsec = times[1].tv_nsec = 0;
  utimensat(AT_FDCWD, p, times, 0);
  {
    file_id other = identify(p), q0 = identify(q);
    exec_err(db, "COMMIT", "changed on disk since it was read", "nothing was written");
    CHECK(same_identity(other, identify(p)), "the other writer's file is untouched");
    CHECK(same_identity(q0, identify(q)), "no other file of the transaction was written either");
    CHECK(sqlite3_get_autocommit(db), "the failed COMMIT rolled back");
  }
  CHECK(strcmp(query_text(db, fmt("SELECT author FROM wwd_levels('%s')", p)), "levelsql tests") == 0, "the other writer's content is read afresh");
  /* a file deleted before COMMIT: the OS reason */
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE wwd_levels SET author = 'me' WHERE source = '%s'", q));
  unlink(q);
  exec_err(db, "COMMIT", "No such file or directory", NULL);
  CHECK(access(q, F_OK) != 0, "a deleted file is not brought back");
}

/* Pushed-down constraints never change a result: random conjunctions of
** =, <, <=, >, >= on plane, x and y with integers, reals, text, NULL and the
** int64 extremes give the same count as the same filter over a plain table
** holding the same rows with the same INTEGER affinity (a unary + would
** also drop the affinity, so '3' would compare as text there). */
static void test_pushdown_random(sqlite3 *db) {
  static const char *const cols[] = {"plane", "x", "y"};
  static const char *const ops[] = {"=", "<", "<=", ">", ">="};
  static const char *const values[] = {"-1", "0", "1", "2", "3", "5", "7", "8", "2.5", "3.0", "-0.5", "'3'", "'abc'",
                                       "NULL", "9223372036854775807", "-9223372036854775808", "1e300", "-1e300"};
  const char *dir = path_in("pushdown");
  uint32_t seed = 12345;
  int q, mismatches = 0;
  mkdir(dir, 0755);
  write_level(fmt("%s/p1.wwd", dir), 3, 0);
  write_level(fmt("%s/p2.wwd", dir), 5, 1);
  exec_ok(db, "CREATE TEMP TABLE pushdown_ref(plane INTEGER, x INTEGER, y INTEGER)");
  exec_ok(db, fmt("INSERT INTO pushdown_ref SELECT plane, x, y FROM wwd_tiles('%s')", dir));
  for (q = 0; q < 300; q++) {
    char with[512] = "", without[512] = "";
    int n = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 3, k;
    for (k = 0; k < n; k++) {
      const char *c = cols[((seed = seed * 1103515245u + 12345u) >> 16) % 3];
      const char *o = ops[((seed = seed * 1103515245u + 12345u) >> 16) % 5];
      const char *v = values[((seed = seed * 1103515245u + 12345u) >> 16) % (sizeof values / sizeof values[0])];
      size_t w = strlen(with), wo = strlen(without);
      snprintf(with + w, sizeof with - w, "%s%s %s %s", k ? " AND " : "", c, o, v);
      snprintf(without + wo, sizeof without - wo, "%s%s %s %s", k ? " AND " : "", c, o, v);
    }
    if (query_int(db, fmt("SELECT count(*) FROM wwd_tiles('%s') WHERE %s", dir, with)) !=
        query_int(db, fmt("SELECT count(*) FROM pushdown_ref WHERE %s", without))) {
      if (mismatches++ < 5) printf("push-down changes the result of: %s\n", with);
    }
  }
  CHECK(mismatches == 0, "%d of 300 random constraint sets gave another count with push-down", mismatches);
  exec_ok(db, "DROP TABLE pushdown_ref");
}

/* A big non-level file (sparse: no disk used) is recognised from its head,
** not read whole; a missing folder named by an absolute path is an error
** naming it.  (levelsql_files and the errors of other files and sources:
** test/sql/engine.sql and test/sql/sources.sql.) */
static void test_big_file_and_absolute_path(sqlite3 *db) {
  const char *dir = path_in("big");
  mkdir(dir, 0755);
  file_write_all(fmt("%s/notes.txt", dir), (const unsigned char *)"hello", 5);
  if (truncate(fmt("%s/notes.txt", dir), (off_t)3 << 30) != 0) printf("note: cannot make a sparse file\n");
  CHECK(strstr(query_text(db, fmt("SELECT error FROM levelsql_files('%s/notes.txt')", dir)), "not a level file") != NULL,
        "a 3 GiB non-level file is not read whole: %s", query_text(db, fmt("SELECT error FROM levelsql_files('%s/notes.txt')", dir)));
  exec_err(db, fmt("SELECT * FROM wwd_levels('%s/nowhere/*.wwd')", tmpdir), fmt("%s/nowhere: no such folder", tmpdir), NULL);
}

/* The real corpus: a no-op rewrite of every level (but the bad-signature
** one) reads back the same rows, byte-identical when uncompressed and
** identical after decompression when compressed, with an exact checksum.
** (The reference values of RETAIL01, before and after such a rewrite:
** test/sql/wwd_corpus.sql.) */
static int inflate_block(const unsigned char *src, size_t n, unsigned char **out, size_t *out_n) {
  size_t cap = 1 << 20;
  int rc;
  z_stream z;
  memset(&z, 0, sizeof z);
  *out = malloc(cap);
  if (!*out || inflateInit(&z) != Z_OK) return 0;
  z.next_in = (unsigned char *)src;
  z.avail_in = (uInt)n;
  do {
    if (z.total_out == cap) {
      cap *= 2;
      *out = realloc(*out, cap);
    }
    z.next_out = *out + z.total_out;
    z.avail_out = (uInt)(cap - z.total_out);
    rc = inflate(&z, Z_NO_FLUSH);
  } while (rc == Z_OK);
  *out_n = z.total_out;
  inflateEnd(&z);
  return rc == Z_STREAM_END;
}

static const char *const row_queries[] = {
  "SELECT group_concat(x, ',') FROM (SELECT name || author || start_x || flags || num_planes || num_objects AS x FROM wwd_levels('%s'))",
  "SELECT count(*), total(id), total(x), total(y), total(health), total(length(logic)), total(user_flags), total(hit_type_flags) FROM wwd_objects('%s')",
  "SELECT group_concat(name || z || flags || image_sets, ';') FROM wwd_planes('%s')",
  "SELECT count(*), total(tile), total(kind = 'filled') FROM wwd_tiles('%s')",
  "SELECT count(*), total(width), total(attribute), total(length(mask)), total(rect_right) FROM wwd_tile_properties('%s')",
};

static char *rows_signature(sqlite3 *db, const char *path) {
  static char sig[8192];
  size_t k, used = 0;
  sig[0] = 0;
  for (k = 0; k < sizeof row_queries / sizeof row_queries[0]; k++) {
    sqlite3_stmt *st;
    int i;
    if (sqlite3_prepare_v2(db, fmt(row_queries[k], path), -1, &st, NULL) != SQLITE_OK) continue;
    if (sqlite3_step(st) == SQLITE_ROW) {
      for (i = 0; i < sqlite3_column_count(st) && used < sizeof sig - 200; i++) {
        used += (size_t)snprintf(sig + used, sizeof sig - used, "%.150s|", sqlite3_column_text(st, i) ? (const char *)sqlite3_column_text(st, i) : "-");
      }
    }
    sqlite3_finalize(st);
  }
  return sig;
}

static void test_corpus(sqlite3 *db) {
  const char *corpus = check_corpus_dir();
  DIR *d;
  struct dirent *e;
  char src[1024];
  int files = 0;
  check_loop rewrites = {0, 0, 0};
  if (!corpus) {
    SKIP("real WWD corpus: ../shared/corpus is absent");
    return;
  }
  snprintf(src, sizeof src, "%s/wwd", corpus);
  d = opendir(src);
  if (!d) {
    SKIP("real WWD corpus: %s missing", src);
    return;
  }
  mkdir(path_in("corpus"), 0755);
  while ((e = readdir(d)) != NULL) {
    size_t n = 0, m = 0;
    unsigned char *orig, *now;
    char *copy, before[8192];
    if (e->d_name[0] == '.') continue;
    orig = file_read_all(fmt("%s/%s", src, e->d_name), &n);
    copy = strdup(path_in(fmt("corpus/%s", e->d_name)));
    if (!orig || !copy) continue;
    file_write_all(copy, orig, n);
    if (strstr(e->d_name, "badsig")) { /* its error: test/sql/wwd_corpus.sql */
      free(orig);
      free(copy);
      continue;
    }
    files++;
    check_loop_enter(&rewrites);
    rewrites.inputs++;
    snprintf(before, sizeof before, "%s", rows_signature(db, copy));
    CHECK(strlen(before) > 20, "%s: rows read", e->d_name);
    exec_ok(db, fmt("UPDATE wwd_levels SET name = name WHERE source = '%s' AND options = 'rewrite=1'", copy));
    CHECK(strcmp(before, rows_signature(db, copy)) == 0, "%s: the rewritten file has the same rows", e->d_name);
    CHECK(strcmp(query_text(db, fmt("SELECT checksum_kind FROM wwd_levels('%s')", copy)), "exact") == 0, "%s: checksum now exact", e->d_name);
    now = file_read_all(copy, &m);
    if (now && n >= WWD_HEADER_SIZE && m >= WWD_HEADER_SIZE) {
      if (!(le32_load(orig + WWD_HDR_FLAGS) & WWD_FLAG_COMPRESS)) {
        CHECK(n == m && memcmp(orig, now, n) == 0, "%s: uncompressed no-op rewrite is byte-identical", e->d_name);
      } else {
        unsigned char *a = NULL, *b = NULL;
        size_t an = 0, bn = 0;
        int ok = inflate_block(orig + WWD_HEADER_SIZE, n - WWD_HEADER_SIZE, &a, &an) &&
                 inflate_block(now + WWD_HEADER_SIZE, m - WWD_HEADER_SIZE, &b, &bn);
        CHECK(ok && an == bn && memcmp(a, b, an) == 0, "%s: compressed rewrite identical after decompression", e->d_name);
        CHECK(memcmp(orig, now, WWD_HDR_CHECKSUM) == 0 && memcmp(orig + WWD_HDR_CHECKSUM + 4, now + WWD_HDR_CHECKSUM + 4, WWD_HEADER_SIZE - WWD_HDR_CHECKSUM - 4) == 0,
              "%s: header unchanged but for the checksum", e->d_name);
        free(a);
        free(b);
      }
    }
    check_loop_leave();
    free(now);
    free(orig);
    free(copy);
  }
  closedir(d);
  check_loop_done(&rewrites, "a no-op UPDATE of every corpus level: the same rows, an exact checksum, the same bytes "
                  "(decompressed when compressed)");
  CHECK(files == 14, "14 corpus levels rewritten: %d", files);
}

/* bump(rowid): adds 100 to that object's health in the file the test
** names (sqlite3_user_data), through an UPDATE run on the same
** connection while the caller's statement is on the row. */
static void bump_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *p = sqlite3_user_data(ctx);
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  (void)argc;
  sqlite3_result_int(ctx, sqlite3_exec(db, fmt("UPDATE wwd_objects SET health = health + 100 WHERE source = '%s' AND rowid = %lld", p,
                                               (long long)sqlite3_value_int64(argv[0])), NULL, NULL, NULL));
}

/* A write while a cursor is on a row makes the row's record stale: the
** cursor's next column read of that row loads it again and sees the write
** (vtab.c, row_state).  Inside a transaction the write changes the very
** model the cursor reads. */
static void test_write_while_on_row(sqlite3 *db) {
  static char p[300];
  snprintf(p, sizeof p, "%s", path_in("w.wwd"));
  write_level(p, 6, 1);
  REQUIRE(sqlite3_create_function(db, "bump", 1, SQLITE_UTF8, p, bump_func, NULL, NULL) == SQLITE_OK, "bump registered");
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE wwd_objects SET health = 5 WHERE source = '%s'", p));
  CHECK(strcmp(query_text(db, fmt("SELECT health || ',' || bump(rowid) || ',' || health FROM wwd_objects('%s') WHERE idx = 0", p)),
               "5,0,105") == 0,
        "a column read after a write on the row sees the write: %s",
        query_text(db, fmt("SELECT health || ',' || bump(rowid) || ',' || health FROM wwd_objects('%s') WHERE idx = 0", p)));
  exec_ok(db, "ROLLBACK");
}

int main(void) {
  sqlite3 *db;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/levelsql-engine-XXXXXX");
  if (!mkdtemp(tmpdir)) {
    printf("cannot make a temporary folder\n");
    return 1;
  }
  db = db_open();
  REQUIRE(db != NULL, "the extension loads");
  if (db) {
    test_write_back(db);
    test_rollback(db);
    test_nested_savepoints(db);
    test_unbracketed_undo(db);
    test_conflict(db);
    test_write_while_on_row(db);
    test_pushdown_random(db);
    test_big_file_and_absolute_path(db);
    test_corpus(db);
    sqlite3_close(db);
  }
  if (check_failed == 0) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) printf("note: could not remove %s\n", tmpdir);
  } else {
    printf("files kept in %s\n", tmpdir);
  }
  return check_done();
}
