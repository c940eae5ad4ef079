/*
** fuzz_tis.c: libFuzzer harness for the TIS tileset codec (codecs/tis/tis.[ch]
** and, through its PVRZ tiles, dxt.[ch]).
**
** The input is parsed as a .TIS file and, when it is at least 24 bytes, its
** bytes after the header also as a headerless tileset (the BIFF form) with
** the count and entry length its header claims.  A rejection must carry a
** message and CODEC_E_FORMAT, _LIMIT or _MEMORY.  An accepted tileset must
** be consistent (kind from the entry length, every tile inside the input,
** trailing bytes where the tiles end); then its first 16 tiles are decoded
** under the transparency rule the last input byte picks, PVRZ tiles through
** two pages made here (page 0: 128 x 64 DXT1, page 1: 64 x 64 DXT5, page 2
** and up: missing): a palette tile always decodes, with alpha exactly as
** its rule says for pixel 0; a PVRZ tile of page -1 is black; a failure
** must name its tile.  An accepted tileset (and its clone) is written back
** by tis_serialize as the bytes it was read from.  Any inconsistency calls
** abort().
**
** Build and run: make build-fuzz/fuzz/fuzz_tis; seeds from
** tools/gen_tis_samples --fuzz (test/fuzz/run.sh), never in the repository.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tis/dxt.h"
#include "tis/pvrz.h"
#include "tis/tis.h"

static void die(const char *what, const char *msg) {
  fprintf(stderr, "fuzz_tis: %s: %s\n", what, msg ? msg : "");
  abort();
}

/* The two pages of the harness, made once: blocks of varied bytes. */
static pvrz_page pages[2];
static unsigned char blocks0[32 * 16 * 8], blocks1[16 * 16 * 16];

static void make_pages(void) {
  size_t i;
  if (pages[0].blocks) return;
  for (i = 0; i < sizeof blocks0; i++) blocks0[i] = (unsigned char)(i * 131u + (i >> 3));
  for (i = 0; i < sizeof blocks1; i++) blocks1[i] = (unsigned char)(i * 97u + (i >> 4));
  pages[0].pixel_format = DXT_FORMAT_DXT1, pages[0].width = 128, pages[0].height = 64;
  pages[0].blocks = blocks0, pages[0].blocks_size = sizeof blocks0;
  pages[1].pixel_format = DXT_FORMAT_DXT5, pages[1].width = 64, pages[1].height = 64;
  pages[1].blocks = blocks1, pages[1].blocks_size = sizeof blocks1;
}

static const pvrz_page *lookup(void *ctx, int32_t page, codec_error *err) {
  (void)ctx;
  if (page < 0 || page > 1) {
    codec_fail(err, "no page file");
    return NULL;
  }
  return &pages[page];
}

static void check_rejection(const char *what, const tis_file *t, const codec_error *err) {
  if (t || !err->msg[0]) die(what, "rejected without a message");
  if (err->code != CODEC_E_FORMAT && err->code != CODEC_E_LIMIT && err->code != CODEC_E_MEMORY)
    die(what, "rejected with the wrong code");
}

/* An accepted tileset is written back as the bytes it was read from, and
** so is its clone. */
static void check_writes_back(const tis_file *t, const uint8_t *data, size_t size) {
  unsigned char *out = NULL;
  size_t n = 0;
  codec_error err;
  tis_file *c = tis_clone(t);
  int k;
  for (k = 0; k < 2; k++) {
    codec_error_clear(&err);
    if (k == 1 && !c) return; /* out of memory */
    if (!tis_serialize(k ? c : t, &out, &n, &err)) {
      if (err.code != CODEC_E_MEMORY) die("serialize", err.msg);
    } else if (n != size || (n && memcmp(out, data, n) != 0)) {
      die("serialize", "not the bytes it was read from");
    }
    free(out);
    out = NULL;
  }
  tis_free(c);
}

/* Consistency of an accepted tileset, then its first tiles decoded. */
static void check_tiles(const tis_file *t, size_t size, int alpha) {
  static unsigned char rgba[TIS_TILE_RGBA_BYTES];
  tis_decode_opts o;
  uint32_t i, n = t->tile_count < 16 ? t->tile_count : 16;
  codec_error err;
  if ((t->kind == TIS_PALETTE) != (t->entry_size == TIS_V1_ENTRY) || (t->kind == TIS_PVRZ) != (t->entry_size == TIS_V2_ENTRY))
    die("parse", "kind does not follow the entry length");
  if ((uint64_t)t->tile_count * t->entry_size + t->header_size + t->trailing_size != size)
    die("parse", "header, tiles and trailing bytes do not add up to the input");
  o.alpha = alpha;
  o.page = lookup;
  o.page_ctx = NULL;
  for (i = 0; i < n; i++) {
    codec_error_clear(&err);
    if (!tis_decode(t, i, &o, rgba, &err)) {
      char want[32];
      if (t->kind == TIS_PALETTE) die("decode", "a palette tile failed");
      snprintf(want, sizeof want, "tile %u: ", i);
      if (strncmp(err.msg, want, strlen(want)) != 0) die("decode", "a failure that does not name its tile");
      continue;
    }
    if (t->kind == TIS_PALETTE) {
      const unsigned char *pal = tis_tile_palette(t, i), *c = pal + 4 * tis_tile_indices(t, i)[0];
      int green = c[0] == 0 && c[1] == 255 && c[2] == 0;
      int want = alpha == TIS_ALPHA_NONE ? 255 : alpha == TIS_ALPHA_INDEX0 ? (tis_tile_indices(t, i)[0] ? 255 : 0)
                                                                           : (green ? 0 : 255);
      if (rgba[0] != c[2] || rgba[1] != c[1] || rgba[2] != c[0] || rgba[3] != want)
        die("decode", "pixel 0 is not its palette entry under the rule");
    } else if (t->refs[i].page == TIS_PAGE_BLACK && (rgba[0] || rgba[1] || rgba[2] || rgba[3] != 255)) {
      die("decode", "page -1 is not black");
    }
  }
  codec_error_clear(&err);
  if (tis_decode(t, t->tile_count, &o, rgba, &err) || err.code != CODEC_E_ARG) die("decode", "tile past the end accepted");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tis_file *t = NULL;
  codec_error err;
  int alpha = size ? data[size - 1] % 3 : 0;
  make_pages();
  codec_error_clear(&err);
  if (tis_parse(data, size, &t, &err)) {
    check_tiles(t, size, alpha);
    check_writes_back(t, data, size);
    tis_free(t);
  } else {
    check_rejection("parse", t, &err);
  }
  if (size >= TIS_HEADER_SIZE) {
    uint32_t count = (uint32_t)data[8] | (uint32_t)data[9] << 8 | (uint32_t)data[10] << 16 | (uint32_t)data[11] << 24;
    uint32_t entry = (uint32_t)data[12] | (uint32_t)data[13] << 8 | (uint32_t)data[14] << 16 | (uint32_t)data[15] << 24;
    t = NULL;
    codec_error_clear(&err);
    if (tis_parse_headerless(data + TIS_HEADER_SIZE, size - TIS_HEADER_SIZE, count, entry, &t, &err)) {
      if (t->has_header || t->header_size) die("headerless", "a header where none was read");
      check_tiles(t, size - TIS_HEADER_SIZE, alpha);
      check_writes_back(t, data + TIS_HEADER_SIZE, size - TIS_HEADER_SIZE);
      tis_free(t);
    } else {
      check_rejection("headerless", t, &err);
    }
  }
  return 0;
}
