/*
** wed_layout.h: where the last section of a parsed WED area ends, for the
** tests' "file size equals the end of the last section" invariant (shared
** by test_wed, test_wed_sql and fuzz_wed).
*/
#ifndef LEVELSQL_WED_LAYOUT_H
#define LEVELSQL_WED_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "wed.h"

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

#endif
