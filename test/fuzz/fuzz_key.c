/*
** fuzz_key.c: libFuzzer harness for the KEY and BIFF reader (codecs/key).
**
** Every input goes to both parsers.  As a key: key_parse; an accepted key
** must find every resource it lists by (resref, type) (the first of equal
** ones), name it, split its locator and give its BIFF or a FORMAT error.
** As an archive: biff_open (BIFF V1, BIF V1.0, BIFC V1.0; at most 256 KiB
** inflated, so a bomb costs little), then every file and tileset entry
** extracted by its locator (a success must be the size biff_find says,
** a tileset also as a TIS file, its header right), and the index read
** alone (biff_index_span, biff_index_parse) must agree with the whole, and
** a BIF V1.0 or BIFC read in part (bif_read; bifc_map_parse, bifc_read,
** and a BIFC range again from the slice of its blocks given their bytes
** alone: bifc_map_slice, bifc_read_at) with the archive inflated whole.  A
** rejection must carry a message and CODEC_E_FORMAT, _LIMIT or _MEMORY.
** Any inconsistency calls abort().
**
** Build and run: make build-fuzz/fuzz/fuzz_key; seeds from
** tools/gen_key_samples --fuzz (test/fuzz/run.sh), never in the repository.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "key/biff.h"
#include "key/key.h"

#define FUZZ_MAX_INFLATED ((size_t)1 << 18)

static void die(const char *what, const char *msg) {
  fprintf(stderr, "fuzz_key: %s: %s\n", what, msg ? msg : "");
  abort();
}

/* A refusal of bytes: a message and a code that blames the bytes. */
static void check_refusal(const char *what, const codec_error *err) {
  if (!err->msg[0]) die(what, "refused without a message");
  if (err->code != CODEC_E_FORMAT && err->code != CODEC_E_LIMIT && err->code != CODEC_E_MEMORY)
    die(what, "refused with the wrong code");
}

static void fuzz_key(const uint8_t *data, size_t size) {
  key_file *k = NULL;
  codec_error err = {0};
  uint32_t i, idx;
  if (!key_parse(data, size, NULL, &k, &err)) {
    if (k) die("key", "refused but returned a key");
    check_refusal("key", &err);
    return;
  }
  for (i = 0; i < k->num_resources; i++) {
    const key_resource *r = &k->resources[i];
    const key_biff *b = NULL;
    char name[KEY_NAME_MAX];
    if (!key_lookup(k, r->resref, r->type, &idx) || idx > i) die("key lookup", "a listed resource is not found first");
    if (key_resource_name(r, name, sizeof name) >= sizeof name) die("key name", "longer than KEY_NAME_MAX");
    if (key_locator_make(key_locator_biff(r->locator), key_locator_tileset(r->locator), key_locator_file(r->locator)) !=
        r->locator)
      die("locator", "split and joined differs");
    if (key_resource_biff(k, i, &b, &err)) {
      char path[64];
      if (b != &k->biffs[key_locator_biff(r->locator)]) die("key biff", "the wrong BIFF entry");
      key_biff_path(b, path, sizeof path);
      if (strchr(path, '\\')) die("key path", "a backslash left");
    } else if (err.code != CODEC_E_FORMAT) {
      die("key biff", "a missing BIFF with the wrong code");
    }
  }
  key_free(k);
}

/* Extracts entry locator `loc` and checks it against biff_find. */
static void extract_one(const biff_archive *a, uint32_t loc) {
  biff_resource r, again;
  codec_error err = {0};
  unsigned char *out = NULL;
  size_t n = 0;
  if (!biff_extract(a, loc, NULL, &out, &n, &r, &err)) {
    if (out) die("extract", "refused but returned bytes");
    check_refusal("extract", &err);
    return;
  }
  if (n != r.size || !biff_find(a, loc, &again, &err) || again.offset != r.offset) die("extract", "size or place");
  if (n && memcmp(out, a->data + r.offset, n) != 0) die("extract", "not the archive's bytes");
  free(out);
  if (r.is_tileset) {
    if (!biff_extract_tis(a, loc, NULL, &out, &n, &err)) die("extract tis", err.msg);
    if (n != r.size + TIS_HEADER_SIZE || memcmp(out, "TIS V1  ", 8) != 0) die("extract tis", "header");
    free(out);
  }
}

/* A BIF V1.0 or BIFC that opened whole reads the same in part: a range
** chosen by the input's last bytes, through bif_read or the block map. */
static void check_part(const biff_archive *a, const uint8_t *data, size_t size) {
  bifc_map *m = NULL;
  codec_error err = {0};
  uint64_t off = 0, len = 0;
  unsigned char *buf;
  int ok;
  if (a->size) {
    off = (size >= 2 ? data[size - 1] | (uint64_t)data[size - 2] << 8 : 0) % a->size;
    len = (size >= 4 ? data[size - 3] | (uint64_t)data[size - 4] << 8 : 1) % (a->size - off + 1);
  }
  if (!(buf = (unsigned char *)malloc(len ? (size_t)len : 1))) die("part", "out of memory");
  if (a->container == BIFF_CONTAINER_BIF) {
    ok = bif_read(data, size, off, (size_t)len, NULL, buf, &err);
  } else {
    if (!bifc_map_parse(data, size, FUZZ_MAX_INFLATED, NULL, &m, &err)) die("bifc map", err.msg);
    if (m->total != a->size) die("bifc map", "not the size inflated");
    ok = bifc_read(m, data, size, off, (size_t)len, NULL, buf, &err);
    if (ok) { /* the same range from the slice of its blocks alone, given only their bytes (the engine's way) */
      bifc_map *slice = NULL;
      unsigned char *again = (unsigned char *)malloc(len ? (size_t)len : 1);
      if (!again || !bifc_map_slice(m, off, (size_t)len, &slice, &err)) die("bifc slice", err.msg);
      if (slice->num_blocks) {
        uint64_t lo = slice->blocks[0].in_offset;
        uint64_t hi = slice->blocks[slice->num_blocks - 1].in_offset + slice->blocks[slice->num_blocks - 1].in_size;
        if (!bifc_read_at(slice, data + lo, lo, (size_t)(hi - lo), off, (size_t)len, NULL, again, &err))
          die("bifc read_at", err.msg);
        if (len && memcmp(again, buf, (size_t)len) != 0) die("bifc read_at", "not the bytes of bifc_read");
      } else if (len) {
        die("bifc slice", "no block for a range");
      }
      bifc_map_free(slice);
      free(again);
    }
    bifc_map_free(m);
  }
  if (!ok) die("part", err.msg);
  if (len && memcmp(buf, a->data + off, (size_t)len) != 0) die("part", "not the bytes inflated whole");
  free(buf);
}

static void fuzz_archive(const uint8_t *data, size_t size) {
  biff_archive *a = NULL, *idx = NULL;
  codec_error err = {0};
  uint64_t span = 0;
  uint32_t i;
  if (!biff_open(data, size, FUZZ_MAX_INFLATED, NULL, &a, &err)) {
    if (a) die("open", "refused but returned an archive");
    check_refusal("open", &err);
    return;
  }
  if (a->size > FUZZ_MAX_INFLATED && a->container != BIFF_CONTAINER_BIFF) die("open", "inflated past the cap");
  if (a->container != BIFF_CONTAINER_BIFF) check_part(a, data, size);
  for (i = 0; i < a->num_files; i++)
    extract_one(a, a->files[i].locator & 0x3FFFu);
  for (i = 0; i < a->num_tilesets; i++) /* (tileset index 0 would name a file entry) */
    if (key_locator_tileset(a->tilesets[i].locator)) extract_one(a, a->tilesets[i].locator);
  /* the index alone, from its span of the BIFF V1 bytes */
  if (!biff_index_span(a->data, (size_t)a->size, &span, &err)) die("span", err.msg);
  if (span > a->size) die("span", "past the archive that parsed");
  if (!biff_index_parse(a->data, (size_t)span, a->size, NULL, &idx, &err)) die("index alone", err.msg);
  if (idx->num_files != a->num_files || idx->num_tilesets != a->num_tilesets) die("index alone", "counts differ");
  for (i = 0; i < a->num_files; i++) {
    biff_resource r1, r2;
    int ok1 = biff_find(a, a->files[i].locator & 0x3FFFu, &r1, &err);
    int ok2 = biff_find(idx, a->files[i].locator & 0x3FFFu, &r2, &err);
    if (ok1 != ok2 || (ok1 && (r1.offset != r2.offset || r1.size != r2.size))) die("index alone", "finds differ");
  }
  biff_free(idx);
  biff_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_key(data, size);
  fuzz_archive(data, size);
  return 0;
}
