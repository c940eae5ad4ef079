/*
** datafile.c: reading and writing the Teeworlds / DDNet datafile container.
** See datafile.h for the model, NOTES-tw.md for the quirks handled here
** (and ../shared/formats/teeworlds-datafile.md for the byte layout).
*/
#include "tw/datafile.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"

#define DF_FIXED_HEADER 36u

/* ---- small helpers ------------------------------------------------------- */

/* df_sniff: the magic is "DATA", or "ATAD" from big-endian writers that
** swapped the magic together with the header ints. */
int df_sniff(const unsigned char *buf, size_t size) {
  if (!buf || size < 4) return 0;
  return memcmp(buf, "DATA", 4) == 0 || memcmp(buf, "ATAD", 4) == 0;
}

/* Grows an array of `count` elements of `size` bytes (capacity *cap,
** doubling from 16) so `extra` more fit: *moved is the array, moved or
** not.  0 on OOM or overflow (the array is left as it was). */
static int array_reserve(void *array, size_t *cap, size_t count, size_t extra, size_t size, void **moved) {
  size_t need, n, bytes;
  *moved = array;
  if (!size_add(count, extra, &need)) return 0;
  if (need <= *cap) return 1;
  n = *cap ? *cap : 16;
  while (n < need) {
    if (!size_mul(n, 2, &n)) return 0;
  }
  if (!size_mul(n, size, &bytes) || !(*moved = realloc(array, bytes))) return 0;
  *cap = n;
  return 1;
}

static int items_reserve(datafile *df, size_t extra) {
  void *p;
  if (!array_reserve(df->items, &df->cap_items, df->num_items, extra, sizeof *df->items, &p)) return 0;
  df->items = p;
  return 1;
}

static int data_reserve(datafile *df, size_t extra) {
  void *p;
  if (!array_reserve(df->data, &df->cap_data, df->num_data, extra, sizeof *df->data, &p)) return 0;
  df->data = p;
  return 1;
}

/* malloc that never returns NULL for a zero-size request that succeeded, so
** "NULL means out of memory" holds for every call site. */
static void *xmalloc(size_t n) { return malloc(n ? n : 1); }

/* Copies n bytes into a fresh buffer (NULL on OOM). */
static unsigned char *dup_bytes(const unsigned char *src, size_t n) {
  unsigned char *p = (unsigned char *)xmalloc(n);
  if (p && n) memcpy(p, src, n);
  return p;
}

datafile *df_new(void) {
  datafile *df = (datafile *)calloc(1, sizeof *df);
  if (df) df->version = 4;
  return df;
}

void df_free(datafile *df) {
  size_t i;
  if (!df) return;
  for (i = 0; i < df->num_items; i++) free(df->items[i].ints);
  for (i = 0; i < df->num_data; i++) {
    free(df->data[i].stored);
    free(df->data[i].raw);
  }
  free(df->items);
  free(df->data);
  free(df);
}

/* df_clone: a deep copy (items, stored and inflated bytes, states), so a
** copy can be edited while the original stays as it was.  NULL on OOM. */
datafile *df_clone(const datafile *src) {
  datafile *df = df_new();
  size_t i;
  if (!df) return NULL;
  df->version = src->version;
  df->magic_swapped = src->magic_swapped;
  df->header_kind = src->header_kind;
  if ((src->num_items && !items_reserve(df, src->num_items)) || (src->num_data && !data_reserve(df, src->num_data))) {
    df_free(df);
    return NULL;
  }
  for (i = 0; i < src->num_items; i++) {
    df_item *it = &df->items[i];
    *it = src->items[i];
    it->ints = NULL;
    if (src->items[i].num_ints &&
        !(it->ints = (int32_t *)dup_bytes((const unsigned char *)src->items[i].ints, src->items[i].num_ints * 4))) {
      df->num_items = i;
      df_free(df);
      return NULL;
    }
    df->num_items = i + 1;
  }
  for (i = 0; i < src->num_data; i++) {
    const df_data *s = &src->data[i];
    df_data *d = &df->data[i];
    *d = *s;
    d->stored = s->stored ? dup_bytes(s->stored, s->stored_size) : NULL;
    d->raw = s->raw ? dup_bytes(s->raw, s->raw_size) : NULL;
    df->num_data = i + 1;
    if ((s->stored && !d->stored) || (s->raw && !d->raw)) {
      df_free(df);
      return NULL;
    }
  }
  return df;
}

/* ---- parsing ------------------------------------------------------------- */

/* A datafile's header as df_parse reads it: the counts, and the byte
** offset of every section they imply (checked to describe exactly the
** file's size). */
typedef struct df_layout {
  int32_t version, ntypes, nitems, ndata, item_size, data_size;
  size_t off_types, off_item_offsets, off_data_offsets, off_data_sizes, off_items, off_data;
  int header_kind; /* DF_HEADER_OK or DF_HEADER_LEGACY */
} df_layout;

/* Reads and checks the header: magic, version, counts, the section offsets
** (overflow-checked) adding up to exactly `size`, and size / swaplen by
** the current or the legacy (pre-2010) formula.  Fills *l. */
static int parse_header(const unsigned char *buf, size_t size, df_layout *l, codec_error *err) {
  int32_t hsize, hswaplen;
  size_t total, tmp, n_sizes, want_size, want_swap, legacy;
  byte_reader r = br_at(buf, size, 4);
  if (size < DF_FIXED_HEADER)
    return codec_fail(err, "header: byte offset 0: file has %zu bytes, a datafile header needs %u", size,
                      DF_FIXED_HEADER);
  if (!df_sniff(buf, size))
    return codec_fail(err, "header: byte offset 0: bad magic %02x%02x%02x%02x (want \"DATA\" or \"ATAD\")", buf[0],
                      buf[1], buf[2], buf[3]);
  l->version = br_i32le(&r);
  if (l->version != 3 && l->version != 4)
    return codec_fail(err, "header: byte offset 4: unsupported datafile version %d (want 3 or 4)", (int)l->version);
  hsize = br_i32le(&r);
  hswaplen = br_i32le(&r);
  l->ntypes = br_i32le(&r);
  l->nitems = br_i32le(&r);
  l->ndata = br_i32le(&r);
  l->item_size = br_i32le(&r);
  l->data_size = br_i32le(&r);
  if (l->ntypes < 0 || l->nitems < 0 || l->ndata < 0 || l->item_size < 0 || l->data_size < 0)
    return codec_fail(err, "header: byte offset 16: negative count (types %d, items %d, data %d, item_size %d, "
                           "data_size %d)", (int)l->ntypes, (int)l->nitems, (int)l->ndata, (int)l->item_size,
                      (int)l->data_size);
  if (l->ntypes > 0x10000)
    return codec_fail(err, "header: byte offset 16: %d item types, at most 65536 exist", (int)l->ntypes);
  if (l->item_size % 4 != 0)
    return codec_fail(err, "header: byte offset 28: item area size %d is not a multiple of 4", (int)l->item_size);
  n_sizes = l->version == 4 ? (size_t)l->ndata : 0;
  /* (counts are < 2^31 so size_t on a 64-bit host cannot overflow, but
  ** stay honest on 32-bit hosts) */
  l->off_types = DF_FIXED_HEADER;
  if (!size_mul((size_t)l->ntypes, 12, &tmp) || !size_add(l->off_types, tmp, &l->off_item_offsets) ||
      !size_mul((size_t)l->nitems, 4, &tmp) || !size_add(l->off_item_offsets, tmp, &l->off_data_offsets) ||
      !size_mul((size_t)l->ndata, 4, &tmp) || !size_add(l->off_data_offsets, tmp, &l->off_data_sizes) ||
      !size_mul(n_sizes, 4, &tmp) || !size_add(l->off_data_sizes, tmp, &l->off_items) ||
      !size_add(l->off_items, (size_t)l->item_size, &l->off_data) ||
      !size_add(l->off_data, (size_t)l->data_size, &total))
    return codec_fail(err, "header: byte offset 16: section sizes overflow");
  if (total != size)
    return codec_fail(err, "header: byte offset 16: counts describe a file of %zu bytes, file has %zu%s", total, size,
                      total > size ? " (truncated)" : " (trailing bytes)");
  want_size = total - 16;
  want_swap = (total - (size_t)l->data_size) - 16;
  legacy = n_sizes * 4; /* the legacy formula lacks the v4 sizes table */
  if ((size_t)(uint32_t)hsize == want_size && (size_t)(uint32_t)hswaplen == want_swap)
    l->header_kind = DF_HEADER_OK;
  else if (legacy && want_size >= legacy && want_swap >= legacy &&
           (size_t)(uint32_t)hsize == want_size - legacy && (size_t)(uint32_t)hswaplen == want_swap - legacy)
    l->header_kind = DF_HEADER_LEGACY;
  else
    return codec_fail(err, "header: byte offset 8: size %d / swaplen %d do not match the counts (want %zu / %zu)",
                      (int)hsize, (int)hswaplen, want_size, want_swap);
  return 1;
}

/* Reads item idx (of type `type`): its offset must agree with the offset
** table (first at 0, 4-aligned, at least the 8-byte item header before the
** next), its header must name the type, and its size the payload the
** offsets leave.  Appends it to df->items. */
static int parse_item(datafile *df, const unsigned char *buf, size_t size, const df_layout *l, size_t idx,
                      int32_t type, codec_error *err) {
  byte_reader at = br_at(buf, size, l->off_item_offsets + idx * 4);
  size_t ioff, iend, abs, payload, j;
  int32_t ioff_raw = br_i32le(&at), isz;
  uint32_t type_and_id;
  df_item *it;
  ioff = (size_t)(uint32_t)ioff_raw;
  iend = idx + 1 < (size_t)l->nitems ? (size_t)br_u32le(&at) : (size_t)l->item_size;
  abs = l->off_items + ioff;
  if (ioff_raw < 0 || (idx == 0 && ioff != 0) || ioff % 4 != 0 || iend > (size_t)l->item_size || iend < ioff ||
      iend - ioff < 8)
    return codec_fail(err, "item %zu (type %d): byte offset %zu: item offset %zu / next %zu invalid in an item area "
                           "of %d bytes", idx, (int)type, l->off_item_offsets + idx * 4, ioff, iend,
                      (int)l->item_size);
  br_seek(&at, abs);
  type_and_id = br_u32le(&at);
  isz = br_i32le(&at);
  payload = iend - ioff - 8;
  if ((type_and_id >> 16) != (uint32_t)type)
    return codec_fail(err, "item %zu (type %d): byte offset %zu: item header says type %u", idx, (int)type, abs,
                      (unsigned)(type_and_id >> 16));
  if (isz < 0 || (size_t)isz != payload || payload % 4 != 0)
    return codec_fail(err, "item type %d id %u: byte offset %zu: item size %d, offset table leaves %zu bytes",
                      (int)type, (unsigned)(type_and_id & 0xFFFF), abs + 4, (int)isz, payload);
  it = &df->items[df->num_items];
  it->type = (uint32_t)type;
  it->id = type_and_id & 0xFFFF;
  it->num_ints = payload / 4;
  it->ints = NULL;
  if (payload) {
    it->ints = (int32_t *)malloc(payload);
    if (!it->ints) return codec_fail_oom(err, "item type %d id %u: out of memory", (int)type, (unsigned)it->id);
    for (j = 0; j < it->num_ints; j++) it->ints[j] = br_i32le(&at);
  }
  df->num_items++;
  return 1;
}

/* Reads the item type table, (type, start, num) entries whose starts are
** the running sum and whose types are distinct, and the items of each
** block in order; together they must hold exactly the header's items.
** Polls `cancel` (NULL: never) every CODEC_POLL_RECORDS items. */
static int parse_items(datafile *df, const unsigned char *buf, size_t size, const df_layout *l,
                       const codec_cancel *cancel, codec_error *err) {
  byte_reader r = br_at(buf, size, 0), at = br_at(buf, size, 0);
  size_t t, k, expected_items = 0;
  for (t = 0; t < (size_t)l->ntypes; t++) {
    size_t o = l->off_types + t * 12;
    int32_t type, start, num;
    br_seek(&r, o);
    type = br_i32le(&r);
    start = br_i32le(&r);
    num = br_i32le(&r);
    if (type < 0 || type > 0xFFFF)
      return codec_fail(err, "item type table entry %zu: byte offset %zu: type id %d out of range 0..65535", t, o,
                        (int)type);
    if (start < 0 || num < 0 || (size_t)start != expected_items || (size_t)num > (size_t)l->nitems - expected_items)
      return codec_fail(err, "item type table entry %zu (type %d): byte offset %zu: start %d num %d do not continue "
                             "the previous types (expected start %zu, %d items in all)",
                        t, (int)type, o + 4, (int)start, (int)num, expected_items, (int)l->nitems);
    for (k = 0; k < t; k++) {
      br_seek(&at, l->off_types + k * 12);
      if (br_i32le(&at) == type)
        return codec_fail(err, "item type table entry %zu: byte offset %zu: type %d listed twice", t, o, (int)type);
    }
    for (k = 0; k < (size_t)num; k++) {
      if (codec_cancelled_at(cancel, df->num_items)) return codec_fail_interrupted(err);
      if (!parse_item(df, buf, size, l, (size_t)start + k, type, err)) return 0;
    }
    expected_items += (size_t)num;
  }
  if (expected_items != (size_t)l->nitems)
    return codec_fail(err, "item type table: byte offset %zu: types hold %zu items, header says %d", l->off_types,
                      expected_items, (int)l->nitems);
  return 1;
}

/* Reads the data blobs: offsets monotonic inside the data area (the first
** at 0), v4's uncompressed sizes not negative; each blob's stored bytes
** are copied (v3 stores them raw), polling `cancel` (NULL: never) every
** CODEC_POLL_RECORDS blobs and every CODEC_POLL_BYTES bytes copied. */
static int parse_data(datafile *df, const unsigned char *buf, size_t size, const df_layout *l,
                      const codec_cancel *cancel, codec_error *err) {
  byte_reader at = br_at(buf, size, 0);
  size_t i;
  for (i = 0; i < (size_t)l->ndata; i++) {
    int32_t doff, dnext;
    df_data *d = &df->data[df->num_data];
    if (codec_cancelled_at(cancel, i)) return codec_fail_interrupted(err);
    br_seek(&at, l->off_data_offsets + i * 4);
    doff = br_i32le(&at);
    dnext = i + 1 < (size_t)l->ndata ? br_i32le(&at) : l->data_size;
    if (doff < 0 || dnext < doff || dnext > l->data_size || (i == 0 && doff != 0))
      return codec_fail(err, "data %zu: byte offset %zu: data offset %d / next %d invalid in a data area of %d bytes",
                        i, l->off_data_offsets + i * 4, (int)doff, (int)dnext, (int)l->data_size);
    memset(d, 0, sizeof *d);
    d->stored_size = (size_t)(dnext - doff);
    if (l->version == 4) {
      int32_t ds;
      br_seek(&at, l->off_data_sizes + i * 4);
      ds = br_i32le(&at);
      if (ds < 0)
        return codec_fail(err, "data %zu: byte offset %zu: negative uncompressed size %d", i,
                          l->off_data_sizes + i * 4, (int)ds);
      d->declared_size = (uint32_t)ds;
    } else {
      d->declared_size = (uint32_t)d->stored_size;
      d->stored_is_raw = 1;
    }
    br_seek(&at, l->off_data + (size_t)doff);
    d->stored = (unsigned char *)xmalloc(d->stored_size);
    if (!d->stored) return codec_fail_oom(err, "data %zu: out of memory", i);
    df->num_data++; /* owns d->stored now: df_free frees it if the copy stops */
    if (!codec_copy_cancel(d->stored, br_bytes(&at, d->stored_size), d->stored_size, cancel))
      return codec_fail_interrupted(err);
  }
  return 1;
}

/* df_parse: validates the whole container strictly (like DDNet >= 19): the
** counts must describe exactly the file size, the type table must be a
** partition of the items in order, item headers must agree with the offset
** table, and data offsets must be monotonic inside the data area.  size and
** swaplen are checked against both the current and the legacy (pre-2010)
** formula but otherwise not trusted: all sizes come from the counts.  Once
** the header is checked, every read below is in range. */
int df_parse(const unsigned char *buf, size_t size, datafile **out, codec_error *err) {
  return df_parse_cancel(buf, size, NULL, out, err);
}

/* df_parse polling `cancel` (NULL: never) while it reads items and copies
** blobs: a stop fails with CODEC_E_INTERRUPT and frees what was read. */
int df_parse_cancel(const unsigned char *buf, size_t size, const codec_cancel *cancel, datafile **out,
                    codec_error *err) {
  datafile *df;
  df_layout l;
  *out = NULL;
  memset(&l, 0, sizeof l);
  if (!parse_header(buf, size, &l, err)) return 0;
  df = df_new();
  if (!df) return codec_fail_oom(err, "header: out of memory");
  df->header_kind = l.header_kind;
  df->version = (int)l.version;
  df->magic_swapped = memcmp(buf, "ATAD", 4) == 0;
  if ((l.nitems && !items_reserve(df, (size_t)l.nitems)) || (l.ndata && !data_reserve(df, (size_t)l.ndata))) {
    df_free(df);
    return codec_fail_oom(err, "header: out of memory for %d items / %d data", (int)l.nitems, (int)l.ndata);
  }
  if (!parse_items(df, buf, size, &l, cancel, err) || !parse_data(df, buf, size, &l, cancel, err)) {
    df_free(df);
    return 0;
  }
  *out = df;
  return 1;
}

/* ---- item access ----------------------------------------------------------- */

const df_item *df_item_at(const datafile *df, size_t i) {
  return (df && i < df->num_items) ? &df->items[i] : NULL;
}

long df_find_item(const datafile *df, uint32_t type, uint32_t id) {
  size_t i;
  for (i = 0; i < df->num_items; i++)
    if (df->items[i].type == type && df->items[i].id == id) return (long)i;
  return -1;
}

size_t df_type_count(const datafile *df, uint32_t type) {
  size_t i, n = 0;
  for (i = 0; i < df->num_items; i++)
    if (df->items[i].type == type) n++;
  return n;
}

long df_type_nth(const datafile *df, uint32_t type, size_t n) {
  size_t i;
  for (i = 0; i < df->num_items; i++)
    if (df->items[i].type == type && n-- == 0) return (long)i;
  return -1;
}

/* UUID words are stored as i32 whose big-endian bytes are the UUID bytes. */
static void uuid_from_ints(const int32_t *ints, unsigned char out[16]) {
  int k;
  for (k = 0; k < 4; k++) {
    uint32_t v = (uint32_t)ints[k];
    out[k * 4] = (unsigned char)(v >> 24);
    out[k * 4 + 1] = (unsigned char)(v >> 16);
    out[k * 4 + 2] = (unsigned char)(v >> 8);
    out[k * 4 + 3] = (unsigned char)v;
  }
}

static void uuid_to_ints(const unsigned char uuid[16], int32_t *ints) {
  int k;
  for (k = 0; k < 4; k++) {
    uint32_t v = ((uint32_t)uuid[k * 4] << 24) | ((uint32_t)uuid[k * 4 + 1] << 16) |
                 ((uint32_t)uuid[k * 4 + 2] << 8) | (uint32_t)uuid[k * 4 + 3];
    ints[k] = u32_as_i32(v);
  }
}

long df_find_uuid_type(const datafile *df, const unsigned char uuid[16]) {
  size_t i;
  for (i = 0; i < df->num_items; i++) {
    const df_item *it = &df->items[i];
    unsigned char u[16];
    if (it->type != DF_ITEMTYPE_EX || it->num_ints < 4) continue;
    uuid_from_ints(it->ints, u);
    if (memcmp(u, uuid, 16) == 0) return (long)it->id;
  }
  return -1;
}

/* The UUID-index item describing internal type `type` (first one, as DDNet
** looks it up), or NULL. */
static const df_item *uuid_index_for(const datafile *df, uint32_t type) {
  size_t i;
  if (type < DF_UUID_TYPE_MIN || type == DF_ITEMTYPE_EX) return NULL;
  for (i = 0; i < df->num_items; i++) {
    const df_item *it = &df->items[i];
    if (it->type == DF_ITEMTYPE_EX && it->id == type && it->num_ints >= 4) return it;
  }
  return NULL;
}

int df_item_set(datafile *df, size_t i, const int32_t *ints, size_t n) {
  int32_t *p = NULL;
  size_t bytes;
  if (i >= df->num_items) return 0;
  if (n) {
    if (!size_mul(n, 4, &bytes)) return 0;
    p = (int32_t *)malloc(bytes);
    if (!p) return 0;
    memcpy(p, ints, bytes);
  }
  free(df->items[i].ints);
  df->items[i].ints = p;
  df->items[i].num_ints = n;
  return 1;
}

long df_item_add(datafile *df, uint32_t type, uint32_t id, const int32_t *ints, size_t n) {
  df_item *it;
  size_t bytes;
  if (!items_reserve(df, 1)) return -1;
  it = &df->items[df->num_items];
  it->type = type & 0xFFFF;
  it->id = id & 0xFFFF;
  it->num_ints = n;
  it->ints = NULL;
  if (n) {
    if (!size_mul(n, 4, &bytes)) return -1;
    it->ints = (int32_t *)malloc(bytes);
    if (!it->ints) return -1;
    memcpy(it->ints, ints, bytes);
  }
  return (long)df->num_items++;
}

/* ---- data access ----------------------------------------------------------- */

size_t df_data_size(const datafile *df, size_t i) {
  if (i >= df->num_data) return 0;
  if (df->data[i].state == DF_DATA_LOADED) return df->data[i].raw_size;
  return df->data[i].declared_size;
}

/* Inflates blob i's stored bytes into a fresh buffer the caller owns
** (*out, *size), without caching them in the datafile.  The declared size
** is checked against DF_MAX_DATA_SIZE and zlib's maximal expansion ratio
** before the buffer is allocated; the stream must inflate to exactly that
** size.  A stream that does not (or a declared size of 0) marks the blob
** unavailable; a refused size or a failed allocation leaves it as it was. */
/* zlib's uncompress() (same codes: Z_OK with *dst_len the bytes written,
** Z_DATA_ERROR for a damaged or truncated stream, Z_BUF_ERROR when dst is
** too small, Z_MEM_ERROR), in steps of DF_INFLATE_STEP output bytes with
** `cancel` polled between them: DF_Z_CANCELLED when it says stop.  A
** 512 MiB blob takes about half a second to inflate; a step, a few ms. */
#define DF_INFLATE_STEP (4u * 1024u * 1024u)
#define DF_Z_CANCELLED 100 /* not a zlib code */
static int inflate_steps(unsigned char *dst, uLongf *dst_len, const unsigned char *src, size_t src_len,
                         const codec_cancel *cancel) {
  z_stream zs;
  size_t in_left = src_len, out_cap = (size_t)*dst_len, out_done = 0;
  int zr;
  memset(&zs, 0, sizeof zs);
  if ((zr = inflateInit(&zs)) != Z_OK) return zr;
  zs.next_in = (Bytef *)(uintptr_t)src;
  zs.next_out = dst;
  for (;;) {
    size_t out_left = out_cap - out_done, before_out;
    if (zs.avail_in == 0 && in_left) {
      zs.avail_in = in_left > UINT32_MAX ? UINT32_MAX : (uInt)in_left;
      in_left -= zs.avail_in;
    }
    zs.avail_out = out_left < DF_INFLATE_STEP ? (uInt)out_left : DF_INFLATE_STEP;
    before_out = zs.avail_out;
    zr = inflate(&zs, Z_NO_FLUSH);
    out_done += before_out - zs.avail_out;
    if (zr == Z_STREAM_END) break;
    if (zr == Z_NEED_DICT || (zr == Z_BUF_ERROR && zs.avail_in == 0 && !in_left)) zr = Z_DATA_ERROR;
    if (zr != Z_OK) {
      inflateEnd(&zs);
      return zr;
    }
    if (codec_cancelled(cancel)) {
      inflateEnd(&zs);
      return DF_Z_CANCELLED;
    }
  }
  inflateEnd(&zs);
  *dst_len = (uLongf)out_done;
  return Z_OK;
}

static int inflate_stored(df_data *d, size_t i, const codec_cancel *cancel, unsigned char **out, size_t *size,
                          codec_error *err) {
  uLongf dest_len;
  int zr;
  size_t ratio_cap;
  unsigned char *buf;
  *out = NULL;
  *size = 0;
  if (d->stored_is_raw) {
    if (!(buf = dup_bytes(d->stored, d->stored_size))) return codec_fail_oom(err, "data %zu: out of memory", i);
    *out = buf;
    *size = d->stored_size;
    return 1;
  }
  if (d->declared_size == 0) {
    d->state = DF_DATA_UNAVAILABLE;
    return codec_fail(err, "data %zu: declared uncompressed size is 0 (unavailable)", i);
  }
  if (d->declared_size > DF_MAX_DATA_SIZE)
    return codec_fail_limit(err, "data %zu: declared uncompressed size %u exceeds the limit of %u bytes", i,
                            (unsigned)d->declared_size, (unsigned)DF_MAX_DATA_SIZE);
  if (!size_mul(d->stored_size, DF_MAX_ZLIB_RATIO, &ratio_cap) || !size_add(ratio_cap, 64, &ratio_cap))
    ratio_cap = SIZE_MAX;
  if (d->declared_size > ratio_cap)
    return codec_fail(err, "data %zu: declared uncompressed size %u impossible for %zu compressed bytes", i,
                      (unsigned)d->declared_size, d->stored_size);
  buf = (unsigned char *)xmalloc(d->declared_size);
  if (!buf) return codec_fail_oom(err, "data %zu: out of memory for %u bytes", i, (unsigned)d->declared_size);
  dest_len = (uLongf)d->declared_size;
  zr = inflate_steps(buf, &dest_len, d->stored, d->stored_size, cancel);
  if (zr == DF_Z_CANCELLED) {
    free(buf);
    return codec_fail_interrupted(err);
  }
  if (zr != Z_OK || dest_len != (uLongf)d->declared_size) {
    free(buf);
    if (zr == Z_MEM_ERROR) /* zlib's own allocation: the blob may inflate later */
      return codec_fail_oom(err, "data %zu: out of memory inflating %zu bytes", i, d->stored_size);
    d->state = DF_DATA_UNAVAILABLE;
    return codec_fail(err, "data %zu: zlib stream of %zu bytes does not inflate to the declared %u bytes (%s)", i,
                      d->stored_size, (unsigned)d->declared_size, zr == Z_OK ? "size mismatch" : zError(zr));
  }
  *out = buf;
  *size = d->declared_size;
  return 1;
}

/* df_data_get: inflates blob i on first use (inflate_stored) and keeps the
** result, so later calls and the pointers handed out share one copy. */
int df_data_get(datafile *df, size_t i, const unsigned char **data, size_t *size, codec_error *err) {
  df_data *d;
  unsigned char *buf;
  size_t n;
  if (i >= df->num_data)
    return codec_fail(err, "data %zu: index out of range (file has %zu data)", i, df->num_data);
  d = &df->data[i];
  if (d->state == DF_DATA_LOADED) {
    *data = d->raw;
    *size = d->raw_size;
    return 1;
  }
  if (d->state == DF_DATA_UNAVAILABLE)
    return codec_fail(err, "data %zu: unavailable (could not be inflated)", i);
  if (!inflate_stored(d, i, df->cancel, &buf, &n, err)) return 0;
  d->raw = buf;
  d->raw_size = n;
  d->state = DF_DATA_LOADED;
  *data = d->raw;
  *size = d->raw_size;
  return 1;
}

/* df_data_copy: a copy of what df_data_get would return, but a blob not
** inflated yet is inflated straight into the caller's buffer and stays
** compressed in the datafile (a decoder that keeps its own form of the
** bytes then holds them once). */
int df_data_copy(datafile *df, size_t i, unsigned char **out, size_t *size, codec_error *err) {
  df_data *d;
  *out = NULL;
  *size = 0;
  if (i >= df->num_data)
    return codec_fail(err, "data %zu: index out of range (file has %zu data)", i, df->num_data);
  d = &df->data[i];
  if (d->state == DF_DATA_UNAVAILABLE)
    return codec_fail(err, "data %zu: unavailable (could not be inflated)", i);
  if (d->state == DF_DATA_LOADED) {
    if (!(*out = dup_bytes(d->raw, d->raw_size))) return codec_fail_oom(err, "data %zu: out of memory", i);
    *size = d->raw_size;
    return 1;
  }
  return inflate_stored(d, i, df->cancel, out, size, err);
}

void df_shed(datafile *df) {
  size_t i;
  for (i = 0; i < df->num_data; i++) {
    df_data *d = &df->data[i];
    if (d->state != DF_DATA_LOADED || d->dirty || !d->stored || !d->stored_size) continue;
    free(d->raw);
    d->raw = NULL;
    d->raw_size = 0;
    d->state = DF_DATA_STORED;
  }
}

int df_data_set(datafile *df, size_t i, const unsigned char *bytes, size_t n) {
  unsigned char *p;
  if (i >= df->num_data) return 0;
  if (n > 0x7FFFFFFFu) return 0;
  p = dup_bytes(bytes, n);
  if (!p) return 0;
  free(df->data[i].raw);
  df->data[i].raw = p;
  df->data[i].raw_size = n;
  df->data[i].state = DF_DATA_LOADED;
  df->data[i].dirty = 1;
  return 1;
}

long df_data_add(datafile *df, const unsigned char *bytes, size_t n) {
  df_data *d;
  if (n > 0x7FFFFFFFu || !data_reserve(df, 1)) return -1;
  d = &df->data[df->num_data];
  memset(d, 0, sizeof *d);
  d->raw = dup_bytes(bytes, n);
  if (!d->raw) return -1;
  d->raw_size = n;
  d->state = DF_DATA_LOADED;
  d->dirty = 1;
  return (long)df->num_data++;
}

/* ---- writing --------------------------------------------------------------- */

typedef struct out_item {
  uint32_t type; /* type written to the file */
  uint32_t id;
  size_t src;    /* list position, or SIZE_MAX for a generated UUID-index item */
  int32_t uuid_ints[4];
} out_item;

/* Orders by output type, then by position in the list (a stable sort; the
** generated index items carry their allocation order in src via the caller). */
static int out_item_cmp(const void *a, const void *b) {
  const out_item *x = (const out_item *)a, *y = (const out_item *)b;
  if (x->type != y->type) return x->type < y->type ? -1 : 1;
  if (x->src != y->src) return x->src < y->src ? -1 : 1;
  return 0;
}

/* One blob as it will be written. */
typedef struct out_blob {
  const unsigned char *bytes; /* stored bytes to write (points into df or owned below) */
  unsigned char *owned;
  size_t size;
  uint32_t raw_size;
} out_blob;

/* The zlib compressor of one df_write, set up by its first blob that needs
** compressing and reset for each next one: deflateInit allocates about
** 256 KB (window, hash chains, pending buffer) that a write of many
** changed layers would otherwise allocate and clear again per blob. */
typedef struct blob_deflater {
  z_stream zs;
  int ready; /* deflateInit succeeded: deflateEnd is owed */
} blob_deflater;

/* Compresses raw_size bytes at level 6 into out (*out_len bytes, at least
** compressBound) and sets *out_len to the compressed size: the same bytes
** compress2(level 6) gives, as deflateReset equals deflateEnd followed by
** deflateInit.  Returns a zlib code (Z_OK on success). */
static int deflate_blob(blob_deflater *bd, const unsigned char *raw, size_t raw_size, unsigned char *out,
                        uLongf *out_len) {
  int zr;
  if (!bd->ready) {
    memset(&bd->zs, 0, sizeof bd->zs);
    if ((zr = deflateInit(&bd->zs, 6)) != Z_OK) return zr;
    bd->ready = 1;
  } else if ((zr = deflateReset(&bd->zs)) != Z_OK) {
    return zr;
  }
  bd->zs.next_in = (Bytef *)raw;
  bd->zs.avail_in = (uInt)raw_size;
  bd->zs.next_out = out;
  bd->zs.avail_out = (uInt)*out_len;
  zr = deflate(&bd->zs, Z_FINISH);
  if (zr != Z_STREAM_END) return zr == Z_OK ? Z_BUF_ERROR : zr;
  *out_len = (uLongf)bd->zs.total_out;
  return Z_OK;
}

/* Produces the bytes to store for blob i: the original stored bytes when
** allowed (unchanged v4 blob, no recompression asked, or unavailable data),
** else the uncompressed bytes deflated at level 6 (deflate_blob, with the
** write's one compressor).  A blob not inflated yet is inflated into a
** buffer freed here, so writing does not leave the datafile holding blobs
** its readers never asked for. */
static int prepare_blob(datafile *df, size_t i, int flags, blob_deflater *bd, out_blob *ob, codec_error *err) {
  df_data *d = &df->data[i];
  const unsigned char *raw;
  unsigned char *scratch = NULL;
  size_t raw_size;
  uLongf clen;
  int zr;
  memset(ob, 0, sizeof *ob);
  if (!d->dirty && !d->stored_is_raw && (!(flags & DF_WRITE_RECOMPRESS) || d->state == DF_DATA_UNAVAILABLE)) {
    ob->bytes = d->stored;
    ob->size = d->stored_size;
    ob->raw_size = d->declared_size;
    return 1;
  }
  if (d->state == DF_DATA_LOADED) {
    raw = d->raw;
    raw_size = d->raw_size;
  } else {
    codec_error e2;
    if (!inflate_stored(d, i, df->cancel, &scratch, &raw_size, &e2)) {
      /* unavailable or refused (size limit): keep the stored bytes as read */
      if (!d->stored_is_raw) {
        ob->bytes = d->stored;
        ob->size = d->stored_size;
        ob->raw_size = d->declared_size;
        return 1;
      }
      if (err) *err = e2;
      return 0;
    }
    raw = scratch;
  }
  if (raw_size > 0x7FFFFFFFu) {
    free(scratch);
    return codec_fail_limit(err, "data %zu: %zu bytes is too large for a datafile", i, raw_size);
  }
  clen = compressBound((uLong)raw_size);
  ob->owned = (unsigned char *)xmalloc((size_t)clen);
  if (!ob->owned) {
    free(scratch);
    return codec_fail_oom(err, "data %zu: out of memory compressing %zu bytes", i, raw_size);
  }
  zr = deflate_blob(bd, raw ? raw : (const unsigned char *)"", raw_size, ob->owned, &clen);
  free(scratch);
  if (zr != Z_OK) {
    free(ob->owned);
    ob->owned = NULL;
    return codec_fail_code(err, zr == Z_MEM_ERROR ? CODEC_E_MEMORY : CODEC_E_LIMIT,
                           "data %zu: zlib deflate failed (%s)", i, zError(zr));
  }
  ob->bytes = ob->owned;
  ob->size = (size_t)clen;
  ob->raw_size = (uint32_t)raw_size;
  return 1;
}

/* Returns 1 if `type` is the raw type of some item that is not a UUID type
** (so a generated internal type must avoid it). */
static int type_taken_raw(const datafile *df, uint32_t type) {
  size_t i;
  for (i = 0; i < df->num_items; i++)
    if (df->items[i].type == type && !uuid_index_for(df, type)) return 1;
  return 0;
}

/* The UUID item types a write has renumbered so far (by first use). */
typedef struct uuid_renumbering {
  unsigned char uuids[256][16];
  uint32_t types[256];
  size_t n;
} uuid_renumbering;

/* The internal type written for the UUID item type whose index item is
** ex: the one given at its first use; else (first use) the next free one
** below 0xFFFF, whose generated index item goes into the slot
** oi[*n_out] the caller is filling, the item being written moving one
** slot on (*n_out counts the index item).  Returns the type, or 0 after
** failing err. */
static uint32_t renumber_uuid_type(const datafile *df, const df_item *ex, uuid_renumbering *r, out_item *oi,
                                   size_t *n_out, codec_error *err) {
  unsigned char u[16];
  size_t k;
  uint32_t t;
  out_item tmp;
  uuid_from_ints(ex->ints, u);
  for (k = 0; k < r->n; k++)
    if (memcmp(r->uuids[k], u, 16) == 0) return r->types[k];
  if (r->n == 256) {
    codec_fail_limit(err, "write: more than 256 UUID item types");
    return 0;
  }
  t = r->n ? r->types[r->n - 1] - 1 : 0xFFFEu;
  while (t >= DF_UUID_TYPE_MIN && type_taken_raw(df, t)) t--;
  if (t < DF_UUID_TYPE_MIN) {
    codec_fail_limit(err, "write: no free internal type for UUID item type");
    return 0;
  }
  memcpy(r->uuids[k], u, 16);
  r->types[k] = t;
  r->n++;
  (*n_out)++;
  /* The index item, written when the type is first used (its src orders
  ** it after earlier items, before this one). */
  oi[*n_out].type = DF_ITEMTYPE_EX;
  oi[*n_out].id = t;
  oi[*n_out].src = SIZE_MAX - 256 + k;
  uuid_to_ints(u, oi[*n_out].uuid_ints);
  /* swap so the data item stays in slot *n_out */
  tmp = oi[*n_out - 1];
  oi[*n_out - 1] = oi[*n_out];
  oi[*n_out] = tmp;
  return t;
}

/* The items as written, into oi (room for 2 * num_items + 1) and their
** number into *n_out: every item but the old UUID index items, UUID types
** renumbered by first use with their index items generated, sorted by
** type (list order kept inside a type).  Returns 1, or 0 with err set. */
static int order_items(const datafile *df, out_item *oi, size_t *n_out, codec_error *err) {
  uuid_renumbering r;
  size_t i;
  r.n = 0;
  *n_out = 0;
  for (i = 0; i < df->num_items; i++) {
    const df_item *it = &df->items[i];
    const df_item *ex;
    if (it->type == DF_ITEMTYPE_EX) continue; /* regenerated below */
    oi[*n_out].type = it->type;
    oi[*n_out].id = it->id;
    oi[*n_out].src = i;
    if ((ex = uuid_index_for(df, it->type))) {
      uint32_t t = renumber_uuid_type(df, ex, &r, oi, n_out, err);
      if (!t) return 0;
      oi[*n_out].type = t;
    }
    (*n_out)++;
  }
  qsort(oi, *n_out, sizeof *oi, out_item_cmp);
  return 1;
}

/* The payload bytes of written item oi (a generated index item: its UUID). */
static size_t out_item_payload(const datafile *df, const out_item *oi) {
  return oi->src >= SIZE_MAX - 256 ? 16 : df->items[oi->src].num_ints * 4;
}

/* The header, the item types, the item and data offsets, the raw sizes,
** the items and the blobs, into w (reserved for total bytes). */
static void write_datafile(const datafile *df, const out_item *oi, size_t n_out, size_t n_types, const out_blob *ob,
                           size_t item_area, size_t data_area, size_t total, byte_writer *w) {
  size_t i, j, off;
  byte_writer_reserve(w, total);
  byte_writer_bytes(w, "DATA", 4);
  byte_writer_u32(w, 4);
  byte_writer_u32(w, (uint32_t)(total - 16));
  byte_writer_u32(w, (uint32_t)(total - data_area - 16));
  byte_writer_u32(w, (uint32_t)n_types);
  byte_writer_u32(w, (uint32_t)n_out);
  byte_writer_u32(w, (uint32_t)df->num_data);
  byte_writer_u32(w, (uint32_t)item_area);
  byte_writer_u32(w, (uint32_t)data_area);
  for (i = 0; i < n_out; i = j) {
    for (j = i; j < n_out && oi[j].type == oi[i].type; j++) {
    }
    byte_writer_u32(w, oi[i].type);
    byte_writer_u32(w, (uint32_t)i);
    byte_writer_u32(w, (uint32_t)(j - i));
  }
  for (i = 0, off = 0; i < n_out; i++) {
    byte_writer_u32(w, (uint32_t)off);
    off += 8 + out_item_payload(df, &oi[i]);
  }
  for (i = 0, off = 0; i < df->num_data; i++) {
    byte_writer_u32(w, (uint32_t)off);
    off += ob[i].size;
  }
  for (i = 0; i < df->num_data; i++) byte_writer_u32(w, ob[i].raw_size);
  for (i = 0; i < n_out; i++) {
    byte_writer_u32(w, (oi[i].type << 16) | (oi[i].id & 0xFFFF));
    if (oi[i].src >= SIZE_MAX - 256) {
      byte_writer_u32(w, 16);
      for (j = 0; j < 4; j++) byte_writer_i32(w, oi[i].uuid_ints[j]);
    } else {
      const df_item *it = &df->items[oi[i].src];
      byte_writer_u32(w, (uint32_t)(it->num_ints * 4));
      for (j = 0; j < it->num_ints; j++) byte_writer_i32(w, it->ints[j]);
    }
  }
  for (i = 0; i < df->num_data; i++) byte_writer_bytes(w, ob[i].bytes, ob[i].size);
}

/* df_write: the DDNet writer.  UUID types are renumbered by first use (see
** datafile.h), items sorted by type with list order kept inside a type, every
** count and offset recomputed, and the header's size/swaplen written with the
** current formula. */
int df_write(datafile *df, int flags, unsigned char **out, size_t *out_size, codec_error *err) {
  out_item *oi = NULL;
  out_blob *ob = NULL;
  size_t n_out = 0, i, n_types = 0, item_area = 0, data_area = 0, total;
  byte_writer w;
  blob_deflater deflater;
  int ok = 0;

  memset(&w, 0, sizeof w);
  deflater.ready = 0;
  *out = NULL;
  *out_size = 0;
  oi = (out_item *)calloc(df->num_items * 2 + 1, sizeof *oi);
  ob = (out_blob *)calloc(df->num_data + 1, sizeof *ob);
  if (!oi || !ob) {
    codec_fail_oom(err, "write: out of memory");
    goto done;
  }
  if (!order_items(df, oi, &n_out, err)) goto done;
  for (i = 0; i < n_out; i++) {
    if (!size_add(item_area, 8 + out_item_payload(df, &oi[i]), &item_area)) {
      codec_fail_limit(err, "write: item area too large");
      goto done;
    }
    if (i == 0 || oi[i].type != oi[i - 1].type) n_types++;
  }
  for (i = 0; i < df->num_data; i++) {
    if (!prepare_blob(df, i, flags, &deflater, &ob[i], err)) goto done;
    if (!size_add(data_area, ob[i].size, &data_area)) {
      codec_fail_limit(err, "write: data area too large");
      goto done;
    }
  }
  total = DF_FIXED_HEADER + 12 * n_types + 4 * n_out + 8 * df->num_data + item_area + data_area;
  if (item_area > 0x7FFFFFFFu || data_area > 0x7FFFFFFFu || total > 0x7FFFFFFFu) {
    codec_fail_limit(err, "write: file would be %zu bytes, too large for a datafile", total);
    goto done;
  }
  write_datafile(df, oi, n_out, n_types, ob, item_area, data_area, total, &w);
  if (w.failed) {
    codec_fail_oom(err, "write: out of memory for %zu bytes", total);
    goto done;
  }
  *out = byte_writer_take(&w, out_size);
  ok = 1;
done:
  byte_writer_free(&w);
  if (deflater.ready) deflateEnd(&deflater.zs);
  if (ob)
    for (i = 0; i < df->num_data; i++) free(ob[i].owned);
  free(ob);
  free(oi);
  return ok;
}
