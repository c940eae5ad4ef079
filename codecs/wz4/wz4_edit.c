/*
** wz4_edit.c: structural edits of a werkkzeug4 document (see wz4.h):
** pages and operators inserted, removed and found by uid, page renames that
** the page order list and the last-open page follow, renames of link names
** (what a Store op's Load ops and link slots hold), writes of an op's
** fields, the link default ops of an op or a page as a flat list, and the
** tempo in beats per minute.
**
** Every structural edit builds what it needs before changing the model, so
** a failure (out of memory, a refused value) leaves the document as it was,
** and makes the document's graph memo forget the edges it may change.
*/
#include "wz4/wz4.h"

#include <stdlib.h>
#include <string.h>

/* ---- uids ----------------------------------------------------------------------- */

/* Linear search: documents have thousands of ops at most. */
int wz4_node_find(const wz4_doc *doc, uint32_t uid, uint32_t *page, uint32_t *op) {
  uint32_t p, i;
  for (p = 0; p < doc->num_pages; p++) {
    const wz4_page *pg = &doc->pages[p];
    for (i = 0; i < pg->num_nodes; i++) {
      if (pg->nodes[i].uid == uid) {
        *page = p;
        *op = i;
        return 1;
      }
    }
  }
  return 0;
}

int wz4_page_find(const wz4_doc *doc, uint32_t uid, uint32_t *page) {
  uint32_t p;
  for (p = 0; p < doc->num_pages; p++) {
    if (doc->pages[p].uid == uid) {
      *page = p;
      return 1;
    }
  }
  return 0;
}

/* Forgets the memo's edges of every page: after an edit that may change
** the name links (they reach across pages) or the page list. */
static void forget_graphs(wz4_doc *doc) {
  if (doc->graph) wz4_graph_forget(doc->graph, WZ4_GRAPH_ALL);
}

/* Hands out the next uid; 0 when they ran out (2^32 inserts). */
static int take_uid(wz4_doc *doc, uint32_t *uid, codec_error *err) {
  if (doc->next_uid == UINT32_MAX) return codec_fail_limit(err, "no identities left for new rows");
  *uid = doc->next_uid++;
  return 1;
}

/* ---- pages ---------------------------------------------------------------------- */

/* Index of the first entry of the page order list equal to name, or -1. */
static int64_t page_name_entry(const wz4_doc *doc, const wz4_str *name) {
  uint32_t i;
  for (i = 0; i < doc->num_page_names; i++) {
    const wz4_str *e = &doc->page_names[i];
    if (e->len == name->len && !memcmp(wz4_str_text(e), wz4_str_text(name), name->len)) return i;
  }
  return -1;
}

/* A new empty stacked page at `at` whose name is also appended to the page
** order list, so the tool lists it. */
int wz4_page_insert(wz4_doc *doc, uint32_t at, const char *name, size_t len, codec_error *err) {
  wz4_page pg;
  wz4_page *pages;
  wz4_str *names;
  uint32_t uid = 0;
  if (at > doc->num_pages) return codec_fail_arg(err, "page %u: the document has %u pages", at, doc->num_pages);
  if (doc->num_pages == UINT32_MAX || doc->num_page_names == UINT32_MAX)
    return codec_fail_limit(err, "too many pages");
  memset(&pg, 0, sizeof pg);
  if (!wz4_str_set(&pg.name, name, len, err)) return codec_prefix(err, "page name: ");
  names = (wz4_str *)realloc(doc->page_names, ((size_t)doc->num_page_names + 1) * sizeof *names);
  if (names) doc->page_names = names;
  pages = names ? (wz4_page *)realloc(doc->pages, ((size_t)doc->num_pages + 1) * sizeof *pages) : NULL;
  if (pages) doc->pages = pages;
  if (!names || !pages) {
    free(pg.name.s);
    return codec_fail_oom(err, "page: out of memory");
  }
  memset(&names[doc->num_page_names], 0, sizeof *names);
  if (!wz4_str_set(&names[doc->num_page_names], name, len, err) || !take_uid(doc, &uid, err)) {
    free(names[doc->num_page_names].s);
    free(pg.name.s);
    return 0;
  }
  doc->num_page_names++;
  pg.uid = uid;
  memmove(&pages[at + 1], &pages[at], (size_t)(doc->num_pages - at) * sizeof *pages);
  pages[at] = pg;
  doc->num_pages++;
  forget_graphs(doc);
  return 1;
}

/* Removes the page and its ops, and the first entry of its name in the
** page order list. */
int wz4_page_remove(wz4_doc *doc, uint32_t at, codec_error *err) {
  int64_t entry;
  if (at >= doc->num_pages) return codec_fail_arg(err, "page %u: the document has %u pages", at, doc->num_pages);
  entry = page_name_entry(doc, &doc->pages[at].name);
  if (entry >= 0) {
    free(doc->page_names[entry].s);
    memmove(&doc->page_names[entry], &doc->page_names[entry + 1],
            (size_t)(doc->num_page_names - (uint32_t)entry - 1) * sizeof *doc->page_names);
    doc->num_page_names--;
  }
  wz4_page_clear(&doc->pages[at]);
  memmove(&doc->pages[at], &doc->pages[at + 1], (size_t)(doc->num_pages - at - 1) * sizeof *doc->pages);
  doc->num_pages--;
  forget_graphs(doc);
  return 1;
}

/* New name for the page; the page order list's first entry of the old name
** and the options' last open page (when it was this name) follow.  No edge
** changes: name links name ops, not pages. */
int wz4_page_rename(wz4_doc *doc, uint32_t at, const char *name, size_t len, codec_error *err) {
  wz4_str fresh = {0}, in_list = {0}, last_open = {0};
  wz4_page *pg;
  int64_t entry;
  int follows_last_open;
  if (at >= doc->num_pages) return codec_fail_arg(err, "page %u: the document has %u pages", at, doc->num_pages);
  pg = &doc->pages[at];
  entry = page_name_entry(doc, &pg->name);
  follows_last_open = doc->options.version >= 7 && doc->options.page_name.len == pg->name.len &&
                      !memcmp(wz4_str_text(&doc->options.page_name), wz4_str_text(&pg->name), pg->name.len);
  if (!wz4_str_set(&fresh, name, len, err) || (entry >= 0 && !wz4_str_set(&in_list, name, len, err)) ||
      (follows_last_open && !wz4_str_set(&last_open, name, len, err))) {
    free(fresh.s);
    free(in_list.s);
    return codec_prefix(err, "page name: ");
  }
  free(pg->name.s);
  pg->name = fresh;
  if (entry >= 0) {
    free(doc->page_names[entry].s);
    doc->page_names[entry] = in_list;
  }
  if (follows_last_open) {
    free(doc->options.page_name.s);
    doc->options.page_name = last_open;
  }
  return 1;
}

/* ---- operators ------------------------------------------------------------------ */

/* A blank stacked op (version 12, as the tool writes, with no params,
** strings or links) at the end of the page's stacked ops, before its tree
** ops, one cell high and three wide (the tool's usual size) at (0, 0). */
int wz4_has_pages(const wz4_doc *doc, codec_error *err) {
  return doc->num_pages ? 1 : codec_fail_arg(err, "the project has no pages; INSERT INTO wz4_pages first");
}

int wz4_node_insert(wz4_doc *doc, uint32_t page, const char *class_name, size_t class_len, const char *type_name,
                    size_t type_len, uint32_t *index, codec_error *err) {
  wz4_page *pg;
  wz4_node nd, *nodes;
  if (!wz4_has_pages(doc, err)) return 0;
  if (page >= doc->num_pages) return codec_fail_arg(err, "page %u: the document has %u pages", page, doc->num_pages);
  pg = &doc->pages[page];
  if (pg->is_tree) return codec_fail_arg(err, "page %u is a tree page: ops are inserted on stacked pages only", page);
  if (pg->num_nodes == UINT32_MAX) return codec_fail_limit(err, "page %u: too many ops", page);
  if (!class_len || !type_len) return codec_fail_arg(err, "a new op needs a class and an output type");
  memset(&nd, 0, sizeof nd);
  nd.width = 3;
  nd.height = 1;
  nd.op.version = WZ4_OP_VERSION_MAX;
  if (!wz4_str_set(&nd.op.class_name, class_name, class_len, err) ||
      !wz4_str_set(&nd.op.type_name, type_name, type_len, err)) {
    wz4_op_clear(&nd.op);
    return 0;
  }
  nodes = (wz4_node *)realloc(pg->nodes, ((size_t)pg->num_nodes + 1) * sizeof *nodes);
  if (!nodes) {
    wz4_op_clear(&nd.op);
    return codec_fail_oom(err, "op: out of memory");
  }
  pg->nodes = nodes;
  if (!take_uid(doc, &nd.uid, err)) {
    wz4_op_clear(&nd.op);
    return 0;
  }
  memmove(&nodes[pg->num_stack + 1], &nodes[pg->num_stack], (size_t)(pg->num_nodes - pg->num_stack) * sizeof *nodes);
  nodes[pg->num_stack] = nd;
  *index = pg->num_stack;
  pg->num_stack++;
  pg->num_nodes++;
  forget_graphs(doc);
  return 1;
}

int wz4_node_remove(wz4_doc *doc, uint32_t page, uint32_t op, codec_error *err) {
  wz4_page *pg;
  if (page >= doc->num_pages || op >= doc->pages[page].num_nodes)
    return codec_fail_arg(err, "page %u op %u: no such op", page, op);
  pg = &doc->pages[page];
  wz4_op_clear(&pg->nodes[op].op);
  memmove(&pg->nodes[op], &pg->nodes[op + 1], (size_t)(pg->num_nodes - op - 1) * sizeof *pg->nodes);
  pg->num_nodes--;
  if (op < pg->num_stack) pg->num_stack--;
  forget_graphs(doc);
  return 1;
}

/* ---- link names ----------------------------------------------------------------- */

/* A growing list of the link names to rename. */
typedef struct name_refs {
  wz4_str **at;
  size_t n, cap;
  int failed;
} name_refs;

/* Collects the link names of op (and of its link defaults, recursively)
** equal to name. */
static void collect_links(wz4_op *op, const char *name, size_t len, name_refs *refs, int depth) {
  uint32_t i;
  if (depth > WZ4_MAX_NESTING) return; /* the parser keeps models shallower */
  for (i = 0; i < op->num_links && op->links; i++) {
    wz4_link *l = &op->links[i];
    if (l->name.len == len && !memcmp(wz4_str_text(&l->name), name, len)) {
      if (refs->n == refs->cap) {
        size_t cap = refs->cap ? refs->cap * 2 : 16;
        wz4_str **at = (wz4_str **)realloc(refs->at, cap * sizeof *at);
        if (!at) {
          refs->failed = 1;
          return;
        }
        refs->at = at;
        refs->cap = cap;
      }
      refs->at[refs->n++] = &l->name;
    }
    if (l->def) collect_links(l->def, name, len, refs, depth + 1);
  }
}

/* All-or-nothing: the new strings are made before any is swapped in. */
int wz4_rename_links(wz4_doc *doc, const char *from, size_t from_len, const char *to, size_t to_len, size_t *renamed,
                     codec_error *err) {
  name_refs refs = {0};
  wz4_str *fresh;
  uint32_t p, i;
  size_t k;
  *renamed = 0;
  if (!from_len) return 1; /* an empty link name means "unused": nothing names "" */
  for (p = 0; p < doc->num_pages; p++)
    for (i = 0; i < doc->pages[p].num_nodes; i++) collect_links(&doc->pages[p].nodes[i].op, from, from_len, &refs, 0);
  if (refs.failed) {
    free(refs.at);
    return codec_fail_oom(err, "links: out of memory");
  }
  if (!refs.n) return 1;
  fresh = (wz4_str *)calloc(refs.n, sizeof *fresh);
  for (k = 0; fresh && k < refs.n; k++) {
    if (!wz4_str_set(&fresh[k], to, to_len, err)) {
      while (k--) free(fresh[k].s);
      free(fresh);
      free(refs.at);
      return codec_prefix(err, "link name: ");
    }
  }
  if (!fresh) {
    free(refs.at);
    return codec_fail_oom(err, "links: out of memory");
  }
  for (k = 0; k < refs.n; k++) {
    free(refs.at[k]->s);
    *refs.at[k] = fresh[k];
  }
  *renamed = refs.n;
  free(fresh);
  free(refs.at);
  forget_graphs(doc);
  return 1;
}

/* ---- writes of an op's fields --------------------------------------------------- */

/* In the order wz4.h gives; the memo forgets every page once the links
** or the name changed, even when a later part fails. */
int wz4_op_edit_apply(wz4_doc *doc, wz4_op *op, const wz4_op_edit *edit, codec_error *err) {
  size_t renamed = 0;
  int ok = 1;
  if (edit->links_json && !wz4_op_set_links_json(op, edit->links_json, edit->links_len, err)) return 0;
  if (edit->links_json) forget_graphs(doc);
  if (edit->set_name) {
    if (edit->rename_links &&
        !wz4_rename_links(doc, wz4_str_text(&op->name), op->name.len, edit->name, edit->name_len, &renamed, err))
      return 0;
    ok = wz4_str_set(&op->name, edit->name, edit->name_len, err);
    forget_graphs(doc);
  }
  if (ok && edit->set_params) ok = wz4_op_set_params(op, edit->params, edit->num_params, err);
  if (ok && edit->set_strings) ok = wz4_op_set_strings(op, edit->strings, edit->string_lens, edit->num_strings, err);
  if (ok && edit->node) wz4_doc_node_place(doc, edit->page, edit->node, edit->place);
  return ok;
}

/* ---- link default ops ----------------------------------------------------------- */

uint32_t wz4_op_default_count(const wz4_op *op) {
  uint32_t i, n = 0;
  for (i = 0; i < op->num_links && op->links; i++)
    if (op->links[i].def) n += 1 + wz4_op_default_count(op->links[i].def);
  return n;
}

/* Walks op's defaults in preorder, counting down *left; `self` is the
** preorder number of op (-1 for the node's own op). */
static wz4_op *default_walk(wz4_op *op, int64_t self, uint32_t depth, uint32_t *left, int64_t *next,
                            wz4_default_place *where) {
  uint32_t i;
  for (i = 0; i < op->num_links && op->links; i++) {
    wz4_op *def = op->links[i].def, *found;
    int64_t mine;
    if (!def) continue;
    mine = (*next)++;
    if (*left == 0) {
      where->parent = self;
      where->slot = i;
      where->depth = depth;
      return def;
    }
    (*left)--;
    if ((found = default_walk(def, mine, depth + 1, left, next, where))) return found;
  }
  return NULL;
}

wz4_op *wz4_op_default_at(wz4_op *op, uint32_t index, wz4_default_place *where) {
  int64_t next = 0;
  return default_walk(op, -1, 1, &index, &next, where);
}

int64_t wz4_page_default_count(const wz4_page *pg) {
  int64_t n = 0;
  uint32_t i;
  for (i = 0; i < pg->num_nodes; i++) n += wz4_op_default_count(&pg->nodes[i].op);
  return n;
}

/* Node by node, counting down the defaults of the nodes before. */
wz4_op *wz4_page_default_at(const wz4_page *pg, int64_t index, uint32_t *node, wz4_default_place *where) {
  int64_t left = index;
  uint32_t i;
  for (i = 0; i < pg->num_nodes && left >= 0; i++) {
    uint32_t n = wz4_op_default_count(&pg->nodes[i].op);
    wz4_op *def;
    if (left < n) {
      def = wz4_op_default_at(&pg->nodes[i].op, (uint32_t)left, where);
      *node = i;
      if (def && where->parent >= 0) where->parent += index - left;
      return def;
    }
    left -= n;
  }
  return NULL;
}

/* ---- the tempo ------------------------------------------------------------------ */

double wz4_options_bpm(const wz4_options *o) {
  return o->beats_per_second * 60.0 / 65536.0;
}

/* Rounded to the nearest step of the fixed point. */
int wz4_options_set_bpm(wz4_options *o, double bpm, codec_error *err) {
  double raw = bpm * 65536.0 / 60.0 + 0.5;
  if (!(raw >= 0 && raw <= UINT32_MAX))
    return codec_fail_arg(err, "column bpm takes a tempo from 0 to %.1f beats per minute", UINT32_MAX * 60.0 / 65536.0);
  o->beats_per_second = (uint32_t)raw;
  return 1;
}
