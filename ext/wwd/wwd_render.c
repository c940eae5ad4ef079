/*
** wwd_render.c: wwd_render(file, plane [, options]), a PNG of a WWD
** plane's collision map (codecs/wwd/render_wwd.h draws it) read through
** the session (engine.h, "SQL functions that read files"), and the
** family's function hook.
*/
#include <string.h>

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
