/*
** render_wwd.h: a PNG of one plane of a WWD level (wwd_render in SQL).
**
** Pure C, no SQLite.  WWD files hold no graphics (the tiles' pictures are
** in the game's REZ archives), so the picture is the plane's collision
** map: each tile cell coloured by its tile property's attribute (clear:
** not drawn, solid, ground, climb, death; other values one colour), a
** "double" tile with its inside rectangle, a "mask" tile from its
** per-pixel mask; 'filled' cells light grey, invisible cells and tiles
** without a property not drawn.  Objects of the plane are square markers
** at their position, one colour per logic name (canvas_name_color).
**
** The picture is the plane's tiles at `tile` pixels per tile (each tile a
** square, whatever the tile's width and height).
*/
#ifndef LEVELSQL_RENDER_WWD_H
#define LEVELSQL_RENDER_WWD_H

#include <stddef.h>
#include <stdint.h>

#include "common/canvas.h"
#include "common/codec_error.h"
#include "common/codec_limits.h"
#include "wwd/wwd.h"

typedef struct wwd_render_opts {
  int tile;                /* pixels per tile (1..64); 0: the largest that fits `fit` */
  int fit;                 /* 2048 */
  int objects;             /* draw the object markers (1) */
  canvas_color background; /* transparent by default */
  const codec_cancel *cancel; /* NULL: none; polled per row of tiles (CODEC_E_INTERRUPT) */
} wwd_render_opts;

void wwd_render_defaults(wwd_render_opts *o);

/* The colour of a tile attribute (alpha 0 for clear): what the README's
** legend and the tests use. */
canvas_color wwd_attribute_color(int32_t attribute);

/* Renders plane `plane` into a canvas (caller frees with canvas_free) or a
** PNG (malloc'd, caller frees with free()).  Return 1, or 0 with err. */
int wwd_render_canvas(const wwd_level *lvl, uint32_t plane, const wwd_render_opts *o, canvas *out, codec_error *err);
int wwd_render_png(const wwd_level *lvl, uint32_t plane, const wwd_render_opts *o, unsigned char **png,
                   size_t *png_size, codec_error *err);

#endif
