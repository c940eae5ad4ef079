/*
** wz4.c: the werkkzeug4 project codec, see wz4.h for the model.
**
** Layout (all little-endian 32-bit words, strings = u32 unit count, UTF-16LE
** units, zero padding to 4 bytes; chunk = '<<<<', id, version ... '>>>>'):
**   doc header (v11|v12)
**   v12: options chunk
**   page count, per page: stacked count, tree count, tree level, tree flags,
**     write-protect
**   import count
**   v11: options chunk
**   per page: name, is_tree, scroll x, scroll y,
**     stacked ops: x, y, w, h, bypass, hide, op chunk
**     tree ops: level, flags, op chunk
**   imports (2 strings + enable each), include count + names,
**   page-name count + names.
** The document chunk has no footer.  NOTES-wz4.md says what this file
** handles and why (and ../shared/formats/wz4.md more of the format).
*/
#include "wz4/wz4.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/utf16.h"

/* ======================================================================== */
/* freeing                                                                  */
/* ======================================================================== */

/* Frees a string's bytes and makes it empty. */
static void str_clear(wz4_str *s) {
  free(s->s);
  s->s = NULL;
  s->len = 0;
}

/* Frees an array of n strings (and the array). */
static void str_array_free(wz4_str *a, uint32_t n) {
  uint32_t i;
  if (!a) return;
  for (i = 0; i < n; i++) str_clear(&a[i]);
  free(a);
}

static void op_clear(wz4_op *op);

/* Frees an op allocated on its own (a link default) and its contents. */
static void op_free(wz4_op *op) {
  if (!op) return;
  op_clear(op);
  free(op);
}

/* Frees everything an op owns (recursively through link defaults) and
** zeroes it; the wz4_op itself stays (it lives inside a node or was
** malloc'd by the caller). */
static void op_clear(wz4_op *op) {
  uint32_t i;
  str_clear(&op->name);
  str_clear(&op->class_name);
  str_clear(&op->type_name);
  free(op->params);
  str_array_free(op->strings, op->num_strings);
  if (op->links) {
    for (i = 0; i < op->num_links; i++) {
      str_clear(&op->links[i].name);
      op_free(op->links[i].def);
    }
    free(op->links);
  }
  free(op->array);
  free(op->anims);
  str_clear(&op->script);
  if (op->script_paras) {
    for (i = 0; i < op->num_script_paras; i++) str_clear(&op->script_paras[i].str);
    free(op->script_paras);
  }
  memset(op, 0, sizeof *op);
}

/* Frees a page's contents (not the page struct, which is in an array). */
static void page_clear(wz4_page *pg) {
  uint32_t i;
  str_clear(&pg->name);
  if (pg->nodes) {
    for (i = 0; i < pg->num_nodes; i++) op_clear(&pg->nodes[i].op);
    free(pg->nodes);
  }
  memset(pg, 0, sizeof *pg);
}

/* Frees the options' strings and arrays. */
static void options_clear(wz4_options *o) {
  uint32_t i;
  str_clear(&o->project_path);
  str_clear(&o->project_name);
  str_clear(&o->music_file);
  str_clear(&o->page_name);
  str_clear(&o->packfiles);
  free(o->bpm);
  if (o->hidden) {
    for (i = 0; i < o->num_hidden; i++) {
      str_clear(&o->hidden[i].code);
      str_clear(&o->hidden[i].store);
      str_clear(&o->hidden[i].song);
    }
    free(o->hidden);
  }
  memset(o, 0, sizeof *o);
}

/* The exported forms of op_clear and page_clear, for the structural edits
** in wz4_edit.c. */
void wz4_op_clear(wz4_op *op) { op_clear(op); }
void wz4_page_clear(wz4_page *pg) { page_clear(pg); }

/* Frees a whole document (NULL is fine). */
void wz4_free(wz4_doc *doc) {
  uint32_t i;
  if (!doc) return;
  options_clear(&doc->options);
  if (doc->pages) {
    for (i = 0; i < doc->num_pages; i++) page_clear(&doc->pages[i]);
    free(doc->pages);
  }
  if (doc->imports) {
    for (i = 0; i < doc->num_imports; i++) {
      str_clear(&doc->imports[i].first);
      str_clear(&doc->imports[i].second);
    }
    free(doc->imports);
  }
  str_array_free(doc->includes, doc->num_includes);
  str_array_free(doc->page_names, doc->num_page_names);
  free(doc->trailer);
  wz4_graph_free(doc->graph);
  free(doc);
}

/* calloc for n elements of `size` bytes; NULL for n == 0 (so "no array"
** and "empty array" look the same) or when memory runs out.  *ok is
** cleared on a real failure. */
static void *calloc_n(size_t n, size_t size, int *ok) {
  void *p;
  if (n == 0) return NULL;
  p = calloc(n, size);
  if (!p) *ok = 0;
  return p;
}

/* ======================================================================== */
/* parsing                                                                  */
/* ======================================================================== */

typedef struct parser {
  byte_reader r;
  codec_error *err;
  const char *section; /* "document", "options", "page", ... */
  long page;           /* -1 when not inside a page */
  long op;             /* -1 when not inside an op */
  int depth;           /* link-default nesting of the current op */
  const codec_cancel *cancel; /* polled every CODEC_POLL_RECORDS records or words (NULL: never) */
  uint64_t records;           /* ops, strings and script parameters begun: when to poll cancel */
} parser;

/* Reports an error (codec_error.h's code) at byte offset `at`, prefixed
** with where the parser is ("page 3 op 17 (nested default depth 1)") so a
** misparse can be located.  pfail: damaged input; pfail_oom, pfail_limit. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int pfail_code(parser *p, int code, size_t at, const char *fmt, ...) {
  char what[320], where[96];
  int n;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (p->op >= 0)
    n = snprintf(where, sizeof where, "page %ld op %ld", p->page, p->op);
  else if (p->page >= 0)
    n = snprintf(where, sizeof where, "%s %ld", p->section, p->page);
  else
    n = snprintf(where, sizeof where, "%s", p->section);
  if (p->depth > 0 && n > 0 && (size_t)n < sizeof where)
    snprintf(where + n, sizeof where - (size_t)n, " (nested default depth %d)", p->depth);
  return codec_fail_code(p->err, code, "%s: byte offset %zu: %s", where, at, what);
}
#define pfail(p, ...) pfail_code((p), CODEC_E_FORMAT, __VA_ARGS__)
#define pfail_oom(p, ...) pfail_code((p), CODEC_E_MEMORY, __VA_ARGS__)
#define pfail_limit(p, ...) pfail_code((p), CODEC_E_LIMIT, __VA_ARGS__)

/* Reads one 32-bit word, failing with "truncated" naming the field. */
static int rd_u32(parser *p, uint32_t *v, const char *what) {
  size_t at = p->r.pos;
  if (!br_need(&p->r, 4))
    return pfail(p, at, "truncated: need 4 bytes for %s, %zu left", what, br_left(&p->r));
  *v = br_u32le(&p->r);
  return 1;
}

/* Reads a signed 32-bit word. */
static int rd_i32(parser *p, int32_t *v, const char *what) {
  uint32_t u = 0;
  if (!rd_u32(p, &u, what)) return 0;
  *v = u32_as_i32(u);
  return 1;
}

/* Reads a count and checks that `count` items of at least `min_each`
** bytes each fit in the bytes left: with no length fields, this is what
** stops a misparse from allocating gigabytes or looping for long. */
static int rd_count(parser *p, uint32_t *count, size_t min_each, const char *what) {
  size_t at = p->r.pos, need;
  if (!rd_u32(p, count, what)) return 0;
  if (!size_mul(*count, min_each, &need) || !br_need(&p->r, need))
    return pfail(p, at, "%s %u needs at least %zu bytes per item, only %zu bytes left", what, *count,
                 min_each, br_left(&p->r));
  return 1;
}

/* Reads a string: unit count, UTF-16LE units, zero padding to 4 bytes.
** Nonzero padding is rejected (it could not be written back). */
static int rd_str(parser *p, wz4_str *out, const char *what) {
  size_t at = p->r.pos, bytes, padded, len = 0;
  uint32_t n;
  const unsigned char *units;
  char *s;
  if (codec_cancelled_at(p->cancel, ++p->records)) return codec_fail_interrupted(p->err);
  if (!rd_u32(p, &n, what)) return 0;
  if (!size_mul(n, 2, &bytes) || !size_add(bytes, bytes & 2u, &padded) ||
      !br_need(&p->r, padded))
    return pfail(p, at, "%s: length %u (UTF-16 units) exceeds the %zu bytes left", what, n,
                 br_left(&p->r));
  units = br_bytes(&p->r, padded);
  if (padded != bytes && (units[bytes] | units[bytes + 1]) != 0)
    return pfail(p, at + 4 + bytes, "%s: nonzero string padding", what);
  s = utf16le_to_wtf8(units, n, &len);
  if (!s) return pfail_oom(p, at, "%s: out of memory", what);
  str_clear(out);
  out->s = s;
  out->len = len;
  return 1;
}

/* Reads a chunk header: '<<<<', the expected id, a version 0..max. */
static int rd_header(parser *p, uint32_t id, int32_t max, int32_t *version, const char *what) {
  size_t at = p->r.pos;
  uint32_t v = 0;
  if (!rd_u32(p, &v, what)) return 0;
  if (v != WZ4_TAG_OPEN)
    return pfail(p, at, "expected '<<<<' starting %s, found 0x%08x", what, (unsigned)v);
  if (!rd_u32(p, &v, what)) return 0;
  if (v != id)
    return pfail(p, at + 4, "%s: wrong chunk id 0x%08x, expected 0x%08x", what, (unsigned)v, (unsigned)id);
  if (!rd_i32(p, version, what)) return 0;
  if (*version < 0 || *version > max)
    return pfail(p, at + 8, "%s: unsupported version %ld (this codec reads 0..%ld)", what, (long)*version,
                 (long)max);
  return 1;
}

/* Reads a chunk footer '>>>>'. */
static int rd_footer(parser *p, const char *what) {
  size_t at = p->r.pos;
  uint32_t v = 0;
  if (!rd_u32(p, &v, what)) return 0;
  if (v != WZ4_TAG_CLOSE)
    return pfail(p, at, "expected '>>>>' ending %s, found 0x%08x", what, (unsigned)v);
  return 1;
}

/* Reads n raw words into a fresh array (count already checked), polling
** p->cancel every CODEC_POLL_RECORDS words (an array can fill the file). */
static int rd_words(parser *p, uint32_t **out, size_t n, const char *what) {
  size_t i;
  int ok = 1;
  uint32_t *a = (uint32_t *)calloc_n(n, sizeof *a, &ok);
  if (!ok) return pfail_oom(p, p->r.pos, "%s: out of memory", what);
  *out = a;
  for (i = 0; i < n; i++) {
    if (codec_cancelled_at(p->cancel, i)) return codec_fail_interrupted(p->err);
    if (!rd_u32(p, &a[i], what)) return 0;
  }
  return 1;
}

static int rd_op(parser *p, wz4_op *op);

/* Reads the links of an op (version >= 3): name, select, and from version
** 4 a flag word followed, when nonzero, by a complete nested op record. */
static int rd_links(parser *p, wz4_op *op) {
  uint32_t i, n;
  int ok = 1;
  size_t min_each = op->version >= 4 ? 12 : 8;
  if (!rd_count(p, &n, min_each, "link count")) return 0;
  op->links = (wz4_link *)calloc_n(n, sizeof *op->links, &ok);
  if (!ok) return pfail_oom(p, p->r.pos, "links: out of memory");
  op->num_links = n;
  for (i = 0; i < n; i++) {
    wz4_link *l = &op->links[i];
    if (!rd_str(p, &l->name, "link name") || !rd_u32(p, &l->select, "link select")) return 0;
    if (op->version >= 4) {
      if (!rd_u32(p, &l->has_default, "link default flag")) return 0;
      if (l->has_default) {
        int r;
        if (p->depth + 1 > WZ4_MAX_NESTING)
          return pfail_limit(p, p->r.pos, "link default ops nested deeper than %d", WZ4_MAX_NESTING);
        l->def = (wz4_op *)calloc(1, sizeof *l->def);
        if (!l->def) return pfail_oom(p, p->r.pos, "link default: out of memory");
        p->depth++;
        r = rd_op(p, l->def);
        p->depth--;
        if (!r) return 0;
      }
    }
  }
  return 1;
}

/* Reads one op record (wOp::Serialize_), every version 0..12: names,
** (v12) dummy, params, strings, (v3) links, (v5) array, (v6) animations,
** (v8) script, (v9) script paras, (v10) their strings, (v11) footer. */
static int rd_op(parser *p, wz4_op *op) {
  uint32_t i, n;
  int ok = 1;
  size_t words;
  if (codec_cancelled_at(p->cancel, ++p->records)) return codec_fail_interrupted(p->err);
  if (!rd_header(p, WZ4_ID_OP, WZ4_OP_VERSION_MAX, &op->version, "op record")) return 0;
  if (op->version == 0) return 1; /* the tool reads nothing more */
  if (!rd_str(p, &op->name, "op name") || !rd_str(p, &op->class_name, "class name") ||
      !rd_str(p, &op->type_name, "output type"))
    return 0;
  if (op->version >= 12 && !rd_u32(p, &op->dummy, "dummy word")) return 0;
  if (!rd_count(p, &op->num_params, 4, "parameter word count") ||
      !rd_words(p, &op->params, op->num_params, "parameters"))
    return 0;
  if (!rd_count(p, &n, 4, "string parameter count")) return 0;
  op->strings = (wz4_str *)calloc_n(n, sizeof *op->strings, &ok);
  if (!ok) return pfail_oom(p, p->r.pos, "strings: out of memory");
  op->num_strings = n;
  for (i = 0; i < n; i++)
    if (!rd_str(p, &op->strings[i], "string parameter")) return 0;
  if (op->version >= 3 && !rd_links(p, op)) return 0;
  if (op->version >= 5) {
    size_t at = p->r.pos;
    if (!rd_u32(p, &op->array_words, "array words per entry") ||
        !rd_u32(p, &op->array_count, "array entry count"))
      return 0;
    if (!size_mul(op->array_words, op->array_count, &words) || !br_need_n(&p->r, words, 4))
      return pfail(p, at, "array of %u entries x %u words exceeds the %zu bytes left", op->array_count,
                   op->array_words, br_left(&p->r));
    if (!rd_words(p, &op->array, words, "array parameters")) return 0;
  }
  if (op->version == 6) {
    if (!rd_count(p, &op->num_anims, 4, "animation count") ||
        !rd_words(p, &op->anims, op->num_anims, "animation ids"))
      return 0;
  }
  if (op->version >= 8) {
    if (!rd_u32(p, &op->script_show, "script show flag") || !rd_str(p, &op->script, "script source"))
      return 0;
  }
  if (op->version >= 9) {
    if (!rd_count(p, &n, op->version >= 10 ? 20 : 16, "script parameter count")) return 0;
    op->script_paras = (wz4_script_para *)calloc_n(n, sizeof *op->script_paras, &ok);
    if (!ok) return pfail_oom(p, p->r.pos, "script parameters: out of memory");
    op->num_script_paras = n;
    for (i = 0; i < n; i++) {
      uint32_t k;
      if (codec_cancelled_at(p->cancel, ++p->records)) return codec_fail_interrupted(p->err);
      for (k = 0; k < 4; k++)
        if (!rd_u32(p, &op->script_paras[i].value[k], "script parameter")) return 0;
    }
    if (op->version >= 10)
      for (i = 0; i < n; i++)
        if (!rd_str(p, &op->script_paras[i].str, "script parameter string")) return 0;
  }
  if (op->version >= 11 && !rd_footer(p, "op record")) return 0;
  return 1;
}

/* Reads the DocOptions chunk (wDocOptions::Serialize_), versions 0..16. */
static int rd_options(parser *p, wz4_options *o) {
  const char *saved = p->section;
  int32_t v;
  uint32_t i;
  int ok = 1;
  p->section = "options";
  if (!rd_header(p, WZ4_ID_OPTIONS, WZ4_OPTIONS_VERSION_MAX, &o->version, "options chunk")) return 0;
  v = o->version;
  if (v == 0) {
    p->section = saved;
    return 1;
  }
  if (!rd_str(p, &o->project_path, "project path")) return 0;
  if (v >= 2 && !rd_str(p, &o->project_name, "project name")) return 0;
  if (v >= 11 && (!rd_u32(p, &o->project_id, "project id") || !rd_u32(p, &o->site_id, "site id"))) return 0;
  if (v >= 3 && !rd_u32(p, &o->texture_quality, "texture quality")) return 0;
  if (v >= 4 && !rd_u32(p, &o->level_of_detail, "level of detail")) return 0;
  if (v >= 5 && (!rd_u32(p, &o->beats_per_second, "beats per second") ||
                 !rd_str(p, &o->music_file, "music file")))
    return 0;
  if (v >= 10 && !rd_u32(p, &o->beat_start, "beat start")) return 0;
  if (v >= 9 && !rd_u32(p, &o->beats, "beats")) return 0;
  if (v >= 6 && (!rd_u32(p, &o->screen_x, "screen x") || !rd_u32(p, &o->screen_y, "screen y"))) return 0;
  if (v >= 7 && !rd_str(p, &o->page_name, "page name")) return 0;
  if (v >= 8 && !rd_str(p, &o->packfiles, "packfiles")) return 0;
  if (v >= 12)
    for (i = 0; i < WZ4_PALETTE_WORDS; i++)
      if (!rd_u32(p, &o->palette[i], "palette")) return 0;
  if (v >= 13) {
    if (!rd_u32(p, &o->sample_rate, "sample rate") || !rd_u32(p, &o->variable_bpm, "variable bpm") ||
        !rd_count(p, &o->num_bpm, 8, "bpm segment count"))
      return 0;
    o->bpm = (wz4_bpm_segment *)calloc_n(o->num_bpm, sizeof *o->bpm, &ok);
    if (!ok) return pfail_oom(p, p->r.pos, "bpm segments: out of memory");
    for (i = 0; i < o->num_bpm; i++)
      if (!rd_u32(p, &o->bpm[i].beats, "bpm segment beats") || !rd_u32(p, &o->bpm[i].bpm, "bpm segment bpm"))
        return 0;
  }
  if (v >= 14 && !rd_u32(p, &o->dialog_flags, "dialog flags")) return 0;
  if (v >= 15) {
    uint32_t n;
    if (!rd_count(p, &n, v >= 16 ? 24 : 20, "hidden part count")) return 0;
    o->hidden = (wz4_hidden_part *)calloc_n(n, sizeof *o->hidden, &ok);
    if (!ok) return pfail_oom(p, p->r.pos, "hidden parts: out of memory");
    o->num_hidden = n;
    for (i = 0; i < n; i++) {
      wz4_hidden_part *h = &o->hidden[i];
      if (!rd_str(p, &h->code, "hidden part code") || !rd_str(p, &h->store, "hidden part store") ||
          !rd_u32(p, &h->bpm, "hidden part bpm") || !rd_u32(p, &h->last_beat, "hidden part last beat") ||
          !rd_u32(p, &h->flags, "hidden part flags"))
        return 0;
      if (v >= 16 && !rd_str(p, &h->song, "hidden part song")) return 0;
    }
  }
  if (!rd_footer(p, "options chunk")) return 0;
  p->section = saved;
  return 1;
}

/* Reads a page's body: name, is_tree, scroll, then its stacked and tree
** ops (counts from the page table, held in num_stack / num_nodes). */
static int rd_page(parser *p, wz4_page *pg, uint32_t num_tree) {
  uint32_t i, total;
  size_t need, need_tree;
  int ok = 1;
  if (!rd_str(p, &pg->name, "page name") || !rd_u32(p, &pg->is_tree, "is_tree") ||
      !rd_i32(p, &pg->scroll_x, "scroll x") || !rd_i32(p, &pg->scroll_y, "scroll y"))
    return 0;
  /* each stacked op takes >= 36 bytes, each tree op >= 20 */
  if (!size_mul(pg->num_stack, 36, &need) || !size_mul(num_tree, 20, &need_tree) ||
      !size_add(need, need_tree, &need) ||
      !br_need(&p->r, need) || pg->num_stack > UINT32_MAX - num_tree)
    return pfail(p, p->r.pos, "%u stacked and %u tree ops do not fit in the %zu bytes left", pg->num_stack,
                 num_tree, br_left(&p->r));
  total = pg->num_stack + num_tree;
  pg->nodes = (wz4_node *)calloc_n(total, sizeof *pg->nodes, &ok);
  if (!ok) return pfail_oom(p, p->r.pos, "ops: out of memory");
  for (i = 0; i < total; i++) {
    wz4_node *nd = &pg->nodes[i];
    p->op = (long)i;
    pg->num_nodes = i + 1; /* only the nodes begun: a parse that stops frees them, never touching the rest */
    if (i < pg->num_stack) {
      if (!rd_i32(p, &nd->pos_x, "pos x") || !rd_i32(p, &nd->pos_y, "pos y") ||
          !rd_i32(p, &nd->width, "width") || !rd_i32(p, &nd->height, "height") ||
          !rd_u32(p, &nd->bypass, "bypass") || !rd_u32(p, &nd->hide, "hide"))
        return 0;
    } else {
      if (!rd_u32(p, &nd->tree_level, "tree level") || !rd_u32(p, &nd->tree_flags, "tree flags")) return 0;
    }
    if (!rd_op(p, &nd->op)) return 0;
  }
  p->op = -1;
  return 1;
}

/* Reads a counted list of strings (includes, page names). */
static int rd_str_list(parser *p, wz4_str **out, uint32_t *count, const char *what) {
  uint32_t i, n;
  int ok = 1;
  if (!rd_count(p, &n, 4, what)) return 0;
  *out = (wz4_str *)calloc_n(n, sizeof **out, &ok);
  if (!ok) return pfail_oom(p, p->r.pos, "%s: out of memory", what);
  *count = n;
  for (i = 0; i < n; i++)
    if (!rd_str(p, &(*out)[i], what)) return 0;
  return 1;
}

/* Reads the whole document into doc (see the layout at the top). */
static int rd_doc(parser *p, wz4_doc *doc) {
  uint32_t i, n, *num_tree = NULL;
  int ok = 1, r = 0;
  size_t at;
  p->section = "document";
  at = p->r.pos;
  if (!rd_header(p, WZ4_ID_DOC, WZ4_DOC_VERSION_MAX, &doc->version, "document")) return 0;
  if (doc->version < WZ4_DOC_VERSION_MIN)
    return pfail(p, at + 8, "unsupported document version %ld (this codec reads 11 and 12)",
                 (long)doc->version);
  if (doc->version >= 12 && !rd_options(p, &doc->options)) return 0;
  if (!rd_count(p, &n, 20, "page count")) return 0;
  doc->pages = (wz4_page *)calloc_n(n, sizeof *doc->pages, &ok);
  num_tree = (uint32_t *)calloc_n(n, sizeof *num_tree, &ok);
  if (!ok) {
    free(num_tree);
    return pfail_oom(p, p->r.pos, "pages: out of memory");
  }
  doc->num_pages = n;
  p->section = "page table entry";
  for (i = 0; i < n; i++) {
    wz4_page *pg = &doc->pages[i];
    p->page = (long)i;
    if (!rd_u32(p, &pg->num_stack, "stacked op count") || !rd_u32(p, &num_tree[i], "tree op count") ||
        !rd_u32(p, &pg->tree_level, "tree level") || !rd_u32(p, &pg->tree_flags, "tree flags") ||
        !rd_u32(p, &pg->write_protect, "write protect"))
      goto done;
  }
  p->page = -1;
  p->section = "document";
  if (!rd_count(p, &doc->num_imports, 12, "import count")) goto done;
  if (doc->version < 12 && !rd_options(p, &doc->options)) goto done;
  p->section = "page";
  for (i = 0; i < n; i++) {
    p->page = (long)i;
    if (!rd_page(p, &doc->pages[i], num_tree[i])) goto done;
  }
  p->page = -1;
  for (i = 0; i < n; i++) {
    uint32_t j;
    doc->pages[i].uid = i;
    for (j = 0; j < doc->pages[i].num_nodes; j++) doc->pages[i].nodes[j].uid = doc->next_uid++;
  }
  if (doc->next_uid < n) doc->next_uid = n;
  p->section = "imports";
  if (!br_need_n(&p->r, doc->num_imports, 12)) {
    pfail(p, p->r.pos, "%u imports do not fit in the %zu bytes left", doc->num_imports,
          br_left(&p->r));
    goto done;
  }
  doc->imports = (wz4_import *)calloc_n(doc->num_imports, sizeof *doc->imports, &ok);
  if (!ok) {
    doc->num_imports = 0;
    pfail_oom(p, p->r.pos, "imports: out of memory");
    goto done;
  }
  for (i = 0; i < doc->num_imports; i++) {
    wz4_import *im = &doc->imports[i];
    if (!rd_str(p, &im->first, "import") || !rd_str(p, &im->second, "import") ||
        !rd_u32(p, &im->enable, "import enable"))
      goto done;
  }
  p->section = "includes";
  if (!rd_str_list(p, &doc->includes, &doc->num_includes, "include count")) goto done;
  p->section = "page names";
  if (!rd_str_list(p, &doc->page_names, &doc->num_page_names, "page name count")) goto done;
  doc->trailer_len = br_left(&p->r);
  if (doc->trailer_len) {
    doc->trailer = (unsigned char *)malloc(doc->trailer_len);
    if (!doc->trailer) {
      doc->trailer_len = 0;
      pfail_oom(p, p->r.pos, "trailer: out of memory");
      goto done;
    }
    if (!codec_copy_cancel(doc->trailer, br_bytes(&p->r, doc->trailer_len), doc->trailer_len, p->cancel)) {
      codec_fail_interrupted(p->err);
      goto done;
    }
  }
  r = 1;
done:
  free(num_tree);
  return r;
}

/* Returns 1 for a buffer that starts with a v11/v12 document header. */
int wz4_sniff(const unsigned char *data, size_t size) {
  byte_reader r = br_at(data, size, 0);
  uint32_t v;
  if (!data || !br_need(&r, 12)) return 0;
  if (br_u32le(&r) != WZ4_TAG_OPEN || br_u32le(&r) != WZ4_ID_DOC) return 0;
  v = br_u32le(&r);
  return v >= WZ4_DOC_VERSION_MIN && v <= WZ4_DOC_VERSION_MAX;
}

int wz4_parse(const unsigned char *data, size_t size, wz4_doc **out, codec_error *err) {
  return wz4_parse_cancel(data, size, NULL, out, err);
}

/* Parses a file; on failure frees the partial document.  `cancel` (NULL:
** never) is polled every CODEC_POLL_RECORDS records (ops, strings, script
** parameters) or words, and every CODEC_POLL_BYTES bytes of the trailer. */
int wz4_parse_cancel(const unsigned char *data, size_t size, const codec_cancel *cancel, wz4_doc **out,
                     codec_error *err) {
  parser p;
  wz4_doc *doc;
  *out = NULL;
  if (!data && size) return codec_fail_arg(err, "document: byte offset 0: no data");
  doc = (wz4_doc *)calloc(1, sizeof *doc);
  if (doc && !(doc->graph = wz4_graph_new())) {
    free(doc);
    doc = NULL;
  }
  if (!doc) return codec_fail_oom(err, "document: byte offset 0: out of memory");
  p.r = br_at(data, size, 0);
  p.err = err;
  p.section = "document";
  p.page = -1;
  p.op = -1;
  p.depth = 0;
  p.cancel = cancel;
  p.records = 0;
  if (!rd_doc(&p, doc)) {
    wz4_free(doc);
    return 0;
  }
  *out = doc;
  return 1;
}

/* ======================================================================== */
/* serializing                                                              */
/* ======================================================================== */

typedef struct writer {
  byte_writer w;
  codec_error *err;
  long page, op; /* for error messages; -1 outside */
} writer;

/* Reports a serialization error with the page/op it concerns.  wfail: the
** model handed in is inconsistent (CODEC_E_ARG); wfail_limit: something
** does not fit the file's fields. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int wfail_code(writer *w, int code, const char *fmt, ...) {
  char what[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (w->op >= 0) return codec_fail_code(w->err, code, "page %ld op %ld: %s", w->page, w->op, what);
  if (w->page >= 0) return codec_fail_code(w->err, code, "page %ld: %s", w->page, what);
  return codec_fail_code(w->err, code, "document: %s", what);
}
#define wfail(w, ...) wfail_code((w), CODEC_E_ARG, __VA_ARGS__)
#define wfail_limit(w, ...) wfail_code((w), CODEC_E_LIMIT, __VA_ARGS__)

/* Appends a word; allocation failure is reported once at the end. */
static void wr_u32(writer *w, uint32_t v) { byte_writer_u32(&w->w, v); }

/* Appends n words (NULL only allowed when n == 0). */
static int wr_words(writer *w, const uint32_t *a, size_t n, const char *what) {
  size_t i;
  if (n && !a) return wfail(w, "%s: %zu words but no array", what, n);
  for (i = 0; i < n; i++) wr_u32(w, a[i]);
  return 1;
}

/* Appends a string: WTF-8 -> unit count, UTF-16LE units, zero padding. */
static int wr_str(writer *w, const wz4_str *s, const char *what) {
  size_t units = 0, bad = 0, bytes;
  const char *text = wz4_str_text(s);
  size_t len = s->s ? s->len : 0;
  if (!wtf8_validate(text, len, &units, &bad))
    return wfail(w, "%s: not WTF-8 at byte %zu", what, bad);
  if (units > WZ4_STR_UNITS_MAX) return wfail_limit(w, "%s: too long", what);
  wr_u32(w, (uint32_t)units);
  bytes = units * 2;
  if (!byte_writer_reserve(&w->w, bytes + 2)) return 1; /* reported at the end */
  wtf8_encode_utf16le(text, len, w->w.data + w->w.size);
  w->w.size += bytes;
  if (bytes & 2u) byte_writer_zeros(&w->w, 2);
  return 1;
}

static int wr_op(writer *w, const wz4_op *op, int depth);

/* Appends the links of an op (see rd_links). */
static int wr_links(writer *w, const wz4_op *op, int depth) {
  uint32_t i;
  if (op->num_links && !op->links) return wfail(w, "links: count without array");
  wr_u32(w, op->num_links);
  for (i = 0; i < op->num_links; i++) {
    const wz4_link *l = &op->links[i];
    if (!wr_str(w, &l->name, "link name")) return 0;
    wr_u32(w, l->select);
    if (op->version >= 4) {
      if ((l->has_default != 0) != (l->def != NULL))
        return wfail(w, "link %u: default flag and default op disagree", i);
      wr_u32(w, l->has_default);
      if (l->def && !wr_op(w, l->def, depth + 1)) return 0;
    }
  }
  return 1;
}

/* Appends one op record in its own version (mirror of rd_op). */
static int wr_op(writer *w, const wz4_op *op, int depth) {
  uint32_t i, k;
  size_t words;
  if (depth > WZ4_MAX_NESTING) return wfail_limit(w, "link default ops nested deeper than %d", WZ4_MAX_NESTING);
  if (op->version < 0 || op->version > WZ4_OP_VERSION_MAX)
    return wfail(w, "unsupported op version %ld", (long)op->version);
  wr_u32(w, WZ4_TAG_OPEN);
  wr_u32(w, WZ4_ID_OP);
  wr_u32(w, (uint32_t)op->version);
  if (op->version == 0) return 1;
  if (!wr_str(w, &op->name, "op name") || !wr_str(w, &op->class_name, "class name") ||
      !wr_str(w, &op->type_name, "output type"))
    return 0;
  if (op->version >= 12) wr_u32(w, op->dummy);
  wr_u32(w, op->num_params);
  if (!wr_words(w, op->params, op->num_params, "parameters")) return 0;
  if (op->num_strings && !op->strings) return wfail(w, "strings: count without array");
  wr_u32(w, op->num_strings);
  for (i = 0; i < op->num_strings; i++)
    if (!wr_str(w, &op->strings[i], "string parameter")) return 0;
  if (op->version >= 3 && !wr_links(w, op, depth)) return 0;
  if (op->version >= 5) {
    wr_u32(w, op->array_words);
    wr_u32(w, op->array_count);
    if (!size_mul(op->array_words, op->array_count, &words)) return wfail_limit(w, "array size overflows");
    if (!wr_words(w, op->array, words, "array parameters")) return 0;
  }
  if (op->version == 6) {
    wr_u32(w, op->num_anims);
    if (!wr_words(w, op->anims, op->num_anims, "animation ids")) return 0;
  }
  if (op->version >= 8) {
    wr_u32(w, op->script_show);
    if (!wr_str(w, &op->script, "script source")) return 0;
  }
  if (op->version >= 9) {
    if (op->num_script_paras && !op->script_paras) return wfail(w, "script parameters: count without array");
    wr_u32(w, op->num_script_paras);
    for (i = 0; i < op->num_script_paras; i++)
      for (k = 0; k < 4; k++) wr_u32(w, op->script_paras[i].value[k]);
    if (op->version >= 10)
      for (i = 0; i < op->num_script_paras; i++)
        if (!wr_str(w, &op->script_paras[i].str, "script parameter string")) return 0;
  }
  if (op->version >= 11) wr_u32(w, WZ4_TAG_CLOSE);
  return 1;
}

/* Appends the options chunk in its own version (mirror of rd_options). */
static int wr_options(writer *w, const wz4_options *o) {
  int32_t v = o->version;
  uint32_t i;
  if (v < 0 || v > WZ4_OPTIONS_VERSION_MAX) return wfail(w, "unsupported options version %ld", (long)v);
  wr_u32(w, WZ4_TAG_OPEN);
  wr_u32(w, WZ4_ID_OPTIONS);
  wr_u32(w, (uint32_t)v);
  if (v == 0) return 1;
  if (!wr_str(w, &o->project_path, "project path")) return 0;
  if (v >= 2 && !wr_str(w, &o->project_name, "project name")) return 0;
  if (v >= 11) {
    wr_u32(w, o->project_id);
    wr_u32(w, o->site_id);
  }
  if (v >= 3) wr_u32(w, o->texture_quality);
  if (v >= 4) wr_u32(w, o->level_of_detail);
  if (v >= 5) {
    wr_u32(w, o->beats_per_second);
    if (!wr_str(w, &o->music_file, "music file")) return 0;
  }
  if (v >= 10) wr_u32(w, o->beat_start);
  if (v >= 9) wr_u32(w, o->beats);
  if (v >= 6) {
    wr_u32(w, o->screen_x);
    wr_u32(w, o->screen_y);
  }
  if (v >= 7 && !wr_str(w, &o->page_name, "page name")) return 0;
  if (v >= 8 && !wr_str(w, &o->packfiles, "packfiles")) return 0;
  if (v >= 12) wr_words(w, o->palette, WZ4_PALETTE_WORDS, "palette");
  if (v >= 13) {
    if (o->num_bpm && !o->bpm) return wfail(w, "bpm segments: count without array");
    wr_u32(w, o->sample_rate);
    wr_u32(w, o->variable_bpm);
    wr_u32(w, o->num_bpm);
    for (i = 0; i < o->num_bpm; i++) {
      wr_u32(w, o->bpm[i].beats);
      wr_u32(w, o->bpm[i].bpm);
    }
  }
  if (v >= 14) wr_u32(w, o->dialog_flags);
  if (v >= 15) {
    if (o->num_hidden && !o->hidden) return wfail(w, "hidden parts: count without array");
    wr_u32(w, o->num_hidden);
    for (i = 0; i < o->num_hidden; i++) {
      const wz4_hidden_part *h = &o->hidden[i];
      if (!wr_str(w, &h->code, "hidden part code") || !wr_str(w, &h->store, "hidden part store")) return 0;
      wr_u32(w, h->bpm);
      wr_u32(w, h->last_beat);
      wr_u32(w, h->flags);
      if (v >= 16 && !wr_str(w, &h->song, "hidden part song")) return 0;
    }
  }
  wr_u32(w, WZ4_TAG_CLOSE);
  return 1;
}

/* Appends a counted string list. */
static int wr_str_list(writer *w, const wz4_str *a, uint32_t n, const char *what) {
  uint32_t i;
  if (n && !a) return wfail(w, "%s: count without array", what);
  wr_u32(w, n);
  for (i = 0; i < n; i++)
    if (!wr_str(w, &a[i], what)) return 0;
  return 1;
}

/* Writes the whole document (mirror of rd_doc). */
static int wr_doc(writer *w, const wz4_doc *doc) {
  uint32_t i, j;
  if (doc->version < WZ4_DOC_VERSION_MIN || doc->version > WZ4_DOC_VERSION_MAX)
    return wfail(w, "unsupported document version %ld", (long)doc->version);
  if (doc->num_pages && !doc->pages) return wfail(w, "pages: count without array");
  if (doc->num_imports && !doc->imports) return wfail(w, "imports: count without array");
  wr_u32(w, WZ4_TAG_OPEN);
  wr_u32(w, WZ4_ID_DOC);
  wr_u32(w, (uint32_t)doc->version);
  if (doc->version >= 12 && !wr_options(w, &doc->options)) return 0;
  wr_u32(w, doc->num_pages);
  for (i = 0; i < doc->num_pages; i++) {
    const wz4_page *pg = &doc->pages[i];
    w->page = (long)i;
    if (pg->num_stack > pg->num_nodes) return wfail(w, "num_stack %u > num_nodes %u", pg->num_stack, pg->num_nodes);
    if (pg->num_nodes && !pg->nodes) return wfail(w, "ops: count without array");
    wr_u32(w, pg->num_stack);
    wr_u32(w, pg->num_nodes - pg->num_stack);
    wr_u32(w, pg->tree_level);
    wr_u32(w, pg->tree_flags);
    wr_u32(w, pg->write_protect);
  }
  w->page = -1;
  wr_u32(w, doc->num_imports);
  if (doc->version < 12 && !wr_options(w, &doc->options)) return 0;
  for (i = 0; i < doc->num_pages; i++) {
    const wz4_page *pg = &doc->pages[i];
    w->page = (long)i;
    if (!wr_str(w, &pg->name, "page name")) return 0;
    wr_u32(w, pg->is_tree);
    wr_u32(w, (uint32_t)pg->scroll_x);
    wr_u32(w, (uint32_t)pg->scroll_y);
    for (j = 0; j < pg->num_nodes; j++) {
      const wz4_node *nd = &pg->nodes[j];
      w->op = (long)j;
      if (j < pg->num_stack) {
        wr_u32(w, (uint32_t)nd->pos_x);
        wr_u32(w, (uint32_t)nd->pos_y);
        wr_u32(w, (uint32_t)nd->width);
        wr_u32(w, (uint32_t)nd->height);
        wr_u32(w, nd->bypass);
        wr_u32(w, nd->hide);
      } else {
        wr_u32(w, nd->tree_level);
        wr_u32(w, nd->tree_flags);
      }
      if (!wr_op(w, &nd->op, 0)) return 0;
    }
    w->op = -1;
  }
  w->page = -1;
  for (i = 0; i < doc->num_imports; i++) {
    if (!wr_str(w, &doc->imports[i].first, "import") || !wr_str(w, &doc->imports[i].second, "import"))
      return 0;
    wr_u32(w, doc->imports[i].enable);
  }
  if (!wr_str_list(w, doc->includes, doc->num_includes, "includes")) return 0;
  if (!wr_str_list(w, doc->page_names, doc->num_page_names, "page names")) return 0;
  if (doc->trailer_len) {
    if (!doc->trailer) return wfail(w, "trailer: length without bytes");
    byte_writer_bytes(&w->w, doc->trailer, doc->trailer_len);
  }
  return 1;
}

/* Serializes into a fresh buffer owned by the caller. */
int wz4_serialize(const wz4_doc *doc, unsigned char **out, size_t *out_size, codec_error *err) {
  writer w;
  *out = NULL;
  *out_size = 0;
  if (!doc) return codec_fail_arg(err, "document: no document");
  memset(&w, 0, sizeof w);
  w.err = err;
  w.page = -1;
  w.op = -1;
  if (!wr_doc(&w, doc)) {
    byte_writer_free(&w.w);
    return 0;
  }
  if (w.w.failed) {
    byte_writer_free(&w.w);
    return codec_fail_oom(err, "document: out of memory");
  }
  *out = byte_writer_take(&w.w, out_size);
  if (!*out) { /* an empty buffer cannot happen: the header is 12 bytes */
    return codec_fail_oom(err, "document: out of memory");
  }
  return 1;
}

/* ======================================================================== */
/* cloning                                                                  */
/* ======================================================================== */

/* Copies a string (NULL stays NULL). */
static int clone_str(wz4_str *dst, const wz4_str *src) {
  dst->s = NULL;
  dst->len = 0;
  if (!src->s) return 1;
  dst->s = (char *)malloc(src->len + 1);
  if (!dst->s) return 0;
  memcpy(dst->s, src->s, src->len);
  dst->s[src->len] = '\0';
  dst->len = src->len;
  return 1;
}

/* Copies n words into a fresh array (NULL for n == 0). */
static int clone_words(uint32_t **dst, const uint32_t *src, size_t n) {
  size_t bytes;
  *dst = NULL;
  if (!n || !src) return 1;
  if (!size_mul(n, sizeof **dst, &bytes)) return 0;
  *dst = (uint32_t *)malloc(bytes);
  if (!*dst) return 0;
  memcpy(*dst, src, bytes);
  return 1;
}

/* Copies a string array; on failure the partial copy is left for the
** caller's free (counts set, unfilled entries zero). */
static int clone_str_array(wz4_str **dst, uint32_t *dst_n, const wz4_str *src, uint32_t n) {
  uint32_t i;
  int ok = 1;
  *dst = NULL;
  *dst_n = 0;
  if (!n || !src) return 1;
  *dst = (wz4_str *)calloc_n(n, sizeof **dst, &ok);
  if (!ok) return 0;
  *dst_n = n;
  for (i = 0; i < n; i++)
    if (!clone_str(&(*dst)[i], &src[i])) return 0;
  return 1;
}

/* Deep-copies an op into *dst (zeroed by the caller's calloc or memset).
** On failure dst holds a partial copy that op_clear frees. */
static int clone_op(wz4_op *dst, const wz4_op *src) {
  uint32_t i;
  int ok = 1;
  size_t words = (size_t)src->array_words * src->array_count;
  memset(dst, 0, sizeof *dst);
  dst->version = src->version;
  dst->dummy = src->dummy;
  dst->array_words = src->array_words;
  dst->array_count = src->array_count;
  dst->script_show = src->script_show;
  if (!clone_str(&dst->name, &src->name) || !clone_str(&dst->class_name, &src->class_name) ||
      !clone_str(&dst->type_name, &src->type_name) || !clone_str(&dst->script, &src->script))
    return 0;
  if (!clone_words(&dst->params, src->params, src->num_params)) return 0;
  dst->num_params = src->params ? src->num_params : 0;
  if (!clone_str_array(&dst->strings, &dst->num_strings, src->strings, src->num_strings)) return 0;
  if (!clone_words(&dst->array, src->array, words)) return 0;
  if (!clone_words(&dst->anims, src->anims, src->num_anims)) return 0;
  dst->num_anims = src->anims ? src->num_anims : 0;
  if (src->num_links && src->links) {
    dst->links = (wz4_link *)calloc_n(src->num_links, sizeof *dst->links, &ok);
    if (!ok) return 0;
    dst->num_links = src->num_links;
    for (i = 0; i < src->num_links; i++) {
      const wz4_link *s = &src->links[i];
      wz4_link *d = &dst->links[i];
      d->select = s->select;
      d->has_default = s->has_default;
      if (!clone_str(&d->name, &s->name)) return 0;
      if (s->def) {
        d->def = (wz4_op *)calloc(1, sizeof *d->def);
        if (!d->def || !clone_op(d->def, s->def)) return 0;
      }
    }
  }
  if (src->num_script_paras && src->script_paras) {
    dst->script_paras = (wz4_script_para *)calloc_n(src->num_script_paras, sizeof *dst->script_paras, &ok);
    if (!ok) return 0;
    dst->num_script_paras = src->num_script_paras;
    for (i = 0; i < src->num_script_paras; i++) {
      memcpy(dst->script_paras[i].value, src->script_paras[i].value, sizeof dst->script_paras[i].value);
      if (!clone_str(&dst->script_paras[i].str, &src->script_paras[i].str)) return 0;
    }
  }
  return 1;
}

/* Deep-copies the options (partial copy left for options_clear). */
static int clone_options(wz4_options *d, const wz4_options *s) {
  uint32_t i;
  int ok = 1;
  *d = *s;
  d->project_path.s = d->project_name.s = d->music_file.s = d->page_name.s = d->packfiles.s = NULL;
  d->bpm = NULL;
  d->num_bpm = 0;
  d->hidden = NULL;
  d->num_hidden = 0;
  if (!clone_str(&d->project_path, &s->project_path) || !clone_str(&d->project_name, &s->project_name) ||
      !clone_str(&d->music_file, &s->music_file) || !clone_str(&d->page_name, &s->page_name) ||
      !clone_str(&d->packfiles, &s->packfiles))
    return 0;
  if (s->num_bpm && s->bpm) {
    d->bpm = (wz4_bpm_segment *)calloc_n(s->num_bpm, sizeof *d->bpm, &ok);
    if (!ok) return 0;
    memcpy(d->bpm, s->bpm, s->num_bpm * sizeof *d->bpm);
    d->num_bpm = s->num_bpm;
  }
  if (s->num_hidden && s->hidden) {
    d->hidden = (wz4_hidden_part *)calloc_n(s->num_hidden, sizeof *d->hidden, &ok);
    if (!ok) return 0;
    d->num_hidden = s->num_hidden;
    for (i = 0; i < s->num_hidden; i++) {
      d->hidden[i].bpm = s->hidden[i].bpm;
      d->hidden[i].last_beat = s->hidden[i].last_beat;
      d->hidden[i].flags = s->hidden[i].flags;
      if (!clone_str(&d->hidden[i].code, &s->hidden[i].code) ||
          !clone_str(&d->hidden[i].store, &s->hidden[i].store) ||
          !clone_str(&d->hidden[i].song, &s->hidden[i].song))
        return 0;
    }
  }
  return 1;
}

/* Deep-copies a page (partial copy left for page_clear). */
static int clone_page(wz4_page *d, const wz4_page *s) {
  uint32_t i;
  int ok = 1;
  *d = *s;
  d->name.s = NULL;
  d->name.len = 0;
  d->nodes = NULL;
  d->num_nodes = 0;
  if (!clone_str(&d->name, &s->name)) return 0;
  if (s->num_nodes && s->nodes) {
    d->nodes = (wz4_node *)calloc_n(s->num_nodes, sizeof *d->nodes, &ok);
    if (!ok) return 0;
    d->num_nodes = s->num_nodes;
    for (i = 0; i < s->num_nodes; i++) {
      d->nodes[i] = s->nodes[i];
      if (!clone_op(&d->nodes[i].op, &s->nodes[i].op)) return 0;
    }
  }
  return 1;
}

/* Deep copy of a document; NULL when memory runs out. */
wz4_doc *wz4_clone(const wz4_doc *src) {
  wz4_doc *d;
  uint32_t i;
  int ok = 1;
  if (!src) return NULL;
  d = (wz4_doc *)calloc(1, sizeof *d);
  if (!d) return NULL;
  if (!(d->graph = wz4_graph_new())) goto fail;
  d->version = src->version;
  d->next_uid = src->next_uid;
  if (!clone_options(&d->options, &src->options)) goto fail;
  if (src->num_pages && src->pages) {
    d->pages = (wz4_page *)calloc_n(src->num_pages, sizeof *d->pages, &ok);
    if (!ok) goto fail;
    d->num_pages = src->num_pages;
    for (i = 0; i < src->num_pages; i++)
      if (!clone_page(&d->pages[i], &src->pages[i])) goto fail;
  }
  if (src->num_imports && src->imports) {
    d->imports = (wz4_import *)calloc_n(src->num_imports, sizeof *d->imports, &ok);
    if (!ok) goto fail;
    d->num_imports = src->num_imports;
    for (i = 0; i < src->num_imports; i++) {
      d->imports[i].enable = src->imports[i].enable;
      if (!clone_str(&d->imports[i].first, &src->imports[i].first) ||
          !clone_str(&d->imports[i].second, &src->imports[i].second))
        goto fail;
    }
  }
  if (!clone_str_array(&d->includes, &d->num_includes, src->includes, src->num_includes) ||
      !clone_str_array(&d->page_names, &d->num_page_names, src->page_names, src->num_page_names))
    goto fail;
  if (src->trailer_len && src->trailer) {
    d->trailer = (unsigned char *)malloc(src->trailer_len);
    if (!d->trailer) goto fail;
    memcpy(d->trailer, src->trailer, src->trailer_len);
    d->trailer_len = src->trailer_len;
  }
  return d;
fail:
  wz4_free(d);
  return NULL;
}

/* ======================================================================== */
/* access and edits                                                         */
/* ======================================================================== */

/* Bounds-checked node lookup. */
wz4_node *wz4_node_at(const wz4_doc *doc, uint32_t page, uint32_t op) {
  if (!doc || page >= doc->num_pages || !doc->pages) return NULL;
  if (op >= doc->pages[page].num_nodes || !doc->pages[page].nodes) return NULL;
  return &doc->pages[page].nodes[op];
}

/* Validates WTF-8, then swaps in a copy. */
int wz4_str_set(wz4_str *dst, const char *s, size_t len, codec_error *err) {
  size_t units, bad = 0;
  char *copy;
  if (!s && len) return codec_fail_arg(err, "string: no data");
  if (!s) s = "";
  if (!wtf8_validate(s, len, &units, &bad))
    return codec_fail_arg(err, "string: not UTF-8 (or WTF-8) at byte %zu", bad);
  if (units > WZ4_STR_UNITS_MAX) return codec_fail_limit(err, "string: too long");
  copy = (char *)malloc(len + 1);
  if (!copy) return codec_fail_oom(err, "string: out of memory");
  memcpy(copy, s, len);
  copy[len] = '\0';
  free(dst->s);
  dst->s = copy;
  dst->len = len;
  return 1;
}

/* Swaps in a copy of the parameter words. */
int wz4_op_set_params(wz4_op *op, const uint32_t *words, uint32_t n, codec_error *err) {
  uint32_t *copy = NULL;
  if (n && !words) return codec_fail_arg(err, "params: no data");
  if (n) {
    copy = (uint32_t *)malloc((size_t)n * sizeof *copy);
    if (!copy) return codec_fail_oom(err, "params: out of memory");
    memcpy(copy, words, (size_t)n * sizeof *copy);
  }
  free(op->params);
  op->params = copy;
  op->num_params = n;
  return 1;
}

/* Builds the new string array completely before swapping it in, so a bad
** string leaves the op unchanged. */
int wz4_op_set_strings(wz4_op *op, const char *const *strs, const size_t *lens, uint32_t n,
                       codec_error *err) {
  wz4_str *a = NULL;
  uint32_t i;
  int ok = 1;
  if (n && (!strs || !lens)) return codec_fail_arg(err, "strings: no data");
  a = (wz4_str *)calloc_n(n, sizeof *a, &ok);
  if (!ok) return codec_fail_oom(err, "strings: out of memory");
  for (i = 0; i < n; i++) {
    if (!wz4_str_set(&a[i], strs[i], lens[i], err)) {
      str_array_free(a, n);
      return codec_prefix(err, "strings[%u]: ", i);
    }
  }
  str_array_free(op->strings, op->num_strings);
  op->strings = a;
  op->num_strings = n;
  return 1;
}

/* ======================================================================== */
/* JSON                                                                     */
/* ======================================================================== */

/* Appends a NUL-terminated C string. */
static void jw_lit(byte_writer *w, const char *s) { byte_writer_bytes(w, s, strlen(s)); }

/* Appends s as a JSON string literal: raw UTF-8 except '"', '\\', control
** characters and surrogates (WTF-8 only), which are escaped.  Returns 0
** when s is not WTF-8. */
static int jw_str(byte_writer *w, const wz4_str *str) {
  const char *s = wz4_str_text(str);
  size_t len = str->s ? str->len : 0, i = 0, step;
  uint32_t cp;
  char buf[16];
  byte_writer_bytes(w, "\"", 1);
  while (i < len) {
    step = wtf8_decode_one(s, len, i, &cp);
    if (step == 0) return 0;
    if (cp == '"' || cp == '\\') {
      buf[0] = '\\';
      buf[1] = (char)cp;
      byte_writer_bytes(w, buf, 2);
    } else if (cp == '\n') {
      jw_lit(w, "\\n");
    } else if (cp == '\r') {
      jw_lit(w, "\\r");
    } else if (cp == '\t') {
      jw_lit(w, "\\t");
    } else if (cp < 0x20 || (cp >= 0xD800 && cp <= 0xDFFF)) {
      snprintf(buf, sizeof buf, "\\u%04X", (unsigned)cp);
      jw_lit(w, buf);
    } else {
      byte_writer_bytes(w, s + i, step);
    }
    i += step;
  }
  byte_writer_bytes(w, "\"", 1);
  return 1;
}

/* Finishes a JSON buffer: NUL-terminates and hands it out, or frees it
** and returns NULL on failure. */
static char *jw_take(byte_writer *w, int ok, size_t *len_out) {
  size_t n;
  unsigned char *p;
  if (ok) byte_writer_bytes(w, "", 1);
  if (!ok || w->failed) {
    byte_writer_free(w);
    return NULL;
  }
  p = byte_writer_take(w, &n);
  if (len_out) *len_out = n - 1;
  return (char *)p;
}

/* [w0,w1,...] with unsigned decimals. */
char *wz4_params_json(const wz4_op *op, size_t *len_out) {
  byte_writer w = {0};
  uint32_t i;
  char buf[16];
  jw_lit(&w, "[");
  for (i = 0; i < op->num_params && op->params; i++) {
    snprintf(buf, sizeof buf, i ? ",%lu" : "%lu", (unsigned long)op->params[i]);
    jw_lit(&w, buf);
  }
  jw_lit(&w, "]");
  return jw_take(&w, 1, len_out);
}

/* ["s0","s1",...]. */
char *wz4_strings_json(const wz4_op *op, size_t *len_out) {
  byte_writer w = {0};
  uint32_t i;
  int ok = 1;
  jw_lit(&w, "[");
  for (i = 0; i < op->num_strings && op->strings && ok; i++) {
    if (i) jw_lit(&w, ",");
    ok = jw_str(&w, &op->strings[i]);
  }
  jw_lit(&w, "]");
  return jw_take(&w, ok, len_out);
}

/* [{"name":"...","select":N},...]. */
char *wz4_links_json(const wz4_op *op, size_t *len_out) {
  byte_writer w = {0};
  uint32_t i;
  int ok = 1;
  char buf[32];
  jw_lit(&w, "[");
  for (i = 0; i < op->num_links && op->links && ok; i++) {
    jw_lit(&w, i ? ",{\"name\":" : "{\"name\":");
    ok = jw_str(&w, &op->links[i].name);
    snprintf(buf, sizeof buf, ",\"select\":%lu}", (unsigned long)op->links[i].select);
    jw_lit(&w, buf);
  }
  jw_lit(&w, "]");
  return jw_take(&w, ok, len_out);
}

/* One string literal. */
char *wz4_str_json(const wz4_str *s, size_t *len_out) {
  byte_writer w = {0};
  int ok = jw_str(&w, s);
  return jw_take(&w, ok, len_out);
}

typedef struct json_in {
  const char *s;
  size_t len, pos;
} json_in;

/* Skips JSON whitespace. */
static void jr_ws(json_in *j) {
  while (j->pos < j->len && (j->s[j->pos] == ' ' || j->s[j->pos] == '\t' || j->s[j->pos] == '\n' ||
                             j->s[j->pos] == '\r'))
    j->pos++;
}

/* Consumes character c (after whitespace); returns 0 if it is not next. */
static int jr_char(json_in *j, char c) {
  jr_ws(j);
  if (j->pos < j->len && j->s[j->pos] == c) {
    j->pos++;
    return 1;
  }
  return 0;
}

/* Reads 4 hex digits. */
static int jr_hex4(json_in *j, uint32_t *v) {
  uint32_t r = 0;
  int k;
  if (j->len - j->pos < 4) return 0;
  for (k = 0; k < 4; k++) {
    char c = j->s[j->pos + (size_t)k];
    r <<= 4;
    if (c >= '0' && c <= '9') r |= (uint32_t)(c - '0');
    else if (c >= 'a' && c <= 'f') r |= (uint32_t)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') r |= (uint32_t)(c - 'A' + 10);
    else return 0;
  }
  j->pos += 4;
  *v = r;
  return 1;
}

/* Reads a JSON string literal into a malloc'd WTF-8 string (a \uD8xx
** \uDCxx pair becomes one character, a lone surrogate escape a lone
** surrogate).  The result is validated as WTF-8.  Returns 1, 0 on bad
** input, -1 when memory runs out. */
static int jr_str(json_in *j, wz4_str *out) {
  byte_writer w = {0};
  size_t n, units;
  char buf[4];
  if (!jr_char(j, '"')) return 0;
  for (;;) {
    char c;
    if (j->pos >= j->len) goto bad;
    c = j->s[j->pos++];
    if (c == '"') break;
    if (c != '\\') {
      byte_writer_bytes(&w, &c, 1);
      continue;
    }
    if (j->pos >= j->len) goto bad;
    c = j->s[j->pos++];
    switch (c) {
    case '"': case '\\': case '/': byte_writer_bytes(&w, &c, 1); break;
    case 'b': byte_writer_bytes(&w, "\b", 1); break;
    case 'f': byte_writer_bytes(&w, "\f", 1); break;
    case 'n': byte_writer_bytes(&w, "\n", 1); break;
    case 'r': byte_writer_bytes(&w, "\r", 1); break;
    case 't': byte_writer_bytes(&w, "\t", 1); break;
    case 'u': {
      uint32_t cp, lo;
      if (!jr_hex4(j, &cp)) goto bad;
      if (cp >= 0xD800 && cp <= 0xDBFF && j->len - j->pos >= 6 && j->s[j->pos] == '\\' &&
          j->s[j->pos + 1] == 'u') {
        size_t save = j->pos;
        j->pos += 2;
        if (jr_hex4(j, &lo) && lo >= 0xDC00 && lo <= 0xDFFF)
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        else
          j->pos = save;
      }
      byte_writer_bytes(&w, buf, wtf8_put_cp(buf, cp));
      break;
    }
    default:
      goto bad;
    }
  }
  byte_writer_bytes(&w, "", 1);
  if (w.failed) {
    byte_writer_free(&w);
    return -1;
  }
  if (!wtf8_validate((const char *)w.data, w.size - 1, &units, NULL) || units > WZ4_STR_UNITS_MAX)
    goto bad;
  out->s = (char *)byte_writer_take(&w, &n);
  out->len = n - 1;
  return 1;
bad:
  byte_writer_free(&w);
  return 0;
}

/* Reads an integer in -2^31 .. 2^32-1 as a raw word. */
static int jr_word(json_in *j, uint32_t *v) {
  int neg = 0;
  uint64_t r = 0;
  size_t digits = 0;
  jr_ws(j);
  if (j->pos < j->len && j->s[j->pos] == '-') {
    neg = 1;
    j->pos++;
  }
  while (j->pos < j->len && j->s[j->pos] >= '0' && j->s[j->pos] <= '9') {
    r = r * 10 + (uint64_t)(j->s[j->pos++] - '0');
    if (r > 0xffffffffull) return 0;
    digits++;
  }
  if (!digits) return 0;
  if (j->pos < j->len && (j->s[j->pos] == '.' || j->s[j->pos] == 'e' || j->s[j->pos] == 'E')) return 0;
  if (neg) {
    if (r > 0x80000000ull) return 0;
    *v = (uint32_t)(0x100000000ull - r);
  } else {
    *v = (uint32_t)r;
  }
  return 1;
}

/* Counts the bytes of input as an upper bound for the element count (each
** element takes at least one byte), then parses [int, ...]. */
int wz4_op_set_params_json(wz4_op *op, const char *json, size_t len, codec_error *err) {
  json_in j;
  uint32_t *words = NULL, n = 0;
  j.s = json ? json : "";
  j.len = json ? len : 0;
  j.pos = 0;
  if (!jr_char(&j, '[')) return codec_fail_arg(err, "params: expected a JSON array of integers");
  if (j.len > UINT32_MAX) return codec_fail_limit(err, "params: too long");
  words = (uint32_t *)malloc((j.len / 2 + 1) * sizeof *words);
  if (!words) return codec_fail_oom(err, "params: out of memory");
  if (!jr_char(&j, ']')) {
    do {
      if (!jr_word(&j, &words[n])) {
        free(words);
        return codec_fail_arg(err, "params: element %u is not an integer in -2147483648..4294967295", n);
      }
      n++;
    } while (jr_char(&j, ','));
    if (!jr_char(&j, ']')) {
      free(words);
      return codec_fail_arg(err, "params: expected ',' or ']' after element %u", n - 1);
    }
  }
  jr_ws(&j);
  if (j.pos != j.len) {
    free(words);
    return codec_fail_arg(err, "params: text after the array");
  }
  free(op->params);
  op->params = n ? words : NULL;
  if (!n) free(words);
  op->num_params = n;
  return 1;
}

/* Parses ["...", ...] into a new array, then swaps it in. */
int wz4_op_set_strings_json(wz4_op *op, const char *json, size_t len, codec_error *err) {
  json_in j;
  wz4_str *a = NULL;
  uint32_t n = 0;
  j.s = json ? json : "";
  j.len = json ? len : 0;
  j.pos = 0;
  if (!jr_char(&j, '[')) return codec_fail_arg(err, "strings: expected a JSON array of strings");
  if (j.len > UINT32_MAX) return codec_fail_limit(err, "strings: too long");
  a = (wz4_str *)calloc(j.len / 2 + 1, sizeof *a); /* each element takes >= 2 bytes ("") */
  if (!a) return codec_fail_oom(err, "strings: out of memory");
  if (!jr_char(&j, ']')) {
    do {
      int got = jr_str(&j, &a[n]);
      if (got <= 0) {
        str_array_free(a, n);
        if (got < 0) return codec_fail_oom(err, "strings: out of memory");
        return codec_fail_arg(err, "strings: element %u is not a valid JSON string (or not UTF-8)", n);
      }
      n++;
    } while (jr_char(&j, ','));
    if (!jr_char(&j, ']')) {
      str_array_free(a, n);
      return codec_fail_arg(err, "strings: expected ',' or ']' after element %u", n - 1);
    }
  }
  jr_ws(&j);
  if (j.pos != j.len) {
    str_array_free(a, n);
    return codec_fail_arg(err, "strings: text after the array");
  }
  str_array_free(op->strings, op->num_strings);
  if (!n) {
    free(a);
    a = NULL;
  }
  op->strings = a;
  op->num_strings = n;
  return 1;
}

/* Reads one link object {"name":"...","select":N} (keys in any order,
** "select" optional, 0 when absent) into l.  Returns 1, 0 on bad input
** (with *what saying what), -1 when memory runs out. */
static int jr_link(json_in *j, wz4_link *l, const char **what) {
  int have_name = 0, have_select = 0;
  *what = "is not an object {\"name\":..,\"select\":..}";
  if (!jr_char(j, '{')) return 0;
  if (jr_char(j, '}')) goto done;
  do {
    wz4_str key = {0};
    int got = jr_str(j, &key), is_name, is_select;
    if (got < 0) return -1;
    if (!got) return 0;
    is_name = key.len == 4 && !memcmp(key.s, "name", 4);
    is_select = key.len == 6 && !memcmp(key.s, "select", 6);
    str_clear(&key);
    if (!jr_char(j, ':')) return 0;
    if (is_name && !have_name) {
      have_name = 1;
      got = jr_str(j, &l->name);
      if (got < 0) return -1;
      if (!got) {
        *what = "has a name that is not a valid JSON string (or not UTF-8)";
        return 0;
      }
    } else if (is_select && !have_select) {
      have_select = 1;
      if (!jr_word(j, &l->select)) {
        *what = "has a select that is not an integer in -2147483648..4294967295";
        return 0;
      }
    } else {
      *what = "has a key other than \"name\" and \"select\" (or one twice)";
      return 0;
    }
  } while (jr_char(j, ','));
  if (!jr_char(j, '}')) return 0;
done:
  if (!have_name) {
    *what = "has no \"name\"";
    return 0;
  }
  return 1;
}

/* Frees the names of links[0..n) and the array (not their defaults). */
static void link_names_free(wz4_link *links, uint32_t n) {
  uint32_t i;
  for (i = 0; i < n; i++) str_clear(&links[i].name);
  free(links);
}

/* Parses the new slots completely, then swaps them in: slot i keeps the
** default op (and flag word) of the old slot i; slots past the old count
** get none; the defaults of slots that went away are freed. */
int wz4_op_set_links_json(wz4_op *op, const char *json, size_t len, codec_error *err) {
  json_in j;
  wz4_link *a;
  uint32_t n = 0, i;
  const char *what = "";
  j.s = json ? json : "";
  j.len = json ? len : 0;
  j.pos = 0;
  if (!jr_char(&j, '[')) return codec_fail_arg(err, "links: expected a JSON array of {\"name\":..,\"select\":..} objects");
  if (j.len > UINT32_MAX) return codec_fail_limit(err, "links: too long");
  a = (wz4_link *)calloc(j.len / 11 + 1, sizeof *a); /* each element takes >= 11 bytes ({"name":""}) */
  if (!a) return codec_fail_oom(err, "links: out of memory");
  if (!jr_char(&j, ']')) {
    do {
      int got = jr_link(&j, &a[n], &what);
      if (got <= 0) {
        link_names_free(a, n + 1);
        if (got < 0) return codec_fail_oom(err, "links: out of memory");
        return codec_fail_arg(err, "links: element %u %s", n, what);
      }
      n++;
    } while (n < j.len / 11 + 1 && jr_char(&j, ','));
    if (!jr_char(&j, ']')) {
      link_names_free(a, n);
      return codec_fail_arg(err, "links: expected ',' or ']' after element %u", n - 1);
    }
  }
  jr_ws(&j);
  if (j.pos != j.len) {
    link_names_free(a, n);
    return codec_fail_arg(err, "links: text after the array");
  }
  if (n && op->version < 3) {
    link_names_free(a, n);
    return codec_fail_arg(err, "links: this op record (version %ld) has no link slots", (long)op->version);
  }
  for (i = 0; i < op->num_links && op->links; i++) {
    if (i < n) {
      a[i].has_default = op->links[i].has_default;
      a[i].def = op->links[i].def;
    } else {
      op_free(op->links[i].def);
    }
    str_clear(&op->links[i].name);
  }
  free(op->links);
  if (!n) {
    free(a);
    a = NULL;
  }
  op->links = a;
  op->num_links = n;
  return 1;
}

/* ======================================================================== */
/* the operator graph                                                       */
/* ======================================================================== */

typedef struct stack_key {
  int64_t end;   /* pos_y + height */
  int32_t pos_x;
  uint32_t idx;
} stack_key;

/* qsort order of possible inputs: by bottom edge, then x, then index. */
static int stack_key_cmp(const void *a, const void *b) {
  const stack_key *x = (const stack_key *)a, *y = (const stack_key *)b;
  if (x->end != y->end) return x->end < y->end ? -1 : 1;
  if (x->pos_x != y->pos_x) return x->pos_x < y->pos_x ? -1 : 1;
  return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

typedef struct name_key {
  const char *s;
  size_t len;
  uint32_t page, node;
} name_key;

/* Compares two names as byte strings (shorter prefix first). */
static int name_bytes_cmp(const char *a, size_t alen, const char *b, size_t blen) {
  size_t n = alen < blen ? alen : blen;
  int c = n ? memcmp(a, b, n) : 0;
  if (c) return c;
  return alen < blen ? -1 : (alen > blen);
}

/* qsort order of named ops: by name, then document order. */
static int name_key_cmp(const void *a, const void *b) {
  const name_key *x = (const name_key *)a, *y = (const name_key *)b;
  int c = name_bytes_cmp(x->s, x->len, y->s, y->len);
  if (c) return c;
  if (x->page != y->page) return x->page < y->page ? -1 : 1;
  return x->node < y->node ? -1 : (x->node > y->node);
}

/* True for a comment op, which the tool leaves out of the stack graph. */
static int is_comment(const wz4_op *op) {
  return op->class_name.s && op->class_name.len == 7 && memcmp(op->class_name.s, "Comment", 7) == 0;
}

typedef struct edge_list {
  wz4_edge *a;
  size_t n, cap;
} edge_list;

/* Appends an edge, growing the array geometrically. */
static int edge_push(edge_list *l, const wz4_edge *e) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    wz4_edge *p;
    if (cap > SIZE_MAX / sizeof *p) return 0;
    p = (wz4_edge *)realloc(l->a, cap * sizeof *p);
    if (!p) return 0;
    l->a = p;
    l->cap = cap;
  }
  l->a[l->n++] = *e;
  return 1;
}

/* Whether an op of page pg has a non-empty link name: only then are the
** document's op names indexed (a sort of every named op). */
static int page_has_link_names(const wz4_page *pg) {
  uint32_t i, j;
  for (i = 0; pg->nodes && i < pg->num_nodes; i++) {
    const wz4_op *op = &pg->nodes[i].op;
    for (j = 0; op->links && j < op->num_links; j++) {
      if (op->links[j].name.s && op->links[j].name.len) return 1;
    }
  }
  return 0;
}

/* The index of every named op of the document, sorted by name (then page
** and node): *out malloc'd (NULL when no op is named).  Returns 0 when
** memory runs out. */
static int name_index(const wz4_doc *doc, name_key **out, size_t *n_out) {
  name_key *names = NULL;
  size_t total_nodes = 0, nnames = 0;
  uint32_t pi, j;
  *out = NULL;
  *n_out = 0;
  for (pi = 0; pi < doc->num_pages; pi++) total_nodes += doc->pages[pi].nodes ? doc->pages[pi].num_nodes : 0;
  if (total_nodes && !(names = (name_key *)malloc(total_nodes * sizeof *names))) return 0;
  for (pi = 0; pi < doc->num_pages; pi++) {
    const wz4_page *p2 = &doc->pages[pi];
    for (j = 0; p2->nodes && j < p2->num_nodes; j++) {
      const wz4_op *op = &p2->nodes[j].op;
      if (!op->name.s || op->name.len == 0) continue;
      names[nnames].s = op->name.s;
      names[nnames].len = op->name.len;
      names[nnames].page = pi;
      names[nnames].node = j;
      nnames++;
    }
  }
  if (nnames) qsort(names, nnames, sizeof *names, name_key_cmp);
  *out = names;
  *n_out = nnames;
  return 1;
}

/* Ops of the page looked at between two polls of wz4_page_links_cancel's
** cancel: one op scans every op whose bottom is at its top (all of them,
** in a hostile page). */
#define WZ4_LINKS_POLL 16

int wz4_page_links(const wz4_doc *doc, uint32_t page, wz4_edge **out, size_t *n_out, codec_error *err) {
  return wz4_page_links_cancel(doc, page, NULL, out, n_out, err);
}

/* Builds the page's edge list: sorted candidate inputs for the stack
** edges (binary search on the bottom edge), a sorted name index of the
** whole document for the name edges; cancel polled every WZ4_LINKS_POLL
** ops. */
int wz4_page_links_cancel(const wz4_doc *doc, uint32_t page, const codec_cancel *cancel, wz4_edge **out,
                          size_t *n_out, codec_error *err) {
  const wz4_page *pg;
  stack_key *keys = NULL;
  name_key *names = NULL;
  size_t nkeys = 0, nnames = 0;
  edge_list el = {NULL, 0, 0};
  uint32_t i, j;
  int r = 0;
  *out = NULL;
  *n_out = 0;
  if (!doc || page >= doc->num_pages || !doc->pages) return codec_fail_arg(err, "links: no page %u", page);
  pg = &doc->pages[page];
  if (pg->num_nodes && !pg->nodes) return codec_fail_arg(err, "links: page %u has no op array", page);
  if (pg->num_stack) {
    keys = (stack_key *)malloc((size_t)pg->num_stack * sizeof *keys);
    if (!keys) goto oom;
  }
  for (i = 0; i < pg->num_stack && i < pg->num_nodes; i++) {
    const wz4_node *a = &pg->nodes[i];
    if (is_comment(&a->op) || a->hide || a->height <= 0) continue;
    keys[nkeys].end = (int64_t)a->pos_y + a->height;
    keys[nkeys].pos_x = a->pos_x;
    keys[nkeys].idx = i;
    nkeys++;
  }
  if (nkeys) qsort(keys, nkeys, sizeof *keys, stack_key_cmp);
  if (page_has_link_names(pg) && !name_index(doc, &names, &nnames)) goto oom;

  for (i = 0; i < pg->num_nodes; i++) {
    const wz4_node *b = &pg->nodes[i];
    wz4_edge e;
    if (i % WZ4_LINKS_POLL == 0 && codec_cancelled(cancel)) goto interrupted;
    if (i < pg->num_stack && !is_comment(&b->op) && nkeys) {
      /* first key with end >= b->pos_y */
      size_t lo = 0, hi = nkeys, k;
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid].end < (int64_t)b->pos_y) lo = mid + 1;
        else hi = mid;
      }
      for (k = lo; k < nkeys && keys[k].end == (int64_t)b->pos_y; k++) {
        const wz4_node *a = &pg->nodes[keys[k].idx];
        if (keys[k].idx == i) continue;
        if ((int64_t)a->pos_x < (int64_t)b->pos_x + b->width && (int64_t)b->pos_x < (int64_t)a->pos_x + a->width) {
          memset(&e, 0, sizeof e);
          e.to_op = i;
          e.from_page = page;
          e.from_op = keys[k].idx;
          e.kind = WZ4_LINK_STACK;
          if (!edge_push(&el, &e)) goto oom;
        }
      }
    }
    if (b->op.links) {
      for (j = 0; j < b->op.num_links; j++) {
        const wz4_link *l = &b->op.links[j];
        size_t lo = 0, hi = nnames;
        if (!l->name.s || l->name.len == 0) continue;
        while (lo < hi) { /* first name >= link name */
          size_t mid = lo + (hi - lo) / 2;
          if (name_bytes_cmp(names[mid].s, names[mid].len, l->name.s, l->name.len) < 0) lo = mid + 1;
          else hi = mid;
        }
        memset(&e, 0, sizeof e);
        e.to_op = i;
        e.kind = WZ4_LINK_NAME;
        e.slot = j;
        e.link_name = l->name.s;
        e.link_name_len = l->name.len;
        if (lo < nnames && name_bytes_cmp(names[lo].s, names[lo].len, l->name.s, l->name.len) == 0) {
          e.from_page = names[lo].page;
          e.from_op = names[lo].node;
        } else {
          e.from_page = -1;
          e.from_op = -1;
        }
        if (!edge_push(&el, &e)) goto oom;
      }
    }
  }
  *out = el.a;
  *n_out = el.n;
  el.a = NULL;
  r = 1;
  goto done;
oom:
  codec_fail_oom(err, "links: out of memory");
  goto done;
interrupted:
  codec_fail_interrupted(err);
done:
  free(el.a);
  free(keys);
  free(names);
  return r;
}

/* ======================================================================== */
/* edits of the graph, and a memo of it                                     */
/* ======================================================================== */

int wz4_node_place(wz4_node *node, const wz4_node *to) {
  int moved = node->pos_x != to->pos_x || node->pos_y != to->pos_y || node->width != to->width ||
              node->height != to->height || node->hide != to->hide;
  node->pos_x = to->pos_x;
  node->pos_y = to->pos_y;
  node->width = to->width;
  node->height = to->height;
  node->bypass = to->bypass;
  node->hide = to->hide;
  return moved;
}

/* The edges of one page as wz4_page_links computed them. */
typedef struct graph_page {
  wz4_edge *edges;
  size_t n;
  int valid;
} graph_page;

struct wz4_graph {
  graph_page *pages; /* npages entries, allocated on first use */
  uint32_t npages;
};

wz4_graph *wz4_graph_new(void) {
  return (wz4_graph *)calloc(1, sizeof(wz4_graph));
}

void wz4_graph_forget(wz4_graph *g, int64_t page) {
  int64_t p;
  for (p = page < 0 ? 0 : page; p < (int64_t)g->npages && (page < 0 || p == page); p++) {
    free(g->pages[p].edges);
    g->pages[p].edges = NULL;
    g->pages[p].n = 0;
    g->pages[p].valid = 0;
  }
}

void wz4_graph_free(wz4_graph *g) {
  if (!g) return;
  wz4_graph_forget(g, WZ4_GRAPH_ALL);
  free(g->pages);
  free(g);
}

int wz4_graph_page(wz4_graph *g, const wz4_doc *doc, uint32_t page, const wz4_edge **edges, size_t *n,
                   codec_error *err) {
  graph_page *gp;
  *edges = NULL;
  *n = 0;
  if (page >= doc->num_pages) return codec_fail(err, "links: no page %u", page);
  if (g->npages != doc->num_pages) {
    graph_page *pages = (graph_page *)calloc(doc->num_pages, sizeof *pages);
    if (!pages) return codec_fail(err, "links: out of memory");
    wz4_graph_forget(g, WZ4_GRAPH_ALL);
    free(g->pages);
    g->pages = pages;
    g->npages = doc->num_pages;
  }
  gp = &g->pages[page];
  if (!gp->valid) {
    if (!wz4_page_links(doc, page, &gp->edges, &gp->n, err)) return 0;
    gp->valid = 1;
  }
  *edges = gp->edges;
  *n = gp->n;
  return 1;
}

int wz4_doc_page_edges(const wz4_doc *doc, uint32_t page, const wz4_edge **edges, size_t *n, codec_error *err) {
  if (doc->graph) return wz4_graph_page(doc->graph, doc, page, edges, n, err);
  *edges = NULL;
  *n = 0;
  return codec_fail_oom(err, "links: the document has no graph memo");
}

void wz4_doc_node_place(wz4_doc *doc, uint32_t page, wz4_node *node, const wz4_node *to) {
  if (wz4_node_place(node, to) && doc->graph) wz4_graph_forget(doc->graph, page);
}

/* Heap bytes of one op, nested link defaults included (their depth is
** bounded by the parser: WZ4_MAX_NESTING). */
static size_t op_footprint(const wz4_op *op) {
  size_t bytes = op->name.len + op->class_name.len + op->type_name.len + op->script.len;
  uint32_t i;
  bytes += (size_t)op->num_params * 4 + (size_t)op->array_words * op->array_count * 4 + (size_t)op->num_anims * 4;
  for (i = 0; i < op->num_strings; i++) bytes += sizeof(wz4_str) + op->strings[i].len;
  for (i = 0; op->links && i < op->num_links; i++) {
    bytes += sizeof(wz4_link) + op->links[i].name.len;
    if (op->links[i].def) bytes += sizeof(wz4_op) + op_footprint(op->links[i].def);
  }
  for (i = 0; op->script_paras && i < op->num_script_paras; i++)
    bytes += sizeof(wz4_script_para) + op->script_paras[i].str.len;
  return bytes;
}

size_t wz4_footprint(const wz4_doc *doc) {
  size_t bytes = sizeof(wz4_doc) + (size_t)doc->num_pages * sizeof(wz4_page);
  uint32_t p, i;
  for (p = 0; p < doc->num_pages; p++) {
    const wz4_page *pg = &doc->pages[p];
    bytes += pg->name.len;
    for (i = 0; pg->nodes && i < pg->num_nodes; i++) bytes += sizeof(wz4_node) + op_footprint(&pg->nodes[i].op);
  }
  return bytes;
}
