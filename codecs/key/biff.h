/*
** biff.h: the Infinity Engine's resource archives, as chitin.key (key.h)
** indexes them: BIFF V1 (plain), BIF V1.0 (one zlib stream holding a BIFF
** V1; Icewind Dale's .cbf) and BIFC V1.0 (block-compressed BIFF V1; the
** Enhanced Editions).
**
** Pure C, no SQLite.  biff_open reads any of the three into a
** biff_archive: the BIFF V1 header, its file entries and tileset entries;
** biff_extract copies one resource out by the locator the key gives.  The
** layouts as implemented, the caps and where IESDP is unclear are in
** NOTES-key.md.
**
** Model choices, and why:
** - A plain BIFF is never copied: the archive points into the caller's
**   buffer.  For the engine, which reads a resource through the index
**   without reading the whole archive, biff_index_span says how many
**   leading bytes hold the header and the entries, biff_index_parse reads
**   them alone (the archive then has no data), and biff_find gives a
**   resource's offset and size to read from the file itself.
** - BIF V1.0 and BIFC V1.0 are inflated whole by biff_open into a buffer
**   the archive owns (a BIFC can also be read in part: bifc_map_parse and
**   bifc_read inflate only the blocks a range needs), after their claimed size is checked against the caller's cap and
**   against the largest expansion zlib can reach (so a small file cannot
**   make it allocate gigabytes); the stream must inflate to exactly the
**   claimed size.  Long inflates poll the caller's codec_cancel.
** - Locators are matched as the engine does: a locator whose tileset index
**   (bits 19-14, numbered from 1) is not 0 names the tileset entry with
**   that tileset index; otherwise the file entry whose file index (bits
**   13-0, 14 bits) is the locator's.  The BIFF index bits are ignored (they
**   choose the archive, in the key).  Of two entries with the same index,
**   the first in the table is the one found.
** - Entries are kept as read: a resource whose bytes run past the end of the
**   archive is refused when it is looked up (naming the entry, its locator
**   and the offsets), not when the archive is parsed.
** - A tileset is stored without the 24-byte TIS header: biff_extract gives
**   the tile data as stored (count x tile size), biff_extract_tis the same
**   bytes behind a TIS V1 header, a file a TIS reader takes as it is.
** - No writer (the project never rewrites the game's archives: edits go to
**   the override folder).
**
** Ownership: biff_open and biff_index_parse return an archive the caller
** frees with biff_free.  Its entry tables and inflated bytes are owned by it
** (malloc'd); for a plain BIFF it borrows the caller's buffer, which must
** outlive it.  bifc_map_parse returns a map the caller frees with
** bifc_map_free (it only borrows the file's bytes).  biff_extract, biff_extract_tis, biff_tis_wrap and
** biff_inflate return malloc'd buffers the caller frees with free().
*/
#ifndef LEVELSQL_BIFF_H
#define LEVELSQL_BIFF_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "common/codec_limits.h"
#include "key/key.h"
#include "tis/tis.h" /* the TIS header biff_extract_tis and biff_tis_wrap put in front */

#define BIFF_HEADER_SIZE 20u
#define BIFF_FILE_ENTRY_SIZE 16u
#define BIFF_TILESET_ENTRY_SIZE 20u
#define BIF_HEADER_SIZE 12u  /* 'BIF ', 'V1.0', name length; then the name and two sizes */
#define BIFC_HEADER_SIZE 12u /* 'BIFC', 'V1.0', uncompressed size */
#define BIFC_BLOCK_HEADER_SIZE 8u

/* Caps.  BIFF_MAX_INFLATED is the default cap of biff_open's max_inflated
** (the largest real archives are a few hundred MB); BIFF_MAX_ENTRIES the
** most file or tileset entries an archive may list (CODEC_E_LIMIT); a
** zlib stream cannot expand more than about 1032:1, so a claim above
** BIFF_MAX_ZLIB_RATIO times the compressed size (plus a little) is a lie
** (CODEC_E_FORMAT). */
#define BIFF_MAX_INFLATED ((size_t)1 << 30)
#define BIFF_MAX_ENTRIES (1u << 20)
#define BIFF_MAX_ZLIB_RATIO 1032u

enum biff_container { BIFF_CONTAINER_NONE = 0, BIFF_CONTAINER_BIFF, BIFF_CONTAINER_BIF, BIFF_CONTAINER_BIFC };

/* One 16-byte file entry. */
typedef struct biff_file_entry {
  uint32_t locator; /* bits 13-0 are matched */
  uint32_t offset;  /* of the resource's bytes, from the start of the BIFF V1 */
  uint32_t size;
  uint16_t type;    /* key_type_ext */
  uint16_t unknown; /* bytes 14-15, kept */
} biff_file_entry;

/* One 20-byte tileset entry. */
typedef struct biff_tileset_entry {
  uint32_t locator; /* bits 19-14 are matched */
  uint32_t offset;
  uint32_t count;     /* tiles */
  uint32_t tile_size; /* bytes per tile: 5120 (palette tiles), 12 (PVRZ references) */
  uint16_t type;      /* 0x3eb, TIS */
  uint16_t unknown;
} biff_tileset_entry;

typedef struct biff_archive {
  int container;             /* enum biff_container it was read from */
  char *bif_name;            /* BIF V1.0: the stored file name (owned); NULL otherwise */
  uint64_t size;             /* bytes of the BIFF V1 (inflated, for the compressed ones) */
  const unsigned char *data; /* the BIFF V1 bytes; NULL for an index parsed alone */
  unsigned char *owned;      /* == data when inflated (owned), else NULL */
  uint32_t entries_offset;   /* file entries; the tileset entries follow them */
  uint32_t num_files;
  biff_file_entry *files;
  uint32_t num_tilesets;
  biff_tileset_entry *tilesets;
  uint32_t *file_order; /* file entries sorted by (file index, position) */
} biff_archive;

/* Where one resource lies in the BIFF V1, from biff_find. */
typedef struct biff_resource {
  int is_tileset;
  uint32_t entry;   /* index into files or tilesets */
  uint32_t locator; /* the entry's, as stored */
  uint16_t type;
  uint64_t offset, size;          /* size = count * tile_size for a tileset */
  uint32_t tile_count, tile_size; /* tilesets only */
} biff_resource;

/* Which container the bytes start with (BIFF_CONTAINER_NONE: none). */
int biff_sniff(const unsigned char *data, size_t size);

/* Reads a whole archive of any of the three containers: a plain BIFF in
** place (data is borrowed), a compressed one inflated (at most max_inflated
** bytes: CODEC_E_LIMIT beyond; 0 means BIFF_MAX_INFLATED), polling cancel
** (NULL: never).  Returns 1 and sets *out (biff_free), or 0 with err. */
int biff_open(const unsigned char *data, size_t size, size_t max_inflated, const codec_cancel *cancel,
              biff_archive **out, codec_error *err);

/* Inflates a BIF V1.0 or BIFC V1.0 into the BIFF V1 it holds (malloc'd),
** with the caps of biff_open; *container (may be NULL) says which it was.
** A plain BIFF is refused (CODEC_E_ARG: nothing to inflate). */
int biff_inflate(const unsigned char *data, size_t size, size_t max_inflated, const codec_cancel *cancel,
                 unsigned char **out, size_t *out_size, int *container, codec_error *err);

/* ---- BIFC V1.0 read in part ------------------------------------------------ */

/* One block of a BIFC V1.0: where its bytes go in the BIFF V1 and where its
** zlib stream lies in the file. */
typedef struct bifc_block {
  uint64_t out_offset, in_offset;
  uint32_t out_size, in_size;
} bifc_block;

/* The blocks of a BIFC V1.0, so that a resource is read by inflating only
** the blocks that hold it (bifc_read), never the whole archive. */
typedef struct bifc_map {
  uint32_t total; /* bytes of the BIFF V1 */
  uint32_t num_blocks;
  bifc_block *blocks; /* owned, in file order, covering [0, total) */
} bifc_map;

/* Walks the block headers of a BIFC V1.0 (nothing inflated), with the caps
** of biff_open.  Returns 1 and sets *out (bifc_map_free), or 0 with err
** naming the block and its byte offset. */
int bifc_map_parse(const unsigned char *data, size_t size, size_t max_inflated, const codec_cancel *cancel,
                   bifc_map **out, codec_error *err);

/* A file the caller reads on demand (an open archive the engine reads
** with pread): read() copies n bytes at offset, which lie inside `size`,
** into dst, returning 1, or 0 with err set. */
typedef struct biff_reader {
  int (*read)(void *ctx, uint64_t offset, unsigned char *dst, size_t n, codec_error *err);
  void *ctx;
  uint64_t size; /* of the whole file */
} biff_reader;

/* bifc_map_parse through a reader: 8 bytes read per block header, so a
** map costs its headers, never the file. */
int bifc_map_read(const biff_reader *r, size_t max_inflated, const codec_cancel *cancel, bifc_map **out,
                  codec_error *err);

/* A map of only the blocks that hold bytes [offset, offset + len) of the
** BIFF V1 (the same total; no block when len is 0), for reading that range
** later without the whole map: their compressed bytes lie from the first
** block's in_offset to the end of the last one's.  Returns 1 and sets *out
** (bifc_map_free), or 0 with err (CODEC_E_ARG: a range past the end). */
int bifc_map_slice(const bifc_map *m, uint64_t offset, size_t len, bifc_map **out, codec_error *err);

/* bifc_read where `in` holds only the file's bytes [in_base, in_base +
** in_size): those of the blocks the range needs (a slice's).  A block
** outside them: CODEC_E_ARG. */
int bifc_read_at(const bifc_map *m, const unsigned char *in, uint64_t in_base, size_t in_size, uint64_t offset,
                 size_t len, const codec_cancel *cancel, unsigned char *dst, codec_error *err);

/* Inflates the blocks that hold bytes [offset, offset + len) of the BIFF
** V1 and copies those bytes to dst (len bytes); data is the file the map
** was parsed from.  A range past the end: CODEC_E_ARG. */
int bifc_read(const bifc_map *m, const unsigned char *data, size_t size, uint64_t offset, size_t len,
              const codec_cancel *cancel, unsigned char *dst, codec_error *err);

void bifc_map_free(bifc_map *m);

/* Bytes [offset, offset + len) of the BIFF V1 a BIF V1.0 holds, into dst:
** its one stream is inflated from the start up to the range's end (the
** bytes before dropped, nothing after inflated), so the header and the
** entry tables, which lead the BIFF, cost little.  The header is checked
** as biff_open does.  A range past the end: CODEC_E_ARG. */
int bif_read(const unsigned char *data, size_t size, uint64_t offset, size_t len, const codec_cancel *cancel,
             unsigned char *dst, codec_error *err);

/* The size of the BIFF V1 a BIF V1.0 holds (*inflated), from its header,
** checked as bif_read checks it.  Returns 1, or 0 with err. */
int bif_info(const unsigned char *data, size_t size, uint32_t *inflated, codec_error *err);

/* How many leading bytes of a plain BIFF V1 hold its header and both entry
** tables (header: the first BIFF_HEADER_SIZE bytes at least).  Returns 1
** and sets *span, or 0 with err. */
int biff_index_span(const unsigned char *header, size_t size, uint64_t *span, codec_error *err);

/* Parses a plain BIFF V1's header and entries from its first `size` bytes
** (at least biff_index_span of them) without keeping them: the archive has
** data NULL, and archive_size (the whole file's size) is what biff_find
** checks resource ranges against. */
int biff_index_parse(const unsigned char *data, size_t size, uint64_t archive_size, const codec_cancel *cancel,
                     biff_archive **out, codec_error *err);

void biff_free(biff_archive *a);

/* Finds the entry of `locator` (see the model notes) and checks that its
** bytes lie inside the archive.  Returns 1 and fills *res, or 0 with err
** naming the locator (no such entry) or the entry and its offsets. */
int biff_find(const biff_archive *a, uint32_t locator, biff_resource *res, codec_error *err);

/* Copies the bytes of `locator` out (a tileset: its tile data as stored,
** count x tile size, no TIS header), polling cancel every few MiB.
** res (may be NULL) gets what biff_find says.  An index parsed alone has no
** bytes: CODEC_E_ARG. */
int biff_extract(const biff_archive *a, uint32_t locator, const codec_cancel *cancel, unsigned char **out,
                 size_t *out_size, biff_resource *res, codec_error *err);

/* biff_extract of a tileset locator, behind a TIS V1 header: a whole TIS
** file.  A file entry is refused (CODEC_E_ARG). */
int biff_extract_tis(const biff_archive *a, uint32_t locator, const codec_cancel *cancel, unsigned char **out,
                     size_t *out_size, codec_error *err);

/* The TIS V1 file of `count` tiles of tile_size bytes each held in tiles
** (size bytes, which must be count * tile_size): the 24-byte header
** ('TIS ', 'V1  ', count, tile size, header size 24, tile dimension 64)
** then the tiles. */
int biff_tis_wrap(const unsigned char *tiles, size_t size, uint32_t count, uint32_t tile_size, unsigned char **out,
                  size_t *out_size, codec_error *err);

#endif
