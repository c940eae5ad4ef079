/*
** test_tw_sql.c: what of the Teeworlds/DDNet tables (tw_maps, tw_groups,
** tw_layers, tw_tiles, tw_quads, tw_images, tw_envelopes, tw_sounds) needs
** C, through the loaded extension, on private copies of the real corpus
** ($LEVELSQL_CORPUS/tw, copied into a mkdtemp folder; skipped when unset).
**
** - every map loads through levelsql_files (format 'tw'), tw_maps' identity
**   columns match the file (size, crc32, sha256);
** - with DDNet's tools (/usr/lib/x86_64-linux-gnu/ddnet, skipped when
**   absent): every map rewritten by a no-op UPDATE is byte-identical to
**   map_resave's output; after tile UPDATEs, map_diff against the original
**   reports exactly the edited cells of exactly the edited layers, and
**   map_resave reads the result;
** - edits of groups, layers, quads, envelopes (points count changing),
**   images and settings read back in a new connection, nothing else
**   changes, and map_resave reads the result;
** - corrupt maps (truncated, flipped bytes) give errors, never a crash;
** - without the corpus too: the maps `make samples` writes
**   ($LEVELSQL_SAMPLES) are exactly what map_resave writes, and edits of
**   dm_sample.map read back and are read by map_resave.
** Bad values, transactions and a map with a damaged layer are SQL:
** test/sql/tw_corpus.sql; what dm_sample.map holds: test/sql/samples.sql.
*/
#include <dirent.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "common/canvas.h"
#include "check.h"
#include "ddnet_peer.h"
#include "sqltest.h"
#include "tw/datafile.h"
#include "fileutil.h"
#include "common/sha256.h"
#include "tw/twmap.h"


/* What every test needs: the temporary folder and the corpus. */
typedef struct tw_env {
  char dir[256];     /* mkdtemp folder: maps/, tools/, bad/ */
  char tools_dir[300]; /* dir/tools, where DDNet's tools run (storage.cfg) */
  char corpus[1024]; /* absolute $LEVELSQL_CORPUS/tw */
  int tools;         /* map_resave and map_diff are installed, and used in this pass */
  int peers_elsewhere; /* LEVELSQL_PEER_CHECKS=0: the comparisons are made in another pass */
  char *names[64];   /* corpus map names, sorted */
  size_t n;
} tw_env;

/* ---- helpers ------------------------------------------------------------------ */

/* Runs a statement to the end; returns its final code (SQLITE_DONE or an
** error), for queries that may fail but must not crash. */
static int run_all(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (rc != SQLITE_OK) return rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
  }
  sqlite3_finalize(st);
  return rc;
}

/* Copies a file; 1 on success. */
static int copy_file(const char *from, const char *to) {
  size_t n = 0;
  unsigned char *b = file_read_all(from, &n);
  int ok = b && file_write_all(to, b, n);
  free(b);
  return ok;
}

/* 1 when the two files have the same bytes. */
static int same_bytes(const char *a, const char *b) {
  size_t na = 0, nb = 0;
  unsigned char *x = file_read_all(a, &na), *y = file_read_all(b, &nb);
  int same = x && y && na == nb && memcmp(x, y, na) == 0;
  free(x);
  free(y);
  return same;
}

/* The copy of corpus map `name` in the test folder. */
static char *map_path(const tw_env *env, const char *name) {
  return fmt("%s/maps/%s", env->dir, name);
}

/* Whether the corpus has the map (tests for particular maps skip if not). */
static int have_map(const tw_env *env, const char *name) {
  size_t i;
  for (i = 0; i < env->n; i++)
    if (strcmp(env->names[i], name) == 0) return 1;
  SKIP("corpus map %s is absent", name);
  return 0;
}

/* Fresh private copy of a corpus map (undoing earlier tests' edits). */
static char *fresh_copy(const tw_env *env, const char *name) {
  char *dst = map_path(env, name);
  REQUIRE(copy_file(fmt("%s/%s", env->corpus, name), dst), "copy %s", name);
  return dst;
}

/* ---- tests ------------------------------------------------------------------- */

/* Every map loads as 'tw'; tw_maps' identity columns describe the bytes. */
static void test_load(const tw_env *env) {
  sqlite3 *db = db_open();
  size_t i;
  check_loop maps = {0, 0, 0};
  if (!db) return;
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s/maps') WHERE ok = 1 AND format = 'tw'", env->dir)) ==
            (sqlite3_int64)env->n, "every corpus map loads as 'tw'");
  check_loop_enter(&maps);
  for (i = 0; i < env->n; i++) {
    const char *p = map_path(env, env->names[i]);
    size_t n = 0;
    unsigned char *b = file_read_all(p, &n), digest[32];
    char hex[65];
    maps.inputs++;
    CHECK(b != NULL, "read %s", p);
    if (!b) continue;
    sha256(b, n, digest);
    sha256_hex(digest, hex);
    CHECK(strcmp(query_text(db, fmt("SELECT sha256 FROM tw_maps('%s')", p)), hex) == 0, "%s: sha256", env->names[i]);
    CHECK(query_int(db, fmt("SELECT crc32 FROM tw_maps('%s')", p)) == (sqlite3_int64)crc32(0L, b, (uInt)n),
          "%s: crc32", env->names[i]);
    CHECK(query_int(db, fmt("SELECT file_size FROM tw_maps('%s')", p)) == (sqlite3_int64)n, "%s: file_size",
          env->names[i]);
    free(b);
  }
  check_loop_done(&maps, "every corpus map: tw_maps' sha256, crc32 and file_size are those of its bytes");
  sqlite3_close(db);
}

/* Whether tw_resave(path) returns exactly the bytes of file `ref`. */
static int resave_equals(sqlite3 *db, const char *path, const char *ref) {
  sqlite3_stmt *st = NULL;
  size_t rn = 0;
  unsigned char *want = file_read_all(ref, &rn);
  int same = 0;
  if (want && sqlite3_prepare_v2(db, fmt("SELECT tw_resave('%s')", path), -1, &st, NULL) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    same = (size_t)sqlite3_column_bytes(st, 0) == rn && memcmp(sqlite3_column_blob(st, 0), want, rn) == 0;
  else
    printf("tw_resave('%s'): %s\n", path, sqlite3_errmsg(db));
  sqlite3_finalize(st);
  free(want);
  return same;
}

/* A no-op UPDATE (a real rewrite: the engine writes every file a statement
** touched) keeps every unchanged blob as read: a map DDNet's current writer
** wrote (every ddnet_*.map, and every map map_resave leaves as it is) comes
** back byte-identical.  tw_resave(file) gives exactly map_resave's bytes,
** before and after the rewrite. */
static void test_noop_resave(const tw_env *env) {
  sqlite3 *db;
  size_t i;
  check_loop maps = {0, 0, 0};
  db = db_open();
  if (!db) return;
  check_loop_enter(&maps);
  for (i = 0; i < env->n; i++) {
    const char *name = env->names[i];
    char *copy = strdup(map_path(env, name)), *ref = strdup(fmt("%s/tools/ref_%s", env->dir, name));
    char *orig = strdup(fmt("%s/%s", env->corpus, name));
    int as_ddnet_writes = strncmp(name, "ddnet_", 6) == 0;
    if (!copy || !ref || !orig) break;
    maps.inputs++;
    if (env->tools) {
      /* map_resave writes through DDNet's storage: a path relative to tools/ */
      CHECK(ddnet_run(env->tools_dir, "map_resave", orig, fmt("ref_%s", name), NULL) == 0, "map_resave %s", name);
      CHECK(resave_equals(db, copy, ref), "%s: tw_resave before any write is byte-identical to map_resave", name);
      as_ddnet_writes = as_ddnet_writes || same_bytes(orig, ref);
      CHECK(strncmp(name, "ddnet_", 6) != 0 || same_bytes(orig, ref), "%s: DDNet wrote it as map_resave writes", name);
    }
    exec_ok(db, fmt("UPDATE tw_maps SET author = author WHERE source = '%s' AND options = 'rewrite=1'", copy));
    if (as_ddnet_writes) CHECK(same_bytes(copy, orig), "%s: no-op UPDATE is byte-identical to the input", name);
    if (env->tools) CHECK(resave_equals(db, copy, ref), "%s: tw_resave after the rewrite = map_resave", name);
    unlink(ref);
    free(copy);
    free(ref);
    free(orig);
  }
  check_loop_done(&maps, "every corpus map: a no-op UPDATE keeps DDNet's bytes, tw_resave writes what map_resave writes");
  sqlite3_close(db);
}

/* One difference line of map_diff: "[n:<layer name>] XxY: (...) != (...)".
** (Debian's 16.4 prints the number of layers as n, not the layer's index,
** so layers are told apart by name and by the cells.) */
typedef struct diff_line {
  char name[64];
  int x, y;
} diff_line;

/* Parses map_diff's log into lines[0..max); returns the number of
** difference lines (more than max are counted, not stored). */
static int diff_lines(const char *log, diff_line *lines, int max) {
  FILE *f = fopen(log, "r");
  char line[2048];
  int total = 0;
  while (f && fgets(line, sizeof line, f)) {
    char *b = strstr(line, "map_compare: ["), *colon, *idx, *rb;
    if (!b || !strstr(line, "!=")) continue;
    b += strlen("map_compare: [");
    colon = strchr(b, ':');
    idx = strstr(b, ": (index");
    if (!colon || !idx) continue;
    for (rb = idx; rb > colon && !(rb[0] == ']' && rb[1] == ' '); rb--) {
    }
    if (total < max) {
      size_t n = (size_t)(rb - colon - 1);
      if (n >= sizeof lines[total].name) n = sizeof lines[total].name - 1;
      memcpy(lines[total].name, colon + 1, n);
      lines[total].name[n] = 0;
      if (sscanf(rb + 2, "%dx%d", &lines[total].x, &lines[total].y) != 2) lines[total].x = lines[total].y = -1;
    }
    total++;
  }
  if (f) fclose(f);
  return total;
}

/* How many lines name cell (x, y) (and, when name is given, that layer). */
static int diff_count(const diff_line *lines, int n, int x, int y, const char *name) {
  int i, c = 0;
  for (i = 0; i < n; i++)
    if (lines[i].x == x && lines[i].y == y && (!name || strcmp(lines[i].name, name) == 0)) c++;
  return c;
}

/* Tile UPDATEs on two layers (game and tiles) of a map: map_diff reports
** exactly those cells of exactly those layers; a physics-layer edit (tele)
** is invisible to map_diff (it compares the main Tile data only) but reads
** back; map_resave reads the result; other layers keep their cells. */
static void diff_one(const tw_env *env, const char *name, int game, int tiles, int tele) {
  sqlite3 *db;
  char *copy, *orig, *log;
  char before[256], after[256];
  int total;
  if (!have_map(env, name)) return;
  copy = strdup(fresh_copy(env, name));
  orig = strdup(fmt("%s/%s", env->corpus, name));
  log = strdup(fmt("%s/tools/diff.log", env->dir));
  db = db_open();
  if (!db || !copy || !orig || !log) goto done;
  /* the cells of the layers left alone, before */
  snprintf(before, sizeof before, "%s",
           query_text(db, fmt("SELECT count(*) || ':' || sum(id * 7 + coalesce(flags, 0) + coalesce(number, 0)) FROM "
                              "tw_tiles('%s') WHERE layer_index NOT IN (%d, %d, %d)", copy, game, tiles, tele)));
  exec_ok(db, fmt("UPDATE tw_tiles SET id = (id + 1) %% 256 WHERE source = '%s' AND layer_index = %d AND x = 5 AND y "
                  "BETWEEN 3 AND 5", copy, game));
  exec_ok(db, fmt("UPDATE tw_tiles SET flags = (flags | 3) - (flags & 3) WHERE source = '%s' AND layer_index = %d AND x BETWEEN 7 AND "
                  "8 AND y = 7", copy, tiles));
  if (tele >= 0)
    exec_ok(db, fmt("UPDATE tw_tiles SET number = 9, id = 26 WHERE source = '%s' AND layer_index = %d AND x = 1 AND "
                    "y = 1", copy, tele));
  sqlite3_close(db);
  db = db_open();
  if (!db) goto done;
  snprintf(after, sizeof after, "%s",
           query_text(db, fmt("SELECT count(*) || ':' || sum(id * 7 + coalesce(flags, 0) + coalesce(number, 0)) FROM "
                              "tw_tiles('%s') WHERE layer_index NOT IN (%d, %d, %d)", copy, game, tiles, tele)));
  CHECK(strcmp(before, after) == 0 && strlen(before) > 2, "%s: other layers unchanged (%s / %s)", name, before, after);
  if (tele >= 0)
    CHECK(query_int(db, fmt("SELECT number * 1000 + id FROM tw_tiles('%s') WHERE layer_index = %d AND x = 1 AND y = 1",
                            copy, tele)) == 9026, "%s: tele edit reads back", name);
  CHECK(query_int(db, fmt("SELECT count(*) FROM tw_tiles('%s') t JOIN tw_tiles('%s') o USING (layer_index, x, y) "
                          "WHERE t.layer_index = %d AND t.x = 5 AND t.y BETWEEN 3 AND 5 AND t.id = (o.id + 1) %% 256",
                          copy, orig, game)) == 3, "%s: game edit reads back", name);
  if (env->tools) {
    diff_line lines[16];
    /* names only when the layer items have one (version >= 3) */
    char *game_name = strdup(query_text(db, fmt("SELECT CASE WHEN version >= 3 THEN name END FROM tw_layers('%s') "
                                                 "WHERE layer_index = %d", copy, game)));
    char *tiles_name = strdup(query_text(db, fmt("SELECT CASE WHEN version >= 3 THEN name END FROM tw_layers('%s') "
                                                  "WHERE layer_index = %d", copy, tiles)));
    const char *gn = game_name && *game_name ? game_name : NULL, *tn = tiles_name && *tiles_name ? tiles_name : NULL;
    CHECK(ddnet_run(env->tools_dir, "map_diff", orig, copy, log) == 0, "%s: map_diff runs", name);
    total = diff_lines(log, lines, 16);
    CHECK(total == 5 && diff_count(lines, 5, 5, 3, gn) == 1 && diff_count(lines, 5, 5, 4, gn) == 1 &&
              diff_count(lines, 5, 5, 5, gn) == 1 && diff_count(lines, 5, 7, 7, tn) == 1 &&
              diff_count(lines, 5, 8, 7, tn) == 1,
          "%s: map_diff reports exactly the 3 game cells%s%s and the 2 tiles cells%s%s edited (%d lines)", name,
          gn ? " of " : "", gn ? gn : "", tn ? " of " : "", tn ? tn : "", total);
    free(game_name);
    free(tiles_name);
    CHECK(ddnet_run(env->tools_dir, "map_resave", copy, "resaved.map", NULL) == 0,
          "%s: map_resave reads the edited map", name);
    unlink(fmt("%s/tools/resaved.map", env->dir));
    unlink(fmt("%s/tools/map_diff.txt", env->dir));
    unlink(log);
  }
done:
  if (db) sqlite3_close(db);
  free(copy);
  free(orig);
  free(log);
}

/* Tile edits checked with map_diff on a 0.6 map and a DDNet map. */
static void test_tile_diff(const tw_env *env) {
  if (!env->tools && !env->peers_elsewhere) SKIP("map_diff/map_resave not installed: the edited maps are checked by levelsql alone");
  diff_one(env, "v06_dm1.map", 10, 7, -1);      /* 0.6: game layer 10, tiles layer 7 */
  diff_one(env, "ddnet_coverage.map", 1, 6, 3); /* DDNet: game 1, tiles 6, tele 3 */
}

/* Edits of every writable table, read back in a new connection. */
static void test_edits(const tw_env *env) {
  const char *name = "v06_ctf2.map";
  sqlite3 *db;
  char *p, others[8192], tiles_before[128];
  if (!have_map(env, name)) return;
  p = strdup(fresh_copy(env, name));
  db = db_open();
  if (!db || !p) {
    free(p);
    return;
  }
  snprintf(others, sizeof others, "%s",
           query_text(db, fmt("SELECT group_concat(points, ';') FROM tw_envelopes('%s') WHERE env != 0", p)));
  snprintf(tiles_before, sizeof tiles_before, "%s",
           query_text(db, fmt("SELECT count(*) || ':' || sum(id + 256 * flags) FROM tw_tiles('%s')", p)));
  exec_ok(db, fmt("UPDATE tw_groups SET name = 'Edited', offset_x = -32, parallax_y = 50, clipping = 1, clip_w = 320, "
                  "clip_h = 240 WHERE source = '%s' AND grp = 1", p));
  exec_ok(db, fmt("UPDATE tw_layers SET name = 'Renamed', color_r = 10, color_a = 128, detail = 1, image = NULL "
                  "WHERE source = '%s' AND layer_index = 8", p));
  exec_ok(db, fmt("UPDATE tw_quads SET points = '[[0,0],[32768,0],[0,32768],[32768,32768],[16384,16384]]', "
                  "colors = '[[255,0,0,255],[0,255,0,255],[0,0,255,255],[1,2,3,4]]', pos_env = 1 "
                  "WHERE source = '%s' AND layer_index = 1 AND quad = 0", p));
  exec_ok(db, fmt("UPDATE tw_envelopes SET name = 'pulse', synchronized = 1, points = "
                  "'[{\"time\":0,\"curve\":0,\"values\":[1024,0,0,1024]},{\"time\":500,\"curve\":1,\"values\":[0,"
                  "1024,0,1024]},{\"time\":1000,\"curve\":4,\"values\":[0,0,1024,1024]},{\"time\":1500,\"curve\":1,"
                  "\"values\":[1024,1024,1024,0]}]' WHERE source = '%s' AND env = 0", p));
  exec_ok(db, fmt("UPDATE tw_images SET name = 'grass_main_renamed' WHERE source = '%s' AND image = 0", p));
  exec_ok(db, fmt("UPDATE tw_maps SET settings = '[\"sv_test 1\",\"tune gravity 0.3\",\"quote \\\" here\"]', "
                  "author = 'Author', credits = 'Crédits ✓', map_version = '1.2' WHERE source = '%s'", p));
  sqlite3_close(db);

  db = db_open();
  if (!db) {
    free(p);
    return;
  }
  CHECK(strcmp(query_text(db, fmt("SELECT name || ',' || offset_x || ',' || parallax_y || ',' || clipping || ',' || "
                                  "clip_w || ',' || clip_h || ',' || version FROM tw_groups('%s') WHERE grp = 1", p)),
               "Edited,-32,50,1,320,240,3") == 0, "group edit reads back: %s",
        query_text(db, fmt("SELECT name || ',' || offset_x || ',' || parallax_y || ',' || clipping || ',' || clip_w "
                           "|| ',' || clip_h || ',' || version FROM tw_groups('%s') WHERE grp = 1", p)));
  CHECK(strcmp(query_text(db, fmt("SELECT name || ',' || color_r || ',' || color_a || ',' || detail || ',' || "
                                  "coalesce(image, 'none') FROM tw_layers('%s') WHERE layer_index = 8", p)),
               "Renamed,10,128,1,none") == 0, "layer edit reads back: %s",
        query_text(db, fmt("SELECT name || ',' || color_r || ',' || color_a || ',' || detail || ',' || "
                           "coalesce(image, 'none') FROM tw_layers('%s') WHERE layer_index = 8", p)));
  CHECK(strcmp(query_text(db, fmt("SELECT points || colors || pos_env FROM tw_quads('%s') WHERE layer_index = 1 AND "
                                  "quad = 0", p)),
               "[[0,0],[32768,0],[0,32768],[32768,32768],[16384,16384]][[255,0,0,255],[0,255,0,255],[0,0,255,255],[1,"
               "2,3,4]]1") == 0, "quad edit reads back");
  CHECK(strcmp(query_text(db, fmt("SELECT name || ',' || synchronized || ',' || num_points || ',' || "
                                  "json_extract(points, '$[2].curve') || ',' || json_extract(points, '$[3].values[3]') "
                                  "FROM tw_envelopes('%s') WHERE env = 0", p)),
               "pulse,1,4,4,0") == 0, "envelope edit reads back: %s",
        query_text(db, fmt("SELECT name || ',' || synchronized || ',' || num_points || ',' || points FROM "
                           "tw_envelopes('%s') WHERE env = 0", p)));
  CHECK(strcmp(query_text(db, fmt("SELECT group_concat(points, ';') FROM tw_envelopes('%s') WHERE env != 0", p)),
               others) == 0, "the other envelopes keep their points (start points moved)");
  CHECK(strcmp(query_text(db, fmt("SELECT name FROM tw_images('%s') WHERE image = 0", p)), "grass_main_renamed") == 0,
        "image name reads back");
  CHECK(strcmp(query_text(db, fmt("SELECT settings || author || credits || map_version FROM tw_maps('%s')", p)),
               "[\"sv_test 1\",\"tune gravity 0.3\",\"quote \\\" here\"]AuthorCrédits ✓1.2") == 0,
        "settings and info read back: %s", query_text(db, fmt("SELECT settings FROM tw_maps('%s')", p)));
  CHECK(strcmp(query_text(db, fmt("SELECT count(*) || ':' || sum(id + 256 * flags) FROM tw_tiles('%s')", p)),
               tiles_before) == 0, "tiles untouched by the other edits");
  if (env->tools)
    CHECK(ddnet_run(env->tools_dir, "map_resave", p, "edited.map", NULL) == 0,
          "map_resave reads the edited map");
  unlink(fmt("%s/tools/edited.map", env->dir));
  sqlite3_close(db);
  free(p);
}

/* Truncated and byte-flipped maps: errors, never a crash. */
static void test_corrupt(const tw_env *env) {
  const char *names[] = {"v06_dm1.map", "ddnet_coverage.map", "v07_lms1.map"};
  static const char *const queries[] = {
    "SELECT * FROM tw_maps('%s')", "SELECT * FROM tw_groups('%s')", "SELECT * FROM tw_layers('%s')",
    "SELECT sum(id), sum(flags), sum(number), sum(angle) FROM tw_tiles('%s')", "SELECT * FROM tw_quads('%s')",
    "SELECT * FROM tw_images('%s')", "SELECT * FROM tw_envelopes('%s')", "SELECT * FROM tw_sounds('%s')"};
  sqlite3 *db = db_open();
  size_t k, i, q;
  if (!db) return;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    size_t n = 0;
    unsigned char *b;
    int truncated_ok = 1, flips_survived = 1;
    if (!have_map(env, names[k])) continue;
    b = file_read_all(fmt("%s/%s", env->corpus, names[k]), &n);
    if (!b) continue;
    for (i = 1; i < 8; i++) {
      char *p = fmt("%s/bad/trunc_%zu_%s", env->dir, i, names[k]);
      file_write_all(p, b, n * i / 8);
      if (query_int(db, fmt("SELECT ok = 0 AND error IS NOT NULL AND format = 'tw' FROM levelsql_files('%s')", p)) !=
              1 ||
          run_all(db, fmt("SELECT * FROM tw_maps('%s')", p)) != SQLITE_ERROR)
        truncated_ok = 0;
    }
    CHECK(truncated_ok, "%s: truncated copies are errors in levelsql_files and tw_maps", names[k]);
    for (i = 0; i < 24; i++) {
      size_t pos = i < 12 ? (i * 97u) % (n < 800 ? n : 800) : (i * 7919u) % n;
      char *p = strdup(fmt("%s/bad/flip_%zu_%s", env->dir, i, names[k]));
      b[pos] ^= 0x5A;
      if (p && file_write_all(p, b, n)) {
        for (q = 0; q < sizeof queries / sizeof queries[0]; q++) {
          int rc = run_all(db, fmt(queries[q], p));
          if (rc != SQLITE_DONE && rc != SQLITE_ERROR) flips_survived = 0;
        }
        /* writing a flipped map that parses must not crash either */
        run_all(db, fmt("UPDATE tw_maps SET author = 'x' WHERE source = '%s'", p));
      }
      b[pos] ^= 0x5A;
      free(p);
    }
    CHECK(flips_survived, "%s: flipped copies give rows or errors", names[k]);
    free(b);
  }
  sqlite3_close(db);
}

/* The first column of the first row of sql (with ?1 bound to the blob
** bind[0..bind_n) when bind is given) as a malloc'd copy in *out (NULL for
** NULL); returns the step's code (SQLITE_ROW when a row came). */
static int query_blob(sqlite3 *db, const char *sql, const void *bind, size_t bind_n, unsigned char **out, size_t *n) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  *out = NULL;
  *n = 0;
  if (rc != SQLITE_OK) return rc;
  if (bind) sqlite3_bind_blob64(st, 1, bind, bind_n, SQLITE_TRANSIENT);
  rc = sqlite3_step(st);
  if (rc == SQLITE_ROW && sqlite3_column_blob(st, 0)) {
    *n = (size_t)sqlite3_column_bytes(st, 0);
    if ((*out = malloc(*n ? *n : 1)) != NULL) memcpy(*out, sqlite3_column_blob(st, 0), *n);
  }
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) rc = rc == SQLITE_ROW ? SQLITE_ROW : SQLITE_DONE;
  else printf("%s: %s\n", sql, sqlite3_errmsg(db));
  sqlite3_finalize(st);
  return rc;
}

/* Whether two PNGs decode to the same RGBA pixels (and size). */
static int same_pixels(const unsigned char *a, size_t an, const unsigned char *b, size_t bn) {
  canvas x, y;
  codec_error e;
  int same = 0;
  if (!canvas_png_decode(a, an, &x, &e)) {
    printf("decode: %s\n", e.msg);
    return 0;
  }
  if (canvas_png_decode(b, bn, &y, &e)) {
    same = x.w == y.w && x.h == y.h && memcmp(x.px, y.px, (size_t)x.w * (size_t)x.h * 4) == 0;
    canvas_free(&y);
  } else {
    printf("decode: %s\n", e.msg);
  }
  canvas_free(&x);
  return same;
}

/* tw_images.png against DDNet's map_extract: every embedded image of every
** corpus map decodes to exactly the RGBA pixels of the PNG map_extract
** writes for it (NAME.png in its output folder). */
static void test_png_extract(const tw_env *env) {
  sqlite3 *db;
  size_t i;
  check_loop images = {0, 0, 0};
  if (env->peers_elsewhere) return; /* said once, in env_setup */
  if (access(DDNET_TOOLS "/map_extract", X_OK) != 0 || !env->tools) {
    SKIP("map_extract not installed: tw_images.png against map_extract");
    return;
  }
  if (!(db = db_open())) return;
  check_loop_enter(&images);
  for (i = 0; i < env->n; i++) {
    const char *name = env->names[i];
    char *out = strdup(fmt("%s/extract_%zu", env->tools_dir, i)), *map = strdup(map_path(env, name));
    int n_images, k;
    if (!out || !map) break;
    mkdir(out, 0755);
    CHECK(ddnet_run(env->tools_dir, "map_extract", fmt("%s/%s", env->corpus, name), fmt("extract_%zu", i), NULL) == 0,
          "map_extract %s", name);
    n_images = (int)query_int(db, fmt("SELECT count(*) FROM tw_images('%s')", map));
    for (k = 0; k < n_images; k++) {
      unsigned char *png = NULL, *ref;
      size_t n = 0, rn = 0;
      const char *img = query_text(db, fmt("SELECT name FROM tw_images('%s') WHERE image = %d AND external = 0", map, k));
      if (!*img) continue;
      images.inputs++;
      CHECK(query_blob(db, fmt("SELECT png FROM tw_images('%s') WHERE image = %d", map, k), NULL, 0, &png, &n) == SQLITE_ROW &&
                png, "%s image %d: png", name, k);
      ref = file_read_all(fmt("%s/%s.png", out, img), &rn);
      CHECK(ref != NULL, "%s image %d: map_extract wrote %s.png", name, k, img);
      if (png && ref) CHECK(same_pixels(png, n, ref, rn), "%s image %d (%s): pixels = map_extract's", name, k, img);
      if (ref) unlink(fmt("%s/%s.png", out, img));
      free(png);
      free(ref);
    }
    CHECK(system(fmt("rm -rf '%s'", out)) == 0, "remove %s", out);
    free(out);
    free(map);
  }
  check_loop_done(&images, "every embedded image of the corpus: tw_images.png has map_extract's pixels");
  sqlite3_close(db);
}

/* Pixel and sound writes on every corpus map: the first embedded image
** made external, the first external one embedded from another image's
** PNG, every sound renamed and given its bytes again.  The edits read back
** in a new connection; map_resave reads the result and re-saves exactly
** tw_resave's bytes, which are the file's own for maps DDNet writes. */
static void test_blob_writes(const tw_env *env) {
  size_t i;
  check_loop maps = {0, 0, 0};
  check_loop_enter(&maps);
  for (i = 0; i < env->n; i++) {
    const char *name = env->names[i];
    char *copy = strdup(fresh_copy(env, name));
    sqlite3 *db = db_open();
    unsigned char *png = NULL, *again = NULL, *sound = NULL;
    size_t n = 0, an = 0, sn = 0;
    sqlite3_int64 dropped, embedded;
    if (!copy || !db) break;
    maps.inputs++;
    dropped = query_int(db, fmt("SELECT coalesce(min(image), -1) FROM tw_images('%s') WHERE external = 0", copy));
    embedded = query_int(db, fmt("SELECT coalesce(min(image), -1) FROM tw_images('%s') WHERE external = 1", copy));
    if (dropped >= 0)
      query_blob(db, fmt("SELECT png FROM tw_images('%s') WHERE image = %lld", copy, (long long)dropped), NULL, 0, &png, &n);
    query_blob(db, fmt("SELECT data FROM tw_sounds('%s') WHERE sound = 0", copy), NULL, 0, &sound, &sn);
    exec_ok(db, "BEGIN");
    if (dropped >= 0) exec_ok(db, fmt("UPDATE tw_images SET external = 1 WHERE source = '%s' AND image = %lld", copy, (long long)dropped));
    if (png && embedded >= 0) {
      unsigned char *none = NULL;
      size_t nn = 0;
      CHECK(query_blob(db, fmt("UPDATE tw_images SET png = ?1 WHERE source = '%s' AND image = %lld", copy, (long long)embedded),
                       png, n, &none, &nn) == SQLITE_DONE, "%s: embed image %lld", name, (long long)embedded);
    }
    if (sound) {
      unsigned char *none = NULL;
      size_t nn = 0;
      CHECK(query_blob(db, fmt("UPDATE tw_sounds SET name = name || '_2', data = ?1 WHERE source = '%s'", copy), sound, sn,
                       &none, &nn) == SQLITE_DONE, "%s: sound writes", name);
    }
    exec_ok(db, "COMMIT");
    sqlite3_close(db);
    db = db_open();
    if (!db) break;
    if (dropped >= 0)
      CHECK(query_int(db, fmt("SELECT external = 1 AND png IS NULL AND data_size IS NULL FROM tw_images('%s') WHERE image = %lld",
                              copy, (long long)dropped)) == 1, "%s: image %lld external, no pixels", name, (long long)dropped);
    if (png && embedded >= 0) {
      CHECK(query_blob(db, fmt("SELECT png FROM tw_images('%s') WHERE image = %lld AND external = 0", copy, (long long)embedded),
                       NULL, 0, &again, &an) == SQLITE_ROW && again && same_pixels(png, n, again, an),
            "%s: image %lld embedded with the PNG's pixels", name, (long long)embedded);
    }
    if (sound)
      CHECK(query_int(db, fmt("SELECT count(*) FROM tw_sounds('%s') WHERE name LIKE '%%_2' AND data_size = %zu", copy, sn)) >= 1,
            "%s: sound renamed, data kept", name);
    if (env->tools) {
      char *ref = strdup(fmt("%s/tools/blobs_%s", env->dir, name));
      CHECK(ref && ddnet_run(env->tools_dir, "map_resave", copy, fmt("blobs_%s", name), NULL) == 0, "%s: map_resave reads it",
            name);
      CHECK(ref && resave_equals(db, copy, ref), "%s: map_resave re-saves tw_resave's bytes", name);
      if (strncmp(name, "ddnet_", 6) == 0) CHECK(ref && same_bytes(copy, ref), "%s: map_resave re-saves it byte-identically", name);
      if (ref) unlink(ref);
      free(ref);
    }
    free(png);
    free(again);
    free(sound);
    free(copy);
    sqlite3_close(db);
  }
  check_loop_done(&maps, "every corpus map: images externalised and embedded, sounds rewritten; map_resave agrees");
}

/* The maps `make samples` writes (tools/gen_tw_samples, in
** $LEVELSQL_SAMPLES), which need no corpus: with DDNet's tools, each is
** byte for byte what map_resave writes; dm_sample.map is read, edited and
** rewritten, and with the tools its no-op rewrite equals map_resave's and
** the edit reads there. */
static void test_generated(const tw_env *env) {
  static const char *const maps[] = {"dm_sample.map",      "ddrace_sample.map", "unfinished.map",
                                     "ddnet_features.map", "v07_sample.map",    "legacy.map"};
  const char *samples = getenv("LEVELSQL_SAMPLES");
  char *p;
  size_t i;
  sqlite3 *db;
  if (!samples) {
    SKIP("LEVELSQL_SAMPLES unset: the generated-map tests");
    return;
  }
  for (i = 0; i < sizeof maps / sizeof maps[0]; i++) {
    char *copy = strdup(fmt("%s/bad/%s", env->dir, maps[i])); /* not in maps/: that holds the corpus */
    REQUIRE(copy && copy_file(fmt("%s/%s", samples, maps[i]), copy), "sample map %s/%s", samples, maps[i]);
    if (copy && env->tools) {
      char ref[64];
      snprintf(ref, sizeof ref, "ref_%s", maps[i]);
      CHECK(ddnet_run(env->tools_dir, "map_resave", copy, ref, NULL) == 0 &&
                same_bytes(copy, fmt("%s/tools/%s", env->dir, ref)),
            "%s is written as map_resave writes it", maps[i]);
    }
    free(copy);
  }
  p = strdup(fmt("%s/bad/dm_sample.map", env->dir));
  db = db_open();
  if (db && p) {
    /* (what the map holds: test/sql/samples.sql) */
    for (i = 0; i < sizeof maps / sizeof maps[0]; i++) {
      char *q = strdup(fmt("%s/bad/%s", env->dir, maps[i]));
      if (!q) break;
      exec_ok(db, fmt("UPDATE tw_maps SET author = author WHERE source = '%s' AND options = 'rewrite=1'", q));
      CHECK(same_bytes(q, fmt("%s/%s", samples, maps[i])), "generated map %s: no-op rewrite is byte-identical", maps[i]);
      if (env->tools)
        CHECK(resave_equals(db, q, fmt("%s/tools/ref_%s", env->dir, maps[i])), "generated map %s: tw_resave = map_resave",
              maps[i]);
      free(q);
    }
    exec_ok(db, fmt("UPDATE tw_tiles SET id = 3 WHERE source = '%s' AND kind = 'game' AND id = 2", p));
    exec_ok(db, fmt("UPDATE tw_layers SET color_g = 128 WHERE source = '%s' AND name = 'Ground'", p));
    sqlite3_close(db);
    db = db_open();
    CHECK(db && query_int(db, fmt("SELECT count(*) FROM tw_tiles('%s') WHERE kind = 'game' AND id = 3", p)) == 22 &&
              query_int(db, fmt("SELECT color_g FROM tw_layers('%s') WHERE name = 'Ground'", p)) == 128,
          "generated map: edits read back");
    if (env->tools)
      CHECK(ddnet_run(env->tools_dir, "map_resave", p, "generated_edited.map", NULL) == 0, "map_resave reads the edited map");
  }
  if (db) sqlite3_close(db);
  free(p);
}

/* Makes the temporary folders (maps/, tools/ with DDNet's storage.cfg,
** bad/) and lists the corpus maps; returns 0 when the corpus is absent
** (the corpus tests are then skipped). */
static int env_setup(tw_env *env) {
  const char *corpus = check_corpus_dir();
  size_t i;
  int found;
  memset(env, 0, sizeof *env);
  snprintf(env->dir, sizeof env->dir, "/tmp/levelsql-tw-XXXXXX");
  if (!mkdtemp(env->dir)) {
    CHECK(0, "mkdtemp");
    env->dir[0] = 0;
    return 0;
  }
  mkdir(fmt("%s/maps", env->dir), 0755);
  mkdir(fmt("%s/tools", env->dir), 0755);
  mkdir(fmt("%s/bad", env->dir), 0755);
  env->tools = access(DDNET_TOOLS "/map_resave", X_OK) == 0 && access(DDNET_TOOLS "/map_diff", X_OK) == 0;
  snprintf(env->tools_dir, sizeof env->tools_dir, "%s/tools", env->dir);
  env->tools = env->tools && ddnet_write_storage_cfg(env->tools_dir);
  /* test/run.sh sets LEVELSQL_PEER_CHECKS=0 for the newer SQLite's pass:
  ** what DDNet's tools are compared with, the bytes the codec writes and
  ** decodes, does not depend on SQLite's version, and the system SQLite's
  ** pass makes every comparison (15 of this test's 23 s) */
  env->peers_elsewhere = getenv("LEVELSQL_PEER_CHECKS") && strcmp(getenv("LEVELSQL_PEER_CHECKS"), "0") == 0;
  if (env->peers_elsewhere) {
    env->tools = 0;
    SKIP("LEVELSQL_PEER_CHECKS=0: the comparisons with DDNet's map_resave, map_diff and map_extract are made in another pass");
  } else if (!env->tools) {
    SKIP("DDNet's map_resave/map_diff not installed in %s: no comparisons with them", DDNET_TOOLS);
  }
  if (!corpus) {
    SKIP("LEVELSQL_CORPUS unset: the Teeworlds corpus tests");
    return 0;
  }
  found = ddnet_corpus_maps(corpus, env->corpus, sizeof env->corpus, env->names, 64);
  if (found < 0) {
    SKIP("%s missing: the Teeworlds corpus tests", env->corpus);
    return 0;
  }
  env->n = (size_t)found;
  for (i = 0; i < env->n; i++)
    REQUIRE(copy_file(fmt("%s/%s", env->corpus, env->names[i]), map_path(env, env->names[i])), "copy");
  REQUIRE(env->n > 0, "corpus maps found in %s", env->corpus);
  return env->n > 0;
}

/* The generated-map test always; the corpus tests when the corpus is there. */
int main(void) {
  tw_env env;
  size_t i;
  int corpus = env_setup(&env);
  if (env.dir[0]) test_generated(&env);
  if (corpus) {
    test_load(&env);
    test_noop_resave(&env);
    test_png_extract(&env);
    test_blob_writes(&env);
    test_tile_diff(&env);
    test_edits(&env);
    test_corrupt(&env);
  }
  if (env.dir[0]) {
    if (check_failed == 0) {
      char cmd[400];
      snprintf(cmd, sizeof cmd, "rm -rf '%s'", env.dir);
      if (system(cmd) != 0) printf("note: could not remove %s\n", env.dir);
    } else {
      printf("files kept in %s\n", env.dir);
    }
  }
  for (i = 0; i < env.n; i++) free(env.names[i]);
  return check_done();
}
