/*
** test_wz4_sql.c: the werkkzeug4 tables (wz4_pages, wz4_operators,
** wz4_links) end to end, through the loaded extension.
**
** - a constructed two-page project (wz4_sample.h: byte by byte, from
**   ../shared/formats/wz4.md, with a lone UTF-16 surrogate in a name and a
**   string parameter): counts, the graph (stack edges, a name link to
**   another page, a dangling name), push-down, rowid lookups, no-op
**   rewrites (byte-identical, surrogates included), edits re-read in a new
**   connection, wz4_links following moves, hides and renames, and value
**   errors naming the column and the limit;
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

#include "bytes.h"
#include "check.h"
#include "sqltest.h"
#include "fileutil.h"
#include "wz4.h"
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

/* 1 when nothing rewrote or touched the file between the two stats. */
static int same_identity(file_id a, file_id b) {
  return a.ino == b.ino && a.mtime_ns == b.mtime_ns && a.size == b.size;
}

/* 1 when the file holds exactly data[0..size). */
static int file_equals(const char *path, const unsigned char *data, size_t size) {
  size_t n = 0;
  unsigned char *buf = file_read_all(path, &n);
  int same = buf && n == size && memcmp(buf, data, size) == 0;
  free(buf);
  return same;
}

/* Counts the edges kind from (page, op) -> to_op on `page` through SQL
** (from NULL when from_op < 0). */
static sqlite3_int64 edges(sqlite3 *db, const char *src, int page, const char *kind, int from_page, int from_op, int to_op) {
  if (from_op < 0) {
    return query_int(db, fmt("SELECT count(*) FROM wz4_links('%s') WHERE page = %d AND kind = '%s' AND from_op IS NULL AND from_page IS NULL AND to_op = %d",
                             src, page, kind, to_op));
  }
  return query_int(db, fmt("SELECT count(*) FROM wz4_links('%s') WHERE page = %d AND kind = '%s' AND from_page = %d AND from_op = %d AND to_op = %d",
                           src, page, kind, from_page, from_op, to_op));
}

/* Reads, graph, push-down and rowids on the constructed project. */
static void test_constructed_reads(const char *dir) {
  const char *p = path_in(dir, "built.wz4");
  sqlite3 *db = db_open();
  int len = 0;
  const char *s;
  if (!db) return;
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE format = 'wz4' AND ok", p)) == 1, "levelsql_files recognises .wz4");
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_pages('%s')", p)) == 2, "two pages");
  CHECK(text_is(db, fmt("SELECT group_concat(page || ':' || name || ':' || num_ops || ':' || num_stacked || ':' || is_tree || ':' || scroll_x || ':' || scroll_y || ':' || write_protect, ' ') FROM wz4_pages('%s')", p),
                "0:gen:4:4:0:7:8:0 1:use:2:2:0:0:0:1"),
        "page columns");
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_operators('%s')", p)) == 6, "six operators");
  CHECK(text_is(db, fmt("SELECT group_concat(page || '/' || op || ':' || class || ':' || output_type || ':' || pos_x || ',' || pos_y || ',' || width || ',' || height || ':' || bypass || hide, ' ') FROM wz4_operators('%s') WHERE page = 0 AND op < 3", p),
                "0/0:Flat:GenBitmap:0,0,3,1:00 0/1:Blur:GenBitmap:0,1,3,1:00 0/2:Store:GenBitmap:0,2,3,1:00"),
        "operator columns");
  CHECK(text_is(db, fmt("SELECT params || strings || links || '|' || script FROM wz4_operators('%s') WHERE page = 1 AND op = 0", p),
                "[2056,4278190080][\"farbrausch\"][{\"name\":\"tex\",\"select\":0}]|"),
        "JSON columns");
  CHECK(query_int(db, fmt("SELECT json_extract(params, '$[1]') FROM wz4_operators('%s') WHERE page = 0 AND op = 0", p)) == 4278190080LL,
        "params words are unsigned");
  /* the lone surrogate: WTF-8 bytes in text, a \ud800 escape in JSON */
  s = query_text_len(db, fmt("SELECT name FROM wz4_operators('%s') WHERE page = 0 AND op = 3", p), &len);
  CHECK(len == 4 && memcmp(s, "\xED\xA0\x80x", 4) == 0, "a lone surrogate comes out as its WTF-8 bytes (%d bytes)", len);
  CHECK(text_is(db, fmt("SELECT lower(strings) FROM wz4_operators('%s') WHERE page = 0 AND op = 3", p), "[\"\\ud800x\"]"),
        "strings escape a lone surrogate");
  CHECK(query_int(db, fmt("SELECT min(json_valid(params) AND json_valid(strings) AND json_valid(links)) FROM wz4_operators('%s')", p)) == 1,
        "JSON columns are valid JSON");
  /* the graph */
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_links('%s')", p)) == 5, "five edges");
  CHECK(edges(db, p, 0, "stack", 0, 0, 1) == 1 && edges(db, p, 0, "stack", 0, 1, 2) == 1, "stack edges of page 0");
  CHECK(edges(db, p, 1, "stack", 1, 0, 1) == 1, "stack edge of page 1");
  CHECK(edges(db, p, 1, "name", 0, 2, 0) == 1, "name link to another page, with from_page");
  CHECK(edges(db, p, 1, "name", 0, -1, 1) == 1, "dangling name link: from_op and from_page NULL");
  CHECK(text_is(db, fmt("SELECT group_concat(coalesce(link_name, '-') || slot, ',') FROM wz4_links('%s') WHERE kind = 'name'", p), "tex0,nowhere0"),
        "link_name and slot");
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_links('%s') WHERE kind = 'stack' AND (link_name IS NOT NULL OR slot IS NOT NULL)", p)) == 0,
        "stack edges have no name or slot");
  /* push-down and rowids */
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_operators('%s') WHERE page = 0 AND op BETWEEN 1 AND 2", p)) == 2, "page and op ranges");
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_operators('%s') WHERE op >= 3", p)) == 1, "op range across pages");
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_links('%s') WHERE page > 0", p)) == 3, "page range on links");
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_pages('%s') WHERE page < 1", p)) == 1, "page range on pages");
  CHECK(query_int(db, fmt("SELECT op FROM wz4_operators('%s') WHERE rowid = (SELECT rowid FROM wz4_operators('%s') WHERE page = 1 AND op = 1)", p, p)) == 1 &&
            query_int(db, fmt("SELECT page FROM wz4_operators('%s') WHERE rowid = (SELECT rowid FROM wz4_operators('%s') WHERE page = 1 AND op = 1)", p, p)) == 1,
        "rowid lookup of an operator");
  CHECK(text_is(db, fmt("SELECT link_name FROM wz4_links('%s') WHERE rowid = (SELECT rowid FROM wz4_links('%s') WHERE link_name = 'nowhere')", p, p), "nowhere"),
        "rowid lookup of a link");
  CHECK(query_int(db, fmt("SELECT count(DISTINCT rowid) FROM wz4_links('%s')", p)) == 5, "link rowids are distinct");
  sqlite3_close(db);
}

/* No-op rewrites, edits read back in a new connection, the graph following
** moves, hides and renames, and value errors. */
static void test_constructed_edits(const char *dir) {
  const char *p = path_in(dir, "built.wz4");
  unsigned char *orig;
  size_t orig_size = 0;
  file_id before, after;
  sqlite3 *db = db_open(), *db2;
  if (!db) return;
  orig = file_read_all(p, &orig_size);
  before = identify(p);
  /* a no-op UPDATE rewrites the file with the same bytes (surrogates too) */
  exec_ok(db, fmt("UPDATE wz4_operators SET name = name, strings = strings, params = params WHERE source = '%s'", p));
  after = identify(p);
  CHECK(after.ino != before.ino, "the no-op UPDATE rewrote the file");
  CHECK(orig && file_equals(p, orig, orig_size), "... byte-identically (lone surrogates included)");

  /* value errors name the column and the limit, and change nothing */
  before = identify(p);
  exec_err(db, fmt("UPDATE wz4_operators SET pos_x = 3000000000 WHERE source = '%s' AND page = 0 AND op = 0", p), "column pos_x", "2147483647");
  exec_err(db, fmt("UPDATE wz4_operators SET pos_y = 'up' WHERE source = '%s' AND page = 0 AND op = 0", p), "column pos_y", "not an integer");
  exec_err(db, fmt("UPDATE wz4_operators SET width = 0 WHERE source = '%s' AND page = 0 AND op = 0", p), "column width", "from 1 to");
  exec_err(db, fmt("UPDATE wz4_operators SET bypass = 2 WHERE source = '%s' AND page = 0 AND op = 0", p), "column bypass", "from 0 to 1");
  exec_err(db, fmt("UPDATE wz4_operators SET params = '[1, 2.5]' WHERE source = '%s' AND page = 0 AND op = 0", p), "column params", "element 1");
  exec_err(db, fmt("UPDATE wz4_operators SET params = '[4294967296]' WHERE source = '%s' AND page = 0 AND op = 0", p), "column params", "4294967295");
  exec_err(db, fmt("UPDATE wz4_operators SET params = '[\"a\"]' WHERE source = '%s' AND page = 0 AND op = 0", p), "column params", "integer");
  exec_err(db, fmt("UPDATE wz4_operators SET params = 7 WHERE source = '%s' AND page = 0 AND op = 0", p), "column params", "JSON array");
  exec_err(db, fmt("UPDATE wz4_operators SET params = NULL WHERE source = '%s' AND page = 0 AND op = 0", p), "column params", "JSON array");
  exec_err(db, fmt("UPDATE wz4_operators SET strings = '[1]' WHERE source = '%s' AND page = 0 AND op = 0", p), "column strings", "element 0");
  exec_err(db, fmt("UPDATE wz4_operators SET strings = '[\"a\"' WHERE source = '%s' AND page = 0 AND op = 0", p), "column strings", "JSON array of strings");
  exec_err(db, fmt("UPDATE wz4_operators SET strings = x'00' WHERE source = '%s' AND page = 0 AND op = 0", p), "column strings", "JSON array of strings");
  exec_err(db, fmt("UPDATE wz4_operators SET name = x'ff' WHERE source = '%s' AND page = 0 AND op = 0", p), "column name", "UTF-8");
  exec_err(db, fmt("UPDATE wz4_operators SET name = NULL WHERE source = '%s' AND page = 0 AND op = 0", p), "column name", "text");
  exec_err(db, fmt("UPDATE wz4_operators SET class = 'Blur' WHERE source = '%s' AND page = 0 AND op = 0", p), "column class", "read-only");
  exec_err(db, fmt("UPDATE wz4_operators SET links = '[{\"name\":\"x\",\"select\":0}]' WHERE source = '%s' AND page = 0 AND op = 0", p), "column links", "read-only");
  exec_err(db, fmt("UPDATE wz4_links SET from_op = 3 WHERE source = '%s'", p), "column from_op", "read-only");
  exec_err(db, fmt("UPDATE wz4_pages SET scroll_x = 3 WHERE source = '%s'", p), "column scroll_x", "read-only");
  exec_err(db, fmt("DELETE FROM wz4_operators WHERE source = '%s'", p), "cannot be deleted", NULL);
  exec_err(db, fmt("INSERT INTO wz4_operators(file, page) VALUES ('%s', 0)", p), "cannot be inserted", NULL);
  exec_err(db, fmt("UPDATE wz4_operators SET pos_x = 1, params = '[x]' WHERE source = '%s' AND page = 0", p), "op 0 of page 0: column params", NULL);
  after = identify(p);
  CHECK(same_identity(before, after), "failed statements leave the file alone");
  CHECK(orig && file_equals(p, orig, orig_size), "... with its bytes");

  /* the graph follows edits in the same connection (inside a transaction) */
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE wz4_operators SET pos_x = 20 WHERE source = '%s' AND page = 0 AND op = 0", p));
  CHECK(edges(db, p, 0, "stack", 0, 0, 1) == 0, "moving op 0 away removes its stack link");
  exec_ok(db, fmt("UPDATE wz4_operators SET pos_x = 1 WHERE source = '%s' AND page = 0 AND op = 3", p));
  CHECK(edges(db, p, 0, "stack", 0, 3, 1) == 1, "moving op 3 on top of op 1 adds a stack link");
  exec_ok(db, fmt("UPDATE wz4_operators SET hide = 1 WHERE source = '%s' AND page = 0 AND op = 1", p));
  CHECK(edges(db, p, 0, "stack", 0, 1, 2) == 0, "a hidden op feeds nothing");
  exec_ok(db, fmt("UPDATE wz4_operators SET hide = 0 WHERE source = '%s' AND page = 0 AND op = 1", p));
  exec_ok(db, fmt("UPDATE wz4_operators SET name = 'tex2' WHERE source = '%s' AND page = 0 AND op = 2", p));
  CHECK(edges(db, p, 1, "name", 0, -1, 0) == 1, "renaming the target leaves the name link dangling");
  exec_ok(db, fmt("UPDATE wz4_operators SET name = 'tex' WHERE source = '%s' AND page = 1 AND op = 1", p));
  CHECK(edges(db, p, 1, "name", 1, 1, 0) == 1, "... and it finds a new op of that name");
  exec_ok(db, fmt("UPDATE wz4_operators SET bypass = 1 - bypass, params = '[-1,7]', strings = '[\"a\\\"b\",\"\\ud800\"]' WHERE source = '%s' AND page = 0 AND op = 1", p));
  exec_ok(db, "COMMIT");

  /* a new connection parses the written file */
  db2 = db_open();
  if (db2) {
    CHECK(text_is(db2, fmt("SELECT group_concat(op || ':' || pos_x || ',' || pos_y || ':' || bypass || hide || ':' || name, ' ') FROM wz4_operators('%s') WHERE page = 0", p),
                  "0:20,0:00: 1:0,1:10: 2:0,2:00:tex2 3:1,0:00:\xED\xA0\x80x"),
          "edits re-read in a new connection");
    CHECK(text_is(db2, fmt("SELECT params || lower(strings) FROM wz4_operators('%s') WHERE page = 0 AND op = 1", p),
                  "[4294967295,7][\"a\\\"b\",\"\\ud800\"]"),
          "params and strings re-read");
    CHECK(text_is(db2, fmt("SELECT name FROM wz4_operators('%s') WHERE page = 1 AND op = 1", p), "tex"), "rename on page 1 re-read");
    CHECK(edges(db2, p, 0, "stack", 0, 0, 1) == 0 && edges(db2, p, 0, "stack", 0, 3, 1) == 1 && edges(db2, p, 0, "stack", 0, 1, 2) == 1,
          "the graph of the written file follows the moves");
    CHECK(edges(db2, p, 1, "name", 1, 1, 0) == 1, "the name link of the written file follows the renames");
    /* moving op 0 back above op 1 brings the link back */
    exec_ok(db2, fmt("UPDATE wz4_operators SET pos_x = 2 WHERE source = '%s' AND page = 0 AND op = 0", p));
    CHECK(edges(db2, p, 0, "stack", 0, 0, 1) == 1, "moving op 0 back over op 1 restores the link");
    sqlite3_close(db2);
  }
  free(orig);
  sqlite3_close(db);
}

/* Tree ops (the constructed project with op 1 of page 1 made a tree op by
** the codec) have no grid fields: they read NULL and refuse writes in the
** table's words; and the name column's WTF-8 text kind (LS_WTF8): a blob
** of WTF-8 bytes is taken as text, a number is refused. */
static void test_tree_ops_and_wtf8(const char *dir) {
  const char *built = path_in(dir, "built.wz4"), *p = path_in(dir, "tree.wz4");
  unsigned char *data, *out = NULL;
  size_t size = 0, out_size = 0;
  wz4_doc *doc = NULL;
  codec_error err;
  sqlite3 *db;
  int len = 0;
  const char *s;
  data = file_read_all(built, &size);
  if (!data || !wz4_parse(data, size, &doc, &err)) {
    CHECK(0, "parse the constructed project");
    free(data);
    return;
  }
  doc->pages[1].num_stack = 1;
  CHECK(wz4_serialize(doc, &out, &out_size, &err) && file_write_all(p, out, out_size), "write a project with a tree op");
  free(out);
  free(data);
  wz4_free(doc);
  if (!(db = db_open())) return;
  CHECK(text_is(db, fmt("SELECT group_concat(op || ':' || coalesce(pos_x, 'n') || coalesce(width, 'n') || coalesce(hide, 'n'), ' ') FROM wz4_operators('%s') WHERE page = 1", p),
                "0:030 1:nnn"),
        "a tree op's grid fields are NULL");
  exec_err(db, fmt("UPDATE wz4_operators SET pos_x = 3 WHERE source = '%s' AND page = 1 AND op = 1", p),
           "op 1 of page 1: column pos_x: a tree op has no grid position, size or flags", NULL);
  exec_err(db, fmt("UPDATE wz4_operators SET hide = NULL WHERE source = '%s' AND page = 1 AND op = 1", p), "column hide: a tree op has no", NULL);
  exec_ok(db, fmt("UPDATE wz4_operators SET name = x'7472eda080' WHERE source = '%s' AND page = 1", p));
  s = query_text_len(db, fmt("SELECT name FROM wz4_operators('%s') WHERE page = 1 AND op = 1", p), &len);
  CHECK(len == 5 && memcmp(s, "tr\xED\xA0\x80", 5) == 0, "a blob of WTF-8 bytes sets a name with a lone surrogate (%d bytes)", len);
  CHECK(query_int(db, fmt("SELECT count(*) FROM wz4_operators('%s') WHERE page = 1 AND op = 0 AND name = CAST(x'7472eda080' AS TEXT)", p)) == 1,
        "... on the stacked op too");
  exec_err(db, fmt("UPDATE wz4_operators SET name = 5 WHERE source = '%s' AND page = 1 AND op = 1", p), "column name: a number", "UTF-8 text");
  exec_err(db, fmt("UPDATE wz4_operators SET name = x'eda080edb080' WHERE source = '%s' AND page = 1 AND op = 1", p), "column name: not UTF-8 (or WTF-8) at byte 3", NULL);
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
  exec_ok(db, fmt("UPDATE wz4_operators SET name = name WHERE source = '%s'", copy));
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
  CHECK(wz4_write_project(path_in(dir, "built.wz4")), "write the constructed project");
  test_constructed_reads(dir);
  test_constructed_edits(dir);
  test_tree_ops_and_wtf8(dir);
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
