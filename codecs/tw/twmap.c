/*
** twmap.c: the Teeworlds / DDNet map model.  See twmap.h, and NOTES-tw.md
** for the quirks handled here.
*/
#include "tw/twmap.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"
#include "common/sha256.h"

/* Tilemap item int positions (3-int common layer header first). */
enum {
  TL_TYPE = 1, TL_FLAGS = 2, TL_VERSION = 3, TL_WIDTH = 4, TL_HEIGHT = 5, TL_TFLAGS = 6, TL_COLOR = 7,
  TL_COLOR_ENV = 11, TL_COLOR_ENV_OFF = 12, TL_IMAGE = 13, TL_DATA = 14, TL_NAME = 15, TL_DDNET_V3 = 18,
  TL_DDNET_V2 = 15
};
/* Quads / sounds layer item positions. */
enum { QL_VERSION = 3, QL_NUM = 4, QL_DATA = 5, QL_IMAGE = 6, QL_NAME = 7 };
/* Group item positions. */
enum { GR_VERSION = 0, GR_OFFX = 1, GR_OFFY = 2, GR_PARX = 3, GR_PARY = 4, GR_START = 5, GR_NUM = 6, GR_CLIPPING = 7,
       GR_CLIPX = 8, GR_CLIPY = 9, GR_CLIPW = 10, GR_CLIPH = 11, GR_NAME = 12 };
/* Envelope item positions. */
enum { EN_VERSION = 0, EN_CHANNELS = 1, EN_START = 2, EN_NUM = 3, EN_NAME = 4, EN_SYNC = 12 };

/* Tilemap flags (TL_TFLAGS). */
enum { TF_GAME = 1, TF_TELE = 2, TF_SPEEDUP = 4, TF_FRONT = 8, TF_SWITCH = 16, TF_TUNE = 32 };

/* Largest expanded layer we agree to allocate. */
#define TW_MAX_LAYER_BYTES (512u * 1024u * 1024u)

/* UUID of "mapitemtype-envpoints-bezier@ddnet.tw". */
static const unsigned char UUID_ENVPOINTS_BEZIER[16] = {0x3a, 0xb4, 0xf8, 0x4d, 0xd9, 0xcc, 0x3c, 0x78,
                                                        0xb5, 0x85, 0x0d, 0x6c, 0xcd, 0xb2, 0xe2, 0x5c};

/* ---- small helpers ------------------------------------------------------------ */

/* Field k of an item, or dflt when the item is shorter. */
static int32_t ival(const df_item *it, size_t k, int32_t dflt) { return k < it->num_ints ? it->ints[k] : dflt; }

/* Sets field k of item `pos`, growing the item with zeros if it is shorter.
** An unchanged value never grows the item. */
static int set_ival(tw_map *m, size_t pos, size_t k, int32_t v, codec_error *err) {
  df_item *it = &m->df->items[pos];
  if (k < it->num_ints) {
    it->ints[k] = v;
    return 1;
  }
  {
    size_t n = k + 1, bytes;
    int32_t *p;
    if (!size_mul(n, 4, &bytes)) return codec_fail_limit(err, "item type %u id %u: too large", it->type, it->id);
    p = (int32_t *)calloc(n, 4);
    if (!p) return codec_fail_oom(err, "item type %u id %u: out of memory", it->type, it->id);
    if (it->num_ints) memcpy(p, it->ints, it->num_ints * 4);
    p[k] = v;
    free(it->ints);
    it->ints = p;
    it->num_ints = n;
  }
  return 1;
}

/* Decodes an I32String of n ints into out (size >= 4n).  Bytes are the
** big-endian bytes of each int minus 128; the very last byte is ignored and
** the string ends at the first NUL. */
static void i32str_decode(const df_item *it, size_t k, size_t n, char *out) {
  size_t i, o = 0;
  int b;
  for (i = 0; i < n; i++) {
    uint32_t v = (uint32_t)ival(it, k + i, 0x80808080);
    for (b = 0; b < 4; b++) {
      unsigned char c = (unsigned char)(((v >> (24 - 8 * b)) & 0xFFu) - 128u);
      if (i == n - 1 && b == 3) c = 0;
      out[o++] = (char)c;
      if (!c) return;
    }
  }
  out[o] = 0;
}

/* Encodes s (at most 4n-1 bytes) as an I32String into fields k..k+n-1 the
** way DDNet's StrToInts does (zero padding, last byte forced to 0). */
static int i32str_encode(tw_map *m, size_t pos, size_t k, size_t n, const char *s, codec_error *err) {
  size_t len = strlen(s), i, idx = 0;
  const df_item *it = &m->df->items[pos];
  if (len > 4 * n - 1)
    return codec_fail_arg(err, "item type %u id %u: name \"%s\" is %zu bytes, at most %zu fit", it->type, it->id, s,
                          len, 4 * n - 1);
  for (i = 0; i < n; i++) {
    unsigned char buf[4] = {0, 0, 0, 0};
    uint32_t v;
    int c;
    for (c = 0; c < 4 && idx < len; c++) buf[c] = (unsigned char)s[idx++];
    v = ((uint32_t)(unsigned char)(buf[0] + 128) << 24) | ((uint32_t)(unsigned char)(buf[1] + 128) << 16) |
        ((uint32_t)(unsigned char)(buf[2] + 128) << 8) | (uint32_t)(unsigned char)(buf[3] + 128);
    if (i == n - 1) v &= 0xFFFFFF00u;
    if (!set_ival(m, pos, k + i, u32_as_i32(v), err)) return 0;
  }
  return 1;
}

/* A NUL-terminated string blob: pointer and length up to the first NUL.
** idx -1 means "none" (NULL, 0). */
static int blob_string(tw_map *m, int32_t idx, const char **s, size_t *len, codec_error *err) {
  const unsigned char *d;
  size_t n;
  *s = NULL;
  *len = 0;
  if (idx < 0) return 1;
  if (!df_data_get(m->df, (size_t)idx, &d, &n, err)) return 0;
  {
    const unsigned char *z = n ? (const unsigned char *)memchr(d, 0, n) : NULL;
    *s = (const char *)d;
    *len = z ? (size_t)(z - d) : n;
  }
  return 1;
}

const char *tw_style_name(tw_style s) {
  switch (s) {
    case TW_STYLE_06: return "0.6";
    case TW_STYLE_07: return "0.7";
    default: return "ddnet";
  }
}

const char *const tw_kind_names[] = {"tiles", "game",   "front",  "tele",   "speedup", "switch", "tune",
                                     "quads", "sounds", "sounds_deprecated", "unknown", NULL};

const char *tw_kind_name(tw_kind k) {
  return (unsigned)k <= TW_KIND_UNKNOWN ? tw_kind_names[k] : "unknown";
}

int tw_map_summarize(tw_map *m, tw_map_summary *out, codec_error *err) {
  int f;
  out->df_version = m->df->version;
  out->groups = (int64_t)m->num_groups;
  out->layers = (int64_t)m->num_layers;
  out->images = (int64_t)m->num_images;
  out->envelopes = (int64_t)m->num_envelopes;
  out->sounds = (int64_t)m->num_sounds;
  out->file_size = (int64_t)m->file_size;
  out->crc32 = m->crc32;
  out->style = (int32_t)m->style;
  for (f = TW_INFO_AUTHOR; f <= TW_INFO_SETTINGS; f++)
    if (!tw_info_get(m, (tw_info_field)f, &out->info[f].p, &out->info[f].n, err)) return 0;
  return 1;
}

int tw_kind_by_name(const char *name, tw_kind *k) {
  int i;
  for (i = TW_KIND_TILES; i <= TW_KIND_SOUNDS; i++)
    if (strcmp(name, tw_kind_name((tw_kind)i)) == 0) {
      *k = (tw_kind)i;
      return 1;
    }
  return 0;
}

long tw_layer_at(const tw_map *m, int64_t g, int64_t k) {
  size_t l;
  for (l = 0; l < m->num_layers; l++)
    if (m->layers[l].group == g && m->layers[l].index_in_group == k) return (long)l;
  return -1;
}

int tw_map_sniff(const unsigned char *data, size_t size) { return df_sniff(data, size); }

void tw_map_free(tw_map *m) {
  size_t i;
  if (!m) return;
  for (i = 0; i < m->num_layers; i++) free(m->layers[i].cells);
  free(m->layers);
  free(m->group_items);
  free(m->image_items);
  free(m->env_items);
  free(m->sound_items);
  tw_keys_free(m->keys);
  df_free(m->df);
  free(m);
}

/* Copies n size_t entries (NULL stays NULL); 0 on OOM. */
static int dup_index(const size_t *src, size_t n, size_t **out) {
  *out = NULL;
  if (!src || !n) return 1;
  *out = (size_t *)malloc(n * sizeof *src);
  if (!*out) return 0;
  memcpy(*out, src, n * sizeof *src);
  return 1;
}

/* tw_map_clone: a deep copy: the datafile, the indexes, the row keys and
** every decoded (possibly dirty) layer, so edits of the copy leave the
** original alone. */
tw_map *tw_map_clone(const tw_map *src) {
  tw_map *m = (tw_map *)malloc(sizeof *m);
  size_t i;
  if (!m) return NULL;
  *m = *src;
  m->df = NULL;
  m->layers = NULL;
  m->group_items = m->image_items = m->env_items = m->sound_items = NULL;
  m->keys = NULL;
  m->num_layers = 0;
  m->layers = (tw_layer *)calloc(src->num_layers ? src->num_layers : 1, sizeof *m->layers);
  if (!m->layers || !(m->df = df_clone(src->df)) || (src->keys && !(m->keys = tw_keys_clone(src->keys))) ||
      !dup_index(src->group_items, src->num_groups, &m->group_items) ||
      !dup_index(src->image_items, src->num_images, &m->image_items) ||
      !dup_index(src->env_items, src->num_envelopes, &m->env_items) ||
      !dup_index(src->sound_items, src->num_sounds, &m->sound_items)) {
    tw_map_free(m);
    return NULL;
  }
  for (i = 0; i < src->num_layers; i++) {
    const tw_layer *L = &src->layers[i];
    m->layers[i] = *L;
    m->layers[i].cells = NULL;
    m->num_layers = i + 1;
    if (L->cells) {
      m->layers[i].cells = (unsigned char *)malloc(L->cells_size ? L->cells_size : 1);
      if (!m->layers[i].cells) {
        tw_map_free(m);
        return NULL;
      }
      memcpy(m->layers[i].cells, L->cells, L->cells_size);
    }
  }
  return m;
}

/* Collects the list positions of every item of `type` (file order). */
static int collect(const datafile *df, uint32_t type, size_t **out, size_t *n) {
  size_t i, k = 0, cnt = df_type_count(df, type);
  *out = NULL;
  *n = cnt;
  if (!cnt) return 1;
  *out = (size_t *)malloc(cnt * sizeof **out);
  if (!*out) return 0;
  for (i = 0; i < df->num_items; i++)
    if (df->items[i].type == type) (*out)[k++] = i;
  return 1;
}

/* The DDNet extra-index field position for a tilemap item (tele is +0,
** speedup +1, front +2, switch +3, tune +4). */
static size_t ddnet_base(const df_item *it) { return ival(it, TL_VERSION, 0) <= 2 ? TL_DDNET_V2 : TL_DDNET_V3; }

/* Classifies layer l and fills its geometry from the item.  Structural
** problems of the item itself (too short for its type, bad dimensions) are
** errors; the blob is not looked at. */
static int classify_layer(tw_map *m, size_t l, codec_error *err) {
  tw_layer *L = &m->layers[l];
  const df_item *it = &m->df->items[L->item];
  int32_t type = ival(it, TL_TYPE, -1);
  L->kind = TW_KIND_UNKNOWN;
  if (type == 2) {
    int32_t w, h, tf;
    size_t cells;
    if (it->num_ints < 15)
      return codec_fail(err, "item type 5 id %u (layer %zu): item has %zu ints, tilemap needs at least 15", it->id, l,
                        it->num_ints);
    w = it->ints[TL_WIDTH];
    h = it->ints[TL_HEIGHT];
    tf = it->ints[TL_TFLAGS];
    if (w <= 0 || h <= 0 || !size_mul((size_t)w, (size_t)h, &cells) || cells > TW_MAX_LAYER_BYTES / 8)
      return codec_fail(err, "item type 5 id %u (layer %zu): byte offset %d: bad tilemap size %d x %d", it->id, l,
                        TL_WIDTH * 4, (int)w, (int)h);
    L->width = w;
    L->height = h;
    L->count = cells;
    if (tf & TF_GAME) { L->kind = TW_KIND_GAME; L->cell_size = 4; }
    else if (tf & TF_TELE) { L->kind = TW_KIND_TELE; L->cell_size = 2; }
    else if (tf & TF_SPEEDUP) { L->kind = TW_KIND_SPEEDUP; L->cell_size = 6; }
    else if (tf & TF_FRONT) { L->kind = TW_KIND_FRONT; L->cell_size = 4; }
    else if (tf & TF_SWITCH) { L->kind = TW_KIND_SWITCH; L->cell_size = 4; }
    else if (tf & TF_TUNE) { L->kind = TW_KIND_TUNE; L->cell_size = 2; }
    else { L->kind = TW_KIND_TILES; L->cell_size = 4; }
    L->skip_compressed = (L->kind == TW_KIND_TILES || L->kind == TW_KIND_GAME) && it->ints[TL_VERSION] >= 4;
  } else if (type == 3 || type == 9 || type == 10) {
    int32_t num;
    if (it->num_ints < 6)
      return codec_fail(err, "item type 5 id %u (layer %zu): item has %zu ints, %s layer needs at least 6", it->id, l,
                        it->num_ints, type == 3 ? "quads" : "sounds");
    num = it->ints[QL_NUM];
    if (num < 0)
      return codec_fail(err, "item type 5 id %u (layer %zu): byte offset %d: negative count %d", it->id, l, QL_NUM * 4,
                        (int)num);
    L->count = (size_t)num;
    L->kind = type == 3 ? TW_KIND_QUADS : type == 10 ? TW_KIND_SOUNDS : TW_KIND_SOUNDS_DEPRECATED;
    L->cell_size = type == 3 ? 152 : type == 10 ? 52 : 36;
  }
  return 1;
}

/* Data index holding a tilemap layer's cells (-1 when the item lacks it). */
static int32_t layer_data_index(const tw_map *m, const tw_layer *L) {
  const df_item *it = &m->df->items[L->item];
  size_t b = ddnet_base(it);
  switch (L->kind) {
    case TW_KIND_TILES:
    case TW_KIND_GAME: return ival(it, TL_DATA, -1);
    case TW_KIND_TELE: return ival(it, b + 0, -1);
    case TW_KIND_SPEEDUP: return ival(it, b + 1, -1);
    case TW_KIND_FRONT: return ival(it, b + 2, -1);
    case TW_KIND_SWITCH: return ival(it, b + 3, -1);
    case TW_KIND_TUNE: return ival(it, b + 4, -1);
    case TW_KIND_QUADS:
    case TW_KIND_SOUNDS:
    case TW_KIND_SOUNDS_DEPRECATED: return ival(it, QL_DATA, -1);
    default: return -1;
  }
}

long tw_layer_data_index(const tw_map *m, size_t l) {
  return l < m->num_layers ? (long)layer_data_index(m, &m->layers[l]) : -1;
}

/* Guesses the dialect: 0.7 when any 0.7-only version appears (tilemap 4,
** image 2, envelope 3); DDNet when any DDNet-only thing does (extended
** tilemap items, special layers, sounds, UUID items, settings); else 0.6. */
static tw_style detect_style(const tw_map *m) {
  size_t i;
  int ddnet = 0;
  for (i = 0; i < m->df->num_items; i++) {
    const df_item *it = &m->df->items[i];
    if (it->type == TW_ITEM_LAYER && ival(it, TL_TYPE, 0) == 2 && ival(it, TL_VERSION, 0) >= 4) return TW_STYLE_07;
    if (it->type == TW_ITEM_IMAGE && ival(it, 0, 0) >= 2) return TW_STYLE_07;
    if (it->type == TW_ITEM_ENVELOPE && ival(it, EN_VERSION, 0) >= 3) return TW_STYLE_07;
    if (it->type == TW_ITEM_SOUND || it->type == DF_ITEMTYPE_EX) ddnet = 1;
    if (it->type == TW_ITEM_INFO && ival(it, 5, -1) >= 0) ddnet = 1;
    if (it->type == TW_ITEM_LAYER) {
      int32_t t = ival(it, TL_TYPE, 0);
      if (t == 9 || t == 10) ddnet = 1;
      if (t == 2 && (it->num_ints > 18 || (ival(it, TL_TFLAGS, 0) & ~TF_GAME) != 0)) ddnet = 1;
    }
  }
  return ddnet ? TW_STYLE_DDNET : TW_STYLE_06;
}

/* Teeworlds 0.3 and earlier wrote another item vocabulary into the same
** container: entities as types 1-6 (spawn points, pickups, flags), images
** 0x8001, tilemaps 0x8002, the collision map 0x8003, and no version item
** (type 0, which every map since 0.4 has).  Read as a map, its spawn points
** would pass for the info item and its pickups for images, so such a file
** is refused.  Returns the first 0.3 item type found, or 0.  A 0x800N type
** that a UUID-index item names is a DDNet extended type, not a 0.3 one. */
static uint32_t pre04_item_type(const datafile *df) {
  uint32_t t;
  if (df_type_count(df, TW_ITEM_VERSION) > 0) return 0;
  for (t = 0x8001; t <= 0x8003; t++) {
    if (df_type_count(df, t) > 0 && df_find_item(df, DF_ITEMTYPE_EX, t) < 0) return t;
  }
  return 0;
}

/* The file's CRC-32 and SHA-256 (how the game names a map), in
** CODEC_POLL_BYTES steps polling `cancel` (NULL: never) between two, since
** hashing 1 GiB takes seconds.  Returns 1, or 0 when cancel said stop. */
static int hash_file(const unsigned char *data, size_t size, const codec_cancel *cancel, tw_map *m) {
  size_t done = 0;
  uLong c = crc32(0L, Z_NULL, 0);
  sha256_ctx sha;
  sha256_init(&sha);
  while (done < size) {
    size_t chunk = size - done > CODEC_POLL_BYTES ? CODEC_POLL_BYTES : size - done;
    if (done && codec_cancelled(cancel)) return 0;
    c = crc32(c, data + done, (uInt)chunk);
    sha256_update(&sha, data + done, chunk);
    done += chunk;
  }
  m->crc32 = (uint32_t)c;
  sha256_final(&sha, m->sha256);
  return 1;
}

int tw_map_parse(const unsigned char *data, size_t size, tw_map **out, codec_error *err) {
  return tw_map_parse_cancel(data, size, NULL, out, err);
}

/* tw_map_parse: container first (strict, see df_parse), then the map item
** index.  Layers are classified and assigned to groups (the first group whose
** [start, start+num) range names a layer owns it; out-of-range ranges are
** tolerated, as the game does).  No blob is inflated here.  `cancel` (NULL:
** never) is polled while the container is read and the file hashed. */
int tw_map_parse_cancel(const unsigned char *data, size_t size, const codec_cancel *cancel, tw_map **out,
                        codec_error *err) {
  tw_map *m;
  size_t i, nl, *layer_items = NULL;
  *out = NULL;
  m = (tw_map *)calloc(1, sizeof *m);
  if (!m) return codec_fail_oom(err, "map: out of memory");
  m->info_item = m->envpoints_item = m->bezier_item = -1;
  if (!df_parse_cancel(data, size, cancel, &m->df, err)) {
    free(m);
    return 0;
  }
  {
    uint32_t old = pre04_item_type(m->df);
    if (old) {
      tw_map_free(m);
      return codec_fail(err, "map: a pre-0.4 Teeworlds map (no version item, Teeworlds 0.3 items of type 0x%04X): "
                             "levelsql reads maps of Teeworlds 0.4 and later (the 0.4 and 0.5 editors open such "
                             "a map and save it in the later format)", (unsigned)old);
    }
  }
  m->file_size = size;
  if (!hash_file(data, size, cancel, m)) {
    tw_map_free(m);
    return codec_fail_interrupted(err);
  }
  if (!collect(m->df, TW_ITEM_GROUP, &m->group_items, &m->num_groups) ||
      !collect(m->df, TW_ITEM_IMAGE, &m->image_items, &m->num_images) ||
      !collect(m->df, TW_ITEM_ENVELOPE, &m->env_items, &m->num_envelopes) ||
      !collect(m->df, TW_ITEM_SOUND, &m->sound_items, &m->num_sounds) ||
      !collect(m->df, TW_ITEM_LAYER, &layer_items, &nl)) {
    tw_map_free(m);
    return codec_fail_oom(err, "map: out of memory");
  }
  m->info_item = df_type_nth(m->df, TW_ITEM_INFO, 0);
  m->envpoints_item = df_type_nth(m->df, TW_ITEM_ENVPOINTS, 0);
  {
    long bt = df_find_uuid_type(m->df, UUID_ENVPOINTS_BEZIER);
    if (bt >= 0) m->bezier_item = df_type_nth(m->df, (uint32_t)bt, 0);
  }
  m->layers = (tw_layer *)calloc(nl ? nl : 1, sizeof *m->layers);
  if (!m->layers) {
    free(layer_items);
    tw_map_free(m);
    return codec_fail_oom(err, "map: out of memory");
  }
  m->num_layers = nl;
  for (i = 0; i < nl; i++) {
    m->layers[i].item = layer_items[i];
    m->layers[i].group = -1;
    m->layers[i].index_in_group = -1;
  }
  free(layer_items);
  for (i = 0; i < nl; i++) {
    if (!classify_layer(m, i, err)) {
      tw_map_free(m);
      return 0;
    }
  }
  for (i = 0; i < m->num_groups; i++) {
    const df_item *g = &m->df->items[m->group_items[i]];
    int32_t start = ival(g, GR_START, 0), num = ival(g, GR_NUM, 0), k;
    if (g->num_ints < 7) {
      codec_fail(err, "item type 4 id %u (group %zu): item has %zu ints, a group needs at least 7", g->id, i,
                 g->num_ints);
      tw_map_free(m);
      return 0;
    }
    for (k = 0; k < num && start >= 0; k++) {
      size_t li = (size_t)start + (size_t)k;
      if (li >= nl) break;
      if (m->layers[li].group < 0) {
        m->layers[li].group = (long)i;
        m->layers[li].index_in_group = k;
      }
    }
  }
  /* Envelope points format. */
  m->point_ints = 6;
  for (i = 0; i < m->num_envelopes; i++)
    if (ival(&m->df->items[m->env_items[i]], EN_VERSION, 0) >= 3) m->point_ints = 22;
  m->style = detect_style(m);
  if (!(m->keys = tw_keys_new(m))) {
    tw_map_free(m);
    return codec_fail_oom(err, "map: out of memory");
  }
  *out = m;
  return 1;
}

/* ---- lazy layer data ----------------------------------------------------------- */

/* Early DDRace (2010) stored speedup cells in 4 bytes (force, a byte
** later DDRace calls the type, int16 angle; no maximal speed) and switch
** cells in 2 (number, type), before DDNet's 6- and 4-byte cells.  A blob
** of exactly that size for the layer is read in that layout: switches to
** it (cell_size, early_ddrace) and returns 1. */
static int early_ddrace_cells(tw_layer *L, size_t n) {
  size_t old = L->kind == TW_KIND_SPEEDUP ? 4 : L->kind == TW_KIND_SWITCH ? 2 : 0;
  if (!old || L->count > n / old || L->count * old != n) return 0;
  L->cell_size = old;
  L->early_ddrace = 1;
  return 1;
}

/* Expands 0.7 skip-compressed tiles d[0..n) into L->cells (count cells of
** 4 bytes, allocated here).  Each stored tile (id, flags, skip, reserved)
** stands for itself and the next `skip` cells; the runs must cover the
** layer exactly.  On failure L->cells stays NULL. */
static int expand_skip_tiles(tw_layer *L, const df_item *it, size_t l, int32_t idx, const unsigned char *d, size_t n,
                             codec_error *err) {
  byte_reader r = br_at(d, n, 0);
  size_t i = 0, need = L->count * 4; /* count * cell_size was checked by the caller */
  unsigned char *cells;
  if (L->count / 256 > n / 4) /* each stored tile covers at most 256 cells */
    return codec_fail(err, "item type 5 id %u (layer %zu): data %d: %zu bytes of skip-compressed tiles cannot cover "
                           "%zu cells", it->id, l, (int)idx, n, L->count);
  if (!(cells = (unsigned char *)malloc(need ? need : 1)))
    return codec_fail_oom(err, "item type 5 id %u (layer %zu): out of memory", it->id, l);
  while (i < L->count) {
    size_t s = r.pos;
    const unsigned char *t = br_bytes(&r, 4);
    unsigned skip, c;
    if (!t) {
      free(cells);
      return codec_fail(err, "item type 5 id %u (layer %zu): data %d: byte offset %zu: skip-compressed tiles end "
                             "after %zu of %zu cells", it->id, l, (int)idx, s, i, L->count);
    }
    skip = t[2];
    for (c = 0; c <= skip && i < L->count; c++, i++) {
      memcpy(cells + i * 4, t, 4);
      cells[i * 4 + 2] = 0;
    }
    if (c <= skip) {
      free(cells);
      return codec_fail(err, "item type 5 id %u (layer %zu): data %d: byte offset %zu: skip run overflows the %zu "
                             "cells", it->id, l, (int)idx, s, L->count);
    }
  }
  if (br_left(&r)) {
    free(cells);
    return codec_fail(err, "item type 5 id %u (layer %zu): data %d: byte offset %zu: %zu bytes after the last "
                           "skip-compressed tile", it->id, l, (int)idx, r.pos, br_left(&r));
  }
  L->cells = cells;
  L->cells_size = need;
  return 1;
}

/* tw_layer_load: inflates the layer's blob, expands 0.7 skip compression,
** and checks that it holds exactly count cells (tilemaps) or at least count
** elements (quads/sources; DDNet writes one dummy for empty layers).  The
** blob is inflated into a buffer of the layer's own (df_data_copy), which
** becomes the cells, or is freed once expanded: the datafile keeps only
** the compressed bytes, which tw_map_serialize writes back as they are
** while the layer is not dirty.  So decoded data is held once. */
int tw_layer_load(tw_map *m, size_t l, codec_error *err) {
  tw_layer *L;
  const df_item *it;
  unsigned char *d;
  size_t n, need;
  int32_t idx;
  if (l >= m->num_layers) return codec_fail_arg(err, "layer %zu: out of range (map has %zu layers)", l, m->num_layers);
  L = &m->layers[l];
  if (L->loaded) return 1;
  it = &m->df->items[L->item];
  if (L->kind == TW_KIND_UNKNOWN)
    return codec_fail(err, "item type 5 id %u (layer %zu): unknown layer type %d has no data the model knows", it->id,
                      l, (int)ival(it, TL_TYPE, -1));
  idx = layer_data_index(m, L);
  if (!size_mul(L->count, L->cell_size, &need) || need > TW_MAX_LAYER_BYTES)
    return codec_fail_limit(err, "item type 5 id %u (layer %zu): %zu elements of %zu bytes is too large", it->id, l,
                            L->count, L->cell_size);
  if (L->count == 0 && (L->kind == TW_KIND_QUADS || L->kind == TW_KIND_SOUNDS || L->kind == TW_KIND_SOUNDS_DEPRECATED)) {
    L->loaded = 1; /* nothing to decode; the blob (maybe a dummy) is kept */
    return 1;
  }
  if (idx < 0)
    return codec_fail(err, "item type 5 id %u (layer %zu, %s): no data index for this layer", it->id, l,
                      tw_kind_name(L->kind));
  if (!df_data_copy(m->df, (size_t)idx, &d, &n, err))
    return codec_prefix(err, "item type 5 id %u (layer %zu, %s): ", it->id, l, tw_kind_name(L->kind));
  if (L->skip_compressed) {
    int ok = expand_skip_tiles(L, it, l, idx, d, n, err);
    free(d);
    if (!ok) return 0;
  } else {
    int tilemap = L->kind <= TW_KIND_TUNE;
    if (early_ddrace_cells(L, n)) need = n;
    if (tilemap ? n != need : n < need) {
      free(d);
      return codec_fail(err, "item type 5 id %u (layer %zu, %s): data %d: holds %zu bytes, %s %zu (%zu x %zu bytes)",
                        it->id, l, tw_kind_name(L->kind), (int)idx, n, tilemap ? "need" : "need at least", need,
                        L->count, L->cell_size);
    }
    L->cells = d; /* quads/sources: keep any bytes past count */
    L->cells_size = n;
  }
  L->loaded = 1;
  return 1;
}

int tw_layer_load_cancel(tw_map *m, size_t l, const codec_cancel *cancel, codec_error *err) {
  int ok;
  m->df->cancel = cancel; /* polled inside the blob's inflate */
  ok = tw_layer_load(m, l, err);
  m->df->cancel = NULL;
  return ok;
}

/* Re-encodes a dirty layer into its blob: raw cells, or 0.7 skip
** compression (runs of equal id+flags, at most 255 extra, the first tile of
** a run is stored) for layers that had it. */
static int flush_layer(tw_map *m, size_t l, codec_error *err) {
  tw_layer *L = &m->layers[l];
  int32_t idx = layer_data_index(m, L);
  size_t bytes = L->cells_size;
  if (!L->dirty) return 1;
  if (idx < 0 || (size_t)idx >= m->df->num_data)
    return codec_fail(err, "layer %zu: data index %d out of range", l, (int)idx);
  if (L->skip_compressed) {
    unsigned char *buf = (unsigned char *)malloc(bytes ? bytes : 1);
    size_t i, o = 0;
    int ok;
    if (!buf) return codec_fail_oom(err, "layer %zu: out of memory", l);
    for (i = 0; i < L->count; i++) {
      const unsigned char *t = L->cells + i * 4;
      if (o > 0 && buf[o - 2] < 255 && buf[o - 4] == t[0] && buf[o - 3] == t[1]) {
        buf[o - 2]++;
      } else {
        memcpy(buf + o, t, 4);
        buf[o + 2] = 0;
        o += 4;
      }
    }
    ok = df_data_set(m->df, (size_t)idx, buf, o);
    free(buf);
    if (!ok) return codec_fail_oom(err, "layer %zu: out of memory", l);
  } else if (!df_data_set(m->df, (size_t)idx, L->cells, bytes)) {
    return codec_fail_oom(err, "layer %zu: out of memory", l);
  }
  L->dirty = 0;
  return 1;
}

int tw_map_serialize(tw_map *m, int df_flags, unsigned char **out, size_t *out_size, codec_error *err) {
  size_t l;
  for (l = 0; l < m->num_layers; l++)
    if (!flush_layer(m, l, err)) return 0;
  return df_write(m->df, df_flags, out, out_size, err);
}

/* ---- tiles --------------------------------------------------------------------- */

/* Common checks for tile access: a tilemap layer, in-range cell, loaded. */
static int tile_cell(tw_map *m, size_t l, int x, int y, unsigned char **cell, codec_error *err) {
  tw_layer *L;
  if (l >= m->num_layers) return codec_fail_arg(err, "layer %zu: out of range", l);
  L = &m->layers[l];
  if (L->kind > TW_KIND_TUNE)
    return codec_fail_arg(err, "layer %zu: a %s layer has no tiles", l, tw_kind_name(L->kind));
  if (x < 0 || y < 0 || x >= L->width || y >= L->height)
    return codec_fail_arg(err, "layer %zu: cell (%d, %d) outside %d x %d", l, x, y, L->width, L->height);
  if (!tw_layer_load(m, l, err)) return 0;
  *cell = L->cells + ((size_t)y * (size_t)L->width + (size_t)x) * L->cell_size;
  return 1;
}

int tw_tile_get(tw_map *m, size_t l, int x, int y, tw_tile *out, codec_error *err) {
  unsigned char *c;
  memset(out, 0, sizeof *out);
  if (!tile_cell(m, l, x, y, &c, err)) return 0;
  switch (m->layers[l].kind) {
    case TW_KIND_TELE:
    case TW_KIND_TUNE:
      out->number = c[0];
      out->id = c[1];
      break;
    case TW_KIND_SPEEDUP:
      if (m->layers[l].early_ddrace) { /* force, type, angle */
        out->force = c[0];
        out->id = c[1];
        out->angle = (int)le16_load(c + 2);
      } else {
        out->force = c[0];
        out->max_speed = c[1];
        out->id = c[2];
        out->angle = (int)le16_load(c + 4);
      }
      if (out->angle >= 0x8000) out->angle -= 0x10000; /* int16 LE */
      break;
    case TW_KIND_SWITCH:
      out->number = c[0];
      out->id = c[1];
      if (m->layers[l].early_ddrace) break; /* number, type */
      out->flags = c[2];
      out->delay = c[3];
      break;
    default:
      out->id = c[0];
      out->flags = c[1];
      break;
  }
  return 1;
}

/* Checks that v fits an unsigned byte. */
static int byte_ok(int v) { return v >= 0 && v <= 255; }

int tw_tile_set(tw_map *m, size_t l, int x, int y, const tw_tile *in, codec_error *err) {
  unsigned char *c;
  tw_kind k;
  if (!tile_cell(m, l, x, y, &c, err)) return 0;
  k = m->layers[l].kind;
  if (!byte_ok(in->id) || !byte_ok(in->flags) || !byte_ok(in->number) || !byte_ok(in->force) ||
      !byte_ok(in->max_speed) || !byte_ok(in->delay) || in->angle < -32768 || in->angle > 32767)
    return codec_fail_arg(err, "layer %zu: cell (%d, %d): value out of range (bytes 0..255, angle -32768..32767)", l, x,
                          y);
  if (m->layers[l].early_ddrace && (k == TW_KIND_SPEEDUP ? in->max_speed != 0 : in->flags != 0 || in->delay != 0))
    return codec_fail_arg(err, "layer %zu: cell (%d, %d): an early DDRace %s layer stores no %s (it must stay 0)", l, x,
                          y, tw_kind_name(k), k == TW_KIND_SPEEDUP ? "max_speed" : "flags or delay");
  if (m->layers[l].early_ddrace && k == TW_KIND_SPEEDUP) {
    c[0] = (unsigned char)in->force;
    c[1] = (unsigned char)in->id;
    le16_store(c + 2, (uint16_t)(in->angle & 0xFFFF));
    m->layers[l].dirty = 1;
    return 1;
  }
  switch (k) {
    case TW_KIND_TELE:
    case TW_KIND_TUNE:
      c[0] = (unsigned char)in->number;
      c[1] = (unsigned char)in->id;
      break;
    case TW_KIND_SPEEDUP:
      c[0] = (unsigned char)in->force;
      c[1] = (unsigned char)in->max_speed;
      c[2] = (unsigned char)in->id;
      le16_store(c + 4, (uint16_t)(in->angle & 0xFFFF));
      break;
    case TW_KIND_SWITCH:
      c[0] = (unsigned char)in->number;
      c[1] = (unsigned char)in->id;
      if (m->layers[l].early_ddrace) break;
      c[2] = (unsigned char)in->flags;
      c[3] = (unsigned char)in->delay;
      break;
    default:
      c[0] = (unsigned char)in->id;
      c[1] = (unsigned char)in->flags;
      break;
  }
  m->layers[l].dirty = 1;
  return 1;
}

/* ---- quads ------------------------------------------------------------------------ */

/* Locates quad q of quads layer l (loading the layer). */
static int quad_at(tw_map *m, size_t l, size_t q, unsigned char **p, codec_error *err) {
  tw_layer *L;
  if (l >= m->num_layers) return codec_fail_arg(err, "layer %zu: out of range", l);
  L = &m->layers[l];
  if (L->kind != TW_KIND_QUADS)
    return codec_fail_arg(err, "layer %zu: a %s layer has no quads", l, tw_kind_name(L->kind));
  if (q >= L->count) return codec_fail_arg(err, "layer %zu: quad %zu out of range (%zu quads)", l, q, L->count);
  if (!tw_layer_load(m, l, err)) return 0;
  *p = L->cells + q * 152;
  return 1;
}

int tw_quad_get(tw_map *m, size_t l, size_t q, tw_quad *out, codec_error *err) {
  unsigned char *p;
  int v[38], i;
  if (!quad_at(m, l, q, &p, err)) return 0;
  for (i = 0; i < 38; i++) v[i] = u32_as_i32(le32_load(p + 4 * i));
  for (i = 0; i < 5; i++) { out->points[i][0] = v[i * 2]; out->points[i][1] = v[i * 2 + 1]; }
  for (i = 0; i < 16; i++) out->colors[i / 4][i % 4] = v[10 + i];
  for (i = 0; i < 4; i++) { out->tex[i][0] = v[26 + i * 2]; out->tex[i][1] = v[27 + i * 2]; }
  out->pos_env = v[34];
  out->pos_env_offset = v[35];
  out->color_env = v[36];
  out->color_env_offset = v[37];
  return 1;
}

int tw_quad_set(tw_map *m, size_t l, size_t q, const tw_quad *in, codec_error *err) {
  unsigned char *p;
  int v[38], i;
  if (!quad_at(m, l, q, &p, err)) return 0;
  if (in->pos_env < -1 || in->color_env < -1 || (in->pos_env >= 0 && (size_t)in->pos_env >= m->num_envelopes) ||
      (in->color_env >= 0 && (size_t)in->color_env >= m->num_envelopes)) {
    tw_quad cur;
    tw_quad_get(m, l, q, &cur, err);
    if (in->pos_env != cur.pos_env || in->color_env != cur.color_env)
      return codec_fail_arg(err, "layer %zu quad %zu: envelope %d / %d does not exist (map has %zu envelopes)", l, q,
                            in->pos_env, in->color_env, m->num_envelopes);
  }
  for (i = 0; i < 5; i++) { v[i * 2] = in->points[i][0]; v[i * 2 + 1] = in->points[i][1]; }
  for (i = 0; i < 16; i++) v[10 + i] = in->colors[i / 4][i % 4];
  for (i = 0; i < 4; i++) { v[26 + i * 2] = in->tex[i][0]; v[27 + i * 2] = in->tex[i][1]; }
  v[34] = in->pos_env;
  v[35] = in->pos_env_offset;
  v[36] = in->color_env;
  v[37] = in->color_env_offset;
  for (i = 0; i < 38; i++) le32_store(p + 4 * i, (uint32_t)v[i]);
  m->layers[l].dirty = 1;
  return 1;
}

/* ---- info -------------------------------------------------------------------------- */

int tw_info_get(tw_map *m, tw_info_field f, const char **s, size_t *len, codec_error *err) {
  const df_item *it;
  int32_t idx;
  *s = NULL;
  *len = 0;
  if (m->info_item < 0) return 1;
  it = &m->df->items[m->info_item];
  idx = ival(it, 1 + (size_t)f, -1);
  if (idx < 0) return 1;
  if (f != TW_INFO_SETTINGS) {
    if (!blob_string(m, idx, s, len, err)) return 0;
  } else {
    const unsigned char *d;
    size_t n;
    if (!df_data_get(m->df, (size_t)idx, &d, &n, err)) return 0;
    *s = (const char *)d;
    *len = n;
  }
  return 1;
}

int tw_info_set(tw_map *m, tw_info_field f, const char *s, size_t len, codec_error *err) {
  int32_t idx;
  unsigned char *buf;
  if ((unsigned)f > TW_INFO_SETTINGS) return codec_fail_arg(err, "info: unknown field %d", (int)f);
  if (m->info_item < 0) {
    int32_t ints[6] = {1, -1, -1, -1, -1, -1};
    long pos;
    if (!s || !len) return 1;
    pos = df_item_add(m->df, TW_ITEM_INFO, 0, ints, f == TW_INFO_SETTINGS ? 6 : 5);
    if (pos < 0) return codec_fail_oom(err, "info: out of memory");
    m->info_item = pos;
  }
  if (!s || !len) {
    if (ival(&m->df->items[m->info_item], 1 + (size_t)f, -1) < 0) return 1;
    return set_ival(m, (size_t)m->info_item, 1 + (size_t)f, -1, err);
  }
  if (f == TW_INFO_SETTINGS && s[len - 1] != 0)
    return codec_fail_arg(err, "info: settings must end with a NUL terminator");
  if (len > 0x7FFFFFF0u) return codec_fail_limit(err, "info: string too long");
  buf = (unsigned char *)malloc(len + 1);
  if (!buf) return codec_fail_oom(err, "info: out of memory");
  memcpy(buf, s, len);
  buf[len] = 0;
  if (f == TW_INFO_SETTINGS) len--; /* already terminated */
  idx = ival(&m->df->items[m->info_item], 1 + (size_t)f, -1);
  if (idx >= 0 && (size_t)idx < m->df->num_data) {
    int ok = df_data_set(m->df, (size_t)idx, buf, len + 1);
    free(buf);
    if (!ok) return codec_fail_oom(err, "info: out of memory");
    return 1;
  } else {
    long ni = df_data_add(m->df, buf, len + 1);
    free(buf);
    if (ni < 0) return codec_fail_oom(err, "info: out of memory");
    return set_ival(m, (size_t)m->info_item, 1 + (size_t)f, (int32_t)ni, err);
  }
}

int tw_map_update(tw_map *m, const tw_map_summary *in, int *style_failed, codec_error *err) {
  const tw_text *s = in->info;
  int f, differs[TW_INFO_SETTINGS + 1];
  *style_failed = 0;
  /* compare first: setting one string may move the blobs that values
  ** equal to the map's (unchanged ones) point into */
  for (f = TW_INFO_AUTHOR; f <= TW_INFO_SETTINGS; f++) {
    const char *cur;
    size_t len;
    if (!tw_info_get(m, (tw_info_field)f, &cur, &len, err)) return 0;
    differs[f] = s[f].n != len || (len && memcmp(s[f].p, cur, len) != 0);
  }
  for (f = TW_INFO_AUTHOR; f <= TW_INFO_SETTINGS; f++)
    if (differs[f] && !tw_info_set(m, (tw_info_field)f, s[f].n ? s[f].p : NULL, s[f].n, err)) return 0;
  *style_failed = 1;
  return (tw_style)in->style == m->style || tw_map_convert(m, (tw_style)in->style, err);
}

/* ---- groups -------------------------------------------------------------------------- */

int tw_group_get(const tw_map *m, size_t g, tw_group_info *o, codec_error *err) {
  const df_item *it;
  if (g >= m->num_groups) return codec_fail_arg(err, "group %zu: out of range (map has %zu groups)", g, m->num_groups);
  it = &m->df->items[m->group_items[g]];
  o->version = ival(it, GR_VERSION, 0);
  o->offset_x = ival(it, GR_OFFX, 0);
  o->offset_y = ival(it, GR_OFFY, 0);
  o->parallax_x = ival(it, GR_PARX, 100);
  o->parallax_y = ival(it, GR_PARY, 100);
  o->start_layer = ival(it, GR_START, 0);
  o->num_layers = ival(it, GR_NUM, 0);
  o->clipping = ival(it, GR_CLIPPING, 0);
  o->clip_x = ival(it, GR_CLIPX, 0);
  o->clip_y = ival(it, GR_CLIPY, 0);
  o->clip_w = ival(it, GR_CLIPW, 0);
  o->clip_h = ival(it, GR_CLIPH, 0);
  o->name[0] = 0;
  if (it->num_ints >= GR_NAME + 3 && o->version >= 3) i32str_decode(it, GR_NAME, 3, o->name);
  return 1;
}

/* Raises the version field at position vk to at least v. */
static int bump_version(tw_map *m, size_t pos, size_t vk, int v, codec_error *err) {
  if (ival(&m->df->items[pos], vk, 0) >= v) return 1;
  return set_ival(m, pos, vk, v, err);
}

int tw_group_set(tw_map *m, size_t g, const tw_group_info *in, codec_error *err) {
  tw_group_info cur;
  size_t pos;
  if (!tw_group_get(m, g, &cur, err)) return 0;
  pos = m->group_items[g];
  if (!set_ival(m, pos, GR_OFFX, in->offset_x, err) || !set_ival(m, pos, GR_OFFY, in->offset_y, err) ||
      !set_ival(m, pos, GR_PARX, in->parallax_x, err) || !set_ival(m, pos, GR_PARY, in->parallax_y, err))
    return 0;
  if (in->clipping != cur.clipping || in->clip_x != cur.clip_x || in->clip_y != cur.clip_y ||
      in->clip_w != cur.clip_w || in->clip_h != cur.clip_h) {
    if (!bump_version(m, pos, GR_VERSION, 2, err) || !set_ival(m, pos, GR_CLIPPING, in->clipping, err) ||
        !set_ival(m, pos, GR_CLIPX, in->clip_x, err) || !set_ival(m, pos, GR_CLIPY, in->clip_y, err) ||
        !set_ival(m, pos, GR_CLIPW, in->clip_w, err) || !set_ival(m, pos, GR_CLIPH, in->clip_h, err))
      return 0;
  }
  if (strncmp(in->name, cur.name, sizeof cur.name) != 0) {
    char nm[sizeof in->name + 1];
    memcpy(nm, in->name, sizeof in->name);
    nm[sizeof in->name] = 0;
    if (strlen(nm) > 11) return codec_fail_arg(err, "group %zu: name is longer than 11 bytes", g);
    if (!set_ival(m, pos, GR_CLIPH, ival(&m->df->items[pos], GR_CLIPH, 0), err) ||
        !i32str_encode(m, pos, GR_NAME, 3, nm, err) || !bump_version(m, pos, GR_VERSION, 3, err))
      return 0;
  }
  return 1;
}

/* ---- layers ------------------------------------------------------------------------------ */

int tw_layer_get(const tw_map *m, size_t l, tw_layer_info *o, codec_error *err) {
  const tw_layer *L;
  const df_item *it;
  if (l >= m->num_layers) return codec_fail_arg(err, "layer %zu: out of range (map has %zu layers)", l, m->num_layers);
  L = &m->layers[l];
  it = &m->df->items[L->item];
  memset(o, 0, sizeof *o);
  o->kind = L->kind;
  o->type = ival(it, TL_TYPE, -1);
  o->version = ival(it, TL_VERSION, 0);
  o->detail = ival(it, TL_FLAGS, 0) & 1;
  o->image = -1;
  o->sound = -1;
  o->color_env = -1;
  if (L->kind <= TW_KIND_TUNE) {
    int k;
    o->width = L->width;
    o->height = L->height;
    for (k = 0; k < 4; k++) o->color[k] = ival(it, TL_COLOR + (size_t)k, 255);
    o->color_env = ival(it, TL_COLOR_ENV, -1);
    o->color_env_offset = ival(it, TL_COLOR_ENV_OFF, 0);
    o->image = ival(it, TL_IMAGE, -1);
    if (o->version >= 3 && it->num_ints >= TL_NAME + 3) i32str_decode(it, TL_NAME, 3, o->name);
  } else if (L->kind == TW_KIND_QUADS) {
    o->num_quads = ival(it, QL_NUM, 0);
    o->image = ival(it, QL_IMAGE, -1);
    if (o->version >= 2 && it->num_ints >= QL_NAME + 3) i32str_decode(it, QL_NAME, 3, o->name);
  } else if (L->kind == TW_KIND_SOUNDS || L->kind == TW_KIND_SOUNDS_DEPRECATED) {
    o->num_sources = ival(it, QL_NUM, 0);
    o->sound = ival(it, QL_IMAGE, -1);
    if (it->num_ints >= QL_NAME + 3) i32str_decode(it, QL_NAME, 3, o->name);
  }
  return 1;
}

int tw_layer_set(tw_map *m, size_t l, const tw_layer_info *in, codec_error *err) {
  tw_layer_info cur;
  size_t pos;
  tw_kind k;
  if (!tw_layer_get(m, l, &cur, err)) return 0;
  /* a new size first: the game layer's resize takes its physics layers
  ** along (tw_layer_resize); cur's other fields stay as they were */
  if (m->layers[l].kind <= TW_KIND_TUNE && (in->width != cur.width || in->height != cur.height) &&
      !tw_layer_resize(m, l, in->width, in->height, err))
    return 0;
  pos = m->layers[l].item;
  k = m->layers[l].kind;
  /* Refuse values the game would index out of range with (unchanged values
  ** pass, so odd maps can still be edited elsewhere). */
  if (in->image != cur.image && (in->image < -1 || (in->image >= 0 && (size_t)in->image >= m->num_images)))
    return codec_fail_arg(err, "layer %zu: image %d does not exist (map has %zu images, -1 = none)", l, in->image,
                          m->num_images);
  if (in->color_env != cur.color_env &&
      (in->color_env < -1 || (in->color_env >= 0 && (size_t)in->color_env >= m->num_envelopes)))
    return codec_fail_arg(err, "layer %zu: envelope %d does not exist (map has %zu envelopes, -1 = none)", l,
                          in->color_env, m->num_envelopes);
  {
    int c;
    for (c = 0; c < 4; c++)
      if (in->color[c] != cur.color[c] && (in->color[c] < 0 || in->color[c] > 255))
        return codec_fail_arg(err, "layer %zu: color component %d out of range 0..255", l, in->color[c]);
  }
  if (in->detail != cur.detail) {
    int32_t fl = ival(&m->df->items[pos], TL_FLAGS, 0);
    if (!set_ival(m, pos, TL_FLAGS, in->detail ? (fl | 1) : (fl & ~1), err)) return 0;
  }
  if (k <= TW_KIND_TUNE) {
    int c;
    for (c = 0; c < 4; c++)
      if (in->color[c] != cur.color[c] && !set_ival(m, pos, TL_COLOR + (size_t)c, in->color[c], err)) return 0;
    if ((in->color_env != cur.color_env && !set_ival(m, pos, TL_COLOR_ENV, in->color_env, err)) ||
        (in->color_env_offset != cur.color_env_offset &&
         !set_ival(m, pos, TL_COLOR_ENV_OFF, in->color_env_offset, err)) ||
        (in->image != cur.image && !set_ival(m, pos, TL_IMAGE, in->image, err)))
      return 0;
  } else if (k == TW_KIND_QUADS) {
    if (in->image != cur.image && !set_ival(m, pos, QL_IMAGE, in->image, err)) return 0;
  }
  if (strncmp(in->name, cur.name, sizeof cur.name) != 0) {
    char nm[sizeof in->name + 1];
    size_t nk;
    memcpy(nm, in->name, sizeof in->name);
    nm[sizeof in->name] = 0;
    if (strlen(nm) > 11) return codec_fail_arg(err, "layer %zu: name is longer than 11 bytes", l);
    if (k <= TW_KIND_TUNE) {
      const df_item *it = &m->df->items[pos];
      /* A v2 tilemap (no name field) with DDNet indices at 15..19 would be
      ** shifted by a name; refuse rather than corrupt it. */
      if (ival(it, TL_VERSION, 0) < 3 && it->num_ints > TL_NAME)
        return codec_fail_arg(err, "item type 5 id %u (layer %zu): version-2 tilemap with DDNet fields has no room "
                                   "for a name", it->id, l);
      nk = TL_NAME;
      if (!i32str_encode(m, pos, nk, 3, nm, err) || !bump_version(m, pos, TL_VERSION, 3, err)) return 0;
    } else if (k == TW_KIND_QUADS) {
      if (!i32str_encode(m, pos, QL_NAME, 3, nm, err) || !bump_version(m, pos, QL_VERSION, 2, err)) return 0;
    } else if (k == TW_KIND_SOUNDS || k == TW_KIND_SOUNDS_DEPRECATED) {
      if (!i32str_encode(m, pos, QL_NAME, 3, nm, err)) return 0;
    } else {
      return codec_fail_arg(err, "layer %zu: unknown layer kind has no name", l);
    }
  }
  return 1;
}

/* ---- images ----------------------------------------------------------------------------- */

int tw_image_get(tw_map *m, size_t i, tw_image_info *o, codec_error *err) {
  const df_item *it;
  int32_t d;
  if (i >= m->num_images) return codec_fail_arg(err, "image %zu: out of range (map has %zu images)", i, m->num_images);
  it = &m->df->items[m->image_items[i]];
  memset(o, 0, sizeof *o);
  o->version = ival(it, 0, 0);
  o->width = ival(it, 1, 0);
  o->height = ival(it, 2, 0);
  o->external = ival(it, 3, 0) != 0;
  o->format = o->version >= 2 ? ival(it, 6, 1) != 0 : 1;
  d = ival(it, 5, -1);
  o->data_index = d >= 0 && (size_t)d < m->df->num_data ? d : -1;
  o->data_size = o->data_index >= 0 ? (int64_t)df_data_size(m->df, (size_t)o->data_index) : -1;
  if (!blob_string(m, ival(it, 4, -1), &o->name.p, &o->name.n, err))
    return codec_prefix(err, "item type 2 id %u (image %zu): name: ", it->id, i);
  return 1;
}

int tw_image_set_name(tw_map *m, size_t i, const char *name, size_t len, codec_error *err) {
  size_t pos;
  int32_t idx;
  unsigned char *buf;
  int ok;
  if (i >= m->num_images) return codec_fail_arg(err, "image %zu: out of range", i);
  if (memchr(name, 0, len)) return codec_fail_arg(err, "image %zu: name contains a NUL byte", i);
  pos = m->image_items[i];
  idx = ival(&m->df->items[pos], 4, -1);
  buf = (unsigned char *)malloc(len + 1);
  if (!buf) return codec_fail_oom(err, "image %zu: out of memory", i);
  memcpy(buf, name, len);
  buf[len] = 0;
  if (idx >= 0 && (size_t)idx < m->df->num_data) {
    ok = df_data_set(m->df, (size_t)idx, buf, len + 1);
    free(buf);
    return ok ? 1 : codec_fail_oom(err, "image %zu: out of memory", i);
  } else {
    long ni = df_data_add(m->df, buf, len + 1);
    free(buf);
    if (ni < 0) return codec_fail_oom(err, "image %zu: out of memory", i);
    return set_ival(m, pos, 4, (int32_t)ni, err);
  }
}

/* ---- sounds -------------------------------------------------------------------------------- */

int tw_sound_get(tw_map *m, size_t s, tw_sound_info *o, codec_error *err) {
  const df_item *it;
  int32_t d;
  if (s >= m->num_sounds) return codec_fail_arg(err, "sound %zu: out of range (map has %zu sounds)", s, m->num_sounds);
  it = &m->df->items[m->sound_items[s]];
  memset(o, 0, sizeof *o);
  o->version = ival(it, 0, 0);
  o->external = ival(it, 1, 0);
  d = ival(it, 3, -1);
  o->data_index = d >= 0 && (size_t)d < m->df->num_data ? d : -1;
  o->data_size = o->data_index >= 0 ? (int64_t)df_data_size(m->df, (size_t)o->data_index) : -1;
  if (!blob_string(m, ival(it, 2, -1), &o->name.p, &o->name.n, err))
    return codec_prefix(err, "item type 7 id %u (sound %zu): name: ", it->id, s);
  return 1;
}

/* ---- envelopes ------------------------------------------------------------------------------ */

const char *tw_envelope_kind_name(int channels) {
  return channels == 1 ? "sound" : channels == 3 ? "position" : channels == 4 ? "color" : "unknown";
}

/* The inverse of tw_envelope_kind_name over the three kinds. */
int tw_envelope_kind_channels(const char *name) {
  static const int kinds[] = {1, 3, 4};
  size_t i;
  for (i = 0; name && i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp(name, tw_envelope_kind_name(kinds[i])) == 0) return kinds[i];
  return 0;
}

int tw_envelope_get(const tw_map *m, size_t e, tw_envelope_info *o, codec_error *err) {
  const df_item *it;
  if (e >= m->num_envelopes)
    return codec_fail_arg(err, "envelope %zu: out of range (map has %zu envelopes)", e, m->num_envelopes);
  it = &m->df->items[m->env_items[e]];
  memset(o, 0, sizeof *o);
  o->version = ival(it, EN_VERSION, 0);
  o->channels = ival(it, EN_CHANNELS, 0);
  o->kind.p = tw_envelope_kind_name(o->channels);
  o->kind.n = strlen(o->kind.p);
  o->start_point = ival(it, EN_START, 0);
  o->num_points = ival(it, EN_NUM, 0);
  if (it->num_ints >= EN_NAME + 8) i32str_decode(it, EN_NAME, 8, o->name);
  o->synchronized = o->version >= 2 && ival(it, EN_SYNC, 0) != 0;
  return 1;
}

int tw_envelope_set(tw_map *m, size_t e, const tw_envelope_info *in, codec_error *err) {
  tw_envelope_info cur;
  size_t pos;
  if (!tw_envelope_get(m, e, &cur, err)) return 0;
  pos = m->env_items[e];
  if (strncmp(in->name, cur.name, sizeof cur.name) != 0) {
    char nm[sizeof in->name + 1];
    memcpy(nm, in->name, sizeof in->name);
    nm[sizeof in->name] = 0;
    if (strlen(nm) > 31) return codec_fail_arg(err, "envelope %zu: name is longer than 31 bytes", e);
    if (!i32str_encode(m, pos, EN_NAME, 8, nm, err)) return 0;
  }
  if (in->synchronized != cur.synchronized) {
    if (!set_ival(m, pos, EN_SYNC, in->synchronized ? 1 : 0, err) || !bump_version(m, pos, EN_VERSION, 2, err))
      return 0;
  }
  return 1;
}

/* Checks envelope e's point range against the points item; sets *start. */
static int env_range(const tw_map *m, size_t e, size_t *start, size_t *n, codec_error *err) {
  const df_item *it = &m->df->items[m->env_items[e]];
  int32_t s = ival(it, EN_START, 0), c = ival(it, EN_NUM, 0);
  size_t total = 0;
  if (m->envpoints_item >= 0) total = m->df->items[m->envpoints_item].num_ints / (size_t)m->point_ints;
  if (s < 0 || c < 0 || (size_t)s > total || (size_t)c > total - (size_t)s)
    return codec_fail(err, "item type 3 id %u (envelope %zu): start point %d, %d points: outside the %zu envelope "
                           "points", it->id, e, (int)s, (int)c, total);
  *start = (size_t)s;
  *n = (size_t)c;
  return 1;
}

int tw_envelope_points(const tw_map *m, size_t e, tw_env_point **pts, size_t *n, codec_error *err) {
  size_t start, cnt, i, k;
  const df_item *pi, *bz = NULL;
  *pts = NULL;
  *n = 0;
  if (e >= m->num_envelopes) return codec_fail_arg(err, "envelope %zu: out of range", e);
  if (!env_range(m, e, &start, &cnt, err)) return 0;
  if (!cnt) return 1;
  pi = &m->df->items[m->envpoints_item];
  if (m->point_ints == 6 && m->bezier_item >= 0) {
    bz = &m->df->items[m->bezier_item];
    if (bz->num_ints != (pi->num_ints / 6) * 16) bz = NULL;
  }
  *pts = (tw_env_point *)calloc(cnt, sizeof **pts);
  if (!*pts) return codec_fail_oom(err, "envelope %zu: out of memory", e);
  for (i = 0; i < cnt; i++) {
    const int32_t *p = pi->ints + (start + i) * (size_t)m->point_ints;
    tw_env_point *o = &(*pts)[i];
    o->time = p[0];
    o->curve = p[1];
    for (k = 0; k < 4; k++) o->values[k] = p[2 + k];
    if (m->point_ints == 22)
      for (k = 0; k < 16; k++) o->bezier[k] = p[6 + k];
    else if (bz)
      for (k = 0; k < 16; k++) o->bezier[k] = bz->ints[(start + i) * 16 + k];
  }
  *n = cnt;
  return 1;
}

/* tw_envelope_set_points: rebuilds the points item with envelope e's range
** replaced; envelopes whose range starts after e's shift by the change in
** count.  The DDNet bezier item, when present and parallel, is rebuilt the
** same way. */
int tw_envelope_set_points(tw_map *m, size_t e, const tw_env_point *pts, size_t n, codec_error *err) {
  size_t start, cnt, total, pi_n, i, k, newtotal, bytes;
  int32_t *np = NULL, *nb = NULL;
  const df_item *pi;
  const df_item *bz = NULL;
  int pn = m->point_ints;
  if (e >= m->num_envelopes) return codec_fail_arg(err, "envelope %zu: out of range", e);
  if (!env_range(m, e, &start, &cnt, err)) return 0;
  if (n > 0x100000) return codec_fail_limit(err, "envelope %zu: too many points (%zu)", e, n);
  if (m->envpoints_item < 0) {
    long pos = df_item_add(m->df, TW_ITEM_ENVPOINTS, 0, NULL, 0);
    if (pos < 0) return codec_fail_oom(err, "envelope %zu: out of memory", e);
    m->envpoints_item = pos;
  }
  pi = &m->df->items[m->envpoints_item];
  pi_n = pi->num_ints;
  total = pi_n / (size_t)pn;
  if (m->bezier_item >= 0 && pn == 6) {
    bz = &m->df->items[m->bezier_item];
    if (bz->num_ints != total * 16) bz = NULL;
  }
  newtotal = total - cnt + n;
  if (!size_mul(newtotal, (size_t)pn * 4, &bytes)) return codec_fail_limit(err, "envelope %zu: too many points", e);
  np = (int32_t *)calloc(newtotal ? newtotal * (size_t)pn : 1, 4);
  if (bz) nb = (int32_t *)calloc(newtotal ? newtotal * 16 : 1, 4);
  if (!np || (bz && !nb)) {
    free(np);
    free(nb);
    return codec_fail_oom(err, "envelope %zu: out of memory", e);
  }
  /* before, new, after */
  if (start) memcpy(np, pi->ints, start * (size_t)pn * 4); /* a new points item has no ints (NULL) */
  for (i = 0; i < n; i++) {
    int32_t *p = np + (start + i) * (size_t)pn;
    p[0] = pts[i].time;
    p[1] = pts[i].curve;
    for (k = 0; k < 4; k++) p[2 + k] = pts[i].values[k];
    if (pn == 22)
      for (k = 0; k < 16; k++) p[6 + k] = pts[i].bezier[k];
  }
  if (total > start + cnt)
    memcpy(np + (start + n) * (size_t)pn, pi->ints + (start + cnt) * (size_t)pn, (total - start - cnt) * (size_t)pn * 4);
  if (bz) {
    memcpy(nb, bz->ints, start * 16 * 4);
    for (i = 0; i < n; i++)
      for (k = 0; k < 16; k++) nb[(start + i) * 16 + k] = pts[i].bezier[k];
    memcpy(nb + (start + n) * 16, bz->ints + (start + cnt) * 16, (total - start - cnt) * 16 * 4);
  }
  if (!df_item_set(m->df, (size_t)m->envpoints_item, np, newtotal * (size_t)pn) ||
      (bz && !df_item_set(m->df, (size_t)m->bezier_item, nb, newtotal * 16))) {
    free(np);
    free(nb);
    return codec_fail_oom(err, "envelope %zu: out of memory", e);
  }
  free(np);
  free(nb);
  if (n != cnt) {
    for (i = 0; i < m->num_envelopes; i++) {
      const df_item *it = &m->df->items[m->env_items[i]];
      int32_t s = ival(it, EN_START, 0);
      if (i == e || s < 0 || (size_t)s < start + cnt || (cnt == 0 && (size_t)s == start && i < e)) continue;
      if (!set_ival(m, m->env_items[i], EN_START, (int32_t)((size_t)s - cnt + n), err)) return 0;
    }
    if (!set_ival(m, m->env_items[e], EN_NUM, (int32_t)n, err)) return 0;
  }
  return 1;
}

/* ---- envelope points: what a map can store --------------------------------------------- */

int tw_map_has_bezier(const tw_map *m) {
  if (m->point_ints == 22) return 1;
  if (m->bezier_item < 0 || m->envpoints_item < 0) return 0;
  return m->df->items[m->bezier_item].num_ints == (m->df->items[m->envpoints_item].num_ints / 6) * 16;
}

/* The names of the four tangent arrays of a point's bezier[16], in order. */
static const char *const tangent_names[4] = {"in_dx", "in_dy", "out_dx", "out_dy"};

int tw_envelope_points_shown(const tw_map *m, size_t e, tw_env_point_shown **out, size_t *n, codec_error *err) {
  tw_envelope_info info;
  tw_env_point *p;
  size_t i;
  int k, used, unused, any;
  *out = NULL;
  if (!tw_envelope_get(m, e, &info, err) || !tw_envelope_points(m, e, &p, n, err)) return 0;
  used = info.channels >= 1 && info.channels <= 4 ? info.channels : 4;
  if (*n && !(*out = (tw_env_point_shown *)calloc(*n, sizeof **out))) {
    free(p);
    return codec_fail_oom(err, "envelope %zu: out of memory", e);
  }
  for (i = 0; i < *n; i++) {
    (*out)[i].p = p[i];
    for (k = used, unused = 0; k < 4; k++) unused |= p[i].values[k] != 0;
    (*out)[i].values_shown = unused ? 4 : used;
    for (k = any = 0; k < 16; k++) any |= p[i].bezier[k] != 0;
    for (k = 0; k < 4; k++) (*out)[i].tangents_shown[k] = any ? 4 : 0;
  }
  free(p);
  return 1;
}

/* New points for an envelope of map m, checked point by point: times must
** not decrease, and tangents given need a map that stores them. */
static int check_new_points(const tw_map *m, const tw_env_point_shown *pts, size_t n, codec_error *err) {
  int bezier = tw_map_has_bezier(m), k;
  size_t i;
  for (i = 0; i < n; i++) {
    if (i > 0 && pts[i].p.time < pts[i - 1].p.time)
      return codec_fail_arg(err, "point %zu time %d is before the previous point's %d; times must not decrease", i,
                            pts[i].p.time, pts[i - 1].p.time);
    for (k = 0; k < 4 && !bezier; k++) {
      if (!pts[i].tangents_shown[k]) continue;
      return codec_fail_arg(err, "point %zu %s: this map stores no bezier tangents (only 0.7 maps and DDNet maps with "
                            "bezier points do)", i, tangent_names[k]);
    }
  }
  return 1;
}

int tw_envelope_update(tw_map *m, size_t e, const tw_envelope_info *in, const tw_env_point_shown *pts, size_t n,
                       int pts_given, const char **field, codec_error *err) {
  tw_envelope_info cur;
  tw_env_point *plain;
  size_t i;
  int ok;
  *field = "points";
  if (pts_given && !check_new_points(m, pts, n, err)) return 0;
  if (!tw_envelope_get(m, e, &cur, err)) return 0;
  *field = strncmp(in->name, cur.name, sizeof cur.name) != 0 ? "name" : "synchronized";
  if (!tw_envelope_set(m, e, in, err)) return 0;
  *field = "points";
  if (!pts_given) return 1;
  if (!(plain = (tw_env_point *)malloc(sizeof *plain * (n ? n : 1))))
    return codec_fail_oom(err, "envelope %zu: out of memory", e);
  for (i = 0; i < n; i++) plain[i] = pts[i].p;
  ok = tw_envelope_set_points(m, e, plain, n, err);
  free(plain);
  return ok;
}

/* ---- whole-map helpers for the tables ------------------------------------------------------ */

/* tw_map_footprint: every allocation the map owns, as allocated: the map
** and datafile structs, the item and blob arrays at their capacity, item
** payloads, stored and kept inflated blob bytes, the index arrays and the
** decoded cells. */
size_t tw_map_shed(tw_map *m) {
  size_t i;
  for (i = 0; i < m->num_layers; i++) {
    tw_layer *L = &m->layers[i];
    if (!L->loaded || L->dirty || !L->cells) continue;
    free(L->cells);
    L->cells = NULL;
    L->cells_size = 0;
    L->loaded = 0;
  }
  df_shed(m->df);
  return tw_map_footprint(m);
}

size_t tw_map_footprint(const tw_map *m) {
  size_t bytes = sizeof *m + m->num_layers * sizeof(tw_layer), i;
  bytes += (m->num_groups + m->num_images + m->num_envelopes + m->num_sounds) * sizeof(size_t);
  bytes += sizeof *m->df + m->df->cap_items * sizeof(df_item) + m->df->cap_data * sizeof(df_data);
  for (i = 0; i < m->df->num_items; i++) bytes += m->df->items[i].num_ints * 4;
  for (i = 0; i < m->df->num_data; i++) {
    const df_data *d = &m->df->data[i];
    bytes += d->stored_size + (d->raw ? d->raw_size : 0);
  }
  for (i = 0; i < m->num_layers; i++) {
    if (m->layers[i].cells) bytes += m->layers[i].cells_size;
  }
  if (m->keys) bytes += tw_keys_footprint(m->keys);
  return bytes;
}

void tw_map_decoded_claim(const tw_map *m, codec_claim *claim) {
  const datafile *df = m->df;
  unsigned char *named = df->num_data ? (unsigned char *)calloc(df->num_data, 1) : NULL;
  size_t i;
  for (i = 0; i < m->num_layers; i++) {
    const tw_layer *L = &m->layers[i];
    int32_t idx = layer_data_index(m, L);
    uint64_t cells = codec_mul_sat(L->count, L->cell_size), blob = 0, bytes;
    if (L->kind == TW_KIND_UNKNOWN) continue;
    if (idx >= 0 && (size_t)idx < df->num_data) {
      blob = df_data_size(df, (size_t)idx);
      if (named) named[idx] = 1;
    }
    if (L->skip_compressed) bytes = blob > UINT64_MAX - cells ? UINT64_MAX : blob + cells;
    else bytes = blob > cells ? blob : cells;
    codec_claim_add(claim, bytes, "layer %zu (%s)", i, tw_kind_name(L->kind));
  }
  /* without the marks (no memory for them), every blob counts once more */
  for (i = 0; i < df->num_data; i++)
    if (!named || !named[i]) codec_claim_add(claim, df_data_size(df, i), "data %zu", i);
  free(named);
}

int tw_map_decode_items(tw_map *m, codec_error *err) {
  size_t i;
  for (i = 0; i < m->num_images; i++) {
    tw_image_info im;
    if (!tw_image_get(m, i, &im, err)) return 0;
  }
  for (i = 0; i < m->num_sounds; i++) {
    tw_sound_info so;
    if (!tw_sound_get(m, i, &so, err)) return 0;
  }
  for (i = 0; i < m->num_envelopes; i++) {
    tw_env_point *points = NULL;
    size_t n;
    int ok = tw_envelope_points(m, i, &points, &n, err);
    free(points);
    if (!ok) return 0;
  }
  return 1;
}

/* The info fields by the names the tables show them under. */
static const char *const info_names[] = {"author", "map_version", "credits", "license", "settings"};

int tw_map_validate(tw_map *m, int64_t key_limit, const codec_cancel *cancel, codec_error *err) {
  size_t l;
  int f, ok = 1;
  for (f = TW_INFO_AUTHOR; f <= TW_INFO_SETTINGS; f++) {
    const char *s;
    size_t n;
    if (!tw_info_get(m, (tw_info_field)f, &s, &n, err)) return codec_prefix(err, "map info (%s): ", info_names[f]);
  }
  if (!tw_map_decode_items(m, err) || !tw_map_keys_fit(m, key_limit, err)) return 0;
  m->df->cancel = cancel; /* polled inside each blob's inflate too */
  for (l = 0; ok && l < m->num_layers; l++) {
    tw_kind k = m->layers[l].kind;
    if (codec_cancelled(cancel)) ok = codec_fail_interrupted(err);
    else if (k <= TW_KIND_TUNE || k == TW_KIND_QUADS) ok = tw_layer_load(m, l, err);
  }
  m->df->cancel = NULL;
  return ok;
}
