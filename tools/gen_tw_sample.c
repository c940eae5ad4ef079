/*
** gen_tw_sample.c: writes a small Teeworlds/DDNet map built only with the
** datafile codec (df_new, df_item_add, df_data_add, df_write), for `make
** demo`.  Usage: gen_tw_sample OUT.map
**
** The map has the shape of a real one (../shared/seeds/teeworlds-map-format
** .txt): a version and an info item (author, one server setting), one
** external image (grass_main), a color envelope with its points, a
** "Background" group with a sky quad, and a "Game" group with a 60x30 game
** layer (solid border, unhookable platforms, a death pit, two spawns) and a
** tiles layer drawing it.  Items and blobs are laid out the way DDNet's
** editor writes them (tilemap version 3 with the DDNet indices, group
** version 3, envelope version 2), and df_write compresses like DDNet, so
** map_resave reads it.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test/unit/fileutil.h"
#include "datafile.h"
#include "twmap.h"

#define W 60
#define H 30

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

/* Adds a NUL-terminated string blob; returns its index. */
static int32_t add_string(datafile *df, const char *s) {
  return (int32_t)df_data_add(df, (const unsigned char *)s, strlen(s) + 1);
}

/* The game layer: 0 air, 1 solid, 2 death, 3 unhookable, 192 spawn. */
static unsigned char game_tile(int x, int y) {
  if (x == 0 || y == 0 || x == W - 1 || y == H - 1) return 1;
  if (y == H - 2 && x >= 30 && x < 36) return 2;             /* death pit */
  if (y == H - 4 && x >= 26 && x < 40) return 1;             /* bridge over it */
  if (y == 20 && ((x >= 8 && x < 16) || (x >= 44 && x < 52))) return 3; /* unhookable platforms */
  if (y == 12 && x >= 20 && x < 40) return 1;                /* upper floor */
  if (y == H - 2 && (x == 4 || x == W - 5)) return 192;      /* spawns */
  return 0;
}

/* Adds a tilemap layer item (DDNet layout: version 3, name, 5 indices). */
static void add_tilemap(datafile *df, uint32_t id, int game, int32_t image, int32_t data, const char *name) {
  int32_t it[23] = {0, 2, 0, 3, W, H, game ? 1 : 0, 255, 255, 255, 255, -1, 0, image, data};
  int k;
  i32str(it + 15, 3, name);
  for (k = 18; k < 23; k++) it[k] = -1;
  df_item_add(df, TW_ITEM_LAYER, id, it, 23);
}

/* Builds the items and blobs in DDNet's order, writes them with df_write,
** and checks the result parses as a map before writing the file. */
int main(int argc, char **argv) {
  datafile *df = df_new();
  unsigned char *game = calloc(W * H, 4), *tiles = calloc(W * H, 4), quad[152], *out = NULL;
  int32_t version[1] = {1}, info[6], image[6], env[13], points[12], group[15], quads[10];
  size_t size = 0;
  codec_error err;
  tw_map *check = NULL;
  int x, y, i, ok;
  static const char settings[] = "sv_team 0";
  if (argc != 2) {
    fprintf(stderr, "usage: gen_tw_sample OUT.map\n");
    return 2;
  }
  if (!df || !game || !tiles) return 1;
  df_item_add(df, TW_ITEM_VERSION, 0, version, 1);
  info[0] = 1;
  info[1] = add_string(df, "levelsql sample");
  info[2] = add_string(df, "1");
  info[3] = -1;
  info[4] = add_string(df, "CC0");
  info[5] = (int32_t)df_data_add(df, (const unsigned char *)settings, sizeof settings);
  df_item_add(df, TW_ITEM_INFO, 0, info, 6);
  /* an external image: the game's grass_main */
  image[0] = 1, image[1] = 1024, image[2] = 1024, image[3] = 1, image[4] = add_string(df, "grass_main"), image[5] = -1;
  df_item_add(df, TW_ITEM_IMAGE, 0, image, 6);
  /* a color envelope pulsing the sky's alpha, and its two points */
  memset(env, 0, sizeof env);
  env[0] = 2, env[1] = 4, env[2] = 0, env[3] = 2;
  i32str(env + 4, 8, "sky pulse");
  df_item_add(df, TW_ITEM_ENVELOPE, 0, env, 13);
  memset(points, 0, sizeof points);
  points[0] = 0, points[1] = 4, points[2] = points[3] = points[4] = points[5] = 1024;
  points[6] = 2000, points[7] = 4, points[8] = points[9] = points[10] = 1024, points[11] = 700;
  df_item_add(df, TW_ITEM_ENVPOINTS, 0, points, 12);
  /* Background group (parallax 0) with the sky quad */
  memset(quad, 0, sizeof quad);
  {
    int32_t q[38];
    static const int32_t corners[5][2] = {{-819200, -614400}, {819200, -614400}, {-819200, 614400}, {819200, 614400}, {0, 0}};
    static const int32_t colors[4][4] = {{94, 132, 174, 255}, {94, 132, 174, 255}, {204, 232, 255, 255}, {204, 232, 255, 255}};
    for (i = 0; i < 5; i++) q[2 * i] = corners[i][0], q[2 * i + 1] = corners[i][1];
    for (i = 0; i < 16; i++) q[10 + i] = colors[i / 4][i % 4];
    for (i = 0; i < 8; i++) q[26 + i] = (i == 2 || i == 5 || i == 6 || i == 7) ? 1024 : 0;
    q[34] = -1, q[35] = 0, q[36] = 0, q[37] = 0; /* color envelope 0 */
    for (i = 0; i < 38; i++) {
      uint32_t v = (uint32_t)q[i];
      quad[4 * i] = (unsigned char)v, quad[4 * i + 1] = (unsigned char)(v >> 8);
      quad[4 * i + 2] = (unsigned char)(v >> 16), quad[4 * i + 3] = (unsigned char)(v >> 24);
    }
  }
  memset(group, 0, sizeof group);
  group[0] = 3, group[3] = group[4] = 0, group[5] = 0, group[6] = 1;
  i32str(group + 12, 3, "Background");
  df_item_add(df, TW_ITEM_GROUP, 0, group, 15);
  memset(quads, 0, sizeof quads);
  quads[1] = 3, quads[3] = 2, quads[4] = 1, quads[5] = (int32_t)df_data_add(df, quad, sizeof quad), quads[6] = -1;
  i32str(quads + 7, 3, "Sky");
  df_item_add(df, TW_ITEM_LAYER, 0, quads, 10);
  /* Game group: the game layer and a tiles layer drawing it */
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      unsigned char t = game_tile(x, y);
      game[(y * W + x) * 4] = t;
      tiles[(y * W + x) * 4] = t == 1 ? 1 : t == 3 ? 16 : t == 2 ? 9 : 0;
    }
  memset(group, 0, sizeof group);
  group[0] = 3, group[3] = group[4] = 100, group[5] = 1, group[6] = 2;
  i32str(group + 12, 3, "Game");
  df_item_add(df, TW_ITEM_GROUP, 1, group, 15);
  add_tilemap(df, 1, 1, -1, (int32_t)df_data_add(df, game, W * H * 4), "Game");
  add_tilemap(df, 2, 0, 0, (int32_t)df_data_add(df, tiles, W * H * 4), "Ground");
  ok = df_write(df, DF_WRITE_RECOMPRESS, &out, &size, &err);
  if (ok && !tw_map_parse(out, size, &check, &err)) ok = 0;
  if (ok && !file_write_all(argv[1], out, size)) {
    fprintf(stderr, "gen_tw_sample: cannot write %s\n", argv[1]);
    ok = 0;
  } else if (!ok) {
    fprintf(stderr, "gen_tw_sample: %s\n", err.msg);
  }
  tw_map_free(check);
  free(out);
  free(game);
  free(tiles);
  df_free(df);
  return ok ? 0 : 1;
}
