/*
** test_sources.c: what of a source's expansion needs C (issue 24, items
** 5b, 5c, 5d; README, "The source argument").
**
**  - repeated `**` segments cost what one does: five of them over a chain
**    of 45 folders take well under a second (they took more than a minute)
**    and give the files one gives; "a / ** / d / ** / *.map" over the chain
**    is quick too (each folder is walked once per pattern position);
**  - sqlite3_interrupt() from another thread stops a long walk (a JSON
**    array repeating a `**` pattern over a tree of 20,000 folders) with
**    SQLITE_INTERRUPT soon after (the figure is printed; the bound is
**    generous for a loaded machine);
**  - paths longer than PATH_MAX are not skipped silently: in a tree made
**    deeper than PATH_MAX with mkdirat/openat, levelsql_files shows them
**    with ok = 0 and "File name too long", a scan fails naming one, and
**    on_error=skip passes over them as over any unreadable file.
**
** (One entry per file and names that are not UTF-8: test/sql/sources_links.sql.)
** Everything is made in a temporary folder, which is the current folder
** during the test; the levels are copies of the generated samples
** ($LEVELSQL_SAMPLES).
*/
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fileutil.h"
#include "sqltest.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Creates an empty file; returns whether it could. */
static int touch(const char *path) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return 0;
  close(fd);
  return 1;
}

/* ---- repeated ** ---------------------------------------------------------- */

#define CHAIN_DEPTH 45

/* a/x.map, a/d/x.map, a/d/d/x.map, ... CHAIN_DEPTH folders named d. */
static int make_chain(void) {
  char path[4 * CHAIN_DEPTH + 16] = "a";
  int k;
  if (mkdir("a", 0755) != 0 || !touch("a/x.map")) return 0;
  for (k = 0; k < CHAIN_DEPTH; k++) {
    size_t n = strlen(path);
    memcpy(path + n, "/d", 3);
    if (mkdir(path, 0755) != 0) return 0;
    snprintf(path + n + 2, sizeof path - n - 2, "/x.map");
    if (!touch(path)) return 0;
    path[n + 2] = 0;
  }
  return 1;
}

/* The files of pattern joined by '|' (in one of four rotating buffers),
** and how long listing them took. */
static const char *files_of(sqlite3 *db, const char *pattern, double *seconds) {
  static char buf[4][8192];
  static int k;
  double t0 = now_seconds();
  const char *files = query_text(db, fmt("SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('%s') ORDER BY file)", pattern));
  *seconds = now_seconds() - t0;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s", files);
  return buf[k];
}

static void test_repeated_globstars(sqlite3 *db) {
  double one_s, five_s, mixed_s, mixed2_s;
  const char *one, *five, *mixed, *mixed2;
  int n = 0;
  const char *p;
  if (!make_chain()) {
    CHECK(0, "make a chain of %d folders: %s", CHAIN_DEPTH, strerror(errno));
    return;
  }
  one = files_of(db, "a/**/*.map", &one_s);
  for (p = one; *p; p++) n += *p == '|';
  CHECK(n + 1 == CHAIN_DEPTH + 1 && strncmp(one, "a/d/", 4) == 0, "one ** finds the %d files: %d: %.200s", CHAIN_DEPTH + 1, n + 1, one);
  five = files_of(db, "a/**/**/**/**/**/*.map", &five_s);
  printf("INFO a/**/*.map: %.3f s; a/**/**/**/**/**/*.map: %.3f s (%d folders)\n", one_s, five_s, CHAIN_DEPTH);
  CHECK(strcmp(one, five) == 0, "five ** give what one gives: %.200s", five);
  CHECK(five_s < 5.0, "five ** over %d folders take %.3f s (it took more than a minute when each ** walked again)", CHAIN_DEPTH, five_s);
  /* a `**` after a plain name after a `**`: each folder is reached at the
  ** second ** through every d above it; walked once per pattern position */
  mixed = files_of(db, "a/**/d/**/*.map", &mixed_s);
  mixed2 = files_of(db, "a/**/d/**/d/**/d/**/*.map", &mixed2_s);
  printf("INFO a/**/d/**/*.map: %.3f s; a/**/d/**/d/**/d/**/*.map: %.3f s\n", mixed_s, mixed2_s);
  /* (in byte order a/x.map comes last, after a/d/...) */
  CHECK(strlen(one) > 8 && strlen(mixed) == strlen(one) - 8 && strncmp(mixed, one, strlen(mixed)) == 0 &&
            strcmp(one + strlen(mixed), "|a/x.map") == 0,
        "a/**/d/**/*.map is every file below a/d: %.200s", mixed);
  CHECK(mixed_s < 5.0 && mixed2_s < 5.0, "** around plain names stay quick: %.3f s and %.3f s", mixed_s, mixed2_s);
  for (n = 0, p = mixed2; *p; p++) n += *p == '|';
  CHECK(n + 1 == CHAIN_DEPTH - 2 && !strstr(mixed2, "|a/d/d/x.map"), "three d's at least: %d files: %.200s", n + 1, mixed2);
}

/* ---- sqlite3_interrupt during a walk ---------------------------------------- */

#define TREE_TOP 50
#define TREE_SUB 100 /* 5,000 folders below tree/ */
#define INTERRUPT_AFTER_S 0.2
#define WALKS_FOR_S 4.0 /* without the interrupt, the walks would take this long */

typedef struct interrupter {
  sqlite3 *db;
  double at; /* when sqlite3_interrupt was called */
} interrupter;

static void *interrupt_later(void *arg) {
  interrupter *it = arg;
  struct timespec ts = {0, (long)(INTERRUPT_AFTER_S * 1e9)};
  nanosleep(&ts, NULL);
  it->at = now_seconds();
  sqlite3_interrupt(it->db);
  return NULL;
}

static int make_tree(void) {
  char path[64];
  int i, k;
  if (mkdir("tree", 0755) != 0) return 0;
  for (i = 0; i < TREE_TOP; i++) {
    snprintf(path, sizeof path, "tree/t%03d", i);
    if (mkdir(path, 0755) != 0) return 0;
    for (k = 0; k < TREE_SUB; k++) {
      snprintf(path, sizeof path, "tree/t%03d/s%03d", i, k);
      if (mkdir(path, 0755) != 0) return 0;
    }
  }
  return touch("tree/t000/s000/x.map");
}

static void test_interrupt(sqlite3 *db) {
  sqlite3_str *source = sqlite3_str_new(NULL);
  char *src, *err = NULL;
  interrupter it = {db, 0};
  pthread_t thread;
  double t0, one_walk, end;
  int i, rc, walks;
  t0 = now_seconds();
  if (!make_tree()) {
    CHECK(0, "make a tree of %d folders: %s", TREE_TOP * TREE_SUB, strerror(errno));
    return;
  }
  printf("INFO made %d folders in %.3f s\n", TREE_TOP * TREE_SUB, now_seconds() - t0);
  t0 = now_seconds();
  CHECK(query_int(db, "SELECT count(*) FROM levelsql_files('tree/**/*.map')") == 1, "the tree holds one map");
  one_walk = now_seconds() - t0;
  /* the same pattern again and again (each element is walked), for about
  ** WALKS_FOR_S seconds */
  walks = one_walk > WALKS_FOR_S / 2 ? 2 : one_walk < WALKS_FOR_S / 2000 ? 2000 : (int)(WALKS_FOR_S / one_walk) + 1;
  sqlite3_str_appendall(source, "SELECT count(*) FROM levelsql_files('[");
  for (i = 0; i < walks; i++) sqlite3_str_appendf(source, "%s\"tree/**/*.map\"", i ? ", " : "");
  sqlite3_str_appendall(source, "]')");
  src = sqlite3_str_finish(source);
  if (!src) return;
  REQUIRE(pthread_create(&thread, NULL, interrupt_later, &it) == 0, "start the interrupting thread");
  t0 = now_seconds();
  rc = sqlite3_exec(db, src, NULL, NULL, &err);
  end = now_seconds();
  pthread_join(thread, NULL);
  printf("INFO one walk of %d folders: %.3f s; %d walks interrupted after %.3f s: the statement ended %.1f ms after the "
         "interrupt (%s)\n",
         TREE_TOP * TREE_SUB, one_walk, walks, it.at - t0, (end - it.at) * 1000, err ? err : "no error");
  CHECK(rc == SQLITE_INTERRUPT && err && strcmp(err, "interrupted") == 0, "the walk stops with SQLITE_INTERRUPT: rc %d: %s",
        rc, err ? err : "no message");
  /* (the figure is about 10 ms when the machine is quiet; the bound
  ** leaves room for a loaded one) */
  CHECK(end - it.at < 0.5, "it stops %.1f ms after sqlite3_interrupt", (end - it.at) * 1000);
  sqlite3_free(err);
  sqlite3_free(src);
  CHECK(query_int(db, "SELECT count(*) FROM levelsql_files('tree/t000/**/*.map')") == 1,
        "the connection works after the interrupt");
}

/* ---- paths longer than PATH_MAX -------------------------------------------- */

#define DEEP_LEVELS 25
#define DEEP_NAME 200 /* 25 * 201 bytes: past PATH_MAX (4096) */

/* deep/N/N/... (N: DEEP_NAME 'd's), each folder holding level.WWD (the
** sample's bytes), made with mkdirat/openat (the paths are too long for
** mkdir).  fds[k]: folder k (0: deep/), to remove it all again. */
static int make_deep(const unsigned char *level, size_t size, int fds[DEEP_LEVELS + 1]) {
  char name[DEEP_NAME + 1];
  int k, fd;
  memset(name, 'd', DEEP_NAME);
  name[DEEP_NAME] = 0;
  for (k = 0; k <= DEEP_LEVELS; k++) fds[k] = -1;
  if (mkdir("deep", 0755) != 0 || (fds[0] = open("deep", O_RDONLY | O_DIRECTORY)) < 0) return 0;
  for (k = 0; k <= DEEP_LEVELS; k++) {
    fd = openat(fds[k], "level.WWD", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, level, size) != (ssize_t)size) {
      if (fd >= 0) close(fd);
      return 0;
    }
    close(fd);
    if (k == DEEP_LEVELS) break;
    if (mkdirat(fds[k], name, 0755) != 0 || (fds[k + 1] = openat(fds[k], name, O_RDONLY | O_DIRECTORY)) < 0) return 0;
  }
  return 1;
}

/* Removes what make_deep made, bottom up. */
static void remove_deep(int fds[DEEP_LEVELS + 1]) {
  char name[DEEP_NAME + 1];
  int k;
  memset(name, 'd', DEEP_NAME);
  name[DEEP_NAME] = 0;
  for (k = DEEP_LEVELS; k >= 0; k--) {
    if (fds[k] < 0) continue;
    unlinkat(fds[k], "level.WWD", 0);
    if (k < DEEP_LEVELS) unlinkat(fds[k], name, AT_REMOVEDIR);
    close(fds[k]);
  }
  rmdir("deep");
}

static void test_long_paths(sqlite3 *db, const char *samples) {
  int fds[DEEP_LEVELS + 1];
  size_t size = 0;
  unsigned char *level = file_read_all(fmt("%s/SAMPLE01.WWD", samples), &size);
  sqlite3_int64 readable, too_long, short_failures, objects;
  REQUIRE(level != NULL, "read the sample");
  if (!level) return;
  if (!make_deep(level, size, fds)) {
    CHECK(0, "make a tree deeper than PATH_MAX: %s", strerror(errno));
  } else {
    readable = query_int(db, "SELECT count(*) FROM levelsql_files('deep/**/*.WWD') WHERE ok");
    too_long = query_int(db, "SELECT count(*) FROM levelsql_files('deep/**/*.WWD') WHERE NOT ok AND length(file) >= 4096 "
                             "AND error LIKE '%File name too long%'");
    short_failures = query_int(db, "SELECT count(*) FROM levelsql_files('deep/**/*.WWD') WHERE NOT ok AND length(file) < 4096");
    printf("INFO deep/**/*.WWD: %lld levels read, %lld paths too long\n", (long long)readable, (long long)too_long);
    CHECK(readable >= 15 && readable <= DEEP_LEVELS, "the levels whose paths fit are read: %lld", (long long)readable);
    CHECK(too_long >= 1, "a path longer than PATH_MAX is a row with ok = 0 and its error, not skipped: %lld", (long long)too_long);
    CHECK(short_failures == 0, "no other failures: %lld", (long long)short_failures);
    exec_err(db, "SELECT count(*) FROM wwd_objects('deep/**/*.WWD')", "deep/dddd", "File name too long");
    objects = query_int(db, "SELECT count(*) FROM wwd_objects('deep/**/*.WWD', 'on_error=skip')");
    CHECK(objects == readable * query_int(db, fmt("SELECT count(*) FROM wwd_objects('%s/SAMPLE01.WWD')", samples)),
          "on_error=skip passes over the paths too long: %lld objects", (long long)objects);
    /* a folder source, one level above the limit */
    CHECK(query_int(db, "SELECT count(*) FROM levelsql_files('deep') WHERE ok") == 1, "a folder source reads its level");
  }
  remove_deep(fds);
  free(level);
}

int main(void) {
  const char *samples = getenv("LEVELSQL_SAMPLES");
  char tmpdir[64] = "/tmp/levelsql-sources-XXXXXX", cwd[4096];
  sqlite3 *db = db_open(); /* (before the chdir: $LEVELSQL_EXT may be relative) */
  if (!mkdtemp(tmpdir) || !getcwd(cwd, sizeof cwd) || chdir(tmpdir) != 0) {
    printf("cannot make and enter a temporary folder\n");
    return 1;
  }
  REQUIRE(db != NULL, "the extension loads");
  REQUIRE(samples != NULL, "LEVELSQL_SAMPLES names the generated samples (test/run.sh sets it)");
  if (db) {
    test_repeated_globstars(db);
    test_interrupt(db);
    if (samples) test_long_paths(db, samples);
    sqlite3_close(db);
  }
  if (chdir(cwd) != 0 || system(fmt("rm -rf '%s'", tmpdir)) != 0) printf("note: could not remove %s\n", tmpdir);
  return check_done();
}
