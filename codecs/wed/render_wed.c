/*
** render_wed.c: the WED area picture of render_wed.h.  One walk over the
** area (draw_area) emits rectangles, polygons, lines and labels through a
** small backend interface, so the SVG and the PNG show the same shapes.
*/
#include "wed/render_wed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/svg.h"

#define WED_CELL 64 /* pixels per base-overlay tile */

/* How many door cells or grid lines are drawn between two polls of the
** cancel, and how many vertices of one SVG polygon are written. */
#define WED_POLL_SHAPES 64
#define WED_POLL_VERTICES 4096

/* Where draw_area's shapes go.  `cls` is one of the classes of render_wed.h.
** `cancel` (NULL: never) is polled by draw_area between shapes and by the
** callbacks inside a long one (a polygon of many vertices); `stopped`
** remembers that it said stop (wed_stopped). */
typedef struct wed_backend wed_backend;
struct wed_backend {
  void *ctx;
  void (*begin)(wed_backend *b, const char *cls);
  void (*end)(wed_backend *b);
  void (*rect)(wed_backend *b, const char *cls, double x, double y, double w, double h);
  void (*line)(wed_backend *b, const char *cls, double x0, double y0, double x1, double y1);
  void (*label)(wed_backend *b, const char *cls, double x, double y, unsigned number);
  /* title: a door's name (8 bytes at most), or NULL */
  void (*polygon)(wed_backend *b, const char *cls, const wed_point *pts, size_t n, const unsigned char *title);
  const codec_cancel *cancel;
  int stopped;
};

/* Whether the render must stop: the cancel said so, now or before (it is
** asked again only while it has not). */
static int wed_stopped(wed_backend *b) {
  if (!b->stopped && codec_cancelled(b->cancel)) b->stopped = 1;
  return b->stopped;
}

void wed_render_defaults(wed_render_opts *o) {
  memset(o, 0, sizeof *o);
  o->fit = 2048;
  o->grid = o->doors = o->walls = 1;
}

void wed_render_extent(const wed_area *a, double *w, double *h) {
  uint32_t i;
  *w = *h = 0;
  if (a->num_overlays) *w = a->overlays[0].width * (double)WED_CELL, *h = a->overlays[0].height * (double)WED_CELL;
  for (i = 0; i < a->num_vertices; i++) {
    if (a->vertices[i].x + 1.0 > *w) *w = a->vertices[i].x + 1.0;
    if (a->vertices[i].y + 1.0 > *h) *h = a->vertices[i].y + 1.0;
  }
  if (*w < WED_CELL) *w = WED_CELL;
  if (*h < WED_CELL) *h = WED_CELL;
}

/* The polygons of one kind (walls, or a door's open or closed state). */
/* The polygons of one kind (walls, or a door's open or closed state),
** polling the cancel before each. */
static void draw_polygons(const wed_area *a, wed_backend *b, uint32_t first, uint32_t count, const char *cls,
                          const unsigned char *title) {
  uint32_t k;
  for (k = 0; k < count && first + k < a->num_polygons && !wed_stopped(b); k++) {
    const wed_point *pts;
    uint32_t n = wed_polygon_vertices(a, first + k, &pts);
    if (n) b->polygon(b, cls, pts, n, title);
  }
}

/* The door cells: one base-overlay cell (64 x 64) per cell a closed door
** blocks; the cancel is polled every WED_POLL_SHAPES cells (a door may
** list 65,535, each 256 x 256 pixels at scale 4). */
static void draw_door_cells(const wed_area *a, wed_backend *b) {
  uint32_t ow = a->overlays[0].width, d, i;
  b->begin(b, "door-cells");
  for (d = 0; d < a->num_doors && !b->stopped; d++) {
    const uint16_t *cells;
    uint32_t n = wed_door_cells(a, d, &cells);
    for (i = 0; i < n; i++) {
      if (i % WED_POLL_SHAPES == 0 && wed_stopped(b)) break;
      b->rect(b, "door-cell", (double)(cells[i] % ow) * WED_CELL, (double)(cells[i] / ow) * WED_CELL, WED_CELL,
              WED_CELL);
    }
  }
  b->end(b);
}

/* The wall-group grid over the w x h area and each group's number (at most
** 4096 lines each way and 4096 numbers), polling the cancel every
** WED_POLL_SHAPES lines. */
static void draw_grid(const wed_area *a, double w, double h, wed_backend *b) {
  uint32_t gx, gy, i;
  wed_wallgroup_grid(a, &gx, &gy);
  b->begin(b, "grid");
  for (i = 0; i <= gx && i <= 4096 && !(i % WED_POLL_SHAPES == 0 && wed_stopped(b)); i++) {
    b->line(b, "grid", i * (double)WED_GROUP_W, 0, i * (double)WED_GROUP_W, h);
  }
  for (i = 0; i <= gy && i <= 4096 && !(i % WED_POLL_SHAPES == 0 && wed_stopped(b)); i++) {
    b->line(b, "grid", 0, i * (double)WED_GROUP_H, w, i * (double)WED_GROUP_H);
  }
  for (i = 0; i < gx * gy && i < 4096 && !b->stopped; i++) {
    b->label(b, "group", (i % gx) * (double)WED_GROUP_W + 6, (i / gx) * (double)WED_GROUP_H + 18, i);
  }
  b->end(b);
}

/* The whole picture through backend b, in the order of render_wed.h.  When
** b's cancel says stop, the walk ends early with b->stopped set (the
** callers then fail with CODEC_E_INTERRUPT). */
static void draw_area(const wed_area *a, const wed_render_opts *o, wed_backend *b) {
  uint32_t d;
  double w, h;
  wed_render_extent(a, &w, &h);
  if (o->doors && a->num_overlays && a->overlays[0].width) draw_door_cells(a, b);
  if (o->grid && !b->stopped) draw_grid(a, w, h, b);
  if (o->walls && !b->stopped) {
    b->begin(b, "walls");
    draw_polygons(a, b, 0, a->num_walls, "wall", NULL);
    b->end(b);
  }
  if (o->doors && !b->stopped) {
    b->begin(b, "doors");
    for (d = 0; d < a->num_doors && !b->stopped; d++) {
      const wed_door *door = &a->doors[d];
      draw_polygons(a, b, door->open_first, door->open_count, "door-open", door->name);
      draw_polygons(a, b, door->closed_first, door->closed_count, "door-closed", door->name);
    }
    b->end(b);
  }
}

/* ---- SVG ------------------------------------------------------------------ */

static void svg_begin_group(wed_backend *b, const char *cls) {
  svg_printf(b->ctx, "<g class=\"%s\">\n", cls);
}

static void svg_end_group(wed_backend *b) {
  svg_printf(b->ctx, "</g>\n");
}

static void svg_rect(wed_backend *b, const char *cls, double x, double y, double w, double h) {
  svg_printf(b->ctx, "<rect class=\"%s\" x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\"/>\n", cls, x, y, w, h);
}

static void svg_line(wed_backend *b, const char *cls, double x0, double y0, double x1, double y1) {
  svg_printf(b->ctx, "<line class=\"%s\" x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\"/>\n", cls, x0, y0, x1, y1);
}

static void svg_label(wed_backend *b, const char *cls, double x, double y, unsigned number) {
  svg_printf(b->ctx, "<text class=\"%s\" x=\"%g\" y=\"%g\">%u</text>\n", cls, x, y, number);
}

/* A <polygon> with its points; the cancel is polled every
** WED_POLL_VERTICES points (an unfinished document is discarded). */
static void svg_polygon(wed_backend *b, const char *cls, const wed_point *pts, size_t n, const unsigned char *title) {
  size_t i;
  svg_printf(b->ctx, "<polygon class=\"%s\" points=\"", cls);
  for (i = 0; i < n; i++) {
    if (i % WED_POLL_VERTICES == WED_POLL_VERTICES - 1 && wed_stopped(b)) return;
    svg_printf(b->ctx, "%s%u,%u", i ? " " : "", (unsigned)pts[i].x, (unsigned)pts[i].y);
  }
  if (title) {
    svg_printf(b->ctx, "\"><title>%T</title></polygon>\n", wed_resref_len(title), (const char *)title);
  } else {
    svg_printf(b->ctx, "\"/>\n");
  }
}

static const char wed_css[] =
  "polygon{fill-rule:evenodd;stroke-width:2}"
  ".wall{fill:rgba(40,90,200,0.35);stroke:#2050c0}"
  ".door-open{fill:rgba(40,170,70,0.15);stroke:#20a040;stroke-dasharray:8 4}"
  ".door-closed{fill:rgba(200,40,40,0.3);stroke:#c02020}"
  ".door-cell{fill:rgba(255,160,0,0.35)}"
  ".grid{stroke:#909090;stroke-width:1}"
  ".group{font:14px sans-serif;fill:#707070}";

int wed_render_svg(const wed_area *a, const wed_render_opts *o, char **svg, size_t *svg_size, codec_error *err) {
  svg_doc d;
  wed_backend b = {NULL, svg_begin_group, svg_end_group, svg_rect, svg_line, svg_label, svg_polygon, NULL, 0};
  double w, h;
  *svg = NULL;
  if (o->tiles) return codec_fail_arg(err, "tiles are drawn in a PNG only");
  wed_render_extent(a, &w, &h);
  svg_begin(&d, w, h, wed_css, "#f4f4f0");
  b.ctx = &d;
  b.cancel = o->cancel;
  draw_area(a, o, &b);
  if (b.stopped) {
    svg_discard(&d);
    return codec_fail_interrupted(err);
  }
  if (!(*svg = svg_finish(&d, svg_size))) return codec_fail_oom(err, "out of memory for the SVG");
  return 1;
}

/* ---- PNG ------------------------------------------------------------------ */

void wed_render_class_colors(const char *cls, canvas_color *fill, canvas_color *stroke) {
  static const struct {
    const char *cls;
    canvas_color fill, stroke;
  } colors[] = {
    {"wall", {40, 90, 200, 90}, {32, 80, 192, 255}},
    {"door-open", {40, 170, 70, 40}, {32, 160, 64, 255}},
    {"door-closed", {200, 40, 40, 77}, {192, 32, 32, 255}},
    {"door-cell", {255, 160, 0, 90}, {0, 0, 0, 0}},
    {"grid", {0, 0, 0, 0}, {144, 144, 144, 255}},
  };
  size_t i;
  memset(fill, 0, sizeof *fill);
  memset(stroke, 0, sizeof *stroke);
  for (i = 0; i < sizeof colors / sizeof colors[0]; i++) {
    if (strcmp(colors[i].cls, cls) == 0) {
      *fill = colors[i].fill;
      *stroke = colors[i].stroke;
    }
  }
}

typedef struct png_ctx {
  canvas *c;
  double scale;
  int failed; /* out of memory for a polygon's points */
} png_ctx;

static void png_nothing(wed_backend *b, const char *cls) {
  (void)b;
  (void)cls;
}

static void png_end(wed_backend *b) {
  (void)b;
}

static void png_rect(wed_backend *b, const char *cls, double x, double y, double w, double h) {
  png_ctx *p = b->ctx;
  canvas_color fill, stroke;
  wed_render_class_colors(cls, &fill, &stroke);
  canvas_fill_rect(p->c, (int64_t)floor(x * p->scale), (int64_t)floor(y * p->scale), (int64_t)floor((x + w) * p->scale),
                   (int64_t)floor((y + h) * p->scale), fill);
}

static void png_line(wed_backend *b, const char *cls, double x0, double y0, double x1, double y1) {
  png_ctx *p = b->ctx;
  canvas_color fill, stroke;
  wed_render_class_colors(cls, &fill, &stroke);
  canvas_line(p->c, x0 * p->scale, y0 * p->scale, x1 * p->scale, y1 * p->scale, stroke);
}

static void png_label(wed_backend *b, const char *cls, double x, double y, unsigned number) {
  (void)b, (void)cls, (void)x, (void)y, (void)number; /* a PNG has no text */
}

/* A filled and outlined polygon, scaled; the fill polls the cancel per
** row and the outline every few edges (b->stopped when it said stop). */
static void png_polygon(wed_backend *b, const char *cls, const wed_point *pts, size_t n, const unsigned char *title) {
  png_ctx *p = b->ctx;
  canvas_color fill, stroke;
  double *xy = malloc(2 * n * sizeof *xy);
  size_t i;
  (void)title;
  if (!xy) {
    p->failed = 1;
    return;
  }
  wed_render_class_colors(cls, &fill, &stroke);
  for (i = 0; i < n; i++) xy[2 * i] = pts[i].x * p->scale, xy[2 * i + 1] = pts[i].y * p->scale;
  if (!canvas_fill_polygon_cancel(p->c, xy, n, fill, b->cancel) ||
      !canvas_stroke_polygon_cancel(p->c, xy, n, stroke, b->cancel)) {
    b->stopped = 1;
  }
  free(xy);
}

double wed_render_scale(const wed_area *a, const wed_render_opts *o) {
  double w, h, scale = o->scale;
  wed_render_extent(a, &w, &h);
  if (scale <= 0) {
    scale = (o->fit > 0 ? o->fit : 2048) / (w > h ? w : h);
    if (scale > 1) scale = 1;
  }
  if (o->tiles && scale > 0 && scale < 1e9) {
    scale = floor(scale * WED_CELL) / WED_CELL;
    if (scale < 1.0 / WED_CELL) scale = 1.0 / WED_CELL;
  }
  return scale;
}

/* The tile cell c of the base overlay shows: its secondary tile when
** door_closed[c] says a closed door covers it and it has one, else the
** first of its primary tiles.  0 when it shows none (no frame, a run
** outside the lookup table). */
static int cell_tile(const wed_overlay *base, uint32_t c, const unsigned char *door_closed, uint32_t *tile) {
  const wed_tilecell *cell = &base->cells[c];
  if (door_closed && door_closed[c] && cell->secondary_tile != WED_NO_TILE) {
    *tile = cell->secondary_tile;
    return 1;
  }
  if (!cell->tile_count || cell->tile_start >= base->num_lookup) return 0;
  *tile = base->lookup[cell->tile_start];
  return 1;
}

/* Marks the base-overlay cells of the doors drawn closed (their WED state
** is closed and o->doors_open is 0); NULL with *none when no cell is, or
** when out of memory (*none 0). */
static unsigned char *closed_door_cells(const wed_area *a, const wed_render_opts *o, int *none) {
  uint32_t n = a->overlays[0].num_cells, d, i;
  unsigned char *marks = NULL;
  *none = 1;
  for (d = 0; d < a->num_doors && !o->doors_open; d++) {
    const uint16_t *cells;
    uint32_t k = a->doors[d].closed ? wed_door_cells(a, d, &cells) : 0;
    for (i = 0; i < k; i++) {
      if (cells[i] >= n) continue;
      if (!marks && !(marks = (unsigned char *)calloc(n, 1))) return *none = 0, NULL;
      marks[cells[i]] = 1;
    }
  }
  return marks;
}

/* Draws the tile t of cell (x, y), decoded into `tile`, as a cell x cell
** square (resampled unless cell is 64).  Returns 1, or 0 with err. */
static int blit_tile(canvas *out, const canvas *tile, uint32_t x, uint32_t y, int cell, codec_error *err) {
  canvas_color plain = {255, 255, 255, 255};
  canvas small;
  if (cell == WED_CELL) {
    canvas_blit(out, (int64_t)x * cell, (int64_t)y * cell, tile, 0, 0, WED_CELL, 0, plain);
    return 1;
  }
  if (!canvas_resample_grid(tile, 1, 1, cell, &small, err)) return 0;
  canvas_blit(out, (int64_t)x * cell, (int64_t)y * cell, &small, 0, 0, cell, 0, plain);
  canvas_free(&small);
  return 1;
}

/* The base overlay's tiles, cell after cell, each `cell` pixels wide,
** polling the cancel before each.  Returns 1, or 0 with err (a tile that
** does not decode, named with its cell; an interrupt). */
static int draw_tiles(const wed_area *a, const wed_render_opts *o, canvas *out, int cell, codec_error *err) {
  const wed_overlay *base = &a->overlays[0];
  unsigned char *rgba = (unsigned char *)malloc(WED_CELL * WED_CELL * 4), *closed;
  canvas tile = {.w = WED_CELL, .h = WED_CELL, .px = rgba, .clip_x1 = WED_CELL, .clip_y1 = WED_CELL};
  uint32_t c, t;
  int ok = 1, none;
  if (!rgba) return codec_fail_oom(err, "out of memory for a tile");
  closed = closed_door_cells(a, o, &none);
  if (!closed && !none) ok = codec_fail_oom(err, "out of memory for the door cells");
  for (c = 0; ok && base->width && c < base->num_cells; c++) {
    uint32_t x = c % base->width, y = c / base->width;
    if (codec_cancelled(o->cancel)) ok = codec_fail_interrupted(err);
    else if (!cell_tile(base, c, closed, &t)) continue;
    else if (!o->tile(o->tile_ctx, t, rgba, err)) ok = codec_prefix(err, "base overlay cell (%u, %u): ", x, y);
    else ok = blit_tile(out, &tile, x, y, cell, err);
  }
  free(closed);
  free(rgba);
  return ok;
}

int wed_render_canvas(const wed_area *a, const wed_render_opts *o, canvas *out, codec_error *err) {
  wed_backend b = {NULL, png_nothing, png_end, png_rect, png_line, png_label, png_polygon, NULL, 0};
  png_ctx p;
  double w, h, scale = wed_render_scale(a, o);
  wed_render_extent(a, &w, &h);
  /* (compared as doubles first: a huge scale must not overflow the cast) */
  if (!(scale > 0 && w * scale < 1e9 && h * scale < 1e9)) {
    return codec_fail_limit(err, "area of %gx%g pixels at scale %g: the picture is too large", w, h, scale);
  }
  if (!canvas_size_ok((int64_t)ceil(w * scale), (int64_t)ceil(h * scale), "the picture", err)) {
    return codec_prefix(err, "area of %gx%g pixels at scale %g: ", w, h, scale);
  }
  if (o->tiles && !o->tile) return codec_fail_arg(err, "tiles asked for without a tile function");
  if (!canvas_new(out, (int)ceil(w * scale), (int)ceil(h * scale), o->background, err)) return 0;
  if (o->tiles && a->num_overlays && !draw_tiles(a, o, out, (int)lround(scale * WED_CELL), err)) {
    canvas_free(out);
    return 0;
  }
  p.c = out;
  p.scale = scale;
  p.failed = 0;
  b.ctx = &p;
  b.cancel = o->cancel;
  draw_area(a, o, &b);
  if (p.failed || b.stopped) {
    canvas_free(out);
    return b.stopped ? codec_fail_interrupted(err) : codec_fail_oom(err, "out of memory for a polygon");
  }
  return 1;
}

int wed_render_png(const wed_area *a, const wed_render_opts *o, unsigned char **png, size_t *png_size,
                   codec_error *err) {
  canvas c;
  return wed_render_canvas(a, o, &c, err) && canvas_png_take(&c, png, png_size, err);
}
