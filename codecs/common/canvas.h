/*
** canvas.h: an RGBA picture in memory and the few drawing operations the
** level previews need (codecs/render_*.c), with PNG in and out via libpng.
**
** Pure C, no SQLite.  Pixels are 8-bit R, G, B, A in that byte order, row
** by row, with straight (not premultiplied) alpha, which is what PNG
** stores.  Drawing blends "source over": a colour of alpha a covers a/255
** of what is below.
**
** Every operation clips to the canvas and to its clip rectangle
** (canvas_clip), so a caller may hand in coordinates anywhere, even far
** outside: nothing is written out of bounds, and coordinates are clamped
** before any integer conversion.  Sizes are checked before allocation:
** at most CANVAS_MAX_SIDE pixels a side and CANVAS_MAX_PIXELS in all
** (CODEC_E_LIMIT), so a hostile file cannot make us allocate gigabytes.
**
** Ownership: canvas_new and canvas_png_decode fill a canvas whose pixels
** the caller frees with canvas_free.  canvas_png_encode's output is
** malloc'd; the caller frees it with free().  Source canvases passed to
** blits and triangles are only read.
*/
#ifndef LEVELSQL_CANVAS_H
#define LEVELSQL_CANVAS_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "common/codec_limits.h"

#define CANVAS_MAX_SIDE 16384
/* 64 MiB of RGBA pixels. */
#define CANVAS_MAX_PIXELS (16u * 1024u * 1024u)

typedef struct canvas_color {
  unsigned char r, g, b, a;
} canvas_color;

typedef struct canvas {
  int w, h;
  unsigned char *px;          /* w * h * 4 bytes, owned */
  int clip_x0, clip_y0;       /* drawing is limited to [clip_x0, clip_x1) x [clip_y0, clip_y1) */
  int clip_x1, clip_y1;
} canvas;

/* Whether a w x h canvas is within the caps; 0 with err (CODEC_E_LIMIT or,
** for a size below 1, CODEC_E_ARG) naming `what` and the limit. */
int canvas_size_ok(int64_t w, int64_t h, const char *what, codec_error *err);

/* Allocates a w x h canvas filled with `fill`, clip = the whole canvas.
** Returns 1, or 0 with err (the caps above, or out of memory). */
int canvas_new(canvas *c, int w, int h, canvas_color fill, codec_error *err);

/* Frees the pixels; the struct may be reused.  NULL pixels are fine. */
void canvas_free(canvas *c);

/* Limits drawing to [x0, x1) x [y0, y1) within the canvas;
** canvas_unclip draws on the whole canvas again. */
void canvas_clip(canvas *c, int64_t x0, int64_t y0, int64_t x1, int64_t y1);
void canvas_unclip(canvas *c);

/* The pixel at (x, y); a transparent black colour outside the canvas. */
canvas_color canvas_get(const canvas *c, int x, int y);

/* Blends `col` over the rectangle [x0, x1) x [y0, y1). */
void canvas_fill_rect(canvas *c, int64_t x0, int64_t y0, int64_t x1, int64_t y1, canvas_color col);

/* Blends the outline of that rectangle, `width` pixels thick, inside it. */
void canvas_frame_rect(canvas *c, int64_t x0, int64_t y0, int64_t x1, int64_t y1, int width, canvas_color col);

/* A one-pixel line from (x0, y0) to (x1, y1), both ends included
** (Bresenham); coordinates are pixel positions. */
void canvas_line(canvas *c, double x0, double y0, double x1, double y1, canvas_color col);

/* Fills a polygon of n points (xy: x0, y0, x1, y1, ...) with the EVEN-ODD
** rule: a pixel is filled when its centre (x + 0.5, y + 0.5) lies inside,
** i.e. a horizontal ray from it crosses the outline an odd number of
** times.  Self-intersecting outlines therefore leave their overlaps
** empty, as the WED files' polygons are drawn by Near Infinity. */
void canvas_fill_polygon(canvas *c, const double *xy, size_t n, canvas_color col);

/* The outline of that polygon (closed), one pixel wide. */
void canvas_stroke_polygon(canvas *c, const double *xy, size_t n, canvas_color col);

/* The same two, polling `cancel` (NULL: never) per row of the fill and
** every CANVAS_STROKE_POLL edges of the outline: a hostile polygon of a
** million vertices costs seconds.  Return 1 when drawn whole, 0 when
** cancel said stop (the polygon is then partly drawn). */
#define CANVAS_STROKE_POLL 64
int canvas_fill_polygon_cancel(canvas *c, const double *xy, size_t n, canvas_color col, const codec_cancel *cancel);
int canvas_stroke_polygon_cancel(canvas *c, const double *xy, size_t n, canvas_color col, const codec_cancel *cancel);

/* Tile transforms of canvas_blit, the Teeworlds tile flags: FLIP_X mirrors
** the tile left to right, FLIP_Y top to bottom, ROTATE turns it a quarter
** clockwise after the flips (as the game applies them to the texture
** coordinates: flips first, then the rotation). */
enum canvas_blit_flags { CANVAS_FLIP_X = 1, CANVAS_FLIP_Y = 2, CANVAS_ROTATE = 8 };

/* Blends the square (sx, sy, size x size) of src onto c at (dx, dy), with
** the flags above, each source pixel multiplied by `tint` (255, 255, 255,
** 255 leaves it as is).  The source square must lie inside src (else
** nothing is drawn). */
void canvas_blit(canvas *c, int64_t dx, int64_t dy, const canvas *src, int sx, int sy, int size, int flags,
                 canvas_color tint);

/* A cols x rows grid of equal cells of src (cell w = src->w / cols, h =
** src->h / rows, both at least 1) resampled so each cell becomes
** `cell` x `cell` pixels: shrinking averages the source pixels a target
** pixel covers (weighted by alpha), growing repeats the nearest.  For
** drawing a tileset at the preview's tile size once, instead of sampling
** it per tile.  Returns 1 and *out (caller frees), or 0 with err. */
int canvas_resample_grid(const canvas *src, int cols, int rows, int cell, canvas *out, codec_error *err);

/* A copy of src shrunk to fit side x side pixels, its proportions kept
** (each side at least 1 pixel), each pixel averaging the source pixels it
** covers (weighted by alpha); a src that fits is copied as it is.  For a
** preview's thumbnail.  Returns 1 and *out (caller frees), or 0 with err. */
int canvas_shrink(const canvas *src, int side, canvas *out, codec_error *err);
/* A triangle corner for canvas_fill_triangle: position in pixels, colour
** components 0..1 and texture coordinates (1 = the texture's full width
** or height; beyond that the texture repeats). */
typedef struct canvas_vertex {
  double x, y;
  double r, g, b, a;
  double u, v;
} canvas_vertex;

/* Fills the triangle whose pixel centres lie inside it, colours and
** texture coordinates interpolated across it (Gouraud), each pixel the
** interpolated colour times the texel (nearest) of tex, or the colour
** alone when tex is NULL. */
void canvas_fill_triangle(canvas *c, const canvas_vertex v[3], const canvas *tex);

/* A canvas over RGB or RGBA pixel bytes (channels 3 or 4) of w x h, copied
** (RGB gets alpha 255).  Returns 1, or 0 with err when size is not w*h*
** channels or the caps are exceeded. */
int canvas_from_pixels(canvas *c, int w, int h, int channels, const unsigned char *px, size_t size,
                       codec_error *err);

/* Encodes the canvas as an 8-bit RGBA PNG (libpng, fast compression).
** Returns 1 and *out (malloc'd, caller frees with free()), or 0 with err. */
int canvas_png_encode(const canvas *c, unsigned char **out, size_t *out_size, codec_error *err);

/* canvas_png_encode, then frees the canvas (whether encoding worked or
** not): the last step of a render. */
int canvas_png_take(canvas *c, unsigned char **out, size_t *out_size, codec_error *err);

/* Decodes a PNG of any colour type into an RGBA canvas (caller frees with
** canvas_free).  The header's size is checked against the caps before any
** pixel memory is allocated.  Returns 1, or 0 with err (CODEC_E_FORMAT for
** what libpng refuses, CODEC_E_LIMIT for a size over the caps). */
int canvas_png_decode(const unsigned char *data, size_t size, canvas *c, codec_error *err);

/* A colour of its own for a name (an image name, an object logic): the
** same name always gets the same colour, medium bright and saturated, of
** alpha `alpha`, so markers of different names tell apart. */
canvas_color canvas_name_color(const char *name, size_t len, unsigned char alpha);

/* A colour from "RRGGBB", "RRGGBBAA" (hex, an optional leading '#') or
** "none" (transparent).  Returns 1, or 0 when the text is neither. */
int canvas_color_parse(const char *text, canvas_color *out);

#endif
