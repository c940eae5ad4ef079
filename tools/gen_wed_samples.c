/*
** gen_wed_samples.c: writes two small Infinity Engine areas (.WED) built
** with the WED codec's model and writer (a wed_area filled in, the wall
** groups from wed_wallgroups_regenerate, wed_serialize), for `make samples`
** (tools/gen_samples.sh), the demo, sql/wed_cookbook.sql and the tests.
** Usage: gen_wed_samples OUTDIR
**
** The areas have the shape of real ones (../shared/formats/wed.md): five
** overlays (the base layer, a 1x1 six-frame water overlay or an unused
** one, three unused), one TIS tile per base cell and a few animated cells,
** water cells marked in the overlay mask, doors with their cells (the
** closed-door graphics as secondary tiles) and open / closed polygons
** flagged shade_wall|cover_animations|door, wall polygons flagged as the
** retail games flag them, and the wall groups of the 640x480 grid.
** - AR0100.WED: a town, 30x20 tiles: eight walls (one crossing wall
**   group borders), a pond, two doors, one of which has no closed-state
**   polygon (which the cookbook's check finds).
** - AR0200.WED: a tavern, 20x15 tiles: four walls, three doors, one of
**   whose closed polygons has no vertices (another check), one a double
**   door with two closed polygons.
** `gen_wed_samples --fuzz OUTDIR` writes the seeds of test/fuzz/run.sh
** instead: FUZZ.WED, a 12x9-tile area of about 2 KB with every section
** kind (a water overlay, animated cells, walls, one crossing the four wall
** groups, a door with open and closed polygons and one with an empty
** closed polygon), and AR0200.WED.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"
#include "wed/wed.h"

#define NUM_OVERLAYS 5
#define MAX_POINTS 8
#define MAX_DOOR_POLYS 2
#define WATER_FRAMES 6
#define ANIM_FRAMES 4
#define HEIGHT_ANY 0xFF /* the height byte of every polygon in real files */
#define WALL_FLAGS (WED_PF_SHADE_WALL)
#define DOOR_FLAGS (WED_PF_SHADE_WALL | WED_PF_COVER_ANIMATIONS | WED_PF_DOOR)

/* One polygon: flags and up to MAX_POINTS vertices (pixels). */
typedef struct poly_spec {
  uint8_t flags;
  int n;
  wed_point pts[MAX_POINTS];
} poly_spec;

/* One door: its cells (base-overlay cell indices) and polygons. */
typedef struct door_spec {
  const char *name;
  uint16_t starts_closed; /* wed_door.closed: the door's state when the area loads */
  int ncells;
  uint16_t cells[6];
  int nopen, nclosed;
  poly_spec open[MAX_DOOR_POLYS], closed[MAX_DOOR_POLYS];
} door_spec;

/* A rectangle of cells [x0, x1] x [y0, y1]. */
typedef struct cell_rect {
  int x0, y0, x1, y1;
} cell_rect;

/* One area. */
typedef struct area_spec {
  const char *file, *tileset, *what;
  uint16_t width, height; /* base overlay, in 64x64 tiles */
  int nwalls;
  const poly_spec *walls;
  int ndoors;
  const door_spec *doors;
  int water;              /* a water overlay drawn on `pond` */
  cell_rect pond;
  int nanimated;
  uint16_t animated[4];   /* base cells with ANIM_FRAMES frames */
} area_spec;

static const poly_spec town_walls[] = {
    {WALL_FLAGS, 6, {{200, 150}, {520, 150}, {560, 300}, {520, 420}, {200, 420}, {160, 300}}}, /* house */
    {WALL_FLAGS | WED_PF_COVER_ANIMATIONS, 5, {{700, 500}, {760, 470}, {820, 520}, {800, 600}, {720, 610}}}, /* tree */
    {WALL_FLAGS, 4, {{600, 440}, {1300, 440}, {1300, 520}, {600, 520}}}, /* town wall, over 4 groups */
    {WALL_FLAGS | WED_PF_COVER_ANIMATIONS, 4, {{1400, 200}, {1800, 200}, {1800, 600}, {1400, 600}}}, /* hall */
    {0, 6, {{900, 800}, {1000, 760}, {1100, 800}, {1100, 900}, {1000, 940}, {900, 900}}}, /* fountain */
    {WALL_FLAGS, 4, {{100, 1000}, {700, 1000}, {700, 1030}, {100, 1030}}}, /* fence */
    {WALL_FLAGS | WED_PF_HOVERING, 4, {{1500, 900}, {1560, 900}, {1560, 1000}, {1500, 1000}}}, /* statue */
    {WALL_FLAGS, 4, {{1200, 1100}, {1600, 1100}, {1600, 1130}, {1200, 1130}}}, /* bridge rail */
};

static const door_spec town_doors[] = {
    {"DOOR0100", 1, 4, {185, 186, 215, 216}, 1, 1,
     {{DOOR_FLAGS, 4, {{330, 380}, {345, 380}, {345, 440}, {330, 440}}}},
     {{DOOR_FLAGS, 4, {{330, 410}, {390, 410}, {390, 430}, {330, 430}}}}},
    {"DOOR0101", 0, 2, {292, 293}, 1, 0, /* a gate with no closed-state polygon */
     {{DOOR_FLAGS, 4, {{1400, 580}, {1420, 580}, {1420, 640}, {1400, 640}}}},
     {{0, 0, {{0, 0}}}}},
};

static const poly_spec tavern_walls[] = {
    {WALL_FLAGS | WED_PF_COVER_ANIMATIONS, 4, {{100, 100}, {600, 100}, {600, 160}, {100, 160}}}, /* bar counter */
    {WALL_FLAGS, 4, {{620, 420}, {680, 420}, {680, 540}, {620, 540}}}, /* pillar on a group corner */
    {WALL_FLAGS, 5, {{900, 200}, {1100, 200}, {1150, 300}, {1000, 380}, {900, 300}}}, /* stairs */
    {0, 4, {{200, 700}, {400, 700}, {400, 760}, {200, 760}}}, /* table */
};

static const door_spec tavern_doors[] = {
    {"DOOR0200", 1, 2, {282, 283}, 1, 1,
     {{DOOR_FLAGS, 4, {{120, 860}, {140, 860}, {140, 940}, {120, 940}}}},
     {{DOOR_FLAGS, 4, {{120, 900}, {200, 900}, {200, 920}, {120, 920}}}}},
    {"DOOR0201", 0, 2, {118, 119}, 1, 1, /* its closed polygon has no vertices */
     {{DOOR_FLAGS, 4, {{1150, 380}, {1170, 380}, {1170, 440}, {1150, 440}}}},
     {{DOOR_FLAGS, 0, {{0, 0}}}}},
    {"DOOR0202", 1, 4, {149, 150, 169, 170}, 1, 2, /* a double door */
     {{DOOR_FLAGS, 4, {{640, 580}, {660, 580}, {660, 700}, {640, 700}}}},
     {{DOOR_FLAGS, 4, {{640, 620}, {700, 620}, {700, 640}, {640, 640}}},
      {DOOR_FLAGS, 4, {{700, 620}, {760, 620}, {760, 640}, {700, 640}}}}},
};

static const poly_spec tiny_walls[] = {
    {WALL_FLAGS, 4, {{300, 400}, {700, 400}, {700, 560}, {300, 560}}}, /* over the four wall groups */
    {WALL_FLAGS | WED_PF_COVER_ANIMATIONS, 3, {{60, 60}, {200, 60}, {130, 180}}},
    {0, 4, {{500, 100}, {560, 100}, {560, 160}, {500, 160}}},
};

static const door_spec tiny_doors[] = {
    {"DOOR9900", 1, 2, {40, 41}, 1, 1,
     {{DOOR_FLAGS, 4, {{130, 250}, {150, 250}, {150, 310}, {130, 310}}}},
     {{DOOR_FLAGS, 4, {{130, 280}, {190, 280}, {190, 300}, {130, 300}}}}},
    {"DOOR9901", 0, 1, {90}, 1, 1, /* an empty closed polygon */
     {{DOOR_FLAGS, 4, {{390, 500}, {410, 500}, {410, 540}, {390, 540}}}},
     {{DOOR_FLAGS, 0, {{0, 0}}}}},
};

/* The fuzz seed (--fuzz): small, with every section kind. */
static const area_spec tiny_area = {"FUZZ.WED", "AR9900", "fuzz seed, 12x9 tiles, 3 walls, 2 doors, a water overlay",
                                    12, 9, (int)(sizeof tiny_walls / sizeof tiny_walls[0]), tiny_walls,
                                    (int)(sizeof tiny_doors / sizeof tiny_doors[0]), tiny_doors, 1, {7, 5, 9, 6},
                                    2, {14, 15, 0, 0}};

static const area_spec areas[] = {
    {"AR0100.WED", "AR0100", "town, 30x20 tiles, 8 walls, 2 doors, a water overlay", 30, 20,
     (int)(sizeof town_walls / sizeof town_walls[0]), town_walls, (int)(sizeof town_doors / sizeof town_doors[0]),
     town_doors, 1, {18, 15, 24, 18}, 4, {62, 64, 422, 557}},
    {"AR0200.WED", "AR0200", "tavern, 20x15 tiles, 4 walls, 3 doors", 20, 15,
     (int)(sizeof tavern_walls / sizeof tavern_walls[0]), tavern_walls,
     (int)(sizeof tavern_doors / sizeof tavern_doors[0]), tavern_doors, 0, {0, 0, -1, -1}, 2, {22, 37, 0, 0}},
};

/* calloc that counts as a failure only when n > 0 (n == 0 gives NULL). */
static void *alloc_n(size_t n, size_t size, int *failed) {
  void *p = n ? calloc(n, size) : NULL;
  if (n && !p) *failed = 1;
  return p;
}

/* Copies a polygon's vertices to the end of the area's vertex table and
** sets its record (bounding box from the vertices, as the editors do). */
static void put_polygon(wed_area *a, uint32_t idx, const poly_spec *ps) {
  wed_polygon *p = &a->polygons[idx];
  p->uid = idx;
  p->first_vertex = a->num_vertices;
  p->vertex_count = (uint32_t)ps->n;
  p->flags = ps->flags;
  p->height = HEIGHT_ANY;
  memcpy(a->vertices + a->num_vertices, ps->pts, (size_t)ps->n * sizeof(wed_point));
  a->num_vertices += (uint32_t)ps->n;
  wed_bbox_of(ps->pts, (size_t)ps->n, &p->min_x, &p->max_x, &p->min_y, &p->max_y);
}

/* Is base cell (x, y) inside the pond? */
static int in_pond(const area_spec *s, int x, int y) {
  return s->water && x >= s->pond.x0 && x <= s->pond.x1 && y >= s->pond.y0 && y <= s->pond.y1;
}

/* Fills the overlays: the base layer (one TIS tile per cell in order,
** ANIM_FRAMES for the animated cells, a secondary tile for every door cell,
** overlay bit 1 on the pond), the water overlay or an unused one, and three
** unused overlays (0x0, no tileset), as real areas have. */
static int fill_overlays(wed_area *a, const area_spec *s) {
  wed_overlay *base, *water;
  uint32_t k, tis = 0;
  int failed = 0, d, j;
  a->num_overlays = NUM_OVERLAYS;
  a->overlays = (wed_overlay *)alloc_n(NUM_OVERLAYS, sizeof(wed_overlay), &failed);
  if (failed) return 0;
  base = &a->overlays[0];
  base->width = s->width;
  base->height = s->height;
  wed_resref_set(base->tileset, s->tileset, strlen(s->tileset));
  base->num_cells = (uint32_t)s->width * s->height;
  base->num_lookup = base->num_cells + (uint32_t)s->nanimated * (ANIM_FRAMES - 1);
  base->cells = (wed_tilecell *)alloc_n(base->num_cells, sizeof(wed_tilecell), &failed);
  base->lookup = (uint16_t *)alloc_n(base->num_lookup, sizeof(uint16_t), &failed);
  if (failed) return 0;
  for (k = 0; k < base->num_cells; k++) {
    wed_tilecell *c = &base->cells[k];
    int animated = 0, i;
    for (i = 0; i < s->nanimated; i++) animated |= s->animated[i] == k;
    c->tile_start = (uint16_t)tis;
    c->tile_count = animated ? ANIM_FRAMES : 1;
    for (i = 0; i < c->tile_count; i++, tis++) base->lookup[tis] = (uint16_t)tis;
    c->secondary_tile = WED_NO_TILE;
    c->overlay_mask = in_pond(s, (int)(k % s->width), (int)(k / s->width)) ? 0x02 : 0;
  }
  base->unique_tiles = (uint16_t)tis;
  for (d = 0; d < s->ndoors; d++)
    for (j = 0; j < s->doors[d].ncells; j++) base->cells[s->doors[d].cells[j]].secondary_tile = (uint16_t)tis++;
  if (s->water) {
    water = &a->overlays[1];
    water->width = water->height = 1;
    wed_resref_set(water->tileset, "WTWAVE", 6);
    water->unique_tiles = WATER_FRAMES;
    water->num_cells = 1;
    water->num_lookup = WATER_FRAMES;
    water->cells = (wed_tilecell *)alloc_n(1, sizeof(wed_tilecell), &failed);
    water->lookup = (uint16_t *)alloc_n(WATER_FRAMES, sizeof(uint16_t), &failed);
    if (failed) return 0;
    water->cells[0].tile_count = WATER_FRAMES;
    water->cells[0].secondary_tile = WED_NO_TILE;
    for (k = 0; k < WATER_FRAMES; k++) water->lookup[k] = (uint16_t)k;
  }
  return 1;
}

/* Fills doors, door cells, polygons (walls, then each door's open and
** closed polygons) and vertices. */
static int fill_doors_and_polygons(wed_area *a, const area_spec *s) {
  uint32_t npolys = (uint32_t)s->nwalls, nverts = 0, ncells = 0, poly;
  int failed = 0, d, j;
  for (j = 0; j < s->nwalls; j++) nverts += (uint32_t)s->walls[j].n;
  for (d = 0; d < s->ndoors; d++) {
    const door_spec *ds = &s->doors[d];
    ncells += (uint32_t)ds->ncells;
    npolys += (uint32_t)(ds->nopen + ds->nclosed);
    for (j = 0; j < ds->nopen; j++) nverts += (uint32_t)ds->open[j].n;
    for (j = 0; j < ds->nclosed; j++) nverts += (uint32_t)ds->closed[j].n;
  }
  a->doors = (wed_door *)alloc_n((size_t)s->ndoors, sizeof(wed_door), &failed);
  a->door_cells = (uint16_t *)alloc_n(ncells, sizeof(uint16_t), &failed);
  a->polygons = (wed_polygon *)alloc_n(npolys, sizeof(wed_polygon), &failed);
  a->vertices = (wed_point *)alloc_n(nverts, sizeof(wed_point), &failed);
  if (failed) return 0;
  a->num_doors = (uint32_t)s->ndoors;
  a->num_walls = (uint32_t)s->nwalls;
  a->num_polygons = a->next_uid = npolys;
  for (poly = 0; poly < a->num_walls; poly++) put_polygon(a, poly, &s->walls[poly]);
  for (d = 0; d < s->ndoors; d++) {
    const door_spec *ds = &s->doors[d];
    wed_door *dr = &a->doors[d];
    wed_resref_set(dr->name, ds->name, strlen(ds->name));
    dr->closed = ds->starts_closed;
    dr->first_cell = (uint16_t)a->num_door_cells;
    dr->cell_count = (uint16_t)ds->ncells;
    memcpy(a->door_cells + a->num_door_cells, ds->cells, (size_t)ds->ncells * sizeof(uint16_t));
    a->num_door_cells += (uint32_t)ds->ncells;
    dr->open_first = poly;
    dr->open_count = (uint16_t)ds->nopen;
    for (j = 0; j < ds->nopen; j++) put_polygon(a, poly++, &ds->open[j]);
    dr->closed_first = poly;
    dr->closed_count = (uint16_t)ds->nclosed;
    for (j = 0; j < ds->nclosed; j++) put_polygon(a, poly++, &ds->closed[j]);
  }
  return 1;
}

/* Builds one area; the wall groups come from the codec's own grid rule.
** Returns NULL (err set) on failure. */
static wed_area *build(const area_spec *s, codec_error *err) {
  wed_area *a = (wed_area *)calloc(1, sizeof *a);
  uint32_t gx, gy;
  if (!a || !fill_overlays(a, s) || !fill_doors_and_polygons(a, s)) {
    wed_free(a);
    codec_fail(err, "out of memory");
    return NULL;
  }
  wed_wallgroup_grid(a, &gx, &gy);
  a->num_wallgroups = gx * gy;
  a->wallgroups = (wed_wallgroup *)calloc(a->num_wallgroups, sizeof(wed_wallgroup));
  if (!a->wallgroups) {
    wed_free(a);
    codec_fail(err, "out of memory");
    return NULL;
  }
  if (!wed_wallgroups_regenerate(a, err) || !wed_check(a, err)) {
    wed_free(a);
    return NULL;
  }
  return a;
}

/* Reads a written area back with the codec (sample_write's check). */
static int wed_reparse(const unsigned char *data, size_t size, codec_error *err) {
  wed_area *a = NULL;
  int ok = wed_parse(data, size, &a, err);
  wed_free(a);
  return ok;
}

/* The area of spec s, built and serialized into f. */
static int build_file(const area_spec *s, sample_file *f, codec_error *err) {
  wed_area *a = build(s, err);
  int ok = a && wed_serialize(a, &f->data, &f->size, err);
  f->name = s->file;
  snprintf(f->what, sizeof f->what, "%s", s->what);
  wed_free(a);
  return ok;
}

/* Sample i: areas[i] (sample_run's build function). */
static int wed_sample(size_t i, sample_file *f, codec_error *err) {
  return build_file(&areas[i], f, err);
}

/* Fuzz seed i (sample_run's build function for --fuzz): tiny_area, then
** AR0200.WED (4 KB). */
static int wed_seed(size_t i, sample_file *f, codec_error *err) {
  return build_file(i == 0 ? &tiny_area : &areas[1], f, err);
}

int main(int argc, char **argv) {
  sample_set files = {sizeof areas / sizeof areas[0], wed_sample};
  sample_set seeds = {2, wed_seed};
  return sample_run(argc, argv, "gen_wed_samples", files, seeds, wed_reparse);
}
