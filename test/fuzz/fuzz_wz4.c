/*
** fuzz_wz4.c: libFuzzer harness for the werkkzeug4 codec.
**
** For every input: parse (a refusal must carry CODEC_E_FORMAT, _LIMIT or
** _MEMORY).  When it parses, the model must serialize to the
** very same bytes, a deep clone must too, the serialized bytes must parse
** again, and the link graph of every page must only name existing ops.
** Then edits: JSON round trips of params, strings and links (the bytes
** stay), the first op changed field by field, and on a clone the
** structural edits (link defaults walked and changed, a link rename, page
** rename, insert and remove, op insert and remove): each edited model must
** serialize, parse back to the same bytes and keep its uids unique.
** Any inconsistency calls abort() so libFuzzer records the input.
**
** Build: make build-fuzz/fuzz/fuzz_wz4
** Run:   build-fuzz/fuzz/fuzz_wz4 -max_total_time=60 /tmp/wz4-fuzz-corpus
** (seed the corpus directory with real .wz4 files, outside the repo).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "wz4/wz4.h"

/* Checks that the edges of every page point at existing ops. */
static void check_links(const wz4_doc *doc) {
  uint32_t p;
  for (p = 0; p < doc->num_pages; p++) {
    wz4_edge *ed = NULL;
    size_t n = 0, i;
    codec_error e;
    if (!wz4_page_links(doc, p, &ed, &n, &e)) abort(); /* only fails on OOM */
    for (i = 0; i < n; i++) {
      const wz4_edge *x = &ed[i];
      if (x->to_op >= doc->pages[p].num_nodes) abort();
      if (x->from_page >= 0) {
        if ((uint64_t)x->from_page >= doc->num_pages) abort();
        if (x->from_op < 0 || (uint64_t)x->from_op >= doc->pages[x->from_page].num_nodes) abort();
      } else if (x->kind != WZ4_LINK_NAME || x->from_op != -1) {
        abort();
      }
      if (x->kind == WZ4_LINK_STACK && (x->from_page != (int64_t)p || x->from_op == (int64_t)x->to_op)) abort();
    }
    free(ed);
  }
}

/* Serializes doc and compares with the expected bytes; aborts on any
** difference or failure. */
static void check_same(const wz4_doc *doc, const uint8_t *data, size_t size) {
  unsigned char *out = NULL;
  size_t on = 0;
  codec_error e;
  if (!wz4_serialize(doc, &out, &on, &e)) abort();
  if (on != size || memcmp(out, data, size) != 0) abort();
  free(out);
}

/* Rewrites every op's params and strings through their JSON forms (for
** the first 256 ops): the document must still serialize to the input. */
static void check_json(wz4_doc *doc, const uint8_t *data, size_t size) {
  uint32_t p, i, done = 0;
  codec_error e;
  for (p = 0; p < doc->num_pages; p++)
    for (i = 0; i < doc->pages[p].num_nodes && done < 256; i++, done++) {
      wz4_op *op = &doc->pages[p].nodes[i].op;
      size_t n = 0;
      char *j = wz4_strings_json(op, &n);
      if (!j || !wz4_op_set_strings_json(op, j, n, &e)) abort();
      free(j);
      j = wz4_params_json(op, &n);
      if (!j || !wz4_op_set_params_json(op, j, n, &e)) abort();
      free(j);
      j = wz4_links_json(op, &n);
      if (!j || !wz4_op_set_links_json(op, j, n, &e)) abort(); /* slots keep their defaults */
      free(j);
    }
  check_same(doc, data, size);
}

/* Serializes doc, parses the bytes and serializes them again: the two
** outputs must agree and the re-parsed graph must be sound. */
static void check_reparse(const wz4_doc *doc) {
  unsigned char *out = NULL, *out2 = NULL;
  size_t on = 0, on2 = 0;
  wz4_doc *re = NULL;
  codec_error e;
  if (!wz4_serialize(doc, &out, &on, &e)) abort();
  if (!wz4_parse(out, on, &re, &e)) abort();
  if (!wz4_serialize(re, &out2, &on2, &e)) abort();
  if (on != on2 || memcmp(out, out2, on) != 0) abort();
  check_links(re);
  wz4_free(re);
  free(out);
  free(out2);
}

/* Every node and page uid (of the first 64 pages and ops) is found where
** it is, so they are unique. */
static void check_uids(const wz4_doc *doc) {
  uint32_t p, i, fp, fi;
  for (p = 0; p < doc->num_pages && p < 64; p++) {
    if (!wz4_page_find(doc, doc->pages[p].uid, &fp) || fp != p) abort();
    for (i = 0; i < doc->pages[p].num_nodes && i < 64; i++)
      if (!wz4_node_find(doc, doc->pages[p].nodes[i].uid, &fp, &fi) || fp != p || fi != i) abort();
  }
}

/* Walks the link defaults of the first 64 ops: the preorder walk must
** find exactly wz4_op_default_count of them, parents before their
** children; changes each one's params. */
static void edit_defaults(wz4_doc *doc) {
  uint32_t p, i, k, seen = 0;
  codec_error e;
  uint32_t word = 0x12345678u;
  for (p = 0; p < doc->num_pages; p++)
    for (i = 0; i < doc->pages[p].num_nodes && seen < 64; i++, seen++) {
      wz4_op *op = &doc->pages[p].nodes[i].op;
      uint32_t n = wz4_op_default_count(op);
      wz4_default_place where;
      for (k = 0; k < n; k++) {
        wz4_op *def = wz4_op_default_at(op, k, &where);
        if (!def || where.parent >= (int64_t)k || where.depth < 1 || where.depth > WZ4_MAX_NESTING) abort();
        if ((where.parent < 0) != (where.depth == 1)) abort();
        if (!wz4_op_set_params(def, &word, 1, &e)) abort();
      }
      if (wz4_op_default_at(op, n, &where)) abort();
    }
}

/* Renames the first non-empty link name of the document to `to` (WTF-8 or
** refused): every slot of that name must follow. */
static void rename_first_link(wz4_doc *doc, const char *to, size_t to_len) {
  uint32_t p, i;
  codec_error e;
  for (p = 0; p < doc->num_pages; p++)
    for (i = 0; i < doc->pages[p].num_nodes; i++) {
      const wz4_op *op = &doc->pages[p].nodes[i].op;
      if (op->num_links && op->links[0].name.len) {
        wz4_str from = {0};
        size_t renamed = 0;
        if (!wz4_str_set(&from, op->links[0].name.s, op->links[0].name.len, &e)) abort();
        if (wz4_rename_links(doc, from.s, from.len, to, to_len, &renamed, &e) && !renamed) abort();
        free(from.s);
        return;
      }
    }
}

/* The structural edits on a clone: defaults, a link rename (to bytes from
** the input), a page rename, a page inserted with an op on it, the first
** op of the first page removed, the last page removed. */
static void check_structure(const wz4_doc *doc, const uint8_t *data, size_t size) {
  wz4_doc *cl = wz4_clone(doc);
  codec_error e;
  uint32_t index, pages;
  size_t take = size < 8 ? size : 8;
  const char *name = (const char *)data + size - take;
  if (!cl) abort();
  check_uids(cl);
  edit_defaults(cl);
  rename_first_link(cl, name, take);
  if (cl->num_pages && !wz4_page_rename(cl, 0, name, take, &e) && !wz4_page_rename(cl, 0, "p", 1, &e)) abort();
  pages = cl->num_pages;
  if (!wz4_page_insert(cl, pages / 2, "new page", 8, &e)) abort();
  if (cl->num_pages != pages + 1 || cl->pages[pages / 2].num_nodes) abort();
  if (!wz4_node_insert(cl, pages / 2, "Flat", 4, "GenBitmap", 9, &index, &e) || index != 0) abort();
  if (wz4_node_insert(cl, pages / 2, "", 0, "GenBitmap", 9, &index, &e)) abort(); /* no class: refused */
  if (cl->pages[0].num_nodes && !wz4_node_remove(cl, 0, 0, &e)) abort();
  if (!wz4_page_remove(cl, cl->num_pages - 1, &e)) abort();
  check_uids(cl);
  check_reparse(cl);
  wz4_free(cl);
}

/* Edits the first op (name from the input's last bytes when they are
** WTF-8, a move, bypass, params, strings), then checks that the edited
** model serializes, re-parses, and serializes to the same bytes again. */
static void check_edit(wz4_doc *doc, const uint8_t *data, size_t size) {
  wz4_node *nd = NULL;
  uint32_t p;
  size_t take = size < 16 ? size : 16;
  codec_error e;
  const char *strs[2];
  size_t lens[2];
  uint32_t words[2] = {0xdeadbeefu, (uint32_t)size};
  for (p = 0; p < doc->num_pages && !nd; p++) nd = wz4_node_at(doc, p, 0);
  if (!nd) return;
  strs[0] = (const char *)data + size - take;
  lens[0] = take;
  strs[1] = "";
  lens[1] = 0;
  if (!wz4_str_set(&nd->op.name, strs[0], lens[0], &e)) wz4_str_set(&nd->op.name, "x", 1, &e);
  if (!wz4_op_set_strings(&nd->op, strs, lens, 2, &e) && !wz4_op_set_strings(&nd->op, strs + 1, lens + 1, 1, &e))
    abort();
  if (!wz4_op_set_params(&nd->op, words, 2, &e)) abort();
  nd->pos_x = u32_as_i32((uint32_t)nd->pos_x + 1u); /* wraps, no signed overflow */
  nd->pos_y = u32_as_i32(0u - (uint32_t)nd->pos_y);
  nd->bypass = !nd->bypass;
  check_reparse(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wz4_doc *doc = NULL, *cl, *re = NULL;
  codec_error e;
  codec_error_clear(&e);
  if (!wz4_parse(data, size, &doc, &e)) {
    if (doc) abort(); /* no partial results */
    /* bytes are refused as damaged or beyond a cap, never as an argument */
    if (e.code != CODEC_E_FORMAT && e.code != CODEC_E_LIMIT && e.code != CODEC_E_MEMORY) abort();
    return 0;
  }
  if (!wz4_sniff(data, size)) abort(); /* everything parsable sniffs */
  check_same(doc, data, size);
  cl = wz4_clone(doc);
  if (!cl) abort();
  check_same(cl, data, size);
  wz4_free(cl);
  if (!wz4_parse(data, size, &re, &e)) abort(); /* parsing is deterministic */
  check_same(re, data, size);
  wz4_free(re);
  check_links(doc);
  check_json(doc, data, size);
  check_structure(doc, data, size);
  check_edit(doc, data, size);
  wz4_free(doc);
  return 0;
}
