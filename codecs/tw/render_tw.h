/*
** render_tw.h: a PNG preview of a Teeworlds / DDNet map (tw_render in SQL).
**
** Pure C, no SQLite.  What is drawn, in the map's order (groups, then the
** layers of each group):
**  - tile layers from their image's tileset (16 x 16 tiles; a tile is
**    image width / 16 pixels), resampled once to the preview's tile size,
**    with the tile flags (flip x = 1, flip y = 2, rotate = 8, as the game
**    applies them) and the layer colour; tiles of an external image are
**    drawn as squares of one colour per image name (tw_render_opts.external
**    may load the image instead, e.g. from a mapres folder);
**  - quads as two shaded triangles with their corner colours, textured
**    with their image (external ones again one colour unless loaded);
**  - then, with `entities`, the physics layers on top, one colour per kind
**    of tile (solid, death, unhookable, freeze, start, finish, spawns,
**    pickups; tele, speedup, switch and tune cells), see render_tw.c.
** The picture is the game layer's area (else the largest tile layer's)
** at `tile` pixels per tile.  Groups are placed as the game shows them
** from wherever the camera is: a group with parallax 100 (both ways)
** looks the same from every position and is drawn once (its offset
** applied); any other group (a sky at parallax 0, clouds, far hills) is
** drawn screen by screen, the picture cut into screens of 1430 x 804
** world units (what DDNet shows of the world at zoom 1 in a 16:9 window),
** one centred on the middle of the area, each showing the group as the
** game does with the camera at its middle.  So a sky made for one screen
** fills the whole picture, as it does wherever the player goes; the
** price is a seam between screens in groups that move (their content
** jumps where the camera would).  A map of more than 1024 screens is cut
** into cells of 2, 4, ... screens a side instead, so the work stays
** bounded (the sky then fills the middle of each).  Groups are clipped by their clip
** rectangle; envelopes are taken at time 0 (not applied).  Sound layers
** are not drawn.
**
** Damaged layers and images fail the render with the codec's message,
** naming the layer or image; sizes are checked against canvas.h's caps.
*/
#ifndef LEVELSQL_RENDER_TW_H
#define LEVELSQL_RENDER_TW_H

#include <stddef.h>

#include "common/canvas.h"
#include "common/codec_error.h"
#include "common/codec_limits.h"
#include "tw/twmap.h"

/* Loads an external image called name[0..len) into *out (RGBA, caller of
** the render frees it).  Returns 1 when loaded, 0 when there is none (the
** image is then drawn in one colour), -1 with err on a failure that must
** fail the render (a damaged file). */
typedef int (*tw_external_image_fn)(void *ctx, const char *name, size_t len, canvas *out, codec_error *err);

typedef struct tw_render_opts {
  int tile;                 /* pixels per tile (1..64); 0: the largest that fits `fit` */
  int fit;                  /* with tile 0: the picture's longer side at most this (2048) */
  int entities;             /* draw the physics layers on top (1) */
  int detail;               /* draw detail layers (1) */
  int quads;                /* draw quads layers (1) */
  const long *groups;       /* only these group indices (ngroups of them); NULL: all */
  size_t ngroups;
  const long *layers;       /* only these layer indices (tw_layers.layer_index); NULL: all */
  size_t nlayers;
  canvas_color background;  /* under everything (transparent by default) */
  tw_external_image_fn external; /* NULL: external images in one colour */
  void *external_ctx;
  const codec_cancel *cancel; /* NULL: none; polled per layer, per row of cells and while a blob inflates (CODEC_E_INTERRUPT) */
} tw_render_opts;

/* The defaults above. */
void tw_render_defaults(tw_render_opts *o);

/* Renders map m (its layers are decoded as needed) into a PNG.  Returns 1
** and *png (malloc'd, caller frees with free()), or 0 with err. */
int tw_render_png(tw_map *m, const tw_render_opts *o, unsigned char **png, size_t *png_size, codec_error *err);

/* The same into a canvas (caller frees with canvas_free), for tests and
** the fuzz harness. */
int tw_render_canvas(tw_map *m, const tw_render_opts *o, canvas *out, codec_error *err);

#endif
