/*
** wed_layout.h: layout facts the WED tests check: where the last section of
** a parsed area ends ("file size equals the end of the last section"), and
** polygon/vertex counts read from the raw bytes without the codec (shared
** by test_wed, test_wed_sql and fuzz_wed).
*/
#ifndef LEVELSQL_WED_LAYOUT_H
#define LEVELSQL_WED_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "common/bytes.h"
#include "wed/wed.h"

/* Raises *end to o + len when the section [o, o+len) is non-empty and ends
** later. */
static inline void wed_layout_extend(size_t *end, size_t o, size_t len) {
  if (len && o + len > *end) *end = o + len;
}

/* The end of the last non-empty section (the header at least). */
static inline size_t wed_last_section_end(const wed_area *a) {
  size_t end = WED_HEADER_SIZE;
  uint32_t i;
  wed_layout_extend(&end, a->offsets.overlays, (size_t)a->num_overlays * WED_OVERLAY_SIZE);
  wed_layout_extend(&end, a->offsets.sechdr, WED_SECHDR_SIZE);
  wed_layout_extend(&end, a->offsets.doors, (size_t)a->num_doors * WED_DOOR_SIZE);
  wed_layout_extend(&end, a->offsets.door_cells, (size_t)a->num_door_cells * 2);
  wed_layout_extend(&end, a->offsets.polygons, (size_t)a->num_polygons * WED_POLYGON_SIZE);
  wed_layout_extend(&end, a->offsets.vertices, (size_t)a->num_vertices * WED_VERTEX_SIZE);
  wed_layout_extend(&end, a->offsets.wallgroups, (size_t)a->num_wallgroups * WED_WALLGROUP_SIZE);
  wed_layout_extend(&end, a->offsets.poly_lookup, (size_t)a->num_poly_lookup * 2);
  for (i = 0; i < a->num_overlays; i++) {
    wed_layout_extend(&end, a->overlays[i].tilemap_offset, (size_t)a->overlays[i].num_cells * WED_TILECELL_SIZE);
    wed_layout_extend(&end, a->overlays[i].lookup_offset, (size_t)a->overlays[i].num_lookup * 2);
  }
  return end;
}

/* Independent reading of the polygon side straight from the header
** offsets, without the codec: the polygon count from the walls and the doors' state offsets,
** the sum of vertex counts, and the vertex table length measured as the gap
** between the vertex offset and the next section start (or the file end). */
static inline void wed_raw_counts(const unsigned char *d, size_t n, uint32_t *npoly, uint64_t *vsum, uint64_t *vlen) {
  uint32_t nov = le32_load(d + 8), ndoor = le32_load(d + 12), ovo = le32_load(d + 16), seco = le32_load(d + 20);
  uint32_t doo = le32_load(d + 24), walls = le32_load(d + seco), po = le32_load(d + seco + 4), vo = le32_load(d + seco + 8);
  uint32_t starts[64], ns = 0, i, np = walls;
  uint64_t next = n;
  starts[ns++] = ovo;
  starts[ns++] = seco;
  starts[ns++] = doo;
  starts[ns++] = le32_load(d + 28);
  starts[ns++] = po;
  starts[ns++] = le32_load(d + seco + 12);
  starts[ns++] = le32_load(d + seco + 16);
  for (i = 0; i < nov && i < 20; i++) {
    starts[ns++] = le32_load(d + ovo + 24 * i + 16);
    starts[ns++] = le32_load(d + ovo + 24 * i + 20);
  }
  for (i = 0; i < ndoor; i++) {
    const unsigned char *p = d + doo + 26 * i;
    if (le16_load(p + 14) && (le32_load(p + 18) - po) / 18 + le16_load(p + 14) > np) np = (le32_load(p + 18) - po) / 18 + le16_load(p + 14);
    if (le16_load(p + 16) && (le32_load(p + 22) - po) / 18 + le16_load(p + 16) > np) np = (le32_load(p + 22) - po) / 18 + le16_load(p + 16);
  }
  *vsum = 0;
  for (i = 0; i < np; i++) *vsum += le32_load(d + po + 18 * i + 4);
  for (i = 0; i < ns; i++) {
    if (starts[i] > vo && starts[i] < next) next = starts[i];
  }
  *npoly = np;
  *vlen = (next - vo) / 4;
}

#endif
