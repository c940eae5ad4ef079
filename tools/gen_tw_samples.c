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
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "datafile.h"
#include "samples.h"
#include "twmap.h"

/* Tilemap layer flags (which physics layer a tilemap is). */
enum { TILES_PLAIN = 0, TILES_GAME = 1, TILES_TELE = 2, TILES_FRONT = 8 };

/* Game layer ids (DDNet's numbering). */
enum {
  T_AIR = 0, T_SOLID = 1, T_DEATH = 2, T_UNHOOKABLE = 3, T_FREEZE = 9,
  T_START = 33, T_FINISH = 34, T_SPAWN = 192, T_TELE_IN = 26, T_TELE_OUT = 27
};

#define MAX_POINTS 16 /* envelope points per map */
#define POINT_INTS 6  /* time, curve, 4 values */

/* A map under construction: the datafile, the next index of each item
** type, and the envelope points (one item holding every envelope's points,
** added by mb_finish).  Any failed allocation sets `failed`. */
typedef struct map_builder {
  datafile *df;
  uint32_t groups, layers, images, envelopes;
  int32_t points[MAX_POINTS * POINT_INTS];
  int num_points;
  int failed;
} map_builder;

/* A layer's cells: w x h cells of `cell` bytes (4 for Tile, 2 for Tele). */
typedef struct grid {
  int w, h;
  size_t cell;
  unsigned char *b;
} grid;

/* A rectangular quad: corners in fixed point (pixels x 1024, as the map
** stores them), a top and a bottom colour, and its envelopes (-1 none). */
typedef struct quad_spec {
  int32_t x0, y0, x1, y1;
  int32_t top[4], bottom[4];
  int32_t pos_env, color_env;
} quad_spec;

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

/* Starts a map: an empty datafile with the version item. */
static void mb_init(map_builder *mb) {
  static const int32_t version[1] = {1};
  memset(mb, 0, sizeof *mb);
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

/* Appends a NUL-terminated string blob; returns its index. */
static int32_t mb_string(map_builder *mb, const char *s) {
  return mb_blob(mb, (const unsigned char *)s, strlen(s) + 1);
}

/* The info item: author, map version, license; credits unset.  settings
** (the NUL-terminated commands back to back, settings_len bytes) makes it
** DDNet's 6-int item; NULL gives Teeworlds 0.6's 5-int item. */
static void mb_info(map_builder *mb, const char *author, const char *version, const char *license,
                    const char *settings, size_t settings_len) {
  int32_t info[6];
  info[0] = 1;
  info[1] = mb_string(mb, author);
  info[2] = mb_string(mb, version);
  info[3] = -1;
  info[4] = mb_string(mb, license);
  if (settings) info[5] = mb_blob(mb, (const unsigned char *)settings, settings_len);
  mb_item(mb, TW_ITEM_INFO, 0, info, settings ? 6 : 5);
}

/* An image: external (rgba NULL: the game's own file of that name) or
** embedded (w*h RGBA pixels).  Returns its index. */
static int32_t mb_image(map_builder *mb, const char *name, int32_t w, int32_t h, const unsigned char *rgba) {
  int32_t image[6];
  image[0] = 1;
  image[1] = w;
  image[2] = h;
  image[3] = rgba ? 0 : 1;
  image[4] = mb_string(mb, name);
  image[5] = rgba ? mb_blob(mb, rgba, (size_t)w * (size_t)h * 4) : -1;
  mb_item(mb, TW_ITEM_IMAGE, mb->images, image, 6);
  return (int32_t)mb->images++;
}

/* An envelope of `channels` channels (3 position, 4 colour) with n points
** {time ms, curve, v0..v3 in 1/1024}.  Returns its index. */
static int32_t mb_envelope(map_builder *mb, int32_t channels, const char *name, const int32_t (*pts)[POINT_INTS],
                           int n) {
  int32_t env[13];
  memset(env, 0, sizeof env);
  if (mb->num_points + n > MAX_POINTS) {
    mb->failed = 1;
    return -1;
  }
  env[0] = 2;
  env[1] = channels;
  env[2] = mb->num_points;
  env[3] = n;
  i32str(env + 4, 8, name);
  memcpy(mb->points + mb->num_points * POINT_INTS, pts, (size_t)n * sizeof *pts);
  mb->num_points += n;
  mb_item(mb, TW_ITEM_ENVELOPE, mb->envelopes, env, 13);
  return (int32_t)mb->envelopes++;
}

/* A group holding the next num_layers layers, moving with the camera at
** parallax percent. */
static void mb_group(map_builder *mb, const char *name, int32_t parallax, int32_t num_layers) {
  int32_t group[15];
  memset(group, 0, sizeof group);
  group[0] = 3;
  group[3] = group[4] = parallax;
  group[5] = (int32_t)mb->layers;
  group[6] = num_layers;
  i32str(group + 12, 3, name);
  mb_item(mb, TW_ITEM_GROUP, mb->groups++, group, 15);
}

/* A quads layer of n rectangular quads (texture corners 0..1024). */
static void mb_quads(map_builder *mb, const char *name, int32_t image, const quad_spec *qs, int n) {
  unsigned char *blob = (unsigned char *)calloc((size_t)n, 152);
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
    v[35] = 0;
    v[36] = q->color_env;
    v[37] = 0;
    for (i = 0; i < 38; i++) le32_store(blob + 152 * k + 4 * i, (uint32_t)v[i]);
  }
  memset(layer, 0, sizeof layer);
  layer[1] = 3;
  layer[3] = 2;
  layer[4] = n;
  layer[5] = mb_blob(mb, blob, (size_t)n * 152);
  layer[6] = image;
  i32str(layer + 7, 3, name);
  free(blob);
  mb_item(mb, TW_ITEM_LAYER, mb->layers++, layer, 10);
}

/* A tilemap layer (tiles or a physics layer) with the cells of g.  ddnet
** adds DDNet's five extra indices; a tele or front layer's cells go to
** their own blob, and the main one is the zeroed Tile array vanilla
** clients read. */
static void mb_tilemap(map_builder *mb, const char *name, int32_t kind, const grid *g, int32_t image, int ddnet) {
  int32_t it[23] = {0, 2, 0, 3, g->w, g->h, kind, 255, 255, 255, 255, -1, 0, image, -1};
  int k;
  i32str(it + 15, 3, name);
  for (k = 18; k < 23; k++) it[k] = -1;
  if (kind == TILES_TELE || kind == TILES_FRONT) {
    unsigned char *zero = (unsigned char *)calloc((size_t)g->w * (size_t)g->h, 4);
    if (!zero) {
      mb->failed = 1;
      return;
    }
    it[14] = mb_blob(mb, zero, (size_t)g->w * (size_t)g->h * 4);
    free(zero);
    it[kind == TILES_TELE ? 18 : 20] = mb_blob(mb, g->b, (size_t)g->w * (size_t)g->h * g->cell);
  } else {
    it[14] = mb_blob(mb, g->b, (size_t)g->w * (size_t)g->h * g->cell);
  }
  mb_item(mb, TW_ITEM_LAYER, mb->layers++, it, ddnet ? 23 : 18);
}

/* Adds the envelope points item and writes the map as DDNet does; frees
** the datafile.  Returns the malloc'd bytes, or NULL with err. */
static unsigned char *mb_finish(map_builder *mb, size_t *size, codec_error *err) {
  unsigned char *out = NULL;
  if (mb->num_points) mb_item(mb, TW_ITEM_ENVPOINTS, 0, mb->points, (size_t)mb->num_points * POINT_INTS);
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
static const quad_spec sky = {-819200, -614400, 819200, 614400, {94, 132, 174, 255}, {204, 232, 255, 255}, -1, 0};

/* The sky's colour envelope: alpha pulsing between 1 and 0.7. */
static const int32_t sky_pulse[2][POINT_INTS] = {{0, 4, 1024, 1024, 1024, 1024}, {2000, 4, 1024, 1024, 1024, 700}};

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
  mb_info(&mb, "levelsql sample", "1", "CC0", settings, sizeof settings);
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
  static const int32_t drift[3][POINT_INTS] = {{0, 1, 0, 0, 0, 0}, {4000, 1, 65536, 0, 0, 0}, {8000, 1, 0, 0, 0, 0}};
  static const quad_spec clouds[2] = {
      {-204800, -102400, 0, 0, {255, 255, 255, 200}, {255, 255, 255, 120}, 1, -1},
      {409600, -153600, 716800, -51200, {255, 255, 255, 200}, {255, 255, 255, 120}, 1, -1}};
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
    grid_fill(&front, 30, 8, 45, 8, T_UNHOOKABLE, 0);  /* an unhookable ceiling */
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
    mb_info(&mb, "levelsql sample", "2", "CC0", settings, sizeof settings);
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
  mb_info(&mb, "levelsql sample", "0.1", "CC0", NULL, 0);
  mb_group(&mb, "Game", 100, 2);
  mb_tilemap(&mb, "Game", TILES_GAME, &game, -1, 0);
  mb_tilemap(&mb, "Layer", TILES_PLAIN, &tiles, -1, 0);
  out = mb_finish(&mb, size, err);
  free(game.b);
  free(tiles.b);
  return out;
}

/* Reads a written map back with the codec (sample_write's check): the
** container, the item layout, and every layer's cells. */
static int tw_reparse(const unsigned char *data, size_t size, codec_error *err) {
  tw_map *m = NULL;
  size_t l;
  int ok = tw_map_parse(data, size, &m, err);
  for (l = 0; ok && l < m->num_layers; l++) ok = tw_layer_load(m, l, err);
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
};

/* Sample i: maps[i] (sample_run's build function). */
static int tw_sample(size_t i, sample_file *f, codec_error *err) {
  f->name = maps[i].file;
  snprintf(f->what, sizeof f->what, "%s", maps[i].what);
  f->data = maps[i].build(&f->size, err);
  return f->data != NULL;
}

int main(int argc, char **argv) {
  return sample_run(argc, argv, "gen_tw_samples", sizeof maps / sizeof maps[0], tw_sample, tw_reparse);
}
