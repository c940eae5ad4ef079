/*
** test_twmap_edit.c: structural edits of Teeworlds / DDNet maps
** (codecs/tw/twmap_edit.h) on every generated sample ($LEVELSQL_SAMPLES) and
** every corpus map ($LEVELSQL_CORPUS/tw):
** - one script of edits (a group, a layer of every kind the map may take, a
**   quad, a sound source, an envelope, an image, a sound added; an
**   envelope, an image, a quad and a layer removed) leaves a map our reader
**   reads whole, with the counts and references the edits imply, and rows
**   keep their keys while rows before them come and go (twmap.h, "row keys");
** - DDNet's map_resave (Debian's ddnet-tools; skipped when absent) reads
**   every result and writes it back byte for byte;
** - the refusals: the game layer and its group stay, a used envelope or
**   image stays and the message names its user; a sound source's size
**   follows its shape (tw_source_size).
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ddnet_peer.h"
#include "fileutil.h"
#include "tw/twmap.h"
#include "tw/twmap_edit.h"

static int have_tools;
static char tmpdir[256];

/* Counts and checks every layer decodes: 1 when the whole map reads. */
static int map_reads_whole(tw_map *m, codec_error *e) {
  size_t l;
  if (!tw_map_decode_items(m, e)) return 0;
  for (l = 0; l < m->num_layers; l++)
    if (m->layers[l].kind != TW_KIND_UNKNOWN && !tw_layer_load(m, l, e)) return 0;
  return 1;
}

/* Whether DDNet's map_resave reads bytes o[0..on) and writes them back
** unchanged. */
static int resaves_identically(const unsigned char *o, size_t on, const char *label) {
  char in[512], out[512];
  unsigned char *r;
  size_t rn = 0;
  int same;
  snprintf(in, sizeof in, "%s/edited.map", tmpdir);
  snprintf(out, sizeof out, "%s/resaved.map", tmpdir);
  if (!file_write_all(in, o, on) || ddnet_run(tmpdir, "map_resave", in, "resaved.map", NULL) != 0) {
    printf("  %s: map_resave failed\n", label);
    unlink(in);
    return 0;
  }
  r = file_read_all(out, &rn);
  same = r && rn == on && memcmp(r, o, on) == 0;
  free(r);
  unlink(in);
  unlink(out);
  return same;
}

/* The script of edits on one map; each step is a check. */
static void edit_map(const char *path, const char *label) {
  size_t n = 0, on = 0, l, groups, layers, images, envs, sounds, tl = 0, ql = 0, sl = 0;
  unsigned char *buf = file_read_all(path, &n), *o = NULL;
  tw_map *m = NULL, *m2 = NULL;
  codec_error e;
  long game;
  int64_t quad_key, layer_key = -1, removed_key = -1;
  if (!buf || !tw_map_parse(buf, n, &m, &e)) {
    CHECK(0, "%s: parse", label);
    free(buf);
    return;
  }
  groups = m->num_groups;
  layers = m->num_layers;
  images = m->num_images;
  envs = m->num_envelopes;
  sounds = m->num_sounds;
  game = tw_map_game_layer(m);
  if (game >= 0) {
    CHECK(!tw_layer_delete(m, (size_t)game, &e) && strstr(e.msg, "game layer"), "%s: the game layer stays: %s", label,
          e.msg);
    CHECK(!tw_group_delete(m, (size_t)m->layers[game].group, &e) && strstr(e.msg, "game layer"),
          "%s: the game group stays: %s", label, e.msg);
    CHECK(!tw_layer_insert(m, (size_t)m->layers[game].group, 0, TW_KIND_GAME, 0, 0, &l, &e),
          "%s: a second game layer is refused", label);
  }
  /* Kinds by name, as an INSERT gives them: a name the codec does not know
  ** is refused naming the column, before anything is added. */
  CHECK(!tw_layer_insert_named(m, 0, TW_LAST, "bogus", 0, 0, &l, &e) && strstr(e.msg, "column kind: 'bogus' is not a kind") &&
            m->num_layers == layers,
        "%s: an unknown layer kind is refused: %s", label, e.msg);
  CHECK(!tw_envelope_insert_named(m, NULL, &e) && strstr(e.msg, "column kind: an INSERT into tw_envelopes needs the kind") &&
            !tw_envelope_insert_named(m, "colour", &e) && m->num_envelopes == envs,
        "%s: an envelope needs a known kind: %s", label, e.msg);
  /* The kind names and channel counts are one mapping, both ways. */
  CHECK(tw_envelope_kind_channels("sound") == 1 && tw_envelope_kind_channels("position") == 3 &&
            tw_envelope_kind_channels("color") == 4 && tw_envelope_kind_channels("unknown") == 0 &&
            tw_envelope_kind_channels(NULL) == 0 && strcmp(tw_envelope_kind_name(3), "position") == 0 &&
            strcmp(tw_envelope_kind_name(2), "unknown") == 0,
        "%s: envelope kinds by name and by channels", label);
  /* Add: a group last, in it a tile, a quads and a sounds layer. */
  CHECK(tw_group_insert(m, m->num_groups, &e), "%s: group: %s", label, e.msg);
  CHECK(tw_layer_insert(m, m->num_groups - 1, 0, TW_KIND_TILES, 0, 0, &tl, &e), "%s: tile layer: %s", label, e.msg);
  CHECK(tw_layer_insert(m, m->num_groups - 1, 1, TW_KIND_QUADS, 0, 0, &ql, &e), "%s: quads layer: %s", label, e.msg);
  CHECK(tw_layer_insert(m, m->num_groups - 1, 0, TW_KIND_SOUNDS, 0, 0, &sl, &e), "%s: sounds layer: %s", label, e.msg);
  ql = sl + 2;
  tl = sl + 1;
  CHECK(m->layers[tl].kind == TW_KIND_TILES && m->layers[ql].kind == TW_KIND_QUADS, "%s: layer order", label);
  if (game >= 0)
    CHECK(m->layers[tl].width == m->layers[tw_map_game_layer(m)].width, "%s: a tile layer is game-sized", label);
  CHECK(tw_quad_insert(m, ql, 0, &e) && tw_quad_insert(m, ql, 0, &e) && tw_quad_insert(m, ql, 2, &e),
        "%s: quads: %s", label, e.msg);
  quad_key = tw_row_key(m, TW_ROWS_QUADS, ql, 1);
  if (layers) layer_key = tw_row_key(m, TW_ROWS_LAYERS, layers - 1, 0);
  CHECK(tw_source_insert(m, sl, 0, &e), "%s: source: %s", label, e.msg);
  CHECK(tw_envelope_insert(m, 4, &e) && tw_envelope_insert(m, 3, &e), "%s: envelopes: %s", label, e.msg);
  CHECK(tw_image_insert(m, "jungle_main", 11, 1024, 1024, &e), "%s: image: %s", label, e.msg);
  CHECK(tw_sound_insert(m, "rain", 4, &e), "%s: sound: %s", label, e.msg);
  /* Use the new envelope and image, then refuse to remove them. */
  {
    tw_quad q;
    tw_layer_info li;
    CHECK(tw_quad_get(m, ql, 1, &q, &e), "%s: quad get", label);
    q.color_env = (int)m->num_envelopes - 2;
    CHECK(tw_quad_set(m, ql, 1, &q, &e), "%s: quad set: %s", label, e.msg);
    CHECK(!tw_envelope_delete(m, m->num_envelopes - 2, &e) && strstr(e.msg, "quad 1 of layer"),
          "%s: a used envelope stays: %s", label, e.msg);
    CHECK(tw_layer_get(m, tl, &li, &e), "%s: layer get", label);
    li.image = (int)m->num_images - 1;
    CHECK(tw_layer_set(m, tl, &li, &e), "%s: layer set: %s", label, e.msg);
    CHECK(!tw_image_delete(m, m->num_images - 1, &e) && strstr(e.msg, "used by layer"), "%s: a used image stays: %s",
          label, e.msg);
  }
  /* Remove: the unused position envelope, a quad, the first original layer
  ** that is not the game layer, the first envelope and image when unused. */
  CHECK(tw_envelope_delete(m, m->num_envelopes - 1, &e), "%s: envelope delete: %s", label, e.msg);
  CHECK(tw_quad_delete(m, ql, 0, &e), "%s: quad delete: %s", label, e.msg);
  for (l = 0; l < m->num_layers && (m->layers[l].kind == TW_KIND_GAME || m->layers[l].group < 0); l++) {
  }
  if (l < layers) {
    removed_key = tw_row_key(m, TW_ROWS_LAYERS, l, 0);
    if (l == layers - 1) layer_key = -1;
    CHECK(tw_layer_delete(m, l, &e), "%s: layer %zu delete: %s", label, l, e.msg);
    tl--;
    ql--;
    sl--;
  }
  if (envs && tw_envelope_delete(m, 0, &e)) envs--;
  /* Row keys (twmap.h): a row keeps its key while rows before it come and
  ** go, and a removed row's key names nothing. */
  {
    size_t at = 0, index = 0;
    CHECK(tw_row_find(m, TW_ROWS_QUADS, quad_key, &at, &index) && at == ql && index == 0,
          "%s: the second quad keeps its key as the first (layer %zu, quad %zu)", label, at, index);
    CHECK(layer_key < 0 || (tw_row_find(m, TW_ROWS_LAYERS, layer_key, &at, &index) && at == layers - 1 - (l < layers)),
          "%s: the last original layer keeps its key (at %zu)", label, at);
    CHECK(removed_key < 0 || !tw_row_find(m, TW_ROWS_LAYERS, removed_key, &at, &index), "%s: a removed layer's key is gone",
          label);
  }
  CHECK(m->num_groups == groups + 1 && m->num_images == images + 1 && m->num_envelopes == envs + 1 &&
            m->num_sounds == sounds + 1 && m->num_layers == layers + 3 - (l < layers),
        "%s: counts after the edits (groups %zu/%zu images %zu/%zu envelopes %zu/%zu sounds %zu/%zu layers %zu/%zu)",
        label, m->num_groups, groups, m->num_images, images, m->num_envelopes, envs, m->num_sounds, sounds,
        m->num_layers, layers);
  CHECK(tw_map_serialize(m, DF_WRITE_RECOMPRESS, &o, &on, &e), "%s: serialize: %s", label, e.msg);
  CHECK(o && tw_map_parse(o, on, &m2, &e) && map_reads_whole(m2, &e), "%s: the result reads whole: %s", label, e.msg);
  if (m2) {
    tw_quad q;
    tw_layer_info li;
    tw_source s;
    CHECK(m2->num_layers == m->num_layers && m2->num_groups == m->num_groups && m2->num_envelopes == m->num_envelopes,
          "%s: counts read back", label);
    CHECK(m2->layers[ql].kind == TW_KIND_QUADS && m2->layers[ql].count == 2 && tw_quad_get(m2, ql, 0, &q, &e) &&
              q.color_env == (int)m2->num_envelopes - 1 && q.colors[0][0] == 255 && q.points[1][0] == 32768,
          "%s: the quads read back, references followed", label);
    CHECK(tw_layer_get(m2, tl, &li, &e) && li.image == (int)m2->num_images - 1 && li.color[3] == 255 &&
              li.color_env == -1,
          "%s: the tile layer reads back", label);
    CHECK(tw_source_get(m2, sl, 0, &s, &e) && s.shape == 1 && s.width == 1500 && s.loop == 1 && s.falloff == 80,
          "%s: the source reads back", label);
  }
  if (have_tools && o) CHECK(resaves_identically(o, on, label), "%s: map_resave writes the result back identically", label);
  free(o);
  free(buf);
  tw_map_free(m2);
  tw_map_free(m);
}

/* A sound source's size by its shape (tw_source_size): a circle keeps its
** radius in width, a rectangle its width and height; the other shape's
** values given are refused, naming them.  tw_source_sides reads them back,
** -1 for the values the shape lacks. */
static void source_sizes(void) {
  tw_source s;
  const char *field = "";
  codec_error e;
  int w, h, r;
  memset(&s, 0, sizeof s);
  s.shape = 1;
  CHECK(tw_source_size(&s, -1, -1, 700, TW_GIVEN_RADIUS, &field, &e) && s.width == 700 && s.height == 0,
        "a circle of radius 700");
  tw_source_sides(&s, &w, &h, &r);
  CHECK(w == -1 && h == -1 && r == 700, "a circle's sides: %d %d %d", w, h, r);
  CHECK(!tw_source_size(&s, 5, -1, 700, TW_GIVEN_WIDTH, &field, &e) && strcmp(field, "width") == 0 &&
            strstr(e.msg, "no width or height"),
        "a circle takes no width: %s %s", field, e.msg);
  CHECK(!tw_source_size(&s, -1, -1, -1, 0, &field, &e) && strcmp(field, "radius") == 0, "a circle needs a radius");
  s.shape = 0;
  CHECK(tw_source_size(&s, 10, 20, 700, 0, &field, &e) && s.width == 10 && s.height == 20,
        "a rectangle 10 x 20 (the radius it had as a circle, not given, is dropped)");
  tw_source_sides(&s, &w, &h, &r);
  CHECK(w == 10 && h == 20 && r == -1, "a rectangle's sides: %d %d %d", w, h, r);
  CHECK(!tw_source_size(&s, 10, 20, 700, TW_GIVEN_RADIUS, &field, &e) && strcmp(field, "radius") == 0,
        "a rectangle takes no radius");
  CHECK(!tw_source_size(&s, 10, -1, -1, 0, &field, &e) && strcmp(field, "height") == 0 && strstr(e.msg, "needs"),
        "a rectangle needs a height: %s", field);
}

/* Every .map file of dir. */
static void edit_maps_in(const char *dir) {
  char *names[256];
  struct dirent *de;
  DIR *dh = opendir(dir);
  int n = 0, i;
  if (!dh) {
    SKIP("%s missing", dir);
    return;
  }
  while ((de = readdir(dh)) != NULL && n < 256) {
    size_t len = strlen(de->d_name);
    if (len >= 4 && strcmp(de->d_name + len - 4, ".map") == 0) names[n++] = strdup(de->d_name);
  }
  closedir(dh);
  qsort(names, (size_t)n, sizeof *names, ddnet_name_cmp);
  CHECK(n > 0, "%s has maps", dir);
  for (i = 0; i < n; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    edit_map(path, names[i]);
    free(names[i]);
  }
}

int main(void) {
  const char *samples = getenv("LEVELSQL_SAMPLES");
  const char *corpus = check_corpus_dir();
  have_tools = access(DDNET_TOOLS "/map_resave", X_OK) == 0;
  if (have_tools) {
    strcpy(tmpdir, "/tmp/levelsql_twedit_XXXXXX");
    have_tools = ddnet_workspace_open(tmpdir);
  }
  if (!have_tools) SKIP("map_resave not installed: byte identity with DDNet");
  source_sizes();
  if (samples) edit_maps_in(samples);
  else SKIP("LEVELSQL_SAMPLES unset: samples");
  if (corpus) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tw", corpus);
    edit_maps_in(dir);
  } else {
    SKIP("LEVELSQL_CORPUS unset: corpus tests");
  }
  if (have_tools) ddnet_workspace_close(tmpdir);
  return check_done();
}
