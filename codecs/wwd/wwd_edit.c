/*
** wwd_edit.c: structural edits of a wwd_level (codecs/wwd/wwd.h): resizing a
** plane, finding planes and tile properties by uid, inserting and removing
** tile properties.  Kept apart from wwd.c (parsing, serializing, the model's
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

/* Finds a plane by uid (a linear search: levels have a few planes). */
long wwd_plane_find(const wwd_level *lvl, uint32_t uid) {
  uint32_t i;
  for (i = 0; lvl && i < lvl->num_planes; i++) {
    if (lvl->planes[i].uid == uid) return (long)i;
  }
  return -1;
}

/* Finds a tile property by uid.  Properties usually keep their uids in
** index order, so the index equal to the uid is tried first. */
long wwd_tile_property_find(const wwd_level *lvl, uint32_t uid) {
  uint32_t i;
  if (!lvl) return -1;
  if (uid < lvl->num_tile_properties && lvl->tile_properties[uid].uid == uid) return (long)uid;
  for (i = 0; i < lvl->num_tile_properties; i++) {
    if (lvl->tile_properties[i].uid == uid) return (long)i;
  }
  return -1;
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
