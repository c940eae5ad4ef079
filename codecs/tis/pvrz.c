/*
** pvrz.c: the PVRZ texture container (see pvrz.h).
*/
#include "tis/pvrz.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"
#include "tis/dxt.h"

void pvrz_free(pvrz_page *p) {
  if (!p) return;
  free(p->meta);
  free(p->blocks);
  free(p);
}

/* The name of a PVR v3 pixel format the games do not use, for the error. */
static const char *format_name(uint64_t f) {
  switch (f) {
    case 0: case 1: return "PVRTC 2bpp";
    case 2: case 3: return "PVRTC 4bpp";
    case 6: return "ETC1";
    case 8: return "DXT2";
    case 9: return "DXT3";
    case 10: return "DXT4";
    case 12: return "BC4";
    case 13: return "BC5";
    default: return f >> 32 ? "uncompressed channels" : "unknown";
  }
}

/* Reads the 52-byte header into p and checks what the page needs. */
static int read_header(const unsigned char *data, size_t size, pvrz_page *p, codec_error *err) {
  byte_reader r = br_at(data, size, 0);
  if (!br_need(&r, PVR_HEADER_SIZE))
    return codec_fail(err, "pvr header: byte offset 0: truncated, need %u bytes, %zu left", PVR_HEADER_SIZE, size);
  p->version = br_u32le(&r);
  p->flags = br_u32le(&r);
  p->pixel_format = (uint64_t)br_u32le(&r);
  p->pixel_format |= (uint64_t)br_u32le(&r) << 32;
  p->colour_space = br_u32le(&r);
  p->channel_type = br_u32le(&r);
  p->height = br_u32le(&r);
  p->width = br_u32le(&r);
  p->depth = br_u32le(&r);
  p->surfaces = br_u32le(&r);
  p->faces = br_u32le(&r);
  p->mipmaps = br_u32le(&r);
  p->meta_size = br_u32le(&r);
  if (p->version == PVR_VERSION_SWAPPED)
    return codec_fail(err, "pvr header: byte offset 0: a big-endian PVR v3 texture, not read");
  if (p->version != PVR_VERSION)
    return codec_fail(err, "pvr header: byte offset 0: version 0x%08x, not PVR v3 (0x%08x)", p->version, PVR_VERSION);
  if (!dxt_block_bytes(p->pixel_format))
    return codec_fail(err, "pvr header: byte offset 8: pixel format %llu (%s), not DXT1 (7) or DXT5 (11)",
                      (unsigned long long)p->pixel_format, format_name(p->pixel_format));
  if (p->width == 0 || p->height == 0 || p->width > PVRZ_MAX_SIDE || p->height > PVRZ_MAX_SIDE)
    return codec_fail_limit(err, "pvr header: byte offset 24: %ux%u pixels (each side 1 to %u)", p->width,
                            p->height, PVRZ_MAX_SIDE);
  return 1;
}

int pvr_parse(const unsigned char *data, size_t size, pvrz_page **out, codec_error *err) {
  pvrz_page *p;
  size_t need, left;
  *out = NULL;
  p = (pvrz_page *)calloc(1, sizeof *p);
  if (!p) return codec_fail_oom(err, "pvr: out of memory");
  if (!read_header(data, size, p, err)) goto fail;
  left = size - PVR_HEADER_SIZE;
  if (p->meta_size > left) {
    codec_fail(err, "pvr metadata: byte offset %u: truncated, need %u bytes, %zu left", PVR_HEADER_SIZE,
               p->meta_size, left);
    goto fail;
  }
  left -= p->meta_size;
  if (!dxt_image_bytes(p->pixel_format, p->width, p->height, &need, err)) goto fail;
  if (need > left) {
    codec_fail(err, "pvr mipmap 0: byte offset %zu: truncated, %ux%u pixels need %zu bytes, %zu left",
               (size_t)PVR_HEADER_SIZE + p->meta_size, p->width, p->height, need, left);
    goto fail;
  }
  if (p->meta_size) {
    p->meta = (unsigned char *)malloc(p->meta_size);
    if (!p->meta) { codec_fail_oom(err, "pvr metadata: out of memory"); goto fail; }
    memcpy(p->meta, data + PVR_HEADER_SIZE, p->meta_size);
  }
  p->blocks = (unsigned char *)malloc(need ? need : 1);
  if (!p->blocks) { codec_fail_oom(err, "pvr mipmap 0: out of memory (%zu bytes)", need); goto fail; }
  memcpy(p->blocks, data + PVR_HEADER_SIZE + p->meta_size, need);
  p->blocks_size = need;
  p->rest_size = left - need;
  *out = p;
  return 1;
fail:
  pvrz_free(p);
  return 0;
}

/* Inflates the zlib stream src into exactly dst_size bytes of dst.
** Returns 1, or 0 with err naming what went wrong. */
static int inflate_exact(const unsigned char *src, size_t src_size, unsigned char *dst, size_t dst_size,
                         codec_error *err) {
  z_stream zs;
  unsigned char extra;
  size_t in_done = 0;
  int zr;
  memset(&zs, 0, sizeof zs);
  if (inflateInit(&zs) != Z_OK) return codec_fail_oom(err, "pvrz: zlib: out of memory");
  /* dst_size came from a u32, so it fits avail_out */
  zs.next_out = dst;
  zs.avail_out = (uInt)dst_size;
  do {
    size_t chunk = src_size - in_done > UINT_MAX ? UINT_MAX : src_size - in_done;
    zs.next_in = (Bytef *)(uintptr_t)(src + in_done);
    zs.avail_in = (uInt)chunk;
    zr = inflate(&zs, Z_NO_FLUSH);
    in_done += chunk - zs.avail_in;
    if (zs.total_out == dst_size && zr == Z_OK) {
      /* full: one byte more must not come (the stream has to end here) */
      zs.next_out = &extra;
      zs.avail_out = 1;
      zr = inflate(&zs, Z_NO_FLUSH);
      if (zs.avail_out == 0) {
        inflateEnd(&zs);
        return codec_fail(err, "pvrz: byte offset 4: the stream inflates to more than the %zu bytes claimed",
                          dst_size);
      }
    }
  } while (zr == Z_OK && in_done < src_size);
  inflateEnd(&zs);
  if (zr == Z_MEM_ERROR) return codec_fail_oom(err, "pvrz: zlib: out of memory");
  if (zr == Z_DATA_ERROR || zr == Z_NEED_DICT)
    return codec_fail(err, "pvrz: byte offset %zu: damaged zlib stream (%s)", 4 + in_done,
                      zs.msg ? zs.msg : "data error");
  if (zr != Z_STREAM_END)
    return codec_fail(err, "pvrz: byte offset %zu: truncated zlib stream, %lu of %zu bytes inflated", 4 + in_done,
                      (unsigned long)zs.total_out, dst_size);
  if ((size_t)zs.total_out != dst_size)
    return codec_fail(err, "pvrz: byte offset 0: claims %zu inflated bytes, the stream holds %lu", dst_size,
                      (unsigned long)zs.total_out);
  return 1;
}

int pvrz_parse(const unsigned char *data, size_t size, uint64_t max_inflated, pvrz_page **out, codec_error *err) {
  uint32_t claimed;
  unsigned char *raw;
  int ok;
  *out = NULL;
  if (!max_inflated) max_inflated = PVRZ_DEFAULT_MAX_INFLATED;
  if (size < 4) return codec_fail(err, "pvrz: byte offset 0: truncated, need 4 bytes, %zu left", size);
  claimed = le32_load(data);
  if (claimed > max_inflated)
    return codec_fail_limit(err, "pvrz: byte offset 0: claims %u inflated bytes, over the limit of %llu", claimed,
                            (unsigned long long)max_inflated);
  if (claimed < PVR_HEADER_SIZE)
    return codec_fail(err, "pvrz: byte offset 0: claims %u inflated bytes, less than a PVR header (%u)", claimed,
                      PVR_HEADER_SIZE);
  raw = (unsigned char *)malloc(claimed);
  if (!raw) return codec_fail_oom(err, "pvrz: out of memory (%u bytes)", claimed);
  ok = inflate_exact(data + 4, size - 4, raw, claimed, err) && pvr_parse(raw, claimed, out, err);
  free(raw);
  if (ok) (*out)->declared_size = claimed;
  return ok;
}

int pvrz_decode_rect(const pvrz_page *p, uint32_t x, uint32_t y, uint32_t w, uint32_t h, unsigned char *out,
                     size_t stride, codec_error *err) {
  return dxt_decode_rect(p->pixel_format, p->blocks, p->blocks_size, p->width, p->height, x, y, w, h, out, stride,
                         err);
}

int pvrz_decode(const pvrz_page *p, unsigned char **out, size_t *out_size, codec_error *err) {
  size_t n;
  unsigned char *px;
  *out = NULL;
  if ((uint64_t)p->width * p->height > PVRZ_MAX_DECODE_PIXELS || !size_mul((size_t)p->width * p->height, 4, &n))
    return codec_fail_limit(err, "pvrz: %ux%u pixels: over the %u pixels decoded at once", p->width, p->height,
                            PVRZ_MAX_DECODE_PIXELS);
  px = (unsigned char *)malloc(n ? n : 1);
  if (!px) return codec_fail_oom(err, "pvrz: out of memory (%zu bytes of pixels)", n);
  if (!dxt_decode_image(p->pixel_format, p->blocks, p->blocks_size, p->width, p->height, px, err)) {
    free(px);
    return 0;
  }
  *out = px;
  *out_size = n;
  return 1;
}
