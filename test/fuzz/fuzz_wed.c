/*
** fuzz_wed.c: libFuzzer harness for the WED codec (codecs/wed.[ch]).
**
** Parse; a rejection must carry a message and CODEC_E_FORMAT, _LIMIT or
** _MEMORY.  An accepted area must pass
** wed_check, rewrite byte-identically (unless its sections overlapped, in
** which case it is laid out again), and re-parse.  Then a few edits chosen
** by the input's last bytes (move / add / delete a wall polygon, change a
** door's cells, a cell's tiles, a bounding box, insert / move / delete one
** vertex of a polygon) are applied; a failed edit
** must leave the area consistent.  The result is serialized and re-parsed,
** and the re-parsed area must satisfy the layout and wall-group invariants
** and serialize to the very same bytes.  Any inconsistency calls abort().
**
** Build and run: make build-fuzz/fuzz/fuzz_wed; seeds go in /tmp, never in
** the repository.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wed.h"
#include "../unit/wed_layout.h"

/* Stops the run with a message: libFuzzer records the input. */
static void die(const char *what, const char *msg) {
  fprintf(stderr, "fuzz_wed: %s: %s\n", what, msg ? msg : "");
  abort();
}

/* Every non-empty polygon with a well-formed bbox is listed in each wall
** group whose cell its bbox meets; every lookup entry is in range. */
static void check_groups(const wed_area *a) {
  uint32_t gx, gy, i, cx, cy;
  wed_wallgroup_grid(a, &gx, &gy);
  for (i = 0; i < a->num_poly_lookup; i++)
    if (a->poly_lookup[i] >= a->num_polygons) die("groups", "lookup index out of range after regeneration");
  for (i = 0; i < a->num_polygons; i++) {
    const wed_polygon *p = &a->polygons[i];
    if (p->vertex_count == 0 || p->min_x > p->max_x || p->min_y > p->max_y) continue;
    for (cy = p->min_y / 480u; cy < gy && cy <= p->max_y / 480u; cy++)
      for (cx = p->min_x / 640u; cx < gx && cx <= p->max_x / 640u; cx++) {
        const uint16_t *l;
        uint32_t m = wed_wallgroup_polygons(a, cy * gx + cx, &l), j, found = 0;
        for (j = 0; j < m; j++) found |= l[j] == i;
        if (!found) die("groups", "a polygon is missing from a wall group it meets");
      }
  }
}

/* Applies edits picked by `sel`; returns 1 if a polygon edit succeeded (so
** the wall groups were regenerated). */
static int do_edits(wed_area *a, uint32_t sel) {
  codec_error err;
  int regen = 0;
  uint32_t i;
  if ((sel & 1) && a->num_walls > 0) {
    const wed_point *pts;
    uint32_t n = wed_polygon_vertices(a, 0, &pts);
    wed_point buf[32];
    if (n > 32) n = 32;
    for (i = 0; i < n; i++) {
      buf[i].x = (uint16_t)(pts[i].x + 37u * ((sel >> 8) & 15));
      buf[i].y = (uint16_t)(pts[i].y + 29u * ((sel >> 12) & 15));
    }
    if (wed_polygon_set_vertices(a, 0, buf, n, &err)) regen = 1;
  }
  if (sel & 2) {
    wed_point tri[3] = {{(uint16_t)(sel >> 16), 10}, {700, (uint16_t)(sel >> 4)}, {1300, 990}};
    if (wed_polygon_insert_wall(a, 1, 255, tri, 3, NULL, &err)) regen = 1;
  }
  if ((sel & 4) && a->num_walls > 1) {
    if (wed_polygon_delete_wall(a, 1, &err)) regen = 1;
  }
  if ((sel & 8) && a->num_polygons > 0) {
    uint32_t p = (sel >> 5) % a->num_polygons;
    if (wed_polygon_set_bbox(a, p, 0, (uint16_t)(sel >> 3), 0, (uint16_t)(sel >> 7), &err)) regen = 1;
  }
  if ((sel & 16) && a->num_doors > 0 && a->num_overlays > 0 && a->overlays[0].num_cells > 0) {
    uint16_t cells[5];
    uint32_t k, n = 1 + (sel >> 9) % 5;
    for (k = 0; k < n; k++) cells[k] = (uint16_t)((sel >> k) % a->overlays[0].num_cells);
    (void)wed_door_set_cells(a, (sel >> 6) % a->num_doors, cells, n, &err);
  }
  if ((sel & 32) && a->num_overlays > 0 && a->overlays[0].num_cells > 0) {
    uint16_t tiles[4] = {1, 2, 3, 4};
    (void)wed_cell_set_tiles(a, 0, (sel >> 10) % a->overlays[0].num_cells, tiles, 1 + (sel >> 20) % 4, &err);
  }
  if ((sel & 64) && a->num_polygons > 0) {
    uint32_t p = (sel >> 11) % a->num_polygons, n, k;
    int moved = 0;
    const wed_point *pts;
    wed_point pt = {(uint16_t)(sel >> 2), (uint16_t)(sel >> 5)};
    uint16_t box[4];
    n = wed_polygon_vertices(a, p, &pts);
    if (wed_polygon_insert_vertex(a, p, (sel >> 3) % (n + 1), pt, &err)) moved = 1;
    n = wed_polygon_vertices(a, p, &pts);
    if (n > 1 && wed_polygon_delete_vertex(a, p, (sel >> 7) % n, &err)) moved = 1;
    n = wed_polygon_vertices(a, p, &pts);
    if (n > 0 && wed_vertex_set(a, p, 0, pt, &err)) moved = 1;
    n = wed_polygon_vertices(a, p, &pts);
    wed_bbox_of(pts, n, &box[0], &box[1], &box[2], &box[3]);
    regen |= moved;
    if (moved && (a->polygons[p].min_x != box[0] || a->polygons[p].max_x != box[1] || a->polygons[p].min_y != box[2] ||
                  a->polygons[p].max_y != box[3]))
      die("vertex edits", "the box is not the vertices' box");
    for (k = 0; k + 1 < n; k++)
      if (wed_vertex_uid(a, p, k) == wed_vertex_uid(a, p, k + 1)) die("vertex edits", "two vertices share a uid");
  }
  if (!wed_check(a, &err)) die("check after edits", err.msg);
  return regen;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  codec_error err;
  wed_area *a = NULL, *b = NULL, *c = NULL, *cl;
  unsigned char *out = NULL, *out2 = NULL, *out3 = NULL;
  size_t os = 0, os2 = 0, os3 = 0;
  uint32_t sel = 0;
  int regen;
  codec_error_clear(&err);
  if (!wed_parse(data, size, &a, &err)) {
    if (!err.msg[0] || a) die("reject", "rejected without a message");
    /* bytes are refused as damaged or beyond a cap, never as an argument */
    if (err.code != CODEC_E_FORMAT && err.code != CODEC_E_LIMIT && err.code != CODEC_E_MEMORY)
      die("reject", "rejected with the wrong code");
    return 0;
  }
  if (!wed_check(a, &err)) die("check after parse", err.msg);
  if (!wed_serialize(a, &out, &os, &err)) die("serialize unmodified", err.msg);
  if (!a->overlap && (os != size || memcmp(out, data, size) != 0)) die("rewrite", "not byte-identical");
  if (!wed_parse(out, os, &b, &err)) die("re-parse unmodified", err.msg);
  wed_free(b);
  free(out);
  out = NULL;

  cl = wed_clone(a);
  if (!cl) die("clone", "out of memory");
  if (size >= 4) sel = (uint32_t)data[size - 1] | ((uint32_t)data[size - 2] << 8) | ((uint32_t)data[size - 3] << 16);
  else sel = 0x3F;
  regen = do_edits(cl, sel);
  if (!wed_serialize(cl, &out2, &os2, &err)) die("serialize edited", err.msg);
  if (!wed_parse(out2, os2, &c, &err)) die("re-parse edited", err.msg);
  if (regen || cl->overlap || c->offsets.overlays == 32) {
    /* laid out again (or in place over a non-overlapping file) */
    if (c->overlap && !cl->overlap) die("layout", "sections overlap after writing");
  }
  if (!c->overlap && wed_last_section_end(c) > os2) die("layout", "a section runs past the end");
  if (regen) check_groups(c);
  if (!wed_serialize(c, &out3, &os3, &err)) die("serialize re-parsed", err.msg);
  if (!c->overlap && (os3 != os2 || memcmp(out3, out2, os2) != 0)) die("stability", "second write differs");
  if (c->num_polygons != cl->num_polygons || c->num_walls != cl->num_walls) die("counts", "polygon counts changed");
  wed_free(c);
  wed_free(cl);
  wed_free(a);
  free(out2);
  free(out3);
  return 0;
}
