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

/* Where draw_area's shapes go.  `cls` is one of the classes of render_wed.h. */
typedef struct wed_backend {
  void *ctx;
  void (*begin)(void *ctx, const char *cls);
  void (*end)(void *ctx);
  void (*rect)(void *ctx, const char *cls, double x, double y, double w, double h);
  void (*line)(void *ctx, const char *cls, double x0, double y0, double x1, double y1);
  void (*label)(void *ctx, const char *cls, double x, double y, unsigned number);
  /* title: a door's name (8 bytes at most), or NULL */
  void (*polygon)(void *ctx, const char *cls, const wed_point *pts, size_t n, const unsigned char *title);
} wed_backend;

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
static void draw_polygons(const wed_area *a, const wed_backend *b, uint32_t first, uint32_t count, const char *cls,
                          const unsigned char *title) {
  uint32_t k;
  for (k = 0; k < count && first + k < a->num_polygons; k++) {
    const wed_point *pts;
    uint32_t n = wed_polygon_vertices(a, first + k, &pts);
    if (n) b->polygon(b->ctx, cls, pts, n, title);
  }
}

static void draw_area(const wed_area *a, const wed_render_opts *o, const wed_backend *b) {
  uint32_t gx, gy, i, d;
  double w, h;
  wed_render_extent(a, &w, &h);
  if (o->doors && a->num_overlays && a->overlays[0].width) {
    uint32_t ow = a->overlays[0].width;
    b->begin(b->ctx, "door-cells");
    for (d = 0; d < a->num_doors; d++) {
      const uint16_t *cells;
      uint32_t n = wed_door_cells(a, d, &cells);
      for (i = 0; i < n; i++) {
        b->rect(b->ctx, "door-cell", (double)(cells[i] % ow) * WED_CELL, (double)(cells[i] / ow) * WED_CELL, WED_CELL,
                WED_CELL);
      }
    }
    b->end(b->ctx);
  }
  if (o->grid) {
    wed_wallgroup_grid(a, &gx, &gy);
    b->begin(b->ctx, "grid");
    for (i = 0; i <= gx && i <= 4096; i++) b->line(b->ctx, "grid", i * (double)WED_GROUP_W, 0, i * (double)WED_GROUP_W, h);
    for (i = 0; i <= gy && i <= 4096; i++) b->line(b->ctx, "grid", 0, i * (double)WED_GROUP_H, w, i * (double)WED_GROUP_H);
    for (i = 0; i < gx * gy && i < 4096; i++) {
      b->label(b->ctx, "group", (i % gx) * (double)WED_GROUP_W + 6, (i / gx) * (double)WED_GROUP_H + 18, i);
    }
    b->end(b->ctx);
  }
  if (o->walls) {
    b->begin(b->ctx, "walls");
    draw_polygons(a, b, 0, a->num_walls, "wall", NULL);
    b->end(b->ctx);
  }
  if (o->doors) {
    b->begin(b->ctx, "doors");
    for (d = 0; d < a->num_doors; d++) {
      const wed_door *door = &a->doors[d];
      draw_polygons(a, b, door->open_first, door->open_count, "door-open", door->name);
      draw_polygons(a, b, door->closed_first, door->closed_count, "door-closed", door->name);
    }
    b->end(b->ctx);
  }
}

/* ---- SVG ------------------------------------------------------------------ */

static void svg_begin_group(void *ctx, const char *cls) {
  svg_printf(ctx, "<g class=\"%s\">\n", cls);
}

static void svg_end_group(void *ctx) {
  svg_printf(ctx, "</g>\n");
}

static void svg_rect(void *ctx, const char *cls, double x, double y, double w, double h) {
  svg_printf(ctx, "<rect class=\"%s\" x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\"/>\n", cls, x, y, w, h);
}

static void svg_line(void *ctx, const char *cls, double x0, double y0, double x1, double y1) {
  svg_printf(ctx, "<line class=\"%s\" x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\"/>\n", cls, x0, y0, x1, y1);
}

static void svg_label(void *ctx, const char *cls, double x, double y, unsigned number) {
  svg_printf(ctx, "<text class=\"%s\" x=\"%g\" y=\"%g\">%u</text>\n", cls, x, y, number);
}

static void svg_polygon(void *ctx, const char *cls, const wed_point *pts, size_t n, const unsigned char *title) {
  size_t i;
  svg_printf(ctx, "<polygon class=\"%s\" points=\"", cls);
  for (i = 0; i < n; i++) svg_printf(ctx, "%s%u,%u", i ? " " : "", (unsigned)pts[i].x, (unsigned)pts[i].y);
  if (title) {
    svg_printf(ctx, "\"><title>%T</title></polygon>\n", wed_resref_len(title), (const char *)title);
  } else {
    svg_printf(ctx, "\"/>\n");
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
  wed_backend b = {NULL, svg_begin_group, svg_end_group, svg_rect, svg_line, svg_label, svg_polygon};
  double w, h;
  wed_render_extent(a, &w, &h);
  svg_begin(&d, w, h, wed_css, "#f4f4f0");
  b.ctx = &d;
  draw_area(a, o, &b);
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

static void png_nothing(void *ctx, const char *cls) {
  (void)ctx;
  (void)cls;
}

static void png_end(void *ctx) {
  (void)ctx;
}

static void png_rect(void *ctx, const char *cls, double x, double y, double w, double h) {
  png_ctx *p = ctx;
  canvas_color fill, stroke;
  wed_render_class_colors(cls, &fill, &stroke);
  canvas_fill_rect(p->c, (int64_t)floor(x * p->scale), (int64_t)floor(y * p->scale), (int64_t)floor((x + w) * p->scale),
                   (int64_t)floor((y + h) * p->scale), fill);
}

static void png_line(void *ctx, const char *cls, double x0, double y0, double x1, double y1) {
  png_ctx *p = ctx;
  canvas_color fill, stroke;
  wed_render_class_colors(cls, &fill, &stroke);
  canvas_line(p->c, x0 * p->scale, y0 * p->scale, x1 * p->scale, y1 * p->scale, stroke);
}

static void png_label(void *ctx, const char *cls, double x, double y, unsigned number) {
  (void)ctx, (void)cls, (void)x, (void)y, (void)number; /* a PNG has no text */
}

static void png_polygon(void *ctx, const char *cls, const wed_point *pts, size_t n, const unsigned char *title) {
  png_ctx *p = ctx;
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
  canvas_fill_polygon(p->c, xy, n, fill);
  canvas_stroke_polygon(p->c, xy, n, stroke);
  free(xy);
}

int wed_render_canvas(const wed_area *a, const wed_render_opts *o, canvas *out, codec_error *err) {
  wed_backend b = {NULL, png_nothing, png_end, png_rect, png_line, png_label, png_polygon};
  png_ctx p;
  double w, h, scale = o->scale;
  wed_render_extent(a, &w, &h);
  if (scale <= 0) {
    scale = (o->fit > 0 ? o->fit : 2048) / (w > h ? w : h);
    if (scale > 1) scale = 1;
  }
  /* (compared as doubles first: a huge scale must not overflow the cast) */
  if (!(scale > 0 && w * scale < 1e9 && h * scale < 1e9)) {
    return codec_fail_limit(err, "area of %gx%g pixels at scale %g: the picture is too large", w, h, scale);
  }
  if (!canvas_size_ok((int64_t)ceil(w * scale), (int64_t)ceil(h * scale), "the picture", err)) {
    return codec_prefix(err, "area of %gx%g pixels at scale %g: ", w, h, scale);
  }
  if (!canvas_new(out, (int)ceil(w * scale), (int)ceil(h * scale), o->background, err)) return 0;
  p.c = out;
  p.scale = scale;
  p.failed = 0;
  b.ctx = &p;
  draw_area(a, o, &b);
  if (p.failed) {
    canvas_free(out);
    return codec_fail_oom(err, "out of memory for a polygon");
  }
  return 1;
}

int wed_render_png(const wed_area *a, const wed_render_opts *o, unsigned char **png, size_t *png_size,
                   codec_error *err) {
  canvas c;
  return wed_render_canvas(a, o, &c, err) && canvas_png_take(&c, png, png_size, err);
}
