/*
** bytes.h: bounds-checked little-endian reading and a growable output buffer,
** shared by every codec in codecs/.
**
** Ownership: a byte_reader only borrows the buffer it reads; a byte_writer
** owns its buffer (byte_writer_free releases it, byte_writer_take hands it to
** the caller, who frees it with free()).
**
** Errors: readers never read out of bounds.  Every read checks the bytes
** left first; on failure it returns 0 and leaves the output untouched, so a
** codec can say where it was (section, index, offset) in its own message.
** Writers report allocation failure by returning 0 and setting `failed`.
*/
#ifndef LEVELSQL_BYTES_H
#define LEVELSQL_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- overflow-safe size arithmetic -------------------------------------- */

/* Sets *out = a + b and returns 1, or returns 0 when the sum overflows. */
static inline int size_add(size_t a, size_t b, size_t *out) {
  if (a > SIZE_MAX - b) return 0;
  *out = a + b;
  return 1;
}

/* Sets *out = a * b and returns 1, or returns 0 when the product overflows. */
static inline int size_mul(size_t a, size_t b, size_t *out) {
  if (a != 0 && b > SIZE_MAX / a) return 0;
  *out = a * b;
  return 1;
}

/* Returns 1 when [off, off+len) lies inside a buffer of `size` bytes. */
static inline int range_ok(size_t size, size_t off, size_t len) {
  return off <= size && len <= size - off;
}

/* ---- little-endian loads and stores on raw memory ----------------------- */

static inline uint32_t le32_load(const unsigned char *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}
static inline uint16_t le16_load(const unsigned char *p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}
static inline void le32_store(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}
static inline void le16_store(unsigned char *p, uint16_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}
/* Two's-complement reinterpretation without implementation-defined casts. */
static inline int32_t u32_as_i32(uint32_t v) {
  return v <= 0x7fffffffu ? (int32_t)v : (int32_t)(v - 0x80000000u) - 0x7fffffff - 1;
}

/* ---- reader -------------------------------------------------------------- */

typedef struct byte_reader {
  const unsigned char *data; /* borrowed */
  size_t size;
  size_t pos;
} byte_reader;

static inline byte_reader byte_reader_at(const unsigned char *data, size_t size, size_t pos) {
  byte_reader r;
  r.data = data;
  r.size = size;
  r.pos = pos;
  return r;
}
static inline size_t byte_reader_left(const byte_reader *r) {
  return r->pos <= r->size ? r->size - r->pos : 0;
}
static inline int byte_reader_u32(byte_reader *r, uint32_t *out) {
  if (byte_reader_left(r) < 4) return 0;
  *out = le32_load(r->data + r->pos);
  r->pos += 4;
  return 1;
}
static inline int byte_reader_i32(byte_reader *r, int32_t *out) {
  uint32_t v;
  if (!byte_reader_u32(r, &v)) return 0;
  *out = u32_as_i32(v);
  return 1;
}
static inline int byte_reader_u16(byte_reader *r, uint16_t *out) {
  if (byte_reader_left(r) < 2) return 0;
  *out = le16_load(r->data + r->pos);
  r->pos += 2;
  return 1;
}
/* Points *out at the next n bytes (no copy) and advances past them. */
static inline int byte_reader_span(byte_reader *r, size_t n, const unsigned char **out) {
  if (byte_reader_left(r) < n) return 0;
  *out = r->data + r->pos;
  r->pos += n;
  return 1;
}
static inline int byte_reader_skip(byte_reader *r, size_t n) {
  if (byte_reader_left(r) < n) return 0;
  r->pos += n;
  return 1;
}

/* ---- writer -------------------------------------------------------------- */

typedef struct byte_writer {
  unsigned char *data; /* owned */
  size_t size;
  size_t cap;
  int failed; /* set once an allocation failed; later writes are no-ops */
} byte_writer;

/* Ensures room for `extra` more bytes; returns 0 (and sets failed) if not. */
static inline int byte_writer_reserve(byte_writer *w, size_t extra) {
  size_t need, cap;
  unsigned char *p;
  if (w->failed) return 0;
  if (!size_add(w->size, extra, &need)) { w->failed = 1; return 0; }
  if (need <= w->cap) return 1;
  cap = w->cap ? w->cap : 256;
  while (cap < need) {
    if (cap > SIZE_MAX / 2) { cap = need; break; }
    cap *= 2;
  }
  p = (unsigned char *)realloc(w->data, cap);
  if (!p) { w->failed = 1; return 0; }
  w->data = p;
  w->cap = cap;
  return 1;
}
static inline int byte_writer_bytes(byte_writer *w, const void *src, size_t n) {
  if (!byte_writer_reserve(w, n)) return 0;
  if (n) memcpy(w->data + w->size, src, n);
  w->size += n;
  return 1;
}
static inline int byte_writer_zeros(byte_writer *w, size_t n) {
  if (!byte_writer_reserve(w, n)) return 0;
  if (n) memset(w->data + w->size, 0, n);
  w->size += n;
  return 1;
}
static inline int byte_writer_u32(byte_writer *w, uint32_t v) {
  if (!byte_writer_reserve(w, 4)) return 0;
  le32_store(w->data + w->size, v);
  w->size += 4;
  return 1;
}
static inline int byte_writer_i32(byte_writer *w, int32_t v) {
  return byte_writer_u32(w, (uint32_t)v);
}
static inline int byte_writer_u16(byte_writer *w, uint16_t v) {
  if (!byte_writer_reserve(w, 2)) return 0;
  le16_store(w->data + w->size, v);
  w->size += 2;
  return 1;
}
static inline void byte_writer_free(byte_writer *w) {
  free(w->data);
  memset(w, 0, sizeof *w);
}
/* Hands the buffer to the caller (free() it); the writer is left empty. */
static inline unsigned char *byte_writer_take(byte_writer *w, size_t *size) {
  unsigned char *p = w->data;
  *size = w->size;
  memset(w, 0, sizeof *w);
  return p;
}

#endif
