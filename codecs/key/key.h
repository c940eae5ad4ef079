/*
** key.h: the Infinity Engine KEY V1 resource index (chitin.key) of Baldur's
** Gate, Icewind Dale, Planescape: Torment and the Enhanced Editions.
**
** Pure C, no SQLite.  key_parse turns the bytes of a chitin.key into a
** key_file: the BIFF archives the game knows (biff.h reads them) and every
** resource kept in them, by 8-byte name (resref) and type.  The layout as
** implemented, and where IESDP is unclear, are in NOTES-key.md.
**
** Model choices, and why:
** - The model mirrors the file's two tables: key_file.biffs[i] is BIFF
**   entry i (the locator's BIFF index points there), key_file.resources[j]
**   resource entry j, each with every field as stored.  Names are copied
**   as given: a BIFF name keeps its backslashes ("data\AREA000A.bif");
**   key_biff_path gives it with '/' separators.
** - A locator is split as the files measure it, not as IESDP says: bits
**   31-20 the BIFF index, bits 19-14 the tileset index (tilesets are
**   numbered from 1; 0 means "not a tileset"), bits 13-0 the file index (14
**   bits, not 12).  key_locator_biff / _tileset / _file do it.
** - Lookup by (resref, type) is case-insensitive (the engine's resrefs are
**   ASCII, compared without case) and answered from a sorted index built by
**   key_parse, in O(log n).  When a (resref, type) pair is listed more than
**   once, the first entry in file order is the one found.
** - Nothing is checked across tables at parse time (a resource whose BIFF
**   index names no BIFF entry is kept as read, as real keys may hold such
**   junk); key_resource_biff refuses it when it is used.
** - No writer: chitin.key is never rewritten by the project (edits go to
**   the override folder, issue 26).
**
** Ownership: key_parse returns a key_file the caller frees with key_free.
** Every array and name inside is owned by it (malloc'd); pointers returned
** by the accessors point into it and stay valid until key_free.  The input
** buffer is only borrowed (key_parse copies what it keeps).
*/
#ifndef LEVELSQL_KEY_H
#define LEVELSQL_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "common/codec_limits.h"

#define KEY_HEADER_SIZE 24u
#define KEY_BIFF_ENTRY_SIZE 12u
#define KEY_RES_ENTRY_SIZE 14u

/* Caps (CODEC_E_LIMIT beyond them).  The locator holds 12 bits of BIFF
** index, so no game can use more BIFF entries than 4096; the largest real
** keys list about 60,000 resources.  The entries must also fit in the
** file, so a small hostile key cannot claim more than its size allows. */
#define KEY_MAX_BIFFS 4096u
#define KEY_MAX_RESOURCES (1u << 22)

/* key_biff.location bits (IESDP: "(MSB) xxxx xxxx ABCD EFGH (LSB)"). */
#define KEY_LOC_DATA 0x01u  /* H: in the game's data folder */
#define KEY_LOC_CACHE 0x02u /* G: in the cache folder */
#define KEY_LOC_CD1 0x04u   /* F .. A: on CD 1 .. 6 (bit 2 .. bit 7) */

/* The resource locator, split (see the model notes). */
static inline uint32_t key_locator_biff(uint32_t locator) {
  return locator >> 20;
}
static inline uint32_t key_locator_tileset(uint32_t locator) {
  return (locator >> 14) & 0x3Fu;
}
static inline uint32_t key_locator_file(uint32_t locator) {
  return locator & 0x3FFFu;
}
/* The locator of (biff, tileset, file); each part cut to its bits. */
static inline uint32_t key_locator_make(uint32_t biff, uint32_t tileset, uint32_t file) {
  return ((biff & 0xFFFu) << 20) | ((tileset & 0x3Fu) << 14) | (file & 0x3FFFu);
}

/* One 12-byte BIFF entry. */
typedef struct key_biff {
  uint32_t file_length; /* the archive's size in bytes, as the key says */
  uint32_t name_offset; /* where its name lies in the key */
  uint16_t name_length; /* counts the terminating NUL */
  uint16_t location;    /* KEY_LOC_* */
  char *name;           /* owned, NUL terminated: the bytes before the first NUL, as given */
} key_biff;

/* One 14-byte resource entry. */
typedef struct key_resource {
  char resref[9];       /* the 8 bytes up to the first NUL, NUL terminated */
  unsigned char raw[8]; /* the 8 bytes as stored */
  uint16_t type;        /* 0x3eb TIS, 0x3f2 ARE, ... (key_type_ext) */
  uint32_t locator;     /* key_locator_biff / _tileset / _file */
} key_resource;

typedef struct key_file {
  uint32_t num_biffs;
  key_biff *biffs;
  uint32_t num_resources;
  key_resource *resources;
  uint32_t biff_offset, res_offset; /* the tables' offsets as read */
  uint32_t *order;                  /* resource indices sorted by (upper-case resref, type, index) */
} key_file;

/* ---- whole files -------------------------------------------------------- */

/* Returns 1 if the buffer starts with 'KEY V1  '. */
int key_sniff(const unsigned char *data, size_t size);

/* Parses a whole chitin.key, polling `cancel` (NULL: never) between
** records.  Returns 1 and sets *out (caller frees with key_free), or 0 with
** err naming the section, the index and the byte offset (CODEC_E_FORMAT,
** CODEC_E_LIMIT beyond the caps, CODEC_E_MEMORY, CODEC_E_INTERRUPT). */
int key_parse(const unsigned char *data, size_t size, const codec_cancel *cancel, key_file **out, codec_error *err);

void key_free(key_file *k);

/* ---- lookups -------------------------------------------------------------- */

/* Finds resource (resref, type): resref (NUL terminated; a name longer
** than 8 bytes is never found) compared without ASCII case.  Returns 1 and
** sets *index (into k->resources), or 0 when the key does not list it. */
int key_lookup(const key_file *k, const char *resref, uint16_t type, uint32_t *index);

/* The BIFF entry resource `index` lives in.  Returns 1 and sets *biff, or 0
** with err (CODEC_E_ARG for an index that does not exist, CODEC_E_FORMAT
** naming the resource when its locator's BIFF index names no BIFF entry). */
int key_resource_biff(const key_file *k, uint32_t index, const key_biff **biff, codec_error *err);

/* A BIFF name with '/' for every '\\' ("data\\AR0602.bif" -> "data/AR0602.bif")
** into buf (NUL terminated, cut to bufsize).  Returns the full length, as
** snprintf does. */
size_t key_biff_path(const key_biff *b, char *buf, size_t bufsize);

/* "RESREF.EXT" of a resource into buf (the type in hex, "0x1234", when it
** has no known extension).  KEY_NAME_MAX bytes always suffice.  Returns the
** length. */
#define KEY_NAME_MAX 20
size_t key_resource_name(const key_resource *r, char *buf, size_t bufsize);

/* ---- shared with biff.c ----------------------------------------------------- */

/* Whether item a sorts before or with item b (ctx: the items). */
typedef int (*key_index_le)(const void *ctx, uint32_t a, uint32_t b);

/* Sorts order[0..n) (indices of items) stably by `le`: a bottom-up merge
** sort (qsort is neither stable nor given a context in C11); tmp holds n
** indices. */
void key_sort_indices(uint32_t *order, uint32_t *tmp, uint32_t n, key_index_le le, const void *ctx);

/* ---- resource types --------------------------------------------------------- */

#define KEY_TYPE_BMP 0x0001u
#define KEY_TYPE_BAM 0x03E8u
#define KEY_TYPE_WED 0x03E9u
#define KEY_TYPE_TIS 0x03EBu
#define KEY_TYPE_MOS 0x03ECu
#define KEY_TYPE_ITM 0x03EDu
#define KEY_TYPE_CRE 0x03F1u
#define KEY_TYPE_ARE 0x03F2u
#define KEY_TYPE_2DA 0x03F4u
#define KEY_TYPE_PVRZ 0x0404u

/* The file extension of a resource type ("TIS" for 0x3eb, upper case), or
** NULL when the table in key.c does not know it. */
const char *key_type_ext(uint16_t type);

/* The type of an extension (any case, without the dot).  Returns 1 and
** sets *type, or 0. */
int key_type_from_ext(const char *ext, uint16_t *type);

#endif
