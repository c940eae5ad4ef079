/*
** wed_render.c: wed_render(file [, options]), an SVG (or PNG) of a WED
** area's geometry (codecs/wed/render_wed.h draws it) read through the
** session (engine.h, "SQL functions that read files"), with the tiles of
** its tileset under it when asked (tiles=1: the TIS and its PVRZ pages
** found beside it on disk or in its game, ext/tis/tis_lookup.h), what
** levelsql_atlas shows of an area (wed_atlas: its tiles, with the actors
** and doors of the ARE file beside it as markers), and the family's
** function hook.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "are/are.h"
#include "common/text8.h"
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

/* ---- the atlas ------------------------------------------------------------------ */

/* What the picture of the area at path depends on besides it: the file
** found (f->path), or, when none was, the folder it was looked for in (a
** file put there later changes the folder). */
static int depends_on(ls_atlas_card *card, const char *path, const ls_found *f, codec_error *err) {
  const char *name = ls_file_name(path);
  char *dir;
  int ok;
  if (f->found) return ls_atlas_also(card, f->path, err);
  if (!(dir = malloc((size_t)(name - path) + 2))) return codec_fail_oom(err, "out of memory");
  if (name > path) memcpy(dir, path, (size_t)(name - path)), dir[name - path] = 0;
  else strcpy(dir, ".");
  ok = ls_atlas_also(card, dir, err);
  free(dir);
  return ok;
}

/* The ARE file beside the WED at path (the same name, .ARE in any case,
** found on disk with ls_find: any thread), parsed into *are, or *are NULL
** when there is none or it does not parse (a note says why).  Returns 1,
** or 0 with err (out of memory, an interrupt). */
static int area_beside(const char *path, const ls_atlas_opts *o, ls_atlas_card *card, are_area **are,
                       codec_error *err) {
  const char *base = ls_file_name(path), *dot = strrchr(base, '.');
  size_t stem = dot ? (size_t)(dot - base) : strlen(base);
  char name[300];
  ls_found f;
  codec_error why = {{0}, 0};
  int ok = 1;
  *are = NULL;
  snprintf(name, sizeof name, "%.*s.ARE", (int)(stem > 250 ? 250 : stem), base);
  if (!ls_find(NULL, path, LS_FIND_BESIDE, name, o->max_decoded, &f, &why)) {
    if (why.code == CODEC_E_MEMORY) ok = codec_fail_oom(err, "out of memory");
    else ok = ls_atlas_note(card, "the ARE beside it does not read: no actors or doors shown", err);
  } else if (!depends_on(card, path, &f, err)) {
    ok = 0;
  } else if (f.found && !(*are = are_parse_cancel(f.data, f.size, o->cancel, &why))) {
    char note[700];
    if (why.code == CODEC_E_MEMORY || why.code == CODEC_E_INTERRUPT) ok = 0, *err = why;
    snprintf(note, sizeof note, "the ARE beside it does not read (%.600s): no actors or doors shown", why.msg);
    if (ok) ok = ls_atlas_note(card, note, err);
  }
  ls_found_clear(&f);
  return ok;
}

/* The tileset of the area opened into ts for drawing its tiles (o->tiles
** set), or a note saying why the picture shows its geometry only.
** Returns 1, or 0 with err (out of memory, an interrupt). */
static int area_tiles(const wed_area *a, const char *path, const ls_atlas_opts *o, ls_atlas_card *card,
                      wed_render_opts *ro, tis_tileset *ts, codec_error *err) {
  size_t len = a->num_overlays ? wed_resref_len(a->overlays[0].tileset) : 0;
  codec_error why = {{0}, 0};
  int ok = 1;
  if (len && tis_tileset_open(ts, NULL, o->tilesets ? o->tilesets : path, o->tilesets ? LS_FIND_IN : LS_FIND_BESIDE,
                              (const char *)a->overlays[0].tileset, len, o->max_decoded, &why)) {
    ro->tiles = 1, ro->tile = tis_tileset_tile, ro->tile_ctx = ts;
    ro->grid = ro->doors = ro->walls = 0;
    ok = ls_atlas_also(card, ts->path, err);
  } else if (why.code == CODEC_E_MEMORY || why.code == CODEC_E_INTERRUPT) {
    *err = why;
    ok = 0;
  } else {
    char note[700];
    ls_found none;
    memset(&none, 0, sizeof none);
    snprintf(note, sizeof note, "its geometry only, no tiles: %.600s", len ? why.msg : "the base overlay names no tileset");
    ok = ls_atlas_note(card, note, err) &&
         (o->tilesets ? ls_atlas_also(card, o->tilesets, err) : depends_on(card, path, &none, err));
  }
  return ok;
}

/* The PVRZ pages the tiles of ts read, as dependencies of the picture:
** each page loaded, found again beside the tileset (no read) for its path. */
static int pages_read(const tis_tileset *ts, ls_atlas_card *card, codec_error *err) {
  int k, ok = 1;
  for (k = 0; ok && k <= TIS_MAX_PAGE; k++) {
    char name[16];
    ls_found f;
    if (!ts->pages.slot[k].page || !tis_pvrz_name(ts->pages.tileset, strlen(ts->pages.tileset), k, name, err)) continue;
    if (!ls_find(NULL, ts->path, LS_FIND_BESIDE, name, 0, &f, err)) return 0;
    if (f.found) ok = ls_atlas_also(card, f.path, err);
    ls_found_clear(&f);
  }
  return ok;
}

/* A fixed-size name of the ARE (NUL-padded, the default code page) as
** UTF-8 (malloc'd), NULL when out of memory. */
static char *are_name(const unsigned char *field, size_t size, size_t *len) {
  size_t n = 0;
  while (n < size && field[n]) n++;
  return text8_decode(field, n, TEXT8_CP1252, len);
}

/* Marks a point of the area on the canvas and on the picture: a square
** of colour rgb and, on the page, the label. */
static int area_marker(canvas *c, ls_atlas_picture *pic, double x, double y, uint32_t rgb, const unsigned char *name,
                       size_t size, codec_error *err) {
  canvas_color col = {(unsigned char)(rgb >> 16), (unsigned char)(rgb >> 8), (unsigned char)rgb, 255};
  canvas_color frame = {0, 0, 0, 255};
  size_t len;
  char *label;
  int ok;
  if (c) {
    canvas_fill_rect(c, (int64_t)x - 3, (int64_t)y - 3, (int64_t)x + 4, (int64_t)y + 4, col);
    canvas_frame_rect(c, (int64_t)x - 3, (int64_t)y - 3, (int64_t)x + 4, (int64_t)y + 4, 1, frame);
    return 1;
  }
  label = are_name(name, size, &len);
  ok = label ? ls_atlas_marker_add(pic, x, y, rgb, label, len, err) : codec_fail_oom(err, "out of memory");
  free(label);
  return ok;
}

/* The ARE's actors (red) and doors (blue, at the middle of the closed
** door's box) as markers, scaled like the picture: drawn into c when c is
** given, else added to pic with their names. */
static int area_markers(const are_area *are, double scale, canvas *c, ls_atlas_picture *pic, codec_error *err) {
  uint32_t i;
  for (i = 0; i < are->num_actors; i++) {
    const are_actor *ac = &are->actors[i];
    if (!area_marker(c, pic, ac->x * scale, ac->y * scale, 0xE03030u, ac->name, sizeof ac->name, err)) return 0;
  }
  for (i = 0; i < are->num_doors; i++) {
    const are_door *d = &are->doors[i];
    double x = (d->closed_box_left + d->closed_box_right) / 2.0, y = (d->closed_box_top + d->closed_box_bottom) / 2.0;
    if (!area_marker(c, pic, x * scale, y * scale, 0x3070F0u, d->name, sizeof d->name, err)) return 0;
  }
  return 1;
}

/* The card of an area: its doors, polygons and overlays, with the ARE
** beside it its actors, regions and containers; the picture is its tiles
** (the tileset beside it or in the tilesets option, as wed_render's
** tiles=1), else its geometry, with the actors and doors marked. */
static int wed_atlas_draw(void *model, const char *path, const ls_atlas_opts *o, ls_atlas_card *card,
                          codec_error *err) {
  const wed_area *a = model;
  are_area *are = NULL;
  wed_render_opts ro;
  tis_tileset ts;
  canvas c;
  ls_atlas_picture *pic = NULL;
  double scale;
  int ok;
  memset(&ts, 0, sizeof ts);
  memset(&c, 0, sizeof c);
  wed_render_defaults(&ro);
  ro.fit = o->large;
  ro.cancel = o->cancel;
  ok = ls_atlas_number_add(card, NULL, "doors", 5, a->num_doors, err) &&
       ls_atlas_number_add(card, NULL, "polygons", 8, a->num_polygons, err) &&
       ls_atlas_number_add(card, NULL, "overlays", 8, a->num_overlays, err) && area_beside(path, o, card, &are, err);
  if (ok && are) {
    ok = ls_atlas_number_add(card, NULL, "actors", 6, are->num_actors, err) &&
         ls_atlas_number_add(card, NULL, "regions", 7, are->num_regions, err) &&
         ls_atlas_number_add(card, NULL, "containers", 10, are->num_containers, err);
  }
  ok = ok && area_tiles(a, path, o, card, &ro, &ts, err) && wed_render_canvas(a, &ro, &c, err);
  scale = wed_render_scale(a, &ro);
  if (ok && are) ok = area_markers(are, scale, &c, NULL, err);
  if (ok) {
    pic = ls_atlas_add_canvas(card, are ? "the area, its actors (red) and doors (blue) from the ARE beside it"
                                        : "the area", &c, o, err);
    ok = pic && (!are || area_markers(are, scale, NULL, pic, err));
  }
  if (ok && ts.tis) ok = pages_read(&ts, card, err);
  canvas_free(&c);
  tis_tileset_close(&ts);
  if (are) are_free(are);
  return ok;
}

static const char *const wed_atlas_queries[] = {
  "SELECT door, name, closed, cell_count, open_count, closed_count FROM wed_doors({file});",
  "SELECT kind, count(*), sum(vertex_count) FROM wed_polygons({file}) GROUP BY kind;",
  "SELECT overlay, width, height, tileset FROM wed_overlays({file});",
  "SELECT writefile('area.png', wed_render({file}, 'tiles=1'));",
  NULL,
};

const ls_atlas_kind wed_atlas = {
  .format = &wed_format, .noun = "area", .draw = wed_atlas_draw, .queries = wed_atlas_queries,
};

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
