/*
** dxt.c: DXT1 / DXT5 block decoding (see dxt.h for the block layouts).
*/
#include "tis/dxt.h"

#include <string.h>

#include "common/bytes.h"

size_t dxt_block_bytes(uint64_t format) {
  if (format == DXT_FORMAT_DXT1) return 8;
  if (format == DXT_FORMAT_DXT5) return 16;
  return 0;
}

/* A 5:6:5 colour widened to 8-bit R, G, B. */
static void rgb565(uint16_t c, unsigned char out[3]) {
  unsigned r = (c >> 11) & 31u, g = (c >> 5) & 63u, b = c & 31u;
  out[0] = (unsigned char)(r << 3 | r >> 2);
  out[1] = (unsigned char)(g << 2 | g >> 4);
  out[2] = (unsigned char)(b << 3 | b >> 2);
}

/* The colour part of a block (8 bytes at p) into rgba; four_colour forces
** the four-colour mode (DXT5), else it follows c0 > c1.  Alpha is 255,
** or 0 for index 3 of the three-colour mode. */
static void colour_block(const unsigned char *p, int four_colour, unsigned char rgba[64]) {
  uint16_t c0 = le16_load(p), c1 = le16_load(p + 2);
  uint32_t bits = le32_load(p + 4);
  unsigned char pal[4][4];
  int i, k;
  rgb565(c0, pal[0]);
  rgb565(c1, pal[1]);
  pal[0][3] = pal[1][3] = pal[2][3] = pal[3][3] = 255;
  if (four_colour || c0 > c1) {
    for (k = 0; k < 3; k++) {
      pal[2][k] = (unsigned char)((2u * pal[0][k] + pal[1][k]) / 3u);
      pal[3][k] = (unsigned char)((pal[0][k] + 2u * pal[1][k]) / 3u);
    }
  } else {
    for (k = 0; k < 3; k++) {
      pal[2][k] = (unsigned char)((pal[0][k] + pal[1][k]) / 2u);
      pal[3][k] = 0;
    }
    pal[3][3] = 0;
  }
  for (i = 0; i < 16; i++) memcpy(rgba + 4 * i, pal[(bits >> (2 * i)) & 3u], 4);
}

void dxt1_block(const unsigned char block[8], unsigned char rgba[64]) {
  colour_block(block, 0, rgba);
}

void dxt5_block(const unsigned char block[16], unsigned char rgba[64]) {
  unsigned a0 = block[0], a1 = block[1], k;
  unsigned char alpha[8];
  uint64_t bits = 0;
  int i;
  alpha[0] = (unsigned char)a0;
  alpha[1] = (unsigned char)a1;
  if (a0 > a1) {
    for (k = 1; k <= 6; k++) alpha[k + 1] = (unsigned char)(((7u - k) * a0 + k * a1) / 7u);
  } else {
    for (k = 1; k <= 4; k++) alpha[k + 1] = (unsigned char)(((5u - k) * a0 + k * a1) / 5u);
    alpha[6] = 0;
    alpha[7] = 255;
  }
  for (i = 0; i < 6; i++) bits |= (uint64_t)block[2 + i] << (8 * i);
  colour_block(block + 8, 1, rgba);
  for (i = 0; i < 16; i++) rgba[4 * i + 3] = alpha[(bits >> (3 * i)) & 7u];
}

int dxt_image_bytes(uint64_t format, uint32_t w, uint32_t h, size_t *out, codec_error *err) {
  size_t bs = dxt_block_bytes(format), n;
  if (!bs) return codec_fail(err, "pixel format %llu: not DXT1 (7) or DXT5 (11)", (unsigned long long)format);
  if (!size_mul(((size_t)w + 3) / 4, ((size_t)h + 3) / 4, &n) || !size_mul(n, bs, &n))
    return codec_fail_limit(err, "%ux%u pixels: the blocks' size overflows", w, h);
  *out = n;
  return 1;
}

int dxt_decode_rect(uint64_t format, const unsigned char *data, size_t size, uint32_t w, uint32_t h, uint32_t x,
                    uint32_t y, uint32_t rw, uint32_t rh, unsigned char *out, size_t stride, codec_error *err) {
  size_t bs = dxt_block_bytes(format), need, bw = ((size_t)w + 3) / 4;
  unsigned char px[64];
  uint32_t bx0, bx1, by0, by1, bx, by;
  if (!dxt_image_bytes(format, w, h, &need, err)) return 0;
  if (x > w || y > h || rw > w - x || rh > h - y)
    return codec_fail(err, "rectangle %ux%u at (%u, %u) outside the %ux%u image", rw, rh, x, y, w, h);
  if (rw && stride / 4 < rw) return codec_fail_arg(err, "stride %zu shorter than a row of %u pixels", stride, rw);
  if (size < need)
    return codec_fail(err, "byte offset %zu: truncated, the %ux%u image needs %zu bytes of blocks", size, w, h, need);
  if (!rw || !rh) return 1;
  bx0 = x / 4;
  bx1 = (x + rw - 1) / 4;
  by0 = y / 4;
  by1 = (y + rh - 1) / 4;
  for (by = by0; by <= by1; by++) {
    /* the block rows [j0, j1) and columns [i0, i1) inside the rectangle */
    uint32_t j0 = by == by0 ? y % 4 : 0, j1 = by == by1 ? (y + rh - 1) % 4 + 1 : 4, j;
    for (bx = bx0; bx <= bx1; bx++) {
      uint32_t i0 = bx == bx0 ? x % 4 : 0, i1 = bx == bx1 ? (x + rw - 1) % 4 + 1 : 4;
      const unsigned char *b = data + ((size_t)by * bw + bx) * bs;
      if (bs == 8) dxt1_block(b, px);
      else dxt5_block(b, px);
      for (j = j0; j < j1; j++)
        memcpy(out + (size_t)(by * 4 + j - y) * stride + (size_t)(bx * 4 + i0 - x) * 4, px + (j * 4 + i0) * 4,
               (size_t)(i1 - i0) * 4);
    }
  }
  return 1;
}

int dxt_decode_image(uint64_t format, const unsigned char *data, size_t size, uint32_t w, uint32_t h,
                     unsigned char *out, codec_error *err) {
  size_t stride;
  if (!size_mul(w, 4, &stride)) return codec_fail_limit(err, "%u pixels a row: too wide", w);
  return dxt_decode_rect(format, data, size, w, h, 0, 0, w, h, out, stride, err);
}
