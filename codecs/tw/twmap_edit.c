/*
** twmap_edit.c: structural edits of a Teeworlds / DDNet map.  See
** twmap_edit.h for what each edit does and why.
**
** Every edit works on the datafile first (items inserted or removed at
** their list position, blobs added or removed) and then rebuilds the map's
** item indexes from it (reindex), so the rest of the codec sees a map as
** if it had been parsed that way.  Decoded layers move with their layer.
*/
#include "tw/twmap_edit.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"

/* Item int positions (mapitems.h): tilemap layers, quads and sounds
** layers, groups, envelopes. */
enum {
  TM_TYPE = 1, TM_FLAGS = 2, TM_VERSION = 3, TM_WIDTH = 4, TM_HEIGHT = 5, TM_TFLAGS = 6, TM_COLOR = 7,
  TM_COLOR_ENV = 11, TM_COLOR_ENV_OFFSET = 12, TM_IMAGE = 13, TM_DATA = 14, TM_NAME = 15, TM_EXTRA = 18,
  TM_EXTRA_OLD = 15, TM_INTS = 23
};
enum { LQ_VERSION = 3, LQ_COUNT = 4, LQ_DATA = 5, LQ_REF = 6, LQ_NAME = 7, LQ_INTS = 10 };
enum { GP_START = 5, GP_COUNT = 6, GP_INTS = 15 };
enum { EV_START = 2, EV_COUNT = 3, EV_NAME = 4, EV_INTS = 13 };
enum { QUAD_BYTES = 152, SOURCE_BYTES = 52, QUAD_INTS = 38, SOURCE_INTS = 13 };
/* An empty I32String (each byte stored plus 128, the last one 0). */
#define NAME_PAD ((int32_t)0x80808080u)
#define NAME_END ((int32_t)0x80808000u)

/* ---- the datafile: items and blobs at their place ------------------------------ */

/* Int k of an item, or dflt when the item is shorter. */
static int32_t item_int(const df_item *it, size_t k, int32_t dflt) { return k < it->num_ints ? it->ints[k] : dflt; }

/* Whether the items of `type` have ids 0, 1, 2, ... in list order. */
static int ids_in_order(const datafile *df, uint32_t type) {
  size_t i, n = 0;
  for (i = 0; i < df->num_items; i++)
    if (df->items[i].type == type && df->items[i].id != n++) return 0;
  return 1;
}

/* Gives the items of `type` ids 0, 1, 2, ... in list order. */
static void number_ids(datafile *df, uint32_t type) {
  size_t i, n = 0;
  for (i = 0; i < df->num_items; i++)
    if (df->items[i].type == type) df->items[i].id = (uint32_t)n++;
}

/* Item list positions kept outside the indexes reindex rebuilds: they
** move by `delta` when an item is inserted (+1) or removed (-1) at pos. */
static void shift_item_positions(tw_map *m, size_t pos, int delta) {
  long *kept[3];
  size_t i;
  kept[0] = &m->info_item;
  kept[1] = &m->envpoints_item;
  kept[2] = &m->bezier_item;
  for (i = 0; i < 3; i++) {
    if (*kept[i] < 0 || (size_t)*kept[i] < pos) continue;
    if (delta < 0 && (size_t)*kept[i] == pos) *kept[i] = -1;
    else *kept[i] += delta;
  }
}

/* Inserts an item (payload copied) at list position pos; ids follow the
** rule of twmap_edit.h.  Returns 1, or 0 on OOM (nothing changed). */
static int item_insert(tw_map *m, size_t pos, uint32_t type, const int32_t *ints, size_t n, codec_error *err) {
  datafile *df = m->df;
  int in_order = ids_in_order(df, type);
  uint32_t id = 0;
  int32_t *copy;
  size_t i;
  if (df->num_items >= 0xFFFF) return codec_fail_limit(err, "map: too many items");
  if (df->num_items == df->cap_items) {
    size_t cap = df->cap_items ? df->cap_items * 2 : 16;
    df_item *p = (df_item *)realloc(df->items, cap * sizeof *p);
    if (!p) return codec_fail_oom(err, "map: out of memory");
    df->items = p;
    df->cap_items = cap;
  }
  copy = (int32_t *)malloc(n ? n * 4 : 1);
  if (!copy) return codec_fail_oom(err, "map: out of memory");
  if (n) memcpy(copy, ints, n * 4);
  for (i = 0; i < df->num_items; i++)
    if (df->items[i].type == type && df->items[i].id >= id) id = df->items[i].id + 1;
  if (pos > df->num_items) pos = df->num_items;
  memmove(df->items + pos + 1, df->items + pos, (df->num_items - pos) * sizeof *df->items);
  df->items[pos].type = type;
  df->items[pos].id = id & 0xFFFF;
  df->items[pos].num_ints = n;
  df->items[pos].ints = copy;
  df->num_items++;
  if (in_order) number_ids(df, type);
  shift_item_positions(m, pos, +1);
  return 1;
}

/* Removes the item at list position pos; ids follow the rule of
** twmap_edit.h. */
static void item_remove(tw_map *m, size_t pos) {
  datafile *df = m->df;
  uint32_t type = df->items[pos].type;
  int in_order = ids_in_order(df, type);
  free(df->items[pos].ints);
  memmove(df->items + pos, df->items + pos + 1, (df->num_items - pos - 1) * sizeof *df->items);
  df->num_items--;
  if (in_order) number_ids(df, type);
  shift_item_positions(m, pos, -1);
}

/* The list position where a new item of `type` goes to be the n-th of its
** type (n = count: after the last; with none, at the end of the list: the
** writer sorts items by type). */
static size_t item_position(const datafile *df, uint32_t type, size_t n) {
  size_t i, seen = 0, after = df->num_items;
  for (i = 0; i < df->num_items; i++) {
    if (df->items[i].type != type) continue;
    if (seen++ == n) return i;
    after = i + 1;
  }
  return after;
}

/* Calls fn on every blob index an item the model knows holds: the info
** strings, an image's and a sound's name and data, a layer's data (a
** tilemap's DDNet physics blobs too). */
static void for_each_blob_ref(tw_map *m, void (*fn)(int32_t *ref, void *ctx), void *ctx) {
  size_t i, k;
  for (i = 0; i < m->df->num_items; i++) {
    df_item *it = &m->df->items[i];
    size_t from = 0, to = 0, from2 = 0, to2 = 0;
    switch (it->type) {
      case TW_ITEM_INFO: from = 1; to = 6; break;
      case TW_ITEM_IMAGE: from = 4; to = 6; break;
      case TW_ITEM_SOUND: from = 2; to = 4; break;
      case TW_ITEM_LAYER: {
        int32_t type = item_int(it, TM_TYPE, -1);
        if (type == 2) {
          from = TM_DATA;
          to = TM_DATA + 1;
          from2 = item_int(it, TM_VERSION, 0) <= 2 ? TM_EXTRA_OLD : TM_EXTRA;
          to2 = from2 + 5;
        } else if (type == 3 || type == 9 || type == 10) {
          from = LQ_DATA;
          to = LQ_DATA + 1;
        }
        break;
      }
      default: break;
    }
    for (k = from; k < to && k < it->num_ints; k++) fn(&it->ints[k], ctx);
    for (k = from2; k < to2 && k < it->num_ints; k++) fn(&it->ints[k], ctx);
  }
}

typedef struct blob_count {
  int32_t index;
  size_t users;
} blob_count;

static void count_blob_user(int32_t *ref, void *ctx) {
  blob_count *c = (blob_count *)ctx;
  if (*ref == c->index) c->users++;
}

static void lower_blob_ref(int32_t *ref, void *ctx) {
  if (*ref > *(int32_t *)ctx) (*ref)--;
}

/* Removes blob idx when no item the model knows still names it, lowering
** the blob indices past it. */
static void blob_remove_unused(tw_map *m, int32_t idx) {
  datafile *df = m->df;
  blob_count c;
  if (idx < 0 || (size_t)idx >= df->num_data) return;
  c.index = idx;
  c.users = 0;
  for_each_blob_ref(m, count_blob_user, &c);
  if (c.users) return;
  free(df->data[idx].stored);
  free(df->data[idx].raw);
  memmove(df->data + idx, df->data + idx + 1, (df->num_data - (size_t)idx - 1) * sizeof *df->data);
  df->num_data--;
  for_each_blob_ref(m, lower_blob_ref, &idx);
}

/* Removes the blobs of refs[0..n) that nobody uses any more, highest
** index first so the lower ones keep their numbers. */
static void blobs_remove_unused(tw_map *m, int32_t *refs, size_t n) {
  size_t i, j;
  for (i = 0; i < n; i++) /* sort descending: n is at most 6 */
    for (j = i + 1; j < n; j++)
      if (refs[j] > refs[i]) {
        int32_t t = refs[i];
        refs[i] = refs[j];
        refs[j] = t;
      }
  for (i = 0; i < n; i++)
    if (i == 0 || refs[i] != refs[i - 1]) blob_remove_unused(m, refs[i]);
}

/* Adds a blob of `bytes` zero bytes; its index in *idx. */
static int blob_add_zeros(tw_map *m, size_t bytes, int32_t *idx, codec_error *err) {
  unsigned char *z = (unsigned char *)calloc(bytes ? bytes : 1, 1);
  long i;
  if (!z) return codec_fail_oom(err, "map: out of memory");
  i = df_data_add(m->df, z, bytes);
  free(z);
  if (i < 0 || i > INT32_MAX) return codec_fail_oom(err, "map: out of memory");
  *idx = (int32_t)i;
  return 1;
}

/* Adds a blob holding name[0..len) and a NUL (a map's string blob). */
static int blob_add_name(tw_map *m, const char *name, size_t len, int32_t *idx, codec_error *err) {
  unsigned char *buf;
  long i;
  if (len > 0xFFFF) return codec_fail_limit(err, "name of %zu bytes is too long", len);
  if (memchr(name, 0, len)) return codec_fail_arg(err, "name contains a NUL byte");
  buf = (unsigned char *)malloc(len + 1);
  if (!buf) return codec_fail_oom(err, "map: out of memory");
  memcpy(buf, name, len);
  buf[len] = 0;
  i = df_data_add(m->df, buf, len + 1);
  free(buf);
  if (i < 0 || i > INT32_MAX) return codec_fail_oom(err, "map: out of memory");
  *idx = (int32_t)i;
  return 1;
}

/* Drops the blobs added last, from index `from` on (an edit that failed
** after adding them). */
static void blobs_truncate(tw_map *m, size_t from) {
  while (m->df->num_data > from) {
    df_data *d = &m->df->data[--m->df->num_data];
    free(d->stored);
    free(d->raw);
  }
}

/* ---- the map's indexes -------------------------------------------------------- */

/* Rebuilds the list positions of groups, images, envelopes, sounds and
** layers from the datafile, and which group owns each layer (the first
** group whose range names it, as tw_map_parse assigns them).  m->layers
** must already hold one entry per layer item, in list order. */
static int reindex(tw_map *m, codec_error *err) {
  static const uint32_t types[4] = {TW_ITEM_GROUP, TW_ITEM_IMAGE, TW_ITEM_ENVELOPE, TW_ITEM_SOUND};
  size_t **arrays[4], *counts[4], t, i, l = 0;
  arrays[0] = &m->group_items; counts[0] = &m->num_groups;
  arrays[1] = &m->image_items; counts[1] = &m->num_images;
  arrays[2] = &m->env_items;   counts[2] = &m->num_envelopes;
  arrays[3] = &m->sound_items; counts[3] = &m->num_sounds;
  for (t = 0; t < 4; t++) {
    size_t n = df_type_count(m->df, types[t]), k = 0;
    size_t *p = (size_t *)malloc((n ? n : 1) * sizeof *p);
    if (!p) return codec_fail_oom(err, "map: out of memory");
    for (i = 0; i < m->df->num_items; i++)
      if (m->df->items[i].type == types[t]) p[k++] = i;
    free(*arrays[t]);
    *arrays[t] = p;
    *counts[t] = n;
  }
  for (i = 0; i < m->df->num_items && l < m->num_layers; i++)
    if (m->df->items[i].type == TW_ITEM_LAYER) m->layers[l++].item = i;
  for (l = 0; l < m->num_layers; l++) {
    m->layers[l].group = -1;
    m->layers[l].index_in_group = -1;
  }
  for (t = 0; t < m->num_groups; t++) {
    const df_item *g = &m->df->items[m->group_items[t]];
    int32_t start = item_int(g, GP_START, 0), num = item_int(g, GP_COUNT, 0), k;
    for (k = 0; k < num && start >= 0 && (size_t)start + (size_t)k < m->num_layers; k++) {
      tw_layer *L = &m->layers[(size_t)start + (size_t)k];
      if (L->group < 0) {
        L->group = (long)t;
        L->index_in_group = k;
      }
    }
  }
  return 1;
}

long tw_map_game_layer(const tw_map *m) {
  size_t l;
  for (l = 0; l < m->num_layers; l++)
    if (m->layers[l].kind == TW_KIND_GAME) return (long)l;
  return -1;
}

/* Adds delta to a group item's int k. */
static void group_add(tw_map *m, size_t g, size_t k, int32_t delta) {
  df_item *it = &m->df->items[m->group_items[g]];
  if (k < it->num_ints) it->ints[k] += delta;
}

/* ---- groups ---------------------------------------------------------------------- */

int tw_group_insert(tw_map *m, size_t g, codec_error *err) {
  int32_t ints[GP_INTS] = {3, 0, 0, 100, 100, 0, 0, 0, 0, 0, 0, 0, NAME_PAD, NAME_PAD, NAME_END};
  int32_t start = (int32_t)m->num_layers;
  if (g == TW_LAST) g = m->num_groups;
  if (g > m->num_groups) return codec_fail_arg(err, "group %zu: the map has %zu groups", g, m->num_groups);
  if (!tw_keys_reserve(m, TW_ROWS_GROUPS, 0, err)) return 0;
  if (g < m->num_groups) {
    start = item_int(&m->df->items[m->group_items[g]], GP_START, start);
    if (start < 0 || (size_t)start > m->num_layers) start = (int32_t)m->num_layers;
  }
  ints[GP_START] = start;
  if (!item_insert(m, item_position(m->df, TW_ITEM_GROUP, g), TW_ITEM_GROUP, ints, GP_INTS, err) || !reindex(m, err))
    return 0;
  tw_keys_inserted(m, TW_ROWS_GROUPS, 0, g);
  return 1;
}

int tw_group_delete(tw_map *m, size_t g, codec_error *err) {
  long game = tw_map_game_layer(m);
  size_t l;
  if (g >= m->num_groups) return codec_fail_arg(err, "group %zu: the map has %zu groups", g, m->num_groups);
  if (game >= 0 && m->layers[game].group == (long)g)
    return codec_fail_arg(err, "group %zu holds the game layer (layer_index %ld): it cannot be deleted", g, game);
  if (!tw_keys_reserve(m, TW_ROWS_GROUPS, 0, err)) return 0;
  for (l = m->num_layers; l-- > 0;)
    if (m->layers[l].group == (long)g && !tw_layer_delete(m, l, err)) return 0;
  item_remove(m, m->group_items[g]);
  if (!reindex(m, err)) return 0;
  tw_keys_removed(m, TW_ROWS_GROUPS, 0, g);
  return 1;
}

/* ---- layers ------------------------------------------------------------------------ */

/* The tilemap flag and cell size of a physics kind's own blob (0: the kind
** has none beyond the main data). */
static int32_t kind_tile_flag(tw_kind k) {
  switch (k) {
    case TW_KIND_GAME: return 1;
    case TW_KIND_TELE: return 2;
    case TW_KIND_SPEEDUP: return 4;
    case TW_KIND_FRONT: return 8;
    case TW_KIND_SWITCH: return 16;
    case TW_KIND_TUNE: return 32;
    default: return 0;
  }
}
static size_t kind_cell_size(tw_kind k) {
  switch (k) {
    case TW_KIND_TELE: case TW_KIND_TUNE: return 2;
    case TW_KIND_SPEEDUP: return 6;
    case TW_KIND_QUADS: return QUAD_BYTES;
    case TW_KIND_SOUNDS: return SOURCE_BYTES;
    default: return 4;
  }
}
/* The extra-blob field of a physics kind, after the tilemap's DDNet base. */
static int kind_extra_slot(tw_kind k) {
  switch (k) {
    case TW_KIND_TELE: return 0;
    case TW_KIND_SPEEDUP: return 1;
    case TW_KIND_FRONT: return 2;
    case TW_KIND_SWITCH: return 3;
    case TW_KIND_TUNE: return 4;
    default: return -1;
  }
}
static const char *kind_default_name(tw_kind k) {
  switch (k) {
    case TW_KIND_GAME: return "Game";
    case TW_KIND_FRONT: return "Front";
    case TW_KIND_TELE: return "Tele";
    case TW_KIND_SPEEDUP: return "Speedup";
    case TW_KIND_SWITCH: return "Switch";
    case TW_KIND_TUNE: return "Tune";
    default: return "";
  }
}

/* Encodes a name of at most 11 bytes into 3 I32String ints. */
static void name3(const char *s, int32_t out[3]) {
  unsigned char b[12] = {0};
  size_t i, n = strlen(s);
  memcpy(b, s, n > 11 ? 11 : n);
  for (i = 0; i < 3; i++)
    out[i] = u32_as_i32(((uint32_t)(unsigned char)(b[4 * i] + 128) << 24) |
                        ((uint32_t)(unsigned char)(b[4 * i + 1] + 128) << 16) |
                        ((uint32_t)(unsigned char)(b[4 * i + 2] + 128) << 8) |
                        (i == 2 ? 0u : (uint32_t)(unsigned char)(b[4 * i + 3] + 128)));
}

/* Checks DDNet's rules for a new layer of `kind` in group g and settles its
** size (*w, *h: 0 asks for the default). */
static int check_new_layer(const tw_map *m, size_t g, tw_kind kind, int *w, int *h, codec_error *err) {
  long game = tw_map_game_layer(m);
  size_t l, cells;
  int gw = game >= 0 ? m->layers[game].width : TW_NEW_LAYER_SIZE;
  int gh = game >= 0 ? m->layers[game].height : TW_NEW_LAYER_SIZE;
  if (kind == TW_KIND_QUADS || kind == TW_KIND_SOUNDS) {
    if (*w || *h) return codec_fail_arg(err, "a %s layer has no width or height", tw_kind_name(kind));
    return 1;
  }
  if (kind > TW_KIND_TUNE)
    return codec_fail_arg(err, "a %s layer cannot be added (kinds: tiles, game, front, tele, speedup, switch, tune, "
                               "quads, sounds)", tw_kind_name(kind));
  if (kind == TW_KIND_GAME && game >= 0)
    return codec_fail_arg(err, "the map has a game layer already (layer %ld); a map has one", game);
  if (kind != TW_KIND_TILES && kind != TW_KIND_GAME) {
    if (game < 0) return codec_fail_arg(err, "a %s layer needs a game layer first", tw_kind_name(kind));
    if (m->layers[game].group != (long)g)
      return codec_fail_arg(err, "a %s layer goes in the game group (group %ld), not group %zu", tw_kind_name(kind),
                            m->layers[game].group, g);
    for (l = 0; l < m->num_layers; l++)
      if (m->layers[l].kind == kind)
        return codec_fail_arg(err, "the map has a %s layer already (layer %zu); a map has one", tw_kind_name(kind), l);
    if ((*w && *w != gw) || (*h && *h != gh))
      return codec_fail_arg(err, "a %s layer is as large as the game layer (%d x %d), not %d x %d",
                            tw_kind_name(kind), gw, gh, *w ? *w : gw, *h ? *h : gh);
  }
  if (!*w) *w = kind == TW_KIND_GAME ? TW_NEW_LAYER_SIZE : gw;
  if (!*h) *h = kind == TW_KIND_GAME ? TW_NEW_LAYER_SIZE : gh;
  if (*w < 1 || *h < 1 || !size_mul((size_t)*w, (size_t)*h, &cells) || cells > (512u * 1024u * 1024u) / 8)
    return codec_fail_arg(err, "layer size %d x %d: width and height from 1, at most 67108864 cells", *w, *h);
  return 1;
}

int tw_layer_insert(tw_map *m, size_t g, size_t k, tw_kind kind, int width, int height, size_t *out,
                    codec_error *err) {
  int32_t ints[TM_INTS], start, count;
  size_t l, n, h, pos, cells = 0, data_before = m->df->num_data;
  tw_layer *L, *grown;
  if (g >= m->num_groups) return codec_fail_arg(err, "group %zu: the map has %zu groups", g, m->num_groups);
  start = item_int(&m->df->items[m->group_items[g]], GP_START, 0);
  count = item_int(&m->df->items[m->group_items[g]], GP_COUNT, 0);
  if (start < 0 || count < 0 || (size_t)start > m->num_layers || (size_t)count > m->num_layers - (size_t)start)
    return codec_fail_arg(err, "group %zu: its layer range (%d, %d layers) lies outside the %zu layers", g, (int)start,
                          (int)count, m->num_layers);
  for (l = (size_t)start; l < (size_t)start + (size_t)count; l++)
    if (m->layers[l].group != (long)g)
      return codec_fail_arg(err, "group %zu: layer %zu of its range belongs to group %ld", g, l, m->layers[l].group);
  if (k == TW_LAST) k = (size_t)count;
  if (k > (size_t)count) return codec_fail_arg(err, "group %zu has %d layers: position %zu is past them", g, (int)count, k);
  if (!check_new_layer(m, g, kind, &width, &height, err) || !tw_keys_reserve_layer(m, err)) return 0;
  l = (size_t)start + k;
  memset(ints, 0, sizeof ints);
  if (kind <= TW_KIND_TUNE) {
    int32_t extra = -1;
    int slot = kind_extra_slot(kind);
    cells = (size_t)width * (size_t)height;
    ints[TM_TYPE] = 2;
    ints[TM_VERSION] = 3;
    ints[TM_WIDTH] = width;
    ints[TM_HEIGHT] = height;
    ints[TM_TFLAGS] = kind_tile_flag(kind);
    ints[TM_COLOR] = ints[TM_COLOR + 1] = ints[TM_COLOR + 2] = ints[TM_COLOR + 3] = 255;
    ints[TM_COLOR_ENV] = -1;
    ints[TM_IMAGE] = -1;
    name3(kind_default_name(kind), ints + TM_NAME);
    for (n = 0; n < 5; n++) ints[TM_EXTRA + n] = -1;
    if (!blob_add_zeros(m, cells * 4, &ints[TM_DATA], err)) return 0;
    if (slot >= 0 && !blob_add_zeros(m, cells * kind_cell_size(kind), &extra, err)) {
      blobs_truncate(m, data_before);
      return 0;
    }
    if (slot >= 0) ints[TM_EXTRA + slot] = extra;
    n = TM_INTS;
  } else {
    ints[TM_TYPE] = kind == TW_KIND_QUADS ? 3 : 10;
    ints[LQ_VERSION] = 2;
    ints[LQ_REF] = -1;
    name3("", ints + LQ_NAME);
    if (!blob_add_zeros(m, kind_cell_size(kind), &ints[LQ_DATA], err)) return 0; /* the editor's dummy element */
    n = LQ_INTS;
  }
  grown = (tw_layer *)realloc(m->layers, (m->num_layers + 1) * sizeof *grown);
  if (!grown) {
    blobs_truncate(m, data_before);
    return codec_fail_oom(err, "map: out of memory");
  }
  m->layers = grown;
  pos = l < m->num_layers ? m->layers[l].item : item_position(m->df, TW_ITEM_LAYER, m->num_layers);
  if (!item_insert(m, pos, TW_ITEM_LAYER, ints, n, err)) {
    blobs_truncate(m, data_before);
    return 0;
  }
  memmove(m->layers + l + 1, m->layers + l, (m->num_layers - l) * sizeof *m->layers);
  m->num_layers++;
  L = &m->layers[l];
  memset(L, 0, sizeof *L);
  L->kind = kind;
  L->cell_size = kind_cell_size(kind);
  if (kind <= TW_KIND_TUNE) {
    L->width = width;
    L->height = height;
    L->count = cells;
  }
  /* Layers after it move one on; group g grows. */
  for (h = 0; h < m->num_groups; h++) {
    int32_t s = item_int(&m->df->items[m->group_items[h]], GP_START, 0);
    if (h != g && s >= 0 && ((size_t)s > l || ((size_t)s == l && h > g))) group_add(m, h, GP_START, 1);
  }
  group_add(m, g, GP_COUNT, 1);
  if (kind == TW_KIND_SOUNDS && m->style == TW_STYLE_06) m->style = TW_STYLE_DDNET;
  *out = l;
  if (!reindex(m, err)) return 0;
  tw_keys_layer_inserted(m, l);
  return 1;
}

int tw_layer_insert_named(tw_map *m, size_t g, size_t k, const char *kind_name, int width, int height, size_t *l,
                          codec_error *err) {
  tw_kind kind;
  if (!tw_kind_by_name(kind_name ? kind_name : "tiles", &kind))
    return codec_fail_arg(err, "column kind: '%s' is not a kind a layer can be added as (tiles, game, front, tele, "
                          "speedup, switch, tune, quads, sounds)", kind_name);
  return tw_layer_insert(m, g, k, kind, width, height, l, err);
}

int tw_layer_delete(tw_map *m, size_t l, codec_error *err) {
  int32_t refs[6];
  size_t nrefs = 0, h, k;
  const df_item *it;
  long g;
  if (l >= m->num_layers) return codec_fail_arg(err, "layer %zu: the map has %zu layers", l, m->num_layers);
  if (m->layers[l].kind == TW_KIND_GAME) return codec_fail_arg(err, "layer %zu is the game layer: it cannot be deleted", l);
  if (!tw_keys_reserve(m, TW_ROWS_LAYERS, 0, err)) return 0;
  it = &m->df->items[m->layers[l].item];
  if (item_int(it, TM_TYPE, -1) == 2) {
    size_t base = item_int(it, TM_VERSION, 0) <= 2 ? TM_EXTRA_OLD : TM_EXTRA;
    refs[nrefs++] = item_int(it, TM_DATA, -1);
    for (k = 0; k < 5; k++) refs[nrefs++] = item_int(it, base + k, -1);
  } else {
    refs[nrefs++] = item_int(it, LQ_DATA, -1);
  }
  g = m->layers[l].group;
  if (g >= 0) group_add(m, (size_t)g, GP_COUNT, -1);
  for (h = 0; h < m->num_groups; h++) {
    int32_t s = item_int(&m->df->items[m->group_items[h]], GP_START, 0);
    if (s > 0 && (size_t)s > l) group_add(m, h, GP_START, -1);
  }
  item_remove(m, m->layers[l].item);
  free(m->layers[l].cells);
  memmove(m->layers + l, m->layers + l + 1, (m->num_layers - l - 1) * sizeof *m->layers);
  m->num_layers--;
  if (!reindex(m, err)) return 0;
  tw_keys_layer_removed(m, l);
  blobs_remove_unused(m, refs, nrefs);
  return 1;
}

/* ---- quads and sound sources: elements of a layer ------------------------------------ */

/* Sets a quads or sounds layer's element count in its item and model. */
static void set_element_count(tw_map *m, size_t l, size_t n) {
  df_item *it = &m->df->items[m->layers[l].item];
  if (LQ_COUNT < it->num_ints) it->ints[LQ_COUNT] = (int32_t)n;
  m->layers[l].count = n;
  m->layers[l].dirty = 1;
}

/* Checks that layer l is of `kind` and decodes it. */
static int element_layer(tw_map *m, size_t l, tw_kind kind, codec_error *err) {
  if (l >= m->num_layers) return codec_fail_arg(err, "layer %zu: the map has %zu layers", l, m->num_layers);
  if (m->layers[l].kind != kind)
    return codec_fail_arg(err, "layer %zu is a %s layer, not a %s layer", l, tw_kind_name(m->layers[l].kind),
                          tw_kind_name(kind));
  return tw_layer_load(m, l, err);
}

/* Inserts element bytes e[0..size) at position at of layer l, the rows
** (quads or sources) whose keys it keeps. */
static int element_insert(tw_map *m, tw_rows rows, size_t l, size_t at, const unsigned char *e, size_t size,
                          codec_error *err) {
  tw_layer *L = &m->layers[l];
  size_t used = L->count * size, keep = L->count ? L->cells_size : 0, bytes;
  unsigned char *p;
  if (at == TW_LAST) at = L->count;
  if (at > L->count) return codec_fail_arg(err, "layer %zu has %zu elements: position %zu is past them", l, L->count, at);
  if (L->count >= 0x7FFFFFFF / size || !size_add(keep, size, &bytes))
    return codec_fail_limit(err, "layer %zu: too many elements", l);
  if (!tw_keys_reserve(m, rows, l, err)) return 0;
  p = (unsigned char *)malloc(bytes);
  if (!p) return codec_fail_oom(err, "layer %zu: out of memory", l);
  if (keep) memcpy(p, L->cells, at * size);
  memcpy(p + at * size, e, size);
  if (keep) memcpy(p + (at + 1) * size, L->cells + at * size, keep - at * size);
  (void)used;
  free(L->cells);
  L->cells = p;
  L->cells_size = bytes;
  L->loaded = 1;
  set_element_count(m, l, L->count + 1);
  tw_keys_inserted(m, rows, l, at);
  return 1;
}

/* Removes element at of layer l (and its key among the rows `rows`); an
** emptied layer keeps one zeroed element. */
static int element_delete(tw_map *m, tw_rows rows, size_t l, size_t at, size_t size, codec_error *err) {
  tw_layer *L = &m->layers[l];
  if (at >= L->count) return codec_fail_arg(err, "layer %zu has %zu elements: there is no element %zu", l, L->count, at);
  if (!tw_keys_reserve(m, rows, l, err)) return 0;
  memmove(L->cells + at * size, L->cells + (at + 1) * size, L->cells_size - (at + 1) * size);
  L->cells_size -= size;
  if (L->count == 1 && L->cells_size < size) {
    memset(L->cells, 0, size);
    L->cells_size = size;
  }
  set_element_count(m, l, L->count - 1);
  tw_keys_removed(m, rows, l, at);
  return 1;
}

/* Writes n ints little-endian. */
static void store_ints(unsigned char *p, const int32_t *v, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) le32_store(p + 4 * i, (uint32_t)v[i]);
}

int tw_quad_insert(tw_map *m, size_t l, size_t q, codec_error *err) {
  static const int32_t half = 32 * 1024, one = 1024;
  int32_t v[QUAD_INTS];
  unsigned char bytes[QUAD_BYTES];
  size_t i;
  if (!element_layer(m, l, TW_KIND_QUADS, err)) return 0;
  v[0] = -half; v[1] = -half; v[2] = half; v[3] = -half; v[4] = -half; v[5] = half; v[6] = half; v[7] = half;
  v[8] = 0; v[9] = 0;
  for (i = 10; i < 26; i++) v[i] = 255;
  v[26] = 0; v[27] = 0; v[28] = one; v[29] = 0; v[30] = 0; v[31] = one; v[32] = one; v[33] = one;
  v[34] = -1; v[35] = 0; v[36] = -1; v[37] = 0;
  store_ints(bytes, v, QUAD_INTS);
  return element_insert(m, TW_ROWS_QUADS, l, q, bytes, QUAD_BYTES, err);
}

int tw_quad_delete(tw_map *m, size_t l, size_t q, codec_error *err) {
  if (!element_layer(m, l, TW_KIND_QUADS, err)) return 0;
  return element_delete(m, TW_ROWS_QUADS, l, q, QUAD_BYTES, err);
}

int tw_source_get(tw_map *m, size_t l, size_t s, tw_source *o, codec_error *err) {
  const unsigned char *p;
  int32_t v[SOURCE_INTS];
  size_t i;
  if (!element_layer(m, l, TW_KIND_SOUNDS, err)) return 0;
  if (s >= m->layers[l].count) return codec_fail_arg(err, "layer %zu: source %zu out of range", l, s);
  p = m->layers[l].cells + s * SOURCE_BYTES;
  for (i = 0; i < SOURCE_INTS; i++) v[i] = u32_as_i32(le32_load(p + 4 * i));
  o->x = v[0]; o->y = v[1]; o->loop = v[2]; o->panning = v[3]; o->time_delay = v[4]; o->falloff = v[5];
  o->pos_env = v[6]; o->pos_env_offset = v[7]; o->sound_env = v[8]; o->sound_env_offset = v[9];
  o->shape = v[10]; o->width = v[11]; o->height = o->shape == 1 ? 0 : v[12];
  return 1;
}

int tw_source_set(tw_map *m, size_t l, size_t s, const tw_source *in, codec_error *err) {
  unsigned char *p;
  int32_t v[SOURCE_INTS];
  tw_source cur;
  if (!tw_source_get(m, l, s, &cur, err)) return 0;
  if ((in->pos_env != cur.pos_env && (in->pos_env < -1 || (in->pos_env >= 0 && (size_t)in->pos_env >= m->num_envelopes))) ||
      (in->sound_env != cur.sound_env &&
       (in->sound_env < -1 || (in->sound_env >= 0 && (size_t)in->sound_env >= m->num_envelopes))))
    return codec_fail_arg(err, "layer %zu source %zu: envelope %d / %d does not exist (map has %zu envelopes)", l, s,
                          in->pos_env, in->sound_env, m->num_envelopes);
  if (in->shape != cur.shape && in->shape != 0 && in->shape != 1)
    return codec_fail_arg(err, "layer %zu source %zu: shape %d (0 rectangle, 1 circle)", l, s, in->shape);
  p = m->layers[l].cells + s * SOURCE_BYTES;
  v[0] = in->x; v[1] = in->y; v[2] = in->loop; v[3] = in->panning; v[4] = in->time_delay; v[5] = in->falloff;
  v[6] = in->pos_env; v[7] = in->pos_env_offset; v[8] = in->sound_env; v[9] = in->sound_env_offset;
  v[10] = in->shape; v[11] = in->width;
  /* A circle's radius is the union's first int; the second is kept. */
  v[12] = in->shape == 1 ? u32_as_i32(le32_load(p + 48)) : in->height;
  store_ints(p, v, SOURCE_INTS);
  m->layers[l].dirty = 1;
  return 1;
}

void tw_source_sides(const tw_source *s, int *width, int *height, int *radius) {
  *width = s->shape == 1 ? -1 : s->width;
  *height = s->shape == 1 ? -1 : s->height;
  *radius = s->shape == 1 ? s->width : -1;
}

int tw_source_size(tw_source *s, int width, int height, int radius, int given, const char **field, codec_error *err) {
  if (s->shape == 1) {
    *field = given & TW_GIVEN_WIDTH ? "width" : "height";
    if (((given & TW_GIVEN_WIDTH) && width >= 0) || ((given & TW_GIVEN_HEIGHT) && height >= 0))
      return codec_fail_arg(err, "a circle has a radius, no width or height");
    *field = "radius";
    if (radius < 0) return codec_fail_arg(err, "a circle needs a radius");
    s->width = radius;
    s->height = 0;
    return 1;
  }
  *field = "radius";
  if ((given & TW_GIVEN_RADIUS) && radius >= 0) return codec_fail_arg(err, "a rectangle has a width and height, no radius");
  *field = width < 0 ? "width" : "height";
  if (width < 0 || height < 0) return codec_fail_arg(err, "a rectangle needs a width and a height");
  s->width = width;
  s->height = height;
  return 1;
}

int tw_source_insert(tw_map *m, size_t l, size_t s, codec_error *err) {
  static const int32_t v[SOURCE_INTS] = {0, 0, 1, 1, 0, 80, -1, 0, -1, 0, 1, 1500, 0};
  unsigned char bytes[SOURCE_BYTES];
  if (!element_layer(m, l, TW_KIND_SOUNDS, err)) return 0;
  store_ints(bytes, v, SOURCE_INTS);
  return element_insert(m, TW_ROWS_SOURCES, l, s, bytes, SOURCE_BYTES, err);
}

int tw_source_delete(tw_map *m, size_t l, size_t s, codec_error *err) {
  if (!element_layer(m, l, TW_KIND_SOUNDS, err)) return 0;
  return element_delete(m, TW_ROWS_SOURCES, l, s, SOURCE_BYTES, err);
}

/* ---- references to envelopes, images and sounds ------------------------------------------ */

typedef enum ref_kind { REF_ENVELOPE, REF_IMAGE, REF_SOUND } ref_kind;

/* Visits every reference of `what` kind: fn(ref, ctx, layer, element)
** gets the int (in an item or in a decoded layer, element -1 for the
** layer's own field) and returns 0 to stop.  Layers holding envelope
** references in their elements are decoded (and marked dirty by lowering
** callers themselves).  Returns 1, or 0 when stopped or a layer fails to
** decode (err set then). */
typedef int (*ref_visit)(int32_t *ref, void *ctx, size_t layer, long element);

static int visit_refs(tw_map *m, ref_kind what, ref_visit fn, void *ctx, int *changed_layer, codec_error *err) {
  size_t l, i;
  for (l = 0; l < m->num_layers; l++) {
    tw_layer *L = &m->layers[l];
    df_item *it = &m->df->items[L->item];
    if (L->kind <= TW_KIND_TUNE) {
      size_t k = what == REF_ENVELOPE ? TM_COLOR_ENV : what == REF_IMAGE ? TM_IMAGE : 0;
      if (k && k < it->num_ints && !fn(&it->ints[k], ctx, l, -1)) return 0;
    } else if (L->kind == TW_KIND_QUADS || L->kind == TW_KIND_SOUNDS || L->kind == TW_KIND_SOUNDS_DEPRECATED) {
      int quads = L->kind == TW_KIND_QUADS;
      if (((quads && what == REF_IMAGE) || (!quads && what == REF_SOUND)) && LQ_REF < it->num_ints &&
          !fn(&it->ints[LQ_REF], ctx, l, -1))
        return 0;
      if (what == REF_ENVELOPE && L->kind != TW_KIND_SOUNDS_DEPRECATED && L->count) {
        /* quads: pos_env at int 34, color_env 36; sources: pos_env 6, sound_env 8 */
        size_t a = quads ? 34 : 6, b = quads ? 36 : 8;
        if (!tw_layer_load(m, l, err)) return 0;
        for (i = 0; i < L->count; i++) {
          unsigned char *p = L->cells + i * L->cell_size;
          int32_t va = u32_as_i32(le32_load(p + 4 * a)), vb = u32_as_i32(le32_load(p + 4 * b));
          int32_t oa = va, ob = vb;
          if (!fn(&va, ctx, l, (long)i) || !fn(&vb, ctx, l, (long)i)) return 0;
          if (va != oa || vb != ob) {
            le32_store(p + 4 * a, (uint32_t)va);
            le32_store(p + 4 * b, (uint32_t)vb);
            L->dirty = 1;
            if (changed_layer) *changed_layer = 1;
          }
        }
      }
    }
  }
  return 1;
}

typedef struct ref_use {
  int32_t index;
  long layer, element; /* the first user found */
} ref_use;

static int find_user(int32_t *ref, void *ctx, size_t layer, long element) {
  ref_use *u = (ref_use *)ctx;
  if (*ref != u->index) return 1;
  u->layer = (long)layer;
  u->element = element;
  return 0;
}

static int lower_ref(int32_t *ref, void *ctx, size_t layer, long element) {
  (void)layer;
  (void)element;
  if (*ref > *(int32_t *)ctx) (*ref)--;
  return 1;
}

/* Fails when envelope, image or sound `index` is in use, naming the user. */
static int check_unused(tw_map *m, ref_kind what, size_t index, codec_error *err) {
  static const char *const nouns[] = {"envelope", "image", "sound"};
  static const char *const elements[] = {"quad", "source"};
  ref_use u;
  u.index = (int32_t)index;
  u.layer = -1;
  u.element = -1;
  if (visit_refs(m, what, find_user, &u, NULL, err)) return 1;
  if (u.layer < 0) return 0; /* a layer failed to decode: err says which */
  {
    const tw_layer *L = &m->layers[u.layer];
    if (u.element >= 0)
      return codec_fail_arg(err, "%s %zu is used by %s %ld of layer %ld (group %ld, layer %ld)", nouns[what], index,
                            elements[L->kind == TW_KIND_QUADS ? 0 : 1], u.element, u.layer, L->group,
                            L->index_in_group);
    return codec_fail_arg(err, "%s %zu is used by layer %ld (group %ld, layer %ld, %s)", nouns[what], index, u.layer,
                          L->group, L->index_in_group, tw_kind_name(L->kind));
  }
}

/* Lowers every reference of `what` past index by one. */
static int lower_refs(tw_map *m, ref_kind what, size_t index, codec_error *err) {
  int32_t at = (int32_t)index;
  return visit_refs(m, what, lower_ref, &at, NULL, err);
}

/* ---- envelopes, images, sounds ---------------------------------------------------------------- */

int tw_envelope_insert(tw_map *m, int channels, codec_error *err) {
  int32_t ints[EV_INTS];
  tw_env_point pts[2];
  size_t e = m->num_envelopes, k;
  int32_t total = 0;
  if (channels != 1 && channels != 3 && channels != 4)
    return codec_fail_arg(err, "an envelope has 1 (sound), 3 (position) or 4 (color) channels, not %d", channels);
  if (!tw_keys_reserve(m, TW_ROWS_ENVELOPES, 0, err)) return 0;
  if (m->envpoints_item >= 0) total = (int32_t)(m->df->items[m->envpoints_item].num_ints / (size_t)m->point_ints);
  ints[0] = m->point_ints == 22 ? 3 : 2;
  ints[1] = channels;
  ints[EV_START] = total;
  ints[EV_COUNT] = 0;
  for (k = 0; k < 8; k++) ints[EV_NAME + k] = k == 7 ? NAME_END : NAME_PAD;
  ints[12] = 0;
  if (!item_insert(m, item_position(m->df, TW_ITEM_ENVELOPE, e), TW_ITEM_ENVELOPE, ints, EV_INTS, err) ||
      !reindex(m, err))
    return 0;
  memset(pts, 0, sizeof pts);
  pts[1].time = 1000;
  for (k = 0; k < 2; k++) {
    int c;
    pts[k].curve = 1; /* linear, as the editor adds points */
    for (c = 0; c < 4; c++) pts[k].values[c] = channels == 3 ? 0 : 1024;
  }
  if (!tw_envelope_set_points(m, e, pts, 2, err)) return 0;
  tw_keys_inserted(m, TW_ROWS_ENVELOPES, 0, e);
  return 1;
}

int tw_envelope_insert_named(tw_map *m, const char *kind_name, codec_error *err) {
  int channels = tw_envelope_kind_channels(kind_name);
  if (!channels)
    return codec_fail_arg(err, "column kind: an INSERT into tw_envelopes needs the kind: 'position', 'color' or 'sound'");
  return tw_envelope_insert(m, channels, err);
}

int tw_envelope_delete(tw_map *m, size_t e, codec_error *err) {
  if (e >= m->num_envelopes) return codec_fail_arg(err, "envelope %zu: the map has %zu envelopes", e, m->num_envelopes);
  if (!check_unused(m, REF_ENVELOPE, e, err) || !tw_keys_reserve(m, TW_ROWS_ENVELOPES, 0, err)) return 0;
  if (!tw_envelope_set_points(m, e, NULL, 0, err)) return 0;
  item_remove(m, m->env_items[e]);
  if (!reindex(m, err) || !lower_refs(m, REF_ENVELOPE, e, err)) return 0;
  tw_keys_removed(m, TW_ROWS_ENVELOPES, 0, e);
  return 1;
}

int tw_image_insert(tw_map *m, const char *name, size_t len, int width, int height, codec_error *err) {
  int32_t ints[7];
  size_t data_before = m->df->num_data;
  int v07 = m->style == TW_STYLE_07;
  if (width < 0 || height < 0) return codec_fail_arg(err, "image size %d x %d: negative", width, height);
  if (!tw_keys_reserve(m, TW_ROWS_IMAGES, 0, err)) return 0;
  ints[0] = v07 ? 2 : 1;
  ints[1] = width;
  ints[2] = height;
  ints[3] = 1; /* external */
  ints[5] = -1;
  ints[6] = 1; /* 0.7: rgba */
  if (!blob_add_name(m, name, len, &ints[4], err)) return 0;
  if (!item_insert(m, item_position(m->df, TW_ITEM_IMAGE, m->num_images), TW_ITEM_IMAGE, ints, v07 ? 7 : 6, err)) {
    blobs_truncate(m, data_before);
    return 0;
  }
  if (!reindex(m, err)) return 0;
  tw_keys_inserted(m, TW_ROWS_IMAGES, 0, m->num_images - 1);
  return 1;
}

/* Removes the image or sound item (the kind `ref`, its keys among `rows`)
** at `item`, index i of its list, when nothing uses it: the indices past it
** are lowered, and the two data blobs its ints `blob_int` and `blob_int +
** 1` name (name and pixels, or name and opus bytes) go too when nothing
** else names them. */
static int remove_blob_owner(tw_map *m, ref_kind ref, tw_rows rows, size_t i, size_t item, int blob_int,
                             codec_error *err) {
  int32_t refs[2];
  const df_item *it;
  if (!check_unused(m, ref, i, err) || !tw_keys_reserve(m, rows, 0, err)) return 0;
  it = &m->df->items[item];
  refs[0] = item_int(it, blob_int, -1);
  refs[1] = item_int(it, blob_int + 1, -1);
  item_remove(m, item);
  if (!reindex(m, err) || !lower_refs(m, ref, i, err)) return 0;
  blobs_remove_unused(m, refs, 2);
  tw_keys_removed(m, rows, 0, i);
  return 1;
}

int tw_image_delete(tw_map *m, size_t i, codec_error *err) {
  if (i >= m->num_images) return codec_fail_arg(err, "image %zu: the map has %zu images", i, m->num_images);
  return remove_blob_owner(m, REF_IMAGE, TW_ROWS_IMAGES, i, m->image_items[i], 4, err);
}

int tw_sound_insert(tw_map *m, const char *name, size_t len, codec_error *err) {
  int32_t ints[5] = {1, 1, -1, -1, 0};
  size_t data_before = m->df->num_data;
  if (!tw_keys_reserve(m, TW_ROWS_SOUNDS, 0, err) || !blob_add_name(m, name, len, &ints[2], err)) return 0;
  if (!item_insert(m, item_position(m->df, TW_ITEM_SOUND, m->num_sounds), TW_ITEM_SOUND, ints, 5, err)) {
    blobs_truncate(m, data_before);
    return 0;
  }
  if (m->style == TW_STYLE_06) m->style = TW_STYLE_DDNET;
  if (!reindex(m, err)) return 0;
  tw_keys_inserted(m, TW_ROWS_SOUNDS, 0, m->num_sounds - 1);
  return 1;
}

int tw_sound_delete(tw_map *m, size_t s, codec_error *err) {
  if (s >= m->num_sounds) return codec_fail_arg(err, "sound %zu: the map has %zu sounds", s, m->num_sounds);
  return remove_blob_owner(m, REF_SOUND, TW_ROWS_SOUNDS, s, m->sound_items[s], 2, err);
}
