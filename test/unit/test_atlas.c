/*
** test_atlas.c: levelsql_atlas(source, folder [, options]) (issue 27)
** through the loaded extension, on copies of the generated samples:
**
** - one card per level of every format (an ARE beside its WED on the
**   WED's card), the tilesets among the other files, a damaged map among
**   the unreadable files with its error; every file a card or page names
**   exists; the numbers and the tables' row counts are those the tables
**   give;
** - run again: nothing drawn, index.html byte for byte the same; a level
**   touched (its modification time), and the ARE beside a WED, redraw
**   that one level alone; a level removed takes its files with it; other
**   picture sizes redraw every level;
** - the threads draw what the connection's thread draws (levelsql_threads
**   0 and 2 give the same bytes);
** - hostile names and text: a file called <img src=x onerror=...>.map, an
**   object whose logic is </script><script>..., show as text (escaped) in
**   the index, the page and the manifest;
** - the folder: one holding files but no manifest is refused and left as
**   it was; img/ as a link elsewhere is refused; nothing is written
**   outside the folder;
** - a game (chitin.key) as the source;
** - levelsql_limit('decoded') makes an over-limit level unreadable;
**   sqlite3_interrupt stops a long run with SQLITE_INTERRUPT and the next
**   run goes on from what was done;
** - the real corpus, when present: every level of every format is a card
**   or listed unreadable, as levelsql_files says.
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fileutil.h"
#include "sqltest.h"

typedef struct env {
  char dir[256];
  sqlite3 *db;
} env;

/* The text of dir/name (malloc'd, NUL-terminated), or NULL. */
static char *read_text(const char *dir, const char *name) {
  size_t n;
  unsigned char *data = file_read_all(fmt("%s/%s", dir, name), &n);
  char *text;
  if (!data) return NULL;
  text = realloc(data, n + 1);
  if (!text) {
    free(data);
    return NULL;
  }
  text[n] = 0;
  return text;
}

/* How often needle occurs in text. */
static int occurrences(const char *text, const char *needle) {
  int n = 0;
  const char *p = text;
  while (text && (p = strstr(p, needle)) != NULL) n++, p += strlen(needle);
  return n;
}

/* The integer member "key" of the JSON object text, -1 when absent. */
static long long json_number(const char *text, const char *key) {
  const char *p = strstr(text, fmt("\"%s\":", key));
  return p ? atoll(p + strlen(key) + 3) : -1;
}

/* Runs levelsql_atlas(source, folder, options) and returns its JSON (a
** rotating buffer), or "(error: ...)". */
static const char *atlas(env *v, const char *source, const char *folder, const char *options) {
  return query_text(v->db, options ? fmt("SELECT levelsql_atlas('%s', '%s', '%s')", source, folder, options)
                                   : fmt("SELECT levelsql_atlas('%s', '%s')", source, folder));
}

/* Moves the modification time of the file at path 5 s on (a REQUIRE). */
static void touch_later(const char *path) {
  struct timespec times[2] = {{0, UTIME_OMIT}, {time(NULL) + 5, 0}};
  REQUIRE(utimensat(AT_FDCWD, path, times, 0) == 0, "touch %s", path);
}

/* Every file the index and the level pages link to or show exists. */
static void check_links(const char *folder_arg) {
  char folder[512], *index;
  snprintf(folder, sizeof folder, "%s", folder_arg); /* (fmt's buffers rotate) */
  index = read_text(folder, "index.html");
  const char *p = index;
  int missing = 0, pages = 0;
  while (p && (p = strstr(p, "href=\"levels/")) != NULL) {
    char name[64];
    char *page;
    const char *q;
    p += 6;
    if (sscanf(p, "%63[^\"]", name) != 1) break;
    page = read_text(folder, name);
    pages++;
    if (!page) {
      missing++;
      continue;
    }
    for (q = page; (q = strstr(q, "\"../img/")) != NULL;) {
      char img[64];
      struct stat st;
      q += 4;
      if (sscanf(q, "%63[^\"]", img) == 1 && stat(fmt("%s/%s", folder, img), &st) != 0) missing++;
    }
    free(page);
  }
  for (p = index; p && (p = strstr(p, "src=\"img/")) != NULL;) {
    char img[64];
    struct stat st;
    p += 5;
    if (sscanf(p, "%63[^\"]", img) == 1 && stat(fmt("%s/%s", folder, img), &st) != 0) missing++;
  }
  CHECK(pages > 0 && missing == 0, "every page and picture the atlas names exists (%d pages, %d missing)", pages, missing);
  free(index);
}

/* ---- the samples ------------------------------------------------------------------ */

static void test_samples(env *v) {
  const char *src = fmt("%s/s", v->dir), *out = fmt("%s/a", v->dir);
  char source[512], folder[512], *index, *first, *page;
  const char *r;
  long long levels;
  snprintf(source, sizeof source, "%s", src);
  snprintf(folder, sizeof folder, "%s", out);
  /* a damaged map beside them: the samples' dm_sample cut short */
  {
    size_t n;
    unsigned char *data = file_read_all(fmt("%s/dm_sample.map", source), &n);
    REQUIRE(data && n > 200 && file_write_all(fmt("%s/damaged.map", source), data, 200), "damaged.map");
    free(data);
  }
  levels = query_int(v->db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE ok AND format IN ('wwd', 'tw', 'wed', 'wz4')", source));
  r = atlas(v, source, folder, NULL);
  CHECK(json_number(r, "levels") == levels && levels == 15, "a card per level: %s (levelsql_files: %lld)", r, levels);
  CHECK(json_number(r, "unreadable") == 1 && json_number(r, "other") == 5 && json_number(r, "drawn") == 21,
        "one unreadable, the tilesets among the other files: %s", r);
  index = read_text(folder, "index.html");
  REQUIRE(index != NULL, "index.html written");
  CHECK(occurrences(index, "class=\"card\"") == levels, "index.html has %lld cards: %d", levels, occurrences(index, "class=\"card\""));
  CHECK(index && strstr(index, "damaged.map") && strstr(index, "<section id=\"unreadable\">") &&
            strstr(strstr(index, "<section id=\"unreadable\">"), "damaged.map"),
        "the damaged map is listed unreadable");
  CHECK(occurrences(index, "AR0100.ARE") == 0 && occurrences(index, ">AR0100.WED<") == 1,
        "the ARE beside its WED is on the WED's card, not one of its own");
  CHECK(occurrences(index, "data-n-objects=") == 5 && occurrences(index, "data-n-operators=") == 2 &&
            occurrences(index, "data-n-actors=") == 2 && occurrences(index, "data-n-entities=") == 6,
        "the numbers of each format are on their cards");
  check_links(folder);
  /* SAMPLE01's page: its objects per logic and its tables' rows, as the tables count them */
  first = index ? strstr(index, "SAMPLE01.WWD") : NULL;
  {
    const char *card = first;
    while (card && card > index && strncmp(card, "<a class=\"card\"", 15) != 0) card--;
    page = card ? read_text(folder, fmt("levels/%.16s.html", strstr(card, "href=\"levels/") + 13)) : NULL;
  }
  REQUIRE(page != NULL, "SAMPLE01's page");
  if (page) {
    long long objects = query_int(v->db, fmt("SELECT count(*) FROM wwd_objects('%s/SAMPLE01.WWD')", source));
    long long officers = query_int(v->db, fmt("SELECT count(*) FROM wwd_objects('%s/SAMPLE01.WWD') WHERE logic = 'Officer'", source));
    long long tiles = query_int(v->db, fmt("SELECT count(*) FROM wwd_tiles('%s/SAMPLE01.WWD')", source));
    CHECK(strstr(page, fmt("<td>wwd_objects</td><td class=\"n\">%lld</td>", objects)) &&
              strstr(page, fmt("<td>wwd_tiles</td><td class=\"n\">%lld</td>", tiles)),
          "the page's row counts are the tables' (%lld objects, %lld tiles)", objects, tiles);
    CHECK(officers > 0 && strstr(page, fmt("<td>Officer</td><td class=\"n\">%lld</td>", officers)),
          "the page lists %lld Officers among the objects per logic", officers);
    CHECK(occurrences(page, "<circle") == objects && occurrences(page, ">Officer</text>") == officers,
          "a marker labelled by its logic per object of the main plane (%d markers)", occurrences(page, "<circle"));
    CHECK(strstr(page, "href=\"../index.html#c-") != NULL, "the page links back to the index");
    CHECK(strstr(page, fmt("FROM wwd_objects('%s/SAMPLE01.WWD') GROUP BY logic", source)) != NULL, "ready queries name the file");
  }
  free(page);

  /* again: nothing to draw, the same index */
  r = atlas(v, source, folder, NULL);
  CHECK(json_number(r, "drawn") == 0 && json_number(r, "kept") == 21 && json_number(r, "removed") == 0,
        "run again over the same folder, nothing is drawn: %s", r);
  {
    char *again = read_text(folder, "index.html");
    CHECK(index && again && strcmp(index, again) == 0, "the index is the same");
    free(again);
  }
  /* one level touched, the ARE beside a WED touched: each redraws one level */
  touch_later(fmt("%s/legacy.map", source));
  r = atlas(v, source, folder, NULL);
  CHECK(json_number(r, "drawn") == 1 && json_number(r, "kept") == 20, "a changed map is drawn again alone: %s", r);
  touch_later(fmt("%s/AR0200.ARE", source));
  r = atlas(v, source, folder, NULL);
  CHECK(json_number(r, "drawn") == 1 && json_number(r, "kept") == 20, "the ARE beside a WED redraws that WED: %s", r);
  /* removed: its files go */
  REQUIRE(unlink(fmt("%s/SAMPLE03.WWD", source)) == 0, "remove SAMPLE03.WWD");
  r = atlas(v, source, folder, NULL);
  CHECK(json_number(r, "levels") == 14 && json_number(r, "drawn") == 0 && json_number(r, "removed") == 3,
        "a removed level takes its picture, thumbnail and page with it: %s", r);
  free(index);
  index = read_text(folder, "index.html");
  CHECK(index && !strstr(index, "SAMPLE03"), "and leaves the index");
  check_links(folder);
  free(index);
  /* other picture sizes: everything drawn again, at those sizes */
  r = atlas(v, source, folder, "thumb=64, size=256");
  CHECK(json_number(r, "drawn") == 20 && json_number(r, "kept") == 0, "changed options redraw every level: %s", r);
  index = read_text(folder, "index.html");
  CHECK(index && occurrences(index, "-t.png\" width=\"64\"") > 0 && !strstr(index, "width=\"256\" height"),
        "thumbnails of at most 64 pixels");
  free(index);
}

/* The threads draw the same atlas as the connection's thread. */
static void test_threads(env *v) {
  char *one, *two, *m1, *m2;
  const char *src = fmt("%s/s", v->dir);
  char source[512];
  snprintf(source, sizeof source, "%s", src);
  exec_ok(v->db, "SELECT levelsql_threads(0)");
  atlas(v, source, fmt("%s/t0", v->dir), NULL);
  exec_ok(v->db, "SELECT levelsql_threads(2)");
  atlas(v, source, fmt("%s/t2", v->dir), NULL);
  one = read_text(fmt("%s/t0", v->dir), "index.html");
  two = read_text(fmt("%s/t2", v->dir), "index.html");
  m1 = read_text(fmt("%s/t0", v->dir), "manifest.json");
  m2 = read_text(fmt("%s/t2", v->dir), "manifest.json");
  CHECK(one && two && strcmp(one, two) == 0 && m1 && m2 && strcmp(m1, m2) == 0,
        "levelsql_threads(0) and (2) write the same index and manifest");
  CHECK(system(fmt("diff -r '%s/t0' '%s/t2' >/dev/null", v->dir, v->dir)) == 0, "and the same pictures and pages");
  free(one), free(two), free(m1), free(m2);
}

/* ---- hostile names -------------------------------------------------------------------- */

static void test_hostile(env *v) {
  const char *d = fmt("%s/h", v->dir);
  char dir[512], *index, *manifest, *p, *page = NULL;
  const char *r;
  snprintf(dir, sizeof dir, "%s", d);
  REQUIRE(mkdir(dir, 0755) == 0, "mkdir %s", dir);
  REQUIRE(copy_sample_into(dir, "dm_sample.map") && copy_sample_into(dir, "SAMPLE02.WWD"), "copy samples");
  REQUIRE(rename(fmt("%s/dm_sample.map", dir), fmt("%s/<img src=x onerror=alert(1)>.map", dir)) == 0, "rename");
  REQUIRE(rename(fmt("%s/SAMPLE02.WWD", dir), fmt("%s/a\"b'c&d.WWD", dir)) == 0, "rename");
  exec_ok(v->db, fmt("UPDATE wwd_objects SET logic = '</script><script>alert(2)</script>' WHERE source = '%s/a\"b''c&d.WWD' "
                     "AND idx = 0 AND plane = (SELECT plane FROM wwd_planes('%s/a\"b''c&d.WWD') WHERE is_main)", dir, dir));
  r = atlas(v, dir, fmt("%s/out", dir), "title=<b>bold</b>");
  CHECK(json_number(r, "levels") == 2, "two hostile names drawn: %s", r);
  index = read_text(fmt("%s/out", dir), "index.html");
  manifest = read_text(fmt("%s/out", dir), "manifest.json");
  CHECK(index && !strstr(index, "<img src=x") && strstr(index, "&lt;img src=x onerror=alert(1)&gt;.map"),
        "a file name is text in the index");
  CHECK(index && !strstr(index, "<b>") && strstr(index, "&lt;b&gt;bold&lt;/b&gt;"), "so is the title");
  CHECK(index && strstr(index, "a&quot;b'c&amp;d.WWD") && !strstr(index, "a\"b"), "quotes and ampersands too");
  CHECK(index && occurrences(index, "<script>") == 1, "the index has its own script alone");
  p = index ? strstr(index, "a&quot;b'c&amp;d.WWD") : NULL;
  while (p && p > index && strncmp(p, "<a class=\"card\"", 15) != 0) p--;
  if (p && strstr(p, "href=\"levels/")) page = read_text(fmt("%s/out", dir), fmt("levels/%.16s.html", strstr(p, "href=\"levels/") + 13));
  CHECK(page && occurrences(page, "<script>") == 1 && strstr(page, "&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;"),
        "the object's logic is text on the level's page");
  CHECK(page && strstr(page, "FROM wwd_objects('") && strstr(page, "a&quot;b''c&amp;d.WWD')"),
        "the ready queries quote the path as SQL, escaped as HTML");
  CHECK(manifest && strstr(manifest, "\"</script><script>alert(2)</script>\""), "the manifest keeps the text as it is (JSON)");
  free(index), free(manifest), free(page);
}

/* ---- the folder ------------------------------------------------------------------------ */

static void test_folder(env *v) {
  const char *d = fmt("%s/f", v->dir);
  char dir[512];
  struct stat st;
  snprintf(dir, sizeof dir, "%s", d);
  REQUIRE(mkdir(dir, 0755) == 0, "mkdir");
  REQUIRE(file_write_all(fmt("%s/notes.txt", dir), (const unsigned char *)"mine", 4), "a file of the user's");
  exec_err(v->db, fmt("SELECT levelsql_atlas('%s/s', '%s')", v->dir, dir), "holds files but no manifest.json", "no atlas");
  CHECK(stat(fmt("%s/index.html", dir), &st) != 0 && stat(fmt("%s/img", dir), &st) != 0, "and nothing was written there");
  REQUIRE(unlink(fmt("%s/notes.txt", dir)) == 0, "unlink");
  REQUIRE(mkdir(fmt("%s/elsewhere", v->dir), 0755) == 0 && symlink(fmt("%s/elsewhere", v->dir), fmt("%s/img", dir)) == 0,
          "img as a link to another folder");
  REQUIRE(file_write_all(fmt("%s/manifest.json", dir), (const unsigned char *)"{}", 2), "a manifest");
  exec_err(v->db, fmt("SELECT levelsql_atlas('%s/s', '%s')", v->dir, dir), "not a folder of its own", NULL);
  CHECK(system(fmt("test -z \"$(ls -A '%s/elsewhere')\"", v->dir)) == 0, "nothing written through the link");
  /* what a first run stopped before its manifest leaves is no stranger's */
  REQUIRE(mkdir(fmt("%s/first", v->dir), 0755) == 0 && mkdir(fmt("%s/first/img", v->dir), 0755) == 0 &&
          file_write_all(fmt("%s/first/img/0123456789abcdef-t.png", v->dir), (const unsigned char *)"x", 1),
          "a first run's leftovers");
  CHECK(json_number(atlas(v, fmt("%s/s", v->dir), fmt("%s/first", v->dir), NULL), "levels") > 0,
        "img/ with the atlas's names alone: the atlas is made there");
  REQUIRE(mkdir(fmt("%s/second", v->dir), 0755) == 0 && mkdir(fmt("%s/second/img", v->dir), 0755) == 0 &&
          file_write_all(fmt("%s/second/img/mine.png", v->dir), (const unsigned char *)"x", 1), "a picture of the user's");
  exec_err(v->db, fmt("SELECT levelsql_atlas('%s/s', '%s/second')", v->dir, v->dir), "holds files but no manifest.json", NULL);
  exec_err(v->db, fmt("SELECT levelsql_atlas('%s/s', '%s/new', 'size=9')", v->dir, v->dir), "option size", "256");
  exec_err(v->db, fmt("SELECT levelsql_atlas('%s/s', '%s/new', 'mapres=%s/none')", v->dir, v->dir, v->dir), "mapres", "not a folder");
  exec_err(v->db, "SELECT levelsql_atlas(1, 'x')", "takes a source", NULL);
}

/* ---- limits and interrupts ----------------------------------------------------------------- */

typedef struct interrupter {
  sqlite3 *db;
  char pages[600]; /* the atlas's levels/ folder */
} interrupter;

/* Interrupts the atlas as soon as it has written a first level's page (so
** some levels are done and some not), or after 10 s. */
static void *interrupt_later(void *arg) {
  interrupter *it = arg;
  struct timespec t = {0, 1000000L};
  int i, seen = 0;
  for (i = 0; i < 10000 && !seen; i++) {
    DIR *d = opendir(it->pages);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) seen |= strstr(e->d_name, ".html") != NULL && !strstr(e->d_name, ".tmp");
    if (d) closedir(d);
    if (!seen) nanosleep(&t, NULL);
  }
  sqlite3_interrupt(it->db);
  return NULL;
}

static void test_limits(env *v) {
  const char *d = fmt("%s/l", v->dir);
  char dir[512];
  const char *r;
  int i, rc;
  pthread_t th;
  interrupter it;
  sqlite3_stmt *st = NULL;
  snprintf(dir, sizeof dir, "%s", d);
  REQUIRE(mkdir(dir, 0755) == 0, "mkdir");
  REQUIRE(copy_sample_into(dir, "SAMPLE01.WWD"), "copy");
  exec_ok(v->db, "SELECT levelsql_limit('decoded', 100000)");
  r = atlas(v, dir, fmt("%s/out", dir), NULL);
  exec_ok(v->db, "SELECT levelsql_limit('decoded', 1073741824)");
  CHECK(json_number(r, "unreadable") == 1 && json_number(r, "levels") == 0, "a level over levelsql_limit('decoded') is unreadable: %s", r);
  {
    char *index = read_text(fmt("%s/out", dir), "index.html");
    CHECK(index && strstr(index, "limit"), "with the limit's message");
    free(index);
  }
  /* interrupted once a level is done: 120 levels; the next run goes on */
  {
    size_t n;
    unsigned char *data = file_read_all(fmt("%s/SAMPLE01.WWD", dir), &n);
    for (i = 1; data && i < 120; i++) REQUIRE(file_write_all(fmt("%s/copy%03d.WWD", dir, i), data, n), "copy %d", i);
    free(data);
  }
  it.db = v->db;
  snprintf(it.pages, sizeof it.pages, "%s/int/levels", dir);
  REQUIRE(sqlite3_prepare_v2(v->db, fmt("SELECT levelsql_atlas('%s', '%s/int')", dir, dir), -1, &st, NULL) == SQLITE_OK, "prepare");
  pthread_create(&th, NULL, interrupt_later, &it);
  rc = sqlite3_step(st);
  pthread_join(th, NULL);
  sqlite3_finalize(st);
  if (rc == SQLITE_ROW) {
    SKIP("the atlas of 120 levels was done before its first page was seen: no interrupt to see");
  } else {
    CHECK(rc == SQLITE_INTERRUPT, "an interrupt stops the atlas (rc %d)", rc);
    r = atlas(v, dir, fmt("%s/int", dir), NULL);
    CHECK(json_number(r, "levels") == 120 && json_number(r, "kept") > 0 && json_number(r, "drawn") < 120,
          "the next run goes on from what was drawn: %s", r);
  }
}

/* A game as the source (the samples' iegame/chitin.key): its areas and
** their ARE files read through the archives, each a card (what a draw reads
** beside a file is looked for on disk, so an ARE in the archives is not
** shown on its WED's card), the tilesets among the other files. */
static void test_game(env *v) {
  const char *r = atlas(v, fmt("%s/iegame", getenv("LEVELSQL_SAMPLES")), fmt("%s/game", v->dir), NULL);
  char *index = read_text(fmt("%s/game", v->dir), "index.html");
  CHECK(json_number(r, "levels") == 4 && json_number(r, "unreadable") == 0 && json_number(r, "other") == 8,
        "a game's 2 areas and 2 ARE files are cards, its 8 tilesets and pages other files: %s", r);
  CHECK(index && strstr(index, "chitin.key:AR0100.WED") && strstr(index, "chitin.key:AR0100.ARE"),
        "named by the game's paths");
  free(index);
}

/* ---- the corpus ------------------------------------------------------------------------- */

static void test_corpus(env *v) {
  const char *corpus = check_corpus_dir();
  long long levels, unreadable;
  const char *r;
  if (!corpus) {
    SKIP("no real corpus: its atlas");
    return;
  }
  levels = query_int(v->db, fmt("SELECT count(*) FROM levelsql_files('%s/**') WHERE ok AND format IN ('wwd', 'tw', 'wed', 'wz4', 'are')", corpus));
  unreadable = query_int(v->db, fmt("SELECT count(*) FROM levelsql_files('%s/**') WHERE NOT ok AND format IS NOT NULL", corpus));
  r = atlas(v, fmt("%s/**", corpus), fmt("%s/corpus", v->dir), "size=256, thumb=64"); /* (small: quicker) */
  CHECK(json_number(r, "levels") == levels && json_number(r, "unreadable") == unreadable,
        "the corpus: a card per level levelsql_files reads (%lld), the others unreadable (%lld): %s", levels, unreadable, r);
  check_links(fmt("%s/corpus", v->dir));
}

int main(void) {
  env v;
  static const char *const samples[] = {"SAMPLE01.WWD", "SAMPLE02.WWD", "SAMPLE03.WWD", "SAMPLE04.WWD", "SAMPLE05.WWD",
                                        "ddnet_features.map", "ddrace_sample.map", "dm_sample.map", "legacy.map",
                                        "unfinished.map", "v07_sample.map", "AR0100.WED", "AR0100.ARE", "AR0100.TIS",
                                        "A010000.PVRZ", "A010001.PVRZ", "A010002.PVRZ", "AR0200.WED", "AR0200.ARE",
                                        "AR0200.TIS", "intro.wz4", "logo.wz4"};
  size_t i;
  int ok = 1;
  memset(&v, 0, sizeof v);
  if (!getenv("LEVELSQL_SAMPLES")) {
    SKIP("LEVELSQL_SAMPLES unset: the atlas tests (test/run.sh sets it)");
    return check_done();
  }
  snprintf(v.dir, sizeof v.dir, "/tmp/levelsql-atlas-XXXXXX");
  REQUIRE(mkdtemp(v.dir) != NULL, "mkdtemp");
  REQUIRE(mkdir(fmt("%s/s", v.dir), 0755) == 0, "mkdir");
  for (i = 0; i < sizeof samples / sizeof samples[0]; i++) ok = copy_sample_into(fmt("%s/s", v.dir), samples[i]) && ok;
  v.db = db_open();
  REQUIRE(v.db != NULL, "open the extension");
  if (v.db && ok) {
    test_samples(&v);
    test_threads(&v);
    test_hostile(&v);
    test_folder(&v);
    test_limits(&v);
    test_game(&v);
    test_corpus(&v);
  }
  if (v.db) sqlite3_close(v.db);
  if (system(fmt("rm -rf '%s'", v.dir)) != 0) printf("note: could not remove %s\n", v.dir);
  return check_done();
}
