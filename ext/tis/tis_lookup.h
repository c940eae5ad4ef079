/*
** tis_lookup.h: what a tileset needs from the folder around it, for
** tis_tiles (tis_tables.c) and the tiles of wed_render (ext/wed/wed_render.c).
**
** - Files are found by their resource name in any case: the games' names
**   ignore case and real folders mix them (YS0118.TIS beside
**   y010600.PVRZ).  tis_find tries the name as given, in upper and in lower
**   case, and only then lists the folder.
** - A file is read whole under a cap (the connection's
**   levelsql_limit('decoded'), tis_decoded_limit), refused before reading
**   when it is larger.
** - The PVRZ pages of one tileset (tis_pages) are looked up by the naming
**   rule of tis_pvrz_name in the tileset's folder as its tiles ask for them
**   (tis_pages_get is tis_decode's page function), and kept until their
**   file changes on disk (size, modification time or file number: checked
**   at every use).  The inflated bytes of the pages kept count against the
**   same limit: a tileset whose pages would pass it fails naming the page.
**
** These files are read from the disk directly, not through the session's
** cache of parsed files: PVRZ pages are no format of their own, and a
** table's getter has no session to read through.  So they are never the
** open transaction's copies (TIS and PVRZ files are read-only anyway; a WED
** read for tis_tiles' positions is the one on disk), and on Windows their
** paths go through the C library's narrow (ANSI) file calls.
**
** Ownership: tis_find, tis_dirname and tis_read_file return malloc'd
** memory the caller frees with free(); a tis_pages owns its folder and
** pages (tis_pages_clear frees them).
*/
#ifndef LEVELSQL_TIS_LOOKUP_H
#define LEVELSQL_TIS_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "tis/pvrz.h"
#include "tis/tis.h"

/* A file's identity on disk: it changed when one of these did. */
typedef struct tis_stamp {
  int64_t size, mtime_s, mtime_ns;
  uint64_t dev, ino;
  int found; /* 0: the stat failed */
} tis_stamp;

/* The stamp of the file or folder at path (found 0 when there is none). */
tis_stamp tis_stamp_of(const char *path);
/* Whether two stamps name the same unchanged file (both found). */
int tis_stamp_same(const tis_stamp *a, const tis_stamp *b);

/* The folder part of path, without its last '/' (or '\' on Windows): ""
** for a bare name.  NULL when out of memory. */
char *tis_dirname(const char *path);

/* The path of the regular file called `name` in any case (ASCII letters)
** in folder dir ("" for the current folder): dir/name as given, upper
** case, lower case, else the first name of the folder's listing equal to
** it ignoring case.  NULL when there is none, or when out of memory
** (*oom set to 1; oom may be NULL). */
char *tis_find(const char *dir, const char *name, int *oom);

/* Reads the file at path whole into *data (malloc'd; NULL for an empty
** file) and *size, with its stamp.  A file over max bytes is refused
** (CODEC_E_LIMIT) before it is read.  Returns 1, or 0 with err naming
** path. */
int tis_read_file(const char *path, uint64_t max, unsigned char **data, size_t *size, tis_stamp *stamp,
                  codec_error *err);

/* The connection's levelsql_limit('decoded') (LS_DEFAULT_MAX_DECODED when
** it cannot be asked). */
uint64_t tis_decoded_limit(sqlite3 *db);

/* One page kept: where it came from and what its file was. */
typedef struct tis_page_slot {
  pvrz_page *page; /* NULL: not loaded */
  char *path;      /* malloc'd */
  tis_stamp stamp;
  uint64_t bytes;  /* the inflated size it claimed, counted in held */
} tis_page_slot;

/* The pages of one tileset. */
typedef struct tis_pages {
  char *dir;                 /* the folder looked in (malloc'd; "" the current one) */
  char tileset[9];           /* the tileset's resref, as named (3 to 8 characters) */
  uint64_t limit;            /* levelsql_limit('decoded'): what the kept pages may claim in all */
  uint64_t held;             /* what they claim now */
  tis_page_slot slot[TIS_MAX_PAGE + 1];
} tis_pages;

/* Sets up p for the tileset `tileset` (len bytes) whose pages lie in dir.
** Returns 1, or 0 with err (out of memory). */
int tis_pages_init(tis_pages *p, const char *dir, const char *tileset, size_t len, uint64_t limit,
                   codec_error *err);
/* tis_decode's page function (ctx: a tis_pages): page `page`, loaded or
** reloaded when its file changed.  NULL with err: no such file in the
** folder ("Y010603.PVRZ not found in data/tis"), a file that does not
** parse, the limit passed. */
const pvrz_page *tis_pages_get(void *ctx, int32_t page, codec_error *err);
/* Frees the pages and the folder (p may be set up again). */
void tis_pages_clear(tis_pages *p);
/* Bytes of memory the kept pages hold. */
size_t tis_pages_footprint(const tis_pages *p);

/* A tileset found by its resref in a folder, with its pages, for drawing
** an area (wed_render's tiles). */
typedef struct tis_tileset {
  char *path;     /* the TIS file found (malloc'd) */
  tis_file *tis;
  tis_pages pages; /* looked up beside the TIS */
} tis_tileset;

/* Finds <resref>.TIS (any case) in dir, reads it (at most `limit` bytes)
** and parses it; its pages will be looked up in dir under the same limit.
** Returns 1, or 0 with err: "no AR0100.TIS in areas", the file's error
** (its path in front). */
int tis_tileset_open(tis_tileset *ts, const char *dir, const char *resref, size_t len, uint64_t limit,
                     codec_error *err);
/* Decodes tile `tile` of the tileset (ctx: a tis_tileset) into rgba (64 x
** 64 RGBA): green-transparent palette colours or the page's pixels.
** The shape of render_wed.h's wed_tile_fn. */
int tis_tileset_tile(void *ctx, uint32_t tile, unsigned char *rgba, codec_error *err);
/* Frees what tis_tileset_open loaded (a zeroed tileset is fine). */
void tis_tileset_close(tis_tileset *ts);

#endif
