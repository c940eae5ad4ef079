/*
** text8.c: lossless conversion between 8-bit code pages and UTF-8 (see
** text8.h for the contract).
**
** Each code page maps the bytes 0x80..0xFF through a table and, where its
** upper bytes are a run of consecutive code points, a run (text8_page);
** bytes below 0x80 are ASCII in all of them.  A byte the code page leaves
** unassigned is stored as the C1 control with the same number, so decoding
** is total and encoding is its exact inverse.  Latin-1 is a run alone.
*/
#include "common/text8.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/utf16.h"

/* A code page's bytes 0x80..0xFF: the first `n` through the table `high`,
** the rest a run of consecutive code points from `tail` (Latin-1's
** U+00A0..U+00FF in Windows-1252, Cyrillic U+0410..U+044F in
** Windows-1251).  Unassigned bytes map to the C1 control with the same
** number, so every byte decodes and encodes back. */
typedef struct text8_page {
  const uint16_t *high;
  size_t n;
  uint16_t tail;
} text8_page;

/* Windows-1252 (Western European), bytes 0x80..0x9F (unassigned: 0x81,
** 0x8D, 0x8F, 0x90, 0x9D). */
static const uint16_t cp1252_high[32] = {
  0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
  0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

/* Windows-1250 (Central European), bytes 0x80..0xFF (unassigned: 0x81,
** 0x83, 0x88, 0x90, 0x98). */
static const uint16_t cp1250_high[128] = {
  0x20AC, 0x0081, 0x201A, 0x0083, 0x201E, 0x2026, 0x2020, 0x2021, 0x0088, 0x2030, 0x0160, 0x2039, 0x015A, 0x0164, 0x017D, 0x0179,
  0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x0098, 0x2122, 0x0161, 0x203A, 0x015B, 0x0165, 0x017E, 0x017A,
  0x00A0, 0x02C7, 0x02D8, 0x0141, 0x00A4, 0x0104, 0x00A6, 0x00A7, 0x00A8, 0x00A9, 0x015E, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x017B,
  0x00B0, 0x00B1, 0x02DB, 0x0142, 0x00B4, 0x00B5, 0x00B6, 0x00B7, 0x00B8, 0x0105, 0x015F, 0x00BB, 0x013D, 0x02DD, 0x013E, 0x017C,
  0x0154, 0x00C1, 0x00C2, 0x0102, 0x00C4, 0x0139, 0x0106, 0x00C7, 0x010C, 0x00C9, 0x0118, 0x00CB, 0x011A, 0x00CD, 0x00CE, 0x010E,
  0x0110, 0x0143, 0x0147, 0x00D3, 0x00D4, 0x0150, 0x00D6, 0x00D7, 0x0158, 0x016E, 0x00DA, 0x0170, 0x00DC, 0x00DD, 0x0162, 0x00DF,
  0x0155, 0x00E1, 0x00E2, 0x0103, 0x00E4, 0x013A, 0x0107, 0x00E7, 0x010D, 0x00E9, 0x0119, 0x00EB, 0x011B, 0x00ED, 0x00EE, 0x010F,
  0x0111, 0x0144, 0x0148, 0x00F3, 0x00F4, 0x0151, 0x00F6, 0x00F7, 0x0159, 0x016F, 0x00FA, 0x0171, 0x00FC, 0x00FD, 0x0163, 0x02D9,
};

/* Windows-1251 (Cyrillic), bytes 0x80..0xBF (unassigned: 0x98). */
static const uint16_t cp1251_high[64] = {
  0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,
  0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x0098, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,
  0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
  0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,
};

/* The layout of a code page; Latin-1 is the run U+0080..U+00FF alone. */
static text8_page text8_layout(text8_codepage cp) {
  static const text8_page cp1252 = {cp1252_high, 32, 0x00A0}, cp1250 = {cp1250_high, 128, 0},
                          cp1251 = {cp1251_high, 64, 0x0410}, latin1 = {NULL, 0, 0x0080};
  switch (cp) {
    case TEXT8_CP1250: return cp1250;
    case TEXT8_CP1251: return cp1251;
    case TEXT8_LATIN1: return latin1;
    case TEXT8_CP1252: break;
  }
  return cp1252;
}

/* ASCII lower-casing without the locale, for name comparison. */
static int text8_lower(int c) {
  return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

/* Case-insensitive ASCII string equality (strcasecmp is not C11). */
int text8_name_eq(const char *a, const char *b) {
  while (*a && *b) {
    if (text8_lower((unsigned char)*a) != text8_lower((unsigned char)*b)) return 0;
    a++;
    b++;
  }
  return *a == *b;
}

/* Maps the accepted code-page names (and aliases) to the enum; the
** canonical name is listed first for each code page. */
int text8_codepage_from_name(const char *name, text8_codepage *cp) {
  static const struct {
    const char *name;
    text8_codepage cp;
  } names[] = {
      {"cp1252", TEXT8_CP1252},     {"windows-1252", TEXT8_CP1252}, {"win1252", TEXT8_CP1252},
      {"cp1250", TEXT8_CP1250},     {"windows-1250", TEXT8_CP1250}, {"win1250", TEXT8_CP1250},
      {"cp1251", TEXT8_CP1251},     {"windows-1251", TEXT8_CP1251}, {"win1251", TEXT8_CP1251},
      {"latin1", TEXT8_LATIN1},     {"iso-8859-1", TEXT8_LATIN1},   {"iso8859-1", TEXT8_LATIN1},
      {"latin-1", TEXT8_LATIN1},
  };
  size_t i;
  if (!name) return 0;
  for (i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (text8_name_eq(name, names[i].name)) {
      *cp = names[i].cp;
      return 1;
    }
  }
  return 0;
}

/* The canonical (lower-case) name, as accepted by text8_codepage_from_name. */
const char *text8_codepage_name(text8_codepage cp) {
  switch (cp) {
    case TEXT8_CP1252: return "cp1252";
    case TEXT8_CP1250: return "cp1250";
    case TEXT8_CP1251: return "cp1251";
    case TEXT8_LATIN1: return "latin1";
  }
  return "cp1252";
}

/* Decodes byte by byte through the table; every byte has a code point below
** U+10000, so the output needs at most 3 bytes per input byte plus the NUL.
** The size is computed overflow-safely before allocating. */
char *text8_decode(const unsigned char *bytes, size_t n, text8_codepage cp, size_t *out_len) {
  text8_page page = text8_layout(cp);
  size_t cap, i, o = 0;
  char *out;
  if (!size_mul(n, 3, &cap) || !size_add(cap, 1, &cap)) return NULL;
  out = (char *)malloc(cap);
  if (!out) return NULL;
  for (i = 0; i < n; i++) {
    uint32_t c = bytes[i];
    if (c >= 0x80) c = c - 0x80 < page.n ? page.high[c - 0x80] : page.tail + (c - 0x80 - (uint32_t)page.n);
    if (c < 0x80) {
      out[o++] = (char)c;
    } else if (c < 0x800) {
      out[o++] = (char)(0xC0 | (c >> 6));
      out[o++] = (char)(0x80 | (c & 0x3F));
    } else {
      out[o++] = (char)(0xE0 | (c >> 12));
      out[o++] = (char)(0x80 | ((c >> 6) & 0x3F));
      out[o++] = (char)(0x80 | (c & 0x3F));
    }
  }
  out[o] = '\0';
  if (out_len) *out_len = o;
  return out;
}

/* Reads one UTF-8 sequence at s[*pos] (n bytes in all), strictly: the
** WTF-8 decoder of utf16.c (no overlong forms, nothing above U+10FFFF, no
** truncated sequence) minus the surrogates WTF-8 allows.  Returns 1 and the
** code point, advancing *pos, or 0. */
static int text8_utf8_next(const unsigned char *s, size_t n, size_t *pos, uint32_t *cp) {
  size_t len = wtf8_decode_one((const char *)s, n, *pos, cp);
  if (len == 0 || (*cp >= 0xD800 && *cp <= 0xDFFF)) return 0;
  *pos += len;
  return 1;
}

/* Maps one code point to a byte of the code page: ASCII as is, the run
** from the tail, else a reverse search of the table (which also finds the
** C1 controls standing for unassigned bytes).  Returns 1 and the byte, or
** 0. */
static int text8_to_byte(uint32_t c, const text8_page *page, unsigned char *b) {
  size_t k;
  if (c < 0x80) {
    *b = (unsigned char)c;
    return 1;
  }
  if (c >= page->tail && c - page->tail < 128 - page->n) {
    *b = (unsigned char)(0x80 + page->n + (c - page->tail));
    return 1;
  }
  for (k = 0; k < page->n; k++) {
    if (page->high[k] == c) {
      *b = (unsigned char)(0x80 + k);
      return 1;
    }
  }
  return 0;
}

/* Encodes UTF-8 into the code page; one output byte per code point, so the
** output never exceeds the input length.  See text8.h for the error
** convention (*bad_char). */
int text8_encode(const char *utf8, size_t n, text8_codepage cp, unsigned char **out,
                 size_t *out_len, uint32_t *bad_char) {
  const unsigned char *s = (const unsigned char *)utf8;
  text8_page page = text8_layout(cp);
  unsigned char *buf;
  size_t pos = 0, o = 0;
  uint32_t dummy;
  if (!bad_char) bad_char = &dummy;
  *out = NULL;
  *out_len = 0;
  buf = (unsigned char *)malloc(n ? n : 1);
  if (!buf) {
    *bad_char = 0;
    return 0;
  }
  while (pos < n) {
    uint32_t c;
    if (!text8_utf8_next(s, n, &pos, &c)) {
      free(buf);
      *bad_char = 0xFFFFFFFFu;
      return 0;
    }
    if (!text8_to_byte(c, &page, &buf[o])) {
      free(buf);
      *bad_char = c;
      return 0;
    }
    o++;
  }
  *out = buf;
  *out_len = o;
  return 1;
}
