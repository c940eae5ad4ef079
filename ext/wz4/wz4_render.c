/*
** wz4_render.c: wz4_render(file, page), an SVG of a werkkzeug4 page's
** operators (codecs/wz4/render_wz4.h draws it) read through the session
** (engine.h, "SQL functions that read files"), and the family's function
** hook.
*/
#include <string.h>

#include "wz4/render_wz4.h"
#include "engine/engine.h"
#include "wz4/wz4_tables.h"

/* ---- wz4_render ------------------------------------------------------------------ */

/* wz4_render(file, page): SVG text of the page's operators and links
** (render_wz4.h); page is a number (wz4_pages.page) or a page name. */
static void wz4_render_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "wz4_render";
  render_file rf;
  codec_error err = {{0}, 0};
  char *svg = NULL;
  size_t n = 0;
  const wz4_doc *doc;
  int64_t page = -1;
  (void)argc;
  if (!render_file_open(ctx, fn, argv[0], &wz4_format, &rf)) return;
  doc = rf.data; /* the family's model is the codec's document */
  if (sqlite3_value_type(argv[1]) == SQLITE_INTEGER) {
    page = sqlite3_value_int64(argv[1]);
    if (page < 0 || page >= doc->num_pages) {
      render_error(ctx, fn, "%s: no page %lld (the project has %u)", rf.path, (long long)page, doc->num_pages);
      page = -2;
    }
  } else if (sqlite3_value_type(argv[1]) == SQLITE_TEXT) {
    const char *name = (const char *)sqlite3_value_text(argv[1]);
    uint32_t i;
    for (i = 0; name && i < doc->num_pages && page < 0; i++) {
      if (doc->pages[i].name.len == strlen(name) && memcmp(wz4_str_text(&doc->pages[i].name), name, strlen(name)) == 0) page = i;
    }
    if (page < 0) render_error(ctx, fn, "%s: no page named '%s'", rf.path, name ? name : ""), page = -2;
  } else {
    render_error(ctx, fn, "the page is a page number (wz4_pages.page) or a page name, e.g. wz4_render(file, 0)");
    page = -2;
  }
  if (page >= 0) {
    ls_interrupt ic;
    codec_cancel cancel;
    ls_interrupt_init(&ic, sqlite3_context_db_handle(ctx));
    cancel = ls_interrupt_cancel(&ic);
    if (wz4_render_svg(doc, (uint32_t)page, &cancel, &svg, &n, &err)) result_take(ctx, (unsigned char *)svg, n, 1);
    else codec_result_error(ctx, fn, rf.path, &err);
    ls_interrupt_done(&ic);
  }
  render_file_done(&rf);
}

/* ---- registration ----------------------------------------------------------------- */

/* The family's hook (ls_family.register_functions): wz4_render. */
int wz4_register_functions(sqlite3 *db, ls_session *sess) {
  static const ls_session_function fns[] = {
    {"wz4_render", 2, 2, wz4_render_func},
  };
  return ls_register_session_functions(db, sess, fns, sizeof fns / sizeof fns[0]);
}
