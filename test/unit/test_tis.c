/*
** test_tis.c: unit tests of the tileset codecs (codecs/tis/: dxt, pvrz,
** tis).
**
** - DXT1 and DXT5 blocks made by hand with known pixels, every mode
**   (four colours, three colours + transparent, c0 == c1, eight and six
**   alphas, DXT5's colour block always in four-colour mode), images whose
**   sides are not multiples of 4, rectangles at any pixel.
** - PVRZ textures built here (PVR v3 in zlib): fields, pixels, and hostile
**   ones: a huge claimed size or dimensions (refused before allocating),
**   a bad PVR version, an unknown pixel format, truncated and damaged
**   streams, a claimed size the stream does not hold.
** - TIS files built here: palette tiles under the three transparency
**   rules, PVRZ tiles through a page lookup (page -1 black, x, y not
**   multiples of 4, a missing page, a page out of range, a rectangle off
**   its page), headerless tilesets, every truncation, bad headers; written
**   back byte for byte (tis_serialize, tis_clone).
** - The page file names (YS0108 page 1 is Y010801.PVRZ, night tilesets).
** - The real corpus (LEVELSQL_CORPUS/tis and /pvrz, SKIPped when absent):
**   every TIS parses and is written back byte for byte, every tile decodes (PVRZ tiles through the corpus
**   pages, counted as skipped when a page file is missing), palette
**   pixels equal their palette entry read from the raw bytes, known
**   pixels of palette and PVRZ tiles (worked out by hand from the palette
**   bytes and the DXT blocks, NOTES-tis.md),
**   every PVRZ page parses and decodes; the transparency numbers of
**   NOTES-tis.md are printed as INFO lines.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "fileutil.h"
#include "common/bytes.h"
#include "tis/dxt.h"
#include "tis/pvrz.h"
#include "tis/tis.h"

/* ---- helpers ---------------------------------------------------------------- */

static int px_is(const unsigned char *p, int r, int g, int b, int a) {
  return p[0] == r && p[1] == g && p[2] == b && p[3] == a;
}

/* A DXT1 block: colours c0, c1 and the 2-bit index of each pixel. */
static void make_dxt1(unsigned char b[8], uint16_t c0, uint16_t c1, const int idx[16]) {
  uint32_t bits = 0;
  int i;
  for (i = 0; i < 16; i++) bits |= (uint32_t)(idx[i] & 3) << (2 * i);
  le16_store(b, c0);
  le16_store(b + 2, c1);
  le32_store(b + 4, bits);
}

/* A DXT5 block: alphas a0, a1 and 3-bit indices, then a DXT1 colour block. */
static void make_dxt5(unsigned char b[16], int a0, int a1, const int aidx[16], uint16_t c0, uint16_t c1,
                      const int idx[16]) {
  uint64_t bits = 0;
  int i;
  for (i = 0; i < 16; i++) bits |= (uint64_t)(aidx[i] & 7) << (3 * i);
  b[0] = (unsigned char)a0;
  b[1] = (unsigned char)a1;
  for (i = 0; i < 6; i++) b[2 + i] = (unsigned char)(bits >> (8 * i));
  make_dxt1(b + 8, c0, c1, idx);
}

/* A PVR v3 texture (header, meta_size bytes of metadata, the blocks). */
static unsigned char *make_pvr(uint32_t version, uint64_t format, uint32_t w, uint32_t h, uint32_t meta_size,
                               const unsigned char *blocks, size_t nblocks, size_t *size) {
  size_t n = PVR_HEADER_SIZE + meta_size + nblocks;
  unsigned char *p = (unsigned char *)calloc(1, n);
  uint32_t f[13];
  int i;
  if (!p) return NULL;
  f[0] = version, f[1] = 0, f[2] = (uint32_t)format, f[3] = (uint32_t)(format >> 32), f[4] = 0, f[5] = 0;
  f[6] = h, f[7] = w, f[8] = 1, f[9] = 1, f[10] = 1, f[11] = 1, f[12] = meta_size;
  for (i = 0; i < 13; i++) le32_store(p + 4 * i, f[i]);
  memset(p + PVR_HEADER_SIZE, 0xAB, meta_size);
  if (nblocks) memcpy(p + PVR_HEADER_SIZE + meta_size, blocks, nblocks);
  *size = n;
  return p;
}

/* raw wrapped as a PVRZ: claimed size (or the real one when claim is 0),
** then the zlib stream of raw. */
static unsigned char *make_pvrz(const unsigned char *raw, size_t raw_size, uint32_t claim, size_t *size) {
  uLongf zl = compressBound((uLong)raw_size);
  unsigned char *p = (unsigned char *)malloc(4 + zl);
  if (!p) return NULL;
  if (compress2(p + 4, &zl, raw, (uLong)raw_size, 6) != Z_OK) {
    free(p);
    return NULL;
  }
  le32_store(p, claim ? claim : (uint32_t)raw_size);
  *size = 4 + zl;
  return p;
}

/* ---- DXT -------------------------------------------------------------------- */

static void test_dxt1_blocks(void) {
  unsigned char b[8], px[64];
  int idx[16], i;
  for (i = 0; i < 16; i++) idx[i] = i % 4;
  /* four colours: red > blue as numbers */
  make_dxt1(b, 0xF800, 0x001F, idx);
  dxt1_block(b, px);
  CHECK(px_is(px, 255, 0, 0, 255), "dxt1 4-colour c0: %u %u %u %u", px[0], px[1], px[2], px[3]);
  CHECK(px_is(px + 4, 0, 0, 255, 255), "dxt1 4-colour c1");
  CHECK(px_is(px + 8, 170, 0, 85, 255), "dxt1 4-colour (2c0+c1)/3: %u %u %u %u", px[8], px[9], px[10], px[11]);
  CHECK(px_is(px + 12, 85, 0, 170, 255), "dxt1 4-colour (c0+2c1)/3");
  CHECK(px_is(px + 60, 85, 0, 170, 255), "dxt1 pixel 15 (row 3, column 3) has index 3");
  /* three colours + transparent: c0 < c1 */
  make_dxt1(b, 0x001F, 0xF800, idx);
  dxt1_block(b, px);
  CHECK(px_is(px, 0, 0, 255, 255) && px_is(px + 4, 255, 0, 0, 255), "dxt1 3-colour c0, c1");
  CHECK(px_is(px + 8, 127, 0, 127, 255), "dxt1 3-colour (c0+c1)/2: %u %u %u %u", px[8], px[9], px[10], px[11]);
  CHECK(px_is(px + 12, 0, 0, 0, 0), "dxt1 3-colour index 3 is transparent black");
  /* c0 == c1 is the three-colour mode too */
  make_dxt1(b, 0x07E0, 0x07E0, idx);
  dxt1_block(b, px);
  CHECK(px_is(px, 0, 255, 0, 255) && px_is(px + 8, 0, 255, 0, 255) && px_is(px + 12, 0, 0, 0, 0),
        "dxt1 c0 == c1: green, green, green, transparent");
  /* widening of 5 and 6 bits: r=1, g=2, b=1 -> 8, 8, 8; r=16 -> 132 */
  make_dxt1(b, 0x8000, 0x0841, idx);
  dxt1_block(b, px);
  CHECK(px_is(px, 132, 0, 0, 255) && px_is(px + 4, 8, 8, 8, 255), "dxt1 5:6:5 widening: %u / %u %u %u", px[0],
        px[4], px[5], px[6]);
  /* a pixel's index picks its own colour: only pixel 5 differs */
  memset(idx, 0, sizeof idx);
  idx[5] = 1;
  make_dxt1(b, 0xFFFF, 0x0000, idx);
  dxt1_block(b, px);
  CHECK(px_is(px + 20, 0, 0, 0, 255) && px_is(px + 16, 255, 255, 255, 255) && px_is(px + 24, 255, 255, 255, 255),
        "dxt1 pixel 5 (row 1, column 1) alone black");
}

static void test_dxt5_blocks(void) {
  unsigned char b[16], px[64];
  int idx[16], aidx[16], i;
  static const int eight[8] = {255, 0, 218, 182, 145, 109, 72, 36};
  static const int six[8] = {50, 200, 80, 110, 140, 170, 0, 255};
  for (i = 0; i < 16; i++) idx[i] = i % 4, aidx[i] = i % 8;
  /* eight alphas (a0 > a1) */
  make_dxt5(b, 255, 0, aidx, 0xF800, 0x001F, idx);
  dxt5_block(b, px);
  for (i = 0; i < 16; i++)
    CHECK(px[4 * i + 3] == eight[i % 8], "dxt5 8-alpha pixel %d: %u, want %d", i, px[4 * i + 3], eight[i % 8]);
  CHECK(px[0] == 255 && px[4 + 2] == 255 && px[8] == 170, "dxt5 colours as DXT1's four-colour mode");
  /* six alphas (a0 <= a1), then 0 and 255 */
  make_dxt5(b, 50, 200, aidx, 0xF800, 0x001F, idx);
  dxt5_block(b, px);
  for (i = 0; i < 8; i++) CHECK(px[4 * i + 3] == six[i], "dxt5 6-alpha index %d: %u, want %d", i, px[4 * i + 3], six[i]);
  /* DXT5's colour block is four-colour even when c0 <= c1: index 3 opaque */
  make_dxt5(b, 255, 255, aidx, 0x001F, 0xF800, idx);
  dxt5_block(b, px);
  CHECK(px_is(px + 8, 85, 0, 170, 255) && px_is(px + 12, 170, 0, 85, 255), "dxt5 c0 < c1 still four colours: %u %u "
        "%u %u", px[12], px[13], px[14], px[15]);
  CHECK(px[3] == 255 && px[7] == 255, "dxt5 a0 == a1 == 255: indices 0 and 1 opaque");
}

/* A 6 x 5 image of 2 x 2 DXT1 blocks, each a solid colour: the decoded
** image is clipped, and rectangles at any pixel pick the right blocks. */
static void test_dxt_images(void) {
  unsigned char blocks[32], img[6 * 5 * 4], rect[3 * 3 * 4], b5[64];
  static const uint16_t col[4] = {0xF800, 0x07E0, 0x001F, 0xFFFF};
  int idx[16] = {0}, i, ok = 1, x, y;
  codec_error err = {0};
  size_t need = 0;
  for (i = 0; i < 4; i++) make_dxt1(blocks + 8 * i, col[i], 0, idx); /* c0 > c1: index 0 = c0, opaque */
  CHECK(dxt_image_bytes(DXT_FORMAT_DXT1, 6, 5, &need, &err) && need == 32, "6x5 DXT1 needs 32 bytes: %zu", need);
  CHECK(dxt_image_bytes(DXT_FORMAT_DXT5, 6, 5, &need, &err) && need == 64, "6x5 DXT5 needs 64 bytes");
  CHECK(dxt_decode_image(DXT_FORMAT_DXT1, blocks, sizeof blocks, 6, 5, img, &err), "6x5 image: %s", err.msg);
  for (y = 0; y < 5; y++)
    for (x = 0; x < 6; x++) {
      const unsigned char *p = img + (y * 6 + x) * 4;
      int blk = (y / 4) * 2 + x / 4;
      int want_r = blk == 0 || blk == 3 ? 255 : 0, want_g = blk == 1 || blk == 3 ? 255 : 0;
      ok &= p[0] == want_r && p[1] == want_g && p[3] == 255;
    }
  CHECK(ok, "6x5 image: each pixel from its block");
  memset(rect, 0x55, sizeof rect);
  CHECK(dxt_decode_rect(DXT_FORMAT_DXT1, blocks, sizeof blocks, 6, 5, 3, 2, 3, 3, rect, 12, &err), "rect: %s",
        err.msg);
  CHECK(px_is(rect, 255, 0, 0, 255) && px_is(rect + 4, 0, 255, 0, 255) && px_is(rect + 2 * 12, 0, 0, 255, 255) &&
            px_is(rect + 2 * 12 + 8, 255, 255, 255, 255),
        "3x3 rect at (3, 2) straddles the four blocks");
  CHECK(!dxt_decode_rect(DXT_FORMAT_DXT1, blocks, sizeof blocks, 6, 5, 4, 3, 3, 3, rect, 12, &err) &&
            strstr(err.msg, "outside"),
        "rect past the image's right edge refused: %s", err.msg);
  CHECK(!dxt_decode_rect(DXT_FORMAT_DXT1, blocks, sizeof blocks, 6, 5, 0xFFFFFFFFu, 0, 2, 2, rect, 12, &err),
        "rect at x 2^32-1 refused");
  CHECK(!dxt_decode_image(DXT_FORMAT_DXT1, blocks, 31, 6, 5, img, &err) && strstr(err.msg, "byte offset 31"),
        "31 of 32 bytes: truncated: %s", err.msg);
  CHECK(!dxt_decode_image(9, blocks, sizeof blocks, 6, 5, img, &err) && strstr(err.msg, "pixel format 9"),
        "DXT3 refused: %s", err.msg);
  CHECK(!dxt_decode_rect(DXT_FORMAT_DXT1, blocks, sizeof blocks, 6, 5, 0, 0, 3, 3, rect, 11, &err) &&
            err.code == CODEC_E_ARG,
        "a stride shorter than a row refused");
  CHECK(!dxt_image_bytes(DXT_FORMAT_DXT5, 0xFFFFFFFFu, 0xFFFFFFFFu, &need, &err) || sizeof(size_t) > 4,
        "2^32 x 2^32: overflow caught on 32-bit");
  memset(b5, 0, sizeof b5);
  CHECK(dxt_decode_image(DXT_FORMAT_DXT5, b5, 16, 3, 3, img, &err), "a 3x3 DXT5 image is one block");
}

/* ---- PVRZ ------------------------------------------------------------------- */

/* A 8 x 4 DXT1 page of two blocks (red, blue), in a PVRZ with 5 bytes of
** metadata. */
static unsigned char *small_pvrz(size_t *size) {
  unsigned char blocks[16], *raw, *z;
  int idx[16] = {0};
  size_t rs;
  make_dxt1(blocks, 0xF800, 0, idx);
  make_dxt1(blocks + 8, 0x001F, 0, idx);
  raw = make_pvr(PVR_VERSION, DXT_FORMAT_DXT1, 8, 4, 5, blocks, sizeof blocks, &rs);
  z = raw ? make_pvrz(raw, rs, 0, size) : NULL;
  free(raw);
  return z;
}

/* Expects data to be refused with `code` and a message holding `what`. */
static void expect_pvrz_refused(const unsigned char *data, size_t size, int code, const char *what, const char *name) {
  pvrz_page *p = NULL;
  codec_error err = {0};
  int ok = pvrz_parse(data, size, 0, &p, &err);
  CHECK(!ok && !p && err.code == code && strstr(err.msg, what), "%s: refused (code %d) with '%s': got %d, %d '%s'",
        name, code, what, ok, err.code, err.msg);
  pvrz_free(p);
}

static void test_pvrz(void) {
  size_t size = 0, rs = 0, zs = 0, i;
  unsigned char *z = small_pvrz(&size), *raw, *zz, *rgba = NULL, blocks[16] = {0};
  pvrz_page *p = NULL;
  codec_error err = {0};
  check_loop cut = {0, 0, 0};
  REQUIRE(z, "a PVRZ built");
  if (!z) return;
  CHECK(pvrz_parse(z, size, 0, &p, &err), "small PVRZ parses: %s", err.msg);
  if (p) {
    CHECK(p->width == 8 && p->height == 4 && p->pixel_format == DXT_FORMAT_DXT1 && p->meta_size == 5 &&
              p->meta[4] == 0xAB && p->blocks_size == 16 && p->declared_size == 52 + 5 + 16,
          "fields: %ux%u format %llu meta %u", p->width, p->height, (unsigned long long)p->pixel_format, p->meta_size);
    CHECK(pvrz_decode(p, &rgba, &rs, &err) && rs == 8 * 4 * 4 && px_is(rgba, 255, 0, 0, 255) &&
              px_is(rgba + 4 * 4, 0, 0, 255, 255) && px_is(rgba + (3 * 8 + 7) * 4, 0, 0, 255, 255),
          "decoded: red block, blue block");
    free(rgba);
  }
  pvrz_free(p);
  /* every truncation of the file is refused, never read */
  check_loop_enter(&cut);
  for (i = 0; i < size; i++) {
    p = NULL;
    cut.inputs++;
    CHECK(!pvrz_parse(z, i, 0, &p, &err) && !p && err.msg[0], "cut at %zu accepted", i);
    pvrz_free(p);
  }
  check_loop_done(&cut, "PVRZ cut at every byte");
  /* claims: huge (refused before allocating), more or less than the stream */
  le32_store(z, 0xFFFFFFFFu);
  expect_pvrz_refused(z, size, CODEC_E_LIMIT, "over the limit", "claims 4 GiB");
  CHECK(!pvrz_parse(z, size, 1000, &p, &err) && err.code == CODEC_E_LIMIT, "a caller's cap of 1000 bytes");
  le32_store(z, 52 + 5 + 16 + 1);
  expect_pvrz_refused(z, size, CODEC_E_FORMAT, "the stream holds 73", "claims one byte more");
  le32_store(z, 52 + 5 + 16 - 1);
  expect_pvrz_refused(z, size, CODEC_E_FORMAT, "more than the 72 bytes", "claims one byte less");
  le32_store(z, 10);
  expect_pvrz_refused(z, size, CODEC_E_FORMAT, "less than a PVR header", "claims 10 bytes");
  le32_store(z, 52 + 5 + 16);
  z[size / 2] ^= 0x5A;
  z[size / 2 + 1] ^= 0xA5;
  {
    pvrz_page *q = NULL;
    int ok = pvrz_parse(z, size, 0, &q, &err);
    CHECK(!ok && (strstr(err.msg, "damaged") || strstr(err.msg, "truncated") || strstr(err.msg, "inflates")),
          "a damaged stream refused: %s", err.msg);
    pvrz_free(q);
  }
  free(z);
  /* PVR headers: version, byte order, pixel formats, dimensions, metadata */
  {
    struct {
      uint32_t version;
      uint64_t format;
      uint32_t w, h, meta;
      size_t nblocks;
      int code;
      const char *what, *name;
    } bad[] = {
        {0x02525650u, 7, 4, 4, 0, 8, CODEC_E_FORMAT, "not PVR v3", "PVR version 2"},
        {PVR_VERSION_SWAPPED, 7, 4, 4, 0, 8, CODEC_E_FORMAT, "big-endian", "big-endian header"},
        {PVR_VERSION, 9, 4, 4, 0, 16, CODEC_E_FORMAT, "pixel format 9 (DXT3)", "DXT3"},
        {PVR_VERSION, 3, 4, 4, 0, 16, CODEC_E_FORMAT, "pixel format 3 (PVRTC 4bpp)", "PVRTC"},
        {PVR_VERSION, 0x0808080861626772ull, 4, 4, 0, 64, CODEC_E_FORMAT, "uncompressed", "RGBA8888"},
        {PVR_VERSION, 7, 100000, 4, 0, 8, CODEC_E_LIMIT, "100000x4", "100000 pixels wide"},
        {PVR_VERSION, 7, 0, 4, 0, 8, CODEC_E_LIMIT, "0x4", "0 pixels wide"},
        {PVR_VERSION, 11, 16384, 16384, 0, 16, CODEC_E_FORMAT, "need 268435456 bytes", "16384^2 DXT5, 16 bytes"},
        {PVR_VERSION, 7, 8, 8, 0, 24, CODEC_E_FORMAT, "truncated", "one block short"},
    };
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      unsigned char big[64] = {0};
      raw = make_pvr(bad[i].version, bad[i].format, bad[i].w, bad[i].h, bad[i].meta, big, bad[i].nblocks, &rs);
      zz = raw ? make_pvrz(raw, rs, 0, &zs) : NULL;
      if (zz) expect_pvrz_refused(zz, zs, bad[i].code, bad[i].what, bad[i].name);
      free(raw);
      free(zz);
    }
    /* metadata size 2^32-1 */
    raw = make_pvr(PVR_VERSION, 7, 4, 4, 0, blocks, 8, &rs);
    if (raw) {
      le32_store(raw + 48, 0xFFFFFFFFu);
      zz = make_pvrz(raw, rs, 0, &zs);
      if (zz) expect_pvrz_refused(zz, zs, CODEC_E_FORMAT, "pvr metadata", "metadata of 4 GiB");
      free(zz);
    }
    free(raw);
  }
  expect_pvrz_refused((const unsigned char *)"\x40", 1, CODEC_E_FORMAT, "need 4 bytes", "1 byte");
  /* a whole page of 8192 x 4096 pixels (128 MiB of RGBA) is refused before
  ** allocating; its rectangles still decode */
  {
    static unsigned char big_blocks[2048 * 1024 * 8];
    pvrz_page big;
    unsigned char tile[64 * 64 * 4];
    memset(&big, 0, sizeof big);
    big.pixel_format = DXT_FORMAT_DXT1, big.width = 8192, big.height = 4096;
    big.blocks = big_blocks, big.blocks_size = sizeof big_blocks;
    rgba = NULL;
    CHECK(!pvrz_decode(&big, &rgba, &rs, &err) && !rgba && err.code == CODEC_E_LIMIT, "8192x4096 whole: %s", err.msg);
    CHECK(pvrz_decode_rect(&big, 8128, 4032, 64, 64, tile, 256, &err) && px_is(tile, 0, 0, 0, 255),
          "8192x4096: its last tile decodes: %s", err.msg);
  }
}

/* ---- TIS -------------------------------------------------------------------- */

/* Two palette tiles: palette entry i = (B, G, R) = (i, i ^ 0x55, i / 2),
** entry 7 pure green, index 0 a colour too; tile t's pixel i has index
** (i + t) % 256. */
static unsigned char *v1_file(size_t *size) {
  size_t n = TIS_HEADER_SIZE + 2 * TIS_V1_ENTRY, t, i;
  unsigned char *p = (unsigned char *)calloc(1, n);
  if (!p) return NULL;
  tis_header_write(p, 2, TIS_V1_ENTRY);
  for (t = 0; t < 2; t++) {
    unsigned char *e = p + TIS_HEADER_SIZE + t * TIS_V1_ENTRY;
    for (i = 0; i < 256; i++) {
      e[4 * i] = (unsigned char)i;
      e[4 * i + 1] = (unsigned char)(i ^ 0x55);
      e[4 * i + 2] = (unsigned char)(i / 2);
    }
    e[28] = 0, e[29] = 255, e[30] = 0;
    for (i = 0; i < TIS_TILE_PIXELS; i++) e[TIS_PALETTE_BYTES + i] = (unsigned char)((i + t) % 256);
  }
  *size = n;
  return p;
}

static void test_tis_v1(void) {
  size_t size = 0, i;
  unsigned char *f = v1_file(&size), rgba[TIS_TILE_RGBA_BYTES];
  tis_file *t = NULL;
  codec_error err = {0};
  tis_decode_opts o = {TIS_ALPHA_GREEN, NULL, NULL};
  check_loop cut = {0, 0, 0};
  REQUIRE(f, "a TIS built");
  if (!f) return;
  CHECK(tis_sniff(f, size) && !tis_sniff(f, 7) && !tis_sniff(f + 1, size - 1), "tis_sniff");
  CHECK(tis_parse(f, size, &t, &err), "V1 parses: %s", err.msg);
  if (t) {
    CHECK(t->kind == TIS_PALETTE && t->tile_count == 2 && t->has_header && !t->trailing_size, "V1 fields");
    CHECK(tis_tile_palette(t, 1)[4 * 9] == 9 && tis_tile_indices(t, 1)[0] == 1 && !tis_tile_palette(t, 2),
          "palette and index accessors");
    CHECK(tis_decode(t, 0, &o, rgba, &err), "tile 0 decodes: %s", err.msg);
    CHECK(px_is(rgba, 0, 85, 0, 255) && px_is(rgba + 4 * 9, 4, 92, 9, 255), "tile 0 pixel 0 = entry 0 (opaque: index "
          "0 is a colour), pixel 9 = entry 9");
    CHECK(px_is(rgba + 4 * 7, 0, 255, 0, 0), "entry 7, pure green: transparent");
    CHECK(tis_decode(t, 1, &o, rgba, &err) && px_is(rgba + 4 * 6, 0, 255, 0, 0) && px_is(rgba + 4 * 255, 0, 85, 0, 255),
          "tile 1 pixel 6 = entry 7 transparent, pixel 255 = entry 0 opaque");
    o.alpha = TIS_ALPHA_INDEX0;
    CHECK(tis_decode(t, 0, &o, rgba, &err) && rgba[3] == 0 && rgba[4 * 7 + 3] == 255, "IESDP's rule: index 0 "
          "transparent, green opaque");
    o.alpha = TIS_ALPHA_NONE;
    CHECK(tis_decode(t, 0, &o, rgba, &err) && rgba[3] == 255 && rgba[4 * 7 + 3] == 255, "no transparency");
    CHECK(tis_decode(t, 0, NULL, rgba, &err) && rgba[4 * 7 + 3] == 0, "default options: green");
    CHECK(!tis_decode(t, 2, &o, rgba, &err) && err.code == CODEC_E_ARG && strstr(err.msg, "tile 2"),
          "tile 2 of 2: %s", err.msg);
    tis_free(t);
  }
  /* headerless: the tiles alone, given count and entry length */
  t = NULL;
  CHECK(tis_parse_headerless(f + TIS_HEADER_SIZE, size - TIS_HEADER_SIZE, 2, TIS_V1_ENTRY, &t, &err) && t &&
            !t->has_header && t->kind == TIS_PALETTE && tis_tile_indices(t, 1)[3] == 4,
        "headerless V1: %s", err.msg);
  tis_free(t);
  t = NULL;
  CHECK(!tis_parse_headerless(f + TIS_HEADER_SIZE, size - TIS_HEADER_SIZE, 3, TIS_V1_ENTRY, &t, &err) &&
            strstr(err.msg, "tile 2: byte offset 10240: truncated"),
        "headerless, 3 tiles claimed of 2: %s", err.msg);
  check_loop_enter(&cut);
  for (i = 0; i < size; i += (i < 64 ? 1 : 97)) {
    t = NULL;
    cut.inputs++;
    CHECK(!tis_parse(f, i, &t, &err) && !t && err.msg[0], "V1 cut at %zu accepted", i);
    tis_free(t);
  }
  check_loop_done(&cut, "V1 cut at many bytes");
  free(f);
}

/* The page lookup of the tests: pages[0..n) (NULL = missing). */
typedef struct page_set {
  const pvrz_page *pages[TIS_MAX_PAGE + 1];
  int missing;         /* lookups of a missing page */
} page_set;

static const pvrz_page *page_lookup(void *ctx, int32_t page, codec_error *err) {
  page_set *s = (page_set *)ctx;
  if (page < 0 || page > TIS_MAX_PAGE || !s->pages[page]) {
    s->missing++;
    codec_fail(err, "no page file");
    return NULL;
  }
  return s->pages[page];
}

/* A page of w x h pixels of `format` from its blocks, through a PVRZ file
** and pvrz_parse (NULL when that fails). */
static pvrz_page *page_of(uint64_t format, uint32_t w, uint32_t h, const unsigned char *blocks, size_t n) {
  unsigned char *raw, *z;
  size_t rs, zs;
  pvrz_page *p = NULL;
  codec_error err = {0};
  raw = make_pvr(PVR_VERSION, format, w, h, 0, blocks, n, &rs);
  z = raw ? make_pvrz(raw, rs, 0, &zs) : NULL;
  if (z) (void)pvrz_parse(z, zs, 0, &p, &err);
  free(raw);
  free(z);
  return p;
}

/* A 16 x 16 DXT1 page: block (bx, by) is solid red of 5-bit value
** bx * 8 + by + 1. */
static pvrz_page *grid_page(void) {
  unsigned char blocks[16 * 8];
  int idx[16] = {0}, bx, by;
  for (by = 0; by < 4; by++)
    for (bx = 0; bx < 4; bx++) make_dxt1(blocks + 8 * (by * 4 + bx), (uint16_t)((bx * 8 + by + 1) << 11), 0, idx);
  return page_of(DXT_FORMAT_DXT1, 16, 16, blocks, sizeof blocks);
}

/* A 96 x 80 DXT5 page, white, whose block (bx, by) has alpha bx * 8 + by. */
static pvrz_page *big_page(void) {
  static unsigned char blocks[24 * 20 * 16];
  int idx[16] = {0}, aidx[16] = {0}, bx, by;
  for (by = 0; by < 20; by++)
    for (bx = 0; bx < 24; bx++) make_dxt5(blocks + 16 * (by * 24 + bx), bx * 8 + by, 0, aidx, 0xFFFF, 0, idx);
  return page_of(DXT_FORMAT_DXT5, 96, 80, blocks, sizeof blocks);
}

static void test_tis_v2(void) {
  /* tile 0 black, tile 1 page 0 at (3, 5), tile 2 page 1 (missing), tile 3
  ** page 0 at (40, 0) (off the page), tile 4 page 100, tile 5 page -2 */
  static const int32_t refs[6][3] = {{-1, 7, 9}, {0, 3, 5}, {1, 0, 0}, {0, 40, 0}, {100, 0, 0}, {-2, 0, 0}};
  unsigned char f[TIS_HEADER_SIZE + 6 * 12 + 3] = {0}, rgba[TIS_TILE_RGBA_BYTES];
  size_t fsize = TIS_HEADER_SIZE + 6 * 12; /* the 3 bytes after: trailing bytes of the headerless case */
  tis_file *t = NULL;
  codec_error err = {0};
  page_set s;
  tis_decode_opts o = {TIS_ALPHA_GREEN, page_lookup, &s};
  pvrz_page *pg = big_page();
  size_t i;
  int ok = 1;
  memset(&s, 0, sizeof s);
  s.pages[0] = pg;
  REQUIRE(pg, "a 96x80 DXT5 page built");
  tis_header_write(f, 6, TIS_V2_ENTRY);
  for (i = 0; i < 6; i++) {
    le32_store(f + TIS_HEADER_SIZE + 12 * i, (uint32_t)refs[i][0]);
    le32_store(f + TIS_HEADER_SIZE + 12 * i + 4, (uint32_t)refs[i][1]);
    le32_store(f + TIS_HEADER_SIZE + 12 * i + 8, (uint32_t)refs[i][2]);
  }
  CHECK(tis_parse(f, fsize, &t, &err), "V2 parses: %s", err.msg);
  if (!t || !pg) {
    tis_free(t);
    pvrz_free(pg);
    return;
  }
  CHECK(t->kind == TIS_PVRZ && t->refs[0].page == -1 && t->refs[1].x == 3 && t->refs[1].y == 5, "V2 entries");
  CHECK(tis_decode(t, 0, &o, rgba, &err) && px_is(rgba, 0, 0, 0, 255) && px_is(rgba + 4095 * 4, 0, 0, 0, 255),
        "page -1: solid black");
  CHECK(tis_decode(t, 1, &o, rgba, &err), "tile at (3, 5): %s", err.msg);
  for (i = 0; i < TIS_TILE_PIXELS; i++) {
    uint32_t x = 3 + (uint32_t)(i % 64), y = 5 + (uint32_t)(i / 64);
    ok &= rgba[4 * i + 3] == (x / 4) * 8 + y / 4 && px_is(rgba + 4 * i, 255, 255, 255, rgba[4 * i + 3]);
  }
  CHECK(ok, "tile at (3, 5): every pixel from the block under it");
  CHECK(!tis_decode(t, 2, &o, rgba, &err) && s.missing == 1 && strstr(err.msg, "tile 2: page 1: no page file"),
        "a missing page: %s", err.msg);
  CHECK(!tis_decode(t, 3, &o, rgba, &err) && strstr(err.msg, "tile 3: page 0 at (40, 0)") &&
            strstr(err.msg, "outside the 96x80"),
        "a tile off its page: %s", err.msg);
  CHECK(!tis_decode(t, 4, &o, rgba, &err) && strstr(err.msg, "tile 4: page 100"), "page 100: %s", err.msg);
  CHECK(!tis_decode(t, 5, &o, rgba, &err) && strstr(err.msg, "tile 5: page -2"), "page -2: %s", err.msg);
  CHECK(!tis_decode(t, 1, NULL, rgba, &err) && err.code == CODEC_E_ARG, "no lookup: %s", err.msg);
  tis_free(t);
  t = NULL;
  CHECK(tis_parse_headerless(f + TIS_HEADER_SIZE, 6 * 12 + 3, 6, TIS_V2_ENTRY, &t, &err) && t &&
            t->trailing_size == 3 && t->refs[5].page == -2,
        "headerless V2 with 3 trailing bytes kept: %s", err.msg);
  tis_free(t);
  pvrz_free(pg);
  pg = grid_page();
  s.pages[0] = pg;
  t = NULL;
  le32_store(f + TIS_HEADER_SIZE + 12 + 4, 0);
  le32_store(f + TIS_HEADER_SIZE + 12 + 8, 0);
  CHECK(pg && tis_parse(f, fsize, &t, &err) && !tis_decode(t, 1, &o, rgba, &err) && strstr(err.msg, "16x16"),
        "a 64x64 tile on a 16x16 page: %s", err.msg);
  tis_free(t);
  pvrz_free(pg);
}

/* Whether t serializes to exactly data[0..n), and so does its clone. */
static int writes_back(const tis_file *t, const unsigned char *data, size_t n) {
  unsigned char *out = NULL, *out2 = NULL;
  size_t size = 0, size2 = 0;
  codec_error err = {0};
  tis_file *c = tis_clone(t);
  int same = tis_serialize(t, &out, &size, &err) && size == n && memcmp(out, data, n) == 0 && c &&
             tis_serialize(c, &out2, &size2, &err) && size2 == n && memcmp(out2, data, n) == 0;
  if (!same) printf("writes back: %s\n", err.msg);
  free(out);
  free(out2);
  tis_free(c);
  return same;
}

/* tis_serialize gives every kind of tileset back byte for byte (header
** extra bytes, trailing bytes, headerless ones), and refuses a model whose
** fields contradict. */
static void test_tis_serialize(void) {
  static unsigned char f[TIS_HEADER_SIZE + 8 + 2 * TIS_V1_ENTRY + 5];
  unsigned char *out = NULL;
  size_t i, n, size;
  tis_file *t = NULL;
  codec_error err = {0};
  for (i = 0; i < sizeof f; i++) f[i] = (unsigned char)(i * 37 + 11);
  tis_header_write(f, 2, TIS_V1_ENTRY);
  le32_store(f + 16, TIS_HEADER_SIZE + 8); /* 8 bytes between the header and the tiles */
  CHECK(tis_parse(f, sizeof f, &t, &err) && writes_back(t, f, sizeof f), "palette tileset with extra header bytes "
        "and 5 trailing bytes written back: %s", err.msg);
  tis_free(t);
  t = NULL;
  n = 3 * TIS_V2_ENTRY + 2;
  tis_header_write(f, 3, TIS_V2_ENTRY);
  CHECK(tis_parse(f, TIS_HEADER_SIZE + n, &t, &err) && writes_back(t, f, TIS_HEADER_SIZE + n),
        "PVRZ tileset with 2 trailing bytes written back: %s", err.msg);
  tis_free(t);
  t = NULL;
  CHECK(tis_parse_headerless(f + TIS_HEADER_SIZE, n, 3, TIS_V2_ENTRY, &t, &err) && writes_back(t, f + TIS_HEADER_SIZE, n),
        "a headerless tileset is written without header: %s", err.msg);
  tis_free(t);
  t = NULL;
  CHECK(tis_parse_headerless(NULL, 0, 0, TIS_V1_ENTRY, &t, &err) && tis_serialize(t, &out, &size, &err) && size == 0,
        "an empty headerless tileset: 0 bytes");
  free(out);
  out = NULL;
  if (t) {
    t->entry_size = TIS_V2_ENTRY; /* a palette tileset claiming PVRZ entries */
    CHECK(!tis_serialize(t, &out, &size, &err) && err.code == CODEC_E_ARG && strstr(err.msg, "entry length 12"),
          "a contradicting model refused: %s", err.msg);
    CHECK(tis_footprint(t) >= sizeof *t, "footprint counts the model");
  }
  tis_free(t);
}

/* Headers a TIS must not pass: each refused with its words. */
static void test_tis_hostile(void) {
  unsigned char h[TIS_HEADER_SIZE + 24];
  tis_file *t = NULL;
  codec_error err = {0};
  struct {
    size_t off;
    uint32_t value;
    int code;
    const char *what;
  } bad[] = {
      {4, 0x20203256u, CODEC_E_FORMAT, "version 'V2  '"},
      {12, 13, CODEC_E_FORMAT, "entry length 13"},
      {20, 32, CODEC_E_FORMAT, "tile side 32"},
      {16, 23, CODEC_E_FORMAT, "header size 23"},
      {16, 0xFFFFFFF0u, CODEC_E_FORMAT, "header size 4294967280"},
      {8, 0xFFFFFFFFu, CODEC_E_LIMIT, "4294967295 tiles"},
      {8, TIS_MAX_TILES, CODEC_E_FORMAT, "tile 2: byte offset 48: truncated"},
      {0, 0x20534954u ^ 0x20u, CODEC_E_FORMAT, "signature"},
  };
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    memset(h, 0, sizeof h);
    tis_header_write(h, 2, TIS_V2_ENTRY);
    le32_store(h + bad[i].off, bad[i].value);
    t = NULL;
    CHECK(!tis_parse(h, sizeof h, &t, &err) && !t && err.code == bad[i].code && strstr(err.msg, bad[i].what),
          "hostile header %zu: want '%s', got %d '%s'", i, bad[i].what, err.code, err.msg);
    tis_free(t);
  }
  tis_header_write(h, 2, TIS_V2_ENTRY);
  CHECK(tis_parse(h, sizeof h, &t, &err), "the base of those parses: %s", err.msg);
  tis_free(t);
  t = NULL;
  CHECK(!tis_parse_headerless(h, 10, 0xFFFFFFFFu, TIS_V1_ENTRY, &t, &err) && err.code == CODEC_E_LIMIT,
        "headerless count 2^32-1");
  CHECK(!tis_parse_headerless(h, 10, 1, 0, &t, &err) && strstr(err.msg, "headerless tileset: the given entry length 0"),
        "headerless entry 0: %s", err.msg);
  CHECK(tis_parse_headerless(NULL, 0, 0, TIS_V2_ENTRY, &t, &err) && t && t->tile_count == 0, "an empty tileset");
  tis_free(t);
}

static void test_page_names(void) {
  char name[16];
  codec_error err = {0};
  CHECK(tis_pvrz_name("YS0108", 6, 1, name, &err) && strcmp(name, "Y010801.PVRZ") == 0, "YS0108 page 1: %s", name);
  CHECK(tis_pvrz_name("ys0106", 6, 2, name, &err) && strcmp(name, "Y010602.PVRZ") == 0, "ys0106 page 2: %s", name);
  CHECK(tis_pvrz_name("AR2600N", 7, 0, name, &err) && strcmp(name, "A2600N00.PVRZ") == 0, "night AR2600N: %s", name);
  CHECK(tis_pvrz_name("AR2600", 6, 99, name, &err) && strcmp(name, "A260099.PVRZ") == 0, "page 99: %s", name);
  CHECK(!tis_pvrz_name("AR2600", 6, 100, name, &err) && err.code == CODEC_E_ARG, "page 100 refused");
  CHECK(!tis_pvrz_name("AR2600", 6, -1, name, &err), "page -1 has no file");
  CHECK(!tis_pvrz_name("AR", 2, 0, name, &err), "a 2-character tileset refused");
  CHECK(!tis_pvrz_name("AR260000", 8, 0, name, &err) && strstr(err.msg, "8 characters"), "8 characters refused: %s",
        err.msg);
  CHECK(!tis_pvrz_name("AR\0600", 6, 0, name, &err), "a NUL inside refused");
}

/* ---- the real corpus ------------------------------------------------------------ */

/* The file names of one corpus folder, sorted (malloc'd; free_names). */
typedef struct name_list {
  char **names;
  size_t n;
} name_list;

static int name_cmp(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

static name_list list_dir(const char *dir) {
  name_list l = {NULL, 0};
  size_t cap = 0;
  DIR *dp = opendir(dir);
  struct dirent *de;
  if (!dp) return l;
  while ((de = readdir(dp)) != NULL) {
    size_t len = strlen(de->d_name);
    if (de->d_name[0] == '.') continue;
    if (l.n == cap) {
      char **nn = (char **)realloc(l.names, (cap = cap ? 2 * cap : 32) * sizeof *l.names);
      if (!nn) break;
      l.names = nn;
    }
    l.names[l.n] = (char *)malloc(len + 1);
    if (l.names[l.n]) memcpy(l.names[l.n++], de->d_name, len + 1);
  }
  closedir(dp);
  if (l.n) qsort(l.names, l.n, sizeof *l.names, name_cmp);
  return l;
}

static void free_names(name_list *l) {
  size_t i;
  for (i = 0; i < l->n; i++) free(l->names[i]);
  free(l->names);
}

/* A corpus file's own name: what follows the last "__" (the MANIFEST's
** repo__path naming). */
static const char *base_name(const char *name) {
  const char *p = name, *q;
  while ((q = strstr(p, "__")) != NULL) p = q + 2;
  return p;
}

static int same_nocase(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = (*a >= 'a' && *a <= 'z') ? (char)(*a - 32) : *a, y = (*b >= 'a' && *b <= 'z') ? (char)(*b - 32) : *b;
    if (x != y) return 0;
  }
  return *a == *b;
}

/* The page lookup over the corpus's pvrz folder: page files found by
** tis_pvrz_name, parsed once and kept. */
typedef struct corpus_pages {
  const char *dir;
  const name_list *files;
  char tileset[9];
  pvrz_page *pages[TIS_MAX_PAGE + 1];
  int tried[TIS_MAX_PAGE + 1];
  int missing;
} corpus_pages;

static const pvrz_page *corpus_lookup(void *ctx, int32_t page, codec_error *err) {
  corpus_pages *c = (corpus_pages *)ctx;
  char want[16], path[8192];
  size_t i, n;
  if (page < 0 || page > TIS_MAX_PAGE) return codec_fail(err, "no such page"), NULL;
  if (c->tried[page]) {
    if (!c->pages[page]) codec_fail(err, "page file missing");
    return c->pages[page];
  }
  c->tried[page] = 1;
  if (!tis_pvrz_name(c->tileset, strlen(c->tileset), page, want, err)) return NULL;
  for (i = 0; i < c->files->n; i++) {
    if (!same_nocase(base_name(c->files->names[i]), want)) continue;
    unsigned char *d;
    snprintf(path, sizeof path, "%s/%s", c->dir, c->files->names[i]);
    d = file_read_all(path, &n);
    if (d && !pvrz_parse(d, n, 0, &c->pages[page], err)) c->pages[page] = NULL;
    free(d);
    break;
  }
  if (!c->pages[page]) codec_fail(err, "page file %s missing", want);
  return c->pages[page];
}

/* Known pixels of PVRZ tiles, read off the DXT1 blocks of the corpus pages
** by hand (NOTES-tis.md): tileset, tile, x, y, R, G, B, A. */
static const struct {
  const char *tis;
  uint32_t tile, x, y;
  int r, g, b, a;
} known_v2[] = {
    {"YS0118.TIS", 78, 0, 0, 129, 106, 87, 255},  /* page 0 at (384, 384), four-colour block, index 2 */
    {"YS0118.TIS", 78, 5, 7, 49, 40, 33, 255},
    {"YS0118.TIS", 78, 31, 17, 57, 44, 33, 255},
    {"YS0118.TIS", 78, 63, 63, 0, 0, 0, 255},     /* a three-colour block, index 0 */
    {"ys0108.tis", 203, 0, 0, 0, 0, 0, 0},        /* page 1 at (704, 0): index 3, transparent */
    {"ys0106.tis", 0, 0, 0, 2, 2, 5, 255},
    {"ys0106.tis", 357, 0, 0, 16, 16, 16, 255},   /* page 1 at (320, 64), four-colour block, index 1 */
    {"ys0106.tis", 357, 10, 20, 8, 8, 8, 255},
    {"ys0106.tis", 357, 63, 0, 8, 8, 12, 255},    /* three-colour block, index 2: (c0 + c1) / 2 */
    {"ys0106.tis", 357, 33, 47, 8, 4, 8, 255},
    {"ys0106.tis", 431, 0, 0, 24, 16, 16, 255},   /* page 2 at (704, 320) */
    {"ys0106.tis", 431, 10, 20, 52, 44, 43, 255},
    {"ys0106.tis", 431, 63, 0, 74, 69, 82, 255},
    {"ys0106.tis", 431, 33, 47, 16, 12, 16, 255},
};

/* Known pixels of palette tiles, read off the raw bytes by hand (the
** pixel's index, then that palette entry's B, G, R): tileset, tile, x, y,
** R, G, B.  Index 0 among them: an opaque colour (NOTES-tis.md). */
static const struct {
  const char *tis;
  uint32_t tile, x, y;
  int r, g, b;
} known_v1[] = {
    {"ys0104.tis", 16, 0, 0, 4, 2, 4},       /* index 0 */
    {"ys0104.tis", 16, 17, 45, 116, 70, 36}, /* index 108 */
    {"ys0104.tis", 16, 63, 63, 12, 13, 4},   /* index 3 */
    {"YS0114.TIS", 20, 5, 5, 25, 21, 17},    /* index 17 */
    {"YS0114.TIS", 20, 50, 60, 59, 35, 26},  /* index 89 */
    {"YS0118.TIS", 60, 32, 32, 0, 0, 0},     /* index 0, black */
};

typedef struct corpus_counts {
  int v1_files, v2_files, v1_tiles, v2_tiles, v2_skipped, known_v1_checked, known_v2_checked;
  long idx0_tiles, idx0_colour_tiles, idx0_px, green_tiles, green_px, px;
} corpus_counts;

/* A palette tileset: every pixel equals its palette entry read from the raw
** bytes, transparent exactly where that entry is pure green. */
static void corpus_v1(const char *name, const unsigned char *d, const tis_file *t, corpus_counts *k, check_loop *loop) {
  unsigned char rgba[TIS_TILE_RGBA_BYTES];
  uint32_t tile;
  codec_error err = {0};
  for (tile = 0; tile < t->tile_count; tile++) {
    const unsigned char *e = d + t->header_size + (size_t)tile * TIS_V1_ENTRY, *pal = e, *idx = e + TIS_PALETTE_BYTES;
    size_t i, bad = 0, idx0 = 0, green = 0;
    int has_green = 0;
    loop->inputs++;
    CHECK(tis_decode(t, tile, NULL, rgba, &err), "%s tile %u: %s", name, tile, err.msg);
    for (i = 0; i < TIS_TILE_PIXELS; i++) {
      const unsigned char *c = pal + 4 * idx[i];
      int is_green = c[0] == 0 && c[1] == 255 && c[2] == 0;
      bad += !px_is(rgba + 4 * i, c[2], c[1], c[0], is_green ? 0 : 255);
      idx0 += idx[i] == 0;
      green += is_green;
    }
    for (i = 0; i < 256; i++) has_green |= pal[4 * i] == 0 && pal[4 * i + 1] == 255 && pal[4 * i + 2] == 0;
    CHECK(bad == 0, "%s tile %u: %zu pixels differ from their palette entries", name, tile, bad);
    for (i = 0; i < sizeof known_v1 / sizeof known_v1[0]; i++) {
      const unsigned char *p = rgba + 4 * (known_v1[i].y * 64 + known_v1[i].x);
      if (strcmp(base_name(name), known_v1[i].tis) != 0 || known_v1[i].tile != tile) continue;
      CHECK(px_is(p, known_v1[i].r, known_v1[i].g, known_v1[i].b, 255), "%s tile %u pixel (%u, %u): %u %u %u %u", name,
            tile, known_v1[i].x, known_v1[i].y, p[0], p[1], p[2], p[3]);
      k->known_v1_checked++;
    }
    k->v1_tiles++;
    k->px += TIS_TILE_PIXELS;
    k->idx0_px += (long)idx0;
    k->idx0_tiles += idx0 > 0;
    k->idx0_colour_tiles += idx0 > 0 && (pal[0] | pal[1] | pal[2]) != 0;
    k->green_tiles += has_green;
    k->green_px += (long)green;
  }
}

/* A PVRZ tileset: every tile through the corpus pages, and its known pixels. */
static void corpus_v2(const char *name, const tis_file *t, const char *pvrz_dir, const name_list *pvrz_files,
                      corpus_counts *k, check_loop *loop) {
  unsigned char rgba[TIS_TILE_RGBA_BYTES];
  corpus_pages c;
  tis_decode_opts o = {TIS_ALPHA_GREEN, corpus_lookup, &c};
  const char *own = base_name(name), *dot = strchr(own, '.');
  size_t len = dot ? (size_t)(dot - own) : strlen(own), i;
  uint32_t tile;
  codec_error err = {0};
  memset(&c, 0, sizeof c);
  c.dir = pvrz_dir;
  c.files = pvrz_files;
  snprintf(c.tileset, sizeof c.tileset, "%.*s", (int)(len > 8 ? 8 : len), own);
  for (tile = 0; tile < t->tile_count; tile++) {
    int ok;
    loop->inputs++;
    ok = tis_decode(t, tile, &o, rgba, &err);
    if (!ok && strstr(err.msg, "missing")) {
      k->v2_skipped++;
      continue;
    }
    CHECK(ok, "%s tile %u: %s", name, tile, err.msg);
    k->v2_tiles += ok;
    for (i = 0; ok && i < sizeof known_v2 / sizeof known_v2[0]; i++) {
      const unsigned char *p;
      if (strcmp(own, known_v2[i].tis) != 0 || known_v2[i].tile != tile) continue;
      p = rgba + 4 * (known_v2[i].y * 64 + known_v2[i].x);
      CHECK(px_is(p, known_v2[i].r, known_v2[i].g, known_v2[i].b, known_v2[i].a),
            "%s tile %u pixel (%u, %u): %u %u %u %u, want %d %d %d %d", own, tile, known_v2[i].x, known_v2[i].y, p[0],
            p[1], p[2], p[3], known_v2[i].r, known_v2[i].g, known_v2[i].b, known_v2[i].a);
      k->known_v2_checked++;
    }
  }
  for (i = 0; i <= TIS_MAX_PAGE; i++) pvrz_free(c.pages[i]);
}

/* Every page of the pvrz folder parses and decodes whole. */
static void corpus_pvrz(const char *dir, const name_list *files) {
  char path[8192];
  size_t i, n, rs;
  int dxt1 = 0, dxt5 = 0, ok_all = 1;
  for (i = 0; i < files->n; i++) {
    unsigned char *d, *rgba = NULL;
    pvrz_page *p = NULL;
    codec_error err = {0};
    snprintf(path, sizeof path, "%s/%s", dir, files->names[i]);
    d = file_read_all(path, &n);
    if (!d) continue;
    if (!pvrz_parse(d, n, 0, &p, &err) || !pvrz_decode(p, &rgba, &rs, &err)) {
      CHECK(0, "%s: %s", files->names[i], err.msg);
      ok_all = 0;
    } else {
      printf("INFO pvrz %s: %ux%u %s, %u bytes inflated, %u bytes of metadata, %zu bytes after mipmap 0\n",
             base_name(files->names[i]), p->width, p->height, p->pixel_format == DXT_FORMAT_DXT1 ? "DXT1" : "DXT5",
             p->declared_size, p->meta_size, p->rest_size);
      dxt1 += p->pixel_format == DXT_FORMAT_DXT1;
      dxt5 += p->pixel_format == DXT_FORMAT_DXT5;
    }
    free(rgba);
    pvrz_free(p);
    free(d);
  }
  CHECK(ok_all && files->n > 0, "every corpus PVRZ page parses and decodes (%d DXT1, %d DXT5)", dxt1, dxt5);
}

static void test_corpus(void) {
  const char *root = check_corpus_dir();
  char tis_dir[4096], pvrz_dir[4096], path[8192];
  name_list tis_files, pvrz_files;
  corpus_counts k;
  check_loop loop = {0, 0, 0};
  size_t i;
  memset(&k, 0, sizeof k);
  if (!root) {
    SKIP("LEVELSQL_CORPUS not set: TIS / PVRZ corpus tests");
    return;
  }
  snprintf(tis_dir, sizeof tis_dir, "%s/tis", root);
  snprintf(pvrz_dir, sizeof pvrz_dir, "%s/pvrz", root);
  tis_files = list_dir(tis_dir);
  pvrz_files = list_dir(pvrz_dir);
  if (!tis_files.n) SKIP("no TIS files in %s", tis_dir);
  check_loop_enter(&loop);
  for (i = 0; i < tis_files.n; i++) {
    size_t n = 0;
    unsigned char *d;
    tis_file *t = NULL;
    codec_error err = {0};
    snprintf(path, sizeof path, "%s/%s", tis_dir, tis_files.names[i]);
    d = file_read_all(path, &n);
    REQUIRE(d, "%s read", path);
    if (!d) continue;
    CHECK(tis_parse(d, n, &t, &err), "%s: %s", tis_files.names[i], err.msg);
    if (t) CHECK(writes_back(t, d, n), "%s: written back byte for byte (and its clone)", tis_files.names[i]);
    if (t) {
      CHECK(t->header_size == TIS_HEADER_SIZE && !t->trailing_size && !t->header_extra_size,
            "%s: a plain 24-byte header, nothing after the tiles", tis_files.names[i]);
      if (t->kind == TIS_PALETTE) k.v1_files++, corpus_v1(tis_files.names[i], d, t, &k, &loop);
      else k.v2_files++, corpus_v2(tis_files.names[i], t, pvrz_dir, &pvrz_files, &k, &loop);
    }
    tis_free(t);
    free(d);
  }
  check_loop_done(&loop, "corpus tiles: %d palette tilesets (%d tiles), %d PVRZ tilesets (%d tiles decoded, %d whose "
                  "page file is missing)", k.v1_files, k.v1_tiles, k.v2_files, k.v2_tiles, k.v2_skipped);
  if (k.v2_skipped) SKIP("%d PVRZ tiles: their page files are not in the corpus", k.v2_skipped);
  CHECK(k.known_v1_checked == (int)(sizeof known_v1 / sizeof known_v1[0]), "known palette tile pixels checked: %d of "
        "%zu", k.known_v1_checked, sizeof known_v1 / sizeof known_v1[0]);
  if (k.v2_skipped || !k.v2_files)
    SKIP("known PVRZ tile pixels: %d of %zu checked, the others' pages are missing", k.known_v2_checked,
         sizeof known_v2 / sizeof known_v2[0]);
  else
    CHECK(k.known_v2_checked == (int)(sizeof known_v2 / sizeof known_v2[0]), "known PVRZ tile pixels checked: %d of "
          "%zu", k.known_v2_checked, sizeof known_v2 / sizeof known_v2[0]);
  printf("INFO palette tiles: %d; using index 0: %ld (%ld of them with a palette entry 0 that is not black); "
         "pixels of index 0: %ld of %ld; tiles with a pure green entry: %ld; pure green pixels: %ld\n",
         k.v1_tiles, k.idx0_tiles, k.idx0_colour_tiles, k.idx0_px, k.px, k.green_tiles, k.green_px);
  if (pvrz_files.n) corpus_pvrz(pvrz_dir, &pvrz_files);
  else SKIP("no PVRZ files in %s", pvrz_dir);
  free_names(&tis_files);
  free_names(&pvrz_files);
}

int main(void) {
  test_dxt1_blocks();
  test_dxt5_blocks();
  test_dxt_images();
  test_pvrz();
  test_tis_v1();
  test_tis_v2();
  test_tis_hostile();
  test_tis_serialize();
  test_page_names();
  test_corpus();
  return check_done();
}
