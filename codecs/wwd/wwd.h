/*
** wwd.h: the WWD level codec (Claw, Gruntz, Get Medieval).
**
** Pure C, no SQLite.  wwd_parse turns the bytes of a .WWD file into a
** wwd_level; wwd_serialize turns a wwd_level back into file bytes.
**
** Model choices, and why:
** - The 1524-byte file header and each 160-byte plane header are kept as raw
**   bytes.  Known fields are read and written at the WWD_HDR_* / WWD_PLANE_*
**   offsets below; unknown fields are therefore kept as read and written back
**   unchanged without the codec having to know them.  Counts and offsets in
**   those headers (num_planes, offsets, sizes, checksum) are recomputed by
**   wwd_serialize; everything else is written as it stands in the raw bytes.
** - Strings stay 8-bit bytes in the model (see text8.h for UTF-8); so an
**   unmodified string is always written back as the same bytes.
** - Objects carry a `uid`, unique within one wwd_level for its lifetime and
**   never stored in the file, so a caller can find the same object again
**   after other objects were inserted or deleted (ids in real files are not
**   unique, see ../shared/formats/wwd.md).
**
** Ownership: wwd_parse, wwd_clone and wwd_level_new return a level the caller
** frees with wwd_free.  All arrays and strings inside are owned by the level
** and allocated with malloc.  One exception, for speed: wwd_parse puts
** the tiles of all planes, the object arrays and the strings of all
** objects into one block, wwd_level.block, owned by the level (one
** allocation instead of tens of thousands), marked
** wwd_plane.tiles_in_block, wwd_plane.objects_in_block and
** wwd_bytes.in_block.  Each has bytes of its own there and may be written
** in place, but is never freed or grown on its own: p->tiles is replaced
** through wwd_plane_set_tiles, an object string through wwd_bytes_set, and
** wwd_object_append moves a plane's objects to an array of its own.
** Image-set names are never in it.  wwd_serialize's output is malloc'd; the
** caller frees it with free().
*/
#ifndef LEVELSQL_WWD_H
#define LEVELSQL_WWD_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "common/codec_limits.h"

#define WWD_SIGNATURE 1524u        /* first uint32 of every WWD file */
#define WWD_HEADER_SIZE 1524u
#define WWD_PLANE_HEADER_SIZE 160u
#define WWD_OBJECT_FIXED_SIZE 284u
#define WWD_TILE_PROPS_HEADER_SIZE 32u
/* Largest decompressed main block we agree to allocate (a zlib bomb guard). */
#define WWD_MAX_MAIN_BLOCK (256u * 1024u * 1024u)

/* Special tile values. */
#define WWD_TILE_INVISIBLE 0xFFFFFFFFu
#define WWD_TILE_FILLED 0xEEEEEEEEu

/* Header flags (WWD_HDR_FLAGS). */
#define WWD_FLAG_USE_Z_COORDS 0x1u
#define WWD_FLAG_COMPRESS 0x2u

/* Plane flags (WWD_PLANE_FLAGS). */
#define WWD_PLANE_MAIN 0x01u
#define WWD_PLANE_NO_DRAW 0x02u
#define WWD_PLANE_WRAP_X 0x04u
#define WWD_PLANE_WRAP_Y 0x08u
#define WWD_PLANE_AUTO_TILE_SIZE 0x10u

/* Byte offsets of the fields of the file header (all uint32/int32 LE or
** NUL-terminated strings of the given size). */
enum wwd_header_offset {
  WWD_HDR_SIGNATURE = 0,
  WWD_HDR_FLAGS = 8,
  WWD_HDR_NAME = 16,            /* char[64] */
  WWD_HDR_AUTHOR = 80,          /* char[64] */
  WWD_HDR_BIRTH = 144,          /* char[64] */
  WWD_HDR_REZ_FILE = 208,       /* char[256] */
  WWD_HDR_IMAGE_DIR = 464,      /* char[128] */
  WWD_HDR_PAL_REZ = 592,        /* char[128] */
  WWD_HDR_START_X = 720,
  WWD_HDR_START_Y = 724,
  WWD_HDR_NUM_PLANES = 732,
  WWD_HDR_OFFSET_PLANES = 736,
  WWD_HDR_OFFSET_TILE_PROPS = 740,
  WWD_HDR_DECOMPRESSED_SIZE = 744,
  WWD_HDR_CHECKSUM = 748,
  WWD_HDR_LAUNCH_APP = 756,     /* char[128] */
  WWD_HDR_IMAGE_SET1 = 884,     /* char[128] x 4 */
  WWD_HDR_IMAGE_SET2 = 1012,
  WWD_HDR_IMAGE_SET3 = 1140,
  WWD_HDR_IMAGE_SET4 = 1268,
  WWD_HDR_PREFIX1 = 1396,       /* char[32] x 4 */
  WWD_HDR_PREFIX2 = 1428,
  WWD_HDR_PREFIX3 = 1460,
  WWD_HDR_PREFIX4 = 1492
};

/* Byte offsets inside a 160-byte plane header. */
enum wwd_plane_offset {
  WWD_PLANE_FLAGS = 8,
  WWD_PLANE_NAME = 16,          /* char[64] */
  WWD_PLANE_WIDTH_PX = 80,
  WWD_PLANE_HEIGHT_PX = 84,
  WWD_PLANE_TILE_WIDTH = 88,
  WWD_PLANE_TILE_HEIGHT = 92,
  WWD_PLANE_TILES_WIDE = 96,
  WWD_PLANE_TILES_HIGH = 100,
  WWD_PLANE_MOVEMENT_X = 112,
  WWD_PLANE_MOVEMENT_Y = 116,
  WWD_PLANE_FILL_COLOR = 120,
  WWD_PLANE_NUM_IMAGE_SETS = 124,
  WWD_PLANE_NUM_OBJECTS = 128,
  WWD_PLANE_OFFSET_TILES = 132,
  WWD_PLANE_OFFSET_IMAGE_SETS = 136,
  WWD_PLANE_OFFSET_OBJECTS = 140,
  WWD_PLANE_Z = 144
};

/* The fixed int32 fields of an object, in file order, without the four
** string lengths (which follow the id in the file and are derived from the
** strings).  Field k is stored at byte 0 for k == 0 and 20 + 4*(k-1) after. */
enum wwd_object_field {
  WWD_OBJ_ID, WWD_OBJ_X, WWD_OBJ_Y, WWD_OBJ_Z, WWD_OBJ_I,
  WWD_OBJ_ADD_FLAGS, WWD_OBJ_DYNAMIC_FLAGS, WWD_OBJ_DRAW_FLAGS, WWD_OBJ_USER_FLAGS,
  WWD_OBJ_SCORE, WWD_OBJ_POINTS, WWD_OBJ_POWERUP, WWD_OBJ_DAMAGE, WWD_OBJ_SMARTS,
  WWD_OBJ_HEALTH,
  WWD_OBJ_MOVE_RECT_LEFT, WWD_OBJ_MOVE_RECT_TOP, WWD_OBJ_MOVE_RECT_RIGHT, WWD_OBJ_MOVE_RECT_BOTTOM,
  WWD_OBJ_HIT_RECT_LEFT, WWD_OBJ_HIT_RECT_TOP, WWD_OBJ_HIT_RECT_RIGHT, WWD_OBJ_HIT_RECT_BOTTOM,
  WWD_OBJ_ATTACK_RECT_LEFT, WWD_OBJ_ATTACK_RECT_TOP, WWD_OBJ_ATTACK_RECT_RIGHT, WWD_OBJ_ATTACK_RECT_BOTTOM,
  WWD_OBJ_CLIP_RECT_LEFT, WWD_OBJ_CLIP_RECT_TOP, WWD_OBJ_CLIP_RECT_RIGHT, WWD_OBJ_CLIP_RECT_BOTTOM,
  WWD_OBJ_USER_RECT1_LEFT, WWD_OBJ_USER_RECT1_TOP, WWD_OBJ_USER_RECT1_RIGHT, WWD_OBJ_USER_RECT1_BOTTOM,
  WWD_OBJ_USER_RECT2_LEFT, WWD_OBJ_USER_RECT2_TOP, WWD_OBJ_USER_RECT2_RIGHT, WWD_OBJ_USER_RECT2_BOTTOM,
  WWD_OBJ_USER1, WWD_OBJ_USER2, WWD_OBJ_USER3, WWD_OBJ_USER4,
  WWD_OBJ_USER5, WWD_OBJ_USER6, WWD_OBJ_USER7, WWD_OBJ_USER8,
  WWD_OBJ_MIN_X, WWD_OBJ_MIN_Y, WWD_OBJ_MAX_X, WWD_OBJ_MAX_Y,
  WWD_OBJ_SPEED_X, WWD_OBJ_SPEED_Y, WWD_OBJ_TWEAK_X, WWD_OBJ_TWEAK_Y,
  WWD_OBJ_COUNTER, WWD_OBJ_SPEED, WWD_OBJ_WIDTH, WWD_OBJ_HEIGHT,
  WWD_OBJ_DIRECTION, WWD_OBJ_FACE_DIR, WWD_OBJ_TIME_DELAY, WWD_OBJ_FRAME_DELAY,
  WWD_OBJ_OBJECT_TYPE, WWD_OBJ_HIT_TYPE_FLAGS, WWD_OBJ_MOVE_RES_X, WWD_OBJ_MOVE_RES_Y,
  WWD_OBJECT_NFIELDS /* 67 */
};

/* An 8-bit string with explicit length (object strings, image-set names). */
typedef struct wwd_bytes {
  unsigned char *data; /* malloc'd, may be NULL when len == 0 */
  uint32_t len;
  int in_block;        /* 1: data lies in the level's block (see above), not freed alone */
} wwd_bytes;

/* The four strings of an object, in file order. */
enum wwd_object_string { WWD_STR_NAME, WWD_STR_LOGIC, WWD_STR_IMAGE_SET, WWD_STR_ANIMATION, WWD_OBJECT_NSTRINGS };

typedef struct wwd_object {
  uint32_t uid;                       /* model-only identity, see above */
  int32_t field[WWD_OBJECT_NFIELDS];  /* enum wwd_object_field; unsigned fields stored as their bit pattern */
  wwd_bytes str[WWD_OBJECT_NSTRINGS]; /* enum wwd_object_string */
} wwd_object;

typedef struct wwd_plane {
  uint32_t uid;             /* model-only identity, like an object's (see above) */
  unsigned char header[WWD_PLANE_HEADER_SIZE]; /* raw; counts/offsets rewritten on save */
  uint32_t *tiles;          /* tiles_wide * tiles_high values, row by row */
  int tiles_in_block;       /* 1: tiles lie in the level's block (not freed alone); 0: malloc'd */
  uint32_t tiles_wide;      /* copies of the header dimensions, validated on parse */
  uint32_t tiles_high;
  uint32_t num_image_sets;
  wwd_bytes *image_sets;    /* NUL-terminated strings in the file; NUL not included here */
  uint32_t num_objects;
  uint32_t objects_cap;
  wwd_object *objects;
  int objects_in_block;     /* 1: the array lies in the level's block (grows into one of its own); 0: malloc'd */
} wwd_plane;

enum wwd_tile_type { WWD_TILE_SINGLE = 1, WWD_TILE_DOUBLE = 2, WWD_TILE_MASK = 3 };

typedef struct wwd_tile_property {
  uint32_t uid;             /* model-only identity, like an object's (see above) */
  uint32_t type;            /* enum wwd_tile_type */
  uint32_t unknown;         /* the uint32 after the type, kept as read */
  uint32_t width;
  uint32_t height;
  int32_t attribute;        /* single: the attribute; double: the outside attribute */
  int32_t inside_attribute; /* double only */
  int32_t rect[4];          /* double only: left, top, right, bottom */
  unsigned char *mask;      /* mask only: width*height bytes (malloc'd) */
  uint32_t mask_len;
} wwd_tile_property;

enum wwd_checksum_kind {
  WWD_CHECKSUM_EXACT,    /* stored == S */
  WWD_CHECKSUM_ENGINE,   /* stored - S in 1..255, compressed files (the editor's stray byte) */
  WWD_CHECKSUM_WAPMAP,   /* stored - S == -40 */
  WWD_CHECKSUM_UNSET,    /* stored == 0 */
  WWD_CHECKSUM_MISMATCH
};

typedef struct wwd_level {
  unsigned char header[WWD_HEADER_SIZE];            /* raw; counts/offsets/checksum rewritten on save */
  unsigned char tile_props_header[WWD_TILE_PROPS_HEADER_SIZE]; /* raw, count rewritten on save */
  uint32_t num_planes;
  wwd_plane *planes;
  uint32_t num_tile_properties;
  wwd_tile_property *tile_properties;
  /* As read from the file (not updated by edits): */
  uint32_t checksum_stored;
  uint32_t checksum_computed;   /* S over the main block as stored on disk */
  enum wwd_checksum_kind checksum_kind;
  uint64_t file_size;
  /* Next uid to hand out (uids are dense 0..next_uid-1 right after parse,
  ** in plane order, then list order). */
  uint32_t next_uid;
  /* Next plane and tile property uids (dense 0..n-1 right after parse, in
  ** file order; inserts take the next one, deletes leave gaps). */
  uint32_t next_plane_uid;
  uint32_t next_property_uid;
  /* The tiles and object strings of a parsed level (see above; malloc'd,
  ** owned by the level, freed by wwd_free, kept whole even when edits
  ** replaced what was in it; NULL for clones and new levels). */
  unsigned char *block;
  size_t block_size;
} wwd_level;

/* ---- whole files -------------------------------------------------------- */

/* Returns 1 if the buffer starts like a WWD file (signature 1524). */
int wwd_sniff(const unsigned char *data, size_t size);

/* Parses a whole file.  Returns 1 and sets *out, or returns 0 with err
** naming the section (header, plane N, tiles of plane N, image sets of plane
** N, object K of plane N, tile property K) and the byte offset. */
int wwd_parse(const unsigned char *data, size_t size, wwd_level **out, codec_error *err);

/* What a caller lends wwd_parse_reusing.
** - data, cap: a buffer for the inflated main block of compressed levels,
**   so that parsing many levels in a row reuses one allocation, and the
**   pages already in memory, instead of a fresh one per level.  Owned by
**   the caller: start it zeroed, free(data) when done.  wwd_parse_reusing
**   grows it with realloc when a level needs more (see wwd_scratch_bytes)
**   and keeps no pointer into it.
** - alloc_large (optional, NULL: malloc): allocates the level's block
**   (wwd_level.block, most of a level's memory), so a caller can place a
**   model in memory of its choosing (huge pages).  What it returns must be
**   memory free() and realloc() accept; it may hold more than asked for,
**   since the parse realloc()s the block to the size it uses before it
**   returns.
** - cancel (optional, NULL: never): polled while the main block inflates
**   (every WWD_INFLATE_STEP bytes of output, a millisecond or two) and
**   while a plane's tiles are copied into the level (every 4 MiB), so a
**   caller can stop the parse of a large level (sqlite3_interrupt); the
**   parse then fails with CODEC_E_INTERRUPT ("interrupted") and keeps
**   nothing.  Borrowed for the call. */
typedef struct wwd_scratch {
  unsigned char *data;
  size_t cap;
  void *(*alloc_large)(size_t n);
  const codec_cancel *cancel;
} wwd_scratch;

/* Output bytes the main block inflates between two polls of
** wwd_scratch.cancel. */
#define WWD_INFLATE_STEP (1u << 20)

/* The bytes wwd_parse_reusing will want in its scratch for this file: the
** header plus the main block's claimed decompressed size, for a compressed
** level whose claim passes the parser's checks; 0 otherwise (nothing to
** inflate, or the parse will fail before inflating).  Lets a caller
** provide the buffer in memory of its choosing before the parse. */
size_t wwd_scratch_bytes(const unsigned char *data, size_t size);

/* wwd_parse, inflating into *scratch (NULL: a buffer of its own). */
int wwd_parse_reusing(const unsigned char *data, size_t size, wwd_scratch *scratch, wwd_level **out,
                      codec_error *err);

/* Serializes a level: recomputes counts, offsets, the decompressed size and
** the exact checksum S; compresses the main block when WWD_FLAG_COMPRESS is
** set in the header flags.  Returns 1 and a malloc'd buffer, or 0 with err
** (e.g. a mask whose length is not width*height, a dimension overflow). */
int wwd_serialize(const wwd_level *lvl, unsigned char **out, size_t *out_size, codec_error *err);

/* Deep copy (NULL when memory runs out); uids and next_uid are kept. */
wwd_level *wwd_clone(const wwd_level *lvl);

void wwd_free(wwd_level *lvl);

/* Gives a plane a new tile array (malloc'd, or NULL for no cells; the
** plane owns it from now on), releasing the old one unless it lies in the
** level's block.  The dimensions are the caller's to update. */
void wwd_plane_set_tiles(wwd_plane *p, uint32_t *tiles);

/* The main plane (the first whose flags have WWD_PLANE_MAIN), or -1. */
long wwd_main_plane(const wwd_level *lvl);

/* The sizes a new plane takes where its INSERT gives none: those of the
** main plane, else of the first plane; 64 x 64-pixel tiles and 0 x 0
** tiles in a level without planes. */
typedef struct wwd_plane_size {
  uint32_t tile_width, tile_height, tiles_wide, tiles_high;
} wwd_plane_size;
wwd_plane_size wwd_new_plane_size(const wwd_level *lvl);

/* The tile size a new tile property takes: the main plane's, 64 x 64
** pixels in a level without one. */
void wwd_main_tile_size(const wwd_level *lvl, uint32_t *width, uint32_t *height);

/* The id the editors give a new object: one above the largest id of the
** level (any plane), or 1 in a level without objects (INT32_MAX at most). */
int32_t wwd_next_object_id(const wwd_level *lvl);

/* The objects on all planes of the level. */
uint64_t wwd_num_objects(const wwd_level *lvl);

/* About how many bytes of memory a level holds: the kept block whole,
** tiles and object strings not in it, objects, masks (headers are small),
** for a cache budget. */
size_t wwd_footprint(const wwd_level *lvl);

/* A new, valid, empty level: signature, flags = use z coords, one main plane
** named "Action" with the given tile size and dimensions (all tiles
** invisible), no objects, no tile properties.  NULL when out of memory or
** the dimensions overflow. */
wwd_level *wwd_level_new(uint32_t tiles_wide, uint32_t tiles_high, uint32_t tile_width, uint32_t tile_height);

/* ---- checksum and game ------------------------------------------------- */

/* S = -L + sum over i = 1 .. L-1 of (B[i] - i), uint32 arithmetic. */
uint32_t wwd_checksum(const unsigned char *block, size_t len);

/* 'exact', 'engine', 'wapmap', 'unset', 'mismatch'. */
const char *wwd_checksum_kind_name(enum wwd_checksum_kind kind);

/* 'claw', 'gruntz', 'getmedieval' or NULL, from the image dir / prefixes. */
const char *wwd_game(const wwd_level *lvl);

/* Content equality of two levels, for tests and the fuzz harness: raw
** headers (except the counts, offsets, decompressed size and checksum that
** wwd_serialize recomputes), tiles, image sets, objects (fields and strings,
** not uids) and tile properties (the fields their type stores).  Returns 1
** when equal, else 0 with the first difference in why (may be NULL). */
int wwd_equal(const wwd_level *a, const wwd_level *b, char *why, size_t why_size);

/* ---- edits ---------------------------------------------------------------- */

/* Reads a NUL-terminated fixed-size string field of a raw header: the bytes
** before the first NUL (the whole field if it has none).  Returns the length
** and points *out into the header. */
size_t wwd_fixed_string(const unsigned char *field, size_t field_size, const unsigned char **out);

/* Stores a string into a fixed-size field.  If the field already holds
** exactly these bytes nothing changes (so trailing bytes after the NUL are
** kept); otherwise the bytes, a NUL and zero fill.  Returns 0 (field
** unchanged) when n >= field_size: the field needs room for the NUL. */
int wwd_fixed_string_set(unsigned char *field, size_t field_size, const unsigned char *s, size_t n);

/* Replaces an 8-bit string (the new one malloc'd; the old one freed unless
** it lies in the level's block).  Returns 0 when memory runs out (old
** kept). */
int wwd_bytes_set(wwd_bytes *b, const unsigned char *s, size_t n);

/* Appends a zeroed object (all fields 0, strings empty) to a plane, giving it
** lvl->next_uid++.  Returns its index in the plane, or -1 when out of memory
** or the plane does not exist. */
long wwd_object_append(wwd_level *lvl, uint32_t plane);

/* Removes object idx of a plane, keeping the order of the others.  Returns 0
** when plane or idx is out of range. */
int wwd_object_remove(wwd_level *lvl, uint32_t plane, uint32_t idx);

/* Finds an object by uid.  Returns 1 and sets *plane, *idx, or 0. */
int wwd_object_find(const wwd_level *lvl, uint32_t uid, uint32_t *plane, uint32_t *idx);

/* Inserts a plane at index `at` (0 .. num_planes; later planes move up):
** a header with the 160 block size, the given tile size and dimensions,
** pixel size = tiles * tile size, movement 100%, flags 0 (not main), an
** empty name, all tiles invisible, no image sets, no objects.  Returns 0
** when `at` is out of range, the dimensions overflow or memory runs out. */
int wwd_plane_insert(wwd_level *lvl, uint32_t at, uint32_t tiles_wide, uint32_t tiles_high,
                     uint32_t tile_width, uint32_t tile_height);

/* The plane an INSERT adds at `at`: wwd_plane_insert with the tile size
** given but no cells yet, its header saying tiles_wide x tiles_high, the
** size the caller then gives it (wwd_plane_resize, which fills the new
** cells).  Returns 1, or 0 with err (out of memory, as wwd_plane_insert
** fails). */
int wwd_plane_insert_unsized(wwd_level *lvl, uint32_t at, uint32_t tile_width, uint32_t tile_height, uint32_t tiles_wide,
                             uint32_t tiles_high, codec_error *err);

/* Removes plane `plane` with its tiles, image sets and objects; later
** planes move down one index.  Refuses nothing itself (the main plane is
** the caller's rule).  Returns 0 when plane is out of range. */
int wwd_plane_remove(wwd_level *lvl, uint32_t plane);

/* Finds a plane by uid.  Returns 1 and sets *at to its index, or 0. */
int wwd_plane_find(const wwd_level *lvl, uint32_t uid, uint32_t *at);

/* Deletes plane `plane` as an edit of the level (wwd_plane_remove), but
** never the main plane: a level cannot do without it (the game starts
** there).  Returns 1, or 0 with err. */
int wwd_plane_delete(wwd_level *lvl, uint32_t plane, codec_error *err);

/* Gives a plane the n image set names (names[i], lens[i] bytes, no NUL),
** replacing its old ones.  Returns 1, or 0 with err when out of memory
** (the plane unchanged). */
int wwd_plane_set_image_sets(wwd_plane *p, const char *const *names, const size_t *lens, size_t n, codec_error *err);

/* The most cells one plane may have after a resize or insert: its tiles
** alone fill the largest main block the codec reads (WWD_MAX_MAIN_BLOCK). */
#define WWD_MAX_PLANE_CELLS (WWD_MAX_MAIN_BLOCK / 4u)

/* Resizes a plane to tiles_wide x tiles_high, cells anchored top-left: the
** cell (x, y) keeps its value where it still exists, new cells get `fill`
** (a tile id, WWD_TILE_INVISIBLE or WWD_TILE_FILLED).  The header's tile
** counts and pixel size (tiles * tile size) follow.  Objects stay where
** they are, even outside the new size.  Returns 1, or 0 with err (the
** plane unchanged): out of range, more than WWD_MAX_PLANE_CELLS cells, a
** pixel size beyond int32, out of memory. */
int wwd_plane_resize(wwd_level *lvl, uint32_t plane, uint32_t tiles_wide, uint32_t tiles_high, uint32_t fill,
                     codec_error *err);

/* The value the cells a plane gains take, as a new_cells setting names it:
** "invisible" (WWD_TILE_INVISIBLE) or "filled" (WWD_TILE_FILLED), in any
** case, or a tile id in decimal digits, 0 to UINT32_MAX but neither
** special value.  Returns 1 and sets *cell, or 0 for any other text. */
int wwd_new_cells_parse(const char *text, uint32_t *cell);

/* Writes plane `plane` as an edit of its raw header left it: when the
** header's tile counts differ from the plane's, a resize to them first
** (wwd_plane_resize, new cells `fill`); then, when new_sets, the n image
** set names (wwd_plane_set_image_sets); then the rest of the header, whose
** size fields (tile counts, pixel size) keep what the resize wrote.
** Returns 1, or 0 with err (a size that cannot be is refused before
** anything changes). */
int wwd_plane_update(wwd_level *lvl, uint32_t plane, const unsigned char header[WWD_PLANE_HEADER_SIZE], int new_sets,
                     const char *const *names, const size_t *lens, size_t n, uint32_t fill, codec_error *err);

/* Inserts a tile property at index `at` (0 .. num_tile_properties; later
** ones move up one tile id) of the given type and size, as
** wwd_tile_property_append makes it, with a fresh uid.  Returns `at`, or
** -1 on a bad type or index, a mask too large or out of memory. */
long wwd_tile_property_insert(wwd_level *lvl, uint32_t at, uint32_t type, uint32_t width, uint32_t height);

/* Removes tile property idx; later ones move down one tile id.  Returns 0
** when idx is out of range. */
int wwd_tile_property_remove(wwd_level *lvl, uint32_t idx);

/* Finds a tile property by uid.  Returns 1 and sets *at to its index, or 0. */
int wwd_tile_property_find(const wwd_level *lvl, uint32_t uid, uint32_t *at);

/* Appends a tile property of the given type and size (attributes 0; a mask
** gets width*height zero bytes).  Returns its index, or -1 on a bad type,
** a mask too large or out of memory. */
long wwd_tile_property_append(wwd_level *lvl, uint32_t type, uint32_t width, uint32_t height);

/* Checks what wwd_serialize would refuse, for one tile property, so a caller
** can reject an edit at once.  Returns 1 if consistent, else 0 with err. */
int wwd_tile_property_check(const wwd_tile_property *tp, uint32_t index, codec_error *err);

/* Changes a tile property's type, keeping the other fields; a new mask is
** width*height zero bytes, an old mask is dropped.  Returns 0 on bad type
** or out of memory (property unchanged). */
int wwd_tile_property_set_type(wwd_tile_property *tp, uint32_t type);

/* Replaces the mask bytes (type 3).  Returns 0 when out of memory. */
int wwd_tile_property_set_mask(wwd_tile_property *tp, const unsigned char *mask, size_t n);

/* Writes tile property `index` of the level as `want` says: its size
** first, then a new type (a new mask tile gets a zeroed mask of the new
** width*height), then the attributes and the rectangle, then, when
** new_mask, the mask bytes mask[0..mask_len); the property must then be one
** wwd_serialize takes (a mask width*height bytes: wwd_tile_property_check).
** want's uid, unknown and mask are not used.  Returns 1, or 0 with err (out
** of memory; an inconsistent property, which the caller's statement undoes). */
int wwd_tile_property_update(wwd_level *lvl, uint32_t index, const wwd_tile_property *want, int new_mask,
                             const unsigned char *mask, size_t mask_len, codec_error *err);

#endif
