/*
** sqltest.h: driving the extension from a C test, shared by the tests that
** go through SQLite (test_engine, test_tw_sql, test_wz4_sql).
**
** SQL text is built with fmt() into rotating static buffers; results of
** query_text() also live in rotating static buffers: both stay valid for a
** few calls, which is all a CHECK needs.  exec_err counts one CHECK
** (check.h); exec_ok is a REQUIRE (its failure counts, its success does
** not).
*/
#ifndef LEVELSQL_SQLTEST_H
#define LEVELSQL_SQLTEST_H

#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fileutil.h"

/* printf into one of eight rotating 2 KiB buffers. */
static inline char *fmt(const char *f, ...) {
  static char buf[8][2048];
  static int k;
  va_list ap;
  k = (k + 1) % 8;
  va_start(ap, f);
  vsnprintf(buf[k], sizeof buf[k], f, ap);
  va_end(ap);
  return buf[k];
}

/* A new in-memory connection with the extension ($LEVELSQL_EXT, else
** build/levelsql) loaded; NULL (printed) when it does not load. */
static inline sqlite3 *db_open(void) {
  sqlite3 *db = NULL;
  char *err = NULL;
  const char *ext = getenv("LEVELSQL_EXT");
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return NULL;
  sqlite3_enable_load_extension(db, 1);
  if (sqlite3_load_extension(db, ext ? ext : "build/levelsql", "sqlite3_levelsql_init", &err) != SQLITE_OK) {
    printf("cannot load the extension: %s\n", err ? err : "?");
    sqlite3_free(err);
    sqlite3_close(db);
    return NULL;
  }
  return db;
}

/* The path of a tool built beside the extension ($LEVELSQL_EXT's folder,
** else build/): tool_path("gen_tw_samples") is build/tools/gen_tw_samples.
** Returns one of two static buffers; the caller checks that the tool exists. */
static inline const char *tool_path(const char *tool) {
  static char path[2][1024];
  static int k;
  const char *ext = getenv("LEVELSQL_EXT");
  const char *slash;
  if (!ext) ext = "build/levelsql";
  slash = strrchr(ext, '/');
  k = !k;
  snprintf(path[k], sizeof path[k], "%.*stools/%s", slash ? (int)(slash - ext + 1) : 0, ext, tool);
  return path[k];
}

/* Runs SQL that must succeed (a REQUIRE: a step, not a case of its own);
** returns whether it did. */
static inline int exec_ok(sqlite3 *db, const char *sql) {
  char *err = NULL;
  int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
  REQUIRE(rc == SQLITE_OK, "%s -> %s", sql, err ? err : "?");
  sqlite3_free(err);
  return rc == SQLITE_OK;
}

/* Runs SQL that must fail with a message containing part1 and, unless
** NULL, part2 (one CHECK). */
static inline void exec_err(sqlite3 *db, const char *sql, const char *part1, const char *part2) {
  char *err = NULL;
  int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
  CHECK(rc != SQLITE_OK && err && strstr(err, part1) && (!part2 || strstr(err, part2)),
        "[%s] must fail with '%s'%s%s%s: %s", sql, part1, part2 ? " and '" : "", part2 ? part2 : "", part2 ? "'" : "",
        rc == SQLITE_OK ? "it succeeded" : err ? err : "(no message)");
  sqlite3_free(err);
}

/* The first column of the first row as an integer: 0 for NULL, -999999
** (printed) when the query fails or returns no row. */
static inline sqlite3_int64 query_int(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st = NULL;
  sqlite3_int64 v = -999999;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    printf("prepare failed: %s: %s\n", sql, sqlite3_errmsg(db));
    return v;
  }
  if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
  else printf("no row / error: %s: %s\n", sql, sqlite3_errmsg(db));
  sqlite3_finalize(st);
  return v;
}

/* The first column of the first row as bytes in one of four rotating
** 16 KiB buffers, NUL-terminated, *len its length (len may be NULL): ""
** for NULL or no row, "(error: ...)" when the query fails. */
static inline char *query_text_len(sqlite3 *db, const char *sql, int *len) {
  static char buf[4][16384];
  static int k;
  sqlite3_stmt *st = NULL;
  k = (k + 1) % 4;
  buf[k][0] = 0;
  if (len) *len = 0;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    snprintf(buf[k], sizeof buf[k], "(prepare failed: %s)", sqlite3_errmsg(db));
    return buf[k];
  }
  if (sqlite3_step(st) == SQLITE_ROW) {
    if (sqlite3_column_text(st, 0)) {
      int n = sqlite3_column_bytes(st, 0);
      if (n > (int)sizeof buf[k] - 1) n = (int)sizeof buf[k] - 1;
      memcpy(buf[k], sqlite3_column_text(st, 0), (size_t)n);
      buf[k][n] = 0;
      if (len) *len = n;
    }
  } else if (sqlite3_errcode(db) != SQLITE_DONE) {
    snprintf(buf[k], sizeof buf[k], "(error: %s)", sqlite3_errmsg(db));
  }
  sqlite3_finalize(st);
  return buf[k];
}

static inline char *query_text(sqlite3 *db, const char *sql) {
  return query_text_len(db, sql, NULL);
}

/* Copies the generated sample `name` ($LEVELSQL_SAMPLES/name) into folder
** dir under the same name (a REQUIRE); returns whether it did. */
static inline int copy_sample_into(const char *dir, const char *name) {
  const char *samples = getenv("LEVELSQL_SAMPLES");
  size_t n;
  unsigned char *data = samples ? file_read_all(fmt("%s/%s", samples, name), &n) : NULL;
  int ok = data && file_write_all(fmt("%s/%s", dir, name), data, n);
  free(data);
  REQUIRE(ok, "copy sample %s", name);
  return ok;
}

#endif
