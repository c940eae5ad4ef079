/*
** key.c: the KEY V1 resource index (key.h; layout in NOTES-key.md).
*/
#include "key/key.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"

/* ---- resource types ------------------------------------------------------- */

typedef struct key_type_name {
  uint16_t type;
  const char *ext;
} key_type_name;

/* IESDP's table of resource types (file_formats/general.htm), the types
** the games put in their BIFFs; sorted by type. */
static const key_type_name key_types[] = {
    {0x0001, "BMP"}, {0x0002, "MVE"}, {0x0004, "WAV"},  {0x0005, "WFX"},  {0x0006, "PLT"},  {0x03E8, "BAM"},
    {0x03E9, "WED"}, {0x03EA, "CHU"}, {0x03EB, "TIS"},  {0x03EC, "MOS"},  {0x03ED, "ITM"},  {0x03EE, "SPL"},
    {0x03EF, "BCS"}, {0x03F0, "IDS"}, {0x03F1, "CRE"},  {0x03F2, "ARE"},  {0x03F3, "DLG"},  {0x03F4, "2DA"},
    {0x03F5, "GAM"}, {0x03F6, "STO"}, {0x03F7, "WMP"},  {0x03F8, "EFF"},  {0x03F9, "BS"},   {0x03FA, "CHR"},
    {0x03FB, "VVC"}, {0x03FC, "VEF"}, {0x03FD, "PRO"},  {0x03FE, "BIO"},  {0x03FF, "WBM"},  {0x0400, "FNT"},
    {0x0402, "GUI"}, {0x0403, "SQL"}, {0x0404, "PVRZ"}, {0x0405, "GLSL"}, {0x0408, "MENU"}, {0x0409, "LUA"},
    {0x040A, "TTF"}, {0x040B, "PNG"}, {0x044C, "BAH"},  {0x0802, "INI"},  {0x0803, "SRC"},
};
#define KEY_NUM_TYPES (sizeof key_types / sizeof key_types[0])

const char *key_type_ext(uint16_t type) {
  size_t lo = 0, hi = KEY_NUM_TYPES;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (key_types[mid].type == type) return key_types[mid].ext;
    if (key_types[mid].type < type)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

static int ascii_upper(int c) {
  return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

int key_type_from_ext(const char *ext, uint16_t *type) {
  size_t i, j;
  if (!ext) return 0;
  for (i = 0; i < KEY_NUM_TYPES; i++) {
    const char *e = key_types[i].ext;
    for (j = 0; e[j] && ascii_upper((unsigned char)ext[j]) == e[j]; j++) {}
    if (!e[j] && !ext[j]) {
      *type = key_types[i].type;
      return 1;
    }
  }
  return 0;
}

/* ---- names ------------------------------------------------------------------ */

size_t key_biff_path(const key_biff *b, char *buf, size_t bufsize) {
  size_t n = b->name ? strlen(b->name) : 0, i;
  for (i = 0; bufsize && i < n && i + 1 < bufsize; i++)
    buf[i] = b->name[i] == '\\' ? '/' : b->name[i];
  if (bufsize) buf[i] = 0;
  return n;
}

size_t key_resource_name(const key_resource *r, char *buf, size_t bufsize) {
  const char *ext = key_type_ext(r->type);
  int n = ext ? snprintf(buf, bufsize, "%s.%s", r->resref, ext)
              : snprintf(buf, bufsize, "%s.0x%04x", r->resref, (unsigned)r->type);
  return n < 0 ? 0 : (size_t)n;
}

/* ---- parse -------------------------------------------------------------------- */

int key_sniff(const unsigned char *data, size_t size) {
  return size >= 8 && memcmp(data, "KEY V1  ", 8) == 0;
}

void key_free(key_file *k) {
  uint32_t i;
  if (!k) return;
  for (i = 0; k->biffs && i < k->num_biffs; i++)
    free(k->biffs[i].name);
  free(k->biffs);
  free(k->resources);
  free(k->order);
  free(k);
}

/* Compares resref a (up to 8 bytes or its NUL) with b without ASCII case. */
static int resref_cmp(const char *a, const char *b) {
  size_t i;
  for (i = 0; i < 8; i++) {
    int ca = ascii_upper((unsigned char)a[i]), cb = ascii_upper((unsigned char)b[i]);
    if (ca != cb) return ca < cb ? -1 : 1;
    if (!ca) break;
  }
  return 0;
}

/* Orders resource r against (resref, type): resref first, then type. */
static int res_cmp_key(const key_resource *r, const char *resref, uint16_t type) {
  int c = resref_cmp(r->resref, resref);
  if (c) return c;
  return r->type < type ? -1 : r->type > type;
}

void key_sort_indices(uint32_t *order, uint32_t *tmp, uint32_t n, key_index_le le, const void *ctx) {
  uint32_t width, i;
  for (width = 1; width<n; width = width> n / 2 ? n : width * 2) {
    for (i = 0; i < n; i += 2 * width) {
      uint32_t mid = n - i > width ? i + width : n, hi = n - mid > width ? mid + width : n;
      uint32_t a = i, b = mid, o = i;
      while (a < mid && b < hi)
        tmp[o++] = le(ctx, order[a], order[b]) ? order[a++] : order[b++];
      while (a < mid)
        tmp[o++] = order[a++];
      while (b < hi)
        tmp[o++] = order[b++];
    }
    memcpy(order, tmp, (size_t)n * sizeof *order);
  }
}

/* key_index_le of resources: (resref without case, type). */
static int res_le(const void *ctx, uint32_t a, uint32_t b) {
  const key_resource *res = (const key_resource *)ctx;
  return res_cmp_key(&res[a], res[b].resref, res[b].type) <= 0;
}

/* The BIFF entries and their names. */
static int parse_biffs(const unsigned char *data, size_t size, key_file *k, const codec_cancel *cancel,
                       codec_error *err) {
  uint32_t i;
  byte_reader r = br_at(data, size, k->biff_offset);
  if (!br_need_n(&r, k->num_biffs, KEY_BIFF_ENTRY_SIZE))
    return codec_fail(err, "BIFF entries: byte offset %u: %u entries of %u bytes run past the end (%zu bytes)",
                      (unsigned)k->biff_offset, (unsigned)k->num_biffs, KEY_BIFF_ENTRY_SIZE, size);
  if (k->num_biffs && !(k->biffs = (key_biff *)calloc(k->num_biffs, sizeof *k->biffs)))
    return codec_fail_oom(err, "BIFF entries: out of memory for %u entries", (unsigned)k->num_biffs);
  for (i = 0; i < k->num_biffs; i++) {
    key_biff *b = &k->biffs[i];
    size_t at = r.pos, len;
    const unsigned char *name, *nul;
    if (codec_cancelled_at(cancel, i)) return codec_fail_interrupted(err);
    b->file_length = br_u32le(&r);
    b->name_offset = br_u32le(&r);
    b->name_length = br_u16le(&r);
    b->location = br_u16le(&r);
    if (b->name_offset > size || b->name_length > size - b->name_offset)
      return codec_fail(err, "BIFF entry %u: byte offset %zu: its name (%u bytes at %u) runs past the end (%zu bytes)",
                        (unsigned)i, at, (unsigned)b->name_length, (unsigned)b->name_offset, size);
    name = data + b->name_offset;
    nul = b->name_length ? (const unsigned char *)memchr(name, 0, b->name_length) : NULL;
    len = nul ? (size_t)(nul - name) : b->name_length;
    if (!(b->name = (char *)malloc(len + 1)))
      return codec_fail_oom(err, "BIFF entry %u: out of memory for its name", (unsigned)i);
    if (len) memcpy(b->name, name, len);
    b->name[len] = 0;
  }
  return 1;
}

/* The resource entries, then the sorted index. */
static int parse_resources(const unsigned char *data, size_t size, key_file *k, const codec_cancel *cancel,
                           codec_error *err) {
  uint32_t i, *tmp;
  byte_reader r = br_at(data, size, k->res_offset);
  if (!br_need_n(&r, k->num_resources, KEY_RES_ENTRY_SIZE))
    return codec_fail(err, "resource entries: byte offset %u: %u entries of %u bytes run past the end (%zu bytes)",
                      (unsigned)k->res_offset, (unsigned)k->num_resources, KEY_RES_ENTRY_SIZE, size);
  if (!k->num_resources) return 1;
  k->resources = (key_resource *)calloc(k->num_resources, sizeof *k->resources);
  k->order = (uint32_t *)malloc((size_t)k->num_resources * sizeof *k->order);
  tmp = (uint32_t *)malloc((size_t)k->num_resources * sizeof *tmp);
  if (!k->resources || !k->order || !tmp) {
    free(tmp);
    return codec_fail_oom(err, "resource entries: out of memory for %u entries", (unsigned)k->num_resources);
  }
  for (i = 0; i < k->num_resources; i++) {
    key_resource *e = &k->resources[i];
    const unsigned char *raw = br_bytes(&r, 8);
    size_t n;
    if (codec_cancelled_at(cancel, i)) {
      free(tmp);
      return codec_fail_interrupted(err);
    }
    memcpy(e->raw, raw, 8);
    for (n = 0; n < 8 && raw[n]; n++)
      e->resref[n] = (char)raw[n];
    e->resref[n] = 0;
    e->type = br_u16le(&r);
    e->locator = br_u32le(&r);
    k->order[i] = i;
  }
  if (codec_cancelled(cancel)) {
    free(tmp);
    return codec_fail_interrupted(err);
  }
  key_sort_indices(k->order, tmp, k->num_resources, res_le, k->resources);
  free(tmp);
  return 1;
}

int key_parse(const unsigned char *data, size_t size, const codec_cancel *cancel, key_file **out, codec_error *err) {
  key_file *k;
  *out = NULL;
  if (size < KEY_HEADER_SIZE)
    return codec_fail(err, "header: byte offset 0: truncated, need %u bytes, %zu there", KEY_HEADER_SIZE, size);
  if (memcmp(data, "KEY ", 4) != 0) return codec_fail(err, "header: byte offset 0: not a KEY file (signature)");
  if (memcmp(data + 4, "V1  ", 4) != 0)
    return codec_fail(err, "header: byte offset 4: KEY version '%.4s' is not V1", (const char *)data + 4);
  if (!(k = (key_file *)calloc(1, sizeof *k))) return codec_fail_oom(err, "header: out of memory");
  k->num_biffs = le32_load(data + 8);
  k->num_resources = le32_load(data + 12);
  k->biff_offset = le32_load(data + 16);
  k->res_offset = le32_load(data + 20);
  if (k->num_biffs > KEY_MAX_BIFFS || k->num_resources > KEY_MAX_RESOURCES) {
    int big = k->num_biffs > KEY_MAX_BIFFS;
    codec_fail_limit(err, "header: byte offset %d: %u %s entries, more than the %u a key may list", big ? 8 : 12,
                     (unsigned)(big ? k->num_biffs : k->num_resources), big ? "BIFF" : "resource",
                     big ? KEY_MAX_BIFFS : KEY_MAX_RESOURCES);
    key_free(k);
    return 0;
  }
  if (!parse_biffs(data, size, k, cancel, err) || !parse_resources(data, size, k, cancel, err)) {
    key_free(k);
    return 0;
  }
  *out = k;
  return 1;
}

/* ---- lookups ------------------------------------------------------------------- */

int key_lookup(const key_file *k, const char *resref, uint16_t type, uint32_t *index) {
  char want[9];
  uint32_t lo = 0, hi = k->num_resources;
  size_t n;
  for (n = 0; n < 8 && resref[n]; n++)
    want[n] = resref[n];
  if (n == 8 && resref[8]) return 0; /* longer than any resref */
  want[n] = 0;
  while (lo < hi) { /* the first entry not below (want, type) */
    uint32_t mid = lo + (hi - lo) / 2;
    if (res_cmp_key(&k->resources[k->order[mid]], want, type) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == k->num_resources || res_cmp_key(&k->resources[k->order[lo]], want, type) != 0) return 0;
  *index = k->order[lo];
  return 1;
}

int key_resource_biff(const key_file *k, uint32_t index, const key_biff **biff, codec_error *err) {
  const key_resource *r;
  uint32_t b;
  char name[KEY_NAME_MAX];
  if (index >= k->num_resources)
    return codec_fail_arg(err, "resource %u: no such resource (the key lists %u)", (unsigned)index,
                          (unsigned)k->num_resources);
  r = &k->resources[index];
  b = key_locator_biff(r->locator);
  if (b >= k->num_biffs) {
    key_resource_name(r, name, sizeof name);
    return codec_fail(err,
                      "resource entry %u (%s): byte offset %zu: BIFF index %u names no BIFF entry (the key has %u)",
                      (unsigned)index, name, (size_t)k->res_offset + (size_t)index * KEY_RES_ENTRY_SIZE + 10,
                      (unsigned)b, (unsigned)k->num_biffs);
  }
  *biff = &k->biffs[b];
  return 1;
}
