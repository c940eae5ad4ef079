/*
** test_datafile.c: the Teeworlds/DDNet datafile container (codecs/tw/datafile.c)
** (codecs/common/sha256.c has its own test, test_sha256.c).
**
** - synthetic files: v3, "ATAD", the legacy v4 header, zero-length and
**   unavailable data, unknown item types, duplicate UUID-index items, two UUID
**   types (renumbered by first use, as DDNet does), a zlib bomb;
** - blobs recompressed in one write are each what compress2 gives alone;
** - every corpus map (LEVELSQL_CORPUS/tw) read and written unchanged is
**   byte-identical to DDNet's map_resave output of the same input (generated
**   into a temp dir at test time; SKIP when the tool is not installed);
** - corruption: truncations and flipped bytes give errors, never a crash.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "ddnet_peer.h"
#include "tw/datafile.h"
#include "fileutil.h"


/* ---- synthetic file builder ----------------------------------------------- */

typedef struct syn_item {
  uint32_t type, id;
  const int32_t *ints;
  size_t n;
} syn_item;

static void put32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}

/* Builds a datafile by hand: items must be grouped by type in the order
** given; blobs are stored as given (stored[i], stored_n[i]) with declared
** sizes decl[i] (v4 only).  legacy=1 writes the pre-2010 size/swaplen. */
static unsigned char *build(int version, const char *magic, int legacy, const syn_item *items, size_t ni,
                            const unsigned char *const *stored, const size_t *stored_n, const uint32_t *decl,
                            size_t nd, size_t *out_size) {
  size_t ntypes = 0, i, j, item_size = 0, data_size = 0, total, p;
  unsigned char *b;
  for (i = 0; i < ni; i++) {
    if (i == 0 || items[i].type != items[i - 1].type) ntypes++;
    item_size += 8 + items[i].n * 4;
  }
  for (i = 0; i < nd; i++) data_size += stored_n[i];
  total = 36 + 12 * ntypes + 4 * ni + 4 * nd + (version == 4 ? 4 * nd : 0) + item_size + data_size;
  b = (unsigned char *)calloc(1, total);
  memcpy(b, magic, 4);
  put32(b + 4, (uint32_t)version);
  put32(b + 8, (uint32_t)(total - 16 - (legacy ? 4 * nd : 0)));
  put32(b + 12, (uint32_t)(total - data_size - 16 - (legacy ? 4 * nd : 0)));
  put32(b + 16, (uint32_t)ntypes);
  put32(b + 20, (uint32_t)ni);
  put32(b + 24, (uint32_t)nd);
  put32(b + 28, (uint32_t)item_size);
  put32(b + 32, (uint32_t)data_size);
  p = 36;
  for (i = 0; i < ni; i = j) {
    for (j = i; j < ni && items[j].type == items[i].type; j++) {
    }
    put32(b + p, items[i].type);
    put32(b + p + 4, (uint32_t)i);
    put32(b + p + 8, (uint32_t)(j - i));
    p += 12;
  }
  {
    size_t off = 0;
    for (i = 0; i < ni; i++) {
      put32(b + p, (uint32_t)off);
      p += 4;
      off += 8 + items[i].n * 4;
    }
    off = 0;
    for (i = 0; i < nd; i++) {
      put32(b + p, (uint32_t)off);
      p += 4;
      off += stored_n[i];
    }
  }
  if (version == 4)
    for (i = 0; i < nd; i++, p += 4) put32(b + p, decl[i]);
  for (i = 0; i < ni; i++) {
    put32(b + p, (items[i].type << 16) | items[i].id);
    put32(b + p + 4, (uint32_t)(items[i].n * 4));
    p += 8;
    for (j = 0; j < items[i].n; j++, p += 4) put32(b + p, (uint32_t)items[i].ints[j]);
  }
  for (i = 0; i < nd; i++) {
    memcpy(b + p, stored[i], stored_n[i]);
    p += stored_n[i];
  }
  *out_size = total;
  return b;
}

/* zlib level-6 compression into a malloc'd buffer. */
static unsigned char *zc(const void *src, size_t n, size_t *out_n) {
  uLongf cl = compressBound((uLong)n);
  unsigned char *o = (unsigned char *)malloc(cl);
  compress2(o, &cl, (const Bytef *)src, (uLong)n, 6);
  *out_n = cl;
  return o;
}

/* ---- tests ------------------------------------------------------------------- */

/* v3 (raw data), ATAD magic, unknown types, written back as v4 DDNet-style. */
static void test_v3_and_atad(void) {
  static const int32_t a[] = {1}, b2[] = {7, 8, 9}, u[] = {42};
  syn_item items[] = {{0, 0, a, 1}, {5, 1, b2, 3}, {5, 0, b2, 2}, {0x1234, 3, u, 1}};
  const unsigned char *st[] = {(const unsigned char *)"hello", (const unsigned char *)"", (const unsigned char *)"xy"};
  size_t sn[] = {5, 0, 2};
  size_t n, on, sz;
  unsigned char *f = build(3, "ATAD", 0, items, 4, st, sn, NULL, 3, &n), *o = NULL;
  datafile *df = NULL, *df2 = NULL;
  codec_error e;
  const unsigned char *d;
  CHECK(df_parse(f, n, &df, &e), "v3 parse: %s", e.msg);
  if (df) {
    CHECK(df->version == 3 && df->magic_swapped == 1, "version %d swapped %d", df->version, df->magic_swapped);
    CHECK(df->num_items == 4 && df->items[1].id == 1 && df->items[2].id == 0, "item order kept");
    CHECK(df_find_item(df, 0x1234, 3) == 3, "unknown type found");
    CHECK(df_data_get(df, 0, &d, &sz, &e) && sz == 5 && memcmp(d, "hello", 5) == 0, "v3 raw blob");
    CHECK(df_data_get(df, 1, &d, &sz, &e) && sz == 0, "v3 zero-length blob: %s", e.msg);
    CHECK(df_write(df, DF_WRITE_RECOMPRESS, &o, &on, &e), "write: %s", e.msg);
    CHECK(o && memcmp(o, "DATA", 4) == 0 && o[4] == 4, "written as DATA v4");
    CHECK(o && df_parse(o, on, &df2, &e), "reparse: %s", e.msg);
    if (df2) {
      CHECK(df2->num_items == 4 && df2->items[3].type == 0x1234 && df2->items[3].ints[0] == 42, "unknown kept");
      CHECK(df_data_get(df2, 2, &d, &sz, &e) && sz == 2 && memcmp(d, "xy", 2) == 0, "blob kept");
      CHECK(df_data_get(df2, 1, &d, &sz, &e) == 0, "zero-length blob written v4 reads as unavailable");
    }
  }
  df_free(df);
  df_free(df2);
  free(o);
  free(f);
}

/* Recompressing several blobs in one write (df_write keeps one zlib
** compressor for them all, reset between blobs) stores for each exactly
** the bytes compress2 at level 6 gives for it alone: a text, a large
** patterned blob (two deflate blocks' worth), a tiny one, and an empty one
** between them. */
static void test_recompress_matches_compress2(void) {
  static const int32_t a[] = {1};
  syn_item items[] = {{0, 0, a, 1}};
  enum { BIG = 200000 };
  unsigned char *big = (unsigned char *)malloc(BIG), *f = NULL, *o = NULL;
  const unsigned char *st[4];
  size_t sn[4], n, on, i;
  datafile *df = NULL, *df2 = NULL;
  codec_error e;
  REQUIRE(big != NULL, "out of memory");
  if (!big) return;
  for (i = 0; i < BIG; i++) big[i] = (unsigned char)((i * i + i / 7) & 0xFF);
  st[0] = (const unsigned char *)"the quick brown fox jumps over the lazy dog, the quick brown fox";
  sn[0] = strlen((const char *)st[0]);
  st[1] = big;
  sn[1] = BIG;
  st[2] = (const unsigned char *)"";
  sn[2] = 0;
  st[3] = (const unsigned char *)"x";
  sn[3] = 1;
  f = build(3, "DATA", 0, items, 1, st, sn, NULL, 4, &n);
  CHECK(df_parse(f, n, &df, &e), "v3 parse: %s", e.msg);
  if (df) CHECK(df_write(df, DF_WRITE_RECOMPRESS, &o, &on, &e), "recompressing write: %s", e.msg);
  if (o) CHECK(df_parse(o, on, &df2, &e), "reparse: %s", e.msg);
  for (i = 0; df2 && i < 4; i++) {
    size_t zn;
    unsigned char *z = zc(st[i], sn[i], &zn);
    CHECK(df2->num_data == 4 && df2->data[i].stored_size == zn && memcmp(df2->data[i].stored, z, zn) == 0,
          "blob %zu (%zu bytes): stored %zu bytes, compress2 gives %zu", i, sn[i],
          df2->num_data == 4 ? df2->data[i].stored_size : 0, zn);
    free(z);
  }
  df_free(df);
  df_free(df2);
  free(o);
  free(f);
  free(big);
}

/* Legacy header accepted and fixed; unavailable and declared-0 data kept
** byte for byte; wrong size/swaplen rejected. */
static void test_legacy_and_unavailable(void) {
  static const int32_t a[] = {1};
  syn_item items[] = {{0, 0, a, 1}};
  size_t cn, n, on, n2, sz;
  unsigned char *good = zc("abcdef", 6, &cn);
  const unsigned char garbage[] = {0x78, 0x9c, 1, 2, 3, 4, 5};
  const unsigned char *st[] = {good, garbage, good};
  size_t sn[] = {cn, sizeof garbage, cn};
  uint32_t decl[] = {6, 100, 0};
  unsigned char *f = build(4, "DATA", 1, items, 1, st, sn, decl, 3, &n), *o = NULL, *f2;
  datafile *df = NULL, *df2 = NULL;
  codec_error e;
  const unsigned char *d;
  CHECK(df_parse(f, n, &df, &e), "legacy parse: %s", e.msg);
  if (df) {
    CHECK(df->header_kind == DF_HEADER_LEGACY, "legacy header detected");
    CHECK(df_data_get(df, 0, &d, &sz, &e) && sz == 6 && memcmp(d, "abcdef", 6) == 0, "blob 0");
    CHECK(!df_data_get(df, 1, &d, &sz, &e) && strstr(e.msg, "data 1"), "garbage unavailable: %s", e.msg);
    CHECK(!df_data_get(df, 2, &d, &sz, &e) && strstr(e.msg, "size is 0"), "declared 0 unavailable: %s", e.msg);
    CHECK(df_write(df, DF_WRITE_RECOMPRESS, &o, &on, &e), "write: %s", e.msg);
    f2 = build(4, "DATA", 0, items, 1, st, sn, decl, 3, &n2);
    CHECK(o && on == n2 && memcmp(o, f2, n2) == 0, "legacy header fixed, unavailable data kept as read");
    free(f2);
  }
  df_free(df);
  free(o);
  /* size field neither current nor legacy */
  put32(f + 8, 12345);
  CHECK(!df_parse(f, n, &df2, &e) && strstr(e.msg, "byte offset 8"), "bad size rejected: %s", e.msg);
  df_free(df2);
  free(f);
  free(good);
}

/* Duplicate UUID-index items vanish; two UUID types are renumbered by
** first use (DDNet's writer), payloads follow their UUID. */
static void test_uuid_items(void) {
  static const int32_t uA[] = {0x11111111, 0x22222222, 0x33333333, 0x44444444};
  static const int32_t uB[] = {0x55555555, 0x66666666, 0x77777777, 0x01010101};
  static const int32_t pa[] = {100}, pb[] = {200}, v[] = {1};
  /* File: type 0 item, type 0xFFFD (B) item, type 0xFFFE (A) item, index
  ** items: 0xFFFE->A, 0xFFFE->A (duplicate), 0xFFFD->B. */
  syn_item items[] = {{0, 0, v, 1},       {0xFFFD, 0, pb, 1},  {0xFFFE, 0, pa, 1},
                      {0xFFFF, 0xFFFE, uA, 4}, {0xFFFF, 0xFFFE, uA, 4}, {0xFFFF, 0xFFFD, uB, 4}};
  size_t n, on;
  unsigned char *f = build(4, "DATA", 0, items, 6, NULL, NULL, NULL, 0, &n), *o = NULL;
  datafile *df = NULL, *df2 = NULL;
  codec_error e;
  unsigned char ua[16];
  int k;
  for (k = 0; k < 16; k++) ua[k] = (unsigned char)((uint32_t)uA[k / 4] >> (24 - 8 * (k % 4)));
  CHECK(df_parse(f, n, &df, &e), "uuid parse: %s", e.msg);
  if (df) {
    CHECK(df_find_uuid_type(df, ua) == 0xFFFE, "uuid A type");
    CHECK(df_write(df, 0, &o, &on, &e), "write: %s", e.msg);
    CHECK(o && df_parse(o, on, &df2, &e), "reparse: %s", e.msg);
    if (df2) {
      long ta = df_find_uuid_type(df2, ua);
      CHECK(df_type_count(df2, DF_ITEMTYPE_EX) == 2, "duplicate index item dropped (%zu)",
            df_type_count(df2, DF_ITEMTYPE_EX));
      /* B is met first (type 0xFFFD sorts first), so it gets 0xFFFE. */
      CHECK(ta == 0xFFFD, "A renumbered to 0xFFFD (%ld)", ta);
      CHECK(ta >= 0 && df2->items[df_type_nth(df2, (uint32_t)ta, 0)].ints[0] == 100, "A payload follows its uuid");
      CHECK(df_type_nth(df2, 0xFFFE, 0) >= 0 && df2->items[df_type_nth(df2, 0xFFFE, 0)].ints[0] == 200,
            "B payload at 0xFFFE");
    }
  }
  df_free(df);
  df_free(df2);
  free(o);
  free(f);
}

/* A blob claiming gigabytes is refused before allocating. */
static void test_zlib_bomb(void) {
  static const int32_t a[] = {1};
  syn_item items[] = {{0, 0, a, 1}};
  size_t cn, n, sz;
  unsigned char *z = zc("aaaaaaaaaaaaaaaa", 16, &cn);
  const unsigned char *st[] = {z, z};
  size_t sn[] = {cn, cn};
  uint32_t decl[] = {0x7FFFFFF0u, 200u * 1024u * 1024u};
  unsigned char *f = build(4, "DATA", 0, items, 1, st, sn, decl, 2, &n);
  datafile *df = NULL;
  codec_error e;
  const unsigned char *d;
  CHECK(df_parse(f, n, &df, &e), "bomb container parses: %s", e.msg);
  if (df) {
    CHECK(!df_data_get(df, 0, &d, &sz, &e) && strstr(e.msg, "exceeds the limit"), "2 GB claim refused: %s", e.msg);
    CHECK(!df_data_get(df, 1, &d, &sz, &e) && strstr(e.msg, "impossible"), "200 MB from %zu bytes refused: %s", cn,
          e.msg);
    CHECK(df->data[0].raw == NULL && df->data[1].raw == NULL, "nothing allocated");
    /* Regression (fuzz_datafile): recompressing must keep refused blobs as
    ** stored instead of failing the whole write. */
    {
      unsigned char *o = NULL;
      size_t on;
      datafile *df2 = NULL;
      CHECK(df_write(df, DF_WRITE_RECOMPRESS, &o, &on, &e), "write with refused blobs: %s", e.msg);
      CHECK(o && on == n && memcmp(o, f, n) == 0, "refused blobs written back as read");
      CHECK(o && df_parse(o, on, &df2, &e) && df_data_size(df2, 0) == 0x7FFFFFF0u, "declared size kept");
      df_free(df2);
      free(o);
    }
  }
  df_free(df);
  free(f);
  free(z);
}

/* Builds a file through the API (df_new, add) and reads it back. */
static void test_build_api(void) {
  datafile *df = df_new(), *df2 = NULL;
  static const int32_t x[] = {3, 4};
  unsigned char *o = NULL;
  size_t on, sz;
  codec_error e;
  const unsigned char *d;
  CHECK(df_item_add(df, 6, 0, x, 2) == 0 && df_item_add(df, 1, 0, x, 1) == 1 && df_item_add(df, 6, 1, NULL, 0) == 2,
        "items added");
  CHECK(df_data_add(df, (const unsigned char *)"abc", 4) == 0, "data added");
  CHECK(df_write(df, 0, &o, &on, &e), "write: %s", e.msg);
  CHECK(o && df_parse(o, on, &df2, &e), "reparse: %s", e.msg);
  if (df2) {
    CHECK(df2->num_items == 3 && df2->items[0].type == 1 && df2->items[1].type == 6 && df2->items[2].id == 1,
          "types sorted, insertion order within a type");
    CHECK(df2->items[2].num_ints == 0, "empty item kept");
    CHECK(df_data_get(df2, 0, &d, &sz, &e) && sz == 4 && strcmp((const char *)d, "abc") == 0, "blob");
  }
  df_free(df);
  df_free(df2);
  free(o);
}

/* ---- corpus ------------------------------------------------------------------- */

static char tmpdir[64];

/* Truncations at many offsets must fail; flipped bytes must never crash,
** and when the container still parses, every blob is touched and the result
** written and re-read. */
static void corrupt_one(const char *name, const unsigned char *buf, size_t n) {
  size_t k, cut, step = n / 24 + 1;
  unsigned char *c = (unsigned char *)malloc(n);
  int trunc_ok = 1, flips = 0, rewrite_ok = 1;
  codec_error e;
  for (cut = 0; cut < n; cut += step) {
    datafile *df = NULL;
    if (df_parse(buf, cut, &df, &e)) trunc_ok = 0;
    df_free(df);
  }
  {
    datafile *df = NULL;
    if (df_parse(buf, n - 1, &df, &e)) trunc_ok = 0;
    df_free(df);
  }
  CHECK(trunc_ok, "%s: every truncation is an error", name);
  for (k = 0; k < 40; k++) {
    size_t pos = (k < 20) ? (k * 7919u) % (n < 400 ? n : 400) : (k * 104729u) % n;
    datafile *df = NULL;
    memcpy(c, buf, n);
    c[pos] ^= (unsigned char)(0x5A + k);
    if (df_parse(c, n, &df, &e)) {
      size_t i, sz, on;
      const unsigned char *d;
      unsigned char *o = NULL;
      /* Inflating every blob of the big maps 40 times is slow; small maps
      ** are enough to exercise the data paths. */
      if (n < 100000)
        for (i = 0; i < df->num_data; i++) df_data_get(df, i, &d, &sz, &e);
      if (df_write(df, n < 100000 ? DF_WRITE_RECOMPRESS : 0, &o, &on, &e)) {
        datafile *df2 = NULL;
        if (!df_parse(o, on, &df2, &e)) rewrite_ok = 0;
        df_free(df2);
      }
      free(o);
    } else {
      flips++;
    }
    df_free(df);
  }
  CHECK(rewrite_ok, "%s: flipped files that parse re-read after writing", name);
  (void)flips;
  free(c);
}

static void test_corpus(void) {
  const char *corpus = check_corpus_dir();
  char dir[1024], path[2048], out[2048];
  char *names[256];
  size_t nn = 0, i;
  int have_resave = access(DDNET_TOOLS "/map_resave", X_OK) == 0;
  check_loop maps = {0, 0, 0}, damage = {0, 0, 0};
  if (!corpus) {
    SKIP("LEVELSQL_CORPUS unset: corpus tests");
    return;
  }
  {
    int found = ddnet_corpus_maps(corpus, dir, sizeof dir, names, 256);
    if (found < 0) {
      SKIP("%s missing", dir);
      return;
    }
    nn = (size_t)found;
  }
  CHECK(nn >= 10, "corpus has %zu maps", nn);
  if (have_resave) {
    strcpy(tmpdir, "/tmp/levelsql_df_XXXXXX");
    have_resave = ddnet_workspace_open(tmpdir);
  }
  if (!have_resave) SKIP("map_resave not installed: byte identity with DDNet");
  for (i = 0; i < nn; i++) {
    size_t n = 0, rn = 0, on = 0;
    unsigned char *buf, *ref = NULL, *o = NULL;
    datafile *df = NULL;
    codec_error e;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    buf = file_read_all(path, &n);
    check_loop_enter(&maps);
    maps.inputs++;
    CHECK(buf != NULL, "read %s", path);
    if (!buf) continue;
    CHECK(df_parse(buf, n, &df, &e), "%s: %s", names[i], e.msg);
    if (df && have_resave) {
      snprintf(out, sizeof out, "%s/%s", tmpdir, names[i]);
      CHECK(ddnet_run(tmpdir, "map_resave", path, names[i], NULL) == 0, "map_resave %s", names[i]);
      ref = file_read_all(out, &rn);
      CHECK(df_write(df, DF_WRITE_RECOMPRESS, &o, &on, &e), "%s: write: %s", names[i], e.msg);
      CHECK(ref && o && on == rn && memcmp(o, ref, rn) == 0, "%s: recompressed output identical to map_resave (%zu vs %zu)",
            names[i], on, rn);
      free(o);
      o = NULL;
      CHECK(df_write(df, 0, &o, &on, &e), "%s: write: %s", names[i], e.msg);
      CHECK(ref && o && on == rn && memcmp(o, ref, rn) == 0, "%s: kept-blob output identical to map_resave", names[i]);
      unlink(out);
    }
    check_loop_enter(&damage);
    damage.inputs++;
    corrupt_one(names[i], buf, n);
    check_loop_leave();
    free(o);
    free(ref);
    df_free(df);
    free(buf);
    free(names[i]);
  }
  check_loop_leave();
  check_loop_done(&maps, "every corpus map parses%s", have_resave ? " and is written as map_resave writes it" : "");
  check_loop_done(&damage, "truncations and flipped bytes of every corpus map");
  if (have_resave) ddnet_workspace_close(tmpdir);
}

int main(void) {
  test_v3_and_atad();
  test_legacy_and_unavailable();
  test_recompress_matches_compress2();
  test_uuid_items();
  test_zlib_bomb();
  test_build_api();
  test_corpus();
  return check_done();
}
