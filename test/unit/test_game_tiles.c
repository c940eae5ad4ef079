/*
** test_game_tiles.c: an area's tiles read from a game (issue 26 parts 2
** and 3; README "The game as a source"), through the loaded extension, on
** games written by test/unit/game_writer.h from the generated samples:
** AR0100 (a PVRZ tileset, its pages A010000..02.PVRZ) and AR0200 (a
** palette tileset), with their WEDs.
**  - every archive variant (BIFF V1, BIF V1.0, BIFC V1.0, the resources
**    spread over archives of each kind): tis_tiles through chitin.key
**    gives the loose tilesets' rows, png and x, y included, and
**    wed_render(tiles=1) of chitin.key:AR0x00.WED is the loose render
**    byte for byte; the tilesets option takes a game;
**  - the game finds its resources as the game does: a tileset of the
**    override folder takes its pages from the archives, a page of the
**    override folder wins over the archive's, a WED appearing in the
**    override folder gives the positions;
**  - errors: a missing page or tileset names the page and the game, an
**    archive cut short names the archive and the resource, the decoded
**    limit; a page that appears later is found by the same connection.
*/
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game_writer.h"
#include "sqltest.h"

/* The samples a game is built from, in this order. */
enum { WED100, TIS100, PAGE0, PAGE1, PAGE2, WED200, TIS200, NSAMPLES };

static const struct {
  const char *resref;
  uint16_t type;
  const char *file;
} sample_names[NSAMPLES] = {
  {"AR0100", KEY_TYPE_WED, "AR0100.WED"},    {"AR0100", KEY_TYPE_TIS, "AR0100.TIS"},
  {"A010000", KEY_TYPE_PVRZ, "A010000.PVRZ"}, {"A010001", KEY_TYPE_PVRZ, "A010001.PVRZ"},
  {"A010002", KEY_TYPE_PVRZ, "A010002.PVRZ"}, {"AR0200", KEY_TYPE_WED, "AR0200.WED"},
  {"AR0200", KEY_TYPE_TIS, "AR0200.TIS"},
};

typedef struct samples {
  const char *dir; /* the loose files */
  unsigned char *data[NSAMPLES];
  size_t size[NSAMPLES];
} samples;

static int samples_load(samples *s) {
  int i, ok = 1;
  s->dir = getenv("LEVELSQL_SAMPLES") ? getenv("LEVELSQL_SAMPLES") : "build/samples";
  for (i = 0; i < NSAMPLES; i++) {
    s->data[i] = file_read_all(fmt("%s/%s", s->dir, sample_names[i].file), &s->size[i]);
    REQUIRE(s->data[i] != NULL, "sample %s/%s", s->dir, sample_names[i].file);
    ok = ok && s->data[i];
  }
  return ok;
}

/* Writes a game at dir holding the samples whose bit is set in `which`,
** per_archive to an archive, the archives' containers in turn. */
static int game_write(const char *dir, const samples *s, unsigned which, size_t per_archive, const int *containers,
                      size_t ncontainers) {
  gw_entry e[NSAMPLES];
  gw_layout layout = {per_archive, containers, ncontainers, 2048};
  size_t n = 0;
  int i;
  for (i = 0; i < NSAMPLES; i++) {
    if (!(which & (1u << i))) continue;
    memset(&e[n], 0, sizeof e[n]);
    snprintf(e[n].resref, sizeof e[n].resref, "%s", sample_names[i].resref);
    e[n].type = sample_names[i].type;
    e[n].data = s->data[i];
    e[n].size = s->size[i];
    n++;
  }
  return gw_game_write(dir, e, n, &layout);
}

#define ALL_SAMPLES ((1u << NSAMPLES) - 1)

/* How many rows of tis_tiles(a) have a row of tis_tiles(b) with the same
** tile, x, y, page reference and png; -1 when the counts of rows differ. */
static long same_tiles(sqlite3 *db, const char *a, const char *b) {
  long na = (long)query_int(db, fmt("SELECT count(*) FROM tis_tiles('%s')", a));
  long nb = (long)query_int(db, fmt("SELECT count(*) FROM tis_tiles('%s')", b));
  if (na != nb) return -1;
  return (long)query_int(db, fmt("SELECT count(*) FROM tis_tiles('%s') AS g JOIN tis_tiles('%s') AS l USING (tile) "
                                 "WHERE g.x IS l.x AND g.y IS l.y AND g.page IS l.page AND g.page_x IS l.page_x AND "
                                 "g.page_y IS l.page_y AND g.png = l.png",
                                 a, b));
}

/* Whether two wed_render calls give the same bytes (both must succeed). */
static int same_render(sqlite3 *db, const char *wed_a, const char *wed_b, const char *options) {
  return query_int(db, fmt("SELECT wed_render('%s', '%s') = wed_render('%s', '%s')", wed_a, options, wed_b, options)) ==
         1;
}

/* ---- the cases ------------------------------------------------------------------ */

static void test_variants(sqlite3 *db, const char *tmp, const samples *s) {
  static const int biff[] = {BIFF_CONTAINER_BIFF}, bif[] = {BIFF_CONTAINER_BIF}, bifc[] = {BIFF_CONTAINER_BIFC},
                   mixed[] = {BIFF_CONTAINER_BIFC, BIFF_CONTAINER_BIFF, BIFF_CONTAINER_BIF};
  static const struct {
    const char *name;
    const int *containers;
    size_t ncontainers, per_archive;
  } variants[] = {
    {"biff", biff, 1, 0}, {"bif", bif, 1, 0}, {"bifc", bifc, 1, 0}, {"mixed", mixed, 3, 2},
  };
  size_t v;
  for (v = 0; v < sizeof variants / sizeof variants[0]; v++) {
    char game[4096], key[4096];
    snprintf(game, sizeof game, "%s/%s", tmp, variants[v].name);
    snprintf(key, sizeof key, "%.4000s/chitin.key", game);
    if (!game_write(game, s, ALL_SAMPLES, variants[v].per_archive, variants[v].containers,
                    variants[v].ncontainers)) {
      REQUIRE(0, "game %s", game);
      continue;
    }
    CHECK(same_tiles(db, fmt("%s:AR0100.TIS", key), fmt("%s/AR0100.TIS", s->dir)) == 618,
          "%s: tis_tiles of chitin.key:AR0100.TIS (PVRZ) = the loose tileset's 618 rows, png and x, y included",
          variants[v].name);
    CHECK(same_tiles(db, fmt("%s:AR0200.TIS", key), fmt("%s/AR0200.TIS", s->dir)) == 314,
          "%s: tis_tiles of chitin.key:AR0200.TIS (palette) = the loose tileset's 314 rows", variants[v].name);
    CHECK(query_int(db, fmt("SELECT count(*) = 932 AND count(x) = 932 AND count(png) = 932 FROM tis_tiles('%s')",
                            game)) == 1,
          "%s: the game folder as the source: every tile placed and drawn", variants[v].name);
    /* the renders find their tileset and pages through the same lookup in
    ** every variant, whose bytes the tis_tiles checks above compare: one
    ** variant, the one with every kind of archive, suffices for them */
    if (variants[v].ncontainers < 3) continue;
    CHECK(same_render(db, fmt("%s:AR0100.WED", key), fmt("%s/AR0100.WED", s->dir), "tiles=1"),
          "%s: wed_render(chitin.key:AR0100.WED, tiles=1) = the loose render, byte for byte", variants[v].name);
    CHECK(same_render(db, fmt("%s:AR0200.WED", key), fmt("%s/AR0200.WED", s->dir), "tiles=1, door_tiles=open, walls=1"),
          "%s: wed_render(chitin.key:AR0200.WED, tiles=1, door_tiles=open, walls=1) = the loose render",
          variants[v].name);
  }
  {
    char game[4096];
    snprintf(game, sizeof game, "%s/biff", tmp);
    CHECK(query_int(db, fmt("SELECT wed_render('%s/AR0100.WED', 'tiles=1, tilesets=%s') = wed_render('%s/AR0100.WED', "
                            "'tiles=1')", s->dir, game, s->dir)) == 1,
          "tilesets= a game's folder: the tileset and its pages from the game");
    CHECK(query_int(db, fmt("SELECT wed_render('%s/AR0100.WED', 'tiles=1, tilesets=%s/chitin.key') = "
                            "wed_render('%s/AR0100.WED', 'tiles=1')", s->dir, game, s->dir)) == 1,
          "tilesets= a game's chitin.key");
  }
}

/* Copies sample i into dir under `name`. */
static int put_sample(const samples *s, int i, const char *dir, const char *name) {
  mkdir(dir, 0777);
  return file_write_all(fmt("%s/%s", dir, name), s->data[i], s->size[i]);
}

static void test_override(sqlite3 *db, const char *tmp, const samples *s) {
  static const int biff[] = {BIFF_CONTAINER_BIFF};
  char game[4096], over[4096], key[4096];
  snprintf(game, sizeof game, "%s/over", tmp);
  snprintf(over, sizeof over, "%.4000s/override", game);
  snprintf(key, sizeof key, "%.4000s/chitin.key", game);
  /* the tileset in the override folder, its pages in the archives */
  REQUIRE(game_write(game, s, ALL_SAMPLES & ~(1u << TIS100), 0, biff, 1) && put_sample(s, TIS100, over, "ar0100.tis"),
          "game with override/ar0100.tis");
  CHECK(same_tiles(db, fmt("%s/ar0100.tis", over), fmt("%s/AR0100.TIS", s->dir)) == 618,
        "a tileset of the override folder takes its pages and its WED from the game's archives");
  CHECK(query_int(db, fmt("SELECT count(png) = 618 AND count(x) = 618 FROM tis_tiles('%s') WHERE file GLOB '*override*'",
                          game)) == 1,
        "listed from the game: the override file, its tiles drawn and placed");
  CHECK(same_render(db, fmt("%s:AR0100.WED", key), fmt("%s/AR0100.WED", s->dir), "tiles=1"),
        "wed_render of the archive's WED finds the override's tileset");
  /* a page of the override folder wins over the archive's: page 0 is page 1's bytes */
  REQUIRE(put_sample(s, PAGE1, over, "A010000.PVRZ"), "override/A010000.PVRZ");
  CHECK(query_int(db, fmt("SELECT (SELECT png FROM tis_tiles('%s:AR0100.TIS') WHERE tile = 1) = (SELECT png FROM "
                          "tis_tiles('%s/AR0100.TIS') WHERE tile = 257)", key, s->dir)) == 1,
        "the override's page 0 (page 1's bytes) is used: tile 1 shows what tile 257 shows on page 1");
  CHECK(query_int(db, fmt("SELECT (SELECT png FROM tis_tiles('%s:AR0100.TIS') WHERE tile = 1) <> (SELECT png FROM "
                          "tis_tiles('%s/AR0100.TIS') WHERE tile = 1)", key, s->dir)) == 1,
        "and it differs from the archive's page 0");
  REQUIRE(unlink(fmt("%s/A010000.PVRZ", over)) == 0, "unlink");
  CHECK(same_tiles(db, fmt("%s:AR0100.TIS", key), fmt("%s/AR0100.TIS", s->dir)) == 618,
        "the override's page removed: the archive's again (the same connection)");
}

static void test_appearing(sqlite3 *db, const char *tmp, const samples *s) {
  static const int bifc[] = {BIFF_CONTAINER_BIFC};
  char game[4096], key[4096];
  snprintf(game, sizeof game, "%s/appear", tmp);
  snprintf(key, sizeof key, "%.4000s/chitin.key", game);
  /* no WED, no page 2 */
  REQUIRE(game_write(game, s, ALL_SAMPLES & ~(1u << WED100) & ~(1u << PAGE2), 0, bifc, 1), "game");
  CHECK(query_int(db, fmt("SELECT count(*) = 618 AND count(x) = 0 FROM tis_tiles('%s:AR0100.TIS')", key)) == 1,
        "no AR0100.WED in the game: x and y NULL");
  exec_err(db, fmt("SELECT png FROM tis_tiles('%s:AR0100.TIS') WHERE tile = 612", key),
           fmt("%s:AR0100.TIS: tile 612: page 2: A010002.PVRZ not found in %s (its override folder, then its archives)",
               key, key),
           NULL);
  exec_err(db, fmt("SELECT wed_render('%s/AR0100.WED', 'tiles=1, tilesets=%s')", s->dir, game),
           "A010002.PVRZ not found in", key);
  REQUIRE(put_sample(s, WED100, fmt("%s/override", game), "AR0100.WED") &&
              put_sample(s, PAGE2, fmt("%s/override", game), "A010002.PVRZ"),
          "the WED and page 2 in override/");
  CHECK(same_tiles(db, fmt("%s:AR0100.TIS", key), fmt("%s/AR0100.TIS", s->dir)) == 618,
        "the WED and the page put into the override folder are found by the same connection");
  /* a tileset the game lacks */
  REQUIRE(game_write(game, s, (1u << WED200), 0, bifc, 1), "game without tilesets");
  exec_err(db, fmt("SELECT wed_render('%s:AR0200.WED', 'tiles=1')", key),
           fmt("wed_render: %s:AR0200.WED: tiles=1: no AR0200.TIS in %s (its override folder, then its archives)", key,
               key),
           NULL);
}

static void test_bad_archive(sqlite3 *db, const char *tmp, const samples *s) {
  static const int biff[] = {BIFF_CONTAINER_BIFF};
  char game[4096], key[4096], arch[4096];
  size_t n = 0;
  unsigned char *data;
  snprintf(game, sizeof game, "%s/bad", tmp);
  snprintf(key, sizeof key, "%.4000s/chitin.key", game);
  snprintf(arch, sizeof arch, "%.4000s/data/GAME0001.bif", game);
  /* archives of two: 0 the WED and the TIS, 1 pages 0 and 1 (cut in half: page 1 past its end), 2 page 2 and
  ** AR0200.WED, 3 AR0200.TIS */
  REQUIRE(game_write(game, s, ALL_SAMPLES, 2, biff, 1), "game");
  data = file_read_all(arch, &n);
  REQUIRE(data && n > 4096 && file_write_all(arch, data, n / 2), "cut %s", arch);
  free(data);
  exec_err(db, fmt("SELECT png FROM tis_tiles('%s:AR0100.TIS') WHERE tile = 256", key),
           fmt("%s:AR0100.TIS: tile 256: page 1: %s:A010001.PVRZ: archive ", key, key),
           "GAME0001.bif: resource A010001.PVRZ: BIFF file entry 1");
  exec_err(db, fmt("SELECT wed_render('%s:AR0100.WED', 'tiles=1')", key), "GAME0001.bif", "A010001.PVRZ");
  CHECK(query_int(db, fmt("SELECT length(png) > 100 FROM tis_tiles('%s:AR0100.TIS') WHERE tile = 1", key)) == 1,
        "a page whose bytes lie before the cut still reads");
  CHECK(query_int(db, fmt("SELECT length(png) > 100 FROM tis_tiles('%s:AR0100.TIS') WHERE tile = 612", key)) == 1,
        "a page of an intact archive still reads");
  /* the decoded limit: a page is refused before it is read or inflated */
  exec_ok(db, "SELECT levelsql_limit('decoded', 20000)");
  exec_err(db, fmt("SELECT png FROM tis_tiles('%s:AR0100.TIS') WHERE tile = 612", key), "A010002.PVRZ",
           "levelsql_limit('decoded'");
  exec_ok(db, fmt("SELECT levelsql_limit('decoded', %lld)", (long long)1 << 30));
}

int main(void) {
  char tmp[] = "/tmp/levelsql-game-tiles-XXXXXX";
  sqlite3 *db = db_open();
  samples s;
  int i;
  memset(&s, 0, sizeof s);
  REQUIRE(db != NULL, "the extension");
  if (!db || !samples_load(&s) || !mkdtemp(tmp)) {
    for (i = 0; i < NSAMPLES; i++) free(s.data[i]);
    return check_done();
  }
  test_variants(db, tmp, &s);
  test_override(db, tmp, &s);
  test_appearing(db, tmp, &s);
  test_bad_archive(db, tmp, &s);
  sqlite3_close(db);
  for (i = 0; i < NSAMPLES; i++) free(s.data[i]);
  if (system(fmt("rm -rf '%s'", tmp)) != 0) printf("note: could not remove %s\n", tmp);
  return check_done();
}
