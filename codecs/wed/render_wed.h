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
** With tiles (PNG only), the picture shows what the area looks like: the
** base overlay's tiles, each cell its first primary tile (the first frame
** of an animated cell) or, for the cells of a door drawn closed, its
** secondary tile (the closed door's graphics), decoded by the caller's
** tile function (a TIS tileset: the codec opens no file), with the shapes
** asked for drawn over them.  The overlays above the base (water and the
** like, which the game draws through the base tiles' transparent pixels)
** are not drawn.  Tiles are drawn a whole number of pixels wide: the
** scale becomes n/64 (n pixels per 64-pixel tile, at least 1), so the
** tiles meet without seams; shrunk tiles average the pixels they cover.
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

/* Decodes TIS tile `tile` into rgba (64 x 64 RGBA pixels, rows of 256
** bytes).  Returns 1, or 0 with err (a tile the tileset lacks, a page
** that cannot be read). */
typedef int (*wed_tile_fn)(void *ctx, uint32_t tile, unsigned char *rgba, codec_error *err);

typedef struct wed_render_opts {
  double scale;    /* PNG pixels per area pixel; 0: fits `fit` (at most 1) */
  int fit;         /* 2048 */
  int grid;        /* the wall-group grid and numbers (1) */
  int doors;       /* door cells and door polygons (1) */
  int walls;       /* wall polygons (1) */
  canvas_color background; /* PNG only: transparent by default */
  /* The base overlay's tiles under the shapes (PNG only): 0 none (the
  ** default), else drawn through tile(tile_ctx, ...).  doors_open: every
  ** door cell shows its primary tile (the doors open); 0 (the default):
  ** the cells of a door whose WED state says closed (wed_door.closed != 0:
  ** the state the area starts in, 1 in every real file) show their
  ** secondary tile where they have one. */
  int tiles;
  int doors_open;
  wed_tile_fn tile;
  void *tile_ctx;
  const codec_cancel *cancel; /* NULL: none; polled per polygon, per row of a polygon's fill, every few door cells,
                                 grid lines, outline edges and SVG points (CODEC_E_INTERRUPT) */
} wed_render_opts;

void wed_render_defaults(wed_render_opts *o);

/* The area's size in pixels: the base overlay's (64 per tile), grown to
** hold every vertex. */
void wed_render_extent(const wed_area *a, double *w, double *h);

/* The scale a PNG of the area is drawn at: o->scale, or fitting o->fit
** (at most 1); with tiles, rounded down to n/64 (at least 1/64). */
double wed_render_scale(const wed_area *a, const wed_render_opts *o);

/* SVG text (malloc'd, NUL-terminated; caller frees with free()).  Tiles
** are refused (CODEC_E_ARG): they are drawn in PNG only. */
int wed_render_svg(const wed_area *a, const wed_render_opts *o, char **svg, size_t *svg_size, codec_error *err);

/* A canvas (caller frees with canvas_free) or a PNG (malloc'd).  Errors:
** the picture over the canvas caps (CODEC_E_LIMIT), a tile that does not
** decode (its error, prefixed with the cell: "base overlay cell (3, 4):
** tile 620: no such tile (618 tiles)"), an interrupt. */
int wed_render_canvas(const wed_area *a, const wed_render_opts *o, canvas *out, codec_error *err);
int wed_render_png(const wed_area *a, const wed_render_opts *o, unsigned char **png, size_t *png_size,
                   codec_error *err);

/* The colours the PNG draws a class of wed_render_svg's in (fill and
** outline; alpha 0: none). */
void wed_render_class_colors(const char *cls, canvas_color *fill, canvas_color *stroke);

#endif
