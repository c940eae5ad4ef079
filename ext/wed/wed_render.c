/*
** wed_render.c: wed_render(file [, options]), an SVG (or PNG) of a WED
** area's geometry (codecs/wed/render_wed.h draws it) read through the
** session (engine.h, "SQL functions that read files"), and the family's
** function hook.
*/
#include <string.h>

#include "wed/render_wed.h"
#include "engine/engine.h"
#include "wed/wed_tables.h"

/* ---- wed_render ------------------------------------------------------------------ */

/* wed_render(file [, options]): SVG text of the area (render_wed.h), or a
** PNG with format=png.  Options: format=svg|png (svg), grid=0|1, doors=0|1,
** walls=0|1 (all 1), and for PNG scale=X (pixels per area pixel, up to 4;
** default: fits 2048, at most 1) and background=RRGGBB[AA] (none). */
static void wed_render_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "wed_render";
  wed_render_opts o;
  char *format = NULL;
  render_option opts[] = {
    {"format", OPT_TEXT, 0, 0, &format, NULL},     {"grid", OPT_FLAG, 0, 1, &o.grid, NULL},
    {"doors", OPT_FLAG, 0, 1, &o.doors, NULL},     {"walls", OPT_FLAG, 0, 1, &o.walls, NULL},
    {"scale", OPT_REAL, 0, 4, &o.scale, NULL},     {"background", OPT_COLOR, 0, 0, &o.background, NULL},
  };
  render_file rf;
  codec_error err = {{0}, 0};
  unsigned char *out = NULL;
  size_t n = 0;
  int png = 0, ok;
  ls_interrupt ic;
  codec_cancel cancel;
  wed_render_defaults(&o);
  if (!parse_options(ctx, fn, argc > 1 ? argv[1] : NULL, opts, sizeof opts / sizeof opts[0])) goto done;
  if (format && sqlite3_stricmp(format, "png") != 0 && sqlite3_stricmp(format, "svg") != 0) {
    render_error(ctx, fn, "option format takes svg (the default) or png, not '%s'", format);
    goto done;
  }
  png = format && sqlite3_stricmp(format, "png") == 0;
  if (!render_file_open(ctx, fn, argv[0], &wed_format, &rf)) goto done;
  ls_interrupt_init(&ic, sqlite3_context_db_handle(ctx));
  cancel = ls_interrupt_cancel(&ic);
  o.cancel = &cancel;
  ok = png ? wed_render_png(rf.data, &o, &out, &n, &err) : wed_render_svg(rf.data, &o, (char **)&out, &n, &err);
  if (ok) result_take(ctx, out, n, !png);
  else codec_result_error(ctx, fn, rf.path, &err);
  ls_interrupt_done(&ic);
  render_file_done(&rf);
done:
  sqlite3_free(format);
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
