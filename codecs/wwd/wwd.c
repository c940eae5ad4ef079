/*
** wwd.c: the WWD level codec (see wwd.h for the model and the contract,
** NOTES-wwd.md for the quirks handled here and why, and
** ../shared/formats/wwd.md for what real files do).
**
** Reading: the header is checked, a compressed main block is inflated into
** "header + decompressed main block" (so every offset in the file can be
** used as is), then every section is found through its offset, never by
** assuming an order.  Every count, size and offset read from the file is
** checked against the bytes actually present, with overflow-safe
** arithmetic, before anything is allocated or read.
**
** Writing: the canonical layout the editors write (plane headers, tiles of
** all planes, image-set strings of all planes, objects of all planes, tile
** properties ending at the end of the data), with counts, offsets, the
** decompressed size and the exact checksum recomputed.  For the real files
** this reproduces uncompressed files byte for byte, and compressed files
** decompress to the same bytes (zlib level 6 even gives the same stream for
** all but one of them).
*/
#include "wwd/wwd.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"

/* zlib level used when writing compressed levels: level 6 reproduces the
** compressed stream of 13 of the 14 compressed real files exactly. */
#define WWD_ZLIB_LEVEL 6
/* Deflate cannot expand more than about 1032:1 (a 258-byte match costs at
** least 2 bits); a larger claimed ratio is refused before allocating. */
#define WWD_MAX_INFLATE_RATIO 1032u
#define WWD_INFLATE_SLACK 1024u
/* Caps on counts whose model entries are much larger than their smallest
** form in the file (an empty image-set name is 1 byte, a wwd_bytes 16; a
** 0x0 mask property 16 bytes, a wwd_tile_property 64), so a small file
** cannot make the parser allocate many times its size.  Real files have
** 1 image set per plane and at most about 1000 tile properties. */
#define WWD_MAX_IMAGE_SETS_TOTAL (1u << 20)
#define WWD_MAX_TILE_PROPERTIES (1u << 20)

/* Sizes of the tile property kinds in the file. */
#define WWD_TP_HEAD_SIZE 16u
#define WWD_TP_SINGLE_SIZE 20u
#define WWD_TP_DOUBLE_SIZE 40u

/* ---- small helpers -------------------------------------------------------- */

/* What a parse is reading: "header + decompressed main block" (or the file
** itself when uncompressed), and the note appended to byte offsets so a
** reader knows which coordinates they are in. */
typedef struct wwd_src {
  const unsigned char *data;
  size_t size;
  const char *note; /* "" or " (decompressed)" */
  size_t used;      /* bytes of main-block sections read so far */
  size_t sets;      /* image-set names read so far, all planes */
  /* The level's block (wwd_level.block) while it is filled: tiles and
  ** object strings are copied to arena + arena_used in parse order, tiles
  ** at a multiple of 4.  NULL: every array and string gets its own malloc. */
  unsigned char *arena;
  size_t arena_cap;
  size_t arena_used;
  const codec_cancel *cancel; /* wwd_scratch.cancel (NULL: never), polled while large parts are copied */
} wwd_src;

/* Frees the strings of one object (the object itself lives in an array);
** strings in the level's block go with the block. */
static void object_clear(wwd_object *o) {
  int s;
  for (s = 0; s < WWD_OBJECT_NSTRINGS; s++) {
    if (!o->str[s].in_block) free(o->str[s].data);
    o->str[s].data = NULL;
    o->str[s].len = 0;
    o->str[s].in_block = 0;
  }
}

/* Frees everything a plane owns (not the plane struct, which is in an
** array), so a half-built plane can be released too. */
static void plane_clear(wwd_plane *p) {
  uint32_t i;
  wwd_plane_set_tiles(p, NULL);
  if (p->image_sets) {
    for (i = 0; i < p->num_image_sets; i++) free(p->image_sets[i].data);
  }
  free(p->image_sets);
  p->image_sets = NULL;
  p->num_image_sets = 0;
  if (p->objects) {
    for (i = 0; i < p->num_objects; i++) object_clear(&p->objects[i]);
  }
  if (!p->objects_in_block) free(p->objects);
  p->objects = NULL;
  p->objects_in_block = 0;
  p->num_objects = 0;
  p->objects_cap = 0;
}

/* Swaps in a plane's new tile array (see wwd.h): the old one is freed
** only when the plane owns it, since tiles in the level's block go with
** the block (wwd_free). */
void wwd_plane_set_tiles(wwd_plane *p, uint32_t *tiles) {
  if (!p->tiles_in_block) free(p->tiles);
  p->tiles = tiles;
  p->tiles_in_block = 0;
}

/* Copies n bytes into a new malloc'd wwd_bytes (NULL data when n == 0).
** Returns 0 when memory runs out. */
static int bytes_dup(wwd_bytes *b, const unsigned char *s, size_t n) {
  b->data = NULL;
  b->len = 0;
  b->in_block = 0;
  if (n == 0) return 1;
  if (n > UINT32_MAX) return 0;
  b->data = (unsigned char *)malloc(n);
  if (!b->data) return 0;
  memcpy(b->data, s, n);
  b->len = (uint32_t)n;
  return 1;
}

/* ---- checksum, names, game ------------------------------------------------ */

/* The sum of n bytes modulo 2^32, eight at a time: each 64-bit word is
** split into four 16-bit lanes holding two bytes' sum (at most 510), and
** the lanes are folded into the total every 128 words, before they could
** pass 65535 (128 * 510 = 65280).  A sum does not depend on byte order, so
** the host's endianness does not matter. */
static uint32_t byte_sum(const unsigned char *p, size_t n) {
  const uint64_t low_bytes = 0x00FF00FF00FF00FFull;
  uint32_t total = 0;
  while (n >= 8) {
    uint64_t lanes = 0;
    size_t words = n / 8 < 128 ? n / 8 : 128, w;
    for (w = 0; w < words; w++) {
      uint64_t v;
      memcpy(&v, p + 8 * w, 8);
      lanes += (v & low_bytes) + ((v >> 8) & low_bytes);
    }
    total += (uint32_t)((lanes & 0xFFFF) + ((lanes >> 16) & 0xFFFF) + ((lanes >> 32) & 0xFFFF) + (lanes >> 48));
    p += 8 * words;
    n -= 8 * words;
  }
  while (n--) total += *p++;
  return total;
}

/* S = -L + sum over i = 1 .. L-1 of (B[i] - i) in uint32 arithmetic (the
** formula the real files were measured against, see wwd.md), computed as
** -L - (1 + ... + L-1) + (B[1] + ... + B[L-1]): the index sum in closed
** form, L(L-1)/2 (the even factor halved first, so the size_t product is
** exact modulo 2^64 and therefore modulo 2^32), and the bytes summed by
** byte_sum. */
uint32_t wwd_checksum(const unsigned char *block, size_t len) {
  size_t index_sum = len % 2 == 0 ? (len / 2) * (len - 1) : len * ((len - 1) / 2);
  uint32_t bytes = len > 1 ? byte_sum(block + 1, len - 1) : 0;
  return bytes - (uint32_t)len - (uint32_t)index_sum;
}

/* Names of the checksum classes, as the SQL layer shows them. */
const char *wwd_checksum_kind_name(enum wwd_checksum_kind kind) {
  switch (kind) {
    case WWD_CHECKSUM_EXACT: return "exact";
    case WWD_CHECKSUM_ENGINE: return "engine";
    case WWD_CHECKSUM_WAPMAP: return "wapmap";
    case WWD_CHECKSUM_UNSET: return "unset";
    case WWD_CHECKSUM_MISMATCH: return "mismatch";
  }
  return "mismatch";
}

/* Classifies a stored checksum against S (see wwd.md): exact first (so a
** level whose S happens to be 0 is exact, not unset), then unset, the
** original editor's stray byte (compressed files only), WapMap's -40. */
static enum wwd_checksum_kind checksum_classify(uint32_t stored, uint32_t s, int compressed) {
  uint32_t d = stored - s;
  if (stored == s) return WWD_CHECKSUM_EXACT;
  if (stored == 0) return WWD_CHECKSUM_UNSET;
  if (compressed && d >= 1 && d <= 255) return WWD_CHECKSUM_ENGINE;
  if (d == (uint32_t)0 - 40u) return WWD_CHECKSUM_WAPMAP;
  return WWD_CHECKSUM_MISMATCH;
}

/* Case-insensitive ASCII prefix test. */
static int prefix_ci(const unsigned char *s, size_t n, const char *prefix) {
  size_t i;
  for (i = 0; prefix[i]; i++) {
    int c;
    if (i >= n) return 0;
    c = s[i];
    if (c >= 'a' && c <= 'z') c -= 'a' - 'A';
    if (c != (unsigned char)prefix[i]) return 0;
  }
  return 1;
}

/* The game a path-like header string points at: leading slashes skipped,
** then "LEVEL" (Claw), "AREA" (Gruntz) or "DUNGEON" (Get Medieval). */
static const char *game_of(const unsigned char *field, size_t field_size) {
  const unsigned char *s;
  size_t n = wwd_fixed_string(field, field_size, &s);
  while (n > 0 && (*s == '\\' || *s == '/')) {
    s++;
    n--;
  }
  if (prefix_ci(s, n, "LEVEL")) return "claw";
  if (prefix_ci(s, n, "AREA")) return "gruntz";
  if (prefix_ci(s, n, "DUNGEON")) return "getmedieval";
  return NULL;
}

/* The game, from the image dir (real files: "\LEVEL1\TILES", "LEVEL3\TILES",
** "\AREA1\TILEZ"); when that says nothing, from the first of the four
** header image sets that does ("AREA1\IMAGEZ").  The prefixes are no help:
** Claw and Gruntz files both use LEVEL and GAME.  NULL when unknown. */
const char *wwd_game(const wwd_level *lvl) {
  static const size_t sets[4] = {WWD_HDR_IMAGE_SET1, WWD_HDR_IMAGE_SET2, WWD_HDR_IMAGE_SET3,
                                 WWD_HDR_IMAGE_SET4};
  const char *g;
  int k;
  if (!lvl) return NULL;
  g = game_of(lvl->header + WWD_HDR_IMAGE_DIR, 128);
  for (k = 0; !g && k < 4; k++) g = game_of(lvl->header + sets[k], 128);
  return g;
}

/* ---- fixed strings and byte strings --------------------------------------- */

/* The bytes of a fixed-size field before its first NUL (see wwd.h). */
size_t wwd_fixed_string(const unsigned char *field, size_t field_size, const unsigned char **out) {
  const unsigned char *nul = (const unsigned char *)memchr(field, 0, field_size);
  *out = field;
  return nul ? (size_t)(nul - field) : field_size;
}

/* Stores a string into a fixed-size field, leaving an identical one alone
** so bytes after its NUL survive (see wwd.h).  Also refuses (returns 0) a
** string containing a NUL byte, which the field could not hold. */
int wwd_fixed_string_set(unsigned char *field, size_t field_size, const unsigned char *s, size_t n) {
  const unsigned char *cur;
  size_t cur_n;
  if (n >= field_size) return 0;
  if (n && memchr(s, 0, n)) return 0;
  cur_n = wwd_fixed_string(field, field_size, &cur);
  if (cur_n == n && (n == 0 || memcmp(cur, s, n) == 0)) return 1;
  if (n) memmove(field, s, n);
  memset(field + n, 0, field_size - n);
  return 1;
}

/* Replaces an 8-bit string; the new copy is made before the old one is
** freed (unless it lies in the level's block), so s may point into b
** itself. */
int wwd_bytes_set(wwd_bytes *b, const unsigned char *s, size_t n) {
  wwd_bytes nb;
  if (!bytes_dup(&nb, s, n)) return 0;
  if (!b->in_block) free(b->data);
  *b = nb;
  return 1;
}

/* ---- tile properties ------------------------------------------------------ */

/* The size a tile property takes in the file; 0 with err when its type is
** unknown or a mask's width*height overflows or disagrees with mask_len. */
static int tile_property_size(const wwd_tile_property *tp, uint32_t index, size_t *size,
                              codec_error *err) {
  size_t area;
  switch (tp->type) {
    case WWD_TILE_SINGLE: *size = WWD_TP_SINGLE_SIZE; return 1;
    case WWD_TILE_DOUBLE: *size = WWD_TP_DOUBLE_SIZE; return 1;
    case WWD_TILE_MASK:
      if (!size_mul(tp->width, tp->height, &area) || area > UINT32_MAX)
        return codec_fail_limit(err, "tile property %u: mask size %u x %u overflows", index,
                                tp->width, tp->height);
      if (area != tp->mask_len)
        return codec_fail_arg(err, "tile property %u: mask has %u bytes, width %u x height %u needs %zu",
                              index, tp->mask_len, tp->width, tp->height, area);
      if (area && !tp->mask)
        return codec_fail_arg(err, "tile property %u: mask bytes missing", index);
      *size = WWD_TP_HEAD_SIZE + area;
      return 1;
    default:
      return codec_fail_arg(err, "tile property %u: unknown type %u (expected 1 single, 2 double, 3 mask)",
                            index, tp->type);
  }
}

/* What wwd_serialize would refuse for one property (see wwd.h). */
int wwd_tile_property_check(const wwd_tile_property *tp, uint32_t index, codec_error *err) {
  size_t size;
  return tile_property_size(tp, index, &size, err);
}

/* Changes the type (see wwd.h).  A new mask is capped at
** WWD_MAX_MAIN_BLOCK bytes, as a file could not hold a larger one anyway. */
int wwd_tile_property_set_type(wwd_tile_property *tp, uint32_t type) {
  if (type < WWD_TILE_SINGLE || type > WWD_TILE_MASK) return 0;
  if (type == tp->type) return 1;
  if (type == WWD_TILE_MASK) {
    size_t area;
    unsigned char *m = NULL;
    if (!size_mul(tp->width, tp->height, &area) || area > WWD_MAX_MAIN_BLOCK) return 0;
    if (area) {
      m = (unsigned char *)calloc(area, 1);
      if (!m) return 0;
    }
    free(tp->mask);
    tp->mask = m;
    tp->mask_len = (uint32_t)area;
  } else {
    free(tp->mask);
    tp->mask = NULL;
    tp->mask_len = 0;
  }
  tp->type = type;
  return 1;
}

/* Replaces the mask bytes; whether they match width*height is checked by
** wwd_tile_property_check / wwd_serialize, not here. */
int wwd_tile_property_set_mask(wwd_tile_property *tp, const unsigned char *mask, size_t n) {
  unsigned char *m = NULL;
  if (n > UINT32_MAX) return 0;
  if (n) {
    m = (unsigned char *)malloc(n);
    if (!m) return 0;
    memcpy(m, mask, n);
  }
  free(tp->mask);
  tp->mask = m;
  tp->mask_len = (uint32_t)n;
  return 1;
}

/* ---- objects ---------------------------------------------------------------- */

/* Appends a zeroed object with a fresh uid (see wwd.h); the array grows by
** doubling with overflow checks. */
long wwd_object_append(wwd_level *lvl, uint32_t plane) {
  wwd_plane *p;
  wwd_object *o;
  if (!lvl || plane >= lvl->num_planes || lvl->next_uid == UINT32_MAX) return -1;
  p = &lvl->planes[plane];
  if (p->num_objects == UINT32_MAX || p->num_objects >= (uint32_t)LONG_MAX) return -1;
  if (p->num_objects == p->objects_cap) {
    uint32_t cap = p->objects_cap ? p->objects_cap : 16;
    size_t bytes;
    wwd_object *n;
    if (p->objects_cap) cap = p->objects_cap > UINT32_MAX / 2 ? UINT32_MAX : p->objects_cap * 2;
    if (!size_mul(cap, sizeof(wwd_object), &bytes)) return -1;
    if (p->objects_in_block) { /* the block's array cannot grow: the plane gets one of its own */
      n = (wwd_object *)malloc(bytes);
      if (!n) return -1;
      memcpy(n, p->objects, (size_t)p->num_objects * sizeof(wwd_object));
      p->objects_in_block = 0;
    } else {
      n = (wwd_object *)realloc(p->objects, bytes);
      if (!n) return -1;
    }
    p->objects = n;
    p->objects_cap = cap;
  }
  o = &p->objects[p->num_objects];
  memset(o, 0, sizeof *o);
  o->uid = lvl->next_uid++;
  return (long)p->num_objects++;
}

/* Removes one object, shifting the later ones down to keep their order. */
int wwd_object_remove(wwd_level *lvl, uint32_t plane, uint32_t idx) {
  wwd_plane *p;
  if (!lvl || plane >= lvl->num_planes) return 0;
  p = &lvl->planes[plane];
  if (idx >= p->num_objects) return 0;
  object_clear(&p->objects[idx]);
  memmove(&p->objects[idx], &p->objects[idx + 1],
          (size_t)(p->num_objects - idx - 1) * sizeof(wwd_object));
  p->num_objects--;
  return 1;
}

/* Linear search for a uid over all planes (uids are not indexed: levels
** hold a few thousand objects). */
int wwd_object_find(const wwd_level *lvl, uint32_t uid, uint32_t *plane, uint32_t *idx) {
  uint32_t p, i;
  if (!lvl) return 0;
  for (p = 0; p < lvl->num_planes; p++) {
    const wwd_plane *pl = &lvl->planes[p];
    for (i = 0; i < pl->num_objects; i++) {
      if (pl->objects[i].uid == uid) {
        if (plane) *plane = p;
        if (idx) *idx = i;
        return 1;
      }
    }
  }
  return 0;
}

/* ---- free, clone, new --------------------------------------------------- */

/* Releases a level and everything it owns; NULL is allowed. */
void wwd_free(wwd_level *lvl) {
  uint32_t i;
  if (!lvl) return;
  if (lvl->planes) {
    for (i = 0; i < lvl->num_planes; i++) plane_clear(&lvl->planes[i]);
  }
  free(lvl->planes);
  if (lvl->tile_properties) {
    for (i = 0; i < lvl->num_tile_properties; i++) free(lvl->tile_properties[i].mask);
  }
  free(lvl->tile_properties);
  free(lvl->block); /* after the planes: their tiles may point into it */
  free(lvl);
}

long wwd_main_plane(const wwd_level *lvl) {
  uint32_t i;
  for (i = 0; i < lvl->num_planes; i++) {
    if (le32_load(lvl->planes[i].header + WWD_PLANE_FLAGS) & WWD_PLANE_MAIN) return (long)i;
  }
  return -1;
}

wwd_plane_size wwd_new_plane_size(const wwd_level *lvl) {
  long main_plane = wwd_main_plane(lvl);
  const wwd_plane *ref = main_plane >= 0 ? &lvl->planes[main_plane] : lvl->num_planes ? &lvl->planes[0] : NULL;
  if (!ref) return (wwd_plane_size){.tile_width = 64, .tile_height = 64};
  return (wwd_plane_size){.tile_width = le32_load(ref->header + WWD_PLANE_TILE_WIDTH),
                          .tile_height = le32_load(ref->header + WWD_PLANE_TILE_HEIGHT),
                          .tiles_wide = ref->tiles_wide, .tiles_high = ref->tiles_high};
}

void wwd_main_tile_size(const wwd_level *lvl, uint32_t *width, uint32_t *height) {
  long main_plane = wwd_main_plane(lvl);
  const unsigned char *h = main_plane >= 0 ? lvl->planes[main_plane].header : NULL;
  *width = h ? le32_load(h + WWD_PLANE_TILE_WIDTH) : 64;
  *height = h ? le32_load(h + WWD_PLANE_TILE_HEIGHT) : 64;
}

int32_t wwd_next_object_id(const wwd_level *lvl) {
  int64_t top = 0;
  uint32_t p, i;
  for (p = 0; p < lvl->num_planes; p++) {
    for (i = 0; i < lvl->planes[p].num_objects; i++) {
      if (lvl->planes[p].objects[i].field[WWD_OBJ_ID] > top) top = lvl->planes[p].objects[i].field[WWD_OBJ_ID];
    }
  }
  return top < INT32_MAX ? (int32_t)(top + 1) : INT32_MAX;
}

/* Sums the planes' object counts. */
uint64_t wwd_num_objects(const wwd_level *lvl) {
  uint64_t n = 0;
  uint32_t p;
  for (p = 0; p < lvl->num_planes; p++) n += lvl->planes[p].num_objects;
  return n;
}

/* Counts the kept block whole (it is held as long as the level lives, even
** after edits replaced everything in it) and the tile
** arrays and object strings of their own; those in the block are in its
** size already. */
size_t wwd_footprint(const wwd_level *lvl) {
  size_t bytes = sizeof *lvl + lvl->block_size;
  uint32_t i, k;
  for (i = 0; i < lvl->num_planes; i++) {
    const wwd_plane *p = &lvl->planes[i];
    bytes += sizeof *p;
    if (!p->objects_in_block) bytes += (size_t)p->objects_cap * sizeof(wwd_object);
    if (!p->tiles_in_block) bytes += (size_t)p->tiles_wide * p->tiles_high * 4;
    for (k = 0; k < p->num_objects; k++) {
      int s;
      for (s = 0; s < WWD_OBJECT_NSTRINGS; s++)
        if (!p->objects[k].str[s].in_block) bytes += p->objects[k].str[s].len;
    }
  }
  for (i = 0; i < lvl->num_tile_properties; i++) bytes += sizeof(wwd_tile_property) + lvl->tile_properties[i].mask_len;
  return bytes;
}

/* Deep-copies one plane into a zeroed destination; on failure the
** destination holds what was copied so far (plane_clear releases it). */
static int plane_copy(wwd_plane *d, const wwd_plane *s) {
  size_t n, bytes;
  uint32_t i;
  d->uid = s->uid;
  memcpy(d->header, s->header, sizeof d->header);
  d->tiles_wide = s->tiles_wide;
  d->tiles_high = s->tiles_high;
  if (!size_mul(s->tiles_wide, s->tiles_high, &n) || !size_mul(n, 4, &bytes)) return 0;
  if (n && s->tiles) {
    d->tiles = (uint32_t *)malloc(bytes);
    if (!d->tiles) return 0;
    memcpy(d->tiles, s->tiles, bytes);
  }
  if (s->num_image_sets) {
    d->image_sets = (wwd_bytes *)calloc(s->num_image_sets, sizeof(wwd_bytes));
    if (!d->image_sets) return 0;
    d->num_image_sets = s->num_image_sets;
    for (i = 0; i < s->num_image_sets; i++) {
      if (!bytes_dup(&d->image_sets[i], s->image_sets[i].data, s->image_sets[i].len)) return 0;
    }
  }
  if (s->num_objects) {
    d->objects = (wwd_object *)calloc(s->num_objects, sizeof(wwd_object));
    if (!d->objects) return 0;
    d->objects_cap = s->num_objects;
    for (i = 0; i < s->num_objects; i++) {
      const wwd_object *so = &s->objects[i];
      wwd_object *dobj = &d->objects[i];
      int k;
      d->num_objects = i + 1;
      dobj->uid = so->uid;
      memcpy(dobj->field, so->field, sizeof dobj->field);
      for (k = 0; k < WWD_OBJECT_NSTRINGS; k++) {
        if (!bytes_dup(&dobj->str[k], so->str[k].data, so->str[k].len)) return 0;
      }
    }
  }
  return 1;
}

/* Deep copy; uids and next_uid are kept (see wwd.h).  The copy gets tile
** arrays of its own (plane_copy), never the original's block. */
wwd_level *wwd_clone(const wwd_level *lvl) {
  wwd_level *c;
  uint32_t i;
  if (!lvl) return NULL;
  c = (wwd_level *)calloc(1, sizeof *c);
  if (!c) return NULL;
  *c = *lvl;
  c->planes = NULL;
  c->num_planes = 0;
  c->tile_properties = NULL;
  c->num_tile_properties = 0;
  c->block = NULL;
  c->block_size = 0;
  if (lvl->num_planes) {
    c->planes = (wwd_plane *)calloc(lvl->num_planes, sizeof(wwd_plane));
    if (!c->planes) goto fail;
    c->num_planes = lvl->num_planes;
    for (i = 0; i < lvl->num_planes; i++) {
      if (!plane_copy(&c->planes[i], &lvl->planes[i])) goto fail;
    }
  }
  if (lvl->num_tile_properties) {
    c->tile_properties =
        (wwd_tile_property *)calloc(lvl->num_tile_properties, sizeof(wwd_tile_property));
    if (!c->tile_properties) goto fail;
    c->num_tile_properties = lvl->num_tile_properties;
    for (i = 0; i < lvl->num_tile_properties; i++) {
      const wwd_tile_property *s = &lvl->tile_properties[i];
      wwd_tile_property *d = &c->tile_properties[i];
      *d = *s;
      d->mask = NULL;
      d->mask_len = 0;
      if (s->mask_len && s->mask) {
        d->mask = (unsigned char *)malloc(s->mask_len);
        if (!d->mask) goto fail;
        memcpy(d->mask, s->mask, s->mask_len);
        d->mask_len = s->mask_len;
      }
    }
  }
  return c;
fail:
  wwd_free(c);
  return NULL;
}

/* Fills a zeroed plane: header with the 160 block size real files carry,
** tile size and dimensions, pixel sizes = tiles * tile size (everything
** must fit in int32, as the file stores them signed, and the tiles in a
** uint32 offset range), movement 100%, flags 0; all tiles invisible.
** Returns 0 (plane left empty) on overflow or when memory runs out. */
static int plane_init(wwd_plane *p, uint32_t tiles_wide, uint32_t tiles_high, uint32_t tile_width,
                      uint32_t tile_height) {
  size_t n, bytes, px_w, px_h, i;
  if (tiles_wide > INT32_MAX || tiles_high > INT32_MAX || tile_width > INT32_MAX ||
      tile_height > INT32_MAX)
    return 0;
  if (!size_mul(tiles_wide, tiles_high, &n) || !size_mul(n, 4, &bytes) || bytes > UINT32_MAX)
    return 0;
  if (!size_mul(tiles_wide, tile_width, &px_w) || px_w > INT32_MAX) return 0;
  if (!size_mul(tiles_high, tile_height, &px_h) || px_h > INT32_MAX) return 0;
  memset(p, 0, sizeof *p);
  if (n) {
    p->tiles = (uint32_t *)malloc(bytes);
    if (!p->tiles) return 0;
    for (i = 0; i < n; i++) p->tiles[i] = WWD_TILE_INVISIBLE;
  }
  p->tiles_wide = tiles_wide;
  p->tiles_high = tiles_high;
  le32_store(p->header, WWD_PLANE_HEADER_SIZE);
  le32_store(p->header + WWD_PLANE_WIDTH_PX, (uint32_t)px_w);
  le32_store(p->header + WWD_PLANE_HEIGHT_PX, (uint32_t)px_h);
  le32_store(p->header + WWD_PLANE_TILE_WIDTH, tile_width);
  le32_store(p->header + WWD_PLANE_TILE_HEIGHT, tile_height);
  le32_store(p->header + WWD_PLANE_TILES_WIDE, tiles_wide);
  le32_store(p->header + WWD_PLANE_TILES_HIGH, tiles_high);
  le32_store(p->header + WWD_PLANE_MOVEMENT_X, 100);
  le32_store(p->header + WWD_PLANE_MOVEMENT_Y, 100);
  return 1;
}

/* A new empty level (see wwd.h).  The header gets the signature and flag
** 0x1 like every real file; the one plane is main and named "Action"; the
** tile properties header gets the 0x20 real files have. */
wwd_level *wwd_level_new(uint32_t tiles_wide, uint32_t tiles_high, uint32_t tile_width,
                         uint32_t tile_height) {
  wwd_level *lvl = (wwd_level *)calloc(1, sizeof *lvl);
  if (!lvl) return NULL;
  lvl->planes = (wwd_plane *)calloc(1, sizeof(wwd_plane));
  if (!lvl->planes || !plane_init(&lvl->planes[0], tiles_wide, tiles_high, tile_width, tile_height)) {
    free(lvl->planes);
    free(lvl);
    return NULL;
  }
  lvl->num_planes = 1;
  lvl->next_plane_uid = 1; /* plane 0 has uid 0 */
  le32_store(lvl->planes[0].header + WWD_PLANE_FLAGS, WWD_PLANE_MAIN);
  memcpy(lvl->planes[0].header + WWD_PLANE_NAME, "Action", 6);
  le32_store(lvl->header + WWD_HDR_SIGNATURE, WWD_SIGNATURE);
  le32_store(lvl->header + WWD_HDR_FLAGS, WWD_FLAG_USE_Z_COORDS);
  le32_store(lvl->header + WWD_HDR_OFFSET_PLANES, WWD_HEADER_SIZE);
  le32_store(lvl->tile_props_header, WWD_TILE_PROPS_HEADER_SIZE);
  lvl->checksum_kind = WWD_CHECKSUM_UNSET;
  return lvl;
}

/* Inserts a new plane (see wwd.h): the array grows by one and the planes
** from `at` on move up, so existing objects keep their uids. */
int wwd_plane_insert(wwd_level *lvl, uint32_t at, uint32_t tiles_wide, uint32_t tiles_high,
                     uint32_t tile_width, uint32_t tile_height) {
  wwd_plane np, *arr;
  size_t bytes;
  if (!lvl || at > lvl->num_planes || lvl->num_planes == UINT32_MAX || lvl->next_plane_uid == UINT32_MAX) return 0;
  if (!size_mul((size_t)lvl->num_planes + 1, sizeof(wwd_plane), &bytes)) return 0;
  if ((uint64_t)tiles_wide * tiles_high > WWD_MAX_PLANE_CELLS) return 0;
  if (!plane_init(&np, tiles_wide, tiles_high, tile_width, tile_height)) return 0;
  np.uid = lvl->next_plane_uid++;
  arr = (wwd_plane *)realloc(lvl->planes, bytes);
  if (!arr) {
    plane_clear(&np);
    return 0;
  }
  lvl->planes = arr;
  memmove(&arr[at + 1], &arr[at], (size_t)(lvl->num_planes - at) * sizeof(wwd_plane));
  arr[at] = np;
  lvl->num_planes++;
  return 1;
}

int wwd_plane_insert_unsized(wwd_level *lvl, uint32_t at, uint32_t tile_width, uint32_t tile_height, uint32_t tiles_wide,
                             uint32_t tiles_high, codec_error *err) {
  if (!wwd_plane_insert(lvl, at, 0, 0, tile_width, tile_height)) return codec_fail_oom(err, "out of memory");
  le32_store(lvl->planes[at].header + WWD_PLANE_TILES_WIDE, tiles_wide);
  le32_store(lvl->planes[at].header + WWD_PLANE_TILES_HIGH, tiles_high);
  return 1;
}

/* Removes a plane (see wwd.h): what it owns is freed, the later planes
** move down; the array keeps its allocation. */
int wwd_plane_remove(wwd_level *lvl, uint32_t plane) {
  if (!lvl || plane >= lvl->num_planes) return 0;
  plane_clear(&lvl->planes[plane]);
  memmove(&lvl->planes[plane], &lvl->planes[plane + 1], (size_t)(lvl->num_planes - plane - 1) * sizeof(wwd_plane));
  lvl->num_planes--;
  return 1;
}

/* Appends a tile property (see wwd.h); the mask, when asked for, is made
** by wwd_tile_property_set_type so the same size cap applies. */
long wwd_tile_property_append(wwd_level *lvl, uint32_t type, uint32_t width, uint32_t height) {
  wwd_tile_property tp, *arr;
  size_t bytes;
  if (!lvl || type < WWD_TILE_SINGLE || type > WWD_TILE_MASK) return -1;
  if (lvl->num_tile_properties >= (uint32_t)LONG_MAX || lvl->next_property_uid == UINT32_MAX) return -1;
  if (!size_mul((size_t)lvl->num_tile_properties + 1, sizeof(wwd_tile_property), &bytes)) return -1;
  memset(&tp, 0, sizeof tp);
  tp.type = WWD_TILE_SINGLE;
  tp.width = width;
  tp.height = height;
  if (!wwd_tile_property_set_type(&tp, type)) return -1;
  arr = (wwd_tile_property *)realloc(lvl->tile_properties, bytes);
  if (!arr) {
    free(tp.mask);
    return -1;
  }
  lvl->tile_properties = arr;
  tp.uid = lvl->next_property_uid++;
  arr[lvl->num_tile_properties] = tp;
  return (long)lvl->num_tile_properties++;
}

/* ---- parsing -------------------------------------------------------------- */

/* Returns 1 if the buffer starts with the WWD signature. */
int wwd_sniff(const unsigned char *data, size_t size) {
  byte_reader r = br_at(data, size, 0);
  return data && br_need(&r, 4) && br_u32le(&r) == WWD_SIGNATURE;
}

/* The buffer inflate_main writes into: scratch's, grown to total bytes, or
** (scratch NULL) a new one.  NULL when out of memory (scratch is kept). */
static unsigned char *inflate_buffer(wwd_scratch *scratch, size_t total) {
  unsigned char *grown;
  if (!scratch) return (unsigned char *)malloc(total);
  if (scratch->cap >= total) return scratch->data;
  if (!(grown = (unsigned char *)realloc(scratch->data, total))) return NULL;
  scratch->data = grown;
  scratch->cap = total;
  return grown;
}

/* The size of "header + inflated main block" a compressed level claims
** (header offset 744), in *total, once the claim is checked: capped
** (WWD_MAX_MAIN_BLOCK) and plausible for the stream's length.  Returns 0
** with err (may be NULL) otherwise. */
static int claimed_total(const unsigned char *data, size_t size, size_t *total, codec_error *err) {
  size_t clen = size - WWD_HEADER_SIZE, plausible;
  uint32_t claimed = le32_load(data + WWD_HDR_DECOMPRESSED_SIZE);
  if (claimed > WWD_MAX_MAIN_BLOCK)
    return codec_fail_limit(err,
                            "main block (zlib): byte offset %u: claimed decompressed size %u exceeds the "
                            "limit of %u bytes",
                            (unsigned)WWD_HDR_DECOMPRESSED_SIZE, claimed, (unsigned)WWD_MAX_MAIN_BLOCK);
  if (!size_mul(clen, WWD_MAX_INFLATE_RATIO, &plausible) ||
      !size_add(plausible, WWD_INFLATE_SLACK, &plausible))
    plausible = SIZE_MAX;
  if (claimed > plausible)
    return codec_fail(err,
                      "main block (zlib): byte offset %u: claimed decompressed size %u is "
                      "implausible for a %zu-byte zlib stream (deflate expands at most %u:1)",
                      (unsigned)WWD_HDR_DECOMPRESSED_SIZE, claimed, clen,
                      (unsigned)WWD_MAX_INFLATE_RATIO);
  if (clen > UINT_MAX)
    return codec_fail_limit(err, "main block (zlib): byte offset %u: compressed block too large (%zu bytes)",
                            (unsigned)WWD_HEADER_SIZE, clen);
  *total = (size_t)WWD_HEADER_SIZE + claimed;
  return 1;
}

size_t wwd_scratch_bytes(const unsigned char *data, size_t size) {
  size_t total;
  if (!data || size < WWD_HEADER_SIZE || le32_load(data) != WWD_SIGNATURE ||
      !(le32_load(data + WWD_HDR_FLAGS) & WWD_FLAG_COMPRESS) || !claimed_total(data, size, &total, NULL))
    return 0;
  return total;
}

/* Inflates zs's input into out[0..claimed) in steps of WWD_INFLATE_STEP
** output bytes, polling `cancel` (NULL: never) between them, until the
** stream ends, fails, stalls or fills out.  Returns zlib's last code:
** Z_OK when out is full and the stream has not ended (more may follow),
** Z_STREAM_END, Z_BUF_ERROR when the input ran out first, an error code;
** or WWD_Z_CANCELLED when cancel said stop.  *produced: bytes written.
** Steps of 1 MiB take a millisecond or two, so a stop comes soon. */
#define WWD_Z_CANCELLED 100 /* not a zlib code */
static int inflate_steps(z_stream *zs, unsigned char *out, uint32_t claimed, const codec_cancel *cancel,
                         size_t *produced) {
  int ret = Z_OK;
  *produced = 0;
  while (*produced < claimed) {
    size_t left = claimed - *produced;
    uInt step = left < WWD_INFLATE_STEP ? (uInt)left : WWD_INFLATE_STEP;
    zs->next_out = out + *produced;
    zs->avail_out = step;
    ret = inflate(zs, Z_NO_FLUSH);
    *produced += step - zs->avail_out;
    if (ret != Z_OK) return ret;
    if (codec_cancelled(cancel)) return WWD_Z_CANCELLED;
  }
  return ret;
}

/* Inflates the compressed main block into a buffer (scratch's, or a new
** one) holding the header followed by exactly the decompressed size
** claimed at header offset 744.  The claim is capped (WWD_MAX_MAIN_BLOCK)
** and checked against the largest ratio deflate can reach BEFORE
** allocating (claimed_total); a stream that ends early, runs past the
** claim, is corrupt, or is followed by extra bytes is an error. */
static int inflate_main(const unsigned char *data, size_t size, wwd_scratch *scratch, unsigned char **full,
                        size_t *full_size, codec_error *err) {
  size_t clen = size - WWD_HEADER_SIZE, total, produced;
  uint32_t claimed = le32_load(data + WWD_HDR_DECOMPRESSED_SIZE);
  unsigned char *buf;
  z_stream zs;
  int ret;
  if (!claimed_total(data, size, &total, err)) return 0;
  buf = inflate_buffer(scratch, total);
  if (!buf) return codec_fail_oom(err, "main block (zlib): out of memory for %zu bytes", total);
  memcpy(buf, data, WWD_HEADER_SIZE);
  memset(&zs, 0, sizeof zs);
  if (inflateInit(&zs) != Z_OK) {
    if (!scratch) free(buf);
    return codec_fail_oom(err, "main block (zlib): cannot initialise zlib");
  }
  zs.next_in = (Bytef *)(data + WWD_HEADER_SIZE);
  zs.avail_in = (uInt)clen;
  ret = inflate_steps(&zs, buf + WWD_HEADER_SIZE, claimed, scratch ? scratch->cancel : NULL, &produced);
  if (ret == WWD_Z_CANCELLED) {
    inflateEnd(&zs);
    if (!scratch) free(buf);
    return codec_fail_interrupted(err);
  }
  if (ret == Z_OK) {
    /* The claimed size is full: does the stream hold more, or just its end? */
    unsigned char extra;
    zs.next_out = &extra;
    zs.avail_out = 1;
    ret = inflate(&zs, Z_FINISH);
    if (zs.avail_out == 0) {
      inflateEnd(&zs);
      if (!scratch) free(buf);
      return codec_fail(err,
                        "main block (zlib): byte offset %u: decompressed size mismatch: the stream "
                        "holds more than the %u bytes claimed at header offset %u",
                        (unsigned)WWD_HEADER_SIZE, claimed, (unsigned)WWD_HDR_DECOMPRESSED_SIZE);
    }
  }
  if (ret != Z_STREAM_END) {
    size_t at = WWD_HEADER_SIZE + (clen - zs.avail_in);
    const char *zmsg = zs.msg ? zs.msg : "data error";
    inflateEnd(&zs);
    if (!scratch) free(buf);
    if (ret == Z_DATA_ERROR)
      return codec_fail(err, "main block (zlib): file byte offset %zu: corrupt zlib stream (%s)", at, zmsg);
    if (ret == Z_NEED_DICT)
      return codec_fail(err,
                        "main block (zlib): file byte offset %zu: corrupt zlib stream (asks for a preset "
                        "dictionary)",
                        at);
    if (ret == Z_MEM_ERROR) return codec_fail_oom(err, "main block (zlib): out of memory");
    return codec_fail(err,
                      "main block (zlib): file byte offset %zu: zlib stream truncated after %zu of "
                      "the %u decompressed bytes claimed",
                      at, produced, claimed);
  }
  if (produced != claimed) {
    inflateEnd(&zs);
    if (!scratch) free(buf);
    return codec_fail(err,
                      "main block (zlib): byte offset %u: decompressed size mismatch: the stream "
                      "holds %zu bytes, header offset %u claims %u",
                      (unsigned)WWD_HEADER_SIZE, produced, (unsigned)WWD_HDR_DECOMPRESSED_SIZE, claimed);
  }
  if (zs.avail_in != 0) {
    size_t at = WWD_HEADER_SIZE + (clen - zs.avail_in);
    uInt left = zs.avail_in;
    inflateEnd(&zs);
    if (!scratch) free(buf);
    return codec_fail(err, "main block (zlib): file byte offset %zu: %u bytes after the end of the zlib stream",
                      at, (unsigned)left);
  }
  inflateEnd(&zs);
  *full = buf;
  *full_size = total;
  return 1;
}

/* Checks that [off, off+len) lies in the main block (after the header);
** len 0 is always fine. */
static int section_ok(const wwd_src *src, size_t off, size_t len) {
  byte_reader r = br_at(src->data, src->size, off);
  if (len == 0) return 1;
  return off >= WWD_HEADER_SIZE && br_need(&r, len);
}

/* Counts n more bytes of sections as read.  Sections of a well-formed file
** are disjoint parts of the main block, so together they cannot exceed it;
** when they do, offsets make sections overlap, which could otherwise make
** the model (and a re-written file) many times larger than the input.
** Returns 0 with err naming the section when the budget is exceeded; the
** section's name (printf-style) is formatted only then, since a parse takes
** budget once per object. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int budget_take(wwd_src *src, size_t n, size_t off, codec_error *err, const char *section_fmt, ...) {
  size_t main_len = src->size - WWD_HEADER_SIZE;
  char section[64];
  va_list ap;
  if (n <= main_len - src->used) {
    src->used += n;
    return 1;
  }
  va_start(ap, section_fmt);
  vsnprintf(section, sizeof section, section_fmt, ap);
  va_end(ap);
  return codec_fail(err,
                    "%s: byte offset %zu%s: overlaps other sections (all sections together would need "
                    "more than the %zu-byte main block)",
                    section, off, src->note, main_len);
}

/* 1 on a little-endian host, where a tile's file bytes are its value. */
static int host_is_little_endian(void) {
  const uint32_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1;
}

/* The offset in the block at which the next array of `bytes` bytes
** aligned at `align` goes, after `used` bytes.  Returns 0 when it would not
** fit in `cap` bytes. */
static int arena_aligned_at(size_t used, size_t align, size_t bytes, size_t cap, size_t *at) {
  size_t pos = used + (align - used % align) % align;
  if (pos < used || pos > cap || bytes > cap - pos) return 0;
  *at = pos;
  return 1;
}

/* Where the next tile array goes: at a multiple of 4. */
static int arena_tiles_at(size_t used, size_t bytes, size_t cap, size_t *at) {
  return arena_aligned_at(used, 4, bytes, cap, at);
}

/* Where the next object array goes: at a multiple of its alignment. */
static int arena_objects_at(size_t used, size_t bytes, size_t cap, size_t *at) {
  return arena_aligned_at(used, _Alignof(wwd_object), bytes, cap, at);
}

#define WWD_COPY_STEP (4u << 20) /* tile bytes copied between two polls of wwd_src.cancel */

/* Reads the tiles of plane pi: tiles_wide * tiles_high uint32 values at
** offset_tiles; the product is overflow-checked and the bytes must be
** present before anything is allocated.  They go into the level's block
** when there is room (always, for the block sized by wwd_parse), else into
** an array of the plane's own; copied whole on a little-endian host (the
** file's byte order), else value by value. */
static int parse_tiles(wwd_src *src, wwd_plane *p, uint32_t pi, size_t hdr_off,
                       codec_error *err) {
  size_t n, bytes, i, at;
  uint32_t off = le32_load(p->header + WWD_PLANE_OFFSET_TILES);
  p->tiles_wide = le32_load(p->header + WWD_PLANE_TILES_WIDE);
  p->tiles_high = le32_load(p->header + WWD_PLANE_TILES_HIGH);
  if (!size_mul(p->tiles_wide, p->tiles_high, &n) || !size_mul(n, 4, &bytes) || bytes > UINT32_MAX)
    return codec_fail(err, "tiles of plane %u: byte offset %zu%s: tiles_wide %u x tiles_high %u overflows",
                      pi, hdr_off + WWD_PLANE_TILES_WIDE, src->note, p->tiles_wide, p->tiles_high);
  if (!section_ok(src, off, bytes))
    return codec_fail(err,
                      "tiles of plane %u: byte offset %u%s: %u x %u tiles (%zu bytes) do not fit in "
                      "the main block (%zu bytes with the header)",
                      pi, off, src->note, p->tiles_wide, p->tiles_high, bytes, src->size);
  if (n == 0) return 1;
  if (!budget_take(src, bytes, off, err, "tiles of plane %u", pi)) return 0;
  if (src->arena && arena_tiles_at(src->arena_used, bytes, src->arena_cap, &at)) {
    p->tiles = (uint32_t *)(void *)(src->arena + at); /* malloc'd block, at a multiple of 4: aligned */
    p->tiles_in_block = 1;
    src->arena_used = at + bytes;
  } else {
    p->tiles = (uint32_t *)malloc(bytes);
    if (!p->tiles) return codec_fail_oom(err, "tiles of plane %u: out of memory", pi);
  }
  if (host_is_little_endian()) {
    /* section_ok: all there.  In steps that poll src->cancel: a plane of
    ** 256 MB takes a quarter of a second to copy into fresh pages. */
    for (i = 0; i < bytes; i += WWD_COPY_STEP) {
      if (i && codec_cancelled(src->cancel)) return codec_fail_interrupted(err);
      memcpy((unsigned char *)p->tiles + i, src->data + off + i, bytes - i < WWD_COPY_STEP ? bytes - i : WWD_COPY_STEP);
    }
  } else {
    for (i = 0; i < n; i++) p->tiles[i] = le32_load(src->data + off + i * 4);
  }
  return 1;
}

/* Reads the image-set names of plane pi: num_image_sets NUL-terminated
** strings at offset_image_sets.  Each string takes at least one byte, so
** the count is checked against the bytes left before allocating. */
static int parse_image_sets(wwd_src *src, wwd_plane *p, uint32_t pi, codec_error *err) {
  uint32_t count = le32_load(p->header + WWD_PLANE_NUM_IMAGE_SETS);
  uint32_t off = le32_load(p->header + WWD_PLANE_OFFSET_IMAGE_SETS);
  byte_reader r = br_at(src->data, src->size, off);
  size_t i;
  char section[64];
  if (count == 0) return 1;
  snprintf(section, sizeof section, "image sets of plane %u", pi);
  if (!section_ok(src, off, count))
    return codec_fail(err,
                      "image sets of plane %u: byte offset %u%s: %u image-set names do not fit in the "
                      "main block (%zu bytes with the header)",
                      pi, off, src->note, count, src->size);
  if (count > WWD_MAX_IMAGE_SETS_TOTAL - src->sets)
    return codec_fail_limit(err, "image sets of plane %u: byte offset %u%s: more than %u image-set names in the level",
                            pi, off, src->note, (unsigned)WWD_MAX_IMAGE_SETS_TOTAL);
  src->sets += count;
  if (!budget_take(src, count, off, err, "%s", section)) return 0;
  p->image_sets = (wwd_bytes *)calloc(count, sizeof(wwd_bytes));
  if (!p->image_sets) return codec_fail_oom(err, "image sets of plane %u: out of memory", pi);
  p->num_image_sets = count;
  for (i = 0; i < count; i++) {
    size_t pos = r.pos, len;
    const unsigned char *s = r.data + pos;
    const unsigned char *nul = (const unsigned char *)memchr(s, 0, br_left(&r));
    if (!nul)
      return codec_fail(err, "image sets of plane %u: byte offset %zu%s: name %zu has no NUL before the end",
                        pi, pos, src->note, i);
    len = (size_t)(nul - s);
    if (!bytes_dup(&p->image_sets[i], br_bytes(&r, len + 1), len))
      return codec_fail_oom(err, "image sets of plane %u: out of memory", pi);
    if (len && !budget_take(src, len, pos, err, "%s", section)) return 0;
    if (i + 1 < count && !br_left(&r))
      return codec_fail(err, "image sets of plane %u: byte offset %zu%s: truncated after %zu of %u names",
                        pi, r.pos, src->note, i + 1, count);
  }
  return 1;
}

/* Copies an object string of len bytes at offset off (present, checked by
** the caller) into the level's block when there is room, else into an
** allocation of its own.  Returns 0 when memory runs out. */
static int object_string(wwd_src *src, wwd_bytes *b, size_t off, uint32_t len) {
  if (len == 0 || !src->arena || len > src->arena_cap - src->arena_used) return bytes_dup(b, src->data + off, len);
  b->data = src->arena + src->arena_used;
  b->len = len;
  b->in_block = 1;
  memcpy(b->data, src->data + off, len);
  src->arena_used += len;
  return 1;
}

/* Reads the objects of plane pi: each is 284 fixed bytes followed by its
** four strings, whose lengths are summed overflow-safely and checked
** against the bytes left.  The count is checked against the bytes left
** (284 each at least) before the array is allocated.  uids are handed out
** from lvl->next_uid in list order. */
static int parse_objects(wwd_src *src, wwd_level *lvl, wwd_plane *p, uint32_t pi,
                         size_t hdr_off, codec_error *err) {
  uint32_t count = le32_load(p->header + WWD_PLANE_NUM_OBJECTS);
  uint32_t off = le32_load(p->header + WWD_PLANE_OFFSET_OBJECTS);
  byte_reader r = br_at(src->data, src->size, off);
  size_t min_bytes, array_bytes, i, at;
  if (count == 0) return 1;
  if (!size_mul(count, WWD_OBJECT_FIXED_SIZE, &min_bytes) || !section_ok(src, off, min_bytes))
    return codec_fail(err,
                      "plane %u: byte offset %zu%s: %u objects at offset %u do not fit in the main "
                      "block (%zu bytes with the header)",
                      pi, hdr_off + WWD_PLANE_NUM_OBJECTS, src->note, count, off, src->size);
  if (!budget_take(src, min_bytes, hdr_off + WWD_PLANE_NUM_OBJECTS, err, "plane %u", pi)) return 0;
  /* not zeroed: each object is written whole below, its strings emptied
  ** before it counts (so a failure frees nothing unset) */
  if (!size_mul(count, sizeof(wwd_object), &array_bytes))
    return codec_fail_oom(err, "plane %u: out of memory for %u objects", pi, count);
  if (src->arena && arena_objects_at(src->arena_used, array_bytes, src->arena_cap, &at)) {
    p->objects = (wwd_object *)(void *)(src->arena + at); /* malloc'd block, at a multiple of the alignment */
    p->objects_in_block = 1;
    src->arena_used = at + array_bytes;
  } else if (!(p->objects = (wwd_object *)malloc(array_bytes))) {
    return codec_fail_oom(err, "plane %u: out of memory for %u objects", pi, count);
  }
  p->objects_cap = count;
  for (i = 0; i < count; i++) {
    wwd_object *o = &p->objects[i];
    uint32_t lens[WWD_OBJECT_NSTRINGS];
    size_t total = 0, pos = r.pos;
    const unsigned char *fixed = br_bytes(&r, WWD_OBJECT_FIXED_SIZE);
    int k;
    if (!fixed)
      return codec_fail(err, "object %zu of plane %u: byte offset %zu%s: truncated: needs %u bytes, %zu left",
                        i, pi, pos, src->note, (unsigned)WWD_OBJECT_FIXED_SIZE, br_left(&r));
    memset(o->str, 0, sizeof o->str);
    p->num_objects = (uint32_t)i + 1;
    o->uid = lvl->next_uid++;
    /* 284 fixed bytes, all present: field 0, the four string lengths,
    ** fields 1..66 (read straight from the bytes, one bounds check) */
    o->field[0] = u32_as_i32(le32_load(fixed));
    for (k = 0; k < WWD_OBJECT_NSTRINGS; k++) {
      lens[k] = le32_load(fixed + 4 + 4 * k);
      if (!size_add(total, lens[k], &total)) total = SIZE_MAX;
    }
    if (host_is_little_endian()) { /* the file's bytes are the fields' two's-complement values */
      memcpy(&o->field[1], fixed + 20, (WWD_OBJECT_NFIELDS - 1) * 4);
    } else {
      for (k = 1; k < WWD_OBJECT_NFIELDS; k++) o->field[k] = u32_as_i32(le32_load(fixed + 20 + 4 * (k - 1)));
    }
    if (!br_need(&r, total))
      return codec_fail(err,
                        "object %zu of plane %u: byte offset %zu%s: string lengths exceed the main "
                        "block (name %u, logic %u, image set %u, animation %u; %zu bytes left)",
                        i, pi, pos, src->note, lens[0], lens[1], lens[2], lens[3], br_left(&r));
    if (!budget_take(src, total, pos, err, "object %zu of plane %u", i, pi)) return 0;
    for (k = 0; k < WWD_OBJECT_NSTRINGS; k++) { /* br_need above: all there */
      if (!object_string(src, &o->str[k], r.pos, lens[k]))
        return codec_fail_oom(err, "object %zu of plane %u: out of memory", i, pi);
      r.pos += lens[k];
    }
  }
  return 1;
}

/* Reads one plane: its 160-byte header (kept raw), then tiles, image sets
** and objects through the offsets in it. */
static int parse_plane(wwd_src *src, wwd_level *lvl, uint32_t pi, size_t hdr_off,
                       codec_error *err) {
  wwd_plane *p = &lvl->planes[pi];
  memcpy(p->header, src->data + hdr_off, WWD_PLANE_HEADER_SIZE);
  if (!parse_tiles(src, p, pi, hdr_off, err)) return 0;
  if (!parse_image_sets(src, p, pi, err)) return 0;
  return parse_objects(src, lvl, p, pi, hdr_off, err);
}

/* Reads the tile properties: the 32-byte header (kept raw) at
** offset_tile_props, then the count's properties one after the other.
** Every property takes at least 16 bytes, which bounds the count before
** allocating; a mask's width*height is overflow-checked. */
static int parse_tile_props(wwd_src *src, wwd_level *lvl, codec_error *err) {
  uint32_t off = le32_load(lvl->header + WWD_HDR_OFFSET_TILE_PROPS);
  uint32_t count;
  byte_reader r = br_at(src->data, src->size, off);
  size_t min_bytes, i;
  if (!section_ok(src, off, WWD_TILE_PROPS_HEADER_SIZE))
    return codec_fail(err,
                      "tile properties header: byte offset %u%s: the 32-byte header does not fit in "
                      "the main block (%zu bytes with the header)",
                      off, src->note, src->size);
  if (!budget_take(src, WWD_TILE_PROPS_HEADER_SIZE, off, err, "tile properties header")) return 0;
  memcpy(lvl->tile_props_header, br_bytes(&r, WWD_TILE_PROPS_HEADER_SIZE), WWD_TILE_PROPS_HEADER_SIZE);
  count = le32_load(lvl->tile_props_header + 8);
  if (count == 0) return 1;
  if (!size_mul(count, WWD_TP_HEAD_SIZE, &min_bytes) || !br_need(&r, min_bytes))
    return codec_fail(err,
                      "tile properties header: byte offset %u%s: %u tile properties do not fit in "
                      "the %zu bytes left",
                      off + 8, src->note, count, br_left(&r));
  if (count > WWD_MAX_TILE_PROPERTIES)
    return codec_fail_limit(err,
                            "tile properties header: byte offset %u%s: %u tile properties, more than the %u allowed",
                            off + 8, src->note, count, (unsigned)WWD_MAX_TILE_PROPERTIES);
  if (!budget_take(src, min_bytes, off + 8, err, "tile properties header")) return 0;
  lvl->tile_properties = (wwd_tile_property *)calloc(count, sizeof(wwd_tile_property));
  if (!lvl->tile_properties)
    return codec_fail_oom(err, "tile properties header: out of memory for %u properties", count);
  for (i = 0; i < count; i++) {
    wwd_tile_property *tp = &lvl->tile_properties[i];
    size_t area, pos = r.pos;
    int k;
    lvl->num_tile_properties = (uint32_t)i + 1;
    tp->type = br_u32le(&r);
    tp->unknown = br_u32le(&r);
    tp->width = br_u32le(&r);
    tp->height = br_u32le(&r);
    if (r.failed) return codec_fail(err, "tile property %zu: byte offset %zu%s: truncated head", i, pos, src->note);
    switch (tp->type) {
      case WWD_TILE_SINGLE:
        tp->attribute = br_i32le(&r);
        if (r.failed)
          return codec_fail(err, "tile property %zu: byte offset %zu%s: truncated single property", i,
                            pos, src->note);
        break;
      case WWD_TILE_DOUBLE:
        tp->attribute = br_i32le(&r);
        tp->inside_attribute = br_i32le(&r);
        for (k = 0; k < 4; k++) tp->rect[k] = br_i32le(&r);
        if (r.failed)
          return codec_fail(err, "tile property %zu: byte offset %zu%s: truncated double property", i,
                            pos, src->note);
        break;
      case WWD_TILE_MASK: {
        const unsigned char *m;
        if (!size_mul(tp->width, tp->height, &area) || area > UINT32_MAX)
          return codec_fail(err, "tile property %zu: byte offset %zu%s: mask size %u x %u overflows", i,
                            pos, src->note, tp->width, tp->height);
        if (!(m = br_bytes(&r, area)))
          return codec_fail(err,
                            "tile property %zu: byte offset %zu%s: mask of %u x %u bytes exceeds the "
                            "main block (%zu bytes left)",
                            i, pos, src->note, tp->width, tp->height, br_left(&r));
        if (area) {
          tp->mask = (unsigned char *)malloc(area);
          if (!tp->mask) return codec_fail_oom(err, "tile property %zu: out of memory", i);
          memcpy(tp->mask, m, area);
          tp->mask_len = (uint32_t)area;
        }
        break;
      }
      default:
        return codec_fail(err,
                          "tile property %zu: byte offset %zu%s: unknown type %u (expected 1 single, 2 "
                          "double, 3 mask)",
                          i, pos, src->note, tp->type);
    }
    if (r.pos - pos > WWD_TP_HEAD_SIZE) {
      if (!budget_take(src, r.pos - pos - WWD_TP_HEAD_SIZE, pos, err, "tile property %zu", i)) return 0;
    }
  }
  return 1;
}

/* After a parse: the block shrinks to the bytes used (freed when none
** were).  realloc may move it, so the tiles, object arrays and strings in
** it are pointed into the result by walking them in the order parse_plane
** filled it (per plane: tiles at a multiple of 4, the object array at its
** alignment, then its objects' strings), never
** through the old pointers, which are not even compared.  When realloc
** fails the block stays whole (and is counted whole by wwd_footprint). */
static void arena_finish(wwd_level *lvl, const wwd_src *src) {
  unsigned char *shrunk;
  size_t pos = 0, bytes;
  uint32_t i, k;
  int s;
  if (src->arena_used == 0) {
    free(lvl->block);
    lvl->block = NULL;
    lvl->block_size = 0;
    return;
  }
  if (src->arena_used == lvl->block_size) return;
  shrunk = (unsigned char *)realloc(lvl->block, src->arena_used);
  if (!shrunk) return;
  lvl->block = shrunk;
  lvl->block_size = src->arena_used;
  for (i = 0; i < lvl->num_planes; i++) {
    wwd_plane *p = &lvl->planes[i];
    if (p->tiles_in_block) {
      bytes = (size_t)p->tiles_wide * p->tiles_high * 4; /* fitted in the block */
      arena_tiles_at(pos, bytes, src->arena_used, &pos);
      p->tiles = (uint32_t *)(void *)(shrunk + pos);
      pos += bytes;
    }
    if (p->objects_in_block) { /* moved with the block: the strings below are read from the moved array */
      bytes = (size_t)p->objects_cap * sizeof(wwd_object);
      arena_objects_at(pos, bytes, src->arena_used, &pos);
      p->objects = (wwd_object *)(void *)(shrunk + pos);
      pos += bytes;
    }
    for (k = 0; k < p->num_objects; k++) {
      for (s = 0; s < WWD_OBJECT_NSTRINGS; s++) {
        wwd_bytes *b = &p->objects[k].str[s];
        if (!b->in_block) continue;
        b->data = shrunk + pos;
        pos += b->len;
      }
    }
  }
}

/* The block a parse allocates for a main block of main_len bytes and np
** planes (see wwd_parse_reusing): 0 when beyond size_t. */
static int block_size_for(size_t main_len, uint32_t np, size_t *size) {
  size_t per_object = sizeof(wwd_object) > WWD_OBJECT_FIXED_SIZE ? sizeof(wwd_object) - WWD_OBJECT_FIXED_SIZE : 0;
  size_t extra, align;
  return size_mul(main_len / WWD_OBJECT_FIXED_SIZE, per_object, &extra) &&
         size_mul(np, 3 + _Alignof(wwd_object), &align) && size_add(main_len, extra, size) &&
         size_add(*size, align, size);
}

/* The level's block of n bytes: from the caller's allocator when scratch
** names one (wwd_scratch.alloc_large), else malloc. */
static unsigned char *block_alloc(const wwd_scratch *scratch, size_t n) {
  return (unsigned char *)(scratch && scratch->alloc_large ? scratch->alloc_large(n) : malloc(n));
}

/* Parses a whole file (see wwd.h).  On failure *out is set to NULL and err
** names the section and byte offset. */
int wwd_parse(const unsigned char *data, size_t size, wwd_level **out, codec_error *err) {
  return wwd_parse_reusing(data, size, NULL, out, err);
}

/* wwd_parse with the inflated main block in *scratch when given (see
** wwd.h); `owned` is the block when it is this call's own. */
int wwd_parse_reusing(const unsigned char *data, size_t size, wwd_scratch *scratch, wwd_level **out,
                      codec_error *err) {
  wwd_level *lvl = NULL;
  unsigned char *owned = NULL;
  wwd_src src;
  uint32_t sig, flags, np, off_planes, i;
  size_t plane_bytes;
  int compressed;
  if (out) *out = NULL;
  if (!data || size < 4)
    return codec_fail(err, "header: byte offset 0: truncated: the file has %zu bytes, a WWD header needs %u",
                      data ? size : 0, (unsigned)WWD_HEADER_SIZE);
  sig = le32_load(data);
  if (sig != WWD_SIGNATURE)
    return codec_fail(err, "header: byte offset 0: bad signature 0x%08X (expected 0x%08X): not a WWD file",
                      sig, (unsigned)WWD_SIGNATURE);
  if (size < WWD_HEADER_SIZE)
    return codec_fail(err, "header: byte offset %zu: truncated: the file has %zu bytes, a WWD header needs %u",
                      size, size, (unsigned)WWD_HEADER_SIZE);
  flags = le32_load(data + WWD_HDR_FLAGS);
  compressed = (flags & WWD_FLAG_COMPRESS) != 0;
  src.data = data;
  src.size = size;
  src.note = "";
  src.used = 0;
  src.sets = 0;
  src.arena = NULL;
  src.arena_cap = 0;
  src.arena_used = 0;
  src.cancel = scratch ? scratch->cancel : NULL;
  if (compressed) {
    unsigned char *inflated = NULL;
    if (!inflate_main(data, size, scratch, &inflated, &src.size, err)) return 0;
    if (!scratch) owned = inflated;
    src.data = inflated;
    src.note = " (decompressed)";
  }
  lvl = (wwd_level *)calloc(1, sizeof *lvl);
  if (!lvl) {
    free(owned);
    return codec_fail_oom(err, "header: out of memory");
  }
  memcpy(lvl->header, data, WWD_HEADER_SIZE);
  lvl->file_size = size;
  lvl->checksum_stored = le32_load(data + WWD_HDR_CHECKSUM);
  lvl->checksum_computed = wwd_checksum(data + WWD_HEADER_SIZE, size - WWD_HEADER_SIZE);
  lvl->checksum_kind = checksum_classify(lvl->checksum_stored, lvl->checksum_computed, compressed);
  np = le32_load(data + WWD_HDR_NUM_PLANES);
  off_planes = le32_load(data + WWD_HDR_OFFSET_PLANES);
  if (!size_mul(np, WWD_PLANE_HEADER_SIZE, &plane_bytes) || !section_ok(&src, off_planes, plane_bytes)) {
    codec_fail(err,
               "header: byte offset %u: %u plane headers of %u bytes at offset %u do not fit in the "
               "main block (%zu bytes with the header%s)",
               (unsigned)WWD_HDR_NUM_PLANES, np, (unsigned)WWD_PLANE_HEADER_SIZE, off_planes, src.size,
               compressed ? ", decompressed" : "");
    goto fail;
  }
  if (!budget_take(&src, plane_bytes, WWD_HDR_NUM_PLANES, err, "header")) goto fail;
  /* The block for all tiles, object arrays and object strings.  Tiles and
  ** strings are sections of the main block, and so are the objects' fixed
  ** parts, which budget_take keeps from adding up to more than it; an
  ** object in its array takes a few bytes more than its fixed part, and
  ** each plane at most its two alignments (block_size_for).  Pages never
  ** written are never touched, and arena_finish gives back the rest.
  ** Without it (a size beyond size_t, out of memory) each gets its own
  ** allocation. */
  if (block_size_for(src.size - WWD_HEADER_SIZE, np, &src.arena_cap) && src.arena_cap > 0 &&
      (src.arena = block_alloc(scratch, src.arena_cap)) != NULL) {
    lvl->block = src.arena; /* owned by the level from here on: wwd_free releases it after its users */
    lvl->block_size = src.arena_cap;
  } else {
    src.arena_cap = 0;
  }
  if (np) {
    lvl->planes = (wwd_plane *)calloc(np, sizeof(wwd_plane));
    if (!lvl->planes) {
      codec_fail_oom(err, "header: out of memory for %u planes", np);
      goto fail;
    }
    lvl->num_planes = np;
    for (i = 0; i < np; i++) {
      if (!parse_plane(&src, lvl, i, (size_t)off_planes + (size_t)i * WWD_PLANE_HEADER_SIZE, err))
        goto fail;
    }
  }
  if (!parse_tile_props(&src, lvl, err)) goto fail;
  /* plane and tile property uids: their indexes in the file (see wwd.h) */
  for (i = 0; i < lvl->num_planes; i++) lvl->planes[i].uid = i;
  lvl->next_plane_uid = lvl->num_planes;
  for (i = 0; i < lvl->num_tile_properties; i++) lvl->tile_properties[i].uid = i;
  lvl->next_property_uid = lvl->num_tile_properties;
  arena_finish(lvl, &src);
  free(owned);
  if (out) *out = lvl;
  else wwd_free(lvl);
  return 1;
fail:
  free(owned);
  wwd_free(lvl);
  return 0;
}

/* ---- serializing ------------------------------------------------------------ */

/* Adds n to a layout position, failing when the result leaves the uint32
** range the file's offsets can express. */
static int layout_add(size_t *pos, size_t n) {
  return size_add(*pos, n, pos) && *pos <= UINT32_MAX;
}

/* The layout pass of wwd_serialize: validates every part (tile arrays
** matching the header dimensions, image-set names without NUL, tile
** properties consistent, offsets within uint32) and computes the file's
** total size and the tile properties' offset. */
static int serialize_layout(const wwd_level *lvl, size_t *total_out, uint32_t *off_tp, codec_error *err) {
  size_t pos = WWD_HEADER_SIZE, total;
  uint32_t pi, i;
  int k;
  if (!size_mul(lvl->num_planes, WWD_PLANE_HEADER_SIZE, &total) || !layout_add(&pos, total))
    return codec_fail_limit(err, "header: %u planes do not fit in a WWD file", lvl->num_planes);
  for (pi = 0; pi < lvl->num_planes; pi++) {
    const wwd_plane *p = &lvl->planes[pi];
    size_t n, bytes;
    if (le32_load(p->header + WWD_PLANE_TILES_WIDE) != p->tiles_wide ||
        le32_load(p->header + WWD_PLANE_TILES_HIGH) != p->tiles_high)
      return codec_fail_arg(err,
                            "plane %u: the header says %u x %u tiles but the tile array is %u x %u", pi,
                            le32_load(p->header + WWD_PLANE_TILES_WIDE),
                            le32_load(p->header + WWD_PLANE_TILES_HIGH), p->tiles_wide, p->tiles_high);
    if (!size_mul(p->tiles_wide, p->tiles_high, &n) || !size_mul(n, 4, &bytes) || !layout_add(&pos, bytes))
      return codec_fail_limit(err, "tiles of plane %u: %u x %u tiles do not fit in a WWD file", pi,
                              p->tiles_wide, p->tiles_high);
    if (n && !p->tiles) return codec_fail_arg(err, "tiles of plane %u: tile array missing", pi);
  }
  for (pi = 0; pi < lvl->num_planes; pi++) {
    const wwd_plane *p = &lvl->planes[pi];
    if (p->num_image_sets && !p->image_sets)
      return codec_fail_arg(err, "image sets of plane %u: names missing", pi);
    for (i = 0; i < p->num_image_sets; i++) {
      const wwd_bytes *b = &p->image_sets[i];
      if (b->len && (!b->data || memchr(b->data, 0, b->len)))
        return codec_fail_arg(err, "image sets of plane %u: name %u contains a NUL byte", pi, i);
      if (!layout_add(&pos, (size_t)b->len + 1))
        return codec_fail_limit(err, "image sets of plane %u: names do not fit in a WWD file", pi);
    }
  }
  for (pi = 0; pi < lvl->num_planes; pi++) {
    const wwd_plane *p = &lvl->planes[pi];
    if (p->num_objects && !p->objects) return codec_fail_arg(err, "plane %u: objects missing", pi);
    for (i = 0; i < p->num_objects; i++) {
      const wwd_object *o = &p->objects[i];
      if (!layout_add(&pos, WWD_OBJECT_FIXED_SIZE))
        return codec_fail_limit(err, "object %u of plane %u: does not fit in a WWD file", i, pi);
      for (k = 0; k < WWD_OBJECT_NSTRINGS; k++) {
        if (o->str[k].len && !o->str[k].data)
          return codec_fail_arg(err, "object %u of plane %u: string %d missing", i, pi, k);
        if (!layout_add(&pos, o->str[k].len))
          return codec_fail_limit(err, "object %u of plane %u: does not fit in a WWD file", i, pi);
      }
    }
  }
  if (pos > UINT32_MAX) return codec_fail_limit(err, "tile properties header: offset beyond 4 GiB");
  *off_tp = (uint32_t)pos;
  if (!layout_add(&pos, WWD_TILE_PROPS_HEADER_SIZE))
    return codec_fail_limit(err, "tile properties header: does not fit in a WWD file");
  for (i = 0; i < lvl->num_tile_properties; i++) {
    size_t sz;
    if (!tile_property_size(&lvl->tile_properties[i], i, &sz, err)) return 0;
    if (!layout_add(&pos, sz)) return codec_fail_limit(err, "tile property %u: does not fit in a WWD file", i);
  }
  *total_out = pos;
  return 1;
}

/* Writes the plane headers with their counts and offsets recomputed from
** the layout that follows them (tiles, then image-set names, then
** objects, each plane's after the previous one's); serialize_layout has
** checked that every offset fits in uint32. */
static void write_plane_headers(byte_writer *w, const wwd_level *lvl) {
  size_t tiles_pos = WWD_HEADER_SIZE + (size_t)lvl->num_planes * WWD_PLANE_HEADER_SIZE;
  size_t sets_pos = tiles_pos, obj_pos;
  uint32_t pi, i;
  int k;
  for (pi = 0; pi < lvl->num_planes; pi++)
    sets_pos += (size_t)lvl->planes[pi].tiles_wide * lvl->planes[pi].tiles_high * 4;
  obj_pos = sets_pos;
  for (pi = 0; pi < lvl->num_planes; pi++)
    for (i = 0; i < lvl->planes[pi].num_image_sets; i++) obj_pos += (size_t)lvl->planes[pi].image_sets[i].len + 1;
  for (pi = 0; pi < lvl->num_planes; pi++) {
    const wwd_plane *p = &lvl->planes[pi];
    unsigned char ph[WWD_PLANE_HEADER_SIZE];
    memcpy(ph, p->header, sizeof ph);
    le32_store(ph + WWD_PLANE_NUM_IMAGE_SETS, p->num_image_sets);
    le32_store(ph + WWD_PLANE_NUM_OBJECTS, p->num_objects);
    le32_store(ph + WWD_PLANE_OFFSET_TILES, (uint32_t)tiles_pos);
    le32_store(ph + WWD_PLANE_OFFSET_IMAGE_SETS, (uint32_t)sets_pos);
    le32_store(ph + WWD_PLANE_OFFSET_OBJECTS, p->num_objects ? (uint32_t)obj_pos : 0);
    byte_writer_bytes(w, ph, sizeof ph);
    tiles_pos += (size_t)p->tiles_wide * p->tiles_high * 4;
    for (i = 0; i < p->num_image_sets; i++) sets_pos += (size_t)p->image_sets[i].len + 1;
    for (i = 0; i < p->num_objects; i++) {
      obj_pos += WWD_OBJECT_FIXED_SIZE;
      for (k = 0; k < WWD_OBJECT_NSTRINGS; k++) obj_pos += p->objects[i].str[k].len;
    }
  }
}

/* Writes every plane's tiles, then every plane's image-set names
** (NUL-terminated), then every plane's objects (the first field, the
** string lengths, the other fields, the strings). */
static void write_plane_contents(byte_writer *w, const wwd_level *lvl) {
  uint32_t pi, i;
  int k;
  for (pi = 0; pi < lvl->num_planes; pi++) {
    const wwd_plane *p = &lvl->planes[pi];
    size_t n = (size_t)p->tiles_wide * p->tiles_high, t;
    for (t = 0; t < n; t++) byte_writer_u32(w, p->tiles[t]);
  }
  for (pi = 0; pi < lvl->num_planes; pi++) {
    const wwd_plane *p = &lvl->planes[pi];
    for (i = 0; i < p->num_image_sets; i++) {
      byte_writer_bytes(w, p->image_sets[i].data, p->image_sets[i].len);
      byte_writer_zeros(w, 1);
    }
  }
  for (pi = 0; pi < lvl->num_planes; pi++) {
    const wwd_plane *p = &lvl->planes[pi];
    for (i = 0; i < p->num_objects; i++) {
      const wwd_object *o = &p->objects[i];
      byte_writer_i32(w, o->field[0]);
      for (k = 0; k < WWD_OBJECT_NSTRINGS; k++) byte_writer_u32(w, o->str[k].len);
      for (k = 1; k < WWD_OBJECT_NFIELDS; k++) byte_writer_i32(w, o->field[k]);
      for (k = 0; k < WWD_OBJECT_NSTRINGS; k++) byte_writer_bytes(w, o->str[k].data, o->str[k].len);
    }
  }
}

/* Writes the tile properties header (its count recomputed) and every
** property: single and double tiles by their fields, masks as bytes. */
static void write_tile_properties(byte_writer *w, const wwd_level *lvl) {
  unsigned char tph[WWD_TILE_PROPS_HEADER_SIZE];
  uint32_t i;
  int k;
  memcpy(tph, lvl->tile_props_header, sizeof tph);
  le32_store(tph + 8, lvl->num_tile_properties);
  byte_writer_bytes(w, tph, sizeof tph);
  for (i = 0; i < lvl->num_tile_properties; i++) {
    const wwd_tile_property *tp = &lvl->tile_properties[i];
    byte_writer_u32(w, tp->type);
    byte_writer_u32(w, tp->unknown);
    byte_writer_u32(w, tp->width);
    byte_writer_u32(w, tp->height);
    if (tp->type == WWD_TILE_SINGLE) {
      byte_writer_i32(w, tp->attribute);
    } else if (tp->type == WWD_TILE_DOUBLE) {
      byte_writer_i32(w, tp->attribute);
      byte_writer_i32(w, tp->inside_attribute);
      for (k = 0; k < 4; k++) byte_writer_i32(w, tp->rect[k]);
    } else {
      byte_writer_bytes(w, tp->mask, tp->mask_len);
    }
  }
}

/* Replaces the uncompressed main block of the file in w (total bytes,
** header first) by its zlib stream, stores the stream's checksum, and
** hands the result out; w is freed either way. */
static int compress_main_block(byte_writer *w, size_t total, unsigned char **out, size_t *out_size,
                               codec_error *err) {
  size_t main_len = total - WWD_HEADER_SIZE;
  uLongf clen = compressBound((uLong)main_len);
  unsigned char *c = (unsigned char *)malloc((size_t)WWD_HEADER_SIZE + clen);
  int zret;
  if (!c) {
    byte_writer_free(w);
    return codec_fail_oom(err, "main block (zlib): out of memory");
  }
  zret = compress2(c + WWD_HEADER_SIZE, &clen, w->data + WWD_HEADER_SIZE, (uLong)main_len, WWD_ZLIB_LEVEL);
  if (zret != Z_OK) {
    free(c);
    byte_writer_free(w);
    return codec_fail_code(err, zret == Z_MEM_ERROR ? CODEC_E_MEMORY : CODEC_E_LIMIT,
                           "main block (zlib): compression failed (zlib error %d)", zret);
  }
  memcpy(c, w->data, WWD_HEADER_SIZE);
  byte_writer_free(w);
  le32_store(c + WWD_HDR_CHECKSUM, wwd_checksum(c + WWD_HEADER_SIZE, clen));
  *out = c;
  *out_size = (size_t)WWD_HEADER_SIZE + clen;
  return 1;
}

/* Serializes a level (see wwd.h).  First the layout is computed and every
** part validated (serialize_layout); then the whole "header + main block"
** is written uncompressed; then, if flag 0x2 is set, the main block is
** replaced by its zlib stream.  The checksum stored is the exact S of the
** main block as written. */
int wwd_serialize(const wwd_level *lvl, unsigned char **out, size_t *out_size, codec_error *err) {
  byte_writer w;
  size_t total = 0, main_len;
  uint32_t off_tp = 0;
  unsigned char hdr[WWD_HEADER_SIZE];
  int compressed;
  *out = NULL;
  *out_size = 0;
  if (!lvl) return codec_fail_arg(err, "header: no level");
  if (lvl->num_planes && !lvl->planes) return codec_fail_arg(err, "header: planes missing");
  if (lvl->num_tile_properties && !lvl->tile_properties)
    return codec_fail_arg(err, "tile properties header: properties missing");
  memcpy(hdr, lvl->header, sizeof hdr);
  compressed = (le32_load(hdr + WWD_HDR_FLAGS) & WWD_FLAG_COMPRESS) != 0;
  if (!serialize_layout(lvl, &total, &off_tp, err)) return 0;
  main_len = total - WWD_HEADER_SIZE;
  if (compressed && main_len > WWD_MAX_MAIN_BLOCK)
    return codec_fail_limit(err, "main block (zlib): %zu bytes exceed the limit of %u for a compressed level",
                            main_len, (unsigned)WWD_MAX_MAIN_BLOCK);

  memset(&w, 0, sizeof w);
  if (!byte_writer_reserve(&w, total)) return codec_fail_oom(err, "header: out of memory for %zu bytes", total);
  le32_store(hdr + WWD_HDR_NUM_PLANES, lvl->num_planes);
  le32_store(hdr + WWD_HDR_OFFSET_PLANES, WWD_HEADER_SIZE);
  le32_store(hdr + WWD_HDR_OFFSET_TILE_PROPS, off_tp);
  le32_store(hdr + WWD_HDR_DECOMPRESSED_SIZE, compressed ? (uint32_t)main_len : 0);
  le32_store(hdr + WWD_HDR_CHECKSUM, 0); /* filled in at the end */
  byte_writer_bytes(&w, hdr, sizeof hdr);
  write_plane_headers(&w, lvl);
  write_plane_contents(&w, lvl);
  write_tile_properties(&w, lvl);
  if (w.failed || w.size != total) {
    byte_writer_free(&w);
    return codec_fail_oom(err, "header: out of memory while writing %zu bytes", total);
  }
  if (compressed) return compress_main_block(&w, total, out, out_size, err);
  le32_store(w.data + WWD_HDR_CHECKSUM, wwd_checksum(w.data + WWD_HEADER_SIZE, main_len));
  *out = byte_writer_take(&w, out_size);
  return 1;
}

/* ---- comparison ----------------------------------------------------------- */

/* Header bytes wwd_serialize recomputes, skipped when comparing levels. */
static int level_header_derived(size_t off) {
  return (off >= WWD_HDR_NUM_PLANES && off < WWD_HDR_CHECKSUM + 4);
}

/* Plane header bytes wwd_serialize recomputes (counts and offsets). */
static int plane_header_derived(size_t off) {
  return off >= WWD_PLANE_NUM_IMAGE_SETS && off < WWD_PLANE_OFFSET_OBJECTS + 4;
}

/* Compares two byte strings. */
static int bytes_eq(const wwd_bytes *a, const wwd_bytes *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* Content equality (see wwd.h).  Writes the first difference into why. */
int wwd_equal(const wwd_level *a, const wwd_level *b, char *why, size_t why_size) {
  size_t off;
  uint32_t pi, i;
  int k;
#define WWD_DIFF(...)                                      \
  do {                                                     \
    if (why && why_size) snprintf(why, why_size, __VA_ARGS__); \
    return 0;                                              \
  } while (0)
  for (off = 0; off < WWD_HEADER_SIZE; off++)
    if (!level_header_derived(off) && a->header[off] != b->header[off])
      WWD_DIFF("header byte %zu: %u vs %u", off, a->header[off], b->header[off]);
  for (off = 0; off < WWD_TILE_PROPS_HEADER_SIZE; off++)
    if ((off < 8 || off >= 12) && a->tile_props_header[off] != b->tile_props_header[off])
      WWD_DIFF("tile properties header byte %zu differs", off);
  if (a->num_planes != b->num_planes) WWD_DIFF("num_planes %u vs %u", a->num_planes, b->num_planes);
  for (pi = 0; pi < a->num_planes; pi++) {
    const wwd_plane *p = &a->planes[pi], *q = &b->planes[pi];
    size_t n;
    for (off = 0; off < WWD_PLANE_HEADER_SIZE; off++)
      if (!plane_header_derived(off) && p->header[off] != q->header[off])
        WWD_DIFF("plane %u header byte %zu differs", pi, off);
    if (p->tiles_wide != q->tiles_wide || p->tiles_high != q->tiles_high)
      WWD_DIFF("plane %u tile dimensions differ", pi);
    n = (size_t)p->tiles_wide * p->tiles_high;
    if (n && (!p->tiles || !q->tiles)) {
      if (p->tiles != q->tiles) WWD_DIFF("plane %u: one tile array missing", pi);
    } else if (n && memcmp(p->tiles, q->tiles, n * 4) != 0) {
      WWD_DIFF("plane %u tiles differ", pi);
    }
    if (p->num_image_sets != q->num_image_sets) WWD_DIFF("plane %u image set counts differ", pi);
    for (i = 0; i < p->num_image_sets; i++)
      if (!bytes_eq(&p->image_sets[i], &q->image_sets[i])) WWD_DIFF("plane %u image set %u differs", pi, i);
    if (p->num_objects != q->num_objects)
      WWD_DIFF("plane %u: %u vs %u objects", pi, p->num_objects, q->num_objects);
    for (i = 0; i < p->num_objects; i++) {
      const wwd_object *o = &p->objects[i], *r = &q->objects[i];
      if (memcmp(o->field, r->field, sizeof o->field) != 0)
        WWD_DIFF("object %u of plane %u: fields differ", i, pi);
      for (k = 0; k < WWD_OBJECT_NSTRINGS; k++)
        if (!bytes_eq(&o->str[k], &r->str[k])) WWD_DIFF("object %u of plane %u: string %d differs", i, pi, k);
    }
  }
  if (a->num_tile_properties != b->num_tile_properties)
    WWD_DIFF("%u vs %u tile properties", a->num_tile_properties, b->num_tile_properties);
  for (i = 0; i < a->num_tile_properties; i++) {
    const wwd_tile_property *s = &a->tile_properties[i], *t = &b->tile_properties[i];
    int same = s->type == t->type && s->unknown == t->unknown && s->width == t->width &&
               s->height == t->height;
    if (same && s->type == WWD_TILE_SINGLE) same = s->attribute == t->attribute;
    if (same && s->type == WWD_TILE_DOUBLE)
      same = s->attribute == t->attribute && s->inside_attribute == t->inside_attribute &&
             memcmp(s->rect, t->rect, sizeof s->rect) == 0;
    if (same && s->type == WWD_TILE_MASK)
      same = s->mask_len == t->mask_len && (s->mask_len == 0 || memcmp(s->mask, t->mask, s->mask_len) == 0);
    if (!same) WWD_DIFF("tile property %u differs", i);
  }
#undef WWD_DIFF
  return 1;
}
