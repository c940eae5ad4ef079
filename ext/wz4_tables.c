/*
** wz4_tables.c: the werkkzeug4 (.wz4) table family (wz4_pages,
** wz4_operators, wz4_links) declared for the generic engine.
**
** Everything here is a column list plus a row iterator over a wz4_doc
** (codecs/wz4.h); the engine does planning, caching and write-back.
**
** The model the engine holds is a small wrapper (wz4_model) around the
** codec's document: the document itself, plus a memo of the operator graph
** of each page.  wz4_page_links builds a name index of the whole document
** on every call, and wz4_links needs the edge list of a page for each of its
** rows, so the edges are computed once per page and kept until a setter
** changes the graph.  The memo is a cache
** behind a pointer, so the iterators and getters, which see the model as
** const, can fill it; a connection uses its models from one thread at a
** time, so no locking is needed.  A move, resize or hide drops the memo of
** its page, a rename all of it; parameter edits keep it.
**
** Rows never move: the tables take no INSERT or DELETE, so an operator's
** position (page, node index) is its identity.
**
** Strings are WTF-8 in the model (utf16.h): plain UTF-8 unless the file has
** unpaired UTF-16 surrogates.  Text columns return the WTF-8 bytes as they
** are (SQLite keeps them; writing them back unchanged is lossless), and the
** JSON columns use the codec's JSON forms, which escape lone surrogates as
** \uD800 so the JSON text is valid UTF-8.
*/
#include <stdlib.h>
#include <string.h>

#include "../codecs/wz4.h"
#include "engine.h"
#include "wz4_tables.h"

/* ---- the model -------------------------------------------------------------- */

/* The edges of one page as wz4_page_links computed them. */
typedef struct wz4_page_edges {
  wz4_edge *edges;
  size_t n;
  int valid;
} wz4_page_edges;

typedef struct wz4_links_memo {
  wz4_page_edges *pages; /* npages entries, allocated on first use */
  uint32_t npages;
} wz4_links_memo;

typedef struct wz4_model {
  wz4_doc *doc;
  wz4_links_memo *memo; /* never NULL; a cache, filled through const models */
} wz4_model;

#define DOC(row) (((const wz4_model *)(row)->model)->doc)

/* Drops the memoized edges of one page (after a move, resize or hide on
** it: stack links never cross pages). */
static void memo_drop_page(wz4_links_memo *memo, int64_t page) {
  if (page < 0 || page >= (int64_t)memo->npages) return;
  free(memo->pages[page].edges);
  memo->pages[page].edges = NULL;
  memo->pages[page].n = 0;
  memo->pages[page].valid = 0;
}

/* Drops every memoized edge list (after a rename: name links reach across
** pages). */
static void memo_clear(wz4_links_memo *memo) {
  uint32_t i;
  for (i = 0; i < memo->npages; i++) memo_drop_page(memo, i);
}

/* Wraps a document (taking ownership) in a model with an empty memo; frees
** the document and returns NULL when memory runs out. */
static wz4_model *model_new(wz4_doc *doc) {
  wz4_model *m = malloc(sizeof *m);
  if (m) m->memo = calloc(1, sizeof *m->memo);
  if (!m || !m->memo) {
    free(m);
    wz4_free(doc);
    return NULL;
  }
  m->doc = doc;
  return m;
}

/* The edges of page `page`, computed on first use.  Returns 1 with *edges
** and *n set (NULL, 0 for a page without edges), or 0 when the page does
** not exist or memory runs out. */
static int memo_page(const wz4_model *m, uint32_t page, const wz4_edge **edges, size_t *n) {
  wz4_links_memo *memo = m->memo;
  wz4_page_edges *pe;
  *edges = NULL;
  *n = 0;
  if (page >= m->doc->num_pages) return 0;
  if (memo->npages != m->doc->num_pages) {
    wz4_page_edges *pages = calloc(m->doc->num_pages, sizeof *pages);
    if (!pages) return 0;
    memo_clear(memo);
    free(memo->pages);
    memo->pages = pages;
    memo->npages = m->doc->num_pages;
  }
  pe = &memo->pages[page];
  if (!pe->valid) {
    codec_error err;
    if (!wz4_page_links(m->doc, page, &pe->edges, &pe->n, &err)) return 0;
    pe->valid = 1;
  }
  *edges = pe->edges;
  *n = pe->n;
  return 1;
}

/* ---- the format --------------------------------------------------------------- */

static const char *const wz4_extensions[] = {".wz4", NULL};

/* Parses a file into a wrapped document. */
static void *wz4_format_parse(const unsigned char *data, size_t size, codec_error *err) {
  wz4_doc *doc = NULL;
  wz4_model *m;
  if (!wz4_parse(data, size, &doc, err)) return NULL;
  m = model_new(doc);
  if (!m) codec_fail_oom(err, "out of memory");
  return m;
}

/* Serializes the wrapped document in its own versions (byte-identical when
** nothing changed). */
static int wz4_format_serialize(const void *model, unsigned char **out, size_t *size, codec_error *err) {
  return wz4_serialize(((const wz4_model *)model)->doc, out, size, err);
}

/* Deep copy of the document with an empty memo (the copy gets edited). */
static void *wz4_format_clone(const void *model) {
  wz4_doc *doc = wz4_clone(((const wz4_model *)model)->doc);
  return doc ? model_new(doc) : NULL;
}

/* Frees the document, the memo and the wrapper. */
static void wz4_format_free(void *model) {
  wz4_model *m = model;
  if (!m) return;
  memo_clear(m->memo);
  free(m->memo->pages);
  free(m->memo);
  wz4_free(m->doc);
  free(m);
}

/* Approximate heap bytes of one op record, nested link defaults included
** (their depth is bounded by the parser: WZ4_MAX_NESTING). */
static size_t op_footprint(const wz4_op *op) {
  size_t bytes = op->name.len + op->class_name.len + op->type_name.len + op->script.len;
  uint32_t i;
  bytes += (size_t)op->num_params * 4 + (size_t)op->array_words * op->array_count * 4 + (size_t)op->num_anims * 4;
  for (i = 0; i < op->num_strings; i++) bytes += sizeof(wz4_str) + op->strings[i].len;
  for (i = 0; op->links && i < op->num_links; i++) {
    bytes += sizeof(wz4_link) + op->links[i].name.len;
    if (op->links[i].def) bytes += sizeof(wz4_op) + op_footprint(op->links[i].def);
  }
  for (i = 0; op->script_paras && i < op->num_script_paras; i++) bytes += sizeof(wz4_script_para) + op->script_paras[i].str.len;
  return bytes;
}

/* Memory held by a document: its ops (the options chunk is small). */
static size_t wz4_format_footprint(const void *model) {
  const wz4_doc *doc = ((const wz4_model *)model)->doc;
  size_t bytes = sizeof(wz4_model) + sizeof(wz4_doc) + (size_t)doc->num_pages * sizeof(wz4_page);
  uint32_t p, i;
  for (p = 0; p < doc->num_pages; p++) {
    const wz4_page *pg = &doc->pages[p];
    bytes += pg->name.len;
    for (i = 0; pg->nodes && i < pg->num_nodes; i++) bytes += sizeof(wz4_node) + op_footprint(&pg->nodes[i].op);
  }
  return bytes;
}

const ls_format wz4_format = {
  "wz4", wz4_extensions, wz4_sniff, wz4_format_parse, wz4_format_serialize,
  wz4_format_clone, wz4_format_free, wz4_format_footprint,
  NULL, /* validate: the getters read the parsed model as it is; only memory can run out */
};

/* ---- shared helpers ----------------------------------------------------------- */

/* Sets a text result from WTF-8 bytes as they are: valid UTF-8 for every
** well-formed string; a lone surrogate stays as its ED A0..BF xx bytes,
** which SQLite keeps and hands back unchanged, so writing the value back
** is lossless. */
static void result_wtf8(sqlite3_context *ctx, const char *s, size_t len) {
  sqlite3_result_text64(ctx, s ? s : "", len, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/* Sets a JSON text result made by the codec (malloc'd; NULL means out of
** memory or a string that is not WTF-8, which the setters never store). */
static void result_json(sqlite3_context *ctx, char *json, size_t len) {
  if (!json) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text64(ctx, json, len, free, SQLITE_UTF8);
  sqlite3_result_subtype(ctx, 'J');
}

/* A codec message without its leading "what: " (the column names it). */
static const char *codec_reason(const codec_error *e, const char *prefix) {
  size_t n = strlen(prefix);
  return strncmp(e->msg, prefix, n) == 0 && e->msg[n] == ':' && e->msg[n + 1] == ' ' ? e->msg + n + 2 : e->msg;
}

/* ---- wz4_pages ------------------------------------------------------------------- */

/* Pages in file order within the pushed-down range of column 0 (page);
** pages are never added or removed, so a page's number is its key. */
static int page_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  return ls_index_next(((const wz4_model *)model)->doc->num_pages, scan, pos, first);
}

static int page_seek(const void *model, int64_t key, ls_pos *pos) {
  return ls_index_seek(((const wz4_model *)model)->doc->num_pages, key, pos);
}

enum { PG_NAME, PG_IS_TREE, PG_NUM_OPS, PG_NUM_STACKED, PG_SCROLL_X, PG_SCROLL_Y, PG_WRITE_PROTECT };

/* col->arg picks the page field (PG_*). */
static void get_page_field(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wz4_page *pg = &DOC(row)->pages[row->pos.a];
  switch (col->arg) {
    case PG_NAME: result_wtf8(ctx, pg->name.s, pg->name.len); break;
    case PG_IS_TREE: sqlite3_result_int64(ctx, pg->is_tree); break;
    case PG_NUM_OPS: sqlite3_result_int64(ctx, pg->num_nodes); break;
    case PG_NUM_STACKED: sqlite3_result_int64(ctx, pg->num_stack); break;
    case PG_SCROLL_X: sqlite3_result_int64(ctx, pg->scroll_x); break;
    case PG_SCROLL_Y: sqlite3_result_int64(ctx, pg->scroll_y); break;
    default: sqlite3_result_int64(ctx, pg->write_protect); break;
  }
}

#define PAGE_COL(name, type, which, doc) {name, type, get_page_field, NULL, which, 0, 0, doc}

static const ls_column page_columns[] = {
  {"page", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(2), "page number, 0-based, in file order"},
  PAGE_COL("name", "TEXT", PG_NAME, "page name"),
  PAGE_COL("is_tree", "INTEGER", PG_IS_TREE, "1 for a tree page (ops with levels instead of grid positions), else 0"),
  PAGE_COL("num_ops", "INTEGER", PG_NUM_OPS, "operators on the page (rows of wz4_operators)"),
  PAGE_COL("num_stacked", "INTEGER", PG_NUM_STACKED, "stacked operators (with a grid position) among them"),
  PAGE_COL("scroll_x", "INTEGER", PG_SCROLL_X, "editor scroll position x"),
  PAGE_COL("scroll_y", "INTEGER", PG_SCROLL_Y, "editor scroll position y"),
  PAGE_COL("write_protect", "INTEGER", PG_WRITE_PROTECT, "the page's manual write-protect flag"),
};

/* Names a page row in error messages. */
static char *describe_page(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("page %lld", (long long)pos->a);
}

static const ls_table wz4_pages = {
  "wz4_pages", &wz4_format, "one row per page of each werkkzeug4 project (.wz4)",
  page_columns, (int)(sizeof page_columns / sizeof page_columns[0]),
  page_next, ls_key_pos_a, page_seek, NULL, NULL, NULL, 0, describe_page, NULL,
  2, /* rows_per_file, the corpus average */
};

/* ---- wz4_operators ---------------------------------------------------------------- */

/* Column numbers of the pushed-down ranges. */
enum { OPC_PAGE, OPC_OP };

/* Operators page by page, in node order (stacked first, then tree ops),
** inside the ranges of the page and op columns. */
static int op_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  const wz4_doc *doc = ((const wz4_model *)model)->doc;
  int64_t p, i, from = first ? 0 : pos->b + 1;
  for (p = first ? 0 : pos->a; ls_range_first(&scan->range[OPC_PAGE], p, doc->num_pages, &p); p++, from = 0) {
    if (!first && p != pos->a) from = 0;
    if (ls_range_first(&scan->range[OPC_OP], from, doc->pages[p].num_nodes, &i)) {
      pos->a = p;
      pos->b = i;
      pos->c = 0;
      return 1;
    }
  }
  return 0;
}

/* Key: the operator's ordinal in the document (all nodes of the pages
** before it, plus its index).  Stable: operators are never added or
** removed. */
static int64_t op_key(const void *model, const ls_pos *pos) {
  const wz4_doc *doc = ((const wz4_model *)model)->doc;
  int64_t key = pos->b, p;
  for (p = 0; p < pos->a; p++) key += doc->pages[p].num_nodes;
  return key;
}

/* The operator of a key: walks the pages' op counts (op_key reversed). */
static int op_seek(const void *model, int64_t key, ls_pos *pos) {
  const wz4_doc *doc = ((const wz4_model *)model)->doc;
  uint32_t p;
  if (key < 0) return 0;
  for (p = 0; p < doc->num_pages; p++) {
    if (key < (int64_t)doc->pages[p].num_nodes) {
      pos->a = p;
      pos->b = key;
      pos->c = 0;
      return 1;
    }
    key -= doc->pages[p].num_nodes;
  }
  return 0;
}

/* The node of the row; never NULL for a row the iterator produced. */
static wz4_node *row_node(const ls_row *row) {
  return wz4_node_at(DOC(row), (uint32_t)row->pos.a, (uint32_t)row->pos.b);
}

/* 1 when the row's operator sits on the grid (a stacked op). */
static int row_is_stacked(const ls_row *row) {
  return !wz4_node_is_tree(&DOC(row)->pages[row->pos.a], (uint32_t)row->pos.b);
}

enum { OP_NAME, OP_CLASS, OP_TYPE, OP_SCRIPT };

/* col->arg picks the string (OP_*): text as WTF-8 bytes. */
static void get_op_text(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wz4_op *op = &row_node(row)->op;
  const wz4_str *s = col->arg == OP_NAME    ? &op->name
                     : col->arg == OP_CLASS ? &op->class_name
                     : col->arg == OP_TYPE  ? &op->type_name
                                            : &op->script;
  result_wtf8(ctx, s->s, s->len);
}

/* Sets the op's name (the target of name links).  Takes text (or a blob of
** WTF-8 bytes); the codec checks it is UTF-8 or WTF-8. */
static int set_op_name(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  wz4_model *m = row->model;
  wz4_op *op = &row_node(row)->op;
  int type = sqlite3_value_type(v);
  const char *s;
  codec_error cerr;
  if (type != SQLITE_TEXT && type != SQLITE_BLOB) {
    *err = sqlite3_mprintf("column %s: %s; it takes UTF-8 text ('' for no name)", col->name,
                           type == SQLITE_NULL ? "NULL" : "a number");
    return SQLITE_CONSTRAINT;
  }
  s = type == SQLITE_TEXT ? (const char *)sqlite3_value_text(v) : (const char *)sqlite3_value_blob(v);
  if (!wz4_str_set(&op->name, s, (size_t)sqlite3_value_bytes(v), &cerr)) {
    *err = sqlite3_mprintf("column %s: %s; it takes UTF-8 text (or WTF-8 for lone surrogates)", col->name,
                           codec_reason(&cerr, "string"));
    return SQLITE_CONSTRAINT;
  }
  memo_clear(m->memo);
  return SQLITE_OK;
}

enum { NODE_POS_X, NODE_POS_Y, NODE_WIDTH, NODE_HEIGHT, NODE_BYPASS, NODE_HIDE };

/* col->arg picks the grid field (NODE_*); NULL for tree ops, which have
** none. */
static void get_node_int(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wz4_node *nd = row_node(row);
  if (!row_is_stacked(row)) return;
  switch (col->arg) {
    case NODE_POS_X: sqlite3_result_int64(ctx, nd->pos_x); break;
    case NODE_POS_Y: sqlite3_result_int64(ctx, nd->pos_y); break;
    case NODE_WIDTH: sqlite3_result_int64(ctx, nd->width); break;
    case NODE_HEIGHT: sqlite3_result_int64(ctx, nd->height); break;
    case NODE_BYPASS: sqlite3_result_int64(ctx, nd->bypass); break;
    default: sqlite3_result_int64(ctx, nd->hide); break;
  }
}

/* Sets a grid field of a stacked op: positions take the file's 32-bit
** range, sizes 1 and up (a zero-sized op connects to nothing), the flags
** 0 or 1 (the tool's booleans).  A move rewires wz4_links. */
static int set_node_int(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  wz4_model *m = row->model;
  wz4_node *nd = row_node(row);
  int64_t x, lo = INT32_MIN, hi = INT32_MAX;
  int rc;
  if (!row_is_stacked(row)) {
    *err = sqlite3_mprintf("column %s: a tree op has no grid position, size or flags", col->name);
    return SQLITE_CONSTRAINT;
  }
  if (col->arg == NODE_WIDTH || col->arg == NODE_HEIGHT) lo = 1;
  if (col->arg == NODE_BYPASS || col->arg == NODE_HIDE) lo = 0, hi = 1;
  rc = ls_value_int(v, col, lo, hi, &x, err);
  if (rc != SQLITE_OK) return rc;
  switch (col->arg) {
    case NODE_POS_X: nd->pos_x = (int32_t)x; break;
    case NODE_POS_Y: nd->pos_y = (int32_t)x; break;
    case NODE_WIDTH: nd->width = (int32_t)x; break;
    case NODE_HEIGHT: nd->height = (int32_t)x; break;
    case NODE_BYPASS: nd->bypass = (uint32_t)x; break;
    default: nd->hide = (uint32_t)x; break;
  }
  memo_drop_page(m->memo, row->pos.a);
  return SQLITE_OK;
}

enum { JSON_PARAMS, JSON_STRINGS, JSON_LINKS };

/* col->arg picks the JSON form (JSON_*), made by the codec. */
static void get_op_json(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wz4_op *op = &row_node(row)->op;
  size_t len = 0;
  char *json = col->arg == JSON_PARAMS    ? wz4_params_json(op, &len)
               : col->arg == JSON_STRINGS ? wz4_strings_json(op, &len)
                                          : wz4_links_json(op, &len);
  result_json(ctx, json, len);
}

/* Sets params or strings from a JSON array (the codec parses it, all or
** nothing); col->arg is JSON_PARAMS or JSON_STRINGS. */
static int set_op_json(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  wz4_op *op = &row_node(row)->op;
  int params = col->arg == JSON_PARAMS;
  const char *usage = params ? "a JSON array of integers from -2147483648 to 4294967295, e.g. '[2056,4278190080]'"
                             : "a JSON array of strings, e.g. '[\"farbrausch\"]'";
  const char *json;
  size_t len;
  codec_error cerr;
  int ok;
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    *err = sqlite3_mprintf("column %s: %s; it takes %s", col->name,
                           sqlite3_value_type(v) == SQLITE_NULL ? "NULL" : sqlite3_value_type(v) == SQLITE_BLOB ? "a blob" : "a number",
                           usage);
    return SQLITE_CONSTRAINT;
  }
  json = (const char *)sqlite3_value_text(v);
  len = (size_t)sqlite3_value_bytes(v);
  ok = params ? wz4_op_set_params_json(op, json, len, &cerr) : wz4_op_set_strings_json(op, json, len, &cerr);
  if (!ok) {
    *err = sqlite3_mprintf("column %s: %s (it takes %s)", col->name, codec_reason(&cerr, params ? "params" : "strings"), usage);
    return cerr.code == CODEC_E_MEMORY ? SQLITE_NOMEM : SQLITE_CONSTRAINT;
  }
  return SQLITE_OK; /* parameters do not change the graph: the memo stays */
}

#define OP_TEXT(name, which, doc) {name, "TEXT", get_op_text, NULL, which, 0, 0, doc}
#define NODE_INT(name, which, doc) {name, "INTEGER", get_node_int, set_node_int, which, 0, 0, doc}

static const ls_column op_columns[] = {
  {"page", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(2), "page number (wz4_pages.page)"},
  {"op", "INTEGER", ls_get_pos_b, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(85), "operator index on the page, 0-based: stacked ops first, then tree ops"},
  {"name", "TEXT", get_op_text, set_op_name, OP_NAME, 0, 0, "the user's label, '' for most ops; the target of name links (Store/Load)"},
  OP_TEXT("class", OP_CLASS, "operator class, e.g. 'Flat'"),
  OP_TEXT("output_type", OP_TYPE, "output type, e.g. 'GenBitmap' (class and output_type identify the op)"),
  NODE_INT("pos_x", NODE_POS_X, "grid column of the left edge (stacked ops; NULL for tree ops); moving rewires wz4_links"),
  NODE_INT("pos_y", NODE_POS_Y, "grid row of the top edge (stacked ops)"),
  NODE_INT("width", NODE_WIDTH, "width in grid cells, 1 or more (stacked ops)"),
  NODE_INT("height", NODE_HEIGHT, "height in grid cells, 1 or more (stacked ops)"),
  NODE_INT("bypass", NODE_BYPASS, "1 when the op is bypassed (passes its first input through), else 0"),
  NODE_INT("hide", NODE_HIDE, "1 when the op is hidden (its output does not feed the op below), else 0"),
  {"params", "TEXT", get_op_json, set_op_json, JSON_PARAMS, 0, 0, "JSON array of the raw 32-bit parameter words (unsigned; negatives accepted on write); their meaning depends on the class"},
  {"strings", "TEXT", get_op_json, set_op_json, JSON_STRINGS, 0, 0, "JSON array of the string parameters (lone surrogates as \\uD800 escapes)"},
  {"links", "TEXT", get_op_json, NULL, JSON_LINKS, 0, 0, "JSON array of the link slots: [{\"name\":..,\"select\":..}]"},
  OP_TEXT("script", OP_SCRIPT, "script source ('' for none)"),
};

/* Names an operator row in error messages ("op 17 of page 3"). */
static char *describe_op(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("op %lld of page %lld", (long long)pos->b, (long long)pos->a);
}

static const ls_table wz4_operators = {
  "wz4_operators", &wz4_format, "one row per operator of each page of each werkkzeug4 project",
  op_columns, (int)(sizeof op_columns / sizeof op_columns[0]),
  op_next, op_key, op_seek, NULL, NULL, NULL, 0, describe_op, NULL,
  190, /* rows_per_file, the corpus average */
};

/* ---- wz4_links ----------------------------------------------------------------- */

/* Edges page by page (the page of to_op), inside the page range.  A page
** whose graph cannot be computed (out of memory) fails the scan. */
static int link_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  const wz4_model *m = model;
  int64_t p, i = first ? 0 : pos->b + 1;
  for (p = first ? 0 : pos->a; ls_range_first(&scan->range[0], p, m->doc->num_pages, &p); p++, i = 0) {
    const wz4_edge *edges;
    size_t n;
    if (!first && p != pos->a) i = 0;
    if (!memo_page(m, (uint32_t)p, &edges, &n)) {
      *scan->error = sqlite3_mprintf("page %lld: cannot compute the operator graph (out of memory)", (long long)p);
      return 0;
    }
    if (i < (int64_t)n) {
      pos->a = p;
      pos->b = i;
      pos->c = 0;
      return 1;
    }
  }
  return 0;
}

/* Key: the edge's ordinal in the document (edges of the pages before it,
** plus its index).  Stable within a statement: the graph only changes when
** a setter changes the model. */
static int64_t link_key(const void *model, const ls_pos *pos) {
  const wz4_model *m = model;
  int64_t key = pos->b, p;
  for (p = 0; p < pos->a; p++) {
    const wz4_edge *edges;
    size_t n;
    if (memo_page(m, (uint32_t)p, &edges, &n)) key += (int64_t)n;
  }
  return key;
}

/* The edge of a key: walks the pages' edge counts (link_key reversed). */
static int link_seek(const void *model, int64_t key, ls_pos *pos) {
  const wz4_model *m = model;
  uint32_t p;
  if (key < 0) return 0;
  for (p = 0; p < m->doc->num_pages; p++) {
    const wz4_edge *edges;
    size_t n = 0;
    if (!memo_page(m, p, &edges, &n)) continue;
    if (key < (int64_t)n) {
      pos->a = p;
      pos->b = key;
      pos->c = 0;
      return 1;
    }
    key -= (int64_t)n;
  }
  return 0;
}

/* The edge of the row, or NULL (the graph changed under the cursor, or
** memory ran out). */
static const wz4_edge *row_edge(const ls_row *row) {
  const wz4_edge *edges;
  size_t n;
  if (!memo_page(row->model, (uint32_t)row->pos.a, &edges, &n) || row->pos.b < 0 || row->pos.b >= (int64_t)n) return NULL;
  return &edges[row->pos.b];
}

enum { LK_FROM_OP, LK_TO_OP, LK_KIND, LK_NAME, LK_FROM_PAGE, LK_SLOT };

/* col->arg picks the edge field (LK_*). */
static void get_link_field(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wz4_edge *e = row_edge(row);
  if (!e) return;
  switch (col->arg) {
    case LK_FROM_OP: if (e->from_op >= 0) sqlite3_result_int64(ctx, e->from_op); break;
    case LK_TO_OP: sqlite3_result_int64(ctx, e->to_op); break;
    case LK_KIND: sqlite3_result_text(ctx, e->kind == WZ4_LINK_STACK ? "stack" : "name", -1, SQLITE_STATIC); break;
    case LK_NAME: if (e->kind == WZ4_LINK_NAME) result_wtf8(ctx, e->link_name, e->link_name_len); break;
    case LK_FROM_PAGE: if (e->from_page >= 0) sqlite3_result_int64(ctx, e->from_page); break;
    default: if (e->kind == WZ4_LINK_NAME) sqlite3_result_int64(ctx, e->slot); break;
  }
}

#define LINK_COL(name, type, which, doc) {name, type, get_link_field, NULL, which, 0, 0, doc}

static const ls_column link_columns[] = {
  {"page", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(2), "page of to_op"},
  LINK_COL("from_op", "INTEGER", LK_FROM_OP, "the input op (index on from_page); NULL when a name link's target does not exist"),
  LINK_COL("to_op", "INTEGER", LK_TO_OP, "the op taking the input (index on page)"),
  LINK_COL("kind", "TEXT", LK_KIND, "'stack': from_op sits right above to_op on the grid; 'name': a link slot of to_op names from_op"),
  LINK_COL("link_name", "TEXT", LK_NAME, "name links: the name in the link slot; NULL for stack links"),
  LINK_COL("from_page", "INTEGER", LK_FROM_PAGE, "page of from_op (another page for some name links); NULL when the name does not exist"),
  LINK_COL("slot", "INTEGER", LK_SLOT, "name links: index of the link slot of to_op (wz4_operators.links); NULL for stack links"),
};

/* Names a link row in error messages. */
static char *describe_link(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("link %lld of page %lld", (long long)pos->b, (long long)pos->a);
}

static const ls_table wz4_links = {
  "wz4_links", &wz4_format, "one row per edge of the operator graph, computed from the current positions and names",
  link_columns, (int)(sizeof link_columns / sizeof link_columns[0]),
  link_next, link_key, link_seek, NULL, NULL, NULL, 0, describe_link, NULL,
  190, /* rows_per_file, the corpus average */
};

/* ---- registration --------------------------------------------------------------- */

static const ls_table *const wz4_tables[] = {&wz4_pages, &wz4_operators, &wz4_links};

/* Registers the format (levelsql_files recognises .wz4) and the tables. */
int wz4_tables_register(sqlite3 *db, ls_session *sess) {
  size_t i;
  int rc = ls_register_format(sess, &wz4_format);
  for (i = 0; rc == SQLITE_OK && i < sizeof wz4_tables / sizeof wz4_tables[0]; i++) {
    rc = ls_register_table(db, sess, wz4_tables[i]);
  }
  return rc;
}
