/*
** test_wz4.c: unit tests of the werkkzeug4 codec (codecs/wz4.[ch]) and the
** UTF-16 <-> WTF-8 conversion (codecs/utf16.[ch]).
**
** - utf16: round trips of constructed unit sequences with unpaired
**   surrogates; rejection of malformed WTF-8.
** - a version sweep: documents built byte by byte here (independently of
**   the codec's writer, from ../shared/formats/wz4.md) for document
**   versions 11 and 12, every options version 0..16 and every op version
**   0..12, with nested link defaults; each must parse to the expected
**   values and serialize back byte-identically.
** - strings with unpaired surrogates, in the file and set through the API.
** - edits (rename, move, bypass, params, strings) and the link graph
**   following a move; a constructed page with comment and hidden ops.
** - malformed input: nonzero padding, too deep nesting, huge counts.
** - the real corpus ($LEVELSQL_CORPUS/wz4, skipped when unset): every file
**   loads and round-trips byte-identically (also through wz4_clone);
**   truncations at many offsets and bit flips give errors, never a crash,
**   and whatever still parses round-trips.
*/
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "check.h"
#include "fileutil.h"
#include "common/utf16.h"
#include "wz4/wz4.h"

/* ------------------------------------------------------------------------ */
/* a tiny independent encoder for constructed files                          */
/* ------------------------------------------------------------------------ */

/* Appends a string of UTF-16 units with its count and zero padding. */
static void tb_str16(byte_writer *w, const uint16_t *u, size_t n) {
  size_t i;
  byte_writer_u32(w, (uint32_t)n);
  for (i = 0; i < n; i++) byte_writer_u16(w, u[i]);
  if (n & 1) byte_writer_u16(w, 0);
}

/* Appends an ASCII string as UTF-16LE. */
static void tb_str(byte_writer *w, const char *s) {
  uint16_t u[256];
  size_t i, n = strlen(s);
  for (i = 0; i < n && i < 256; i++) u[i] = (unsigned char)s[i];
  tb_str16(w, u, n);
}

static void tb_hdr(byte_writer *w, uint32_t id, uint32_t v) {
  byte_writer_u32(w, WZ4_TAG_OPEN);
  byte_writer_u32(w, id);
  byte_writer_u32(w, v);
}

/* An op record of version v as the notes describe it.  When nest > 0,
** link 0 (v >= 4) carries a default op (version 12) nested nest-1 deeper. */
static void tb_op(byte_writer *w, uint32_t v, int nest) {
  uint32_t i;
  tb_hdr(w, WZ4_ID_OP, v);
  if (v == 0) return;
  tb_str(w, "nm");
  tb_str(w, "Flat");
  tb_str(w, "GenBitmap");
  if (v >= 12) byte_writer_u32(w, 0);
  byte_writer_u32(w, 2); /* params */
  byte_writer_u32(w, 0x0808);
  byte_writer_u32(w, 0xff000000u);
  byte_writer_u32(w, 1); /* strings */
  tb_str(w, "str");
  if (v >= 3) {
    byte_writer_u32(w, 1); /* links */
    tb_str(w, "target");
    byte_writer_u32(w, 2);
    if (v >= 4) {
      byte_writer_u32(w, nest > 0 ? 1 : 0);
      if (nest > 0) tb_op(w, 12, nest - 1);
    }
  }
  if (v >= 5) {
    byte_writer_u32(w, 2); /* words per entry */
    byte_writer_u32(w, 3); /* entries */
    for (i = 0; i < 6; i++) byte_writer_u32(w, 100 + i);
  }
  if (v == 6) {
    byte_writer_u32(w, 1);
    byte_writer_u32(w, 0);
  }
  if (v >= 8) {
    byte_writer_u32(w, 1);
    tb_str(w, "x=1;");
  }
  if (v >= 9) {
    byte_writer_u32(w, 1);
    for (i = 0; i < 4; i++) byte_writer_u32(w, 7 + i);
  }
  if (v >= 10) tb_str(w, "sp");
  if (v >= 11) byte_writer_u32(w, WZ4_TAG_CLOSE);
}

/* An options chunk of version v. */
static void tb_options(byte_writer *w, uint32_t v) {
  uint32_t i;
  tb_hdr(w, WZ4_ID_OPTIONS, v);
  if (v == 0) return;
  tb_str(w, "c:\\path");
  if (v >= 2) tb_str(w, "Project");
  if (v >= 11) {
    byte_writer_u32(w, 11);
    byte_writer_u32(w, 12);
  }
  if (v >= 3) byte_writer_u32(w, 1);
  if (v >= 4) byte_writer_u32(w, 2);
  if (v >= 5) {
    byte_writer_u32(w, 0x10000);
    tb_str(w, "music.ogg");
  }
  if (v >= 10) byte_writer_u32(w, 3);
  if (v >= 9) byte_writer_u32(w, 32);
  if (v >= 6) {
    byte_writer_u32(w, 800);
    byte_writer_u32(w, 600);
  }
  if (v >= 7) tb_str(w, "pg");
  if (v >= 8) tb_str(w, "a.pak;b.pak");
  if (v >= 12)
    for (i = 0; i < 128; i++) byte_writer_u32(w, 0x1000 + i);
  if (v >= 13) {
    byte_writer_u32(w, 44100);
    byte_writer_u32(w, 1);
    byte_writer_u32(w, 1);
    byte_writer_u32(w, 16);
    byte_writer_u32(w, 0x42f00000u); /* 120.0f */
  }
  if (v >= 14) byte_writer_u32(w, 5);
  if (v >= 15) {
    byte_writer_u32(w, 1);
    tb_str(w, "code");
    tb_str(w, "store");
    byte_writer_u32(w, 0x42f00000u);
    byte_writer_u32(w, 64);
    byte_writer_u32(w, 1);
    if (v >= 16) tb_str(w, "song");
  }
  byte_writer_u32(w, WZ4_TAG_CLOSE);
}

/* A one-page document: stacked op A at (0,0) 3x1, stacked op B at (1,1)
** 3x1 with bypass, one tree op; one import, one include, one page name. */
static void tb_doc(byte_writer *w, uint32_t docv, uint32_t optv, uint32_t opv, int nest) {
  tb_hdr(w, WZ4_ID_DOC, docv);
  if (docv >= 12) tb_options(w, optv);
  byte_writer_u32(w, 1);     /* pages */
  byte_writer_u32(w, 2);     /* stacked */
  byte_writer_u32(w, 1);     /* tree */
  byte_writer_u32(w, 0);     /* tree level */
  byte_writer_u32(w, 0);     /* tree flags */
  byte_writer_u32(w, 1);     /* write protect */
  byte_writer_u32(w, 1);     /* imports */
  if (docv < 12) tb_options(w, optv);
  tb_str(w, "pg");
  byte_writer_u32(w, 0);
  byte_writer_u32(w, 5);
  byte_writer_u32(w, 6);
  byte_writer_u32(w, 0); byte_writer_u32(w, 0); byte_writer_u32(w, 3); byte_writer_u32(w, 1);
  byte_writer_u32(w, 0); byte_writer_u32(w, 0);
  tb_op(w, opv, nest);
  byte_writer_u32(w, 1); byte_writer_u32(w, 1); byte_writer_u32(w, 3); byte_writer_u32(w, 1);
  byte_writer_u32(w, 1); byte_writer_u32(w, 0);
  tb_op(w, opv, nest);
  byte_writer_u32(w, 2);     /* tree level */
  byte_writer_u32(w, 9);     /* tree flags */
  tb_op(w, opv, 0);
  tb_str(w, "imp1");
  tb_str(w, "imp2");
  byte_writer_u32(w, 1);
  byte_writer_u32(w, 1);
  tb_str(w, "inc.wz4i");
  byte_writer_u32(w, 1);
  tb_str(w, "pg");
}

/* Parses, re-serializes and compares with the input.  Returns the
** document (caller frees) or NULL, counting one CHECK. */
static wz4_doc *parse_roundtrip(const unsigned char *d, size_t n, const char *label) {
  wz4_doc *doc = NULL;
  codec_error e = {0};
  unsigned char *out = NULL;
  size_t on = 0;
  int ok = wz4_parse(d, n, &doc, &e);
  if (!ok) {
    CHECK(ok, "%s: parse: %s", label, e.msg);
    return NULL;
  }
  ok = wz4_serialize(doc, &out, &on, &e);
  CHECK(ok && on == n && memcmp(out, d, n) == 0, "%s: round trip (ok=%d, %zu vs %zu bytes) %s", label, ok,
        on, n, ok ? "" : e.msg);
  free(out);
  return doc;
}

static int str_is(const wz4_str *s, const char *want, size_t len) {
  return s->len == len && memcmp(wz4_str_text(s), want, len) == 0;
}

/* ------------------------------------------------------------------------ */
/* utf16                                                                      */
/* ------------------------------------------------------------------------ */

/* Round-trips a unit sequence through WTF-8 and compares. */
static int utf16_rt(const uint16_t *u, size_t n, const char *want, size_t want_len) {
  unsigned char in[64], *back;
  size_t i, len = 0, units = 0;
  char *s;
  int ok;
  for (i = 0; i < n; i++) le16_store(in + 2 * i, u[i]);
  s = utf16le_to_wtf8(in, n, &len);
  if (!s) return 0;
  ok = !want || (len == want_len && memcmp(s, want, len) == 0);
  back = wtf8_to_utf16le(s, len, &units);
  ok = ok && back && units == n && (n == 0 || memcmp(back, in, 2 * n) == 0);
  free(back);
  free(s);
  return ok;
}

static void test_utf16(void) {
  static const uint16_t a[] = {0x41, 0xD800, 0x42};       /* lone high */
  static const uint16_t b[] = {0xDC00};                   /* lone low */
  static const uint16_t c[] = {0xD83D, 0xDE00};           /* a pair: U+1F600 */
  static const uint16_t d[] = {0xDC00, 0xD800};           /* reversed pair */
  static const uint16_t e[] = {0xD800, 0xD800, 0xDC00};   /* high, then a pair */
  static const uint16_t f[] = {0x0, 0xE9, 0x20AC, 0xDBFF}; /* NUL, é, €, high at end */
  size_t units, bad;
  CHECK(utf16_rt(a, 3, "A\xED\xA0\x80" "B", 5), "lone high surrogate");
  CHECK(utf16_rt(b, 1, "\xED\xB0\x80", 3), "lone low surrogate");
  CHECK(utf16_rt(c, 2, "\xF0\x9F\x98\x80", 4), "surrogate pair -> 4-byte UTF-8");
  CHECK(utf16_rt(d, 2, "\xED\xB0\x80\xED\xA0\x80", 6), "reversed pair stays two lone surrogates");
  CHECK(utf16_rt(e, 3, "\xED\xA0\x80\xF0\x90\x80\x80", 7), "high then pair");
  CHECK(utf16_rt(f, 4, "\0\xC3\xA9\xE2\x82\xAC\xED\xAF\xBF", 9), "NUL, BMP, high at end");
  CHECK(utf16_rt(NULL, 0, "", 0), "empty");
  CHECK(!wtf8_validate("\xED\xA0\x80\xED\xB0\x80", 6, &units, &bad) && bad == 3,
        "a pair written as two 3-byte sequences is not WTF-8 (bad=%zu)", bad);
  CHECK(!wtf8_validate("\xC0\x80", 2, &units, &bad), "overlong NUL rejected");
  CHECK(!wtf8_validate("\xE2\x82", 2, &units, &bad), "truncated sequence rejected");
  CHECK(!wtf8_validate("\xF4\x90\x80\x80", 4, &units, &bad), "above U+10FFFF rejected");
  CHECK(!wtf8_validate("\x80", 1, &units, &bad), "stray continuation rejected");
  CHECK(wtf8_validate("a\xF0\x9F\x98\x80", 5, &units, &bad) && units == 3, "units counted (%zu)", units);
}

/* ------------------------------------------------------------------------ */
/* version sweep                                                             */
/* ------------------------------------------------------------------------ */

/* Checks the fields of the constructed op of version v. */
static int op_as_built(const wz4_op *op, int32_t v, int nest) {
  if (op->version != v) return 0;
  if (v == 0) return op->num_params == 0 && op->name.len == 0;
  if (!str_is(&op->name, "nm", 2) || !str_is(&op->class_name, "Flat", 4) ||
      !str_is(&op->type_name, "GenBitmap", 9))
    return 0;
  if (op->num_params != 2 || op->params[0] != 0x0808 || op->params[1] != 0xff000000u) return 0;
  if (op->num_strings != 1 || !str_is(&op->strings[0], "str", 3)) return 0;
  if (v >= 3 && (op->num_links != 1 || !str_is(&op->links[0].name, "target", 6) || op->links[0].select != 2))
    return 0;
  if (v < 3 && op->num_links != 0) return 0;
  if (v >= 4 && nest > 0 && (!op->links[0].def || !op_as_built(op->links[0].def, 12, nest - 1))) return 0;
  if (v >= 3 && (v < 4 || nest == 0) && op->links[0].def) return 0;
  if (v >= 5 && (op->array_words != 2 || op->array_count != 3 || op->array[5] != 105)) return 0;
  if ((v == 6) != (op->num_anims == 1)) return 0;
  if (v >= 8 && (op->script_show != 1 || !str_is(&op->script, "x=1;", 4))) return 0;
  if (v >= 9 && (op->num_script_paras != 1 || op->script_paras[0].value[3] != 10)) return 0;
  if (v >= 10 && !str_is(&op->script_paras[0].str, "sp", 2)) return 0;
  return 1;
}

/* Checks the fields of the constructed options of version v. */
static int options_as_built(const wz4_options *o, int32_t v) {
  if (o->version != v) return 0;
  if (v == 0) return o->project_path.len == 0;
  if (!str_is(&o->project_path, "c:\\path", 7)) return 0;
  if (v >= 2 && !str_is(&o->project_name, "Project", 7)) return 0;
  if ((v >= 11) != (o->site_id == 12)) return 0;
  if ((v >= 3) != (o->texture_quality == 1)) return 0;
  if (v >= 5 && !str_is(&o->music_file, "music.ogg", 9)) return 0;
  if ((v >= 10) != (o->beat_start == 3)) return 0;
  if ((v >= 9) != (o->beats == 32)) return 0;
  if ((v >= 6) != (o->screen_y == 600)) return 0;
  if (v >= 7 && !str_is(&o->page_name, "pg", 2)) return 0;
  if (v >= 8 && !str_is(&o->packfiles, "a.pak;b.pak", 11)) return 0;
  if ((v >= 12) != (o->palette[127] == 0x1000 + 127)) return 0;
  if ((v >= 13) != (o->num_bpm == 1 && o->bpm[0].bpm == 0x42f00000u)) return 0;
  if ((v >= 14) != (o->dialog_flags == 5)) return 0;
  if ((v >= 15) != (o->num_hidden == 1)) return 0;
  if (v >= 15 && !str_is(&o->hidden[0].store, "store", 5)) return 0;
  if (v >= 16 && !str_is(&o->hidden[0].song, "song", 4)) return 0;
  return 1;
}

static void test_version_sweep(void) {
  uint32_t docv, optv, opv;
  int bad_parse = 0, bad_rt = 0, bad_fields = 0, bad_clone = 0, total = 0;
  for (docv = 11; docv <= 12; docv++)
    for (optv = 0; optv <= 16; optv++)
      for (opv = 0; opv <= 12; opv++) {
        byte_writer w = {0};
        wz4_doc *doc = NULL, *cl;
        codec_error e = {0};
        unsigned char *out = NULL;
        size_t on = 0;
        total++;
        tb_doc(&w, docv, optv, opv, 2);
        if (!wz4_parse(w.data, w.size, &doc, &e)) {
          if (bad_parse++ < 3) printf("  sweep doc %u opt %u op %u: %s\n", docv, optv, opv, e.msg);
          byte_writer_free(&w);
          continue;
        }
        if (!wz4_serialize(doc, &out, &on, &e) || on != w.size || memcmp(out, w.data, on) != 0) bad_rt++;
        free(out);
        {
          const wz4_page *pg = &doc->pages[0];
          int ok = doc->version == (int32_t)docv && options_as_built(&doc->options, (int32_t)optv) &&
                   doc->num_pages == 1 && pg->num_stack == 2 && pg->num_nodes == 3 && pg->write_protect == 1 &&
                   pg->scroll_x == 5 && pg->scroll_y == 6 && str_is(&pg->name, "pg", 2) &&
                   pg->nodes[1].pos_x == 1 && pg->nodes[1].pos_y == 1 && pg->nodes[1].bypass == 1 &&
                   pg->nodes[2].tree_level == 2 && pg->nodes[2].tree_flags == 9 &&
                   op_as_built(&pg->nodes[0].op, (int32_t)opv, 2) && op_as_built(&pg->nodes[2].op, (int32_t)opv, 0) &&
                   doc->num_imports == 1 && str_is(&doc->imports[0].second, "imp2", 4) &&
                   doc->num_includes == 1 && str_is(&doc->includes[0], "inc.wz4i", 8) &&
                   doc->num_page_names == 1 && doc->trailer_len == 0;
          if (!ok && bad_fields++ < 3) printf("  sweep doc %u opt %u op %u: fields differ\n", docv, optv, opv);
        }
        cl = wz4_clone(doc);
        out = NULL;
        if (!cl || !wz4_serialize(cl, &out, &on, &e) || on != w.size || memcmp(out, w.data, on) != 0) bad_clone++;
        free(out);
        wz4_free(cl);
        wz4_free(doc);
        byte_writer_free(&w);
      }
  CHECK(bad_parse == 0, "version sweep: %d of %d documents failed to parse", bad_parse, total);
  CHECK(bad_rt == 0, "version sweep: %d of %d documents did not round-trip", bad_rt, total);
  CHECK(bad_fields == 0, "version sweep: %d of %d documents read wrong values", bad_fields, total);
  CHECK(bad_clone == 0, "version sweep: %d of %d clones did not serialize identically", bad_clone, total);
  CHECK(total == 442, "version sweep covered %d combinations", total);
}

/* ------------------------------------------------------------------------ */
/* strings with unpaired surrogates                                          */
/* ------------------------------------------------------------------------ */

static void test_surrogates(void) {
  static const uint16_t name[] = {0x41, 0xD800, 0x42};
  static const uint16_t s0[] = {0xDC00, 0xD800};
  static const uint16_t s1[] = {0xD83D, 0xDE00, 0xDBFF};
  byte_writer w = {0};
  wz4_doc *doc;
  codec_error e = {0};
  unsigned char *out = NULL;
  size_t on = 0;
  wz4_op *op;
  const char *set[2];
  size_t lens[2];

  /* doc v12, options v16, one page, one op whose name/strings are broken UTF-16 */
  tb_hdr(&w, WZ4_ID_DOC, 12);
  tb_options(&w, 16);
  byte_writer_u32(&w, 1);
  byte_writer_u32(&w, 1); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0);
  byte_writer_u32(&w, 0);
  byte_writer_u32(&w, 0); /* imports */
  tb_str16(&w, name, 3);  /* page name, odd length: padded */
  byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0);
  byte_writer_u32(&w, 2); byte_writer_u32(&w, 3); byte_writer_u32(&w, 3); byte_writer_u32(&w, 1);
  byte_writer_u32(&w, 0); byte_writer_u32(&w, 0);
  tb_hdr(&w, WZ4_ID_OP, 12);
  tb_str16(&w, name, 3);
  tb_str(&w, "Text");
  tb_str(&w, "GenBitmap");
  byte_writer_u32(&w, 0);
  byte_writer_u32(&w, 0);
  byte_writer_u32(&w, 2);
  tb_str16(&w, s0, 2);
  tb_str16(&w, s1, 3);
  byte_writer_u32(&w, 0); /* links */
  byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); /* array */
  byte_writer_u32(&w, 0); tb_str(&w, "");          /* script */
  byte_writer_u32(&w, 0);                          /* script paras */
  byte_writer_u32(&w, WZ4_TAG_CLOSE);
  byte_writer_u32(&w, 0); /* includes */
  byte_writer_u32(&w, 1);
  tb_str16(&w, name, 3);

  doc = parse_roundtrip(w.data, w.size, "surrogates");
  if (!doc) {
    byte_writer_free(&w);
    return;
  }
  op = &doc->pages[0].nodes[0].op;
  CHECK(str_is(&op->name, "A\xED\xA0\x80" "B", 5), "lone high surrogate read as WTF-8");
  CHECK(str_is(&op->strings[0], "\xED\xB0\x80\xED\xA0\x80", 6), "reversed pair read as two lone surrogates");
  CHECK(str_is(&op->strings[1], "\xF0\x9F\x98\x80\xED\xAF\xBF", 7), "pair + trailing high surrogate");

  /* set strings with lone surrogates through the API; a pair in 3-byte form is refused */
  set[0] = "\xED\xB0\x80x";
  lens[0] = 4;
  set[1] = "\xED\xA0\x80\xED\xB0\x80";
  lens[1] = 6;
  CHECK(!wz4_op_set_strings(op, set, lens, 2, &e), "non-WTF-8 string refused");
  CHECK(strstr(e.msg, "strings[1]") != NULL, "error names the string: %s", e.msg);
  CHECK(op->num_strings == 2 && str_is(&op->strings[0], "\xED\xB0\x80\xED\xA0\x80", 6), "refused edit left strings");
  CHECK(wz4_op_set_strings(op, set, lens, 1, &e), "lone low surrogate accepted: %s", e.msg);
  CHECK(wz4_str_set(&op->name, "\xC3\xA9t\xC3\xA9\xED\xA0\x80", 8, &e), "rename: %s", e.msg);
  CHECK(wz4_serialize(doc, &out, &on, &e), "serialize after string edits: %s", e.msg);
  wz4_free(doc);
  doc = NULL;
  if (out && wz4_parse(out, on, &doc, &e)) {
    op = &doc->pages[0].nodes[0].op;
    CHECK(op->num_strings == 1 && str_is(&op->strings[0], "\xED\xB0\x80x", 4), "lone low surrogate re-read");
    CHECK(str_is(&op->name, "\xC3\xA9t\xC3\xA9\xED\xA0\x80", 8), "renamed op re-read");
  } else {
    CHECK(0, "re-parse after string edits: %s", e.msg);
  }
  wz4_free(doc);
  free(out);
  byte_writer_free(&w);
}

/* ------------------------------------------------------------------------ */
/* links on a constructed page                                               */
/* ------------------------------------------------------------------------ */

/* Counts edges of a kind from -> to. */
static int has_edge(const wz4_edge *ed, size_t n, enum wz4_link_kind kind, int64_t from, uint32_t to) {
  size_t i;
  int c = 0;
  for (i = 0; i < n; i++)
    if (ed[i].kind == kind && ed[i].from_op == from && ed[i].to_op == to) c++;
  return c;
}

/* Builds a page of stacked ops: {x, y, w, h, hide, class, name, link}. */
typedef struct op_spec {
  int32_t x, y, w, h;
  uint32_t hide;
  const char *cls, *name, *link;
} op_spec;

static void tb_page_doc(byte_writer *w, const op_spec *ops, uint32_t n) {
  uint32_t i;
  tb_hdr(w, WZ4_ID_DOC, 12);
  tb_options(w, 10);
  byte_writer_u32(w, 1);
  byte_writer_u32(w, n); byte_writer_u32(w, 0); byte_writer_u32(w, 0); byte_writer_u32(w, 0);
  byte_writer_u32(w, 0);
  byte_writer_u32(w, 0);
  tb_str(w, "p");
  byte_writer_u32(w, 0); byte_writer_u32(w, 0); byte_writer_u32(w, 0);
  for (i = 0; i < n; i++) {
    byte_writer_u32(w, (uint32_t)ops[i].x); byte_writer_u32(w, (uint32_t)ops[i].y);
    byte_writer_u32(w, (uint32_t)ops[i].w); byte_writer_u32(w, (uint32_t)ops[i].h);
    byte_writer_u32(w, 0); byte_writer_u32(w, ops[i].hide);
    tb_hdr(w, WZ4_ID_OP, 12);
    tb_str(w, ops[i].name);
    tb_str(w, ops[i].cls);
    tb_str(w, "AnyType");
    byte_writer_u32(w, 0);
    byte_writer_u32(w, 0);
    byte_writer_u32(w, 0);
    if (ops[i].link) {
      byte_writer_u32(w, 1);
      tb_str(w, ops[i].link);
      byte_writer_u32(w, 0);
      byte_writer_u32(w, 0);
    } else {
      byte_writer_u32(w, 0);
    }
    byte_writer_u32(w, 0); byte_writer_u32(w, 0);
    byte_writer_u32(w, 0); tb_str(w, "");
    byte_writer_u32(w, 0);
    byte_writer_u32(w, WZ4_TAG_CLOSE);
  }
  byte_writer_u32(w, 0);
  byte_writer_u32(w, 1);
  tb_str(w, "p");
}

static void test_links_constructed(void) {
  static const op_spec ops[] = {
      {0, 0, 3, 1, 0, "Flat", "", NULL},       /* 0 */
      {3, 0, 3, 1, 0, "Flat", "", NULL},       /* 1 */
      {0, 1, 6, 1, 0, "Add", "sum", NULL},     /* 2: inputs 0, 1 */
      {6, 0, 3, 1, 1, "Flat", "", NULL},       /* 3: hidden, touches nothing below */
      {5, 2, 3, 1, 0, "Blur", "", NULL},       /* 4: input 2 (x 5 < 6) */
      {0, 2, 3, 1, 0, "Comment", "", NULL},    /* 5: comment: no edges */
      {0, 3, 3, 1, 0, "Load", "", "sum"},      /* 6: input none (5 is comment), name -> 2 */
      {6, 3, 3, 1, 0, "Load", "", "nowhere"},  /* 7: input 4 (hidden? no), dangling name */
      {8, 1, 3, 2, 0, "Flat", "", NULL},       /* 8: input 3 is hidden -> dropped */
      {9, 3, 2, 1, 0, "Blur", "", NULL},       /* 9: inputs 8 (ends at 3) */
  };
  byte_writer w = {0};
  wz4_doc *doc;
  wz4_edge *ed = NULL;
  size_t n = 0;
  codec_error e = {0};
  tb_page_doc(&w, ops, 10);
  doc = parse_roundtrip(w.data, w.size, "links page");
  if (!doc) {
    byte_writer_free(&w);
    return;
  }
  CHECK(wz4_page_links(doc, 0, &ed, &n, &e), "links: %s", e.msg);
  CHECK(has_edge(ed, n, WZ4_LINK_STACK, 0, 2) == 1 && has_edge(ed, n, WZ4_LINK_STACK, 1, 2) == 1,
        "two inputs stacked under one wide op");
  CHECK(has_edge(ed, n, WZ4_LINK_STACK, 2, 4) == 1, "partial x overlap connects");
  CHECK(has_edge(ed, n, WZ4_LINK_STACK, 3, 8) == 0, "hidden input dropped");
  CHECK(has_edge(ed, n, WZ4_LINK_STACK, 2, 5) == 0 && has_edge(ed, n, WZ4_LINK_STACK, 5, 6) == 0,
        "comment op has no edges");
  CHECK(has_edge(ed, n, WZ4_LINK_STACK, 4, 7) == 1, "op 4 feeds op 7");
  CHECK(has_edge(ed, n, WZ4_LINK_STACK, 8, 9) == 1, "taller op feeds the op below its bottom edge");
  CHECK(has_edge(ed, n, WZ4_LINK_NAME, 2, 6) == 1, "name link to the op named 'sum'");
  CHECK(has_edge(ed, n, WZ4_LINK_NAME, -1, 7) == 1, "dangling name link reported with from_op -1");
  CHECK(n == 8, "exactly 8 edges (got %zu)", n);
  CHECK(n >= 2 && ed[0].to_op == 2 && ed[0].from_op == 0 && ed[1].from_op == 1, "edges ordered by to_op, then x");
  free(ed);
  ed = NULL;
  CHECK(!wz4_page_links(doc, 1, &ed, &n, &e) && ed == NULL, "links of a missing page: error");
  wz4_free(doc);
  byte_writer_free(&w);

  /* regression (found while fuzzing the harness's edits): extreme and
  ** negative coordinates must not overflow (UBSan build) and still connect */
  {
    static const op_spec ext[] = {
        {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, 0, "Flat", "", NULL}, /* 0: end overflows int32 */
        {INT32_MAX, -1, INT32_MAX, INT32_MIN, 0, "Flat", "", NULL},        /* 1: negative height */
        {INT32_MIN, -2, INT32_MAX, 1, 0, "Flat", "", NULL},                /* 2: ends at -1 */
        {-5, -1, 10, 1, 0, "Blur", "", NULL},                              /* 3: input 2 */
        {INT32_MAX - 1, INT32_MIN, 2, 0, 0, "Flat", "", NULL},            /* 4: zero height */
    };
    memset(&w, 0, sizeof w);
    tb_page_doc(&w, ext, 5);
    doc = parse_roundtrip(w.data, w.size, "extreme coordinates");
    if (doc) {
      CHECK(wz4_page_links(doc, 0, &ed, &n, &e), "links: %s", e.msg);
      CHECK(n == 1 && has_edge(ed, n, WZ4_LINK_STACK, 2, 3) == 1, "one edge at negative coordinates (got %zu)", n);
      free(ed);
      ed = NULL;
    }
    wz4_free(doc);
    byte_writer_free(&w);
  }
}

/* A parsed document of one page of the ops (NULL after a failed check). */
static wz4_doc *page_doc(const op_spec *ops, uint32_t n, const char *label) {
  byte_writer w = {0};
  wz4_doc *doc;
  tb_page_doc(&w, ops, n);
  doc = parse_roundtrip(w.data, w.size, label);
  byte_writer_free(&w);
  return doc;
}

/* The page of the memo tests: a stack of three ops, the last also naming
** the second in a link slot. */
static const op_spec memo_ops[] = {
    {0, 0, 3, 1, 0, "Flat", "", NULL},   /* 0 */
    {0, 1, 3, 1, 0, "Add", "sum", NULL}, /* 1: input 0 */
    {0, 2, 3, 1, 0, "Load", "", "sum"},  /* 2: input 1, name -> 1 */
};

/* The graph memo and the edits that make it stale: wz4_node_place,
** wz4_graph_forget; and the footprint following an edit. */
static void test_graph_memo(void) {
  byte_writer w = {0};
  wz4_doc *doc;
  wz4_graph *g = wz4_graph_new();
  const wz4_edge *ed = NULL, *again = NULL;
  wz4_node to;
  size_t n = 0, n2 = 0, bytes;
  codec_error e = {0};
  tb_page_doc(&w, memo_ops, 3);
  doc = parse_roundtrip(w.data, w.size, "graph memo page");
  CHECK(g != NULL, "a new memo");
  if (!doc || !g) {
    wz4_graph_free(g);
    wz4_free(doc);
    byte_writer_free(&w);
    return;
  }
  CHECK(wz4_graph_page(g, doc, 0, &ed, &n, &e) && n == 3, "memo: 3 edges (got %zu): %s", n, e.msg);
  CHECK(wz4_graph_page(g, doc, 0, &again, &n2, &e) && again == ed && n2 == n, "memo: the same list when asked again");
  CHECK(!wz4_graph_page(g, doc, 1, &again, &n2, &e) && again == NULL && n2 == 0, "memo: a missing page is an error");
  to = doc->pages[0].nodes[0];
  to.bypass = 1;
  CHECK(wz4_node_place(&doc->pages[0].nodes[0], &to) == 0 && doc->pages[0].nodes[0].bypass == 1,
        "bypass changes no stack link");
  to.pos_x = 10;
  CHECK(wz4_node_place(&doc->pages[0].nodes[0], &to) == 1 && doc->pages[0].nodes[0].pos_x == 10, "a move may");
  wz4_graph_forget(g, 0);
  CHECK(wz4_graph_page(g, doc, 0, &ed, &n, &e) && n == 2 && has_edge(ed, n, WZ4_LINK_STACK, 0, 1) == 0,
        "after forgetting the page, the moved op feeds nothing (%zu edges)", n);
  bytes = wz4_footprint(doc);
  CHECK(wz4_str_set(&doc->pages[0].nodes[1].op.name, "renamed", 7, &e), "rename: %s", e.msg);
  CHECK(wz4_footprint(doc) == bytes + 4, "the footprint follows the longer name");
  wz4_graph_forget(g, WZ4_GRAPH_ALL);
  CHECK(wz4_graph_page(g, doc, 0, &ed, &n, &e) && has_edge(ed, n, WZ4_LINK_NAME, -1, 2) == 1,
        "after forgetting every page, the renamed target's link dangles");
  wz4_graph_free(g);
  wz4_graph_free(NULL);
  wz4_free(doc);
  byte_writer_free(&w);
}

/* The document's own memo (wz4_doc_page_edges) and the document-level
** edits that keep it right: a place that moves an op, a rename through
** wz4_op_edit_apply (rename_links: the Load op's slot follows), an insert,
** an edit that places a node; and the tempo in beats per minute. */
static void test_doc_memo(void) {
  wz4_doc *doc = page_doc(memo_ops, 3, "doc memo page"), *cl;
  const wz4_edge *ed = NULL;
  wz4_node to;
  wz4_op_edit rename = {.set_name = 1, .name = "total", .name_len = 5, .rename_links = 1}, place = {0};
  uint32_t index = 0;
  size_t n = 0;
  codec_error e = {0};
  if (!doc) return;
  CHECK(doc->graph != NULL && wz4_doc_page_edges(doc, 0, &ed, &n, &e) && n == 3, "a parsed document's memo: 3 edges");
  to = doc->pages[0].nodes[0];
  to.pos_x = 10;
  wz4_doc_node_place(doc, 0, &doc->pages[0].nodes[0], &to);
  CHECK(wz4_doc_page_edges(doc, 0, &ed, &n, &e) && n == 2 && has_edge(ed, n, WZ4_LINK_STACK, 0, 1) == 0,
        "a place that moves the op: the memo forgot the page (%zu edges)", n);
  CHECK(wz4_op_edit_apply(doc, &doc->pages[0].nodes[1].op, &rename, &e), "rename: %s", e.msg);
  CHECK(wz4_doc_page_edges(doc, 0, &ed, &n, &e) && has_edge(ed, n, WZ4_LINK_NAME, 1, 2) == 1 &&
            !strcmp(wz4_str_text(&doc->pages[0].nodes[2].op.links[0].name), "total"),
        "renamed with rename_links: the Load op's slot follows, its name link holds");
  CHECK(wz4_node_insert(doc, 0, "Flat", 4, "GenBitmap", 9, &index, &e) && index == 3, "insert: %s", e.msg);
  CHECK(wz4_doc_page_edges(doc, 0, &ed, &n, &e) && n == 3 && has_edge(ed, n, WZ4_LINK_STACK, 3, 1) == 1,
        "after an insert the memo sees the new op at (0, 0) feeding op 1 (%zu edges)", n);
  to.pos_x = 0;
  place.node = &doc->pages[0].nodes[0];
  place.place = &to;
  CHECK(wz4_op_edit_apply(doc, &doc->pages[0].nodes[0].op, &place, &e) && wz4_doc_page_edges(doc, 0, &ed, &n, &e) &&
            n == 4 && has_edge(ed, n, WZ4_LINK_STACK, 0, 1) == 1,
        "an edit that places op 0 back: it feeds op 1 again (%zu edges)", n);
  cl = wz4_clone(doc);
  CHECK(cl && cl->graph && cl->graph != doc->graph && wz4_doc_page_edges(cl, 0, &ed, &n, &e) && n == 4,
        "a clone has a memo of its own");
  wz4_free(cl);
  CHECK(wz4_options_set_bpm(&doc->options, 140.0, &e) && doc->options.beats_per_second == 152917 &&
            fabs(wz4_options_bpm(&doc->options) - 140.0) < 0.001,
        "140 bpm is 152917 in 16.16 beats per second");
  CHECK(!wz4_options_set_bpm(&doc->options, -1.0, &e) && strstr(e.msg, "beats per minute") &&
            doc->options.beats_per_second == 152917,
        "a negative tempo is refused, the old one kept: %s", e.msg);
  while (doc->num_pages) CHECK(wz4_page_remove(doc, 0, &e), "page removed: %s", e.msg);
  CHECK(!wz4_node_insert(doc, 0, "Flat", 4, "GenBitmap", 9, &index, &e) && strstr(e.msg, "no pages"),
        "no op goes into a project without pages: %s", e.msg);
  wz4_free(doc);
}

/* ------------------------------------------------------------------------ */
/* malformed constructed input                                               */
/* ------------------------------------------------------------------------ */

static void test_malformed(void) {
  byte_writer w = {0};
  wz4_doc *doc = NULL;
  codec_error e = {0};
  size_t pos;
  int i;

  /* nonzero padding after an odd-length string */
  tb_doc(&w, 12, 16, 12, 1);
  CHECK(wz4_sniff(w.data, w.size), "sniff constructed doc");
  /* find the first odd string: "str" (3 units) -> its padding */
  for (pos = 0; pos + 10 < w.size; pos += 4)
    if (le32_load(w.data + pos) == 3 && w.data[pos + 4] == 's' && w.data[pos + 6] == 't') break;
  CHECK(pos + 10 < w.size, "found the odd-length string");
  if (pos + 10 < w.size) {
    w.data[pos + 10] = 1;
    CHECK(!wz4_parse(w.data, w.size, &doc, &e) && strstr(e.msg, "padding"), "nonzero padding rejected: %s",
          e.msg);
  }
  byte_writer_free(&w);

  /* a trailer is kept and written back */
  tb_doc(&w, 11, 10, 12, 0);
  byte_writer_u32(&w, 0xdeadbeef);
  doc = parse_roundtrip(w.data, w.size, "trailer");
  CHECK(doc && doc->trailer_len == 4, "trailer kept");
  wz4_free(doc);
  doc = NULL;
  byte_writer_free(&w);

  /* nesting deeper than WZ4_MAX_NESTING; exactly the limit is fine */
  tb_doc(&w, 12, 16, 12, WZ4_MAX_NESTING);
  doc = parse_roundtrip(w.data, w.size, "nesting at the limit");
  wz4_free(doc);
  doc = NULL;
  byte_writer_free(&w);
  tb_doc(&w, 12, 16, 12, WZ4_MAX_NESTING + 1);
  CHECK(!wz4_parse(w.data, w.size, &doc, &e) && strstr(e.msg, "nested"), "too deep nesting rejected: %s", e.msg);
  byte_writer_free(&w);

  /* huge counts fail fast, naming page and op */
  tb_doc(&w, 12, 16, 12, 0);
  for (pos = 0; pos + 8 < w.size; pos += 4)
    if (le32_load(w.data + pos) == 2 && le32_load(w.data + pos + 4) == 0x0808) break;
  w.data[pos + 3] = 0x7f; /* parameter word count of op 0 */
  CHECK(!wz4_parse(w.data, w.size, &doc, &e) && strstr(e.msg, "page 0 op 0") && strstr(e.msg, "byte offset"),
        "huge param count rejected: %s", e.msg);
  byte_writer_free(&w);

  /* wrong versions and ids */
  for (i = 0; i < 4; i++) {
    static const uint32_t vers[4] = {10, 13, 0, 0xffffffffu};
    tb_doc(&w, 12, 16, 12, 0);
    le32_store(w.data + 8, vers[i]);
    CHECK(!wz4_sniff(w.data, w.size), "sniff refuses version %u", vers[i]);
    CHECK(!wz4_parse(w.data, w.size, &doc, &e) && strstr(e.msg, "version"), "doc version %u rejected: %s",
          vers[i], e.msg);
    byte_writer_free(&w);
  }
  tb_doc(&w, 12, 16, 12, 0);
  le32_store(w.data + 20, 17); /* options version */
  CHECK(!wz4_parse(w.data, w.size, &doc, &e) && strstr(e.msg, "options"), "options v17 rejected: %s", e.msg);
  byte_writer_free(&w);
  CHECK(!wz4_parse(NULL, 0, &doc, &e), "empty input rejected");
  CHECK(!wz4_sniff((const unsigned char *)"<<<<", 4), "short sniff");
}

/* ------------------------------------------------------------------------ */
/* the real corpus                                                           */
/* ------------------------------------------------------------------------ */

/* Finds the first stack edge of the page; returns 0 if none. */
static int first_stack_edge(const wz4_doc *doc, uint32_t page, wz4_edge *out) {
  wz4_edge *ed = NULL;
  size_t n = 0, i;
  codec_error e;
  int found = 0;
  if (!wz4_page_links(doc, page, &ed, &n, &e)) return 0;
  for (i = 0; i < n && !found; i++)
    if (ed[i].kind == WZ4_LINK_STACK) {
      *out = ed[i];
      found = 1;
    }
  free(ed);
  return found;
}

static int edge_count(const wz4_doc *doc, uint32_t page, int64_t from, uint32_t to) {
  wz4_edge *ed = NULL;
  size_t n = 0;
  codec_error e;
  int c;
  if (!wz4_page_links(doc, page, &ed, &n, &e)) return -1;
  c = has_edge(ed, n, WZ4_LINK_STACK, from, to);
  free(ed);
  return c;
}

/* Edits one op of a real file and checks the re-read and the graph. */
static void test_edits(const wz4_doc *orig, const char *label) {
  wz4_doc *doc = wz4_clone(orig), *re = NULL;
  wz4_edge edge;
  wz4_node *a, *b;
  codec_error e = {0};
  unsigned char *out = NULL;
  size_t on = 0;
  uint32_t page;
  int32_t old_y;
  static const uint32_t params[3] = {1, 0xffffffffu, 0x3f800000u};
  const char *strs[1] = {"h\xC3\xA9llo"};
  size_t lens[1] = {6};
  CHECK(doc != NULL, "%s: clone", label);
  if (!doc) return;
  memset(&edge, 0, sizeof edge);
  for (page = 0; page < doc->num_pages; page++)
    if (first_stack_edge(doc, page, &edge)) break;
  CHECK(page < doc->num_pages, "%s: some page has a stack edge", label);
  if (page == doc->num_pages) {
    wz4_free(doc);
    return;
  }
  a = wz4_node_at(doc, page, (uint32_t)edge.from_op);
  b = wz4_node_at(doc, page, edge.to_op);
  /* move b far down: the edge goes; move it back: it returns */
  old_y = b->pos_y;
  b->pos_y = 5000;
  CHECK(edge_count(doc, page, edge.from_op, edge.to_op) == 0, "%s: edge gone after move", label);
  b->pos_y = old_y;
  CHECK(edge_count(doc, page, edge.from_op, edge.to_op) == 1, "%s: edge back after move back", label);
  /* move a to the free area and b right under it: a new edge at new coordinates */
  a->pos_x = 200;
  a->pos_y = 4000;
  b->pos_x = 201;
  b->pos_y = 4000 + a->height;
  CHECK(edge_count(doc, page, edge.from_op, edge.to_op) == 1, "%s: edge follows both ops", label);
  b->pos_x = 200 + a->width; /* touching at the corner only: no overlap */
  CHECK(edge_count(doc, page, edge.from_op, edge.to_op) == 0, "%s: no edge without x overlap", label);
  b->pos_x = 201;
  a->hide = 1;
  CHECK(edge_count(doc, page, edge.from_op, edge.to_op) == 0, "%s: hidden input dropped", label);
  a->hide = 0;
  /* rename, toggle bypass, width, params, strings */
  CHECK(wz4_str_set(&b->op.name, "renamed \xE2\x9C\x93", 11, &e), "%s: rename: %s", label, e.msg);
  b->bypass = !b->bypass;
  b->width = 7;
  CHECK(wz4_op_set_params(&b->op, params, 3, &e), "%s: params", label);
  CHECK(wz4_op_set_strings(&b->op, strs, lens, 1, &e), "%s: strings", label);
  CHECK(wz4_serialize(doc, &out, &on, &e), "%s: serialize edited: %s", label, e.msg);
  CHECK(out && wz4_parse(out, on, &re, &e), "%s: re-parse edited: %s", label, e.msg);
  if (re) {
    wz4_node *rb = wz4_node_at(re, page, edge.to_op);
    wz4_node *ob = wz4_node_at(orig, page, edge.to_op);
    CHECK(rb && str_is(&rb->op.name, "renamed \xE2\x9C\x93", 11), "%s: name re-read", label);
    CHECK(rb && rb->pos_x == 201 && rb->pos_y == b->pos_y && rb->width == 7, "%s: position re-read", label);
    CHECK(rb && ob && rb->bypass == !ob->bypass, "%s: bypass toggled", label);
    CHECK(rb && rb->op.num_params == 3 && rb->op.params[1] == 0xffffffffu, "%s: params re-read", label);
    CHECK(rb && rb->op.num_strings == 1 && str_is(&rb->op.strings[0], "h\xC3\xA9llo", 6), "%s: strings re-read",
          label);
    CHECK(edge_count(re, page, edge.from_op, edge.to_op) == 1, "%s: re-read graph has the moved edge", label);
    CHECK(re->version == orig->version && re->options.version == orig->options.version,
          "%s: versions kept after edits", label);
  }
  wz4_free(re);
  free(out);
  wz4_free(doc);
}

/* Truncations and bit flips of a real file: errors, never crashes; any
** mutant that still parses must round-trip. */
static void test_damage(const unsigned char *d, size_t n, const char *label) {
  unsigned char *buf = (unsigned char *)malloc(n ? n : 1);
  size_t cut, step = n > 20000 ? 61 : 1, i, flips = 0, parsed = 0, bad_rt = 0, trunc_ok = 0, no_msg = 0;
  uint32_t rng = 12345;
  if (!buf) return;
  for (cut = 0; cut < n; cut += (cut < 1024 ? 1 : step)) {
    wz4_doc *doc = NULL;
    codec_error e = {0};
    if (wz4_parse(d, cut, &doc, &e)) {
      trunc_ok++;
      wz4_free(doc);
    } else if (!strstr(e.msg, "byte offset")) {
      no_msg++;
    }
  }
  CHECK(trunc_ok == 0, "%s: %zu truncated prefixes parsed", label, trunc_ok);
  CHECK(no_msg == 0, "%s: %zu errors without a byte offset", label, no_msg);
  for (i = 0; i < 2000; i++) {
    wz4_doc *doc = NULL;
    codec_error e = {0};
    size_t at;
    rng = rng * 1103515245u + 12345u;
    at = (i < 1024 && i / 8 < n) ? i / 8 : (size_t)(rng >> 8) % n; /* every bit of the first 128 bytes */
    memcpy(buf, d, n);
    buf[at] ^= (unsigned char)(1u << (i < 1024 ? i % 8 : (rng >> 3) % 8));
    flips++;
    if (wz4_parse(buf, n, &doc, &e)) {
      unsigned char *out = NULL;
      size_t on = 0;
      parsed++;
      if (!wz4_serialize(doc, &out, &on, &e) || on != n || memcmp(out, buf, n) != 0) bad_rt++;
      free(out);
      wz4_free(doc);
    }
  }
  CHECK(bad_rt == 0, "%s: %zu of %zu parsed bit-flip mutants did not round-trip", label, bad_rt, parsed);
  printf("  %s: %zu bit flips, %zu still parse (raw words), all round-trip\n", label, flips, parsed);
  free(buf);
}

/* Every op's params and strings rewritten through their JSON forms: the
** file must come out unchanged. */
static void test_json_corpus(const wz4_doc *orig, const unsigned char *d, size_t n, const char *label) {
  wz4_doc *doc = wz4_clone(orig);
  uint32_t p, i, bad = 0, ops = 0;
  unsigned char *out = NULL;
  size_t on = 0;
  codec_error e = {0};
  if (!doc) return;
  for (p = 0; p < doc->num_pages; p++)
    for (i = 0; i < doc->pages[p].num_nodes; i++) {
      wz4_op *op = &doc->pages[p].nodes[i].op;
      size_t jn = 0;
      char *j = wz4_strings_json(op, &jn);
      ops++;
      if (!j || !wz4_op_set_strings_json(op, j, jn, &e)) bad++;
      free(j);
      j = wz4_params_json(op, &jn);
      if (!j || !wz4_op_set_params_json(op, j, jn, &e)) bad++;
      free(j);
      j = wz4_links_json(op, &jn);
      if (!j || j[0] != '[') bad++;
      free(j);
    }
  CHECK(bad == 0, "%s: %u JSON conversions failed", label, bad);
  CHECK(wz4_serialize(doc, &out, &on, &e) && on == n && memcmp(out, d, n) == 0,
        "%s: params/strings through JSON for %u ops: file unchanged", label, ops);
  free(out);
  wz4_free(doc);
}

static void test_corpus(void) {
  const char *dir = check_corpus_dir();
  char path[4096];
  DIR *dh;
  struct dirent *de;
  int files = 0;
  if (!dir) {
    SKIP("LEVELSQL_CORPUS unset: real wz4 files not tested");
    return;
  }
  snprintf(path, sizeof path, "%s/wz4", dir);
  dh = opendir(path);
  if (!dh) {
    SKIP("no %s", path);
    return;
  }
  while ((de = readdir(dh)) != NULL) {
    size_t n = 0, len = strlen(de->d_name), on = 0;
    unsigned char *d, *out = NULL;
    wz4_doc *doc, *cl;
    codec_error e = {0};
    if (len < 5 || strcmp(de->d_name + len - 4, ".wz4") != 0) continue;
    snprintf(path, sizeof path, "%s/wz4/%s", dir, de->d_name);
    d = file_read_all(path, &n);
    CHECK(d != NULL, "read %s", path);
    if (!d) continue;
    files++;
    CHECK(wz4_sniff(d, n), "%s: sniff", de->d_name);
    doc = parse_roundtrip(d, n, de->d_name);
    if (doc) {
      cl = wz4_clone(doc);
      CHECK(cl && wz4_serialize(cl, &out, &on, &e) && on == n && memcmp(out, d, n) == 0,
            "%s: clone round-trips", de->d_name);
      free(out);
      wz4_free(cl);
      if (strcmp(de->d_name, "fr-062_texts_kb.wz4") == 0)
        CHECK(doc->version == 11 && doc->options.version == 10 && doc->num_pages == 1 &&
                  doc->pages[0].num_nodes == 37,
              "fr-062: v11, options v10, 1 page of 37 ops");
      if (strcmp(de->d_name, "teaser1.wz4") == 0)
        CHECK(doc->version == 12 && doc->options.version == 16 && doc->num_pages == 3, "teaser1: v12/16, 3 pages");
      if (strcmp(de->d_name, "teaser2.wz4") == 0)
        CHECK(doc->version == 12 && doc->options.version == 13 && doc->num_pages == 3, "teaser2: v12/13, 3 pages");
      test_json_corpus(doc, d, n, de->d_name);
      test_edits(doc, de->d_name);
      wz4_free(doc);
    }
    test_damage(d, n, de->d_name);
    free(d);
  }
  closedir(dh);
  CHECK(files >= 3, "found %d wz4 corpus files", files);
}

/* Frees what the JSON setters allocated in a stack op. */
static void str_array_free_test(wz4_op *op) {
  uint32_t i;
  for (i = 0; i < op->num_strings; i++) free(op->strings[i].s);
  free(op->strings);
  op->strings = NULL;
  op->num_strings = 0;
}

/* ------------------------------------------------------------------------ */
/* JSON forms of params / strings / links                                    */
/* ------------------------------------------------------------------------ */

static void test_json(void) {
  wz4_op op;
  codec_error e = {0};
  char *j;
  size_t n = 0;
  static const char in_str[] =
      "[\"a\\\"b\\\\c\\n\", \"\\u00e9\\ud83d\\ude00\\ud800x\", \"\xC3\xA9\", \"\"]";
  memset(&op, 0, sizeof op);
  CHECK(wz4_op_set_params_json(&op, " [ 1, -1, 4294967295,-2147483648 ,0] ", 37, &e), "params json: %s", e.msg);
  CHECK(op.num_params == 5 && op.params[1] == 0xffffffffu && op.params[2] == 0xffffffffu &&
            op.params[3] == 0x80000000u && op.params[4] == 0,
        "params values");
  j = wz4_params_json(&op, &n);
  CHECK(j && strcmp(j, "[1,4294967295,4294967295,2147483648,0]") == 0 && n == strlen(j), "params out: %s",
        j ? j : "(null)");
  free(j);
  CHECK(!wz4_op_set_params_json(&op, "[1.5]", 5, &e) && op.num_params == 5, "float param refused: %s", e.msg);
  CHECK(!wz4_op_set_params_json(&op, "[4294967296]", 12, &e), "too large refused");
  CHECK(!wz4_op_set_params_json(&op, "[-2147483649]", 13, &e), "too small refused");
  CHECK(!wz4_op_set_params_json(&op, "[1,]", 4, &e), "trailing comma refused");
  CHECK(!wz4_op_set_params_json(&op, "[1] x", 5, &e), "trailing text refused");
  CHECK(wz4_op_set_params_json(&op, "[]", 2, &e) && op.num_params == 0, "empty params");

  CHECK(wz4_op_set_strings_json(&op, in_str, strlen(in_str), &e), "strings json: %s", e.msg);
  CHECK(op.num_strings == 4 && str_is(&op.strings[0], "a\"b\\c\n", 6) &&
            str_is(&op.strings[1], "\xC3\xA9\xF0\x9F\x98\x80\xED\xA0\x80x", 10) &&
            str_is(&op.strings[2], "\xC3\xA9", 2) && op.strings[3].len == 0,
        "strings values");
  j = wz4_strings_json(&op, &n);
  CHECK(j && strcmp(j, "[\"a\\\"b\\\\c\\n\",\"\xC3\xA9\xF0\x9F\x98\x80\\uD800x\",\"\xC3\xA9\",\"\"]") == 0,
        "strings out: %s", j ? j : "(null)");
  /* and back: the output parses to the same strings */
  if (j) {
    wz4_op op2;
    memset(&op2, 0, sizeof op2);
    CHECK(wz4_op_set_strings_json(&op2, j, n, &e) && op2.num_strings == 4 &&
              str_is(&op2.strings[1], "\xC3\xA9\xF0\x9F\x98\x80\xED\xA0\x80x", 10),
          "strings json round trip");
    str_array_free_test(&op2);
  }
  free(j);
  CHECK(!wz4_op_set_strings_json(&op, "[\"\xC0\x80\"]", 6, &e) && op.num_strings == 4,
        "invalid UTF-8 refused, strings kept: %s", e.msg);
  CHECK(!wz4_op_set_strings_json(&op, "[\"\\ud800\xED\xB0\x80\"]", 12, &e), "escaped high + raw low refused");
  CHECK(!wz4_op_set_strings_json(&op, "[\"abc]", 6, &e), "unterminated refused");
  CHECK(!wz4_op_set_strings_json(&op, "[1]", 3, &e), "non-string refused");
  CHECK(wz4_op_set_strings_json(&op, "[]", 2, &e) && op.num_strings == 0, "empty strings");
  j = wz4_links_json(&op, &n);
  CHECK(j && strcmp(j, "[]") == 0, "no links: []");
  free(j);
  str_array_free_test(&op);
  free(op.params);
}

int main(void) {
  test_utf16();
  test_json();
  test_version_sweep();
  test_surrogates();
  test_links_constructed();
  test_graph_memo();
  test_doc_memo();
  test_malformed();
  test_corpus();
  return check_done();
}
