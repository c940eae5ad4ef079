/*
** gen_tis_samples.c: writes Infinity Engine tilesets (.TIS, palette and
** PVRZ-referencing) and PVRZ pages for `make samples` (tools/gen_samples.sh)
** and for the fuzz harnesses fuzz_tis and fuzz_pvrz (test/fuzz/run.sh).
** Usage: gen_tis_samples [--fuzz] OUTDIR
**
** The samples are the tilesets of the two areas gen_wed_samples writes into
** the same folder, so tis_tiles and wed_render(file, 'tiles=1') find them
** beside the WEDs: every tile those areas name, numbered as they number
** them (one per base cell in order, four frames for each animated cell,
** then the closed-door tiles: 618 for AR0100, 314 for AR0200; samples.sql
** checks that each WED's tiles exist).  The pictures are made up: stone
** blocks whose colour drifts across the area, wooden closed doors.
** - AR0100.TIS: a PVRZ tileset, as the Enhanced Editions store them: tile 0
**   is page -1 (solid black, as the corners of real areas are), the others
**   are cut from A010000.PVRZ, A010001.PVRZ and A010002.PVRZ (pages named
**   by the rule of tis_pvrz_name; 1024 x 1024, 1024 x 1024 and 1024 x 448
**   DXT1 textures, 16 tiles a row, in tile order);
** - AR0200.TIS: a palette tileset (1.6 MB: 5,120 bytes a tile), as the
**   original games store them; the frames of its two animated cells (tiles
**   22-25 and 40-43) hold a disc of pure green, the transparent colour.
** `gen_tis_samples --fuzz OUTDIR` writes, byte by byte as tis.h and pvrz.h
** describe them:
** - FUZZV1.TIS: two palette tiles (10 KB) whose palettes hold a pure green
**   entry and an index 0 in use, as real tiles do;
** - FUZZV2.TIS: eight PVRZ references: page -1 (black), pages 0 and 1 at
**   positions that are and are not multiples of 4, a page with no file;
** - FZZV200.PVRZ: a 128 x 64 DXT1 page with four-colour, three-colour and
**   transparent blocks (page 0 of FUZZV2 by the naming rule);
** - FZZV201.PVRZ: a 64 x 64 DXT5 page with both alpha modes and 16 bytes of
**   PVR metadata;
** - HUGE.PVRZ: a 43-byte file claiming 4 GiB once inflated, which
**   pvrz_parse must refuse before allocating (checked here).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"
#include "samples.h"
#include "tis/dxt.h"
#include "tis/pvrz.h"
#include "tis/tis.h"

/* A TIS header for count entries of entry bytes into w. */
static void tis_header(byte_writer *w, uint32_t count, uint32_t entry) {
  unsigned char header[TIS_HEADER_SIZE];
  tis_header_write(header, count, entry);
  byte_writer_bytes(w, header, sizeof header);
}

/* Two palette tiles: a ramp of colours, entry 0 dark red, entry 200 pure
** green; the pixels a pattern that uses index 0 and the green entry. */
static int build_v1(byte_writer *w) {
  int t, i;
  tis_header(w, 2, TIS_V1_ENTRY);
  for (t = 0; t < 2; t++) {
    for (i = 0; i < 256; i++) {
      unsigned char bgra[4] = {(unsigned char)(i / 2), (unsigned char)(i ^ 0x5A), (unsigned char)(255 - i), 0};
      if (i == 0) bgra[0] = 0, bgra[1] = 0, bgra[2] = 96;
      if (i == 200) bgra[0] = 0, bgra[1] = 255, bgra[2] = 0;
      byte_writer_bytes(w, bgra, 4);
    }
    for (i = 0; i < (int)TIS_TILE_PIXELS; i++) {
      int x = i % 64, y = i / 64;
      unsigned char v = (unsigned char)((x + y * (t + 1)) & 0xFF);
      if ((x - 32) * (x - 32) + (y - 32) * (y - 32) < 100) v = 200; /* a transparent disc */
      byte_writer_bytes(w, &v, 1);
    }
  }
  return !w->failed;
}

static int build_v2(byte_writer *w) {
  static const int32_t refs[8][3] = {{-1, 0, 0}, {0, 0, 0},  {0, 64, 0}, {0, 3, 0},
                                     {1, 0, 0},  {0, 62, 0}, {2, 0, 0},  {1, 0, 0}};
  int i;
  tis_header(w, 8, TIS_V2_ENTRY);
  for (i = 0; i < 8; i++) {
    byte_writer_i32(w, refs[i][0]);
    byte_writer_u32(w, (uint32_t)refs[i][1]);
    byte_writer_u32(w, (uint32_t)refs[i][2]);
  }
  return !w->failed;
}

/* One DXT1 colour block into w: c0, c1, and index (i * k) % 4 for pixel i. */
static void dxt1_into(byte_writer *w, uint16_t c0, uint16_t c1, unsigned k) {
  uint32_t bits = 0;
  unsigned i;
  for (i = 0; i < 16; i++) bits |= ((i * k) & 3u) << (2 * i);
  byte_writer_u16(w, c0);
  byte_writer_u16(w, c1);
  byte_writer_u32(w, bits);
}

/* The 52-byte PVR v3 header of a w x h texture of `format` (one surface,
** face, depth slice and mipmap) and meta_size bytes of metadata. */
static void pvr_header(byte_writer *w, uint64_t format, uint32_t width, uint32_t height, uint32_t meta_size) {
  uint32_t i;
  byte_writer_u32(w, PVR_VERSION);
  byte_writer_u32(w, 0);
  byte_writer_u32(w, (uint32_t)format);
  byte_writer_u32(w, (uint32_t)(format >> 32));
  byte_writer_u32(w, 0);
  byte_writer_u32(w, 0);
  byte_writer_u32(w, height);
  byte_writer_u32(w, width);
  for (i = 0; i < 4; i++) byte_writer_u32(w, 1); /* depth, surfaces, faces, mipmaps */
  byte_writer_u32(w, meta_size);
  for (i = 0; i < meta_size; i++) byte_writer_bytes(w, "M", 1);
}

/* A PVR v3 texture of w x h of `format` with meta_size bytes of metadata;
** its blocks vary with their position, in both modes of the format. */
static int build_pvr(byte_writer *w, uint64_t format, uint32_t width, uint32_t height, uint32_t meta_size) {
  uint32_t bx, by;
  pvr_header(w, format, width, height, meta_size);
  for (by = 0; by < (height + 3) / 4; by++)
    for (bx = 0; bx < (width + 3) / 4; bx++) {
      uint16_t a = (uint16_t)(bx * 2000u + by * 37u), b = (uint16_t)(by * 1500u + 11u);
      if (format == DXT_FORMAT_DXT5) {
        unsigned char alpha[8] = {(unsigned char)(bx * 16), (unsigned char)(by * 16), 0x88, 0xC6, 0xFA, 0x05, 0x39,
                                  0x77};
        byte_writer_bytes(w, alpha, 8);
      }
      dxt1_into(w, (bx + by) % 3 ? a : b, (bx + by) % 3 ? b : a, 1 + bx % 3);
    }
  return !w->failed;
}

/* The PVR texture of `pvr` as a PVRZ (claim: the first u32; 0 = its size). */
static int to_pvrz(const byte_writer *pvr, uint32_t claim, sample_file *f, codec_error *err) {
  uLongf zl = compressBound((uLong)pvr->size);
  unsigned char *p = (unsigned char *)malloc(4 + zl);
  if (!p) return codec_fail_oom(err, "out of memory");
  if (compress2(p + 4, &zl, pvr->data, (uLong)pvr->size, 9) != Z_OK) {
    free(p);
    return codec_fail(err, "zlib failed");
  }
  le32_store(p, claim ? claim : (uint32_t)pvr->size);
  f->data = p;
  f->size = 4 + zl;
  return 1;
}

static int tis_seed(size_t i, sample_file *f, codec_error *err) {
  byte_writer w = {0};
  int ok;
  switch (i) {
    case 0:
      f->name = "FUZZV1.TIS";
      snprintf(f->what, sizeof f->what, "2 palette tiles, a pure green entry, index 0 in use");
      ok = build_v1(&w);
      break;
    case 1:
      f->name = "FUZZV2.TIS";
      snprintf(f->what, sizeof f->what, "8 PVRZ references: page -1, pages 0-2, x not a multiple of 4");
      ok = build_v2(&w);
      break;
    case 2:
    case 3:
    case 4:
      f->name = i == 2 ? "FZZV200.PVRZ" : i == 3 ? "FZZV201.PVRZ" : "HUGE.PVRZ";
      snprintf(f->what, sizeof f->what, "%s", i == 2 ? "128x64 DXT1 page" : i == 3 ? "64x64 DXT5 page, metadata"
                                                                               : "claims 4 GiB inflated: refused");
      ok = i == 3 ? build_pvr(&w, DXT_FORMAT_DXT5, 64, 64, 16) : build_pvr(&w, DXT_FORMAT_DXT1, i == 2 ? 128 : 8,
                                                                            i == 2 ? 64 : 4, 0);
      ok = ok && to_pvrz(&w, i == 4 ? 0xFFFFFFFFu : 0, f, err);
      if (i == 4) f->check = SAMPLE_REFUSED;
      byte_writer_free(&w);
      return ok || codec_fail(err, "cannot build the page");
    default:
      return codec_fail(err, "no seed %zu", i);
  }
  if (!ok) {
    byte_writer_free(&w);
    return codec_fail_oom(err, "out of memory");
  }
  f->data = byte_writer_take(&w, &f->size);
  return 1;
}

/* Reads a seed back: a TIS by its signature, else a PVRZ. */
static int tis_reparse(const unsigned char *data, size_t size, codec_error *err) {
  tis_file *t = NULL;
  pvrz_page *p = NULL;
  int ok;
  if (size >= 4 && memcmp(data, "TIS ", 4) == 0) {
    ok = tis_parse(data, size, &t, err);
    tis_free(t);
  } else {
    ok = pvrz_parse(data, size, 0, &p, err);
    pvrz_free(p);
  }
  return ok;
}

/* ---- the samples: the tilesets of gen_wed_samples' areas ---------------------------- */

/* What gen_wed_samples.c gives each area: its size in cells and its tile
** numbering (one tile per cell in order, ANIM_FRAMES for the animated
** ones, then the closed-door tiles). */
#define ANIM_FRAMES 4
typedef struct area_tiles {
  const char *tis;      /* file name */
  uint32_t width;       /* base overlay width in cells */
  uint32_t tiles;       /* tiles the area names */
  uint32_t door_first;  /* the first closed-door tile */
  uint32_t animated[4]; /* the animated cells (ANIM_FRAMES tiles each), ascending */
  int nanimated;
} area_tiles;

static const area_tiles town = {"AR0100.TIS", 30, 618, 612, {62, 64, 422, 557}, 4}; /* a PVRZ tileset */
static const area_tiles tavern = {"AR0200.TIS", 20, 314, 306, {22, 37, 0, 0}, 2};   /* a palette tileset */

/* The cell showing primary tile t (< a->door_first) of area a; *frame
** (may be NULL) gets which of the cell's frames t is. */
static uint32_t tile_cell(const area_tiles *a, uint32_t t, uint32_t *frame) {
  uint32_t cell = t, first = t;
  int i;
  for (i = 0; i < a->nanimated; i++) {
    if (t <= a->animated[i] + (ANIM_FRAMES - 1) * (uint32_t)i) break; /* the cells before the i-th animated one */
    cell = t >= a->animated[i] + (ANIM_FRAMES - 1) * (uint32_t)(i + 1) ? t - (ANIM_FRAMES - 1) * (uint32_t)(i + 1)
                                                                        : a->animated[i];
    first = cell == a->animated[i] ? a->animated[i] + (ANIM_FRAMES - 1) * (uint32_t)i : t;
  }
  if (frame) *frame = t - first;
  return cell;
}

#define PAGE_SIDE 1024u
#define TILES_PER_ROW (PAGE_SIDE / TIS_TILE_SIDE)          /* 16 */
#define TILES_PER_PAGE (TILES_PER_ROW * TILES_PER_ROW)     /* 256 */

/* The made-up picture: pixel (x, y) of tile t of area a as R, G, B.
** Stone blocks 32 x 16 with dark joints, their colour drifting with the
** place of the tile's cell on the area, the grain moving from frame to
** frame of an animated cell; closed-door tiles are planks. */
static void art_pixel(const area_tiles *a, uint32_t t, int x, int y, unsigned char rgb[3]) {
  uint32_t frame = 0, cell = t < a->door_first ? tile_cell(a, t, &frame) : 0;
  int cx = (int)(cell % a->width), cy = (int)(cell / a->width), grain = (x * 7 + y * 13 + 5 * (int)frame) % 24;
  if (t >= a->door_first) {
    int joint = x % 16 == 0 || y == 0 || y == 63;
    rgb[0] = (unsigned char)(joint ? 50 : 120 + grain), rgb[1] = (unsigned char)(joint ? 28 : 72 + grain / 2);
    rgb[2] = (unsigned char)(joint ? 12 : 30);
    return;
  }
  if (y % 16 == 0 || (x + (y / 16 % 2) * 16) % 32 == 0) { /* a joint */
    rgb[0] = rgb[1] = rgb[2] = 40;
    return;
  }
  rgb[0] = (unsigned char)(100 + cx * 3 + grain), rgb[1] = (unsigned char)(90 + cy * 4 + grain);
  rgb[2] = (unsigned char)(70 + (cx + cy) * 2 + grain);
}

/* R, G, B as RGB 5:6:5. */
static uint16_t rgb565(const unsigned char rgb[3]) {
  return (uint16_t)((rgb[0] >> 3) << 11 | (rgb[1] >> 2) << 5 | rgb[2] >> 3);
}

/* One DXT1 block of the picture: the block's lightest and darkest colours
** as c0 > c1 (four-colour mode; a plain block is c0 == c1, whose index 0 is
** c0 and opaque), each pixel the nearer of the two. */
static void art_block(byte_writer *w, const area_tiles *a, uint32_t t, int bx, int by) {
  uint16_t c[16], hi = 0, lo = 0xFFFF;
  uint32_t bits = 0;
  int i;
  for (i = 0; i < 16; i++) {
    unsigned char rgb[3];
    art_pixel(a, t, bx * 4 + i % 4, by * 4 + i / 4, rgb);
    c[i] = rgb565(rgb);
    if (c[i] > hi) hi = c[i];
    if (c[i] < lo) lo = c[i];
  }
  for (i = 0; i < 16; i++) bits |= (uint32_t)(hi != lo && c[i] - lo < hi - c[i]) << (2 * i); /* index 1: c1 */
  byte_writer_u16(w, hi);
  byte_writer_u16(w, lo);
  byte_writer_u32(w, bits);
}

/* AR0100.TIS: tile 0 black (page -1), tile t on page t / 256 at its slot. */
static int build_town_tis(byte_writer *w) {
  uint32_t t;
  tis_header(w, town.tiles, TIS_V2_ENTRY);
  for (t = 0; t < town.tiles; t++) {
    uint32_t slot = t % TILES_PER_PAGE;
    byte_writer_i32(w, t == 0 ? TIS_PAGE_BLACK : (int32_t)(t / TILES_PER_PAGE));
    byte_writer_u32(w, t == 0 ? 0 : slot % TILES_PER_ROW * TIS_TILE_SIDE);
    byte_writer_u32(w, t == 0 ? 0 : slot / TILES_PER_ROW * TIS_TILE_SIDE);
  }
  return !w->failed;
}

/* Page `page` of AR0100: 1024 wide, as many 64-pixel rows as its tiles
** fill; a slot without a tile (tile 0's, past the last) is black. */
static int build_town_page(byte_writer *w, uint32_t page) {
  uint32_t first = page * TILES_PER_PAGE, count = town.tiles - first < TILES_PER_PAGE ? town.tiles - first : TILES_PER_PAGE;
  uint32_t rows = (count + TILES_PER_ROW - 1) / TILES_PER_ROW, bx, by;
  pvr_header(w, DXT_FORMAT_DXT1, PAGE_SIDE, rows * TIS_TILE_SIDE, 0);
  for (by = 0; by < rows * TIS_TILE_SIDE / 4; by++)
    for (bx = 0; bx < PAGE_SIDE / 4; bx++) {
      uint32_t t = first + by / 16 * TILES_PER_ROW + bx / 16;
      if (t == 0 || t >= town.tiles) dxt1_into(w, 0, 0, 0);
      else art_block(w, &town, t, (int)(bx % 16), (int)(by % 16));
    }
  return !w->failed;
}

/* AR0200.TIS: per tile a palette of 255 shades between the tile's darkest
** and lightest colour (entry 0 a dark brown, as real tiles use entry 0),
** entry 255 pure green for the discs of the animated cells' frames. */
static int build_tavern_tis(byte_writer *w) {
  uint32_t t;
  tis_header(w, tavern.tiles, TIS_V1_ENTRY);
  for (t = 0; t < tavern.tiles && !w->failed; t++) {
    unsigned char pal[256][3], idx[TIS_TILE_PIXELS];
    int i, k, disc = (t >= 22 && t <= 25) || (t >= 40 && t <= 43);
    size_t used = 1;
    pal[0][0] = 24, pal[0][1] = 16, pal[0][2] = 8;
    for (i = 0; i < (int)TIS_TILE_PIXELS; i++) { /* each new colour gets the next entry, up to 254 */
      unsigned char rgb[3];
      int x = i % 64, y = i / 64;
      art_pixel(&tavern, t, x, y, rgb);
      if (disc && (x - 32) * (x - 32) + (y - 32) * (y - 32) < 100) {
        idx[i] = 255;
        continue;
      }
      for (k = 0; k < (int)used && memcmp(pal[k], rgb, 3) != 0; k++) {
      }
      if (k == (int)used && used < 255) memcpy(pal[used++], rgb, 3);
      idx[i] = (unsigned char)(k < (int)used ? k : 0);
    }
    for (i = 0; i < 256; i++) {
      unsigned char bgra[4] = {0, 255, 0, 0}; /* unused entries and 255: pure green */
      if (i < (int)used && i < 255) bgra[0] = pal[i][2], bgra[1] = pal[i][1], bgra[2] = pal[i][0];
      byte_writer_bytes(w, bgra, 4);
    }
    byte_writer_bytes(w, idx, sizeof idx);
  }
  return !w->failed;
}

/* Sample i: AR0100.TIS, its three pages, AR0200.TIS. */
static int tis_sample(size_t i, sample_file *f, codec_error *err) {
  byte_writer w = {0};
  static const char *const pages[] = {"A010000.PVRZ", "A010001.PVRZ", "A010002.PVRZ"};
  int ok;
  if (i > 4) return codec_fail(err, "no sample %zu", i);
  if (i >= 1 && i <= 3) {
    f->name = pages[i - 1];
    snprintf(f->what, sizeof f->what, "page %zu of AR0100.TIS, DXT1", i - 1);
    ok = build_town_page(&w, (uint32_t)(i - 1)) && to_pvrz(&w, 0, f, err);
    byte_writer_free(&w);
    return ok || codec_fail(err, "cannot build the page");
  }
  f->name = i == 0 ? town.tis : tavern.tis;
  snprintf(f->what, sizeof f->what, "%s", i == 0 ? "618 PVRZ tiles of AR0100.WED" : "314 palette tiles of AR0200.WED");
  if (!(i == 0 ? build_town_tis(&w) : build_tavern_tis(&w))) {
    byte_writer_free(&w);
    return codec_fail_oom(err, "out of memory");
  }
  f->data = byte_writer_take(&w, &f->size);
  return 1;
}

int main(int argc, char **argv) {
  sample_set files = {5, tis_sample};
  sample_set seeds = {5, tis_seed};
  return sample_run(argc, argv, "gen_tis_samples", files, seeds, tis_reparse);
}
