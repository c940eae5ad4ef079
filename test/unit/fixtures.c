/*
** fixtures.c: writes the files the SQL tests of test/sql/ read beside the
** samples, the ones only C can make: levels written with the codecs'
** writers or byte by byte, damaged copies, a folder tree with links and
** hidden files.  test/run.sh runs it once and copies its folder into each
** SQL test's folder as fixtures/.
**
**   build/tests/fixtures SAMPLES OUT [CORPUS]
**
** SAMPLES is the folder `make samples` writes; CORPUS (../shared/corpus,
** optional) gives the fixtures derived from corpus files.  It writes:
**   OUT/engine/    WWD levels of wwd_fixture.h (test/sql/engine.sql)
**   OUT/sources/   a folder tree for the source argument (sources.sql)
**   OUT/wed/       the constructed area of wed_sample.h
**   OUT/wz4/       the constructed project of wz4_sample.h (built.wz4) and
**                  a copy with op 1 of page 1 made a tree op (tree.wz4)
**   OUT/corpus/    with CORPUS: v06_dm1.map with a damaged layer
** Exits 1 (saying what) when a file cannot be written.
*/
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tw/datafile.h"
#include "fileutil.h"
#include "tw/twmap.h"
#include "wed_sample.h"
#include "wz4/wz4.h"
#include "wwd_fixture.h"
#include "wz4_sample.h"

static const char *out_dir;
static int failures;

/* OUT/rel in one of four rotating buffers. */
static const char *at(const char *rel) {
  static char buf[4][4096];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", out_dir, rel);
  return buf[k];
}

/* Counts and reports a step that failed. */
static void need(int ok, const char *what) {
  if (!ok) {
    printf("fixtures: cannot write %s: %s\n", what, strerror(errno));
    failures++;
  }
}

static void make_dir(const char *rel) {
  need(mkdir(at(rel), 0755) == 0 || errno == EEXIST, rel);
}

/* Copies the first n bytes of a file (all of it when n is 0). */
static int copy_file(const char *from, const char *to, size_t n) {
  size_t size = 0;
  unsigned char *b = file_read_all(from, &size);
  int ok = b && file_write_all(to, b, n && n < size ? n : size);
  free(b);
  return ok;
}

/* Copies the map at `from` to `to` with the data of its tiles layer `layer`
** (-1: the first tiles layer) replaced by 5 bytes: the map parses, reading
** that layer's cells fails. */
static int write_damaged_layer_map(const char *from, const char *to, long layer) {
  size_t n = 0, on = 0, l;
  unsigned char *b = file_read_all(from, &n), *o = NULL;
  tw_map *m = NULL;
  codec_error e;
  long di = -1;
  int ok = 0;
  if (b && tw_map_parse(b, n, &m, &e)) {
    if (layer >= 0) di = tw_layer_data_index(m, (size_t)layer);
    for (l = 0; layer < 0 && l < m->num_layers && di < 0; l++)
      if (m->layers[l].kind == TW_KIND_TILES) di = tw_layer_data_index(m, l);
    ok = di >= 0 && df_data_set(m->df, (size_t)di, (const unsigned char *)"short", 5) &&
         tw_map_serialize(m, 0, &o, &on, &e) && file_write_all(to, o, on);
  }
  tw_map_free(m);
  free(o);
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

/* engine/: levels of wwd_fixture.h (objects, compressed), one folder or
** file per check of test/sql/engine.sql. */
static void engine(void) {
  static const struct {
    const char *path;
    int objects, compressed;
  } levels[] = {
    {"engine/v.wwd", 2, 0},        {"engine/i.wwd", 10, 0},        {"engine/j.wwd", 0, 1},
    {"engine/n.wwd", 4, 0},        {"engine/cache/1.wwd", 3, 0},   {"engine/cache/2.wwd", 3, 1},
    {"engine/cache/3.wwd", 3, 0},  {"engine/cache-3-changed.wwd", 5, 0},
    {"engine/bad/good.wwd", 2, 0},
  };
  size_t i;
  make_dir("engine");
  make_dir("engine/cache");
  make_dir("engine/bad");
  for (i = 0; i < sizeof levels / sizeof levels[0]; i++)
    need(write_level(at(levels[i].path), levels[i].objects, levels[i].compressed), levels[i].path);
  /* a truncated level and a file that is no level */
  need(copy_file(at("engine/bad/good.wwd"), at("engine/bad/short.wwd"), 1600), "engine/bad/short.wwd");
  need(file_write_all(at("engine/bad/notes.txt"), (const unsigned char *)"hello", 5), "engine/bad/notes.txt");
}

/* sources/: the tree of test/sql/sources.sql (levels are WWD samples unless
** said otherwise):
**   maps/A1.WWD maps/b2.wwd maps/notes.txt maps/.hidden.WWD
**   maps/sub.WWD/              (a folder named like a level)
**   maps/.secret/f6.WWD        (a hidden folder)
**   maps/Hard/e5.wwd maps/novice/C3.Wwd maps/novice/deep/d4.WWD
**   maps/novice/loop -> ..     (a link up the tree)
**   odd/weird[1].WWD odd/brace{x}.WWD odd/<U+1F600>.WWD
**   mixed/good1.WWD mixed/good2.wwd mixed/cut.WWD (truncated) mixed/junk.WWD
**   tw/good.map tw/damaged.map (a layer's data cut) tw/old.map (pre-0.4) */
static void sources(const char *samples) {
  static const struct {
    const char *sample, *path;
  } levels[] = {
    {"SAMPLE01", "maps/A1.WWD"},        {"SAMPLE02", "maps/b2.wwd"},          {"SAMPLE03", "maps/novice/C3.Wwd"},
    {"SAMPLE04", "maps/novice/deep/d4.WWD"}, {"SAMPLE05", "maps/Hard/e5.wwd"}, {"SAMPLE05", "maps/.hidden.WWD"},
    {"SAMPLE05", "maps/.secret/f6.WWD"}, {"SAMPLE01", "odd/weird[1].WWD"},    {"SAMPLE02", "odd/brace{x}.WWD"},
    {"SAMPLE03", "odd/\xF0\x9F\x98\x80.WWD"}, {"SAMPLE04", "mixed/good1.WWD"}, {"SAMPLE05", "mixed/good2.wwd"},
  };
  static const char *const dirs[] = {"sources", "sources/maps", "sources/maps/sub.WWD", "sources/maps/.secret",
                                     "sources/maps/Hard", "sources/maps/novice", "sources/maps/novice/deep",
                                     "sources/odd", "sources/mixed", "sources/tw"};
  char from[1024], to[1024];
  size_t i, n = 0;
  for (i = 0; i < sizeof dirs / sizeof dirs[0]; i++) make_dir(dirs[i]);
  for (i = 0; i < sizeof levels / sizeof levels[0]; i++) {
    snprintf(from, sizeof from, "%s/%s.WWD", samples, levels[i].sample);
    snprintf(to, sizeof to, "sources/%s", levels[i].path);
    need(copy_file(from, at(to), 0), to);
  }
  snprintf(from, sizeof from, "%s/dm_sample.map", samples);
  need(copy_file(from, at("sources/tw/good.map"), 0), "sources/tw/good.map");
  need(file_write_all(at("sources/maps/notes.txt"), (const unsigned char *)"notes\n", 6), "sources/maps/notes.txt");
  need(symlink("..", at("sources/maps/novice/loop")) == 0, "sources/maps/novice/loop");
  snprintf(from, sizeof from, "%s/SAMPLE01.WWD", samples);
  free(file_read_all(from, &n));
  need(n > 3 && copy_file(from, at("sources/mixed/cut.WWD"), n / 3), "sources/mixed/cut.WWD");
  need(file_write_all(at("sources/mixed/junk.WWD"), (const unsigned char *)"not a level at all", 18), "sources/mixed/junk.WWD");
  need(write_damaged_layer_map(at("sources/tw/good.map"), at("sources/tw/damaged.map"), -1), "sources/tw/damaged.map");
  need(write_pre04_map(at("sources/tw/old.map")), "sources/tw/old.map");
}

/* Copies the wz4 project at `from` to `to` with page 1 stacking only its
** first op, so that op 1 of page 1 is a tree op, written by the codec. */
static int write_tree_op_project(const char *from, const char *to) {
  size_t size = 0, out_size = 0;
  unsigned char *data = file_read_all(from, &size), *out = NULL;
  wz4_doc *doc = NULL;
  codec_error err;
  int ok = 0;
  if (data && wz4_parse(data, size, &doc, &err) && doc->num_pages > 1) {
    doc->pages[1].num_stack = 1;
    ok = wz4_serialize(doc, &out, &out_size, &err) && file_write_all(to, out, out_size);
  }
  wz4_free(doc);
  free(out);
  free(data);
  return ok;
}

/* wed/ and wz4/: the constructed files. */
static void constructed(void) {
  make_dir("wed");
  need(wed_write_constructed(at("wed/AR9999.WED")), "wed/AR9999.WED");
  make_dir("wz4");
  need(wz4_write_project(at("wz4/built.wz4")), "wz4/built.wz4");
  need(write_tree_op_project(at("wz4/built.wz4"), at("wz4/tree.wz4")), "wz4/tree.wz4");
}

/* corpus/: v06_dm1.map with its tiles layer 8 cut to 5 bytes. */
static void from_corpus(const char *corpus) {
  char from[1024];
  snprintf(from, sizeof from, "%s/tw/v06_dm1.map", corpus);
  if (access(from, R_OK) != 0) return;
  make_dir("corpus");
  need(write_damaged_layer_map(from, at("corpus/damaged_layer.map"), 8), "corpus/damaged_layer.map");
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    printf("usage: %s SAMPLES OUT [CORPUS]\n", argv[0]);
    return 2;
  }
  out_dir = argv[2];
  need(mkdir(out_dir, 0755) == 0 || errno == EEXIST, out_dir);
  engine();
  sources(argv[1]);
  constructed();
  if (argc == 4) from_corpus(argv[3]);
  printf("fixtures: %s written%s\n", out_dir, failures ? " with errors" : "");
  return failures != 0;
}
