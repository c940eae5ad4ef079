/*
** test_writeback.c: writing back exactly what a column read always
** succeeds and changes no byte of the file (issue 24, item 4).
**
** For every table of the five families, every writable column of it (as
** levelsql_columns lists them) and every file of the table's format among
** private copies of the samples and, when present, of the real corpus
** (level_copies.h): `UPDATE t SET c = c WHERE source = '<copy>'` must
** succeed, and the file's bytes must be the same afterwards (a no-op
** UPDATE may rewrite the file or leave it alone; either way the bytes stay).
** A value a column reads that it then refuses (an empty string read as
** NULL, an odd value outside the column's limits) fails here, naming the
** table, column and file.
**
** Time: the cell grids of the corpus (tw_tiles: 25 million cells, each
** UPDATE of a big map about 20 s here; wwd_tiles) are written back column
** by column only with LEVELSQL_TORTURE=1; without it they are skipped
** (one SKIP line per table) and every other table of every corpus file,
** and every table of every sample, runs.
*/
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fileutil.h"
#include "level_copies.h"
#include "sqltest.h"

/* Tables whose corpus rows are too many for `make test` (see above). */
static int grid_table(const char *name) {
  return strcmp(name, "tw_tiles") == 0 || strcmp(name, "wwd_tiles") == 0;
}

/* Every writable column of table t written back on file f, one UPDATE
** each; each is one check of the loop, and one for the bytes. */
static void write_back_file(sqlite3 *db, const level_table *t, const level_copy *f, check_loop *loop) {
  size_t before_n = 0, after_n = 0;
  unsigned char *before = file_read_all(f->path, &before_n);
  int k;
  REQUIRE(before != NULL, "%s: cannot read the copy", f->rel);
  if (!before) return;
  for (k = 0; k < t->ncolumns; k++) {
    const char *c = t->columns[k];
    char *err = NULL;
    unsigned char *after;
    int rc = sqlite3_exec(db, fmt("UPDATE %s SET \"%s\" = \"%s\" WHERE %s = '%s'", t->name, c, c, t->source_col, f->path),
                          NULL, NULL, &err);
    loop->inputs++;
    CHECK(rc == SQLITE_OK, "%s: UPDATE %s SET %s = %s failed: %s", f->rel, t->name, c, c, err ? err : "?");
    sqlite3_free(err);
    after = file_read_all(f->path, &after_n);
    CHECK(after && after_n == before_n && memcmp(after, before, before_n) == 0,
          "%s: UPDATE %s SET %s = %s changed the file (%zu bytes before, %zu after)", f->rel, t->name, c, c, before_n,
          after ? after_n : 0);
    if (after && (after_n != before_n || memcmp(after, before, before_n) != 0)) {
      /* put the file back for the next columns (the cache sees the new
      ** mtime and size and reads it again) */
      REQUIRE(file_write_all(f->path, before, before_n), "%s: cannot restore the copy", f->rel);
    }
    free(after);
  }
  free(before);
}

int main(void) {
  sqlite3 *db = db_open();
  level_copies copies;
  static level_table tables[TABLES_MAX];
  int ntables, i, j, torture = getenv("LEVELSQL_TORTURE") != NULL;
  REQUIRE(db != NULL, "the extension loads");
  if (!db) return check_done();
  if (!copies_make(&copies, db)) {
    REQUIRE(0, "the private copies of the samples (and corpus) are made");
    return check_done();
  }
  if (!check_corpus_dir()) SKIP("the corpus is absent (../shared/corpus): only the samples are written back");
  ntables = tables_list(db, tables);
  CHECK(ntables >= 20, "levelsql_columns lists the tables of the five families (%d)", ntables);
  for (i = 0; i < ntables; i++) {
    const level_table *t = &tables[i];
    check_loop loop = {0, 0, 0};
    int files = 0, skipped_corpus = 0;
    if (!t->ncolumns) continue;
    check_loop_enter(&loop);
    for (j = 0; j < copies.n; j++) {
      const level_copy *f = &copies.files[j];
      if (strcmp(f->format, t->format) != 0) continue;
      if (f->in_corpus && grid_table(t->name) && !torture) {
        skipped_corpus++;
        continue;
      }
      write_back_file(db, t, f, &loop);
      files++;
    }
    check_loop_done(&loop, "%s: %d writable columns written back on %d files", t->name, t->ncolumns, files);
    if (skipped_corpus) SKIP("%s on %d corpus files: with LEVELSQL_TORTURE=1 only", t->name, skipped_corpus);
  }
  copies_remove(&copies);
  sqlite3_close(db);
  return check_done();
}
