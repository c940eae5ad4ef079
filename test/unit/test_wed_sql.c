/*
** test_wed_sql.c: what of the WED tables needs C, through the loaded
** extension.
**
** Without the corpus: edit scenarios on a small area built byte by byte
** (wed_sample.h, not with the codec's writer) whose written files the
** codec then checks: move / insert / delete a wall, door cells, tiles and
** overlays read back in a new connection; the bounding box rules; rows
** keeping their identity in multi-row statements.  (Reading that area,
** its no-op rewrites and every bad value: test/sql/wed_constructed.sql.)
** With the corpus (LEVELSQL_CORPUS/wed, copied to a private temporary
** folder; the originals are only read): every file loads, a no-op UPDATE
** rewrites every file byte-identically, polygon and vertex counts match a
** reading of the raw header offsets, the edit scenario runs on every area
** with walls and the written files are re-read by a new connection and
** checked (wall groups cover the polygons, lookup indices in range, boxes
** enclose vertices, no overlapping sections, size = end of the last
** section), and sql/wed_cookbook.sql runs without an error on real areas
** (its sample paths turned into corpus paths).
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
#include "fileutil.h"
#include "wed/wed.h"
#include "wed_layout.h"
#include "wed_sample.h"

/* The test's temporary folder and the folder it was started in. */
typedef struct test_env {
  char tmp[256];
  char start[1024];
} test_env;

/* ---- helpers ------------------------------------------------------------------ */

/* printf into a fresh malloc'd string (the caller frees it). */
static char *strf(const char *f, ...) {
  va_list ap;
  char *s;
  int n;
  va_start(ap, f);
  n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  s = malloc((size_t)n + 1);
  if (!s) return NULL;
  va_start(ap, f);
  vsnprintf(s, (size_t)n + 1, f, ap);
  va_end(ap);
  return s;
}

/* A new connection with the extension loaded (LEVELSQL_EXT), or NULL. */
static sqlite3 *db_open(void) {
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

/* Runs SQL that must succeed (a REQUIRE, check.h); frees the SQL text. */
static int exec_ok(sqlite3 *db, char *sql) {
  char *err = NULL;
  int rc = sql ? sqlite3_exec(db, sql, NULL, NULL, &err) : SQLITE_NOMEM;
  REQUIRE(rc == SQLITE_OK, "%s -> %s", sql ? sql : "(no memory)", err ? err : "?");
  sqlite3_free(err);
  free(sql);
  return rc == SQLITE_OK;
}

/* Runs SQL that must fail with a message holding both parts (part2 may be
** NULL; one CHECK); frees the SQL text. */
static void exec_err(sqlite3 *db, char *sql, const char *part1, const char *part2) {
  char *err = NULL;
  int rc = sql ? sqlite3_exec(db, sql, NULL, NULL, &err) : SQLITE_NOMEM;
  CHECK(sql && rc != SQLITE_OK && err && strstr(err, part1) && (!part2 || strstr(err, part2)),
        "[%s] must fail with '%s'%s%s%s: %s", sql ? sql : "(no memory)", part1, part2 ? " and '" : "", part2 ? part2 : "", part2 ? "'" : "",
        rc == SQLITE_OK ? "it succeeded" : err ? err : "(no message)");
  sqlite3_free(err);
  free(sql);
}

/* The first column of the first row as an integer (-999999 when there is
** none); frees the SQL text. */
static sqlite3_int64 query_int(sqlite3 *db, char *sql) {
  sqlite3_stmt *st = NULL;
  sqlite3_int64 v = -999999;
  if (!sql || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    printf("prepare failed: %s: %s\n", sql ? sql : "", sqlite3_errmsg(db));
    free(sql);
    return v;
  }
  if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
  else printf("no row / error: %s: %s\n", sql, sqlite3_errmsg(db));
  sqlite3_finalize(st);
  free(sql);
  return v;
}

/* The first column of the first row as a malloc'd string ("" for NULL or
** no row, "(error: ...)" on an error); frees the SQL text. */
static char *query_text(sqlite3 *db, char *sql) {
  sqlite3_stmt *st = NULL;
  char *out = NULL;
  if (!sql || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    out = strf("(prepare failed: %s)", sqlite3_errmsg(db));
    free(sql);
    return out;
  }
  if (sqlite3_step(st) == SQLITE_ROW) {
    const unsigned char *t = sqlite3_column_text(st, 0);
    out = strf("%s", t ? (const char *)t : "");
  } else if (sqlite3_errcode(db) != SQLITE_DONE) {
    out = strf("(error: %s)", sqlite3_errmsg(db));
  } else {
    out = strf("%s", "");
  }
  sqlite3_finalize(st);
  free(sql);
  return out;
}

/* Compares a query's text with the expected text (one CHECK). */
static void expect_text(sqlite3 *db, char *sql, const char *want, const char *what) {
  char *got = query_text(db, sql);
  CHECK(got && strcmp(got, want) == 0, "%s: got '%s', want '%s'", what, got ? got : "", want);
  free(got);
}

/* Copies a file; returns 1 on success. */
static int copy_file(const char *from, const char *to) {
  size_t n = 0;
  unsigned char *d = file_read_all(from, &n);
  int ok = d && file_write_all(to, d, n);
  free(d);
  return ok;
}

/* Whether two files hold the same bytes. */
static int same_bytes(const char *a, const char *b) {
  size_t na = 0, nb = 0;
  unsigned char *da = file_read_all(a, &na), *db = file_read_all(b, &nb);
  int same = da && db && na == nb && memcmp(da, db, na) == 0;
  free(da);
  free(db);
  return same;
}

/* The number of files the connection wrote back so far. */
static sqlite3_int64 writes_so_far(sqlite3 *db) {
  return query_int(db, strf("SELECT json_extract(levelsql_cache_stats(), '$.writes')"));
}

/* ---- invariants of a written file ----------------------------------------------- */

/* Checks a file through the codec: it parses and passes wed_check; every
** non-empty polygon with a well-formed box is listed in each wall group
** whose 640x480 cell its box meets; polygon lookup entries are in range;
** boxes enclose their vertices; no section overlaps another; the file ends
** where its last section ends.  Returns the number of violations. */
static int check_file_invariants(const char *name, const char *path) {
  size_t size = 0, end;
  unsigned char *d = file_read_all(path, &size);
  wed_area *a = NULL;
  codec_error err = {0};
  uint32_t gx, gy, i, k, cx, cy;
  int bad = 0;
  if (!d || !wed_parse(d, size, &a, &err)) {
    CHECK(0, "%s: the written file does not parse: %s", name, err.msg);
    free(d);
    return 1;
  }
  CHECK(wed_check(a, &err), "%s: wed_check: %s", name, err.msg);
  wed_wallgroup_grid(a, &gx, &gy);
  for (i = 0; i < a->num_polygons; i++) {
    const wed_polygon *p = &a->polygons[i];
    const wed_point *pts;
    uint32_t n = wed_polygon_vertices(a, i, &pts);
    if (p->vertex_count == 0 || p->min_x > p->max_x || p->min_y > p->max_y) continue;
    for (k = 0; k < n; k++) {
      if (pts[k].x < p->min_x || pts[k].x > p->max_x || pts[k].y < p->min_y || pts[k].y > p->max_y) {
        CHECK(0, "%s: polygon %u vertex %u (%u,%u) outside its box", name, i, k, pts[k].x, pts[k].y);
        bad++;
        break;
      }
    }
    for (cy = 0; cy < gy; cy++) {
      for (cx = 0; cx < gx; cx++) {
        const uint16_t *l;
        uint32_t m, j, found = 0;
        if (p->max_x < cx * WED_GROUP_W || p->min_x >= (cx + 1) * WED_GROUP_W) continue;
        if (p->max_y < cy * WED_GROUP_H || p->min_y >= (cy + 1) * WED_GROUP_H) continue;
        m = wed_wallgroup_polygons(a, cy * gx + cx, &l);
        for (j = 0; j < m; j++) found |= l[j] == i;
        if (!found) {
          CHECK(0, "%s: polygon %u missing from wall group %u", name, i, cy * gx + cx);
          bad++;
        }
      }
    }
  }
  for (i = 0; i < a->num_poly_lookup; i++) {
    if (a->poly_lookup[i] >= a->num_polygons) {
      CHECK(0, "%s: polygon lookup %u = %u out of range", name, i, a->poly_lookup[i]);
      bad++;
    }
  }
  CHECK(!a->overlap, "%s: sections overlap", name);
  bad += a->overlap != 0;
  end = wed_last_section_end(a);
  CHECK(end == size, "%s: file size %zu but the last section ends at %zu", name, size, end);
  bad += end != size;
  wed_free(a);
  free(d);
  return bad;
}

/* The same invariants seen through SQL on a fresh read: no wall group
** misses a polygon whose box meets its cell, no lookup entry is out of
** range, no vertex lies outside its polygon's box. */
static void check_sql_invariants(sqlite3 *db, const char *name, const char *path) {
  CHECK(query_int(db, strf("SELECT count(*) FROM wed_polygons('%s') AS p JOIN wed_wallgroups('%s') AS g"
                           " ON p.max_x >= g.x_px AND p.min_x < g.x_px + 640 AND p.max_y >= g.y_px AND p.min_y < g.y_px + 480"
                           " WHERE p.vertex_count > 0 AND p.min_x <= p.max_x AND p.min_y <= p.max_y"
                           " AND NOT EXISTS (SELECT 1 FROM json_each(g.polygons) WHERE value = p.polygon)",
                           path, path)) == 0,
        "%s: every polygon is in the wall groups its box meets (SQL)", name);
  CHECK(query_int(db, strf("SELECT count(*) FROM wed_wallgroups('%s') AS g, json_each(g.polygons) AS j"
                           " WHERE j.value >= (SELECT count(*) FROM wed_polygons('%s'))",
                           path, path)) == 0,
        "%s: wall group entries in range (SQL)", name);
  CHECK(query_int(db, strf("SELECT count(*) FROM wed_polygons('%s') AS p, json_each(p.vertices) AS v"
                           " WHERE p.min_x <= p.max_x AND (v.value->>0 < p.min_x OR v.value->>0 > p.max_x"
                           " OR v.value->>1 < p.min_y OR v.value->>1 > p.max_y)",
                           path)) == 0,
        "%s: boxes enclose their vertices (SQL)", name);
}

/* ---- tests without the corpus ------------------------------------------------------ */

/* The bounding box rules: vertices alone recompute it, a box field alone
** sets it, both in one UPDATE leave the explicit field; a failed UPDATE
** leaves nothing behind for the next one. */
static void test_bbox_rules(sqlite3 *db, const char *f) {
  exec_ok(db, strf("UPDATE wed_polygons SET vertices = '[[10,20],[30,40],[25,5]]' WHERE source = '%s' AND polygon = 0", f));
  expect_text(db, strf("SELECT min_x || ',' || max_x || ',' || min_y || ',' || max_y FROM wed_polygons('%s') WHERE polygon = 0", f), "10,30,5,40",
              "vertices recompute the box");
  exec_ok(db, strf("UPDATE wed_polygons SET max_x = 700 WHERE source = '%s' AND polygon = 0", f));
  expect_text(db, strf("SELECT min_x || ',' || max_x || ',' || min_y || ',' || max_y FROM wed_polygons('%s') WHERE polygon = 0", f), "10,700,5,40",
              "a box field alone");
  expect_text(db, strf("SELECT polygons FROM wed_wallgroups('%s') WHERE grp = 1", f), "[0,1]", "the box moves the polygon into group 1");
  exec_ok(db, strf("UPDATE wed_polygons SET vertices = '[[50,60],[70,80]]', min_x = 0, max_y = 100 WHERE source = '%s' AND polygon = 0", f));
  expect_text(db, strf("SELECT min_x || ',' || max_x || ',' || min_y || ',' || max_y || vertices FROM wed_polygons('%s') WHERE polygon = 0", f),
              "0,70,60,100[[50,60],[70,80]]", "an explicit box wins over the vertices");
  exec_ok(db, strf("BEGIN"));
  exec_err(db, strf("UPDATE wed_polygons SET min_x = 1, vertices = '[[1,2],[3]]' WHERE source = '%s' AND polygon = 0", f), "column vertices", "element 1");
  exec_ok(db, strf("UPDATE wed_polygons SET vertices = '[[40,41],[42,43]]' WHERE source = '%s' AND polygon = 0", f));
  exec_ok(db, strf("COMMIT"));
  expect_text(db, strf("SELECT min_x || ',' || max_x || ',' || min_y || ',' || max_y FROM wed_polygons('%s') WHERE polygon = 0", f), "40,42,41,43",
              "a failed UPDATE leaves no box behind");
  exec_ok(db, strf("UPDATE wed_polygons SET min_x = 65535, max_x = 65535, min_y = 65535, max_y = 65535 WHERE source = '%s' AND polygon = 0", f));
  expect_text(db, strf("SELECT polygons FROM wed_wallgroups('%s') WHERE grp = 0", f), "[1,3,4]", "no box: in no group");
  exec_ok(db, strf("UPDATE wed_polygons SET vertices = vertices WHERE source = '%s' AND options = 'rewrite=1'", f));
  expect_text(db, strf("SELECT min_x || ',' || max_x || ',' || min_y || ',' || max_y FROM wed_polygons('%s') WHERE polygon = 0", f), "40,42,41,43",
              "SET vertices = vertices recomputes the box");
  exec_ok(db, strf("UPDATE wed_polygons SET min_x = 65535, max_x = 65535, min_y = 65535, max_y = 65535 WHERE source = '%s' AND polygon = 0", f));
  exec_ok(db, strf("UPDATE wed_polygons SET min_x = NULL, max_x = NULL, min_y = NULL, max_y = NULL WHERE source = '%s'", f));
  expect_text(db, strf("SELECT min_x || ',' || max_x || ',' || min_y || ',' || max_y FROM wed_polygons('%s') WHERE polygon = 0", f), "40,42,41,43",
              "a NULL box edge is computed from the vertices");
  check_file_invariants("bbox rules", f);
}

/* The edit scenario on the constructed area, through SQL, re-read by a new
** connection. */
static void test_constructed_edits(sqlite3 *db, const char *f) {
  sqlite3 *db2;
  exec_ok(db, strf("BEGIN"));
  exec_ok(db, strf("UPDATE wed_polygons SET vertices = '[[150,150],[250,150],[250,250]]', flags = wed_flag_value('shade_wall|cover_animations') "
                   "WHERE source = '%s' AND polygon = 0", f));
  exec_ok(db, strf("INSERT INTO wed_polygons(file, vertices, height) VALUES ('%s', '[[630,470],[650,470],[650,490]]', 7)", f));
  CHECK(query_int(db, strf("SELECT polygon FROM wed_polygons('%s') WHERE height = 7", f)) == 3, "inserted after the walls");
  CHECK(query_int(db, strf("SELECT min(polygon) FROM wed_polygons('%s') WHERE kind = 'door_open'", f)) == 4, "door polygons moved up");
  exec_ok(db, strf("DELETE FROM wed_polygons WHERE source = '%s' AND polygon = 1", f));
  exec_ok(db, strf("UPDATE wed_doors SET cells = '[40,41,42]', name = 'DOOR02', closed = 0 WHERE source = '%s'", f));
  exec_ok(db, strf("UPDATE wed_tiles SET tis_tiles = '[7,8,9]', anim_speed = 6, overlay_mask = 2 WHERE source = '%s' AND overlay = 0 AND x = 2 AND y = 0", f));
  exec_ok(db, strf("UPDATE wed_tiles SET secondary_tile = NULL WHERE source = '%s' AND overlay = 0 AND x = 1 AND y = 1", f));
  exec_ok(db, strf("UPDATE wed_overlays SET tileset = 'AR9998', unique_tiles = 299, movement_type = 2 WHERE source = '%s' AND overlay = 0", f));
  exec_ok(db, strf("COMMIT"));
  db2 = db_open();
  if (!db2) {
    CHECK(0, "a second connection");
    return;
  }
  expect_text(db2, strf("SELECT group_concat(polygon || kind || flags || ':' || vertices, ' ') FROM wed_polygons('%s')", f),
              "0wall9:[[150,150],[250,150],[250,250]] 1wall1:[[1000,900],[1100,900],[1100,800],[1000,800]] 2wall1:[[630,470],[650,470],[650,490]] "
              "3door_open137:[[300,350],[350,350],[350,300],[300,300]] 4door_closed137:[[310,360],[360,360],[360,300],[310,300]]",
              "polygons after move, insert and delete");
  expect_text(db2, strf("SELECT height FROM wed_polygons('%s') WHERE polygon = 2", f), "7", "inserted height");
  expect_text(db2, strf("SELECT group_concat(polygons, ' ') FROM wed_wallgroups('%s')", f), "[0,2,3,4] [2] [2] [1,2]", "regenerated wall groups");
  expect_text(db2, strf("SELECT name || closed || cells || open_polygons || closed_polygons FROM wed_doors('%s')", f), "DOOR020[40,41,42][3][4]", "door edits");
  expect_text(db2, strf("SELECT tis_tiles || tile_count || anim_speed || overlay_mask FROM wed_tiles('%s') WHERE overlay = 0 AND x = 2 AND y = 0", f),
              "[7,8,9]362", "tile edits");
  expect_text(db2, strf("SELECT quote(secondary_tile) FROM wed_tiles('%s') WHERE x = 1 AND y = 1", f), "NULL", "secondary tile removed");
  expect_text(db2, strf("SELECT tis_tiles FROM wed_tiles('%s') WHERE x = 3 AND y = 0", f), "[3]", "other cells keep their tiles");
  expect_text(db2, strf("SELECT tileset || unique_tiles || movement_type FROM wed_overlays('%s') WHERE overlay = 0", f), "AR99982992", "overlay edits");
  check_file_invariants("constructed edits", f);
  check_sql_invariants(db2, "constructed edits", f);
  sqlite3_close(db2);
}

/* Rows keep their identity inside one statement while others move: a
** multi-row DELETE and a multi-row UPDATE of vertices (which rebuild the
** vertex table and shift indices). */
static void test_keys(sqlite3 *db, const char *f) {
  char *last = query_text(db, strf("SELECT vertices FROM wed_polygons('%s') WHERE polygon = 2", f));
  exec_ok(db, strf("INSERT INTO wed_polygons(file, vertices) VALUES ('%s', '[[5,5],[6,6]]')", f));
  exec_ok(db, strf("INSERT INTO wed_polygons(file, vertices) VALUES ('%s', '[[7,7],[8,8],[9,9]]')", f));
  exec_ok(db, strf("UPDATE wed_polygons SET vertices = '[[1,1]]' WHERE source = '%s' AND kind = 'wall' AND polygon < 2", f));
  CHECK(query_int(db, strf("SELECT count(*) FROM wed_polygons('%s') WHERE vertices = '[[1,1]]'", f)) == 2, "multi-row UPDATE of vertices");
  exec_ok(db, strf("DELETE FROM wed_polygons WHERE source = '%s' AND kind = 'wall' AND polygon <> 2", f));
  CHECK(query_int(db, strf("SELECT count(*) FROM wed_polygons('%s') WHERE kind = 'wall'", f)) == 1, "multi-row DELETE keeps the right wall");
  expect_text(db, strf("SELECT vertices FROM wed_polygons('%s') WHERE kind = 'wall'", f), last, "the kept wall");
  CHECK(query_int(db, strf("SELECT rowid = (SELECT rowid FROM wed_polygons('%s') WHERE kind = 'door_open') FROM wed_polygons('%s') WHERE polygon = 1", f, f)) == 1,
        "rowid lookup");
  free(last);
  check_file_invariants("keys", f);
}

/* ---- the corpus ------------------------------------------------------------------- */

/* The corpus files' names, sorted; *n gets the count.  NULL if none. */
static char **list_dir(const char *dir, int *n) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char **names = NULL;
  int count = 0, i, j;
  *n = 0;
  if (!d) return NULL;
  while ((e = readdir(d)) != NULL) {
    char **grown;
    if (e->d_name[0] == '.') continue;
    grown = realloc(names, sizeof *names * (size_t)(count + 1));
    if (!grown) break;
    names = grown;
    names[count++] = strf("%s", e->d_name);
  }
  closedir(d);
  for (i = 1; i < count; i++) {
    for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char *t = names[j];
      names[j] = names[j - 1];
      names[j - 1] = t;
    }
  }
  *n = count;
  return names;
}

/* Loads, no-op rewrites and independent counts over every corpus file. */
static void test_corpus_files(sqlite3 *db, const char *orig_dir, const char *dir, char **names, int n) {
  int i, identical = 0;
  check_loop files = {0, 0, 0};
  CHECK(query_int(db, strf("SELECT count(*) FROM levelsql_files('%s') WHERE ok AND format = 'wed'", dir)) == n,
        "every corpus file loads as wed (%d files)", n);
  CHECK(query_int(db, strf("SELECT count(DISTINCT file) FROM wed_overlays('%s')", dir)) == n, "wed_overlays reads the folder");
  check_loop_enter(&files);
  for (i = 0; i < n; i++) {
    char *orig = strf("%s/%s", orig_dir, names[i]), *copy = strf("%s/%s", dir, names[i]);
    size_t size = 0;
    unsigned char *d = file_read_all(orig, &size);
    uint32_t npoly = 0;
    uint64_t vsum = 0, vlen = 0;
    sqlite3_int64 w0;
    files.inputs++;
    if (!d || !orig || !copy) {
      CHECK(0, "%s: cannot read", names[i]);
      free(d);
      free(orig);
      free(copy);
      continue;
    }
    wed_raw_counts(d, size, &npoly, &vsum, &vlen);
    CHECK(query_int(db, strf("SELECT count(*) FROM wed_polygons('%s')", copy)) == (sqlite3_int64)npoly, "%s: polygon count %u", names[i], npoly);
    CHECK(query_int(db, strf("SELECT sum(vertex_count) FROM wed_polygons('%s')", copy)) == (sqlite3_int64)vsum || vsum == 0,
          "%s: sum(vertex_count) = %llu", names[i], (unsigned long long)vsum);
    CHECK(query_int(db, strf("SELECT count(*) FROM wed_polygons('%s') AS p, json_each(p.vertices)", copy)) == (sqlite3_int64)vlen,
          "%s: json_each vertices = vertex table length %llu", names[i], (unsigned long long)vlen);
    CHECK(query_int(db, strf("SELECT count(*) FROM wed_overlays('%s')", copy)) == (sqlite3_int64)le32_load(d + 8), "%s: overlays", names[i]);
    CHECK(query_int(db, strf("SELECT count(*) FROM wed_doors('%s')", copy)) == (sqlite3_int64)le32_load(d + 12), "%s: doors", names[i]);
    CHECK(query_int(db, strf("SELECT count(*) FROM wed_tiles('%s')", copy)) == query_int(db, strf("SELECT sum(width * height) FROM wed_overlays('%s')", copy)),
          "%s: one tile row per cell", names[i]);
    CHECK(query_int(db, strf("SELECT count(*) FROM wed_wallgroups('%s')", copy)) ==
              (sqlite3_int64)(((uint32_t)le16_load(d + le32_load(d + 16)) + 9) / 10 * ((2u * le16_load(d + le32_load(d + 16) + 2) + 14) / 15)),
          "%s: wall group count", names[i]);
    CHECK(query_int(db, strf("SELECT count(*) FROM wed_doors('%s') WHERE json_array_length(cells) <> cell_count", copy)) == 0, "%s: door cells", names[i]);
    w0 = writes_so_far(db);
    exec_ok(db, strf("UPDATE wed_overlays SET tileset = tileset WHERE source = '%s' AND options = 'rewrite=1'", copy));
    CHECK(writes_so_far(db) == w0 + 1, "%s: the no-op UPDATE rewrote the file", names[i]);
    if (same_bytes(orig, copy)) identical++;
    else CHECK(0, "%s: the no-op rewrite is not byte-identical", names[i]);
    free(d);
    free(orig);
    free(copy);
  }
  check_loop_done(&files, "each corpus area: the counts of its raw header, a no-op UPDATE rewriting it byte for byte "
                  "(%d of %d identical)", identical, n);
}

/* The edit scenario on one real area (a private copy): move wall 0, insert
** a wall, delete wall 1, change door 0's cells; then a new connection reads
** the written file and the invariants are checked. */
static void edit_corpus_file(sqlite3 *db, const char *name, const char *f) {
  sqlite3 *db2;
  sqlite3_int64 walls = query_int(db, strf("SELECT count(*) FROM wed_polygons('%s') WHERE kind = 'wall'", f));
  sqlite3_int64 verts = query_int(db, strf("SELECT total(vertex_count) FROM wed_polygons('%s')", f));
  sqlite3_int64 del_count = query_int(db, strf("SELECT vertex_count FROM wed_polygons('%s') WHERE polygon = 1", f));
  sqlite3_int64 width = query_int(db, strf("SELECT width FROM wed_overlays('%s') WHERE overlay = 0", f));
  sqlite3_int64 height = query_int(db, strf("SELECT height FROM wed_overlays('%s') WHERE overlay = 0", f));
  sqlite3_int64 ndoors = query_int(db, strf("SELECT count(*) FROM wed_doors('%s')", f));
  char *moved = query_text(db, strf("SELECT (SELECT json_group_array(json_array(v.value->>0 + 37, v.value->>1 + 23)) FROM json_each(p.vertices) AS v)"
                                    " FROM wed_polygons('%s') AS p WHERE polygon = 0", f));
  char *third = query_text(db, strf("SELECT vertices FROM wed_polygons('%s') WHERE polygon = 2", f));
  char *doorpolys = query_text(db, strf("SELECT group_concat(kind || door || vertices, ';') FROM wed_polygons('%s') WHERE kind <> 'wall'", f));
  char *tri = strf("[[%lld,%lld],[%lld,%lld],[%lld,%lld]]", (long long)(width * 32 - 50), (long long)(height * 32 - 40),
                   (long long)(width * 32 + 60), (long long)(height * 32 - 30), (long long)(width * 32), (long long)(height * 32 + 70));
  char *cells = strf("[0,1,%lld]", (long long)(width * height - 1));
  char *want_last = strf("%s9255", tri);
  int ok = 1;
  ok &= exec_ok(db, strf("BEGIN"));
  ok &= exec_ok(db, strf("UPDATE wed_polygons SET vertices = '%s' WHERE source = '%s' AND polygon = 0", moved, f));
  ok &= exec_ok(db, strf("INSERT INTO wed_polygons(file, vertices, flags) VALUES ('%s', '%s', 9)", f, tri));
  ok &= exec_ok(db, strf("DELETE FROM wed_polygons WHERE source = '%s' AND polygon = 1 AND kind = 'wall'", f));
  if (ndoors > 0) ok &= exec_ok(db, strf("UPDATE wed_doors SET cells = '%s' WHERE source = '%s' AND door = 0", cells, f));
  ok &= exec_ok(db, strf("COMMIT"));
  if (!ok) exec_ok(db, strf("ROLLBACK"));
  db2 = db_open();
  if (db2 && ok) {
    char *label = strf("%s: moved wall", name);
    expect_text(db2, strf("SELECT vertices FROM wed_polygons('%s') WHERE polygon = 0", f), moved, label);
    free(label);
    label = strf("%s: wall 2 became wall 1", name);
    expect_text(db2, strf("SELECT vertices FROM wed_polygons('%s') WHERE polygon = 1", f), third, label);
    free(label);
    label = strf("%s: inserted wall is the last wall", name);
    expect_text(db2, strf("SELECT vertices || flags || height FROM wed_polygons('%s') WHERE kind = 'wall' ORDER BY polygon DESC LIMIT 1", f),
                want_last, label);
    free(label);
    label = strf("%s: door polygons unchanged", name);
    expect_text(db2, strf("SELECT group_concat(kind || door || vertices, ';') FROM wed_polygons('%s') WHERE kind <> 'wall'", f), doorpolys, label);
    free(label);
    CHECK(query_int(db2, strf("SELECT count(*) FROM wed_polygons('%s') WHERE kind = 'wall'", f)) == walls, "%s: wall count", name);
    CHECK(query_int(db2, strf("SELECT total(vertex_count) FROM wed_polygons('%s')", f)) == verts - del_count + 3, "%s: vertex count", name);
    if (ndoors > 0) {
      label = strf("%s: door cells", name);
      expect_text(db2, strf("SELECT cells FROM wed_doors('%s') WHERE door = 0", f), cells, label);
      free(label);
    }
    check_sql_invariants(db2, name, f);
  }
  if (db2) sqlite3_close(db2);
  check_file_invariants(name, f);
  free(moved);
  free(third);
  free(doorpolys);
  free(tri);
  free(cells);
  free(want_last);
}

/* The structural edits on one corpus copy, committed: delete door 0 (with
** its polygons and cells), add a door with cells and an open and a closed
** polygon, grow the base overlay by one tile each way, grow overlay 1 to
** 2x2 (or add it when unused).  A new connection then reads the written
** file, and the codec checks it on its own (layout, groups, door states). */
static void edit_corpus_structure(sqlite3 *db, const char *name, const char *f) {
  sqlite3 *db2;
  sqlite3_int64 polys = query_int(db, strf("SELECT count(*) FROM wed_polygons('%s')", f));
  sqlite3_int64 ndoors = query_int(db, strf("SELECT count(*) FROM wed_doors('%s')", f));
  sqlite3_int64 door0 = query_int(db, strf("SELECT coalesce((SELECT open_count + closed_count FROM wed_doors('%s') WHERE door = 0), 0)", f));
  sqlite3_int64 width = query_int(db, strf("SELECT width FROM wed_overlays('%s') WHERE overlay = 0", f));
  sqlite3_int64 ov1 = query_int(db, strf("SELECT width FROM wed_overlays('%s') WHERE overlay = 1", f));
  char *cells = query_text(db, strf("SELECT coalesce((SELECT json_group_array(c.value %% %lld + c.value / %lld * %lld)"
                                    " FROM wed_doors('%s') AS d, json_each(d.cells) AS c WHERE d.door = 1), '[]')",
                                    (long long)width, (long long)width, (long long)(width + 1), f));
  int ok = 1;
  ok &= exec_ok(db, strf("BEGIN"));
  if (ndoors > 0) ok &= exec_ok(db, strf("DELETE FROM wed_doors WHERE source = '%s' AND door = 0", f));
  ok &= exec_ok(db, strf("INSERT INTO wed_doors(file, name, cells) VALUES ('%s', 'NEWDOOR', '[0,1]')", f));
  ok &= exec_ok(db, strf("INSERT INTO wed_polygons(file, door, kind, vertices) SELECT file, door, 'door_open', '[[10,10],[90,10],[90,70]]'"
                         " FROM wed_doors('%s') WHERE name = 'NEWDOOR'", f));
  ok &= exec_ok(db, strf("INSERT INTO wed_polygons(file, door, kind, vertices) SELECT file, door, 'door_closed', '[[700,500],[790,500],[790,570]]'"
                         " FROM wed_doors('%s') WHERE name = 'NEWDOOR'", f));
  ok &= exec_ok(db, strf("UPDATE wed_overlays SET width = width + 1, height = height + 1 WHERE source = '%s' AND overlay = 0", f));
  if (ov1) ok &= exec_ok(db, strf("UPDATE wed_overlays SET width = 2, height = 2 WHERE source = '%s' AND overlay = 1", f));
  else ok &= exec_ok(db, strf("INSERT INTO wed_overlays(file, overlay, width, height, tileset) VALUES ('%s', 1, 2, 2, 'WTLAVA')", f));
  ok &= exec_ok(db, strf("COMMIT"));
  if (!ok) exec_ok(db, strf("ROLLBACK"));
  db2 = db_open();
  if (db2 && ok) {
    char *label = strf("%s: the new door and its polygons", name);
    char *want = strf("%lld|[0,1]|[%lld]|[%lld]", (long long)(ndoors > 0 ? ndoors - 1 : 0), (long long)(polys - door0),
                      (long long)(polys - door0 + 1));
    expect_text(db2, strf("SELECT door || '|' || cells || '|' || open_polygons || '|' || closed_polygons FROM wed_doors('%s') WHERE name = 'NEWDOOR'", f),
                want, label);
    free(label);
    free(want);
    CHECK(query_int(db2, strf("SELECT count(*) FROM wed_polygons('%s')", f)) == polys - door0 + 2, "%s: polygon count", name);
    CHECK(query_int(db2, strf("SELECT count(*) FROM wed_polygons('%s') WHERE kind = 'orphan'", f)) == 0, "%s: no orphans", name);
    if (ndoors > 1) {
      label = strf("%s: the old door 1, now door 0, keeps its cells at their (x, y)", name);
      expect_text(db2, strf("SELECT cells FROM wed_doors('%s') WHERE door = 0", f), cells, label);
      free(label);
    }
    CHECK(query_int(db2, strf("SELECT width * 1000 + num_cells FROM wed_overlays('%s') WHERE overlay = 1", f)) == 2004, "%s: overlay 1 is 2x2", name);
    check_sql_invariants(db2, name, f);
  }
  if (db2) sqlite3_close(db2);
  check_file_invariants(name, f);
  free(cells);
}

/* The cookbook reads the generated samples; on the corpus each sample path
** becomes a real area of the same role (the town with its doors, an area
** with doors and door cells), and the folder becomes the corpus copy.
** Longest first, so the folder's rule does not split the file names. */
static const char *const cookbook_paths[][2] = {
    {"'build/cookbook/wed/AR0100.WED'", "'corpus/wed/gemrb__demo__override__AR0100.WED'"},
    {"'build/cookbook/wed/AR0200.WED'", "'corpus/wed/bst__bst__areas__bs0101.WED'"},
    {"'build/cookbook/wed'", "'corpus/wed'"},
};

/* Appends line to s with every cookbook sample path replaced by its corpus
** counterpart. */
static void append_on_corpus(sqlite3_str *s, const char *line) {
  while (*line) {
    size_t k, n = 0;
    for (k = 0; k < sizeof cookbook_paths / sizeof cookbook_paths[0]; k++) {
      n = strlen(cookbook_paths[k][0]);
      if (strncmp(line, cookbook_paths[k][0], n) == 0) break;
    }
    if (k < sizeof cookbook_paths / sizeof cookbook_paths[0]) {
      sqlite3_str_appendall(s, cookbook_paths[k][1]);
      line += n;
    } else {
      sqlite3_str_appendchar(s, 1, *line++);
    }
  }
  sqlite3_str_appendchar(s, 1, '\n');
}

/* Runs sql/wed_cookbook.sql (dot-commands left out) on real areas: in a
** folder whose corpus/wed holds the private copies, with the cookbook's
** sample paths turned into corpus paths (append_on_corpus). */
static void test_cookbook(const test_env *env, const char *folder) {
  char *path = strf("%s/sql/wed_cookbook.sql", env->start);
  size_t n = 0;
  unsigned char *text = path ? file_read_all(path, &n) : NULL;
  sqlite3 *db;
  char *sql, *err = NULL, *line, *save = NULL;
  sqlite3_str *s;
  int rc;
  free(path);
  if (!text) {
    SKIP("sql/wed_cookbook.sql not found from %s", env->start);
    return;
  }
  text[n] = 0;
  s = sqlite3_str_new(NULL);
  for (line = strtok_r((char *)text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (line[0] != '.') append_on_corpus(s, line);
  }
  sql = sqlite3_str_finish(s);
  free(text);
  CHECK(sql && strstr(sql, "'corpus/wed'") && !strstr(sql, "'build/cookbook/wed"),
        "every path of the cookbook has a corpus counterpart");
  if (chdir(folder) != 0 || !(db = db_open())) {
    CHECK(0, "cookbook: cannot enter %s", folder);
    sqlite3_free(sql);
    return;
  }
  rc = sqlite3_exec(db, sql, NULL, NULL, &err);
  CHECK(rc == SQLITE_OK, "sql/wed_cookbook.sql on the corpus: %s", err ? err : "?");
  CHECK(query_int(db, strf("SELECT count(*) FROM wed_polygons('corpus/wed')")) > 1000, "the corpus folder is read");
  sqlite3_free(err);
  sqlite3_free(sql);
  sqlite3_close(db);
  if (chdir(env->start) != 0) CHECK(0, "cannot return to %s", env->start);
}

/* Makes a folder (under the test's temporary folder); frees the path. */
static void make_dir(char *path) {
  if (path) mkdir(path, 0755);
  free(path);
}

/* Copies the corpus to a private folder and runs the corpus tests. */
static void test_corpus(sqlite3 *db, const test_env *env) {
  const char *corpus = check_corpus_dir();
  char *orig_dir, *dir;
  char **names;
  int n = 0, i, edited = 0;
  check_loop edits = {0, 0, 0}, structure = {0, 0, 0};
  if (!corpus) {
    SKIP("real WED corpus: ../shared/corpus is absent");
    return;
  }
  orig_dir = strf("%s/wed", corpus);
  names = list_dir(orig_dir, &n);
  if (!names || n == 0) {
    SKIP("real WED corpus: %s missing", orig_dir);
    free(orig_dir);
    free(names);
    return;
  }
  make_dir(strf("%s/corpus", env->tmp));
  make_dir(strf("%s/corpus/wed", env->tmp));
  make_dir(strf("%s/edit", env->tmp));
  dir = strf("%s/corpus/wed", env->tmp);
  for (i = 0; i < n; i++) {
    char *from = strf("%s/%s", orig_dir, names[i]), *to = strf("%s/%s", dir, names[i]);
    REQUIRE(copy_file(from, to), "copy %s", names[i]);
    free(from);
    free(to);
  }
  CHECK(n == 98, "98 corpus areas: %d", n);
  test_corpus_files(db, orig_dir, dir, names, n);
  check_loop_enter(&edits);
  for (i = 0; i < n; i++) {
    char *from = strf("%s/%s", orig_dir, names[i]), *to = strf("%s/edit/%s", env->tmp, names[i]);
    if (copy_file(from, to) && query_int(db, strf("SELECT count(*) FROM wed_polygons('%s') WHERE kind = 'wall'", to)) >= 3) {
      edit_corpus_file(db, names[i], to);
      edits.inputs++;
      edited++;
    }
    free(from);
    free(to);
  }
  check_loop_done(&edits, "the edit scenario on every corpus area with 3 walls or more, re-read and checked");
  check_loop_enter(&structure);
  for (i = 0; i < n; i++) {
    char *from = strf("%s/%s", orig_dir, names[i]), *to = strf("%s/edit/s-%s", env->tmp, names[i]);
    if (copy_file(from, to)) {
      edit_corpus_structure(db, names[i], to);
      structure.inputs++;
    }
    free(from);
    free(to);
  }
  check_loop_done(&structure, "the structural edits (doors, door polygons, overlays, the area's size) on every corpus area, re-read and checked");
  CHECK(edited >= 80, "edit scenario on %d real areas", edited);
  test_cookbook(env, env->tmp);
  for (i = 0; i < n; i++) free(names[i]);
  free(names);
  free(dir);
  free(orig_dir);
}

int main(void) {
  test_env env;
  sqlite3 *db;
  char *f;
  snprintf(env.tmp, sizeof env.tmp, "/tmp/levelsql-wedsql-XXXXXX");
  if (!getcwd(env.start, sizeof env.start) || !mkdtemp(env.tmp)) {
    printf("cannot make a temporary folder\n");
    return 1;
  }
  db = db_open();
  REQUIRE(db != NULL, "the extension loads");
  if (db) {
    f = strf("%s/AR9999.WED", env.tmp);
    REQUIRE(wed_write_constructed(f), "write the constructed area");
    check_file_invariants("constructed", f);
    test_constructed_edits(db, f);
    free(f);
    f = strf("%s/BBOX.WED", env.tmp);
    if (wed_write_constructed(f)) test_bbox_rules(db, f);
    free(f);
    f = strf("%s/KEYS.WED", env.tmp);
    if (wed_write_constructed(f)) test_keys(db, f);
    free(f);
    test_corpus(db, &env);
    sqlite3_close(db);
  }
  if (check_failed == 0) {
    char *cmd = strf("rm -rf '%s'", env.tmp);
    if (!cmd || system(cmd) != 0) printf("note: could not remove %s\n", env.tmp);
    free(cmd);
  } else {
    printf("files kept in %s\n", env.tmp);
  }
  return check_done();
}
