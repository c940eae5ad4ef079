/*
** tis_lookup.c: finding and reading the files beside a tileset, and its
** PVRZ pages (tis_lookup.h).
*/
#include "tis/tis_lookup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"

uint64_t tis_decoded_limit(sqlite3 *db) {
  sqlite3_stmt *st = NULL;
  uint64_t limit = LS_DEFAULT_MAX_DECODED;
  if (db && sqlite3_prepare_v2(db, "SELECT levelsql_limit('decoded')", -1, &st, NULL) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0) {
    limit = (uint64_t)sqlite3_column_int64(st, 0);
  }
  sqlite3_finalize(st);
  return limit;
}

/* ---- pages ------------------------------------------------------------------------ */

int tis_pages_init(tis_pages *p, const char *near, const char *tileset, size_t len, uint64_t limit,
                   codec_error *err) {
  memset(p, 0, sizeof *p);
  if (len > 8) len = 8; /* tis_pvrz_name refuses it, naming the first 8 */
  memcpy(p->tileset, tileset, len);
  p->limit = limit;
  if (!(p->near = (char *)malloc(strlen(near) + 1))) return codec_fail_oom(err, "out of memory");
  memcpy(p->near, near, strlen(near) + 1);
  return 1;
}

/* Forgets the page of slot s. */
static void slot_drop(tis_pages *p, tis_page_slot *s) {
  pvrz_free(s->page);
  p->held -= s->bytes;
  memset(s, 0, sizeof *s);
}

/* Reads and parses the page `name` into slot s, within what the limit
** leaves. */
static int slot_load(tis_pages *p, tis_page_slot *s, const char *name, codec_error *err) {
  uint64_t left = p->limit - p->held, claim;
  ls_found f;
  int ok;
  if (!left)
    return codec_fail_limit(err, "%s: the tileset's pages hold the whole limit of %llu already (SELECT "
                            "levelsql_limit('decoded', bytes) raises it)", name, (unsigned long long)p->limit);
  if (!ls_find(p->db, p->near, LS_FIND_BESIDE, name, left, &f, err)) return 0;
  if (!f.found) {
    ok = codec_fail(err, "%s not found in %s", name, f.where);
  } else if (f.size >= 4 && (claim = le32_load(f.data)) > left) {
    ok = codec_fail_limit(err, "%s would decode %llu bytes, over the %llu the tileset's pages have left of the "
                          "limit of %llu in all (SELECT levelsql_limit('decoded', bytes) raises it)", f.path,
                          (unsigned long long)claim, (unsigned long long)left, (unsigned long long)p->limit);
  } else {
    ok = pvrz_parse(f.data, f.size, 0, &s->page, err) || codec_prefix(err, "%s: ", f.path);
  }
  if (ok) {
    s->stamp = f.stamp;
    s->bytes = s->page->declared_size;
    p->held += s->bytes;
  } else {
    memset(s, 0, sizeof *s);
  }
  ls_found_clear(&f);
  return ok;
}

const pvrz_page *tis_pages_get(void *ctx, int32_t page, codec_error *err) {
  tis_pages *p = (tis_pages *)ctx;
  tis_page_slot *s;
  char name[16];
  if (page < 0 || page > TIS_MAX_PAGE) return codec_fail_arg(err, "no such page"), NULL;
  if (!tis_pvrz_name(p->tileset, strlen(p->tileset), page, name, err)) return NULL;
  s = &p->slot[page];
  if (s->page) {
    ls_found now;
    int same;
    if (!ls_find(p->db, p->near, LS_FIND_BESIDE, name, 0, &now, err)) return NULL;
    same = now.found && ls_stamp_same(&now.stamp, &s->stamp);
    ls_found_clear(&now);
    if (same) return s->page;
    slot_drop(p, s); /* changed or gone: look again */
  }
  return slot_load(p, s, name, err) ? s->page : NULL;
}

void tis_pages_clear(tis_pages *p) {
  int i;
  for (i = 0; i <= TIS_MAX_PAGE; i++)
    if (p->slot[i].page) slot_drop(p, &p->slot[i]);
  free(p->near);
  p->near = NULL;
}

size_t tis_pages_footprint(const tis_pages *p) {
  size_t n = 0;
  int i;
  for (i = 0; i <= TIS_MAX_PAGE; i++)
    if (p->slot[i].page) n += sizeof(pvrz_page) + p->slot[i].page->blocks_size + p->slot[i].page->meta_size;
  return n;
}

/* ---- a tileset for drawing ------------------------------------------------------------ */

int tis_tileset_open(tis_tileset *ts, sqlite3 *db, const char *near, int how, const char *resref, size_t len,
                     uint64_t limit, codec_error *err) {
  char name[16], shown[9];
  ls_found f;
  size_t i, bad = 0;
  int ok;
  memset(ts, 0, sizeof *ts);
  for (i = 0; i < len && i < 8; i++) { /* a name, never a path out of the folder */
    char c = resref[i];
    int ok_char = c > ' ' && c <= '~' && c != '/' && c != '\\' && c != ':';
    shown[i] = ok_char ? c : '?';
    bad += !ok_char;
  }
  shown[i] = 0;
  if (!len || len > 8 || bad)
    return codec_fail_arg(err, "tileset '%s': not a resref (1 to 8 printable characters, no '/', '\\' or ':')", shown);
  snprintf(name, sizeof name, "%.*s.TIS", (int)len, resref);
  if (!ls_find(db, near, how, name, limit, &f, err)) return 0;
  if (!f.found) {
    ok = codec_fail(err, "no %s in %s", name, f.where);
  } else {
    ok = tis_parse(f.data, f.size, &ts->tis, err) || codec_prefix(err, "%s: ", f.path);
    ts->path = f.path; /* taken */
    f.path = NULL;
  }
  ls_found_clear(&f);
  if (ok) ok = tis_pages_init(&ts->pages, ts->path, resref, len, limit, err);
  if (ok) ts->pages.db = db;
  if (!ok) tis_tileset_close(ts);
  return ok;
}

int tis_tileset_tile(void *ctx, uint32_t tile, unsigned char *rgba, codec_error *err) {
  tis_tileset *ts = (tis_tileset *)ctx;
  tis_decode_opts o = {.alpha = TIS_ALPHA_GREEN, .page = tis_pages_get, .page_ctx = &ts->pages};
  return tis_decode(ts->tis, tile, &o, rgba, err);
}

void tis_tileset_close(tis_tileset *ts) {
  tis_pages_clear(&ts->pages);
  tis_free(ts->tis);
  free(ts->path);
  memset(ts, 0, sizeof *ts);
}
