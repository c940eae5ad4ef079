/*
** atlas.h: levelsql_atlas(source, folder [, options]), a browsable atlas
** of a collection of levels written into a folder (README, "Atlas"):
**
**   SELECT levelsql_atlas('maps', 'atlas');
**
** writes atlas/index.html (a card per level with its preview and the
** numbers a modder looks at first, filtering and sorting in plain
** JavaScript; the files that cannot be read, with their errors), a page
** per level under atlas/levels/ (a larger preview, its tables' row
** counts, ready queries), the pictures under atlas/img/ and
** atlas/manifest.json, what the next run over the same folder compares
** with: a level whose file (and the files beside it its preview read)
** kept its size and modification time is not read again.
**
** The work is shared among files, not rows: atlas.c lists the source,
** decides what to redraw and hands every file to redraw to a pool of
** threads (one per levelsql_threads), each reading, parsing, validating
** and drawing its file with the family's ls_atlas_kind and writing its
** pictures and page (atlas_html.c); the connection's thread waits,
** polling sqlite3_interrupt, then writes the index and the manifest.
** Nothing is written outside the folder: every name written is made
** from a hash of the level's path, never from the path itself, files are
** written to a temporary name and renamed over the old, and a folder
** that holds files but no manifest is refused (it is no atlas).
*/
#ifndef LEVELSQL_ATLAS_H
#define LEVELSQL_ATLAS_H

#include "engine/engine.h"

/* What one card may hold (atlas_card.c), so a hostile file cannot make a
** page of millions of lines. */
#define LS_ATLAS_MAX_NUMBERS 4096
#define LS_ATLAS_MAX_PICTURES 256
#define LS_ATLAS_MAX_MARKERS 100000

/* Registers levelsql_atlas on the connection, with the families' kinds
** (kinds[0..n), static data that outlives the connection). */
int ls_atlas_register(sqlite3 *db, ls_session *sess, const ls_atlas_kind *const *kinds, size_t n);

/* A copy of s[0..n) (malloc'd, NUL-terminated) in which every byte that
** does not start a valid UTF-8 sequence, and every NUL, is U+FFFD; NULL
** when out of memory. */
char *ls_atlas_utf8(const char *s, size_t n);

/* ---- between atlas.c and atlas_html.c ------------------------------------ */

/* A level's identity in the folder: 16 hex digits of the SHA-256 of its
** path, the stem of every file written for it. */
#define ATLAS_ID_LEN 16

/* A table's rows in one file, for the level's page. */
typedef struct atlas_count {
  const char *table;
  int64_t rows;
} atlas_count;

/* A file beside a level that its preview read, as it was then. */
typedef struct atlas_dep {
  char *path;
  int64_t size, mtime_ns; /* size -1: absent */
} atlas_dep;

/* What the index shows of one listed file, and what the manifest keeps
** of it (everything malloc'd).  A level has a kind and no error; an
** unreadable file has an error; another file (a tileset, a file of no
** format) has neither a kind nor an error. */
typedef struct atlas_entry {
  char *path;              /* as the source listed it */
  char id[ATLAS_ID_LEN + 1];
  int64_t size, mtime_ns;  /* of the bytes read */
  char *format;            /* the format's name, NULL: none */
  const ls_atlas_kind *kind;
  char *error;             /* why it cannot be read, NULL: it could */
  char *note;              /* what its preview leaves out */
  int thumb_svg, thumb_w, thumb_h;
  ls_atlas_number *numbers;
  size_t nnumbers;
  atlas_dep *deps;
  size_t ndeps;
  char **files;            /* the files written for it, relative to the folder ("img/<id>-t.png") */
  size_t nfiles;
} atlas_entry;

void atlas_entry_clear(atlas_entry *e);

/* The file name a picture of a level is written to, relative to the
** folder: img/<id>-t.png (k -1: the thumbnail) or img/<id>-<k>.<png|svg>. */
void atlas_picture_name(const char *id, int k, int svg, char *out, size_t n);

/* Writes data[0..n) to folder/name through a temporary file renamed over
** it (a link or file already there is replaced, never followed).
** Returns 1, or 0 with err naming the file. */
int atlas_write_file(const char *folder, const char *name, const void *data, size_t n, codec_error *err);

/* What a level's page shows (atlas_html.c). */
typedef struct atlas_page {
  const atlas_entry *entry;
  const ls_atlas_card *card;   /* its pictures' bytes still held (an SVG is put in the page) */
  const atlas_count *counts;
  size_t ncounts;
  const char *title;           /* the atlas's */
} atlas_page;

/* The page of one level (levels/<id>.html), malloc'd into *out; 1, or 0
** when out of memory. */
int atlas_page_html(const atlas_page *page, char **out, size_t *n);

/* index.html of entries[0..n) (sorted by path), malloc'd; 1, or 0 when
** out of memory.  `source` is the source as given, shown in the heading. */
int atlas_index_html(const char *title, const char *source, const atlas_entry *const *entries, size_t n, char **out,
                     size_t *len);

#endif
