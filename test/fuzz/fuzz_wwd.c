/*
** fuzz_wwd.c: libFuzzer harness for the WWD codec and the 8-bit text
** conversion.
**
** For every input:
** - text8 (on the first 256 bytes): decoding the bytes in each code page
**   and encoding the result
**   must give the bytes back; when the input happens to be valid UTF-8 that
**   a code page can represent, encoding then decoding must give it back.
** - wwd: parse; a refusal must carry a message and CODEC_E_FORMAT, _LIMIT
**   or _MEMORY; when it succeeds, serialize (must succeed), parse the
**   output (must succeed), the two models must be equal (wwd_equal), and
**   serializing the re-parsed model must reproduce the same bytes (the
**   writer's output is a fixed point).
** - wwd edits (fuzz_wwd_edit), with parameters taken from the input's last
**   bytes: a plane resized (cells kept top-left, new cells the fill, header
**   sizes following), a plane and a tile property inserted then removed
**   (the level must equal the original again), a non-main plane removed;
**   the edited level must serialize, re-parse equal, with an exact checksum.
** Any inconsistency calls abort(), which libFuzzer reports as a crash.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/text8.h"
#include "wwd/wwd.h"

/* Reports an inconsistency and aborts so libFuzzer keeps the input. */
static void fuzz_fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_wwd: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

/* text8 round trips on the raw input, in every code page. */
static void fuzz_text8(const uint8_t *data, size_t size) {
  static const text8_codepage cps[] = {TEXT8_CP1252, TEXT8_CP1250, TEXT8_CP1251, TEXT8_LATIN1};
  size_t c;
  for (c = 0; c < sizeof cps / sizeof cps[0]; c++) {
    size_t ulen = 0, blen = 0;
    unsigned char *b = NULL;
    uint32_t bad = 0;
    char *u = text8_decode(data, size, cps[c], &ulen);
    if (!u) continue; /* out of memory */
    if (!text8_encode(u, ulen, cps[c], &b, &blen, &bad)) {
      if (bad != 0) fuzz_fail("text8: decoded bytes do not encode back", text8_codepage_name(cps[c]));
    } else if (blen != size || (size && memcmp(b, data, size) != 0)) {
      fuzz_fail("text8: bytes -> UTF-8 -> bytes differs", text8_codepage_name(cps[c]));
    }
    free(u);
    free(b);
    b = NULL;
    if (text8_encode((const char *)data, size, cps[c], &b, &blen, &bad)) {
      char *back = text8_decode(b, blen, cps[c], &ulen);
      if (back && (ulen != size || (size && memcmp(back, data, size) != 0)))
        fuzz_fail("text8: UTF-8 -> bytes -> UTF-8 differs", text8_codepage_name(cps[c]));
      free(back);
      free(b);
    }
  }
}

static void fuzz_wwd_edit(const wwd_level *parsed, const uint8_t *data, size_t size);

/* A wwd_scratch.alloc_large that gives more than asked for, filled with
** junk, as the engine's rounds up to whole huge pages. */
static void *junk_alloc(size_t n) {
  unsigned char *p = n <= SIZE_MAX - 4096 ? (unsigned char *)malloc(n + 4096) : NULL;
  if (p) memset(p, 0x5A, n + 4096);
  return p;
}

/* Parse, serialize, re-parse, compare, serialize again; then the edits. */
static void fuzz_wwd(const uint8_t *data, size_t size) {
  wwd_level *lvl = NULL, *back = NULL;
  unsigned char *out = NULL, *out2 = NULL;
  size_t out_size = 0, out2_size = 0;
  codec_error err;
  char why[256];
  codec_error_clear(&err);
  if (!wwd_parse(data, size, &lvl, &err)) {
    if (lvl) fuzz_fail("parse failed but returned a level", err.msg);
    if (!err.msg[0]) fuzz_fail("parse failed without a message", NULL);
    /* bytes are refused as damaged or beyond a cap, never as an argument */
    if (err.code != CODEC_E_FORMAT && err.code != CODEC_E_LIMIT && err.code != CODEC_E_MEMORY)
      fuzz_fail("parse failed with the wrong code", err.msg);
    return;
  }
  (void)wwd_game(lvl);
  (void)wwd_checksum_kind_name(lvl->checksum_kind);
  {
    /* a parsed level that inflates asks for exactly the scratch it uses */
    size_t want = wwd_scratch_bytes(data, size);
    int compressed = (le32_load(data + WWD_HDR_FLAGS) & WWD_FLAG_COMPRESS) != 0;
    if (compressed != (want != 0)) fuzz_fail("wwd_scratch_bytes disagrees with the compression flag", NULL);
    if (want && want <= 256u * 1024u) {
      wwd_scratch exact = {(unsigned char *)malloc(want), want, NULL, NULL};
      unsigned char *lent = exact.data;
      if (lent) {
        if (!wwd_parse_reusing(data, size, &exact, &back, &err))
          fuzz_fail("parse in a scratch of wwd_scratch_bytes failed", err.msg);
        if (exact.data != lent || exact.cap != want) fuzz_fail("the scratch of wwd_scratch_bytes had to grow", NULL);
        wwd_free(back);
        back = NULL;
        free(exact.data);
      }
    }
  }
  if (size > WWD_HEADER_SIZE && le32_load(data + WWD_HDR_DECOMPRESSED_SIZE) > 256u * 1024u) {
    /* A big compressed level: parsing it is the test; re-compressing it
    ** twice per run would leave the fuzzer a few runs a second. */
    wwd_free(lvl);
    return;
  }
  if (!wwd_serialize(lvl, &out, &out_size, &err)) fuzz_fail("serialize of a parsed level failed", err.msg);
  {
    /* the re-parse through a lent buffer, as parse-ahead threads parse:
    ** too small for a compressed level, and holding junk; the model's
    ** large parts from an allocator that gives more, holding junk too */
    wwd_scratch lent = {(unsigned char *)malloc(16), 16, junk_alloc, NULL};
    if (lent.data) memset(lent.data, 0xA5, 16);
    else lent.cap = 0;
    if (!wwd_parse_reusing(out, out_size, &lent, &back, &err))
      fuzz_fail("re-parse of serialized output failed", err.msg);
    free(lent.data);
  }
  why[0] = 0;
  if (!wwd_equal(lvl, back, why, sizeof why)) fuzz_fail("re-parsed model differs", why);
  if (back->checksum_kind != WWD_CHECKSUM_EXACT) fuzz_fail("written checksum is not exact", NULL);
  if (!wwd_serialize(back, &out2, &out2_size, &err)) fuzz_fail("second serialize failed", err.msg);
  if (out2_size != out_size || memcmp(out, out2, out_size) != 0) fuzz_fail("serialize is not a fixed point", NULL);
  {
    /* a clone serializes to the same bytes too */
    wwd_level *c = wwd_clone(lvl);
    if (c) {
      if (!wwd_equal(lvl, c, why, sizeof why)) fuzz_fail("clone differs", why);
      wwd_free(c);
    }
  }
  fuzz_wwd_edit(lvl, data, size);
  free(out);
  free(out2);
  wwd_free(back);
  wwd_free(lvl);
}

/* The edited level serializes, re-parses equal, with an exact checksum. */
static void check_round_trip(const wwd_level *lvl, const char *what) {
  unsigned char *out = NULL;
  size_t out_size = 0;
  wwd_level *back = NULL;
  codec_error err;
  char why[256];
  codec_error_clear(&err);
  if (!wwd_serialize(lvl, &out, &out_size, &err)) {
    if (err.code == CODEC_E_MEMORY || err.code == CODEC_E_LIMIT) return;
    fuzz_fail(what, err.msg);
  }
  if (!wwd_parse(out, out_size, &back, &err)) fuzz_fail(what, err.msg);
  why[0] = 0;
  if (!wwd_equal(lvl, back, why, sizeof why)) fuzz_fail(what, why);
  if (back->checksum_kind != WWD_CHECKSUM_EXACT) fuzz_fail(what, "checksum not exact");
  free(out);
  wwd_free(back);
}

/* Resizes plane p by a few cells either way and checks the result: with
** wwd_plane_resize, or (k[3] odd) with wwd_plane_update given the plane's
** header with the new tile counts, as a wwd_planes UPDATE does, which must
** come to the same. */
static void fuzz_resize(wwd_level *lvl, uint32_t p, const uint8_t *k) {
  const wwd_plane *pl = &lvl->planes[p];
  unsigned char header[WWD_PLANE_HEADER_SIZE];
  uint32_t ow = pl->tiles_wide, oh = pl->tiles_high, x, y;
  int64_t w = (int64_t)ow + (k[0] % 9) - 4, h = (int64_t)oh + (k[1] % 9) - 4;
  uint32_t fill = k[2] % 3 == 0 ? WWD_TILE_INVISIBLE : k[2] % 3 == 1 ? WWD_TILE_FILLED : k[2];
  uint32_t *old = NULL;
  codec_error err;
  size_t n = (size_t)ow * oh;
  /* a size is a uint32: a plane UINT32_MAX high grows to UINT32_MAX, not
  ** to 2^32, which the cast would wrap to 0 */
  if (w < 0) w = 0;
  if (h < 0) h = 0;
  if (w > UINT32_MAX) w = UINT32_MAX;
  if (h > UINT32_MAX) h = UINT32_MAX;
  /* a huge plane, before or after (a 0 x 16M plane, which has no cells,
  ** grown to 4 x 16M): copying and checking it every run would take seconds;
  ** a size past WWD_MAX_PLANE_CELLS is still asked for, and must be refused */
  if (n > 1u << 20) return;
  if ((uint64_t)w * (uint64_t)h > 1u << 20 && (uint64_t)w * (uint64_t)h <= WWD_MAX_PLANE_CELLS) return;
  if (n && !(old = malloc(n * sizeof *old))) return;
  if (n) memcpy(old, pl->tiles, n * sizeof *old);
  codec_error_clear(&err);
  memcpy(header, pl->header, sizeof header);
  le32_store(header + WWD_PLANE_TILES_WIDE, (uint32_t)w);
  le32_store(header + WWD_PLANE_TILES_HIGH, (uint32_t)h);
  if (k[3] % 2 ? !wwd_plane_update(lvl, p, header, 0, NULL, NULL, 0, fill, &err)
               : !wwd_plane_resize(lvl, p, (uint32_t)w, (uint32_t)h, fill, &err)) {
    /* only a size beyond the limits or memory may be refused, leaving the plane */
    if (err.code != CODEC_E_LIMIT && err.code != CODEC_E_MEMORY) fuzz_fail("resize refused", err.msg);
    if (pl->tiles_wide != ow || pl->tiles_high != oh || (n && memcmp(old, pl->tiles, n * sizeof *old) != 0))
      fuzz_fail("a refused resize changed the plane", NULL);
    free(old);
    return;
  }
  if (pl->tiles_wide != w || pl->tiles_high != h || le32_load(pl->header + WWD_PLANE_TILES_WIDE) != w ||
      le32_load(pl->header + WWD_PLANE_TILES_HIGH) != h)
    fuzz_fail("resize: dimensions", NULL);
  /* a resize to the same size is no change: a file's own pixel sizes stay,
  ** even when they do not match its tile counts */
  if ((w != ow || h != oh) &&
      (le32_load(pl->header + WWD_PLANE_WIDTH_PX) != (uint32_t)w * le32_load(pl->header + WWD_PLANE_TILE_WIDTH) ||
       le32_load(pl->header + WWD_PLANE_HEIGHT_PX) != (uint32_t)h * le32_load(pl->header + WWD_PLANE_TILE_HEIGHT)))
    fuzz_fail("resize: pixel size", NULL);
  /* no rows to walk when the plane is 0 wide: a 0 x 2^31 plane took seconds */
  for (y = 0; w > 0 && y < h; y++) {
    for (x = 0; x < w; x++) {
      uint32_t want = x < ow && y < oh ? old[(size_t)y * ow + x] : fill;
      if (pl->tiles[(size_t)y * w + x] != want) fuzz_fail("resize: a cell moved or a new cell is not the fill", NULL);
    }
  }
  free(old);
}

/* Structural edits on a clone of a parsed level (see the top of the file). */
static void fuzz_wwd_edit(const wwd_level *parsed, const uint8_t *data, size_t size) {
  uint8_t k[8] = {0};
  wwd_level *lvl;
  char why[256];
  long main_plane;
  uint32_t found;
  size_t i;
  for (i = 0; i < sizeof k && i < size; i++) k[i] = data[size - 1 - i];
  if (!(lvl = wwd_clone(parsed))) return;
  /* a plane inserted then removed, a property inserted then removed */
  if (wwd_plane_insert(lvl, k[3] % (lvl->num_planes + 1), k[4] % 5, k[5] % 5, 64, 64)) {
    uint32_t at = k[3] % (lvl->num_planes);
    if (lvl->planes[at].uid != lvl->next_plane_uid - 1 || !wwd_plane_find(lvl, lvl->planes[at].uid, &found) || found != at)
      fuzz_fail("inserted plane: uid", NULL);
    if (!wwd_plane_remove(lvl, at)) fuzz_fail("removing the inserted plane failed", NULL);
  }
  if (lvl->num_tile_properties < (1u << 16)) {
    long at = wwd_tile_property_insert(lvl, k[6] % (lvl->num_tile_properties + 1), 1 + k[7] % 3, k[4] % 9, k[5] % 9);
    if (at >= 0) {
      if (!wwd_tile_property_find(lvl, lvl->tile_properties[at].uid, &found) || found != (uint32_t)at) fuzz_fail("inserted property: uid", NULL);
      if (!wwd_tile_property_remove(lvl, (uint32_t)at)) fuzz_fail("removing the inserted property failed", NULL);
    }
  }
  why[0] = 0;
  if (!wwd_equal(parsed, lvl, why, sizeof why)) fuzz_fail("insert then remove changed the level", why);
  if (lvl->num_planes) {
    uint32_t p = k[0] % lvl->num_planes;
    fuzz_resize(lvl, p, k + 1);
    main_plane = wwd_main_plane(lvl);
    p = k[3] % lvl->num_planes;
    if ((long)p != main_plane) {
      uint32_t before = lvl->num_planes;
      if (!wwd_plane_remove(lvl, p) || lvl->num_planes != before - 1) fuzz_fail("plane remove", NULL);
    }
  }
  check_round_trip(lvl, "edited level");
  wwd_free(lvl);
}

/* The input's first bytes as a new_cells option value: a tile id taken
** must be one (digits never name a special value). */
static void fuzz_new_cells(const uint8_t *data, size_t size) {
  char text[24];
  uint32_t cell = 0;
  size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
  memcpy(text, data, n);
  text[n] = 0;
  if (wwd_new_cells_parse(text, &cell) && text[0] >= '0' && text[0] <= '9' &&
      (cell == WWD_TILE_INVISIBLE || cell == WWD_TILE_FILLED))
    fuzz_fail("new_cells: a number named a special value", text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libFuzzer entry point. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* level strings are short (256 bytes at most in a header field); converting
  ** more of the input four ways would take most of each run (at 4 KiB it took
  ** 70% of it) */
  fuzz_text8(data, size < 256 ? size : 256);
  fuzz_new_cells(data, size);
  fuzz_wwd(data, size);
  return 0;
}
