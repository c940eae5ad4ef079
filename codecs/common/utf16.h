/*
** utf16.h: lossless conversion between UTF-16LE code units (as stored in
** werkkzeug4 files and other Windows formats) and WTF-8 (as SQLite shows
** them).
**
** WTF-8 is UTF-8 extended to code points U+D800..U+DFFF: a surrogate pair is
** encoded as the 4-byte UTF-8 sequence of the character it stands for, and a
** surrogate that is not part of a pair ("unpaired surrogate") is encoded as
** its own 3-byte sequence ED A0..BF xx.  Well-formed UTF-16 therefore gives
** plain UTF-8; only broken UTF-16 gives the (non-UTF-8) ED A0..BF bytes.
**
** Every sequence of UTF-16 code units round-trips:
**   wtf8_to_utf16le(utf16le_to_wtf8(u)) == u   for every unit sequence u,
** and wtf8_validate accepts exactly the strings utf16le_to_wtf8 can produce
** (it rejects a high-surrogate sequence directly followed by a low-surrogate
** sequence, which WTF-8 forbids because it would not round-trip).  U+0000 is
** allowed inside a string (the WTF-8 then holds a NUL byte).
**
** Ownership: every converted buffer is malloc'd and owned by the caller.
*/
#ifndef LEVELSQL_UTF16_H
#define LEVELSQL_UTF16_H

#include <stddef.h>
#include <stdint.h>

/* Converts n UTF-16LE code units (2*n bytes at `units`) to WTF-8.  Returns a
** malloc'd, NUL-terminated string and sets *out_len to its length without
** the NUL; returns NULL only when memory runs out or sizes overflow. */
char *utf16le_to_wtf8(const unsigned char *units, size_t n, size_t *out_len);

/* Checks that s[0..len) is well-formed WTF-8.  Returns 1 and sets
** *n_units to the number of UTF-16 code units it encodes to, or returns 0
** and sets *bad_offset to the byte offset of the first bad sequence. */
int wtf8_validate(const char *s, size_t len, size_t *n_units, size_t *bad_offset);

/* Encodes well-formed WTF-8 (check with wtf8_validate first) as UTF-16LE
** into `out`, which must have room for 2 * n_units bytes.  Returns the
** number of code units written. */
size_t wtf8_encode_utf16le(const char *s, size_t len, unsigned char *out);

/* Decodes the WTF-8 sequence starting at s[i] (i < len).  Returns its
** length in bytes (1..4) and sets *cp (surrogates included), or returns 0
** when the bytes there are malformed.  Does not check pairing: use
** wtf8_validate for whole strings. */
size_t wtf8_decode_one(const char *s, size_t len, size_t i, uint32_t *cp);

/* Appends the WTF-8 bytes of code point cp (<= 0x10FFFF, surrogates
** allowed) at out, which needs room for 4 bytes.  Returns how many. */
size_t wtf8_put_cp(char *out, uint32_t cp);

/* Convenience: validates and converts to a malloc'd buffer of 2*(*n_units)
** bytes (a 1-byte buffer when empty, so the result is never NULL on
** success).  Returns NULL when the input is not WTF-8 or memory runs out. */
unsigned char *wtf8_to_utf16le(const char *s, size_t len, size_t *n_units);

#endif
