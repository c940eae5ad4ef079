/*
** wz4_tables.c: the werkkzeug4 (.wz4) table family (wz4_projects,
** wz4_pages, wz4_operators, wz4_link_defaults, wz4_links) declared for the
** generic engine.
**
** The model is the codec's wz4_doc (codecs/wz4/wz4.h), whose graph memo
** serves wz4_links a page's edges row by row (computing them indexes the
** whole document); iterators and loads fill it through const models, and a
** connection uses its models from one thread at a time.  Records are
** copies of the codec's structs.  Pages and operators are keyed by the
** codec's uids (they survive inserts and deletes of other rows); link
** defaults, which take no INSERT or DELETE, by their position.
** wz4_projects shows the options chunk, one row per file.
**
** Strings are WTF-8 in the model (utf16.h), so the text columns are
** LS_WTF8.  The JSON columns show the codec's JSON forms (lone surrogates
** as \uD800 escapes, so the JSON is valid UTF-8) and read what is written
** to them with ext/engine/json.c.
*/
#include "wz4/wz4.h"
#include "engine/engine.h"
#include "wz4/wz4_tables.h"

/* ---- the format ------------------------------------------------------------------ */

/* The codec's own API; the parse polls the cancel (wz4_parse_cancel) so an
** interrupt stops a large project's parse, and reuses no scratch. */
LS_CODEC_ADAPTERS(wz4, wz4_doc, wz4_parse, wz4_serialize, wz4_clone, wz4_free, wz4_footprint)
LS_CODEC_CANCEL_ADAPTER(wz4, wz4_doc, wz4_parse_cancel)

/* rename_links=1: renaming an op (wz4_operators.name) renames the link
** slots that named it, so a Store op's Load ops and links follow. */
enum { OPT_RENAME_LINKS = 0 };
LS_FLAG_OPTION(option_rename_links, "rename_links", OPT_RENAME_LINKS, "a renamed op's link names follow");
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

/* The model's strings are the text columns' fields (LS_COL_NULL_EMPTY)
** and the string parameters' elements. */
_Static_assert(sizeof(wz4_str) == sizeof(ls_span) && offsetof(wz4_str, len) == offsetof(ls_span, n), "wz4_str as ls_span");

/* The codec's string setter, for ls_copy_back. */
static int set_str(void *field, const ls_span *text, void *cerr) {
  return wz4_str_set(field, text->p, text->n, cerr);
}

LS_COUNT_OF(page_count, wz4_doc, num_pages)

/* ---- wz4_pages ------------------------------------------------------------------- */

/* The record is a shallow copy of the page; DELETE takes the page and its
** ops (name links to them dangle). */
LS_LOAD_ELEMENT(page_load, wz4_doc, pages, wz4_page)
LS_UID_KEYS(page, wz4_doc, pages, wz4_page_find)
LS_REMOVE_CALL(page_remove, wz4_doc, wz4_page_remove, NULL)

/* A new name: the page order list and the last open page follow. */
LS_STORE_CALL(page_store, wz4_page, NULL,
              rec->name.s == ((const wz4_page *)old)->name.s ||
                  wz4_page_rename(row->model, (uint32_t)row->pos.element, rec->name.s, rec->name.len, &cerr))

typedef struct page_args {
  ls_arg page, name;
} page_args;

/* INSERT: an empty stacked page at `page` (default: after the last), named
** as given; every page's name links are looked up again. */
LS_INSERT_CALL_AT(page_insert, page_args, args->page.i, 0,
                  wz4_page_insert(model, (uint32_t)args->page.i, args->name.text.p, args->name.text.n, &cerr))

static const ls_column page_columns[] = {
  LS_COL_POS("page", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(2), "page number, 0-based, in file order (shifts when pages before it are inserted or deleted); INSERT: the place to take, default after the last"),
  LS_COL_CODEC_STR("name", LS_WTF8, wz4_page, name, WZ4_STR_UNITS_MAX, 0, 0, "page name; a rename also renames the page's entry in the page order list and the last open page (wz4_projects.page_name)"),
  LS_COL_INT("is_tree", LS_U32, wz4_page, is_tree, LS_COL_RO, "1 for a tree page (ops with levels instead of grid positions), else 0"),
  LS_COL_INT("num_ops", LS_U32, wz4_page, num_nodes, LS_COL_RO, "operators on the page (rows of wz4_operators)"),
  LS_COL_INT("num_stacked", LS_U32, wz4_page, num_stack, LS_COL_RO, "stacked operators (with a grid position) among them"),
  LS_COL_INT("scroll_x", LS_I32, wz4_page, scroll_x, LS_COL_RO, "editor scroll position x"),
  LS_COL_INT("scroll_y", LS_I32, wz4_page, scroll_y, LS_COL_RO, "editor scroll position y"),
  LS_COL_INT("write_protect", LS_U32, wz4_page, write_protect, LS_COL_RO, "the page's manual write-protect flag"),
};

static const ls_insert page_insertion =
    LS_INSERT(page_insert, page_args, LS_ARG(page_args, page, LS_IS_AT(page_count)), LS_ARG(page_args, name, LS_IS_WTF8));

static const ls_table wz4_pages = {
  .name = "wz4_pages", .format = &wz4_format, LS_COLUMNS(page_columns),
  .doc = "one row per page of each werkkzeug4 project (.wz4); INSERT adds an empty stacked page, DELETE removes one with its operators",
  .shape = LS_ARRAY(page_count), .key = page_key, .seek = page_seek, .insert = &page_insertion, .remove = page_remove,
  .row_name = "page {element}", .rows_per_file = 2, /* the corpus average */
  .record_size = sizeof(wz4_page), .load = page_load, .store = page_store,
};

/* ---- wz4_operators (and the op fields wz4_link_defaults shares) ----------------- */

/* What both tables show of an op, at the start of both records (so their
** columns name its fields in op_fields; a wz4_operators record is this
** alone): a shallow copy of its node, whose op's strings are the text
** columns (a link default has no node: nd.op alone), and the spans of the
** JSON columns; `links` is {NULL, 0} until a write gives new JSON text. */
typedef struct op_fields {
  wz4_op *op;      /* the model's op, which store() writes */
  wz4_node *node;  /* the model's node, placed as nd says; NULL for a link default */
  wz4_node nd;     /* a shallow copy */
  ls_span params;  /* of uint32_t: the op's parameter words, or new ones in the arena */
  ls_span strings; /* the string parameters: the op's wz4_str, or new ls_span in the arena */
  ls_span links;   /* new JSON text (arena), or {NULL, 0} */
} op_fields;

/* Fills the fields (a zeroed record) from the model's op and node. */
static int op_fields_load(const ls_row *row, wz4_node *node, wz4_op *op) {
  op_fields *f = row->rec;
  f->op = op;
  f->node = node;
  if (node) f->nd = *node;
  f->nd.op = *op;
  f->params = (ls_span){op->params, op->num_params};
  f->strings = (ls_span){op->strings, op->num_strings};
  return SQLITE_OK;
}

/* store() of both tables: hands the changed fields to the codec, which
** knows what they imply for the rest of the document (rename_links=1: the
** link slots naming the old name follow; a move rewires the page). */
static int op_fields_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const op_fields *now = row->rec, *was = old;
  wz4_op_edit edit = {
    .links_json = now->links.p, .links_len = now->links.n, .rename_links = row->opts->format[OPT_RENAME_LINKS] != 0,
    .set_name = now->nd.op.name.s != was->nd.op.name.s, .name = now->nd.op.name.s, .name_len = now->nd.op.name.len,
    .set_params = now->params.p != was->params.p, .params = now->params.p, .num_params = (uint32_t)now->params.n,
    .set_strings = now->strings.p != was->strings.p, .num_strings = (uint32_t)now->strings.n,
    .node = now->node, .page = (uint32_t)row->pos.element, .place = &now->nd};
  codec_error cerr;
  (void)changed;
  if (edit.set_strings && ls_spans_split(row->arena, now->strings, &edit.strings, &edit.string_lens) != SQLITE_OK)
    return SQLITE_NOMEM;
  return ls_codec_check(wz4_op_edit_apply(row->model, now->op, &edit, &cerr), &cerr, err, NULL);
}

/* The link slots, in the codec's JSON form (a string that is not WTF-8
** is never stored, so NULL means out of memory); new ones are kept as
** JSON text for store(), which parses them. */
static char *links_json(const void *rec, size_t *len) {
  return wz4_links_json(((const op_fields *)rec)->op, len);
}
static const ls_codec_json links_column = {links_json, "a JSON array of link slots, e.g. '[{\"name\":\"tex\",\"select\":0}]'"};

/* Parameter words and string parameters: a count the codec takes (32-bit);
** a word is any 32-bit pattern. */
static const ls_json_shape params_shape = {1, 0, UINT32_MAX, "[2056,4278190080]", "a JSON array of integers from -2147483648 to 4294967295, e.g. '[2056,4278190080]'"};
static const ls_json_shape strings_shape = {1, 0, UINT32_MAX, "[\"farbrausch\"]", "a JSON array of strings, e.g. '[\"farbrausch\"]'"};

/* The op_fields columns after the name: the two that identify the op, and
** the op's contents. */
#define OPF_IDENTITY \
  LS_COL_CODEC_STR("class", LS_WTF8, op_fields, nd.op.class_name, WZ4_STR_UNITS_MAX, LS_COL_RO, 0, "operator class, e.g. 'Flat'"), \
  LS_COL_CODEC_STR("output_type", LS_WTF8, op_fields, nd.op.type_name, WZ4_STR_UNITS_MAX, LS_COL_RO, 0, "output type, e.g. 'GenBitmap' (class and output_type identify the op)")
#define OPF_CONTENTS \
  LS_COL_JSON_INTS("params", LS_SPAN32, op_fields, params, INT32_MIN, UINT32_MAX, 0, &params_shape, "JSON array of the raw 32-bit parameter words (unsigned; negatives accepted on write, as two's complement); their meaning depends on the class"), \
  LS_COL_JSON_TEXTS("strings", LS_SPAN, op_fields, strings, WZ4_STR_UNITS_MAX, LS_COL_WTF8, &strings_shape, "JSON array of the string parameters (lone surrogates as \\ud800 escapes)"), \
  LS_COL_CODEC_JSON("links", op_fields, links, &links_column, "JSON array of the link slots: [{\"name\":..,\"select\":..}]; writable (\"select\" may be left out: 0); slot i keeps its link default op, new slots have none"), \
  LS_COL_CODEC_STR("script", LS_WTF8, op_fields, nd.op.script, WZ4_STR_UNITS_MAX, LS_COL_RO, 0, "script source ('' for none)")

/* The row kind: what the node is on its page. */
enum { OP_STACKED, OP_TREE };
static const char *const op_kind_names[] = {"stacked", "tree", NULL};

LS_INNER_COUNT_OF(page_ops, wz4_doc, pages, num_nodes)

/* The node of the row (the iterator and seeks give existing rows only). */
static int op_load(const ls_row *row, char **err) {
  wz4_node *nd = &((wz4_doc *)row->model)->pages[row->pos.element].nodes[row->pos.index];
  (void)err;
  return op_fields_load(row, nd, &nd->op);
}

static int op_kind(const ls_row *row) {
  return wz4_node_is_tree(&((wz4_doc *)row->model)->pages[row->pos.element], (uint32_t)row->pos.index) ? OP_TREE : OP_STACKED;
}

/* DELETE takes the op and its link defaults (links naming it dangle). */
LS_NESTED_UID_KEYS(op, wz4_doc, pages, nodes, wz4_node_find)
LS_REMOVE_CALL_NESTED(op_remove, wz4_doc, wz4_node_remove, NULL)

typedef struct op_args {
  ls_arg page, class_name, output_type;
} op_args;

/* The page an op goes to (NULL: 0); the codec refuses a project without
** pages before any argument counts. */
static int op_page(const void *model, const void *args, ls_arg *a, char **err) {
  codec_error cerr;
  (void)args;
  if (!wz4_has_pages(model, &cerr)) return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  return ls_arg_given(a) ? ls_value_int(a->value, a->column, 0, page_count(model) - 1, &a->i, err) : SQLITE_OK;
}

/* INSERT: a blank stacked op of the given class and output type after the
** page's last stacked op, then the other values given. */
LS_INSERT_CALL_AT(op_insert, op_args, args->page.i, index,
                  wz4_node_insert(model, (uint32_t)args->page.i, args->class_name.text.p, args->class_name.text.n,
                                  args->output_type.text.p, args->output_type.text.n, &index, &cerr))

static const ls_insert op_insertion =
    LS_INSERT(op_insert, op_args, LS_ARG(op_args, page, LS_CHECKED_BY(op_page)), LS_ARG_NAMED("class", op_args, class_name, LS_IS_WTF8),
              LS_ARG(op_args, output_type, LS_IS_WTF8));

static const ls_column op_columns[] = {
  LS_COL_POS("page", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(2), "page number (wz4_pages.page); INSERT: the page to add the op to, default 0"),
  LS_COL_POS("op", LS_POS_INDEX, LS_COL_RANGE | LS_COL_VALUES(85), "operator index on the page, 0-based: stacked ops first, then tree ops (shifts when ops before it are inserted or deleted)"),
  LS_COL_CODEC_STR("name", LS_WTF8, op_fields, nd.op.name, WZ4_STR_UNITS_MAX, 0, 0, "the user's label, '' for most ops; the target of name links (Store/Load); with options 'rename_links=1' a rename renames the link slots naming the old name"),
  OPF_IDENTITY,
  LS_COL_KIND_INT("pos_x", LS_I32, op_fields, nd.pos_x, INT32_MIN, INT32_MAX, 0, 1 << OP_STACKED, "grid column of the left edge (stacked ops; NULL for tree ops); moving rewires wz4_links"),
  LS_COL_KIND_INT("pos_y", LS_I32, op_fields, nd.pos_y, INT32_MIN, INT32_MAX, 0, 1 << OP_STACKED, "grid row of the top edge (stacked ops)"),
  LS_COL_KIND_INT("width", LS_I32, op_fields, nd.width, 1, INT32_MAX, 0, 1 << OP_STACKED, "width in grid cells, 1 or more (stacked ops)"),
  LS_COL_KIND_INT("height", LS_I32, op_fields, nd.height, 1, INT32_MAX, 0, 1 << OP_STACKED, "height in grid cells, 1 or more (stacked ops)"),
  LS_COL_KIND_INT("bypass", LS_U32, op_fields, nd.bypass, 0, 1, 0, 1 << OP_STACKED, "1 when the op is bypassed (passes its first input through), else 0"),
  LS_COL_KIND_INT("hide", LS_U32, op_fields, nd.hide, 0, 1, 0, 1 << OP_STACKED, "1 when the op is hidden (its output does not feed the op below), else 0"),
  OPF_CONTENTS,
};

/* A write to a grid column of a tree op: no column makes an op a tree op
** or a stacked one, so "set the kind first" would mislead.  NULL, what the
** column reads there, is taken as no change. */
LS_OTHER_KIND_TAKES_NULL(tree_op_refuses, "a tree op has no grid position, size or flags")

static const ls_table wz4_operators = {
  .name = "wz4_operators", .format = &wz4_format, LS_COLUMNS(op_columns),
  .doc = "one row per operator of each page of each werkkzeug4 project; INSERT adds a blank stacked op (class and output_type required), DELETE removes one",
  .shape = LS_NESTED(page_count, page_ops), .key = op_key, .seek = op_seek, .insert = &op_insertion, .remove = op_remove,
  .row_name = "op {index} of page {element}", .rows_per_file = 190, /* the corpus average */
  .record_size = sizeof(op_fields), .load = op_load, .store = op_fields_store,
  .row_kind = op_kind, .kind_names = op_kind_names, .other_kind = tree_op_refuses,
};

/* ---- wz4_link_defaults ------------------------------------------------------------ */

/* A link default op: row (page, idx) is default number idx of the page,
** counting every op's defaults in preorder, op by op (the codec's
** wz4_page_default_at); store() is op_fields_store. */
typedef struct default_rec {
  op_fields f; /* first: links_json and op_fields_store read it */
  uint32_t op;
  wz4_default_place where;
} default_rec;

LS_INNER_COUNT_BY(page_default_count, wz4_doc, pages, wz4_page_default_count)

static int default_load(const ls_row *row, char **err) {
  default_rec *r = row->rec;
  wz4_op *def = wz4_page_default_at(&((wz4_doc *)row->model)->pages[row->pos.element], row->pos.index, &r->op, &r->where);
  if (!def) return ls_fail(err, SQLITE_ERROR, "link default %lld of page %lld is gone", (long long)row->pos.index, (long long)row->pos.element);
  return op_fields_load(row, NULL, def);
}

static const ls_column default_columns[] = {
  LS_COL_POS("page", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(2), "page of the operator (wz4_pages.page)"),
  LS_COL_POS("idx", LS_POS_INDEX, LS_COL_RANGE | LS_COL_VALUES(40), "index among the page's link defaults: op by op, each op's in preorder (a slot's default, then its own defaults, then the next slot)"),
  LS_COL_INT("op", LS_U32, default_rec, op, LS_COL_RO, "the operator holding it (wz4_operators.op on the page)"),
  LS_COL_INT("slot", LS_U32, default_rec, where.slot, LS_COL_RO, "index of the link slot holding it (in the links of the op, or of the parent default)"),
  LS_COL_INT_NULL("parent", LS_I64, default_rec, where.parent, 0, 0, LS_COL_RO, "idx of the link default whose slot holds it; NULL when the operator's own slot does"),
  LS_COL_INT("depth", LS_U32, default_rec, where.depth, LS_COL_RO, "1 for a default of the operator's slot, 2 for a default of a default, ..."),
  LS_COL_CODEC_STR("name", LS_WTF8, op_fields, nd.op.name, WZ4_STR_UNITS_MAX, 0, 0, "the default op's label, usually ''; with options 'rename_links=1' a rename renames the link slots naming the old name"),
  OPF_IDENTITY,
  OPF_CONTENTS,
};

static const ls_table wz4_link_defaults = {
  .name = "wz4_link_defaults", .format = &wz4_format, LS_COLUMNS(default_columns),
  .doc = "one row per link default op (a complete op a link slot holds, used when the slot names nothing) of each werkkzeug4 project; writable like wz4_operators",
  .shape = LS_NESTED(page_count, page_default_count), .row_name = "link default {index} of page {element}",
  .natural_order = "page,idx", .rows_per_file = 30, .record_size = sizeof(default_rec), .load = default_load, .store = op_fields_store,
};

/* ---- wz4_projects ------------------------------------------------------------------- */

/* The options chunk, a shallow copy (its strings are the text columns);
** the row kind is its version, so a field the version lacks reads NULL and
** refuses writes. */
typedef struct project_rec {
  wz4_options o;
  double bpm;
} project_rec;

/* The row kinds of options version v and later. */
#define SINCE(v) LS_KINDS_FROM(v, WZ4_OPTIONS_VERSION_MAX + 1)

static const char *const options_version_names[] = {
  "options version 0", "options version 1", "options version 2", "options version 3", "options version 4",
  "options version 5", "options version 6", "options version 7", "options version 8", "options version 9",
  "options version 10", "options version 11", "options version 12", "options version 13", "options version 14",
  "options version 15", "options version 16", NULL};

LS_LOAD_VALUE(project_load, project_rec,
              ((project_rec){.o = ((const wz4_doc *)row->model)->options, .bpm = wz4_options_bpm(&((const wz4_doc *)row->model)->options)}))

LS_ROW_KIND_FIELD(project_kind, project_rec, o.version, WZ4_OPTIONS_VERSION_MAX)

static const ls_column project_columns[] = {
  LS_COL_INT("options_version", LS_I32, project_rec, o.version, LS_COL_RO, "version of the options chunk (0..16; real files have 10, 13 and 16): the columns of later versions read NULL"),
  LS_COL_CODEC_STR("project_path", LS_WTF8, project_rec, o.project_path, WZ4_STR_UNITS_MAX, 0, SINCE(1), "the project folder (an absolute path on the author's machine); NULL in options version 0"),
  LS_COL_CODEC_STR("project_name", LS_WTF8, project_rec, o.project_name, WZ4_STR_UNITS_MAX, 0, SINCE(2), "project name (options version 2+; NULL before)"),
  LS_COL_KIND_INT("project_id", LS_U32, project_rec, o.project_id, 0, 0, LS_COL_RO, SINCE(11), "project id (options version 11+)"),
  LS_COL_KIND_INT("site_id", LS_U32, project_rec, o.site_id, 0, 0, LS_COL_RO, SINCE(11), "site id (options version 11+)"),
  LS_COL_KIND_INT("texture_quality", LS_U32, project_rec, o.texture_quality, 0, 0, 0, SINCE(3), "texture quality setting (version 3+)"),
  LS_COL_KIND_INT("level_of_detail", LS_U32, project_rec, o.level_of_detail, 0, 0, 0, SINCE(4), "level of detail setting (version 4+)"),
  LS_COL_KIND_INT("beats_per_second", LS_U32, project_rec, o.beats_per_second, 0, 0, 0, SINCE(5), "tempo as stored: beats per second in 16.16 fixed point (version 5+)"),
  LS_COL_FLOAT("bpm", LS_F64, project_rec, bpm, 0, SINCE(5), "tempo in beats per minute (beats_per_second * 60 / 65536); a write is rounded to the 16.16 fixed point"),
  LS_COL_CODEC_STR("music_file", LS_WTF8, project_rec, o.music_file, WZ4_STR_UNITS_MAX, 0, SINCE(5), "the music file (version 5+; NULL before)"),
  LS_COL_KIND_INT("beat_start", LS_U32, project_rec, o.beat_start, 0, 0, 0, SINCE(10), "first beat (version 10+)"),
  LS_COL_KIND_INT("beats", LS_U32, project_rec, o.beats, 0, 0, 0, SINCE(9), "length in beats (version 9+)"),
  LS_COL_KIND_INT("screen_x", LS_U32, project_rec, o.screen_x, 0, 0, 0, SINCE(6), "screen width (version 6+)"),
  LS_COL_KIND_INT("screen_y", LS_U32, project_rec, o.screen_y, 0, 0, 0, SINCE(6), "screen height (version 6+)"),
  LS_COL_CODEC_STR("page_name", LS_WTF8, project_rec, o.page_name, WZ4_STR_UNITS_MAX, 0, SINCE(7), "the last open page (version 7+, NULL before; renaming that page renames it too)"),
  LS_COL_CODEC_STR("packfiles", LS_WTF8, project_rec, o.packfiles, WZ4_STR_UNITS_MAX, 0, SINCE(8), "pack files, separated by ';' (version 8+; NULL before)"),
  LS_COL_KIND_INT("sample_rate", LS_U32, project_rec, o.sample_rate, 0, 0, 0, SINCE(13), "music sample rate (version 13+)"),
  LS_COL_KIND_INT("variable_bpm", LS_U32, project_rec, o.variable_bpm, 0, 0, LS_COL_RO, SINCE(13), "1 when the tempo changes along the song (version 13+)"),
  LS_COL_KIND_INT("num_bpm_segments", LS_U32, project_rec, o.num_bpm, 0, 0, LS_COL_RO, SINCE(13), "tempo segments (version 13+)"),
  LS_COL_KIND_INT("dialog_flags", LS_U32, project_rec, o.dialog_flags, 0, 0, LS_COL_RO, SINCE(14), "editor dialog flags (version 14+)"),
  LS_COL_KIND_INT("num_hidden_parts", LS_U32, project_rec, o.num_hidden, 0, 0, LS_COL_RO, SINCE(15), "hidden parts (version 15+)"),
};

/* The changed strings and scalar words, then the tempo (bpm wins over
** beats_per_second when both are given; a statement that fails is undone
** as a whole). */
static int project_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  wz4_options *o = &((wz4_doc *)row->model)->options;
  const project_rec *r = row->rec, *was = old;
  codec_error cerr;
  if (!LS_COPY_BACK(project_columns, changed, r, project_rec, o, o, set_str, &cerr)) return ls_codec_check(0, &cerr, err, NULL);
  return ls_codec_check(r->bpm == was->bpm || wz4_options_set_bpm(o, r->bpm, &cerr), &cerr, err, NULL);
}

static const ls_table wz4_projects = {
  .name = "wz4_projects", .format = &wz4_format, LS_COLUMNS(project_columns),
  .doc = "one row per werkkzeug4 project: its options (music, tempo, screen size, ...); the fields its options version lacks read NULL",
  .shape = LS_ONE_ROW, .row_name = "project options", .natural_order = "", .rows_per_file = 1,
  .record_size = sizeof(project_rec), .load = project_load, .store = project_store,
  .row_kind = project_kind, .kind_names = options_version_names,
};

/* ---- wz4_links ----------------------------------------------------------------- */

/* An edge; -1 and NULL spans read as NULL. */
typedef struct link_rec {
  int64_t from_op, to_op, from_page, slot;
  ls_span kind, link_name;
} link_rec;

/* The edges of a page from the memo: their count, -1 when the graph
** cannot be computed (out of memory), which fails a scan instead of
** leaving the page looking empty. */
static int64_t page_links(const void *model, int64_t page) {
  const wz4_edge *edges;
  size_t n;
  return wz4_doc_page_edges(model, (uint32_t)page, &edges, &n, NULL) ? (int64_t)n : -1;
}

LS_FALLIBLE_INNER(page_link_count, page_has_links, page_links, "page %lld: cannot compute the operator graph (out of memory)")

/* An edge gone since the cursor found it (the graph changed) reads NULL;
** a stack link has no slot and no name (the codec's link_name is NULL). */
static int link_load(const ls_row *row, char **err) {
  static const ls_span kinds[] = {[WZ4_LINK_STACK] = {"stack", 5}, [WZ4_LINK_NAME] = {"name", 4}};
  link_rec *r = row->rec;
  const wz4_edge *edges, *e;
  size_t n;
  (void)err;
  r->from_op = r->to_op = r->from_page = r->slot = -1;
  if (!wz4_doc_page_edges(row->model, (uint32_t)row->pos.element, &edges, &n, NULL)) return SQLITE_NOMEM;
  if (row->pos.index >= (int64_t)n) return SQLITE_OK;
  e = &edges[row->pos.index];
  *r = (link_rec){.from_op = e->from_op, .to_op = e->to_op, .from_page = e->from_page, .kind = kinds[e->kind],
                  .slot = e->kind == WZ4_LINK_NAME ? (int64_t)e->slot : -1, .link_name = {e->link_name, e->link_name_len}};
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
  .name = "wz4_links", .format = &wz4_format, LS_COLUMNS(link_columns),
  .doc = "one row per edge of the operator graph, computed from the current positions and names",
  .shape = {.kind = LS_SHAPE_NESTED, .count = page_count, .inner = page_link_count, .has = page_has_links},
  .row_name = "link {index} of page {element}", .rows_per_file = 190, /* the corpus average */
  .record_size = sizeof(link_rec), .load = link_load,
};

/* ---- the family --------------------------------------------------------------- */

static const ls_table *const wz4_tables[] = {&wz4_projects, &wz4_pages, &wz4_operators, &wz4_link_defaults, &wz4_links, NULL};

const ls_family wz4_family = {.format = &wz4_format, .tables = wz4_tables, .register_functions = wz4_register_functions};
