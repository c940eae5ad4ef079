/*
** test_twresize.c: tw_layer_resize (codecs/tw/twmap_resize.c) on the
** generated sample maps ($LEVELSQL_SAMPLES) and the real corpus
** ($LEVELSQL_CORPUS/tw).
**
** For every map with a game layer, from a fresh parse each time: grow it
** (+5 x +3), shrink it (to half), and both (wider, lower).  Then:
** - the game layer and every physics layer have the new size; every other
**   layer keeps its own;
** - cell (x, y) of each resized layer is the old cell where both sizes
**   hold it and empty (every field 0) elsewhere;
** - the map serializes (as map_resave writes) and parses again with the
**   same sizes and cells, and a physics layer's main data blob is
**   width x height Tiles;
** - when DDNet's map_resave is installed, it reads the grown and the
**   shrunk map and writes each back byte for byte.
** Also: a tiles layer resizes alone; a physics layer alone, size 0 and a
** quads layer are refused with the map unchanged.
** Time: in `make test` each corpus map gets one of the three resizes, in
** turn (every sample map gets all three); LEVELSQL_TORTURE=1 runs all
** three on every corpus map.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ddnet_peer.h"
#include "fileutil.h"
#include "tw/twmap.h"

static char tmpdir[64];
static int have_resave;

/* Whether layer kind k moves with the game layer. */
static int follows_game(tw_kind k) { return k >= TW_KIND_GAME && k <= TW_KIND_TUNE; }

/* Every cell of every tilemap layer, decoded (NULL when a layer fails). */
typedef struct snapshot {
  size_t n;
  int *w, *h;
  tw_tile **cells;
} snapshot;

static void snapshot_free(snapshot *s) {
  size_t i;
  for (i = 0; i < s->n; i++) free(s->cells[i]);
  free(s->cells);
  free(s->w);
  free(s->h);
}

/* Reads every tilemap layer's cells into s. */
static int snapshot_take(tw_map *m, snapshot *s) {
  size_t l;
  codec_error e;
  s->n = m->num_layers;
  s->w = calloc(s->n + 1, sizeof *s->w);
  s->h = calloc(s->n + 1, sizeof *s->h);
  s->cells = calloc(s->n + 1, sizeof *s->cells);
  if (!s->w || !s->h || !s->cells) return 0;
  for (l = 0; l < s->n; l++) {
    const tw_layer *L = &m->layers[l];
    int x, y;
    if (L->kind > TW_KIND_TUNE) continue;
    s->w[l] = L->width;
    s->h[l] = L->height;
    if (!(s->cells[l] = calloc(L->count, sizeof(tw_tile)))) return 0;
    for (y = 0; y < L->height; y++)
      for (x = 0; x < L->width; x++)
        if (!tw_tile_get(m, l, x, y, &s->cells[l][(size_t)y * (size_t)L->width + (size_t)x], &e)) return 0;
  }
  return 1;
}

/* Checks that map m is `before` with layers resized to w x h where
** resized[l]: the old cells top-left, empty cells elsewhere. */
static int matches_resized(tw_map *m, const snapshot *before, const unsigned char *resized, int w, int h) {
  static const tw_tile empty;
  size_t l;
  codec_error e;
  if (m->num_layers != before->n) return 0;
  for (l = 0; l < before->n; l++) {
    const tw_layer *L = &m->layers[l];
    int x, y, nw = resized[l] ? w : before->w[l], nh = resized[l] ? h : before->h[l];
    if (L->kind > TW_KIND_TUNE) continue;
    if (L->width != nw || L->height != nh) return 0;
    for (y = 0; y < nh; y++)
      for (x = 0; x < nw; x++) {
        tw_tile t;
        const tw_tile *want = x < before->w[l] && y < before->h[l]
                                ? &before->cells[l][(size_t)y * (size_t)before->w[l] + (size_t)x]
                                : &empty;
        if (!tw_tile_get(m, l, x, y, &t, &e) || memcmp(&t, want, sizeof t) != 0) return 0;
      }
  }
  return 1;
}

/* The main data blob of every resized physics layer holds w x h Tiles. */
static int main_blobs_sized(const tw_map *m, const unsigned char *resized, int w, int h) {
  size_t l;
  for (l = 0; l < m->num_layers; l++) {
    const tw_layer *L = &m->layers[l];
    int32_t idx;
    if (!resized[l] || L->kind < TW_KIND_FRONT || L->kind > TW_KIND_TUNE) continue;
    idx = m->df->items[L->item].ints[14];
    if (idx >= 0 && (size_t)idx < m->df->num_data && df_data_size(m->df, (size_t)idx) != (size_t)w * (size_t)h * 4)
      return 0;
  }
  return 1;
}

/* Resizes the game layer of buf's map to w x h and checks everything the
** header lists; `label` names the case. */
static void resize_case(const unsigned char *buf, size_t n, int dw, int dh, int half, int resave, const char *label) {
  tw_map *m = NULL, *m2 = NULL;
  snapshot before = {0, NULL, NULL, NULL};
  unsigned char *resized = NULL, *o = NULL, *r = NULL;
  size_t on = 0, rn = 0, l;
  long game = -1;
  int w, h;
  codec_error e;
  REQUIRE(tw_map_parse(buf, n, &m, &e), "%s: parse: %s", label, e.msg);
  if (!m) return;
  for (l = 0; l < m->num_layers && game < 0; l++)
    if (m->layers[l].kind == TW_KIND_GAME) game = (long)l;
  if (game < 0) goto done;
  w = half ? (m->layers[game].width + 1) / 2 : m->layers[game].width + dw;
  h = half ? (m->layers[game].height + 1) / 2 : m->layers[game].height + dh;
  REQUIRE(snapshot_take(m, &before), "%s: read the cells", label);
  resized = calloc(m->num_layers + 1, 1);
  for (l = 0; l < m->num_layers; l++) resized[l] = (long)l == game || follows_game(m->layers[l].kind);
  CHECK(tw_layer_resize(m, (size_t)game, w, h, &e), "%s: resize to %d x %d: %s", label, w, h, e.msg);
  CHECK(matches_resized(m, &before, resized, w, h), "%s: cells anchored top-left, new cells empty", label);
  CHECK(tw_map_serialize(m, DF_WRITE_RECOMPRESS, &o, &on, &e), "%s: serialize: %s", label, e.msg);
  CHECK(o && tw_map_parse(o, on, &m2, &e), "%s: the result parses: %s", label, e.msg);
  if (m2) {
    CHECK(matches_resized(m2, &before, resized, w, h), "%s: sizes and cells read back", label);
    CHECK(main_blobs_sized(m2, resized, w, h), "%s: physics layers' main data resized", label);
  }
  if (resave && have_resave && o) {
    char in[600], log[600], out[600];
    snprintf(in, sizeof in, "%s/resized.map", tmpdir);
    snprintf(out, sizeof out, "%s/resaved.map", tmpdir);
    snprintf(log, sizeof log, "%s/resave.log", tmpdir);
    REQUIRE(file_write_all(in, o, on), "%s: write", label);
    CHECK(ddnet_run(tmpdir, "map_resave", in, "resaved.map", log) == 0, "%s: map_resave reads it", label);
    r = file_read_all(out, &rn);
    CHECK(r && rn == on && memcmp(r, o, on) == 0, "%s: map_resave writes it back byte for byte", label);
    unlink(in);
    unlink(out);
    unlink(log);
  }
done:
  snapshot_free(&before);
  free(resized);
  free(o);
  free(r);
  tw_map_free(m);
  tw_map_free(m2);
}

/* What must be refused, each leaving the map as it was; and a tiles
** layer resizing alone. */
static void refusals(const unsigned char *buf, size_t n, const char *label) {
  tw_map *m = NULL;
  size_t l;
  long game = -1, phys = -1, tiles = -1, quads = -1;
  codec_error e;
  REQUIRE(tw_map_parse(buf, n, &m, &e), "%s: parse: %s", label, e.msg);
  if (!m) return;
  for (l = 0; l < m->num_layers; l++) {
    tw_kind k = m->layers[l].kind;
    if (k == TW_KIND_GAME && game < 0) game = (long)l;
    if (k >= TW_KIND_FRONT && k <= TW_KIND_TUNE && phys < 0) phys = (long)l;
    if (k == TW_KIND_TILES && tiles < 0) tiles = (long)l;
    if (k == TW_KIND_QUADS && quads < 0) quads = (long)l;
  }
  if (game >= 0 && phys >= 0) {
    int w = m->layers[phys].width;
    CHECK(!tw_layer_resize(m, (size_t)phys, w + 1, m->layers[phys].height, &e) && e.code == CODEC_E_ARG &&
              strstr(e.msg, "resize the game layer") && m->layers[phys].width == w,
          "%s: a physics layer alone is refused (%s)", label, e.msg);
  }
  if (game >= 0) {
    int w = m->layers[game].width;
    CHECK(!tw_layer_resize(m, (size_t)game, 0, 5, &e) && m->layers[game].width == w, "%s: width 0 refused", label);
    CHECK(!tw_layer_resize(m, (size_t)game, 100000, 100000, &e) && m->layers[game].width == w,
          "%s: too many cells refused", label);
  }
  if (quads >= 0) CHECK(!tw_layer_resize(m, (size_t)quads, 3, 3, &e), "%s: a quads layer has no size", label);
  if (tiles >= 0) {
    int gw = game >= 0 ? m->layers[game].width : 0;
    CHECK(tw_layer_resize(m, (size_t)tiles, 3, 2, &e) && m->layers[tiles].width == 3 &&
              m->layers[tiles].height == 2 && (game < 0 || m->layers[game].width == gw),
          "%s: a tiles layer resizes alone: %s", label, e.msg);
  }
  tw_map_free(m);
}

/* The cases on one map: on a sample map, or with LEVELSQL_TORTURE=1, all
** three resizes; on the k-th corpus map otherwise, resize k mod 3 alone
** (each serialization recompresses every layer, most of the test's time),
** so that every resize still runs on a third of the corpus.  The
** refusals on every map. */
static void map_cases(const unsigned char *buf, size_t n, const char *name, const char *label) {
  static int corpus_maps_seen;
  int torture = getenv("LEVELSQL_TORTURE") && atoi(getenv("LEVELSQL_TORTURE")) > 0;
  int every = strncmp(label, "corpus ", 7) != 0 || torture;
  int only = every ? -1 : corpus_maps_seen++ % 3;
  (void)name;
  if (only < 0 || only == 0) resize_case(buf, n, 5, 3, 0, 1, label);
  if (only < 0 || only == 1) resize_case(buf, n, 0, 0, 1, 1, label);
  if (only < 0 || only == 2) resize_case(buf, n, 7, -1, 0, 0, label);
  refusals(buf, n, label);
}

int main(void) {
  have_resave = access(DDNET_TOOLS "/map_resave", X_OK) == 0;
  if (have_resave) {
    strcpy(tmpdir, "/tmp/levelsql_twrs_XXXXXX");
    have_resave = ddnet_workspace_open(tmpdir);
  }
  if (!have_resave) SKIP("map_resave not installed: DDNet comparisons");
  ddnet_each_test_map("resizes", map_cases);
  if (have_resave) ddnet_workspace_close(tmpdir);
  return check_done();
}
