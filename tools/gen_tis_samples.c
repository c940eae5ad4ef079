/*
** gen_tis_samples.c: writes small Infinity Engine tilesets (.TIS, palette
** and PVRZ-referencing) and PVRZ pages, for the fuzz harnesses fuzz_tis and
** fuzz_pvrz (test/fuzz/run.sh).
** Usage: gen_tis_samples [--fuzz] OUTDIR
**
** Without --fuzz it writes nothing yet: no table reads tilesets (tis_tiles
** and the tiles of wed_render are still to come, issue 26), and the sample
** folder is what the demo lists with levelsql_files.  tools/gen_samples.sh
** runs it with the other generators all the same.
** `gen_tis_samples --fuzz OUTDIR` writes, byte by byte as tis.h and pvrz.h
** describe them (the codecs read but do not write these formats):
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

/* A PVR v3 texture of w x h of `format` with meta_size bytes of metadata;
** its blocks vary with their position, in both modes of the format. */
static int build_pvr(byte_writer *w, uint64_t format, uint32_t width, uint32_t height, uint32_t meta_size) {
  uint32_t bx, by, i;
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

/* No samples without --fuzz (see above). */
static int no_sample(size_t i, sample_file *f, codec_error *err) {
  (void)f;
  return codec_fail(err, "no sample %zu", i);
}

int main(int argc, char **argv) {
  sample_set files = {0, no_sample};
  sample_set seeds = {5, tis_seed};
  return sample_run(argc, argv, "gen_tis_samples", files, seeds, tis_reparse);
}
