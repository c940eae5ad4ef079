/*
** bytes.h: the one way the codecs in codecs/ read and write bytes:
**
** - size_add / size_mul: size arithmetic that reports overflow;
** - le16/le32 load and store, u32_as_i32: plain little-endian access to
**   memory whose size the caller already knows (a fixed header array, a
**   record inside a checked table, an output buffer);
** - byte_reader (br_*): bounds-checked reading of untrusted bytes;
** - byte_writer: a growable output buffer.
**
** Header only, no globals, nothing allocated behind the caller's back.
**
** Ownership: a byte_reader only borrows the buffer it reads; a byte_writer
** owns its buffer (byte_writer_free releases it, byte_writer_take hands it to
** the caller, who frees it with free()).
**
** Errors: a reader never reads out of bounds.  A read that does not fit
** returns 0 (NULL for br_bytes), does not move, and sets the reader's sticky
** `failed` flag; the codec then says where it was (section, index, offset)
** in its own message.  Writers report allocation failure by returning 0 and
** setting `failed`.
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

/* A cursor over borrowed bytes.  Every read checks the bytes left first;
** a read that does not fit returns 0 (NULL for br_bytes), leaves pos where
** it was and sets `failed`, which stays set: a codec can read a whole
** record and test `failed` once, or ask br_need() first and then read
** without testing.  pos may lie beyond size (a table offset read from a
** file): nothing is left then, and every read of 1 byte or more fails. */
typedef struct byte_reader {
  const unsigned char *data; /* borrowed */
  size_t size;
  size_t pos;
  int failed; /* set by the first read, skip or seek that did not fit */
} byte_reader;

/* A reader over data[0..size) starting at pos.  data may be NULL only when
** size is 0 (it is replaced by an empty buffer, so no pointer arithmetic
** ever touches NULL). */
static inline byte_reader br_at(const unsigned char *data, size_t size, size_t pos) {
  byte_reader r;
  r.data = data ? data : (const unsigned char *)"";
  r.size = size;
  r.pos = pos;
  r.failed = 0;
  return r;
}
/* Bytes left after pos (0 when pos is at or beyond the end). */
static inline size_t br_left(const byte_reader *r) {
  return r->pos <= r->size ? r->size - r->pos : 0;
}
/* 1 when n more bytes are there (no arithmetic on pos, so no overflow). */
static inline int br_need(const byte_reader *r, size_t n) {
  return n <= br_left(r);
}
/* 1 when count records of each bytes are there; 0 when they are not or
** count * each overflows. */
static inline int br_need_n(const byte_reader *r, size_t count, size_t each) {
  size_t n;
  return size_mul(count, each, &n) && br_need(r, n);
}
/* Points at the next n bytes (no copy) and moves past them; NULL when
** fewer are left.  n == 0 succeeds unless pos lies beyond the end. */
static inline const unsigned char *br_bytes(byte_reader *r, size_t n) {
  const unsigned char *p;
  if (!br_need(r, n) || r->pos > r->size) {
    r->failed = 1;
    return NULL;
  }
  p = r->data + r->pos;
  r->pos += n;
  return p;
}
static inline int br_skip(byte_reader *r, size_t n) {
  return br_bytes(r, n) != NULL;
}
/* Moves to absolute position pos (pos == size is the end, allowed). */
static inline int br_seek(byte_reader *r, size_t pos) {
  if (pos > r->size) {
    r->failed = 1;
    return 0;
  }
  r->pos = pos;
  return 1;
}
static inline uint8_t br_u8(byte_reader *r) {
  const unsigned char *p = br_bytes(r, 1);
  return p ? p[0] : 0;
}
static inline uint16_t br_u16le(byte_reader *r) {
  const unsigned char *p = br_bytes(r, 2);
  return p ? le16_load(p) : 0;
}
static inline uint32_t br_u32le(byte_reader *r) {
  const unsigned char *p = br_bytes(r, 4);
  return p ? le32_load(p) : 0;
}
static inline int32_t br_i32le(byte_reader *r) {
  return u32_as_i32(br_u32le(r));
}
/* An IEEE-754 single stored little-endian (bit pattern copied, so NaN
** payloads survive). */
static inline float br_f32le(byte_reader *r) {
  uint32_t v = br_u32le(r);
  float f;
  memcpy(&f, &v, sizeof f);
  return f;
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
