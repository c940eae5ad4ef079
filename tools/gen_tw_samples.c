/*
** gen_tw_samples.c: writes sample Teeworlds / DDNet maps built only with
** the datafile codec (df_new, df_item_add, df_data_add, df_write), for
** `make samples` (tools/gen_samples.sh), the demo, sql/tw_cookbook.sql and
** the tests.  Usage: gen_tw_samples OUTDIR
**
** The maps have the shape of real ones (../shared/seeds/teeworlds-map-format
** .txt), laid out the way DDNet's editor writes them (group version 3,
** tilemap version 3 with the five DDNet indices, envelope version 2), and
** df_write compresses like DDNet, so map_resave reads them:
** - dm_sample.map: a small deathmatch map: an external image, a colour
**   envelope, a "Background" group with a sky quad, a "Game" group with a
**   60x30 game layer (solid border, unhookable platforms, a death pit, two
**   spawns) and a tiles layer drawing it.
** - ddrace_sample.map: a DDNet race map: game, front and tele layers (one
**   teleporter number has an entry but no exit, which the cookbook's check
**   finds), start and finish lines, freeze; three images (one embedded
**   that no layer uses); a position envelope moving cloud quads in a third
**   group whose tiles layer still has the editor's default name "Layer";
**   two server settings.
** - unfinished.map: a Teeworlds 0.6 map (no DDNet fields) whose game layer
**   has no spawn yet, so players could not enter it.
** The next three hold, between them, every kind of item, layer and field
** the tw_ tables show, so the tests reach every table and column without
** the corpus:
** - ddnet_features.map: a DDNet map with every tilemap kind (game, front,
**   tele, speedup, switch, tune and tiles layers, their special cells
**   filled in: teleporters with exits, boosts at four angles, an
**   instant and a timed switch, two tune zones; flipped and rotated
**   tiles); an offset parallax group whose tiles layer is a detail layer
**   with a colour and a colour envelope; quads with an embedded image,
**   per-corner colours and both envelopes with time offsets; a clipping
**   group holding a sounds layer (two sources), a deprecated sounds layer
**   and an empty quads layer (stored with DDNet's one dummy quad);
**   envelopes of 3 channels (synchronized, one point of every curve type),
**   4 and 1 channels; an embedded and an external sound (the embedded
**   bytes are a stand-in, not an opus stream); info with every field:
**   author, version, credits, license and two settings.
** - v07_sample.map: a Teeworlds 0.7 map: tilemaps of version 4 with
**   skip-compressed tiles, images of version 2 (an external RGBA one and
**   an embedded RGB one), envelopes of version 3 whose 22-int points carry
**   bezier tangents, red, blue and plain spawns.
** - legacy.map: items in the oldest layouts the tables read: no info item,
**   groups of version 1 (no clipping, no name) and 2, a version-1 envelope
**   (no synchronized field) and quads layer (no name), version-2 tilemaps
**   as DDRace wrote them in 2010 (DDNet's indices right after the data,
**   no name) and as Teeworlds 0.5 did; then a tiles layer no group lists
**   and a layer item of a type no game writes (7), which are kept as read.
** map_resave (DDNet 16.4) rewrites each of them byte for byte.
** `gen_tw_samples --fuzz OUTDIR` writes the seeds of test/fuzz/run.sh: the
** same maps and two hostile ones (see tw_seed).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "tw/datafile.h"
#include "samples.h"
#include "tw/twmap.h"

/* Tilemap layer flags (which physics layer a tilemap is). */
enum {
  TILES_PLAIN = 0, TILES_GAME = 1, TILES_TELE = 2, TILES_SPEEDUP = 4, TILES_FRONT = 8, TILES_SWITCH = 16,
  TILES_TUNE = 32
};

/* How a tilemap item is laid out, by the editor that wrote it. */
typedef enum tile_layout {
  LAYOUT_06,       /* Teeworlds 0.6: version 3, a name, 18 ints */
  LAYOUT_DDNET,    /* DDNet: version 3, a name and DDNet's five indices, 23 ints */
  LAYOUT_07,       /* Teeworlds 0.7: version 4, 18 ints, skip-compressed tiles */
  LAYOUT_05,       /* Teeworlds 0.5: version 2, no name, 15 ints */
  LAYOUT_DDRACE10  /* DDRace 2010: version 2, no name, the five indices right after data, 20 ints */
} tile_layout;

/* Game layer ids (DDNet's numbering). */
enum {
  T_AIR = 0, T_SOLID = 1, T_DEATH = 2, T_UNHOOKABLE = 3, T_FREEZE = 9, T_TELE_IN_EVIL = 10, T_SWITCH_TIMED = 22,
  T_SWITCH_OPEN = 24, T_TELE_IN = 26, T_TELE_OUT = 27, T_BOOST = 28, T_START = 33, T_FINISH = 34, T_TUNE = 68,
  T_SPAWN = 192, T_SPAWN_RED = 193, T_SPAWN_BLUE = 194
};

#define MAX_POINTS 32 /* envelope points per map */

/* One envelope point: time (ms), curve (0 step, 1 linear, 2 slow, 3 fast,
** 4 smooth, 5 bezier), values in 1/1024, and the 0.7 bezier tangents
** (in_dx, in_dy, out_dx, out_dy, 4 each; stored only in 0.7 maps). */
typedef struct env_point {
  int32_t time, curve, values[4], bezier[16];
} env_point;

/* A map under construction: the datafile, the next index of each item
** type, and the envelope points (one item holding every envelope's points,
** point_ints ints each: 6, or 22 in 0.7 maps; added by mb_finish).  Any
** failed allocation sets `failed`. */
typedef struct map_builder {
  datafile *df;
  uint32_t groups, layers, images, envelopes, sounds;
  int point_ints;
  int32_t points[MAX_POINTS * 22];
  int num_points;
  int failed;
} map_builder;

/* A layer's cells: w x h cells of `cell` bytes (4 for Tile, 2 for Tele and
** Tune, 6 for Speedup, 4 for Switch). */
typedef struct grid {
  int w, h;
  size_t cell;
  unsigned char *b;
} grid;

/* A rectangular quad: corners in fixed point (pixels x 1024, as the map
** stores them), a top and a bottom colour, and its envelopes (-1 none) with
** their time offsets (ms). */
typedef struct quad_spec {
  int32_t x0, y0, x1, y1;
  int32_t top[4], bottom[4];
  int32_t pos_env, color_env;
  int32_t pos_env_offset, color_env_offset;
} quad_spec;

/* A group: offset, parallax (percent), and the clip rectangle when
** clipping is on.  version 1 items stop after the layer range, version 2
** after the clip rectangle, version 3 hold the name too. */
typedef struct group_spec {
  int version;
  const char *name;
  int32_t offset_x, offset_y, parallax_x, parallax_y;
  int32_t clipping, clip_x, clip_y, clip_w, clip_h;
} group_spec;

/* How a tilemap looks: the detail flag, its colour (r, g, b, a) and colour
** envelope (-1 none) with its time offset. */
typedef struct tile_look {
  int32_t detail, color[4], color_env, color_env_offset;
} tile_look;

static const tile_look plain_look = {0, {255, 255, 255, 255}, -1, 0};

/* Encodes s as an I32String of n ints (bytes + 128, big-endian per int,
** last byte 0), as DDNet's StrToInts does. */
static void i32str(int32_t *out, size_t n, const char *s) {
  size_t i, k = 0, len = strlen(s);
  for (i = 0; i < n; i++) {
    unsigned char b[4] = {0, 0, 0, 0};
    int c;
    uint32_t v;
    for (c = 0; c < 4 && k < len; c++) b[c] = (unsigned char)s[k++];
    v = ((uint32_t)(unsigned char)(b[0] + 128) << 24) | ((uint32_t)(unsigned char)(b[1] + 128) << 16) |
        ((uint32_t)(unsigned char)(b[2] + 128) << 8) | (uint32_t)(unsigned char)(b[3] + 128);
    if (i == n - 1) v &= 0xFFFFFF00u;
    out[i] = (int32_t)v;
  }
}

/* ---- the map builder -------------------------------------------------- */

/* Starts a map: an empty datafile with the version item; envelope points
** of 6 ints (a 0.7 map sets point_ints to 22). */
static void mb_init(map_builder *mb) {
  static const int32_t version[1] = {1};
  memset(mb, 0, sizeof *mb);
  mb->point_ints = 6;
  mb->df = df_new();
  if (!mb->df || df_item_add(mb->df, TW_ITEM_VERSION, 0, version, 1) < 0) mb->failed = 1;
}

/* Appends an item of the given type and id. */
static void mb_item(map_builder *mb, uint32_t type, uint32_t id, const int32_t *ints, size_t n) {
  if (mb->failed || df_item_add(mb->df, type, id, ints, n) < 0) mb->failed = 1;
}

/* Appends a blob; returns its index (-1 after a failure). */
static int32_t mb_blob(map_builder *mb, const unsigned char *bytes, size_t n) {
  long i = mb->failed ? -1 : df_data_add(mb->df, bytes, n);
  if (i < 0) mb->failed = 1;
  return (int32_t)i;
}

/* Appends a NUL-terminated string blob; returns its index, -1 (none, as
** DDNet writes an absent string) for NULL. */
static int32_t mb_string(map_builder *mb, const char *s) {
  return s ? mb_blob(mb, (const unsigned char *)s, strlen(s) + 1) : -1;
}

/* The info item: author, map version, credits, license (NULL: unset).
** settings (the NUL-terminated commands back to back, settings_len bytes)
** makes it DDNet's 6-int item; NULL gives Teeworlds' 5-int item. */
static void mb_info(map_builder *mb, const char *author, const char *version, const char *credits,
                    const char *license, const char *settings, size_t settings_len) {
  int32_t info[6];
  info[0] = 1;
  info[1] = mb_string(mb, author);
  info[2] = mb_string(mb, version);
  info[3] = mb_string(mb, credits);
  info[4] = mb_string(mb, license);
  if (settings) info[5] = mb_blob(mb, (const unsigned char *)settings, settings_len);
  mb_item(mb, TW_ITEM_INFO, 0, info, settings ? 6 : 5);
}

/* An image item of `version` (1: DDNet and 0.6, 6 ints, pixels RGBA; 2:
** 0.7, 7 ints with the pixel format, 0 RGB or 1 RGBA): external (pixels
** NULL: the game's own file of that name) or embedded (w*h pixels).
** Returns its index. */
static int32_t mb_image_v(map_builder *mb, int32_t version, const char *name, int32_t w, int32_t h,
                          const unsigned char *pixels, int32_t format) {
  int32_t image[7];
  image[0] = version;
  image[1] = w;
  image[2] = h;
  image[3] = pixels ? 0 : 1;
  image[4] = mb_string(mb, name);
  image[5] = pixels ? mb_blob(mb, pixels, (size_t)w * (size_t)h * (format == 0 ? 3 : 4)) : -1;
  image[6] = format;
  mb_item(mb, TW_ITEM_IMAGE, mb->images, image, version >= 2 ? 7 : 6);
  return (int32_t)mb->images++;
}

/* A DDNet / 0.6 image (RGBA when embedded).  Returns its index. */
static int32_t mb_image(map_builder *mb, const char *name, int32_t w, int32_t h, const unsigned char *rgba) {
  return mb_image_v(mb, 1, name, w, h, rgba, 1);
}

/* An envelope item of `version` (1: 12 ints; 2, and 3 in 0.7: 13 ints, the
** last `synchronized`) of `channels` channels (1 sound, 3 position, 4
** colour) with n points.  Returns its index. */
static int32_t mb_envelope_v(map_builder *mb, int32_t version, int32_t channels, const char *name, int32_t sync,
                             const env_point *pts, int n) {
  int32_t env[13];
  int i, k;
  memset(env, 0, sizeof env);
  if (mb->num_points + n > MAX_POINTS) {
    mb->failed = 1;
    return -1;
  }
  env[0] = version;
  env[1] = channels;
  env[2] = mb->num_points;
  env[3] = n;
  i32str(env + 4, 8, name);
  env[12] = sync;
  for (i = 0; i < n; i++) {
    int32_t *p = mb->points + (mb->num_points + i) * mb->point_ints;
    p[0] = pts[i].time;
    p[1] = pts[i].curve;
    for (k = 0; k < 4; k++) p[2 + k] = pts[i].values[k];
    for (k = 0; mb->point_ints == 22 && k < 16; k++) p[6 + k] = pts[i].bezier[k];
  }
  mb->num_points += n;
  mb_item(mb, TW_ITEM_ENVELOPE, mb->envelopes, env, version >= 2 ? 13 : 12);
  return (int32_t)mb->envelopes++;
}

/* A DDNet envelope (version 2, not synchronized).  Returns its index. */
static int32_t mb_envelope(map_builder *mb, int32_t channels, const char *name, const env_point *pts, int n) {
  return mb_envelope_v(mb, 2, channels, name, 0, pts, n);
}

/* A group holding the next num_layers layers (see group_spec). */
static void mb_group_v(map_builder *mb, const group_spec *gs, int32_t num_layers) {
  int32_t group[15];
  memset(group, 0, sizeof group);
  group[0] = gs->version;
  group[1] = gs->offset_x;
  group[2] = gs->offset_y;
  group[3] = gs->parallax_x;
  group[4] = gs->parallax_y;
  group[5] = (int32_t)mb->layers;
  group[6] = num_layers;
  group[7] = gs->clipping;
  group[8] = gs->clip_x;
  group[9] = gs->clip_y;
  group[10] = gs->clip_w;
  group[11] = gs->clip_h;
  if (gs->version >= 3) i32str(group + 12, 3, gs->name);
  mb_item(mb, TW_ITEM_GROUP, mb->groups++, group, gs->version >= 3 ? 15 : gs->version == 2 ? 12 : 7);
}

/* A version-3 group without offset or clipping, moving with the camera at
** parallax percent. */
static void mb_group(map_builder *mb, const char *name, int32_t parallax, int32_t num_layers) {
  group_spec gs;
  memset(&gs, 0, sizeof gs);
  gs.version = 3;
  gs.name = name;
  gs.parallax_x = gs.parallax_y = parallax;
  mb_group_v(mb, &gs, num_layers);
}

/* A quads layer item of `version` (1: no name, 7 ints; 2: 10 ints) of n
** rectangular quads (texture corners 0..1024).  An empty layer is stored
** with one zeroed quad, as DDNet writes it (DDNet writes no empty blob). */
static void mb_quads_v(map_builder *mb, int32_t version, const char *name, int32_t image, const quad_spec *qs,
                       int n) {
  unsigned char *blob = (unsigned char *)calloc((size_t)(n ? n : 1), 152);
  int32_t layer[10];
  int k, i;
  if (!blob) {
    mb->failed = 1;
    return;
  }
  for (k = 0; k < n; k++) {
    const quad_spec *q = &qs[k];
    int32_t v[38];
    const int32_t xs[4] = {q->x0, q->x1, q->x0, q->x1}, ys[4] = {q->y0, q->y0, q->y1, q->y1};
    for (i = 0; i < 4; i++) {
      v[2 * i] = xs[i];
      v[2 * i + 1] = ys[i];
      memcpy(v + 10 + 4 * i, i < 2 ? q->top : q->bottom, 4 * sizeof(int32_t));
      v[26 + 2 * i] = (i & 1) ? 1024 : 0;
      v[27 + 2 * i] = (i & 2) ? 1024 : 0;
    }
    v[8] = (q->x0 + q->x1) / 2; /* pivot: the centre */
    v[9] = (q->y0 + q->y1) / 2;
    v[34] = q->pos_env;
    v[35] = q->pos_env_offset;
    v[36] = q->color_env;
    v[37] = q->color_env_offset;
    for (i = 0; i < 38; i++) le32_store(blob + 152 * k + 4 * i, (uint32_t)v[i]);
  }
  memset(layer, 0, sizeof layer);
  layer[1] = 3;
  layer[3] = version;
  layer[4] = n;
  layer[5] = mb_blob(mb, blob, (size_t)(n ? n : 1) * 152);
  layer[6] = image;
  i32str(layer + 7, 3, name);
  free(blob);
  mb_item(mb, TW_ITEM_LAYER, mb->layers++, layer, version >= 2 ? 10 : 7);
}

/* A version-2 quads layer (DDNet, 0.6, 0.7). */
static void mb_quads(map_builder *mb, const char *name, int32_t image, const quad_spec *qs, int n) {
  mb_quads_v(mb, 2, name, image, qs, n);
}

/* 0.7's skip compression of w*h Tile cells: a run of equal tiles (index
** and flags) is stored once, its skip byte counting the repeats (at most
** 255), as the 0.7 editor writes it.  Returns the malloc'd bytes (*n) or
** NULL. */
static unsigned char *skip_compress(const unsigned char *cells, size_t count, size_t *n) {
  unsigned char *out = (unsigned char *)malloc(count ? count * 4 : 1);
  size_t i, o = 0;
  if (!out) return NULL;
  for (i = 0; i < count; i++) {
    const unsigned char *t = cells + i * 4;
    if (o > 0 && out[o - 2] < 255 && out[o - 4] == t[0] && out[o - 3] == t[1]) {
      out[o - 2]++;
    } else {
      memcpy(out + o, t, 4);
      out[o + 2] = 0;
      o += 4;
    }
  }
  *n = o;
  return out;
}

/* The item of a tilemap layer of w x h cells (tiles or a physics layer:
** `flags`) laid out as `layout` says, looking as `look` says, whose cells
** are in blob `data` (and, for a DDNet physics layer other than the game
** layer, in blob `own` at DDNet's index for its kind; -1 otherwise). */
static void mb_tilemap_item(map_builder *mb, const char *name, int32_t flags, int w, int h, int32_t image,
                            tile_layout layout, const tile_look *look, int32_t data, int32_t own) {
  int v2 = layout == LAYOUT_05 || layout == LAYOUT_DDRACE10;
  int32_t it[23];
  size_t base = v2 ? 15 : 18, n_ints;
  int k;
  it[0] = 0;
  it[1] = 2;
  it[2] = look->detail;
  it[3] = layout == LAYOUT_07 ? 4 : v2 ? 2 : 3;
  it[4] = w;
  it[5] = h;
  it[6] = flags;
  for (k = 0; k < 4; k++) it[7 + k] = look->color[k];
  it[11] = look->color_env;
  it[12] = look->color_env_offset;
  it[13] = image;
  it[14] = data;
  if (!v2) i32str(it + 15, 3, name);
  for (k = 0; k < 5; k++) it[base + (size_t)k] = -1;
  if (own >= 0) {
    size_t slot = flags == TILES_TELE ? 0 : flags == TILES_SPEEDUP ? 1 : flags == TILES_FRONT ? 2
                : flags == TILES_SWITCH ? 3 : 4;
    it[base + slot] = own;
  }
  n_ints = layout == LAYOUT_DDNET ? 23 : layout == LAYOUT_DDRACE10 ? 20 : layout == LAYOUT_05 ? 15 : 18;
  mb_item(mb, TW_ITEM_LAYER, mb->layers++, it, n_ints);
}

/* A tilemap layer (tiles or a physics layer: `flags`) with the cells of g,
** laid out as `layout` says, looking as `look` says.  A DDNet physics
** layer other than the game layer keeps its cells in its own blob (DDNet's
** index for its kind), and the main blob is the zeroed Tile array vanilla
** clients read. */
static void mb_tilemap_v(map_builder *mb, const char *name, int32_t flags, const grid *g, int32_t image,
                         tile_layout layout, const tile_look *look) {
  size_t cells = (size_t)g->w * (size_t)g->h;
  int32_t data, own = -1;
  if (flags != TILES_PLAIN && flags != TILES_GAME) {
    unsigned char *zero = (unsigned char *)calloc(cells, 4);
    if (!zero) {
      mb->failed = 1;
      return;
    }
    data = mb_blob(mb, zero, cells * 4);
    free(zero);
    own = mb_blob(mb, g->b, cells * g->cell);
  } else if (layout == LAYOUT_07) {
    size_t n;
    unsigned char *packed = skip_compress(g->b, cells, &n);
    if (!packed) {
      mb->failed = 1;
      return;
    }
    data = mb_blob(mb, packed, n);
    free(packed);
  } else {
    data = mb_blob(mb, g->b, cells * g->cell);
  }
  mb_tilemap_item(mb, name, flags, g->w, g->h, image, layout, look, data, own);
}

/* A plain-looking tilemap, DDNet's layout (ddnet) or Teeworlds 0.6's. */
static void mb_tilemap(map_builder *mb, const char *name, int32_t flags, const grid *g, int32_t image, int ddnet) {
  mb_tilemap_v(mb, name, flags, g, image, ddnet ? LAYOUT_DDNET : LAYOUT_06, &plain_look);
}

/* A sound: embedded (n bytes of data) or external (data NULL).  Returns
** its index. */
static int32_t mb_sound(map_builder *mb, const char *name, const unsigned char *data, size_t n) {
  int32_t sound[5];
  sound[0] = 1;
  sound[1] = data ? 0 : 1;
  sound[2] = mb_string(mb, name);
  sound[3] = data ? mb_blob(mb, data, n) : -1;
  sound[4] = data ? (int32_t)n : 0;
  mb_item(mb, TW_ITEM_SOUND, mb->sounds, sound, 5);
  return (int32_t)mb->sounds++;
}

/* A sounds layer playing `sound` from n sources of `source_size` bytes
** each (52: layer type 10; 36: the deprecated type 9), given as ints. */
static void mb_sounds_layer(map_builder *mb, const char *name, int32_t sound, const int32_t *sources, int n,
                            size_t source_size) {
  unsigned char *blob = (unsigned char *)calloc((size_t)(n ? n : 1), source_size);
  int32_t layer[10];
  size_t i, ints = source_size / 4;
  if (!blob) {
    mb->failed = 1;
    return;
  }
  for (i = 0; i < (size_t)n * ints; i++) le32_store(blob + 4 * i, (uint32_t)sources[i]);
  memset(layer, 0, sizeof layer);
  layer[1] = source_size == 52 ? 10 : 9;
  layer[3] = source_size == 52 ? 2 : 1;
  layer[4] = n;
  layer[5] = mb_blob(mb, blob, (size_t)(n ? n : 1) * source_size);
  layer[6] = sound;
  i32str(layer + 7, 3, name);
  free(blob);
  mb_item(mb, TW_ITEM_LAYER, mb->layers++, layer, 10);
}

/* An item of the layer type that no editor writes (`type`), holding only
** the common layer header and a version, as a newer editor might add. */
static void mb_unknown_layer(map_builder *mb, int32_t type) {
  int32_t layer[4] = {0, type, 0, 1};
  mb_item(mb, TW_ITEM_LAYER, mb->layers++, layer, 4);
}

/* Adds the envelope points item and writes the map as DDNet does; frees
** the datafile.  Returns the malloc'd bytes, or NULL with err. */
static unsigned char *mb_finish(map_builder *mb, size_t *size, codec_error *err) {
  unsigned char *out = NULL;
  if (mb->num_points)
    mb_item(mb, TW_ITEM_ENVPOINTS, 0, mb->points, (size_t)mb->num_points * (size_t)mb->point_ints);
  if (mb->failed) codec_fail(err, "out of memory");
  else if (!df_write(mb->df, DF_WRITE_RECOMPRESS, &out, size, err)) out = NULL;
  df_free(mb->df);
  mb->df = NULL;
  return out;
}

/* ---- cells ----------------------------------------------------------- */

/* Allocates w x h zeroed cells of `cell` bytes.  Returns 0 when out of memory. */
static int grid_init(grid *g, int w, int h, size_t cell) {
  g->w = w;
  g->h = h;
  g->cell = cell;
  g->b = (unsigned char *)calloc((size_t)w * (size_t)h, cell);
  return g->b != NULL;
}

/* Sets the cells of the rectangle [x0, x1] x [y0, y1] to id (a Tele cell
** also gets the teleporter number). */
static void grid_fill(grid *g, int x0, int y0, int x1, int y1, unsigned char id, unsigned char number) {
  int x, y;
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      unsigned char *c = g->b + ((size_t)y * (size_t)g->w + (size_t)x) * g->cell;
      if (g->cell == 2) {
        c[0] = number;
        c[1] = id;
      } else {
        c[0] = id;
      }
    }
}

/* The bytes of cell (x, y). */
static unsigned char *grid_cell(const grid *g, int x, int y) {
  return g->b + ((size_t)y * (size_t)g->w + (size_t)x) * g->cell;
}

/* Frees n grids. */
static void grids_free(grid *gs, int n) {
  int i;
  for (i = 0; i < n; i++) free(gs[i].b);
}

/* Allocates n grids of w x h cells of the given sizes.  Returns 0 with err
** (and nothing allocated) when out of memory. */
static int grids_init(grid *gs, const size_t *cells, int n, int w, int h, codec_error *err) {
  int i, ok = 1;
  memset(gs, 0, (size_t)n * sizeof *gs);
  for (i = 0; i < n; i++) ok = ok && grid_init(&gs[i], w, h, cells[i]);
  if (!ok) {
    grids_free(gs, n);
    codec_fail(err, "out of memory");
  }
  return ok;
}

/* A solid frame around the whole layer. */
static void grid_border(grid *g) {
  grid_fill(g, 0, 0, g->w - 1, 0, T_SOLID, 0);
  grid_fill(g, 0, g->h - 1, g->w - 1, g->h - 1, T_SOLID, 0);
  grid_fill(g, 0, 0, 0, g->h - 1, T_SOLID, 0);
  grid_fill(g, g->w - 1, 0, g->w - 1, g->h - 1, T_SOLID, 0);
}

/* The tiles layer drawing a game layer with the grass tileset: solid as
** tile 1, unhookable 16, death 9, freeze 12, the rest (air, entities) empty. */
static void grid_draw(grid *tiles, const grid *game) {
  size_t i;
  for (i = 0; i < (size_t)game->w * (size_t)game->h; i++) {
    unsigned char t = game->b[i * game->cell];
    tiles->b[i * tiles->cell] = t == T_SOLID ? 1 : t == T_UNHOOKABLE ? 16 : t == T_DEATH ? 9 : t == T_FREEZE ? 12 : 0;
  }
}

/* ---- the maps ------------------------------------------------------------ */

/* The sky: one quad over the whole view, blue at the top, pale below. */
static const quad_spec sky = {-819200, -614400, 819200, 614400, {94, 132, 174, 255}, {204, 232, 255, 255}, -1, 0, 0, 0};

/* The sky's colour envelope: alpha pulsing between 1 and 0.7. */
static const env_point sky_pulse[2] = {{0, 4, {1024, 1024, 1024, 1024}, {0}}, {2000, 4, {1024, 1024, 1024, 700}, {0}}};

/* dm_sample.map (see the top of the file). */
static unsigned char *build_dm(size_t *size, codec_error *err) {
  static const char settings[] = "sv_team 0";
  const int w = 60, h = 30;
  map_builder mb;
  grid game, tiles;
  unsigned char *out = NULL;
  if (!grid_init(&game, w, h, 4) || !grid_init(&tiles, w, h, 4)) {
    free(game.b);
    codec_fail(err, "out of memory");
    return NULL;
  }
  grid_border(&game);
  grid_fill(&game, 30, h - 2, 35, h - 2, T_DEATH, 0);     /* death pit */
  grid_fill(&game, 26, h - 4, 39, h - 4, T_SOLID, 0);     /* bridge over it */
  grid_fill(&game, 8, 20, 15, 20, T_UNHOOKABLE, 0);       /* unhookable platforms */
  grid_fill(&game, 44, 20, 51, 20, T_UNHOOKABLE, 0);
  grid_fill(&game, 20, 12, 39, 12, T_SOLID, 0);           /* upper floor */
  grid_fill(&game, 4, h - 2, 4, h - 2, T_SPAWN, 0);
  grid_fill(&game, w - 5, h - 2, w - 5, h - 2, T_SPAWN, 0);
  grid_draw(&tiles, &game);
  mb_init(&mb);
  mb_info(&mb, "levelsql sample", "1", NULL, "CC0", settings, sizeof settings);
  mb_image(&mb, "grass_main", 1024, 1024, NULL);
  mb_envelope(&mb, 4, "sky pulse", sky_pulse, 2);
  mb_group(&mb, "Background", 0, 1);
  mb_quads(&mb, "Sky", -1, &sky, 1);
  mb_group(&mb, "Game", 100, 2);
  mb_tilemap(&mb, "Game", TILES_GAME, &game, -1, 1);
  mb_tilemap(&mb, "Ground", TILES_PLAIN, &tiles, 0, 1);
  out = mb_finish(&mb, size, err);
  free(game.b);
  free(tiles.b);
  return out;
}

/* ddrace_sample.map (see the top of the file). */
static unsigned char *build_ddrace(size_t *size, codec_error *err) {
  static const char settings[] = "sv_team 1\0sv_old_laser 0";
  static const env_point drift[3] = {
      {0, 1, {0, 0, 0, 0}, {0}}, {4000, 1, {65536, 0, 0, 0}, {0}}, {8000, 1, {0, 0, 0, 0}, {0}}};
  static const quad_spec clouds[2] = {
      {-204800, -102400, 0, 0, {255, 255, 255, 200}, {255, 255, 255, 120}, 1, -1, 0, 0},
      {409600, -153600, 716800, -51200, {255, 255, 255, 200}, {255, 255, 255, 120}, 1, -1, 0, 0}};
  const int w = 64, h = 24;
  map_builder mb;
  grid game, front, tele, tiles, deco;
  unsigned char stripes[16 * 16 * 4], *out = NULL;
  int i, ok;
  memset(&game, 0, sizeof game);
  memset(&front, 0, sizeof front);
  memset(&tele, 0, sizeof tele);
  memset(&tiles, 0, sizeof tiles);
  memset(&deco, 0, sizeof deco);
  ok = grid_init(&game, w, h, 4) && grid_init(&front, w, h, 4) && grid_init(&tele, w, h, 2) &&
       grid_init(&tiles, w, h, 4) && grid_init(&deco, w, h, 4);
  if (ok) {
    grid_border(&game);
    grid_fill(&game, 8, 1, 8, h - 2, T_START, 0);
    grid_fill(&game, w - 8, 1, w - 8, h - 2, T_FINISH, 0);
    grid_fill(&game, 3, h - 2, 3, h - 2, T_SPAWN, 0);
    grid_fill(&game, 10, 16, 22, 16, T_SOLID, 0);      /* a platform */
    grid_fill(&game, 20, h - 2, 27, h - 2, T_FREEZE, 0);
    grid_fill(&game, 40, h - 2, 44, h - 2, T_DEATH, 0);
    grid_fill(&game, 30, 8, 45, 8, T_UNHOOKABLE, 0);   /* an unhookable ceiling */
    grid_fill(&front, 30, 9, 45, 9, T_FREEZE, 0);      /* freeze under it, in front (DDNet's front layer takes no unhookable tile) */
    grid_fill(&tele, 14, h - 3, 14, h - 3, T_TELE_IN, 1);
    grid_fill(&tele, 50, 5, 50, 5, T_TELE_OUT, 1);
    grid_fill(&tele, 35, h - 3, 35, h - 3, T_TELE_IN, 2); /* no exit 2: a dead end */
    grid_draw(&tiles, &game);
    for (i = 0; i < w; i += 3) grid_fill(&deco, i, 2 + i % 5, i, 2 + i % 5, (unsigned char)(20 + i % 7), 0);
    for (i = 0; i < 16 * 16; i++) { /* diagonal stripes */
      unsigned char v = ((i % 16 + i / 16) / 4) % 2 ? 255 : 40;
      stripes[4 * i] = stripes[4 * i + 1] = v;
      stripes[4 * i + 2] = 0;
      stripes[4 * i + 3] = 255;
    }
    mb_init(&mb);
    mb_info(&mb, "levelsql sample", "2", NULL, "CC0", settings, sizeof settings);
    mb_image(&mb, "grass_main", 1024, 1024, NULL);
    mb_image(&mb, "stripes", 16, 16, stripes); /* embedded, used by no layer */
    mb_image(&mb, "desert_main", 1024, 1024, NULL);
    mb_envelope(&mb, 4, "sky pulse", sky_pulse, 2);
    mb_envelope(&mb, 3, "cloud drift", drift, 3);
    mb_group(&mb, "Background", 0, 1);
    mb_quads(&mb, "Sky", -1, &sky, 1);
    mb_group(&mb, "Game", 100, 4);
    mb_tilemap(&mb, "Game", TILES_GAME, &game, -1, 1);
    mb_tilemap(&mb, "Front", TILES_FRONT, &front, -1, 1);
    mb_tilemap(&mb, "Tele", TILES_TELE, &tele, -1, 1);
    mb_tilemap(&mb, "Ground", TILES_PLAIN, &tiles, 0, 1);
    mb_group(&mb, "Deco", 80, 2);
    mb_tilemap(&mb, "Layer", TILES_PLAIN, &deco, 2, 1);
    mb_quads(&mb, "Clouds", -1, clouds, 2);
    out = mb_finish(&mb, size, err);
  } else {
    codec_fail(err, "out of memory");
  }
  free(game.b);
  free(front.b);
  free(tele.b);
  free(tiles.b);
  free(deco.b);
  return out;
}

/* unfinished.map (see the top of the file). */
static unsigned char *build_unfinished(size_t *size, codec_error *err) {
  const int w = 40, h = 20;
  map_builder mb;
  grid game, tiles;
  unsigned char *out;
  if (!grid_init(&game, w, h, 4) || !grid_init(&tiles, w, h, 4)) {
    free(game.b);
    codec_fail(err, "out of memory");
    return NULL;
  }
  grid_border(&game);
  grid_fill(&game, 12, 12, 27, 12, T_SOLID, 0);
  grid_draw(&tiles, &game);
  mb_init(&mb);
  mb_info(&mb, "levelsql sample", "0.1", NULL, "CC0", NULL, 0);
  mb_group(&mb, "Game", 100, 2);
  mb_tilemap(&mb, "Game", TILES_GAME, &game, -1, 0);
  mb_tilemap(&mb, "Layer", TILES_PLAIN, &tiles, -1, 0);
  out = mb_finish(&mb, size, err);
  free(game.b);
  free(tiles.b);
  return out;
}

/* ddnet_features.map (see the top of the file). */
static unsigned char *build_features(size_t *size, codec_error *err) {
  static const char settings[] = "sv_team 1\0tune gravity 0.4";
  static const env_point wobble[6] = {
      {0, 0, {0, 0, 0, 0}, {0}},          {500, 1, {16384, 0, 0, 0}, {0}},       {1000, 2, {16384, 8192, 46080, 0}, {0}},
      {1500, 3, {0, 8192, 92160, 0}, {0}}, {2000, 4, {0, 0, 0, 0}, {0}},         {2500, 5, {0, 0, 0, 0}, {0}}};
  static const env_point blink[3] = {
      {0, 1, {1024, 1024, 1024, 1024}, {0}}, {250, 0, {1024, 512, 512, 1024}, {0}}, {500, 1, {1024, 1024, 1024, 1024}, {0}}};
  static const env_point fade[2] = {{0, 1, {1024, 0, 0, 0}, {0}}, {3000, 4, {0, 0, 0, 0}, {0}}};
  static const quad_spec checker[2] = {
      {0, 0, 65536, 65536, {255, 255, 255, 255}, {255, 255, 255, 255}, 0, 1, 500, 250},
      {98304, 0, 163840, 65536, {255, 0, 0, 255}, {0, 0, 255, 128}, -1, -1, 0, 0}};
  /* sources: position x, y, loop, pan, delay, falloff, position envelope
  ** and offset, sound envelope and offset, shape (0 rectangle w h, 1
  ** circle r) */
  static const int32_t sources[2 * 13] = {655360, 327680, 1, 1, 0,    80, 0, 0,    2, 0, 1, 1500, 0,
                                          983040, 327680, 0, 0, 1000, 0, -1, 0, -1, 0, 0, 3200, 1600};
  /* the deprecated sources: position x, y, loop, delay, falloff distance,
  ** position envelope and offset, sound envelope and offset */
  static const int32_t old_sources[9] = {327680, 163840, 1, 0, 1500, -1, 0, -1, 0};
  static const size_t cells[8] = {4, 4, 2, 6, 4, 2, 4, 4};
  static const tile_look hills_look = {1, {200, 220, 255, 128}, 1, 100};
  const int w = 40, h = 20;
  enum { GAME, FRONT, TELE, SPEEDUP, SWITCH, TUNE, GROUND, HILLS };
  grid g[8];
  group_spec gs;
  map_builder mb;
  unsigned char check[8 * 8 * 4], wind[64], *out = NULL, *c;
  int i;
  if (!grids_init(g, cells, 8, w, h, err)) return NULL;
  grid_border(&g[GAME]);
  grid_fill(&g[GAME], 3, h - 2, 3, h - 2, T_SPAWN, 0);
  grid_fill(&g[GAME], 6, 1, 6, h - 2, T_START, 0);
  grid_fill(&g[GAME], w - 6, 1, w - 6, h - 2, T_FINISH, 0);
  grid_fill(&g[GAME], 10, 14, 30, 14, T_SOLID, 0);         /* a shelf */
  grid_fill(&g[FRONT], 15, 10, 17, 10, T_FREEZE, 0);       /* freeze drawn over the world */
  grid_fill(&g[TELE], 8, h - 3, 8, h - 3, T_TELE_IN, 1);   /* teleporter 1 */
  grid_fill(&g[TELE], 30, 3, 30, 3, T_TELE_OUT, 1);
  grid_fill(&g[TELE], 20, h - 3, 20, h - 3, T_TELE_IN_EVIL, 3); /* teleporter 3, stopping the tee */
  grid_fill(&g[TELE], 25, 3, 25, 3, T_TELE_OUT, 3);
  for (i = 0; i < 4; i++) { /* boosts: force, max speed, id, angle */
    static const int force[4] = {30, 50, 20, 80}, max_speed[4] = {0, 20, 0, 5}, angle[4] = {0, 90, -45, 180};
    c = grid_cell(&g[SPEEDUP], 12 + i, h - 2);
    c[0] = (unsigned char)force[i];
    c[1] = (unsigned char)max_speed[i];
    c[2] = T_BOOST;
    le16_store(c + 4, (uint16_t)(int16_t)angle[i]);
  }
  c = grid_cell(&g[SWITCH], 22, h - 2); /* switch 1 opens at once */
  c[0] = 1;
  c[1] = T_SWITCH_OPEN;
  c = grid_cell(&g[SWITCH], 23, h - 2); /* switch 2 opens for 5 seconds, rotated */
  c[0] = 2;
  c[1] = T_SWITCH_TIMED;
  c[2] = 8;
  c[3] = 5;
  grid_fill(&g[TUNE], 16, 10, 19, 12, T_TUNE, 1); /* tune zones 1 and 2 */
  grid_fill(&g[TUNE], 26, 15, 26, 15, T_TUNE, 2);
  grid_draw(&g[GROUND], &g[GAME]);
  for (i = 0; i < w; i++) grid_cell(&g[GROUND], i, 0)[1] = (unsigned char)(i % 3 == 0 ? 1 : i % 3 == 1 ? 2 : 8);
  for (i = 0; i < w; i += 2) grid_fill(&g[HILLS], i, h - 6 + i % 4, i + 1, h - 1, (unsigned char)(40 + i % 8), 0);
  for (i = 0; i < 8 * 8; i++) { /* a black and white checkerboard */
    unsigned char v = (i % 8 + i / 8) % 2 ? 255 : 0;
    check[4 * i] = check[4 * i + 1] = check[4 * i + 2] = v;
    check[4 * i + 3] = 255;
  }
  for (i = 0; i < (int)sizeof wind; i++) wind[i] = (unsigned char)(i * 37 + 11); /* stand-in bytes, not opus */
  mb_init(&mb);
  mb_info(&mb, "levelsql sample", "3", "gen_tw_samples", "CC0", settings, sizeof settings);
  mb_image(&mb, "grass_main", 1024, 1024, NULL);
  mb_image(&mb, "checker", 8, 8, check);
  mb_envelope_v(&mb, 2, 3, "wobble", 1, wobble, 6);
  mb_envelope(&mb, 4, "blink", blink, 3);
  mb_envelope(&mb, 1, "fade", fade, 2);
  mb_sound(&mb, "wind", wind, sizeof wind);
  mb_sound(&mb, "bell", NULL, 0);
  memset(&gs, 0, sizeof gs);
  gs.version = 3;
  gs.name = "Parallax";
  gs.offset_x = 32;
  gs.offset_y = -16;
  gs.parallax_x = 50;
  gs.parallax_y = 25;
  mb_group_v(&mb, &gs, 2);
  mb_quads(&mb, "Checker", 1, checker, 2);
  mb_tilemap_v(&mb, "Hills", TILES_PLAIN, &g[HILLS], 0, LAYOUT_DDNET, &hills_look);
  mb_group(&mb, "Game", 100, 7);
  mb_tilemap(&mb, "Game", TILES_GAME, &g[GAME], -1, 1);
  mb_tilemap(&mb, "Front", TILES_FRONT, &g[FRONT], -1, 1);
  mb_tilemap(&mb, "Tele", TILES_TELE, &g[TELE], -1, 1);
  mb_tilemap(&mb, "Speedup", TILES_SPEEDUP, &g[SPEEDUP], -1, 1);
  mb_tilemap(&mb, "Switch", TILES_SWITCH, &g[SWITCH], -1, 1);
  mb_tilemap(&mb, "Tune", TILES_TUNE, &g[TUNE], -1, 1);
  mb_tilemap(&mb, "Ground", TILES_PLAIN, &g[GROUND], 0, 1);
  gs.name = "Clipped";
  gs.offset_x = gs.offset_y = 0;
  gs.parallax_x = gs.parallax_y = 100;
  gs.clipping = 1;
  gs.clip_w = 1280;
  gs.clip_h = 640;
  mb_group_v(&mb, &gs, 3);
  mb_sounds_layer(&mb, "Ambience", 0, sources, 2, 52);
  mb_sounds_layer(&mb, "Old sounds", 1, old_sources, 1, 36);
  mb_quads(&mb, "Empty", -1, NULL, 0);
  out = mb_finish(&mb, size, err);
  grids_free(g, 8);
  return out;
}

/* v07_sample.map (see the top of the file). */
static unsigned char *build_v07(size_t *size, codec_error *err) {
  /* a bezier curve: in_dx, in_dy, out_dx, out_dy per channel */
  static const env_point glow[3] = {
      {0, 5, {1024, 1024, 1024, 1024}, {-100, -100, -100, -100, 0, 0, 0, 0, 100, 100, 100, 100, 50, 50, 50, 50}},
      {1000, 5, {1024, 600, 600, 1024}, {-200, -200, -200, -200, 10, 10, 10, 10, 200, 200, 200, 200, 0, 0, 0, 0}},
      {2000, 1, {1024, 1024, 1024, 1024}, {0}}};
  static const env_point sway[3] = {
      {0, 2, {0, 0, 0, 0}, {0}}, {1500, 3, {8192, 0, 0, 0}, {0}}, {3000, 4, {0, 0, 0, 0}, {0}}};
  static const quad_spec dots = {-65536, -65536, 65536, 65536, {255, 255, 255, 255}, {255, 255, 255, 255}, 1, 0, 0, 0};
  static const size_t cells[2] = {4, 4};
  const int w = 40, h = 20;
  enum { GAME, GROUND };
  grid g[2];
  map_builder mb;
  unsigned char rgb[4 * 4 * 3], *out;
  int i;
  if (!grids_init(g, cells, 2, w, h, err)) return NULL;
  grid_border(&g[GAME]);
  grid_fill(&g[GAME], 8, 12, 31, 12, T_SOLID, 0);
  grid_fill(&g[GAME], 18, h - 2, 21, h - 2, T_DEATH, 0);
  grid_fill(&g[GAME], 3, h - 2, 3, h - 2, T_SPAWN_RED, 0);
  grid_fill(&g[GAME], w - 4, h - 2, w - 4, h - 2, T_SPAWN_BLUE, 0);
  grid_fill(&g[GAME], 20, 11, 20, 11, T_SPAWN, 0);
  grid_draw(&g[GROUND], &g[GAME]);
  for (i = 0; i < 4 * 4; i++) { /* red, green and blue dots on white */
    rgb[3 * i] = (unsigned char)(i % 3 == 0 ? 255 : 40);
    rgb[3 * i + 1] = (unsigned char)(i % 3 == 1 ? 255 : 40);
    rgb[3 * i + 2] = (unsigned char)(i % 3 == 2 ? 255 : 40);
  }
  mb_init(&mb);
  mb.point_ints = 22;
  mb_info(&mb, "levelsql sample", "0.7", NULL, "CC0", NULL, 0);
  mb_image_v(&mb, 2, "grass_main", 1024, 1024, NULL, 1);
  mb_image_v(&mb, 2, "dots", 4, 4, rgb, 0);
  mb_envelope_v(&mb, 3, 4, "glow", 0, glow, 3);
  mb_envelope_v(&mb, 3, 3, "sway", 1, sway, 3);
  mb_group(&mb, "Sky", 0, 1);
  mb_quads(&mb, "Dots", 1, &dots, 1);
  mb_group(&mb, "Game", 100, 2);
  mb_tilemap_v(&mb, "Game", TILES_GAME, &g[GAME], -1, LAYOUT_07, &plain_look);
  mb_tilemap_v(&mb, "Ground", TILES_PLAIN, &g[GROUND], 0, LAYOUT_07, &plain_look);
  out = mb_finish(&mb, size, err);
  grids_free(g, 2);
  return out;
}

/* legacy.map (see the top of the file). */
static unsigned char *build_legacy(size_t *size, codec_error *err) {
  static const env_point pulse[2] = {{0, 1, {1024, 1024, 1024, 1024}, {0}}, {1000, 1, {512, 512, 1024, 1024}, {0}}};
  static const quad_spec glass = {0, 0, 131072, 65536, {180, 220, 255, 160}, {180, 220, 255, 96}, -1, 0, 0, 300};
  static const size_t cells[4] = {4, 2, 4, 4};
  const int w = 30, h = 15;
  enum { GAME, TELE, TILES, ORPHAN };
  grid g[4];
  group_spec gs;
  map_builder mb;
  unsigned char *out;
  if (!grids_init(g, cells, 4, w, h, err)) return NULL;
  grid_border(&g[GAME]);
  grid_fill(&g[GAME], 2, h - 2, 2, h - 2, T_SPAWN, 0);
  grid_fill(&g[GAME], 12, 9, 20, 9, T_SOLID, 0);
  grid_fill(&g[TELE], 5, h - 2, 5, h - 2, T_TELE_IN, 1);
  grid_fill(&g[TELE], 16, 8, 16, 8, T_TELE_OUT, 1);
  grid_draw(&g[TILES], &g[GAME]);
  grid_fill(&g[ORPHAN], 0, 0, 9, 0, 5, 0);
  mb_init(&mb);
  mb_image(&mb, "grass_main", 1024, 1024, NULL);
  mb_envelope_v(&mb, 1, 4, "old pulse", 0, pulse, 2);
  memset(&gs, 0, sizeof gs);
  gs.version = 1;
  gs.parallax_x = gs.parallax_y = 100;
  mb_group_v(&mb, &gs, 3);
  mb_tilemap_v(&mb, "", TILES_GAME, &g[GAME], -1, LAYOUT_DDRACE10, &plain_look);
  mb_tilemap_v(&mb, "", TILES_TELE, &g[TELE], -1, LAYOUT_DDRACE10, &plain_look);
  mb_tilemap_v(&mb, "", TILES_PLAIN, &g[TILES], 0, LAYOUT_05, &plain_look);
  gs.version = 2;
  gs.parallax_x = gs.parallax_y = 50;
  gs.clipping = 1;
  gs.clip_x = gs.clip_y = -100;
  gs.clip_w = 2000;
  gs.clip_h = 1000;
  mb_group_v(&mb, &gs, 1);
  mb_quads_v(&mb, 1, "", -1, &glass, 1);
  /* after every group's layers: no group lists these two */
  mb_tilemap_v(&mb, "Orphan", TILES_PLAIN, &g[ORPHAN], -1, LAYOUT_06, &plain_look);
  mb_unknown_layer(&mb, 7);
  out = mb_finish(&mb, size, err);
  grids_free(g, 4);
  return out;
}

/* Reads a written map back with the codec (sample_write's check): the
** container, the item layout, and every layer's cells. */
static int tw_reparse(const unsigned char *data, size_t size, codec_error *err) {
  tw_map *m = NULL;
  size_t l;
  int ok = tw_map_parse(data, size, &m, err);
  for (l = 0; ok && l < m->num_layers; l++) ok = m->layers[l].kind == TW_KIND_UNKNOWN || tw_layer_load(m, l, err);
  tw_map_free(m);
  return ok;
}

/* The maps, in the order they are written. */
static const struct {
  const char *file, *what;
  unsigned char *(*build)(size_t *size, codec_error *err);
} maps[] = {
    {"dm_sample.map", "DDNet, 2 groups, 3 layers", build_dm},
    {"ddrace_sample.map", "DDNet, 3 groups, game/front/tele layers, an embedded image", build_ddrace},
    {"unfinished.map", "Teeworlds 0.6, no spawn", build_unfinished},
    {"ddnet_features.map", "DDNet, every layer kind, sounds, clipping, envelopes of 1, 3 and 4 channels", build_features},
    {"v07_sample.map", "Teeworlds 0.7, skip-compressed tiles, bezier points, an RGB image", build_v07},
    {"legacy.map", "old item versions, a layer in no group, an unknown layer type", build_legacy},
};

/* Sample i: maps[i] (sample_run's build function). */
static int tw_sample(size_t i, sample_file *f, codec_error *err) {
  f->name = maps[i].file;
  snprintf(f->what, sizeof f->what, "%s", maps[i].what);
  f->data = maps[i].build(&f->size, err);
  return f->data != NULL;
}

/* ---- the hostile fuzz seeds -------------------------------------------- */

/* A map of `layers` tiles layers of w x h cells, all pointing at one blob
** (decompression amplification, issue 24 item 5): a 0.7 map (skip07) whose
** blob is the skip-compressed cells (one stored tile per 256 cells, which
** zlib shrinks a thousand times again), or a DDNet map whose blob holds
** the w x h zeroed cells.  Written without reading it back: decoding every
** layer is the attack. */
static unsigned char *build_amplified(int layers, int w, int h, int skip07, size_t *size, codec_error *err) {
  size_t cells = (size_t)w * (size_t)h, n = skip07 ? (cells + 255) / 256 * 4 : cells * 4, i;
  unsigned char *blob = (unsigned char *)calloc(n, 1);
  map_builder mb;
  int32_t data;
  int l;
  if (!blob) {
    codec_fail(err, "out of memory");
    return NULL;
  }
  for (i = 0; skip07 && i < n / 4; i++) /* runs of 256 air tiles, the last one short */
    blob[4 * i + 2] = (unsigned char)(i + 1 < n / 4 ? 255 : (cells - 1) % 256);
  mb_init(&mb);
  if (skip07) mb.point_ints = 22;
  mb_info(&mb, "levelsql fuzz seed", "1", NULL, "CC0", NULL, 0);
  data = mb_blob(&mb, blob, n);
  free(blob);
  mb_group(&mb, "Game", 100, layers);
  for (l = 0; l < layers; l++)
    mb_tilemap_item(&mb, l ? "Big" : "Game", l ? TILES_PLAIN : TILES_GAME, w, h, -1, skip07 ? LAYOUT_07 : LAYOUT_DDNET,
                    &plain_look, data, -1);
  return mb_finish(&mb, size, err);
}

/* v07_sample.map converted to DDNet's style by the codec (tw_map_convert),
** which keeps its bezier tangents in a UUID item (DDNet's
** envpoints-bezier): a map with the datafile's UUID index items, which
** none of the samples has. */
static unsigned char *build_v07_as_ddnet(size_t *size, codec_error *err) {
  size_t n07;
  unsigned char *v07 = build_v07(&n07, err), *out = NULL;
  tw_map *m = NULL;
  if (v07 && tw_map_parse(v07, n07, &m, err) && tw_map_convert(m, TW_STYLE_DDNET, err) &&
      !tw_map_serialize(m, 0, &out, size, err))
    out = NULL;
  tw_map_free(m);
  free(v07);
  return out;
}

/* Fuzz seed i (sample_run's build function for --fuzz): the samples, which
** are 0.5 to 3 KB and hold every item, layer and field kind between them,
** then v07_as_ddnet.map (build_v07_as_ddnet), amplify_07.map (40 layers
** of 4096 x 4096 cells, 2.6 GB decoded, from a blob of a few hundred
** bytes) and amplify_ddnet.map (64 layers of 1024 x 1024, 256 MB decoded,
** from one 4 MB blob zlib keeps in 4 KB). */
static int tw_seed(size_t i, sample_file *f, codec_error *err) {
  const size_t n = sizeof maps / sizeof maps[0] + 1;
  if (i + 1 < n) return tw_sample(i, f, err);
  if (i + 1 == n) {
    f->name = "v07_as_ddnet.map";
    snprintf(f->what, sizeof f->what, "v07_sample.map converted to DDNet: a UUID item");
    f->data = build_v07_as_ddnet(&f->size, err);
    return f->data != NULL;
  }
  f->check = SAMPLE_UNCHECKED;
  f->name = i == n ? "amplify_07.map" : "amplify_ddnet.map";
  snprintf(f->what, sizeof f->what, "hostile: %s", i == n ? "40 layers of 4096x4096 on one skip-compressed blob"
                                                           : "64 layers of 1024x1024 on one zlib blob");
  f->data = i == n ? build_amplified(40, 4096, 4096, 1, &f->size, err) : build_amplified(64, 1024, 1024, 0, &f->size, err);
  return f->data != NULL;
}

int main(int argc, char **argv) {
  sample_set files = {sizeof maps / sizeof maps[0], tw_sample};
  sample_set seeds = {sizeof maps / sizeof maps[0] + 3, tw_seed};
  return sample_run(argc, argv, "gen_tw_samples", files, seeds, tw_reparse);
}
