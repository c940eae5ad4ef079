/*
** test_wz4_sql.c: what of the werkkzeug4 tables (wz4_pages,
** wz4_operators, wz4_links) needs C, through the loaded extension.
**
** - a constructed two-page project (wz4_sample.h: byte by byte, from
**   ../shared/formats/wz4.md, with a lone UTF-16 surrogate in a name and a
**   string parameter): a no-op UPDATE rewrites it (a new inode) byte for
**   byte, surrogates included.  (Its counts, graph, push-down, rowids,
**   value errors and edits, tree ops and WTF-8 names:
**   test/sql/wz4_constructed.sql.)
** - the real corpus ($LEVELSQL_CORPUS/wz4, skipped when unset), on private
**   copies in a mkdtemp folder: every file loads with the codec's counts
**   and re-saves byte-identically through `UPDATE ... SET name = name`; an
**   edit (move, rename, bypass) gives exactly the codec's bytes for the
**   same edit, removes the moved op's stack link, and undoing it restores
**   the original bytes.
*/
#include <dirent.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/bytes.h"
#include "check.h"
#include "sqltest.h"
#include "fileutil.h"
#include "wz4/wz4.h"
#include "wz4_sample.h"

/* ---- helpers ---------------------------------------------------------------- */

/* A path inside the test's temporary folder (rotating static buffers). */
static char *path_in(const char *dir, const char *name) {
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

/* Text of a query compared with an expected C string. */
static int text_is(sqlite3 *db, const char *sql, const char *want) {
  const char *got = query_text(db, sql);
  if (strcmp(got, want) == 0) return 1;
  printf("  %s\n  gave: %s\n  want: %s\n", sql, got, want);
  return 0;
}

typedef struct file_id {
  ino_t ino;
  int64_t mtime_ns;
  int64_t size;
} file_id;

/* inode, mtime and size: a rewrite by rename changes the inode. */
static file_id identify(const char *path) {
  struct stat st;
  file_id id = {0, 0, -1};
  if (stat(path, &st) == 0) {
    id.ino = st.st_ino;
    id.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    id.size = st.st_size;
  }
  return id;
}

/* 1 when the file holds exactly data[0..size). */
static int file_equals(const char *path, const unsigned char *data, size_t size) {
  size_t n = 0;
  unsigned char *buf = file_read_all(path, &n);
  int same = buf && n == size && memcmp(buf, data, size) == 0;
  free(buf);
  return same;
}

/* A no-op UPDATE rewrites the constructed project (a new inode) with the
** same bytes, lone surrogates included.  (Its reads, graph, value errors
** and edits: test/sql/wz4_constructed.sql.) */
static void test_constructed_noop(const char *dir) {
  const char *p = path_in(dir, "built.wz4");
  unsigned char *orig;
  size_t orig_size = 0;
  file_id before;
  sqlite3 *db = db_open();
  if (!db) return;
  orig = file_read_all(p, &orig_size);
  before = identify(p);
  exec_ok(db, fmt("UPDATE wz4_operators SET name = name, strings = strings, params = params WHERE source = '%s' AND options = 'rewrite=1'", p));
  CHECK(identify(p).ino != before.ino, "the no-op UPDATE rewrote the file");
  CHECK(orig && file_equals(p, orig, orig_size), "... byte-identically (lone surrogates included)");
  free(orig);
  sqlite3_close(db);
}

/* ---- the real corpus -------------------------------------------------------------- */

/* Codec counts of a document: pages, ops, edges. */
static void codec_counts(const wz4_doc *doc, int64_t *pages, int64_t *ops, int64_t *links) {
  uint32_t p;
  *pages = doc->num_pages;
  *ops = 0;
  *links = 0;
  for (p = 0; p < doc->num_pages; p++) {
    wz4_edge *e = NULL;
    size_t n = 0;
    codec_error err;
    *ops += doc->pages[p].num_nodes;
    if (wz4_page_links(doc, p, &e, &n, &err)) *links += (int64_t)n;
    free(e);
  }
}

/* One corpus file: counts agree with the codec, a no-op UPDATE re-saves
** it byte-identically. */
static void corpus_file_roundtrip(sqlite3 *db, const char *copy, const unsigned char *orig, size_t size, const char *name) {
  wz4_doc *doc = NULL;
  codec_error err;
  int64_t pages, ops, links;
  file_id before;
  if (!wz4_parse(orig, size, &doc, &err)) {
    CHECK(0, "%s: the codec parses it: %s", name, err.msg);
    return;
  }
  codec_counts(doc, &pages, &ops, &links);
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_pages('%s')", copy)) == pages, "%s: %lld pages", name, (long long)pages);
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_operators('%s')", copy)) == ops, "%s: %lld operators", name, (long long)ops);
  CHECK(query_int(db, fmt("SELECT sum(num_ops) FROM wz4_pages('%s')", copy)) == ops, "%s: num_ops adds up", name);
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_links('%s')", copy)) == links, "%s: %lld links", name, (long long)links);
  CHECK(query_int(db, fmt("SELECT min(json_valid(params) AND json_valid(strings) AND json_valid(links)) FROM wz4_operators('%s')", copy)) == 1,
        "%s: JSON columns are valid", name);
  wz4_free(doc);
  before = identify(copy);
  exec_ok(db, fmt("UPDATE wz4_operators SET name = name WHERE source = '%s' AND options = 'rewrite=1'", copy));
  CHECK(identify(copy).ino != before.ino, "%s: the no-op UPDATE rewrote the file", name);
  CHECK(file_equals(copy, orig, size), "%s: re-saved byte-identically", name);
}

/* An edit on a corpus copy: move the upper op of a stack link away, rename
** and bypass the lower one.  The file must equal the codec's serialization
** of the same edit; a new connection sees the link gone; undoing the edit
** restores the original bytes. */
static void corpus_file_edit(const char *copy, const unsigned char *orig, size_t size, const char *name) {
  sqlite3 *db = db_open(), *db2;
  int64_t page, from, to, old_x, old_bypass;
  char old_name[1024];
  int len = 0;
  const char *s;
  wz4_doc *doc = NULL;
  codec_error err;
  unsigned char *out = NULL;
  size_t out_size = 0;
  if (!db) return;
  page = query_int(db, fmt("SELECT page FROM wz4_links('%s') WHERE kind = 'stack' ORDER BY page, to_op LIMIT 1", copy));
  if (page < 0) {
    SKIP("%s: no stack link to move", name);
    sqlite3_close(db);
    return;
  }
  from = query_int(db, fmt("SELECT from_op FROM wz4_links('%s') WHERE kind = 'stack' ORDER BY page, to_op LIMIT 1", copy));
  to = query_int(db, fmt("SELECT to_op FROM wz4_links('%s') WHERE kind = 'stack' ORDER BY page, to_op LIMIT 1", copy));
  old_x = query_int(db, fmt("SELECT pos_x FROM wz4_operators('%s') WHERE page = %lld AND op = %lld", copy, (long long)page, (long long)from));
  old_bypass = query_int(db, fmt("SELECT bypass FROM wz4_operators('%s') WHERE page = %lld AND op = %lld", copy, (long long)page, (long long)to));
  s = query_text_len(db, fmt("SELECT name FROM wz4_operators('%s') WHERE page = %lld AND op = %lld", copy, (long long)page, (long long)to), &len);
  memcpy(old_name, s, (size_t)len + 1);
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE wz4_operators SET pos_x = pos_x + 1000 WHERE source = '%s' AND page = %lld AND op = %lld", copy, (long long)page, (long long)from));
  exec_ok(db, fmt("UPDATE wz4_operators SET name = 'levelsql', bypass = 1 - bypass WHERE source = '%s' AND page = %lld AND op = %lld", copy, (long long)page, (long long)to));
  exec_ok(db, "COMMIT");
  sqlite3_close(db);

  /* the codec's bytes for the same edit */
  if (wz4_parse(orig, size, &doc, &err)) {
    wz4_node *a = wz4_node_at(doc, (uint32_t)page, (uint32_t)from), *b = wz4_node_at(doc, (uint32_t)page, (uint32_t)to);
    a->pos_x += 1000;
    b->bypass = 1 - b->bypass;
    wz4_str_set(&b->op.name, "levelsql", 8, &err);
    CHECK(wz4_serialize(doc, &out, &out_size, &err) && file_equals(copy, out, out_size), "%s: the edit gives the codec's bytes", name);
    free(out);
    wz4_free(doc);
  }
  db2 = db_open();
  if (db2) {
    CHECK(query_int(db2, fmt("SELECT pos_x FROM wz4_operators('%s') WHERE page = %lld AND op = %lld", copy, (long long)page, (long long)from)) == old_x + 1000,
          "%s: the move re-read in a new connection", name);
    CHECK(text_is(db2, fmt("SELECT name || ':' || bypass FROM wz4_operators('%s') WHERE page = %lld AND op = %lld", copy, (long long)page, (long long)to),
                  fmt("levelsql:%lld", (long long)(1 - old_bypass))),
          "%s: the rename and bypass re-read", name);
    CHECK(query_int(db2, fmt("SELECT count(*) FROM wz4_links('%s') WHERE page = %lld AND kind = 'stack' AND from_op = %lld AND to_op = %lld", copy,
                             (long long)page, (long long)from, (long long)to)) == 0,
          "%s: the moved op's stack link is gone", name);
    /* undo: the link comes back and the file is the original again */
    exec_ok(db2, "BEGIN");
    exec_ok(db2, fmt("UPDATE wz4_operators SET pos_x = %lld WHERE source = '%s' AND page = %lld AND op = %lld", (long long)old_x, copy, (long long)page, (long long)from));
    {
      sqlite3_stmt *st = NULL;
      if (sqlite3_prepare_v2(db2, fmt("UPDATE wz4_operators SET name = ?1, bypass = %lld WHERE source = '%s' AND page = %lld AND op = %lld",
                                      (long long)old_bypass, copy, (long long)page, (long long)to), -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, old_name, len, SQLITE_TRANSIENT);
        CHECK(sqlite3_step(st) == SQLITE_DONE, "%s: undo the rename: %s", name, sqlite3_errmsg(db2));
      }
      sqlite3_finalize(st);
    }
    CHECK(query_int(db2, fmt("SELECT count(*) FROM wz4_links('%s') WHERE page = %lld AND kind = 'stack' AND from_op = %lld AND to_op = %lld", copy,
                             (long long)page, (long long)from, (long long)to)) == 1,
          "%s: moving the op back under restores the link", name);
    exec_ok(db2, "COMMIT");
    CHECK(file_equals(copy, orig, size), "%s: undoing the edit restores the original bytes", name);
    sqlite3_close(db2);
  }
}

/* Every corpus file, on private copies in dir/corpus. */
static void test_corpus(const char *dir) {
  const char *corpus = check_corpus_dir();
  char src_dir[512], dst_dir[512];
  DIR *d;
  struct dirent *e;
  int files = 0, edited = 0;
  sqlite3 *db;
  if (!corpus) {
    SKIP("the wz4 corpus: LEVELSQL_CORPUS is not set");
    return;
  }
  snprintf(src_dir, sizeof src_dir, "%s/wz4", corpus);
  snprintf(dst_dir, sizeof dst_dir, "%s/corpus", dir);
  if (mkdir(dst_dir, 0700) != 0 || !(d = opendir(src_dir))) {
    SKIP("the wz4 corpus: cannot read %s", src_dir);
    return;
  }
  db = db_open();
  while (db && (e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name), size = 0;
    unsigned char *data;
    char src[1024], copy[1024];
    if (n < 5 || strcmp(e->d_name + n - 4, ".wz4") != 0) continue;
    snprintf(src, sizeof src, "%s/%s", src_dir, e->d_name);
    snprintf(copy, sizeof copy, "%s/%s", dst_dir, e->d_name);
    data = file_read_all(src, &size);
    if (!data || !file_write_all(copy, data, size)) {
      CHECK(0, "cannot copy %s", src);
      free(data);
      continue;
    }
    files++;
    corpus_file_roundtrip(db, copy, data, size, e->d_name);
    if (!edited) edited = 1, corpus_file_edit(copy, data, size, e->d_name);
    free(data);
  }
  closedir(d);
  if (db) {
    CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE format = 'wz4' AND ok", dst_dir)) == files,
          "levelsql_files: every corpus file is a loadable wz4");
    sqlite3_close(db);
  }
  CHECK(files >= 3, "the corpus has the 3 wz4 files (found %d)", files);
}

/* Runs every test in a private mkdtemp folder, removed when all passed. */
int main(void) {
  char dir[256];
  snprintf(dir, sizeof dir, "/tmp/levelsql-wz4-XXXXXX");
  if (!mkdtemp(dir)) {
    printf("cannot make a temporary folder\n");
    return 1;
  }
  REQUIRE(wz4_write_project(path_in(dir, "built.wz4")), "write the constructed project");
  test_constructed_noop(dir);
  test_corpus(dir);
  if (check_failed == 0) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
  } else {
    printf("files kept in %s\n", dir);
  }
  return check_done();
}
