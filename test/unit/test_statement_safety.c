/*
** test_statement_safety.c: every statement shape is safe, for all four
** formats (issue 9, sections 1 to 3), judged on the files' bytes.
**
** 1. The matrix.  For each format, a level is generated (WWD and
**    Teeworlds: the samples of `make samples`, $LEVELSQL_SAMPLES;
**    WED and wz4: the constructed files of wed_sample.h and wz4_sample.h)
**    and every cell
**        statement shape x where it fails x transaction context
**    runs on a fresh copy and a fresh connection.  A shape is a statement
**    template run twice per cell: G, its good variant, and F, a variant
**    that fails on one chosen row (first, middle or last of the rows it
**    visits, or its only row) with a bad value levelsql refuses, or with an
**    error SQLite raises itself (abs() of the smallest integer).  The
**    context (autocommit, BEGIN ... COMMIT, a SAVEPOINT that opens the
**    transaction, nested savepoints, ROLLBACK TO then RELEASE) says which
**    bytes the file must end with: OLD (the original) or NEW (what G alone
**    writes in autocommit on a separate copy).  In each cell every other
**    step succeeds, F fails with its expected message, and the whole file
**    equals OLD or NEW (memcmp); each format's matrix is one case.
** 2. DB Browser for SQLite 3.12's exact statements for a grid edit followed
**    by "Revert Changes" (the file stays byte-identical) or "Write Changes"
**    (the edit is written), and the issue's own SAVEPOINT example.
** 3. Python's sqlite3 implicit transactions (test/python/
**    implicit_transactions.py, run with /usr/bin/python3; SKIP without it).
** 4. UPDATE ... FROM on the system SQLite (3.40 passes the columns SET does
**    not name as their own values): the DDNet mappers' query and one per
**    format, byte-identical to the same change written without FROM, with
**    the columns whose setters would change something when given their own
**    value (a 'filled' WWD cell's kind, WWD flag bits, WED bounding boxes);
**    and a plain UPDATE that sets a column to the value it reads and still
**    means a change (SET tile = NULL on a 'filled' WWD cell).
** 5. INSERT ... SELECT between levels: the hidden `source` of the
**    table-valued form names the target, a named one-file table takes every
**    row whatever the `file` value, otherwise `file` names it; WWD objects
**    inserted without an id get one above the largest of their level; the
**    error for a multi-file source names the real number of files.
*/
#include <errno.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "sqltest.h"
#include "fileutil.h"
#include "wed_sample.h"
#include "wz4_sample.h"

/* ---- files and statements ------------------------------------------------------ */

/* The whole contents of a file. */
typedef struct blob {
  unsigned char *data;
  size_t size;
} blob;

static blob blob_of_file(const char *path) {
  blob b = {NULL, 0};
  b.data = file_read_all(path, &b.size);
  return b;
}

static void blob_free(blob *b) {
  free(b->data);
  b->data = NULL;
  b->size = 0;
}

/* 1 when the file holds exactly the blob's bytes. */
static int file_is(const char *path, const blob *b) {
  blob now = blob_of_file(path);
  int same = b->data && now.data && now.size == b->size && memcmp(now.data, b->data, b->size) == 0;
  blob_free(&now);
  return same;
}

/* Replaces the file with the blob's bytes: a new file (unlink first), so no
** earlier stat of it can describe the new one. */
static int file_reset(const char *path, const blob *b) {
  if (unlink(path) != 0 && errno != ENOENT) return 0;
  return b->data && file_write_all(path, b->data, b->size);
}

/* Runs SQL on a connection; returns the result code and, on an error, sets
** *err to a malloc'd copy of the message (the caller frees it). */
static int run_sql(sqlite3 *db, const char *sql, char **err) {
  char *msg = NULL;
  int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
  *err = NULL;
  if (rc != SQLITE_OK) *err = strdup(msg ? msg : sqlite3_errmsg(db));
  sqlite3_free(msg);
  return rc;
}

/* The template with $F, $B, $V and $K replaced by the given texts (a
** sqlite3_malloc'd string; NULL when out of memory). */
static char *expand(const char *tmpl, const char *f, const char *b, const char *v, const char *k) {
  sqlite3_str *out = sqlite3_str_new(NULL);
  const char *p;
  for (p = tmpl; *p; p++) {
    const char *with = NULL;
    if (p[0] == '$') {
      switch (p[1]) {
        case 'F': with = f; break;
        case 'B': with = b; break;
        case 'V': with = v; break;
        case 'K': with = k; break;
        default: break;
      }
    }
    if (with) {
      sqlite3_str_appendall(out, with);
      p++;
    } else {
      sqlite3_str_appendchar(out, 1, *p);
    }
  }
  return sqlite3_str_finish(out);
}

/* ---- the matrix: shapes, failures, contexts ---------------------------------------- */

/* One way F fails: the value substituted for $V and the key of the row that
** gets the bad value ($K), and where that row lies among the rows the
** statement visits. */
typedef struct failure {
  const char *where; /* "first", "middle", "last" or "only" */
  const char *v;
  const char *k;
} failure;

/* A statement shape: the template, run as G with good_v and key -1 (no row
** is bad) and as F with each failure; `setup` runs first on every
** connection (temporary tables); F's error must contain `error`. */
typedef struct shape {
  const char *name;
  const char *setup;
  const char *sql;
  const char *good_v;
  const char *error;
  failure fail[3];
} shape;

/* A statement or one of the two placeholders "G" and "F". */
typedef struct context {
  const char *steps[8];
  int ends_new; /* the file must end as NEW (G written), else as OLD */
} context;

static const context contexts[] = {
  {{"F"}, 0},
  {{"BEGIN", "G", "F", "COMMIT"}, 1},
  {{"BEGIN", "F", "COMMIT"}, 0},
  {{"SAVEPOINT a", "G", "F", "RELEASE a"}, 1},
  {{"SAVEPOINT a", "SAVEPOINT b", "G", "RELEASE b", "SAVEPOINT c", "F", "RELEASE c", "RELEASE a"}, 1},
  {{"SAVEPOINT a", "G", "SAVEPOINT b", "F", "ROLLBACK TO b", "RELEASE a"}, 1},
  {{"SAVEPOINT a", "G", "F", "ROLLBACK TO a", "RELEASE a"}, 0},
  {{"SAVEPOINT a", "SAVEPOINT b", "G", "F", "ROLLBACK TO a", "RELEASE a"}, 0},
  {{"BEGIN", "G", "SAVEPOINT s", "F", "ROLLBACK TO s", "RELEASE s", "COMMIT"}, 1},
};
#define NCONTEXTS (sizeof contexts / sizeof contexts[0])

/* The bad value SQLite itself refuses: abs() of the smallest integer. */
#define SQLITE_BAD "abs(-9223372036854775807 - 1)"
#define FIRST_MID_LAST(v, a, b, c) {{"first", v, a}, {"middle", v, b}, {"last", v, c}}

/* WWD: the objects of SAMPLE05 (60 on plane 0, ids 1..60 in idx order); $B
** is SAMPLE03 (ids 1..260). */
static const shape wwd_shapes[] = {
  {"UPDATE, one row", NULL,
   "UPDATE wwd_objects SET health = CASE WHEN id = $K THEN 'not a number' ELSE $V END WHERE source = '$F' AND id = 30",
   "111", "column health", {{"only", "222", "30"}}},
  {"UPDATE, one row, two columns (the second refused)", NULL,
   "UPDATE wwd_objects SET x = x + $V, health = CASE WHEN id = $K THEN 'not a number' ELSE $V END WHERE source = '$F' AND id = 30",
   "111", "column health", {{"only", "222", "30"}}},
  {"UPDATE, every row", NULL,
   "UPDATE wwd_objects SET health = CASE WHEN id = $K THEN 'not a number' ELSE $V END WHERE source = '$F'",
   "111", "column health", FIRST_MID_LAST("222", "1", "30", "60")},
  {"UPDATE, SQLite's own error", NULL,
   "UPDATE wwd_objects SET health = CASE WHEN id = $K THEN " SQLITE_BAD " ELSE $V END WHERE source = '$F'",
   "111", "integer overflow", FIRST_MID_LAST("222", "1", "30", "60")},
  {"UPDATE ... FROM the table-valued function, one row", NULL,
   "UPDATE wwd_objects AS g SET health = CASE WHEN g.id = $K THEN 'not a number' ELSE d.health + $V END "
   "FROM wwd_objects('$F') AS d WHERE g.source = '$F' AND d.plane = g.plane AND d.idx = g.idx AND g.id = 30",
   "111", "column health", {{"only", "222", "30"}}},
  {"UPDATE ... FROM the table-valued function", NULL,
   "UPDATE wwd_objects AS g SET health = CASE WHEN g.id = $K THEN 'not a number' ELSE d.health + $V END "
   "FROM wwd_objects('$F') AS d WHERE g.source = '$F' AND d.plane = g.plane AND d.idx = g.idx",
   "111", "column health", FIRST_MID_LAST("222", "1", "30", "60")},
  {"UPDATE ... FROM a temp table", "CREATE TEMP TABLE pick AS SELECT id, health FROM wwd_objects('$F')",
   "UPDATE wwd_objects AS g SET health = CASE WHEN g.id = $K THEN 'not a number' ELSE p.health + $V END "
   "FROM pick AS p WHERE g.source = '$F' AND p.id = g.id",
   "111", "column health", FIRST_MID_LAST("222", "1", "30", "60")},
  {"UPDATE ... WHERE IN (subquery), out of range", NULL,
   "UPDATE wwd_objects SET health = CASE WHEN id = $K THEN 5000000000 ELSE $V END "
   "WHERE source = '$F' AND id IN (SELECT id FROM wwd_objects('$F') WHERE logic <> '')",
   "111", "column health", FIRST_MID_LAST("222", "1", "30", "60")},
  {"UPDATE ... WHERE EXISTS", NULL,
   "UPDATE wwd_objects SET health = CASE WHEN id = $K THEN 'not a number' ELSE $V END "
   "WHERE source = '$F' AND EXISTS (SELECT 1 FROM wwd_objects('$F') AS o WHERE o.id = wwd_objects.id)",
   "111", "column health", FIRST_MID_LAST("222", "1", "30", "60")},
  {"INSERT ... VALUES, one row", NULL,
   "INSERT INTO wwd_objects(file, logic, x, y, health) VALUES ('$F', 'Inserted', 64, 64, CASE WHEN 1 = $K THEN 'not a number' ELSE $V END)",
   "111", "column health", {{"only", "222", "1"}}},
  {"INSERT ... VALUES, three rows", NULL,
   "INSERT INTO wwd_objects(file, logic, x, y, health) VALUES "
   "('$F', 'Inserted', 1, 1, CASE WHEN 1 = $K THEN 'not a number' ELSE $V END), "
   "('$F', 'Inserted', 2, 2, CASE WHEN 2 = $K THEN 'not a number' ELSE $V END), "
   "('$F', 'Inserted', 3, 3, CASE WHEN 3 = $K THEN 'not a number' ELSE $V END)",
   "111", "column health", FIRST_MID_LAST("222", "1", "2", "3")},
  {"INSERT ... VALUES, three rows, SQLite's own error", NULL,
   "INSERT INTO wwd_objects(file, logic, x, y, health) VALUES "
   "('$F', 'Inserted', 1, 1, CASE WHEN 1 = $K THEN " SQLITE_BAD " ELSE $V END), "
   "('$F', 'Inserted', 2, 2, CASE WHEN 2 = $K THEN " SQLITE_BAD " ELSE $V END), "
   "('$F', 'Inserted', 3, 3, CASE WHEN 3 = $K THEN " SQLITE_BAD " ELSE $V END)",
   "111", "integer overflow", FIRST_MID_LAST("222", "1", "2", "3")},
  {"INSERT ... SELECT from another level, one row", NULL,
   "INSERT INTO wwd_objects(source, logic, image_set, x, y, health) SELECT '$F', logic, image_set, x, y, "
   "CASE WHEN id = $K THEN 'not a number' ELSE $V END FROM wwd_objects('$B') WHERE id = 100",
   "111", "column health", {{"only", "222", "100"}}},
  {"INSERT ... SELECT from another level", NULL,
   "INSERT INTO wwd_objects(source, logic, image_set, x, y, health) SELECT '$F', logic, image_set, x, y, "
   "CASE WHEN id = $K THEN 'not a number' ELSE $V END FROM wwd_objects('$B') WHERE id BETWEEN 101 AND 120",
   "111", "column health", FIRST_MID_LAST("222", "101", "110", "120")},
  {"INSERT ... SELECT from the same level", NULL,
   "INSERT INTO wwd_objects(file, logic, x, y, health) SELECT file, logic, x, y + 1, "
   "CASE WHEN id = $K THEN 'not a number' ELSE $V END FROM wwd_objects('$F') WHERE id BETWEEN 1 AND 20",
   "111", "column health", FIRST_MID_LAST("222", "1", "10", "20")},
  {"DELETE, one row", NULL,
   "DELETE FROM wwd_objects WHERE source = '$F' AND id = $V AND CASE WHEN id = $K THEN " SQLITE_BAD " ELSE 1 END",
   "5", "integer overflow", {{"only", "30", "30"}}},
  {"DELETE, every third row", NULL,
   "DELETE FROM wwd_objects WHERE source = '$F' AND id % 3 = $V AND CASE WHEN id = $K THEN " SQLITE_BAD " ELSE 1 END",
   "0", "integer overflow", FIRST_MID_LAST("1", "1", "31", "58")},
};

/* Teeworlds: the generated map; layer_index 1 is the 60x30 game layer,
** 2 the tiles layer drawing it (16: the unhookable platforms at y = 20,
** x 8..15 and 44..51).  A cell's key is y * 60 + x. */
static const shape tw_shapes[] = {
  {"UPDATE, one row", NULL,
   "UPDATE tw_tiles SET id = CASE WHEN y * 60 + x = $K THEN 300 ELSE $V END "
   "WHERE source = '$F' AND layer_index = 1 AND x = 30 AND y = 5",
   "5", "column id", {{"only", "7", "330"}}},
  {"UPDATE, one row, two columns (the second refused)", NULL,
   "UPDATE tw_tiles SET id = $V, flags = CASE WHEN y * 60 + x = $K THEN 300 ELSE 0 END "
   "WHERE source = '$F' AND layer_index = 1 AND x = 30 AND y = 5",
   "5", "column flags", {{"only", "7", "330"}}},
  {"UPDATE, a row of cells", NULL,
   "UPDATE tw_tiles SET id = CASE WHEN y * 60 + x = $K THEN 300 ELSE $V END WHERE source = '$F' AND layer_index = 1 AND y = 5",
   "5", "column id", FIRST_MID_LAST("7", "300", "330", "359")},
  {"UPDATE, SQLite's own error", NULL,
   "UPDATE tw_tiles SET id = CASE WHEN y * 60 + x = $K THEN " SQLITE_BAD " ELSE $V END "
   "WHERE source = '$F' AND layer_index = 1 AND y = 5",
   "5", "integer overflow", FIRST_MID_LAST("7", "300", "330", "359")},
  {"UPDATE ... FROM the table-valued function (DDNet), one row", NULL,
   "UPDATE tw_tiles AS g SET id = CASE WHEN g.y * 60 + g.x = $K THEN 'not a number' ELSE $V END FROM tw_tiles('$F') AS d "
   "WHERE g.source = '$F' AND g.kind = 'game' AND d.layer_index = 2 AND d.id <> 0 AND d.x = g.x AND d.y = g.y "
   "AND d.x = 25 AND d.y = 12",
   "5", "column id", {{"only", "7", "745"}}},
  {"UPDATE ... FROM the table-valued function (DDNet)", NULL,
   "UPDATE tw_tiles AS g SET id = CASE WHEN g.y * 60 + g.x = $K THEN 'not a number' ELSE $V END FROM tw_tiles('$F') AS d "
   "WHERE g.source = '$F' AND g.kind = 'game' AND d.layer_index = 2 AND d.id <> 0 AND d.x = g.x AND d.y = g.y",
   "5", "column id", FIRST_MID_LAST("7", "0", "745", "1799")},
  {"UPDATE ... FROM a temp table", "CREATE TEMP TABLE pick AS SELECT x, y FROM tw_tiles('$F') WHERE layer_index = 2 AND id = 16",
   "UPDATE tw_tiles AS g SET id = CASE WHEN g.y * 60 + g.x = $K THEN 'not a number' ELSE $V END FROM pick AS p "
   "WHERE g.source = '$F' AND g.layer_index = 1 AND g.x = p.x AND g.y = p.y",
   "5", "column id", FIRST_MID_LAST("7", "1208", "1215", "1251")},
  {"UPDATE ... WHERE IN (subquery)", NULL,
   "UPDATE tw_tiles SET id = CASE WHEN y * 60 + x = $K THEN 300 ELSE $V END WHERE source = '$F' AND layer_index = 1 "
   "AND y * 60 + x IN (SELECT y * 60 + x FROM tw_tiles('$F') WHERE layer_index = 2 AND id = 16)",
   "5", "column id", FIRST_MID_LAST("7", "1208", "1215", "1251")},
  {"UPDATE ... WHERE EXISTS", NULL,
   "UPDATE tw_tiles SET id = CASE WHEN y * 60 + x = $K THEN 300 ELSE $V END WHERE source = '$F' AND layer_index = 1 "
   "AND y = 20 AND EXISTS (SELECT 1 FROM tw_tiles('$F') AS d WHERE d.layer_index = 2 AND d.x = tw_tiles.x "
   "AND d.y = tw_tiles.y AND d.id = 16)",
   "5", "column id", FIRST_MID_LAST("7", "1208", "1215", "1251")},
};

/* WED: the constructed area: 20x15 cells on overlay 0 (cell = y * 20 + x),
** walls 0..2 (min_x 100, 600, 1000), door polygons 3 and 4 (min_x 300 and
** 310).  $B is a second copy. */
static const shape wed_shapes[] = {
  {"UPDATE, one row", NULL,
   "UPDATE wed_tiles SET anim_speed = CASE WHEN cell = $K THEN 256 ELSE $V END WHERE source = '$F' AND overlay = 0 AND cell = 150",
   "3", "column anim_speed", {{"only", "4", "150"}}},
  {"UPDATE, one row, two columns (the second refused)", NULL,
   "UPDATE wed_tiles SET overlay_mask = $V, anim_speed = CASE WHEN cell = $K THEN 256 ELSE $V END "
   "WHERE source = '$F' AND overlay = 0 AND cell = 150",
   "3", "column anim_speed", {{"only", "4", "150"}}},
  {"UPDATE, every cell", NULL,
   "UPDATE wed_tiles SET anim_speed = CASE WHEN cell = $K THEN 256 ELSE $V END WHERE source = '$F' AND overlay = 0",
   "3", "column anim_speed", FIRST_MID_LAST("4", "0", "150", "299")},
  {"UPDATE, SQLite's own error", NULL,
   "UPDATE wed_tiles SET anim_speed = CASE WHEN cell = $K THEN " SQLITE_BAD " ELSE $V END WHERE source = '$F' AND overlay = 0",
   "3", "integer overflow", FIRST_MID_LAST("4", "0", "150", "299")},
  {"UPDATE ... FROM the table-valued function, one row", NULL,
   "UPDATE wed_tiles AS g SET anim_speed = CASE WHEN g.cell = $K THEN 'not a number' ELSE $V END FROM wed_tiles('$F') AS d "
   "WHERE g.source = '$F' AND g.overlay = 0 AND d.overlay = 0 AND d.x = g.x AND d.y = g.y AND d.cell = 150",
   "3", "column anim_speed", {{"only", "4", "150"}}},
  {"UPDATE ... FROM the table-valued function", NULL,
   "UPDATE wed_tiles AS g SET anim_speed = CASE WHEN g.cell = $K THEN 'not a number' ELSE $V END FROM wed_tiles('$F') AS d "
   "WHERE g.source = '$F' AND g.overlay = 0 AND d.overlay = 0 AND d.x = g.x AND d.y = g.y",
   "3", "column anim_speed", FIRST_MID_LAST("4", "0", "150", "299")},
  {"UPDATE ... FROM a temp table", "CREATE TEMP TABLE pick AS SELECT x, y FROM wed_tiles('$F') WHERE overlay = 0 AND y >= 10",
   "UPDATE wed_tiles AS g SET anim_speed = CASE WHEN g.cell = $K THEN 256 ELSE $V END FROM pick AS p "
   "WHERE g.source = '$F' AND g.overlay = 0 AND g.x = p.x AND g.y = p.y",
   "3", "column anim_speed", FIRST_MID_LAST("4", "200", "250", "299")},
  {"UPDATE ... WHERE IN (subquery)", NULL,
   "UPDATE wed_tiles SET anim_speed = CASE WHEN cell = $K THEN 256 ELSE $V END WHERE source = '$F' AND overlay = 0 "
   "AND cell IN (SELECT cell FROM wed_tiles('$F') WHERE overlay = 0 AND x < 10)",
   "3", "column anim_speed", FIRST_MID_LAST("4", "0", "145", "289")},
  {"UPDATE ... WHERE EXISTS (the cells under walls)", NULL,
   "UPDATE wed_tiles SET anim_speed = CASE WHEN cell = $K THEN 256 ELSE $V END WHERE source = '$F' AND overlay = 0 "
   "AND EXISTS (SELECT 1 FROM wed_polygons('$F') AS p WHERE p.kind = 'wall' AND p.min_x <= wed_tiles.x * 64 + 63 "
   "AND p.max_x >= wed_tiles.x * 64 AND p.min_y <= wed_tiles.y * 64 + 63 AND p.max_y >= wed_tiles.y * 64)",
   "3", "column anim_speed", FIRST_MID_LAST("4", "21", "129", "297")},
  {"INSERT ... VALUES, one wall", NULL,
   "INSERT INTO wed_polygons(file, vertices, height) VALUES ('$F', '[[10,10],[60,10],[60,60]]', CASE WHEN 1 = $K THEN 999 ELSE $V END)",
   "100", "column height", {{"only", "200", "1"}}},
  {"INSERT ... VALUES, three walls", NULL,
   "INSERT INTO wed_polygons(file, vertices, height) VALUES "
   "('$F', '[[10,10],[60,10],[60,60]]', CASE WHEN 1 = $K THEN 999 ELSE $V END), "
   "('$F', '[[20,10],[70,10],[70,60]]', CASE WHEN 2 = $K THEN 999 ELSE $V END), "
   "('$F', '[[30,10],[80,10],[80,60]]', CASE WHEN 3 = $K THEN 999 ELSE $V END)",
   "100", "column height", FIRST_MID_LAST("200", "1", "2", "3")},
  {"INSERT ... VALUES, three walls, SQLite's own error", NULL,
   "INSERT INTO wed_polygons(file, vertices, height) VALUES "
   "('$F', '[[10,10],[60,10],[60,60]]', CASE WHEN 1 = $K THEN " SQLITE_BAD " ELSE $V END), "
   "('$F', '[[20,10],[70,10],[70,60]]', CASE WHEN 2 = $K THEN " SQLITE_BAD " ELSE $V END), "
   "('$F', '[[30,10],[80,10],[80,60]]', CASE WHEN 3 = $K THEN " SQLITE_BAD " ELSE $V END)",
   "100", "integer overflow", FIRST_MID_LAST("200", "1", "2", "3")},
  {"INSERT ... SELECT from another level, one wall", NULL,
   "INSERT INTO wed_polygons(source, vertices, height) SELECT '$F', vertices, CASE WHEN polygon = $K THEN 999 ELSE $V END "
   "FROM wed_polygons('$B') WHERE polygon = 1",
   "100", "column height", {{"only", "200", "1"}}},
  {"INSERT ... SELECT from another level", NULL,
   "INSERT INTO wed_polygons(source, vertices, height) SELECT '$F', vertices, CASE WHEN polygon = $K THEN 999 ELSE $V END "
   "FROM wed_polygons('$B') WHERE kind = 'wall'",
   "100", "column height", FIRST_MID_LAST("200", "0", "1", "2")},
  {"DELETE, one door polygon", NULL,
   "DELETE FROM wed_polygons WHERE source = '$F' AND (CASE WHEN min_x = $K THEN " SQLITE_BAD " ELSE 0 END OR min_x IN ($V))",
   "310", "integer overflow", {{"only", "300", "300"}}},
  {"DELETE, walls and door polygons", NULL,
   "DELETE FROM wed_polygons WHERE source = '$F' AND (CASE WHEN min_x = $K THEN " SQLITE_BAD " ELSE 0 END OR min_x IN ($V))",
   "100", "integer overflow", FIRST_MID_LAST("600, 1000, 300, 310", "600", "300", "310")},
  {"DELETE, SQLite's own error", NULL,
   "DELETE FROM wed_polygons WHERE source = '$F' AND (CASE WHEN min_x = $K THEN " SQLITE_BAD " ELSE 0 END OR min_x = $V)",
   "100", "integer overflow", FIRST_MID_LAST("600", "600", "300", "310")},
};

/* wz4: the constructed project: operators 0..3 on page 0 and 0..1 on page
** 1, all 3 cells wide; an operator's key is page * 10 + op. */
static const shape wz4_shapes[] = {
  {"UPDATE, one row", NULL,
   "UPDATE wz4_operators SET width = CASE WHEN page * 10 + op = $K THEN 0 ELSE $V END WHERE source = '$F' AND page = 0 AND op = 2",
   "4", "column width", {{"only", "5", "2"}}},
  {"UPDATE, one row, two columns (the second refused)", NULL,
   "UPDATE wz4_operators SET width = $V, hide = CASE WHEN page * 10 + op = $K THEN 2 ELSE 0 END "
   "WHERE source = '$F' AND page = 0 AND op = 2",
   "4", "column hide", {{"only", "5", "2"}}},
  {"UPDATE, every operator", NULL,
   "UPDATE wz4_operators SET width = CASE WHEN page * 10 + op = $K THEN 0 ELSE $V END WHERE source = '$F'",
   "4", "column width", FIRST_MID_LAST("5", "0", "3", "11")},
  {"UPDATE, SQLite's own error", NULL,
   "UPDATE wz4_operators SET width = CASE WHEN page * 10 + op = $K THEN " SQLITE_BAD " ELSE $V END WHERE source = '$F'",
   "4", "integer overflow", FIRST_MID_LAST("5", "0", "3", "11")},
  {"UPDATE ... FROM the table-valued function, one row", NULL,
   "UPDATE wz4_operators AS g SET width = CASE WHEN g.page * 10 + g.op = $K THEN 0 ELSE d.width + $V END "
   "FROM wz4_operators('$F') AS d WHERE g.source = '$F' AND d.page = g.page AND d.op = g.op AND d.page = 0 AND d.op = 2",
   "1", "column width", {{"only", "2", "2"}}},
  {"UPDATE ... FROM the table-valued function", NULL,
   "UPDATE wz4_operators AS g SET width = CASE WHEN g.page * 10 + g.op = $K THEN 0 ELSE d.width + $V END "
   "FROM wz4_operators('$F') AS d WHERE g.source = '$F' AND d.page = g.page AND d.op = g.op",
   "1", "column width", FIRST_MID_LAST("2", "0", "3", "11")},
  {"UPDATE ... FROM a temp table", "CREATE TEMP TABLE pick AS SELECT page, op, width FROM wz4_operators('$F')",
   "UPDATE wz4_operators AS g SET width = CASE WHEN g.page * 10 + g.op = $K THEN 'not a number' ELSE p.width + $V END "
   "FROM pick AS p WHERE g.source = '$F' AND g.page = p.page AND g.op = p.op",
   "1", "column width", FIRST_MID_LAST("2", "0", "3", "11")},
  {"UPDATE ... WHERE IN (subquery)", NULL,
   "UPDATE wz4_operators SET width = CASE WHEN page * 10 + op = $K THEN 0 ELSE $V END WHERE source = '$F' "
   "AND page * 10 + op IN (SELECT page * 10 + op FROM wz4_operators('$F') WHERE class <> 'Blur')",
   "4", "column width", FIRST_MID_LAST("5", "0", "3", "11")},
  {"UPDATE ... WHERE EXISTS (link targets)", NULL,
   "UPDATE wz4_operators SET width = CASE WHEN page * 10 + op = $K THEN 0 ELSE $V END WHERE source = '$F' "
   "AND EXISTS (SELECT 1 FROM wz4_links('$F') AS l WHERE l.page = wz4_operators.page AND l.to_op = wz4_operators.op)",
   "4", "column width", FIRST_MID_LAST("5", "1", "2", "11")},
};

/* One format of the matrix: its shapes, and the levels they run on. */
typedef struct level_format {
  const char *name;
  const shape *shapes;
  size_t nshapes;
  char path[512];  /* $F: the level the statements change */
  char other[512]; /* $B: another level they read */
  blob old;        /* $F's original bytes */
} level_format;

/* What one matrix run found, for the closing summary. */
typedef struct tally {
  int cells, failed;
} tally;

/* "SAVEPOINT a; G; F; RELEASE a" for messages. */
static const char *context_label(const context *cx) {
  static char buf[256];
  size_t i, n = 0;
  buf[0] = 0;
  for (i = 0; i < sizeof cx->steps / sizeof cx->steps[0] && cx->steps[i]; i++) {
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "; " : "", cx->steps[i]);
    if (n >= sizeof buf) break;
  }
  return buf;
}

/* A fresh connection with the extension and the shape's setup run; NULL
** (with *why set) when either fails. */
static sqlite3 *open_for_shape(const level_format *lf, const shape *s, char *why, size_t whylen) {
  sqlite3 *db = db_open();
  char *setup, *err = NULL;
  if (!db) {
    snprintf(why, whylen, "the extension does not load");
    return NULL;
  }
  if (!s->setup) return db;
  setup = expand(s->setup, lf->path, lf->other, "", "");
  if (!setup || run_sql(db, setup, &err) != SQLITE_OK) {
    snprintf(why, whylen, "setup failed: %s", err ? err : "out of memory");
    free(err);
    sqlite3_free(setup);
    sqlite3_close(db);
    return NULL;
  }
  sqlite3_free(setup);
  return db;
}

/* Where the file first differs from the blob (for messages); -1 when equal. */
static long first_difference(const char *path, const blob *b) {
  blob now = blob_of_file(path);
  size_t i, n;
  long at = -1;
  if (!now.data || !b->data) return 0;
  n = now.size < b->size ? now.size : b->size;
  for (i = 0; i < n && at < 0; i++)
    if (now.data[i] != b->data[i]) at = (long)i;
  if (at < 0 && now.size != b->size) at = (long)n;
  blob_free(&now);
  return at;
}

/* Runs one cell and judges it; returns 1 when it holds, else 0 with the
** reason in why. */
static int run_cell(level_format *lf, const shape *s, const context *cx, const blob *new_bytes, const char *good,
                    const char *bad, char *why, size_t whylen) {
  sqlite3 *db;
  size_t i;
  int ok = 1;
  const blob *want = cx->ends_new ? new_bytes : &lf->old;
  why[0] = 0;
  if (!file_reset(lf->path, &lf->old)) {
    snprintf(why, whylen, "cannot reset %s", lf->path);
    return 0;
  }
  if (!(db = open_for_shape(lf, s, why, whylen))) return 0;
  for (i = 0; i < sizeof cx->steps / sizeof cx->steps[0] && cx->steps[i]; i++) {
    const char *step = cx->steps[i];
    int is_f = strcmp(step, "F") == 0;
    char *err = NULL;
    int rc = run_sql(db, is_f ? bad : strcmp(step, "G") == 0 ? good : step, &err);
    if (is_f) {
      if (rc == SQLITE_OK) {
        if (ok) snprintf(why, whylen, "F succeeded");
        ok = 0;
      } else if (!strstr(err, s->error)) {
        if (ok) snprintf(why, whylen, "F failed with '%s', not '%s'", err, s->error);
        ok = 0;
      }
    } else if (rc != SQLITE_OK) {
      if (ok) snprintf(why, whylen, "step '%s' failed: %s", step, err);
      ok = 0;
    }
    free(err);
  }
  if (!sqlite3_get_autocommit(db)) {
    if (ok) snprintf(why, whylen, "still in a transaction at the end");
    ok = 0;
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  }
  sqlite3_close(db);
  if (!want->data) {
    if (ok) snprintf(why, whylen, "NEW is unknown: G failed in autocommit");
    return 0;
  }
  if (!file_is(lf->path, want)) {
    int is_old = file_is(lf->path, &lf->old), is_new = new_bytes->data && file_is(lf->path, new_bytes);
    char what[160];
    if (is_old) snprintf(what, sizeof what, "the file is OLD, want NEW");
    else if (is_new) snprintf(what, sizeof what, "the file is NEW, want OLD");
    else snprintf(what, sizeof what, "the file is neither OLD nor NEW (first difference from %s at byte %ld)",
                  cx->ends_new ? "NEW" : "OLD", first_difference(lf->path, want));
    if (ok) snprintf(why, whylen, "%s", what);
    else {
      size_t n = strlen(why);
      snprintf(why + n, whylen - n, "; %s", what);
    }
    ok = 0;
  }
  return ok;
}

/* Every cell of one shape: the reference first (G alone in autocommit gives
** NEW, which must differ from OLD), then each failure in each context. */
static void run_shape(level_format *lf, const shape *s, tally *t) {
  char *good = expand(s->sql, lf->path, lf->other, s->good_v, "-1");
  blob new_bytes = {NULL, 0};
  char why[1024] = "";
  size_t f, c;
  sqlite3 *db;
  int ok;
  if (!good) return;
  if (file_reset(lf->path, &lf->old) && (db = open_for_shape(lf, s, why, sizeof why)) != NULL) {
    char *err = NULL;
    if (run_sql(db, good, &err) == SQLITE_OK) new_bytes = blob_of_file(lf->path);
    else snprintf(why, sizeof why, "%s", err);
    free(err);
    sqlite3_close(db);
  }
  ok = new_bytes.data && !file_is(lf->path, &lf->old);
  CHECK(ok, "%s | %s | reference: G in autocommit %s: %s", lf->name, s->name, new_bytes.data ? "changed nothing" : "failed",
        new_bytes.data ? good : why);
  for (f = 0; f < 3 && s->fail[f].where; f++) {
    const failure *fl = &s->fail[f];
    char *bad = expand(s->sql, lf->path, lf->other, fl->v, fl->k ? fl->k : "-1");
    if (!bad) continue;
    for (c = 0; c < NCONTEXTS; c++) {
      ok = run_cell(lf, s, &contexts[c], &new_bytes, good, bad, why, sizeof why);
      t->cells++;
      t->failed += !ok;
      CHECK(ok, "%s | %s | fails on the %s row | %s: %s", lf->name, s->name, fl->where, context_label(&contexts[c]), why);
    }
    sqlite3_free(bad);
  }
  blob_free(&new_bytes);
  sqlite3_free(good);
}

/* The matrix of one format: one case (check.h's loop), whose inputs are
** its cells; prints its dimensions and failures. */
static void run_matrix(level_format *lf) {
  tally t = {0, 0};
  size_t i, positions = 0;
  check_loop cells = {0, 0, 0};
  check_loop_enter(&cells);
  for (i = 0; i < lf->nshapes; i++) {
    size_t f;
    for (f = 0; f < 3 && lf->shapes[i].fail[f].where; f++) positions++;
    run_shape(lf, &lf->shapes[i], &t);
  }
  cells.inputs = t.cells;
  check_loop_done(&cells, "the statement matrix of %s: %zu shapes, %zu shape x failure pairs, %zu contexts (%d cells, %d failed)",
                  lf->name, lf->nshapes, positions, (size_t)NCONTEXTS, t.cells, t.failed);
}

/* ---- the levels ---------------------------------------------------------------------- */

/* The test's temporary folder and where the generated WWD samples are. */
typedef struct test_env {
  char dir[256];
  char samples[1024];
} test_env;

/* Copies a file; 1 on success. */
static int copy_file(const char *from, const char *to) {
  blob b = blob_of_file(from);
  int ok = b.data && file_write_all(to, b.data, b.size);
  blob_free(&b);
  return ok;
}

/* The WWD levels and Teeworlds maps of `make samples`: $LEVELSQL_SAMPLES
** (test/run.sh), else generated here by tools/gen_wwd_samples and
** gen_tw_samples.  Returns 0 (printed) when there are none. */
static int find_samples(test_env *env) {
  const char *samples = getenv("LEVELSQL_SAMPLES");
  const char *gen = tool_path("gen_wwd_samples"), *gen_tw = tool_path("gen_tw_samples");
  if (samples && *samples) {
    snprintf(env->samples, sizeof env->samples, "%s", samples);
    return 1;
  }
  snprintf(env->samples, sizeof env->samples, "%s/samples", env->dir);
  if (access(gen, X_OK) == 0 && access(gen_tw, X_OK) == 0 &&
      system(fmt("'%s' '%s' >/dev/null && '%s' '%s' >/dev/null", gen, env->samples, gen_tw, env->samples)) == 0)
    return 1;
  printf("no samples: $LEVELSQL_SAMPLES unset and %s or %s did not run\n", gen, gen_tw);
  return 0;
}

/* Makes dir/<sub> and returns its path (static buffer of fmt()). */
static const char *make_subdir(const test_env *env, const char *sub) {
  const char *d = fmt("%s/%s", env->dir, sub);
  mkdir(d, 0755);
  return d;
}

/* Names the format's level and its other level and writes them: WWD and
** the map from the samples, WED and wz4 from the shared constructed files.
** Returns 1 when both exist. */
static int make_levels(const test_env *env, level_format *lf) {
  const char *d = make_subdir(env, lf->name);
  int ok = 0;
  if (strcmp(lf->name, "wwd") == 0) {
    snprintf(lf->path, sizeof lf->path, "%s/LEVEL.WWD", d);
    snprintf(lf->other, sizeof lf->other, "%s/OTHER.WWD", d);
    ok = copy_file(fmt("%s/SAMPLE05.WWD", env->samples), lf->path) &&
         copy_file(fmt("%s/SAMPLE03.WWD", env->samples), lf->other);
  } else if (strcmp(lf->name, "tw") == 0) {
    snprintf(lf->path, sizeof lf->path, "%s/level.map", d);
    snprintf(lf->other, sizeof lf->other, "%s/other.map", d);
    ok = copy_file(fmt("%s/dm_sample.map", env->samples), lf->path) && copy_file(lf->path, lf->other);
  } else if (strcmp(lf->name, "wed") == 0) {
    snprintf(lf->path, sizeof lf->path, "%s/AR9999.WED", d);
    snprintf(lf->other, sizeof lf->other, "%s/OTHER.WED", d);
    ok = wed_write_constructed(lf->path) && wed_write_constructed(lf->other);
  } else if (strcmp(lf->name, "wz4") == 0) {
    snprintf(lf->path, sizeof lf->path, "%s/level.wz4", d);
    snprintf(lf->other, sizeof lf->other, "%s/other.wz4", d);
    ok = wz4_write_project(lf->path) && wz4_write_project(lf->other);
  }
  if (ok) lf->old = blob_of_file(lf->path);
  return ok && lf->old.data;
}

/* ---- DB Browser for SQLite 3.12 ------------------------------------------------------- */

/* What DB Browser for SQLite 3.12 sends, reproduced verbatim from its
** sources (github.com/sqlitebrowser/sqlitebrowser): src/sqlitedb.cpp,
** DBBrowserDB::executeSQL, setSavepoint, updateRecord, revertToSavepoint,
** revertAll, releaseSavepoint and releaseAllSavepoints; src/sqlitedb.h for
** the savepoint's default name "RESTOREPOINT"; src/sqlitetablemodel.cpp,
** SqliteTableModel::setData, for the value's binding and the cached rowid;
** src/sql/Query.cpp, Query::buildQuery, for the grid's query.  The user's
** table is a named virtual table in main, as Execute SQL would create it. */

/* One grid edit: the row as the grid shows it (its position in the model's
** query), the column, and the value typed, bound as an integer when the
** column holds integers (as the model does for numeric input). */
typedef struct grid_edit {
  int row;
  const char *column;
  const char *value;
  int integer;
} grid_edit;

typedef struct db4s_case {
  const char *format;
  const char *module;
  grid_edit a, b;
  const char *issue_example; /* the issue's SAVEPOINT ... ROLLBACK TO example; $F is the level */
} db4s_case;

static const db4s_case db4s_cases[] = {
  {"wwd", "wwd_objects", {0, "id", "77", 1}, {2, "logic", "Edited", 0},
   "UPDATE wwd_objects SET id = 77 WHERE source = '$F' AND idx = 0"},
  {"tw", "tw_tiles", {0, "id", "5", 1}, {61, "id", "3", 1},
   "UPDATE tw_tiles SET id = 77 WHERE source = '$F' AND layer_index = 1 AND x = 1 AND y = 1"},
  {"wed", "wed_polygons", {0, "height", "77", 1}, {1, "vertices", "[[600,400],[700,400],[650,500]]", 0},
   "UPDATE wed_polygons SET height = 77 WHERE source = '$F' AND polygon = 0"},
  {"wz4", "wz4_operators", {0, "width", "7", 1}, {2, "name", "renamed", 0},
   "UPDATE wz4_operators SET width = 7 WHERE source = '$F' AND page = 0 AND op = 0"},
};

/* A connection with the level as DB Browser's user has it: a named table
** "lvl" in main over the level. */
static sqlite3 *db4s_open(const level_format *lf, const db4s_case *dc) {
  sqlite3 *db = db_open();
  char *err = NULL;
  if (db && run_sql(db, fmt("CREATE VIRTUAL TABLE lvl USING %s('%s')", dc->module, lf->path), &err) != SQLITE_OK) {
    printf("CREATE VIRTUAL TABLE lvl: %s\n", err);
    sqlite3_close(db);
    db = NULL;
  }
  free(err);
  return db;
}

/* The rowid of the grid's row `row`, as text, as the model caches it: column
** 0 of the model's query (src/sql/Query.cpp, Query::buildQuery with the
** rowid column "_rowid_"; RowLoader adds the LIMIT).  NULL if absent. */
static char *db4s_rowid(sqlite3 *db, int row) {
  sqlite3_stmt *st = NULL;
  char *out = NULL;
  int i = 0;
  if (sqlite3_prepare_v2(db, "SELECT \"_rowid_\",* FROM \"main\".\"lvl\"   LIMIT 0, 49999;", -1, &st, NULL) != SQLITE_OK) return NULL;
  while (sqlite3_step(st) == SQLITE_ROW) {
    if (i++ == row) {
      out = strdup((const char *)sqlite3_column_text(st, 0));
      break;
    }
  }
  sqlite3_finalize(st);
  return out;
}

/* One grid edit exactly as DB Browser for SQLite 3.12 sends it
** (sqlitebrowser/sqlitebrowser, src/sqlitedb.cpp, DBBrowserDB::updateRecord:
** "UPDATE " + table + " SET " + column + "=? WHERE " + rowid column + "=" +
** escapeByteArray(rowid), after setSavepoint(), whose default name is
** "RESTOREPOINT" and which sends SAVEPOINT only when that savepoint is not
** open yet; the value bound with sqlite3_bind_int64 or sqlite3_bind_text,
** see SqliteTableModel::setData in src/sqlitetablemodel.cpp).  Returns 1
** when every statement succeeded. */
static int db4s_edit(sqlite3 *db, const grid_edit *e, int *savepoint_open) {
  char *rowid = db4s_rowid(db, e->row), *err = NULL;
  sqlite3_stmt *st = NULL;
  int ok = rowid != NULL;
  if (ok && !*savepoint_open) {
    ok = run_sql(db, "SAVEPOINT \"RESTOREPOINT\";", &err) == SQLITE_OK;
    *savepoint_open = ok;
  }
  if (ok) ok = sqlite3_prepare_v2(db, fmt("UPDATE \"main\".\"lvl\" SET \"%s\"=? WHERE \"_rowid_\"='%s'", e->column, rowid), -1, &st,
                                  NULL) == SQLITE_OK;
  if (ok) {
    if (e->integer) sqlite3_bind_int64(st, 1, strtoll(e->value, NULL, 10));
    else sqlite3_bind_text(st, 1, e->value, -1, SQLITE_STATIC);
    ok = sqlite3_step(st) == SQLITE_DONE;
  }
  if (!ok) printf("grid edit of %s on row %d: %s\n", e->column, e->row, err ? err : sqlite3_errmsg(db));
  sqlite3_finalize(st);
  free(rowid);
  free(err);
  return ok;
}

/* "Revert Changes": DBBrowserDB::revertAll -> revertToSavepoint, which
** sends ROLLBACK TO SAVEPOINT then RELEASE for each open savepoint. */
static int db4s_revert(sqlite3 *db, int *savepoint_open) {
  char *e1 = NULL, *e2 = NULL;
  int ok = run_sql(db, "ROLLBACK TO SAVEPOINT \"RESTOREPOINT\";", &e1) == SQLITE_OK;
  ok = run_sql(db, "RELEASE \"RESTOREPOINT\";", &e2) == SQLITE_OK && ok;
  if (!ok) printf("Revert Changes: %s %s\n", e1 ? e1 : "", e2 ? e2 : "");
  free(e1);
  free(e2);
  *savepoint_open = 0;
  return ok;
}

/* "Write Changes": DBBrowserDB::releaseAllSavepoints -> releaseSavepoint
** sends RELEASE for each open savepoint, then COMMIT when SQLite is still
** in a transaction. */
static int db4s_write(sqlite3 *db, int *savepoint_open) {
  char *err = NULL;
  int ok = run_sql(db, "RELEASE \"RESTOREPOINT\";", &err) == SQLITE_OK;
  if (ok && !sqlite3_get_autocommit(db)) ok = run_sql(db, "COMMIT;", &err) == SQLITE_OK;
  if (!ok) printf("Write Changes: %s\n", err ? err : "");
  free(err);
  *savepoint_open = 0;
  return ok;
}

/* The bytes the level has after the given edits, made with plain UPDATEs
** in autocommit on a fresh copy (data NULL when one fails). */
static blob db4s_reference(level_format *lf, const db4s_case *dc, const grid_edit *const *edits, int n) {
  sqlite3 *db;
  blob out = {NULL, 0};
  int i, ok;
  if (!file_reset(lf->path, &lf->old) || !(db = db4s_open(lf, dc))) return out;
  for (i = 0, ok = 1; i < n && ok; i++) {
    char *rowid = db4s_rowid(db, edits[i]->row), *err = NULL;
    const char *v = edits[i]->integer ? edits[i]->value : fmt("'%s'", edits[i]->value);
    ok = rowid && run_sql(db, fmt("UPDATE lvl SET %s = %s WHERE rowid = %s", edits[i]->column, v, rowid), &err) == SQLITE_OK;
    if (!ok) printf("reference edit: %s\n", err ? err : "no such row");
    free(rowid);
    free(err);
  }
  sqlite3_close(db);
  if (ok) out = blob_of_file(lf->path);
  return out;
}

/* The grid edits then Revert (byte-identical, and the connection reads the
** old value again), then Write (the edits written), then an edit, Revert,
** another edit, Write (only the second written); and the issue's example. */
static void test_db4s(level_format *lf, const db4s_case *dc) {
  const grid_edit *both[2] = {&dc->a, &dc->b}, *second[1] = {&dc->b};
  blob new_ab = db4s_reference(lf, dc, both, 2), new_b = db4s_reference(lf, dc, second, 1);
  sqlite3 *db;
  int sp = 0, ok;
  ok = new_ab.data && new_b.data && !file_is(lf->path, &lf->old);
  CHECK(ok, "%s: DB Browser references (plain UPDATEs) change the file", lf->name);
  /* edit two cells, Revert Changes */
  if (file_reset(lf->path, &lf->old) && (db = db4s_open(lf, dc)) != NULL) {
    char *before = NULL, *after = NULL, *rowid = db4s_rowid(db, dc->a.row);
    const char *read_a = fmt("SELECT %s FROM lvl WHERE rowid = %s", dc->a.column, rowid ? rowid : "NULL");
    before = strdup(query_text(db, read_a));
    int sent = db4s_edit(db, &dc->a, &sp) && db4s_edit(db, &dc->b, &sp) && db4s_revert(db, &sp);
    after = strdup(query_text(db, read_a));
    ok = sent && sqlite3_get_autocommit(db) && file_is(lf->path, &lf->old);
    CHECK(ok, "%s: DB Browser grid edits then Revert Changes leave the file byte-identical (%s)", lf->name,
          !sent ? "a statement failed" : file_is(lf->path, &lf->old) ? "still in a transaction" : "the file changed");
    ok = before && after && strcmp(before, after) == 0;
    CHECK(ok, "%s: after Revert Changes the grid reads %s = '%s' again, not '%s'", lf->name, dc->a.column, before ? before : "?",
          after ? after : "?");
    free(before);
    free(after);
    free(rowid);
    sqlite3_close(db);
  }
  /* edit two cells, Write Changes */
  if (file_reset(lf->path, &lf->old) && (db = db4s_open(lf, dc)) != NULL) {
    int sent = db4s_edit(db, &dc->a, &sp) && db4s_edit(db, &dc->b, &sp) && db4s_write(db, &sp);
    ok = sent && new_ab.data && file_is(lf->path, &new_ab);
    CHECK(ok, "%s: DB Browser grid edits then Write Changes write both edits (%s)", lf->name,
          !sent ? "a statement failed" : file_is(lf->path, &lf->old) ? "the file is unchanged" : "other bytes");
    sqlite3_close(db);
  }
  /* edit, Revert Changes, another edit, Write Changes */
  if (file_reset(lf->path, &lf->old) && (db = db4s_open(lf, dc)) != NULL) {
    int sent = db4s_edit(db, &dc->a, &sp) && db4s_revert(db, &sp) && db4s_edit(db, &dc->b, &sp) && db4s_write(db, &sp);
    ok = sent && new_b.data && file_is(lf->path, &new_b);
    CHECK(ok, "%s: DB Browser edit, Revert, edit, Write writes only the second edit (%s)", lf->name,
          !sent ? "a statement failed" : file_is(lf->path, &new_ab) ? "the reverted edit was written too" : "other bytes");
    sqlite3_close(db);
  }
  /* the issue's example: SAVEPOINT a; UPDATE ...; ROLLBACK TO a; RELEASE a; */
  if (file_reset(lf->path, &lf->old) && (db = db_open()) != NULL) {
    char *update = expand(dc->issue_example, lf->path, "", "", ""), *err = NULL;
    int sent = update && run_sql(db, fmt("SAVEPOINT a; %s; ROLLBACK TO a; RELEASE a;", update), &err) == SQLITE_OK;
    ok = sent && file_is(lf->path, &lf->old);
    CHECK(ok, "%s: SAVEPOINT a; UPDATE; ROLLBACK TO a; RELEASE a leaves the file byte-identical (%s)", lf->name,
          sent ? "the file changed" : err ? err : "?");
    free(err);
    sqlite3_free(update);
    sqlite3_close(db);
  }
  blob_free(&new_ab);
  blob_free(&new_b);
}

/* ---- Python's implicit transactions ---------------------------------------------------- */

#define SYSTEM_PYTHON "/usr/bin/python3"
#define PYTHON_SCRIPT "test/python/implicit_transactions.py"

/* Under the sanitizer build the extension needs the ASan runtime loaded
** first: "LD_PRELOAD=<libasan> ASAN_OPTIONS=detect_leaks=0 " (Python
** itself is not instrumented and leaks by design), else "". */
static const char *sanitizer_env(void) {
  static char env[1100];
  const char *cc = getenv("CC");
  FILE *p;
  char lib[1024] = "";
  const char *s = getenv("LEVELSQL_SANITIZED");
  if (!s || strcmp(s, "1") != 0) return "";
  p = popen(fmt("%s -print-file-name=libasan.so", cc && *cc ? cc : "cc"), "r");
  if (p) {
    if (!fgets(lib, sizeof lib, p)) lib[0] = 0;
    pclose(p);
  }
  lib[strcspn(lib, "\n")] = 0;
  snprintf(env, sizeof env, "LD_PRELOAD='%s' ASAN_OPTIONS=detect_leaks=0 ", lib);
  return env;
}

/* Runs the Python script on the WWD level; each "ok ..." line it prints is
** a passed check and each "not ok ..." line a failed one. */
static void test_python(const test_env *env, const level_format *wwd) {
  const char *ext = getenv("LEVELSQL_EXT");
  char script[1200], line[2048], level[600];
  FILE *p;
  int lines = 0, rc, ok;
  if (access(SYSTEM_PYTHON, X_OK) != 0) {
    SKIP("%s is absent: Python's implicit transactions", SYSTEM_PYTHON);
    return;
  }
  /* the script from the project root (test/run.sh runs there), else next to
  ** the build folder */
  snprintf(script, sizeof script, "%s", PYTHON_SCRIPT);
  if (access(script, R_OK) != 0) snprintf(script, sizeof script, "%s/../../" PYTHON_SCRIPT, tool_path(""));
  ok = access(script, R_OK) == 0;
  REQUIRE(ok, "the script %s is there", PYTHON_SCRIPT);
  if (!ok) return;
  /* the script copies this pristine level for each of its cases */
  snprintf(level, sizeof level, "%s/level.WWD", make_subdir(env, "python"));
  ok = file_write_all(level, wwd->old.data, wwd->old.size);
  REQUIRE(ok, "write %s", level);
  p = popen(fmt("%s" SYSTEM_PYTHON " '%s' '%s' '%s' '%s' 2>&1", sanitizer_env(), script, ext ? ext : "build/levelsql", level,
                make_subdir(env, "python")),
            "r");
  if (!p) {
    CHECK(0, "cannot run %s", SYSTEM_PYTHON);
    return;
  }
  while (fgets(line, sizeof line, p)) {
    line[strcspn(line, "\n")] = 0;
    if (strncmp(line, "ok ", 3) == 0 || strncmp(line, "not ok ", 7) == 0) {
      CHECK(line[0] == 'o', "python: %s", line);
      lines++;
    } else {
      printf("python: %s\n", line);
    }
  }
  rc = pclose(p);
  ok = rc == 0 && lines == 5;
  CHECK(ok, "the Python script ran to its end (exit status %d, %d results of 5)", rc, lines);
}

/* ---- UPDATE ... FROM on the system SQLite ------------------------------------------------ */

/* The bytes after running sql (its $F the level) on a fresh copy in
** autocommit; data NULL (reason in why) when it fails. */
static blob bytes_after(level_format *lf, const char *sql, char *why, size_t whylen) {
  blob out = {NULL, 0};
  sqlite3 *db;
  char *text = expand(sql, lf->path, lf->other, "", ""), *err = NULL;
  snprintf(why, whylen, "out of memory");
  if (text && file_reset(lf->path, &lf->old) && (db = db_open()) != NULL) {
    if (run_sql(db, text, &err) == SQLITE_OK) out = blob_of_file(lf->path);
    else snprintf(why, whylen, "%s", err);
    free(err);
    sqlite3_close(db);
  }
  sqlite3_free(text);
  return out;
}

/* An UPDATE ... FROM, the same change written without FROM, and a query
** ($F the level) that must give `want` after the FROM form. */
typedef struct from_case {
  const char *format;
  const char *what;
  const char *with_from;
  const char *without_from;
  const char *check_sql;
  const char *want;
} from_case;

static const from_case from_cases[] = {
  {"wwd", "objects",
   "UPDATE wwd_objects AS g SET health = d.health + 7 FROM wwd_objects('$F') AS d "
   "WHERE g.source = '$F' AND d.plane = g.plane AND d.idx = g.idx AND d.logic = 'Treasure'",
   "UPDATE wwd_objects SET health = health + 7 WHERE source = '$F' AND logic = 'Treasure'",
   "SELECT count(*) FROM wwd_objects('$F') WHERE logic = 'Treasure' AND health = 7", "25"},
  {"wwd", "tiles: a 'filled' cell given a tile becomes a tile (kind not re-applied)",
   "UPDATE wwd_tiles AS g SET tile = 5 FROM wwd_tiles('$F') AS d "
   "WHERE g.source = '$F' AND d.kind = 'filled' AND d.plane = g.plane AND d.x = g.x AND d.y = g.y",
   "UPDATE wwd_tiles SET tile = 5 WHERE source = '$F' AND kind = 'filled'",
   "SELECT count(*) FROM wwd_tiles('$F') WHERE kind = 'filled'", "0"},
  {"wwd", "levels: flags set, the flag columns (compressed) not re-applied",
   "UPDATE wwd_levels AS l SET flags = o.flags | 2 FROM wwd_levels('$F') AS o WHERE l.source = '$F' AND o.file = l.file",
   "UPDATE wwd_levels SET flags = flags | 2 WHERE source = '$F'",
   "SELECT compressed FROM wwd_levels('$F')", "1"},
  {"tw", "the DDNet query: game tiles where the tiles layer draws",
   "UPDATE tw_tiles AS g SET id = 9 FROM tw_tiles('$F') AS d "
   "WHERE g.source = '$F' AND g.kind = 'game' AND d.layer_index = 2 AND d.id <> 0 AND d.x = g.x AND d.y = g.y",
   "UPDATE tw_tiles SET id = 9 WHERE source = '$F' AND kind = 'game' AND EXISTS (SELECT 1 FROM tw_tiles('$F') AS d "
   "WHERE d.layer_index = 2 AND d.id <> 0 AND d.x = tw_tiles.x AND d.y = tw_tiles.y)",
   "SELECT (SELECT count(*) FROM tw_tiles('$F') WHERE layer_index = 1 AND id = 9) = "
   "(SELECT count(*) FROM tw_tiles('$F') WHERE layer_index = 2 AND id <> 0)", "1"},
  {"tw", "groups",
   "UPDATE tw_groups AS g SET offset_x = o.offset_x + 32 FROM tw_groups('$F') AS o WHERE g.source = '$F' AND o.grp = g.grp AND o.name = 'Game'",
   "UPDATE tw_groups SET offset_x = offset_x + 32 WHERE source = '$F' AND name = 'Game'",
   "SELECT offset_x FROM tw_groups('$F') WHERE name = 'Game'", "32"},
  {"wed", "polygons: new vertices recompute the box (the old box not re-applied)",
   "UPDATE wed_polygons AS p SET vertices = '[[10,20],[90,20],[90,70]]' FROM wed_polygons('$F') AS o "
   "WHERE p.source = '$F' AND o.polygon = p.polygon AND o.min_x = 100",
   "UPDATE wed_polygons SET vertices = '[[10,20],[90,20],[90,70]]' WHERE source = '$F' AND min_x = 100",
   "SELECT min_x || ',' || max_x || ',' || min_y || ',' || max_y FROM wed_polygons('$F') WHERE polygon = 0", "10,90,20,70"},
  {"wed", "tiles",
   "UPDATE wed_tiles AS t SET overlay_mask = 3 FROM wed_doors('$F') AS d, json_each(d.cells) AS c "
   "WHERE t.source = '$F' AND t.overlay = 0 AND t.cell = c.value",
   "UPDATE wed_tiles SET overlay_mask = 3 WHERE source = '$F' AND overlay = 0 AND cell IN (21, 22)",
   "SELECT group_concat(cell) FROM wed_tiles('$F') WHERE overlay = 0 AND overlay_mask = 3", "21,22"},
  {"wz4", "operators: moved, links follow",
   "UPDATE wz4_operators AS g SET pos_x = o.pos_x + 10 FROM wz4_operators('$F') AS o "
   "WHERE g.source = '$F' AND o.page = g.page AND o.op = g.op AND o.page = 1",
   "UPDATE wz4_operators SET pos_x = pos_x + 10 WHERE source = '$F' AND page = 1",
   "SELECT group_concat(pos_x) FROM wz4_operators('$F') WHERE page = 1", "10,10"},
};

/* A plain UPDATE that sets a column to the value it reads: writing back
** what a column reads changes nothing (README, "Writing, safely"), so a
** 'filled' WWD cell, whose tile reads NULL, stays filled when given tile =
** NULL (it made the cells invisible before).  ($F the level; the check
** must give `want` afterwards.) */
typedef struct same_value_case {
  const char *format;
  const char *what;
  const char *sql;
  const char *check_sql;
  const char *want;
} same_value_case;

static const same_value_case same_value_cases[] = {
  {"wwd", "SET tile = NULL on 'filled' cells (whose tile reads NULL) leaves them filled",
   "UPDATE wwd_tiles SET tile = NULL WHERE source = '$F' AND kind = 'filled'",
   "SELECT count(*) > 0 FROM wwd_tiles('$F') WHERE kind = 'filled'", "1"},
};

/* Each same_value_case of the format (one CHECK each). */
static void test_same_value(level_format *lf) {
  size_t i;
  for (i = 0; i < sizeof same_value_cases / sizeof same_value_cases[0]; i++) {
    const same_value_case *sc = &same_value_cases[i];
    char why[1024];
    blob after;
    const char *got = "?";
    sqlite3 *db = NULL;
    char *q = NULL;
    if (strcmp(sc->format, lf->name) != 0) continue;
    after = bytes_after(lf, sc->sql, why, sizeof why);
    if (after.data && (db = db_open()) != NULL && (q = expand(sc->check_sql, lf->path, "", "", "")) != NULL) got = query_text(db, q);
    CHECK(strcmp(got, sc->want) == 0, "%s: a plain UPDATE, %s: %s", lf->name, sc->what,
          after.data ? fmt("'%s' gives '%s', want '%s'", q ? q : "?", got, sc->want) : why);
    sqlite3_free(q);
    sqlite3_close(db);
    blob_free(&after);
  }
}

/* Each UPDATE ... FROM works on this SQLite, changes what it says and
** nothing else: the same bytes as the change written without FROM. */
static void test_update_from(level_format *lf) {
  size_t i;
  for (i = 0; i < sizeof from_cases / sizeof from_cases[0]; i++) {
    const from_case *fc = &from_cases[i];
    char why_from[1024], why_plain[1024];
    blob with_from, without_from;
    int same;
    if (strcmp(fc->format, lf->name) != 0) continue;
    with_from = bytes_after(lf, fc->with_from, why_from, sizeof why_from);
    if (with_from.data) {
      sqlite3 *db = db_open();
      char *q = expand(fc->check_sql, lf->path, "", "", "");
      const char *got = db && q ? query_text(db, q) : "?";
      int ok = strcmp(got, fc->want) == 0;
      CHECK(ok, "%s: UPDATE ... FROM on SQLite %s, %s: %s gives '%s', want '%s'", lf->name, sqlite3_libversion(), fc->what, q,
            got, fc->want);
      sqlite3_free(q);
      sqlite3_close(db);
    } else {
      CHECK(0, "%s: UPDATE ... FROM on SQLite %s, %s: %s", lf->name, sqlite3_libversion(), fc->what, why_from);
    }
    without_from = bytes_after(lf, fc->without_from, why_plain, sizeof why_plain);
    same = with_from.data && without_from.data && with_from.size == without_from.size &&
           memcmp(with_from.data, without_from.data, with_from.size) == 0 && !file_is(lf->path, &lf->old);
    CHECK(same, "%s: UPDATE ... FROM, %s: the same bytes as without FROM (%s)", lf->name, fc->what,
          !with_from.data ? why_from : !without_from.data ? why_plain : "the bytes differ or nothing changed");
    blob_free(&with_from);
    blob_free(&without_from);
  }
}

/* ---- INSERT ... SELECT between levels ---------------------------------------------------- */

/* Three levels A, B, C in one folder (the multi-file source), their original
** bytes, and a level of the same format outside the folder. */
typedef struct trio {
  char dir[512];
  char path[3][600];
  blob old[3];
  const char *outside;
} trio;

/* Puts the three levels in dir/<sub> (copies of the given files). */
static int trio_make(trio *t, const test_env *env, const char *sub, const char *const from[3], const char *ext,
                     const char *outside) {
  const char *dir = make_subdir(env, sub);
  int i, ok = 1;
  snprintf(t->dir, sizeof t->dir, "%s", dir);
  for (i = 0; i < 3; i++) {
    snprintf(t->path[i], sizeof t->path[i], "%s/%c.%s", dir, 'A' + i, ext);
    ok = ok && copy_file(from[i], t->path[i]);
    t->old[i] = blob_of_file(t->path[i]);
    ok = ok && t->old[i].data;
  }
  t->outside = outside;
  return ok;
}

static void trio_free(trio *t) {
  int i;
  for (i = 0; i < 3; i++) blob_free(&t->old[i]);
}

/* Resets the three levels and opens a fresh connection. */
static sqlite3 *trio_fresh(trio *t) {
  int i;
  for (i = 0; i < 3; i++)
    if (!file_reset(t->path[i], &t->old[i])) return NULL;
  return db_open();
}

/* 1 when the levels not in `changed` (a mask: 1 A, 2 B, 4 C) still hold
** their original bytes. */
static int trio_untouched_but(const trio *t, int changed) {
  int i;
  for (i = 0; i < 3; i++)
    if (!(changed & (1 << i)) && !file_is(t->path[i], &t->old[i])) return 0;
  return 1;
}

/* Runs sql on fresh levels: it must succeed, change exactly the levels in
** `changed` (a mask: 1 A, 2 B, 4 C; the level outside the folder never),
** and `check` must then give `want` (one CHECK). */
static void insert_lands(trio *t, const blob *outside_old, const char *sql, int changed, const char *check, const char *want,
                         const char *what) {
  sqlite3 *db = trio_fresh(t);
  char *err = NULL, *got = NULL;
  int rc = SQLITE_ERROR, untouched, ok;
  if (db) rc = run_sql(db, sql, &err);
  if (db && rc == SQLITE_OK) got = strdup(query_text(db, check));
  untouched = trio_untouched_but(t, changed) && file_is(t->outside, outside_old);
  ok = rc == SQLITE_OK && untouched && got && strcmp(got, want) == 0;
  for (rc = 0; ok && rc < 3; rc++)
    if ((changed & (1 << rc)) && file_is(t->path[rc], &t->old[rc])) ok = 0;
  CHECK(ok, "%s: %s: %s", what, sql,
        err ? err : !untouched ? "a level it should not touch changed" : !got ? "?" : strcmp(got, want) ? fmt("'%s' gives '%s', want '%s'", check, got, want) : "the target level is unchanged");
  free(err);
  free(got);
  sqlite3_close(db);
}

/* Runs sql on fresh levels: it must fail with `part` in its message and
** change no file (one CHECK). */
static void insert_refused(trio *t, const blob *outside_old, const char *sql, const char *part, const char *what) {
  sqlite3 *db = trio_fresh(t);
  char *err = NULL;
  int rc = db ? run_sql(db, sql, &err) : SQLITE_ERROR;
  int ok = rc != SQLITE_OK && err && strstr(err, part) && trio_untouched_but(t, 0) && file_is(t->outside, outside_old);
  CHECK(ok, "%s: %s: want an error with '%s' and no file changed; got %s", what, sql, part,
        rc == SQLITE_OK ? "success" : err ? err : "?");
  free(err);
  sqlite3_close(db);
}

/* A summary of the WWD objects `where` selects in level `path`, in level
** order: id, position, health, strings, score, plane (a query). */
static const char *wwd_signature(const char *path, const char *where) {
  return fmt("SELECT group_concat(s, ';') FROM (SELECT id || ':' || x || ':' || y || ':' || z || ':' || health || ':' || "
             "image_set || ':' || animation || ':' || name || ':' || score || ':' || plane AS s FROM wwd_objects('%s') "
             "WHERE %s ORDER BY plane, idx)", path, where);
}

/* The rules of INSERT's target, and the ids of inserted WWD objects, on
** A = SAMPLE01, B = SAMPLE04 (main plane 1 with 180 objects; its largest
** id, 192, is on the Front plane 2), C = SAMPLE03; the level outside the
** folder is the matrix's. */
static void test_insert_wwd(const test_env *env, const level_format *wwd) {
  char *from[3], *a_officers = NULL, *b_officers = NULL, *ids = NULL;
  const char *count_officers = "SELECT count(*) FROM wwd_objects('%s') WHERE logic = 'Officer'";
  trio t;
  sqlite3 *db = NULL;
  const char *A, *B, *C;
  sqlite3_int64 na = 0, nb = 0, max_b = 0;
  int i, ok;
  from[0] = strdup(fmt("%s/SAMPLE01.WWD", env->samples));
  from[1] = strdup(fmt("%s/SAMPLE04.WWD", env->samples));
  from[2] = strdup(fmt("%s/SAMPLE03.WWD", env->samples));
  ok = trio_make(&t, env, "insert_wwd", (const char *const *)from, "WWD", wwd->path) && file_reset(wwd->path, &wwd->old) &&
       (db = trio_fresh(&t)) != NULL;
  if (ok) {
    A = t.path[0], B = t.path[1], C = t.path[2];
    na = query_int(db, fmt(count_officers, A));
    nb = query_int(db, fmt(count_officers, B));
    max_b = query_int(db, fmt("SELECT max(id) FROM wwd_objects('%s')", B));
    a_officers = strdup(query_text(db, wwd_signature(A, "logic = 'Officer'")));
    ok = na > 0 && max_b == 192 && query_int(db, fmt("SELECT max(id) FROM wwd_objects('%s') WHERE plane = 1", B)) < max_b;
  }
  sqlite3_close(db);
  CHECK(ok, "the WWD levels for INSERT ... SELECT: A has Officers, B's largest id (%lld) is off its main plane", (long long)max_b);
  if (!ok) goto done;
  b_officers = strdup(fmt("%lld", (long long)(nb + na)));
  ids = strdup(fmt("%lld..%lld", (long long)max_b + 1, (long long)(max_b + na)));

  /* (1) the table-valued form: a `source` naming one file is the target,
  ** the file value (A) is ignored; objects without an id get ids above
  ** the largest of their level */
  insert_lands(&t, &wwd->old, fmt("INSERT INTO wwd_objects(source, file, logic, image_set, x, y, health) SELECT '%s', file, logic, "
                                  "image_set, x, y, health FROM wwd_objects('%s') WHERE logic = 'Officer'", B, A),
               2, fmt(count_officers, B), b_officers, "the hidden source names the target, the file value is ignored");
  insert_lands(&t, &wwd->old, fmt("INSERT INTO wwd_objects(source, file, logic, image_set, x, y, health) SELECT '%s', file, logic, "
                                  "image_set, x, y, health FROM wwd_objects('%s') WHERE logic = 'Officer'", B, A),
               2, fmt("SELECT min(id) || '..' || max(id) FROM wwd_objects('%s') WHERE id > %lld AND logic = 'Officer' "
                      "HAVING count(DISTINCT id) = %lld", B, (long long)max_b, (long long)na),
               ids, "objects inserted without an id get ids above the largest of their level");
  /* (1) a `source` naming several files: `file` chooses among them */
  insert_lands(&t, &wwd->old, fmt("INSERT INTO wwd_objects(source, file, logic) VALUES ('%s', '%s', 'Marker')", t.dir, C), 4,
               fmt("SELECT count(*) FROM wwd_objects('%s') WHERE logic = 'Marker'", C), "1",
               "a folder source: the row goes to the file named");
  insert_refused(&t, &wwd->old, fmt("INSERT INTO wwd_objects(source, file, logic) VALUES ('%s', '%s', 'Marker')", t.dir, t.outside),
                 "is not among", "a folder source and a file outside it");
  insert_refused(&t, &wwd->old, fmt("INSERT INTO wwd_objects(source, logic) VALUES ('%s', 'Marker')", t.dir), "names 3 files",
                 "a folder source of 3 files and no file");

  /* (2) a named table over one file takes every row, whatever `file` says:
  ** INSERT ... SELECT * from another level copies it, ids included */
  insert_lands(&t, &wwd->old, fmt("CREATE VIRTUAL TABLE temp.b USING wwd_objects('%s');"
                                  "INSERT INTO b SELECT * FROM wwd_objects('%s') WHERE logic = 'Officer'", B, A),
               2, wwd_signature(B, "logic = 'Officer' AND plane = 1 AND idx >= 180"), a_officers,
               "INSERT INTO b SELECT * FROM another level (b over one file): its rows, ids kept, appended to b's file");
  insert_lands(&t, &wwd->old, fmt("CREATE VIRTUAL TABLE temp.b USING wwd_objects('%s');"
                                  "INSERT INTO b(file, logic) VALUES ('%s', 'Marker')", B, t.outside),
               2, fmt("SELECT count(*) FROM wwd_objects('%s') WHERE logic = 'Marker'", B), "1",
               "a named one-file table ignores a file value naming another level");
  /* (2) a named table over several files: `file` must be one of them */
  insert_lands(&t, &wwd->old, fmt("CREATE VIRTUAL TABLE temp.abc USING wwd_objects('%s');"
                                  "INSERT INTO abc(file, logic) VALUES ('%s', 'Marker')", t.dir, C),
               4, fmt("SELECT count(*) FROM wwd_objects('%s') WHERE logic = 'Marker'", C), "1",
               "a named folder table: the row goes to the file named");
  insert_refused(&t, &wwd->old, fmt("CREATE VIRTUAL TABLE temp.abc USING wwd_objects('%s'); INSERT INTO abc(logic) VALUES ('Marker')", t.dir),
                 "names 3 files", "a named folder table of 3 files and no file");
  insert_refused(&t, &wwd->old, fmt("CREATE VIRTUAL TABLE temp.abc USING wwd_objects('%s');"
                                    "INSERT INTO abc(file, logic) VALUES ('%s', 'Marker')", t.dir, t.outside),
                 "is not among", "a named folder table and a file outside it");

  /* (3) otherwise `file` names the target; an explicit id is kept */
  insert_lands(&t, &wwd->old, fmt("INSERT INTO wwd_objects(file, logic) VALUES ('%s', 'Solo');"
                                  "INSERT INTO wwd_objects(file, logic, id) VALUES ('%s', 'Explicit', 7)", B, B),
               2, fmt("SELECT group_concat(logic || ' ' || id) FROM wwd_objects('%s') WHERE logic IN ('Solo', 'Explicit')", B),
               fmt("Solo %lld,Explicit 7", (long long)max_b + 1), "the file value names the target; no id gives max + 1, an id is kept");
  insert_lands(&t, &wwd->old, fmt("INSERT INTO wwd_objects SELECT * FROM wwd_objects('%s') WHERE logic = 'Officer'", A), 1,
               fmt(count_officers, A), fmt("%lld", (long long)(2 * na)),
               "INSERT INTO wwd_objects SELECT * FROM A: the file value names A");
done:
  trio_free(&t);
  for (i = 0; i < 3; i++) free(from[i]);
  free(a_officers);
  free(b_officers);
  free(ids);
}

/* The same rules for wed_polygons (walls) on three copies of the
** constructed area. */
static void test_insert_wed(const test_env *env, const level_format *wed) {
  const char *from[3] = {wed->other, wed->other, wed->other};
  const char *walls = "SELECT group_concat(vertices, ';') FROM (SELECT vertices FROM wed_polygons('%s') WHERE kind = 'wall' %s ORDER BY polygon)";
  char *a_walls = NULL;
  trio t;
  sqlite3 *db = NULL;
  int ok = trio_make(&t, env, "insert_wed", from, "WED", wed->path) && file_reset(wed->path, &wed->old) &&
           (db = trio_fresh(&t)) != NULL;
  if (ok) a_walls = strdup(query_text(db, fmt(walls, t.path[0], "")));
  sqlite3_close(db);
  CHECK(ok && a_walls && *a_walls, "the WED levels for INSERT ... SELECT");
  if (ok && a_walls) {
    /* (1) the table-valued form: `source` names the target */
    insert_lands(&t, &wed->old, fmt("INSERT INTO wed_polygons(source, file, vertices) SELECT '%s', file, vertices "
                                    "FROM wed_polygons('%s') WHERE kind = 'wall'", t.path[1], t.path[0]),
                 2, fmt(walls, t.path[1], "AND polygon >= 3"), a_walls, "WED: the hidden source names the target");
    insert_refused(&t, &wed->old, fmt("INSERT INTO wed_polygons(source, vertices) VALUES ('%s', '[[1,1],[5,1],[5,5]]')", t.dir),
                   "names 3 files", "WED: a folder source of 3 files and no file");
    /* (2) a named one-file table: INSERT ... SELECT * from another level */
    insert_lands(&t, &wed->old, fmt("CREATE VIRTUAL TABLE temp.wb USING wed_polygons('%s');"
                                    "INSERT INTO wb SELECT * FROM wed_polygons('%s') WHERE kind = 'wall'", t.path[1], t.path[0]),
                 2, fmt(walls, t.path[1], "AND polygon >= 3"), a_walls,
                 "WED: INSERT INTO wb SELECT * FROM another level (wb over one file)");
    /* (3) otherwise `file` names the target */
    insert_lands(&t, &wed->old, fmt("INSERT INTO wed_polygons(file, vertices) VALUES ('%s', '[[1,1],[5,1],[5,5]]')", t.path[2]),
                 4, fmt("SELECT count(*) FROM wed_polygons('%s') WHERE kind = 'wall'", t.path[2]), "4",
                 "WED: the file value names the target");
  }
  free(a_walls);
  trio_free(&t);
}

/* ---- main ------------------------------------------------------------------------------- */

/* Makes the test's folder: on tmpfs when there is one (the matrix commits
** about a thousand times and every commit fsyncs the file and its folder),
** else in /tmp.  Returns 1 on success. */
static int make_temp_dir(char *dir, size_t size) {
  static const char *const bases[] = {"/dev/shm", "/tmp"};
  size_t i;
  for (i = 0; i < sizeof bases / sizeof bases[0]; i++) {
    snprintf(dir, size, "%s/levelsql-safety-XXXXXX", bases[i]);
    if (mkdtemp(dir)) return 1;
  }
  return 0;
}

int main(void) {
  test_env env;
  level_format formats[] = {
    {"wwd", wwd_shapes, sizeof wwd_shapes / sizeof wwd_shapes[0], "", "", {NULL, 0}},
    {"tw", tw_shapes, sizeof tw_shapes / sizeof tw_shapes[0], "", "", {NULL, 0}},
    {"wed", wed_shapes, sizeof wed_shapes / sizeof wed_shapes[0], "", "", {NULL, 0}},
    {"wz4", wz4_shapes, sizeof wz4_shapes / sizeof wz4_shapes[0], "", "", {NULL, 0}},
  };
  int have[4] = {0, 0, 0, 0}, samples;
  size_t i, k;
  /* kept open to the end: it keeps the extension mapped, so the thousand
  ** connections of the matrix do not load and relocate it each time */
  sqlite3 *probe = db_open();
  REQUIRE(probe != NULL, "the extension loads");
  if (!probe || !make_temp_dir(env.dir, sizeof env.dir)) {
    sqlite3_close(probe);
    return check_done();
  }
  printf("SQLite %s\n", sqlite3_libversion());
  samples = find_samples(&env);
  for (i = 0; i < 4; i++) {
    if (i < 2 && !samples) { /* wwd and tw come from the samples */
      SKIP("%s: no generated samples", formats[i].name);
      continue;
    }
    have[i] = make_levels(&env, &formats[i]);
    if (!have[i]) SKIP("%s: the generated level could not be made (tools not built?)", formats[i].name);
  }
  for (i = 0; i < 4; i++)
    if (have[i]) run_matrix(&formats[i]);
  for (i = 0; i < 4; i++)
    for (k = 0; have[i] && k < sizeof db4s_cases / sizeof db4s_cases[0]; k++)
      if (strcmp(db4s_cases[k].format, formats[i].name) == 0) test_db4s(&formats[i], &db4s_cases[k]);
  if (have[0]) test_python(&env, &formats[0]);
  for (i = 0; i < 4; i++)
    if (have[i]) {
      test_update_from(&formats[i]);
      test_same_value(&formats[i]);
    }
  if (have[0]) test_insert_wwd(&env, &formats[0]);
  if (have[2]) test_insert_wed(&env, &formats[2]);
  for (i = 0; i < 4; i++) blob_free(&formats[i].old);
  sqlite3_close(probe);
  if (system(fmt("rm -rf '%s'", env.dir)) != 0) printf("note: could not remove %s\n", env.dir);
  return check_done();
}
