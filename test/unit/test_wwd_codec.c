/*
** test_wwd_codec.c: unit tests of the WWD codec (codecs/wwd/wwd.c) and of the
** 8-bit text conversion (codecs/common/text8.c).
**
** The real files are read at run time from $LEVELSQL_CORPUS/wwd (never
** copied into the project); the tests that need them are skipped when the
** variable is unset.  Everything else (edits, generated levels, corruption)
** works on levels built in memory with the writer.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"
#include "check.h"
#include "fileutil.h"
#include "common/text8.h"
#include "wwd/wwd.h"

/* The corpus files, all but the bad-signature one, which is tested alone. */
static const char *const corpus_files[] = {
    "libwap32__Bushy.wwd",         "libwap32__LePortdeCoolness.wwd",
    "libwap32__RETAIL01.WWD",      "libwap32__RETAIL01_nocompress.WWD",
    "libwap32__RETAIL02.WWD",      "libwap32__RETAIL03.WWD",
    "libwap32__RETAIL03_nocompress.WWD", "libwap32__RETAIL04.WWD",
    "libwap32__RETAIL05.WWD",      "libwap32__RETAIL06.WWD",
    "libwap32__RETAIL07.WWD",      "libwap32__RockySwitch.wwd",
    "wap32rs__BombzAway.wwd",      "wapuniverse__TEST1_resized.wwd",
};
#define N_CORPUS (sizeof corpus_files / sizeof corpus_files[0])

/* Reads $LEVELSQL_CORPUS/wwd/<name>; NULL when the corpus is absent or the
** file cannot be read (the caller SKIPs). */
static unsigned char *corpus_read(const char *name, size_t *size) {
  const char *dir = check_corpus_dir();
  char path[1024];
  if (!dir) return NULL;
  snprintf(path, sizeof path, "%s/wwd/%s", dir, name);
  return file_read_all(path, size);
}

/* Inflates a whole zlib stream of unknown size into a malloc'd buffer
** (test helper, independent of the codec).  NULL on any zlib error. */
static unsigned char *inflate_all(const unsigned char *src, size_t n, size_t *out_n) {
  z_stream zs;
  size_t cap = n * 8 + 1024, got = 0;
  unsigned char *out = malloc(cap);
  int ret = Z_OK;
  memset(&zs, 0, sizeof zs);
  if (!out || inflateInit(&zs) != Z_OK) {
    free(out);
    return NULL;
  }
  zs.next_in = (Bytef *)src;
  zs.avail_in = (uInt)n;
  while (ret != Z_STREAM_END) {
    if (got == cap) {
      unsigned char *p = realloc(out, cap * 2);
      if (!p) break;
      out = p;
      cap *= 2;
    }
    zs.next_out = out + got;
    zs.avail_out = (uInt)(cap - got);
    ret = inflate(&zs, Z_NO_FLUSH);
    got = cap - zs.avail_out;
    if (ret != Z_OK && ret != Z_STREAM_END) break;
  }
  inflateEnd(&zs);
  if (ret != Z_STREAM_END) {
    free(out);
    return NULL;
  }
  *out_n = got;
  return out;
}

/* Parses, and on failure reports the message (helper for the many
** "must parse" checks). */
static wwd_level *parse_ok(const unsigned char *d, size_t n, const char *what) {
  wwd_level *lvl = NULL;
  codec_error err;
  err.msg[0] = 0;
  CHECK(wwd_parse(d, n, &lvl, &err), "%s: parse failed: %s", what, err.msg);
  return lvl;
}

/* Serialize + parse again (one CHECK); returns the new level (NULL on
** failure). */
static wwd_level *reparse(const wwd_level *lvl, const char *what) {
  unsigned char *buf = NULL;
  size_t n = 0;
  codec_error err;
  wwd_level *back = NULL;
  err.msg[0] = 0;
  CHECK(wwd_serialize(lvl, &buf, &n, &err) && wwd_parse(buf, n, &back, &err), "%s: serialize and parse again: %s", what,
        err.msg);
  free(buf);
  return back;
}

/* Expects a parse failure whose message contains every given fragment
** (one CHECK). */
static void expect_fail(const unsigned char *d, size_t n, const char *what, const char *frag1,
                        const char *frag2) {
  wwd_level *lvl = NULL;
  codec_error err;
  int ok;
  memset(err.msg, 0, sizeof err.msg);
  ok = wwd_parse(d, n, &lvl, &err);
  CHECK(!ok && lvl == NULL && strstr(err.msg, frag1) && (!frag2 || strstr(err.msg, frag2)),
        "%s: parse must fail with '%s'%s%s: %s", what, frag1, frag2 ? " and " : "", frag2 ? frag2 : "",
        ok ? "it parsed" : err.msg);
  wwd_free(lvl);
}

/* Finds the object with the given id in a plane; NULL if none. */
static const wwd_object *find_id(const wwd_plane *p, int32_t id) {
  uint32_t i;
  for (i = 0; i < p->num_objects; i++)
    if (p->objects[i].field[WWD_OBJ_ID] == id) return &p->objects[i];
  return NULL;
}

/* Compares a wwd_bytes to a C string. */
static int bytes_is(const wwd_bytes *b, const char *s) {
  size_t n = strlen(s);
  return b->len == n && (n == 0 || memcmp(b->data, s, n) == 0);
}

/* Compares a fixed string field to a C string. */
static int fixed_is(const unsigned char *field, size_t size, const char *s) {
  const unsigned char *p;
  size_t n = wwd_fixed_string(field, size, &p);
  return n == strlen(s) && memcmp(p, s, n) == 0;
}

/* Sets an object's four strings from C strings (a setup step: REQUIRE). */
static void set_strings(wwd_object *o, const char *name, const char *logic, const char *set,
                        const char *anim) {
  REQUIRE(wwd_bytes_set(&o->str[WWD_STR_NAME], (const unsigned char *)name, strlen(name)), "set name");
  REQUIRE(wwd_bytes_set(&o->str[WWD_STR_LOGIC], (const unsigned char *)logic, strlen(logic)), "set logic");
  REQUIRE(wwd_bytes_set(&o->str[WWD_STR_IMAGE_SET], (const unsigned char *)set, strlen(set)), "set image set");
  REQUIRE(wwd_bytes_set(&o->str[WWD_STR_ANIMATION], (const unsigned char *)anim, strlen(anim)), "set anim");
}

/* ---- corpus ------------------------------------------------------------- */

/* A wwd_scratch.alloc_large that gives more than asked for, filled with
** junk, as the engine's rounds up to whole huge pages. */
static void *generous_alloc(size_t n) {
  unsigned char *p = (unsigned char *)malloc(n + 65536);
  if (p) memset(p, 0xA5, n + 65536);
  return p;
}

/* Parses every corpus file, prints its facts, and checks the round trip:
** byte-identical for uncompressed files; for compressed files the header
** equals the original except the checksum (now exact S) and the main block
** decompresses to the same bytes. */
static void test_corpus_roundtrip(void) {
  size_t f;
  check_loop files = {0, 0, 0};
  /* one buffer lent to every parse, and a generous allocator, as a parse-ahead thread does */
  wwd_scratch shared = {NULL, 0, generous_alloc, NULL};
  if (!check_corpus_dir()) {
    SKIP("corpus round trip: LEVELSQL_CORPUS unset");
    return;
  }
  for (f = 0; f < N_CORPUS; f++) {
    size_t n = 0, m = 0;
    unsigned char *d = corpus_read(corpus_files[f], &n), *out = NULL;
    wwd_level *lvl, *back;
    codec_error err;
    int compressed;
    check_loop_leave();
    if (!d) {
      SKIP("%s: not readable", corpus_files[f]);
      continue;
    }
    check_loop_enter(&files);
    files.inputs++;
    lvl = parse_ok(d, n, corpus_files[f]);
    if (!lvl) {
      free(d);
      continue;
    }
    compressed = (le32_load(d + WWD_HDR_FLAGS) & WWD_FLAG_COMPRESS) != 0;
    CHECK(wwd_scratch_bytes(d, n) == (compressed ? WWD_HEADER_SIZE + le32_load(d + WWD_HDR_DECOMPRESSED_SIZE) : 0),
          "%s: wwd_scratch_bytes is the header plus the claimed inflated size (0 when uncompressed)",
          corpus_files[f]);
    if (compressed) {
      /* a scratch of exactly the bytes asked for is used as it is */
      size_t want = wwd_scratch_bytes(d, n);
      wwd_scratch exact = {(unsigned char *)malloc(want), want, NULL, NULL};
      unsigned char *lent = exact.data;
      wwd_level *in_exact = NULL;
      CHECK(lent && wwd_parse_reusing(d, n, &exact, &in_exact, &err) && exact.data == lent && exact.cap == want,
            "%s: parsed in a scratch of wwd_scratch_bytes without growing it", corpus_files[f]);
      wwd_free(in_exact);
      free(exact.data);
    }
    CHECK(wwd_serialize(lvl, &out, &m, &err), "%s: serialize: %s", corpus_files[f], err.msg);
    {
      wwd_level *again = NULL;
      unsigned char *again_out = NULL;
      size_t again_n = 0;
      CHECK(wwd_parse_reusing(d, n, &shared, &again, &err) && wwd_serialize(again, &again_out, &again_n, &err) &&
                out && again_n == m && memcmp(again_out, out, m) == 0,
            "%s: parsed through the buffer the files before it used, the same level", corpus_files[f]);
      CHECK(again && wwd_footprint(again) == wwd_footprint(lvl),
            "%s: the same footprint with a generous allocator (its excess given back)", corpus_files[f]);
      wwd_free(again);
      free(again_out);
    }
    if (out) {
      if (!compressed) {
        CHECK(m == n && memcmp(out, d, n) == 0, "%s: not byte-identical (%zu vs %zu bytes)",
              corpus_files[f], m, n);
        printf("corpus: %-36s uncompressed checksum=%-8s game=%-6s planes=%u tileprops=%u byte-identical=%s\n",
               corpus_files[f], wwd_checksum_kind_name(lvl->checksum_kind),
               wwd_game(lvl) ? wwd_game(lvl) : "?", lvl->num_planes, lvl->num_tile_properties,
               (m == n && memcmp(out, d, n) == 0) ? "yes" : "NO");
      } else {
        size_t a_n = 0, b_n = 0;
        unsigned char *a = inflate_all(d + WWD_HEADER_SIZE, n - WWD_HEADER_SIZE, &a_n);
        unsigned char *b = inflate_all(out + WWD_HEADER_SIZE, m - WWD_HEADER_SIZE, &b_n);
        int same_stream = m == n && memcmp(out + WWD_HEADER_SIZE, d + WWD_HEADER_SIZE, n - WWD_HEADER_SIZE) == 0;
        CHECK(a && b && a_n == b_n && memcmp(a, b, a_n) == 0, "%s: decompressed main blocks differ",
              corpus_files[f]);
        CHECK(memcmp(out, d, WWD_HDR_CHECKSUM) == 0 &&
                  memcmp(out + WWD_HDR_CHECKSUM + 4, d + WWD_HDR_CHECKSUM + 4,
                         WWD_HEADER_SIZE - WWD_HDR_CHECKSUM - 4) == 0,
              "%s: header differs outside the checksum", corpus_files[f]);
        CHECK(le32_load(out + WWD_HDR_CHECKSUM) == wwd_checksum(out + WWD_HEADER_SIZE, m - WWD_HEADER_SIZE),
              "%s: written checksum is not exact", corpus_files[f]);
        printf("corpus: %-36s compressed   checksum=%-8s game=%-6s planes=%u tileprops=%u decompressed-identical=%s "
               "same-zlib-stream=%s\n",
               corpus_files[f], wwd_checksum_kind_name(lvl->checksum_kind),
               wwd_game(lvl) ? wwd_game(lvl) : "?", lvl->num_planes, lvl->num_tile_properties,
               (a && b && a_n == b_n && memcmp(a, b, a_n) == 0) ? "yes" : "NO", same_stream ? "yes" : "no");
        free(a);
        free(b);
      }
      back = parse_ok(out, m, corpus_files[f]);
      if (back) {
        char why[200] = "";
        CHECK(wwd_equal(lvl, back, why, sizeof why), "%s: reparsed model differs: %s", corpus_files[f], why);
        CHECK(back->checksum_kind == WWD_CHECKSUM_EXACT, "%s: output checksum class %s", corpus_files[f],
              wwd_checksum_kind_name(back->checksum_kind));
        wwd_free(back);
      }
      free(out);
    }
    /* uids are dense after parse */
    {
      uint32_t total = 0, p;
      for (p = 0; p < lvl->num_planes; p++) total += lvl->planes[p].num_objects;
      CHECK(lvl->next_uid == total, "%s: next_uid %u vs %u objects", corpus_files[f], lvl->next_uid, total);
    }
    /* clone equals the original */
    {
      wwd_level *c = wwd_clone(lvl);
      char why[200] = "";
      CHECK(c && wwd_equal(lvl, c, why, sizeof why), "%s: clone differs: %s", corpus_files[f], why);
      CHECK(c && c->next_uid == lvl->next_uid, "%s: clone next_uid", corpus_files[f]);
      wwd_free(c);
    }
    wwd_free(lvl);
    free(d);
  }
  free(shared.data);
  check_loop_done(&files, "every corpus level round-trips (bytes, or the decompressed block and the header), its clone and "
                  "uids too, and parses the same through a reused buffer");
}

/* The reference values of wwd.md for RETAIL01.WWD, and the checksum class
** and game of a few corpus files. */
static void test_retail01_reference(void) {
  size_t n = 0;
  unsigned char *d = corpus_read("libwap32__RETAIL01.WWD", &n);
  wwd_level *lvl;
  const wwd_plane *a;
  const wwd_object *o;
  if (!d) {
    SKIP("RETAIL01 reference values: corpus absent");
    return;
  }
  lvl = parse_ok(d, n, "RETAIL01");
  if (lvl) {
    CHECK(lvl->checksum_stored == 0xEC82568Cu, "stored checksum 0x%08X", lvl->checksum_stored);
    CHECK(lvl->checksum_kind == WWD_CHECKSUM_ENGINE, "RETAIL01 class %s",
          wwd_checksum_kind_name(lvl->checksum_kind));
    CHECK(lvl->checksum_stored - lvl->checksum_computed == 255, "engine stray byte");
    CHECK(lvl->file_size == n, "file_size");
    CHECK(wwd_game(lvl) && strcmp(wwd_game(lvl), "claw") == 0, "game claw");
    CHECK(fixed_is(lvl->header + WWD_HDR_NAME, 64, "Claw - Level 1"), "level name");
    CHECK(lvl->num_planes == 3, "3 planes, got %u", lvl->num_planes);
    if (lvl->num_planes == 3) {
      const wwd_plane *bg = &lvl->planes[0], *fr = &lvl->planes[2];
      a = &lvl->planes[1];
      CHECK(fixed_is(bg->header + WWD_PLANE_NAME, 64, "Background"), "plane 0 name");
      CHECK(fixed_is(a->header + WWD_PLANE_NAME, 64, "Action"), "plane 1 name");
      CHECK(fixed_is(fr->header + WWD_PLANE_NAME, 64, "Front"), "plane 2 name");
      CHECK(u32_as_i32(le32_load(bg->header + WWD_PLANE_Z)) == -999, "bg z");
      CHECK(u32_as_i32(le32_load(a->header + WWD_PLANE_Z)) == 0, "action z");
      CHECK(u32_as_i32(le32_load(fr->header + WWD_PLANE_Z)) == 9000, "front z");
      CHECK(le32_load(bg->header + WWD_PLANE_FLAGS) == (WWD_PLANE_WRAP_X | WWD_PLANE_WRAP_Y), "bg flags");
      CHECK(le32_load(a->header + WWD_PLANE_FLAGS) == WWD_PLANE_MAIN, "action flags");
      CHECK(le32_load(fr->header + WWD_PLANE_FLAGS) == WWD_PLANE_WRAP_X, "front flags");
      CHECK(bg->num_objects == 0 && fr->num_objects == 0, "objects only in the main plane");
      o = find_id(a, 179);
      CHECK(o != NULL, "object 179 exists");
      if (o) {
        CHECK(bytes_is(&o->str[WWD_STR_LOGIC], "Rat"), "179 logic");
        CHECK(bytes_is(&o->str[WWD_STR_IMAGE_SET], "LEVEL_RAT"), "179 image set");
        CHECK(o->field[WWD_OBJ_X] == 5377 && o->field[WWD_OBJ_Y] == 4374, "179 at %d,%d", o->field[WWD_OBJ_X],
              o->field[WWD_OBJ_Y]);
        CHECK(o->field[WWD_OBJ_MIN_X] == 5357 && o->field[WWD_OBJ_MAX_X] == 5488, "179 min/max x");
      }
      o = find_id(a, 1303);
      CHECK(o != NULL, "object 1303 exists");
      if (o) {
        CHECK(bytes_is(&o->str[WWD_STR_LOGIC], "TogglePeg2"), "1303 logic");
        CHECK(bytes_is(&o->str[WWD_STR_IMAGE_SET], "LEVEL_PEG"), "1303 image set");
        CHECK(o->field[WWD_OBJ_X] == 963 && o->field[WWD_OBJ_Y] == 2507, "1303 position");
      }
    }
    CHECK(lvl->num_tile_properties > 13, "tile properties");
    if (lvl->num_tile_properties > 13) {
      const wwd_tile_property *tp = &lvl->tile_properties[13];
      CHECK(tp->type == WWD_TILE_SINGLE && tp->width == 64 && tp->height == 64, "tile property 13");
    }
    wwd_free(lvl);
  }
  free(d);
  /* Bad signature. */
  d = corpus_read("libwap32__RETAIL01_badsig.WWD", &n);
  if (!d) {
    SKIP("RETAIL01_badsig: corpus absent");
  } else {
    codec_error err;
    wwd_level *bad = NULL;
    CHECK(!wwd_parse(d, n, &bad, &err) && bad == NULL, "badsig must fail");
    CHECK(strcmp(err.msg, "header: byte offset 0: bad signature 0x0000ADBA (expected 0x000005F4): not a WWD file") == 0,
          "badsig message: %s", err.msg);
    CHECK(!wwd_sniff(d, n), "badsig sniff");
    free(d);
  }
  /* Other classes and games. */
  {
    static const struct {
      const char *file;
      enum wwd_checksum_kind kind;
      const char *game;
    } exp[] = {
        {"libwap32__RETAIL01_nocompress.WWD", WWD_CHECKSUM_EXACT, "claw"},
        {"libwap32__RETAIL05.WWD", WWD_CHECKSUM_ENGINE, "claw"},
        {"libwap32__RockySwitch.wwd", WWD_CHECKSUM_EXACT, "gruntz"},
        {"wap32rs__BombzAway.wwd", WWD_CHECKSUM_EXACT, "gruntz"},
        {"libwap32__Bushy.wwd", WWD_CHECKSUM_ENGINE, "claw"},
    };
    size_t k;
    for (k = 0; k < sizeof exp / sizeof exp[0]; k++) {
      wwd_level *l;
      d = corpus_read(exp[k].file, &n);
      if (!d) {
        SKIP("%s: corpus absent", exp[k].file);
        continue;
      }
      l = parse_ok(d, n, exp[k].file);
      if (l) {
        CHECK(l->checksum_kind == exp[k].kind, "%s: class %s", exp[k].file,
              wwd_checksum_kind_name(l->checksum_kind));
        CHECK(wwd_game(l) && strcmp(wwd_game(l), exp[k].game) == 0, "%s: game", exp[k].file);
        wwd_free(l);
      }
      free(d);
    }
  }
}

/* Bushy.wwd: the plane name bytes 54 B3 6F decode to "Tło" (cp1250) and
** "T³o" (cp1252) and encode back to the same bytes. */
static void test_bushy_strings(void) {
  size_t n = 0;
  unsigned char *d = corpus_read("libwap32__Bushy.wwd", &n);
  wwd_level *lvl;
  if (!d) {
    SKIP("Bushy strings: corpus absent");
    return;
  }
  lvl = parse_ok(d, n, "Bushy");
  if (lvl && lvl->num_planes > 0) {
    const unsigned char *s;
    size_t len = wwd_fixed_string(lvl->planes[0].header + WWD_PLANE_NAME, 64, &s), ulen = 0, blen = 0;
    char *u;
    unsigned char *b = NULL;
    uint32_t bad = 0;
    CHECK(len == 3 && s[0] == 0x54 && s[1] == 0xB3 && s[2] == 0x6F, "Bushy plane 0 name bytes");
    u = text8_decode(s, len, TEXT8_CP1250, &ulen);
    CHECK(u && strcmp(u, "T\xC5\x82o") == 0, "cp1250 decode: %s", u ? u : "(null)");
    CHECK(u && text8_encode(u, ulen, TEXT8_CP1250, &b, &blen, &bad) && blen == len && memcmp(b, s, len) == 0,
          "cp1250 re-encode");
    free(u);
    free(b);
    b = NULL;
    u = text8_decode(s, len, TEXT8_CP1252, &ulen);
    CHECK(u && strcmp(u, "T\xC2\xB3o") == 0, "cp1252 decode: %s", u ? u : "(null)");
    CHECK(u && text8_encode(u, ulen, TEXT8_CP1252, &b, &blen, &bad) && blen == len && memcmp(b, s, len) == 0,
          "cp1252 re-encode");
    free(u);
    free(b);
  }
  wwd_free(lvl);
  free(d);
}

/* LePortdeCoolness: two 64x64 mask tile properties, kept through a round
** trip (the corpus round trip checks the bytes; this checks the model). */
static void test_masks_corpus(void) {
  size_t n = 0;
  unsigned char *d = corpus_read("libwap32__LePortdeCoolness.wwd", &n);
  wwd_level *lvl, *back;
  uint32_t i, masks = 0;
  if (!d) {
    SKIP("LePortdeCoolness masks: corpus absent");
    return;
  }
  lvl = parse_ok(d, n, "LePortdeCoolness");
  if (lvl) {
    for (i = 0; i < lvl->num_tile_properties; i++) {
      const wwd_tile_property *tp = &lvl->tile_properties[i];
      if (tp->type == WWD_TILE_MASK) {
        masks++;
        CHECK(tp->width == 64 && tp->height == 64 && tp->mask_len == 4096 && tp->mask, "mask %u is 64x64", i);
      }
    }
    CHECK(masks == 2, "2 masks, got %u", masks);
    back = reparse(lvl, "LePortdeCoolness");
    if (back) {
      char why[200] = "";
      CHECK(wwd_equal(lvl, back, why, sizeof why), "masks round trip: %s", why);
      wwd_free(back);
    }
    wwd_free(lvl);
  }
  free(d);
}

/* ---- text8 ------------------------------------------------------------------ */

/* All 256 byte values round-trip through UTF-8 in every code page; names;
** invalid UTF-8 and unrepresentable characters are refused. */
static void test_text8(void) {
  static const text8_codepage cps[] = {TEXT8_CP1252, TEXT8_CP1250, TEXT8_CP1251, TEXT8_LATIN1};
  unsigned char all[256];
  size_t c, i;
  text8_codepage cp;
  unsigned char *b = NULL;
  size_t blen = 0;
  uint32_t bad = 0;
  check_loop bytes = {0, 0, 0};
  for (i = 0; i < 256; i++) all[i] = (unsigned char)i;
  for (c = 0; c < 4; c++) {
    size_t ulen = 0;
    char *u = text8_decode(all, 256, cps[c], &ulen);
    CHECK(u != NULL, "decode all bytes");
    if (!u) continue;
    CHECK(strlen(u + 1) + 1 <= ulen, "length");
    b = NULL;
    CHECK(text8_encode(u, ulen, cps[c], &b, &blen, &bad) && blen == 256 && memcmp(b, all, 256) == 0,
          "%s: 256 bytes round trip", text8_codepage_name(cps[c]));
    free(b);
    check_loop_enter(&bytes);
    for (i = 0; i < 256; i++) {
      size_t l1 = 0;
      char *one = text8_decode(&all[i], 1, cps[c], &l1);
      b = NULL;
      bytes.inputs++;
      CHECK(one && text8_encode(one, l1, cps[c], &b, &blen, &bad) && blen == 1 && b[0] == i,
            "%s: byte 0x%02zX", text8_codepage_name(cps[c]), i);
      free(one);
      free(b);
    }
    check_loop_leave();
    free(u);
  }
  check_loop_done(&bytes, "each byte alone round-trips in the 4 code pages");
  /* specific characters */
  {
    size_t l = 0;
    unsigned char e = 0x80, x81 = 0x81, c0 = 0xC0;
    char *u = text8_decode(&e, 1, TEXT8_CP1252, &l);
    CHECK(u && strcmp(u, "\xE2\x82\xAC") == 0, "0x80 is the euro sign in cp1252");
    free(u);
    u = text8_decode(&x81, 1, TEXT8_CP1252, &l);
    CHECK(u && strcmp(u, "\xC2\x81") == 0, "0x81 unassigned -> U+0081");
    free(u);
    u = text8_decode(&c0, 1, TEXT8_CP1251, &l);
    CHECK(u && strcmp(u, "\xD0\x90") == 0, "cp1251 0xC0 is A cyrillic");
    free(u);
    u = text8_decode(&e, 1, TEXT8_LATIN1, &l);
    CHECK(u && strcmp(u, "\xC2\x80") == 0, "latin1 0x80 is U+0080");
    free(u);
  }
  /* invalid UTF-8 */
  {
    static const char *const invalid[] = {"\xC3", "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF", "a\x80"};
    for (i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
      b = (unsigned char *)1;
      bad = 0;
      CHECK(!text8_encode(invalid[i], strlen(invalid[i]), TEXT8_CP1252, &b, &blen, &bad) &&
                bad == 0xFFFFFFFFu && b == NULL,
            "invalid UTF-8 %zu refused", i);
    }
  }
  /* unrepresentable: U+0142 (ł) in cp1252, U+20AC in latin1, U+0080 in cp1252 (0x80 is the euro) */
  bad = 0;
  CHECK(!text8_encode("\xC5\x82", 2, TEXT8_CP1252, &b, &blen, &bad) && bad == 0x142, "l-stroke not in cp1252");
  CHECK(!text8_encode("\xE2\x82\xAC", 3, TEXT8_LATIN1, &b, &blen, &bad) && bad == 0x20AC, "euro not in latin1");
  CHECK(!text8_encode("\xC2\x80", 2, TEXT8_CP1252, &b, &blen, &bad) && bad == 0x80, "U+0080 not in cp1252");
  b = NULL;
  CHECK(text8_encode("", 0, TEXT8_CP1252, &b, &blen, &bad) && blen == 0, "empty string");
  free(b);
  /* names */
  CHECK(text8_codepage_from_name("CP1252", &cp) && cp == TEXT8_CP1252, "CP1252");
  CHECK(text8_codepage_from_name("windows-1250", &cp) && cp == TEXT8_CP1250, "windows-1250");
  CHECK(text8_codepage_from_name("Win1252", &cp) && cp == TEXT8_CP1252, "win1252");
  CHECK(text8_codepage_from_name("WINDOWS-1251", &cp) && cp == TEXT8_CP1251, "windows-1251");
  CHECK(text8_codepage_from_name("ISO-8859-1", &cp) && cp == TEXT8_LATIN1, "iso-8859-1");
  CHECK(text8_codepage_from_name("latin1", &cp) && cp == TEXT8_LATIN1, "latin1");
  CHECK(!text8_codepage_from_name("utf-8", &cp), "utf-8 is not a code page");
  CHECK(!text8_codepage_from_name("cp125", &cp), "prefix is not a name");
  CHECK(strcmp(text8_codepage_name(TEXT8_CP1250), "cp1250") == 0, "canonical name");
}

/* ---- generated levels ------------------------------------------------------- */

/* Builds a small level: Background / Action (main) / Front planes like
** Claw's, objects on the main plane and on the front plane, image sets,
** and all three kinds of tile property (one a 4x3 mask). */
static wwd_level *make_level(int compress) {
  wwd_level *lvl = wwd_level_new(6, 4, 64, 64);
  uint32_t t;
  long k;
  if (!lvl) return NULL;
  if (!wwd_plane_insert(lvl, 0, 3, 2, 64, 64) || !wwd_plane_insert(lvl, 2, 2, 5, 64, 64)) {
    wwd_free(lvl);
    return NULL;
  }
  le32_store(lvl->header + WWD_HDR_FLAGS, WWD_FLAG_USE_Z_COORDS | (compress ? WWD_FLAG_COMPRESS : 0));
  wwd_fixed_string_set(lvl->header + WWD_HDR_NAME, 64, (const unsigned char *)"Test level", 10);
  wwd_fixed_string_set(lvl->header + WWD_HDR_IMAGE_DIR, 128, (const unsigned char *)"\\LEVEL1\\TILES", 13);
  wwd_fixed_string_set(lvl->planes[0].header + WWD_PLANE_NAME, 64, (const unsigned char *)"Background", 10);
  wwd_fixed_string_set(lvl->planes[2].header + WWD_PLANE_NAME, 64, (const unsigned char *)"Front", 5);
  le32_store(lvl->planes[0].header + WWD_PLANE_FLAGS, WWD_PLANE_WRAP_X | WWD_PLANE_WRAP_Y);
  le32_store(lvl->planes[2].header + WWD_PLANE_FLAGS, WWD_PLANE_WRAP_X);
  le32_store(lvl->planes[0].header + WWD_PLANE_Z, (uint32_t)-999);
  le32_store(lvl->planes[2].header + WWD_PLANE_Z, 9000);
  for (t = 0; t < 24; t++) lvl->planes[1].tiles[t] = t % 5 == 0 ? WWD_TILE_FILLED : t;
  for (t = 0; t < 3; t++) {
    wwd_plane *p = &lvl->planes[t];
    p->image_sets = calloc(1, sizeof(wwd_bytes));
    if (p->image_sets) {
      p->num_image_sets = 1;
      wwd_bytes_set(&p->image_sets[0], (const unsigned char *)(t == 0 ? "BACK" : t == 1 ? "ACTION" : "FRONT"),
                    t == 1 ? 6 : t == 0 ? 4 : 5);
    }
  }
  k = wwd_object_append(lvl, 1);
  if (k >= 0) {
    wwd_object *o = &lvl->planes[1].objects[k];
    o->field[WWD_OBJ_ID] = 179;
    o->field[WWD_OBJ_X] = 100;
    o->field[WWD_OBJ_Y] = 200;
    o->field[WWD_OBJ_I] = -1;
    o->field[WWD_OBJ_MOVE_RES_Y] = -7;
    set_strings(o, "Rat", "Rat", "LEVEL_RAT", "");
  }
  k = wwd_object_append(lvl, 1);
  if (k >= 0) {
    wwd_object *o = &lvl->planes[1].objects[k];
    o->field[WWD_OBJ_ID] = 2;
    o->field[WWD_OBJ_SCORE] = 500;
    set_strings(o, "", "TreasurePowerup", "GAME_TREASURE_COINS", "");
  }
  k = wwd_object_append(lvl, 2);
  if (k >= 0) {
    wwd_object *o = &lvl->planes[2].objects[k];
    o->field[WWD_OBJ_ID] = 9;
    o->field[WWD_OBJ_Z] = 9500;
    set_strings(o, "Deco", "FrontCandy", "LEVEL_ARCHESFRONT", "ANI");
  }
  k = wwd_tile_property_append(lvl, WWD_TILE_SINGLE, 64, 64);
  if (k >= 0) lvl->tile_properties[k].attribute = 1;
  k = wwd_tile_property_append(lvl, WWD_TILE_DOUBLE, 64, 64);
  if (k >= 0) {
    wwd_tile_property *tp = &lvl->tile_properties[k];
    tp->attribute = 0;
    tp->inside_attribute = 2;
    tp->rect[0] = 0;
    tp->rect[1] = 0;
    tp->rect[2] = 63;
    tp->rect[3] = 10;
  }
  k = wwd_tile_property_append(lvl, WWD_TILE_MASK, 4, 3);
  if (k >= 0) {
    wwd_tile_property *tp = &lvl->tile_properties[k];
    for (t = 0; t < tp->mask_len; t++) tp->mask[t] = (unsigned char)(t * 7);
  }
  return lvl;
}

/* Serializes a generated level into a buffer (for the corruption cases). */
static unsigned char *make_bytes(int compress, size_t *n) {
  wwd_level *lvl = make_level(compress);
  unsigned char *buf = NULL;
  codec_error err;
  *n = 0;
  if (lvl && !wwd_serialize(lvl, &buf, n, &err)) buf = NULL;
  wwd_free(lvl);
  return buf;
}

/* A generated level with objects on two planes and all three tile
** property kinds round-trips, compressed and not, and serializing twice
** gives the same bytes. */
static void test_generated(void) {
  int compress;
  for (compress = 0; compress < 2; compress++) {
    wwd_level *lvl = make_level(compress), *back;
    unsigned char *b1 = NULL, *b2 = NULL;
    size_t n1 = 0, n2 = 0;
    codec_error err;
    CHECK(lvl != NULL, "make_level");
    if (!lvl) continue;
    CHECK(wwd_serialize(lvl, &b1, &n1, &err), "serialize: %s", err.msg);
    back = b1 ? parse_ok(b1, n1, "generated") : NULL;
    if (back) {
      char why[200] = "";
      CHECK(wwd_equal(lvl, back, why, sizeof why), "generated round trip: %s", why);
      CHECK(back->num_planes == 3 && back->planes[1].num_objects == 2 && back->planes[2].num_objects == 1,
            "objects on two planes");
      CHECK(back->planes[0].num_objects == 0 && le32_load(back->planes[0].header + WWD_PLANE_OFFSET_OBJECTS) == 0,
            "offset_objects 0 for a plane without objects");
      CHECK(back->num_tile_properties == 3 && back->tile_properties[2].type == WWD_TILE_MASK &&
                back->tile_properties[2].mask_len == 12 && back->tile_properties[2].mask[5] == 35,
            "mask kept");
      CHECK(back->checksum_kind == WWD_CHECKSUM_EXACT, "exact checksum");
      CHECK(back->next_uid == 3, "uids dense");
      CHECK(wwd_game(back) && strcmp(wwd_game(back), "claw") == 0, "game claw");
      CHECK(u32_as_i32(le32_load(back->planes[0].header + WWD_PLANE_Z)) == -999, "plane z");
      CHECK(compress ? le32_load(b1 + WWD_HDR_DECOMPRESSED_SIZE) != 0 : le32_load(b1 + WWD_HDR_DECOMPRESSED_SIZE) == 0,
            "decompressed size field");
      CHECK(wwd_serialize(back, &b2, &n2, &err) && n1 == n2 && memcmp(b1, b2, n1) == 0, "stable bytes");
      wwd_free(back);
    }
    free(b1);
    free(b2);
    wwd_free(lvl);
  }
  /* the empty level of wwd_level_new round-trips */
  {
    wwd_level *lvl = wwd_level_new(1, 1, 32, 32), *back;
    CHECK(lvl && lvl->num_planes == 1 && lvl->planes[0].tiles[0] == WWD_TILE_INVISIBLE, "level_new");
    back = lvl ? reparse(lvl, "level_new") : NULL;
    if (back) {
      char why[200] = "";
      CHECK(wwd_equal(lvl, back, why, sizeof why), "new level round trip: %s", why);
      CHECK(le32_load(back->planes[0].header + WWD_PLANE_FLAGS) == WWD_PLANE_MAIN, "main plane");
      CHECK(fixed_is(back->planes[0].header + WWD_PLANE_NAME, 64, "Action"), "Action");
      wwd_free(back);
    }
    wwd_free(lvl);
    CHECK(wwd_level_new(0x10000, 0x10000, 64, 64) == NULL, "level_new dimension overflow");
    CHECK(wwd_level_new(40000000, 1, 64, 64) == NULL, "level_new pixel overflow");
  }
}

/* Edits: append to a non-main plane, remove, find by uid after removal,
** strings, compress flag both ways, mask set_type; serialize + parse shows
** the edits.  Done on RETAIL01_nocompress when the corpus is there, and on
** a generated level always. */
static void test_edits_on(wwd_level *lvl, const char *what) {
  wwd_level *back;
  uint32_t main_plane = 0, other, p, uid_keep, uid_gone, fp = 0, fi = 0, before;
  long k;
  wwd_object *o;
  for (p = 0; p < lvl->num_planes; p++)
    if (le32_load(lvl->planes[p].header + WWD_PLANE_FLAGS) & WWD_PLANE_MAIN) main_plane = p;
  other = main_plane == 0 ? lvl->num_planes - 1 : 0;
  before = lvl->planes[main_plane].num_objects;
  CHECK(before >= 2, "%s: needs objects", what);
  if (before < 2) return;
  uid_gone = lvl->planes[main_plane].objects[0].uid;
  uid_keep = lvl->planes[main_plane].objects[before - 1].uid;
  /* append on a non-main plane */
  k = wwd_object_append(lvl, other);
  CHECK(k >= 0, "%s: append", what);
  if (k < 0) return;
  o = &lvl->planes[other].objects[k];
  o->field[WWD_OBJ_ID] = 424242;
  o->field[WWD_OBJ_X] = -5;
  o->field[WWD_OBJ_HIT_TYPE_FLAGS] = -1;
  set_strings(o, "New", "Officer", "LEVEL_OFFICER", "LEVEL_OFFICER_WALK");
  CHECK(wwd_object_append(lvl, lvl->num_planes) == -1, "append to a missing plane");
  /* remove the first main object, find the last one by uid */
  CHECK(wwd_object_remove(lvl, main_plane, 0), "%s: remove", what);
  CHECK(!wwd_object_remove(lvl, main_plane, lvl->planes[main_plane].num_objects), "remove out of range");
  CHECK(!wwd_object_find(lvl, uid_gone, &fp, &fi), "removed uid gone");
  CHECK(wwd_object_find(lvl, uid_keep, &fp, &fi) && fp == main_plane && fi == before - 2, "uid found after removal");
  /* strings: a level name and an object's logic with 8-bit bytes */
  CHECK(wwd_fixed_string_set(lvl->header + WWD_HDR_AUTHOR, 64, (const unsigned char *)"Ed\xB3it", 5), "author");
  CHECK(!wwd_fixed_string_set(lvl->header + WWD_HDR_PREFIX1, 32,
                              (const unsigned char *)"0123456789012345678901234567890123", 34),
        "too long refused");
  CHECK(wwd_bytes_set(&lvl->planes[main_plane].objects[0].str[WWD_STR_LOGIC], (const unsigned char *)"Soldier", 7),
        "logic");
  /* compress flag: flip it */
  le32_store(lvl->header + WWD_HDR_FLAGS, le32_load(lvl->header + WWD_HDR_FLAGS) ^ WWD_FLAG_COMPRESS);
  /* mask set_type on tile property 0 */
  if (lvl->num_tile_properties) {
    wwd_tile_property *tp = &lvl->tile_properties[0];
    tp->width = 8;
    tp->height = 2;
    CHECK(wwd_tile_property_set_type(tp, WWD_TILE_MASK) && tp->mask_len == 16, "set_type mask");
    if (tp->mask) tp->mask[3] = 9;
    CHECK(!wwd_tile_property_set_type(tp, 4), "bad type refused");
  }
  back = reparse(lvl, what);
  if (back) {
    char why[200] = "";
    uint32_t bp, bi;
    CHECK(wwd_equal(lvl, back, why, sizeof why), "%s: edited round trip: %s", what, why);
    CHECK(back->planes[other].num_objects >= 1, "object on other plane");
    if (back->planes[other].num_objects) {
      const wwd_object *bo = &back->planes[other].objects[back->planes[other].num_objects - 1];
      CHECK(bo->field[WWD_OBJ_ID] == 424242 && bo->field[WWD_OBJ_X] == -5 && bo->field[WWD_OBJ_HIT_TYPE_FLAGS] == -1 &&
                bytes_is(&bo->str[WWD_STR_LOGIC], "Officer") &&
                bytes_is(&bo->str[WWD_STR_ANIMATION], "LEVEL_OFFICER_WALK"),
            "appended object values");
    }
    CHECK(back->planes[main_plane].num_objects == before - 1, "removal kept");
    CHECK(bytes_is(&back->planes[main_plane].objects[0].str[WWD_STR_LOGIC], "Soldier"), "logic edit kept");
    CHECK(fixed_is(back->header + WWD_HDR_AUTHOR, 64, "Ed\xB3it"), "author kept");
    CHECK((le32_load(back->header + WWD_HDR_FLAGS) & WWD_FLAG_COMPRESS) ==
              (le32_load(lvl->header + WWD_HDR_FLAGS) & WWD_FLAG_COMPRESS),
          "compress flag kept");
    if (back->num_tile_properties)
      CHECK(back->tile_properties[0].type == WWD_TILE_MASK && back->tile_properties[0].mask_len == 16 &&
                back->tile_properties[0].mask[3] == 9,
            "mask edit kept");
    /* the uid of the found object refers to the same object after reparse
    ** (dense uids in plane order, list order) */
    CHECK(wwd_object_find(back, back->next_uid - 1, &bp, &bi), "last uid findable");
    /* flip compression back and compare again */
    le32_store(back->header + WWD_HDR_FLAGS, le32_load(back->header + WWD_HDR_FLAGS) ^ WWD_FLAG_COMPRESS);
    {
      wwd_level *again = reparse(back, what);
      if (again) {
        CHECK(wwd_equal(back, again, why, sizeof why), "%s: compress flip back: %s", what, why);
        wwd_free(again);
      }
    }
    wwd_free(back);
  }
  /* set_type back to single drops the mask; a mask of the wrong size is refused by serialize */
  if (lvl->num_tile_properties) {
    wwd_tile_property *tp = &lvl->tile_properties[0];
    unsigned char *buf = NULL;
    size_t n = 0;
    codec_error err;
    CHECK(wwd_tile_property_set_mask(tp, (const unsigned char *)"abc", 3), "set_mask");
    CHECK(!wwd_tile_property_check(tp, 0, &err) && strstr(err.msg, "tile property 0") != NULL, "check: %s", err.msg);
    CHECK(!wwd_serialize(lvl, &buf, &n, &err) && buf == NULL && strstr(err.msg, "tile property 0"),
          "serialize refuses a bad mask: %s", err.msg);
    CHECK(wwd_tile_property_set_type(tp, WWD_TILE_SINGLE) && tp->mask == NULL && tp->mask_len == 0, "mask dropped");
    CHECK(wwd_tile_property_check(tp, 0, &err), "single ok");
  }
  /* a tile array disagreeing with the header is refused */
  {
    unsigned char *buf = NULL;
    size_t n = 0;
    codec_error err;
    lvl->planes[main_plane].tiles_wide++;
    CHECK(!wwd_serialize(lvl, &buf, &n, &err) && strstr(err.msg, "plane"), "tile dims mismatch: %s", err.msg);
    lvl->planes[main_plane].tiles_wide--;
  }
}

/* Runs the edit test on a generated level and on a corpus file. */
static void test_edits(void) {
  wwd_level *lvl = make_level(0);
  size_t n = 0;
  unsigned char *d;
  if (lvl) test_edits_on(lvl, "generated");
  wwd_free(lvl);
  lvl = make_level(1);
  if (lvl) test_edits_on(lvl, "generated compressed");
  wwd_free(lvl);
  d = corpus_read("libwap32__RETAIL01_nocompress.WWD", &n);
  if (!d) {
    SKIP("edits on RETAIL01_nocompress: corpus absent");
    return;
  }
  lvl = parse_ok(d, n, "RETAIL01_nocompress");
  if (lvl) test_edits_on(lvl, "RETAIL01_nocompress");
  wwd_free(lvl);
  free(d);
  /* fixed string set keeps trailing bytes when unchanged */
  {
    unsigned char field[8] = {'a', 'b', 0, 'x', 'y', 0, 0, 0};
    CHECK(wwd_fixed_string_set(field, 8, (const unsigned char *)"ab", 2) && field[3] == 'x', "unchanged kept");
    CHECK(wwd_fixed_string_set(field, 8, (const unsigned char *)"abc", 3) && field[3] == 0 && field[4] == 0,
          "changed zero-filled");
    CHECK(!wwd_fixed_string_set(field, 8, (const unsigned char *)"12345678", 8), "no room for the NUL");
  }
}

/* ---- corruption -------------------------------------------------------------- */

/* Every truncation of small generated files (uncompressed and compressed)
** fails with a message naming a section and a byte offset. */
static void test_truncation(void) {
  int compress;
  for (compress = 0; compress < 2; compress++) {
    size_t n = 0, cut, bad_msgs = 0, parsed = 0;
    unsigned char *buf = make_bytes(compress, &n);
    REQUIRE(buf != NULL, "make_bytes");
    if (!buf) continue;
    for (cut = 0; cut < n; cut++) {
      unsigned char *t = malloc(cut ? cut : 1);
      wwd_level *lvl = NULL;
      codec_error err;
      if (!t) break;
      memcpy(t, buf, cut);
      err.msg[0] = 0;
      if (wwd_parse(t, cut, &lvl, &err)) {
        parsed++;
        wwd_free(lvl);
      } else if (!strstr(err.msg, "byte offset") || lvl != NULL) {
        if (bad_msgs++ < 3) printf("bad message at cut %zu: %s\n", cut, err.msg);
      }
      free(t);
    }
    CHECK(parsed == 0, "compress=%d: %zu truncations parsed", compress, parsed);
    CHECK(bad_msgs == 0, "compress=%d: %zu truncations without section/offset", compress, bad_msgs);
    free(buf);
  }
  /* the same on corpus files at a set of offsets */
  {
    static const char *const files[] = {"libwap32__RETAIL01_nocompress.WWD", "libwap32__RETAIL01.WWD",
                                        "libwap32__LePortdeCoolness.wwd"};
    size_t f;
    for (f = 0; f < 3; f++) {
      size_t n = 0, i, failures = 0, tries = 0;
      unsigned char *d = corpus_read(files[f], &n);
      if (!d) {
        SKIP("truncation of %s: corpus absent", files[f]);
        continue;
      }
      for (i = 0; i < 64; i++) {
        size_t cut = i < 16 ? i * 100 : WWD_HEADER_SIZE + (n - WWD_HEADER_SIZE) / 48 * (i - 16);
        wwd_level *lvl = NULL;
        codec_error err;
        if (cut >= n) continue;
        tries++;
        err.msg[0] = 0;
        if (wwd_parse(d, cut, &lvl, &err)) {
          wwd_free(lvl);
          failures++;
        } else if (!strstr(err.msg, "byte offset")) {
          failures++;
          printf("no offset in: %s\n", err.msg);
        }
      }
      CHECK(failures == 0 && tries > 40, "%s: %zu of %zu truncations wrong", files[f], failures, tries);
      CHECK(wwd_parse(d, n - 1, NULL, NULL) == 0, "%s: minus one byte", files[f]);
      free(d);
    }
  }
}

/* Offsets into the uncompressed generated file, found from its headers. */
typedef struct gen_layout {
  size_t plane_hdr[3];
  size_t obj0_main; /* first object of plane 1 */
  size_t tp_off;    /* tile properties header */
  size_t tp2;       /* the mask property (index 2) */
} gen_layout;

/* Reads the layout facts of the generated file from its own offsets. */
static void gen_layout_of(const unsigned char *b, gen_layout *g) {
  int p;
  for (p = 0; p < 3; p++) g->plane_hdr[p] = WWD_HEADER_SIZE + (size_t)p * WWD_PLANE_HEADER_SIZE;
  g->obj0_main = le32_load(b + g->plane_hdr[1] + WWD_PLANE_OFFSET_OBJECTS);
  g->tp_off = le32_load(b + WWD_HDR_OFFSET_TILE_PROPS);
  g->tp2 = g->tp_off + WWD_TILE_PROPS_HEADER_SIZE + 20 + 40;
}

/* One corrupted copy of buf: 32-bit value v stored at off. */
static unsigned char *patched(const unsigned char *buf, size_t n, size_t off, uint32_t v) {
  unsigned char *c = malloc(n);
  if (!c) return NULL;
  memcpy(c, buf, n);
  if (off + 4 <= n) le32_store(c + off, v);
  return c;
}

/* Hand-made corruptions of the generated level; each must fail with a
** message naming the section and offset, and never crash. */
static void test_corruption(void) {
  size_t n = 0, cn = 0;
  unsigned char *buf = make_bytes(0, &n), *cbuf = make_bytes(1, &cn), *c;
  gen_layout g;
  char expect[200];
  if (!buf || !cbuf) {
    CHECK(0, "make_bytes");
    free(buf);
    free(cbuf);
    return;
  }
  CHECK(wwd_parse(buf, n, NULL, NULL) == 1, "the pristine file parses");
  gen_layout_of(buf, &g);
#define CORRUPT(off, v, what, f1, f2)          \
  do {                                         \
    c = patched(buf, n, (off), (v));           \
    if (c) expect_fail(c, n, what, f1, f2);    \
    free(c);                                   \
  } while (0)
  CORRUPT(0, 0xADBA, "bad signature",
          "header: byte offset 0: bad signature 0x0000ADBA (expected 0x000005F4): not a WWD file", NULL);
  CORRUPT(WWD_HDR_NUM_PLANES, 0xFFFFFFFFu, "num_planes huge", "header: byte offset 732:", "4294967295 plane headers");
  CORRUPT(WWD_HDR_NUM_PLANES, 1000, "num_planes 1000", "header: byte offset 732:", "1000 plane headers");
  CORRUPT(WWD_HDR_OFFSET_PLANES, (uint32_t)n, "offset_planes at the end", "header: byte offset 732:", NULL);
  CORRUPT(WWD_HDR_OFFSET_PLANES, 0, "offset_planes into the header", "header: byte offset 732:", NULL);
  snprintf(expect, sizeof expect, "tiles of plane 1: byte offset %u:", 0xFFFFFF00u);
  CORRUPT(g.plane_hdr[1] + WWD_PLANE_OFFSET_TILES, 0xFFFFFF00u, "offset_tiles out of range", expect, "do not fit");
  snprintf(expect, sizeof expect, "tiles of plane 0: byte offset %zu:", g.plane_hdr[0] + WWD_PLANE_TILES_WIDE);
  CORRUPT(g.plane_hdr[0] + WWD_PLANE_TILES_WIDE, 0xFFFFFFFFu, "tiles_wide overflow", expect, "overflows");
  {
    /* both dimensions 65536: the product overflows 32 bits */
    c = patched(buf, n, g.plane_hdr[2] + WWD_PLANE_TILES_WIDE, 0x10000);
    if (c) {
      le32_store(c + g.plane_hdr[2] + WWD_PLANE_TILES_HIGH, 0x10000);
      snprintf(expect, sizeof expect, "tiles of plane 2: byte offset %zu:", g.plane_hdr[2] + WWD_PLANE_TILES_WIDE);
      expect_fail(c, n, "tiles 65536x65536", expect, "tiles_wide 65536 x tiles_high 65536 overflows");
      free(c);
    }
  }
  {
    /* plane 0 re-reads most of the file as its tiles: sections overlap and
    ** together need more than the main block */
    size_t t0 = le32_load(buf + g.plane_hdr[0] + WWD_PLANE_OFFSET_TILES);
    c = patched(buf, n, g.plane_hdr[0] + WWD_PLANE_TILES_WIDE, 1);
    if (c) {
      le32_store(c + g.plane_hdr[0] + WWD_PLANE_TILES_HIGH, (uint32_t)((n - t0) / 4 - 1));
      expect_fail(c, n, "overlapping sections", "tiles of plane 1: byte offset", "overlaps other sections");
      free(c);
    }
    /* two planes sharing the same tiles without exceeding the block is
    ** accepted, and the rewritten file has them apart */
    c = patched(buf, n, g.plane_hdr[2] + WWD_PLANE_OFFSET_TILES,
                le32_load(buf + g.plane_hdr[0] + WWD_PLANE_OFFSET_TILES));
    if (c) {
      wwd_level *lvl = parse_ok(c, n, "shared tiles");
      if (lvl) {
        wwd_level *back = reparse(lvl, "shared tiles");
        char why[200] = "";
        CHECK(back && wwd_equal(lvl, back, why, sizeof why), "shared tiles round trip: %s", why);
        wwd_free(back);
        wwd_free(lvl);
      }
      free(c);
    }
  }
  CORRUPT(g.plane_hdr[2] + WWD_PLANE_TILES_HIGH, 1000, "tiles_high beyond end", "tiles of plane 2: byte offset",
          "do not fit");
  CORRUPT(g.plane_hdr[0] + WWD_PLANE_OFFSET_IMAGE_SETS, (uint32_t)n, "image sets beyond end",
          "image sets of plane 0: byte offset", NULL);
  CORRUPT(g.plane_hdr[0] + WWD_PLANE_NUM_IMAGE_SETS, 0x7FFFFFFF, "image sets count huge",
          "image sets of plane 0: byte offset", NULL);
  snprintf(expect, sizeof expect, "plane 1: byte offset %zu:", g.plane_hdr[1] + WWD_PLANE_NUM_OBJECTS);
  CORRUPT(g.plane_hdr[1] + WWD_PLANE_NUM_OBJECTS, 0xFFFFFFFFu, "num_objects huge", expect, "objects at offset");
  CORRUPT(g.plane_hdr[1] + WWD_PLANE_OFFSET_OBJECTS, 0xFFFFFFF0u, "offset_objects out of range", expect, NULL);
  snprintf(expect, sizeof expect,
           "object 0 of plane 1: byte offset %zu: string lengths exceed the main block (name 3, logic 4000000000",
           g.obj0_main);
  CORRUPT(g.obj0_main + 8, 4000000000u, "object string lengths", expect, NULL);
  snprintf(expect, sizeof expect, "object 0 of plane 1: byte offset %zu: string lengths exceed", g.obj0_main);
  CORRUPT(g.obj0_main + 4, 0xFFFFFFFFu, "object name length max", expect, NULL);
  {
    /* all four lengths 0xFFFFFFFF: the sum must not wrap */
    c = patched(buf, n, g.obj0_main + 4, 0xFFFFFFFFu);
    if (c) {
      int k;
      for (k = 1; k < 4; k++) le32_store(c + g.obj0_main + 4 + 4 * k, 0xFFFFFFFFu);
      expect_fail(c, n, "object lengths sum", expect, NULL);
      free(c);
    }
  }
  CORRUPT(WWD_HDR_OFFSET_TILE_PROPS, (uint32_t)n - 4, "tile props header beyond end",
          "tile properties header: byte offset", NULL);
  CORRUPT(g.tp_off + 8, 0x10000000, "tile props count huge", "tile properties header: byte offset", "do not fit");
  snprintf(expect, sizeof expect, "tile property 1: byte offset %zu: unknown type 7", g.tp_off + 32 + 20);
  CORRUPT(g.tp_off + 32 + 20, 7, "unknown tile type", expect, NULL);
  snprintf(expect, sizeof expect, "tile property 2: byte offset %zu: mask size 65536 x 65536 overflows", g.tp2);
  {
    c = patched(buf, n, g.tp2 + 8, 0x10000);
    if (c) {
      le32_store(c + g.tp2 + 12, 0x10000);
      expect_fail(c, n, "mask size overflow", expect, NULL);
      free(c);
    }
  }
  snprintf(expect, sizeof expect, "tile property 2: byte offset %zu: mask of 1000 x 3 bytes exceeds", g.tp2);
  CORRUPT(g.tp2 + 8, 1000, "mask beyond end", expect, NULL);
  /* a checksum mismatch is not an error, only a class */
  {
    wwd_level *lvl = NULL;
    c = patched(buf, n, WWD_HDR_CHECKSUM, 12345);
    CHECK(c && wwd_parse(c, n, &lvl, NULL) && lvl->checksum_kind == WWD_CHECKSUM_MISMATCH, "mismatch class");
    wwd_free(lvl);
    lvl = NULL;
    free(c);
    c = patched(buf, n, WWD_HDR_CHECKSUM, 0);
    CHECK(c && wwd_parse(c, n, &lvl, NULL) && lvl->checksum_kind == WWD_CHECKSUM_UNSET, "unset class");
    wwd_free(lvl);
    lvl = NULL;
    free(c);
    c = patched(buf, n, WWD_HDR_CHECKSUM, le32_load(buf + WWD_HDR_CHECKSUM) - 40);
    CHECK(c && wwd_parse(c, n, &lvl, NULL) && lvl->checksum_kind == WWD_CHECKSUM_WAPMAP, "wapmap class");
    wwd_free(lvl);
    lvl = NULL;
    free(c);
    c = patched(buf, n, WWD_HDR_CHECKSUM, le32_load(buf + WWD_HDR_CHECKSUM) + 7);
    CHECK(c && wwd_parse(c, n, &lvl, NULL) && lvl->checksum_kind == WWD_CHECKSUM_MISMATCH,
          "+7 on an uncompressed file is a mismatch");
    wwd_free(lvl);
    free(c);
  }
#undef CORRUPT
  /* compressed file corruptions */
  {
    uint32_t real = le32_load(cbuf + WWD_HDR_DECOMPRESSED_SIZE);
    unsigned char *big;
    wwd_level *lvl = NULL;
    c = patched(cbuf, cn, WWD_HEADER_SIZE, 0);
    if (c) {
      c[WWD_HEADER_SIZE] = 0x00; /* CMF byte: not deflate */
      expect_fail(c, cn, "zlib header corrupt", "main block (zlib): file byte offset", "corrupt zlib stream");
      free(c);
    }
    c = patched(cbuf, cn, 0, WWD_SIGNATURE);
    if (c) {
      size_t i;
      for (i = WWD_HEADER_SIZE + 10; i < cn - 4; i++) c[i] ^= 0x5A;
      expect_fail(c, cn, "zlib body corrupt", "main block (zlib)", NULL);
      free(c);
    }
    c = patched(cbuf, cn, cn - 4, le32_load(cbuf + cn - 4) ^ 1);
    if (c) {
      expect_fail(c, cn, "adler32 corrupt", "main block (zlib): file byte offset", "corrupt zlib stream");
      free(c);
    }
    c = patched(cbuf, cn, WWD_HDR_DECOMPRESSED_SIZE, 0xF0000000u);
    if (c) {
      expect_fail(c, cn, "zlib bomb over the cap", "main block (zlib): byte offset 744:", "exceeds the limit of 268435456");
      free(c);
    }
    c = patched(cbuf, cn, WWD_HDR_DECOMPRESSED_SIZE, 200u * 1024u * 1024u);
    if (c) {
      expect_fail(c, cn, "zlib bomb under the cap", "main block (zlib): byte offset 744:", "implausible");
      free(c);
    }
    c = patched(cbuf, cn, WWD_HDR_DECOMPRESSED_SIZE, real + 1);
    if (c) {
      expect_fail(c, cn, "claimed size too big", "main block (zlib): byte offset 1524:", "decompressed size mismatch");
      free(c);
    }
    c = patched(cbuf, cn, WWD_HDR_DECOMPRESSED_SIZE, real - 1);
    if (c) {
      expect_fail(c, cn, "claimed size too small", "main block (zlib): byte offset 1524:", "decompressed size mismatch");
      free(c);
    }
    c = patched(cbuf, cn, WWD_HDR_DECOMPRESSED_SIZE, 0);
    if (c) {
      expect_fail(c, cn, "claimed size zero", "main block (zlib)", "mismatch");
      free(c);
    }
    big = malloc(cn + 3);
    if (big) {
      memcpy(big, cbuf, cn);
      memcpy(big + cn, "xyz", 3);
      snprintf(expect, sizeof expect, "main block (zlib): file byte offset %zu: 3 bytes after the end", cn);
      expect_fail(big, cn + 3, "trailing bytes", expect, NULL);
      free(big);
    }
    /* header only, compressed flag: empty stream */
    expect_fail(cbuf, WWD_HEADER_SIZE, "empty compressed block", "main block (zlib)", NULL);
    /* offsets inside the compressed file are reported as decompressed */
    {
      size_t un = 0, zl;
      unsigned char *u = make_bytes(0, &un), *z;
      gen_layout_of(u ? u : buf, &g);
      if (u) {
        uLongf zlen = compressBound((uLong)(un - WWD_HEADER_SIZE));
        le32_store(u + g.obj0_main + 8, 4000000000u);
        z = malloc(WWD_HEADER_SIZE + zlen);
        if (z && compress2(z + WWD_HEADER_SIZE, &zlen, u + WWD_HEADER_SIZE, (uLong)(un - WWD_HEADER_SIZE), 6) == Z_OK) {
          memcpy(z, u, WWD_HEADER_SIZE);
          le32_store(z + WWD_HDR_FLAGS, WWD_FLAG_USE_Z_COORDS | WWD_FLAG_COMPRESS);
          le32_store(z + WWD_HDR_DECOMPRESSED_SIZE, (uint32_t)(un - WWD_HEADER_SIZE));
          zl = WWD_HEADER_SIZE + zlen;
          snprintf(expect, sizeof expect, "object 0 of plane 1: byte offset %zu (decompressed): string lengths exceed",
                   g.obj0_main);
          expect_fail(z, zl, "decompressed offsets", expect, NULL);
        }
        free(z);
        free(u);
      }
    }
    CHECK(wwd_parse(cbuf, cn, &lvl, NULL) && lvl, "pristine compressed parses");
    wwd_free(lvl);
  }
  /* tiny inputs */
  expect_fail(NULL, 0, "NULL input", "header: byte offset 0", NULL);
  expect_fail(buf, 3, "3 bytes", "header: byte offset 0: truncated", NULL);
  expect_fail(buf, 100, "100 bytes", "header: byte offset 100: truncated", NULL);
  CHECK(wwd_sniff(buf, n) && !wwd_sniff(buf, 3), "sniff");
  free(buf);
  free(cbuf);
}

/* Deterministic mutations of the generated files (a fixed LCG): random
** 32-bit values at random offsets, mostly in the header and plane headers
** where counts and offsets live.  Each mutant must either fail with a
** message or parse and round-trip to an equal model.  One case per file
** (uncompressed, compressed), whatever the number of mutants. */
static void test_mutations(void) {
  int compress;
  uint64_t st = 0x1234567ull;
  for (compress = 0; compress < 2; compress++) {
    size_t n = 0, i, parsed = 0, failed = 0, bad = 0;
    unsigned char *buf = make_bytes(compress, &n);
    check_loop mutants = {0, 0, 0};
    REQUIRE(buf != NULL, "make_bytes");
    if (!buf) continue;
    check_loop_enter(&mutants);
    for (i = 0; i < 3000; i++) {
      unsigned char *c = malloc(n);
      wwd_level *lvl = NULL;
      codec_error err;
      size_t off;
      uint32_t v;
      int k, edits;
      if (!c) break;
      memcpy(c, buf, n);
      st = st * 6364136223846793005ull + 1442695040888963407ull;
      edits = 1 + (int)((st >> 60) & 1);
      for (k = 0; k < edits; k++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        off = (size_t)(st >> 33) % ((st >> 62) ? n - 3 : (compress ? WWD_HEADER_SIZE : 2100));
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        v = (uint32_t)(st >> 32);
        if ((st >> 30) & 1) v &= 0xFFF;
        if (off + 4 <= n) le32_store(c + off, v);
      }
      err.msg[0] = 0;
      mutants.inputs++;
      if (wwd_parse(c, n, &lvl, &err)) {
        wwd_level *back = reparse(lvl, "mutant");
        char why[200] = "";
        parsed++;
        if (!back || !wwd_equal(lvl, back, why, sizeof why)) bad++;
        wwd_free(back);
        wwd_free(lvl);
      } else {
        failed++;
        if (!strstr(err.msg, "byte offset") && err.code != CODEC_E_MEMORY) {
          if (bad++ < 3) printf("mutant message without offset: %s\n", err.msg);
        }
      }
      free(c);
    }
    CHECK(bad == 0, "compress=%d: %zu bad mutants", compress, bad);
    check_loop_done(&mutants, "mutations compress=%d (%zu parsed and round-tripped, %zu refused with an offset)", compress,
                    parsed, failed);
    free(buf);
  }
}

/* Other zlib stream shapes a writer may produce: a sync flush before the
** final (empty) block, so the data fills the claimed size exactly before
** the stream's end is read, and a stream of several full-flushed pieces.
** Both must parse to the same level as the uncompressed file. */
static void test_zlib_shapes(void) {
  size_t un = 0;
  unsigned char *u = make_bytes(0, &un);
  int shape;
  if (!u) return;
  for (shape = 0; shape < 2; shape++) {
    z_stream zs;
    size_t main_len = un - WWD_HEADER_SIZE, cap = main_len * 2 + 4096, zl;
    unsigned char *z = malloc(WWD_HEADER_SIZE + cap);
    int ok = 1;
    if (!z) break;
    memset(&zs, 0, sizeof zs);
    ok = deflateInit(&zs, 6) == Z_OK;
    zs.next_out = z + WWD_HEADER_SIZE;
    zs.avail_out = (uInt)cap;
    if (shape == 0) {
      zs.next_in = u + WWD_HEADER_SIZE;
      zs.avail_in = (uInt)main_len;
      ok = ok && deflate(&zs, Z_SYNC_FLUSH) == Z_OK;
    } else {
      size_t half = main_len / 2;
      zs.next_in = u + WWD_HEADER_SIZE;
      zs.avail_in = (uInt)half;
      ok = ok && deflate(&zs, Z_FULL_FLUSH) == Z_OK;
      zs.avail_in = (uInt)(main_len - half);
      ok = ok && deflate(&zs, Z_SYNC_FLUSH) == Z_OK;
    }
    ok = ok && deflate(&zs, Z_FINISH) == Z_STREAM_END;
    zl = WWD_HEADER_SIZE + zs.total_out;
    deflateEnd(&zs);
    CHECK(ok, "deflate shape %d", shape);
    if (ok) {
      wwd_level *lvl;
      memcpy(z, u, WWD_HEADER_SIZE);
      le32_store(z + WWD_HDR_FLAGS, WWD_FLAG_USE_Z_COORDS | WWD_FLAG_COMPRESS);
      le32_store(z + WWD_HDR_DECOMPRESSED_SIZE, (uint32_t)main_len);
      lvl = parse_ok(z, zl, "flushed zlib stream");
      if (lvl) {
        wwd_level *plain = parse_ok(u, un, "plain");
        char why[200] = "";
        if (plain) le32_store(plain->header + WWD_HDR_FLAGS, WWD_FLAG_USE_Z_COORDS | WWD_FLAG_COMPRESS);
        CHECK(plain && wwd_equal(lvl, plain, why, sizeof why), "flushed stream content: %s", why);
        wwd_free(plain);
      }
      wwd_free(lvl);
    }
    free(z);
  }
  free(u);
}

/* Structural edits (wwd_edit.c): a resize keeps cells top-left and fills
** new ones, refusals leave the plane as it was, planes and tile properties
** keep their uids across inserts and removes, and the edited level
** survives serialize and parse. */
static void test_structural_edits(void) {
  wwd_level *lvl = wwd_level_new(4, 3, 64, 32), *back = NULL;
  codec_error err;
  unsigned char *buf = NULL;
  size_t n = 0;
  uint32_t x, y, uid, found;
  long at;
  char why[256];
  REQUIRE(lvl != NULL, "wwd_level_new");
  if (!lvl) return;
  for (y = 0; y < 3; y++)
    for (x = 0; x < 4; x++) lvl->planes[0].tiles[y * 4 + x] = y * 10 + x;
  codec_error_clear(&err);
  CHECK(wwd_plane_resize(lvl, 0, 6, 2, 9, &err), "resize 4x3 -> 6x2: %s", err.msg);
  {
    const wwd_plane *p = &lvl->planes[0];
    int cells_ok = 1;
    for (y = 0; y < 2; y++)
      for (x = 0; x < 6; x++) cells_ok &= p->tiles[y * 6 + x] == (x < 4 ? y * 10 + x : 9u);
    CHECK(cells_ok, "resize: old cells top-left, new cells the fill");
    CHECK(le32_load(p->header + WWD_PLANE_TILES_WIDE) == 6 && le32_load(p->header + WWD_PLANE_TILES_HIGH) == 2 &&
              le32_load(p->header + WWD_PLANE_WIDTH_PX) == 384 && le32_load(p->header + WWD_PLANE_HEIGHT_PX) == 64,
          "resize: header counts and pixel size follow");
  }
  codec_error_clear(&err);
  CHECK(!wwd_plane_resize(lvl, 0, 100000, 100000, 9, &err) && err.code == CODEC_E_LIMIT && lvl->planes[0].tiles_wide == 6,
        "resize beyond the cell cap refused, plane unchanged: %s", err.msg);
  codec_error_clear(&err);
  CHECK(!wwd_plane_resize(lvl, 0, 40000000, 1, 9, &err) && err.code == CODEC_E_LIMIT && strstr(err.msg, "pixels"),
        "resize beyond int32 pixels refused: %s", err.msg);
  codec_error_clear(&err);
  CHECK(!wwd_plane_resize(lvl, 5, 1, 1, 9, &err) && err.code == CODEC_E_ARG, "resize of a missing plane refused");
  CHECK(wwd_plane_resize(lvl, 0, 0, 2, 9, &err) && lvl->planes[0].tiles == NULL && wwd_plane_resize(lvl, 0, 2, 2, 7, &err) &&
            lvl->planes[0].tiles[3] == 7,
        "resize to no cells and back");
  /* planes: uids survive inserts and removes */
  CHECK(wwd_plane_insert(lvl, 0, 2, 2, 64, 64) && wwd_plane_insert(lvl, 2, 1, 1, 64, 64) && lvl->num_planes == 3,
        "two planes inserted");
  uid = lvl->planes[2].uid;
  CHECK(lvl->planes[1].uid == 0 && wwd_plane_find(lvl, 0, &found) && found == 1 && wwd_plane_find(lvl, uid, &found) && found == 2,
        "plane uids");
  CHECK(wwd_plane_remove(lvl, 0) && wwd_plane_find(lvl, uid, &found) && found == 1 && wwd_plane_find(lvl, 0, &found) &&
            found == 0 && lvl->num_planes == 2,
        "plane removed, others found by uid");
  CHECK(!wwd_plane_remove(lvl, 2), "removing a missing plane refused");
  CHECK(wwd_object_append(lvl, 1) == 0 && wwd_plane_remove(lvl, 1) && lvl->num_planes == 1, "a plane goes with its objects");
  /* the plane an INSERT adds: no cells yet, the header saying the size to give it */
  CHECK(wwd_plane_insert_unsized(lvl, 1, 32, 16, 5, 3, &err) && lvl->num_planes == 2 && lvl->planes[1].tiles == NULL &&
            lvl->planes[1].tiles_wide == 0 && le32_load(lvl->planes[1].header + WWD_PLANE_TILES_WIDE) == 5 &&
            le32_load(lvl->planes[1].header + WWD_PLANE_TILES_HIGH) == 3 &&
            le32_load(lvl->planes[1].header + WWD_PLANE_TILE_WIDTH) == 32 && wwd_plane_remove(lvl, 1),
        "an unsized plane: %s", err.msg);
  /* tile properties: insert at an index moves the later ones up */
  CHECK(wwd_tile_property_append(lvl, WWD_TILE_SINGLE, 64, 64) == 0 && wwd_tile_property_append(lvl, WWD_TILE_DOUBLE, 64, 64) == 1,
        "two properties appended");
  at = wwd_tile_property_insert(lvl, 1, WWD_TILE_MASK, 2, 3);
  CHECK(at == 1 && lvl->num_tile_properties == 3 && lvl->tile_properties[1].type == WWD_TILE_MASK &&
            lvl->tile_properties[1].mask_len == 6 && lvl->tile_properties[2].type == WWD_TILE_DOUBLE,
        "mask inserted at 1, double moved to 2");
  uid = lvl->tile_properties[2].uid;
  CHECK(wwd_tile_property_insert(lvl, 4, WWD_TILE_SINGLE, 1, 1) == -1 && wwd_tile_property_insert(lvl, 0, 9, 1, 1) == -1,
        "insert beyond the end or of a bad type refused");
  CHECK(wwd_tile_property_remove(lvl, 0) && wwd_tile_property_find(lvl, uid, &found) && found == 1 && lvl->num_tile_properties == 2,
        "property removed, the others found by uid");
  CHECK(!wwd_tile_property_remove(lvl, 2), "removing a missing property refused");
  /* the edits the tables make: a property written back whole, image sets, the main plane kept */
  {
    wwd_tile_property want = lvl->tile_properties[1];
    static const unsigned char mask[4] = {1, 2, 3, 4};
    const char *names[] = {"ACTION", "FRONT"};
    const size_t lens[] = {6, 5};
    want.width = 2, want.height = 2, want.type = WWD_TILE_MASK;
    codec_error_clear(&err);
    CHECK(wwd_tile_property_update(lvl, 1, &want, 1, mask, sizeof mask, &err) && lvl->tile_properties[1].type == WWD_TILE_MASK &&
              lvl->tile_properties[1].mask_len == 4 && lvl->tile_properties[1].mask[3] == 4,
          "a double property becomes a 2x2 mask with its bytes: %s", err.msg);
    want.width = 3;
    codec_error_clear(&err);
    CHECK(!wwd_tile_property_update(lvl, 1, &want, 0, NULL, 0, &err) && strstr(err.msg, "mask"),
          "a mask that no longer fits width*height refused: %s", err.msg);
    want.width = 2;
    CHECK(wwd_tile_property_update(lvl, 1, &want, 0, NULL, 0, &err), "and taken back");
    CHECK(wwd_plane_set_image_sets(&lvl->planes[0], names, lens, 2, &err) && lvl->planes[0].num_image_sets == 2 &&
              lvl->planes[0].image_sets[1].len == 5 && memcmp(lvl->planes[0].image_sets[1].data, "FRONT", 5) == 0,
          "image sets replaced");
    le32_store(lvl->planes[0].header + WWD_PLANE_FLAGS, le32_load(lvl->planes[0].header + WWD_PLANE_FLAGS) | WWD_PLANE_MAIN);
    codec_error_clear(&err);
    CHECK(!wwd_plane_delete(lvl, 0, &err) && strstr(err.msg, "main plane") && lvl->num_planes == 1,
          "the main plane is not deleted: %s", err.msg);
  }
  codec_error_clear(&err);
  CHECK(wwd_serialize(lvl, &buf, &n, &err) && wwd_parse(buf, n, &back, &err), "edited level round trip: %s", err.msg);
  why[0] = 0;
  CHECK(back && wwd_equal(lvl, back, why, sizeof why), "edited level re-parses equal: %s", why);
  CHECK(back && back->next_plane_uid == 1 && back->next_property_uid == 2 && back->tile_properties[1].uid == 1,
        "parse hands out uids in file order");
  free(buf);
  wwd_free(back);
  wwd_free(lvl);
}

/* The checksum S = -L + sum over i = 1 .. L-1 of (B[i] - i), computed
** here term by term as wwd.md states it, against wwd_checksum (which sums
** eight bytes at a time and the indexes in closed form): every length from
** 0 to 1100 (the word loop's tails and its 128-word folds), a few large
** ones, at every start alignment, over pseudo-random bytes and all-0xFF
** bytes (the largest lane sums). */
static uint32_t checksum_reference(const unsigned char *b, size_t len) {
  uint32_t s = 0u - (uint32_t)len;
  size_t i;
  for (i = 1; i < len; i++) s += (uint32_t)b[i] - (uint32_t)i;
  return s;
}

/* The edits a wwd_planes UPDATE and the new_cells option hand to the
** codec: a header whose tile counts changed resizes the plane first, and
** the size fields keep what the resize wrote; new_cells names. */
static void test_plane_update(void) {
  wwd_level *lvl = wwd_level_new(4, 3, 64, 32);
  unsigned char h[WWD_PLANE_HEADER_SIZE];
  const char *names[] = {"ACTION"};
  const size_t lens[] = {6};
  uint32_t cell = 0;
  codec_error err;
  REQUIRE(lvl != NULL, "wwd_level_new");
  if (!lvl) return;
  memcpy(h, lvl->planes[0].header, sizeof h);
  le32_store(h + WWD_PLANE_TILES_WIDE, 5);
  le32_store(h + WWD_PLANE_WIDTH_PX, 1); /* stale: the resize's value wins */
  le32_store(h + WWD_PLANE_Z, 7);
  codec_error_clear(&err);
  CHECK(wwd_plane_update(lvl, 0, h, 1, names, lens, 1, 9, &err) && lvl->planes[0].tiles_wide == 5 &&
            lvl->planes[0].tiles[4] == 9 && le32_load(lvl->planes[0].header + WWD_PLANE_WIDTH_PX) == 5 * 64 &&
            le32_load(lvl->planes[0].header + WWD_PLANE_Z) == 7 && lvl->planes[0].num_image_sets == 1,
        "update: resized to 5 wide (new cells 9), pixel width from the resize, z and image sets written: %s", err.msg);
  le32_store(h + WWD_PLANE_TILES_HIGH, 0x7fffffffu);
  le32_store(h + WWD_PLANE_Z, 8);
  codec_error_clear(&err);
  CHECK(!wwd_plane_update(lvl, 0, h, 0, NULL, NULL, 0, 9, &err) && err.code == CODEC_E_LIMIT &&
            le32_load(lvl->planes[0].header + WWD_PLANE_Z) == 7 && lvl->planes[0].tiles_high == 3,
        "update: a size that cannot be changes nothing");
  CHECK(!wwd_plane_update(lvl, 3, h, 0, NULL, NULL, 0, 9, &err) && err.code == CODEC_E_ARG, "update: no such plane");
  CHECK(wwd_new_cells_parse("Filled", &cell) && cell == WWD_TILE_FILLED && wwd_new_cells_parse("INVISIBLE", &cell) &&
            cell == WWD_TILE_INVISIBLE && wwd_new_cells_parse("12", &cell) && cell == 12,
        "new_cells: the two names in any case, a tile id");
  CHECK(!wwd_new_cells_parse("", &cell) && !wwd_new_cells_parse("-1", &cell) && !wwd_new_cells_parse(" 1", &cell) &&
            !wwd_new_cells_parse("12x", &cell) && !wwd_new_cells_parse("4294967296", &cell) &&
            !wwd_new_cells_parse("4294967295", &cell) && !wwd_new_cells_parse("4008636142", &cell),
        "new_cells: nothing signed, spaced, trailing, out of range or special by number");
  wwd_free(lvl);
}

static void test_checksum_formula(void) {
  static const size_t big[] = {4095, 4096, 4097, 65536 + 13, 300007};
  size_t cap = 300007 + 8, len, i;
  unsigned char *buf = malloc(cap);
  uint32_t seed = 12345;
  int fill, bad = 0;
  REQUIRE(buf != NULL, "checksum: out of memory");
  if (!buf) return;
  for (fill = 0; fill < 2; fill++) {
    size_t shift;
    for (i = 0; i < cap; i++) {
      seed = seed * 1103515245u + 12345u;
      buf[i] = fill ? 0xFF : (unsigned char)(seed >> 16);
    }
    for (shift = 0; shift < 8; shift++) {
      for (len = 0; len <= 1100; len++)
        if (wwd_checksum(buf + shift, len) != checksum_reference(buf + shift, len)) bad++;
      for (i = 0; i < sizeof big / sizeof big[0]; i++)
        if (wwd_checksum(buf + shift, big[i]) != checksum_reference(buf + shift, big[i])) bad++;
    }
  }
  CHECK(bad == 0, "checksum: %d lengths/alignments where wwd_checksum differs from the formula", bad);
  free(buf);
}

/* One range of bytes of a parsed level's block, for test_block. */
typedef struct block_range {
  const unsigned char *p;
  size_t n;
} block_range;

/* Collects the in-block tiles and object strings of a level; returns how
** many, or -1 when one lies outside the block or tiles are misaligned. */
static int block_ranges(const wwd_level *lvl, block_range *out, int max) {
  int n = 0, s;
  uint32_t pi, k;
  for (pi = 0; pi < lvl->num_planes; pi++) {
    const wwd_plane *p = &lvl->planes[pi];
    block_range r[2 + 64 * WWD_OBJECT_NSTRINGS];
    int m = 0, j;
    if (p->tiles_in_block) {
      r[m].p = (const unsigned char *)p->tiles;
      r[m++].n = (size_t)p->tiles_wide * p->tiles_high * 4;
      if ((uintptr_t)p->tiles % sizeof(uint32_t) != 0) return -1;
    }
    if (p->objects_in_block) {
      r[m].p = (const unsigned char *)p->objects;
      r[m++].n = (size_t)p->objects_cap * sizeof(wwd_object);
      if ((uintptr_t)p->objects % _Alignof(wwd_object) != 0) return -1;
    }
    for (k = 0; k < p->num_objects && k < 64; k++)
      for (s = 0; s < WWD_OBJECT_NSTRINGS; s++)
        if (p->objects[k].str[s].in_block) {
          r[m].p = p->objects[k].str[s].data;
          r[m++].n = p->objects[k].str[s].len;
        }
    for (j = 0; j < m; j++) {
      if (!lvl->block || r[j].p < lvl->block || r[j].n > lvl->block_size ||
          r[j].p - lvl->block > (ptrdiff_t)(lvl->block_size - r[j].n) || n == max)
        return -1;
      out[n++] = r[j];
    }
  }
  return n;
}

/* The tiles, object arrays and object strings wwd_parse puts into the
** level's block (wwd.h, Ownership), for an uncompressed and a compressed
** level: all of them are there, aligned, without sharing bytes;
** wwd_footprint counts the block once and not its contents again; a clone
** owns its own arrays; and edits of the parsed level in place (a tile
** written, a string replaced, an object removed, two appended so the
** array must grow out of the block, a plane resized and one removed)
** neither free nor
** write what they must not (a wrong free aborts, ASan sees the rest) and
** give the same level as the same edits of the clone. */
static void test_block(void) {
  int compress;
  for (compress = 0; compress < 2; compress++) {
    size_t n = 0, tiles = 0, strings = 0, arrays = 0;
    unsigned char *buf = make_bytes(compress, &n);
    wwd_level *lvl = buf ? parse_ok(buf, n, "block") : NULL, *copy;
    block_range r[64];
    int nr, i, j, disjoint = 1, all_in = 1, s;
    uint32_t pi, k;
    char why[128] = "";
    free(buf);
    REQUIRE(lvl != NULL, "block: parse (compress %d)", compress);
    if (!lvl) continue;
    for (pi = 0; pi < lvl->num_planes; pi++) {
      const wwd_plane *p = &lvl->planes[pi];
      if ((size_t)p->tiles_wide * p->tiles_high != 0) all_in &= p->tiles_in_block;
      tiles += (size_t)p->tiles_wide * p->tiles_high * 4;
      if (p->num_objects) all_in &= p->objects_in_block;
      arrays += (size_t)p->objects_cap * sizeof(wwd_object);
      for (k = 0; k < p->num_objects; k++)
        for (s = 0; s < WWD_OBJECT_NSTRINGS; s++) {
          if (p->objects[k].str[s].len) all_in &= p->objects[k].str[s].in_block;
          strings += p->objects[k].str[s].len;
        }
    }
    nr = block_ranges(lvl, r, 64);
    for (i = 0; i < nr; i++)
      for (j = i + 1; j < nr; j++)
        if (r[i].p < r[j].p + r[j].n && r[j].p < r[i].p + r[i].n) disjoint = 0;
    CHECK(all_in && nr > 0 && disjoint && lvl->block_size >= tiles + arrays + strings,
          "block (compress %d): every tile array, object array and string in the block, aligned, apart (%d ranges)",
          compress, nr);
    copy = wwd_clone(lvl);
    REQUIRE(copy != NULL, "block: clone");
    if (!copy) {
      wwd_free(lvl);
      continue;
    }
    CHECK(!copy->block && !copy->planes[1].tiles_in_block && copy->planes[1].tiles != lvl->planes[1].tiles &&
              !copy->planes[1].objects_in_block && copy->planes[1].objects != lvl->planes[1].objects &&
              !copy->planes[1].objects[0].str[WWD_STR_LOGIC].in_block && wwd_equal(lvl, copy, why, sizeof why),
          "block (compress %d): the clone owns its arrays and strings and equals the level: %s", compress, why);
    CHECK(wwd_footprint(lvl) == wwd_footprint(copy) - tiles - arrays - strings + lvl->block_size,
          "block (compress %d): footprint %zu counts the block (%zu) once, not its tiles (%zu), object arrays (%zu) "
          "and strings (%zu) again (clone: %zu)",
          compress, wwd_footprint(lvl), lvl->block_size, tiles, arrays, strings, wwd_footprint(copy));
    for (i = 0; i < 2; i++) { /* the same edits on the parsed level (i == 0) and on its clone */
      wwd_level *l = i == 0 ? lvl : copy;
      codec_error err;
      l->planes[1].tiles[3] = 4242;
      CHECK(wwd_bytes_set(&l->planes[1].objects[0].str[WWD_STR_NAME], (const unsigned char *)"Cat", 3) &&
                wwd_object_remove(l, 1, 1) && wwd_object_append(l, 1) >= 0 && wwd_object_append(l, 1) >= 0 &&
                wwd_plane_resize(l, 0, 4, 4, 7, &err) && wwd_plane_remove(l, 2),
            "block (compress %d): edits on %s", compress, i == 0 ? "the parsed level" : "the clone");
    }
    CHECK(lvl->planes[1].tiles_in_block && !lvl->planes[0].tiles_in_block && lvl->planes[1].tiles[4] == 4 &&
              !lvl->planes[1].objects_in_block && lvl->planes[1].objects[0].str[WWD_STR_NAME].len == 3 &&
              wwd_equal(lvl, copy, why, sizeof why),
          "block (compress %d): the edited level equals the edited clone, its other cells unchanged: %s", compress, why);
    wwd_free(copy);
    copy = reparse(lvl, "block: edited");
    CHECK(copy && wwd_equal(lvl, copy, why, sizeof why), "block (compress %d): the edited level round-trips: %s",
          compress, why);
    wwd_free(copy);
    wwd_free(lvl);
  }
}

int main(void) {
  test_checksum_formula();
  test_block();
  test_text8();
  test_generated();
  test_edits();
  test_structural_edits();
  test_plane_update();
  test_truncation();
  test_corruption();
  test_mutations();
  test_zlib_shapes();
  test_corpus_roundtrip();
  test_retail01_reference();
  test_bushy_strings();
  test_masks_corpus();
  return check_done();
}
