/*
** render_tw.c: the Teeworlds / DDNet map preview of render_tw.h.
**
** One pass over the groups and their layers into a canvas.  Images are
** prepared once per render, when a layer first needs them: the pixels of
** an embedded image (raw RGBA, or RGB for 0.7 images of format 0, as the
** map stores them), its tileset resampled to the tile size, or the one
** colour that stands for an external image nobody loaded.
*/
#include "tw/render_tw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TW_WORLD_TILE 32 /* world units (pixels in the game) per tile */
/* What one screen of the game shows, in world units: DDNet's
** CalcScreenParams at zoom 1 for a 16:9 window (1150 x 1000 units of area,
** at most 1500 x 1050): 1430 x 804. */
#define TW_SCREEN_W 1430.0
#define TW_SCREEN_H 804.0
/* The most screens a group is drawn in (draw_group): a 33 x 31 grid. */
#define TW_MAX_SCREENS 1024

/* What a layer draws with: an image prepared on first use. */
typedef struct image_slot {
  int state;       /* 0: not prepared, 1: pixels, 2: one colour (external, not loaded) */
  canvas pixels;   /* the whole image (state 1) */
  canvas tileset;  /* the 16 x 16 tiles at the tile size (state 1, made on first tile use) */
  canvas_color flat;
} image_slot;

typedef struct tw_painter {
  tw_map *m;
  const tw_render_opts *o;
  canvas c;
  int ts;                 /* pixels per tile */
  double centre_x, centre_y; /* the middle of the map, in world units */
  image_slot *images;     /* m->num_images */
  codec_error *err;
} tw_painter;

void tw_render_defaults(tw_render_opts *o) {
  memset(o, 0, sizeof *o);
  o->fit = 2048;
  o->entities = 1;
  o->detail = 1;
  o->quads = 1;
}

static int listed(const long *list, size_t n, long v) {
  size_t i;
  if (!list) return 1;
  for (i = 0; i < n; i++)
    if (list[i] == v) return 1;
  return 0;
}

static unsigned char clamp_byte(int v) {
  return (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Prepares image i (pixels or one colour).  Returns 1, or 0 with err. */
static int image_prepare(tw_painter *p, size_t i) {
  image_slot *s = &p->images[i];
  tw_image_info info;
  if (s->state) return 1;
  if (!tw_image_get(p->m, i, &info, p->err)) return codec_prefix(p->err, "image %zu: ", i);
  s->flat = canvas_name_color(info.name.p ? info.name.p : "", info.name.n, 255);
  s->state = 2;
  if (info.external || info.data_index < 0) {
    int got = p->o->external && info.name.p ? p->o->external(p->o->external_ctx, info.name.p, info.name.n, &s->pixels, p->err) : 0;
    if (got < 0) return codec_prefix(p->err, "image %zu (external '%.*s'): ", i, (int)(info.name.n > 64 ? 64 : info.name.n), info.name.p);
    if (got > 0) s->state = 1;
    return 1;
  }
  {
    /* a copy (df_data_copy): drawing leaves the map's pixels compressed */
    unsigned char *data;
    size_t size;
    int ok = df_data_copy(p->m->df, (size_t)info.data_index, &data, &size, p->err) &&
             canvas_from_pixels(&s->pixels, info.width, info.height, info.format == 0 ? 3 : 4, data, size, p->err);
    free(data);
    if (!ok) return codec_prefix(p->err, "image %zu: ", i);
  }
  s->state = 1;
  return 1;
}

/* Sets *set to the tileset of image i at the tile size, or NULL when the
** image is drawn without one (one colour; or smaller than 16 x 16 pixels,
** when each tile is the image's nearest pixel).  Returns 0 with err when
** resampling fails. */
static int image_tileset(tw_painter *p, size_t i, const canvas **set) {
  image_slot *s = &p->images[i];
  *set = NULL;
  if (s->state != 1 || s->pixels.w < 16 || s->pixels.h < 16) return 1;
  if (!s->tileset.px && !canvas_resample_grid(&s->pixels, 16, 16, p->ts, &s->tileset, p->err)) return 0;
  *set = &s->tileset;
  return 1;
}

/* The one colour tile `id` of image slot s is drawn in when it has no
** tileset, times the layer's colour. */
static canvas_color tile_color(const image_slot *s, int id, canvas_color tint) {
  canvas_color c = {255, 255, 255, 255};
  if (s && s->state == 1) c = canvas_get(&s->pixels, (id % 16) * s->pixels.w / 16, (id / 16) * s->pixels.h / 16);
  else if (s) c = s->flat;
  c.r = (unsigned char)(c.r * tint.r / 255), c.g = (unsigned char)(c.g * tint.g / 255);
  c.b = (unsigned char)(c.b * tint.b / 255), c.a = (unsigned char)(c.a * tint.a / 255);
  return c;
}

/* Where the group's contents go: the shift (in canvas pixels) that shows
** the group as the game does with the camera at (cam_x, cam_y), in world
** units: a point of the group at g shows at the world position where the
** main layers show g + cam * (100 - parallax) / 100 - offset. */
static void group_shift(const tw_painter *p, const tw_group_info *g, double cam_x, double cam_y, int64_t *sx,
                        int64_t *sy) {
  double wx = cam_x * (100.0 - g->parallax_x) / 100.0 - g->offset_x;
  double wy = cam_y * (100.0 - g->parallax_y) / 100.0 - g->offset_y;
  /* damaged parallax values: far outside is far enough (and fits an int64) */
  wx = wx < -1e12 ? -1e12 : wx > 1e12 ? 1e12 : wx;
  wy = wy < -1e12 ? -1e12 : wy > 1e12 ? 1e12 : wy;
  *sx = (int64_t)floor(wx * p->ts / TW_WORLD_TILE + 0.5);
  *sy = (int64_t)floor(wy * p->ts / TW_WORLD_TILE + 0.5);
}

/* The cells [x0, x1) x [y0, y1) of a w x h layer shifted by (sx, sy) that
** can show within the canvas's clip rectangle. */
static void visible_cells(const tw_painter *p, int w, int h, int64_t sx, int64_t sy, int *x0, int *y0, int *x1,
                          int *y1) {
  int64_t a = (p->c.clip_x0 - sx) / p->ts - 1, b = (p->c.clip_x1 - sx) / p->ts + 1;
  int64_t c = (p->c.clip_y0 - sy) / p->ts - 1, d = (p->c.clip_y1 - sy) / p->ts + 1;
  *x0 = (int)(a < 0 ? 0 : a > w ? w : a), *x1 = (int)(b < 0 ? 0 : b > w ? w : b);
  *y0 = (int)(c < 0 ? 0 : c > h ? h : c), *y1 = (int)(d < 0 ? 0 : d > h ? h : d);
}

/* What one cell of a layer is drawn as, at (dx, dy). */
typedef void (*cell_painter)(tw_painter *p, const tw_layer_info *info, const tw_tile *t, int64_t dx, int64_t dy,
                             const void *ctx);

/* Calls paint for each cell of layer l (shifted by sx, sy) that can show
** on the canvas.  Returns 0 with err when the layer's cells cannot be
** read. */
static int each_visible_cell(tw_painter *p, size_t l, const tw_layer_info *info, int64_t sx, int64_t sy,
                             cell_painter paint, const void *ctx) {
  int x, y, x0, y0, x1, y1;
  visible_cells(p, info->width, info->height, sx, sy, &x0, &y0, &x1, &y1);
  for (y = y0; y < y1; y++) {
    if (codec_cancelled(p->o->cancel)) return codec_fail_interrupted(p->err);
    for (x = x0; x < x1; x++) {
      tw_tile t;
      if (!tw_tile_get(p->m, l, x, y, &t, p->err)) return 0;
      paint(p, info, &t, sx + (int64_t)x * p->ts, sy + (int64_t)y * p->ts, ctx);
    }
  }
  return 1;
}

/* How a tiles layer draws: its image's tileset (or slot's colours when it
** has none) and the layer colour. */
typedef struct tile_look {
  const canvas *set;
  const image_slot *slot;
  canvas_color tint;
} tile_look;

static void paint_tile(tw_painter *p, const tw_layer_info *info, const tw_tile *t, int64_t dx, int64_t dy,
                       const void *ctx) {
  const tile_look *look = ctx;
  (void)info;
  if (t->id == 0) return;
  if (look->set) {
    canvas_blit(&p->c, dx, dy, look->set, (t->id % 16) * p->ts, (t->id / 16) * p->ts, p->ts,
                t->flags & (CANVAS_FLIP_X | CANVAS_FLIP_Y | CANVAS_ROTATE), look->tint);
  } else {
    canvas_fill_rect(&p->c, dx, dy, dx + p->ts, dy + p->ts, tile_color(look->slot, t->id, look->tint));
  }
}

/* A tiles layer: each non-empty cell from the tileset, flags and colour
** applied. */
static int draw_tiles(tw_painter *p, size_t l, const tw_layer_info *info, int64_t sx, int64_t sy) {
  tile_look look;
  look.tint.r = clamp_byte(info->color[0]), look.tint.g = clamp_byte(info->color[1]);
  look.tint.b = clamp_byte(info->color[2]), look.tint.a = clamp_byte(info->color[3]);
  look.set = NULL;
  look.slot = NULL;
  if (info->image >= 0 && (size_t)info->image < p->m->num_images) {
    if (!image_prepare(p, (size_t)info->image) || !image_tileset(p, (size_t)info->image, &look.set)) return 0;
    look.slot = &p->images[info->image];
  }
  return each_visible_cell(p, l, info, sx, sy, paint_tile, &look);
}

/* A quads layer: each quad as the triangles (0, 1, 2) and (1, 3, 2) of its
** corners (top-left, top-right, bottom-left, bottom-right). */
static int draw_quads(tw_painter *p, size_t l, const tw_layer_info *info, int64_t sx, int64_t sy) {
  const canvas *tex = NULL;
  canvas_color flat = {255, 255, 255, 255};
  double scale = (double)p->ts / (TW_WORLD_TILE * 1024.0); /* points are 1/1024 world units */
  size_t q;
  static const int tri[2][3] = {{0, 1, 2}, {1, 3, 2}};
  if (info->image >= 0 && (size_t)info->image < p->m->num_images) {
    if (!image_prepare(p, (size_t)info->image)) return 0;
    if (p->images[info->image].state == 1) tex = &p->images[info->image].pixels;
    else flat = p->images[info->image].flat;
  }
  for (q = 0; q < p->m->layers[l].count; q++) {
    tw_quad quad;
    if (q % 256 == 0 && codec_cancelled(p->o->cancel)) return codec_fail_interrupted(p->err);
    int t, k;
    if (!tw_quad_get(p->m, l, q, &quad, p->err)) return 0;
    for (t = 0; t < 2; t++) {
      canvas_vertex v[3];
      for (k = 0; k < 3; k++) {
        int corner = tri[t][k];
        v[k].x = quad.points[corner][0] * scale + (double)sx;
        v[k].y = quad.points[corner][1] * scale + (double)sy;
        v[k].r = quad.colors[corner][0] / 255.0 * flat.r / 255.0;
        v[k].g = quad.colors[corner][1] / 255.0 * flat.g / 255.0;
        v[k].b = quad.colors[corner][2] / 255.0 * flat.b / 255.0;
        v[k].a = quad.colors[corner][3] / 255.0;
        v[k].u = quad.tex[corner][0] / 1024.0;
        v[k].v = quad.tex[corner][1] / 1024.0;
      }
      canvas_fill_triangle(&p->c, v, tex);
    }
  }
  return 1;
}

/* The colour of a physics cell in the entity overlay (alpha 0: not drawn).
** Game and front layers by tile index (DDNet's numbers); the other kinds
** one colour each for any non-empty cell. */
static canvas_color entity_color(tw_kind kind, const tw_tile *t) {
  canvas_color none = {0, 0, 0, 0};
  canvas_color c = {200, 60, 200, 170}; /* any other index: magenta */
  if (t->id == 0) return none;
  switch (kind) {
    case TW_KIND_TELE: c.r = 150, c.g = 80, c.b = 255, c.a = 190; return c;
    case TW_KIND_SPEEDUP: c.r = 255, c.g = 150, c.b = 0, c.a = 190; return c;
    case TW_KIND_SWITCH: c.r = 0, c.g = 200, c.b = 200, c.a = 190; return c;
    case TW_KIND_TUNE: c.r = 120, c.g = 230, c.b = 120, c.a = 140; return c;
    default: break;
  }
  switch (t->id) {
    case 1: c.r = 70, c.g = 70, c.b = 70, c.a = 230; break;     /* solid, hookable */
    case 2: c.r = 220, c.g = 30, c.b = 30, c.a = 230; break;    /* death */
    case 3: c.r = 175, c.g = 175, c.b = 210, c.a = 230; break;  /* unhookable */
    case 4: c.r = 130, c.g = 130, c.b = 130, c.a = 170; break;  /* hook through */
    case 9: case 12: c.r = 20, c.g = 20, c.b = 90, c.a = 200; break; /* freeze, deep freeze */
    case 11: case 13: c.r = 225, c.g = 225, c.b = 255, c.a = 200; break; /* unfreeze, undeep */
    case 33: c.r = 40, c.g = 200, c.b = 40, c.a = 230; break;   /* start */
    case 34: c.r = 250, c.g = 200, c.b = 40, c.a = 230; break;  /* finish */
    case 192: c.r = 0, c.g = 255, c.b = 128, c.a = 255; break;  /* spawn */
    case 193: c.r = 255, c.g = 90, c.b = 160, c.a = 255; break; /* red spawn */
    case 194: c.r = 90, c.g = 160, c.b = 255, c.a = 255; break; /* blue spawn */
    default:
      if (t->id >= 195 && t->id <= 215) c.r = 255, c.g = 220, c.b = 0, c.a = 255; /* pickups */
      break;
  }
  return c;
}

static void paint_entity(tw_painter *p, const tw_layer_info *info, const tw_tile *t, int64_t dx, int64_t dy,
                         const void *ctx) {
  (void)ctx;
  canvas_fill_rect(&p->c, dx, dy, dx + p->ts, dy + p->ts, entity_color(info->kind, t));
}

static int is_physics(tw_kind k) {
  return k >= TW_KIND_GAME && k <= TW_KIND_TUNE;
}

/* Draws the layers of group g the options select, shifted by (sx, sy):
** pass 0 the tiles and quads, pass 1 the physics layers. */
static int draw_group_layers(tw_painter *p, size_t g, int pass, int64_t sx, int64_t sy) {
  size_t l;
  for (l = 0; l < p->m->num_layers; l++) {
    tw_layer_info info;
    int ok = 1;
    if (p->m->layers[l].group != (long)g || !listed(p->o->layers, p->o->nlayers, (long)l)) continue;
    if (!tw_layer_get(p->m, l, &info, p->err)) return codec_prefix(p->err, "layer %zu: ", l);
    if (info.detail && !p->o->detail) continue;
    if (codec_cancelled(p->o->cancel)) ok = codec_fail_interrupted(p->err);
    else if (pass == 1) {
      if (is_physics(info.kind)) ok = tw_layer_load(p->m, l, p->err) && each_visible_cell(p, l, &info, sx, sy, paint_entity, NULL);
    } else if (info.kind == TW_KIND_TILES) {
      ok = tw_layer_load(p->m, l, p->err) && draw_tiles(p, l, &info, sx, sy);
    } else if (info.kind == TW_KIND_QUADS && p->o->quads) {
      ok = tw_layer_load(p->m, l, p->err) && draw_quads(p, l, &info, sx, sy);
    }
    if (!ok) return codec_prefix(p->err, "layer %zu (group %zu): ", l, g);
  }
  return 1;
}

/* The part of the canvas a group may draw in: its clip rectangle (in world
** units, where the main layers are) or the whole canvas, within
** [x0, x1) x [y0, y1) (canvas pixels). */
static void group_clip(tw_painter *p, const tw_group_info *gi, int pass, int64_t x0, int64_t y0, int64_t x1,
                       int64_t y1) {
  if (gi->clipping && pass == 0) {
    double k = (double)p->ts / TW_WORLD_TILE;
    int64_t cx0 = (int64_t)floor(gi->clip_x * k), cy0 = (int64_t)floor(gi->clip_y * k);
    int64_t cx1 = (int64_t)ceil(((double)gi->clip_x + gi->clip_w) * k);
    int64_t cy1 = (int64_t)ceil(((double)gi->clip_y + gi->clip_h) * k);
    x0 = cx0 > x0 ? cx0 : x0, y0 = cy0 > y0 ? cy0 : y0;
    x1 = cx1 < x1 ? cx1 : x1, y1 = cy1 < y1 ? cy1 : y1;
  }
  canvas_clip(&p->c, x0, y0, x1 > x0 ? x1 : x0, y1 > y0 ? y1 : y0);
}

/* The canvas pixel where screen i begins, along one axis: screen 0 is
** centred on the middle of the map (centre, world units), each is `size`
** world units; k pixels a world unit.  Screen i ends where i + 1 begins. */
static int64_t screen_edge(double centre, double size, int64_t i, double k) {
  return (int64_t)floor((centre + ((double)i - 0.5) * size) * k);
}

/* Draws group g as the game shows it from wherever the camera is.  A group
** that moves with the main layers (parallax 100 both ways) looks the same
** from every camera position: drawn once.  Any other (a sky at parallax 0,
** clouds, a far background) shows a different part of itself from each
** position: the picture is cut into screens (TW_SCREEN_W x TW_SCREEN_H
** world units, one centred on the middle of the map), and each screen
** shows the group as the game does with the camera at that screen's
** middle, so a sky made for one screen fills every screen of the map, as
** it does in the game wherever the player goes. */
static int draw_group(tw_painter *p, size_t g, int pass) {
  tw_group_info gi;
  int64_t sx, sy;
  int ok = 1;
  if (!tw_group_get(p->m, g, &gi, p->err)) return codec_prefix(p->err, "group %zu: ", g);
  if (gi.parallax_x == 100 && gi.parallax_y == 100) {
    group_shift(p, &gi, p->centre_x, p->centre_y, &sx, &sy);
    group_clip(p, &gi, pass, 0, 0, p->c.w, p->c.h);
    ok = draw_group_layers(p, g, pass, sx, sy);
  } else {
    double k = (double)p->ts / TW_WORLD_TILE, world_w = p->c.w / k, world_h = p->c.h / k;
    double sw = TW_SCREEN_W, sh = TW_SCREEN_H;
    int64_t ni, nj, i, j;
    /* the screens' columns and rows: i from -ni to ni around the middle
    ** one; past TW_MAX_SCREENS (a map of more than 32 x 32 screens), each
    ** cell is 2, 4, ... screens a side, so the work stays bounded */
    for (;;) {
      ni = (int64_t)ceil((world_w / 2 - sw / 2) / sw), nj = (int64_t)ceil((world_h / 2 - sh / 2) / sh);
      if (ni < 0) ni = 0;
      if (nj < 0) nj = 0;
      if ((2 * ni + 1) * (2 * nj + 1) <= TW_MAX_SCREENS) break;
      sw *= 2, sh *= 2;
    }
    for (j = -nj; ok && j <= nj; j++) {
      for (i = -ni; ok && i <= ni; i++) {
        if (codec_cancelled(p->o->cancel)) {
          ok = codec_fail_interrupted(p->err);
          break;
        }
        group_shift(p, &gi, p->centre_x + (double)i * sw, p->centre_y + (double)j * sh, &sx, &sy);
        group_clip(p, &gi, pass, screen_edge(p->centre_x, sw, i, k), screen_edge(p->centre_y, sh, j, k),
                   screen_edge(p->centre_x, sw, i + 1, k), screen_edge(p->centre_y, sh, j + 1, k));
        ok = draw_group_layers(p, g, pass, sx, sy);
      }
    }
  }
  canvas_unclip(&p->c);
  return ok;
}

/* The area shown, in tiles: the game layer's, else the largest tile
** layer's, else 50 x 50. */
static void map_extent(const tw_map *m, int *w, int *h) {
  size_t l;
  int64_t best = 0;
  *w = *h = 50;
  for (l = 0; l < m->num_layers; l++) {
    const tw_layer *ly = &m->layers[l];
    if (ly->kind == TW_KIND_GAME) {
      *w = ly->width, *h = ly->height;
      break;
    }
    if (ly->kind <= TW_KIND_TUNE && (int64_t)ly->width * ly->height > best) {
      best = (int64_t)ly->width * ly->height;
      *w = ly->width, *h = ly->height;
    }
  }
  if (*w < 1) *w = 1;
  if (*h < 1) *h = 1;
}

int tw_render_canvas(tw_map *m, const tw_render_opts *o, canvas *out, codec_error *err) {
  tw_painter p;
  int w, h, pass, ok = 1;
  size_t g, i;
  memset(&p, 0, sizeof p);
  memset(out, 0, sizeof *out);
  p.m = m, p.o = o, p.err = err;
  map_extent(m, &w, &h);
  if (o->tile > 0) {
    p.ts = o->tile;
  } else {
    int longer = w > h ? w : h, fit = o->fit > 0 ? o->fit : 2048;
    p.ts = fit / longer;
    if (p.ts < 1) p.ts = 1;
    if (p.ts > 64) p.ts = 64;
  }
  if (!canvas_size_ok((int64_t)w * p.ts, (int64_t)h * p.ts, "the picture", err)) {
    return codec_prefix(err, "map of %dx%d tiles at %d pixels a tile: ", w, h, p.ts);
  }
  p.centre_x = w * TW_WORLD_TILE / 2.0;
  p.centre_y = h * TW_WORLD_TILE / 2.0;
  if (m->num_images && !(p.images = calloc(m->num_images, sizeof *p.images))) return codec_fail_oom(err, "out of memory");
  if (!canvas_new(&p.c, w * p.ts, h * p.ts, o->background, err)) {
    free(p.images);
    return 0;
  }
  m->df->cancel = o->cancel; /* polled while layers' and images' blobs inflate too */
  for (pass = 0; ok && pass < 2; pass++) {
    if (pass == 1 && !o->entities) break;
    for (g = 0; ok && g < m->num_groups; g++) {
      if (listed(o->groups, o->ngroups, (long)g)) ok = draw_group(&p, g, pass);
    }
  }
  m->df->cancel = NULL;
  for (i = 0; i < m->num_images; i++) {
    canvas_free(&p.images[i].pixels);
    canvas_free(&p.images[i].tileset);
  }
  free(p.images);
  if (!ok) {
    canvas_free(&p.c);
    return 0;
  }
  *out = p.c;
  return 1;
}

int tw_render_png(tw_map *m, const tw_render_opts *o, unsigned char **png, size_t *png_size, codec_error *err) {
  canvas c;
  return tw_render_canvas(m, o, &c, err) && canvas_png_take(&c, png, png_size, err);
}
