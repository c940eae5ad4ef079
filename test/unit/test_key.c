/*
** test_key.c: the KEY V1 / BIFF V1 / BIF V1.0 / BIFC V1.0 reader
** (codecs/key).  No real archive is in ../shared/corpus, so the test builds
** a small game itself (key_writer.h): a chitin.key over one archive that
** holds resources of several types, one with a file index above 4095, and
** two tilesets; the archive is also written as a BIF V1.0 and a BIFC V1.0.
** Checked: the key's tables and lookups, the locator bit split, extraction
** identical across the three containers, tilesets with the added TIS
** header, the index read alone, and hostile input (truncations, offsets and
** counts past the end or overflowing, huge claimed sizes, a zlib bomb,
** locators naming missing entries, mutations), each a clear error.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "key/biff.h"
#include "key/key.h"
#include "key_writer.h"

#define TILE_PAL 5120u /* a palette tile: 256 colours + 64 x 64 indices */
#define TILE_PVRZ 12u  /* a TIS V2 tile: page, x, y */

/* The test game. */
typedef struct game {
  unsigned char are[300], wed[200], tda[64], itm[50], wed2[40];
  unsigned char tiles1[2 * TILE_PAL], tiles2[4 * TILE_PVRZ];
  unsigned char *key, *biff, *bif, *bifc;
  size_t key_size, biff_size, bif_size, bifc_size;
} game;

/* The resources of the key: name, type, locator (biff, tileset, file). */
static const struct {
  const char *resref;
  uint16_t type;
  uint32_t biff, tileset, file;
} key_res[] = {
    {"AR0100", KEY_TYPE_ARE, 0, 0, 0},    {"AR0100", KEY_TYPE_WED, 0, 0, 1},   {"SPELLS", KEY_TYPE_2DA, 0, 0, 2},
    {"BIGIDX", KEY_TYPE_ITM, 0, 0, 5000}, {"LONGNAME", KEY_TYPE_WED, 0, 0, 3}, {"AR0100", KEY_TYPE_TIS, 0, 1, 0},
    {"AR0200", KEY_TYPE_TIS, 0, 2, 0},    {"MISSING", KEY_TYPE_ARE, 0, 0, 77}, {"BADBIF", KEY_TYPE_ARE, 9, 0, 0},
    {"NOTILES", KEY_TYPE_TIS, 0, 5, 0},
};
#define NUM_KEY_RES (sizeof key_res / sizeof key_res[0])
#define RES_MISSING 7
#define RES_BADBIF 8
#define RES_NOTILES 9

static void fill(unsigned char *p, size_t n, unsigned seed) {
  size_t i;
  for (i = 0; i < n; i++)
    p[i] = (unsigned char)(seed * 31u + i * 7u + (i >> 5));
}

static int build_game(game *g) {
  kw_file files[5];
  kw_tileset tilesets[2];
  kw_biff biffs[2] = {{"data\\AREAS.bif", 0, KEY_LOC_DATA}, {"data\\MISC.bif", 1234, KEY_LOC_DATA | KEY_LOC_CD1}};
  kw_res res[NUM_KEY_RES];
  size_t i;
  memset(g, 0, sizeof *g);
  fill(g->are, sizeof g->are, 1);
  memcpy(g->are, "AREAV1.0", 8);
  fill(g->wed, sizeof g->wed, 2);
  memcpy(g->wed, "WED V1.3", 8);
  fill(g->tda, sizeof g->tda, 3);
  fill(g->itm, sizeof g->itm, 4);
  fill(g->wed2, sizeof g->wed2, 5);
  fill(g->tiles1, sizeof g->tiles1, 6);
  fill(g->tiles2, sizeof g->tiles2, 7);
  files[0] = (kw_file){0, KEY_TYPE_ARE, g->are, sizeof g->are};
  files[1] = (kw_file){1, KEY_TYPE_WED, g->wed, sizeof g->wed};
  files[2] = (kw_file){2, KEY_TYPE_2DA, g->tda, sizeof g->tda};
  files[3] = (kw_file){5000, KEY_TYPE_ITM, g->itm, sizeof g->itm}; /* out of order, above 4095 */
  files[4] = (kw_file){3, KEY_TYPE_WED, g->wed2, sizeof g->wed2};
  tilesets[0] = (kw_tileset){1, 2, TILE_PAL, g->tiles1};
  tilesets[1] = (kw_tileset){2, 4, TILE_PVRZ, g->tiles2};
  g->biff = kw_biff_build(files, 5, tilesets, 2, &g->biff_size);
  if (!g->biff) return 0;
  biffs[0].file_length = (uint32_t)g->biff_size;
  for (i = 0; i < NUM_KEY_RES; i++)
    res[i] = (kw_res){key_res[i].resref, key_res[i].type,
                      key_locator_make(key_res[i].biff, key_res[i].tileset, key_res[i].file)};
  g->key = kw_key_build(biffs, 2, res, NUM_KEY_RES, &g->key_size);
  g->bif = kw_bif_build(g->biff, g->biff_size, "AREAS.BIF", &g->bif_size);
  g->bifc = kw_bifc_build(g->biff, g->biff_size, 4096, &g->bifc_size); /* several blocks */
  return g->key && g->bif && g->bifc;
}

static void free_game(game *g) {
  free(g->key);
  free(g->biff);
  free(g->bif);
  free(g->bifc);
}

/* The bytes resource i of key_res should extract to (tilesets: headerless). */
static const unsigned char *expected(const game *g, size_t i, size_t *n) {
  static const size_t sizes[7] = {300, 200, 64, 50, 40, 2 * TILE_PAL, 4 * TILE_PVRZ};
  const unsigned char *p[7] = {g->are, g->wed, g->tda, g->itm, g->wed2, g->tiles1, g->tiles2};
  if (i >= 7) return NULL;
  *n = sizes[i];
  return p[i];
}

/* ---- the key ------------------------------------------------------------------ */

static void test_key_tables(const game *g) {
  key_file *k = NULL;
  codec_error err = {0};
  uint32_t idx = 99;
  char buf[64];
  size_t i;
  REQUIRE(key_parse(g->key, g->key_size, NULL, &k, &err), "key parses: %s", err.msg);
  if (!k) return;
  CHECK(key_sniff(g->key, g->key_size) && !key_sniff(g->biff, g->biff_size), "key_sniff");
  CHECK(k->num_biffs == 2 && k->num_resources == NUM_KEY_RES, "counts %u %u", k->num_biffs, k->num_resources);
  CHECK(strcmp(k->biffs[0].name, "data\\AREAS.bif") == 0, "BIFF name as given: %s", k->biffs[0].name);
  CHECK(k->biffs[0].name_length == 15, "name length counts the NUL: %u", k->biffs[0].name_length);
  CHECK(k->biffs[0].file_length == g->biff_size && k->biffs[1].location == (KEY_LOC_DATA | KEY_LOC_CD1),
        "BIFF length and location");
  CHECK(key_biff_path(&k->biffs[1], buf, sizeof buf) == 13 && strcmp(buf, "data/MISC.bif") == 0, "path: %s", buf);
  CHECK(key_biff_path(&k->biffs[1], buf, 6) == 13 && strcmp(buf, "data/") == 0, "path cut to the buffer: %s", buf);
  CHECK(key_lookup(k, "ar0100", KEY_TYPE_ARE, &idx) && idx == 0, "lookup without case: %u", idx);
  CHECK(key_lookup(k, "AR0100", KEY_TYPE_WED, &idx) && idx == 1, "lookup by type: %u", idx);
  CHECK(key_lookup(k, "Ar0100", KEY_TYPE_TIS, &idx) && idx == 5, "lookup of a tileset: %u", idx);
  CHECK(key_lookup(k, "longname", KEY_TYPE_WED, &idx) && idx == 4, "an 8-byte resref: %u", idx);
  CHECK(!key_lookup(k, "AR0100", KEY_TYPE_BMP, &idx) && !key_lookup(k, "AR010", KEY_TYPE_ARE, &idx) &&
            !key_lookup(k, "ZZZ", KEY_TYPE_ARE, &idx) && !key_lookup(k, "", KEY_TYPE_ARE, &idx) &&
            !key_lookup(k, "LONGNAMES", KEY_TYPE_WED, &idx),
        "absent resources are not found");
  for (i = 0; i < NUM_KEY_RES; i++) {
    const key_resource *r = &k->resources[i];
    CHECK(strcmp(r->resref, key_res[i].resref) == 0 && r->type == key_res[i].type, "resource %zu", i);
    CHECK(key_locator_biff(r->locator) == key_res[i].biff && key_locator_tileset(r->locator) == key_res[i].tileset &&
              key_locator_file(r->locator) == key_res[i].file,
          "resource %zu: locator 0x%08x split", i, r->locator);
  }
  CHECK(key_locator_file(k->resources[3].locator) == 5000, "a file index above 4095 (14 bits)");
  key_resource_name(&k->resources[5], buf, sizeof buf);
  CHECK(strcmp(buf, "AR0100.TIS") == 0, "resource name %s", buf);
  {
    key_resource r = k->resources[0];
    r.type = 0x7777;
    key_resource_name(&r, buf, sizeof buf);
    CHECK(strcmp(buf, "AR0100.0x7777") == 0, "unknown type name %s", buf);
  }
  {
    const key_biff *b = NULL;
    codec_error e = {0};
    CHECK(key_resource_biff(k, 0, &b, &e) && b == &k->biffs[0], "resource 0 lives in BIFF 0");
    CHECK(!key_resource_biff(k, RES_BADBIF, &b, &e) && e.code == CODEC_E_FORMAT && strstr(e.msg, "BADBIF.ARE") &&
              strstr(e.msg, "BIFF index 9"),
          "a locator naming a missing BIFF: %s", e.msg);
    CHECK(!key_resource_biff(k, 1000, &b, &e) && e.code == CODEC_E_ARG, "no such resource: %s", e.msg);
  }
  key_free(k);
}

static void test_types_and_locators(void) {
  uint16_t t = 0;
  uint32_t loc = key_locator_make(0xABC, 0x2A, 0x3FFF);
  CHECK(strcmp(key_type_ext(0x3eb), "TIS") == 0 && strcmp(key_type_ext(0x3f2), "ARE") == 0 &&
            strcmp(key_type_ext(0x3e9), "WED") == 0 && strcmp(key_type_ext(0x404), "PVRZ") == 0 &&
            key_type_ext(0x7777) == NULL,
        "type extensions");
  CHECK(key_type_from_ext("are", &t) && t == 0x3f2 && key_type_from_ext("PVRZ", &t) && t == 0x404 &&
            !key_type_from_ext("PVR", &t) && !key_type_from_ext("ARES", &t),
        "extensions to types");
  CHECK(loc == 0xABCABFFFu && key_locator_biff(loc) == 0xABC && key_locator_tileset(loc) == 0x2A &&
            key_locator_file(loc) == 0x3FFF,
        "locator 0x%08x: bits 31-20, 19-14, 13-0", loc);
}

/* ---- the archives -------------------------------------------------------------- */

/* Every resource of the key extracted from archive a equals its bytes. */
static void check_extracts(const game *g, const biff_archive *a, const char *what) {
  size_t i;
  for (i = 0; i < 7; i++) {
    size_t n = 0, want = 0;
    unsigned char *out = NULL;
    biff_resource r;
    codec_error err = {0};
    const unsigned char *exp = expected(g, i, &want);
    uint32_t loc = key_locator_make(key_res[i].biff, key_res[i].tileset, key_res[i].file);
    CHECK(biff_extract(a, loc, NULL, &out, &n, &r, &err) && n == want && memcmp(out, exp, n) == 0,
          "%s: %s.%s extracts as written: %s", what, key_res[i].resref, key_type_ext(key_res[i].type), err.msg);
    CHECK(r.type == key_res[i].type && r.is_tileset == (key_res[i].tileset != 0), "%s: resource %zu's entry", what, i);
    free(out);
  }
}

static void check_tilesets(const game *g, const biff_archive *a, const char *what) {
  unsigned char *tis = NULL, *wrapped = NULL;
  size_t n = 0, m = 0;
  biff_resource r;
  codec_error err = {0};
  CHECK(biff_find(a, key_locator_make(0, 1, 0), &r, &err) && r.is_tileset && r.tile_count == 2 &&
            r.tile_size == TILE_PAL && r.size == 2 * TILE_PAL,
        "%s: tileset 1: 2 tiles of 5120 bytes", what);
  CHECK(biff_extract_tis(a, key_locator_make(0, 1, 0), NULL, &tis, &n, &err) && n == TIS_HEADER_SIZE + 2 * TILE_PAL,
        "%s: tileset 1 as a TIS: %s", what, err.msg);
  if (tis) {
    CHECK(memcmp(tis, "TIS V1  ", 8) == 0 && le32_load(tis + 8) == 2 && le32_load(tis + 12) == TILE_PAL &&
              le32_load(tis + 16) == 24 && le32_load(tis + 20) == 64 &&
              memcmp(tis + TIS_HEADER_SIZE, g->tiles1, 2 * TILE_PAL) == 0,
          "%s: TIS header (count, tile size, 24, 64) and tiles", what);
    CHECK(biff_tis_wrap(g->tiles1, sizeof g->tiles1, 2, TILE_PAL, &wrapped, &m, &err) && m == n &&
              memcmp(wrapped, tis, n) == 0,
          "%s: biff_tis_wrap gives the same file", what);
  }
  free(tis);
  free(wrapped);
  tis = NULL;
  CHECK(biff_extract_tis(a, key_locator_make(0, 2, 0), NULL, &tis, &n, &err) && n == TIS_HEADER_SIZE + 4 * TILE_PVRZ &&
            le32_load(tis + 8) == 4 && le32_load(tis + 12) == TILE_PVRZ,
        "%s: tileset 2 (PVRZ tiles) as a TIS", what);
  free(tis);
  tis = NULL;
  CHECK(!biff_extract_tis(a, key_locator_make(0, 0, 1), NULL, &tis, &n, &err) && err.code == CODEC_E_ARG && !tis,
        "%s: a file entry is no tileset: %s", what, err.msg);
}

/* Locators naming no entry: a clear error, nothing returned. */
static void check_missing(const biff_archive *a, const char *what) {
  unsigned char *out = NULL;
  size_t n = 0;
  codec_error err = {0};
  CHECK(!biff_extract(a, key_locator_make(0, 0, 77), NULL, &out, &n, NULL, &err) && !out &&
            err.code == CODEC_E_FORMAT && strstr(err.msg, "no file entry with file index 77"),
        "%s: missing file entry: %s", what, err.msg);
  CHECK(!biff_extract(a, key_locator_make(0, 5, 0), NULL, &out, &n, NULL, &err) && !out &&
            strstr(err.msg, "no tileset entry with tileset index 5"),
        "%s: missing tileset: %s", what, err.msg);
  CHECK(!biff_extract(a, key_locator_make(0, 0, 5000 + 4096), NULL, &out, &n, NULL, &err) && !out,
        "%s: file index 9096 is not 5000 (14 bits compared): %s", what, err.msg);
}

static void test_archives(const game *g) {
  const struct {
    const unsigned char *data;
    size_t size;
    int kind;
    const char *what;
  } c[3] = {{g->biff, g->biff_size, BIFF_CONTAINER_BIFF, "BIFF V1"},
            {g->bif, g->bif_size, BIFF_CONTAINER_BIF, "BIF V1.0"},
            {g->bifc, g->bifc_size, BIFF_CONTAINER_BIFC, "BIFC V1.0"}};
  size_t i;
  for (i = 0; i < 3; i++) {
    biff_archive *a = NULL;
    codec_error err = {0};
    CHECK(biff_sniff(c[i].data, c[i].size) == c[i].kind, "%s: sniffed", c[i].what);
    REQUIRE(biff_open(c[i].data, c[i].size, 0, NULL, &a, &err), "%s opens: %s", c[i].what, err.msg);
    if (!a) continue;
    CHECK(a->container == c[i].kind && a->num_files == 5 && a->num_tilesets == 2 && a->size == g->biff_size,
          "%s: container, entries, size", c[i].what);
    CHECK(i != 0 || a->data == g->biff, "a plain BIFF is read in place");
    CHECK(i != 1 || (a->bif_name && strcmp(a->bif_name, "AREAS.BIF") == 0), "BIF V1.0: the stored name");
    CHECK(i == 0 || memcmp(a->data, g->biff, g->biff_size) == 0, "%s inflates to the BIFF", c[i].what);
    check_extracts(g, a, c[i].what);
    check_tilesets(g, a, c[i].what);
    check_missing(a, c[i].what);
    biff_free(a);
  }
}

/* The index read alone, from the first biff_index_span bytes. */
static void test_index_alone(const game *g) {
  uint64_t span = 0;
  biff_archive *a = NULL;
  biff_resource r;
  codec_error err = {0};
  unsigned char *out = NULL;
  size_t n = 0, i;
  CHECK(biff_index_span(g->biff, BIFF_HEADER_SIZE, &span, &err) &&
            span == BIFF_HEADER_SIZE + 5 * BIFF_FILE_ENTRY_SIZE + 2 * BIFF_TILESET_ENTRY_SIZE,
        "index span %llu", (unsigned long long)span);
  REQUIRE(biff_index_parse(g->biff, (size_t)span, g->biff_size, NULL, &a, &err), "index alone: %s", err.msg);
  if (!a) return;
  for (i = 0; i < 7; i++) {
    size_t want = 0;
    const unsigned char *exp = expected(g, i, &want);
    uint32_t loc = key_locator_make(0, key_res[i].tileset, key_res[i].file);
    CHECK(biff_find(a, loc, &r, &err) && r.size == want && memcmp(g->biff + r.offset, exp, want) == 0,
          "index alone: resource %zu read at its offset", i);
  }
  CHECK(!biff_extract(a, key_locator_make(0, 0, 1), NULL, &out, &n, NULL, &err) && err.code == CODEC_E_ARG,
        "index alone has no bytes to copy: %s", err.msg);
  biff_free(a);
  /* the same index against a smaller file: the resources past its end are refused */
  REQUIRE(biff_index_parse(g->biff, (size_t)span, span + 10, NULL, &a, &err), "index, short file");
  if (a) {
    CHECK(!biff_find(a, key_locator_make(0, 0, 1), &r, &err) && strstr(err.msg, "file entry 1 (locator 0x00000001)") &&
              strstr(err.msg, "run past the end"),
          "a resource past the end of its BIFF: %s", err.msg);
    biff_free(a);
  }
}

/* Reads len bytes at offset of the BIFF V1 a compressed archive holds. */
typedef int (*range_reader)(const void *ctx, const game *g, uint64_t offset, size_t len, unsigned char *dst,
                            codec_error *err);

static int read_bifc(const void *ctx, const game *g, uint64_t offset, size_t len, unsigned char *dst,
                     codec_error *err) {
  return bifc_read((const bifc_map *)ctx, g->bifc, g->bifc_size, offset, len, NULL, dst, err);
}

static int read_bif(const void *ctx, const game *g, uint64_t offset, size_t len, unsigned char *dst, codec_error *err) {
  (void)ctx;
  return bif_read(g->bif, g->bif_size, offset, len, NULL, dst, err);
}

/* A BIFC range read the engine's way: the slice of its blocks
** (bifc_map_slice), given only those blocks' compressed bytes
** (bifc_read_at). */
static int read_bifc_slice(const void *ctx, const game *g, uint64_t offset, size_t len, unsigned char *dst,
                           codec_error *err) {
  bifc_map *slice = NULL;
  uint64_t lo, hi;
  int ok;
  if (!bifc_map_slice((const bifc_map *)ctx, offset, len, &slice, err)) return 0;
  if (!slice->num_blocks) {
    bifc_map_free(slice);
    return 1; /* (len 0) */
  }
  lo = slice->blocks[0].in_offset;
  hi = slice->blocks[slice->num_blocks - 1].in_offset + slice->blocks[slice->num_blocks - 1].in_size;
  ok = bifc_read_at(slice, g->bifc + lo, lo, (size_t)(hi - lo), offset, len, NULL, dst, err);
  bifc_map_free(slice);
  return ok;
}

/* biff_reader over the test's bytes, counting what it is asked for. */
typedef struct counting_file {
  const unsigned char *data;
  size_t asked;
} counting_file;

static int counting_read(void *ctx, uint64_t offset, unsigned char *dst, size_t n, codec_error *err) {
  counting_file *f = (counting_file *)ctx;
  (void)err;
  memcpy(dst, f->data + offset, n);
  f->asked += n;
  return 1;
}

/* An archive read in part: the header, the entry tables, then one resource
** at a time, each range read by `read`. */
static void check_in_part(const game *g, const char *what, range_reader read, const void *ctx) {
  biff_archive *a = NULL;
  codec_error err = {0};
  unsigned char head[BIFF_HEADER_SIZE], *index = NULL, *buf = NULL;
  uint64_t span = 0;
  size_t i;
  REQUIRE(read(ctx, g, 0, sizeof head, head, &err) && biff_index_span(head, sizeof head, &span, &err) &&
              (index = (unsigned char *)malloc(span)) && read(ctx, g, 0, (size_t)span, index, &err) &&
              biff_index_parse(index, (size_t)span, g->biff_size, NULL, &a, &err),
          "%s: the index read in part: %s", what, err.msg);
  for (i = 0; a && i < 7; i++) {
    size_t want = 0;
    const unsigned char *exp = expected(g, i, &want);
    biff_resource r;
    buf = (unsigned char *)malloc(want);
    CHECK(buf && biff_find(a, key_locator_make(0, key_res[i].tileset, key_res[i].file), &r, &err) &&
              read(ctx, g, r.offset, (size_t)r.size, buf, &err) && memcmp(buf, exp, want) == 0,
          "%s in part: resource %zu (%zu bytes at %llu): %s", what, i, want, (unsigned long long)r.offset, err.msg);
    free(buf);
  }
  CHECK(!read(ctx, g, g->biff_size - 1, 2, head, &err) && err.code == CODEC_E_ARG, "%s in part: past the end: %s", what,
        err.msg);
  biff_free(a);
  free(index);
}

/* A BIFC read through its block map (only the blocks a range needs), a BIF
** V1.0 by inflating its stream up to a range's end. */
static void test_in_part(const game *g) {
  bifc_map *m = NULL;
  codec_error err = {0};
  unsigned char four[4];
  REQUIRE(bifc_map_parse(g->bifc, g->bifc_size, 0, NULL, &m, &err), "BIFC map: %s", err.msg);
  if (m) {
    CHECK(m->total == g->biff_size && m->num_blocks == (g->biff_size + 4095) / 4096 && m->blocks[1].out_offset == 4096,
          "BIFC map: %u blocks of 4096 bytes", m->num_blocks);
    check_in_part(g, "BIFC", read_bifc, m);
    check_in_part(g, "BIFC sliced", read_bifc_slice, m);
    CHECK(!bifc_read(m, g->bifc, 100, 0, 4, NULL, four, &err) && err.code == CODEC_E_ARG,
          "BIFC in part: a file shorter than its map: %s", err.msg);
    {
      /* a slice holds the blocks of its range only; bifc_read_at wants their bytes */
      bifc_map *slice = NULL;
      CHECK(bifc_map_slice(m, 4100, 10, &slice, &err) && slice->num_blocks == 1 && slice->blocks[0].out_offset == 4096 &&
                slice->total == m->total,
            "a slice of 10 bytes at 4100: block 1 alone: %s", err.msg);
      CHECK(slice && !bifc_read_at(slice, g->bifc, 0, g->bifc_size, 0, 4, NULL, four, &err) && err.code == CODEC_E_ARG,
            "a slice does not hold a range outside it: %s", err.msg);
      CHECK(slice && !bifc_read_at(slice, g->bifc, 12, 100, 4100, 4, NULL, four, &err) && err.code == CODEC_E_ARG &&
                strstr(err.msg, "outside the 100 bytes given"),
            "bifc_read_at refuses a block outside the bytes given: %s", err.msg);
      bifc_map_free(slice);
      CHECK(!bifc_map_slice(m, m->total - 2, 4, &slice, &err) && !slice && err.code == CODEC_E_ARG,
            "a slice past the end: %s", err.msg);
    }
    {
      /* a map read through a reader: the block headers alone */
      counting_file f = {g->bifc, 0};
      biff_reader r = {counting_read, &f, g->bifc_size};
      bifc_map *read = NULL;
      CHECK(bifc_map_read(&r, 0, NULL, &read, &err) && read->num_blocks == m->num_blocks && read->total == m->total &&
                memcmp(read->blocks, m->blocks, sizeof *m->blocks * m->num_blocks) == 0 &&
                f.asked == BIFC_HEADER_SIZE + BIFC_BLOCK_HEADER_SIZE * 2 * (size_t)m->num_blocks,
            "bifc_map_read: the map of bifc_map_parse, from %zu bytes read (12 + 8 a block, twice): %s", f.asked, err.msg);
      bifc_map_free(read);
    }
    bifc_map_free(m);
  }
  {
    uint32_t inflated = 0;
    CHECK(bif_info(g->bif, g->bif_size, &inflated, &err) && inflated == g->biff_size, "bif_info: %u bytes inflated",
          (unsigned)inflated);
    CHECK(!bif_info(g->bifc, g->bifc_size, &inflated, &err) && strstr(err.msg, "not a BIF V1.0"), "bif_info of a BIFC: %s",
          err.msg);
  }
  check_in_part(g, "BIF V1.0", read_bif, NULL);
  CHECK(!bif_read(g->bif, g->bif_size - 1, 0, 4, NULL, four, &err) && strstr(err.msg, "compressed bytes claimed"),
        "BIF in part: a truncated file: %s", err.msg);
  CHECK(!bifc_map_parse(g->bif, g->bif_size, 0, NULL, &m, &err) && !m && strstr(err.msg, "not a BIFC"),
        "a BIF V1.0 has no block map: %s", err.msg);
  CHECK(!bif_read(g->bifc, g->bifc_size, 0, 4, NULL, four, &err) && strstr(err.msg, "not a BIF V1.0"),
        "a BIFC is no BIF V1.0: %s", err.msg);
  CHECK(!bifc_map_parse(g->bifc, g->bifc_size, 1000, NULL, &m, &err) && !m && err.code == CODEC_E_LIMIT,
        "BIFC map over the cap: %s", err.msg);
  CHECK(!bifc_map_parse(g->bifc, g->bifc_size - 1, 0, NULL, &m, &err) && !m && strstr(err.msg, "BIFC block 2"),
        "BIFC map of a truncated file: %s", err.msg);
}

/* ---- hostile input ---------------------------------------------------------------- */

/* Every prefix of every file: a clear error, or (a BIFF whose entries are
** whole) extraction that is refused or right. */
static void test_truncations(const game *g) {
  check_loop loop = {0, 0, 0};
  size_t n;
  check_loop_enter(&loop);
  for (n = 0; n < g->key_size; n++) {
    key_file *k = NULL;
    codec_error err = {0};
    loop.inputs++;
    CHECK(!key_parse(g->key, n, NULL, &k, &err) && !k && err.msg[0] && err.code == CODEC_E_FORMAT, "key cut at %zu: %s",
          n, err.msg);
  }
  for (n = 0; n < g->biff_size; n += n < 400 ? 1 : 97) {
    biff_archive *a = NULL;
    codec_error err = {0};
    size_t i;
    loop.inputs++;
    if (!biff_open(g->biff, n, 0, NULL, &a, &err)) {
      CHECK(err.msg[0] && !a, "BIFF cut at %zu refused with a message", n);
      continue;
    }
    for (i = 0; i < 7; i++) {
      unsigned char *out = NULL;
      size_t m = 0, want = 0;
      const unsigned char *exp = expected(g, i, &want);
      if (biff_extract(a, key_locator_make(0, key_res[i].tileset, key_res[i].file), NULL, &out, &m, NULL, &err))
        CHECK(m == want && memcmp(out, exp, m) == 0, "BIFF cut at %zu: resource %zu right", n, i);
      else
        CHECK(strstr(err.msg, "run past the end") != NULL, "BIFF cut at %zu: resource %zu: %s", n, i, err.msg);
      free(out);
    }
    biff_free(a);
  }
  for (n = 0; n < g->bif_size + g->bifc_size; n += 3) {
    int is_bif = n < g->bif_size;
    biff_archive *a = NULL;
    codec_error err = {0};
    loop.inputs++;
    CHECK(!biff_open(is_bif ? g->bif : g->bifc, is_bif ? n : n - g->bif_size, 0, NULL, &a, &err) && !a && err.msg[0],
          "%s cut at %zu refused", is_bif ? "BIF" : "BIFC", is_bif ? n : n - g->bif_size);
  }
  check_loop_leave();
  check_loop_done(&loop, "truncated keys and archives");
}

/* A copy of data with a dword stored at `at`. */
static unsigned char *patched(const unsigned char *data, size_t size, size_t at, uint32_t v) {
  unsigned char *p = (unsigned char *)malloc(size);
  if (!p) return NULL;
  memcpy(p, data, size);
  le32_store(p + at, v);
  return p;
}

/* Key fields past the end or overflowing. */
static void test_hostile_key(const game *g) {
  static const struct {
    size_t at;
    uint32_t v;
    int code;
    const char *msg;
  } cases[] = {
      {12, 0xFFFFFFFFu, CODEC_E_LIMIT, "resource entries, more than"},
      {8, 5000, CODEC_E_LIMIT, "BIFF entries, more than"},
      {12, 1000, CODEC_E_FORMAT, "resource entries: byte offset"},
      {20, 0xFFFFFFF0u, CODEC_E_FORMAT, "run past the end"},
      {16, 0xFFFFFFFFu, CODEC_E_FORMAT, "BIFF entries: byte offset 4294967295"},
      {KEY_HEADER_SIZE + 4, 0xFFFFFFFFu, CODEC_E_FORMAT, "BIFF entry 0: byte offset 24: its name"},
      {KEY_HEADER_SIZE + 8, 0xFFFFu, CODEC_E_FORMAT, "BIFF entry 0: byte offset 24: its name (65535 bytes"},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    unsigned char *p = patched(g->key, g->key_size, cases[i].at, cases[i].v);
    key_file *k = NULL;
    codec_error err = {0};
    if (cases[i].at == KEY_HEADER_SIZE + 8 && p)
      le16_store(p + cases[i].at, (uint16_t)cases[i].v), p[cases[i].at + 2] = 1;
    CHECK(p && !key_parse(p, g->key_size, NULL, &k, &err) && !k && err.code == cases[i].code &&
              strstr(err.msg, cases[i].msg),
          "key case %zu: %s", i, err.msg);
    free(p);
  }
  {
    key_file *k = NULL;
    codec_error err = {0};
    unsigned char bad[KEY_HEADER_SIZE];
    memcpy(bad, g->key, sizeof bad);
    memcpy(bad + 4, "V1.1", 4);
    CHECK(!key_parse(bad, sizeof bad, NULL, &k, &err) && strstr(err.msg, "version 'V1.1'"), "version: %s", err.msg);
    CHECK(!key_parse(g->biff, g->biff_size, NULL, &k, &err) && strstr(err.msg, "not a KEY"), "signature: %s", err.msg);
  }
}

/* BIFF fields past the end or overflowing. */
static void test_hostile_biff(const game *g) {
  static const struct {
    size_t at;
    uint32_t v;
    int at_open; /* refused by biff_open (else by the extraction of file 0 or tileset 1) */
    const char *msg;
  } cases[] = {
      {16, 0xFFFFFFF0u, 1, "file entries: byte offset 4294967280"},
      {8, 0x10000000u, 1, "file entries, more than"},
      {12, 0x00FFFFFFu, 1, "tileset entries, more than"},
      {8, 2000, 1, "2000 entries of 16 bytes run past the end"},
      {12, 3000, 1, "tileset entries: byte offset"},
      {BIFF_HEADER_SIZE + 4, 0xFFFFFFFFu, 0, "file entry 0 (locator 0x00000000)"},
      {BIFF_HEADER_SIZE + 8, 0xFFFFFFFFu, 0, "4294967295 bytes at offset"},
      {BIFF_HEADER_SIZE + 5 * 16 + 8, 0xFFFFFFFFu, 0, "tileset entry 0"},
      {BIFF_HEADER_SIZE + 5 * 16 + 12, 0xFFFFFFFFu, 0, "run past the end"},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    unsigned char *p = patched(g->biff, g->biff_size, cases[i].at, cases[i].v), *out = NULL;
    biff_archive *a = NULL;
    codec_error err = {0};
    size_t n = 0;
    int opened = p && biff_open(p, g->biff_size, 0, NULL, &a, &err);
    if (cases[i].at_open) {
      CHECK(!opened && !a && strstr(err.msg, cases[i].msg), "BIFF case %zu: %s", i, err.msg);
    } else {
      uint32_t loc = cases[i].at >= BIFF_HEADER_SIZE + 5 * 16 ? key_locator_make(0, 1, 0) : 0;
      CHECK(opened && !biff_extract(a, loc, NULL, &out, &n, NULL, &err) && !out && strstr(err.msg, cases[i].msg),
            "BIFF case %zu: %s", i, err.msg);
    }
    biff_free(a);
    free(p);
  }
}

static int always_cancel(void *ctx) {
  (void)ctx;
  return 1;
}

/* Fields of the compressed archives that lie (BIF V1.0 of "AREAS.BIF":
** the name at 12, the sizes at 22 and 26, the stream at 30). */
static const struct {
  int bifc;
  size_t at;
  uint32_t v;
  int code;
  const char *msg;
} lies[] = {
    {1, 8, 0xFFFFFFF0u, CODEC_E_FORMAT, "cannot inflate to the 4294967280 claimed"},    /* 4 GB in a few bytes */
    {1, BIFC_HEADER_SIZE, 0x7FFFFFFFu, CODEC_E_FORMAT, "BIFC block 0: byte offset 12"}, /* more than the whole */
    {1, BIFC_HEADER_SIZE + 4, 0xFFFFFFF0u, CODEC_E_FORMAT, "BIFC block 0"}, /* compressed bytes past the end */
    {0, 8, 0xFFFFFFFFu, CODEC_E_FORMAT, "BIF header: byte offset 8"},       /* name length past the end */
    {0, BIF_HEADER_SIZE + 10 + 4, 0xFFFFFFFFu, CODEC_E_FORMAT, "compressed bytes claimed"},
    {0, BIF_HEADER_SIZE + 10, 0xFFFFFFFFu, CODEC_E_FORMAT, "cannot inflate"},      /* a huge claim */
    {0, BIF_HEADER_SIZE + 10 + 8 + 4, 0xDEADBEEFu, CODEC_E_FORMAT, "zlib stream"}, /* corrupt */
};

/* Compressed archives that lie about their sizes, bombs, corruption. */
static void test_hostile_compressed(const game *g) {
  size_t big = (size_t)16 << 20, n = 0, m = 0;
  unsigned char *zeros = (unsigned char *)calloc(1, big), *bomb, *p;
  biff_archive *a = NULL;
  codec_error err = {0};
  codec_cancel stop = {always_cancel, NULL};
  size_t i;
  for (i = 0; i < sizeof lies / sizeof lies[0]; i++) {
    const unsigned char *src = lies[i].bifc ? g->bifc : g->bif;
    size_t size = lies[i].bifc ? g->bifc_size : g->bif_size;
    p = patched(src, size, lies[i].at, lies[i].v);
    CHECK(p && !biff_open(p, size, 0, NULL, &a, &err) && !a && err.code == lies[i].code && strstr(err.msg, lies[i].msg),
          "compressed case %zu: %s", i, err.msg);
    free(p);
  }
  /* a zlib bomb: 16 MiB of zeros in a few KB */
  if (!zeros) return;
  bomb = kw_bifc_build(zeros, big, big, &n);
  p = kw_bif_build(zeros, big, "BOMB.BIF", &m);
  REQUIRE(bomb && p && n < 40000, "bomb built (%zu bytes)", n);
  if (bomb && p) {
    /* honest about its size: refused by the cap, before anything is allocated */
    CHECK(!biff_open(bomb, n, (size_t)1 << 20, NULL, &a, &err) && err.code == CODEC_E_LIMIT &&
              strstr(err.msg, "more than the cap of 1048576"),
          "BIFC bomb over the cap: %s", err.msg);
    CHECK(!biff_open(p, m, (size_t)1 << 20, NULL, &a, &err) && err.code == CODEC_E_LIMIT, "BIF bomb over the cap: %s",
          err.msg);
    /* lying: claims 4 KB, holds 16 MiB; inflating stops at the claim */
    le32_store(bomb + 8, 4096);
    le32_store(bomb + BIFC_HEADER_SIZE, 4096);
    CHECK(!biff_open(bomb, n, 0, NULL, &a, &err) && strstr(err.msg, "holds more than the 4096 bytes claimed"),
          "BIFC lying bomb: %s", err.msg);
    le32_store(p + BIF_HEADER_SIZE + 9, 4096);
    CHECK(!biff_open(p, m, 0, NULL, &a, &err) && strstr(err.msg, "holds more than the 4096 bytes claimed"),
          "BIF lying bomb: %s", err.msg);
  }
  free(bomb);
  free(p);
  free(zeros);
  /* cancelled */
  CHECK(!biff_open(g->bifc, g->bifc_size, 0, &stop, &a, &err) && err.code == CODEC_E_INTERRUPT, "cancel: %s", err.msg);
  p = patched(g->bifc, g->bifc_size, 4, 0x312e3256u); /* "V2.1" */
  CHECK(p && !biff_open(p, g->bifc_size, 0, NULL, &a, &err) && strstr(err.msg, "BIFC version 'V2.1' is not V1.0"),
        "a BIFC of another version: %s", err.msg);
  free(p);
  CHECK(!biff_inflate(g->biff, g->biff_size, 0, NULL, &p, &n, NULL, &err) && err.code == CODEC_E_ARG,
        "a plain BIFF is not inflated: %s", err.msg);
}

/* Random byte changes in every file: parsed and extracted without a crash
** (the sanitizers watch), an extraction that succeeds is the right size. */
static void test_mutations(const game *g) {
  check_loop loop = {0, 0, 0};
  uint32_t seed = 20261129u;
  int round;
  const unsigned char *src[4] = {g->key, g->biff, g->bif, g->bifc};
  size_t sizes[4] = {g->key_size, g->biff_size, g->bif_size, g->bifc_size};
  check_loop_enter(&loop);
  for (round = 0; round < 2000; round++) {
    int f = round % 4, j;
    unsigned char *p = (unsigned char *)malloc(sizes[f]);
    codec_error err = {0};
    if (!p) break;
    memcpy(p, src[f], sizes[f]);
    for (j = 0; j < 1 + round % 5; j++) {
      seed = seed * 1103515245u + 12345u;
      p[(seed >> 8) % (f == 1 ? 200 : sizes[f])] ^= (unsigned char)(1u << (seed >> 28 & 7));
    }
    loop.inputs++;
    if (f == 0) {
      key_file *k = NULL;
      if (key_parse(p, sizes[f], NULL, &k, &err)) {
        uint32_t i, idx;
        for (i = 0; i < k->num_resources; i++)
          CHECK(key_lookup(k, k->resources[i].resref, k->resources[i].type, &idx), "every resource is found");
        key_free(k);
      } else {
        CHECK(err.msg[0], "a refused key has a message");
      }
    } else {
      biff_archive *a = NULL;
      if (biff_open(p, sizes[f], (size_t)1 << 20, NULL, &a, &err)) {
        uint32_t i;
        for (i = 0; i < a->num_files + a->num_tilesets; i++) {
          unsigned char *out = NULL;
          size_t n = 0;
          biff_resource r;
          uint32_t loc = i < a->num_files ? a->files[i].locator & 0x3FFFu : a->tilesets[i - a->num_files].locator;
          if (biff_extract(a, loc, NULL, &out, &n, &r, &err)) CHECK(n == r.size, "extracted size");
          free(out);
        }
        biff_free(a);
      } else {
        CHECK(err.msg[0], "a refused archive has a message");
      }
    }
    free(p);
  }
  check_loop_leave();
  check_loop_done(&loop, "mutated keys and archives");
}

int main(void) {
  game g;
  if (!build_game(&g)) {
    REQUIRE(0, "the test game is built");
    free_game(&g);
    return check_done();
  }
  test_types_and_locators();
  test_key_tables(&g);
  test_archives(&g);
  test_index_alone(&g);
  test_in_part(&g);
  test_truncations(&g);
  test_hostile_key(&g);
  test_hostile_biff(&g);
  test_hostile_compressed(&g);
  test_mutations(&g);
  free_game(&g);
  return check_done();
}
