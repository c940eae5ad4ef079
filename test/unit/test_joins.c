/*
** test_joins.c: what of the joins needs C.
**
**  - the next statement, and the same prepared statement run again, see
**    files added or changed on disk in between;
**  - the planner puts the table with fewer rows per file outside a join
**    on `file` (EXPLAIN QUERY PLAN), and looks the other up by file.
**
** (That a statement lists each source and looks each file up once, and
** the error for a table without a source: test/sql/joins.sql and
** test/sql/joins_corpus.sql.)  The levels are the generated samples
** ($LEVELSQL_SAMPLES) copied to a temporary folder; the corpus checks copy
** ../shared/corpus/wed to a temporary folder and are skipped without it.
*/
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "sqltest.h"

static char tmpdir[256];

/* Runs a shell command; returns 1 when it exited 0. */
static int run(const char *cmd) {
  return system(cmd) == 0;
}

/* Copies text made by fmt() (whose buffers rotate) into buf. */
static const char *keep(char *buf, size_t size, const char *text) {
  snprintf(buf, size, "%s", text);
  return buf;
}

/* The EXPLAIN QUERY PLAN lines of sql joined by '\n' (a static buffer). */
static const char *plan_of(sqlite3 *db, const char *sql) {
  static char buf[4096];
  sqlite3_stmt *st = NULL;
  size_t used = 0;
  buf[0] = 0;
  if (sqlite3_prepare_v2(db, fmt("EXPLAIN QUERY PLAN %s", sql), -1, &st, NULL) != SQLITE_OK) {
    snprintf(buf, sizeof buf, "(prepare failed: %s)", sqlite3_errmsg(db));
    return buf;
  }
  while (sqlite3_step(st) == SQLITE_ROW && used + 1 < sizeof buf) {
    int n = snprintf(buf + used, sizeof buf - used, "%s\n", (const char *)sqlite3_column_text(st, 3));
    if (n < 0) break;
    used += (size_t)n < sizeof buf - used ? (size_t)n : sizeof buf - used - 1;
  }
  sqlite3_finalize(st);
  return buf;
}

/* Does the plan scan `outer` before `inner` ("SCAN <alias> ...")? */
static int scans_before(const char *plan, const char *outer, const char *inner) {
  char a[32], b[32];
  const char *pa, *pb;
  snprintf(a, sizeof a, "SCAN %s ", outer);
  snprintf(b, sizeof b, "SCAN %s ", inner);
  pa = strstr(plan, a);
  pb = strstr(plan, b);
  return pa && pb && pa < pb;
}

/* A statement sees the disk as it is when it starts: a file added or
** changed after one statement is seen by the next, and by the same
** prepared statement run again. */
static void test_fresh_per_statement(sqlite3 *db, const char *dir) {
  char join_buf[1024];
  const char *join = keep(join_buf, sizeof join_buf,
                          fmt("SELECT count(*) FROM wwd_levels('%1$s') AS l JOIN wwd_objects('%1$s') AS o ON o.file = l.file", dir));
  sqlite3_stmt *st = NULL;
  int64_t before, again, objects_one;
  objects_one = query_int(db, fmt("SELECT count(*) FROM wwd_objects('%s/SAMPLE01.WWD')", dir));
  before = query_int(db, join);
  CHECK(before > 0, "the join counts objects: %lld", (long long)before);
  if (sqlite3_prepare_v2(db, join, -1, &st, NULL) != SQLITE_OK) {
    CHECK(0, "prepare: %s", sqlite3_errmsg(db));
    return;
  }
  CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) == before, "prepared: same count");
  sqlite3_reset(st);
  REQUIRE(run(fmt("cp '%1$s/SAMPLE01.WWD' '%1$s/ADDED.WWD'", dir)), "copy a level into the folder");
  CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) == before + objects_one,
        "the same statement run again sees the added file");
  sqlite3_reset(st);
  again = query_int(db, join);
  CHECK(again == before + objects_one, "a new statement sees the added file: %lld", (long long)again);
  /* a changed file: the copy loses its objects */
  exec_ok(db, fmt("DELETE FROM wwd_objects WHERE source = '%s/ADDED.WWD'", dir));
  CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) == before, "a changed file is read again");
  sqlite3_finalize(st);
  REQUIRE(unlink(fmt("%s/ADDED.WWD", dir)) == 0, "remove the copy");
  CHECK(query_int(db, join) == before, "and a removed one is gone");
}

/* ---- the planner's choice ---------------------------------------------------- */

/* In a join on file, the table with fewer rows per file goes outside and
** the other is looked up by file (F in the plan); a plan that names one
** file is preferred to a scan of the folder. */
static void test_join_order(sqlite3 *db, const char *dir) {
  static const struct {
    const char *sql, *outer, *inner;
  } cases[] = {
    {"SELECT count(*) FROM wwd_tiles('%1$s') AS t JOIN wwd_planes('%1$s') AS p ON p.file = t.file AND p.plane = t.plane"
     " WHERE p.is_main", "p", "t"},
    {"SELECT count(*) FROM wwd_objects('%1$s') AS o JOIN wwd_planes('%1$s') AS p ON p.file = o.file AND p.plane = o.plane"
     " WHERE o.x < 0 OR o.y < 0 OR o.x > p.width_px OR o.y > p.height_px", "p", "o"},
    {"SELECT count(*) FROM wwd_objects('%1$s') AS o JOIN wwd_levels('%1$s') AS l ON o.file = l.file", "l", "o"},
    {"SELECT count(*) FROM wwd_tile_properties('%1$s') AS t JOIN wwd_levels('%1$s') AS l ON t.file = l.file", "l", "t"},
    /* the same level twice (UPDATE ... FROM's shape): the side narrowed to
    ** one plane outside, the other looked up by its x and y */
    {"SELECT count(*) FROM wwd_tiles('%1$s/SAMPLE01.WWD') AS g, wwd_tiles('%1$s/SAMPLE01.WWD') AS d"
     " WHERE g.kind = 'tile' AND d.plane = 1 AND d.tile > 0 AND d.x = g.x AND d.y = g.y", "d", "g"},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char sql_buf[1024];
    const char *sql = keep(sql_buf, sizeof sql_buf, fmt(cases[i].sql, dir));
    const char *plan = plan_of(db, sql);
    char inner[64];
    CHECK(scans_before(plan, cases[i].outer, cases[i].inner), "join %zu: %s outside %s:\n%s", i, cases[i].outer,
          cases[i].inner, plan);
    snprintf(inner, sizeof inner, "SCAN %s VIRTUAL TABLE INDEX 0:S,F,", cases[i].inner);
    if (i < 4) CHECK(strstr(plan, inner) != NULL, "join %zu: %s is looked up by file:\n%s", i, cases[i].inner, plan);
    CHECK(query_int(db, sql) >= 0, "join %zu runs", i);
  }
}

/* ---- the real corpus ------------------------------------------------------- */

/* WED: polygons x overlays on the corpus: the base overlay goes outside,
** or the polygons in file order.  (The listings and lookups of these joins:
** test/sql/joins_corpus.sql.) */
static void test_corpus_wed(sqlite3 *db) {
  const char *corpus = check_corpus_dir();
  char dir_buf[512], sql_buf[1024];
  const char *dir = keep(dir_buf, sizeof dir_buf, fmt("%s/wed", tmpdir));
  const char *sql;
  if (!corpus) {
    SKIP("../shared/corpus is absent: the WED corpus join plan");
    return;
  }
  if (!run(fmt("mkdir -p '%1$s' && cp '%2$s'/wed/* '%1$s'/", dir, corpus))) {
    CHECK(0, "copy the WED corpus");
    return;
  }
  sql = keep(sql_buf, sizeof sql_buf,
             fmt("SELECT p.file, count(*) FROM wed_polygons('%1$s') AS p JOIN wed_overlays('%1$s') AS o"
                 " ON o.file = p.file AND o.overlay = 0 GROUP BY p.file", dir));
  /* Two plans are good: the overlays outside (SQLite 3.40), or the
  ** polygons outside in file order, so that GROUP BY needs no sort (3.53);
  ** either way the inner table is looked up one file at a time. */
  CHECK(scans_before(plan_of(db, sql), "o", "p") ||
            (scans_before(plan_of(db, sql), "p", "o") && !strstr(plan_of(db, sql), "B-TREE FOR GROUP BY")),
        "the overlays outside the polygons, or the polygons outside in file order:\n%s", plan_of(db, sql));
}

int main(void) {
  const char *samples = getenv("LEVELSQL_SAMPLES");
  char dir[512];
  sqlite3 *db;
  int nfiles;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/levelsql-joins-XXXXXX");
  if (!mkdtemp(tmpdir)) {
    printf("cannot make a temporary folder\n");
    return 1;
  }
  snprintf(dir, sizeof dir, "%s/levels", tmpdir);
  db = db_open();
  REQUIRE(db != NULL, "the extension loads");
  REQUIRE(samples != NULL, "LEVELSQL_SAMPLES names the generated samples (test/run.sh sets it)");
  if (db && samples && run(fmt("mkdir -p '%1$s' && cp '%2$s'/*.WWD '%1$s'/", dir, samples))) {
    nfiles = (int)query_int(db, fmt("SELECT count(*) FROM wwd_levels('%s')", dir));
    REQUIRE(nfiles >= 3, "the samples are there: %d", nfiles);
    test_fresh_per_statement(db, dir);
    test_join_order(db, dir);
    test_corpus_wed(db);
  } else if (db && samples) {
    CHECK(0, "copy the samples of %s", samples);
  }
  if (db) sqlite3_close(db);
  if (check_failed == 0) {
    if (!run(fmt("rm -rf '%s'", tmpdir))) printf("note: could not remove %s\n", tmpdir);
  } else {
    printf("files kept in %s\n", tmpdir);
  }
  return check_done();
}
