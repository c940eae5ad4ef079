/*
** pvrz.h: the PVRZ texture container of the Infinity Engine Enhanced
** Editions (the pages the PVRZ-based TIS tilesets, MOS V2 and BAM V2 take
** their pixels from).
**
** Pure C, no SQLite.  A PVRZ file is a u32 (little endian): the size of the
** texture once inflated, then a zlib stream holding a PVR texture of
** version 3: a 52-byte header (version 0x03525650 "PVR\3", flags, pixel
** format u64, colour space, channel type, height, width, depth, surfaces,
** faces, mipmap count, metadata size; all u32 but the format), the
** metadata, then the pixel data, largest mipmap first.  The games use the
** pixel formats 7 (DXT1 / BC1) and 11 (DXT5 / BC3) (dxt.h); every other
** format is refused with its number.  Only the first surface, face and
** depth slice of mipmap 0 is read: that is all a page has (NOTES-tis.md).
**
** pvrz_parse inflates the texture (after checking the size the file
** claims against a cap, before allocating anything) and keeps the
** compressed blocks of mipmap 0; pixels are decoded on demand, a rectangle
** at a time (pvrz_decode_rect: a 64 x 64 tile of a 1024 x 1024 page costs
** its 256 blocks) or whole (pvrz_decode).  The header's fields and the
** metadata are kept as read, so nothing the model does not use is lost.
**
** Ownership: pvrz_parse returns a page the caller frees with pvrz_free;
** its arrays are owned by it.  The input is only borrowed.  Decoding
** writes into the caller's buffer, except pvrz_decode, whose output the
** caller frees with free().
*/
#ifndef LEVELSQL_PVRZ_H
#define LEVELSQL_PVRZ_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"

#define PVR_HEADER_SIZE 52u
#define PVR_VERSION 0x03525650u          /* "PVR\3" read little endian */
#define PVR_VERSION_SWAPPED 0x50565203u  /* the same written big endian */

/* The default cap on the inflated texture (header, metadata and data):
** 64 MiB, the DXT5 blocks of 8192 x 8192 pixels; real pages are 1024 x
** 1024 at most (1 MiB of DXT5). */
#define PVRZ_DEFAULT_MAX_INFLATED ((uint64_t)64 << 20)
/* The largest side a page may have (the decoded RGBA of one page is
** bounded by this and by the inflated cap). */
#define PVRZ_MAX_SIDE 16384u

typedef struct pvrz_page {
  uint32_t declared_size;  /* the file's first u32: the inflated size */
  /* the PVR v3 header, as read */
  uint32_t version, flags;
  uint64_t pixel_format;   /* DXT_FORMAT_DXT1 or DXT_FORMAT_DXT5 */
  uint32_t colour_space, channel_type;
  uint32_t height, width, depth, surfaces, faces, mipmaps;
  uint32_t meta_size;
  unsigned char *meta;     /* meta_size bytes (NULL when 0), owned */
  unsigned char *blocks;   /* the DXT blocks of mipmap 0, first surface; owned */
  size_t blocks_size;
  size_t rest_size;        /* bytes after those blocks (other mipmaps, surfaces); not kept */
} pvrz_page;

/* Parses a PVRZ file.  max_inflated caps the size the file claims (0: the
** default above); a file claiming more is refused with CODEC_E_LIMIT before
** anything is allocated or inflated.  The stream must inflate to exactly
** the claimed size.  Returns 1 and *out, or 0 with err ("pvrz: ..." with
** the byte offset: a truncated or damaged stream, a bad PVR version, an
** unknown pixel format, a size beyond the caps). */
int pvrz_parse(const unsigned char *data, size_t size, uint64_t max_inflated, pvrz_page **out, codec_error *err);

/* The same on a PVR texture already inflated (the bytes after the zlib
** stream's inflation): header, metadata, blocks. */
int pvr_parse(const unsigned char *data, size_t size, pvrz_page **out, codec_error *err);

void pvrz_free(pvrz_page *p);

/* Decodes the rectangle [x, x + w) x [y, y + h) of the page into out (w x h
** RGBA pixels, rows `stride` bytes apart).  The rectangle may start at any
** pixel but must lie inside the page.  Returns 1, or 0 with err. */
int pvrz_decode_rect(const pvrz_page *p, uint32_t x, uint32_t y, uint32_t w, uint32_t h, unsigned char *out,
                     size_t stride, codec_error *err);

/* The whole page as RGBA (width * height * 4 bytes, malloc'd: free()); a
** page of more than PVRZ_MAX_DECODE_PIXELS is refused (CODEC_E_LIMIT)
** before allocating: decode it a rectangle at a time. */
#define PVRZ_MAX_DECODE_PIXELS (16u * 1024u * 1024u)
int pvrz_decode(const pvrz_page *p, unsigned char **out, size_t *out_size, codec_error *err);

#endif
