/*
** test_sources.c: the source argument and on_error through the loaded
** extension, on a folder tree made in a temporary folder: `**` at several
** depths, names in any case and nocase=0, {a,b} groups, the error for a
** missing folder, JSON arrays of sources (malformed ones too), hidden
** files, on_error=skip over damaged levels, and levelsql_files.ok meaning
** "every table of the format can read the file" (a map with a damaged
** layer, a pre-0.4 Teeworlds map, and every corpus map when the corpus is
** there).  Levels come from the project's own generators
** (build/tools/gen_wwd_samples, gen_tw_samples); damaged copies are made
** with the codecs.
*/
#include <errno.h>
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "datafile.h"
#include "fileutil.h"
#include "sqltest.h"
#include "twmap.h"

static char root[64];

/* ---- the tree ---------------------------------------------------------------- */

static int copy_to(const char *from, const char *to) {
  size_t n = 0;
  unsigned char *b = file_read_all(from, &n);
  int ok = b && file_write_all(to, b, n);
  free(b);
  return ok;
}

/* Writes a Teeworlds 0.3 map ("pre-0.4"): no version item, spawn points as
** type 1 (the type of today's info item; y = 1184 would be read as the
** author's data index), a pickup as type 2, an image 0x8001, a tilemap
** 0x8002 and the collision map 0x8003, as the 0.3 editor laid them out. */
static int write_pre04_map(const char *path) {
  datafile *df = df_new();
  unsigned char tiles[8 * 8 * 4], pixels[4 * 4 * 4];
  int32_t spawn[2] = {64, 1184}, pickup[3] = {96, 1184, 0x00020001}, image[3] = {4, 4, 0};
  int32_t tilemap[8] = {0, 8, 8, 0, 0, 1, 1, 0}, collision[3] = {8, 8, 2};
  unsigned char *out = NULL;
  size_t size = 0;
  codec_error err;
  int ok;
  if (!df) return 0;
  memset(tiles, 1, sizeof tiles);
  memset(pixels, 200, sizeof pixels);
  df_data_add(df, pixels, sizeof pixels);
  df_data_add(df, tiles, sizeof tiles);
  df_data_add(df, tiles, 8 * 8);
  df_item_add(df, 1, 0, spawn, 2);
  df_item_add(df, 2, 0, pickup, 3);
  df_item_add(df, 0x8001, 0, image, 3);
  df_item_add(df, 0x8002, 0, tilemap, 8);
  df_item_add(df, 0x8003, 0, collision, 3);
  ok = df_write(df, 0, &out, &size, &err) && file_write_all(path, out, size);
  free(out);
  df_free(df);
  return ok;
}

/* Copies the map at `from` to `to` with the data of its first tiles layer
** replaced by 5 bytes: the map parses, reading that layer's cells fails. */
static int write_damaged_layer_map(const char *from, const char *to) {
  size_t n = 0, on = 0, l;
  unsigned char *b = file_read_all(from, &n), *o = NULL;
  tw_map *m = NULL;
  codec_error e;
  long di = -1;
  int ok = 0;
  if (b && tw_map_parse(b, n, &m, &e)) {
    for (l = 0; l < m->num_layers && di < 0; l++)
      if (m->layers[l].kind == TW_KIND_TILES) di = tw_layer_data_index(m, l);
    ok = di >= 0 && df_data_set(m->df, (size_t)di, (const unsigned char *)"short", 5) &&
         tw_map_serialize(m, 0, &o, &on, &e) && file_write_all(to, o, on);
  }
  tw_map_free(m);
  free(o);
  free(b);
  return ok;
}

static void make_dir(const char *rel) {
  CHECK(mkdir(fmt("%s/%s", root, rel), 0755) == 0, "mkdir %s: %s", rel, strerror(errno));
}

/* The tree, below root (levels are WWD samples unless said otherwise):
**   maps/A1.WWD maps/b2.wwd maps/notes.txt maps/.hidden.WWD
**   maps/sub.WWD/              (a folder named like a level)
**   maps/.secret/f6.WWD        (a hidden folder)
**   maps/Hard/e5.wwd maps/novice/C3.Wwd maps/novice/deep/d4.WWD
**   maps/novice/loop -> ..     (a link up the tree)
**   odd/weird[1].WWD odd/brace{x}.WWD odd/<U+1F600>.WWD
**   mixed/good1.WWD mixed/good2.wwd mixed/cut.WWD (truncated) mixed/junk.WWD
**   tw/good.map tw/damaged.map (a layer's data cut) tw/old.map (pre-0.4)
** Returns 0 when the generators are missing. */
static int build_tree(void) {
  const char *gen = tool_path("gen_wwd_samples"), *gen_tw = tool_path("gen_tw_samples");
  static const struct {
    const char *sample, *path;
  } levels[] = {
    {"SAMPLE01", "maps/A1.WWD"},        {"SAMPLE02", "maps/b2.wwd"},          {"SAMPLE03", "maps/novice/C3.Wwd"},
    {"SAMPLE04", "maps/novice/deep/d4.WWD"}, {"SAMPLE05", "maps/Hard/e5.wwd"}, {"SAMPLE05", "maps/.hidden.WWD"},
    {"SAMPLE05", "maps/.secret/f6.WWD"}, {"SAMPLE01", "odd/weird[1].WWD"},    {"SAMPLE02", "odd/brace{x}.WWD"},
    {"SAMPLE03", "odd/\xF0\x9F\x98\x80.WWD"}, {"SAMPLE04", "mixed/good1.WWD"}, {"SAMPLE05", "mixed/good2.wwd"},
  };
  static const char *const dirs[] = {"gen", "maps", "maps/sub.WWD", "maps/.secret", "maps/Hard", "maps/novice",
                                     "maps/novice/deep", "odd", "mixed", "tw"};
  size_t i, n = 0;
  unsigned char *cut;
  if (access(gen, X_OK) != 0 || access(gen_tw, X_OK) != 0) {
    SKIP("%s or %s not built: the source tests", gen, gen_tw);
    return 0;
  }
  for (i = 0; i < sizeof dirs / sizeof dirs[0]; i++) make_dir(dirs[i]);
  CHECK(system(fmt("'%s' '%s/gen' >/dev/null", gen, root)) == 0, "gen_wwd_samples");
  CHECK(system(fmt("'%s' '%s/gen' >/dev/null", gen_tw, root)) == 0, "gen_tw_samples");
  CHECK(copy_to(fmt("%s/gen/dm_sample.map", root), fmt("%s/tw/good.map", root)), "copy tw/good.map");
  for (i = 0; i < sizeof levels / sizeof levels[0]; i++)
    CHECK(copy_to(fmt("%s/gen/%s.WWD", root, levels[i].sample), fmt("%s/%s", root, levels[i].path)), "copy %s",
          levels[i].path);
  CHECK(file_write_all(fmt("%s/maps/notes.txt", root), (const unsigned char *)"notes\n", 6), "notes.txt");
  CHECK(symlink("..", fmt("%s/maps/novice/loop", root)) == 0, "symlink");
  cut = file_read_all(fmt("%s/gen/SAMPLE01.WWD", root), &n);
  CHECK(cut && file_write_all(fmt("%s/mixed/cut.WWD", root), cut, n / 3), "truncated level");
  free(cut);
  CHECK(file_write_all(fmt("%s/mixed/junk.WWD", root), (const unsigned char *)"not a level at all", 18), "junk");
  CHECK(write_damaged_layer_map(fmt("%s/tw/good.map", root), fmt("%s/tw/damaged.map", root)), "damaged map");
  CHECK(write_pre04_map(fmt("%s/tw/old.map", root)), "pre-0.4 map");
  return chdir(root) == 0;
}

/* ---- checks ---------------------------------------------------------------- */

/* The files a source gives, in scan order, joined with '|' (or the error). */
static const char *files_of(sqlite3 *db, const char *source, const char *options) {
  char *sql = sqlite3_mprintf("SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files(%Q, %Q))", source,
                              options);
  const char *got = query_text(db, sql);
  sqlite3_free(sql);
  return got;
}

/* CHECKs that the source gives exactly `want` ('|'-joined, in order). */
#define EXPECT_FILES(db, source, options, want)                                                              \
  do {                                                                                                       \
    const char *got_ = files_of(db, source, options);                                                        \
    CHECK(strcmp(got_, want) == 0, "source %s (%s): got [%s], want [%s]", source, options ? options : "-", got_, \
          want);                                                                                             \
  } while (0)

/* `**` matches zero or more folders, at the start, the middle or the end,
** never through hidden folders or links up the tree. */
static void test_globstar(sqlite3 *db) {
  EXPECT_FILES(db, "maps/**/*.wwd", NULL,
               "maps/A1.WWD|maps/Hard/e5.wwd|maps/b2.wwd|maps/novice/C3.Wwd|maps/novice/deep/d4.WWD");
  EXPECT_FILES(db, "maps/novice/**/*.WWD", NULL, "maps/novice/C3.Wwd|maps/novice/deep/d4.WWD");
  EXPECT_FILES(db, "**/d4.wwd", NULL, "maps/novice/deep/d4.WWD");
  EXPECT_FILES(db, "maps/**/deep/*.wwd", NULL, "maps/novice/deep/d4.WWD");
  EXPECT_FILES(db, "maps/**", NULL,
               "maps/A1.WWD|maps/Hard/e5.wwd|maps/b2.wwd|maps/notes.txt|maps/novice/C3.Wwd|maps/novice/deep/d4.WWD");
  EXPECT_FILES(db, "maps/**/**/*.wwd", NULL,
               "maps/A1.WWD|maps/Hard/e5.wwd|maps/b2.wwd|maps/novice/C3.Wwd|maps/novice/deep/d4.WWD");
  CHECK(query_int(db, "SELECT count(*) FROM wwd_levels('maps/**/*.wwd')") == 5, "wwd_levels over ** reads 5 levels");
  /* a link is followed where a segment names it, not by ** */
  EXPECT_FILES(db, "maps/novice/loop/*.wwd", NULL, "maps/novice/loop/A1.WWD|maps/novice/loop/b2.wwd");
}

/* Names match in any case by default, in the folders too; nocase=0 is
** exact; brackets fold case as well. */
static void test_case(sqlite3 *db) {
  EXPECT_FILES(db, "maps/*.wwd", NULL, "maps/A1.WWD|maps/b2.wwd");
  EXPECT_FILES(db, "maps/*.wwd", "nocase=0", "maps/b2.wwd");
  EXPECT_FILES(db, "maps/*.WWD", "nocase=0", "maps/A1.WWD");
  EXPECT_FILES(db, "MAPS/NOVICE/*.WWD", NULL, "maps/novice/C3.Wwd");
  EXPECT_FILES(db, "maps/[a-b]?.wwd", NULL, "maps/A1.WWD|maps/b2.wwd");
  EXPECT_FILES(db, "maps/[!a]?.wwd", NULL, "maps/b2.wwd");
  EXPECT_FILES(db, "maps/**/*.wwd", "nocase=0", "maps/Hard/e5.wwd|maps/b2.wwd");
  exec_err(db, "SELECT * FROM levelsql_files('MAPS/*.WWD', 'nocase=0')", "MAPS: no such folder", NULL);
  exec_err(db, "SELECT * FROM levelsql_files('maps/*', 'nocase=yes')", "option nocase takes 1", "not 'yes'");
  /* a named table keeps the option */
  exec_ok(db, "CREATE VIRTUAL TABLE temp.exact USING wwd_levels('maps/**/*.wwd', nocase=0)");
  CHECK(query_int(db, "SELECT count(*) FROM temp.exact") == 2, "named table with nocase=0");
  exec_ok(db, "DROP TABLE temp.exact");
}

/* {a,b} groups, nested, repeated; braces without a group are literal. */
static void test_braces(sqlite3 *db) {
  EXPECT_FILES(db, "maps/{novice,hard}/*.wwd", NULL, "maps/Hard/e5.wwd|maps/novice/C3.Wwd");
  EXPECT_FILES(db, "maps/{A1,b2,a1}.wwd", NULL, "maps/A1.WWD|maps/b2.wwd");
  EXPECT_FILES(db, "maps/{novice/{deep/,},}*.wwd", NULL,
               "maps/A1.WWD|maps/b2.wwd|maps/novice/C3.Wwd|maps/novice/deep/d4.WWD");
  EXPECT_FILES(db, "odd/brace{x}.WWD", NULL, "odd/brace{x}.WWD");
  EXPECT_FILES(db, "odd/brace{*", NULL, "odd/brace{x}.WWD");
  EXPECT_FILES(db, "maps/*{A1.WWD", NULL, "");
  exec_err(db, "SELECT * FROM levelsql_files('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')",
           "more than 1024 patterns", NULL);
}

/* A folder part that does not exist is an error naming it; no match in an
** existing folder is an empty table; a real file with pattern characters in
** its name is still that file. */
static void test_missing_folder(sqlite3 *db) {
  exec_err(db, "SELECT * FROM wwd_levels('mapz/*.wwd')", "mapz: no such folder", "'mapz/*.wwd'");
  exec_err(db, "SELECT * FROM wwd_levels('maps/novise/*.wwd')", "maps/novise: no such folder", NULL);
  exec_err(db, "SELECT * FROM wwd_levels('maps/novise/**/*.wwd')", "maps/novise: no such folder", NULL);
  exec_err(db, "SELECT * FROM wwd_levels('{maps,mapz}/*.wwd')", "mapz: no such folder", NULL);
  exec_err(db, fmt("SELECT * FROM wwd_levels('%s/nowhere/*.wwd')", root), fmt("%s/nowhere: no such folder", root), NULL);
  CHECK(query_int(db, "SELECT count(*) FROM wwd_levels('maps/*.xyz')") == 0, "no match in an existing folder: empty");
  CHECK(query_int(db, "SELECT count(*) FROM wwd_levels('maps/*/nothing*.wwd')") == 0, "no match below a pattern: empty");
  EXPECT_FILES(db, "odd/weird[1].WWD", NULL, "odd/weird[1].WWD");
  EXPECT_FILES(db, "maps/*", NULL, "maps/A1.WWD|maps/b2.wwd|maps/notes.txt");
}

/* Files and folders starting with a dot are matched only by a segment
** starting with a dot, like a shell. */
static void test_hidden(sqlite3 *db) {
  EXPECT_FILES(db, "maps/.*.wwd", NULL, "maps/.hidden.WWD");
  EXPECT_FILES(db, "maps/.secret/*.wwd", NULL, "maps/.secret/f6.WWD");
  EXPECT_FILES(db, "maps/?hidden.wwd", NULL, "");
}

/* JSON arrays of paths and patterns: merged, sorted, without repeats;
** escapes decoded; malformed arrays are errors that say so. */
static void test_json(sqlite3 *db) {
  EXPECT_FILES(db, "[\"maps/A1.WWD\", \"maps/novice/**/*.wwd\"]", NULL,
               "maps/A1.WWD|maps/novice/C3.Wwd|maps/novice/deep/d4.WWD");
  EXPECT_FILES(db, "  [ \"maps/*.WWD\" ,\n \"maps/A1.WWD\" ] ", NULL, "maps/A1.WWD|maps/b2.wwd");
  EXPECT_FILES(db, "[\"maps\\/b2.wwd\", \"maps/\\u0048ard/*.wwd\", \"mixed\"]", NULL,
               "maps/Hard/e5.wwd|maps/b2.wwd|mixed/cut.WWD|mixed/good1.WWD|mixed/good2.wwd|mixed/junk.WWD");
  EXPECT_FILES(db, "[\"odd/\\ud83d\\ude00.WWD\"]", NULL, "odd/\xF0\x9F\x98\x80.WWD");
  EXPECT_FILES(db, "[]", NULL, "");
  /* a pattern starting with a bracket is not an array */
  EXPECT_FILES(db, "[m]aps/*.wwd", NULL, "maps/A1.WWD|maps/b2.wwd");
  CHECK(query_int(db, "SELECT count(*) FROM wwd_levels('[\"maps/A1.WWD\", \"maps/Hard\"]')") == 2, "wwd_levels on an array");
  exec_err(db, "SELECT * FROM levelsql_files('[\"maps/A1.WWD\",]')", "not a valid JSON array", "element 2: not a string");
  exec_err(db, "SELECT * FROM levelsql_files('[\"maps/A1.WWD\" \"maps/b2.wwd\"]')", "not a valid JSON array",
           "expected ',' or ']'");
  exec_err(db, "SELECT * FROM levelsql_files('[\"maps/A1.WWD\", 3]')", "byte offset 16", "element 2: not a string");
  exec_err(db, "SELECT * FROM levelsql_files('[\"maps/A1.WWD\"')", "not a valid JSON array", NULL);
  exec_err(db, "SELECT * FROM levelsql_files('[\"maps/A1.WWD\"] x')", "text after the closing", NULL);
  exec_err(db, "SELECT * FROM levelsql_files('[\"\\ud800x\"]')", "not a valid JSON array", "surrogate");
  exec_err(db, "SELECT * FROM levelsql_files('[\"a\\qb\"]')", "not a valid JSON array", "unknown escape");
  exec_err(db, "SELECT * FROM levelsql_files('[\"\"]')", "not a valid JSON array", "empty string");
  exec_err(db, "SELECT * FROM levelsql_files('[\"mapz/*.wwd\"]')", "mapz: no such folder", NULL);
}

/* on_error=skip: tables pass over files they cannot read; levelsql_files
** still lists them with their error. */
static void test_on_error(sqlite3 *db) {
  exec_err(db, "SELECT count(*) FROM wwd_levels('mixed')", "mixed/cut.WWD", NULL);
  CHECK(query_int(db, "SELECT count(*) FROM wwd_levels('mixed', 'on_error=skip')") == 2, "skip: the 2 good levels");
  CHECK(query_int(db, "SELECT count(*) FROM wwd_objects('mixed/*.wwd', 'on_error=skip')") ==
            query_int(db, "SELECT count(*) FROM wwd_objects('mixed/good*.wwd')"),
        "skip: the objects of the good levels");
  CHECK(query_int(db, "SELECT count(*) FROM levelsql_files('mixed', 'on_error=skip')") == 4, "levelsql_files lists all 4");
  CHECK(strcmp(query_text(db, "SELECT group_concat(file || ':' || ok, ' ') FROM levelsql_files('mixed', 'on_error=skip')"),
               "mixed/cut.WWD:0 mixed/good1.WWD:1 mixed/good2.wwd:1 mixed/junk.WWD:0") == 0,
        "levelsql_files ok: %s", query_text(db, "SELECT group_concat(file || ':' || ok, ' ') FROM levelsql_files('mixed')"));
  CHECK(query_int(db, "SELECT count(*) FROM levelsql_files('mixed') WHERE NOT ok AND error LIKE '%byte offset%'") == 2,
        "the errors say where");
  /* a named table with on_error=skip, and a join over it */
  exec_ok(db, "CREATE VIRTUAL TABLE temp.lenient USING wwd_levels('mixed', on_error=skip)");
  CHECK(query_int(db, "SELECT count(*) FROM temp.lenient") == 2, "named table with on_error=skip");
  CHECK(query_int(db, "SELECT count(*) FROM temp.lenient AS l JOIN wwd_planes(l.file) AS p") ==
            query_int(db, "SELECT count(*) FROM wwd_planes('mixed/good*')"),
        "join over the skipping table");
  exec_ok(db, "DROP TABLE temp.lenient");
  exec_err(db, "SELECT * FROM wwd_levels('mixed', 'on_error=ignore')", "option on_error takes fail", "not 'ignore'");
  exec_err(db, "SELECT * FROM wwd_levels('mixed', 'oops=1')", "unknown option 'oops'", "encoding, nocase, on_error");
}

/* levelsql_files.ok = 1 means every table of the format can read the file:
** a map whose layer data is damaged parses but is not ok (tw_tiles cannot
** read it); a pre-0.4 map is refused by every table with a clear error. */
static void test_files_ok(sqlite3 *db) {
  static const char *const tw_tables[] = {"tw_maps", "tw_groups", "tw_layers", "tw_tiles",
                                          "tw_quads", "tw_images", "tw_envelopes", "tw_sounds"};
  size_t i;
  CHECK(strcmp(query_text(db, "SELECT group_concat(file || ':' || ok, ' ') FROM levelsql_files('tw')"),
               "tw/damaged.map:0 tw/good.map:1 tw/old.map:0") == 0,
        "tw ok: %s", query_text(db, "SELECT group_concat(file || ':' || ok, ' ') FROM levelsql_files('tw')"));
  CHECK(strstr(query_text(db, "SELECT error FROM levelsql_files('tw/damaged.map')"), "layer") != NULL,
        "the damaged map's error names the layer: %s", query_text(db, "SELECT error FROM levelsql_files('tw/damaged.map')"));
  CHECK(strstr(query_text(db, "SELECT error FROM levelsql_files('tw/old.map')"), "pre-0.4 Teeworlds map") != NULL,
        "the pre-0.4 map is named as such: %s", query_text(db, "SELECT error FROM levelsql_files('tw/old.map')"));
  for (i = 0; i < sizeof tw_tables / sizeof tw_tables[0]; i++) {
    exec_err(db, fmt("SELECT * FROM %s('tw/old.map')", tw_tables[i]), "tw/old.map: map: a pre-0.4 Teeworlds map", NULL);
    /* what levelsql_files calls ok, every table reads */
    exec_ok(db, fmt("SELECT * FROM %s('tw/good.map')", tw_tables[i]));
  }
  /* the damaged map: its metadata still reads by default; its cells fail;
  ** on_error=skip passes over it (and over the pre-0.4 map) */
  CHECK(query_int(db, "SELECT count(*) FROM tw_maps('tw/damaged.map')") == 1, "tw_maps reads the damaged map");
  exec_err(db, "SELECT sum(id) FROM tw_tiles('tw/damaged.map')", "tw/damaged.map", "layer");
  CHECK(query_int(db, "SELECT count(*) FROM tw_tiles('tw', 'on_error=skip')") ==
            query_int(db, "SELECT count(*) FROM tw_tiles('tw/good.map')"),
        "on_error=skip: only the good map's cells");
  CHECK(query_int(db, "SELECT count(*) FROM tw_maps('tw', 'on_error=skip')") == 1, "on_error=skip: one map");
}

/* Every corpus file levelsql_files calls ok reads through every table of
** its format (a pre-0.4 map, were there one, would be refused: no corpus
** map may be mistaken for one). */
static void test_corpus_ok(sqlite3 *db) {
  static const struct {
    const char *dir;
    const char *tables[8];
  } families[] = {
    {"wwd", {"wwd_levels", "wwd_planes", "wwd_objects", "wwd_tiles", "wwd_tile_properties"}},
    {"tw", {"tw_maps", "tw_groups", "tw_layers", "tw_tiles", "tw_quads", "tw_images", "tw_envelopes", "tw_sounds"}},
    {"wed", {"wed_overlays", "wed_doors", "wed_polygons", "wed_tiles", "wed_wallgroups"}},
    {"wz4", {"wz4_pages", "wz4_operators", "wz4_links"}},
  };
  const char *corpus = check_corpus_dir();
  size_t f, t;
  if (!corpus) {
    SKIP("levelsql_files.ok against every table on the corpus: ../shared/corpus is absent");
    return;
  }
  /* room for every corpus model, so each file is parsed and checked once */
  query_int(db, "SELECT levelsql_cache_limit(2000000000)");
  for (f = 0; f < sizeof families / sizeof families[0]; f++) {
    char *ok_files = sqlite3_mprintf(
        "%s", query_text(db, fmt("SELECT json_group_array(file) FROM levelsql_files('%s/%s') WHERE ok", corpus,
                                 families[f].dir)));
    CHECK(ok_files && strlen(ok_files) > 2, "%s: corpus files that are ok: %s", families[f].dir, ok_files ? ok_files : "");
    for (t = 0; ok_files && t < 8 && families[f].tables[t]; t++) {
      /* the ok files, as a JSON array source, through the table, every
      ** column (of the first row of cells of each layer: tiles decode per
      ** layer, and 25 M map cells would take long) */
      const char *table = families[f].tables[t];
      char *sql = sqlite3_mprintf("SELECT * FROM %s(%Q)%s", table, ok_files, strstr(table, "_tiles") ? " WHERE y = 0" : "");
      exec_ok(db, sql);
      sqlite3_free(sql);
    }
    sqlite3_free(ok_files);
  }
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s/tw') WHERE error LIKE '%%pre-0.4%%'", corpus)) == 0,
        "no corpus map is taken for a pre-0.4 one");
}

int main(void) {
  sqlite3 *db;
  snprintf(root, sizeof root, "/tmp/levelsql-sources-XXXXXX");
  if (!mkdtemp(root)) {
    CHECK(0, "mkdtemp: %s", strerror(errno));
    return check_done();
  }
  db = db_open();
  CHECK(db != NULL, "the extension loads");
  if (db && build_tree()) {
    test_globstar(db);
    test_case(db);
    test_braces(db);
    test_missing_folder(db);
    test_hidden(db);
    test_json(db);
    test_on_error(db);
    test_files_ok(db);
    test_corpus_ok(db);
  }
  if (db) sqlite3_close(db);
  if (check_failed == 0) {
    if (system(fmt("rm -rf '%s'", root)) != 0) printf("note: could not remove %s\n", root);
  } else {
    printf("files kept in %s\n", root);
  }
  return check_done();
}
