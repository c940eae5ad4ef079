/*
** utf16.c: UTF-16LE <-> WTF-8, see utf16.h for the contract.
*/
#include "common/utf16.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"

/* Number of WTF-8 bytes for one code point (surrogates included). */
static size_t wtf8_len_of(uint32_t cp) {
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp < 0x10000) return 3;
  return 4;
}

/* Writes the WTF-8 bytes of cp at p; returns how many. */
static size_t wtf8_put(char *p, uint32_t cp) {
  unsigned char *u = (unsigned char *)p;
  if (cp < 0x80) {
    u[0] = (unsigned char)cp;
    return 1;
  }
  if (cp < 0x800) {
    u[0] = (unsigned char)(0xC0 | (cp >> 6));
    u[1] = (unsigned char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    u[0] = (unsigned char)(0xE0 | (cp >> 12));
    u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    u[2] = (unsigned char)(0x80 | (cp & 0x3F));
    return 3;
  }
  u[0] = (unsigned char)(0xF0 | (cp >> 18));
  u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
  u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
  u[3] = (unsigned char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Reads the next code point (pairing a high surrogate with a following low
** one); the reader holds whole units. */
static uint32_t utf16_next(byte_reader *r) {
  uint32_t u = br_u16le(r);
  if (u >= 0xD800 && u <= 0xDBFF && br_need(r, 2)) {
    byte_reader peek = *r;
    uint32_t v = br_u16le(&peek);
    if (v >= 0xDC00 && v <= 0xDFFF) {
      *r = peek;
      return 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
    }
  }
  return u;
}

/* UTF-16LE -> WTF-8: one pass to size the result, one to fill it, so the
** allocation is exact and no intermediate buffer is needed. */
char *utf16le_to_wtf8(const unsigned char *units, size_t n, size_t *out_len) {
  size_t bytes, total = 0, pos = 0, alloc;
  byte_reader r;
  char *out;
  if (!size_mul(n, 2, &bytes)) return NULL;
  r = br_at(units, bytes, 0);
  while (br_left(&r)) /* at most 3 bytes per unit: cannot overflow for any n
                         that fits in memory as units */
    total += wtf8_len_of(utf16_next(&r));
  if (!size_add(total, 1, &alloc)) return NULL;
  out = (char *)malloc(alloc);
  if (!out) return NULL;
  r = br_at(units, bytes, 0);
  while (br_left(&r)) pos += wtf8_put(out + pos, utf16_next(&r));
  out[pos] = '\0';
  if (out_len) *out_len = pos;
  return out;
}

/* Decodes one WTF-8 sequence at s[i..len).  Returns its length in bytes
** (1..4) and sets *cp, or returns 0 when the sequence is malformed
** (bad lead or continuation byte, truncated, overlong, > U+10FFFF). */
static size_t wtf8_next(const unsigned char *s, size_t len, size_t i, uint32_t *cp) {
  unsigned char b = s[i];
  size_t need, k;
  uint32_t v, min;
  if (b < 0x80) {
    *cp = b;
    return 1;
  }
  if (b >= 0xC2 && b <= 0xDF) {
    need = 2;
    v = b & 0x1F;
    min = 0x80;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 3;
    v = b & 0x0F;
    min = 0x800;
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 4;
    v = b & 0x07;
    min = 0x10000;
  } else {
    return 0;
  }
  if (len - i < need) return 0;
  for (k = 1; k < need; k++) {
    unsigned char c = s[i + k];
    if ((c & 0xC0) != 0x80) return 0;
    v = (v << 6) | (c & 0x3F);
  }
  if (v < min || v > 0x10FFFF) return 0;
  *cp = v;
  return need;
}

/* Validates WTF-8 and counts the UTF-16 units, remembering whether the
** previous code point was a high surrogate (a following low surrogate is
** then rejected: WTF-8 requires the pair to be written as one 4-byte
** sequence). */
int wtf8_validate(const char *str, size_t len, size_t *n_units, size_t *bad_offset) {
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0, units = 0, step;
  int prev_high = 0;
  uint32_t cp;
  while (i < len) {
    step = wtf8_next(s, len, i, &cp);
    if (step == 0 || (prev_high && cp >= 0xDC00 && cp <= 0xDFFF)) {
      if (bad_offset) *bad_offset = i;
      return 0;
    }
    prev_high = cp >= 0xD800 && cp <= 0xDBFF;
    units += cp >= 0x10000 ? 2 : 1;
    i += step;
  }
  if (n_units) *n_units = units;
  return 1;
}

/* Emits the UTF-16LE units of validated WTF-8 (a code point above U+FFFF
** becomes a surrogate pair, everything else one unit). */
size_t wtf8_encode_utf16le(const char *str, size_t len, unsigned char *out) {
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0, units = 0, step;
  uint32_t cp;
  while (i < len) {
    step = wtf8_next(s, len, i, &cp);
    if (step == 0) break; /* not reached for validated input */
    if (cp >= 0x10000) {
      cp -= 0x10000;
      le16_store(out + 2 * units, (uint16_t)(0xD800 + (cp >> 10)));
      le16_store(out + 2 * units + 2, (uint16_t)(0xDC00 + (cp & 0x3FF)));
      units += 2;
    } else {
      le16_store(out + 2 * units, (uint16_t)cp);
      units += 1;
    }
    i += step;
  }
  return units;
}

/* Public wrappers of the two helpers above. */
size_t wtf8_decode_one(const char *s, size_t len, size_t i, uint32_t *cp) {
  if (i >= len) return 0;
  return wtf8_next((const unsigned char *)s, len, i, cp);
}
size_t wtf8_put_cp(char *out, uint32_t cp) { return wtf8_put(out, cp); }

/* Validate, allocate exactly, encode. */
unsigned char *wtf8_to_utf16le(const char *s, size_t len, size_t *n_units) {
  size_t units, bytes;
  unsigned char *out;
  if (!wtf8_validate(s, len, &units, NULL)) return NULL;
  if (!size_mul(units, 2, &bytes)) return NULL;
  out = (unsigned char *)malloc(bytes ? bytes : 1);
  if (!out) return NULL;
  wtf8_encode_utf16le(s, len, out);
  if (n_units) *n_units = units;
  return out;
}
