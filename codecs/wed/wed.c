/*
** wed.c: the WED V1.3 codec.  See wed.h for the model and ownership,
** NOTES-wed.md for the quirks handled here and why (and
** ../shared/formats/wed.md for the byte layout and the corpus facts).
*/
#include "wed/wed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"

/* Largest lookup start / count / polygon index the 16-bit fields can hold. */
#define U16_MAX_V 0xFFFFu
/* Upper bound on vertices we create by editing, so every byte size and
** offset stays far inside 32 bits. */
#define WED_MAX_VERTICES 0x0FFFFFFFu

/* ---- small helpers -------------------------------------------------------- */

/* Copies n elements of `elem` bytes into a new malloc'd block (*dst = NULL
** when n == 0).  Returns 0 when memory runs out; separate from malloc so that
** "no elements" is never mistaken for a failure. */
static int dup_mem(void **dst, const void *src, size_t n, size_t elem) {
  size_t bytes;
  *dst = NULL;
  if (n == 0) return 1;
  if (!size_mul(n, elem, &bytes)) return 0;
  *dst = malloc(bytes);
  if (!*dst) return 0;
  memcpy(*dst, src, bytes);
  return 1;
}

/* calloc that never returns NULL for a zero count (so NULL means failure). */
static void *zalloc(size_t n, size_t elem) {
  return calloc(n ? n : 1, elem);
}

/* Sets *r to read a table of `count` records of `rec` bytes at `off` and
** returns 1 when the table lies inside the file.  Zero-length tables may
** point anywhere (real files point unused ones at the next free position). */
static int table_at(const unsigned char *d, size_t size, uint32_t off, uint64_t count, size_t rec, byte_reader *r) {
  *r = br_at(d, size, off);
  return count <= SIZE_MAX && br_need_n(r, (size_t)count, rec);
}

/* Reads a table of n little-endian 16-bit entries at byte offset off into
** *out (malloc'd; left NULL when n is 0), naming it `what` in errors, with
** `derived` saying where n comes from (n is the largest run that records
** before it point at, not a stored count). */
static int read_u16_table(const unsigned char *d, size_t size, uint32_t off, uint32_t n, const char *what,
                          const char *derived, uint16_t **out, codec_error *err) {
  byte_reader r;
  uint32_t k;
  if (!table_at(d, size, off, n, 2, &r))
    return codec_fail(err, "%s: byte offset %u: %u entries (%s) run past the end of the %zu-byte file", what, off, n,
                      derived, size);
  if (n && !(*out = (uint16_t *)zalloc(n, sizeof(uint16_t)))) return codec_fail_oom(err, "%s: out of memory", what);
  for (k = 0; k < n; k++) (*out)[k] = br_u16le(&r);
  return 1;
}

/* Renders 4 version bytes printable for an error message ("V1.4", or \xNN
** escapes), so a binary file does not garble the message. */
static void printable4(const unsigned char *p, char *out) {
  static const char hex[] = "0123456789ABCDEF";
  size_t i, k = 0;
  for (i = 0; i < 4; i++) {
    if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\'') {
      out[k++] = (char)p[i];
    } else {
      out[k++] = '\\';
      out[k++] = 'x';
      out[k++] = hex[p[i] >> 4];
      out[k++] = hex[p[i] & 15];
    }
  }
  out[k] = 0;
}

/* Grid size of the wall groups from base overlay dimensions, integer math
** (ceil(W/10) x ceil(H/7.5)), as wed.md section 8 prescribes. */
static void grid_of(uint32_t w, uint32_t h, uint32_t *gx, uint32_t *gy) {
  *gx = (w + 9u) / 10u;
  *gy = (2u * h + 14u) / 15u;
}

/* The wall group grid of an area: from the base overlay, none without one. */
void wed_wallgroup_grid(const wed_area *a, uint32_t *gx, uint32_t *gy) {
  if (a->num_overlays == 0) {
    *gx = *gy = 0;
    return;
  }
  grid_of(a->overlays[0].width, a->overlays[0].height, gx, gy);
}

void wed_wallgroup_origin(const wed_area *a, uint32_t g, int64_t *x_px, int64_t *y_px) {
  uint32_t gx, gy;
  wed_wallgroup_grid(a, &gx, &gy);
  *x_px = gx ? (int64_t)WED_GROUP_W * (g % gx) : 0;
  *y_px = gx ? (int64_t)WED_GROUP_H * (g / gx) : 0;
}

/* ---- free / clone ------------------------------------------------------------ */

/* Releases an area and everything it owns; NULL is fine. */
void wed_free(wed_area *a) {
  uint32_t i;
  if (!a) return;
  if (a->overlays) {
    for (i = 0; i < a->num_overlays; i++) {
      free(a->overlays[i].cells);
      free(a->overlays[i].lookup);
    }
  }
  free(a->overlays);
  free(a->doors);
  free(a->door_cells);
  free(a->polygons);
  free(a->vertices);
  free(a->wallgroups);
  free(a->poly_lookup);
  free(a->vertex_uids);
  free(a->orig);
  free(a);
}

/* Deep copy for savepoints: every array is duplicated, uids kept.  Returns
** NULL (nothing leaked) when memory runs out. */
wed_area *wed_clone(const wed_area *a) {
  wed_area *c;
  uint32_t i;
  int ok = 1;
  if (!a) return NULL;
  c = (wed_area *)malloc(sizeof *c);
  if (!c) return NULL;
  *c = *a;
  c->overlays = NULL;
  c->doors = NULL;
  c->door_cells = NULL;
  c->polygons = NULL;
  c->vertices = NULL;
  c->wallgroups = NULL;
  c->poly_lookup = NULL;
  c->vertex_uids = NULL;
  c->orig = NULL;
  if (a->num_overlays) {
    c->overlays = (wed_overlay *)zalloc(a->num_overlays, sizeof(wed_overlay));
    if (!c->overlays) {
      c->num_overlays = 0;
      ok = 0;
    } else {
      for (i = 0; i < a->num_overlays; i++) {
        wed_overlay *d = &c->overlays[i];
        const wed_overlay *s = &a->overlays[i];
        *d = *s;
        d->cells = NULL;
        d->lookup = NULL;
        if (ok) ok = dup_mem((void **)&d->cells, s->cells, s->num_cells, sizeof(wed_tilecell));
        if (ok) ok = dup_mem((void **)&d->lookup, s->lookup, s->num_lookup, sizeof(uint16_t));
      }
    }
  }
  if (ok) ok = dup_mem((void **)&c->doors, a->doors, a->num_doors, sizeof(wed_door));
  if (ok) ok = dup_mem((void **)&c->door_cells, a->door_cells, a->num_door_cells, sizeof(uint16_t));
  if (ok) ok = dup_mem((void **)&c->polygons, a->polygons, a->num_polygons, sizeof(wed_polygon));
  if (ok) ok = dup_mem((void **)&c->vertices, a->vertices, a->num_vertices, sizeof(wed_point));
  if (ok) ok = dup_mem((void **)&c->wallgroups, a->wallgroups, a->num_wallgroups, sizeof(wed_wallgroup));
  if (ok) ok = dup_mem((void **)&c->poly_lookup, a->poly_lookup, a->num_poly_lookup, sizeof(uint16_t));
  if (ok && a->vertex_uids) ok = dup_mem((void **)&c->vertex_uids, a->vertex_uids, a->num_vertex_uids, sizeof(uint32_t));
  if (ok) ok = dup_mem((void **)&c->orig, a->orig, a->orig ? a->orig_size : 0, 1);
  if (!ok) {
    wed_free(c);
    return NULL;
  }
  return c;
}

/* ---- parse ------------------------------------------------------------------- */

/* Recognizes a V1.3 file by its full 8-byte signature, as GemRB does. */
int wed_sniff(const unsigned char *data, size_t size) {
  return size >= 8 && memcmp(data, "WED V1.3", 8) == 0;
}

/* One section of the file as read, for the overlap test. */
typedef struct wed_span {
  size_t off, len;
} wed_span;

/* qsort order of spans by offset (then length), for the overlap test. */
static int span_cmp(const void *x, const void *y) {
  const wed_span *p = (const wed_span *)x, *q = (const wed_span *)y;
  if (p->off != q->off) return p->off < q->off ? -1 : 1;
  if (p->len != q->len) return p->len < q->len ? -1 : 1;
  return 0;
}

/* Records whether any two non-empty sections of the file overlap.  When they
** do, an in-place write could let an edit of one table clobber another, so
** wed_serialize lays such files out again.  Returns 0 on out of memory. */
static int detect_overlap(wed_area *a) {
  size_t n = 0, i, cap = 9 + 2 * (size_t)a->num_overlays;
  wed_span *s = (wed_span *)zalloc(cap, sizeof(wed_span));
  if (!s) return 0;
#define ADD_SPAN(o, l)                 \
  do {                                 \
    size_t l_ = (l);                   \
    if (l_) {                          \
      s[n].off = (o);                  \
      s[n].len = l_;                   \
      n++;                             \
    }                                  \
  } while (0)
  ADD_SPAN(0, WED_HEADER_SIZE);
  ADD_SPAN(a->offsets.overlays, (size_t)a->num_overlays * WED_OVERLAY_SIZE);
  ADD_SPAN(a->offsets.sechdr, WED_SECHDR_SIZE);
  ADD_SPAN(a->offsets.doors, (size_t)a->num_doors * WED_DOOR_SIZE);
  ADD_SPAN(a->offsets.door_cells, (size_t)a->num_door_cells * 2u);
  ADD_SPAN(a->offsets.polygons, (size_t)a->num_polygons * WED_POLYGON_SIZE);
  ADD_SPAN(a->offsets.vertices, (size_t)a->num_vertices * WED_VERTEX_SIZE);
  ADD_SPAN(a->offsets.wallgroups, (size_t)a->num_wallgroups * WED_WALLGROUP_SIZE);
  ADD_SPAN(a->offsets.poly_lookup, (size_t)a->num_poly_lookup * 2u);
  for (i = 0; i < a->num_overlays; i++) {
    ADD_SPAN(a->overlays[i].tilemap_offset, (size_t)a->overlays[i].num_cells * WED_TILECELL_SIZE);
    ADD_SPAN(a->overlays[i].lookup_offset, (size_t)a->overlays[i].num_lookup * 2u);
  }
#undef ADD_SPAN
  qsort(s, n, sizeof *s, span_cmp);
  a->overlap = 0;
  for (i = 1; i < n; i++)
    if (s[i - 1].off + s[i - 1].len > s[i].off) a->overlap = 1;
  free(s);
  return 1;
}

/* Reads the overlay records, their tilemaps and tile lookup tables.  The
** lookup length is derived as max(start+count) over the overlay's cells.
** Polls `cancel` (NULL: never) every CODEC_POLL_RECORDS cells. */
static int parse_overlays(wed_area *a, const unsigned char *d, size_t size, uint32_t n_ov, const codec_cancel *cancel,
                          codec_error *err) {
  byte_reader r, t;
  uint32_t i, k;
  char what[48];
  if (!table_at(d, size, a->offsets.overlays, n_ov, WED_OVERLAY_SIZE, &r))
    return codec_fail(err, "overlays: byte offset %u: %u records of 24 bytes run past the end of the %zu-byte file",
                      a->offsets.overlays, n_ov, size);
  a->overlays = (wed_overlay *)zalloc(n_ov, sizeof(wed_overlay));
  if (!a->overlays) return codec_fail_oom(err, "overlays: out of memory");
  a->num_overlays = n_ov;
  for (i = 0; i < n_ov; i++) {
    wed_overlay *o = &a->overlays[i];
    size_t at = r.pos;
    uint64_t cells;
    uint32_t nlook = 0;
    o->width = br_u16le(&r);
    o->height = br_u16le(&r);
    memcpy(o->tileset, br_bytes(&r, 8), 8);
    o->unique_tiles = br_u16le(&r);
    o->movement_type = br_u16le(&r);
    o->tilemap_offset = br_u32le(&r);
    o->lookup_offset = br_u32le(&r);
    cells = (uint64_t)o->width * o->height;
    if (!table_at(d, size, o->tilemap_offset, cells, WED_TILECELL_SIZE, &t))
      return codec_fail(err,
                        "overlay %u tilemap: byte offset %u: %ux%u cells of 10 bytes run past the end of the "
                        "%zu-byte file (overlay record at byte offset %zu)",
                        i, o->tilemap_offset, o->width, o->height, size, at);
    o->num_cells = (uint32_t)cells;
    if (cells) {
      o->cells = (wed_tilecell *)zalloc((size_t)cells, sizeof(wed_tilecell));
      if (!o->cells) return codec_fail_oom(err, "overlay %u tilemap: out of memory", i);
    }
    for (k = 0; k < o->num_cells; k++) {
      wed_tilecell *c = &o->cells[k];
      if (codec_cancelled_at(cancel, k)) return codec_fail_interrupted(err);
      c->tile_start = br_u16le(&t);
      c->tile_count = br_u16le(&t);
      c->secondary_tile = br_u16le(&t);
      c->overlay_mask = br_u8(&t);
      c->anim_speed = br_u8(&t);
      c->unknown = br_u16le(&t);
      if ((uint32_t)c->tile_start + c->tile_count > nlook) nlook = (uint32_t)c->tile_start + c->tile_count;
    }
    snprintf(what, sizeof what, "overlay %u tile lookup", i);
    if (!read_u16_table(d, size, o->lookup_offset, nlook, what, "the largest start+count of its cells", &o->lookup, err))
      return 0;
    o->num_lookup = nlook;
    o->orig_num_cells = o->num_cells;
    o->orig_num_lookup = o->num_lookup;
  }
  return 1;
}

/* Resolves one door state's polygon offset to an index into the combined
** polygon array.  A non-empty state must sit on an 18-byte record boundary
** after the wall polygons; an empty one may point anywhere (its raw offset is
** then kept).  *end_max grows to cover the state's records. */
static int door_state(wed_area *a, uint32_t door, const char *state, size_t field_at, uint32_t off, uint16_t count,
                      uint32_t *first, uint32_t *raw_off, uint8_t *raw, uint64_t *end_max, codec_error *err) {
  uint32_t poff = a->offsets.polygons;
  int aligned = off >= poff && (off - poff) % WED_POLYGON_SIZE == 0;
  uint32_t idx = aligned ? (off - poff) / WED_POLYGON_SIZE : 0;
  *raw_off = off;
  if (count == 0) {
    *raw = (uint8_t)!(aligned && idx <= U16_MAX_V);
    *first = *raw ? 0 : idx;
    return 1;
  }
  *raw = 0;
  if (!aligned)
    return codec_fail(err,
                      "door %u: byte offset %zu: %s-state polygon offset %u is not an 18-byte polygon record "
                      "of the polygon table at %u",
                      door, field_at, state, off, poff);
  if (idx < a->num_walls)
    return codec_fail(err,
                      "door %u: byte offset %zu: %s-state polygons start at index %u, inside the %u wall polygons",
                      door, field_at, state, idx, a->num_walls);
  *first = idx;
  if ((uint64_t)idx + count > *end_max) *end_max = (uint64_t)idx + count;
  return 1;
}

/* Reads the door records, the door cell table, the polygon records and the
** vertex table, deriving the counts that are not stored.  Polls `cancel`
** (NULL: never) every CODEC_POLL_RECORDS records of each table. */
static int parse_doors_polygons(wed_area *a, const unsigned char *d, size_t size, uint32_t n_door,
                                const codec_cancel *cancel, codec_error *err) {
  byte_reader r;
  uint32_t i, ncells = 0;
  uint64_t npoly = a->num_walls, nvert = 0;
  if (!table_at(d, size, a->offsets.doors, n_door, WED_DOOR_SIZE, &r))
    return codec_fail(err, "doors: byte offset %u: %u records of 26 bytes run past the end of the %zu-byte file",
                      a->offsets.doors, n_door, size);
  if (n_door) {
    a->doors = (wed_door *)zalloc(n_door, sizeof(wed_door));
    if (!a->doors) return codec_fail_oom(err, "doors: out of memory");
  }
  a->num_doors = n_door;
  for (i = 0; i < n_door; i++) {
    size_t at = r.pos;
    wed_door *dr = &a->doors[i];
    uint32_t open_off, closed_off;
    if (codec_cancelled_at(cancel, i)) return codec_fail_interrupted(err);
    memcpy(dr->name, br_bytes(&r, 8), 8);
    dr->closed = br_u16le(&r);
    dr->first_cell = br_u16le(&r);
    dr->cell_count = br_u16le(&r);
    dr->open_count = br_u16le(&r);
    dr->closed_count = br_u16le(&r);
    open_off = br_u32le(&r);
    closed_off = br_u32le(&r);
    dr->uid = i;
    if ((uint32_t)dr->first_cell + dr->cell_count > ncells) ncells = (uint32_t)dr->first_cell + dr->cell_count;
    if (!door_state(a, i, "open", at + 18, open_off, dr->open_count, &dr->open_first, &dr->open_offset_raw,
                    &dr->open_raw, &npoly, err))
      return 0;
    if (!door_state(a, i, "closed", at + 22, closed_off, dr->closed_count, &dr->closed_first,
                    &dr->closed_offset_raw, &dr->closed_raw, &npoly, err))
      return 0;
  }
  if (!read_u16_table(d, size, a->offsets.door_cells, ncells, "door cells", "the largest first+count of the doors",
                      &a->door_cells, err))
    return 0;
  a->num_door_cells = ncells;

  if (!table_at(d, size, a->offsets.polygons, npoly, WED_POLYGON_SIZE, &r))
    return codec_fail(err,
                      "polygons: byte offset %u: %llu records (%u walls, then door polygons) of 18 bytes run past "
                      "the end of the %zu-byte file",
                      a->offsets.polygons, (unsigned long long)npoly, a->num_walls, size);
  a->num_polygons = (uint32_t)npoly;
  if (npoly) {
    a->polygons = (wed_polygon *)zalloc((size_t)npoly, sizeof(wed_polygon));
    if (!a->polygons) return codec_fail_oom(err, "polygons: out of memory");
  }
  for (i = 0; i < a->num_polygons; i++) {
    wed_polygon *pg = &a->polygons[i];
    byte_reader v;
    if (codec_cancelled_at(cancel, i)) return codec_fail_interrupted(err);
    pg->uid = i;
    pg->first_vertex = br_u32le(&r);
    pg->vertex_count = br_u32le(&r);
    pg->flags = br_u8(&r);
    pg->height = br_u8(&r);
    pg->min_x = br_u16le(&r);
    pg->max_x = br_u16le(&r);
    pg->min_y = br_u16le(&r);
    pg->max_y = br_u16le(&r);
    if ((uint64_t)pg->first_vertex + pg->vertex_count > nvert) {
      nvert = (uint64_t)pg->first_vertex + pg->vertex_count;
      if (!table_at(d, size, a->offsets.vertices, nvert, WED_VERTEX_SIZE, &v))
        return codec_fail(err,
                          "%s polygon %u: byte offset %zu: vertex range %u+%u runs past the end of the vertex "
                          "table at %u (%zu-byte file)",
                          i < a->num_walls ? "wall" : "door", i,
                          (size_t)a->offsets.polygons + (size_t)i * WED_POLYGON_SIZE, pg->first_vertex,
                          pg->vertex_count, a->offsets.vertices, size);
    }
  }
  a->next_uid = a->num_polygons;
  a->next_door_uid = n_door;
  a->num_vertices = (uint32_t)nvert;
  if (nvert) {
    a->vertices = (wed_point *)zalloc((size_t)nvert, sizeof(wed_point));
    if (!a->vertices) return codec_fail_oom(err, "vertices: out of memory");
    r = br_at(d, size, a->offsets.vertices); /* checked with the largest range above */
    for (i = 0; i < a->num_vertices; i++) {
      if (codec_cancelled_at(cancel, i)) return codec_fail_interrupted(err);
      a->vertices[i].x = br_u16le(&r);
      a->vertices[i].y = br_u16le(&r);
    }
  }
  return 1;
}

/* Reads the wall groups (count from the base overlay's grid) and the polygon
** lookup (length max(start+count)); lookup entries are kept even when out of
** range (one real file has one).  Polls `cancel` (NULL: never) every
** CODEC_POLL_RECORDS groups. */
static int parse_wallgroups(wed_area *a, const unsigned char *d, size_t size, const codec_cancel *cancel,
                            codec_error *err) {
  uint32_t gx, gy, i, nl = 0;
  uint64_t ng;
  byte_reader r;
  wed_wallgroup_grid(a, &gx, &gy);
  ng = (uint64_t)gx * gy;
  if (!table_at(d, size, a->offsets.wallgroups, ng, WED_WALLGROUP_SIZE, &r))
    return codec_fail(err,
                      "wall groups: byte offset %u: %llu groups (%ux%u grid of the base overlay) run past the end "
                      "of the %zu-byte file",
                      a->offsets.wallgroups, (unsigned long long)ng, gx, gy, size);
  a->num_wallgroups = (uint32_t)ng;
  if (ng) {
    a->wallgroups = (wed_wallgroup *)zalloc((size_t)ng, sizeof(wed_wallgroup));
    if (!a->wallgroups) return codec_fail_oom(err, "wall groups: out of memory");
  }
  for (i = 0; i < a->num_wallgroups; i++) {
    if (codec_cancelled_at(cancel, i)) return codec_fail_interrupted(err);
    a->wallgroups[i].start = br_u16le(&r);
    a->wallgroups[i].count = br_u16le(&r);
    if ((uint32_t)a->wallgroups[i].start + a->wallgroups[i].count > nl)
      nl = (uint32_t)a->wallgroups[i].start + a->wallgroups[i].count;
  }
  if (!read_u16_table(d, size, a->offsets.poly_lookup, nl, "polygon lookup",
                      "the largest start+count of the wall groups", &a->poly_lookup, err))
    return 0;
  a->num_poly_lookup = nl;
  return 1;
}

/* Parses a whole file: header and version check, then every table by its
** offset (never by position), then the overlap test and a private copy of
** the bytes for in-place writing.  On failure nothing is leaked.  `cancel`
** (NULL: never) is polled every CODEC_POLL_RECORDS records of a table and
** every CODEC_POLL_BYTES bytes of the copy. */
int wed_parse_cancel(const unsigned char *data, size_t size, const codec_cancel *cancel, wed_area **out,
                     codec_error *err) {
  wed_area *a;
  uint32_t n_ov, n_door;
  byte_reader r;
  *out = NULL;
  if (!data || size < 8)
    return codec_fail(err, "header: byte offset 0: truncated, need %u bytes, %zu left", WED_HEADER_SIZE,
                      data ? size : 0);
  if (memcmp(data, "WED ", 4) != 0)
    return codec_fail(err, "header: byte offset 0: not a WED file (signature is not 'WED ')");
  if (memcmp(data + 4, "V1.3", 4) != 0) {
    char v[20];
    printable4(data + 4, v);
    return codec_fail(err, "header: byte offset 4: unsupported WED version '%s' (only 'WED V1.3' is supported)", v);
  }
  if (size < WED_HEADER_SIZE)
    return codec_fail(err, "header: byte offset 0: truncated, need %u bytes, %zu left", WED_HEADER_SIZE, size);
  a = (wed_area *)calloc(1, sizeof *a);
  if (!a) return codec_fail_oom(err, "header: out of memory");
  r = br_at(data, size, 8);
  n_ov = br_u32le(&r);
  n_door = br_u32le(&r);
  a->offsets.overlays = br_u32le(&r);
  a->offsets.sechdr = br_u32le(&r);
  a->offsets.doors = br_u32le(&r);
  a->offsets.door_cells = br_u32le(&r);
  r = br_at(data, size, a->offsets.sechdr);
  if (!br_need(&r, WED_SECHDR_SIZE)) {
    codec_fail(err, "secondary header: byte offset %u: truncated, need 20 bytes, the file has %zu", a->offsets.sechdr,
               size);
    goto fail;
  }
  a->num_walls = br_u32le(&r);
  a->offsets.polygons = br_u32le(&r);
  a->offsets.vertices = br_u32le(&r);
  a->offsets.wallgroups = br_u32le(&r);
  a->offsets.poly_lookup = br_u32le(&r);
  if (!parse_overlays(a, data, size, n_ov, cancel, err)) goto fail;
  if (!parse_doors_polygons(a, data, size, n_door, cancel, err)) goto fail;
  if (!parse_wallgroups(a, data, size, cancel, err)) goto fail;
  if (!detect_overlap(a)) {
    codec_fail_oom(err, "header: out of memory");
    goto fail;
  }
  a->orig = (unsigned char *)malloc(size);
  if (!a->orig) {
    codec_fail_oom(err, "header: out of memory");
    goto fail;
  }
  if (!codec_copy_cancel(a->orig, data, size, cancel)) {
    codec_fail_interrupted(err);
    goto fail;
  }
  a->orig_size = size;
  a->orig_num_overlays = a->num_overlays;
  a->orig_num_doors = a->num_doors;
  a->orig_num_door_cells = a->num_door_cells;
  a->orig_num_polygons = a->num_polygons;
  a->orig_num_vertices = a->num_vertices;
  a->orig_num_wallgroups = a->num_wallgroups;
  a->orig_num_poly_lookup = a->num_poly_lookup;
  *out = a;
  return 1;
fail:
  wed_free(a);
  return 0;
}

int wed_parse(const unsigned char *data, size_t size, wed_area **out, codec_error *err) {
  return wed_parse_cancel(data, size, NULL, out, err);
}

/* ---- consistency ---------------------------------------------------------- */

/* Checks every reference between the model's tables and the size limits of
** the 16/32-bit file fields, so wed_serialize never writes a file it could
** not read back.  Returns 1 if consistent. */
int wed_check(const wed_area *a, codec_error *err) {
  uint32_t i, k, gx, gy;
  if (a->num_overlays && !a->overlays) return codec_fail_arg(err, "overlays: missing array");
  for (i = 0; i < a->num_overlays; i++) {
    const wed_overlay *o = &a->overlays[i];
    uint32_t want = (uint32_t)o->width * o->height;
    if (o->num_cells != want)
      return codec_fail_arg(err, "overlay %u tilemap: %u cells for a %ux%u overlay", i, o->num_cells, o->width,
                            o->height);
    for (k = 0; k < o->num_cells; k++)
      if ((uint32_t)o->cells[k].tile_start + o->cells[k].tile_count > o->num_lookup)
        return codec_fail_arg(err, "overlay %u cell %u: tile range %u+%u exceeds the %u lookup entries", i, k,
                              o->cells[k].tile_start, o->cells[k].tile_count, o->num_lookup);
  }
  for (i = 0; i < a->num_doors; i++) {
    const wed_door *dr = &a->doors[i];
    if ((uint32_t)dr->first_cell + dr->cell_count > a->num_door_cells)
      return codec_fail_arg(err, "door %u: cell range %u+%u exceeds the %u door cells", i, dr->first_cell,
                            dr->cell_count, a->num_door_cells);
    if (dr->open_count &&
        (dr->open_first < a->num_walls || (uint64_t)dr->open_first + dr->open_count > a->num_polygons))
      return codec_fail_arg(err, "door %u: open polygons %u+%u are not door polygons (%u walls, %u polygons)", i,
                            dr->open_first, dr->open_count, a->num_walls, a->num_polygons);
    if (dr->closed_count &&
        (dr->closed_first < a->num_walls || (uint64_t)dr->closed_first + dr->closed_count > a->num_polygons))
      return codec_fail_arg(err, "door %u: closed polygons %u+%u are not door polygons (%u walls, %u polygons)", i,
                            dr->closed_first, dr->closed_count, a->num_walls, a->num_polygons);
  }
  if (a->num_walls > a->num_polygons)
    return codec_fail_arg(err, "polygons: %u walls but only %u polygons", a->num_walls, a->num_polygons);
  for (i = 0; i < a->num_polygons; i++) {
    const wed_polygon *p = &a->polygons[i];
    if ((uint64_t)p->first_vertex + p->vertex_count > a->num_vertices)
      return codec_fail_arg(err, "%s polygon %u: vertex range %u+%u exceeds the %u vertices",
                            i < a->num_walls ? "wall" : "door", i, p->first_vertex, p->vertex_count, a->num_vertices);
  }
  wed_wallgroup_grid(a, &gx, &gy);
  if ((uint64_t)gx * gy != a->num_wallgroups)
    return codec_fail_arg(err, "wall groups: %u groups for a %ux%u grid", a->num_wallgroups, gx, gy);
  for (i = 0; i < a->num_wallgroups; i++)
    if ((uint32_t)a->wallgroups[i].start + a->wallgroups[i].count > a->num_poly_lookup)
      return codec_fail_arg(err, "wall group %u: polygon range %u+%u exceeds the %u lookup entries", i,
                            a->wallgroups[i].start, a->wallgroups[i].count, a->num_poly_lookup);
  return 1;
}

/* ---- serialize --------------------------------------------------------------- */

/* Where each section goes in the output. */
typedef struct wed_place {
  wed_offsets o;
  uint32_t *tilemap; /* per overlay */
  uint32_t *lookup;  /* per overlay */
} wed_place;

/* File offset of a door state's polygon records: poly_off + 18*first, or the
** raw offset kept for an empty state that pointed elsewhere (also used if the
** sum would not fit 32 bits, which only an empty state can reach). */
static uint32_t door_state_offset(uint32_t poly_off, uint32_t first, uint8_t raw, uint32_t raw_off) {
  uint64_t v = (uint64_t)poly_off + (uint64_t)first * WED_POLYGON_SIZE;
  if (raw || v > 0xFFFFFFFFu) return raw_off;
  return (uint32_t)v;
}

/* Writes every table of the model at the places given into buf, which the
** caller sized (and, for in-place writes, pre-filled with the old bytes). */
static void write_all(const wed_area *a, const wed_place *pl, unsigned char *buf) {
  uint32_t i, k;
  unsigned char *p;
  memcpy(buf, "WED V1.3", 8);
  le32_store(buf + 8, a->num_overlays);
  le32_store(buf + 12, a->num_doors);
  le32_store(buf + 16, pl->o.overlays);
  le32_store(buf + 20, pl->o.sechdr);
  le32_store(buf + 24, pl->o.doors);
  le32_store(buf + 28, pl->o.door_cells);
  for (i = 0; i < a->num_overlays; i++) {
    const wed_overlay *o = &a->overlays[i];
    p = buf + pl->o.overlays + (size_t)i * WED_OVERLAY_SIZE;
    le16_store(p, o->width);
    le16_store(p + 2, o->height);
    memcpy(p + 4, o->tileset, 8);
    le16_store(p + 12, o->unique_tiles);
    le16_store(p + 14, o->movement_type);
    le32_store(p + 16, pl->tilemap[i]);
    le32_store(p + 20, pl->lookup[i]);
    for (k = 0; k < o->num_cells; k++) {
      const wed_tilecell *c = &o->cells[k];
      unsigned char *q = buf + pl->tilemap[i] + (size_t)k * WED_TILECELL_SIZE;
      le16_store(q, c->tile_start);
      le16_store(q + 2, c->tile_count);
      le16_store(q + 4, c->secondary_tile);
      q[6] = c->overlay_mask;
      q[7] = c->anim_speed;
      le16_store(q + 8, c->unknown);
    }
    for (k = 0; k < o->num_lookup; k++) le16_store(buf + pl->lookup[i] + 2 * (size_t)k, o->lookup[k]);
  }
  p = buf + pl->o.sechdr;
  le32_store(p, a->num_walls);
  le32_store(p + 4, pl->o.polygons);
  le32_store(p + 8, pl->o.vertices);
  le32_store(p + 12, pl->o.wallgroups);
  le32_store(p + 16, pl->o.poly_lookup);
  for (i = 0; i < a->num_doors; i++) {
    const wed_door *dr = &a->doors[i];
    p = buf + pl->o.doors + (size_t)i * WED_DOOR_SIZE;
    memcpy(p, dr->name, 8);
    le16_store(p + 8, dr->closed);
    le16_store(p + 10, dr->first_cell);
    le16_store(p + 12, dr->cell_count);
    le16_store(p + 14, dr->open_count);
    le16_store(p + 16, dr->closed_count);
    le32_store(p + 18, door_state_offset(pl->o.polygons, dr->open_first, dr->open_raw, dr->open_offset_raw));
    le32_store(p + 22, door_state_offset(pl->o.polygons, dr->closed_first, dr->closed_raw, dr->closed_offset_raw));
  }
  for (i = 0; i < a->num_door_cells; i++) le16_store(buf + pl->o.door_cells + 2 * (size_t)i, a->door_cells[i]);
  for (i = 0; i < a->num_polygons; i++) {
    const wed_polygon *pg = &a->polygons[i];
    p = buf + pl->o.polygons + (size_t)i * WED_POLYGON_SIZE;
    le32_store(p, pg->first_vertex);
    le32_store(p + 4, pg->vertex_count);
    p[8] = pg->flags;
    p[9] = pg->height;
    le16_store(p + 10, pg->min_x);
    le16_store(p + 12, pg->max_x);
    le16_store(p + 14, pg->min_y);
    le16_store(p + 16, pg->max_y);
  }
  for (i = 0; i < a->num_vertices; i++) {
    p = buf + pl->o.vertices + (size_t)i * WED_VERTEX_SIZE;
    le16_store(p, a->vertices[i].x);
    le16_store(p + 2, a->vertices[i].y);
  }
  for (i = 0; i < a->num_wallgroups; i++) {
    p = buf + pl->o.wallgroups + (size_t)i * WED_WALLGROUP_SIZE;
    le16_store(p, a->wallgroups[i].start);
    le16_store(p + 2, a->wallgroups[i].count);
  }
  for (i = 0; i < a->num_poly_lookup; i++) le16_store(buf + pl->o.poly_lookup + 2 * (size_t)i, a->poly_lookup[i]);
}

/* True when every table still has the length it was read with and the
** file's sections did not overlap, so each can go back to its old offset. */
static int fits_in_place(const wed_area *a) {
  uint32_t i;
  if (!a->orig || a->overlap) return 0;
  if (a->num_overlays != a->orig_num_overlays || a->num_doors != a->orig_num_doors ||
      a->num_door_cells != a->orig_num_door_cells || a->num_polygons != a->orig_num_polygons ||
      a->num_vertices != a->orig_num_vertices || a->num_wallgroups != a->orig_num_wallgroups ||
      a->num_poly_lookup != a->orig_num_poly_lookup)
    return 0;
  for (i = 0; i < a->num_overlays; i++)
    if (a->overlays[i].num_cells != a->overlays[i].orig_num_cells ||
        a->overlays[i].num_lookup != a->overlays[i].orig_num_lookup)
      return 0;
  return 1;
}

/* Advances the layout cursor past a table, failing when the file would
** outgrow 32-bit offsets.  *at gets the table's offset. */
static int place(size_t *cur, size_t count, size_t rec, uint32_t *at) {
  size_t bytes;
  if (*cur > 0xFFFFFFFFu) return 0;
  *at = (uint32_t)*cur;
  if (!size_mul(count, rec, &bytes) || !size_add(*cur, bytes, cur)) return 0;
  return *cur <= 0xFFFFFFFFu;
}

/* Serializes: in place over the original bytes when the layout still fits,
** else a new layout in the common (DLTCEP) order.  See wed.h. */
int wed_serialize(const wed_area *a, unsigned char **out, size_t *out_size, codec_error *err) {
  wed_place pl;
  unsigned char *buf = NULL;
  size_t cur = 0, total;
  uint32_t i;
  int ok = 1;
  *out = NULL;
  *out_size = 0;
  if (!wed_check(a, err)) return 0;
  pl.tilemap = (uint32_t *)zalloc(a->num_overlays, sizeof(uint32_t));
  pl.lookup = (uint32_t *)zalloc(a->num_overlays, sizeof(uint32_t));
  if (!pl.tilemap || !pl.lookup) {
    ok = codec_fail_oom(err, "serialize: out of memory");
    goto done;
  }
  if (fits_in_place(a)) {
    pl.o = a->offsets;
    for (i = 0; i < a->num_overlays; i++) {
      pl.tilemap[i] = a->overlays[i].tilemap_offset;
      pl.lookup[i] = a->overlays[i].lookup_offset;
    }
    total = a->orig_size;
    buf = (unsigned char *)malloc(total ? total : 1);
    if (!buf) {
      ok = codec_fail_oom(err, "serialize: out of memory");
      goto done;
    }
    memcpy(buf, a->orig, total);
  } else {
    uint32_t hdr;
    ok = place(&cur, 1, WED_HEADER_SIZE, &hdr) && place(&cur, a->num_overlays, WED_OVERLAY_SIZE, &pl.o.overlays) &&
         place(&cur, 1, WED_SECHDR_SIZE, &pl.o.sechdr) && place(&cur, a->num_doors, WED_DOOR_SIZE, &pl.o.doors);
    for (i = 0; ok && i < a->num_overlays; i++)
      ok = place(&cur, a->overlays[i].num_cells, WED_TILECELL_SIZE, &pl.tilemap[i]);
    ok = ok && place(&cur, a->num_door_cells, 2, &pl.o.door_cells);
    for (i = 0; ok && i < a->num_overlays; i++) ok = place(&cur, a->overlays[i].num_lookup, 2, &pl.lookup[i]);
    ok = ok && place(&cur, a->num_wallgroups, WED_WALLGROUP_SIZE, &pl.o.wallgroups) &&
         place(&cur, a->num_polygons, WED_POLYGON_SIZE, &pl.o.polygons) &&
         place(&cur, a->num_poly_lookup, 2, &pl.o.poly_lookup) &&
         place(&cur, a->num_vertices, WED_VERTEX_SIZE, &pl.o.vertices);
    if (!ok) {
      codec_fail_limit(err, "serialize: the area needs more than 4 GiB, beyond 32-bit offsets");
      goto done;
    }
    total = cur;
    buf = (unsigned char *)calloc(total, 1);
    if (!buf) {
      ok = codec_fail_oom(err, "serialize: out of memory");
      goto done;
    }
  }
  write_all(a, &pl, buf);
  *out = buf;
  *out_size = total;
done:
  free(pl.tilemap);
  free(pl.lookup);
  return ok;
}

/* ---- reading helpers ------------------------------------------------------- */

/* The accessors below return runs of the model's tables, bounds-checked
** again so a caller holding a hand-edited model cannot read past them:
** run_length is the run's count when start .. start+count-1 lies within a
** table of len entries, else 0 (as for an empty run). */
static uint32_t run_length(uint64_t start, uint32_t count, uint64_t len) {
  return start + count <= len ? count : 0;
}

uint32_t wed_cell_tiles(const wed_area *a, uint32_t overlay, uint32_t cell, const uint16_t **tiles) {
  const wed_overlay *o = overlay < a->num_overlays ? &a->overlays[overlay] : NULL;
  const wed_tilecell *c = o && cell < o->num_cells ? &o->cells[cell] : NULL;
  uint32_t n = c ? run_length(c->tile_start, c->tile_count, o->num_lookup) : 0;
  *tiles = n ? o->lookup + c->tile_start : NULL;
  return n;
}

/* A door's run of the door cell table. */
uint32_t wed_door_cells(const wed_area *a, uint32_t door, const uint16_t **cells) {
  const wed_door *d = door < a->num_doors ? &a->doors[door] : NULL;
  uint32_t n = d ? run_length(d->first_cell, d->cell_count, a->num_door_cells) : 0;
  *cells = n ? a->door_cells + d->first_cell : NULL;
  return n;
}

/* A polygon's run of the vertex table. */
uint32_t wed_polygon_vertices(const wed_area *a, uint32_t poly, const wed_point **pts) {
  const wed_polygon *p = poly < a->num_polygons ? &a->polygons[poly] : NULL;
  uint32_t n = p ? run_length(p->first_vertex, p->vertex_count, a->num_vertices) : 0;
  *pts = n ? a->vertices + p->first_vertex : NULL;
  return n;
}

/* One vertex of a polygon's run, checked against the run. */
wed_point wed_vertex_at(const wed_area *a, uint32_t poly, uint32_t k) {
  const wed_point *pts;
  return k < wed_polygon_vertices(a, poly, &pts) ? pts[k] : (wed_point){0, 0};
}

/* A wall group's run of the polygon lookup. */
uint32_t wed_wallgroup_polygons(const wed_area *a, uint32_t g, const uint16_t **polys) {
  const wed_wallgroup *w = g < a->num_wallgroups ? &a->wallgroups[g] : NULL;
  uint32_t n = w ? run_length(w->start, w->count, a->num_poly_lookup) : 0;
  *polys = n ? a->poly_lookup + w->start : NULL;
  return n;
}

/* Classifies a polygon by its position: walls first; after them, the first
** door whose open or closed range holds it; else an orphan record. */
enum wed_polygon_kind wed_polygon_kind_of(const wed_area *a, uint32_t poly, long *door) {
  uint32_t i;
  *door = -1;
  if (poly < a->num_walls) return WED_POLY_WALL;
  for (i = 0; i < a->num_doors; i++) {
    const wed_door *dr = &a->doors[i];
    if (dr->open_count && poly >= dr->open_first && poly - dr->open_first < dr->open_count) {
      *door = (long)i;
      return WED_POLY_DOOR_OPEN;
    }
    if (dr->closed_count && poly >= dr->closed_first && poly - dr->closed_first < dr->closed_count) {
      *door = (long)i;
      return WED_POLY_DOOR_CLOSED;
    }
  }
  return WED_POLY_ORPHAN;
}

/* The public names of the polygon kinds (the wed_polygons.kind column). */
const char *const wed_polygon_kind_names[] = {"wall", "door_open", "door_closed", "orphan", NULL};

const char *wed_polygon_kind_name(enum wed_polygon_kind kind) {
  return (unsigned)kind <= WED_POLY_ORPHAN ? wed_polygon_kind_names[kind] : "orphan";
}

/* Linear search by uid: polygons are few (hundreds), and indices shift on
** insert/delete, so no index is kept that could go stale. */
/* Doors keep their parse-time uid (= index) until doors are deleted, so
** the index is tried first; else a scan. */
int wed_door_find(const wed_area *a, uint32_t uid, uint32_t *door) {
  uint32_t i;
  if (uid < a->num_doors && a->doors[uid].uid == uid) {
    *door = uid;
    return 1;
  }
  for (i = 0; i < a->num_doors; i++)
    if (a->doors[i].uid == uid) {
      *door = i;
      return 1;
    }
  return 0;
}

int wed_polygon_find(const wed_area *a, uint32_t uid, uint32_t *poly) {
  uint32_t i;
  for (i = 0; i < a->num_polygons; i++)
    if (a->polygons[i].uid == uid) {
      *poly = i;
      return 1;
    }
  return 0;
}

/* ---- vertex identity ---------------------------------------------------------- */

/* The row number of polygon poly's first vertex: the vertex_count of the
** polygons before it (poly = num_polygons: all rows). */
static uint64_t vertex_row(const wed_area *a, uint32_t poly) {
  uint64_t row = 0;
  uint32_t i;
  for (i = 0; i < poly && i < a->num_polygons; i++) row += a->polygons[i].vertex_count;
  return row;
}

/* The numbered uid of the row, or the row number while none are numbered. */
uint64_t wed_vertex_uid(const wed_area *a, uint32_t poly, uint32_t k) {
  uint64_t row = vertex_row(a, poly) + k;
  return a->vertex_uids && row < a->num_vertex_uids ? a->vertex_uids[row] : row;
}

/* Linear search, polygon after polygon (like wed_polygon_find: nothing to
** go stale when rows move). */
int wed_vertex_find(const wed_area *a, uint64_t uid, uint32_t *poly, uint32_t *k) {
  uint64_t row = 0;
  uint32_t i, j;
  for (i = 0; i < a->num_polygons; row += a->polygons[i].vertex_count, i++) {
    uint32_t n = a->polygons[i].vertex_count;
    for (j = 0; a->vertex_uids && j < n && row + j < a->num_vertex_uids; j++) {
      if (a->vertex_uids[row + j] == uid) {
        *poly = i;
        *k = j;
        return 1;
      }
    }
    if (!a->vertex_uids && uid >= row && uid - row < n) {
      *poly = i;
      *k = (uint32_t)(uid - row);
      return 1;
    }
  }
  return 0;
}

/* Sum of x[i]*y[i+1] - x[i+1]*y[i] over the edges, the last point joined to
** the first; 16-bit coordinates keep each term within 2^33. */
int64_t wed_shoelace2(const wed_point *pts, size_t n) {
  int64_t sum = 0;
  size_t i;
  if (n < 3) return 0;
  for (i = 0; i < n; i++) {
    const wed_point *p = &pts[i], *q = &pts[(i + 1) % n];
    sum += (int64_t)p->x * q->y - (int64_t)q->x * p->y;
  }
  return sum;
}

/* ---- resrefs ------------------------------------------------------------------ */

/* Length up to the first NUL of an 8-byte field. */
size_t wed_resref_len(const unsigned char field[8]) {
  size_t n = 0;
  while (n < 8 && field[n]) n++;
  return n;
}

/* Sets an 8-byte field, leaving it untouched when the content is the same
** (so a no-op UPDATE keeps whatever followed the NUL). */
int wed_resref_set(unsigned char field[8], const char *s, size_t n) {
  if (n > 8 || (n && memchr(s, 0, n))) return 0;
  if (wed_resref_len(field) == n && (n == 0 || memcmp(field, s, n) == 0)) return 1;
  memset(field, 0, 8);
  if (n) memcpy(field, s, n);
  return 1;
}

/* ---- flag names ----------------------------------------------------------- */

static const char *const flag_name[8] = {"shade_wall", "semi_transparent", "hovering", "cover_animations",
                                         "bit4",       "bit5",             "bit6",     "door"};

/* Joins the names of the set bits with '|' (bit order), truncating safely
** if buf is too small. */
size_t wed_flag_names(unsigned flags, char *buf, size_t bufsize) {
  size_t len = 0;
  unsigned b;
  if (bufsize == 0) return 0;
  buf[0] = 0;
  for (b = 0; b < 8; b++) {
    if (!(flags & (1u << b))) continue;
    {
      const char *n = flag_name[b];
      size_t nl = strlen(n), need = nl + (len ? 1 : 0);
      if (len + need + 1 > bufsize) break;
      if (len) buf[len++] = '|';
      memcpy(buf + len, n, nl);
      len += nl;
      buf[len] = 0;
    }
  }
  return len;
}

/* Parses '|'-separated flag names back into bits; unknown words fail. */
int wed_flag_parse(const char *text, unsigned *flags, codec_error *err) {
  unsigned v = 0, b;
  const char *p = text ? text : "";
  for (;;) {
    const char *start, *end;
    while (*p == ' ' || *p == '\t') p++;
    start = p;
    while (*p && *p != '|') p++;
    end = p;
    while (end > start && (end[-1] == ' ' || end[-1] == '\t')) end--;
    if (end > start) {
      for (b = 0; b < 8; b++)
        if (strlen(flag_name[b]) == (size_t)(end - start) && memcmp(flag_name[b], start, (size_t)(end - start)) == 0)
          break;
      if (b == 8)
        return codec_fail_arg(err, "polygon flags: unknown flag name '%.*s' (known: shade_wall, semi_transparent, "
                                   "hovering, cover_animations, bit4, bit5, bit6, door)",
                              (int)(end - start > 64 ? 64 : end - start), start);
      v |= 1u << b;
    } else if (*p == '|') {
      return codec_fail_arg(err, "polygon flags: empty name in '%.64s'", text);
    }
    if (!*p) break;
    p++;
  }
  *flags = v;
  return 1;
}

/* ---- edits: tiles and door cells --------------------------------------- */

/* Shared worker for "replace the run of item `which` in a u16 table": each
** item i refers to table[start[i] .. start[i]+count[i]).  Overwrites in
** place when the length is unchanged and no other item overlaps the run;
** otherwise builds a new table item after item (starts must stay <= 65535).
** start/count are read and written through stride-addressed uint16 fields
** so cells and doors can share the code.  Returns 0 with err on failure,
** leaving everything unchanged. */
static int replace_run(uint16_t **table, uint32_t *table_len, unsigned char *items, size_t nitems, size_t stride,
                       size_t start_off, size_t count_off, size_t which, const uint16_t *vals, size_t n,
                       const char *what, codec_error *err) {
  uint16_t st, ct;
  size_t i, total = 0, pos = 0;
  int shared = 0;
  uint16_t *nt;
#define FLD(i, off) ((uint16_t *)(void *)(items + (i) * stride + (off)))
  st = *FLD(which, start_off);
  ct = *FLD(which, count_off);
  for (i = 0; i < nitems; i++) {
    uint32_t s = *FLD(i, start_off), c = *FLD(i, count_off);
    if (s + c > *table_len)
      return codec_fail_arg(err, "%s: inconsistent model, run %u+%u exceeds %u", what, s, c, *table_len);
    if (i != which && c && ct && s < (uint32_t)st + ct && (uint32_t)st < s + c) shared = 1;
  }
  if (n == ct && !shared) {
    if (n) memcpy(*table + st, vals, n * sizeof(uint16_t));
    return 1;
  }
  for (i = 0; i < nitems; i++) {
    if (total > U16_MAX_V)
      return codec_fail_limit(err, "%s: the rebuilt table would need start index %zu, beyond 65535", what, total);
    total += i == which ? n : *FLD(i, count_off);
  }
  nt = (uint16_t *)zalloc(total, sizeof(uint16_t));
  if (!nt) return codec_fail_oom(err, "%s: out of memory", what);
  for (i = 0; i < nitems; i++) {
    uint16_t *ps = FLD(i, start_off), *pc = FLD(i, count_off);
    if (i == which) {
      if (n) memcpy(nt + pos, vals, n * sizeof(uint16_t));
      *pc = (uint16_t)n;
    } else if (*pc) {
      memcpy(nt + pos, *table + *ps, *pc * sizeof(uint16_t));
    }
    *ps = (uint16_t)pos;
    pos += *pc;
  }
#undef FLD
  free(*table);
  *table = nt;
  *table_len = (uint32_t)total;
  return 1;
}

/* Validates the cell and the tile count, then lets replace_run edit the
** overlay's lookup table. */
int wed_cell_set_tiles(wed_area *a, uint32_t overlay, uint32_t cell, const uint16_t *tiles, size_t n,
                       codec_error *err) {
  wed_overlay *o;
  char what[64];
  if (overlay >= a->num_overlays || cell >= a->overlays[overlay].num_cells)
    return codec_fail_arg(err, "overlay %u cell %u: no such tilemap cell", overlay, cell);
  if (n < 1 || n > U16_MAX_V)
    return codec_fail_arg(err, "overlay %u cell %u: a cell needs 1 to 65535 tiles, got %zu", overlay, cell, n);
  o = &a->overlays[overlay];
  snprintf(what, sizeof what, "overlay %u tile lookup", overlay);
  return replace_run(&o->lookup, &o->num_lookup, (unsigned char *)o->cells, o->num_cells, sizeof(wed_tilecell),
                     offsetof(wed_tilecell, tile_start), offsetof(wed_tilecell, tile_count), cell, tiles, n, what,
                     err);
}

/* Validates the door and every cell index (base-overlay cells only, so the
** engine never toggles a cell that does not exist), then lets replace_run
** edit the door cell table. */
int wed_door_set_cells(wed_area *a, uint32_t door, const uint16_t *cells, size_t n, codec_error *err) {
  uint32_t base = a->num_overlays ? a->overlays[0].num_cells : 0;
  size_t i;
  if (door >= a->num_doors) return codec_fail_arg(err, "door %u: no such door", door);
  if (n > U16_MAX_V) return codec_fail_limit(err, "door %u: %zu cells, at most 65535", door, n);
  for (i = 0; i < n; i++)
    if (cells[i] >= base)
      return codec_fail_arg(err, "door %u: cell %u is not a cell of the %u-cell base overlay", door, cells[i], base);
  return replace_run(&a->door_cells, &a->num_door_cells, (unsigned char *)a->doors, a->num_doors, sizeof(wed_door),
                     offsetof(wed_door, first_cell), offsetof(wed_door, cell_count), door, cells, n, "door cells",
                     err);
}

/* ---- edits: polygons and wall groups ------------------------------------ */

/* Bounding box over all points (DLTCEP's RecalcBox: hovering polygons'
** baseline points included); 0xFFFF x4 for none, as DLTCEP writes. */
void wed_bbox_of(const wed_point *pts, size_t n, uint16_t *min_x, uint16_t *max_x, uint16_t *min_y,
                 uint16_t *max_y) {
  size_t i;
  if (n == 0) {
    *min_x = *max_x = *min_y = *max_y = 0xFFFF;
    return;
  }
  *min_x = *max_x = pts[0].x;
  *min_y = *max_y = pts[0].y;
  for (i = 1; i < n; i++) {
    if (pts[i].x < *min_x) *min_x = pts[i].x;
    if (pts[i].x > *max_x) *max_x = pts[i].x;
    if (pts[i].y < *min_y) *min_y = pts[i].y;
    if (pts[i].y > *max_y) *max_y = pts[i].y;
  }
}

/* The wall group cells a polygon's box covers in a gx x gy grid: columns
** x0..x1, rows y0..y1 (clipped to the grid); 0 for a polygon in none (no
** vertices, an inverted box, or a box starting outside the grid). */
static int group_cells(const wed_polygon *p, uint32_t gx, uint32_t gy, uint32_t *x0, uint32_t *x1, uint32_t *y0,
                       uint32_t *y1) {
  if (p->vertex_count == 0 || p->min_x > p->max_x || p->min_y > p->max_y) return 0;
  *x0 = p->min_x / WED_GROUP_W;
  *y0 = p->min_y / WED_GROUP_H;
  if (*x0 >= gx || *y0 >= gy) return 0;
  *x1 = p->max_x / WED_GROUP_W < gx ? p->max_x / WED_GROUP_W : gx - 1;
  *y1 = p->max_y / WED_GROUP_H < gy ? p->max_y / WED_GROUP_H : gy - 1;
  return 1;
}

/* Builds wall groups and a polygon lookup for the given polygon array (see
** wed_wallgroups_regenerate for the rule).  Two passes: count per group,
** then fill in ascending polygon order, so each group's list is sorted.
** Stops early once the 16-bit start/count fields would overflow. */
static int build_groups(const wed_area *a, const wed_polygon *polys, uint32_t npolys, wed_wallgroup **groups_out,
                        uint16_t **lookup_out, uint32_t *nlookup_out, codec_error *err) {
  uint32_t gx, gy, ng, i, cx, cy;
  uint32_t *cnt;
  uint64_t total = 0;
  wed_wallgroup *g;
  uint16_t *lk;
  wed_wallgroup_grid(a, &gx, &gy);
  ng = gx * gy;
  if (ng != a->num_wallgroups)
    return codec_fail_arg(err, "wall groups: inconsistent model, %u groups for a %ux%u grid", a->num_wallgroups, gx,
                          gy);
  cnt = (uint32_t *)zalloc(ng, sizeof(uint32_t));
  if (!cnt) return codec_fail_oom(err, "wall groups: out of memory");
  for (i = 0; i < npolys; i++) {
    uint32_t x0, x1, y0, y1;
    if (!group_cells(&polys[i], gx, gy, &x0, &x1, &y0, &y1)) continue;
    if (i > U16_MAX_V) {
      free(cnt);
      return codec_fail_limit(err, "polygon %u: index does not fit the 16-bit polygon lookup", i);
    }
    for (cy = y0; cy <= y1; cy++)
      for (cx = x0; cx <= x1; cx++) {
        cnt[cy * gx + cx]++;
        if (++total > 2u * U16_MAX_V) {
          free(cnt);
          return codec_fail_limit(err, "wall groups: more than 131070 polygon references, beyond the 16-bit fields");
        }
      }
  }
  g = (wed_wallgroup *)zalloc(ng, sizeof(wed_wallgroup));
  lk = (uint16_t *)zalloc((size_t)total, sizeof(uint16_t));
  if (!g || !lk) {
    free(cnt);
    free(g);
    free(lk);
    return codec_fail_oom(err, "wall groups: out of memory");
  }
  total = 0;
  for (i = 0; i < ng; i++) {
    if (total > U16_MAX_V || cnt[i] > U16_MAX_V) {
      uint32_t c = cnt[i];
      free(cnt);
      free(g);
      free(lk);
      return codec_fail_limit(err, "wall group %u: start %llu or count %u beyond 65535", i, (unsigned long long)total,
                              c);
    }
    g[i].start = (uint16_t)total;
    g[i].count = 0;
    total += cnt[i];
  }
  for (i = 0; i < npolys; i++) {
    uint32_t x0, x1, y0, y1;
    if (!group_cells(&polys[i], gx, gy, &x0, &x1, &y0, &y1)) continue;
    for (cy = y0; cy <= y1; cy++)
      for (cx = x0; cx <= x1; cx++) {
        wed_wallgroup *w = &g[cy * gx + cx];
        lk[w->start + w->count++] = (uint16_t)i;
      }
  }
  free(cnt);
  *groups_out = g;
  *lookup_out = lk;
  *nlookup_out = (uint32_t)total;
  return 1;
}

/* Installs new polygon-side tables built by an edit (taking ownership) and
** frees the old ones.  NULL vertices means "keep the current ones". */
static void commit_polygons(wed_area *a, wed_polygon *polys, uint32_t npolys, wed_point *verts, uint32_t nverts,
                            int new_verts, wed_wallgroup *groups, uint16_t *lookup, uint32_t nlookup) {
  free(a->polygons);
  a->polygons = polys;
  a->num_polygons = npolys;
  if (new_verts) {
    free(a->vertices);
    a->vertices = verts;
    a->num_vertices = nverts;
  }
  free(a->wallgroups);
  a->wallgroups = groups;
  free(a->poly_lookup);
  a->poly_lookup = lookup;
  a->num_poly_lookup = nlookup;
}

/* Public regeneration from the current polygons (edits call build_groups
** themselves, on their new polygon arrays, before committing). */
int wed_wallgroups_regenerate(wed_area *a, codec_error *err) {
  wed_wallgroup *g;
  uint16_t *lk;
  uint32_t nl;
  if (!build_groups(a, a->polygons, a->num_polygons, &g, &lk, &nl, err)) return 0;
  free(a->wallgroups);
  a->wallgroups = g;
  free(a->poly_lookup);
  a->poly_lookup = lk;
  a->num_poly_lookup = nl;
  return 1;
}

/* Builds a vertex table for `polys` laid out polygon after polygon (walls,
** then door polygons): polygon `special` takes pts[0..n), the others copy
** their current run from the area.  Updates first_vertex / vertex_count in
** polys.  The canonical order Near Infinity also writes. */
static int rebuild_vertices(const wed_area *a, wed_polygon *polys, uint32_t npolys, uint32_t special,
                            const wed_point *pts, size_t n, wed_point **out, uint32_t *nout, codec_error *err) {
  uint64_t total = 0;
  uint32_t i, pos = 0;
  wed_point *v;
  for (i = 0; i < npolys; i++) {
    if (i == special) {
      total += n;
    } else {
      if ((uint64_t)polys[i].first_vertex + polys[i].vertex_count > a->num_vertices)
        return codec_fail_arg(err, "polygon %u: inconsistent model, vertex range %u+%u exceeds %u", i,
                              polys[i].first_vertex, polys[i].vertex_count, a->num_vertices);
      total += polys[i].vertex_count;
    }
    if (total > WED_MAX_VERTICES) return codec_fail_limit(err, "vertices: more than %u vertices", WED_MAX_VERTICES);
  }
  v = (wed_point *)zalloc((size_t)total, sizeof(wed_point));
  if (!v) return codec_fail_oom(err, "vertices: out of memory");
  for (i = 0; i < npolys; i++) {
    if (i == special) {
      if (n) memcpy(v + pos, pts, n * sizeof(wed_point));
      polys[i].vertex_count = (uint32_t)n;
    } else if (polys[i].vertex_count) {
      memcpy(v + pos, a->vertices + polys[i].first_vertex, polys[i].vertex_count * sizeof(wed_point));
    }
    polys[i].first_vertex = pos;
    pos += polys[i].vertex_count;
  }
  *out = v;
  *nout = pos;
  return 1;
}

/* A vertex of the replaced run that gets a new uid (splice_uids). */
#define WED_FRESH_UID UINT32_MAX

/* The vertex uids after an edit replaces the `len` rows from row `from`
** (wed_area.vertex_uids) by n rows: src[i] is the replaced row (0..len-1)
** whose uid row i keeps, or WED_FRESH_UID for a fresh one; src NULL keeps
** them by position and gives fresh ones beyond len.  Numbers the rows
** first when they are not yet (uid = row number).  Sets *out (malloc'd,
** *nout rows) and *next; the area is not touched. */
static int splice_uids(const wed_area *a, uint64_t from, uint32_t len, const uint32_t *src, size_t n, uint32_t **out,
                       uint32_t *nout, uint32_t *next, codec_error *err) {
  uint64_t rows = a->vertex_uids ? a->num_vertex_uids : vertex_row(a, a->num_polygons), total = rows - len + n, r;
  uint64_t nx = a->vertex_uids ? a->next_vertex_uid : rows;
  uint32_t *u;
  size_t i, w = 0;
  if (total > WED_MAX_VERTICES) return codec_fail_limit(err, "vertices: more than %u vertices", WED_MAX_VERTICES);
  if (nx + n >= WED_FRESH_UID) return codec_fail_limit(err, "vertices: no vertex uid left for %zu more vertices", n);
  u = (uint32_t *)zalloc((size_t)total, sizeof(uint32_t));
  if (!u) return codec_fail_oom(err, "vertices: out of memory");
#define OLD_UID(r) (a->vertex_uids ? a->vertex_uids[r] : (uint32_t)(r))
  for (r = 0; r < from; r++) u[w++] = OLD_UID(r);
  for (i = 0; i < n; i++) {
    uint32_t k = src ? src[i] : i < len ? (uint32_t)i : WED_FRESH_UID;
    u[w++] = k == WED_FRESH_UID ? (uint32_t)nx++ : OLD_UID(from + k);
  }
  for (r = from + len; r < rows; r++) u[w++] = OLD_UID(r);
#undef OLD_UID
  *out = u;
  *nout = (uint32_t)total;
  *next = (uint32_t)nx;
  return 1;
}

/* Installs the uids splice_uids built (taking ownership). */
static void commit_uids(wed_area *a, uint32_t *uids, uint32_t n, uint32_t next) {
  free(a->vertex_uids);
  a->vertex_uids = uids;
  a->num_vertex_uids = n;
  a->next_vertex_uid = next;
}

/* New vertices for one polygon: written over its own run when the count is
** unchanged and no other polygon shares the run, else the vertex table is
** rebuilt in polygon order; when the count changes, the vertex uids follow
** (src as for splice_uids).  All new tables are built first and committed
** together, so a failure leaves the area as it was. */
static int set_run(wed_area *a, uint32_t poly, const wed_point *pts, size_t n, const uint32_t *src,
                   codec_error *err) {
  wed_polygon *np = NULL;
  wed_point *nv = NULL;
  uint32_t nnv = 0, i, nl, *uids = NULL, nuids = 0, next = 0;
  wed_wallgroup *g;
  uint16_t *lk;
  int shared = 0;
  const wed_polygon *p;
  if (poly >= a->num_polygons) return codec_fail_arg(err, "polygon %u: no such polygon", poly);
  if (n > WED_MAX_VERTICES) return codec_fail_limit(err, "polygon %u: too many vertices", poly);
  if (!wed_check(a, err)) return 0;
  if (n != a->polygons[poly].vertex_count &&
      !splice_uids(a, vertex_row(a, poly), a->polygons[poly].vertex_count, src, n, &uids, &nuids, &next, err))
    return 0;
  p = &a->polygons[poly];
  for (i = 0; i < a->num_polygons; i++) {
    const wed_polygon *q = &a->polygons[i];
    if (i != poly && q->vertex_count && p->vertex_count && q->first_vertex < p->first_vertex + p->vertex_count &&
        p->first_vertex < q->first_vertex + q->vertex_count)
      shared = 1;
  }
  if (!dup_mem((void **)&np, a->polygons, a->num_polygons, sizeof(wed_polygon))) {
    free(uids);
    return codec_fail_oom(err, "polygon %u: out of memory", poly);
  }
  if (n == p->vertex_count && !shared) {
    if (!dup_mem((void **)&nv, a->vertices, a->num_vertices, sizeof(wed_point))) {
      free(np);
      return codec_fail_oom(err, "polygon %u: out of memory", poly);
    }
    if (n) memcpy(nv + p->first_vertex, pts, n * sizeof(wed_point));
    nnv = a->num_vertices;
  } else if (!rebuild_vertices(a, np, a->num_polygons, poly, pts, n, &nv, &nnv, err)) {
    free(np);
    free(uids);
    return 0;
  }
  wed_bbox_of(pts, n, &np[poly].min_x, &np[poly].max_x, &np[poly].min_y, &np[poly].max_y);
  if (!build_groups(a, np, a->num_polygons, &g, &lk, &nl, err)) {
    free(np);
    free(nv);
    free(uids);
    return 0;
  }
  commit_polygons(a, np, a->num_polygons, nv, nnv, 1, g, lk, nl);
  if (uids) commit_uids(a, uids, nuids, next);
  return 1;
}

/* The whole run replaced: the vertices kept by position keep their uids. */
int wed_polygon_set_vertices(wed_area *a, uint32_t poly, const wed_point *pts, size_t n, codec_error *err) {
  return set_run(a, poly, pts, n, NULL, err);
}

/* Builds the polygon's points with pt inserted before vertex `at`
** (insert) or with vertex `at` left out, and which old vertex each new one
** keeps the uid of (the inserted one: a fresh uid); then set_run. */
static int edit_one_vertex(wed_area *a, uint32_t poly, uint32_t at, int insert, wed_point pt, codec_error *err) {
  const wed_point *old;
  wed_point *pts;
  uint32_t *src, n, m, i, w = 0;
  int ok;
  if (poly >= a->num_polygons) return codec_fail_arg(err, "polygon %u: no such polygon", poly);
  n = wed_polygon_vertices(a, poly, &old);
  if (n != a->polygons[poly].vertex_count)
    return codec_fail_arg(err, "polygon %u: inconsistent model, vertex range exceeds the table", poly);
  if (insert ? at > n : at >= n)
    return codec_fail_arg(err, "polygon %u: no vertex position %u (it has %u vertices)", poly, at, n);
  m = insert ? n + 1 : n - 1;
  pts = (wed_point *)zalloc(m, sizeof(wed_point));
  src = (uint32_t *)zalloc(m, sizeof(uint32_t));
  if (!pts || !src) {
    free(pts);
    free(src);
    return codec_fail_oom(err, "polygon %u: out of memory", poly);
  }
  for (i = 0; i <= n; i++) {
    if (insert && i == at) {
      pts[w] = pt;
      src[w++] = WED_FRESH_UID;
    }
    if (i < n && (insert || i != at)) {
      pts[w] = old[i];
      src[w++] = i;
    }
  }
  ok = set_run(a, poly, pts, m, src, err);
  free(pts);
  free(src);
  return ok;
}

/* Inserts pt before vertex `at`; the others keep their uids. */
int wed_polygon_insert_vertex(wed_area *a, uint32_t poly, uint32_t at, wed_point pt, codec_error *err) {
  return edit_one_vertex(a, poly, at, 1, pt, err);
}

/* Deletes vertex `at`; the others keep their uids. */
int wed_polygon_delete_vertex(wed_area *a, uint32_t poly, uint32_t at, codec_error *err) {
  wed_point none = {0, 0};
  return edit_one_vertex(a, poly, at, 0, none, err);
}

/* Moves vertex `at` to pt (the count stays, so every uid stays); nothing
** happens when it is there already. */
int wed_vertex_set(wed_area *a, uint32_t poly, uint32_t at, wed_point pt, codec_error *err) {
  const wed_point *old;
  wed_point *pts;
  uint32_t n;
  int ok;
  if (poly >= a->num_polygons) return codec_fail_arg(err, "polygon %u: no such polygon", poly);
  n = wed_polygon_vertices(a, poly, &old);
  if (at >= n) return codec_fail_arg(err, "polygon %u: no vertex position %u (it has %u vertices)", poly, at, n);
  if (old[at].x == pt.x && old[at].y == pt.y) return 1;
  if (!dup_mem((void **)&pts, old, n, sizeof(wed_point))) return codec_fail_oom(err, "polygon %u: out of memory", poly);
  pts[at] = pt;
  ok = set_run(a, poly, pts, n, NULL, err);
  free(pts);
  return ok;
}

/* Stores a bounding box as given (no check against the vertices: the
** caller asked for exactly this box) and regenerates the groups. */
int wed_polygon_set_bbox(wed_area *a, uint32_t poly, uint16_t min_x, uint16_t max_x, uint16_t min_y,
                         uint16_t max_y, codec_error *err) {
  wed_polygon *np = NULL;
  wed_wallgroup *g;
  uint16_t *lk;
  uint32_t nl;
  if (poly >= a->num_polygons) return codec_fail_arg(err, "polygon %u: no such polygon", poly);
  if (!dup_mem((void **)&np, a->polygons, a->num_polygons, sizeof(wed_polygon)))
    return codec_fail_oom(err, "polygon %u: out of memory", poly);
  np[poly].min_x = min_x;
  np[poly].max_x = max_x;
  np[poly].min_y = min_y;
  np[poly].max_y = max_y;
  if (!build_groups(a, np, a->num_polygons, &g, &lk, &nl, err)) {
    free(np);
    return 0;
  }
  commit_polygons(a, np, a->num_polygons, NULL, 0, 0, g, lk, nl);
  return 1;
}

/* Moves every door's polygon references at or above `from` by delta (+1 on
** insert, -1 on delete); empty states with a raw offset are left alone. */
static void shift_doors(wed_area *a, uint32_t from, int delta) {
  uint32_t i;
  for (i = 0; i < a->num_doors; i++) {
    wed_door *dr = &a->doors[i];
    if (!dr->open_raw && dr->open_first >= from) dr->open_first = (uint32_t)((int64_t)dr->open_first + delta);
    if (!dr->closed_raw && dr->closed_first >= from)
      dr->closed_first = (uint32_t)((int64_t)dr->closed_first + delta);
  }
}

/* Makes np (np_n records, taken) the polygon table: rebuilds the vertex
** table (polygon `special` gets pts; UINT32_MAX: none) and the wall groups
** for it, then installs them with the vertex uids (taken).  On failure
** frees what it took and changes nothing. */
static int commit_polygon_table(wed_area *a, wed_polygon *np, uint32_t np_n, uint32_t special, const wed_point *pts,
                                size_t n, uint32_t *uids, uint32_t nuids, uint32_t next, codec_error *err) {
  wed_point *nv;
  wed_wallgroup *g;
  uint16_t *lk;
  uint32_t nnv, nl;
  if (!rebuild_vertices(a, np, np_n, special, pts, n, &nv, &nnv, err)) {
    free(np);
    free(uids);
    return 0;
  }
  if (!build_groups(a, np, np_n, &g, &lk, &nl, err)) {
    free(np);
    free(nv);
    free(uids);
    return 0;
  }
  commit_polygons(a, np, np_n, nv, nnv, 1, g, lk, nl);
  commit_uids(a, uids, nuids, next);
  return 1;
}

/* Inserts an empty-handed polygon record at index `at` (0..num_polygons)
** with pts as its vertices, rebuilds the vertex table and the groups, then
** shifts the doors' polygon indices at or above `at`.  The caller fixes
** num_walls or the door state it inserts into.  Nothing changes if any step
** fails. */
static int insert_polygon_at(wed_area *a, uint32_t at, uint8_t flags, uint8_t height, const wed_point *pts, size_t n,
                             codec_error *err) {
  uint32_t np_n = a->num_polygons + 1, *uids, nuids, next;
  wed_polygon *np;
  if (a->num_polygons >= U16_MAX_V)
    return codec_fail_limit(err, "polygons: %u polygons already, the 16-bit lookup holds at most 65535",
                            a->num_polygons);
  if (n > WED_MAX_VERTICES) return codec_fail_limit(err, "polygons: too many vertices");
  if (at > a->num_polygons) return codec_fail_arg(err, "polygons: no position %u (%u polygons)", at, a->num_polygons);
  if (!wed_check(a, err)) return 0;
  if (!splice_uids(a, vertex_row(a, at), 0, NULL, n, &uids, &nuids, &next, err)) return 0;
  np = (wed_polygon *)zalloc(np_n, sizeof(wed_polygon));
  if (!np) {
    free(uids);
    return codec_fail_oom(err, "polygons: out of memory");
  }
  if (at) memcpy(np, a->polygons, at * sizeof(wed_polygon));
  if (a->num_polygons > at) memcpy(np + at + 1, a->polygons + at, (a->num_polygons - at) * sizeof(wed_polygon));
  np[at].uid = a->next_uid;
  np[at].flags = flags;
  np[at].height = height;
  wed_bbox_of(pts, n, &np[at].min_x, &np[at].max_x, &np[at].min_y, &np[at].max_y);
  if (!commit_polygon_table(a, np, np_n, at, pts, n, uids, nuids, next, err)) return 0;
  shift_doors(a, at, +1);
  a->next_uid++;
  return 1;
}

/* Inserts at index num_walls: walls must stay in front of the door
** polygons. */
int wed_polygon_insert_wall(wed_area *a, uint8_t flags, uint8_t height, const wed_point *pts, size_t n,
                            uint32_t *poly, codec_error *err) {
  uint32_t at = a->num_walls;
  if (!insert_polygon_at(a, at, flags, height, pts, n, err)) return 0;
  a->num_walls++;
  if (poly) *poly = at;
  return 1;
}

/* Whether polygon index `at` lies strictly inside a non-empty door state
** other than (skip_door, skip_closed): inserting there would add the
** polygon to that state too.  Sets *door to the state's door. */
static int inside_other_state(const wed_area *a, uint32_t at, uint32_t skip_door, int skip_closed, uint32_t *door) {
  uint32_t i;
  int s;
  for (i = 0; i < a->num_doors; i++)
    for (s = 0; s < 2; s++) {
      const wed_door *dr = &a->doors[i];
      uint32_t first = s ? dr->closed_first : dr->open_first, count = s ? dr->closed_count : dr->open_count;
      if ((i == skip_door && s == skip_closed) || !count) continue;
      if (first < at && at < first + count) {
        *door = i;
        return 1;
      }
    }
  return 0;
}

/* The place of the new polygon: after the state's last one; an empty state
** takes the position its offset points at when that is a door-polygon
** position, else the end of the array. */
int wed_polygon_insert_door(wed_area *a, uint32_t door, int closed_state, uint8_t flags, uint8_t height,
                            const wed_point *pts, size_t n, uint32_t *poly, codec_error *err) {
  wed_door *dr;
  uint32_t first, count, at, other;
  uint8_t raw;
  if (door >= a->num_doors) return codec_fail_arg(err, "door %u: no such door (%u doors)", door, a->num_doors);
  dr = &a->doors[door];
  first = closed_state ? dr->closed_first : dr->open_first;
  count = closed_state ? dr->closed_count : dr->open_count;
  raw = closed_state ? dr->closed_raw : dr->open_raw;
  if (count >= U16_MAX_V)
    return codec_fail_limit(err, "door %u: the %s state has 65535 polygons, the most its 16-bit count holds", door,
                            closed_state ? "closed" : "open");
  if (count) at = first + count;
  else if (!raw && first >= a->num_walls && first <= a->num_polygons) at = first;
  else at = a->num_polygons;
  if (inside_other_state(a, at, door, closed_state, &other))
    return codec_fail_arg(err, "door %u: polygon position %u lies inside a state of door %u (their runs overlap)",
                          door, at, other);
  if (!insert_polygon_at(a, at, flags, height, pts, n, err)) return 0;
  dr = &a->doors[door];
  if (closed_state) {
    dr->closed_first = count ? first : at;
    dr->closed_count = (uint16_t)(count + 1);
    dr->closed_raw = 0;
  } else {
    dr->open_first = count ? first : at;
    dr->open_count = (uint16_t)(count + 1);
    dr->open_raw = 0;
  }
  if (poly) *poly = at;
  return 1;
}

/* The number of polygon records a file could still hold after polygon
** `poly` is deleted: the walls, and every non-empty door state's run as it
** would be then.  Records beyond that (orphans after the last referenced
** one) would be lost, since a reader derives the count from the doors. */
static uint32_t reachable_end_after_delete(const wed_area *a, uint32_t poly) {
  uint32_t end = a->num_walls - (poly < a->num_walls ? 1u : 0u), i;
  int s;
  for (i = 0; i < a->num_doors; i++)
    for (s = 0; s < 2; s++) {
      const wed_door *dr = &a->doors[i];
      uint32_t first = s ? dr->closed_first : dr->open_first, count = s ? dr->closed_count : dr->open_count;
      if (!count) continue;
      if (first <= poly && poly - first < count) count--;
      else if (first > poly) first--;
      if (count && first + count > end) end = first + count;
    }
  return end;
}

/* Removes a polygon record and its vertex run (the vertex table is rebuilt
** so no orphan run stays behind), regenerates the groups; the door states
** that held it shrink by one and later references move down. */
int wed_polygon_delete(wed_area *a, uint32_t poly, codec_error *err) {
  uint32_t np_n, *uids, nuids, next, i, end;
  wed_polygon *np;
  if (poly >= a->num_polygons) return codec_fail_arg(err, "polygon %u: no such polygon (%u polygons)", poly, a->num_polygons);
  if (!wed_check(a, err)) return 0;
  end = reachable_end_after_delete(a, poly);
  if (end < a->num_polygons - 1)
    return codec_fail_arg(err,
                          "polygon %u: deleting it would leave %u polygon record(s) that no door's state holds "
                          "(kind 'orphan') at the end of the table, where a WED file cannot keep them (readers derive "
                          "the count from the doors); delete those first",
                          poly, a->num_polygons - 1 - end);
  if (!splice_uids(a, vertex_row(a, poly), a->polygons[poly].vertex_count, NULL, 0, &uids, &nuids, &next, err))
    return 0;
  np_n = a->num_polygons - 1;
  np = (wed_polygon *)zalloc(np_n, sizeof(wed_polygon));
  if (np_n && !np) {
    free(uids);
    return codec_fail_oom(err, "polygons: out of memory");
  }
  if (poly) memcpy(np, a->polygons, poly * sizeof(wed_polygon));
  if (np_n > poly) memcpy(np + poly, a->polygons + poly + 1, (np_n - poly) * sizeof(wed_polygon));
  if (!commit_polygon_table(a, np, np_n, UINT32_MAX, NULL, 0, uids, nuids, next, err)) return 0;
  for (i = 0; i < a->num_doors; i++) {
    wed_door *dr = &a->doors[i];
    if (dr->open_count && dr->open_first <= poly && poly - dr->open_first < dr->open_count) dr->open_count--;
    if (dr->closed_count && dr->closed_first <= poly && poly - dr->closed_first < dr->closed_count) dr->closed_count--;
  }
  shift_doors(a, poly + 1, -1);
  if (poly < a->num_walls) a->num_walls--;
  return 1;
}

/* Walls only: door polygons are removed through wed_polygon_delete. */
int wed_polygon_delete_wall(wed_area *a, uint32_t poly, codec_error *err) {
  if (poly >= a->num_walls)
    return codec_fail_arg(err, "polygon %u: not a wall polygon (%u walls); door polygons belong to their door", poly,
                          a->num_walls);
  return wed_polygon_delete(a, poly, err);
}

/* ---- memory ------------------------------------------------------------------ */

/* Every array the area owns, by its count, plus the copy of the file. */
size_t wed_footprint(const wed_area *a) {
  size_t bytes = sizeof *a + a->orig_size;
  uint32_t i;
  for (i = 0; i < a->num_overlays; i++) {
    bytes += sizeof(wed_overlay) + (size_t)a->overlays[i].num_cells * sizeof(wed_tilecell) +
             (size_t)a->overlays[i].num_lookup * 2;
  }
  bytes += (size_t)a->num_doors * sizeof(wed_door) + (size_t)a->num_door_cells * 2;
  bytes += (size_t)a->num_polygons * sizeof(wed_polygon) + (size_t)a->num_vertices * sizeof(wed_point);
  bytes += (size_t)a->num_wallgroups * sizeof(wed_wallgroup) + (size_t)a->num_poly_lookup * 2;
  bytes += a->vertex_uids ? (size_t)a->num_vertex_uids * sizeof(uint32_t) : 0;
  return bytes;
}
