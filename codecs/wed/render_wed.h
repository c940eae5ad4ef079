/*
** render_wed.h: a picture of a WED area's geometry (wed_render in SQL), as
** SVG text or as a PNG.
**
** Pure C, no SQLite.  WED files hold no pixels either (those are in the
** TIS tilesets), so the picture shows what the file defines, in area
** pixels: the 640x480 wall-group grid with each group's number, the door
** cells (the 64x64 base-overlay cells a closed door blocks), the wall
** polygons, and each door's open and closed polygons.  Polygons are
** filled with the even-odd rule (SVG fill-rule="evenodd", and
** canvas_fill_polygon), so a self-crossing outline shows its overlaps
** empty in both outputs.
**
** SVG classes, for styling or for picking elements out with an XML tool:
** grid (the lines), group (the numbers), door-cell, wall, door-open,
** door-closed; each door element has a <title> with the door's name.
*/
#ifndef LEVELSQL_RENDER_WED_H
#define LEVELSQL_RENDER_WED_H

#include <stddef.h>

#include "common/canvas.h"
#include "common/codec_error.h"
#include "common/codec_limits.h"
#include "wed/wed.h"

typedef struct wed_render_opts {
  double scale;    /* PNG pixels per area pixel; 0: fits `fit` (at most 1) */
  int fit;         /* 2048 */
  int grid;        /* the wall-group grid and numbers (1) */
  int doors;       /* door cells and door polygons (1) */
  int walls;       /* wall polygons (1) */
  canvas_color background; /* PNG only: transparent by default */
  const codec_cancel *cancel; /* NULL: none; polled per polygon, per row of a polygon's fill, every few door cells,
                                 grid lines, outline edges and SVG points (CODEC_E_INTERRUPT) */
} wed_render_opts;

void wed_render_defaults(wed_render_opts *o);

/* The area's size in pixels: the base overlay's (64 per tile), grown to
** hold every vertex. */
void wed_render_extent(const wed_area *a, double *w, double *h);

/* SVG text (malloc'd, NUL-terminated; caller frees with free()). */
int wed_render_svg(const wed_area *a, const wed_render_opts *o, char **svg, size_t *svg_size, codec_error *err);

/* A canvas (caller frees with canvas_free) or a PNG (malloc'd). */
int wed_render_canvas(const wed_area *a, const wed_render_opts *o, canvas *out, codec_error *err);
int wed_render_png(const wed_area *a, const wed_render_opts *o, unsigned char **png, size_t *png_size,
                   codec_error *err);

/* The colours the PNG draws a class of wed_render_svg's in (fill and
** outline; alpha 0: none). */
void wed_render_class_colors(const char *cls, canvas_color *fill, canvas_color *stroke);

#endif
