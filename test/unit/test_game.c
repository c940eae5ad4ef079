/*
** test_game.c: an Infinity Engine game as a source (issue 26 part 3; README,
** "The game as a source"), through the loaded extension, on games written
** by test/unit/game_writer.h from a few dozen areas (the corpus's WED files
** when $LEVELSQL_CORPUS is there, else the samples' areas repeated):
**  - every archive variant (BIFF V1, BIF V1.0, BIFC V1.0, mixed, one
**    archive or many) gives every wed_* table the same rows as the loose
**    files the game was built from, and levelsql_files lists them;
**  - a file of the override folder takes precedence (any case), and the
**    override's own resources are listed; other names are not;
**  - a write to a resource in an archive creates it in override/, a second
**    one edits that file, the archives and the key never change
**    (checksums); a failed commit leaves no override file behind;
**  - two connections: a write in one is seen by the other; a write from
**    both to one resource fails the second commit with "changed on disk";
**  - bad archives (a resource past the end of its BIFF, a key naming a
**    missing BIFF, locators out of range) fail with messages naming the
**    archive and the resource; a resource whose own bytes are intact reads
**    although other blocks of its archive are corrupt (only the blocks it
**    needs are inflated).
*/
#include <dirent.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game_writer.h"
#include "sqltest.h"

#define MAX_AREAS 40

typedef struct area {
  char name[24]; /* "AR0000.WED" */
  unsigned char *data;
  size_t size;
} area;

static int compare_strings(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The areas: up to MAX_AREAS of the corpus's WED files (in name order), else
** the samples' two areas, 30 times; named AR0000.WED, ... */
static int load_areas(area *areas) {
  const char *corpus = getenv("LEVELSQL_CORPUS"), *samples = getenv("LEVELSQL_SAMPLES");
  char dir[4096], *names[256];
  int n = 0, k = 0, i;
  DIR *d;
  struct dirent *e;
  snprintf(dir, sizeof dir, "%s/wed", corpus ? corpus : "");
  if (corpus && (d = opendir(dir)) != NULL) {
    while ((e = readdir(d)) != NULL && k < 256) {
      const char *dot = strrchr(e->d_name, '.');
      if (dot && strcasecmp(dot, ".wed") == 0) names[k++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)k, sizeof *names, compare_strings);
    for (i = 0; i < k && n < MAX_AREAS; i++) {
      char path[8192];
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      if ((areas[n].data = file_read_all(path, &areas[n].size)) != NULL) n++;
    }
    for (i = 0; i < k; i++) free(names[i]);
  }
  if (n < 2) {
    for (i = 0; i < 30; i++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/AR0%d00.WED", samples ? samples : "build/samples", 1 + i % 2);
      if ((areas[n].data = file_read_all(path, &areas[n].size)) != NULL) n++;
    }
  }
  for (i = 0; i < n; i++) snprintf(areas[i].name, sizeof areas[i].name, "AR%04d.WED", i);
  return n;
}

/* The game entries of the areas. */
static void entries_of(const area *areas, int n, gw_entry *e) {
  int i;
  for (i = 0; i < n; i++) {
    memset(&e[i], 0, sizeof e[i]);
    memcpy(e[i].resref, areas[i].name, 6);
    e[i].type = KEY_TYPE_WED;
    e[i].data = areas[i].data;
    e[i].size = areas[i].size;
  }
}

static int write_game(const char *dir, const area *areas, int n, size_t per_archive, const int *containers,
                      size_t ncontainers) {
  gw_entry e[MAX_AREAS + 64];
  gw_layout layout = {per_archive, containers, ncontainers, 4096};
  entries_of(areas, n, e);
  return gw_game_write(dir, e, (size_t)n, &layout);
}

/* FNV-1a 64 of a file's bytes (0 when it cannot be read). */
static uint64_t file_sum(const char *path) {
  size_t n = 0, i;
  unsigned char *data = file_read_all(path, &n);
  uint64_t h = 1469598103934665603u;
  if (!data) return 0;
  for (i = 0; i < n; i++) h = (h ^ data[i]) * 1099511628211u;
  free(data);
  return h;
}

/* What a table gives for a source: rows, and a digest of every row with
** `file` cut to the resource's name (after the last ':' or '/'); an error
** text when the query fails. */
typedef struct digest {
  long rows;
  uint64_t hash;
  char error[512];
} digest;

static digest table_digest(sqlite3 *db, const char *table, const char *source) {
  digest dg = {0, 1469598103934665603u, ""};
  sqlite3_stmt *st = NULL;
  int rc, i;
  if (sqlite3_prepare_v2(db, fmt("SELECT * FROM %s('%s')", table, source), -1, &st, NULL) != SQLITE_OK) {
    snprintf(dg.error, sizeof dg.error, "%s", sqlite3_errmsg(db));
    return dg;
  }
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    for (i = 0; i < sqlite3_column_count(st); i++) {
      const unsigned char *p = sqlite3_column_blob(st, i);
      int n = sqlite3_column_bytes(st, i), t = sqlite3_column_type(st, i), k;
      if (i == 0 && p) { /* the file: its resource name */
        const unsigned char *cut = p;
        for (k = 0; k < n; k++) {
          if (p[k] == ':' || p[k] == '/') cut = p + k + 1;
        }
        n -= (int)(cut - p);
        p = cut;
      }
      dg.hash = (dg.hash ^ (uint64_t)t) * 1099511628211u;
      for (k = 0; p && k < n; k++) dg.hash = (dg.hash ^ p[k]) * 1099511628211u;
      dg.hash = (dg.hash ^ 0xff) * 1099511628211u;
    }
    dg.rows++;
  }
  if (rc != SQLITE_DONE) snprintf(dg.error, sizeof dg.error, "%s", sqlite3_errmsg(db));
  sqlite3_finalize(st);
  return dg;
}

/* The wed_* tables. */
static int wed_tables(sqlite3 *db, char names[][64], int max) {
  sqlite3_stmt *st = NULL;
  int n = 0;
  if (sqlite3_prepare_v2(db, "SELECT DISTINCT table_name FROM levelsql_columns WHERE table_name GLOB 'wed_*' ORDER BY 1",
                         -1, &st, NULL) != SQLITE_OK)
    return 0;
  while (n < max && sqlite3_step(st) == SQLITE_ROW) snprintf(names[n++], 64, "%s", sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  return n;
}

/* Every wed_* table reads the same rows from the game at `game` (a key or
** a folder) as from the loose folder. */
static void check_same_rows(sqlite3 *db, const char *game_given, const char *loose_given, const char *what) {
  char tables[32][64], game[4096], loose[4096]; /* (copies: fmt's buffers rotate) */
  int n = wed_tables(db, tables, 32), i, same = 1;
  snprintf(game, sizeof game, "%s", game_given);
  snprintf(loose, sizeof loose, "%s", loose_given);
  REQUIRE(n >= 5, "wed tables: %d", n);
  for (i = 0; i < n; i++) {
    digest a = table_digest(db, tables[i], game), b = table_digest(db, tables[i], loose);
    if (a.error[0] || b.error[0] || a.rows != b.rows || a.hash != b.hash) {
      same = 0;
      printf("  %s %s: game %ld rows %s, loose %ld rows %s\n", what, tables[i], a.rows, a.error, b.rows, b.error);
    }
  }
  CHECK(same, "%s: every wed table gives the game the same rows as the loose files (%d tables)", what, n);
}

/* ---- the cases ------------------------------------------------------------------ */

static void test_variants(sqlite3 *db, const char *tmp, const area *areas, int n) {
  static const int biff[] = {BIFF_CONTAINER_BIFF}, bif[] = {BIFF_CONTAINER_BIF}, bifc[] = {BIFF_CONTAINER_BIFC},
                   mixed[] = {BIFF_CONTAINER_BIFF, BIFF_CONTAINER_BIF, BIFF_CONTAINER_BIFC};
  const struct {
    const char *name;
    const int *containers;
    size_t ncontainers, per_archive;
  } variants[] = {
      {"biff", biff, 1, 0}, {"bif", bif, 1, 0}, {"bifc", bifc, 1, 0}, {"mixed", mixed, 3, 7}, {"one-each", mixed, 3, 1},
  };
  char loose[4096], game[4096];
  size_t v;
  int i;
  snprintf(loose, sizeof loose, "%s/loose", tmp);
  mkdir(loose, 0777);
  for (i = 0; i < n; i++) REQUIRE(file_write_all(fmt("%s/%s", loose, areas[i].name), areas[i].data, areas[i].size), "loose");
  for (v = 0; v < sizeof variants / sizeof variants[0]; v++) {
    snprintf(game, sizeof game, "%s/%s", tmp, variants[v].name);
    if (!write_game(game, areas, n, variants[v].per_archive, variants[v].containers, variants[v].ncontainers)) {
      CHECK(0, "write the game %s", game);
      continue;
    }
    check_same_rows(db, fmt("%s/chitin.key", game), loose, variants[v].name);
    if (v == 3) { /* read on the connection's thread alone, too */
      long threads = (long)query_int(db, "SELECT levelsql_threads()");
      exec_ok(db, "SELECT levelsql_threads(0)");
      check_same_rows(db, fmt("%s/chitin.key", game), loose, "mixed, without parse-ahead threads");
      exec_ok(db, fmt("SELECT levelsql_threads(%ld)", threads));
    }
    CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE ok AND format = 'wed'", game)) == n,
          "%s: levelsql_files lists the game's %d areas, all readable", variants[v].name, n);
    CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') f JOIN levelsql_files('%s') l "
                            "ON substr(f.file, length(f.file) - 9) = substr(l.file, length(l.file) - 9) "
                            "WHERE f.size = l.size",
                            game, loose)) == n,
          "%s: each resource's size is its loose file's", variants[v].name);
  }
  /* a game folder is its key; a resource's path names it alone, in any case */
  snprintf(game, sizeof game, "%s/mixed", tmp);
  CHECK(strcmp(query_text(db, fmt("SELECT group_concat(file) FROM (SELECT file FROM wed_overlays('%s') WHERE overlay = 0 "
                                  "ORDER BY file LIMIT 2)",
                                  game)),
               fmt("%s/chitin.key:AR0000.WED,%s/chitin.key:AR0001.WED", game, game)) == 0,
        "file is <key>:<RESREF.EXT>: %s", query_text(db, fmt("SELECT min(file) FROM wed_overlays('%s')", game)));
  CHECK(query_int(db, fmt("SELECT count(*) FROM wed_overlays('%s/chitin.key:ar0003.wed')", game)) ==
            query_int(db, fmt("SELECT count(*) FROM wed_overlays('%s/AR0003.WED')", loose)),
        "a source naming one resource (in any case) reads it");
  CHECK(strcmp(query_text(db, fmt("SELECT DISTINCT file FROM wed_overlays('%s/chitin.key:ar0003.wed')", game)),
               fmt("%s/chitin.key:ar0003.wed", game)) == 0,
        "its file is spelled as the source spells it");
  /* rowids name rows of a resource, as of a file */
  CHECK(query_int(db, fmt("SELECT count(*) FROM wed_doors('%s') d WHERE d.door = (SELECT e.door FROM wed_doors('%s') e "
                          "WHERE e.rowid = d.rowid)",
                          game, game)) == query_int(db, fmt("SELECT count(*) FROM wed_doors('%s')", game)),
        "rowid = ? finds each row of the game");
  {
    /* levelsql_copy extracts a resource: the same bytes as its loose file */
    size_t size = 0;
    unsigned char *copy;
    exec_ok(db, fmt("SELECT levelsql_copy('%s/chitin.key:AR0005.WED', '%s/extracted.wed')", game, tmp));
    copy = file_read_all(fmt("%s/extracted.wed", tmp), &size);
    CHECK(copy && size == areas[5].size && memcmp(copy, areas[5].data, size) == 0,
          "levelsql_copy of a resource writes its bytes");
    free(copy);
  }
  exec_err(db, fmt("SELECT * FROM wwd_planes('%s')", game), "do not read a game's archives", "wwd");
  exec_err(db, fmt("SELECT * FROM wed_doors('%s/chitin.key:NOSUCH.WED')", game), "lists no resource NOSUCH.WED", NULL);
}

static void test_override(sqlite3 *db, const char *tmp, const area *areas, int n) {
  static const int biff[] = {BIFF_CONTAINER_BIFF};
  char game[4096], over[4096];
  snprintf(game, sizeof game, "%s/over", tmp);
  snprintf(over, sizeof over, "%.4000s/Override", game);
  REQUIRE(write_game(game, areas, n, 10, biff, 1), "game");
  mkdir(over, 0777);
  /* ar0003.wed (another case) holds area 1's bytes; NEWAREA.WED is the override's own; the rest is no area */
  REQUIRE(file_write_all(fmt("%s/ar0003.wed", over), areas[1].data, areas[1].size), "override");
  REQUIRE(file_write_all(fmt("%s/NEWAREA.WED", over), areas[2].data, areas[2].size), "override");
  REQUIRE(file_write_all(fmt("%s/TOOLONGNAME.WED", over), areas[2].data, areas[2].size), "override");
  REQUIRE(file_write_all(fmt("%s/AR0004.ARE", over), areas[2].data, 10), "override");
  /* AR0004.ARE is listed too (the ARE tables read .ARE resources), as a
  ** file that does not parse */
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s')", game)) == n + 2,
        "the game's %d areas, the override's own and its broken ARE: %lld", n,
        (long long)query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s')", game)));
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE file = '%s/AR0004.ARE' AND NOT ok", game, over)) == 1,
        "the override's broken ARE is listed as unreadable");
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE file = '%s/ar0003.wed'", game, over)) == 1 &&
            query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE file LIKE '%%:AR0003.WED'", game)) == 0,
        "an override file takes the archive's place (names in any case)");
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE file = '%s/NEWAREA.WED'", game, over)) == 1,
        "a resource of the override folder alone is listed");
  CHECK(query_int(db, fmt("SELECT count(*) FROM wed_doors('%s') WHERE file = '%s/ar0003.wed'", game, over)) ==
            query_int(db, fmt("SELECT count(*) FROM wed_doors('%s') WHERE file LIKE '%%:AR0001.WED'", game)),
        "the override's bytes are read");
  CHECK(query_int(db, fmt("SELECT count(*) FROM wed_doors('%s/chitin.key:AR0003.WED')", game)) ==
            query_int(db, fmt("SELECT count(*) FROM wed_doors('%s/ar0003.wed')", over)),
        "a resource path names the override file when there is one");
}

/* The checksums of a game's key and archives. */
static uint64_t game_sum(const char *game) {
  uint64_t h = file_sum(fmt("%s/chitin.key", game));
  int k;
  for (k = 0; k < 16; k++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/data/GAME%04d.bif", game, k);
    if (access(path, F_OK) == 0) h = h * 31 + file_sum(path);
  }
  return h;
}

static void test_writes(sqlite3 *db, const char *tmp, const area *areas, int n) {
  static const int mixed[] = {BIFF_CONTAINER_BIFF, BIFF_CONTAINER_BIF, BIFF_CONTAINER_BIFC};
  char game[4096], key[4096];
  uint64_t before;
  int k;
  snprintf(game, sizeof game, "%s/write", tmp);
  snprintf(key, sizeof key, "%.4000s/chitin.key", game);
  REQUIRE(write_game(game, areas, n, 5, mixed, 3), "game");
  before = game_sum(game);
  exec_ok(db, fmt("CREATE VIRTUAL TABLE temp.gover USING wed_overlays('%s')", game));
  /* one resource of each container: archives 0 (BIFF), 1 (BIF), 2 (BIFC) */
  for (k = 0; k < 3; k++) {
    char res[32], path[8192];
    long width;
    snprintf(res, sizeof res, "AR%04d.WED", 5 * k + 1);
    snprintf(path, sizeof path, "%s/override/%s", game, res);
    width = (long)query_int(db, fmt("SELECT width FROM gover WHERE file = '%s:%s' AND overlay = 0", key, res));
    exec_ok(db, fmt("UPDATE gover SET tileset = 'EDITED%d' WHERE file = '%s:%s' AND overlay = 0", k, key, res));
    CHECK(access(path, F_OK) == 0, "a write to %s creates %s", res, path);
    CHECK(strcmp(query_text(db, fmt("SELECT tileset FROM gover WHERE file = '%s' AND overlay = 0", path)),
                 fmt("EDITED%d", k)) == 0 &&
              query_int(db, fmt("SELECT count(*) FROM gover WHERE file LIKE '%%%s'", res)) ==
                  query_int(db, fmt("SELECT count(*) FROM wed_overlays('%s/loose/%s')", tmp, res)),
          "the override file holds the edit, and the area's other rows");
    /* a second edit edits the override copy */
    exec_ok(db, fmt("UPDATE gover SET tileset = 'AGAIN%d' WHERE file = '%s' AND overlay = 0", k, path));
    CHECK(strcmp(query_text(db, fmt("SELECT tileset FROM wed_overlays('%s') WHERE overlay = 0", path)),
                 fmt("AGAIN%d", k)) == 0 &&
              query_int(db, fmt("SELECT width FROM wed_overlays('%s') WHERE overlay = 0", path)) == width,
          "a second write edits the override file");
  }
  CHECK(game_sum(game) == before, "the key and the archives are unchanged (checksums)");
  /* a transaction's write to a resource and a loose file: the loose one changed meanwhile, so the commit fails and
  ** leaves no override file */
  REQUIRE(file_write_all(fmt("%s/LOOSE.WED", tmp), areas[0].data, areas[0].size), "loose");
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE gover SET tileset = 'TXN' WHERE file = '%s:AR0007.WED'", key));
  exec_ok(db, fmt("UPDATE wed_overlays SET tileset = 'TXN' WHERE source = '%s/LOOSE.WED'", tmp));
  REQUIRE(file_write_all(fmt("%s/LOOSE.WED", tmp), areas[1].data, areas[1].size), "changed by someone else");
  exec_err(db, "COMMIT", "changed on disk since it was read", NULL);
  if (!sqlite3_get_autocommit(db)) exec_ok(db, "ROLLBACK");
  CHECK(access(fmt("%s/override/AR0007.WED", game), F_OK) != 0, "a failed commit leaves no override file behind");
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE gover SET tileset = 'GONE' WHERE file = '%s:AR0008.WED'", key));
  exec_ok(db, "ROLLBACK");
  CHECK(access(fmt("%s/override/AR0008.WED", game), F_OK) != 0, "a rolled back write leaves no override file");
  CHECK(game_sum(game) == before, "the key and the archives are still unchanged");
  /* the archives replaced (a patch of the game) after the transaction read a resource: its COMMIT writes nothing */
  exec_ok(db, "BEGIN");
  exec_ok(db, fmt("UPDATE gover SET tileset = 'STALE' WHERE file = '%s:AR0009.WED'", key));
  REQUIRE(write_game(game, areas + 1, n - 1, 5, mixed, 3), "the game patched");
  exec_err(db, "COMMIT", "changed on disk since it was read", "AR0009.WED");
  if (!sqlite3_get_autocommit(db)) exec_ok(db, "ROLLBACK");
  CHECK(access(fmt("%s/override/AR0009.WED", game), F_OK) != 0, "a resource whose archive changed is not written");
  exec_ok(db, "DROP TABLE temp.gover");
}

static void test_two_connections(const char *tmp, const area *areas, int n) {
  static const int bifc[] = {BIFF_CONTAINER_BIFC};
  sqlite3 *a = db_open(), *b = db_open();
  char game[4096], key[4096];
  uint64_t before;
  snprintf(game, sizeof game, "%s/two", tmp);
  snprintf(key, sizeof key, "%.4000s/chitin.key", game);
  REQUIRE(a && b && write_game(game, areas, n, 6, bifc, 1), "connections and the game");
  if (!a || !b) return;
  before = game_sum(game);
  /* read in one, write in the other, read again in the first */
  CHECK(strcmp(query_text(a, fmt("SELECT file FROM wed_overlays('%s') WHERE file LIKE '%%AR0002.WED' AND overlay = 0", game)),
               fmt("%s:AR0002.WED", key)) == 0,
        "a reads the resource from its archive");
  exec_ok(b, fmt("UPDATE wed_overlays SET tileset = 'FROMB' WHERE source = '%s' AND file = '%s:AR0002.WED' AND overlay = 0",
                 game, key));
  CHECK(strcmp(query_text(a, fmt("SELECT file || ' ' || tileset FROM wed_overlays('%s') WHERE file LIKE '%%AR0002.WED' AND "
                                 "overlay = 0",
                                 game)),
               fmt("%s/override/AR0002.WED FROMB", game)) == 0,
        "a sees b's write, from the override file: %s",
        query_text(a, fmt("SELECT file || ' ' || tileset FROM wed_overlays('%s') WHERE file LIKE '%%AR0002.WED' AND overlay = 0",
                          game)));
  /* both write one resource: the second commit finds the override made by the first */
  exec_ok(a, "BEGIN");
  exec_ok(a, fmt("UPDATE wed_overlays SET tileset = 'FROMA' WHERE source = '%s' AND file = '%s:AR0004.WED' AND overlay = 0",
                 game, key));
  exec_ok(b, fmt("UPDATE wed_overlays SET tileset = 'FROMB' WHERE source = '%s' AND file = '%s:AR0004.WED' AND overlay = 0",
                 game, key));
  exec_err(a, "COMMIT", "changed on disk since it was read", "override");
  if (!sqlite3_get_autocommit(a)) exec_ok(a, "ROLLBACK");
  CHECK(strcmp(query_text(a, fmt("SELECT tileset FROM wed_overlays('%s/override/AR0004.WED') WHERE overlay = 0", game)),
               "FROMB") == 0,
        "the first writer's edit stands");
  CHECK(game_sum(game) == before, "the archives are unchanged");
  sqlite3_close(a);
  sqlite3_close(b);
}

/* A game of one BIFF of two resources whose bytes can be damaged, and keys
** that point wrong. */
static void test_bad_archives(sqlite3 *db, const char *tmp, const area *areas) {
  const kw_file files[] = {{0, KEY_TYPE_WED, areas[0].data, areas[0].size}, {1, KEY_TYPE_WED, areas[1].data, areas[1].size}};
  const kw_biff biffs[] = {{"data\\AREA.bif", 0, KEY_LOC_DATA}, {"data\\MISSING.bif", 0, KEY_LOC_DATA}};
  const kw_res res[] = {
      {"GOOD", KEY_TYPE_WED, key_locator_make(0, 0, 0)},   {"CUT", KEY_TYPE_WED, key_locator_make(0, 0, 1)},
      {"GONE", KEY_TYPE_WED, key_locator_make(1, 0, 0)},   {"NOBIFF", KEY_TYPE_WED, key_locator_make(7, 0, 0)},
      {"NOENTRY", KEY_TYPE_WED, key_locator_make(0, 0, 9)},
  };
  char game[4096];
  size_t n = 0, kn = 0;
  unsigned char *biff = kw_biff_build(files, 2, NULL, 0, &n), *key = kw_key_build(biffs, 2, res, 5, &kn);
  snprintf(game, sizeof game, "%s/bad", tmp);
  mkdir(game, 0777);
  mkdir(fmt("%s/data", game), 0777);
  REQUIRE(biff && key && n > 100, "build");
  if (!biff || !key) return;
  /* CUT's bytes run past the end: the archive is cut 100 bytes short */
  REQUIRE(file_write_all(fmt("%s/data/AREA.bif", game), biff, n - 100), "write");
  REQUIRE(file_write_all(fmt("%s/chitin.key", game), key, kn), "write");
  CHECK(query_int(db, fmt("SELECT count(*) FROM wed_overlays('%s/chitin.key:GOOD.WED')", game)) > 0,
        "an intact resource of the archive reads");
  exec_err(db, fmt("SELECT * FROM wed_overlays('%s/chitin.key:CUT.WED')", game), "CUT.WED", "run past the end of the archive");
  exec_err(db, fmt("SELECT * FROM wed_overlays('%s/chitin.key:CUT.WED')", game), "AREA.bif", NULL);
  exec_err(db, fmt("SELECT * FROM wed_overlays('%s/chitin.key:GONE.WED')", game), "GONE.WED", "MISSING.bif, which is missing");
  exec_err(db, fmt("SELECT * FROM wed_overlays('%s/chitin.key:NOBIFF.WED')", game), "NOBIFF.WED",
           "BIFF index 7 names no BIFF entry");
  exec_err(db, fmt("SELECT * FROM wed_overlays('%s/chitin.key:NOENTRY.WED')", game), "NOENTRY.WED",
           "no file entry with file index 9");
  exec_err(db, fmt("SELECT * FROM wed_overlays('%s/chitin.key:NOENTRY.WED')", game), "AREA.bif", NULL);
  exec_err(db, fmt("SELECT count(*) FROM wed_overlays('%s')", game), "chitin.key:", "WED");
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE NOT ok", game)) == 4 &&
            query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE ok", game)) == 1,
        "levelsql_files shows each bad resource with its error");
  CHECK(query_int(db, fmt("SELECT count(DISTINCT file) FROM wed_overlays('%s', 'on_error=skip')", game)) == 1,
        "on_error=skip passes over the bad resources");
  /* a key that is no key */
  REQUIRE(file_write_all(fmt("%s/chitin.key", game), (const unsigned char *)"KEY V2  xxxxxxxxxxxxxxxx", 24), "write");
  exec_err(db, fmt("SELECT * FROM wed_overlays('%s/chitin.key:GOOD.WED')", game), "KEY version", NULL);
  free(biff);
  free(key);
}

/* Only the blocks a resource needs are inflated: with a BIFC whose later
** blocks are corrupt and a BIF V1.0 whose stream is cut after the first
** resources, those read, the others fail naming the block. */
static void test_partial_reads(sqlite3 *db, const char *tmp, const area *areas, int n) {
  static const int bifc[] = {BIFF_CONTAINER_BIFC}, bif[] = {BIFF_CONTAINER_BIF};
  char game[4096], path[4096];
  size_t size = 0;
  unsigned char *data;
  int last = n < 8 ? n - 1 : 7;
  snprintf(game, sizeof game, "%s/partial", tmp);
  REQUIRE(write_game(game, areas, last + 1, 0, bifc, 1), "game");
  snprintf(path, sizeof path, "%.4000s/data/GAME0000.bif", game);
  REQUIRE((data = file_read_all(path, &size)) != NULL && size > 64, "read");
  if (!data) return;
  /* damage the last block's zlib stream (its last bytes hold the Adler-32) */
  data[size - 2] ^= 0x55;
  data[size - 3] ^= 0x55;
  REQUIRE(file_write_all(path, data, size), "write");
  free(data);
  CHECK(query_int(db, fmt("SELECT count(*) FROM wed_overlays('%s/chitin.key:AR0000.WED')", game)) > 0,
        "BIFC: the first resource reads although the last block is corrupt");
  exec_err(db, fmt("SELECT * FROM wed_overlays('%s/chitin.key:AR%04d.WED')", game, last), "BIFC block",
           "zlib");
  snprintf(game, sizeof game, "%s/partial-bif", tmp);
  REQUIRE(write_game(game, areas, last + 1, 0, bif, 1), "game");
  snprintf(path, sizeof path, "%.4000s/data/GAME0000.bif", game);
  REQUIRE((data = file_read_all(path, &size)) != NULL && size > 64, "read");
  if (!data) return;
  data[size - 2] ^= 0x55; /* the stream's Adler-32 */
  REQUIRE(file_write_all(path, data, size), "write");
  free(data);
  CHECK(query_int(db, fmt("SELECT count(*) FROM wed_overlays('%s/chitin.key:AR0000.WED')", game)) > 0,
        "BIF V1.0: a resource before the damage reads (the stream is inflated only up to its end)");
}

/* The key is cached like a file: a new key (and archives) is read again. */
static void test_key_changes(sqlite3 *db, const char *tmp, const area *areas, int n) {
  static const int biff[] = {BIFF_CONTAINER_BIFF};
  char game[4096];
  snprintf(game, sizeof game, "%s/change", tmp);
  REQUIRE(write_game(game, areas, 3, 0, biff, 1), "game");
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s')", game)) == 3, "3 areas");
  REQUIRE(write_game(game, areas, n, 0, biff, 1), "game again"); /* (a key of another size) */
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s')", game)) == n, "a new key is read again: %d areas",
        n);
}

int main(void) {
  static area areas[MAX_AREAS + 64];
  char tmp[] = "/tmp/levelsql-game-XXXXXX";
  sqlite3 *db = db_open();
  int n = load_areas(areas), i;
  REQUIRE(db && n >= 8, "the extension and %d areas", n);
  if (!db || n < 8 || !mkdtemp(tmp)) return check_done();
  printf("INFO %d areas (%s)\n", n, getenv("LEVELSQL_CORPUS") ? "the corpus's WED files" : "the samples");
  test_variants(db, tmp, areas, n);
  test_override(db, tmp, areas, n);
  test_writes(db, tmp, areas, n);
  test_two_connections(tmp, areas, n);
  test_bad_archives(db, tmp, areas);
  test_partial_reads(db, tmp, areas, n);
  test_key_changes(db, tmp, areas, n);
  sqlite3_close(db);
  for (i = 0; i < n; i++) free(areas[i].data);
  if (system(fmt("rm -rf '%s'", tmp)) != 0) printf("note: could not remove %s\n", tmp);
  return check_done();
}
