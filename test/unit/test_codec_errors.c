/*
** test_codec_errors.c: the codes of codec_error.h, for every codec.
**
** - codec_error.h itself: codec_fail* set code and message, codec_prefix
**   keeps the inner code and cuts like a message, a NULL err is fine.
** - per codec, one failure of each kind it has: damaged bytes give
**   CODEC_E_FORMAT, a cap CODEC_E_LIMIT, a caller's bad value CODEC_E_ARG.
** - out of memory: this program is linked with ld's --wrap for malloc,
**   calloc and realloc (see the Makefile), so it can make the k-th
**   allocation fail.  For each sample of each format ($LEVELSQL_SAMPLES,
**   the files `make samples` writes; test/run.sh sets it) a whole session
**   (parse, decode everything, edit, serialize) is run again with k = 1, 2,
**   ... until no allocation fails any more; every run that fails must say
**   CODEC_E_MEMORY.  Under `make asan` a leak on any of those paths fails
**   the run too.  One check per codec and sample.  The tileset codecs
**   (codecs/tis/) have no samples yet: their sweep runs over a PVRZ page
**   and two tilesets made here (tis_bundle); the ARE codec's runs over the
**   ARE samples and its fuzz-seed area built in memory
**   (test/unit/are_sample.h).
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "are_sample.h"
#include "common/bytes.h"
#include "check.h"
#include "common/codec_error.h"
#include "fileutil.h"
#include "tis/pvrz.h"
#include "tis/tis.h"
#include "are/are.h"
#include "tw/twmap.h"
#include "wed/wed.h"
#include "wwd/wwd.h"
#include "wz4/wz4.h"

/* ---- allocation failure injection ------------------------------------------ */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

static long alloc_seen;     /* allocations since arming */
static long alloc_fail_at;  /* the one that fails (1-based); 0: none */
static int alloc_failed;    /* it happened */

static int alloc_should_fail(void) {
  if (!alloc_fail_at || ++alloc_seen != alloc_fail_at) return 0;
  alloc_failed = 1;
  return 1;
}
void *__wrap_malloc(size_t n) { return alloc_should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return alloc_should_fail() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return alloc_should_fail() ? NULL : __real_realloc(p, n); }

/* One session over a file's bytes: returns 1, or 0 with err set. */
typedef int (*session_fn)(const unsigned char *data, size_t size, codec_error *err);

/* Runs the session failing allocation 1, 2, ... until a run has no
** allocation left to fail; counts the failed runs whose code is not
** CODEC_E_MEMORY, and the runs that failed with nothing injected. */
static void oom_sweep(const char *label, session_fn fn, const unsigned char *data, size_t size) {
  long k, injected = 0, wrong = 0;
  int clean_ok;
  codec_error e;
  codec_error_clear(&e);
  clean_ok = fn(data, size, &e);
  CHECK(clean_ok, "%s: the session succeeds without injected failures: %s", label, e.msg);
  if (!clean_ok) return;
  for (k = 1;; k++) {
    int ok;
    codec_error_clear(&e);
    alloc_seen = 0;
    alloc_failed = 0;
    alloc_fail_at = k;
    ok = fn(data, size, &e);
    alloc_fail_at = 0;
    if (!alloc_failed) break;
    injected++;
    if (!ok && e.code != CODEC_E_MEMORY && wrong++ < 3)
      printf("%s: allocation %ld failed, reported with code %d: %s\n", label, k, e.code, e.msg);
  }
  CHECK(injected > 0 && wrong == 0, "%s: %ld allocation failures injected, %ld not reported as CODEC_E_MEMORY",
        label, injected, wrong);
  printf("INFO %s: %ld allocation failures injected\n", label, injected);
}

/* ---- sessions ---------------------------------------------------------------- */

static int wwd_session(const unsigned char *data, size_t size, codec_error *err) {
  wwd_level *lvl = NULL;
  unsigned char *out = NULL;
  size_t n;
  int ok = wwd_parse(data, size, &lvl, err) && wwd_serialize(lvl, &out, &n, err);
  free(out);
  wwd_free(lvl);
  return ok;
}

/* Parse, decode every layer, image and sound name, info field and envelope,
** change a tile, re-save. */
static int tw_session(const unsigned char *data, size_t size, codec_error *err) {
  tw_map *m = NULL;
  unsigned char *out = NULL;
  size_t n, i;
  int ok = tw_map_parse(data, size, &m, err);
  /* the layers with cells or quads, as the tables decode them (a layer of
  ** an unknown type has no data to decode) */
  for (i = 0; ok && i < m->num_layers; i++) {
    if (m->layers[i].kind <= TW_KIND_TUNE || m->layers[i].kind == TW_KIND_QUADS) ok = tw_layer_load(m, i, err);
  }
  for (i = 0; ok && i < m->num_images; i++) {
    tw_image_info im;
    ok = tw_image_get(m, i, &im, err);
  }
  for (i = 0; ok && i < m->num_sounds; i++) {
    tw_sound_info so;
    ok = tw_sound_get(m, i, &so, err);
  }
  for (i = 0; ok && i <= TW_INFO_SETTINGS; i++) {
    const char *s;
    size_t len;
    ok = tw_info_get(m, (tw_info_field)i, &s, &len, err);
  }
  for (i = 0; ok && i < m->num_envelopes; i++) {
    tw_env_point *pts = NULL;
    size_t np;
    ok = tw_envelope_points(m, i, &pts, &np, err) && tw_envelope_set_points(m, i, pts, np, err);
    free(pts);
  }
  for (i = 0; ok && i < m->num_layers; i++) {
    if (m->layers[i].kind <= TW_KIND_TUNE) {
      tw_tile t;
      ok = tw_tile_get(m, i, 0, 0, &t, err) && tw_tile_set(m, i, 0, 0, &t, err);
      break;
    }
  }
  ok = ok && tw_info_set(m, TW_INFO_AUTHOR, "levelsql", 8, err) && tw_map_serialize(m, 1, &out, &n, err);
  free(out);
  tw_map_free(m);
  return ok;
}

/* Parse, add a wall, insert, move and delete one of its vertices, move
** its vertices, give it a box, drop it, re-save. */
static int wed_session(const unsigned char *data, size_t size, codec_error *err) {
  static const wed_point tri[3] = {{10, 10}, {200, 20}, {50, 300}};
  wed_area *a = NULL;
  unsigned char *out = NULL;
  size_t n;
  uint32_t poly = 0;
  int ok = wed_parse(data, size, &a, err) && wed_polygon_insert_wall(a, 1, 0, tri, 3, &poly, err) &&
           wed_polygon_insert_vertex(a, poly, 1, tri[2], err) && wed_vertex_set(a, poly, 0, tri[1], err) &&
           wed_polygon_delete_vertex(a, poly, 3, err) &&
           wed_polygon_set_vertices(a, poly, tri, 2, err) && wed_polygon_set_bbox(a, poly, 0, 9, 0, 9, err) &&
           wed_serialize(a, &out, &n, err) && wed_polygon_delete_wall(a, poly, err) &&
           wed_wallgroups_regenerate(a, err);
  if (ok && a->num_overlays && a->overlays[0].num_cells) {
    static const uint16_t tiles[2] = {0, 1};
    ok = wed_cell_set_tiles(a, 0, 0, tiles, 2, err);
  }
  if (ok && a->num_doors) {
    static const uint16_t cells[1] = {0};
    ok = wed_door_set_cells(a, 0, cells, a->overlays[0].num_cells ? 1 : 0, err);
  }
  free(out);
  wed_free(a);
  return ok;
}

/* Parse, list every page's links, set the first op's parameters, strings
** and links from JSON, rename a link name, insert, rename and remove a
** page and an op, re-save. */
static int wz4_session(const unsigned char *data, size_t size, codec_error *err) {
  wz4_doc *doc = NULL;
  unsigned char *out = NULL;
  size_t n;
  uint32_t p;
  int ok = wz4_parse(data, size, &doc, err);
  for (p = 0; ok && p < doc->num_pages; p++) {
    wz4_edge *edges = NULL;
    size_t ne;
    ok = wz4_page_links(doc, p, &edges, &ne, err);
    free(edges);
  }
  if (ok && doc->num_pages && doc->pages[0].num_nodes) {
    wz4_op *op = &doc->pages[0].nodes[0].op;
    static const char params[] = "[1, -2, 4294967295]", strs[] = "[\"a\\u00e9\", \"\\ud800\", \"\"]",
                      links[] = "[{\"name\":\"slot\",\"select\":1}, {\"select\":0,\"name\":\"\"}]";
    ok = wz4_op_set_params_json(op, params, sizeof params - 1, err) &&
         wz4_op_set_strings_json(op, strs, sizeof strs - 1, err) &&
         wz4_op_set_links_json(op, links, sizeof links - 1, err);
  }
  if (ok) { /* the structural edits (wz4_edit.c) */
    size_t renamed;
    uint32_t index;
    ok = wz4_rename_links(doc, "slot", 4, "slot2", 5, &renamed, err) && wz4_page_insert(doc, 0, "new", 3, err) &&
         wz4_page_rename(doc, 0, "newer", 5, err) && wz4_node_insert(doc, 0, "Flat", 4, "GenBitmap", 9, &index, err) &&
         wz4_node_remove(doc, 0, index, err) && wz4_page_remove(doc, doc->num_pages - 1, err);
  }
  ok = ok && wz4_serialize(doc, &out, &n, err);
  free(out);
  wz4_free(doc);
  return ok;
}

/* The tilesets (codecs/tis/) have no samples yet: a PVRZ page and a PVRZ
** tileset made here, in one buffer: u32 size of the page, the page (a
** 64 x 64 DXT1 texture with 8 bytes of metadata), then the tileset (page
** -1, page 0), then a headerless palette tile. */
static unsigned char *tis_bundle(size_t *size) {
  static unsigned char raw[PVR_HEADER_SIZE + 8 + 256 * 8];
  unsigned char *out;
  uLongf zl = compressBound(sizeof raw);
  size_t n, i;
  memset(raw, 0, sizeof raw);
  le32_store(raw, PVR_VERSION);
  le32_store(raw + 8, 7);     /* DXT1 */
  le32_store(raw + 24, 64);   /* height */
  le32_store(raw + 28, 64);   /* width */
  le32_store(raw + 48, 8);    /* metadata */
  for (i = 0; i < 256; i++) le16_store(raw + PVR_HEADER_SIZE + 8 + 8 * i, (uint16_t)(i * 999u + 1));
  out = (unsigned char *)malloc(4 + 4 + zl + TIS_HEADER_SIZE + 24 + TIS_V1_ENTRY);
  if (!out) return NULL;
  le32_store(out + 4, sizeof raw);
  if (compress2(out + 8, &zl, raw, sizeof raw, 6) != Z_OK) {
    free(out);
    return NULL;
  }
  le32_store(out, (uint32_t)(4 + zl));
  n = 8 + zl;
  memcpy(out + n, "TIS V1  ", 8);
  le32_store(out + n + 8, 2);
  le32_store(out + n + 12, TIS_V2_ENTRY);
  le32_store(out + n + 16, TIS_HEADER_SIZE);
  le32_store(out + n + 20, TIS_TILE_SIDE);
  le32_store(out + n + 24, 0xFFFFFFFFu);
  memset(out + n + 28, 0, 20);
  n += TIS_HEADER_SIZE + 24;
  for (i = 0; i < TIS_V1_ENTRY; i++) out[n + i] = (unsigned char)i;
  *size = n + TIS_V1_ENTRY;
  return out;
}

static const pvrz_page *tis_page(void *ctx, int32_t page, codec_error *err) {
  (void)page;
  (void)err;
  return (const pvrz_page *)ctx;
}

/* Parse the page, the tileset and the palette tile, decode every tile and
** the whole page. */
static int tis_session(const unsigned char *data, size_t size, codec_error *err) {
  size_t psize = le32_load(data), tsize = TIS_HEADER_SIZE + 24, rs;
  pvrz_page *page = NULL;
  tis_file *t = NULL, *v1 = NULL;
  unsigned char rgba[TIS_TILE_RGBA_BYTES], *whole = NULL;
  tis_decode_opts o = {TIS_ALPHA_GREEN, tis_page, NULL};
  int ok = pvrz_parse(data + 4, psize, 0, &page, err) && tis_parse(data + 4 + psize, tsize, &t, err) &&
           tis_parse_headerless(data + 4 + psize + tsize, size - 4 - psize - tsize, 1, TIS_V1_ENTRY, &v1, err);
  o.page_ctx = page;
  ok = ok && tis_decode(t, 0, &o, rgba, err) && tis_decode(t, 1, &o, rgba, err) && tis_decode(v1, 0, &o, rgba, err) &&
       pvrz_decode(page, &whole, &rs, err);
  free(whole);
  tis_free(v1);
  tis_free(t);
  pvrz_free(page);
  return ok;
}

static void test_tis_codes(void) {
  size_t size = 0;
  unsigned char *b = tis_bundle(&size);
  tis_file *t = NULL;
  pvrz_page *p = NULL;
  codec_error e;
  unsigned char rgba[TIS_TILE_RGBA_BYTES];
  CHECK(b != NULL, "tis: the bundle built");
  if (!b) return;
  oom_sweep("out of memory in a PVRZ page and tilesets", tis_session, b, size);
  CHECK(!pvrz_parse(b + 4, 3, 0, &p, &e) && e.code == CODEC_E_FORMAT, "pvrz: 3 bytes are format: %s", e.msg);
  le32_store(b + 4, 0x7FFFFFFFu);
  CHECK(!pvrz_parse(b + 4, le32_load(b), 0, &p, &e) && e.code == CODEC_E_LIMIT, "pvrz: 2 GiB claimed is a limit: %s",
        e.msg);
  CHECK(!tis_parse_headerless(b, size, 0xFFFFFFFFu, TIS_V2_ENTRY, &t, &e) && e.code == CODEC_E_LIMIT,
        "tis: 2^32-1 tiles is a limit: %s", e.msg);
  CHECK(tis_parse_headerless(b, 24, 2, TIS_V2_ENTRY, &t, &e) && !tis_decode(t, 2, NULL, rgba, &e) &&
            e.code == CODEC_E_ARG,
        "tis: a tile past the end is argument: %s", e.msg);
  tis_free(t);
  free(b);
}

/* Parse, clone, edit every kind of run (items in and out, a record of each
** section inserted, a container, region and door deleted, vertex runs
** replaced), serialize the edited copy and the original. */
static int are_session(const unsigned char *data, size_t size, codec_error *err) {
  static const are_point tri[3] = {{10, 10}, {200, 20}, {50, 300}};
  are_area *a = are_parse(data, size, err), *c = NULL;
  unsigned char *out = NULL, *out2 = NULL;
  size_t n, n2;
  uint32_t s;
  int ok = a != NULL;
  if (ok && !(c = are_clone(a))) ok = codec_fail_oom(err, "clone: out of memory");
  if (ok && c->num_containers)
    ok = are_item_insert(c, 0, 0, &c->items[0], err) && are_item_delete(c, c->num_containers - 1, 0, err);
  for (s = 0; ok && s < ARE_NUM_SECTIONS; s++)
    if (s != ARE_ITEMS && s != ARE_VERTICES && s != ARE_EXPLORED && s != ARE_SONGS && s != ARE_REST &&
        are_count(c, (enum are_section)s))
      ok = are_insert(c, (enum are_section)s, 0, *are_array_ptr(c, (enum are_section)s), err);
  if (ok && c->num_regions) ok = are_vertices_set(c, ARE_REGIONS, 0, ARE_RUN_OUTLINE, tri, 3, err);
  if (ok && c->num_doors) ok = are_vertices_set(c, ARE_DOORS, 0, ARE_RUN_CLOSED_IMPEDED, tri, 2, err);
  if (ok && c->num_traps) ok = are_block_set(c, ARE_TRAPS, 0, (const unsigned char *)"effect", 6, err);
  if (ok && c->num_containers) ok = are_delete(c, ARE_CONTAINERS, 0, err);
  if (ok && c->num_doors) ok = are_delete(c, ARE_DOORS, 0, err);
  ok = ok && are_serialize(c, &out, &n, err) && are_serialize(a, &out2, &n2, err);
  free(out);
  free(out2);
  are_free(c);
  are_free(a);
  return ok;
}

/* The ARE codec's session over its fuzz-seed area (built in memory: every
** section kind, an embedded CRE and effect block, which the ARE files of
** the samples folder, swept with the others, do not all have). */
static void test_are_out_of_memory(void) {
  codec_error e = {0};
  are_area *a = are_sample_build(0, &e);
  unsigned char *data = NULL;
  size_t size = 0;
  CHECK(a && are_serialize(a, &data, &size, &e), "ARE sample: %s", e.msg);
  if (data) oom_sweep("out of memory in the ARE sample", are_session, data, size);
  free(data);
  are_free(a);
}

/* Every sample of `make samples` through its format's session. */
static void test_out_of_memory(void) {
  const char *dir = getenv("LEVELSQL_SAMPLES");
  struct dirent *de;
  DIR *d;
  int files = 0;
  if (!dir || !(d = opendir(dir))) {
    SKIP("out-of-memory sweeps: $LEVELSQL_SAMPLES is unset (test/run.sh sets it)");
    return;
  }
  while ((de = readdir(d))) {
    const char *dot = strrchr(de->d_name, '.');
    session_fn fn = NULL;
    char path[1024], label[300];
    unsigned char *data;
    size_t size;
    if (!dot) continue;
    if (!strcmp(dot, ".WWD") || !strcmp(dot, ".wwd")) fn = wwd_session;
    else if (!strcmp(dot, ".map")) fn = tw_session;
    else if (!strcmp(dot, ".WED") || !strcmp(dot, ".wed")) fn = wed_session;
    else if (!strcmp(dot, ".wz4")) fn = wz4_session;
    else if (!strcmp(dot, ".ARE") || !strcmp(dot, ".are")) fn = are_session;
    if (!fn) continue;
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    snprintf(label, sizeof label, "out of memory in %s", de->d_name);
    data = file_read_all(path, &size);
    CHECK(data != NULL, "read %s", path);
    if (!data) continue;
    oom_sweep(label, fn, data, size);
    free(data);
    files++;
  }
  closedir(d);
  CHECK(files >= 4, "the samples hold files of every format (%d files)", files);
}

/* ---- codec_error.h -------------------------------------------------------------- */

static void test_error_helpers(void) {
  codec_error e;
  char big[600];
  codec_error_clear(&e);
  CHECK(e.code == CODEC_OK && e.msg[0] == 0, "clear: CODEC_OK and an empty message");
  CHECK(codec_fail(&e, "x %d", 1) == 0 && e.code == CODEC_E_FORMAT && !strcmp(e.msg, "x 1"), "codec_fail: format");
  CHECK(codec_fail_oom(&e, "y") == 0 && e.code == CODEC_E_MEMORY && !strcmp(e.msg, "y"), "codec_fail_oom: memory");
  CHECK(codec_fail_limit(&e, "z") == 0 && e.code == CODEC_E_LIMIT, "codec_fail_limit: limit");
  CHECK(codec_fail_arg(&e, "w") == 0 && e.code == CODEC_E_ARG, "codec_fail_arg: argument");
  codec_fail_oom(&e, "data 3: out of memory");
  CHECK(codec_prefix(&e, "layer %d: ", 7) == 0 && e.code == CODEC_E_MEMORY &&
            !strcmp(e.msg, "layer 7: data 3: out of memory"),
        "codec_prefix keeps the code: %s", e.msg);
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = 0;
  codec_fail_arg(&e, "%s", big);
  codec_prefix(&e, "p: ");
  CHECK(strlen(e.msg) == sizeof e.msg - 1 && !strncmp(e.msg, "p: aaa", 6) && e.code == CODEC_E_ARG,
        "codec_prefix cuts at the buffer like any message");
  codec_fail_arg(&e, "inner");
  codec_prefix(&e, "%s", big);
  CHECK(strlen(e.msg) == sizeof e.msg - 1 && e.msg[0] == 'a', "a prefix longer than the buffer is cut too");
  CHECK(codec_fail(NULL, "x") == 0 && codec_fail_oom(NULL, "x") == 0 && codec_prefix(NULL, "x") == 0,
        "a NULL err is fine");
}

/* ---- one failure of each kind per codec ---------------------------------------- */

static unsigned char *sample(const char *name, size_t *size) {
  const char *dir = getenv("LEVELSQL_SAMPLES");
  char path[1024];
  if (!dir) return NULL;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return file_read_all(path, size);
}

static void test_wwd_codes(void) {
  unsigned char hdr[WWD_HEADER_SIZE + 16];
  wwd_level *lvl = NULL;
  wwd_tile_property tp;
  codec_error e;
  unsigned char *out;
  size_t n;
  memset(hdr, 0, sizeof hdr);
  le32_store(hdr, 0x12345678u);
  CHECK(!wwd_parse(hdr, sizeof hdr, &lvl, &e) && e.code == CODEC_E_FORMAT, "wwd: bad signature is format: %s", e.msg);
  le32_store(hdr, WWD_SIGNATURE);
  le32_store(hdr + WWD_HDR_FLAGS, WWD_FLAG_COMPRESS);
  le32_store(hdr + WWD_HDR_DECOMPRESSED_SIZE, 0xFFFFFFFFu);
  CHECK(!wwd_parse(hdr, sizeof hdr, &lvl, &e) && e.code == CODEC_E_LIMIT, "wwd: a 4 GiB main block is a limit: %s",
        e.msg);
  lvl = wwd_level_new(2, 2, 64, 64);
  CHECK(lvl != NULL, "wwd_level_new");
  if (!lvl) return;
  lvl->planes[0].num_image_sets = 1;
  lvl->planes[0].image_sets = (wwd_bytes *)calloc(1, sizeof(wwd_bytes));
  CHECK(lvl->planes[0].image_sets && wwd_bytes_set(&lvl->planes[0].image_sets[0], (const unsigned char *)"a\0b", 3),
        "set an image-set name with a NUL byte");
  CHECK(!wwd_serialize(lvl, &out, &n, &e) && e.code == CODEC_E_ARG, "wwd: a NUL in a name is refused as argument: %s",
        e.msg);
  memset(&tp, 0, sizeof tp);
  tp.type = 9;
  CHECK(!wwd_tile_property_check(&tp, 0, &e) && e.code == CODEC_E_ARG, "wwd: an unknown tile property type: %s",
        e.msg);
  wwd_free(lvl);
}

static void test_tw_codes(void) {
  unsigned char junk[64];
  size_t n;
  unsigned char *data = sample("dm_sample.map", &n);
  tw_map *m = NULL;
  tw_tile t;
  codec_error e;
  memset(junk, 0, sizeof junk);
  memcpy(junk, "DATA", 4);
  CHECK(!tw_map_parse(junk, sizeof junk, &m, &e) && e.code == CODEC_E_FORMAT, "tw: a damaged header is format: %s",
        e.msg);
  if (!data) {
    SKIP("tw codes on a sample: $LEVELSQL_SAMPLES is unset");
    return;
  }
  CHECK(tw_map_parse(data, n, &m, &e), "tw: dm_sample.map parses: %s", e.msg);
  if (m) {
    size_t l;
    memset(&t, 0, sizeof t);
    t.id = 300;
    for (l = 0; l < m->num_layers && m->layers[l].kind > TW_KIND_TUNE; l++) {
    }
    CHECK(!tw_tile_set(m, l, 0, 0, &t, &e) && e.code == CODEC_E_ARG, "tw: tile id 300 is an argument error: %s",
          e.msg);
    CHECK(!tw_layer_load(m, m->num_layers, &e) && e.code == CODEC_E_ARG, "tw: a layer past the end: %s", e.msg);
    CHECK(!tw_info_set(m, TW_INFO_AUTHOR, "x", 0x80000000u, &e) && e.code == CODEC_E_LIMIT,
          "tw: a 2 GiB info string is a limit: %s", e.msg);
    tw_map_free(m);
  }
  free(data);
}

static void test_wed_codes(void) {
  size_t n;
  unsigned char *data = sample("AR0100.WED", &n);
  wed_area *a = NULL;
  codec_error e;
  unsigned flags;
  CHECK(!wed_parse((const unsigned char *)"WED V1.4 and more bytes", 24, &a, &e) && e.code == CODEC_E_FORMAT,
        "wed: another version is format: %s", e.msg);
  CHECK(!wed_flag_parse("shade_wall,nonsense", &flags, &e) && e.code == CODEC_E_ARG, "wed: an unknown flag: %s",
        e.msg);
  if (!data) {
    SKIP("wed codes on a sample: $LEVELSQL_SAMPLES is unset");
    return;
  }
  CHECK(wed_parse(data, n, &a, &e), "wed: AR0100.WED parses: %s", e.msg);
  if (a) {
    static const wed_point pt = {1, 1};
    CHECK(a->num_polygons > 0, "wed: the sample has polygons");
    CHECK(!wed_polygon_set_vertices(a, 0, &pt, (size_t)0x10000000u, &e) && e.code == CODEC_E_LIMIT,
          "wed: 2^28 vertices are a limit: %s", e.msg);
    CHECK(!wed_polygon_set_vertices(a, a->num_polygons, &pt, 1, &e) && e.code == CODEC_E_ARG,
          "wed: a polygon past the end: %s", e.msg);
    wed_free(a);
  }
  free(data);
}

/* An op record of version 4 whose one link carries a default op, `depth`
** levels deep. */
static void nested_op(byte_writer *w, int depth) {
  byte_writer_u32(w, WZ4_TAG_OPEN);
  byte_writer_u32(w, WZ4_ID_OP);
  byte_writer_u32(w, 4);
  byte_writer_zeros(w, 5 * 4); /* name, class, type (empty), params, strings */
  byte_writer_u32(w, 1);       /* links */
  byte_writer_zeros(w, 2 * 4); /* link name (empty), select */
  byte_writer_u32(w, depth > 0);
  if (depth > 0) nested_op(w, depth - 1);
}

static void test_are_codes(void) {
  codec_error e = {0};
  are_area *a = are_sample_build(0, &e);
  unsigned char *data = NULL;
  size_t size = 0;
  are_item it;
  CHECK(a && are_serialize(a, &data, &size, &e), "ARE sample: %s", e.msg);
  if (!data) {
    are_free(a);
    return;
  }
  le32_store(data + 0x54, 0xFFFFFF00u);
  CHECK(!are_parse(data, size, &e) && e.code == CODEC_E_FORMAT, "are: actors past the end are format: %s", e.msg);
  memset(&it, 0, sizeof it);
  CHECK(!are_item_insert(a, 99, 0, &it, &e) && e.code == CODEC_E_ARG, "are: no such container is argument: %s", e.msg);
  a->num_vertices = 0x10000;
  CHECK(!are_check(a, &e) && e.code == CODEC_E_LIMIT, "are: 65536 vertices is a limit: %s", e.msg);
  a->num_vertices = 0;
  CHECK(!are_check(a, &e) && e.code == CODEC_E_ARG, "are: runs past the vertices are argument: %s", e.msg);
  free(data);
  are_free(a);
}

static void test_wz4_codes(void) {
  byte_writer w;
  wz4_doc *doc = NULL;
  codec_error e;
  static const unsigned char junk[16] = {0x3c, 0x3c, 0x3c, 0x3c, 1, 2, 3, 4};
  CHECK(!wz4_parse(junk, sizeof junk, &doc, &e) && e.code == CODEC_E_FORMAT, "wz4: a wrong chunk id is format: %s",
        e.msg);
  memset(&w, 0, sizeof w);
  byte_writer_u32(&w, WZ4_TAG_OPEN);
  byte_writer_u32(&w, WZ4_ID_DOC);
  byte_writer_u32(&w, 12);
  byte_writer_u32(&w, WZ4_TAG_OPEN); /* options version 0 */
  byte_writer_u32(&w, WZ4_ID_OPTIONS);
  byte_writer_u32(&w, 0);
  byte_writer_u32(&w, 1);            /* one page: 1 stacked op */
  byte_writer_u32(&w, 1);
  byte_writer_zeros(&w, 4 * 4);
  byte_writer_u32(&w, 0);            /* imports */
  byte_writer_zeros(&w, 4 * 4);      /* page name, is_tree, scroll */
  byte_writer_zeros(&w, 6 * 4);      /* the stacked op's grid fields */
  nested_op(&w, WZ4_MAX_NESTING + 1);
  CHECK(!w.failed, "build a document nested too deep");
  CHECK(!wz4_parse(w.data, w.size, &doc, &e) && e.code == CODEC_E_LIMIT && strstr(e.msg, "nested deeper"),
        "wz4: nesting beyond %d is a limit: %s", WZ4_MAX_NESTING, e.msg);
  byte_writer_free(&w);
  {
    wz4_op op;
    memset(&op, 0, sizeof op);
    CHECK(!wz4_op_set_params_json(&op, "[1, x]", 6, &e) && e.code == CODEC_E_ARG, "wz4: bad JSON is argument: %s",
          e.msg);
    CHECK(!wz4_op_set_strings_json(&op, "[\"\\ud800\\udc00\", 3]", 19, &e) && e.code == CODEC_E_ARG,
          "wz4: a number among strings: %s", e.msg);
  }
}

int main(void) {
  test_error_helpers();
  test_wwd_codes();
  test_tw_codes();
  test_wed_codes();
  test_wz4_codes();
  test_tis_codes();
  test_are_codes();
  test_out_of_memory();
  test_are_out_of_memory();
  return check_done();
}
