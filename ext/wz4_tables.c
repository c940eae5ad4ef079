/*
** wz4_tables.c: the werkkzeug4 (.wz4) table family (wz4_pages,
** wz4_operators, wz4_links) declared for the generic engine.
**
** The model is a wz4_doc (codecs/wz4.h) with a memo of its operator graph
** (wz4_graph): wz4_links reads a page's edges for each of its rows, and
** computing them indexes the whole document, so the memo keeps them until
** a store() moves, resizes, hides or renames an op.  Iterators and loads
** fill the memo through const models; a connection uses its models from
** one thread at a time.  The tables take no INSERT or DELETE, so a row's
** position (page, index) is its identity.
**
** Strings are WTF-8 in the model (utf16.h), so the text columns are
** LS_WTF8.  The JSON columns show the codec's JSON forms (lone surrogates
** as \uD800 escapes, so the JSON is valid UTF-8) and read what is written
** to them with ext/json.c.
*/
#include <stdlib.h>
#include <string.h>

#include "../codecs/utf16.h"
#include "../codecs/wz4.h"
#include "engine.h"
#include "json.h"
#include "wz4_tables.h"

/* ---- the model and the format ------------------------------------------------ */

typedef struct wz4_model {
  wz4_doc *doc;
  wz4_graph *graph; /* never NULL */
} wz4_model;

#define DOC(model) (((const wz4_model *)(model))->doc)

/* Wraps a document (taking ownership) with an empty memo; NULL when memory
** runs out. */
static void *model_new(wz4_doc *doc) {
  wz4_model *m = doc ? malloc(sizeof *m) : NULL;
  if (m && (m->graph = wz4_graph_new())) {
    m->doc = doc;
    return m;
  }
  free(m);
  wz4_free(doc);
  return NULL;
}

wz4_doc *wz4_model_doc(void *model) {
  return ((wz4_model *)model)->doc;
}

static void *wz4_format_parse(const unsigned char *data, size_t size, codec_error *err) {
  wz4_doc *doc = NULL;
  void *m = wz4_parse(data, size, &doc, err) ? model_new(doc) : NULL;
  if (doc && !m) codec_fail_oom(err, "out of memory");
  return m;
}

/* In the document's own versions (byte-identical when nothing changed). */
static int wz4_format_serialize(const void *model, unsigned char **out, size_t *size, codec_error *err) {
  return wz4_serialize(DOC(model), out, size, err);
}

/* A deep copy with an empty memo (the copy gets edited). */
static void *wz4_format_clone(const void *model) {
  return model_new(wz4_clone(DOC(model)));
}

static void wz4_format_free(void *model) {
  wz4_model *m = model;
  if (!m) return;
  wz4_graph_free(m->graph);
  wz4_free(m->doc);
  free(m);
}

static size_t wz4_format_footprint(const void *model) {
  return sizeof(wz4_model) + wz4_footprint(DOC(model));
}

static const char *const wz4_extensions[] = {".wz4", NULL};

const ls_format wz4_format = {
  "wz4", wz4_extensions, wz4_sniff, wz4_format_parse, wz4_format_serialize,
  wz4_format_clone, wz4_format_free, wz4_format_footprint,
  NULL, /* validate: the loads read the parsed model as it is; only memory can run out */
  NULL, /* options: text in projects is UTF-16, no code page to choose */
};

/* ---- shared helpers ------------------------------------------------------------- */

/* Bytes of a string: the codec takes up to 2^31 - 1 UTF-16 units. */
#define WZ4_TEXT_MAX (UINT32_MAX / 2)

/* A string of the model as a span ("" for the empty string). */
static ls_span str_span(const wz4_str *s) {
  ls_span span = {wz4_str_text(s), s->len};
  return span;
}

static int64_t page_count(const void *model) {
  return DOC(model)->num_pages;
}

/* The edges of a page, from the memo; 0 when memory runs out. */
static int page_edges(const void *model, int64_t page, const wz4_edge **edges, size_t *n) {
  codec_error err;
  return wz4_graph_page(((const wz4_model *)model)->graph, DOC(model), (uint32_t)page, edges, n, &err);
}

/* ---- wz4_pages ------------------------------------------------------------------- */

typedef struct page_rec {
  wz4_page pg; /* a shallow copy */
  ls_span name;
} page_rec;

static int page_load(const ls_row *row, char **err) {
  page_rec *r = row->rec;
  (void)err;
  r->pg = DOC(row->model)->pages[row->pos.a];
  r->name = str_span(&r->pg.name);
  return SQLITE_OK;
}

#define PAGE_INT(nm, st, field, doc_) LS_COL_INT(nm, st, page_rec, pg.field, LS_COL_RO, doc_)

static const ls_column page_columns[] = {
  LS_COL_POS("page", 0, LS_COL_RANGE | LS_COL_VALUES(2), "page number, 0-based, in file order"),
  LS_COL_WTF8("name", page_rec, name, WZ4_TEXT_MAX, LS_COL_RO, "page name"),
  PAGE_INT("is_tree", LS_U32, is_tree, "1 for a tree page (ops with levels instead of grid positions), else 0"),
  PAGE_INT("num_ops", LS_U32, num_nodes, "operators on the page (rows of wz4_operators)"),
  PAGE_INT("num_stacked", LS_U32, num_stack, "stacked operators (with a grid position) among them"),
  PAGE_INT("scroll_x", LS_I32, scroll_x, "editor scroll position x"),
  PAGE_INT("scroll_y", LS_I32, scroll_y, "editor scroll position y"),
  PAGE_INT("write_protect", LS_U32, write_protect, "the page's manual write-protect flag"),
};

static const ls_table wz4_pages = {
  .name = "wz4_pages", .format = &wz4_format, .doc = "one row per page of each werkkzeug4 project (.wz4)",
  .columns = page_columns, .ncolumns = (int)(sizeof page_columns / sizeof page_columns[0]),
  .shape = {LS_SHAPE_ARRAY, page_count, NULL, NULL}, .row_name = "page %a",
  .rows_per_file = 2, /* the corpus average */
  .record_size = sizeof(page_rec), .load = page_load,
};

/* ---- wz4_operators ---------------------------------------------------------------- */

typedef struct op_rec {
  wz4_node nd; /* a shallow copy */
  ls_span name, class_name, output_type, script;
  ls_span params;  /* of uint32_t: the op's parameter words, or new ones in the arena */
  ls_span strings; /* of ls_span: the string parameters, WTF-8 */
  int tree; /* the row kind */
} op_rec;

enum { OP_STACKED, OP_TREE };
static const char *const op_kind_names[] = {"stacked", "tree", NULL};

static int64_t page_ops(const void *model, int64_t page) {
  return DOC(model)->pages[page].num_nodes;
}

/* The node of the row (the iterator and seeks give existing rows only). */
static wz4_node *row_node(const ls_row *row) {
  return wz4_node_at(DOC(row->model), (uint32_t)row->pos.a, (uint32_t)row->pos.b);
}

static int op_load(const ls_row *row, char **err) {
  op_rec *r = row->rec;
  ls_span *strs;
  uint32_t i;
  (void)err;
  r->nd = *row_node(row);
  r->name = str_span(&r->nd.op.name);
  r->class_name = str_span(&r->nd.op.class_name);
  r->output_type = str_span(&r->nd.op.type_name);
  r->script = str_span(&r->nd.op.script);
  r->params = (ls_span){r->nd.op.params, r->nd.op.num_params};
  if (!(strs = ls_arena_alloc(row->arena, sizeof *strs * (r->nd.op.num_strings + 1)))) return SQLITE_NOMEM;
  for (i = 0; i < r->nd.op.num_strings; i++) strs[i] = str_span(&r->nd.op.strings[i]);
  r->strings = (ls_span){strs, r->nd.op.num_strings};
  r->tree = wz4_node_is_tree(&DOC(row->model)->pages[row->pos.a], (uint32_t)row->pos.b) ? OP_TREE : OP_STACKED;
  return SQLITE_OK;
}

static int op_kind(const ls_row *row) {
  return ((const op_rec *)row->rec)->tree;
}

/* Hands new string parameters (ls_span) to the codec. */
static int op_set_strings(wz4_op *op, ls_span strings, ls_arena *arena, codec_error *cerr) {
  const ls_span *s = strings.p;
  const char **strs = ls_arena_alloc(arena, sizeof *strs * (strings.n + 1));
  size_t *lens = ls_arena_alloc(arena, sizeof *lens * (strings.n + 1)), i;
  if (!strs || !lens) return codec_fail_oom(cerr, "strings: out of memory");
  for (i = 0; i < strings.n; i++) {
    strs[i] = s[i].p;
    lens[i] = s[i].n;
  }
  return wz4_op_set_strings(op, strs, lens, (uint32_t)strings.n, cerr);
}

/* A new name (name links may change on every page), params and strings
** (the graph stays), then the grid fields (the page's stack links may
** change).  The values were checked when set: the codec fails only when
** memory runs out. */
static int op_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  wz4_graph *graph = ((wz4_model *)row->model)->graph;
  wz4_node *nd = row_node(row);
  const op_rec *r = row->rec, *was = old;
  codec_error cerr;
  int ok = 1;
  (void)changed;
  if (r->name.p != was->name.p && (ok = wz4_str_set(&nd->op.name, r->name.p, r->name.n, &cerr))) {
    wz4_graph_forget(graph, WZ4_GRAPH_ALL);
  }
  if (ok && r->params.p != was->params.p) ok = wz4_op_set_params(&nd->op, r->params.p, (uint32_t)r->params.n, &cerr);
  if (ok && r->strings.p != was->strings.p) ok = op_set_strings(&nd->op, r->strings, row->arena, &cerr);
  if (!ok) return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  if (wz4_node_place(nd, &r->nd)) wz4_graph_forget(graph, row->pos.a);
  return SQLITE_OK;
}

/* The link slots, in the codec's JSON form. */
static void get_links(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  size_t len = 0;
  char *json = wz4_links_json(&((const op_rec *)row->rec)->nd.op, &len);
  (void)col;
  if (!json) {
    sqlite3_result_error_nomem(ctx); /* a string that is not WTF-8 is never stored */
    return;
  }
  sqlite3_result_text64(ctx, json, len, free, SQLITE_UTF8);
  sqlite3_result_subtype(ctx, 'J');
}

/* Parameter words: a count the codec takes (32-bit), any 32-bit pattern. */
static const ls_json_shape params_shape = {1, 0, UINT32_MAX, "[2056,4278190080]",
                                           "a JSON array of integers from -2147483648 to 4294967295, e.g. '[2056,4278190080]'"};

static const ls_json_shape strings_shape = {1, 0, UINT32_MAX, "[\"farbrausch\"]",
                                            "a JSON array of strings, e.g. '[\"farbrausch\"]'"};

/* The grid fields of stacked ops (NULL for tree ops). */
#define NODE_INT(nm, st, field, lo, hi, doc_) \
  {.name = nm, .type = "INTEGER", .kind = LS_INT, .store = st, .offset = offsetof(op_rec, nd.field), .min = lo, \
   .max = hi, .applies = 1 << OP_STACKED, .doc = doc_}

static const ls_column op_columns[] = {
  LS_COL_POS("page", 0, LS_COL_RANGE | LS_COL_VALUES(2), "page number (wz4_pages.page)"),
  LS_COL_POS("op", 1, LS_COL_RANGE | LS_COL_VALUES(85), "operator index on the page, 0-based: stacked ops first, then tree ops"),
  LS_COL_WTF8("name", op_rec, name, WZ4_TEXT_MAX, 0, "the user's label, '' for most ops; the target of name links (Store/Load)"),
  LS_COL_WTF8("class", op_rec, class_name, WZ4_TEXT_MAX, LS_COL_RO, "operator class, e.g. 'Flat'"),
  LS_COL_WTF8("output_type", op_rec, output_type, WZ4_TEXT_MAX, LS_COL_RO, "output type, e.g. 'GenBitmap' (class and output_type identify the op)"),
  NODE_INT("pos_x", LS_I32, pos_x, INT32_MIN, INT32_MAX, "grid column of the left edge (stacked ops; NULL for tree ops); moving rewires wz4_links"),
  NODE_INT("pos_y", LS_I32, pos_y, INT32_MIN, INT32_MAX, "grid row of the top edge (stacked ops)"),
  NODE_INT("width", LS_I32, width, 1, INT32_MAX, "width in grid cells, 1 or more (stacked ops)"),
  NODE_INT("height", LS_I32, height, 1, INT32_MAX, "height in grid cells, 1 or more (stacked ops)"),
  NODE_INT("bypass", LS_U32, bypass, 0, 1, "1 when the op is bypassed (passes its first input through), else 0"),
  NODE_INT("hide", LS_U32, hide, 0, 1, "1 when the op is hidden (its output does not feed the op below), else 0"),
  {.name = "params", .type = "TEXT", .kind = LS_JSON_INTS, .store = LS_SPAN32, .offset = offsetof(op_rec, params),
   .min = INT32_MIN, .max = UINT32_MAX, .aux = &params_shape,
   .doc = "JSON array of the raw 32-bit parameter words (unsigned; negatives accepted on write, as two's complement); their meaning depends on the class"},
  {.name = "strings", .type = "TEXT", .kind = LS_JSON_TEXTS, .store = LS_SPAN, .offset = offsetof(op_rec, strings),
   .max = WZ4_TEXT_MAX, .flags = LS_COL_WTF8, .aux = &strings_shape, .doc = "JSON array of the string parameters (lone surrogates as \\ud800 escapes)"},
  LS_COL_CUSTOM("links", "TEXT", get_links, NULL, "JSON array of the link slots: [{\"name\":..,\"select\":..}]"),
  LS_COL_WTF8("script", op_rec, script, WZ4_TEXT_MAX, LS_COL_RO, "script source ('' for none)"),
};

/* A write to a grid column of a tree op: no column makes an op a tree op
** or a stacked one, so "set the kind first" would mislead. */
static int tree_op_refuses(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  (void)row, (void)v;
  *err = sqlite3_mprintf("column %s: a tree op has no grid position, size or flags", col->name);
  return SQLITE_CONSTRAINT;
}

static const ls_table wz4_operators = {
  .name = "wz4_operators", .format = &wz4_format, .doc = "one row per operator of each page of each werkkzeug4 project",
  .columns = op_columns, .ncolumns = (int)(sizeof op_columns / sizeof op_columns[0]),
  .shape = {LS_SHAPE_NESTED, page_count, page_ops, NULL}, .row_name = "op %b of page %a",
  .rows_per_file = 190, /* the corpus average */
  .record_size = sizeof(op_rec), .load = op_load, .store = op_store,
  .row_kind = op_kind, .kind_names = op_kind_names, .other_kind = tree_op_refuses,
};

/* ---- wz4_links ----------------------------------------------------------------- */

/* An edge; -1 and NULL spans read as NULL. */
typedef struct link_rec {
  int64_t from_op, to_op, from_page, slot;
  ls_span kind, link_name;
} link_rec;

static int64_t page_link_count(const void *model, int64_t page) {
  const wz4_edge *edges;
  size_t n;
  return page_edges(model, page, &edges, &n) ? (int64_t)n : 0;
}

/* The nested shape's steps (edges page by page, within the range of
** `page`), except that a page whose graph cannot be computed (out of
** memory) fails the scan instead of looking empty. */
static int link_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  int64_t p = first ? 0 : pos->a, i = first ? 0 : pos->b + 1, start = p;
  const wz4_edge *edges;
  size_t n;
  for (; ls_range_first(&scan->range[0], p, DOC(model)->num_pages, &p); p++) {
    if (p != start) i = 0;
    if (!page_edges(model, p, &edges, &n)) {
      *scan->error = sqlite3_mprintf("page %lld: cannot compute the operator graph (out of memory)", (long long)p);
      return 0;
    }
    if (i < (int64_t)n) {
      *pos = (ls_pos){p, i, 0};
      return 1;
    }
  }
  return 0;
}

/* An edge gone since the cursor found it (the graph changed) reads NULL. */
static int link_load(const ls_row *row, char **err) {
  link_rec *r = row->rec;
  const wz4_edge *edges, *e;
  size_t n;
  (void)err;
  r->from_op = r->to_op = r->from_page = r->slot = -1;
  if (!page_edges(row->model, row->pos.a, &edges, &n)) return SQLITE_NOMEM;
  if (row->pos.b >= (int64_t)n) return SQLITE_OK;
  e = &edges[row->pos.b];
  r->from_op = e->from_op;
  r->to_op = e->to_op;
  r->from_page = e->from_page;
  r->kind.p = e->kind == WZ4_LINK_STACK ? "stack" : "name";
  r->kind.n = strlen(r->kind.p);
  if (e->kind == WZ4_LINK_NAME) {
    r->slot = e->slot;
    r->link_name = (ls_span){e->link_name, e->link_name_len};
  }
  return SQLITE_OK;
}

#define LINK_INT(nm, field, doc_) \
  {.name = nm, .type = "INTEGER", .kind = LS_INT, .store = LS_I64, .offset = offsetof(link_rec, field), \
   .flags = LS_COL_RO | LS_COL_NULL, .null_value = -1, .doc = doc_}

static const ls_column link_columns[] = {
  LS_COL_POS("page", 0, LS_COL_RANGE | LS_COL_VALUES(2), "page of to_op"),
  LINK_INT("from_op", from_op, "the input op (index on from_page); NULL when a name link's target does not exist"),
  LINK_INT("to_op", to_op, "the op taking the input (index on page)"),
  LS_COL_WTF8("kind", link_rec, kind, 0, LS_COL_RO, "'stack': from_op sits right above to_op on the grid; 'name': a link slot of to_op names from_op"),
  LS_COL_WTF8("link_name", link_rec, link_name, 0, LS_COL_RO, "name links: the name in the link slot; NULL for stack links"),
  LINK_INT("from_page", from_page, "page of from_op (another page for some name links); NULL when the name does not exist"),
  LINK_INT("slot", slot, "name links: index of the link slot of to_op (wz4_operators.links); NULL for stack links"),
};

static const ls_table wz4_links = {
  .name = "wz4_links", .format = &wz4_format,
  .doc = "one row per edge of the operator graph, computed from the current positions and names",
  .columns = link_columns, .ncolumns = (int)(sizeof link_columns / sizeof link_columns[0]),
  .shape = {LS_SHAPE_NESTED, page_count, page_link_count, NULL}, .next = link_next, .row_name = "link %b of page %a",
  .rows_per_file = 190, /* the corpus average */
  .record_size = sizeof(link_rec), .load = link_load,
};

/* ---- the family --------------------------------------------------------------- */

static const ls_table *const wz4_tables[] = {&wz4_pages, &wz4_operators, &wz4_links, NULL};

const ls_family wz4_family = {&wz4_format, wz4_tables};
