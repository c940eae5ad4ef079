/*
** wz4_sample.h: the constructed werkkzeug4 project the SQL tests share
** (test_wz4_sql, test_statement_safety): two pages, written byte by byte
** from ../shared/formats/wz4.md, not with the codec's writer, so a codec
** bug cannot hide in both the writer and the reader.
*/
#ifndef LEVELSQL_WZ4_SAMPLE_H
#define LEVELSQL_WZ4_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/bytes.h"
#include "fileutil.h"
#include "wz4/wz4.h"

/* Appends a string of UTF-16 units: count, units, zero padding to 4. */
static inline void wz4_put_str16(byte_writer *w, const uint16_t *u, size_t n) {
  size_t i;
  byte_writer_u32(w, (uint32_t)n);
  for (i = 0; i < n; i++) byte_writer_u16(w, u[i]);
  if (n & 1) byte_writer_u16(w, 0);
}

/* Appends an ASCII string as UTF-16LE. */
static inline void wz4_put_str(byte_writer *w, const char *s) {
  uint16_t u[128] = {0};
  size_t i, n = strlen(s);
  for (i = 0; i < n && i < 128; i++) u[i] = (unsigned char)s[i];
  wz4_put_str16(w, u, n);
}

/* A stacked op of the constructed project. */
typedef struct wz4_cop {
  int32_t x, y, w, h;
  const char *cls, *name, *link; /* link: NULL for no link slot */
  int lone_surrogate;            /* name and strings[0] get an unpaired U+D800 */
} wz4_cop;

/* Appends one stacked op: grid fields, then an op record of version 12. */
static inline void wz4_put_op(byte_writer *w, const wz4_cop *o) {
  static const uint16_t lone[] = {0xD800, 'x'};
  byte_writer_u32(w, (uint32_t)o->x);
  byte_writer_u32(w, (uint32_t)o->y);
  byte_writer_u32(w, (uint32_t)o->w);
  byte_writer_u32(w, (uint32_t)o->h);
  byte_writer_u32(w, 0); /* bypass */
  byte_writer_u32(w, 0); /* hide */
  byte_writer_u32(w, WZ4_TAG_OPEN);
  byte_writer_u32(w, WZ4_ID_OP);
  byte_writer_u32(w, 12);
  if (o->lone_surrogate) wz4_put_str16(w, lone, 2);
  else wz4_put_str(w, o->name);
  wz4_put_str(w, o->cls);
  wz4_put_str(w, "GenBitmap");
  byte_writer_u32(w, 0);           /* dummy */
  byte_writer_u32(w, 2);           /* params */
  byte_writer_u32(w, 0x0808);
  byte_writer_u32(w, 0xff000000u);
  byte_writer_u32(w, 1);           /* strings */
  if (o->lone_surrogate) wz4_put_str16(w, lone, 2);
  else wz4_put_str(w, "farbrausch");
  if (o->link) {
    byte_writer_u32(w, 1);
    wz4_put_str(w, o->link);
    byte_writer_u32(w, 0);         /* select */
    byte_writer_u32(w, 0);         /* no default op */
  } else {
    byte_writer_u32(w, 0);
  }
  byte_writer_u32(w, 0);           /* array: words per entry */
  byte_writer_u32(w, 0);           /* entries */
  byte_writer_u32(w, 0);           /* script show */
  wz4_put_str(w, "");                  /* script */
  byte_writer_u32(w, 0);           /* script parameters */
  byte_writer_u32(w, WZ4_TAG_CLOSE);
}

/* Appends a project's opening: document 12, then an options chunk of
** version 0 (no body); the page count comes next. */
static inline void wz4_put_head(byte_writer *w) {
  byte_writer_u32(w, WZ4_TAG_OPEN);
  byte_writer_u32(w, WZ4_ID_DOC);
  byte_writer_u32(w, 12);
  byte_writer_u32(w, WZ4_TAG_OPEN);
  byte_writer_u32(w, WZ4_ID_OPTIONS);
  byte_writer_u32(w, 0);
}

/* Page 0 "gen": 0 Flat (0,0), 1 Blur (0,1), 2 Store "tex" (0,2), 3 Flat
** (5,0) named "\uD800x"; page 1 "use": 0 Load (0,0) linking "tex", 1 Load
** (0,1) linking "nowhere".  Stack edges 0->1, 1->2 on page 0, 0->1 on
** page 1; name edges page 0 op 2 -> page 1 op 0, and a dangling one. */
static const wz4_cop wz4_page0[] = {
    {0, 0, 3, 1, "Flat", "", NULL, 0},
    {0, 1, 3, 1, "Blur", "", NULL, 0},
    {0, 2, 3, 1, "Store", "tex", NULL, 0},
    {5, 0, 3, 1, "Flat", NULL, NULL, 1},
};
static const wz4_cop wz4_page1[] = {
    {0, 0, 3, 1, "Load", "", "tex", 0},
    {0, 1, 3, 1, "Load", "", "nowhere", 0},
};

/* Writes the constructed project (document 12, options chunk version 0). */
static inline int wz4_write_project(const char *path) {
  byte_writer w = {0};
  size_t i;
  int ok;
  wz4_put_head(&w);
  byte_writer_u32(&w, 2);            /* pages: stacked, tree, level, flags, protect */
  byte_writer_u32(&w, 4); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0);
  byte_writer_u32(&w, 2); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); byte_writer_u32(&w, 1);
  byte_writer_u32(&w, 0);            /* imports */
  wz4_put_str(&w, "gen");
  byte_writer_u32(&w, 0); byte_writer_u32(&w, 7); byte_writer_u32(&w, 8); /* is_tree, scroll */
  for (i = 0; i < 4; i++) wz4_put_op(&w, &wz4_page0[i]);
  wz4_put_str(&w, "use");
  byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0);
  for (i = 0; i < 2; i++) wz4_put_op(&w, &wz4_page1[i]);
  byte_writer_u32(&w, 0);            /* includes */
  byte_writer_u32(&w, 2);            /* page order */
  wz4_put_str(&w, "gen");
  wz4_put_str(&w, "use");
  ok = file_write_all(path, w.data, w.size);
  byte_writer_free(&w);
  return ok;
}

#endif
