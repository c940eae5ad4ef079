/*
** wz4_render.c: wz4_render(file, page), an SVG of a werkkzeug4 page's
** operators (codecs/wz4/render_wz4.h draws it) read through the session
** (engine.h, "SQL functions that read files"), what levelsql_atlas shows
** of a project (wz4_atlas: every page's graph), and the family's function
** hook.
*/
#include <stdio.h>
#include <stdlib.h>
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

/* ---- the atlas ------------------------------------------------------------------ */

/* The size an SVG of render_wz4 declares on its root (width="W"
** height="H"), 1 x 1 when it declares none. */
static void svg_size(const char *svg, double *w, double *h) {
  const char *root = strstr(svg, "<svg"), *p;
  *w = *h = 1;
  if (!root) return;
  if ((p = strstr(root, " width=\"")) != NULL) *w = strtod(p + 8, NULL);
  if ((p = strstr(root, " height=\"")) != NULL) *h = strtod(p + 9, NULL);
}

/* The card of a project: its pages and operators (per class), and each
** page's operator graph as SVG (up to the atlas's pictures a card holds). */
static int wz4_atlas_draw(void *model, const char *path, const ls_atlas_opts *o, ls_atlas_card *card,
                          codec_error *err) {
  const wz4_doc *doc = model; /* the family's model is the codec's document */
  uint32_t p, k, drawn = 0;
  int64_t ops = 0;
  (void)path;
  for (p = 0; p < doc->num_pages; p++) {
    const wz4_page *pg = &doc->pages[p];
    for (k = 0; k < pg->num_nodes; k++) {
      const wz4_str *cls = &pg->nodes[k].op.class_name;
      if (!ls_atlas_number_add(card, "operators per class", wz4_str_text(cls), cls->len, 1, err)) return 0;
    }
    ops += pg->num_nodes;
  }
  if (!ls_atlas_number_add(card, NULL, "operators", 9, ops, err) ||
      !ls_atlas_number_add(card, NULL, "pages", 5, doc->num_pages, err))
    return 0;
  if (!doc->num_pages) return codec_fail(err, "the project has no page to draw");
  for (p = 0; p < doc->num_pages && drawn < 64; p++, drawn++) {
    char *svg = NULL, caption[160];
    size_t n = 0;
    double w, h;
    const wz4_page *pg = &doc->pages[p];
    if (!wz4_render_svg(doc, p, o->cancel, &svg, &n, err)) return codec_prefix(err, "page %u: ", p);
    svg_size(svg, &w, &h);
    snprintf(caption, sizeof caption, "page %u: %.100s (%u operators)", p, wz4_str_text(&pg->name), pg->num_nodes);
    if (!ls_atlas_add_svg(card, caption, svg, n, w, h, err)) return 0;
  }
  if (p < doc->num_pages) {
    char note[96];
    snprintf(note, sizeof note, "the first %u of its %u pages are drawn", drawn, doc->num_pages);
    if (!ls_atlas_note(card, note, err)) return 0;
  }
  return 1;
}

static const char *const wz4_atlas_queries[] = {
  "SELECT page, name, is_tree, num_ops FROM wz4_pages({file});",
  "SELECT class, count(*) AS ops FROM wz4_operators({file}) GROUP BY class ORDER BY ops DESC;",
  "SELECT page, from_op, to_op, kind, link_name FROM wz4_links({file});",
  "SELECT writefile('page0.svg', wz4_render({file}, 0));",
  NULL,
};

const ls_atlas_kind wz4_atlas = {
  .format = &wz4_format, .noun = "project", .draw = wz4_atlas_draw, .queries = wz4_atlas_queries,
};

/* ---- registration ----------------------------------------------------------------- */

/* The family's hook (ls_family.register_functions): wz4_render. */
int wz4_register_functions(sqlite3 *db, ls_session *sess) {
  static const ls_session_function fns[] = {
    {"wz4_render", 2, 2, wz4_render_func},
  };
  return ls_register_session_functions(db, sess, fns, sizeof fns / sizeof fns[0]);
}
