/*
** wz4_tables.c: the werkkzeug4 (.wz4) table family (wz4_projects,
** wz4_pages, wz4_operators, wz4_link_defaults, wz4_links) declared for the
** generic engine.
**
** The model is the codec's wz4_doc (codecs/wz4/wz4.h) with the memo of its
** operator graph inside: wz4_links reads a page's edges for each of its
** rows, and computing them indexes the whole document, so the memo keeps
** them until an edit moves, resizes, hides or renames an op (the codec's
** document-level edits tell it).  Iterators and loads fill the memo through
** const models; a connection uses its models from one thread at a time.
** Pages and operators are keyed by the codec's uids (they survive inserts
** and deletes of other rows); link defaults, which take no INSERT or
** DELETE, by their position.  wz4_projects shows the options chunk, one
** row per file.
**
** Strings are WTF-8 in the model (utf16.h), so the text columns are
** LS_WTF8.  The JSON columns show the codec's JSON forms (lone surrogates
** as \uD800 escapes, so the JSON is valid UTF-8) and read what is written
** to them with ext/engine/json.c.
*/
#include <stdlib.h>
#include <string.h>

#include "common/utf16.h"
#include "wz4/wz4.h"
#include "engine/engine.h"
#include "wz4/wz4_tables.h"

/* ---- the format ------------------------------------------------------------------ */

#define DOC(model) ((const wz4_doc *)(model))

/* The codec's own API; the parse polls the cancel (wz4_parse_cancel) so an
** interrupt stops a large project's parse, and reuses no scratch. */
LS_CODEC_ADAPTERS(wz4, wz4_doc, wz4_parse, wz4_serialize, wz4_clone, wz4_free, wz4_footprint)
LS_CODEC_CANCEL_ADAPTER(wz4, wz4_doc, wz4_parse_cancel)

/* ---- options ---------------------------------------------------------------------- */

/* rename_links=1: renaming an op (wz4_operators.name) renames the link
** slots that named it, so a Store op's Load ops and links follow. */
enum { OPT_RENAME_LINKS = 0 };

static int parse_rename_links(const char *value, ls_options *opts, char **err) {
  if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
    *err = sqlite3_mprintf("option rename_links takes 1 (a renamed op's link names follow) or 0 (the default), not '%s'",
                           value);
    return 0;
  }
  opts->format[OPT_RENAME_LINKS] = value[0] == '1';
  return 1;
}

static const ls_option option_rename_links = {"rename_links", "rename_links=1", "0", parse_rename_links};
static const ls_option *const wz4_options_list[] = {&option_rename_links, NULL};

static const char *const wz4_extensions[] = {".wz4", NULL};

const ls_format wz4_format = {
  .name = "wz4", .extensions = wz4_extensions, .sniff = wz4_sniff, LS_CODEC_FORMAT_FIELDS(wz4),
  .options = wz4_options_list, /* rename_links; text in projects is UTF-16, no code page to choose */
  .parse_reusing = wz4_format_parse_reusing, /* polls the cancel, reuses nothing */
  /* no validate: the loads read the parsed model as it is, only memory can run out; no shed: nothing is
  ** decoded lazily; no decoded_claim: the parse decoded everything,
  ** its footprint counts (limits.c); no bytes_claim: the parse inflates nothing */
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
  return wz4_doc_page_edges(DOC(model), (uint32_t)page, edges, n, &err);
}

/* Reads a WTF-8 text value of an INSERT (NULL: ""), for columns insert()
** needs before the row exists. */
static int insert_text(const ls_arg *a, const char **s, size_t *n, char **err) {
  if (!ls_arg_given(a)) {
    *s = "";
    *n = 0;
    return SQLITE_OK;
  }
  return ls_value_wtf8(a->value, a->column, 0, WZ4_TEXT_MAX, s, n, err);
}

/* ---- wz4_pages ------------------------------------------------------------------- */

typedef struct page_rec {
  wz4_page pg; /* a shallow copy */
  ls_span name;
} page_rec;

static int page_load(const ls_row *row, char **err) {
  page_rec *r = row->rec;
  (void)err;
  r->pg = DOC(row->model)->pages[row->pos.element];
  r->name = str_span(&r->pg.name);
  return SQLITE_OK;
}

/* A new name: the page order list and the last open page follow. */
static int page_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const page_rec *r = row->rec, *was = old;
  codec_error cerr;
  (void)changed;
  if (r->name.p == was->name.p) return SQLITE_OK;
  if (!wz4_page_rename(row->model, (uint32_t)row->pos.element, r->name.p, r->name.n, &cerr))
    return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  return SQLITE_OK;
}

/* The uid: a page keeps its rowid while pages before it come and go. */
static int64_t page_key(const void *model, const ls_pos *pos) {
  return DOC(model)->pages[pos->element].uid;
}

static int page_seek(const void *model, int64_t key, ls_pos *pos) {
  uint32_t page;
  if (key < 0 || key > UINT32_MAX || !wz4_page_find(DOC(model), (uint32_t)key, &page)) return 0;
  *pos = (ls_pos){.element = page};
  return 1;
}

typedef struct page_args {
  ls_arg page, name;
} page_args;

/* INSERT: an empty stacked page at `page` (default: after the last), named
** as given; every page's name links are looked up again. */
static int page_insert(void *model, const void *args_, ls_pos *pos, char **err) {
  const page_args *args = args_;
  wz4_doc *doc = model;
  int64_t at;
  const char *name;
  size_t len;
  codec_error cerr;
  int rc;
  if ((rc = ls_arg_int_or(&args->page, 0, doc->num_pages, doc->num_pages, &at, err)) != SQLITE_OK ||
      (rc = insert_text(&args->name, &name, &len, err)) != SQLITE_OK)
    return rc;
  if (!wz4_page_insert(doc, (uint32_t)at, name, len, &cerr)) return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  *pos = (ls_pos){.element = at};
  return SQLITE_OK;
}

/* DELETE: the page and its ops; name links to them dangle. */
static int page_remove(void *model, const ls_pos *pos, char **err) {
  codec_error cerr;
  if (!wz4_page_remove(model, (uint32_t)pos->element, &cerr))
    return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  return SQLITE_OK;
}

static const ls_column page_columns[] = {
  LS_COL_POS("page", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(2),
             "page number, 0-based, in file order (shifts when pages before it are inserted or deleted); INSERT: the place to take, default after the last"),
  LS_COL_WTF8("name", page_rec, name, WZ4_TEXT_MAX, 0,
              "page name; a rename also renames the page's entry in the page order list and the last open page (wz4_projects.page_name)"),
  LS_COL_INT("is_tree", LS_U32, page_rec, pg.is_tree, LS_COL_RO, "1 for a tree page (ops with levels instead of grid positions), else 0"),
  LS_COL_INT("num_ops", LS_U32, page_rec, pg.num_nodes, LS_COL_RO, "operators on the page (rows of wz4_operators)"),
  LS_COL_INT("num_stacked", LS_U32, page_rec, pg.num_stack, LS_COL_RO, "stacked operators (with a grid position) among them"),
  LS_COL_INT("scroll_x", LS_I32, page_rec, pg.scroll_x, LS_COL_RO, "editor scroll position x"),
  LS_COL_INT("scroll_y", LS_I32, page_rec, pg.scroll_y, LS_COL_RO, "editor scroll position y"),
  LS_COL_INT("write_protect", LS_U32, page_rec, pg.write_protect, LS_COL_RO, "the page's manual write-protect flag"),
};

static const ls_insert page_insertion = {
  .run = page_insert, .args_size = sizeof(page_args), .args = {LS_ARG(page_args, page), LS_ARG(page_args, name)},
};

static const ls_table wz4_pages = {
  .name = "wz4_pages", .format = &wz4_format,
  .doc = "one row per page of each werkkzeug4 project (.wz4); INSERT adds an empty stacked page, DELETE removes one with its operators",
  LS_COLUMNS(page_columns),
  .shape = LS_ARRAY(page_count), .key = page_key, .seek = page_seek,
  .insert = &page_insertion, .remove = page_remove, .row_name = "page {element}",
  .rows_per_file = 2, /* the corpus average */
  .record_size = sizeof(page_rec), .load = page_load, .store = page_store,
};

/* ---- the fields of an op record (wz4_operators, wz4_link_defaults) ------------------ */

/* What both tables show of a wz4_op, first in both records; `links` is
** NULL until a write gives new JSON text (the getter reads the model's
** op). */
typedef struct op_fields {
  wz4_op *op; /* the model's op, which store() writes */
  ls_span name, class_name, output_type, script;
  ls_span params;  /* of uint32_t: the op's parameter words, or new ones in the arena */
  ls_span strings; /* of ls_span: the string parameters, WTF-8 */
  ls_span links;   /* new JSON text (arena), or {NULL, 0} */
} op_fields;

/* Fills the fields from the model's op; the string spans go to the arena. */
static int op_fields_load(op_fields *f, wz4_op *op, ls_arena *arena) {
  ls_span *strs;
  uint32_t i;
  f->op = op;
  f->name = str_span(&op->name);
  f->class_name = str_span(&op->class_name);
  f->output_type = str_span(&op->type_name);
  f->script = str_span(&op->script);
  f->params = (ls_span){op->params, op->num_params};
  if (!(strs = ls_arena_alloc(arena, sizeof *strs * (op->num_strings + 1)))) return SQLITE_NOMEM;
  for (i = 0; i < op->num_strings; i++) strs[i] = str_span(&op->strings[i]);
  f->strings = (ls_span){strs, op->num_strings};
  f->links = (ls_span){NULL, 0};
  return SQLITE_OK;
}

/* store() of both tables (and the first part of op_store): hands the
** changed fields to the codec, which knows what they imply for the rest of
** the document (rename_links=1: the link slots naming the old name
** follow). */
static int op_fields_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const op_fields *now = row->rec, *was = old;
  const ls_span *s = now->strings.p;
  wz4_op_edit edit = {
    .links_json = now->links.p, .links_len = now->links.n,
    .set_name = now->name.p != was->name.p, .name = now->name.p, .name_len = now->name.n,
    .rename_links = row->opts->format[OPT_RENAME_LINKS] != 0,
    .set_params = now->params.p != was->params.p, .params = now->params.p, .num_params = (uint32_t)now->params.n,
    .set_strings = now->strings.p != was->strings.p, .num_strings = (uint32_t)now->strings.n,
  };
  const char **strs = ls_arena_alloc(row->arena, sizeof *strs * (now->strings.n + 1));
  size_t *lens = ls_arena_alloc(row->arena, sizeof *lens * (now->strings.n + 1)), i;
  codec_error cerr;
  (void)changed;
  if (!strs || !lens) return SQLITE_NOMEM;
  for (i = 0; i < now->strings.n; i++) {
    strs[i] = s[i].p;
    lens[i] = s[i].n;
  }
  edit.strings = strs;
  edit.string_lens = lens;
  if (!wz4_op_edit_apply(row->model, now->op, &edit, &cerr)) return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  return SQLITE_OK;
}

/* The link slots, in the codec's JSON form (the field set is at the start
** of both records). */
static void get_links(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  size_t len = 0;
  char *json = wz4_links_json(((const op_fields *)row->rec)->op, &len);
  (void)col;
  if (!json) {
    sqlite3_result_error_nomem(ctx); /* a string that is not WTF-8 is never stored */
    return;
  }
  sqlite3_result_text64(ctx, json, len, free, SQLITE_UTF8);
  sqlite3_result_subtype(ctx, 'J');
}

/* New link slots: the JSON text is kept for store(), which parses it. */
static int set_links(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  op_fields *f = row->rec;
  const unsigned char *text = sqlite3_value_text(v);
  size_t n = (size_t)sqlite3_value_bytes(v);
  char *copy;
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    *err = sqlite3_mprintf("column %s takes a JSON array of link slots, e.g. '[{\"name\":\"tex\",\"select\":0}]'", col->name);
    return SQLITE_CONSTRAINT;
  }
  if (!text || !(copy = ls_arena_alloc(row->arena, n + 1))) return SQLITE_NOMEM;
  memcpy(copy, text, n + 1);
  f->links = (ls_span){copy, n};
  return SQLITE_OK;
}

/* Parameter words: a count the codec takes (32-bit), any 32-bit pattern. */
static const ls_json_shape params_shape = {1, 0, UINT32_MAX, "[2056,4278190080]",
                                           "a JSON array of integers from -2147483648 to 4294967295, e.g. '[2056,4278190080]'"};

static const ls_json_shape strings_shape = {1, 0, UINT32_MAX, "[\"farbrausch\"]",
                                            "a JSON array of strings, e.g. '[\"farbrausch\"]'"};

/* The op-record columns of a record type S with an op_fields member f. */
#define OPF_NAME(S, doc_) LS_COL_WTF8("name", S, f.name, WZ4_TEXT_MAX, 0, doc_)
#define OPF_CLASS(S) LS_COL_WTF8("class", S, f.class_name, WZ4_TEXT_MAX, LS_COL_RO, "operator class, e.g. 'Flat'")
#define OPF_TYPE(S) \
  LS_COL_WTF8("output_type", S, f.output_type, WZ4_TEXT_MAX, LS_COL_RO, "output type, e.g. 'GenBitmap' (class and output_type identify the op)")
#define OPF_PARAMS(S) \
  LS_COL_JSON_INTS("params", LS_SPAN32, S, f.params, INT32_MIN, UINT32_MAX, 0, &params_shape, \
                   "JSON array of the raw 32-bit parameter words (unsigned; negatives accepted on write, as two's complement); their meaning depends on the class")
#define OPF_STRINGS(S) \
  {.name = "strings", .type = "TEXT", .kind = LS_JSON_TEXTS, .store = LS_SPAN, .offset = offsetof(S, f.strings), \
   .max = WZ4_TEXT_MAX, .flags = LS_COL_WTF8, .aux = &strings_shape, .doc = "JSON array of the string parameters (lone surrogates as \\ud800 escapes)"}
#define OPF_LINKS \
  LS_COL_CUSTOM("links", "TEXT", get_links, set_links, \
                "JSON array of the link slots: [{\"name\":..,\"select\":..}]; writable (\"select\" may be left out: 0); slot i keeps its link default op, new slots have none")
#define OPF_SCRIPT(S) LS_COL_WTF8("script", S, f.script, WZ4_TEXT_MAX, LS_COL_RO, "script source ('' for none)")

/* ---- wz4_operators ---------------------------------------------------------------- */

typedef struct op_rec {
  op_fields f; /* first: get_links reads it */
  wz4_node nd; /* a shallow copy */
  int tree;    /* the row kind */
} op_rec;

enum { OP_STACKED, OP_TREE };
static const char *const op_kind_names[] = {"stacked", "tree", NULL};

static int64_t page_ops(const void *model, int64_t page) {
  return DOC(model)->pages[page].num_nodes;
}

/* The node of the row (the iterator and seeks give existing rows only). */
static int op_load(const ls_row *row, char **err) {
  op_rec *r = row->rec;
  const wz4_page *pg = &DOC(row->model)->pages[row->pos.element];
  (void)err;
  r->nd = pg->nodes[row->pos.index];
  r->tree = wz4_node_is_tree(pg, (uint32_t)row->pos.index) ? OP_TREE : OP_STACKED;
  return op_fields_load(&r->f, &pg->nodes[row->pos.index].op, row->arena);
}

static int op_kind(const ls_row *row) {
  return ((const op_rec *)row->rec)->tree;
}

/* The op's fields, then the grid fields (the page's stack links may
** change). */
static int op_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const op_rec *r = row->rec;
  int rc = op_fields_store(row, old, changed, err);
  if (rc == SQLITE_OK) wz4_doc_node_place(row->model, (uint32_t)row->pos.element, (uint32_t)row->pos.index, &r->nd);
  return rc;
}

/* The uid: an op keeps its rowid while ops before it come and go. */
static int64_t op_key(const void *model, const ls_pos *pos) {
  return DOC(model)->pages[pos->element].nodes[pos->index].uid;
}

static int op_seek(const void *model, int64_t key, ls_pos *pos) {
  uint32_t page, op;
  if (key < 0 || key > UINT32_MAX || !wz4_node_find(DOC(model), (uint32_t)key, &page, &op)) return 0;
  *pos = (ls_pos){.element = page, .index = op};
  return 1;
}

/* The columns op_insert reads. */
typedef struct op_args {
  ls_arg page, class_name, output_type;
} op_args;

/* INSERT: a blank stacked op of the given class and output type after the
** page's last stacked op (page 0 when the page is NULL); the engine then
** sets the other values given. */
static int op_insert(void *model, const void *args_, ls_pos *pos, char **err) {
  const op_args *args = args_;
  wz4_doc *doc = model;
  const char *class_name, *type_name;
  size_t class_len, type_len;
  int64_t page = 0;
  uint32_t index;
  codec_error cerr;
  int rc;
  if (doc->num_pages && (rc = ls_arg_int_or(&args->page, 0, doc->num_pages - 1, 0, &page, err)) != SQLITE_OK) return rc;
  if ((rc = insert_text(&args->class_name, &class_name, &class_len, err)) != SQLITE_OK ||
      (rc = insert_text(&args->output_type, &type_name, &type_len, err)) != SQLITE_OK)
    return rc;
  if (!wz4_node_insert(doc, (uint32_t)page, class_name, class_len, type_name, type_len, &index, &cerr))
    return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  *pos = (ls_pos){.element = page, .index = index};
  return SQLITE_OK;
}

static const ls_insert op_insertion = {
  .run = op_insert, .args_size = sizeof(op_args),
  .args = {LS_ARG(op_args, page), LS_ARG_NAMED("class", op_args, class_name), LS_ARG(op_args, output_type)},
};

/* DELETE: the op and its link defaults; links naming it dangle. */
static int op_remove(void *model, const ls_pos *pos, char **err) {
  codec_error cerr;
  if (!wz4_node_remove(model, (uint32_t)pos->element, (uint32_t)pos->index, &cerr))
    return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  return SQLITE_OK;
}

static const ls_column op_columns[] = {
  LS_COL_POS("page", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(2), "page number (wz4_pages.page); INSERT: the page to add the op to, default 0"),
  LS_COL_POS("op", LS_POS_INDEX, LS_COL_RANGE | LS_COL_VALUES(85),
             "operator index on the page, 0-based: stacked ops first, then tree ops (shifts when ops before it are inserted or deleted)"),
  OPF_NAME(op_rec, "the user's label, '' for most ops; the target of name links (Store/Load); with options 'rename_links=1' a rename renames the link slots naming the old name"),
  OPF_CLASS(op_rec),
  OPF_TYPE(op_rec),
  LS_COL_KIND_INT("pos_x", LS_I32, op_rec, nd.pos_x, INT32_MIN, INT32_MAX, 0, 1 << OP_STACKED, "grid column of the left edge (stacked ops; NULL for tree ops); moving rewires wz4_links"),
  LS_COL_KIND_INT("pos_y", LS_I32, op_rec, nd.pos_y, INT32_MIN, INT32_MAX, 0, 1 << OP_STACKED, "grid row of the top edge (stacked ops)"),
  LS_COL_KIND_INT("width", LS_I32, op_rec, nd.width, 1, INT32_MAX, 0, 1 << OP_STACKED, "width in grid cells, 1 or more (stacked ops)"),
  LS_COL_KIND_INT("height", LS_I32, op_rec, nd.height, 1, INT32_MAX, 0, 1 << OP_STACKED, "height in grid cells, 1 or more (stacked ops)"),
  LS_COL_KIND_INT("bypass", LS_U32, op_rec, nd.bypass, 0, 1, 0, 1 << OP_STACKED, "1 when the op is bypassed (passes its first input through), else 0"),
  LS_COL_KIND_INT("hide", LS_U32, op_rec, nd.hide, 0, 1, 0, 1 << OP_STACKED, "1 when the op is hidden (its output does not feed the op below), else 0"),
  OPF_PARAMS(op_rec),
  OPF_STRINGS(op_rec),
  OPF_LINKS,
  OPF_SCRIPT(op_rec),
};

/* A write to a grid column of a tree op: no column makes an op a tree op
** or a stacked one, so "set the kind first" would mislead.  NULL, what the
** column reads there, is taken as no change. */
static int tree_op_refuses(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  (void)row;
  if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK; /* what it reads: no change */
  *err = sqlite3_mprintf("column %s: a tree op has no grid position, size or flags", col->name);
  return SQLITE_CONSTRAINT;
}

static const ls_table wz4_operators = {
  .name = "wz4_operators", .format = &wz4_format,
  .doc = "one row per operator of each page of each werkkzeug4 project; INSERT adds a blank stacked op (class and output_type required), DELETE removes one",
  LS_COLUMNS(op_columns),
  .shape = LS_NESTED(page_count, page_ops), .key = op_key, .seek = op_seek,
  .insert = &op_insertion, .remove = op_remove, .row_name = "op {index} of page {element}",
  .rows_per_file = 190, /* the corpus average */
  .record_size = sizeof(op_rec), .load = op_load, .store = op_store,
  .row_kind = op_kind, .kind_names = op_kind_names, .other_kind = tree_op_refuses,
};

/* ---- wz4_link_defaults ------------------------------------------------------------ */

/* A link default op: row (page, idx) is default number idx of the page,
** counting every op's defaults in preorder, op by op (the codec's
** wz4_page_default_at); store() is op_fields_store. */
typedef struct default_rec {
  op_fields f; /* first: get_links and op_fields_store read it */
  uint32_t op;
  wz4_default_place where;
} default_rec;

static int64_t page_default_count(const void *model, int64_t page) {
  return wz4_page_default_count(&DOC(model)->pages[page]);
}

static int default_load(const ls_row *row, char **err) {
  default_rec *r = row->rec;
  wz4_op *def = wz4_page_default_at(&DOC(row->model)->pages[row->pos.element], row->pos.index, &r->op, &r->where);
  if (!def) {
    *err = sqlite3_mprintf("link default %lld of page %lld is gone", (long long)row->pos.index, (long long)row->pos.element);
    return SQLITE_ERROR;
  }
  return op_fields_load(&r->f, def, row->arena);
}

static const ls_column default_columns[] = {
  LS_COL_POS("page", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(2), "page of the operator (wz4_pages.page)"),
  LS_COL_POS("idx", LS_POS_INDEX, LS_COL_RANGE | LS_COL_VALUES(40),
             "index among the page's link defaults: op by op, each op's in preorder (a slot's default, then its own defaults, then the next slot)"),
  LS_COL_INT("op", LS_U32, default_rec, op, LS_COL_RO, "the operator holding it (wz4_operators.op on the page)"),
  LS_COL_INT("slot", LS_U32, default_rec, where.slot, LS_COL_RO, "index of the link slot holding it (in the links of the op, or of the parent default)"),
  LS_COL_INT_NULL("parent", LS_I64, default_rec, where.parent, 0, 0, LS_COL_RO, "idx of the link default whose slot holds it; NULL when the operator's own slot does"),
  LS_COL_INT("depth", LS_U32, default_rec, where.depth, LS_COL_RO, "1 for a default of the operator's slot, 2 for a default of a default, ..."),
  OPF_NAME(default_rec, "the default op's label, usually ''; with options 'rename_links=1' a rename renames the link slots naming the old name"),
  OPF_CLASS(default_rec),
  OPF_TYPE(default_rec),
  OPF_PARAMS(default_rec),
  OPF_STRINGS(default_rec),
  OPF_LINKS,
  OPF_SCRIPT(default_rec),
};

static const ls_table wz4_link_defaults = {
  .name = "wz4_link_defaults", .format = &wz4_format,
  .doc = "one row per link default op (a complete op a link slot holds, used when the slot names nothing) of each werkkzeug4 project; writable like wz4_operators",
  LS_COLUMNS(default_columns),
  .shape = LS_NESTED(page_count, page_default_count), .row_name = "link default {index} of page {element}",
  .natural_order = "page,idx", .rows_per_file = 30,
  .record_size = sizeof(default_rec), .load = default_load, .store = op_fields_store,
};

/* ---- wz4_projects ------------------------------------------------------------------- */

/* The options chunk; the row kind is its version, so a field the version
** lacks reads NULL and refuses writes. */
typedef struct project_rec {
  wz4_options o; /* a shallow copy */
  ls_span project_path, project_name, music_file, page_name, packfiles;
  double bpm;
} project_rec;

#define OPTIONS_VERSIONS (WZ4_OPTIONS_VERSION_MAX + 1)
/* The row kinds of options version v and later. */
#define SINCE(v) ((((uint32_t)1 << OPTIONS_VERSIONS) - 1) & ~(((uint32_t)1 << (v)) - 1))

static const char *const options_version_names[] = {
  "options version 0", "options version 1", "options version 2", "options version 3", "options version 4",
  "options version 5", "options version 6", "options version 7", "options version 8", "options version 9",
  "options version 10", "options version 11", "options version 12", "options version 13", "options version 14",
  "options version 15", "options version 16", NULL};

static int project_load(const ls_row *row, char **err) {
  project_rec *r = row->rec;
  (void)err;
  r->o = DOC(row->model)->options;
  r->project_path = str_span(&r->o.project_path);
  r->project_name = str_span(&r->o.project_name);
  r->music_file = str_span(&r->o.music_file);
  r->page_name = str_span(&r->o.page_name);
  r->packfiles = str_span(&r->o.packfiles);
  r->bpm = wz4_options_bpm(&r->o);
  return SQLITE_OK;
}

static int project_kind(const ls_row *row) {
  int32_t v = ((const project_rec *)row->rec)->o.version;
  return v < 0 ? 0 : v > WZ4_OPTIONS_VERSION_MAX ? WZ4_OPTIONS_VERSION_MAX : v;
}

/* Strings that changed, then the scalar words, then the tempo (bpm wins
** over beats_per_second when both are given; a statement that fails is
** undone as a whole). */
static int project_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  wz4_options *o = &((wz4_doc *)row->model)->options;
  const project_rec *r = row->rec, *was = old;
  codec_error cerr;
  struct {
    const ls_span *now, *was;
    wz4_str *to;
  } strs[] = {{&r->project_path, &was->project_path, &o->project_path},
              {&r->project_name, &was->project_name, &o->project_name},
              {&r->music_file, &was->music_file, &o->music_file},
              {&r->page_name, &was->page_name, &o->page_name},
              {&r->packfiles, &was->packfiles, &o->packfiles}};
  size_t i;
  (void)changed;
  for (i = 0; i < sizeof strs / sizeof strs[0]; i++) {
    if (strs[i].now->p != strs[i].was->p && !wz4_str_set(strs[i].to, strs[i].now->p, strs[i].now->n, &cerr))
      return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  }
  o->texture_quality = r->o.texture_quality;
  o->level_of_detail = r->o.level_of_detail;
  o->beats_per_second = r->o.beats_per_second;
  o->beat_start = r->o.beat_start;
  o->beats = r->o.beats;
  o->screen_x = r->o.screen_x;
  o->screen_y = r->o.screen_y;
  o->sample_rate = r->o.sample_rate;
  if (r->bpm != was->bpm && !wz4_options_set_bpm(o, r->bpm, &cerr)) return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  return SQLITE_OK;
}

static const ls_column project_columns[] = {
  LS_COL_INT("options_version", LS_I32, project_rec, o.version, LS_COL_RO,
             "version of the options chunk (0..16; real files have 10, 13 and 16): the columns of later versions read NULL"),
  LS_COL_TEXT("project_path", LS_WTF8, project_rec, project_path, WZ4_TEXT_MAX, 0, SINCE(1), "the project folder (an absolute path on the author's machine); NULL in options version 0"),
  LS_COL_TEXT("project_name", LS_WTF8, project_rec, project_name, WZ4_TEXT_MAX, 0, SINCE(2), "project name (options version 2+; NULL before)"),
  LS_COL_KIND_INT("project_id", LS_U32, project_rec, o.project_id, 0, 0, LS_COL_RO, SINCE(11), "project id (options version 11+)"),
  LS_COL_KIND_INT("site_id", LS_U32, project_rec, o.site_id, 0, 0, LS_COL_RO, SINCE(11), "site id (options version 11+)"),
  LS_COL_KIND_INT("texture_quality", LS_U32, project_rec, o.texture_quality, 0, 0, 0, SINCE(3), "texture quality setting (version 3+)"),
  LS_COL_KIND_INT("level_of_detail", LS_U32, project_rec, o.level_of_detail, 0, 0, 0, SINCE(4), "level of detail setting (version 4+)"),
  LS_COL_KIND_INT("beats_per_second", LS_U32, project_rec, o.beats_per_second, 0, 0, 0, SINCE(5), "tempo as stored: beats per second in 16.16 fixed point (version 5+)"),
  {.name = "bpm", .type = "REAL", .kind = LS_FLOAT, .store = LS_F64, .offset = offsetof(project_rec, bpm),
   .applies = SINCE(5), .doc = "tempo in beats per minute (beats_per_second * 60 / 65536); a write is rounded to the 16.16 fixed point"},
  LS_COL_TEXT("music_file", LS_WTF8, project_rec, music_file, WZ4_TEXT_MAX, 0, SINCE(5), "the music file (version 5+; NULL before)"),
  LS_COL_KIND_INT("beat_start", LS_U32, project_rec, o.beat_start, 0, 0, 0, SINCE(10), "first beat (version 10+)"),
  LS_COL_KIND_INT("beats", LS_U32, project_rec, o.beats, 0, 0, 0, SINCE(9), "length in beats (version 9+)"),
  LS_COL_KIND_INT("screen_x", LS_U32, project_rec, o.screen_x, 0, 0, 0, SINCE(6), "screen width (version 6+)"),
  LS_COL_KIND_INT("screen_y", LS_U32, project_rec, o.screen_y, 0, 0, 0, SINCE(6), "screen height (version 6+)"),
  LS_COL_TEXT("page_name", LS_WTF8, project_rec, page_name, WZ4_TEXT_MAX, 0, SINCE(7), "the last open page (version 7+, NULL before; renaming that page renames it too)"),
  LS_COL_TEXT("packfiles", LS_WTF8, project_rec, packfiles, WZ4_TEXT_MAX, 0, SINCE(8), "pack files, separated by ';' (version 8+; NULL before)"),
  LS_COL_KIND_INT("sample_rate", LS_U32, project_rec, o.sample_rate, 0, 0, 0, SINCE(13), "music sample rate (version 13+)"),
  LS_COL_KIND_INT("variable_bpm", LS_U32, project_rec, o.variable_bpm, 0, 0, LS_COL_RO, SINCE(13), "1 when the tempo changes along the song (version 13+)"),
  LS_COL_KIND_INT("num_bpm_segments", LS_U32, project_rec, o.num_bpm, 0, 0, LS_COL_RO, SINCE(13), "tempo segments (version 13+)"),
  LS_COL_KIND_INT("dialog_flags", LS_U32, project_rec, o.dialog_flags, 0, 0, LS_COL_RO, SINCE(14), "editor dialog flags (version 14+)"),
  LS_COL_KIND_INT("num_hidden_parts", LS_U32, project_rec, o.num_hidden, 0, 0, LS_COL_RO, SINCE(15), "hidden parts (version 15+)"),
};

static const ls_table wz4_projects = {
  .name = "wz4_projects", .format = &wz4_format,
  .doc = "one row per werkkzeug4 project: its options (music, tempo, screen size, ...); the fields its options version lacks read NULL",
  LS_COLUMNS(project_columns),
  .shape = LS_ONE_ROW, .row_name = "project options", .natural_order = "",
  .rows_per_file = 1,
  .record_size = sizeof(project_rec), .load = project_load, .store = project_store,
  .row_kind = project_kind, .kind_names = options_version_names,
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
  int64_t p = first ? 0 : pos->element, i = first ? 0 : pos->index + 1, start = p;
  const wz4_edge *edges;
  size_t n;
  for (; ls_range_first(&scan->range[0], p, DOC(model)->num_pages, &p); p++) {
    if (p != start) i = 0;
    if (!page_edges(model, p, &edges, &n)) {
      *scan->error = sqlite3_mprintf("page %lld: cannot compute the operator graph (out of memory)", (long long)p);
      return 0;
    }
    if (i < (int64_t)n) {
      *pos = (ls_pos){.element = p, .index = i};
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
  if (!page_edges(row->model, row->pos.element, &edges, &n)) return SQLITE_NOMEM;
  if (row->pos.index >= (int64_t)n) return SQLITE_OK;
  e = &edges[row->pos.index];
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

static const ls_column link_columns[] = {
  LS_COL_POS("page", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(2), "page of to_op"),
  LS_COL_INT_NULL("from_op", LS_I64, link_rec, from_op, 0, 0, LS_COL_RO, "the input op (index on from_page); NULL when a name link's target does not exist"),
  LS_COL_INT_NULL("to_op", LS_I64, link_rec, to_op, 0, 0, LS_COL_RO, "the op taking the input (index on page)"),
  LS_COL_WTF8("kind", link_rec, kind, 0, LS_COL_RO, "'stack': from_op sits right above to_op on the grid; 'name': a link slot of to_op names from_op"),
  LS_COL_WTF8("link_name", link_rec, link_name, 0, LS_COL_RO, "name links: the name in the link slot; NULL for stack links"),
  LS_COL_INT_NULL("from_page", LS_I64, link_rec, from_page, 0, 0, LS_COL_RO, "page of from_op (another page for some name links); NULL when the name does not exist"),
  LS_COL_INT_NULL("slot", LS_I64, link_rec, slot, 0, 0, LS_COL_RO, "name links: index of the link slot of to_op (wz4_operators.links); NULL for stack links"),
};

static const ls_table wz4_links = {
  .name = "wz4_links", .format = &wz4_format,
  .doc = "one row per edge of the operator graph, computed from the current positions and names",
  LS_COLUMNS(link_columns),
  .shape = LS_NESTED(page_count, page_link_count), .next = link_next, .row_name = "link {index} of page {element}",
  .rows_per_file = 190, /* the corpus average */
  .record_size = sizeof(link_rec), .load = link_load,
};

/* ---- the family --------------------------------------------------------------- */

static const ls_table *const wz4_tables[] = {&wz4_projects, &wz4_pages, &wz4_operators, &wz4_link_defaults, &wz4_links, NULL};

const ls_family wz4_family = {
  .format = &wz4_format,
  .tables = wz4_tables,
  .register_functions = wz4_register_functions,
};
