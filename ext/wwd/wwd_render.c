/*
** wwd_render.c: wwd_render(file, plane [, options]), a PNG of a WWD
** plane's collision map (codecs/wwd/render_wwd.h draws it) read through
** the session (engine.h, "SQL functions that read files"), what
** levelsql_atlas shows of a level (wwd_atlas), and the family's function
** hook.
*/
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/text8.h"
#include "wwd/render_wwd.h"
#include "engine/engine.h"
#include "wwd/wwd_tables.h"

/* ---- wwd_render ----------------------------------------------------------------- */

/* The plane an argument names: its number, or its name (ASCII, any case).
** Returns 1 and *plane, or 0 after failing the call. */
static int find_plane(sqlite3_context *ctx, const char *fn, const char *path, const wwd_level *lvl, sqlite3_value *arg,
                      uint32_t *plane) {
  uint32_t i;
  if (sqlite3_value_type(arg) == SQLITE_INTEGER) {
    sqlite3_int64 v = sqlite3_value_int64(arg);
    if (v >= 0 && v < lvl->num_planes) {
      *plane = (uint32_t)v;
      return 1;
    }
    render_error(ctx, fn, "%s: no plane %lld (the level has %u: 0 to %u)", path, (long long)v, lvl->num_planes,
                 lvl->num_planes ? lvl->num_planes - 1 : 0);
    return 0;
  }
  if (sqlite3_value_type(arg) == SQLITE_TEXT) {
    const char *name = (const char *)sqlite3_value_text(arg);
    for (i = 0; name && i < lvl->num_planes; i++) {
      const unsigned char *pn;
      size_t len = wwd_fixed_string(lvl->planes[i].header + WWD_PLANE_NAME, 64, &pn);
      if (len == strlen(name) && sqlite3_strnicmp((const char *)pn, name, (int)len) == 0) {
        *plane = i;
        return 1;
      }
    }
    render_error(ctx, fn, "%s: no plane named '%s'", path, name ? name : "");
    return 0;
  }
  render_error(ctx, fn, "the plane is a plane number (wwd_planes.plane) or a plane name, e.g. wwd_render(file, 1)");
  return 0;
}

/* wwd_render(file, plane [, options]): a PNG of the plane's collision map
** (render_wwd.h).  Options: tile=N (pixels per tile, 1..64; default: the
** largest with which the longer side fits 2048), objects=0|1 (markers; 1),
** background=RRGGBB[AA] (default none). */
static void wwd_render_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "wwd_render";
  wwd_render_opts o;
  render_option opts[] = {
    {"tile", OPT_INT, 1, 64, &o.tile, NULL},
    {"objects", OPT_FLAG, 0, 1, &o.objects, NULL},
    {"background", OPT_COLOR, 0, 0, &o.background, NULL},
  };
  render_file rf;
  codec_error err = {{0}, 0};
  unsigned char *png = NULL;
  size_t n = 0;
  uint32_t plane;
  ls_interrupt ic;
  codec_cancel cancel;
  wwd_render_defaults(&o);
  if (!parse_options(ctx, fn, argc > 2 ? argv[2] : NULL, opts, sizeof opts / sizeof opts[0])) return;
  if (!render_file_open(ctx, fn, argv[0], &wwd_format, &rf)) return;
  ls_interrupt_init(&ic, sqlite3_context_db_handle(ctx));
  cancel = ls_interrupt_cancel(&ic);
  o.cancel = &cancel;
  if (find_plane(ctx, fn, rf.path, rf.data, argv[1], &plane)) {
    if (wwd_render_png(rf.data, plane, &o, &png, &n, &err)) result_take(ctx, png, n, 0);
    else codec_result_error(ctx, fn, rf.path, &err);
  }
  ls_interrupt_done(&ic);
  render_file_done(&rf);
}

/* ---- the atlas ------------------------------------------------------------------ */

/* A string of the level as UTF-8 (the atlas reads the default code page,
** cp1252), malloc'd; NULL when out of memory. */
static char *level_text(const unsigned char *s, size_t n, size_t *len) {
  return text8_decode(s, n, TEXT8_CP1252, len);
}

/* The card of a level: its objects per logic (every plane), and the main
** plane's collision map with a marker per object labelled by its logic. */
static int wwd_atlas_draw(void *model, const char *path, const ls_atlas_opts *o, ls_atlas_card *card,
                          codec_error *err) {
  const wwd_level *lvl = model;
  long main = wwd_main_plane(lvl);
  uint32_t p, k, plane = main >= 0 ? (uint32_t)main : 0;
  wwd_render_opts ro;
  canvas c;
  ls_atlas_picture *pic;
  char caption[96];
  (void)path;
  for (p = 0; p < lvl->num_planes; p++) {
    for (k = 0; k < lvl->planes[p].num_objects; k++) {
      const wwd_bytes *logic = &lvl->planes[p].objects[k].str[WWD_STR_LOGIC];
      size_t len;
      char *name = level_text(logic->data, logic->len, &len);
      int ok = name && ls_atlas_number_add(card, "objects per logic", len ? name : "(none)", len ? len : 6, 1, err);
      free(name);
      if (!ok) return name ? 0 : codec_fail_oom(err, "out of memory");
    }
  }
  if (!ls_atlas_number_add(card, NULL, "objects", 7, (int64_t)wwd_num_objects(lvl), err) ||
      !ls_atlas_number_add(card, NULL, "planes", 6, lvl->num_planes, err))
    return 0;
  if (!lvl->num_planes) return ls_atlas_note(card, "the level has no plane to draw", err) && codec_fail(err, "no plane");
  wwd_render_defaults(&ro);
  ro.fit = o->large;
  ro.cancel = o->cancel;
  if (!wwd_render_canvas(lvl, plane, &ro, &c, err)) return 0;
  {
    const wwd_plane *pl = &lvl->planes[plane];
    size_t len;
    const unsigned char *pn;
    char *name;
    len = wwd_fixed_string(pl->header + WWD_PLANE_NAME, 64, &pn);
    name = level_text(pn, len, &len);
    snprintf(caption, sizeof caption, "plane %u: %.64s%s, objects labelled by logic", plane, name ? name : "",
             main >= 0 ? " (main)" : "");
    free(name);
  }
  pic = ls_atlas_add_canvas(card, caption, &c, o, err);
  if (pic) {
    const wwd_plane *pl = &lvl->planes[plane];
    uint32_t tw = le32_load(pl->header + WWD_PLANE_TILE_WIDTH), th = le32_load(pl->header + WWD_PLANE_TILE_HEIGHT);
    double ts = pl->tiles_wide ? (double)c.w / pl->tiles_wide : 1;
    if (tw == 0 || tw > 65536) tw = 64; /* as render_wwd.c places its markers */
    if (th == 0 || th > 65536) th = 64;
    for (k = 0; pic && k < pl->num_objects; k++) {
      const wwd_object *ob = &pl->objects[k];
      const wwd_bytes *logic = &ob->str[WWD_STR_LOGIC];
      canvas_color col = canvas_name_color((const char *)logic->data, logic->len, 255);
      size_t len;
      char *name = level_text(logic->data, logic->len, &len);
      if (!name || !ls_atlas_marker_add(pic, ob->field[WWD_OBJ_X] * ts / tw, ob->field[WWD_OBJ_Y] * ts / th,
                                        (uint32_t)col.r << 16 | (uint32_t)col.g << 8 | col.b, name, len, err))
        pic = NULL;
      if (!name) codec_fail_oom(err, "out of memory");
      free(name);
    }
  }
  canvas_free(&c);
  return pic != NULL;
}

static const char *const wwd_atlas_queries[] = {
  "SELECT logic, count(*) AS objects FROM wwd_objects({file}) GROUP BY logic ORDER BY objects DESC;",
  "SELECT plane, name, is_main, tiles_wide, tiles_high, num_objects FROM wwd_planes({file});",
  "SELECT plane, idx, name, logic, x, y FROM wwd_objects({file}) WHERE logic LIKE '%Officer%';",
  "SELECT writefile('plane1.png', wwd_render({file}, 1));",
  NULL,
};

const ls_atlas_kind wwd_atlas = {
  .format = &wwd_format, .noun = "level", .draw = wwd_atlas_draw, .queries = wwd_atlas_queries,
};

/* ---- registration ----------------------------------------------------------------- */

/* The family's hook (ls_family.register_functions): the functions of wwd_functions.c and wwd_render. */
int wwd_register_functions(sqlite3 *db, ls_session *sess) {
  static const ls_session_function fns[] = {
    {"wwd_render", 2, 3, wwd_render_func},
  };
  int rc = wwd_functions_register(db);
  if (rc == SQLITE_OK) rc = ls_register_session_functions(db, sess, fns, sizeof fns / sizeof fns[0]);
  return rc;
}
