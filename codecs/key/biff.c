/*
** biff.c: BIFF V1 archives: the header, the entry tables, finding and
** copying out resources, tilesets as TIS files (biff.h; layout in
** NOTES-key.md).  The compressed containers are inflated by biff_inflate.c.
*/
#include "key/biff.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"

int biff_sniff(const unsigned char *data, size_t size) {
  if (size < 8) return BIFF_CONTAINER_NONE;
  if (memcmp(data, "BIFFV1  ", 8) == 0) return BIFF_CONTAINER_BIFF;
  if (memcmp(data, "BIF V1.0", 8) == 0) return BIFF_CONTAINER_BIF;
  if (memcmp(data, "BIFCV1.0", 8) == 0) return BIFF_CONTAINER_BIFC;
  return BIFF_CONTAINER_NONE;
}

void biff_free(biff_archive *a) {
  if (!a) return;
  free(a->bif_name);
  free(a->owned);
  free(a->files);
  free(a->tilesets);
  free(a->file_order);
  free(a);
}

/* The header's counts and offset, checked against the caps. */
static int read_header(const unsigned char *data, size_t size, uint32_t *num_files, uint32_t *num_tilesets,
                       uint32_t *offset, codec_error *err) {
  if (size < BIFF_HEADER_SIZE)
    return codec_fail(err, "BIFF header: byte offset 0: truncated, need %u bytes, %zu there", BIFF_HEADER_SIZE, size);
  if (memcmp(data, "BIFF", 4) != 0)
    return codec_fail(err, "BIFF header: byte offset 0: not a BIFF archive (signature)");
  if (memcmp(data + 4, "V1  ", 4) != 0)
    return codec_fail(err, "BIFF header: byte offset 4: BIFF version '%.4s' is not V1", (const char *)data + 4);
  *num_files = le32_load(data + 8);
  *num_tilesets = le32_load(data + 12);
  *offset = le32_load(data + 16);
  if (*num_files > BIFF_MAX_ENTRIES)
    return codec_fail_limit(err, "BIFF header: byte offset 8: %u file entries, more than the %u an archive may list",
                            (unsigned)*num_files, BIFF_MAX_ENTRIES);
  if (*num_tilesets > BIFF_MAX_ENTRIES)
    return codec_fail_limit(err,
                            "BIFF header: byte offset 12: %u tileset entries, more than the %u an archive may list",
                            (unsigned)*num_tilesets, BIFF_MAX_ENTRIES);
  return 1;
}

int biff_index_span(const unsigned char *header, size_t size, uint64_t *span, codec_error *err) {
  uint32_t nf, nt, off;
  if (!read_header(header, size, &nf, &nt, &off, err)) return 0;
  *span = (uint64_t)off + (uint64_t)nf * BIFF_FILE_ENTRY_SIZE + (uint64_t)nt * BIFF_TILESET_ENTRY_SIZE;
  if (*span < BIFF_HEADER_SIZE) *span = BIFF_HEADER_SIZE;
  return 1;
}

/* key_index_le of file entries: by file index (key_sort_indices keeps
** the table's order among equal ones). */
static int file_le(const void *ctx, uint32_t a, uint32_t b) {
  const biff_file_entry *files = (const biff_file_entry *)ctx;
  return key_locator_file(files[a].locator) <= key_locator_file(files[b].locator);
}

/* Reads both entry tables of the BIFF V1 in data[0..size) into a. */
static int read_entries(const unsigned char *data, size_t size, biff_archive *a, const codec_cancel *cancel,
                        codec_error *err) {
  uint32_t i, *tmp;
  byte_reader r = br_at(data, size, a->entries_offset);
  size_t tiles_at;
  if (!br_need_n(&r, a->num_files, BIFF_FILE_ENTRY_SIZE))
    return codec_fail(err, "BIFF file entries: byte offset %u: %u entries of %u bytes run past the end (%zu bytes)",
                      (unsigned)a->entries_offset, (unsigned)a->num_files, BIFF_FILE_ENTRY_SIZE, size);
  tiles_at = (size_t)a->entries_offset + (size_t)a->num_files * BIFF_FILE_ENTRY_SIZE;
  if (!br_seek(&r, tiles_at) || !br_need_n(&r, a->num_tilesets, BIFF_TILESET_ENTRY_SIZE))
    return codec_fail(err, "BIFF tileset entries: byte offset %zu: %u entries of %u bytes run past the end (%zu bytes)",
                      tiles_at, (unsigned)a->num_tilesets, BIFF_TILESET_ENTRY_SIZE, size);
  r.pos = a->entries_offset;
  a->files = a->num_files ? (biff_file_entry *)calloc(a->num_files, sizeof *a->files) : NULL;
  a->file_order = a->num_files ? (uint32_t *)malloc((size_t)a->num_files * sizeof *a->file_order) : NULL;
  tmp = a->num_files ? (uint32_t *)malloc((size_t)a->num_files * sizeof *tmp) : NULL;
  a->tilesets = a->num_tilesets ? (biff_tileset_entry *)calloc(a->num_tilesets, sizeof *a->tilesets) : NULL;
  if ((a->num_files && (!a->files || !a->file_order || !tmp)) || (a->num_tilesets && !a->tilesets)) {
    free(tmp);
    return codec_fail_oom(err, "BIFF entries: out of memory for %u + %u entries", (unsigned)a->num_files,
                          (unsigned)a->num_tilesets);
  }
  for (i = 0; i < a->num_files; i++) {
    biff_file_entry *e = &a->files[i];
    if (codec_cancelled_at(cancel, i)) {
      free(tmp);
      return codec_fail_interrupted(err);
    }
    e->locator = br_u32le(&r);
    e->offset = br_u32le(&r);
    e->size = br_u32le(&r);
    e->type = br_u16le(&r);
    e->unknown = br_u16le(&r);
    a->file_order[i] = i;
  }
  if (a->num_files) key_sort_indices(a->file_order, tmp, a->num_files, file_le, a->files);
  free(tmp);
  for (i = 0; i < a->num_tilesets; i++) {
    biff_tileset_entry *t = &a->tilesets[i];
    if (codec_cancelled_at(cancel, i)) return codec_fail_interrupted(err);
    t->locator = br_u32le(&r);
    t->offset = br_u32le(&r);
    t->count = br_u32le(&r);
    t->tile_size = br_u32le(&r);
    t->type = br_u16le(&r);
    t->unknown = br_u16le(&r);
  }
  return 1;
}

int biff_index_parse(const unsigned char *data, size_t size, uint64_t archive_size, const codec_cancel *cancel,
                     biff_archive **out, codec_error *err) {
  biff_archive *a;
  *out = NULL;
  if (!(a = (biff_archive *)calloc(1, sizeof *a))) return codec_fail_oom(err, "BIFF header: out of memory");
  a->container = BIFF_CONTAINER_BIFF;
  a->size = archive_size < size ? size : archive_size;
  if (!read_header(data, size, &a->num_files, &a->num_tilesets, &a->entries_offset, err) ||
      !read_entries(data, size, a, cancel, err)) {
    biff_free(a);
    return 0;
  }
  *out = a;
  return 1;
}

int biff_open(const unsigned char *data, size_t size, size_t max_inflated, const codec_cancel *cancel,
              biff_archive **out, codec_error *err) {
  int kind = biff_sniff(data, size);
  unsigned char *bytes = NULL;
  size_t n = size;
  char *name = NULL;
  *out = NULL;
  if (kind == BIFF_CONTAINER_NONE && size >= 8 && (memcmp(data, "BIF ", 4) == 0 || memcmp(data, "BIFC", 4) == 0))
    return biff_inflate(data, size, max_inflated, cancel, &bytes, &n, NULL, err); /* names the version */
  if (kind == BIFF_CONTAINER_BIF || kind == BIFF_CONTAINER_BIFC) {
    if (!biff_inflate(data, size, max_inflated, cancel, &bytes, &n, NULL, err)) return 0;
    if (kind == BIFF_CONTAINER_BIF) {
      /* the stored name: checked by biff_inflate (12 + length bytes are there) */
      uint32_t len = le32_load(data + 8);
      const unsigned char *nul = len ? (const unsigned char *)memchr(data + 12, 0, len) : NULL;
      size_t keep = nul ? (size_t)(nul - (data + 12)) : len;
      if (!(name = (char *)malloc(keep + 1))) {
        free(bytes);
        return codec_fail_oom(err, "BIF header: out of memory for the file name");
      }
      if (keep) memcpy(name, data + 12, keep);
      name[keep] = 0;
    }
    data = bytes;
  }
  if (!biff_index_parse(data, n, n, cancel, out, err)) {
    if (bytes) codec_prefix(err, "inflated %s: ", kind == BIFF_CONTAINER_BIF ? "BIF V1.0" : "BIFC V1.0");
    free(bytes);
    free(name);
    return 0;
  }
  (*out)->container = kind;
  (*out)->data = data;
  (*out)->owned = bytes;
  (*out)->bif_name = name;
  return 1;
}

/* The file entry of file index f (the first of several): a binary search
** of file_order. */
static int find_file(const biff_archive *a, uint32_t f, uint32_t *entry) {
  uint32_t lo = 0, hi = a->num_files;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (key_locator_file(a->files[a->file_order[mid]].locator) < f)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == a->num_files || key_locator_file(a->files[a->file_order[lo]].locator) != f) return 0;
  *entry = a->file_order[lo];
  return 1;
}

int biff_find(const biff_archive *a, uint32_t locator, biff_resource *res, codec_error *err) {
  uint32_t t = key_locator_tileset(locator), i;
  memset(res, 0, sizeof *res);
  if (t) {
    for (i = 0; i < a->num_tilesets && key_locator_tileset(a->tilesets[i].locator) != t; i++) {}
    if (i == a->num_tilesets)
      return codec_fail(err,
                        "locator 0x%08x: no tileset entry with tileset index %u in the archive (%u tileset entries)",
                        (unsigned)locator, (unsigned)t, (unsigned)a->num_tilesets);
    res->is_tileset = 1;
    res->entry = i;
    res->locator = a->tilesets[i].locator;
    res->type = a->tilesets[i].type;
    res->offset = a->tilesets[i].offset;
    res->tile_count = a->tilesets[i].count;
    res->tile_size = a->tilesets[i].tile_size;
    res->size = (uint64_t)res->tile_count * res->tile_size; /* 32 x 32 bits: no overflow */
  } else {
    uint32_t f = key_locator_file(locator);
    if (!find_file(a, f, &i))
      return codec_fail(err, "locator 0x%08x: no file entry with file index %u in the archive (%u file entries)",
                        (unsigned)locator, (unsigned)f, (unsigned)a->num_files);
    res->entry = i;
    res->locator = a->files[i].locator;
    res->type = a->files[i].type;
    res->offset = a->files[i].offset;
    res->size = a->files[i].size;
  }
  if (res->offset > a->size || res->size > a->size - res->offset) {
    uint64_t at = (uint64_t)a->entries_offset + (res->is_tileset ? (uint64_t)a->num_files * BIFF_FILE_ENTRY_SIZE +
                                                                       (uint64_t)i * BIFF_TILESET_ENTRY_SIZE
                                                                 : (uint64_t)i * BIFF_FILE_ENTRY_SIZE);
    return codec_fail(err,
                      "BIFF %s entry %u (locator 0x%08x): byte offset %llu: %llu bytes at offset %llu run past the end "
                      "of the archive (%llu bytes)",
                      res->is_tileset ? "tileset" : "file", (unsigned)i, (unsigned)res->locator, (unsigned long long)at,
                      (unsigned long long)res->size, (unsigned long long)res->offset, (unsigned long long)a->size);
  }
  return 1;
}

/* Copies res's bytes behind `head` bytes of room (for a header). */
static int copy_out(const biff_archive *a, const biff_resource *res, size_t head, const codec_cancel *cancel,
                    unsigned char **out, size_t *out_size, codec_error *err) {
  size_t total;
  unsigned char *buf;
  if (!a->data)
    return codec_fail_arg(err, "locator 0x%08x: the archive was parsed without its bytes", (unsigned)res->locator);
  if (res->size > SIZE_MAX || !size_add((size_t)res->size, head, &total))
    return codec_fail_limit(err, "locator 0x%08x: %llu bytes do not fit in memory", (unsigned)res->locator,
                            (unsigned long long)res->size);
  if (!(buf = (unsigned char *)malloc(total ? total : 1)))
    return codec_fail_oom(err, "locator 0x%08x: out of memory for %zu bytes", (unsigned)res->locator, total);
  if (!codec_copy_cancel(buf + head, a->data + res->offset, (size_t)res->size, cancel)) {
    free(buf);
    return codec_fail_interrupted(err);
  }
  *out = buf;
  *out_size = total;
  return 1;
}

int biff_extract(const biff_archive *a, uint32_t locator, const codec_cancel *cancel, unsigned char **out,
                 size_t *out_size, biff_resource *res, codec_error *err) {
  biff_resource r;
  *out = NULL;
  *out_size = 0;
  if (!biff_find(a, locator, &r, err)) return 0;
  if (res) *res = r;
  return copy_out(a, &r, 0, cancel, out, out_size, err);
}

int biff_extract_tis(const biff_archive *a, uint32_t locator, const codec_cancel *cancel, unsigned char **out,
                     size_t *out_size, codec_error *err) {
  biff_resource r;
  *out = NULL;
  *out_size = 0;
  if (!biff_find(a, locator, &r, err)) return 0;
  if (!r.is_tileset)
    return codec_fail_arg(err, "locator 0x%08x: a file entry, not a tileset (tileset index 0)", (unsigned)locator);
  if (!copy_out(a, &r, TIS_HEADER_SIZE, cancel, out, out_size, err)) return 0;
  tis_header_write(*out, r.tile_count, r.tile_size);
  return 1;
}

int biff_tis_wrap(const unsigned char *tiles, size_t size, uint32_t count, uint32_t tile_size, unsigned char **out,
                  size_t *out_size, codec_error *err) {
  size_t need, total;
  unsigned char *buf;
  *out = NULL;
  *out_size = 0;
  if (!size_mul(count, tile_size, &need) || need != size)
    return codec_fail_arg(err, "TIS: %u tiles of %u bytes are not the %zu bytes given", (unsigned)count,
                          (unsigned)tile_size, size);
  if (!size_add(size, TIS_HEADER_SIZE, &total))
    return codec_fail_limit(err, "TIS: %zu bytes do not fit in memory", size);
  if (!(buf = (unsigned char *)malloc(total))) return codec_fail_oom(err, "TIS: out of memory for %zu bytes", total);
  tis_header_write(buf, count, tile_size);
  if (size) memcpy(buf + TIS_HEADER_SIZE, tiles, size);
  *out = buf;
  *out_size = total;
  return 1;
}
