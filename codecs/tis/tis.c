/*
** tis.c: the TIS tileset codec (see tis.h).
*/
#include "tis/tis.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"

void tis_free(tis_file *t) {
  if (!t) return;
  free(t->header_extra);
  free(t->tiles);
  free(t->refs);
  free(t->trailing);
  free(t);
}

/* A malloc'd copy of n bytes (NULL for n == 0); 0 when out of memory. */
static int copy_bytes(const unsigned char *src, size_t n, unsigned char **dst) {
  *dst = NULL;
  if (!n) return 1;
  *dst = (unsigned char *)malloc(n);
  if (!*dst) return 0;
  memcpy(*dst, src, n);
  return 1;
}

/* Reads the tiles: tile_count entries of t->entry_size bytes from `start`
** of data, then keeps the bytes after them.  Messages name the header
** field at fault ("the given" ones of a headerless tileset) or the first
** tile that does not fit. */
static int read_tiles(const unsigned char *data, size_t size, size_t start, tis_file *t, codec_error *err) {
  size_t n = t->tile_count, es = t->entry_size, left = start <= size ? size - start : 0, total, i;
  const char *entry_at = t->has_header ? "tis header: byte offset 12: tile" : "headerless tileset: the given";
  const char *count_at = t->has_header ? "tis header: byte offset 8:" : "headerless tileset: the given count,";
  if (!data) data = (const unsigned char *)""; /* size 0: no arithmetic on NULL */
  if (t->entry_size == TIS_V1_ENTRY) t->kind = TIS_PALETTE;
  else if (t->entry_size == TIS_V2_ENTRY) t->kind = TIS_PVRZ;
  else
    return codec_fail(err, "%s entry length %u, neither %u (palette tiles) nor %u (PVRZ tiles)", entry_at,
                      t->entry_size, TIS_V1_ENTRY, TIS_V2_ENTRY);
  if (t->tile_count > TIS_MAX_TILES)
    return codec_fail_limit(err, "%s %u tiles, over the limit of %u", count_at, t->tile_count, TIS_MAX_TILES);
  if (!size_mul(n, es, &total) || total > left) {
    size_t fit = left / es;
    return codec_fail(err, "tile %zu: byte offset %zu: truncated, need %zu bytes, %zu left (%u tiles claimed)", fit,
                      start + fit * es, es, left - fit * es, t->tile_count);
  }
  if (t->kind == TIS_PALETTE) {
    if (!copy_bytes(data + start, total, &t->tiles)) return codec_fail_oom(err, "tis tiles: out of memory");
  } else if (n) {
    t->refs = (tis_ref *)malloc(n * sizeof *t->refs);
    if (!t->refs) return codec_fail_oom(err, "tis tiles: out of memory");
    for (i = 0; i < n; i++) {
      const unsigned char *p = data + start + i * TIS_V2_ENTRY;
      t->refs[i].page = u32_as_i32(le32_load(p));
      t->refs[i].x = le32_load(p + 4);
      t->refs[i].y = le32_load(p + 8);
    }
  }
  t->trailing_size = left - total;
  if (!copy_bytes(data + start + total, t->trailing_size, &t->trailing))
    return codec_fail_oom(err, "tis: out of memory");
  return 1;
}

void tis_header_write(unsigned char *out, uint32_t count, uint32_t entry_size) {
  memcpy(out, "TIS V1  ", 8);
  le32_store(out + 8, count);
  le32_store(out + 12, entry_size);
  le32_store(out + 16, TIS_HEADER_SIZE);
  le32_store(out + 20, TIS_TILE_SIDE);
}

int tis_sniff(const unsigned char *data, size_t size) {
  return size >= 8 && memcmp(data, "TIS V1  ", 8) == 0;
}

int tis_parse(const unsigned char *data, size_t size, tis_file **out, codec_error *err) {
  tis_file *t;
  *out = NULL;
  if (size < TIS_HEADER_SIZE)
    return codec_fail(err, "tis header: byte offset 0: truncated, need %u bytes, %zu left", TIS_HEADER_SIZE, size);
  if (memcmp(data, "TIS ", 4) != 0) return codec_fail(err, "tis header: byte offset 0: signature is not 'TIS '");
  if (memcmp(data + 4, "V1  ", 4) != 0)
    return codec_fail(err, "tis header: byte offset 4: version '%.4s' (only 'V1  ' is read)", (const char *)data + 4);
  t = (tis_file *)calloc(1, sizeof *t);
  if (!t) return codec_fail_oom(err, "tis: out of memory");
  t->has_header = 1;
  memcpy(t->signature, data, 4);
  memcpy(t->version, data + 4, 4);
  t->tile_count = le32_load(data + 8);
  t->entry_size = le32_load(data + 12);
  t->header_size = le32_load(data + 16);
  t->tile_side = le32_load(data + 20);
  if (t->tile_side != TIS_TILE_SIDE) {
    codec_fail(err, "tis header: byte offset 20: tile side %u pixels (only %u is read)", t->tile_side, TIS_TILE_SIDE);
    goto fail;
  }
  if (t->header_size < TIS_HEADER_SIZE || t->header_size > size) {
    codec_fail(err, "tis header: byte offset 16: header size %u, outside %u .. the file's %zu bytes", t->header_size,
               TIS_HEADER_SIZE, size);
    goto fail;
  }
  t->header_extra_size = t->header_size - TIS_HEADER_SIZE;
  if (!copy_bytes(data + TIS_HEADER_SIZE, t->header_extra_size, &t->header_extra)) {
    codec_fail_oom(err, "tis: out of memory");
    goto fail;
  }
  if (!read_tiles(data, size, t->header_size, t, err)) goto fail;
  *out = t;
  return 1;
fail:
  tis_free(t);
  return 0;
}

int tis_parse_headerless(const unsigned char *data, size_t size, uint32_t tile_count, uint32_t entry_size,
                         tis_file **out, codec_error *err) {
  tis_file *t;
  *out = NULL;
  t = (tis_file *)calloc(1, sizeof *t);
  if (!t) return codec_fail_oom(err, "tis: out of memory");
  t->tile_count = tile_count;
  t->entry_size = entry_size;
  t->tile_side = TIS_TILE_SIDE;
  if (!read_tiles(data, size, 0, t, err)) {
    tis_free(t);
    return 0;
  }
  *out = t;
  return 1;
}

const unsigned char *tis_tile_palette(const tis_file *t, uint32_t tile) {
  if (t->kind != TIS_PALETTE || tile >= t->tile_count) return NULL;
  return t->tiles + (size_t)tile * TIS_V1_ENTRY;
}

const unsigned char *tis_tile_indices(const tis_file *t, uint32_t tile) {
  const unsigned char *p = tis_tile_palette(t, tile);
  return p ? p + TIS_PALETTE_BYTES : NULL;
}

/* A palette tile to RGBA under the alpha rule. */
static void decode_palette_tile(const unsigned char *entry, int alpha, unsigned char *rgba) {
  unsigned char pal[256][4];
  const unsigned char *idx = entry + TIS_PALETTE_BYTES;
  size_t i;
  for (i = 0; i < 256; i++) {
    const unsigned char *c = entry + 4 * i; /* B, G, R, A (A unused) */
    pal[i][0] = c[2];
    pal[i][1] = c[1];
    pal[i][2] = c[0];
    if (alpha == TIS_ALPHA_GREEN) pal[i][3] = (c[2] == 0 && c[1] == 255 && c[0] == 0) ? 0 : 255;
    else pal[i][3] = (alpha == TIS_ALPHA_INDEX0 && i == 0) ? 0 : 255;
  }
  for (i = 0; i < TIS_TILE_PIXELS; i++) memcpy(rgba + 4 * i, pal[idx[i]], 4);
}

/* A PVRZ tile: the 64 x 64 rectangle of its page, or solid black. */
static int decode_pvrz_tile(const tis_ref *ref, uint32_t tile, const tis_decode_opts *opts, unsigned char *rgba,
                            codec_error *err) {
  const pvrz_page *pg;
  size_t i;
  if (ref->page == TIS_PAGE_BLACK) {
    for (i = 0; i < TIS_TILE_PIXELS; i++) {
      rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = 0;
      rgba[4 * i + 3] = 255;
    }
    return 1;
  }
  if (ref->page < 0 || ref->page > TIS_MAX_PAGE)
    return codec_fail(err, "tile %u: page %d: not a page (-1 for black, 0 to %d)", tile, (int)ref->page, TIS_MAX_PAGE);
  if (!opts || !opts->page)
    return codec_fail_arg(err, "tile %u: page %d: no page lookup given", tile, (int)ref->page);
  pg = opts->page(opts->page_ctx, ref->page, err);
  if (!pg) {
    if (err && !err->msg[0]) codec_fail(err, "not found");
    return codec_prefix(err, "tile %u: page %d: ", tile, (int)ref->page);
  }
  if (!pvrz_decode_rect(pg, ref->x, ref->y, TIS_TILE_SIDE, TIS_TILE_SIDE, rgba, TIS_TILE_SIDE * 4, err))
    return codec_prefix(err, "tile %u: page %d at (%u, %u): ", tile, (int)ref->page, ref->x, ref->y);
  return 1;
}

int tis_decode(const tis_file *t, uint32_t tile, const tis_decode_opts *opts, unsigned char *rgba,
               codec_error *err) {
  if (tile >= t->tile_count) return codec_fail_arg(err, "tile %u: no such tile (%u tiles)", tile, t->tile_count);
  if (t->kind != TIS_PALETTE) return decode_pvrz_tile(&t->refs[tile], tile, opts, rgba, err);
  decode_palette_tile(t->tiles + (size_t)tile * TIS_V1_ENTRY, opts ? opts->alpha : TIS_ALPHA_GREEN, rgba);
  return 1;
}

int tis_pvrz_name(const char *tileset, size_t len, int page, char out[16], codec_error *err) {
  size_t i, n = 0;
  out[0] = 0;
  if (page < 0 || page > TIS_MAX_PAGE)
    return codec_fail_arg(err, "pvrz page %d: outside 0 .. %d (two digits)", page, TIS_MAX_PAGE);
  if (len < 3 || len > 8 || memchr(tileset, 0, len))
    return codec_fail_arg(err, "tileset '%.*s': a resref of 3 to 8 characters is needed", (int)(len > 8 ? 8 : len),
                          tileset);
  if (len - 1 + 2 > 8)
    return codec_fail_arg(err, "tileset '%.*s': its page names would pass 8 characters", (int)len, tileset);
  for (i = 0; i < len; i++) {
    char c = tileset[i];
    if (i == 1) continue;
    out[n++] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
  }
  out[n++] = (char)('0' + page / 10);
  out[n++] = (char)('0' + page % 10);
  memcpy(out + n, ".PVRZ", 6);
  return 1;
}

/* The bytes of the tiles' section: tile_count entries of the kind's length. */
static size_t tiles_bytes(const tis_file *t) {
  return (size_t)t->tile_count * (t->kind == TIS_PALETTE ? TIS_V1_ENTRY : TIS_V2_ENTRY);
}

int tis_serialize(const tis_file *t, unsigned char **out, size_t *out_size, codec_error *err) {
  size_t head = t->has_header ? TIS_HEADER_SIZE + t->header_extra_size : 0, body = tiles_bytes(t), total, i;
  unsigned char *p;
  *out = NULL;
  *out_size = 0;
  if ((t->kind != TIS_PALETTE && t->kind != TIS_PVRZ) ||
      (t->kind == TIS_PALETTE ? TIS_V1_ENTRY : TIS_V2_ENTRY) != t->entry_size)
    return codec_fail_arg(err, "tis: entry length %u does not match the tiles' kind", t->entry_size);
  if (t->has_header && t->header_size != TIS_HEADER_SIZE + t->header_extra_size)
    return codec_fail_arg(err, "tis header: header size %u, but %zu bytes follow the 24-byte header", t->header_size,
                          t->header_extra_size);
  if (!size_add(head, body, &total) || !size_add(total, t->trailing_size, &total))
    return codec_fail_limit(err, "tis: the file would pass SIZE_MAX bytes");
  p = (unsigned char *)malloc(total ? total : 1);
  if (!p) return codec_fail_oom(err, "tis: out of memory for %zu bytes", total);
  if (t->has_header) {
    memcpy(p, t->signature, 4);
    memcpy(p + 4, t->version, 4);
    le32_store(p + 8, t->tile_count);
    le32_store(p + 12, t->entry_size);
    le32_store(p + 16, t->header_size);
    le32_store(p + 20, t->tile_side);
    if (t->header_extra_size) memcpy(p + TIS_HEADER_SIZE, t->header_extra, t->header_extra_size);
  }
  if (t->kind == TIS_PALETTE && body) memcpy(p + head, t->tiles, body);
  for (i = 0; t->kind == TIS_PVRZ && i < t->tile_count; i++) {
    unsigned char *e = p + head + i * TIS_V2_ENTRY;
    le32_store(e, (uint32_t)t->refs[i].page);
    le32_store(e + 4, t->refs[i].x);
    le32_store(e + 8, t->refs[i].y);
  }
  if (t->trailing_size) memcpy(p + head + body, t->trailing, t->trailing_size);
  *out = p;
  *out_size = total;
  return 1;
}

tis_file *tis_clone(const tis_file *t) {
  tis_file *c = (tis_file *)malloc(sizeof *c);
  int ok;
  if (!c) return NULL;
  *c = *t;
  c->header_extra = c->tiles = c->trailing = NULL;
  c->refs = NULL;
  ok = copy_bytes(t->header_extra, t->header_extra_size, &c->header_extra) &&
       copy_bytes(t->trailing, t->trailing_size, &c->trailing) &&
       (t->kind != TIS_PALETTE || copy_bytes(t->tiles, tiles_bytes(t), &c->tiles));
  if (ok && t->kind == TIS_PVRZ && t->tile_count) {
    c->refs = (tis_ref *)malloc((size_t)t->tile_count * sizeof *c->refs);
    if (c->refs) memcpy(c->refs, t->refs, (size_t)t->tile_count * sizeof *c->refs);
    else ok = 0;
  }
  if (!ok) {
    tis_free(c);
    return NULL;
  }
  return c;
}

size_t tis_footprint(const tis_file *t) {
  size_t tiles = t->kind == TIS_PALETTE ? tiles_bytes(t) : (size_t)t->tile_count * sizeof(tis_ref);
  return sizeof *t + t->header_extra_size + tiles + t->trailing_size;
}
