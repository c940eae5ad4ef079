/*
** level_copies.h: private copies of the sample and corpus level files, and
** the tables of the extension by family, for the tests that go over every
** table of every file (test_writeback, test_snapshot).
**
** copies_make() copies every file of $LEVELSQL_SAMPLES to <tmp>/samples/
** and, when the corpus is present ($LEVELSQL_CORPUS), every file of its
** format folders to <tmp>/corpus/<folder>/ (never writing to the corpus);
** each copy is listed with its name relative to <tmp> ("samples/X.WWD",
** "corpus/wwd/X.WWD": what the snapshot keeps, so no digest depends on the
** temp folder's path) and its format as levelsql_files reads it (NULL when
** it does not parse: such a file has no rows to check).
*/
#ifndef LEVELSQL_LEVEL_COPIES_H
#define LEVELSQL_LEVEL_COPIES_H

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileutil.h"
#include "sqltest.h"

#define COPIES_MAX 512
#define TABLES_MAX 64
#define COLUMNS_MAX 96

typedef struct level_copy {
  char rel[320];    /* "samples/SAMPLE01.WWD", "corpus/tw/x.map" */
  char path[400];   /* the copy's full path */
  char format[8];   /* "wwd", "tw", "wed", "wz4", "tis", "pvrz", "are"; "" when it does not parse */
  int in_corpus;
} level_copy;

typedef struct level_copies {
  char root[64];    /* the temp folder */
  level_copy *files;
  int n;
} level_copies;

/* One table: its name, family prefix and writable columns, and the name
** of its hidden source column (source_path in tw_sound_sources, whose
** visible `source` is an index). */
typedef struct level_table {
  char name[48];
  char format[8];
  char source_col[16];
  char columns[COLUMNS_MAX][48];
  int ncolumns;     /* writable ones */
} level_table;

/* Copies the files of folder `from` (not recursing) into root/rel_dir/,
** listing each; returns 0 when a copy fails. */
static inline int copies_folder(level_copies *c, const char *from_arg, const char *rel_dir_arg, int in_corpus) {
  char from[400], rel_dir[64]; /* the arguments may be fmt() buffers, which the loop reuses */
  DIR *d;
  struct dirent *e;
  int ok = 1;
  snprintf(from, sizeof from, "%s", from_arg);
  snprintf(rel_dir, sizeof rel_dir, "%s", rel_dir_arg);
  if (!(d = opendir(from))) return 0;
  if (mkdir(fmt("%s/%s", c->root, rel_dir), 0755) != 0) ok = 0;
  while (ok && (e = readdir(d)) != NULL && c->n < COPIES_MAX) {
    level_copy *f = &c->files[c->n];
    unsigned char *data;
    size_t size = 0;
    struct stat st;
    if (e->d_name[0] == '.') continue;
    if (stat(fmt("%s/%s", from, e->d_name), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (!(data = file_read_all(fmt("%s/%s", from, e->d_name), &size))) {
      ok = 0;
      break;
    }
    memset(f, 0, sizeof *f);
    snprintf(f->rel, sizeof f->rel, "%s/%s", rel_dir, e->d_name);
    snprintf(f->path, sizeof f->path, "%s/%s", c->root, f->rel);
    f->in_corpus = in_corpus;
    ok = file_write_all(f->path, data, size);
    free(data);
    c->n++;
  }
  closedir(d);
  return ok;
}

/* Sorts the copies by relative name, so every run goes in the same order. */
static inline int copies_cmp(const void *a, const void *b) {
  return strcmp(((const level_copy *)a)->rel, ((const level_copy *)b)->rel);
}

/* Makes the copies (see above) and reads each one's format through db.
** Returns 0 (printed) when the samples are missing or a copy fails. */
static inline int copies_make(level_copies *c, sqlite3 *db) {
  static const char *const corpus_folders[] = {"wwd", "tw", "wed", "wz4", "tis", "are", NULL};
  const char *samples = getenv("LEVELSQL_SAMPLES");
  const char *corpus = check_corpus_dir();
  int i;
  memset(c, 0, sizeof *c);
  snprintf(c->root, sizeof c->root, "/tmp/levelsql-copies-XXXXXX");
  if (!samples || !mkdtemp(c->root) || !(c->files = calloc(COPIES_MAX, sizeof *c->files))) {
    printf("no samples ($LEVELSQL_SAMPLES) or no temp folder\n");
    return 0;
  }
  if (!copies_folder(c, samples, "samples", 0)) return 0;
  if (corpus) {
    if (mkdir(fmt("%s/corpus", c->root), 0755) != 0) return 0;
    for (i = 0; corpus_folders[i]; i++) {
      if (!copies_folder(c, fmt("%s/%s", corpus, corpus_folders[i]), fmt("corpus/%s", corpus_folders[i]), 1)) return 0;
    }
  }
  qsort(c->files, (size_t)c->n, sizeof *c->files, copies_cmp);
  for (i = 0; i < c->n; i++) {
    const char *format = query_text_len(db, fmt("SELECT format FROM levelsql_files('%s') WHERE ok", c->files[i].path), NULL);
    if (strncmp(format, "(", 1) != 0) snprintf(c->files[i].format, sizeof c->files[i].format, "%s", format);
  }
  return 1;
}

/* Removes the copies and their folders. */
static inline void copies_remove(level_copies *c) {
  int i;
  for (i = 0; i < c->n; i++) unlink(c->files[i].path);
  rmdir(fmt("%s/corpus/wwd", c->root));
  rmdir(fmt("%s/corpus/tw", c->root));
  rmdir(fmt("%s/corpus/wed", c->root));
  rmdir(fmt("%s/corpus/wz4", c->root));
  rmdir(fmt("%s/corpus/tis", c->root));
  rmdir(fmt("%s/corpus/are", c->root));
  rmdir(fmt("%s/corpus", c->root));
  rmdir(fmt("%s/samples", c->root));
  rmdir(c->root);
  free(c->files);
}

/* Every table of the five families with its writable columns, from
** levelsql_columns (in its order); returns the count. */
static inline int tables_list(sqlite3 *db, level_table *tables) {
  sqlite3_stmt *st = NULL;
  int n = 0;
  if (sqlite3_prepare_v2(db,
                         "SELECT table_name, column_name, writable, type FROM levelsql_columns "
                         "WHERE table_name GLOB 'wwd_*' OR table_name GLOB 'tw_*' OR table_name GLOB 'wed_*' "
                         "OR table_name GLOB 'wz4_*' OR table_name GLOB 'tis_*' OR table_name GLOB 'are_*'",
                         -1, &st, NULL) != SQLITE_OK)
    return 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *table = (const char *)sqlite3_column_text(st, 0);
    const char *column = (const char *)sqlite3_column_text(st, 1);
    const char *type = (const char *)sqlite3_column_text(st, 3);
    level_table *t = n ? &tables[n - 1] : NULL;
    if (!t || strcmp(t->name, table) != 0) {
      if (n == TABLES_MAX) break;
      t = &tables[n++];
      memset(t, 0, sizeof *t);
      snprintf(t->name, sizeof t->name, "%s", table);
      snprintf(t->format, sizeof t->format, "%.*s", (int)strcspn(table, "_"), table);
      snprintf(t->source_col, sizeof t->source_col, "source");
    }
    /* a visible column named source: the hidden one is source_path */
    if (strcmp(column, "source") == 0 && strcmp(type, "HIDDEN") != 0) snprintf(t->source_col, sizeof t->source_col, "source_path");
    if (sqlite3_column_int(st, 2) && t->ncolumns < COLUMNS_MAX) snprintf(t->columns[t->ncolumns++], 48, "%s", column);
  }
  sqlite3_finalize(st);
  return n;
}

#endif
