/*
** test_rowid.c: a rowid names one row of one file, in every connection
** and process (issue 24, item 2; engine.h, "Row identity").
**
**  - the rowid's file part is FNV-1a 64 of the file's canonical path,
**    folded to 34 bits (computed here independently, so a change of the
**    formula, which would change every rowid a host keeps, fails);
**  - another process returns the same rowids;
**  - the case: a rowid read in one connection, written in another
**    that opened the files in another order, changes that row only;
**  - a fresh connection finds a row by its rowid (SELECT and UPDATE);
**  - a rowid of a file outside the statement's source matches nothing;
**  - two files whose parts collide (names found here by a birthday search
**    over the hash) are refused with an error naming both, in scans,
**    rowid lookups, writes, and lookups without a source.
**
** The levels are the generated samples ($LEVELSQL_SAMPLES) copied to a
** temporary folder.
*/
#include <limits.h>
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fileutil.h"
#include "sqltest.h"

static char tmpdir[256];

/* The rowid file part the README documents: FNV-1a 64 of the canonical
** path's bytes, its high 30 bits xor'ed onto the low 34, kept 34 bits. */
static int64_t expected_part(const char *canon) {
  uint64_t h = 1469598103934665603u;
  const unsigned char *p;
  for (p = (const unsigned char *)canon; *p; p++) h = (h ^ *p) * 1099511628211u;
  return (int64_t)((h ^ (h >> 34)) & ((UINT64_C(1) << 34) - 1));
}

/* Copies sample `name` to path; 1 on success. */
static int copy_sample(const char *name, const char *path) {
  const char *dir = getenv("LEVELSQL_SAMPLES");
  size_t size;
  unsigned char *data = file_read_all(fmt("%s/%s", dir ? dir : "build/samples", name), &size);
  int ok = data && file_write_all(path, data, size);
  free(data);
  return ok;
}

/* The rowids of every object of folder dir, in scan order, comma-joined,
** from a fresh connection (a static buffer of query_text's). */
static const char *folder_rowids(const char *dir) {
  sqlite3 *db = db_open();
  const char *s;
  if (!db) return "(no connection)";
  s = query_text(db, fmt("SELECT group_concat(rowid) FROM wwd_objects('%s')", dir));
  sqlite3_close(db);
  return s;
}

/* Another process's answer to folder_rowids(dir) equals this one's. */
static void test_processes(const char *dir) {
  int fds[2];
  pid_t pid;
  char theirs[16384];
  size_t got = 0;
  ssize_t n;
  const char *ours;
  REQUIRE(pipe(fds) == 0, "pipe");
  pid = fork();
  if (pid == 0) {
    const char *s;
    close(fds[0]);
    s = folder_rowids(dir);
    if (write(fds[1], s, strlen(s)) < 0) _exit(1);
    _exit(0);
  }
  close(fds[1]);
  while (got < sizeof theirs - 1 && (n = read(fds[0], theirs + got, sizeof theirs - 1 - got)) > 0) got += (size_t)n;
  theirs[got] = 0;
  close(fds[0]);
  waitpid(pid, NULL, 0);
  ours = folder_rowids(dir);
  CHECK(got > 0 && strchr(theirs, ',') && strcmp(theirs, ours) == 0, "another process's rowids differ:\n  %.200s\n  %.200s",
        theirs, ours);
}

/* The case and its neighbours, on two/A.WWD and two/B.WWD. */
static void test_connections(void) {
  char two[300], a[320], b[320], canon[PATH_MAX], logic[256];
  sqlite3 *c1, *c2, *c3;
  sqlite3_int64 r, part;
  snprintf(two, sizeof two, "%s/two", tmpdir);
  snprintf(a, sizeof a, "%s/A.WWD", two);
  snprintf(b, sizeof b, "%s/B.WWD", two);
  REQUIRE(mkdir(two, 0755) == 0 && copy_sample("SAMPLE01.WWD", a) && copy_sample("SAMPLE02.WWD", b), "copies");
  test_processes(two);

  /* conn 1 reads a rowid of A (visited first: byte order) */
  if (!(c1 = db_open())) return;
  r = query_int(c1, fmt("SELECT rowid FROM wwd_objects('%s') WHERE file = '%s' AND plane = 1 AND idx = 3", two, a));
  snprintf(logic, sizeof logic, "%s", query_text(c1, fmt("SELECT logic FROM wwd_objects('%s') WHERE file = '%s' AND plane = 1 AND idx = 3", two, a)));
  REQUIRE(r > 0 && logic[0], "a row of A: %lld", (long long)r);
  REQUIRE(realpath(a, canon) != NULL, "realpath");
  part = r >> 29;
  CHECK(part == expected_part(canon), "the file part of %s is %lld, want FNV-1a folded %lld", canon, (long long)part,
        (long long)expected_part(canon));
  CHECK(query_int(c1, fmt("SELECT count(DISTINCT rowid >> 29) FROM wwd_objects('%s')", two)) == 2 &&
            query_int(c1, fmt("SELECT count(*) FROM wwd_objects('%s') WHERE rowid < 0", two)) == 0,
        "one part per file, rowids positive");
  sqlite3_close(c1);

  /* conn 2 opens B first, then writes by that rowid: A's row changes, only it */
  if (!(c2 = db_open())) return;
  REQUIRE(query_int(c2, fmt("SELECT count(*) FROM wwd_objects('%s')", b)) > 0, "B first");
  REQUIRE(exec_ok(c2, fmt("UPDATE wwd_objects SET score = 4242 WHERE source = '%s' AND rowid = %lld", two, (long long)r)), "update");
  CHECK(sqlite3_changes(c2) == 1, "the cross-connection UPDATE changed %d rows", sqlite3_changes(c2));
  sqlite3_close(c2);
  if (!(c3 = db_open())) return;
  CHECK(strcmp(query_text(c3, fmt("SELECT group_concat(file || ':' || plane || ':' || idx) FROM wwd_objects('%s') WHERE score = 4242", two)),
               fmt("%s:1:3", a)) == 0,
        "the rows with score 4242 are %s, want A's plane 1 idx 3 alone",
        query_text(c3, fmt("SELECT group_concat(file || ':' || plane || ':' || idx) FROM wwd_objects('%s') WHERE score = 4242", two)));
  sqlite3_close(c3);

  /* fresh connections find the row by its rowid, by source and by file */
  if (!(c3 = db_open())) return;
  CHECK(strcmp(query_text(c3, fmt("SELECT logic FROM wwd_objects('%s') WHERE rowid = %lld", a, (long long)r)), logic) == 0,
        "a fresh connection's lookup by rowid, source the file");
  sqlite3_close(c3);
  if (!(c3 = db_open())) return;
  CHECK(strcmp(query_text(c3, fmt("SELECT logic FROM wwd_objects WHERE file = '%s' AND rowid = %lld", a, (long long)r)), logic) == 0,
        "a fresh connection's lookup by rowid and file, no source");
  sqlite3_close(c3);
  if (!(c3 = db_open())) return;
  REQUIRE(exec_ok(c3, fmt("UPDATE wwd_objects SET score = 4343 WHERE source = '%s' AND rowid = %lld", two, (long long)r)), "update");
  CHECK(sqlite3_changes(c3) == 1 &&
            query_int(c3, fmt("SELECT score FROM wwd_objects('%s') WHERE plane = 1 AND idx = 3", a)) == 4343,
        "a fresh connection's UPDATE by rowid: %d rows", sqlite3_changes(c3));

  /* a rowid outside the source matches nothing, even with its key */
  CHECK(query_int(c3, fmt("SELECT count(*) FROM wwd_objects('%s') WHERE rowid = %lld", b, (long long)r)) == 0,
        "A's rowid in B's source");
  CHECK(query_int(c3, fmt("SELECT count(*) FROM wwd_objects('%s') WHERE rowid = %lld", two, (long long)(r ^ ((sqlite3_int64)1 << 40)))) == 0,
        "a rowid of no file of the source");
  CHECK(query_int(c3, fmt("SELECT count(*) FROM wwd_objects WHERE file = '%s' AND rowid = %lld", b, (long long)r)) == 0,
        "A's rowid with file = B");
  {
    sqlite3_int64 b_sum = query_int(c3, fmt("SELECT sum(score) FROM wwd_objects('%s')", b));
    REQUIRE(exec_ok(c3, fmt("UPDATE wwd_objects SET score = score + 1 WHERE source = '%s' AND rowid = %lld", b, (long long)r)), "update");
    CHECK(sqlite3_changes(c3) == 0, "an UPDATE by A's rowid in B's source changed %d rows", sqlite3_changes(c3));
    CHECK(query_int(c3, fmt("SELECT sum(score) FROM wwd_objects('%s')", b)) == b_sum &&
              query_int(c3, fmt("SELECT score FROM wwd_objects('%s') WHERE plane = 1 AND idx = 3", a)) == 4343,
          "nothing changed");
  }
  sqlite3_close(c3);
}

/* Finds two file names in folder dir (canonical: canon_dir) whose
** canonical paths have the same part: a birthday search, about 2^17 names
** for 34 bits.  1 with the names in x and y. */
static int find_collision(const char *canon_dir, char *x, char *y, size_t size) {
  enum { SLOTS = 1 << 22 };
  int64_t *parts = calloc(SLOTS, sizeof *parts);
  int32_t *names = calloc(SLOTS, sizeof *names);
  int32_t i;
  int found = 0;
  if (!parts || !names) {
    free(parts);
    free(names);
    return 0;
  }
  for (i = 1; i < SLOTS / 2 && !found; i++) {
    int64_t part = expected_part(fmt("%s/c%07d.WWD", canon_dir, (int)i));
    size_t s;
    for (s = (size_t)part & (SLOTS - 1); names[s]; s = (s + 1) & (SLOTS - 1)) {
      if (parts[s] == part) {
        snprintf(x, size, "c%07d.WWD", (int)names[s]);
        snprintf(y, size, "c%07d.WWD", (int)i);
        found = 1;
        break;
      }
    }
    if (!found) {
      parts[s] = part;
      names[s] = i;
    }
  }
  free(parts);
  free(names);
  return found;
}

/* Two files of one statement whose rowids would share a file part. */
static void test_collision(void) {
  char dir[300], canon_dir[PATH_MAX], x[32], y[32], px[400], py[400];
  size_t size_before, size_after;
  unsigned char *before, *after;
  sqlite3 *db;
  sqlite3_int64 rx;
  snprintf(dir, sizeof dir, "%s/coll", tmpdir);
  REQUIRE(mkdir(dir, 0755) == 0 && realpath(dir, canon_dir) != NULL, "mkdir");
  if (!find_collision(canon_dir, x, y, sizeof x)) {
    CHECK(0, "no two names with one part among 2 million");
    return;
  }
  snprintf(px, sizeof px, "%s/%s", dir, x);
  snprintf(py, sizeof py, "%s/%s", dir, y);
  REQUIRE(copy_sample("SAMPLE01.WWD", px) && copy_sample("SAMPLE02.WWD", py), "copies");
  before = file_read_all(py, &size_before);
  if (!(db = db_open())) return;
  rx = query_int(db, fmt("SELECT rowid FROM wwd_objects('%s') LIMIT 1", px));
  CHECK(rx >> 29 == query_int(db, fmt("SELECT rowid >> 29 FROM wwd_objects('%s') LIMIT 1", py)), "%s and %s share a part", x, y);
  exec_err(db, fmt("SELECT count(*) FROM wwd_objects('%s')", dir), "rowid collision", y);
  exec_err(db, fmt("SELECT count(*) FROM wwd_objects('%s')", dir), x, NULL);
  exec_err(db, fmt("SELECT count(*) FROM wwd_objects('%s') WHERE rowid = %lld", dir, (long long)rx), "rowid collision", x);
  exec_err(db, fmt("UPDATE wwd_objects SET score = score + 1 WHERE source = '%s'", dir), "rowid collision", y);
  after = file_read_all(py, &size_after);
  CHECK(before && after && size_before == size_after && memcmp(before, after, size_before) == 0, "the refused UPDATE wrote");
  free(before);
  free(after);
  /* each alone is fine; a lookup without a source, once both are known, is refused */
  CHECK(query_int(db, fmt("SELECT count(*) FROM wwd_objects('%s') WHERE rowid = %lld", px, (long long)rx)) == 1, "x alone");
  exec_err(db, fmt("SELECT count(*) FROM wwd_objects WHERE rowid = %lld", (long long)rx), "rowid collision", NULL);
  /* a transaction that wrote to one cannot write to the other by rowid */
  REQUIRE(exec_ok(db, "BEGIN"), "begin");
  REQUIRE(exec_ok(db, fmt("UPDATE wwd_objects SET score = 7 WHERE source = '%s' AND rowid = %lld", px, (long long)rx)), "x");
  exec_err(db, fmt("UPDATE wwd_objects SET score = 7 WHERE source = '%s'", py), "rowid collision", NULL);
  exec_ok(db, "ROLLBACK");
  sqlite3_close(db);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/levelsql_rowid_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    printf("FAIL mkdtemp\nRESULT passed=0 failed=1 skipped=0\n");
    return 1;
  }
  test_connections();
  test_collision();
  CHECK(system(fmt("rm -rf '%s'", tmpdir)) == 0, "cleanup");
  return check_done();
}
