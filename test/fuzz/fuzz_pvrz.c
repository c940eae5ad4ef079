/*
** fuzz_pvrz.c: libFuzzer harness for the PVRZ texture codec
** (codecs/tis/pvrz.[ch]) and the DXT decoder under it (dxt.[ch]).
**
** The input is parsed as a PVRZ file (capped at 1 MiB inflated, so a run
** stays fast; the cap itself is a test: a claim over it must be refused
** with CODEC_E_LIMIT) and, since zlib's checksum keeps most mutations from
** reaching the texture inside, also as a PVR texture already inflated
** (pvr_parse).  A rejection must carry a message and CODEC_E_FORMAT, _LIMIT
** or _MEMORY.  An accepted page must be DXT1 or DXT5 with its blocks all
** there; then rectangles at positions taken from the input's first bytes
** (64 x 64 where the page is that large, any pixel, clipped to the page)
** are decoded, one past the page's edge must be refused, and pages of at
** most 256 x 256 pixels are decoded whole and compared with the
** rectangles.  Any inconsistency calls abort().
**
** Build and run: make build-fuzz/fuzz/fuzz_pvrz; seeds from
** tools/gen_tis_samples --fuzz (test/fuzz/run.sh).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tis/dxt.h"
#include "tis/pvrz.h"

#define FUZZ_MAX_INFLATED ((uint64_t)1 << 20)

static void die(const char *what, const char *msg) {
  fprintf(stderr, "fuzz_pvrz: %s: %s\n", what, msg ? msg : "");
  abort();
}

static void check_rejection(const char *what, const pvrz_page *p, const codec_error *err) {
  if (p || !err->msg[0]) die(what, "rejected without a message");
  if (err->code != CODEC_E_FORMAT && err->code != CODEC_E_LIMIT && err->code != CODEC_E_MEMORY)
    die(what, "rejected with the wrong code");
}

/* Rectangles of an accepted page, and the whole page when it is small. */
static void check_page(const pvrz_page *p, const uint8_t *data, size_t size) {
  static unsigned char rect[64 * 64 * 4];
  unsigned char *whole = NULL;
  size_t need, ws = 0;
  uint32_t w = p->width < 64 ? p->width : 64, h = p->height < 64 ? p->height : 64, x, y, k;
  codec_error err;
  codec_error_clear(&err);
  if (!dxt_image_bytes(p->pixel_format, p->width, p->height, &need, &err) || need != p->blocks_size)
    die("page", "the blocks are not those of its size and format");
  if (p->width * (uint64_t)p->height <= 256u * 256u && !pvrz_decode(p, &whole, &ws, &err)) die("decode", err.msg);
  for (k = 0; k < 3; k++) {
    x = size > 2 * k + 1 ? data[2 * k] % (p->width - w + 1) : 0;
    y = size > 2 * k + 1 ? data[2 * k + 1] % (p->height - h + 1) : 0;
    if (!pvrz_decode_rect(p, x, y, w, h, rect, (size_t)w * 4, &err)) die("rect", err.msg);
    if (whole) {
      uint32_t r;
      for (r = 0; r < h; r++)
        if (memcmp(rect + (size_t)r * w * 4, whole + ((size_t)(y + r) * p->width + x) * 4, (size_t)w * 4) != 0)
          die("rect", "a rectangle differs from the whole page");
    }
  }
  codec_error_clear(&err);
  if (pvrz_decode_rect(p, p->width - w + 1, 0, w, h, rect, (size_t)w * 4, &err) || !err.msg[0])
    die("rect", "a rectangle past the right edge accepted");
  free(whole);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pvrz_page *p = NULL;
  codec_error err;
  codec_error_clear(&err);
  if (pvrz_parse(data, size, FUZZ_MAX_INFLATED, &p, &err)) {
    if (p->declared_size > FUZZ_MAX_INFLATED) die("parse", "a page over the cap accepted");
    check_page(p, data, size);
    pvrz_free(p);
  } else {
    check_rejection("pvrz", p, &err);
    if (size >= 4 && ((uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24) >
                         FUZZ_MAX_INFLATED && err.code != CODEC_E_LIMIT)
      die("pvrz", "a claim over the cap not refused as a limit");
  }
  p = NULL;
  codec_error_clear(&err);
  /* the bytes as an inflated texture; big ones only if their blocks are
  ** few (the whole-page decode above is capped the same way) */
  if (pvr_parse(data, size, &p, &err)) {
    check_page(p, data, size);
    pvrz_free(p);
  } else {
    check_rejection("pvr", p, &err);
  }
  return 0;
}
