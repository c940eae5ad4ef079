/*
** wed_render.c: wed_render(file [, options]), an SVG (or PNG) of a WED
** area's geometry (codecs/wed/render_wed.h draws it) read through the
** session (engine.h, "SQL functions that read files"), with the tiles of
** its tileset under it when asked (tiles=1: the TIS and its PVRZ pages
** found beside it on disk or in its game, ext/tis/tis_lookup.h), and the
** family's function hook.
*/
#include <stdlib.h>
#include <string.h>

#include "tis/tis_lookup.h"
#include "wed/render_wed.h"
#include "engine/engine.h"
#include "wed/wed_tables.h"

/* ---- wed_render ------------------------------------------------------------------ */

/* The tiles of wed_render: the tileset the base overlay names, found in
** `folder` (the tilesets option: a folder, or a game's folder or key) or
** beside the WED (on disk, or among a game's resources for a WED of a
** game: tis_lookup.h), opened into *ts and handed to the render options.
** Returns 1, or 0 after failing the call. */
static int open_tiles(sqlite3_context *ctx, const char *fn, const render_file *rf, const char *folder,
                      wed_render_opts *o, tis_tileset *ts) {
  const wed_area *a = rf->data;
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  codec_error err = {{0}, 0};
  size_t len = a->num_overlays ? wed_resref_len(a->overlays[0].tileset) : 0;
  if (!len) {
    render_error(ctx, fn, "%s: tiles=1: the base overlay names no tileset", rf->path);
    return 0;
  }
  if (!tis_tileset_open(ts, db, folder ? folder : rf->path, folder ? LS_FIND_IN : LS_FIND_BESIDE,
                        (const char *)a->overlays[0].tileset, len, tis_decoded_limit(db), &err)) {
    if (err.code == CODEC_E_MEMORY) sqlite3_result_error_nomem(ctx);
    else if (err.code == CODEC_E_INTERRUPT) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
    else render_error(ctx, fn, "%s: tiles=1: %s%s", rf->path, err.msg,
                      folder ? "" : " (the tilesets option names another folder)");
    return 0;
  }
  o->tile = tis_tileset_tile;
  o->tile_ctx = ts;
  return 1;
}

/* The options of wed_render that depend on tiles=1: the format (png with
** tiles, else svg), door_tiles, and grid, doors and walls (given, else 1
** without tiles and 0 with them).  Returns 1, or 0 after failing the call. */
static int resolve_options(sqlite3_context *ctx, const char *fn, wed_render_opts *o, const char *format,
                           const char *door_tiles, int *png) {
  if (format && sqlite3_stricmp(format, "png") != 0 && sqlite3_stricmp(format, "svg") != 0) {
    render_error(ctx, fn, "option format takes svg (the default) or png, not '%s'", format);
    return 0;
  }
  *png = format ? sqlite3_stricmp(format, "png") == 0 : o->tiles;
  if (o->tiles && !*png) {
    render_error(ctx, fn, "tiles=1 draws a PNG: leave out format or give format=png");
    return 0;
  }
  if (door_tiles && sqlite3_stricmp(door_tiles, "closed") != 0 && sqlite3_stricmp(door_tiles, "open") != 0) {
    render_error(ctx, fn, "option door_tiles takes closed (each door as the area starts, the default) or open, "
                 "not '%s'", door_tiles);
    return 0;
  }
  o->doors_open = door_tiles && sqlite3_stricmp(door_tiles, "open") == 0;
  if (o->grid < 0) o->grid = !o->tiles;
  if (o->doors < 0) o->doors = !o->tiles;
  if (o->walls < 0) o->walls = !o->tiles;
  return 1;
}

/* wed_render(file [, options]): SVG text of the area (render_wed.h), or a
** PNG with format=png.  Options: format=svg|png (svg), grid=0|1, doors=0|1,
** walls=0|1 (all 1), and for PNG scale=X (pixels per area pixel, up to 4;
** default: fits 2048, at most 1) and background=RRGGBB[AA] (none).
** tiles=1 draws the base overlay's tiles (a PNG; grid, doors and walls
** then default to 0, drawn over the tiles when given 1): the tileset the
** overlay names, <resref>.TIS found beside the WED (a game's WED: in the
** game, override folder first, then archives) or in tilesets=DIR (a
** folder, or a game: its folder or chitin.key), its PVRZ pages beside
** it; door_tiles=closed (each door as the area starts) or open; the scale
** rounded down to n/64. */
static void wed_render_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "wed_render";
  wed_render_opts o;
  char *format = NULL, *door_tiles = NULL, *tilesets = NULL;
  render_option opts[] = {
    {"format", OPT_TEXT, 0, 0, &format, NULL},     {"grid", OPT_FLAG, 0, 1, &o.grid, NULL},
    {"doors", OPT_FLAG, 0, 1, &o.doors, NULL},     {"walls", OPT_FLAG, 0, 1, &o.walls, NULL},
    {"scale", OPT_REAL, 0, 4, &o.scale, NULL},     {"background", OPT_COLOR, 0, 0, &o.background, NULL},
    {"tiles", OPT_FLAG, 0, 1, &o.tiles, NULL},     {"door_tiles", OPT_TEXT, 0, 0, &door_tiles, NULL},
    {"tilesets", OPT_TEXT, 0, 0, &tilesets, NULL},
  };
  render_file rf;
  tis_tileset ts;
  codec_error err = {{0}, 0};
  unsigned char *out = NULL;
  size_t n = 0;
  int png = 0, ok;
  ls_interrupt ic;
  codec_cancel cancel;
  wed_render_defaults(&o);
  o.grid = o.doors = o.walls = -1; /* not given: resolve_options decides */
  memset(&ts, 0, sizeof ts);
  if (!parse_options(ctx, fn, argc > 1 ? argv[1] : NULL, opts, sizeof opts / sizeof opts[0])) goto done;
  if (!resolve_options(ctx, fn, &o, format, door_tiles, &png)) goto done;
  if (!render_file_open(ctx, fn, argv[0], &wed_format, &rf)) goto done;
  if (!o.tiles || open_tiles(ctx, fn, &rf, tilesets, &o, &ts)) {
    ls_interrupt_init(&ic, sqlite3_context_db_handle(ctx));
    cancel = ls_interrupt_cancel(&ic);
    o.cancel = &cancel;
    ok = png ? wed_render_png(rf.data, &o, &out, &n, &err) : wed_render_svg(rf.data, &o, (char **)&out, &n, &err);
    if (ok) result_take(ctx, out, n, !png);
    else codec_result_error(ctx, fn, rf.path, &err);
    ls_interrupt_done(&ic);
  }
  tis_tileset_close(&ts);
  render_file_done(&rf);
done:
  sqlite3_free(format);
  sqlite3_free(door_tiles);
  sqlite3_free(tilesets);
}

/* ---- registration ----------------------------------------------------------------- */

/* The family's hook (ls_family.register_functions): the functions of wed_functions.c and wed_render. */
int wed_register_functions(sqlite3 *db, ls_session *sess) {
  static const ls_session_function fns[] = {
    {"wed_render", 1, 2, wed_render_func},
  };
  int rc = wed_functions_register(db);
  if (rc == SQLITE_OK) rc = ls_register_session_functions(db, sess, fns, sizeof fns / sizeof fns[0]);
  return rc;
}
