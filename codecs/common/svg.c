/*
** svg.c: the SVG text builder of svg.h.
*/
#include "common/svg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void svg_begin(svg_doc *d, double width, double height, const char *css, const char *bg) {
  memset(d, 0, sizeof *d);
  svg_printf(d,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\">\n",
             width, height, width, height);
  if (css) svg_printf(d, "<style>%s</style>\n", css);
  if (bg) svg_printf(d, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%g\" height=\"%g\" fill=\"%s\"/>\n", width, height, bg);
}

size_t svg_utf8_sequence(const unsigned char *s, size_t n) {
  size_t len, i;
  uint32_t cp;
  if (s[0] < 0x80) return 1;
  if (s[0] >= 0xC2 && s[0] <= 0xDF) len = 2, cp = s[0] & 0x1Fu;
  else if (s[0] >= 0xE0 && s[0] <= 0xEF) len = 3, cp = s[0] & 0x0Fu;
  else if (s[0] >= 0xF0 && s[0] <= 0xF4) len = 4, cp = s[0] & 0x07u;
  else return 0;
  if (n < len) return 0;
  for (i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3Fu);
  }
  if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)) ||
      (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
    return 0;
  }
  return len;
}

void svg_text(svg_doc *d, const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    size_t len;
    switch (p[i]) {
      case '&': byte_writer_bytes(&d->out, "&amp;", 5), i++; continue;
      case '<': byte_writer_bytes(&d->out, "&lt;", 4), i++; continue;
      case '>': byte_writer_bytes(&d->out, "&gt;", 4), i++; continue;
      case '"': byte_writer_bytes(&d->out, "&quot;", 6), i++; continue;
      default: break;
    }
    len = svg_utf8_sequence(p + i, n - i);
    /* XML 1.0 allows tab, newline and carriage return among the controls */
    if (len == 0 || (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r') || p[i] == 0x7F) {
      byte_writer_bytes(&d->out, "?", 1);
      i += len ? len : 1;
    } else {
      byte_writer_bytes(&d->out, p + i, len);
      i += len;
    }
  }
}

void svg_printf(svg_doc *d, const char *fmt, ...) {
  va_list ap;
  const char *p = fmt;
  va_start(ap, fmt);
  while (*p) {
    const char *pct = strchr(p, '%');
    char spec[16], buf[64];
    size_t k;
    if (!pct) {
      byte_writer_bytes(&d->out, p, strlen(p));
      break;
    }
    byte_writer_bytes(&d->out, p, (size_t)(pct - p));
    p = pct + 1;
    if (*p == 't') {
      const char *s = va_arg(ap, const char *);
      svg_text(d, s ? s : "", s ? strlen(s) : 0);
      p++;
      continue;
    }
    if (*p == 'T') {
      size_t n = va_arg(ap, size_t);
      const char *s = va_arg(ap, const char *);
      svg_text(d, s ? s : "", s ? n : 0);
      p++;
      continue;
    }
    /* a plain conversion: copy "%", length modifiers and the letter */
    k = 0;
    spec[k++] = '%';
    while (*p && strchr("lz", *p) && k < sizeof spec - 2) spec[k++] = *p++;
    if (!*p) break;
    spec[k++] = *p;
    spec[k] = 0;
    switch (*p++) {
      case '%': byte_writer_bytes(&d->out, "%", 1); continue;
      case 's': {
        const char *s = va_arg(ap, const char *);
        byte_writer_bytes(&d->out, s, strlen(s));
        continue;
      }
      case 'g': snprintf(buf, sizeof buf, "%.6g", va_arg(ap, double)); break;
      case 'd':
      case 'u':
        if (k == 2) snprintf(buf, sizeof buf, spec, va_arg(ap, int));
        else if (spec[1] == 'z') snprintf(buf, sizeof buf, spec, va_arg(ap, size_t));
        else if (k == 3) snprintf(buf, sizeof buf, spec, va_arg(ap, long));
        else snprintf(buf, sizeof buf, spec, va_arg(ap, long long));
        break;
      default: buf[0] = 0; break;
    }
    byte_writer_bytes(&d->out, buf, strlen(buf));
  }
  va_end(ap);
}

char *svg_finish(svg_doc *d, size_t *size) {
  size_t n;
  unsigned char *text;
  svg_printf(d, "</svg>\n");
  byte_writer_bytes(&d->out, "", 1); /* the NUL */
  if (d->out.failed) {
    svg_discard(d);
    *size = 0;
    return NULL;
  }
  text = byte_writer_take(&d->out, &n);
  *size = n - 1;
  return (char *)text;
}

void svg_discard(svg_doc *d) {
  byte_writer_free(&d->out);
}
