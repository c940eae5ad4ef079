/*
** tw_render.c: the Teeworlds / DDNet functions that read a whole map
** through the session (engine.h, "SQL functions that read files"):
**
**   tw_render(file [, options])   PNG of the map (codecs/tw/render_tw.h)
**   tw_resave(file)               the map's bytes as DDNet's map_resave writes them
**
** what levelsql_atlas shows of a map (tw_atlas), and the family's
** function hook, which registers them with tw_tile_name and tw_tile_id
** (tw_functions.c).
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tw/render_tw.h"
#include "engine/engine.h"
#include "tw/twmap.h"
#include "tw/tw_tables.h"

/* The largest mapres image file read (a 16384 x 1024 PNG is far smaller). */
#define MAPRES_FILE_MAX (64 * 1024 * 1024)

/* ---- tw_render ------------------------------------------------------------------ */

/* mapres=FOLDER: an external image NAME is FOLDER/NAME.png.  Names that
** could leave the folder (a '/', a '\', a leading '.') or hold a NUL are
** not looked up; a missing file leaves the image in one colour; a file
** that is not a PNG libpng reads fails the render. */
static int mapres_load(void *ctx, const char *name, size_t len, canvas *out, codec_error *err) {
  const char *folder = ctx;
  char *path;
  FILE *fp;
  unsigned char *data;
  long size;
  int ok;
  if (!len || name[0] == '.' || memchr(name, '/', len) || memchr(name, '\\', len) || memchr(name, 0, len)) return 0;
  if (!(path = sqlite3_mprintf("%s/%.*s.png", folder, (int)len, name))) return codec_fail_oom(err, "out of memory"), -1;
  fp = fopen(path, "rb");
  if (!fp) {
    int missing = errno == ENOENT;
    if (!missing) codec_fail(err, "%s: cannot open: %s", path, strerror(errno));
    sqlite3_free(path);
    return missing ? 0 : -1;
  }
  if (fseek(fp, 0, SEEK_END) != 0 || (size = ftell(fp)) < 0 || size > MAPRES_FILE_MAX || fseek(fp, 0, SEEK_SET) != 0) {
    codec_fail_limit(err, "%s: cannot read, or larger than %d bytes", path, MAPRES_FILE_MAX);
    fclose(fp);
    sqlite3_free(path);
    return -1;
  }
  data = malloc(size ? (size_t)size : 1);
  if (!data || fread(data, 1, (size_t)size, fp) != (size_t)size) {
    if (data) codec_fail(err, "%s: cannot read", path);
    else codec_fail_oom(err, "out of memory");
    free(data);
    fclose(fp);
    sqlite3_free(path);
    return -1;
  }
  fclose(fp);
  ok = canvas_png_decode(data, (size_t)size, out, err);
  if (!ok) codec_prefix(err, "%s: ", path);
  free(data);
  sqlite3_free(path);
  return ok ? 1 : -1;
}

/* tw_render(file [, options]): a PNG of the map (render_tw.h).  Options:
** tile=N (pixels per tile, 1..64; default: the largest with which the
** longer side fits 2048), entities=0|1 (the physics layers on top; 1),
** detail=0|1 (1), quads=0|1 (1), groups=I|J, layers=I|J (tw_layers'
** grp and layer_index; default all), mapres=FOLDER (external images from
** FOLDER/NAME.png; default none: one colour each), background=RRGGBB[AA]
** (default none, transparent). */
static void tw_render_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "tw_render";
  tw_render_opts o;
  long groups[RENDER_LIST_MAX], layers[RENDER_LIST_MAX];
  size_t ngroups = 0, nlayers = 0;
  char *mapres = NULL;
  int have_groups, have_layers;
  ls_interrupt ic;
  codec_cancel cancel;
  render_option opts[] = {
    {"tile", OPT_INT, 1, 64, &o.tile, NULL},         {"entities", OPT_FLAG, 0, 1, &o.entities, NULL},
    {"detail", OPT_FLAG, 0, 1, &o.detail, NULL},     {"quads", OPT_FLAG, 0, 1, &o.quads, NULL},
    {"groups", OPT_LIST, 0, 1 << 20, groups, &ngroups}, {"layers", OPT_LIST, 0, 1 << 20, layers, &nlayers},
    {"mapres", OPT_TEXT, 0, 0, &mapres, NULL},       {"background", OPT_COLOR, 0, 0, &o.background, NULL},
  };
  render_file rf;
  codec_error err = {{0}, 0};
  unsigned char *png = NULL;
  size_t n = 0;
  struct stat st;
  tw_render_defaults(&o);
  if (!parse_options(ctx, fn, argc > 1 ? argv[1] : NULL, opts, sizeof opts / sizeof opts[0])) goto done;
  if (mapres && (stat(mapres, &st) != 0 || !S_ISDIR(st.st_mode))) {
    render_error(ctx, fn, "option mapres: '%s' is not a folder", mapres);
    goto done;
  }
  have_groups = ngroups > 0, have_layers = nlayers > 0;
  o.groups = have_groups ? groups : NULL, o.ngroups = ngroups;
  o.layers = have_layers ? layers : NULL, o.nlayers = nlayers;
  o.external = mapres ? mapres_load : NULL;
  o.external_ctx = mapres;
  if (!render_file_open(ctx, fn, argv[0], &tw_format, &rf)) goto done;
  ls_interrupt_init(&ic, sqlite3_context_db_handle(ctx));
  cancel = ls_interrupt_cancel(&ic);
  o.cancel = &cancel;
  if (tw_render_png(rf.data, &o, &png, &n, &err)) result_take(ctx, png, n, 0);
  else codec_result_error(ctx, fn, rf.path, &err);
  ls_interrupt_done(&ic);
  render_file_done(&rf);
done:
  sqlite3_free(mapres);
}

/* ---- tw_resave ------------------------------------------------------------------ */

/* tw_resave(file): the bytes DDNet's map_resave writes for the map as the
** transaction sees it (every blob inflated and compressed again with zlib
** level 6), as a BLOB; the file on disk is not touched.  Writes through the
** tables keep unchanged blobs as read, so this is how to get a map whose
** bytes match map_resave's:  SELECT writefile(file, tw_resave(file)) ...
** The map is copied first: recompressing inflates every blob, which must
** not stay in the session's cached model. */
static void tw_resave_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "tw_resave";
  render_file rf;
  codec_error err = {{0}, 0};
  unsigned char *out = NULL;
  size_t n = 0;
  tw_map *copy;
  (void)argc;
  if (!render_file_open(ctx, fn, argv[0], &tw_format, &rf)) return;
  if (!(copy = tw_map_clone(rf.data))) sqlite3_result_error_nomem(ctx);
  else if (tw_map_serialize(copy, DF_WRITE_RECOMPRESS, &out, &n, &err)) result_take(ctx, out, n, 0);
  else codec_result_error(ctx, fn, rf.path, &err);
  tw_map_free(copy);
  render_file_done(&rf);
}

/* ---- the atlas ------------------------------------------------------------------ */

/* The name of an entity of the game and front layers (index 192 and
** above: spawns, flags, pickups; DDNet's numbering), for the card's list. */
static const char *entity_name(int id) {
  static const char *const names[] = {"spawn", "red spawn", "blue spawn", "red flag", "blue flag", "armor",
                                      "health", "shotgun", "grenade launcher", "ninja", "laser"};
  return id >= 192 && id < 192 + (int)(sizeof names / sizeof names[0]) ? names[id - 192] : "other entity";
}

/* Counts the non-empty cells of the tiles layers and the entities of the
** game and front layers into the card.  Returns 1, or 0 with err. */
static int count_cells(tw_map *m, const ls_atlas_opts *o, ls_atlas_card *card, codec_error *err) {
  size_t l;
  int64_t tiles = 0, entities = 0;
  for (l = 0; l < m->num_layers; l++) {
    tw_kind kind = m->layers[l].kind;
    int x, y, w = m->layers[l].width, h = m->layers[l].height;
    if (kind != TW_KIND_TILES && kind != TW_KIND_GAME && kind != TW_KIND_FRONT) continue;
    if (!tw_layer_load(m, l, err)) return codec_prefix(err, "layer %zu: ", l);
    for (y = 0; y < h; y++) {
      if (codec_cancelled(o->cancel)) return codec_fail_interrupted(err);
      for (x = 0; x < w; x++) {
        tw_tile t;
        if (!tw_tile_get(m, l, x, y, &t, err)) return codec_prefix(err, "layer %zu: ", l);
        if (t.id == 0) continue;
        if (kind == TW_KIND_TILES) {
          tiles++;
        } else if (t.id >= 192) {
          const char *name = entity_name(t.id);
          entities++;
          if (!ls_atlas_number_add(card, "entities", name, strlen(name), 1, err)) return 0;
        }
      }
    }
  }
  return ls_atlas_number_add(card, NULL, "tiles", 5, tiles, err) &&
         ls_atlas_number_add(card, NULL, "entities", 8, entities, err);
}

/* The pictures of a map: as the game shows it (its tiles and quads, the
** parallax groups from wherever the camera is; the card's), then its
** physics layers alone (tw_render's entity overlay, on a transparent
** ground), when it has any; else a note that it has no game layer. */
static int map_pictures(tw_map *m, const ls_atlas_opts *o, ls_atlas_card *card, codec_error *err) {
  tw_render_opts ro;
  canvas c;
  long *physics = NULL;
  size_t l, n = 0;
  int ok, game = 0;
  tw_render_defaults(&ro);
  ro.fit = o->large;
  ro.external = o->mapres ? mapres_load : NULL;
  ro.external_ctx = (void *)o->mapres;
  ro.cancel = o->cancel;
  ro.entities = 0;
  if (!tw_render_canvas(m, &ro, &c, err)) return 0;
  ok = ls_atlas_add_canvas(card, "the map as the game shows it", &c, o, err) != NULL;
  canvas_free(&c);
  if (ok && m->num_layers && !(physics = malloc(m->num_layers * sizeof *physics))) ok = codec_fail_oom(err, "out of memory");
  for (l = 0; ok && l < m->num_layers; l++) {
    if (m->layers[l].kind >= TW_KIND_GAME && m->layers[l].kind <= TW_KIND_TUNE) physics[n++] = (long)l;
    game |= m->layers[l].kind == TW_KIND_GAME;
  }
  if (ok && !game) ok = ls_atlas_note(card, "the map has no game layer", err);
  if (ok && n) {
    ro.entities = 1;
    ro.layers = physics, ro.nlayers = n;
    ok = tw_render_canvas(m, &ro, &c, err);
    if (ok) {
      ok = ls_atlas_add_canvas(card, "its physics layers: solid dark grey, death red, unhookable blue-grey, freeze dark "
                               "blue, spawns green, pickups yellow, tele purple, speedup orange, switch teal", &c, o, err) != NULL;
      canvas_free(&c);
    }
  }
  free(physics);
  return ok;
}

/* The card of a map: its layers, tiles, entities, groups, quads and
** images, and its pictures (map_pictures). */
static int tw_atlas_draw(void *model, const char *path, const ls_atlas_opts *o, ls_atlas_card *card,
                         codec_error *err) {
  tw_map *m = model; /* the family's model is the codec's map */
  size_t l, i, external = 0;
  int64_t quads = 0;
  int ok;
  (void)path;
  for (l = 0; l < m->num_layers; l++) quads += m->layers[l].kind == TW_KIND_QUADS ? (int64_t)m->layers[l].count : 0;
  if (!ls_atlas_number_add(card, NULL, "layers", 6, (int64_t)m->num_layers, err) || !count_cells(m, o, card, err) ||
      !ls_atlas_number_add(card, NULL, "groups", 6, (int64_t)m->num_groups, err) ||
      !ls_atlas_number_add(card, NULL, "quads", 5, quads, err) ||
      !ls_atlas_number_add(card, NULL, "images", 6, (int64_t)m->num_images, err))
    return 0;
  for (i = 0; i < m->num_images; i++) { /* the external images it draws, found or not, are what it depends on */
    tw_image_info info;
    char *file;
    if (!tw_image_get(m, i, &info, err)) return codec_prefix(err, "image %zu: ", i);
    if (!info.external && info.data_index >= 0) continue;
    external++;
    if (!o->mapres || !info.name.p || !info.name.n || info.name.n > 255) continue;
    if (!(file = sqlite3_mprintf("%s/%.*s.png", o->mapres, (int)info.name.n, info.name.p))) return codec_fail_oom(err, "out of memory");
    ok = ls_atlas_also(card, file, err);
    sqlite3_free(file);
    if (!ok) return 0;
  }
  if (external && !o->mapres &&
      !ls_atlas_note(card, "external images are drawn in one colour each (the atlas's mapres option names their folder)", err))
    return 0;
  return map_pictures(m, o, card, err);
}

static const char *const tw_atlas_queries[] = {
  "SELECT grp, layer, kind, name, width, height, image_name FROM tw_layers({file});",
  "SELECT tw_tile_name('game', id) AS entity, count(*) FROM tw_tiles({file}) WHERE kind = 'game' AND id >= 192 GROUP BY id;",
  "SELECT grp, name, parallax_x, parallax_y, offset_x, offset_y FROM tw_groups({file});",
  "SELECT writefile('map.png', tw_render({file}, 'mapres=/usr/share/games/ddnet/data/mapres'));",
  NULL,
};

const ls_atlas_kind tw_atlas = {
  .format = &tw_format, .noun = "map", .draw = tw_atlas_draw, .queries = tw_atlas_queries,
};

/* ---- registration ----------------------------------------------------------------- */

/* The family's hook (ls_family.register_functions): tw_tile_name and tw_tile_id (tw_functions.c), tw_render and tw_resave. */
int tw_register_functions(sqlite3 *db, ls_session *sess) {
  static const ls_session_function fns[] = {
    {"tw_render", 1, 2, tw_render_func},
    {"tw_resave", 1, 1, tw_resave_func},
  };
  int rc = tw_functions_register(db);
  if (rc == SQLITE_OK) rc = ls_register_session_functions(db, sess, fns, sizeof fns / sizeof fns[0]);
  return rc;
}
