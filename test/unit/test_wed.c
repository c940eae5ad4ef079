/*
** test_wed.c: unit tests of the WED V1.3 codec (codecs/wed.[ch]).
**
** - Constructed areas (always run): parse, byte-identical rewrite, flag
**   names, version rejection, edits and their invariants, targeted
**   corruptions (fuzz regressions live here too).
** - The real corpus (LEVELSQL_CORPUS/wed, SKIPped when unset): every file
**   loads and rewrites byte-identical; polygon and vertex counts agree with an
**   independent reading of the raw bytes; the wall-group rule reproduces the
**   stored groups; an edit scenario (move, add, delete a wall polygon, change
**   a door's cells and a cell's tiles) on in-memory copies is serialized,
**   re-parsed and checked; truncated and bit-flipped copies give errors,
**   never a crash.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fileutil.h"
#include "wed/wed.h"
#include "wed_layout.h"

/* ---- invariants of a parsed area ----------------------------------------- */

/* Checks what every written file must satisfy: each non-empty polygon (wall
** or door) whose bounding box meets a 640x480 cell is listed in that cell's
** wall group; lookup indices are in range; bounding boxes enclose their
** vertices; no section overlaps another; the file ends where the last
** section ends.  Returns the number of violations (each also a CHECK). */
static int check_invariants(const char *name, const wed_area *a, size_t file_size, int check_bbox, int check_groups) {
  uint32_t gx, gy, i, k, cx, cy;
  int bad = 0;
  size_t end;
  wed_wallgroup_grid(a, &gx, &gy);
  for (i = 0; i < a->num_polygons; i++) {
    const wed_polygon *p = &a->polygons[i];
    const wed_point *pts;
    uint32_t n = wed_polygon_vertices(a, i, &pts);
    if (p->vertex_count == 0 || p->min_x > p->max_x || p->min_y > p->max_y) continue;
    if (check_bbox) {
      for (k = 0; k < n; k++)
        if (pts[k].x < p->min_x || pts[k].x > p->max_x || pts[k].y < p->min_y || pts[k].y > p->max_y) {
          CHECK(0, "%s: polygon %u vertex %u (%u,%u) outside its bbox", name, i, k, pts[k].x, pts[k].y);
          bad++;
          break;
        }
    }
    for (cy = 0; check_groups && cy < gy; cy++)
      for (cx = 0; cx < gx; cx++) {
        const uint16_t *l;
        uint32_t m, j, found = 0;
        if (p->max_x < cx * 640u || p->min_x >= cx * 640u + 640u) continue;
        if (p->max_y < cy * 480u || p->min_y >= cy * 480u + 480u) continue;
        m = wed_wallgroup_polygons(a, cy * gx + cx, &l);
        for (j = 0; j < m; j++)
          if (l[j] == i) found = 1;
        if (!found) {
          CHECK(0, "%s: polygon %u missing from wall group %u", name, i, cy * gx + cx);
          bad++;
        }
      }
  }
  for (i = 0; i < a->num_poly_lookup; i++)
    if (a->poly_lookup[i] >= a->num_polygons) {
      CHECK(0, "%s: polygon lookup %u = %u out of range (%u polygons)", name, i, a->poly_lookup[i], a->num_polygons);
      bad++;
    }
  CHECK(!a->overlap, "%s: sections overlap", name);
  bad += a->overlap != 0;
  /* end of the last section */
  end = wed_last_section_end(a);
  CHECK(end == file_size, "%s: file size %zu but the last section ends at %zu", name, file_size, end);
  bad += end != file_size;
  return bad;
}

/* ---- a constructed area ---------------------------------------------------- */

/* Builds a small WED in the DLTCEP order without using the codec: a 20x15
** base overlay (2x2 wall groups), one used 1x1 water overlay (6 frames), three
** unused overlays, one door with 3 cells and one open + one closed polygon,
** and `walls` wall polygons (squares at increasing positions; wall 1 empty).
** second_order picks the other observed section order (wed.md section 12).
** Returns a malloc'd buffer. */
static unsigned char *build_wed(uint32_t walls, int second_order, size_t *size) {
  const uint32_t W = 20, H = 15, ncell = W * H, nov = 5, ndoor = 1;
  uint32_t npoly = walls + 2, nvert = 0, i, k, ng = 4, nlk = 0;
  uint32_t o_ov = 32, o_sec, o_door, o_tm0, o_tm1, o_dc, o_lk0, o_lk1, o_wg, o_poly, o_pl, o_vert, total;
  uint16_t glist[4][64];
  uint32_t gcount[4] = {0, 0, 0, 0};
  uint32_t vc[64], bx0[64], bx1[64], by0[64], by1[64];
  unsigned char *b;
  if (npoly > 64) return NULL;
  for (i = 0; i < npoly; i++) {
    uint32_t x = 100 + 90 * i, y = 60 + 50 * i;
    vc[i] = (i == 1) ? 0 : 4;
    bx0[i] = x;
    bx1[i] = x + 600; /* wide: crosses the x = 640 border for most */
    by0[i] = y;
    by1[i] = y + 40;
    if (vc[i] == 0) bx0[i] = bx1[i] = by0[i] = by1[i] = 0xFFFF;
    nvert += vc[i];
  }
  for (i = 0; i < npoly; i++) {
    uint32_t g;
    if (!vc[i]) continue;
    for (g = 0; g < 4; g++) {
      uint32_t cx = g % 2, cy = g / 2;
      if (bx1[i] < cx * 640 || bx0[i] >= cx * 640 + 640 || by1[i] < cy * 480 || by0[i] >= cy * 480 + 480) continue;
      glist[g][gcount[g]++] = (uint16_t)i;
    }
  }
  for (i = 0; i < 4; i++) nlk += gcount[i];
  o_sec = o_ov + nov * 24;
  o_door = o_sec + 20;
  if (!second_order) {
    o_tm0 = o_door + ndoor * 26;
    o_tm1 = o_tm0 + ncell * 10;
    o_dc = o_tm1 + 10;
    o_lk0 = o_dc + 3 * 2;
    o_lk1 = o_lk0 + ncell * 2;
    o_wg = o_lk1 + 6 * 2;
    o_poly = o_wg + ng * 4;
    o_pl = o_poly + npoly * 18;
    o_vert = o_pl + nlk * 2;
    total = o_vert + nvert * 4;
  } else { /* the RoT/NTotSC order: door cells, tilemap+lookup per overlay,
           ** polygons, vertices, wall groups, polygon lookup */
    o_dc = o_door + ndoor * 26;
    o_tm0 = o_dc + 3 * 2;
    o_lk0 = o_tm0 + ncell * 10;
    o_tm1 = o_lk0 + ncell * 2;
    o_lk1 = o_tm1 + 10;
    o_poly = o_lk1 + 6 * 2;
    o_vert = o_poly + npoly * 18;
    o_wg = o_vert + nvert * 4;
    o_pl = o_wg + ng * 4;
    total = o_pl + nlk * 2;
  }
  b = (unsigned char *)calloc(total, 1);
  if (!b) return NULL;
  memcpy(b, "WED V1.3", 8);
  le32_store(b + 8, nov);
  le32_store(b + 12, ndoor);
  le32_store(b + 16, o_ov);
  le32_store(b + 20, o_sec);
  le32_store(b + 24, o_door);
  le32_store(b + 28, o_dc);
  /* overlays */
  le16_store(b + o_ov, (uint16_t)W);
  le16_store(b + o_ov + 2, (uint16_t)H);
  memcpy(b + o_ov + 4, "AR0100", 6);
  le16_store(b + o_ov + 12, (uint16_t)(unsigned)ncell);
  le32_store(b + o_ov + 16, o_tm0);
  le32_store(b + o_ov + 20, o_lk0);
  le16_store(b + o_ov + 24, (uint16_t)1);
  le16_store(b + o_ov + 26, (uint16_t)1);
  memcpy(b + o_ov + 28, "WTWAVE", 6);
  le32_store(b + o_ov + 40, o_tm1);
  le32_store(b + o_ov + 44, o_lk1);
  for (i = 2; i < nov; i++) {
    le32_store(b + o_ov + 24 * i + 16, o_dc);
    le32_store(b + o_ov + 24 * i + 20, o_wg);
  }
  le32_store(b + o_sec, walls);
  le32_store(b + o_sec + 4, o_poly);
  le32_store(b + o_sec + 8, o_vert);
  le32_store(b + o_sec + 12, o_wg);
  le32_store(b + o_sec + 16, o_pl);
  memcpy(b + o_door, "DOOR0001", 8);
  le16_store(b + o_door + 8, (uint16_t)1);
  le16_store(b + o_door + 10, (uint16_t)0);
  le16_store(b + o_door + 12, (uint16_t)3);
  le16_store(b + o_door + 14, (uint16_t)1);
  le16_store(b + o_door + 16, (uint16_t)1);
  le32_store(b + o_door + 18, o_poly + 18 * walls);
  le32_store(b + o_door + 22, o_poly + 18 * (walls + 1));
  for (i = 0; i < ncell; i++) {
    unsigned char *c = b + o_tm0 + 10 * i;
    le16_store(c, (uint16_t)i);
    le16_store(c + 2, (uint16_t)1);
    le16_store(c + 4, (uint16_t)(i % 7 == 0) ? 500 + i : 0xFFFF);
    c[6] = (i % 11 == 0) ? 2 : 0;
    le16_store(b + o_lk0 + 2 * i, (uint16_t)(unsigned)(ncell - 1 - i));
  }
  le16_store(b + o_tm1 + 2, (uint16_t)6);
  le16_store(b + o_tm1 + 4, (uint16_t)0xFFFF);
  for (i = 0; i < 6; i++) le16_store(b + o_lk1 + 2 * i, (uint16_t)i);
  le16_store(b + o_dc, (uint16_t)21);
  le16_store(b + o_dc + 2, (uint16_t)22);
  le16_store(b + o_dc + 4, (uint16_t)41);
  for (i = 0, k = 0; i < 4; i++) {
    uint32_t j;
    le16_store(b + o_wg + 4 * i, (uint16_t)k);
    le16_store(b + o_wg + 4 * i + 2, (uint16_t)gcount[i]);
    for (j = 0; j < gcount[i]; j++) le16_store(b + o_pl + 2 * (k + j), (uint16_t)glist[i][j]);
    k += gcount[i];
  }
  for (i = 0, k = 0; i < npoly; i++) {
    unsigned char *p = b + o_poly + 18 * i;
    le32_store(p, k);
    le32_store(p + 4, vc[i]);
    p[8] = i >= walls ? 0x89 : 0x01;
    p[9] = 0xFF;
    le16_store(p + 10, (uint16_t)bx0[i]);
    le16_store(p + 12, (uint16_t)bx1[i]);
    le16_store(p + 14, (uint16_t)by0[i]);
    le16_store(p + 16, (uint16_t)by1[i]);
    if (vc[i]) {
      unsigned char *v = b + o_vert + 4 * k;
      le16_store(v, (uint16_t)bx0[i]), le16_store(v + 2, (uint16_t)by1[i]);
      le16_store(v + 4, (uint16_t)bx1[i]), le16_store(v + 6, (uint16_t)by1[i]);
      le16_store(v + 8, (uint16_t)bx1[i]), le16_store(v + 10, (uint16_t)by0[i]);
      le16_store(v + 12, (uint16_t)bx0[i]), le16_store(v + 14, (uint16_t)by0[i]);
    }
    k += vc[i];
  }
  *size = total;
  return b;
}

/* Serializes and re-parses (one CHECK); returns the re-parsed area, NULL
** when either step failed. */
static wed_area *roundtrip(const char *name, const wed_area *a, unsigned char **bytes, size_t *size) {
  codec_error err = {0};
  wed_area *b = NULL;
  int ok;
  *bytes = NULL;
  ok = wed_serialize(a, bytes, size, &err) && wed_parse(*bytes, *size, &b, &err);
  CHECK(ok, "%s: serialize and re-parse: %s", name, err.msg);
  return ok ? b : NULL;
}

/* Checks the offsets of a re-laid-out file follow the common order. */
static void check_common_order(const char *name, const wed_area *a) {
  const wed_offsets *o = &a->offsets;
  CHECK(o->overlays == 32 && o->sechdr == 32 + a->num_overlays * 24u && o->doors == o->sechdr + 20, "%s: head order",
        name);
  CHECK(a->num_overlays == 0 || a->overlays[0].tilemap_offset == o->doors + a->num_doors * 26u, "%s: tilemap order",
        name);
  CHECK(o->door_cells <= (a->num_overlays ? a->overlays[0].lookup_offset : o->wallgroups) &&
            o->wallgroups <= o->polygons && o->polygons <= o->poly_lookup && o->poly_lookup <= o->vertices,
        "%s: tail order dc=%u wg=%u poly=%u pl=%u vert=%u", name, o->door_cells, o->wallgroups, o->polygons,
        o->poly_lookup, o->vertices);
}

/* The edit scenario of the issue on one area (constructed or real): move
** wall polygon 0, add a wall, delete wall 1 (if any), change door 0's cells
** and a tile's frames; serialize, re-parse and check invariants and values. */
static void edit_scenario(const char *name, const wed_area *orig) {
  codec_error err = {0};
  wed_area *a = wed_clone(orig), *b;
  unsigned char *bytes = NULL, *bytes2 = NULL;
  size_t size = 0, size2 = 0;
  wed_point moved[64], tri[3] = {{700, 500}, {900, 520}, {800, 700}};
  uint32_t n0 = 0, i, uid0 = 0, uid_del = 0, new_idx = 0, walls0, idx;
  int have_wall = orig->num_walls > 0, del = orig->num_walls > 1;
  uint16_t cells[4];
  uint32_t ncells = 0;
  uint16_t frames[3] = {7, 8, 9};
  if (!a) {
    CHECK(0, "%s: clone failed", name);
    return;
  }
  walls0 = a->num_walls;
  if (have_wall) {
    const wed_point *pts;
    n0 = wed_polygon_vertices(a, 0, &pts);
    if (n0 > 64) n0 = 64;
    for (i = 0; i < n0; i++) {
      moved[i].x = (uint16_t)(pts[i].x + 100u);
      moved[i].y = (uint16_t)(pts[i].y + 50u);
    }
    uid0 = a->polygons[0].uid;
    CHECK(wed_polygon_set_vertices(a, 0, moved, n0, &err), "%s: move: %s", name, err.msg);
  }
  CHECK(wed_polygon_insert_wall(a, 0x01, 0xFF, tri, 3, &new_idx, &err), "%s: insert: %s", name, err.msg);
  CHECK(new_idx == walls0 && a->num_walls == walls0 + 1, "%s: inserted at %u", name, new_idx);
  if (del) {
    uid_del = a->polygons[1].uid;
    CHECK(wed_polygon_delete_wall(a, 1, &err), "%s: delete: %s", name, err.msg);
    CHECK(!wed_polygon_find(a, uid_del, &idx), "%s: deleted polygon still found", name);
  }
  if (have_wall) CHECK(wed_polygon_find(a, uid0, &idx) && idx == 0, "%s: moved polygon lost", name);
  CHECK(wed_polygon_delete_wall(a, a->num_walls, &err) == 0, "%s: deleting a door polygon must fail", name);
  if (a->num_doors && a->num_overlays && a->overlays[0].num_cells > 3) {
    const uint16_t *dc;
    uint32_t m = wed_door_cells(a, 0, &dc), lim = a->overlays[0].num_cells;
    /* one cell more than before, reversed, so the table is rebuilt */
    for (i = 0; i < m && ncells < 3; i++) cells[ncells++] = dc[m - 1 - i];
    cells[ncells++] = (uint16_t)(lim - 1);
    CHECK(wed_door_set_cells(a, 0, cells, ncells, &err), "%s: door cells: %s", name, err.msg);
  }
  if (a->num_overlays && a->overlays[0].num_cells)
    CHECK(wed_cell_set_tiles(a, 0, 0, frames, 3, &err), "%s: tiles: %s", name, err.msg);
  b = roundtrip(name, a, &bytes, &size);
  if (b) {
    check_invariants(name, b, size, 1, 1);
    check_common_order(name, b);
    CHECK(b->num_walls == a->num_walls && b->num_polygons == a->num_polygons, "%s: polygon counts", name);
    CHECK(b->num_walls == walls0 + 1 - (uint32_t)del, "%s: walls %u", name, b->num_walls);
    if (have_wall) {
      const wed_point *pts;
      uint32_t n = wed_polygon_vertices(b, 0, &pts);
      CHECK(n == n0 && (n == 0 || memcmp(pts, moved, n * sizeof *pts) == 0), "%s: moved vertices", name);
    }
    {
      const wed_point *pts;
      uint32_t at = walls0 - (uint32_t)del, n = wed_polygon_vertices(b, at, &pts);
      CHECK(n == 3 && pts[0].x == 700 && pts[2].y == 700, "%s: inserted vertices", name);
      CHECK(b->polygons[at].min_x == 700 && b->polygons[at].max_x == 900 && b->polygons[at].min_y == 500 &&
                b->polygons[at].max_y == 700,
            "%s: inserted bbox", name);
    }
    if (ncells) {
      const uint16_t *dc;
      uint32_t m = wed_door_cells(b, 0, &dc);
      CHECK(m == ncells && memcmp(dc, cells, m * 2) == 0, "%s: door cells after reparse", name);
    }
    if (a->num_overlays && a->overlays[0].num_cells) {
      const uint16_t *t;
      uint32_t m = wed_cell_tiles(b, 0, 0, &t);
      CHECK(m == 3 && t[0] == 7 && t[2] == 9, "%s: cell tiles after reparse", name);
    }
    /* door polygons still belong to the same doors */
    for (i = 0; i < a->num_polygons; i++) {
      long d1, d2;
      enum wed_polygon_kind k1 = wed_polygon_kind_of(a, i, &d1), k2 = wed_polygon_kind_of(b, i, &d2);
      if (k1 != k2 || d1 != d2) {
        CHECK(0, "%s: polygon %u kind changed", name, i);
        break;
      }
    }
    /* stable: the re-parsed area writes the same bytes again */
    if (wed_serialize(b, &bytes2, &size2, &err))
      CHECK(size2 == size && memcmp(bytes, bytes2, size) == 0, "%s: second write differs", name);
    else
      CHECK(0, "%s: second serialize: %s", name, err.msg);
    wed_free(b);
  }
  free(bytes);
  free(bytes2);
  wed_free(a);
}

/* Parses a buffer that must be rejected; checks the message mentions `want`. */
static void expect_error(const char *what, const unsigned char *d, size_t n, const char *want) {
  codec_error err = {0};
  wed_area *a = NULL;
  int ok = wed_parse(d, n, &a, &err);
  CHECK(!ok && a == NULL, "%s: accepted", what);
  CHECK(!ok && strstr(err.msg, want) != NULL, "%s: message '%s' lacks '%s'", what, err.msg, want);
  wed_free(a);
}

/* Tests on constructed areas: they run without the corpus. */
static void test_constructed(void) {
  codec_error err = {0};
  size_t size = 0, out_size = 0;
  unsigned char *b = build_wed(4, 0, &size), *out = NULL, *bad;
  wed_area *a = NULL;
  char names[WED_FLAG_NAMES_MAX];
  unsigned fl = 0;
  if (!b) {
    CHECK(0, "build_wed");
    return;
  }
  CHECK(wed_sniff(b, size), "sniff");
  CHECK(!wed_sniff(b, 7), "sniff short");
  CHECK(wed_parse(b, size, &a, &err), "parse constructed: %s", err.msg);
  if (a) {
    long door;
    CHECK(a->num_polygons == 6 && a->num_walls == 4 && a->num_vertices == 20, "counts %u %u %u", a->num_polygons,
          a->num_walls, a->num_vertices);
    CHECK(a->num_wallgroups == 4 && a->num_door_cells == 3 && a->overlays[1].num_lookup == 6, "derived counts");
    CHECK(wed_polygon_kind_of(a, 4, &door) == WED_POLY_DOOR_OPEN && door == 0, "door open kind");
    CHECK(wed_polygon_kind_of(a, 5, &door) == WED_POLY_DOOR_CLOSED && door == 0, "door closed kind");
    CHECK(wed_polygon_kind_of(a, 2, &door) == WED_POLY_WALL && door == -1, "wall kind");
    CHECK(wed_serialize(a, &out, &out_size, &err) && out_size == size && memcmp(out, b, size) == 0,
          "constructed rewrite identical");
    free(out);
    out = NULL;
    check_invariants("constructed", a, size, 1, 1);
    {
      /* regenerating reproduces the builder's groups exactly */
      wed_area *c = wed_clone(a);
      CHECK(c && wed_wallgroups_regenerate(c, &err), "regenerate: %s", err.msg);
      if (c) {
        CHECK(wed_serialize(c, &out, &out_size, &err) && out_size == size && memcmp(out, b, size) == 0,
              "regenerated groups equal the built ones");
        free(out);
        out = NULL;
      }
      wed_free(c);
    }
    /* a same-size edit stays in place */
    {
      wed_area *c = wed_clone(a);
      wed_point sq[4] = {{10, 10}, {20, 10}, {20, 20}, {10, 20}};
      if (c) {
        CHECK(wed_polygon_set_vertices(c, 0, sq, 4, &err), "move in place: %s", err.msg);
        CHECK(c->polygons[0].min_x == 10 && c->polygons[0].max_y == 20, "bbox follows");
        CHECK(wed_serialize(c, &out, &out_size, &err), "serialize after move: %s", err.msg);
        free(out);
        out = NULL;
        /* bbox edit: the polygon leaves group 1 */
        CHECK(wed_polygon_set_bbox(c, 2, 0, 10, 0, 10, &err), "set bbox: %s", err.msg);
        {
          const uint16_t *l;
          uint32_t m = wed_wallgroup_polygons(c, 1, &l), j, found = 0;
          for (j = 0; j < m; j++) found |= l[j] == 2;
          CHECK(!found, "bbox edit moved the polygon out of group 1");
        }
        /* error cases leave the area unchanged */
        CHECK(!wed_door_set_cells(c, 0, (const uint16_t[]){300}, 1, &err) && strstr(err.msg, "base overlay"),
              "door cell out of range: %s", err.msg);
        CHECK(!wed_door_set_cells(c, 5, NULL, 0, &err), "no such door");
        CHECK(!wed_cell_set_tiles(c, 2, 0, (const uint16_t[]){1}, 1, &err), "unused overlay has no cells");
        CHECK(!wed_cell_set_tiles(c, 0, 0, NULL, 0, &err), "zero tiles refused");
        CHECK(!wed_polygon_set_vertices(c, 99, sq, 4, &err), "no such polygon");
        CHECK(wed_check(c, &err), "still consistent: %s", err.msg);
      }
      wed_free(c);
    }
    /* scalar edits and same-length table edits are written in place */
    {
      wed_area *c = wed_clone(a);
      size_t j, diff = 0;
      if (c) {
        c->polygons[3].flags = 0x0D;
        c->overlays[0].cells[7].anim_speed = 6;
        CHECK(wed_cell_set_tiles(c, 1, 0, (const uint16_t[]){9, 9, 9, 9, 9, 9}, 6, &err), "tiles: %s", err.msg);
        CHECK(wed_door_set_cells(c, 0, (const uint16_t[]){1, 2, 3}, 3, &err), "cells: %s", err.msg);
        CHECK(wed_serialize(c, &out, &out_size, &err) && out_size == size, "in-place size");
        if (out && out_size == size)
          for (j = 0; j < size; j++) diff += out[j] != b[j];
        CHECK(diff == 1 + 1 + 6 + 3, "in place: %zu bytes differ", diff);
        free(out);
        out = NULL;
      }
      wed_free(c);
    }
    /* water overlay tiles: change the count -> lookup rebuilt */
    {
      wed_area *c = wed_clone(a);
      unsigned char *o2 = NULL;
      size_t s2 = 0;
      wed_area *r;
      if (c) {
        CHECK(wed_cell_set_tiles(c, 1, 0, (const uint16_t[]){5, 4, 3, 2}, 4, &err), "water tiles: %s", err.msg);
        c->overlays[1].unique_tiles = 4;
        c->overlays[0].cells[5].secondary_tile = 1234;
        c->doors[0].name[0] = 'X';
        c->polygons[3].flags = 0x0D;
        r = roundtrip("water", c, &o2, &s2);
        if (r) {
          const uint16_t *t;
          CHECK(wed_cell_tiles(r, 1, 0, &t) == 4 && t[0] == 5 && t[3] == 2, "water tiles after reparse");
          CHECK(r->overlays[1].unique_tiles == 4 && r->overlays[0].cells[5].secondary_tile == 1234 &&
                    r->doors[0].name[0] == 'X' && r->polygons[3].flags == 0x0D,
                "scalar edits after reparse");
          check_invariants("water", r, s2, 1, 1);
          wed_free(r);
        }
        free(o2);
      }
      wed_free(c);
    }
    edit_scenario("constructed", a);
    /* delete every wall, then add one back */
    {
      wed_area *c = wed_clone(a);
      unsigned char *o2 = NULL;
      size_t s2 = 0;
      wed_area *r;
      if (c) {
        while (c->num_walls) CHECK(wed_polygon_delete_wall(c, 0, &err), "delete all: %s", err.msg);
        CHECK(c->num_polygons == 2 && c->doors[0].open_first == 0 && c->doors[0].closed_first == 1,
              "doors moved down");
        r = roundtrip("no walls", c, &o2, &s2);
        if (r) {
          check_invariants("no walls", r, s2, 1, 1);
          CHECK(r->num_walls == 0 && r->num_polygons == 2, "no walls counts");
          wed_free(r);
        }
        free(o2);
      }
      wed_free(c);
    }
    wed_free(a);
    a = NULL;
  }

  /* resref fields */
  {
    unsigned char f[8] = {'A', 'R', '0', 0, 'j', 'u', 'n', 'k'};
    CHECK(wed_resref_len(f) == 3, "resref len");
    CHECK(wed_resref_set(f, "AR0", 3) && f[4] == 'j', "no-op set keeps bytes after the NUL");
    CHECK(wed_resref_set(f, "DOOR0001", 8) && wed_resref_len(f) == 8 && memcmp(f, "DOOR0001", 8) == 0, "8 chars");
    CHECK(wed_resref_set(f, "AB", 2) && memcmp(f, "AB\0\0\0\0\0\0", 8) == 0, "padded");
    CHECK(!wed_resref_set(f, "DOOR00012", 9) && memcmp(f, "AB", 2) == 0, "9 chars refused");
    CHECK(!wed_resref_set(f, "A\0B", 3), "NUL inside refused");
  }

  /* flag names */
  CHECK(wed_flag_names(0x8D, names, sizeof names) > 0 && strcmp(names, "shade_wall|hovering|cover_animations|door") == 0,
        "flag names: %s", names);
  CHECK(wed_flag_names(0, names, sizeof names) == 0 && names[0] == 0, "no flags");
  CHECK(wed_flag_names(0xFF, names, sizeof names) == 73, "all flags fit: %s", names);
  CHECK(wed_flag_parse(names, &fl, &err) && fl == 0xFF, "all flags parse back");
  CHECK(wed_flag_parse(" door | shade_wall ", &fl, &err) && fl == 0x81, "parse with spaces");
  CHECK(wed_flag_parse("", &fl, &err) && fl == 0, "parse empty");
  CHECK(!wed_flag_parse("door|wet", &fl, &err) && strstr(err.msg, "'wet'"), "unknown flag: %s", err.msg);
  CHECK(!wed_flag_parse("door||door", &fl, &err), "empty flag name");
  {
    unsigned v;
    int all = 1;
    for (v = 0; v < 256; v++) {
      unsigned back = 999;
      wed_flag_names(v, names, sizeof names);
      if (!wed_flag_parse(names, &back, &err) || back != v) all = 0;
    }
    CHECK(all, "every flag byte round-trips through its names");
  }

  /* rejected headers */
  bad = (unsigned char *)malloc(size);
  if (bad) {
    memcpy(bad, b, size);
    memcpy(bad + 4, "V1.4", 4);
    CHECK(!wed_sniff(bad, size), "V1.4 not sniffed");
    expect_error("V1.4", bad, size, "unsupported WED version 'V1.4'");
    memcpy(bad, "TIS V1.3", 8);
    expect_error("TIS", bad, size, "not a WED file");
    expect_error("short", b, 20, "truncated");
    expect_error("empty", b, 0, "truncated");
    /* door polygon offset not on a record boundary */
    memcpy(bad, b, size);
    le32_store(bad + le32_load(bad + 24) + 18, le32_load(bad + le32_load(bad + 20) + 4) + 7);
    expect_error("door misaligned", bad, size, "door 0: byte offset");
    /* door polygons inside the walls */
    memcpy(bad, b, size);
    le32_store(bad + le32_load(bad + 24) + 18, le32_load(bad + le32_load(bad + 20) + 4));
    expect_error("door in walls", bad, size, "inside the 4 wall polygons");
    /* vertex range beyond the file */
    memcpy(bad, b, size);
    le32_store(bad + le32_load(bad + le32_load(bad + 20) + 4) + 18 * 2 + 4, 100000);
    expect_error("vertex range", bad, size, "wall polygon 2: byte offset");
    /* overlay tilemap beyond the file */
    memcpy(bad, b, size);
    le16_store(bad + 32, (uint16_t)2000);
    expect_error("tilemap", bad, size, "overlay 0 tilemap");
    /* a huge overlay count */
    memcpy(bad, b, size);
    le32_store(bad + 8, 0xFFFFFFFFu);
    expect_error("overlay count", bad, size, "overlays: byte offset 32");
    /* secondary header beyond the file */
    memcpy(bad, b, size);
    le32_store(bad + 20, (uint32_t)size - 4);
    expect_error("sechdr", bad, size, "secondary header");
    /* wall group lookup beyond the file */
    memcpy(bad, b, size);
    le16_store(bad + le32_load(bad + le32_load(bad + 20) + 12) + 2, (uint16_t)0xFFFF);
    expect_error("poly lookup", bad, size, "polygon lookup");
    /* accepted anomalies: out-of-range lookup index, garbage in an unused
    ** overlay, an empty door state pointing anywhere, overlapping sections */
    memcpy(bad, b, size);
    le16_store(bad + le32_load(bad + le32_load(bad + 20) + 16), (uint16_t)6);
    le16_store(bad + 32 + 24 * 3 + 12, (uint16_t)0xFFFE);
    le16_store(bad + 32 + 24 * 3 + 14, (uint16_t)0xFFFF);
    CHECK(wed_parse(bad, size, &a, &err), "anomalies accepted: %s", err.msg);
    if (a) {
      CHECK(wed_serialize(a, &out, &out_size, &err) && out_size == size && memcmp(out, bad, size) == 0,
            "anomalies rewrite identical");
      free(out);
      out = NULL;
      edit_scenario("anomalies", a);
      wed_free(a);
      a = NULL;
    }
    memcpy(bad, b, size);
    le16_store(bad + le32_load(bad + 24) + 14, (uint16_t)0);              /* open count 0 */
    le32_store(bad + le32_load(bad + 24) + 18, 0xFFFFFFF0u);     /* ... pointing nowhere */
    CHECK(wed_parse(bad, size, &a, &err), "empty door state anywhere: %s", err.msg);
    if (a) {
      long door;
      CHECK(a->num_polygons == 6 && wed_polygon_kind_of(a, 4, &door) == WED_POLY_ORPHAN, "orphan polygon");
      CHECK(wed_serialize(a, &out, &out_size, &err) && out_size == size && memcmp(out, bad, size) == 0,
            "empty door state rewrite identical");
      free(out);
      out = NULL;
      edit_scenario("orphan", a);
      wed_free(a);
      a = NULL;
    }
    /* overlapping sections: two overlays share a lookup table; edits relayout */
    memcpy(bad, b, size);
    le32_store(bad + 32 + 24 + 20, le32_load(bad + 32 + 20));
    CHECK(wed_parse(bad, size, &a, &err), "shared lookup accepted: %s", err.msg);
    if (a) {
      CHECK(a->overlap, "overlap detected");
      edit_scenario("overlap", a);
      wed_free(a);
      a = NULL;
    }
    free(bad);
  }
  free(b);

  /* the second observed section order: read by offsets, rewritten as is,
  ** laid out in the common order after an edit */
  b = build_wed(6, 1, &size);
  if (b) {
    CHECK(wed_parse(b, size, &a, &err), "second order: %s", err.msg);
    if (a) {
      CHECK(a->offsets.vertices < a->offsets.wallgroups && a->num_walls == 6 && a->num_vertices == 28,
            "second order layout");
      CHECK(wed_serialize(a, &out, &out_size, &err) && out_size == size && memcmp(out, b, size) == 0,
            "second order rewrite identical");
      free(out);
      out = NULL;
      check_invariants("second order", a, size, 1, 1);
      edit_scenario("second order", a);
      wed_free(a);
      a = NULL;
    }
    free(b);
  }

  /* Regression (fuzz): an area with no overlays at all and no polygons. */
  {
    unsigned char z[52];
    memset(z, 0, sizeof z);
    memcpy(z, "WED V1.3", 8);
    le32_store(z + 20, 32);
    CHECK(wed_parse(z, sizeof z, &a, &err), "minimal: %s", err.msg);
    if (a) {
      wed_point p[1] = {{1, 1}};
      CHECK(a->num_wallgroups == 0 && a->num_polygons == 0, "minimal counts");
      CHECK(wed_polygon_insert_wall(a, 1, 255, p, 1, NULL, &err), "insert into empty: %s", err.msg);
      CHECK(wed_serialize(a, &out, &out_size, &err), "serialize minimal: %s", err.msg);
      free(out);
      out = NULL;
      wed_free(a);
      a = NULL;
    }
  }
}

/* ---- corpus --------------------------------------------------------------- */

/* Corpus-wide facts, printed at the end (measured, not assumed). */
typedef struct corpus_facts {
  int files, parsed, identical, second_order, overlapping;
  uint64_t polygons, walls, door_polys, vertices, doors, empty_polys;
  uint64_t stored_refs, regenerated_refs, stored_missing, extra_refs;
  int lookup_out_of_range;
} corpus_facts;

/* Compares the stored wall groups with the regenerated ones. */
static void compare_groups(const wed_area *a, corpus_facts *f) {
  codec_error err = {0};
  wed_area *c = wed_clone(a);
  uint32_t g, i, j;
  if (!c || !wed_wallgroups_regenerate(c, &err)) {
    CHECK(0, "regenerate: %s", err.msg);
    wed_free(c);
    return;
  }
  for (g = 0; g < a->num_wallgroups; g++) {
    const uint16_t *s, *r;
    uint32_t ns = wed_wallgroup_polygons(a, g, &s), nr = wed_wallgroup_polygons(c, g, &r);
    f->stored_refs += ns;
    f->regenerated_refs += nr;
    for (i = 0; i < ns; i++) {
      int found = 0;
      for (j = 0; j < nr; j++) found |= r[j] == s[i];
      if (!found) f->stored_missing++;
    }
    for (j = 0; j < nr; j++) {
      int found = 0;
      for (i = 0; i < ns; i++) found |= r[j] == s[i];
      if (!found) f->extra_refs++;
    }
  }
  wed_free(c);
}

/* Truncations and bit flips of a real file: errors, never crashes; whatever
** parses must serialize and re-parse.  Counted into `damage`, one case for
** the corpus. */
static void corrupt_file(const char *name, const unsigned char *d, size_t n, uint32_t *rng, check_loop *damage) {
  unsigned char *m = (unsigned char *)malloc(n ? n : 1);
  size_t cut;
  int i, truncated_ok = 1;
  codec_error err;
  if (!m) return;
  check_loop_enter(damage);
  for (cut = 0; cut < n; cut += 1 + n / 97) {
    wed_area *a = NULL;
    err.msg[0] = 0;
    if (wed_parse(d, cut, &a, &err)) {
      truncated_ok = 0;
      wed_free(a);
    } else if (!err.msg[0]) {
      truncated_ok = 0;
    }
  }
  damage->inputs++;
  CHECK(truncated_ok, "%s: a truncated copy parsed (or gave no message)", name);
  for (i = 0; i < 60; i++) {
    wed_area *a = NULL;
    size_t pos;
    int k;
    memcpy(m, d, n);
    for (k = 0; k < 1 + i % 4; k++) {
      *rng = *rng * 1103515245u + 12345u;
      pos = (i < 30 ? (*rng >> 8) % (n < 256 ? n : 256) : (*rng >> 8) % n); /* headers get half */
      m[pos] ^= (unsigned char)(1u << ((*rng >> 4) & 7));
    }
    err.msg[0] = 0;
    damage->inputs++;
    if (wed_parse(m, n, &a, &err)) {
      unsigned char *out = NULL, *out2 = NULL;
      size_t os = 0, os2 = 0;
      wed_area *b = NULL;
      if (wed_serialize(a, &out, &os, &err)) {
        if (!wed_parse(out, os, &b, &err)) CHECK(0, "%s: flipped copy re-parse: %s", name, err.msg);
        if (!a->overlap) CHECK(os == n && memcmp(out, m, n) == 0, "%s: flipped copy not rewritten identically", name);
        wed_free(b);
      } else {
        CHECK(0, "%s: flipped copy serialize: %s", name, err.msg);
      }
      free(out);
      free(out2);
      (void)os2;
      wed_free(a);
    } else {
      CHECK(err.msg[0] != 0, "%s: rejection without a message", name);
    }
  }
  check_loop_leave();
  free(m);
}

/* qsort order for file names, so runs are reproducible. */
static int name_cmp(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Runs every check above on each WED file of the corpus, in name order. */
static void test_corpus(void) {
  const char *root = check_corpus_dir();
  char dir[4096], path[8192];
  DIR *dp;
  struct dirent *de;
  char **names = NULL;
  size_t nnames = 0, cap = 0, i;
  corpus_facts f;
  uint32_t rng = 12345;
  check_loop reads = {0, 0, 0}, edits = {0, 0, 0}, damage = {0, 0, 0};
  memset(&f, 0, sizeof f);
  if (!root) {
    SKIP("LEVELSQL_CORPUS not set: WED corpus tests");
    return;
  }
  snprintf(dir, sizeof dir, "%s/wed", root);
  dp = opendir(dir);
  if (!dp) {
    SKIP("no %s", dir);
    return;
  }
  while ((de = readdir(dp)) != NULL) {
    size_t l = strlen(de->d_name);
    if (l < 4 || (strcmp(de->d_name + l - 4, ".WED") != 0 && strcmp(de->d_name + l - 4, ".wed") != 0)) continue;
    if (nnames == cap) {
      char **nn = (char **)realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
      if (!nn) break;
      names = nn;
    }
    names[nnames] = (char *)malloc(l + 1);
    if (names[nnames]) memcpy(names[nnames++], de->d_name, l + 1);
  }
  closedir(dp);
  if (nnames) qsort(names, nnames, sizeof *names, name_cmp);
  for (i = 0; i < nnames; i++) {
    size_t n = 0, os = 0;
    unsigned char *d, *out = NULL;
    wed_area *a = NULL;
    codec_error err = {0};
    uint32_t np, j;
    int ok;
    uint64_t vsum, vlen, msum = 0;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    d = file_read_all(path, &n);
    f.files++;
    check_loop_enter(&reads);
    reads.inputs++;
    if (!d) {
      CHECK(0, "%s: unreadable", names[i]);
      continue;
    }
    ok = wed_parse(d, n, &a, &err);
    CHECK(ok, "%s: %s", names[i], err.msg);
    if (!ok) {
      free(d);
      continue;
    }
    f.parsed++;
    ok = wed_serialize(a, &out, &os, &err) && os == n && memcmp(out, d, n) == 0;
    CHECK(ok, "%s: no-op rewrite differs (%s)", names[i], err.msg);
    f.identical += ok;
    free(out);
    wed_raw_counts(d, n, &np, &vsum, &vlen);
    for (j = 0; j < a->num_polygons; j++) msum += a->polygons[j].vertex_count;
    CHECK(np == a->num_polygons, "%s: %u polygons, independently %u", names[i], a->num_polygons, np);
    CHECK(vsum == msum && vsum == a->num_vertices && vlen == a->num_vertices,
          "%s: vertices: model %u, sum of counts %llu, table length %llu", names[i], a->num_vertices,
          (unsigned long long)vsum, (unsigned long long)vlen);
    check_invariants(names[i], a, n, 1, 0);
    compare_groups(a, &f);
    f.polygons += a->num_polygons;
    f.walls += a->num_walls;
    f.door_polys += a->num_polygons - a->num_walls;
    f.vertices += a->num_vertices;
    f.doors += a->num_doors;
    for (j = 0; j < a->num_polygons; j++) f.empty_polys += a->polygons[j].vertex_count == 0;
    for (j = 0; j < a->num_poly_lookup; j++)
      if (a->poly_lookup[j] >= a->num_polygons) f.lookup_out_of_range++;
    f.overlapping += a->overlap;
    f.second_order += a->offsets.vertices < a->offsets.wallgroups;
    check_loop_enter(&edits);
    edits.inputs++;
    edit_scenario(names[i], a);
    check_loop_leave();
    corrupt_file(names[i], d, n, &rng, &damage);
    wed_free(a);
    free(d);
  }
  check_loop_leave();
  check_loop_done(&reads, "every corpus area parses, re-saves byte for byte, has the counts of its raw header and keeps the "
                  "invariants");
  check_loop_done(&edits, "the edit scenario on every corpus area");
  check_loop_done(&damage, "truncations and bit flips of every corpus area (errors with a message, or identical rewrites)");
  printf("wed corpus: %d files, %d parsed, %d byte-identical, %d in the second section order, %d overlapping\n",
         f.files, f.parsed, f.identical, f.second_order, f.overlapping);
  printf("wed corpus: %llu polygons (%llu walls, %llu door), %llu empty, %llu vertices, %llu doors, "
         "%d out-of-range lookup entries\n",
         (unsigned long long)f.polygons, (unsigned long long)f.walls, (unsigned long long)f.door_polys,
         (unsigned long long)f.empty_polys, (unsigned long long)f.vertices, (unsigned long long)f.doors,
         f.lookup_out_of_range);
  printf("wed corpus: wall groups: %llu stored refs, %llu regenerated, %llu stored refs not regenerated, "
         "%llu regenerated refs not stored\n",
         (unsigned long long)f.stored_refs, (unsigned long long)f.regenerated_refs,
         (unsigned long long)f.stored_missing, (unsigned long long)f.extra_refs);
  CHECK(f.stored_missing == 0, "the grid rule misses %llu stored references", (unsigned long long)f.stored_missing);
  for (i = 0; i < nnames; i++) free(names[i]);
  free(names);
}

/* Per-vertex edits on the constructed area (polygons 0, 2-5: 4 vertices,
** polygon 1: none): vertex uids are row numbers until an edit numbers
** them, then stay with their vertex through vertex and wall inserts and
** deletes and through a clone; boxes follow; positions out of range are
** refused with CODEC_E_ARG and change nothing; the shoelace sum. */
static void test_vertex_edits(void) {
  codec_error err = {0};
  size_t size = 0, out_size = 0;
  unsigned char *b = build_wed(4, 0, &size), *out = NULL;
  wed_area *a = NULL, *c = NULL, *r = NULL;
  const wed_point *pts;
  static const wed_point square[4] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  wed_point pt = {5, 7};
  uint32_t poly = 0, k = 0, nv;
  if (!b || !wed_parse(b, size, &a, &err)) {
    CHECK(0, "vertex edits: the constructed area: %s", err.msg);
    free(b);
    return;
  }
  CHECK(wed_shoelace2(square, 4) == 200 && wed_shoelace2(square, 2) == 0, "shoelace: twice the area, 0 below 3 points");
  CHECK(wed_vertex_uid(a, 2, 1) == 5 && wed_vertex_find(a, 5, &poly, &k) && poly == 2 && k == 1, "uids are row numbers");
  nv = a->num_vertices;
  CHECK(!wed_polygon_insert_vertex(a, 0, 5, pt, &err) && err.code == CODEC_E_ARG, "insert past the end refused");
  CHECK(!wed_polygon_delete_vertex(a, 1, 0, &err) && err.code == CODEC_E_ARG, "delete from an empty polygon refused");
  CHECK(!wed_vertex_set(a, 0, 4, pt, &err) && err.code == CODEC_E_ARG, "set past the end refused");
  CHECK(!wed_polygon_insert_vertex(a, a->num_polygons, 0, pt, &err) && err.code == CODEC_E_ARG, "no such polygon");
  CHECK(a->num_vertices == nv && a->vertex_uids == NULL, "refusals change nothing");
  CHECK(wed_polygon_insert_vertex(a, 0, 0, pt, &err), "insert at the front: %s", err.msg);
  CHECK(wed_polygon_vertices(a, 0, &pts) == 5 && pts[0].x == 5 && pts[0].y == 7, "the new point is first");
  CHECK(a->polygons[0].min_x == 5 && a->polygons[0].min_y == 7, "the box takes it in");
  CHECK(wed_vertex_uid(a, 0, 0) == 20 && wed_vertex_uid(a, 0, 1) == 0 && wed_vertex_uid(a, 2, 1) == 5, "uids stay, the new one is fresh");
  CHECK(wed_polygon_delete_vertex(a, 2, 0, &err), "delete: %s", err.msg);
  CHECK(!wed_vertex_find(a, 4, &poly, &k) && wed_vertex_find(a, 5, &poly, &k) && poly == 2 && k == 0, "a deleted uid is gone, the next moved");
  CHECK(wed_vertex_set(a, 2, 0, pt, &err) && wed_vertex_uid(a, 2, 0) == 5 && a->polygons[2].min_x == 5, "set keeps the uid, the box follows");
  c = wed_clone(a);
  CHECK(c && wed_vertex_uid(c, 0, 0) == 20 && wed_vertex_uid(c, 2, 0) == 5, "a clone keeps the uids");
  CHECK(wed_polygon_delete_wall(a, 0, &err) && wed_vertex_find(a, 5, &poly, &k) && poly == 1 && k == 0, "a wall deleted before it");
  CHECK(wed_polygon_insert_wall(a, 1, 255, square, 4, &poly, &err) && wed_vertex_uid(a, poly, 3) == 24, "a new wall's vertices get fresh uids");
  CHECK(wed_polygon_set_vertices(a, poly, square, 2, &err) && wed_vertex_uid(a, poly, 1) == 22, "set_vertices keeps uids by position");
  CHECK(wed_vertex_find(a, 5, &poly, &k) && poly == 1 && k == 0, "still found after the wall insert");
  CHECK(wed_serialize(a, &out, &out_size, &err) && wed_parse(out, out_size, &r, &err) && wed_check(r, &err), "written and read: %s", err.msg);
  CHECK(r && wed_polygon_vertices(r, 1, &pts) == 3 && pts[0].x == 5 && pts[0].y == 7, "the edits read back");
  wed_free(r);
  wed_free(c);
  wed_free(a);
  free(out);
  free(b);
}

/* Constructed tests first (always), then the corpus (when present). */
int main(void) {
  test_constructed();
  test_vertex_edits();
  test_corpus();
  return check_done();
}
