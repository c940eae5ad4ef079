/*
** test_snapshot.c: a digest of every table of every sample and corpus file,
** kept in test/snapshot/digests.txt, so that a change to what any row or
** column reads fails the suite, naming the table and the file (issue 24,
** item 4): a value that silently became NULL, a rowid that moved, a row
** more or less.
**
** The file has one line per (table, file): "table  file  rows  digest",
** sorted, with the file named relative to the copies' folder
** ("samples/SAMPLE01.WWD", "corpus/tw/x.map": level_copies.h), rows -1
** and digest "error" when the table cannot read the file.  The digest is
** the SHA-256 of every row in scan order (the table's natural order: the
** same on every SQLite) of `SELECT rowid, * FROM t('<copy>')`: for each
** value its type tag, then an integer as 8 little-endian bytes, a real as
** the 8 bytes of its IEEE double, text and blobs as an 8-byte length and
** their bytes; the `file` column is digested as the relative name, and the
** rowid as its key part (rowid & (2^ROWID_KEY_BITS - 1)), so no digest
** depends on where the copies are: the rowid's file part is a hash of the
** file's canonical path (engine.h, "Row identity"), which test_rowid
** checks; here every row of one file must carry the same file part.
**
** Check (default): every line must match what the tables read now; a line
** of the corpus is skipped when the corpus is absent, and the cell grids
** of the corpus (tw_tiles, wwd_tiles: 26 million rows) are checked with
** LEVELSQL_TORTURE=1 only (skipped, and counted, otherwise); a (table,
** file) missing from the file fails too (run `make snapshot`).
** Write: LEVELSQL_SNAPSHOT_WRITE=<path> (what `make snapshot` does) writes
** every line instead; without the corpus, the corpus lines of the old file
** are kept as they were.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/sha256.h"
#include "check.h"
#include "fileutil.h"
#include "level_copies.h"
#include "sqltest.h"

#define SNAPSHOT_DEFAULT "test/snapshot/digests.txt"
/* ext/engine/engine.h's LS_KEY_BITS: a rowid is (file part << 29) | key */
#define ROWID_KEY_BITS 29
#define LINES_MAX 8192

typedef struct snap_line {
  char table[48];
  char file[320];
  long long rows;
  char digest[65];
  int seen; /* check: a computed line matched it */
} snap_line;

/* Whether the cell grid of a corpus file is left to LEVELSQL_TORTURE. */
static int grid_table(const char *name) {
  return strcmp(name, "tw_tiles") == 0 || strcmp(name, "wwd_tiles") == 0;
}

static void hash_u64(sha256_ctx *h, uint64_t x) {
  unsigned char b[8];
  int i;
  for (i = 0; i < 8; i++) b[i] = (unsigned char)(x >> (8 * i));
  sha256_update(h, b, 8);
}

/* One value: its type tag, then its bytes (see the top of the file). */
static void hash_value(sha256_ctx *h, sqlite3_stmt *st, int i, const char *file_as) {
  int type = sqlite3_column_type(st, i);
  unsigned char tag = (unsigned char)type;
  double d;
  uint64_t bits;
  sha256_update(h, &tag, 1);
  if (file_as) {
    hash_u64(h, strlen(file_as));
    sha256_update(h, file_as, strlen(file_as));
    return;
  }
  switch (type) {
    case SQLITE_INTEGER: hash_u64(h, (uint64_t)sqlite3_column_int64(st, i)); break;
    case SQLITE_FLOAT:
      d = sqlite3_column_double(st, i);
      memcpy(&bits, &d, 8);
      hash_u64(h, bits);
      break;
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      const void *p = type == SQLITE_TEXT ? (const void *)sqlite3_column_text(st, i) : sqlite3_column_blob(st, i);
      int n = sqlite3_column_bytes(st, i);
      hash_u64(h, (uint64_t)n);
      if (n > 0) sha256_update(h, p, (size_t)n);
      break;
    }
    default: break;
  }
}

/* The line of table t on copy f, on a fresh connection. */
static void digest_table(const level_table *t, const level_copy *f, snap_line *out) {
  sqlite3 *db = db_open();
  sqlite3_stmt *st = NULL;
  sha256_ctx h;
  unsigned char sum[32];
  int ncols, i, rc, file_col = -1, parts_differ = 0;
  int64_t part = 0;
  memset(out, 0, sizeof *out);
  snprintf(out->table, sizeof out->table, "%s", t->name);
  snprintf(out->file, sizeof out->file, "%s", f->rel);
  out->rows = -1;
  snprintf(out->digest, sizeof out->digest, "error");
  if (!db) return;
  if (sqlite3_prepare_v2(db, fmt("SELECT rowid, * FROM %s('%s')", t->name, f->path), -1, &st, NULL) != SQLITE_OK) {
    sqlite3_close(db);
    return;
  }
  ncols = sqlite3_column_count(st);
  for (i = 0; i < ncols; i++)
    if (strcmp(sqlite3_column_name(st, i), "file") == 0) file_col = i;
  sha256_init(&h);
  out->rows = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int64_t rowid = sqlite3_column_int64(st, 0), key = rowid & ((INT64_C(1) << ROWID_KEY_BITS) - 1);
    unsigned char tag = SQLITE_INTEGER;
    if (out->rows == 0) part = rowid >> ROWID_KEY_BITS;
    else if (rowid >> ROWID_KEY_BITS != part) parts_differ = 1;
    sha256_update(&h, &tag, 1);
    hash_u64(&h, (uint64_t)key);
    for (i = 1; i < ncols; i++) hash_value(&h, st, i, i == file_col ? f->rel : NULL);
    out->rows++;
  }
  /* (one_row_per_file tables and a file of one part: every row alike) */
  if (parts_differ) rc = SQLITE_ERROR;
  sha256_final(&h, sum);
  if (rc == SQLITE_DONE) sha256_hex(sum, out->digest);
  else out->rows = -1;
  sqlite3_finalize(st);
  sqlite3_close(db);
}

static int line_cmp(const void *a, const void *b) {
  const snap_line *x = a, *y = b;
  int c = strcmp(x->table, y->table);
  return c ? c : strcmp(x->file, y->file);
}

/* Reads the snapshot file's lines (0 when it cannot be read). */
static int read_lines(const char *path, snap_line *lines, int max) {
  FILE *in = fopen(path, "r");
  char buf[1024];
  int n = 0;
  if (!in) return 0;
  while (n < max && fgets(buf, sizeof buf, in)) {
    snap_line *l = &lines[n];
    memset(l, 0, sizeof *l);
    if (buf[0] == '#' || sscanf(buf, "%47s %319s %lld %64s", l->table, l->file, &l->rows, l->digest) != 4) continue;
    n++;
  }
  fclose(in);
  return n;
}

static int write_lines(const char *path, snap_line *lines, int n) {
  FILE *out = fopen(path, "w");
  int i;
  if (!out) return 0;
  qsort(lines, (size_t)n, sizeof *lines, line_cmp);
  fprintf(out, "# test/unit/test_snapshot.c: table  file  rows  digest (regenerate: make snapshot)\n");
  for (i = 0; i < n; i++) fprintf(out, "%s  %s  %lld  %s\n", lines[i].table, lines[i].file, lines[i].rows, lines[i].digest);
  return fclose(out) == 0;
}

/* The line of (table, file) among lines, or NULL. */
static snap_line *find_line(snap_line *lines, int n, const char *table, const char *file) {
  int i;
  for (i = 0; i < n; i++)
    if (strcmp(lines[i].table, table) == 0 && strcmp(lines[i].file, file) == 0) return &lines[i];
  return NULL;
}

int main(void) {
  const char *write_path = getenv("LEVELSQL_SNAPSHOT_WRITE");
  const char *path = write_path ? write_path : getenv("LEVELSQL_SNAPSHOT") ? getenv("LEVELSQL_SNAPSHOT") : SNAPSHOT_DEFAULT;
  int torture = getenv("LEVELSQL_TORTURE") != NULL || write_path != NULL, corpus = check_corpus_dir() != NULL;
  static snap_line expected[LINES_MAX], now[LINES_MAX];
  static level_table tables[TABLES_MAX];
  int nexpected = read_lines(path, expected, LINES_MAX), nnow = 0, ntables, i, j, skipped_grid = 0, skipped_corpus = 0;
  sqlite3 *db = db_open();
  level_copies copies;
  check_loop loop = {0, 0, 0};
  REQUIRE(db != NULL, "the extension loads");
  if (!db) return check_done();
  if (!copies_make(&copies, db)) {
    REQUIRE(0, "the private copies of the samples (and corpus) are made");
    return check_done();
  }
  ntables = tables_list(db, tables);
  sqlite3_close(db);
  for (i = 0; i < ntables; i++) {
    for (j = 0; j < copies.n && nnow < LINES_MAX; j++) {
      const level_copy *f = &copies.files[j];
      if (strcmp(f->format, tables[i].format) != 0) continue;
      if (f->in_corpus && grid_table(tables[i].name) && !torture) continue;
      digest_table(&tables[i], f, &now[nnow++]);
    }
  }
  if (write_path) {
    for (i = 0; !corpus && i < nexpected && nnow < LINES_MAX; i++) /* keep the corpus lines */
      if (strncmp(expected[i].file, "corpus/", 7) == 0) now[nnow++] = expected[i];
    CHECK(write_lines(write_path, now, nnow), "cannot write %s", write_path);
    printf("INFO wrote %d lines to %s%s\n", nnow, write_path, corpus ? "" : " (corpus absent: its old lines kept)");
    copies_remove(&copies);
    return check_done();
  }
  CHECK(nexpected > 0, "%s has digests (make snapshot)", path);
  /* one case per table (now[] is in table order), each failing line printed
  ** (the first 5 of a table) with the table and the file */
  for (i = 0; i < nnow; i++) {
    snap_line *want = find_line(expected, nexpected, now[i].table, now[i].file);
    if (i == 0 || strcmp(now[i].table, now[i - 1].table) != 0) {
      memset(&loop, 0, sizeof loop);
      check_loop_enter(&loop);
    }
    loop.inputs++;
    CHECK(want != NULL, "%s %s: not in %s (%lld rows); run make snapshot if the table or file is new", now[i].table,
          now[i].file, path, now[i].rows);
    if (want) {
      want->seen = 1;
      CHECK(want->rows == now[i].rows && strcmp(want->digest, now[i].digest) == 0,
            "%s %s changed: %lld rows, digest %.12s now; %lld rows, digest %.12s in %s", now[i].table, now[i].file,
            now[i].rows, now[i].digest, want->rows, want->digest, path);
    }
    if (i == nnow - 1 || strcmp(now[i].table, now[i + 1].table) != 0) {
      check_loop_done(&loop, "%s: digests of %ld files", now[i].table, loop.inputs);
    }
  }
  for (i = 0; i < nexpected; i++) {
    int in_corpus = strncmp(expected[i].file, "corpus/", 7) == 0;
    if (expected[i].seen) continue;
    if (in_corpus && !corpus) skipped_corpus++;
    else if (in_corpus && grid_table(expected[i].table) && !torture) skipped_grid++;
    else CHECK(0, "%s %s: in %s but no longer read (file or table gone?)", expected[i].table, expected[i].file, path);
  }
  if (skipped_corpus) SKIP("%d snapshot lines of the corpus: the corpus is absent", skipped_corpus);
  if (skipped_grid) SKIP("%d snapshot lines of corpus cell grids (tw_tiles, wwd_tiles): LEVELSQL_TORTURE=1 checks them", skipped_grid);
  printf("INFO %d (table, file) digests compared\n", nnow);
  copies_remove(&copies);
  return check_done();
}
