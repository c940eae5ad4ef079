/*
** wed_edit.c: structural edits of a WED area that change the number of
** doors or the size of an overlay (wed_door_insert / _delete,
** wed_overlay_resize), and the rules of the edits levelsql's wed_* tables
** make (which overlay record an INSERT takes, which cells a door may
** have, a polygon's kind and door, its bounding box edges).  See wed.h
** for what each keeps consistent and NOTES-wed.md for the choices.
**
** The edits that take several steps (delete a door's polygons, then its
** cells, then its record; resize a tilemap, renumber the door cells,
** regenerate the wall groups) work on a copy of the area and swap it in
** only when every step succeeded (edit_on_copy), so a failure leaves the
** area exactly as it was.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wed/wed.h"

#define U16_LIMIT 0xFFFFu

/* A step of an edit on a copy of the area. */
typedef int (*wed_edit_fn)(wed_area *copy, const void *arg, codec_error *err);

/* Runs fn on a deep copy of the area (the copy of the original file bytes
** is lent to it, not duplicated) and, when fn succeeds, swaps the edited
** copy in; else the area stays as it was. */
static int edit_on_copy(wed_area *a, wed_edit_fn fn, const void *arg, codec_error *err) {
  unsigned char *orig = a->orig;
  wed_area *c, tmp;
  a->orig = NULL;
  c = wed_clone(a);
  a->orig = orig;
  if (!c) return codec_fail_oom(err, "out of memory copying the area for an edit");
  if (!fn(c, arg, err)) {
    wed_free(c);
    return 0;
  }
  c->orig = orig; /* the edited area keeps the original bytes ... */
  a->orig = NULL; /* ... and the old one, freed below, lets go of them */
  tmp = *a;
  *a = *c;
  *c = tmp;
  wed_free(c);
  return 1;
}

/* ---- doors -------------------------------------------------------------------- */

/* The new door's states point after the last polygon (as index, so the
** writer gives them that offset) and its cells after the last door cell. */
int wed_door_insert(wed_area *a, uint32_t *door, codec_error *err) {
  wed_door *nd, *dr;
  if (a->num_doors >= U16_LIMIT) return codec_fail_limit(err, "doors: %u doors already", a->num_doors);
  if (a->num_door_cells > U16_LIMIT)
    return codec_fail_limit(err, "doors: the door cell table has %u entries, a new door's start would not fit 16 bits",
                            a->num_door_cells);
  if (a->next_door_uid == UINT32_MAX) return codec_fail_limit(err, "doors: no door uid left");
  nd = (wed_door *)realloc(a->doors, ((size_t)a->num_doors + 1) * sizeof(wed_door));
  if (!nd) return codec_fail_oom(err, "doors: out of memory");
  a->doors = nd;
  dr = &nd[a->num_doors];
  memset(dr, 0, sizeof *dr);
  dr->closed = 1;
  dr->first_cell = (uint16_t)a->num_door_cells;
  dr->open_first = dr->closed_first = a->num_polygons;
  dr->uid = a->next_door_uid++;
  if (door) *door = a->num_doors;
  a->num_doors++;
  return 1;
}

/* Whether polygon index p lies in a non-empty state of a door other than
** `door`; sets *other. */
static int polygon_of_other_door(const wed_area *a, uint32_t p, uint32_t door, uint32_t *other) {
  uint32_t i;
  for (i = 0; i < a->num_doors; i++) {
    const wed_door *dr = &a->doors[i];
    if (i == door) continue;
    if ((dr->open_count && dr->open_first <= p && p - dr->open_first < dr->open_count) ||
        (dr->closed_count && dr->closed_first <= p && p - dr->closed_first < dr->closed_count)) {
      *other = i;
      return 1;
    }
  }
  return 0;
}

/* On the copy: the door's polygons, last first (each delete shrinks the
** state that held it), its cells, its record. */
static int door_delete_steps(wed_area *c, const void *arg, codec_error *err) {
  uint32_t door = *(const uint32_t *)arg;
  while (c->doors[door].closed_count)
    if (!wed_polygon_delete(c, c->doors[door].closed_first + c->doors[door].closed_count - 1u, err)) return 0;
  while (c->doors[door].open_count)
    if (!wed_polygon_delete(c, c->doors[door].open_first + c->doors[door].open_count - 1u, err)) return 0;
  if (c->doors[door].cell_count && !wed_door_set_cells(c, door, NULL, 0, err)) return 0;
  memmove(c->doors + door, c->doors + door + 1, (size_t)(c->num_doors - door - 1) * sizeof(wed_door));
  c->num_doors--;
  return 1;
}

/* Checks first that no polygon of the door is shared with another door
** (deleting it would take it from that door too). */
int wed_door_delete(wed_area *a, uint32_t door, codec_error *err) {
  const wed_door *dr;
  uint32_t k, other;
  if (door >= a->num_doors) return codec_fail_arg(err, "door %u: no such door (%u doors)", door, a->num_doors);
  dr = &a->doors[door];
  for (k = 0; k < (uint32_t)dr->open_count + dr->closed_count; k++) {
    uint32_t p = k < dr->open_count ? dr->open_first + k : dr->closed_first + (k - dr->open_count);
    if (polygon_of_other_door(a, p, door, &other))
      return codec_fail_arg(err, "its polygon records are shared with another door's state (their runs overlap), so "
                                 "deleting them would change that door too");
  }
  return edit_on_copy(a, door_delete_steps, &door, err);
}

/* ---- overlays ----------------------------------------------------------------- */

typedef struct resize_arg {
  uint32_t overlay;
  uint16_t width, height;
} resize_arg;

/* The tiles a resized overlay's cell (x, y) shows: its own when it was
** inside, else those of the cell the old tilemap repeats there; NULL
** (TIS tile 0) when the overlay had no cells.  *src gets that old cell. */
static uint32_t source_tiles(const wed_area *a, uint32_t ov, uint32_t x, uint32_t y, const uint16_t **tiles,
                             uint32_t *src) {
  const wed_overlay *o = &a->overlays[ov];
  if (!o->num_cells) {
    *tiles = NULL;
    return 0;
  }
  *src = (y % o->height) * o->width + (x % o->width);
  return wed_cell_tiles(a, ov, *src, tiles);
}

/* On the copy: the new tilemap and lookup table, cell after cell. */
static int resize_tilemap(wed_area *c, const resize_arg *r, codec_error *err) {
  wed_overlay *o = &c->overlays[r->overlay];
  uint32_t ncells = (uint32_t)r->width * r->height, x, y, total = 0, pass;
  wed_tilecell *cells = NULL;
  uint16_t *lookup = NULL;
  /* each cell takes at least one lookup entry and starts below 65536 */
  if (ncells > U16_LIMIT + 1u)
    return codec_fail_limit(err, "overlay %u: %ux%u = %u cells, but the 16-bit tile lookup starts reach 65536 cells at most",
                            r->overlay, r->width, r->height, ncells);
  for (pass = 0; pass < 2; pass++) {
    uint32_t pos = 0;
    if (pass == 1) {
      cells = (wed_tilecell *)calloc(ncells ? ncells : 1, sizeof *cells);
      lookup = (uint16_t *)calloc(total ? total : 1, sizeof *lookup);
      if (!cells || !lookup) {
        free(cells);
        free(lookup);
        return codec_fail_oom(err, "overlay %u: out of memory", r->overlay);
      }
    }
    for (y = 0; y < r->height; y++)
      for (x = 0; x < r->width; x++) {
        const uint16_t *tiles;
        uint32_t src = 0, n = source_tiles(c, r->overlay, x, y, &tiles, &src);
        int kept = x < o->width && y < o->height;
        uint32_t take = kept || n ? n : 1; /* a kept cell keeps its count, even 0 */
        if (pass == 0 && pos > U16_LIMIT)
          return codec_fail_limit(err, "overlay %u: the rebuilt tile lookup would need start index %u, beyond 65535",
                                  r->overlay, pos);
        if (pass == 1) {
          wed_tilecell *cell = &cells[y * r->width + x];
          if (kept) {
            *cell = o->cells[src];
          } else {
            cell->secondary_tile = WED_NO_TILE;
            if (n) cell->anim_speed = o->cells[src].anim_speed;
          }
          cell->tile_start = (uint16_t)pos;
          cell->tile_count = (uint16_t)take;
          if (n) memcpy(lookup + pos, tiles, n * sizeof *tiles);
        }
        pos += take;
      }
    total = pos;
  }
  free(o->cells);
  free(o->lookup);
  o->cells = cells;
  o->num_cells = ncells;
  o->lookup = lookup;
  o->num_lookup = total;
  o->width = r->width;
  o->height = r->height;
  return 1;
}

/* On the copy, for a resized base overlay: every door cell entry moves to
** its (x, y) in the new width.  An entry a door uses that falls outside
** the new size refuses the edit; one no door uses is kept as it was when
** it does not fit (it is never read). */
static int renumber_door_cells(wed_area *c, uint16_t old_w, uint32_t old_cells, const resize_arg *r,
                               codec_error *err) {
  uint32_t i, k;
  uint16_t *cells;
  if (!c->num_door_cells) return 1;
  cells = (uint16_t *)malloc((size_t)c->num_door_cells * sizeof *cells);
  if (!cells) return codec_fail_oom(err, "door cells: out of memory");
  for (k = 0; k < c->num_door_cells; k++) {
    uint32_t v = c->door_cells[k], x = old_w ? v % old_w : 0, y = old_w ? v / old_w : 0;
    uint32_t nv = y * (uint32_t)r->width + x;
    cells[k] = v < old_cells && x < r->width && y < r->height && nv <= U16_LIMIT ? (uint16_t)nv : (uint16_t)v;
  }
  for (i = 0; i < c->num_doors; i++) {
    const wed_door *dr = &c->doors[i];
    for (k = dr->first_cell; k < (uint32_t)dr->first_cell + dr->cell_count; k++) {
      uint32_t v = c->door_cells[k], x = old_w ? v % old_w : 0, y = old_w ? v / old_w : 0;
      if (v >= old_cells || x >= r->width || y >= r->height || y * (uint32_t)r->width + x > U16_LIMIT) {
        free(cells);
        return codec_fail_arg(err,
                              "door %u: its cell %u (x %u, y %u) lies outside the new %ux%u area; take it out of "
                              "the door's cells first",
                              i, v, x, y, r->width, r->height);
      }
    }
  }
  free(c->door_cells);
  c->door_cells = cells;
  return 1;
}

/* On the copy: the tilemap, then what depends on it. */
static int resize_steps(wed_area *c, const void *arg, codec_error *err) {
  const resize_arg *r = arg;
  wed_overlay *o = &c->overlays[r->overlay];
  uint16_t old_w = o->width;
  uint32_t old_cells = o->num_cells, gx0, gy0, gx, gy, i, k;
  wed_wallgroup_grid(c, &gx0, &gy0);
  if (r->overlay == 0 && !renumber_door_cells(c, old_w, old_cells, r, err)) return 0;
  if (!resize_tilemap(c, r, err)) return 0;
  if (r->width == 0) {
    uint8_t bit = r->overlay < 8 ? (uint8_t)(1u << r->overlay) : 0;
    for (i = 0; i < c->num_overlays; i++)
      for (k = 0; k < c->overlays[i].num_cells; k++) c->overlays[i].cells[k].overlay_mask &= (uint8_t)~bit;
  }
  wed_wallgroup_grid(c, &gx, &gy);
  if (r->overlay == 0 && (gx != gx0 || gy != gy0)) {
    c->num_wallgroups = gx * gy;
    if (!wed_wallgroups_regenerate(c, err)) return 0;
  }
  return 1;
}

/* Checks the request, then resizes on a copy. */
int wed_overlay_resize(wed_area *a, uint32_t overlay, uint16_t width, uint16_t height, codec_error *err) {
  resize_arg r;
  if (overlay >= a->num_overlays)
    return codec_fail_arg(err, "overlay %u: no such overlay (%u overlay records)", overlay, a->num_overlays);
  if ((width == 0) != (height == 0))
    return codec_fail_arg(err, "overlay %u: %ux%u; both sizes are 0 (an unused overlay) or neither is", overlay, width,
                          height);
  if (overlay == 0 && width == 0)
    return codec_fail_arg(err, "overlay 0: the base overlay is the area and cannot be emptied (it needs at least 1x1 tiles)");
  /* the same size is no change, except that emptying an overlay that is
  ** already unused still clears the mask bits that draw it */
  if (a->overlays[overlay].width == width && a->overlays[overlay].height == height && width) return 1;
  r.overlay = overlay;
  r.width = width;
  r.height = height;
  return edit_on_copy(a, resize_steps, &r, err);
}

/* ---- edits as the wed_* tables make them ----------------------------------------- */

/* The highest overlay record number, for messages ("1..4"). */
static uint32_t last_overlay(const wed_area *a) {
  return a->num_overlays ? a->num_overlays - 1 : 0;
}

/* Whether overlay record i is unused (0x0). */
static int overlay_unused(const wed_area *a, uint32_t i) {
  return !a->overlays[i].width && !a->overlays[i].height;
}

/* A record asked for is checked; else the first unused one from 1. */
int wed_overlay_pick(const wed_area *a, const int64_t *want, uint32_t *overlay, codec_error *err) {
  uint32_t i;
  if (!want) {
    for (i = 1; i < a->num_overlays; i++) {
      if (overlay_unused(a, i)) {
        *overlay = i;
        return 1;
      }
    }
    return codec_fail_arg(err, "every overlay record 1..%u is in use; DELETE one first (WED files keep their overlay records)",
                          last_overlay(a));
  }
  if (*want == 0)
    return codec_fail_arg(err, "overlay 0 is the base overlay, always in use; UPDATE its width and height to resize the area");
  if (*want < 1 || *want >= a->num_overlays)
    return codec_fail_arg(err, "overlay %lld: no such overlay record (the file has %u, 0..%u); WED files keep their overlay "
                               "records, INSERT takes an unused one",
                          (long long)*want, a->num_overlays, last_overlay(a));
  if (!overlay_unused(a, (uint32_t)*want))
    return codec_fail_arg(err, "overlay %lld is in use (%ux%u); INSERT takes an unused (0x0) record, UPDATE resizes a used one",
                          (long long)*want, (unsigned)a->overlays[*want].width, (unsigned)a->overlays[*want].height);
  *overlay = (uint32_t)*want;
  return 1;
}

/* The resize first, so that a refused one changes nothing; an unchanged
** tileset keeps its bytes after the NUL (the copy holds them as read). */
int wed_overlay_update(wed_area *a, uint32_t overlay, const wed_overlay *now, int resize, codec_error *err) {
  wed_overlay *o;
  if (overlay >= a->num_overlays)
    return codec_fail_arg(err, "overlay %u: no such overlay (%u overlay records)", overlay, a->num_overlays);
  if (resize && !wed_overlay_resize(a, overlay, now->width, now->height, err)) return codec_prefix(err, "cannot resize: ");
  o = &a->overlays[overlay];
  memcpy(o->tileset, now->tileset, sizeof o->tileset);
  o->unique_tiles = now->unique_tiles;
  o->movement_type = now->movement_type;
  return 1;
}

/* The tilemap, its lookup and the mask bits go with the resize to 0x0;
** then what the record says about the tiles. */
int wed_overlay_empty(wed_area *a, uint32_t overlay, codec_error *err) {
  wed_overlay *o;
  if (overlay == 0)
    return codec_fail_arg(err, "DELETE refused: overlay 0 is the base overlay, the area itself; UPDATE its width and height "
                               "to resize it");
  if (!wed_overlay_resize(a, overlay, 0, 0, err)) return codec_prefix(err, "cannot delete: ");
  o = &a->overlays[overlay];
  memset(o->tileset, 0, sizeof o->tileset);
  o->unique_tiles = 0;
  o->movement_type = 0;
  return 1;
}

int wed_door_insert_at(wed_area *a, const int64_t *at, uint32_t *door, codec_error *err) {
  if (at && *at != a->num_doors)
    return codec_fail_arg(err, "column door: a new door goes after the last, as door %u (leave door out)", a->num_doors);
  if (!wed_door_insert(a, door, err)) return codec_prefix(err, "cannot insert a door: ");
  return 1;
}

/* The example in the message is a valid value: cells 0 and 1 (0 alone in
** a 1-cell overlay). */
int wed_door_cells_valid(const wed_area *a, const uint16_t *cells, size_t n, codec_error *err) {
  const wed_overlay *base = a->num_overlays ? &a->overlays[0] : NULL;
  uint32_t ncells = base ? base->num_cells : 0;
  size_t i;
  if (ncells == 0) return codec_fail_arg(err, "the area has no base overlay cells, so a door can have none");
  for (i = 0; i < n; i++) {
    if (cells[i] >= ncells)
      return codec_fail_arg(err, "element %llu: %u is out of range; it takes a JSON array of base-overlay cell indices from 0 "
                                 "to %u (the %ux%u base overlay), e.g. '[%u,%u]'",
                            (unsigned long long)i, (unsigned)cells[i], ncells - 1, (unsigned)base->width,
                            (unsigned)base->height, 0u, ncells > 1 ? 1u : 0u);
  }
  return 1;
}

/* The fields first: a refusal of the cells names the door by the name the
** same UPDATE gives it (callers undo a refused UPDATE as a whole). */
int wed_door_update(wed_area *a, uint32_t door, const wed_door *now, const uint16_t *cells, size_t n, int new_cells,
                    codec_error *err) {
  wed_door *dr;
  if (door >= a->num_doors) return codec_fail_arg(err, "door %u: no such door", door);
  dr = &a->doors[door];
  memcpy(dr->name, now->name, sizeof dr->name);
  dr->closed = now->closed;
  return !new_cells || (wed_door_cells_valid(a, cells, n, err) && wed_door_set_cells(a, door, cells, n, err));
}

/* The fields that size nothing, then the tiles (which may move the
** cell's run in the lookup table). */
int wed_cell_update(wed_area *a, uint32_t overlay, uint32_t cell, const wed_tilecell *now, const uint16_t *tiles, size_t n,
                    int new_tiles, codec_error *err) {
  wed_tilecell *c;
  if (overlay >= a->num_overlays || cell >= a->overlays[overlay].num_cells)
    return codec_fail_arg(err, "overlay %u: no cell %u", overlay, cell);
  c = &a->overlays[overlay].cells[cell];
  c->secondary_tile = now->secondary_tile;
  c->overlay_mask = now->overlay_mask;
  c->anim_speed = now->anim_speed;
  c->unknown = now->unknown;
  return !new_tiles || wed_cell_set_tiles(a, overlay, cell, tiles, n, err);
}

void wed_polygon_edges(const wed_polygon *p, int32_t edge[4]) {
  edge[0] = p->min_x;
  edge[1] = p->max_x;
  edge[2] = p->min_y;
  edge[3] = p->max_y;
}

int wed_polygon_update(wed_area *a, uint32_t poly, const wed_polygon *now, const wed_point *pts, size_t n, int new_vertices,
                       const int32_t edge[4], unsigned set, codec_error *err) {
  if (poly >= a->num_polygons) return codec_fail_arg(err, "polygon %u: no such polygon", poly);
  a->polygons[poly].flags = now->flags;
  a->polygons[poly].height = now->height;
  if (new_vertices && !wed_polygon_set_vertices(a, poly, pts, n, err)) return codec_prefix(err, "column vertices: ");
  return wed_polygon_set_edges(a, poly, edge, set, err);
}

/* The box from the vertices first (for the edges set to -1), then the
** edges, then the check of the axes set. */
int wed_polygon_set_edges(wed_area *a, uint32_t poly, const int32_t edge[4], unsigned set, codec_error *err) {
  static const char *const names[4] = {"min_x", "max_x", "min_y", "max_y"};
  uint16_t box[4], from_vertices[4];
  const wed_polygon *p;
  const wed_point *pts;
  uint32_t n;
  int k;
  if (poly >= a->num_polygons) return codec_fail_arg(err, "polygon %u: no such polygon", poly);
  p = &a->polygons[poly];
  n = wed_polygon_vertices(a, poly, &pts);
  wed_bbox_of(pts, n, &from_vertices[0], &from_vertices[1], &from_vertices[2], &from_vertices[3]);
  box[0] = p->min_x;
  box[1] = p->max_x;
  box[2] = p->min_y;
  box[3] = p->max_y;
  for (k = 0; k < 4; k++) {
    if (set & (1u << k)) box[k] = edge[k] < 0 ? from_vertices[k] : (uint16_t)edge[k];
  }
  for (k = 0; k < 4; k += 2) {
    if ((set & (3u << k)) && box[k] > box[k + 1])
      return codec_fail_arg(err, "column %s: %u is greater than %s %u; a bounding box needs %s <= %s", names[k],
                            (unsigned)box[k], names[k + 1], (unsigned)box[k + 1], names[k], names[k + 1]);
  }
  if (box[0] == p->min_x && box[1] == p->max_x && box[2] == p->min_y && box[3] == p->max_y) return 1;
  if (!wed_polygon_set_bbox(a, poly, box[0], box[1], box[2], box[3], err)) return codec_prefix(err, "bounding box: ");
  return 1;
}

/* The kind and the door must agree: a wall has no door, a door polygon
** needs one; the door is checked before the codec places the polygon. */
int wed_polygon_insert_kind(wed_area *a, const char *kind, const int64_t *door, int door_name_given, uint32_t *poly,
                            codec_error *err) {
  int door_kind = kind && (strcmp(kind, "door_open") == 0 || strcmp(kind, "door_closed") == 0);
  if (door_name_given || (kind && !door_kind && strcmp(kind, "wall") != 0) || door_kind != (door != NULL))
    return codec_fail_arg(err, "INSERT into wed_polygons takes kind 'wall' (or no kind) without a door, or kind 'door_open' or "
                               "'door_closed' with a door (wed_doors.door); door_name is read-only");
  if (!door_kind) {
    if (!wed_polygon_insert_wall(a, WED_NEW_WALL_FLAGS, WED_NEW_POLYGON_HEIGHT, NULL, 0, poly, err))
      return codec_prefix(err, "cannot insert a wall polygon: ");
    return 1;
  }
  if (a->num_doors == 0) return codec_fail_arg(err, "column door: the area has no doors (add one with INSERT INTO wed_doors)");
  if (*door < 0 || *door >= a->num_doors)
    return codec_fail_arg(err, "column door: it takes a door number from 0 to %u (the area has %u doors)", a->num_doors - 1,
                          a->num_doors);
  if (!wed_polygon_insert_door(a, (uint32_t)*door, strcmp(kind, "door_closed") == 0, WED_NEW_DOOR_FLAGS,
                               WED_NEW_POLYGON_HEIGHT, NULL, 0, poly, err))
    return codec_prefix(err, "cannot insert a %s polygon: ", kind);
  return 1;
}

/* ---- names for messages ------------------------------------------------------------ */

/* An 8-byte name as printable ASCII (other bytes as '?': messages have no
** code page to decode with); out holds 9 bytes. */
static void name_for_message(const unsigned char field[8], char out[9]) {
  size_t i, n = wed_resref_len(field);
  for (i = 0; i < n; i++) out[i] = field[i] >= 0x20 && field[i] < 0x7f ? (char)field[i] : '?';
  out[n] = 0;
}

void wed_door_describe(const wed_area *a, uint32_t door, char *buf, size_t size) {
  char name[9];
  name_for_message(a->doors[door].name, name);
  snprintf(buf, size, "door %u '%s'", door, name);
}

/* Its kind, and for a door polygon the door it belongs to. */
void wed_polygon_describe(const wed_area *a, uint32_t poly, char *buf, size_t size) {
  long door = -1;
  const char *kind = wed_polygon_kind_name(wed_polygon_kind_of(a, poly, &door));
  char name[9];
  if (door < 0) {
    snprintf(buf, size, "%s polygon %u", kind, poly);
    return;
  }
  name_for_message(a->doors[door].name, name);
  snprintf(buf, size, "%s polygon %u of door %ld '%s'", kind, poly, door, name);
}

void wed_vertex_describe(const wed_area *a, uint32_t poly, uint32_t k, char *buf, size_t size) {
  char name[96];
  wed_polygon_describe(a, poly, name, sizeof name);
  snprintf(buf, size, "vertex %u of %s", k, name);
}
