/*
** text8.h: lossless conversion between 8-bit code-page strings (as stored in
** WWD levels and other old formats) and UTF-8 (as SQLite shows them).
**
** Every byte value round-trips: bytes a code page leaves unassigned (0x81,
** 0x8D, 0x8F, 0x90, 0x9D in Windows-1252) decode to the C1 control with the
** same number (U+0081 ...), and those code points encode back to the byte.
** So decode(encode(x)) == x for every UTF-8 string made of representable
** characters, and encode(decode(b)) == b for every byte string b.
**
** Ownership: the converted string is malloc'd and owned by the caller.
*/
#ifndef LEVELSQL_TEXT8_H
#define LEVELSQL_TEXT8_H

#include <stddef.h>
#include <stdint.h>

typedef enum text8_codepage {
  TEXT8_CP1252 = 0, /* Western European, the default */
  TEXT8_CP1250 = 1, /* Central European (Polish levels, e.g. Bushy.wwd) */
  TEXT8_CP1251 = 2, /* Cyrillic */
  TEXT8_LATIN1 = 3  /* ISO-8859-1: byte == code point */
} text8_codepage;

/* Looks up a code page by name ("cp1252", "windows-1250", "latin1", ...,
** case-insensitive).  Returns 1 and sets *cp, or 0 if the name is unknown. */
int text8_codepage_from_name(const char *name, text8_codepage *cp);

/* Whether two names are equal when ASCII letters are compared in any case
** (without the locale: strcasecmp is not C11), as option values are. */
int text8_name_eq(const char *a, const char *b);

/* The canonical name of a code page ("cp1252"). */
const char *text8_codepage_name(text8_codepage cp);

/* Decodes n bytes to a NUL-terminated UTF-8 string (malloc'd; *out_len gets
** its length without the NUL).  Returns NULL only when memory runs out. */
char *text8_decode(const unsigned char *bytes, size_t n, text8_codepage cp, size_t *out_len);

/* Encodes n bytes of UTF-8 into the code page (malloc'd, not NUL-terminated;
** *out_len gets its length).  Returns 1 on success.  Returns 0 when the input
** is not valid UTF-8 (*bad_char = 0xFFFFFFFF) or holds a character the code
** page cannot represent (*bad_char = that code point), or when memory runs
** out (*bad_char = 0, *out = NULL). */
int text8_encode(const char *utf8, size_t n, text8_codepage cp, unsigned char **out,
                 size_t *out_len, uint32_t *bad_char);

#endif
