/*
** tis_lookup.h: what a tileset needs from around it, for tis_tiles
** (tis_tables.c) and the tiles of wed_render (ext/wed/wed_render.c).
**
** - Files are found by name with the engine's ls_find (engine.h, "files
**   beside a file"): beside a file on disk, in any case (the games' names
**   ignore case and real folders mix them: YS0118.TIS beside
**   y010600.PVRZ); beside a game's resource ("<key>:AR0100.TIS"), among
**   the game's resources as the game finds them, its override folder
**   first, then its archives.
** - A file is read whole under a cap (the connection's
**   levelsql_limit('decoded'), tis_decoded_limit), refused before reading
**   when it is larger.
** - The PVRZ pages of one tileset (tis_pages) are looked up by the naming
**   rule of tis_pvrz_name beside the tileset as its tiles ask for them
**   (tis_pages_get is tis_decode's page function), and kept until what
**   ls_find finds for them changes (its stamp: checked at every use).
**   The inflated bytes of the pages kept count against the same limit: a
**   tileset whose pages would pass it fails naming the page.
**
** These files are read as committed (the disk and the game's archives),
** not through the session's cache of parsed files: a page is never an
** open transaction's copy (TIS and PVRZ files are read-only anyway; a WED
** read for tis_tiles' positions is the committed one).  ls_find reaches
** the connection's game cache through the connection, so a tis_pages
** holds the connection only while its user decodes (tis_pages.db).
**
** Ownership: a tis_pages owns its tileset's path and its pages
** (tis_pages_clear frees them); a tis_tileset owns its path, tileset and
** pages (tis_tileset_close).
*/
#ifndef LEVELSQL_TIS_LOOKUP_H
#define LEVELSQL_TIS_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "tis/pvrz.h"
#include "tis/tis.h"

/* The connection's levelsql_limit('decoded') (LS_DEFAULT_MAX_DECODED when
** it cannot be asked). */
uint64_t tis_decoded_limit(sqlite3 *db);

/* One page kept, and the identity of what ls_find found for it. */
typedef struct tis_page_slot {
  pvrz_page *page; /* NULL: not loaded */
  ls_stamp stamp;
  uint64_t bytes;  /* the inflated size it claimed, counted in held */
} tis_page_slot;

/* The pages of one tileset. */
typedef struct tis_pages {
  sqlite3 *db;               /* the connection to look through, set while its user decodes (not owned; NULL otherwise) */
  char *near;                /* the tileset's file as the engine names it: pages are looked for beside it (malloc'd) */
  char tileset[9];           /* the tileset's resref, as named (3 to 8 characters) */
  uint64_t limit;            /* levelsql_limit('decoded'): what the kept pages may claim in all */
  uint64_t held;             /* what they claim now */
  tis_page_slot slot[TIS_MAX_PAGE + 1];
} tis_pages;

/* Sets up p for the tileset `tileset` (len bytes) whose file is `near`
** (its pages are looked for beside it).  Returns 1, or 0 with err (out of
** memory). */
int tis_pages_init(tis_pages *p, const char *near, const char *tileset, size_t len, uint64_t limit,
                   codec_error *err);
/* tis_decode's page function (ctx: a tis_pages whose db is set): page
** `page`, loaded, or loaded again when what ls_find finds for it changed.
** NULL with err: no such page beside the tileset ("Y010603.PVRZ not
** found in data/tis"), a page that does not read or parse (its path
** named), the limit passed. */
const pvrz_page *tis_pages_get(void *ctx, int32_t page, codec_error *err);
/* Frees the pages and the path (p may be set up again). */
void tis_pages_clear(tis_pages *p);
/* Bytes of memory the kept pages hold. */
size_t tis_pages_footprint(const tis_pages *p);

/* A tileset found by its resref, with its pages, for drawing an area
** (wed_render's tiles). */
typedef struct tis_tileset {
  char *path;      /* the TIS found (malloc'd) */
  tis_file *tis;
  tis_pages pages; /* looked up beside the TIS found */
} tis_tileset;

/* Finds <resref>.TIS with ls_find (near and how as it takes them: beside
** the WED, or in a folder or game an option names) through the connection
** db, reads it (at most `limit` bytes) and parses it; its pages will be
** looked for beside it under the same limit, through db (which must
** outlive the tileset).  Returns 1, or 0 with err: "no AR0100.TIS in
** areas", the file's error (its path in front). */
int tis_tileset_open(tis_tileset *ts, sqlite3 *db, const char *near, int how, const char *resref, size_t len,
                     uint64_t limit, codec_error *err);
/* Decodes tile `tile` of the tileset (ctx: a tis_tileset) into rgba (64 x
** 64 RGBA): green-transparent palette colours or the page's pixels.
** The shape of render_wed.h's wed_tile_fn. */
int tis_tileset_tile(void *ctx, uint32_t tile, unsigned char *rgba, codec_error *err);
/* Frees what tis_tileset_open loaded (a zeroed tileset is fine). */
void tis_tileset_close(tis_tileset *ts);

#endif
