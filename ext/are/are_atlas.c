/*
** are_atlas.c: what levelsql_atlas shows of an ARE file that has no WED
** beside it (are_atlas; an ARE beside its WED is shown on the WED's card,
** its actors and doors over the area's tiles: ext/wed/wed_render.c).
**
** An ARE holds no picture of the area and not even its size, so its
** picture is an SVG of what it places, fitted to the box they span: the
** regions' outlines (travel green, info yellow, traps red), the doors'
** closed outlines (blue), the containers' outlines (brown), the entrances
** (grey) and the actors (red dots), each with its name as a <title>.
*/
#include <stdlib.h>
#include <string.h>

#include "are/are.h"
#include "are/are_tables.h"
#include "common/svg.h"
#include "engine/engine.h"

/* The box the points of the area span, grown by what is added. */
typedef struct span {
  double x0, y0, x1, y1;
  int any;
} span;

static void span_add(span *b, double x, double y) {
  if (!b->any || x < b->x0) b->x0 = x;
  if (!b->any || y < b->y0) b->y0 = y;
  if (!b->any || x > b->x1) b->x1 = x;
  if (!b->any || y > b->y1) b->y1 = y;
  b->any = 1;
}

/* A fixed-size NUL-padded name's length. */
static size_t name_len(const unsigned char *field, size_t size) {
  size_t n = 0;
  while (n < size && field[n]) n++;
  return n;
}

/* An outline of n points as a <polygon> of class cls titled by the name
** (8-bit text shown as it is: svg.h replaces what is not UTF-8). */
static void outline(svg_doc *d, const span *b, const are_point *pts, uint32_t n, const char *cls,
                    const unsigned char *name, size_t size) {
  uint32_t i;
  if (!n) return;
  svg_printf(d, "<polygon class=\"%s\" points=\"", cls);
  for (i = 0; i < n; i++) svg_printf(d, "%s%g,%g", i ? " " : "", pts[i].x - b->x0, pts[i].y - b->y0);
  svg_printf(d, "\"><title>%T</title></polygon>\n", name_len(name, size), (const char *)name);
}

/* Every point the drawing places, into b. */
static void area_span(const are_area *a, span *b) {
  uint32_t i;
  for (i = 0; i < a->num_vertices; i++) span_add(b, a->vertices[i].x, a->vertices[i].y);
  for (i = 0; i < a->num_actors; i++) span_add(b, a->actors[i].x, a->actors[i].y);
  for (i = 0; i < a->num_entrances; i++) span_add(b, a->entrances[i].x, a->entrances[i].y);
  if (!b->any) span_add(b, 0, 0);
  b->x0 -= 16, b->y0 -= 16, b->x1 += 16, b->y1 += 16;
}

static const char area_css[] =
  ".travel{fill:#3c3;fill-opacity:.2;stroke:#070}.info{fill:#fc3;fill-opacity:.2;stroke:#a70}"
  ".trap{fill:#f33;fill-opacity:.2;stroke:#a00}.door{fill:#37f;fill-opacity:.25;stroke:#04a}"
  ".container{fill:#a63;fill-opacity:.25;stroke:#630}.actor{fill:#e33;stroke:#000}.entrance{fill:#888;stroke:#000}";

/* The card: the numbers of what the area places, and its SVG. */
static int are_atlas_draw(void *model, const char *path, const ls_atlas_opts *o, ls_atlas_card *card,
                          codec_error *err) {
  const are_area *a = model;
  span b = {0, 0, 0, 0, 0};
  svg_doc d;
  uint32_t i;
  const are_point *pts;
  char *svg;
  size_t n;
  (void)path;
  if (!ls_atlas_number_add(card, NULL, "actors", 6, a->num_actors, err) ||
      !ls_atlas_number_add(card, NULL, "doors", 5, a->num_doors, err) ||
      !ls_atlas_number_add(card, NULL, "regions", 7, a->num_regions, err) ||
      !ls_atlas_number_add(card, NULL, "containers", 10, a->num_containers, err) ||
      !ls_atlas_number_add(card, NULL, "entrances", 9, a->num_entrances, err) ||
      !ls_atlas_note(card, "no WED beside it: what the ARE places, without the area", err))
    return 0;
  area_span(a, &b);
  svg_begin(&d, b.x1 - b.x0, b.y1 - b.y0, area_css, "#f8f8f4");
  for (i = 0; i < a->num_regions; i++) {
    const are_region *r = &a->regions[i];
    const char *cls = r->type == ARE_REGION_TRAVEL ? "travel" : r->type == ARE_REGION_INFO ? "info" : "trap";
    uint32_t k = are_vertices(a, ARE_REGIONS, i, ARE_RUN_OUTLINE, &pts);
    if (codec_cancelled_at(o->cancel, i + 1)) {
      svg_discard(&d);
      return codec_fail_interrupted(err);
    }
    outline(&d, &b, pts, k, cls, r->name, sizeof r->name);
  }
  for (i = 0; i < a->num_doors; i++) {
    uint32_t k = are_vertices(a, ARE_DOORS, i, ARE_RUN_CLOSED, &pts);
    outline(&d, &b, pts, k, "door", a->doors[i].name, sizeof a->doors[i].name);
  }
  for (i = 0; i < a->num_containers; i++) {
    uint32_t k = are_vertices(a, ARE_CONTAINERS, i, ARE_RUN_OUTLINE, &pts);
    outline(&d, &b, pts, k, "container", a->containers[i].name, sizeof a->containers[i].name);
  }
  for (i = 0; i < a->num_entrances; i++) {
    const are_entrance *e = &a->entrances[i];
    svg_printf(&d, "<rect class=\"entrance\" x=\"%g\" y=\"%g\" width=\"10\" height=\"10\"><title>%T</title></rect>\n",
               e->x - b.x0 - 5, e->y - b.y0 - 5, name_len(e->name, sizeof e->name), (const char *)e->name);
  }
  for (i = 0; i < a->num_actors; i++) {
    const are_actor *ac = &a->actors[i];
    svg_printf(&d, "<circle class=\"actor\" cx=\"%g\" cy=\"%g\" r=\"8\"><title>%T</title></circle>\n", ac->x - b.x0,
               ac->y - b.y0, name_len(ac->name, sizeof ac->name), (const char *)ac->name);
  }
  if (!(svg = svg_finish(&d, &n))) return codec_fail_oom(err, "out of memory");
  return ls_atlas_add_svg(card, "what the area places: regions, doors, containers, entrances, actors", svg, n,
                          b.x1 - b.x0, b.y1 - b.y0, err) != NULL;
}

static const char *const are_atlas_queries[] = {
  "SELECT actor, name, x, y, cre_file, dialog FROM are_actors({file});",
  "SELECT door, name, door_id, flags, key_item FROM are_doors({file});",
  "SELECT region, name, type, destination_area FROM are_regions({file});",
  NULL,
};

const ls_atlas_kind are_atlas = {
  .format = &are_format, .noun = "area", .draw = are_atlas_draw, .queries = are_atlas_queries, .shown_with = ".wed",
};
