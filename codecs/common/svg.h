/*
** svg.h: writing an SVG document as text, for the vector previews
** (wed_render, wz4_render).
**
** Pure C, no SQLite.  An svg_doc is a growable UTF-8 buffer (bytes.h's
** byte_writer): svg_begin writes the root element with a viewBox, the
** svg_* calls append elements, svg_finish closes the root and hands the
** text over.  Text from level files goes through svg_text / the %t of
** svg_printf, which escapes the XML specials and replaces bytes that would
** make the document invalid (control characters, invalid UTF-8) by '?', so
** any file yields a well-formed document.
**
** Ownership: svg_finish's result is malloc'd, NUL-terminated; the caller
** frees it with free().  svg_discard frees an unfinished document.  Out of
** memory is remembered and reported once, by svg_finish (NULL).
*/
#ifndef LEVELSQL_SVG_H
#define LEVELSQL_SVG_H

#include <stddef.h>

#include "common/bytes.h"

typedef struct svg_doc {
  byte_writer out;
} svg_doc;

/* Starts a document of width x height user units (pixels), with a <style>
** block `css` (may be NULL) and a background rectangle of colour `bg`
** (CSS colour text; NULL: none). */
void svg_begin(svg_doc *d, double width, double height, const char *css, const char *bg);

/* Appends printf-formatted text (%d, %u, %ld, %lld, %zu, %s, %g, %%: plain
** printf, never for file text) and %t: a NUL-terminated string from a
** level file, escaped.  %T: the same with an explicit length (size_t then
** const char *). */
void svg_printf(svg_doc *d, const char *fmt, ...);

/* The length of the UTF-8 sequence at s[0..n) that XML text may hold
** (no overlong forms, surrogates, U+FFFE, U+FFFF or code points above
** U+10FFFF), or 0 when the bytes there are no such sequence (n >= 1). */
size_t svg_utf8_sequence(const unsigned char *s, size_t n);

/* Appends s[0..n) escaped for XML text and attribute values. */
void svg_text(svg_doc *d, const char *s, size_t n);

/* Closes the root element; returns the text (*size its length) or NULL
** when memory ran out. */
char *svg_finish(svg_doc *d, size_t *size);

void svg_discard(svg_doc *d);

#endif
