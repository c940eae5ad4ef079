/*
** key_writer.h: a small writer of Infinity Engine game archives for the
** tests, the fuzz seeds and the samples (test_key.c, tools/gen_key_samples.c):
** a chitin.key (KEY V1) and BIFF V1 archives, and the same archive as a
** BIF V1.0 (one zlib stream) and a BIFC V1.0 (zlib blocks).  The codec
** (codecs/key) only reads; the project never writes the game's archives.
**
** Layouts as codecs/key/NOTES-key.md gives them.  A BIFF is laid out
** header, file entries, tileset entries, then the data in entry order;
** tileset data is stored without its TIS header, as the games store it.
**
** Ownership: every kw_* builder returns a malloc'd buffer the caller frees
** (NULL when memory runs out or zlib fails).
*/
#ifndef LEVELSQL_KEY_WRITER_H
#define LEVELSQL_KEY_WRITER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"
#include "key/biff.h"

/* One file entry of a BIFF. */
typedef struct kw_file {
  uint32_t file_index; /* bits 13-0 of its locator */
  uint16_t type;
  const unsigned char *data;
  size_t size;
} kw_file;

/* One tileset entry of a BIFF: count tiles of tile_size bytes, headerless. */
typedef struct kw_tileset {
  uint32_t tileset_index; /* 1..63: bits 19-14 of its locator */
  uint32_t count, tile_size;
  const unsigned char *data; /* count * tile_size bytes */
} kw_tileset;

/* One BIFF entry of a key. */
typedef struct kw_biff {
  const char *name; /* as the key stores it, backslashes and all */
  uint32_t file_length;
  uint16_t location;
} kw_biff;

/* One resource entry of a key. */
typedef struct kw_res {
  const char *resref; /* up to 8 bytes */
  uint16_t type;
  uint32_t locator;
} kw_res;

/* A BIFF V1 archive of files and tilesets. */
static inline unsigned char *kw_biff_build(const kw_file *files, size_t nf, const kw_tileset *tilesets, size_t nt,
                                           size_t *size) {
  byte_writer w = {0};
  size_t i, data_at = BIFF_HEADER_SIZE + nf * BIFF_FILE_ENTRY_SIZE + nt * BIFF_TILESET_ENTRY_SIZE;
  byte_writer_bytes(&w, "BIFFV1  ", 8);
  byte_writer_u32(&w, (uint32_t)nf);
  byte_writer_u32(&w, (uint32_t)nt);
  byte_writer_u32(&w, BIFF_HEADER_SIZE);
  for (i = 0; i < nf; i++) {
    byte_writer_u32(&w, files[i].file_index & 0x3FFFu);
    byte_writer_u32(&w, (uint32_t)data_at);
    byte_writer_u32(&w, (uint32_t)files[i].size);
    byte_writer_u16(&w, files[i].type);
    byte_writer_u16(&w, 0);
    data_at += files[i].size;
  }
  for (i = 0; i < nt; i++) {
    byte_writer_u32(&w, key_locator_make(0, tilesets[i].tileset_index, 0));
    byte_writer_u32(&w, (uint32_t)data_at);
    byte_writer_u32(&w, tilesets[i].count);
    byte_writer_u32(&w, tilesets[i].tile_size);
    byte_writer_u16(&w, KEY_TYPE_TIS);
    byte_writer_u16(&w, 0);
    data_at += (size_t)tilesets[i].count * tilesets[i].tile_size;
  }
  for (i = 0; i < nf; i++)
    byte_writer_bytes(&w, files[i].data, files[i].size);
  for (i = 0; i < nt; i++)
    byte_writer_bytes(&w, tilesets[i].data, (size_t)tilesets[i].count * tilesets[i].tile_size);
  if (w.failed) {
    byte_writer_free(&w);
    return NULL;
  }
  return byte_writer_take(&w, size);
}

/* zlib's compress2 of src into w (level 9). */
static inline int kw_deflate(byte_writer *w, const unsigned char *src, size_t n) {
  uLongf cap = compressBound((uLong)n);
  if (!byte_writer_reserve(w, cap)) return 0;
  if (compress2(w->data + w->size, &cap, src, (uLong)n, 9) != Z_OK) return 0;
  w->size += cap;
  return 1;
}

/* The BIFF V1 `biff` as a BIF V1.0: its name stored with its NUL, counted. */
static inline unsigned char *kw_bif_build(const unsigned char *biff, size_t n, const char *name, size_t *size) {
  byte_writer w = {0};
  size_t len = strlen(name) + 1, clen_at;
  byte_writer_bytes(&w, "BIF V1.0", 8);
  byte_writer_u32(&w, (uint32_t)len);
  byte_writer_bytes(&w, name, len);
  byte_writer_u32(&w, (uint32_t)n);
  clen_at = w.size;
  byte_writer_u32(&w, 0);
  if (w.failed || !kw_deflate(&w, biff, n)) {
    byte_writer_free(&w);
    return NULL;
  }
  le32_store(w.data + clen_at, (uint32_t)(w.size - clen_at - 4));
  return byte_writer_take(&w, size);
}

/* The BIFF V1 `biff` as a BIFC V1.0 of blocks of block_size bytes. */
static inline unsigned char *kw_bifc_build(const unsigned char *biff, size_t n, size_t block_size, size_t *size) {
  byte_writer w = {0};
  size_t at = 0;
  byte_writer_bytes(&w, "BIFCV1.0", 8);
  byte_writer_u32(&w, (uint32_t)n);
  while (at < n && !w.failed) {
    size_t len = n - at < block_size ? n - at : block_size, clen_at;
    byte_writer_u32(&w, (uint32_t)len);
    clen_at = w.size;
    byte_writer_u32(&w, 0);
    if (w.failed || !kw_deflate(&w, biff + at, len))
      w.failed = 1;
    else
      le32_store(w.data + clen_at, (uint32_t)(w.size - clen_at - 4));
    at += len;
  }
  if (w.failed) {
    byte_writer_free(&w);
    return NULL;
  }
  return byte_writer_take(&w, size);
}

/* A KEY V1: header, BIFF entries, resource entries, then the names. */
static inline unsigned char *kw_key_build(const kw_biff *biffs, size_t nb, const kw_res *res, size_t nr, size_t *size) {
  byte_writer w = {0};
  size_t i, res_at = KEY_HEADER_SIZE + nb * KEY_BIFF_ENTRY_SIZE, name_at = res_at + nr * KEY_RES_ENTRY_SIZE;
  byte_writer_bytes(&w, "KEY V1  ", 8);
  byte_writer_u32(&w, (uint32_t)nb);
  byte_writer_u32(&w, (uint32_t)nr);
  byte_writer_u32(&w, KEY_HEADER_SIZE);
  byte_writer_u32(&w, (uint32_t)res_at);
  for (i = 0; i < nb; i++) {
    size_t len = strlen(biffs[i].name) + 1;
    byte_writer_u32(&w, biffs[i].file_length);
    byte_writer_u32(&w, (uint32_t)name_at);
    byte_writer_u16(&w, (uint16_t)len);
    byte_writer_u16(&w, biffs[i].location);
    name_at += len;
  }
  for (i = 0; i < nr; i++) {
    unsigned char ref[8] = {0};
    size_t len = strlen(res[i].resref);
    memcpy(ref, res[i].resref, len < 8 ? len : 8);
    byte_writer_bytes(&w, ref, 8);
    byte_writer_u16(&w, res[i].type);
    byte_writer_u32(&w, res[i].locator);
  }
  for (i = 0; i < nb; i++)
    byte_writer_bytes(&w, biffs[i].name, strlen(biffs[i].name) + 1);
  if (w.failed) {
    byte_writer_free(&w);
    return NULL;
  }
  return byte_writer_take(&w, size);
}

#endif
