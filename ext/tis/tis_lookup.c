/*
** tis_lookup.c: finding and reading the files beside a tileset, and its
** PVRZ pages (tis_lookup.h).
*/
#include "tis/tis_lookup.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bytes.h"

tis_stamp tis_stamp_of(const char *path) {
  tis_stamp s;
  struct stat st;
  memset(&s, 0, sizeof s);
  if (stat(path, &st) != 0) return s;
  s.found = 1;
  s.size = (int64_t)st.st_size;
  s.mtime_s = (int64_t)st.st_mtime;
#ifndef _WIN32
  s.mtime_ns = (int64_t)st.st_mtim.tv_nsec;
#endif
  s.dev = (uint64_t)st.st_dev;
  s.ino = (uint64_t)st.st_ino;
  return s;
}

int tis_stamp_same(const tis_stamp *a, const tis_stamp *b) {
  return a->found && b->found && a->size == b->size && a->mtime_s == b->mtime_s && a->mtime_ns == b->mtime_ns &&
         a->dev == b->dev && a->ino == b->ino;
}

/* Whether c separates folders in a path. */
static int is_separator(char c) {
#ifdef _WIN32
  return c == '/' || c == '\\';
#else
  return c == '/';
#endif
}

char *tis_dirname(const char *path) {
  size_t n = strlen(path);
  char *out;
  while (n && !is_separator(path[n - 1])) n--;
  if (n > 1) n--; /* drop the separator, but keep "/" itself */
  out = (char *)malloc(n + 1);
  if (!out) return NULL;
  memcpy(out, path, n);
  out[n] = 0;
  return out;
}

/* dir/name (name alone for dir ""), malloc'd. */
static char *join(const char *dir, const char *name) {
  size_t d = strlen(dir), n = strlen(name);
  int sep = d && !is_separator(dir[d - 1]);
  char *p = (char *)malloc(d + (size_t)sep + n + 1);
  if (!p) return NULL;
  memcpy(p, dir, d);
  if (sep) p[d] = '/';
  memcpy(p + d + (size_t)sep, name, n + 1);
  return p;
}

/* Whether path is a regular file. */
static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ASCII case folding, for names. */
static char upper(char c) {
  return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

static int same_ignoring_case(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (upper(*a) != upper(*b)) return 0;
  return *a == *b;
}

/* dir/name if it is a file, else NULL (*oom on a failed malloc). */
static char *try_name(const char *dir, const char *name, int *oom) {
  char *p = join(dir, name);
  if (!p) {
    *oom = 1;
    return NULL;
  }
  if (is_file(p)) return p;
  free(p);
  return NULL;
}

char *tis_find(const char *dir, const char *name, int *oom) {
  int no_memory = 0, k;
  size_t n = strlen(name), i;
  char *variant = (char *)malloc(n + 1), *found = NULL;
  DIR *d;
  struct dirent *e;
  if (!variant) goto out_of_memory;
  for (k = 0; k < 3 && !found && !no_memory; k++) { /* as given, upper, lower */
    for (i = 0; i <= n; i++) {
      char c = name[i];
      variant[i] = k == 1 ? upper(c) : k == 2 && c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    found = try_name(dir, variant, &no_memory);
  }
  free(variant);
  if (found || no_memory) goto done;
  d = opendir(*dir ? dir : ".");
  while (d && !found && !no_memory && (e = readdir(d)) != NULL) {
    if (same_ignoring_case(e->d_name, name)) found = try_name(dir, e->d_name, &no_memory);
  }
  if (d) closedir(d);
done:
  if (!no_memory) return found;
out_of_memory:
  if (oom) *oom = 1;
  return NULL;
}

int tis_read_file(const char *path, uint64_t max, unsigned char **data, size_t *size, tis_stamp *stamp,
                  codec_error *err) {
  FILE *f = fopen(path, "rb");
  size_t got = 0;
  *data = NULL;
  *size = 0;
  *stamp = tis_stamp_of(path);
  if (!f) return codec_fail(err, "%s: cannot open: %s", path, strerror(errno));
  if (!stamp->found || stamp->size < 0 || (uint64_t)stamp->size > max || (uint64_t)stamp->size > SIZE_MAX - 1) {
    fclose(f);
    if (!stamp->found) return codec_fail(err, "%s: cannot stat: %s", path, strerror(errno));
    return codec_fail_limit(err, "%s: %lld bytes, over the limit of %llu (SELECT levelsql_limit('decoded', bytes) "
                            "raises it)", path, (long long)stamp->size, (unsigned long long)max);
  }
  if (stamp->size && !(*data = (unsigned char *)malloc((size_t)stamp->size))) {
    fclose(f);
    return codec_fail_oom(err, "%s: out of memory for %lld bytes", path, (long long)stamp->size);
  }
  if (stamp->size) got = fread(*data, 1, (size_t)stamp->size, f);
  fclose(f);
  if (got != (size_t)stamp->size) {
    free(*data);
    *data = NULL;
    return codec_fail(err, "%s: cannot read: %lld bytes expected, %zu read", path, (long long)stamp->size, got);
  }
  *size = got;
  return 1;
}

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

int tis_pages_init(tis_pages *p, const char *dir, const char *tileset, size_t len, uint64_t limit,
                   codec_error *err) {
  memset(p, 0, sizeof *p);
  if (len > 8) len = 8; /* tis_pvrz_name refuses it, naming the first 8 */
  memcpy(p->tileset, tileset, len);
  p->limit = limit;
  if (!(p->dir = (char *)malloc(strlen(dir) + 1))) return codec_fail_oom(err, "out of memory");
  memcpy(p->dir, dir, strlen(dir) + 1);
  return 1;
}

/* Forgets the page of slot s. */
static void slot_drop(tis_pages *p, tis_page_slot *s) {
  pvrz_free(s->page);
  free(s->path);
  p->held -= s->bytes;
  memset(s, 0, sizeof *s);
}

/* Reads and parses the page file at path into slot s, within what the
** limit leaves (name: the page's file name, for messages). */
static int slot_load(tis_pages *p, tis_page_slot *s, const char *name, char *path, codec_error *err) {
  unsigned char *data = NULL;
  size_t size = 0;
  uint64_t left = p->limit - p->held, claim;
  int ok = tis_read_file(path, left, &data, &size, &s->stamp, err);
  if (ok && size >= 4 && (claim = le32_load(data)) > left) {
    ok = codec_fail_limit(err, "%s would decode %llu bytes, over the %llu the tileset's pages have left of the "
                          "limit of %llu in all (SELECT levelsql_limit('decoded', bytes) raises it)", name,
                          (unsigned long long)claim, (unsigned long long)left, (unsigned long long)p->limit);
  }
  if (ok && !pvrz_parse(data, size, 0, &s->page, err)) ok = codec_prefix(err, "%s: ", name);
  free(data);
  if (!ok) {
    free(path);
    memset(s, 0, sizeof *s);
    return 0;
  }
  s->path = path;
  s->bytes = s->page->declared_size;
  p->held += s->bytes;
  return 1;
}

const pvrz_page *tis_pages_get(void *ctx, int32_t page, codec_error *err) {
  tis_pages *p = (tis_pages *)ctx;
  tis_page_slot *s;
  tis_stamp now;
  char name[16];
  char *path;
  int oom = 0;
  if (page < 0 || page > TIS_MAX_PAGE) return codec_fail_arg(err, "no such page"), NULL;
  s = &p->slot[page];
  if (s->page) {
    now = tis_stamp_of(s->path);
    if (tis_stamp_same(&now, &s->stamp)) return s->page;
    slot_drop(p, s); /* changed or gone: look again */
  }
  if (!tis_pvrz_name(p->tileset, strlen(p->tileset), page, name, err)) return NULL;
  if (!(path = tis_find(p->dir, name, &oom))) {
    if (oom) return codec_fail_oom(err, "out of memory"), NULL;
    return codec_fail(err, "%s not found in %s", name, *p->dir ? p->dir : "the current folder"), NULL;
  }
  return slot_load(p, s, name, path, err) ? s->page : NULL;
}

void tis_pages_clear(tis_pages *p) {
  int i;
  for (i = 0; i <= TIS_MAX_PAGE; i++)
    if (p->slot[i].page) slot_drop(p, &p->slot[i]);
  free(p->dir);
  p->dir = NULL;
}

size_t tis_pages_footprint(const tis_pages *p) {
  size_t n = 0;
  int i;
  for (i = 0; i <= TIS_MAX_PAGE; i++)
    if (p->slot[i].page) n += sizeof(pvrz_page) + p->slot[i].page->blocks_size + p->slot[i].page->meta_size;
  return n;
}

/* ---- a tileset for drawing ------------------------------------------------------------ */

int tis_tileset_open(tis_tileset *ts, const char *dir, const char *resref, size_t len, uint64_t limit,
                     codec_error *err) {
  char name[16];
  unsigned char *data = NULL;
  size_t size = 0;
  tis_stamp stamp;
  int oom = 0, ok;
  char shown[9];
  size_t i, bad = 0;
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
  if (!(ts->path = tis_find(dir, name, &oom))) {
    if (oom) return codec_fail_oom(err, "out of memory");
    return codec_fail(err, "no %s in %s", name, *dir ? dir : "the current folder");
  }
  ok = tis_read_file(ts->path, limit, &data, &size, &stamp, err);
  if (ok && !tis_parse(data, size, &ts->tis, err)) ok = codec_prefix(err, "%s: ", ts->path);
  free(data);
  if (ok) ok = tis_pages_init(&ts->pages, dir, resref, len, limit, err);
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
