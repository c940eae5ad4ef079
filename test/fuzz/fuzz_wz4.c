/*
** fuzz_wz4.c: libFuzzer harness for the werkkzeug4 codec.
**
** For every input: parse (a refusal must carry CODEC_E_FORMAT, _LIMIT or
** _MEMORY).  When it parses, the model must serialize to the
** very same bytes, a deep clone must too, the serialized bytes must parse
** again, and the link graph of every page must only name existing ops.
** Any inconsistency calls abort() so libFuzzer records the input.
**
** Build: make build-fuzz/fuzz/fuzz_wz4
** Run:   build-fuzz/fuzz/fuzz_wz4 -max_total_time=60 /tmp/wz4-fuzz-corpus
** (seed the corpus directory with real .wz4 files, outside the repo).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "wz4.h"

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
      if (!j) abort();
      free(j);
    }
  check_same(doc, data, size);
}

/* Edits the first op (name from the input's last bytes when they are
** WTF-8, a move, bypass, params, strings), then checks that the edited
** model serializes, re-parses, and serializes to the same bytes again. */
static void check_edit(wz4_doc *doc, const uint8_t *data, size_t size) {
  wz4_node *nd = NULL;
  uint32_t p;
  unsigned char *out = NULL, *out2 = NULL;
  size_t on = 0, on2 = 0, take = size < 16 ? size : 16;
  wz4_doc *re = NULL;
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
  if (!wz4_serialize(doc, &out, &on, &e)) abort();
  if (!wz4_parse(out, on, &re, &e)) abort();
  if (!wz4_serialize(re, &out2, &on2, &e)) abort();
  if (on != on2 || memcmp(out, out2, on) != 0) abort();
  check_links(re);
  wz4_free(re);
  free(out);
  free(out2);
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
  check_edit(doc, data, size);
  wz4_free(doc);
  return 0;
}
