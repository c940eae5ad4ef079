/*
** test_twearly.c: early DDRace (2010) physics cells: a speedup layer of 4
** bytes a cell (force, type, int16 angle) and a switch layer of 2 (number,
** type), in the version-2 tilemap items DDRace wrote then (DDNet's indices
** right after `data`).  The map is built here with the datafile codec (no
** corpus map has these layers).  Checks: the cells read in that layout,
** writes keep it (fields it lacks must stay 0), the map serializes and
** reads back with the blobs still 4 and 2 bytes a cell, resizing the game
** layer resizes them in their layout, and DDNet's map_resave (when
** installed) writes the result back byte for byte.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ddnet_peer.h"
#include "fileutil.h"
#include "tw/twmap.h"

#define W 4
#define H 3

/* A version-2 DDRace tilemap item (20 ints): flags say which layer, data
** the main blob, slot (0 tele .. 4 tune) the physics blob or -1. */
static void add_layer(datafile *df, uint32_t id, int32_t flags, int32_t data, int slot, int32_t blob) {
  int32_t it[20];
  int k;
  memset(it, 0, sizeof it);
  it[1] = 2;
  it[3] = 2;
  it[4] = W;
  it[5] = H;
  it[6] = flags;
  for (k = 0; k < 4; k++) it[7 + k] = 255;
  it[11] = -1;
  it[13] = -1;
  it[14] = data;
  for (k = 0; k < 5; k++) it[15 + k] = k == slot ? blob : -1;
  df_item_add(df, TW_ITEM_LAYER, id, it, 20);
}

/* The sample: a game layer, an early speedup layer (a boost of force 30
** at angle -90 in cell (1, 1), type 28) and an early switch layer
** (number 5, type 24 in cell (2, 0)).  Returns the serialized bytes. */
static unsigned char *build(size_t *n) {
  static const int32_t version[1] = {1}, group[7] = {1, 0, 0, 100, 100, 0, 3};
  unsigned char game[W * H * 4], zero[W * H * 4], speedup[W * H * 4], sw[W * H * 2], *out = NULL;
  datafile *df = df_new();
  codec_error e;
  int32_t g, z1, z2, sp, s;
  memset(game, 0, sizeof game);
  memset(zero, 0, sizeof zero);
  memset(speedup, 0, sizeof speedup);
  memset(sw, 0, sizeof sw);
  game[(1 * W + 1) * 4] = 28;
  speedup[(1 * W + 1) * 4] = 30;
  speedup[(1 * W + 1) * 4 + 1] = 28;
  speedup[(1 * W + 1) * 4 + 2] = 0xA6; /* -90 as int16 LE */
  speedup[(1 * W + 1) * 4 + 3] = 0xFF;
  sw[(0 * W + 2) * 2] = 5;
  sw[(0 * W + 2) * 2 + 1] = 24;
  if (!df) return NULL;
  df_item_add(df, TW_ITEM_VERSION, 0, version, 1);
  df_item_add(df, TW_ITEM_GROUP, 0, group, 7);
  g = (int32_t)df_data_add(df, game, sizeof game);
  z1 = (int32_t)df_data_add(df, zero, sizeof zero);
  sp = (int32_t)df_data_add(df, speedup, sizeof speedup);
  z2 = (int32_t)df_data_add(df, zero, sizeof zero);
  s = (int32_t)df_data_add(df, sw, sizeof sw);
  add_layer(df, 0, 1, g, -1, -1);
  add_layer(df, 1, 4, z1, 1, sp);
  add_layer(df, 2, 16, z2, 3, s);
  if (!df_write(df, DF_WRITE_RECOMPRESS, &out, n, &e)) out = NULL;
  df_free(df);
  return out;
}

/* Whether cell (x, y) of layer l reads as want. */
static int cell_is(tw_map *m, size_t l, int x, int y, const tw_tile *want) {
  tw_tile t;
  codec_error e;
  return tw_tile_get(m, l, x, y, &t, &e) && memcmp(&t, want, sizeof t) == 0;
}

int main(void) {
  size_t n = 0, on = 0, l;
  unsigned char *buf = build(&n), *o = NULL;
  tw_map *m = NULL, *m2 = NULL;
  codec_error e;
  tw_tile boost = {28, 0, 0, 30, 0, -90, 0}, swt = {24, 0, 5, 0, 0, 0, 0}, t;
  REQUIRE(buf != NULL, "build the map");
  if (!buf) return check_done();
  REQUIRE(tw_map_parse(buf, n, &m, &e), "parse: %s", e.msg);
  if (!m) return check_done();
  CHECK(m->num_layers == 3 && m->layers[1].kind == TW_KIND_SPEEDUP && m->layers[2].kind == TW_KIND_SWITCH,
        "layer kinds");
  CHECK(tw_layer_load(m, 1, &e) && tw_layer_load(m, 2, &e), "the early layers load: %s", e.msg);
  CHECK(m->layers[1].early_ddrace && m->layers[1].cell_size == 4 && m->layers[2].early_ddrace &&
            m->layers[2].cell_size == 2 && !m->layers[0].early_ddrace,
        "4-byte speedup and 2-byte switch cells recognised");
  CHECK(cell_is(m, 1, 1, 1, &boost), "speedup cell: force 30, type 28, angle -90");
  CHECK(cell_is(m, 2, 2, 0, &swt), "switch cell: number 5, type 24");
  t = boost;
  t.max_speed = 3;
  CHECK(!tw_tile_set(m, 1, 0, 0, &t, &e) && e.code == CODEC_E_ARG && strstr(e.msg, "max_speed"),
        "max_speed refused: %s", e.msg);
  t = swt;
  t.delay = 2;
  CHECK(!tw_tile_set(m, 2, 0, 0, &t, &e) && strstr(e.msg, "flags or delay"), "switch delay refused: %s", e.msg);
  t = boost;
  t.force = 77;
  t.angle = 1234;
  CHECK(tw_tile_set(m, 1, 3, 2, &t, &e) && tw_tile_set(m, 2, 0, 2, &swt, &e), "writes in the early layout");
  CHECK(tw_layer_resize(m, 0, W + 2, H + 1, &e), "resize the game layer: %s", e.msg);
  CHECK(m->layers[1].width == W + 2 && m->layers[2].height == H + 1 && m->layers[1].cell_size == 4 &&
            m->layers[2].cell_size == 2,
        "the early layers follow in their layout");
  CHECK(tw_map_serialize(m, DF_WRITE_RECOMPRESS, &o, &on, &e), "serialize: %s", e.msg);
  CHECK(o && tw_map_parse(o, on, &m2, &e), "re-parse: %s", e.msg);
  if (m2) {
    size_t cells = (size_t)(W + 2) * (H + 1);
    CHECK(df_data_size(m2->df, (size_t)tw_layer_data_index(m2, 1)) == cells * 4 &&
              df_data_size(m2->df, (size_t)tw_layer_data_index(m2, 2)) == cells * 2,
          "blobs stay 4 and 2 bytes a cell");
    CHECK(cell_is(m2, 1, 1, 1, &boost) && cell_is(m2, 1, 3, 2, &t) && cell_is(m2, 2, 2, 0, &swt) &&
              cell_is(m2, 2, 0, 2, &swt),
          "cells read back");
    for (l = 1; l < 3; l++) {
      static const tw_tile empty;
      CHECK(cell_is(m2, l, W + 1, H, &empty), "layer %zu: new cell empty", l);
    }
  }
  if (o && access(DDNET_TOOLS "/map_resave", X_OK) == 0) {
    char dir[64] = "/tmp/levelsql_twearly_XXXXXX", in[128], out[128];
    unsigned char *r;
    size_t rn = 0;
    if (ddnet_workspace_open(dir)) {
      snprintf(in, sizeof in, "%s/early.map", dir);
      snprintf(out, sizeof out, "%s/resaved.map", dir);
      REQUIRE(file_write_all(in, o, on), "write");
      CHECK(ddnet_run(dir, "map_resave", in, "resaved.map", NULL) == 0, "map_resave reads it");
      r = file_read_all(out, &rn);
      CHECK(r && rn == on && memcmp(r, o, on) == 0, "map_resave writes it back byte for byte");
      free(r);
      unlink(in);
      unlink(out);
      ddnet_workspace_close(dir);
    }
  } else {
    SKIP("map_resave not installed");
  }
  free(o);
  free(buf);
  tw_map_free(m);
  tw_map_free(m2);
  return check_done();
}
