/*
** wwd_edit.c: structural edits of a wwd_level (codecs/wwd/wwd.h): resizing a
** plane (and the values its new cells may take), finding planes and tile
** properties by uid, deleting a plane, replacing its image sets, writing
** it from an edited header, inserting, removing and updating tile
** properties.  Kept apart from wwd.c (parsing, serializing, the model's
** life cycle) so that each file stays about one thing.
**
** Every edit either succeeds completely or leaves the level as it was, and
** keeps what wwd_serialize checks: a plane's tile array matches the tile
** counts of its header, masks are width*height bytes.
*/
#include "wwd/wwd.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/text8.h"

/* Finds a plane by uid (a linear search: levels have a few planes). */
int wwd_plane_find(const wwd_level *lvl, uint32_t uid, uint32_t *at) {
  uint32_t i;
  for (i = 0; lvl && i < lvl->num_planes; i++) {
    if (lvl->planes[i].uid == uid) {
      *at = i;
      return 1;
    }
  }
  return 0;
}

/* Finds a tile property by uid.  Properties usually keep their uids in
** index order, so the index equal to the uid is tried first. */
int wwd_tile_property_find(const wwd_level *lvl, uint32_t uid, uint32_t *at) {
  uint32_t i;
  if (!lvl) return 0;
  if (uid < lvl->num_tile_properties && lvl->tile_properties[uid].uid == uid) {
    *at = uid;
    return 1;
  }
  for (i = 0; i < lvl->num_tile_properties; i++) {
    if (lvl->tile_properties[i].uid == uid) {
      *at = i;
      return 1;
    }
  }
  return 0;
}

/* Deletes a plane, refusing the main plane (see wwd.h). */
int wwd_plane_delete(wwd_level *lvl, uint32_t plane, codec_error *err) {
  if (plane < lvl->num_planes && (le32_load(lvl->planes[plane].header + WWD_PLANE_FLAGS) & WWD_PLANE_MAIN))
    return codec_fail(err, "it is the main plane, which a level cannot do without; delete other planes only");
  if (!wwd_plane_remove(lvl, plane)) return codec_fail(err, "plane %u: no such plane", plane);
  return 1;
}

/* The new names are all copied before the old ones go, so running out of
** memory halfway leaves the plane as it was. */
int wwd_plane_set_image_sets(wwd_plane *p, const char *const *names, const size_t *lens, size_t n, codec_error *err) {
  wwd_bytes *sets = n < SIZE_MAX / sizeof *sets ? calloc(n + 1, sizeof *sets) : NULL;
  size_t i;
  if (!sets || n > UINT32_MAX) {
    free(sets);
    return codec_fail_oom(err, "plane image sets: out of memory");
  }
  for (i = 0; i < n; i++) {
    if (!wwd_bytes_set(&sets[i], (const unsigned char *)names[i], lens[i])) {
      while (i--) free(sets[i].data);
      free(sets);
      return codec_fail_oom(err, "plane image sets: out of memory");
    }
  }
  for (i = 0; i < p->num_image_sets; i++) free(p->image_sets[i].data); /* always malloc'd (parse_image_sets) */
  free(p->image_sets);
  p->image_sets = sets;
  p->num_image_sets = (uint32_t)n;
  return 1;
}

/* A type change that fails leaves the old size (the statement fails, and
** the engine undoes it anyway). */
int wwd_tile_property_update(wwd_level *lvl, uint32_t index, const wwd_tile_property *want, int new_mask,
                             const unsigned char *mask, size_t mask_len, codec_error *err) {
  wwd_tile_property *tp = &lvl->tile_properties[index];
  if (want->type != tp->type) {
    uint32_t width = tp->width, height = tp->height;
    tp->width = want->width;
    tp->height = want->height;
    if (!wwd_tile_property_set_type(tp, want->type)) {
      tp->width = width;
      tp->height = height;
      return codec_fail_oom(err, "tile property %u: out of memory", index);
    }
  }
  tp->width = want->width;
  tp->height = want->height;
  tp->attribute = want->attribute;
  tp->inside_attribute = want->inside_attribute;
  memcpy(tp->rect, want->rect, sizeof tp->rect);
  if (new_mask && !wwd_tile_property_set_mask(tp, mask, mask_len))
    return codec_fail_oom(err, "tile property %u: out of memory", index);
  return wwd_tile_property_check(tp, index, err);
}

/* Resizes a plane, anchored top-left (see wwd.h).  The new array is built
** beside the old one and swapped in only when everything fits, so a
** failure leaves the plane unchanged. */
int wwd_plane_resize(wwd_level *lvl, uint32_t plane, uint32_t tiles_wide, uint32_t tiles_high, uint32_t fill,
                     codec_error *err) {
  wwd_plane *p;
  uint64_t cells, px_w, px_h;
  uint32_t tile_w, tile_h, x, y, keep_w, keep_h;
  uint32_t *tiles = NULL;
  if (!lvl || plane >= lvl->num_planes) return codec_fail_arg(err, "plane %u: no such plane", plane);
  p = &lvl->planes[plane];
  if (tiles_wide > INT32_MAX || tiles_high > INT32_MAX)
    return codec_fail_limit(err, "plane %u: %u x %u tiles: a dimension beyond %d", plane, tiles_wide, tiles_high,
                            INT32_MAX);
  cells = (uint64_t)tiles_wide * tiles_high;
  if (cells > WWD_MAX_PLANE_CELLS)
    return codec_fail_limit(err, "plane %u: %u x %u tiles: more than the %u cells a plane may have", plane, tiles_wide,
                            tiles_high, (unsigned)WWD_MAX_PLANE_CELLS);
  tile_w = le32_load(p->header + WWD_PLANE_TILE_WIDTH);
  tile_h = le32_load(p->header + WWD_PLANE_TILE_HEIGHT);
  px_w = (uint64_t)tiles_wide * tile_w;
  px_h = (uint64_t)tiles_high * tile_h;
  if (tile_w > INT32_MAX || tile_h > INT32_MAX || px_w > INT32_MAX || px_h > INT32_MAX)
    return codec_fail_limit(err, "plane %u: %u x %u tiles of %u x %u pixels: the size in pixels is beyond %d", plane,
                            tiles_wide, tiles_high, tile_w, tile_h, INT32_MAX);
  if (tiles_wide == p->tiles_wide && tiles_high == p->tiles_high) return 1;
  if (cells) {
    tiles = (uint32_t *)malloc((size_t)cells * sizeof *tiles);
    if (!tiles) return codec_fail_oom(err, "plane %u: out of memory for %u x %u tiles", plane, tiles_wide, tiles_high);
  }
  keep_w = tiles_wide < p->tiles_wide ? tiles_wide : p->tiles_wide;
  keep_h = tiles_high < p->tiles_high ? tiles_high : p->tiles_high;
  for (y = 0; cells && y < tiles_high; y++) { /* no cells: no array (NULL + 0 is undefined) */
    uint32_t *row = tiles + (size_t)y * tiles_wide;
    x = 0;
    if (y < keep_h && keep_w) {
      memcpy(row, p->tiles + (size_t)y * p->tiles_wide, (size_t)keep_w * sizeof *row);
      x = keep_w;
    }
    for (; x < tiles_wide; x++) row[x] = fill;
  }
  wwd_plane_set_tiles(p, tiles); /* the old array may point into the level's block */
  p->tiles_wide = tiles_wide;
  p->tiles_high = tiles_high;
  le32_store(p->header + WWD_PLANE_TILES_WIDE, tiles_wide);
  le32_store(p->header + WWD_PLANE_TILES_HIGH, tiles_high);
  le32_store(p->header + WWD_PLANE_WIDTH_PX, (uint32_t)px_w);
  le32_store(p->header + WWD_PLANE_HEIGHT_PX, (uint32_t)px_h);
  return 1;
}

/* Inserts a tile property (see wwd.h): appended, then rotated into place,
** so the making and the checks are wwd_tile_property_append's. */
long wwd_tile_property_insert(wwd_level *lvl, uint32_t at, uint32_t type, uint32_t width, uint32_t height) {
  wwd_tile_property tp;
  long last;
  if (!lvl || at > lvl->num_tile_properties) return -1;
  if ((last = wwd_tile_property_append(lvl, type, width, height)) < 0) return -1;
  tp = lvl->tile_properties[last];
  memmove(&lvl->tile_properties[at + 1], &lvl->tile_properties[at], ((size_t)last - at) * sizeof tp);
  lvl->tile_properties[at] = tp;
  return (long)at;
}

/* Removes a tile property, freeing its mask; later ones move down. */
int wwd_tile_property_remove(wwd_level *lvl, uint32_t idx) {
  if (!lvl || idx >= lvl->num_tile_properties) return 0;
  free(lvl->tile_properties[idx].mask);
  memmove(&lvl->tile_properties[idx], &lvl->tile_properties[idx + 1],
          (size_t)(lvl->num_tile_properties - idx - 1) * sizeof(wwd_tile_property));
  lvl->num_tile_properties--;
  return 1;
}

/* "invisible", "filled" (ASCII, any case: text8_name_eq) or the decimal
** digits of a tile id (see wwd.h). */
int wwd_new_cells_parse(const char *text, uint32_t *cell) {
  char *end = NULL;
  long long id;
  if (text8_name_eq(text, "invisible")) {
    *cell = WWD_TILE_INVISIBLE;
    return 1;
  }
  if (text8_name_eq(text, "filled")) {
    *cell = WWD_TILE_FILLED;
    return 1;
  }
  id = strtoll(text, &end, 10);
  if (text[0] < '0' || text[0] > '9' || !end || *end || id < 0 || id > UINT32_MAX || (uint32_t)id == WWD_TILE_INVISIBLE ||
      (uint32_t)id == WWD_TILE_FILLED)
    return 0;
  *cell = (uint32_t)id;
  return 1;
}

/* A resize first, so that a size that cannot be changes nothing; the
** header written last keeps the size fields the resize set. */
int wwd_plane_update(wwd_level *lvl, uint32_t plane, const unsigned char header[WWD_PLANE_HEADER_SIZE], int new_sets,
                     const char *const *names, const size_t *lens, size_t n, uint32_t fill, codec_error *err) {
  wwd_plane *p;
  unsigned char px[8], tiles[8]; /* width_px, height_px; tiles_wide, tiles_high */
  uint32_t wide = le32_load(header + WWD_PLANE_TILES_WIDE), high = le32_load(header + WWD_PLANE_TILES_HIGH);
  if (!lvl || plane >= lvl->num_planes) return codec_fail_arg(err, "plane %u: no such plane", plane);
  p = &lvl->planes[plane];
  if ((wide != p->tiles_wide || high != p->tiles_high) && !wwd_plane_resize(lvl, plane, wide, high, fill, err)) return 0;
  if (new_sets && !wwd_plane_set_image_sets(p, names, lens, n, err)) return 0;
  memcpy(px, p->header + WWD_PLANE_WIDTH_PX, 8);
  memcpy(tiles, p->header + WWD_PLANE_TILES_WIDE, 8);
  memcpy(p->header, header, WWD_PLANE_HEADER_SIZE);
  memcpy(p->header + WWD_PLANE_WIDTH_PX, px, 8);
  memcpy(p->header + WWD_PLANE_TILES_WIDE, tiles, 8);
  return 1;
}
