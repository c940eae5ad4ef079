/*
** tis.h: the Infinity Engine tileset codec (TIS): palette tiles (the
** original games, "TIS V1") and PVRZ-referencing tiles (the Enhanced
** Editions, "TIS V2"), both reading to 64 x 64 RGBA tiles.
**
** Pure C, no SQLite, no file access.  tis_parse reads the bytes of a .TIS
** file; tis_parse_headerless reads a tileset as the game's BIFF archives
** store it (no 24-byte header: the archive's tileset entry gives the tile
** count and the entry length).  Byte layout (little endian):
** - header: 'TIS ' 'V1  ', tile count (u32), tile entry length (u32),
**   header size = offset of the tiles (u32), tile side in pixels (u32,
**   64).  Both variants carry 'V1  '; the entry length tells them apart:
**   5120 = a palette tile, 12 = a PVRZ reference (TIS_V1_ENTRY,
**   TIS_V2_ENTRY).  Any other length, version or tile side is refused
**   with its value.
** - palette tile (5120 bytes): 256 palette entries of B, G, R, A (A unused:
**   0 in real files), then 64 x 64 palette indices, row by row.
** - PVRZ reference (12 bytes): page (i32), x (u32), y (u32): the tile is
**   the 64 x 64 rectangle at pixel (x, y) of page `page` of the tileset's
**   PVRZ pages (tis_pvrz_name names their files).  Page -1 is a solid black
**   tile.  x and y are pixels and need not be multiples of 4.
**
** Transparency of palette tiles: IESDP says index 0 is transparent, but in
** real tiles index 0 is an ordinary colour (all 236 palette tiles of the
** corpus use it, for 64 % of their pixels, and in 109 of them entry 0 is
** not even black); the games and GemRB make the pixels whose palette
** colour is pure green (0, 255, 0) transparent.  That is the default rule
** here (TIS_ALPHA_GREEN); TIS_ALPHA_INDEX0 gives IESDP's rule, and
** TIS_ALPHA_NONE draws every pixel opaque.  NOTES-tis.md has the numbers.
**
** Model: the header's fields as read, the bytes between the 24-byte header
** and the tiles, the tiles' bytes (palette tiles) or entries (PVRZ tiles)
** and the bytes after the last tile, so a writer could give the file back
** byte for byte; tis_serialize does (no table edits tiles yet: tis_tiles
** is read-only, and the engine's commit wants every format to write).
**
** Ownership: tis_parse and tis_parse_headerless return a tileset the
** caller frees with tis_free; every array in it is owned by it (copied
** from the input, which is only borrowed).  Pointers the accessors return
** point into the tileset.  Decoding writes into the caller's buffer.  The
** pages of PVRZ tiles come from the caller's page function (tis_decode),
** which owns them: the codec never opens a file.
*/
#ifndef LEVELSQL_TIS_H
#define LEVELSQL_TIS_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "tis/pvrz.h"

#define TIS_HEADER_SIZE 24u
#define TIS_TILE_SIDE 64u
#define TIS_TILE_PIXELS (TIS_TILE_SIDE * TIS_TILE_SIDE)
#define TIS_TILE_RGBA_BYTES (TIS_TILE_PIXELS * 4u) /* one decoded tile */
#define TIS_PALETTE_BYTES 1024u
#define TIS_V1_ENTRY (TIS_PALETTE_BYTES + TIS_TILE_PIXELS) /* 5120 */
#define TIS_V2_ENTRY 12u
#define TIS_PAGE_BLACK (-1)  /* a PVRZ reference's page: a solid black tile */
#define TIS_MAX_PAGE 99      /* page file names have two digits */

/* At most this many tiles (a 16 M-tile claim is refused before any
** allocation; real tilesets have a few thousand). */
#define TIS_MAX_TILES (1u << 24)

enum tis_kind { TIS_PALETTE = 1, TIS_PVRZ = 2 };

/* How palette tiles become transparent (see above). */
enum tis_alpha { TIS_ALPHA_GREEN = 0, TIS_ALPHA_INDEX0 = 1, TIS_ALPHA_NONE = 2 };

typedef struct tis_ref {
  int32_t page; /* TIS_PAGE_BLACK or a page 0..99 */
  uint32_t x, y;
} tis_ref;

typedef struct tis_file {
  int kind;             /* enum tis_kind */
  int has_header;       /* 0: read by tis_parse_headerless */
  /* the header as read (a headerless tileset: count and entry length as
  ** given, header_size 0, tile_side 64) */
  unsigned char signature[4], version[4];
  uint32_t tile_count, entry_size, header_size, tile_side;
  unsigned char *header_extra; /* bytes 24 .. header_size (NULL when none), owned */
  size_t header_extra_size;
  unsigned char *tiles;        /* TIS_PALETTE: tile_count * 5120 bytes, owned */
  tis_ref *refs;               /* TIS_PVRZ: tile_count references, owned */
  unsigned char *trailing;     /* bytes after the last tile (NULL when none), owned */
  size_t trailing_size;
} tis_file;

/* Whether data starts like a TIS file ('TIS V1  '; a headerless tileset
** has nothing to sniff). */
/* Writes the TIS V1 header of `count` tiles of `entry_size` bytes each
** (TIS_V1_ENTRY, TIS_V2_ENTRY) into out[0..TIS_HEADER_SIZE): what a file
** starts with, and what a tileset kept in a BIFF archive lacks. */
void tis_header_write(unsigned char *out, uint32_t count, uint32_t entry_size);

int tis_sniff(const unsigned char *data, size_t size);

/* Parses a .TIS file.  Returns 1 and *out, or 0 with err ("tis header: byte
** offset 12: ...", "tile 53: byte offset 271384: truncated ...");
** CODEC_E_LIMIT for a count over TIS_MAX_TILES. */
int tis_parse(const unsigned char *data, size_t size, tis_file **out, codec_error *err);

/* Parses a tileset without header: tile_count entries of entry_size bytes
** (TIS_V1_ENTRY or TIS_V2_ENTRY) from data[0]; bytes after them are kept
** as trailing bytes. */
int tis_parse_headerless(const unsigned char *data, size_t size, uint32_t tile_count, uint32_t entry_size,
                         tis_file **out, codec_error *err);

void tis_free(tis_file *t);

/* The file's bytes back from the model: the header as read (none for a
** headerless tileset), the bytes between it and the tiles, the tiles or
** references, the bytes after them; byte-identical to what was parsed.
** Returns 1 and *out (malloc'd, the caller frees it), or 0 with err
** (CODEC_E_ARG for a model whose fields contradict: an entry length that
** is not its kind's, a header size below 24 or not matching its extra
** bytes; CODEC_E_LIMIT when the size passes SIZE_MAX). */
int tis_serialize(const tis_file *t, unsigned char **out, size_t *out_size, codec_error *err);

/* A deep copy (NULL when out of memory). */
tis_file *tis_clone(const tis_file *t);

/* About how many bytes of memory the model holds (a cache's budget). */
size_t tis_footprint(const tis_file *t);

/* A palette tile's 256 B, G, R, A entries (1024 bytes) and its 4096
** indices; NULL for a PVRZ tileset or a tile out of range. */
const unsigned char *tis_tile_palette(const tis_file *t, uint32_t tile);
const unsigned char *tis_tile_indices(const tis_file *t, uint32_t tile);

/* The caller's page lookup for PVRZ tiles: returns page `page` (0..99) of
** the tileset, or NULL with err set (a missing page file, a damaged one).
** The page stays the caller's. */
typedef const pvrz_page *(*tis_page_fn)(void *ctx, int32_t page, codec_error *err);

typedef struct tis_decode_opts {
  int alpha;          /* enum tis_alpha, palette tiles */
  tis_page_fn page;   /* PVRZ tiles (NULL: every page but -1 fails) */
  void *page_ctx;
} tis_decode_opts;

/* Decodes tile `tile` into rgba (TIS_TILE_RGBA_BYTES, 64 rows of 256
** bytes); opts NULL = the defaults (green transparency, no pages).
** Returns 1, or 0 with err naming the tile (and page, rectangle): an index
** out of range (CODEC_E_ARG), a page below -1 or over 99, a page the
** lookup does not give (its error, prefixed), a rectangle outside the page
** (CODEC_E_FORMAT). */
int tis_decode(const tis_file *t, uint32_t tile, const tis_decode_opts *opts, unsigned char *rgba,
               codec_error *err);

/* The file name of page `page` of the PVRZ tileset `tileset` (a resref of
** len bytes, 3 to 8, no extension): its first character, its characters
** from the third on (the last four of a six-character name, plus the N of
** a night tileset), then the page in two digits and ".PVRZ", upper case:
** YS0108 page 1 is Y010801.PVRZ, AR2600N page 0 A2600N00.PVRZ.  out gets
** the NUL-terminated name (at most 13 bytes with ".PVRZ").  Returns 1, or
** 0 with err (CODEC_E_ARG): a page outside 0..99, a name too short or so
** long the page's resref would pass 8 characters. */
int tis_pvrz_name(const char *tileset, size_t len, int page, char out[16], codec_error *err);

#endif
