/*
** dxt.h: a decoder of S3TC / DXT texture blocks to RGBA, for the PVRZ
** textures of the Infinity Engine Enhanced Editions (pvrz.h): DXT1 (BC1)
** and DXT5 (BC3).
**
** Pure C, no SQLite, no allocation.  A texture of W x H pixels is stored as
** ceil(W/4) x ceil(H/4) blocks of 4 x 4 pixels, row by row, each block
** 8 bytes (DXT1) or 16 bytes (DXT5); W and H need not be multiples of 4
** (the pixels of the last column and row of blocks beyond the image are
** stored but never shown: decoding clips them).
**
** Block layouts (all little endian):
** - DXT1: colour c0 (u16, RGB 5:6:5), colour c1 (u16), then 16 two-bit
**   indices (u32, pixel i of the block in bits 2i+1..2i, pixels row by
**   row).  c0 > c1 (as numbers): four colours c0, c1, (2 c0 + c1) / 3,
**   (c0 + 2 c1) / 3, all opaque.  c0 <= c1: three colours c0, c1,
**   (c0 + c1) / 2 and index 3 is transparent black (0, 0, 0, 0).
** - DXT5: alpha a0 (u8), alpha a1 (u8), 16 three-bit alpha indices (48
**   bits, pixel i in bits 3i+2..3i), then a DXT1 colour block that is
**   always read in the four-colour mode.  a0 > a1: eight alphas a0, a1 and
**   ((7 - k) a0 + k a1) / 7 for k = 1..6.  a0 <= a1: six alphas a0, a1,
**   ((5 - k) a0 + k a1) / 5 for k = 1..4, then 0 and 255.
** Colours are widened from 5 and 6 bits by repeating their top bits
** (r8 = r5 << 3 | r5 >> 2, g8 = g6 << 2 | g6 >> 4); the interpolated
** values are computed on the widened 8-bit components, rounding down.
**
** Ownership: nothing is allocated; every output is a caller's buffer.
*/
#ifndef LEVELSQL_DXT_H
#define LEVELSQL_DXT_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"

/* The formats, numbered as the PVR v3 header's pixel format names them. */
#define DXT_FORMAT_DXT1 7u
#define DXT_FORMAT_DXT5 11u

/* Bytes of one block of `format`, 0 for a format this decoder does not read. */
size_t dxt_block_bytes(uint64_t format);

/* Decodes one block to 16 RGBA pixels (64 bytes, row by row). */
void dxt1_block(const unsigned char block[8], unsigned char rgba[64]);
void dxt5_block(const unsigned char block[16], unsigned char rgba[64]);

/* Bytes the blocks of a w x h image of `format` take: ceil(w/4) *
** ceil(h/4) * block bytes.  Returns 1, or 0 with err when the format is
** unknown (CODEC_E_FORMAT) or the size overflows (CODEC_E_LIMIT). */
int dxt_image_bytes(uint64_t format, uint32_t w, uint32_t h, size_t *out, codec_error *err);

/* Decodes the rectangle [x, x + rw) x [y, y + rh) of the w x h image whose
** blocks are data[0..size) into out, rw x rh RGBA pixels, row r of the
** rectangle at out + r * stride.  Only the blocks the rectangle meets are
** decoded, so a tile of a large page costs its own blocks.  The rectangle
** may start anywhere (x, y need not be multiples of 4) but must lie inside
** the image.  Returns 1, or 0 with err: an unknown format, a rectangle
** outside the image, or data shorter than the image's blocks (the message
** names the byte offset), all CODEC_E_FORMAT, CODEC_E_ARG for a stride
** shorter than a row. */
int dxt_decode_rect(uint64_t format, const unsigned char *data, size_t size, uint32_t w, uint32_t h, uint32_t x,
                    uint32_t y, uint32_t rw, uint32_t rh, unsigned char *out, size_t stride, codec_error *err);

/* The whole w x h image into out (w * h * 4 bytes, rows of w * 4). */
int dxt_decode_image(uint64_t format, const unsigned char *data, size_t size, uint32_t w, uint32_t h,
                     unsigned char *out, codec_error *err);

#endif
