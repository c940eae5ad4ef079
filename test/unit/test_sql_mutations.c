/*
** test_sql_mutations.c: damaged files through the whole SQL layer.
**
** The codec fuzzers check that parsing never crashes; this test checks the
** step after it: a file that still parses after random damage is read
** through every table of its family (every column, so every getter runs on
** the odd model) and re-saved with an UPDATE of one name (so the serializer runs on
** it too).  Each statement may succeed or fail with an error; under `make
** asan` any out-of-bounds access aborts the run.  The inputs are private
** copies of small corpus files (skipped without the corpus) and the
** generated samples of every format; the mutations come from a fixed LCG, so a failure
** repeats.
*/
#include <dirent.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fileutil.h"
#include "sqltest.h"

typedef struct family {
  const char *dir;          /* corpus sub-folder */
  const char *ext;          /* extension of the private copy */
  const char *tables[15];   /* its tables, NULL-terminated */
  const char *noop_update;  /* an UPDATE that rewrites the file, %s = the file (one that writes back the
                            ** values it read leaves the file alone, so it sets a new value) */
} family;

static const family families[] = {
  {"wwd", "wwd", {"wwd_levels", "wwd_planes", "wwd_objects", "wwd_tiles", "wwd_tile_properties", NULL},
   "UPDATE wwd_levels SET name = 'levelsql' WHERE source = '%s'"},
  {"tw", "map", {"tw_maps", "tw_groups", "tw_layers", "tw_tiles", "tw_quads", "tw_images", "tw_envelopes", "tw_sounds", NULL},
   "UPDATE tw_maps SET author = 'levelsql' WHERE source = '%s'"},
  {"wed", "wed", {"wed_overlays", "wed_doors", "wed_polygons", "wed_tiles", "wed_wallgroups", NULL},
   "UPDATE wed_overlays SET tileset = 'LSQL01' WHERE source = '%s'"},
  {"wz4", "wz4", {"wz4_pages", "wz4_operators", "wz4_links", NULL},
   "UPDATE wz4_operators SET name = 'levelsql' WHERE source = '%s'"},
  {"are", "are", {"are_areas", "are_actors", "are_regions", "are_spawns", "are_entrances", "are_containers", "are_items",
                  "are_ambients", "are_variables", "are_doors", "are_animations", "are_notes", "are_traps",
                  "are_tiled_objects", NULL},
   "UPDATE are_areas SET wed = 'LSQL01' WHERE source = '%s'"},
};

/* The family whose extension (any case) the file name has, or NULL. */
static const family *family_of(const char *name) {
  const char *dot = strrchr(name, '.');
  size_t f;
  for (f = 0; dot && f < sizeof families / sizeof families[0]; f++)
    if (strcasecmp(dot + 1, families[f].ext) == 0) return &families[f];
  return NULL;
}

#define MAX_INPUT_BYTES 40000 /* small files keep each run short */
#ifndef MUTATIONS
#define MUTATIONS 30 /* per input file; -DMUTATIONS=1000 for a long hunt */
#endif

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

/* Runs SQL to the end, success or error alike; counts nothing. */
static void run_quietly(sqlite3 *db, const char *sql) {
  sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* Every table of the family, every column, then the rewrite. */
static void exercise(sqlite3 *db, const family *fam, const char *path) {
  int t;
  for (t = 0; fam->tables[t]; t++) {
    run_quietly(db, fmt("SELECT * FROM %s('%s')", fam->tables[t], path));
  }
  run_quietly(db, fmt("SELECT * FROM levelsql_files('%s')", path));
  run_quietly(db, fmt(fam->noop_update, path));
  /* what was written (if anything) must read again */
  for (t = 0; fam->tables[t]; t++) {
    run_quietly(db, fmt("SELECT count(*) FROM %s('%s')", fam->tables[t], path));
  }
}

/* Damages a copy of data in place: a few flipped bytes, sometimes a
** truncation, sometimes a block of 0xFF (huge counts and offsets). */
static size_t mutate(unsigned char *data, size_t size, uint32_t *seed) {
  int k, flips = 1 + (int)(lcg(seed) % 4);
  for (k = 0; k < flips && size; k++) data[lcg(seed) % size] ^= (unsigned char)(1u << (lcg(seed) % 8));
  switch (lcg(seed) % 4) {
    case 0: size -= size ? lcg(seed) % (size / 8 + 1) : 0; break;
    case 1:
      if (size > 8) {
        size_t at = lcg(seed) % (size - 4);
        memset(data + at, 0xFF, 4);
      }
      break;
    default: break;
  }
  return size;
}

static void mutate_file(sqlite3 *db, const family *fam, const unsigned char *orig, size_t size, const char *tmpdir,
                        uint32_t *seed, int *runs) {
  unsigned char *copy = malloc(size ? size : 1);
  int m;
  if (!copy) return;
  for (m = 0; m < MUTATIONS; m++) {
    char path[600]; /* its own buffer: fmt()'s are reused by the queries */
    size_t n;
    snprintf(path, sizeof path, "%s/m%d.%s", tmpdir, *runs, fam->ext);
    memcpy(copy, orig, size);
    n = mutate(copy, size, seed);
    if (!file_write_all(path, copy, n)) continue;
    exercise(db, fam, path);
    unlink(path);
    (*runs)++;
  }
  free(copy);
}

int main(void) {
  const char *corpus = check_corpus_dir();
  char tmpdir[] = "/tmp/levelsql-mutations-XXXXXX";
  sqlite3 *db = db_open();
  const char *seed_env = getenv("LEVELSQL_MUTATION_SEED"); /* another seed for a longer hunt */
  uint32_t seed = seed_env ? (uint32_t)strtoul(seed_env, NULL, 10) : 20261122u;
  size_t f;
  int runs = 0, inputs = 0;
  REQUIRE(db != NULL, "the extension loads");
  if (!db || !mkdtemp(tmpdir)) return check_done();
  /* the generated samples of every format need no corpus */
  {
    const char *samples = getenv("LEVELSQL_SAMPLES");
    DIR *d = samples ? opendir(samples) : NULL;
    struct dirent *e;
    unsigned seen = 0; /* bit f: a sample of families[f] was damaged */
    while (d && (e = readdir(d)) != NULL) {
      size_t n = 0;
      unsigned char *data;
      const family *fam = family_of(e->d_name);
      if (e->d_name[0] == '.' || !fam) continue;
      data = file_read_all(fmt("%s/%s", samples, e->d_name), &n);
      if (data && n <= 200000) {
        mutate_file(db, fam, data, n, tmpdir, &seed, &runs);
        seen |= 1u << (fam - families);
        inputs++;
      }
      free(data);
    }
    if (d) closedir(d);
    if (!samples) SKIP("damaged samples through SQL: LEVELSQL_SAMPLES is unset");
    else CHECK(seen == (1u << (sizeof families / sizeof families[0])) - 1, "samples of every format damaged (mask %x) from %s", seen, samples);
  }
  if (!corpus) {
    SKIP("damaged corpus files through SQL: ../shared/corpus is absent");
  } else {
    for (f = 0; f < sizeof families / sizeof families[0]; f++) {
      DIR *d = opendir(fmt("%s/%s", corpus, families[f].dir));
      struct dirent *e;
      int taken = 0;
      while (d && (e = readdir(d)) != NULL && taken < 12) {
        size_t n = 0;
        unsigned char *data;
        if (e->d_name[0] == '.') continue;
        data = file_read_all(fmt("%s/%s/%s", corpus, families[f].dir, e->d_name), &n);
        if (data && n <= MAX_INPUT_BYTES) {
          mutate_file(db, &families[f], data, n, tmpdir, &seed, &runs);
          taken++;
          inputs++;
        }
        free(data);
      }
      if (d) closedir(d);
      CHECK(taken > 0, "%s: small corpus files found", families[f].dir);
    }
  }
  /* reaching here without a sanitizer abort is the test */
  CHECK(runs > 0, "damaged files exercised: %d from %d inputs", runs, inputs);
  printf("%d damaged files read through every table and re-saved\n", runs);
  sqlite3_close(db);
  CHECK(rmdir(tmpdir) == 0, "every damaged copy was removed from %s", tmpdir);
  return check_done();
}
