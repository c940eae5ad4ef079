/*
** twmap_keys.c: the row keys of a map (twmap.h, "row keys"): the keys of
** its groups, layers, images, envelopes and sounds, of the quads and sound
** sources of each layer, and each layer's key base, kept right by the
** structural edits (twmap_edit.c) and resizes (twmap_resize.c).
**
** A key must survive inserts and deletes of other rows (a caller such as
** levelsql finds its rows again by key after a two-pass UPDATE or DELETE
** moved others), so a row's key is not its index once rows moved: each
** list keeps its keys by index from its first structural edit on, new rows
** taking fresh keys.  Before that, a key is the index (lists) or base[layer]
** + index (cells, quads, sources), so unedited maps cost nothing but a base
** per layer.
**
** An edit first makes room (tw_keys_reserve*: the only step that
** allocates), then changes the map, then records the change in the keys
** (tw_keys_inserted, tw_keys_removed, ...: they cannot fail), so a failed
** edit leaves keys and map agreeing.
*/
#include <stdlib.h>
#include <string.h>

#include "tw/twmap.h"

/* Keys count past this only by saturating at it: far beyond any key a
** caller can use (levelsql's rowids hold 29 key bits), and far from
** overflowing. */
#define KEYS_SATURATED ((int64_t)1 << 62)

/* The keys of one list of rows: k[i] once on, else i (plus the layer's base
** for elements of a layer). */
typedef struct key_list {
  int64_t *k;
  size_t n;
  int on;
} key_list;

/* The lists of the map's own rows: TW_ROWS_GROUPS .. TW_ROWS_SOUNDS. */
#define KEY_LISTS (TW_ROWS_SOUNDS + 1)

struct tw_keys {
  int64_t next;             /* the next fresh key */
  key_list lists[KEY_LISTS];
  size_t nlayers;
  int64_t *base;            /* per layer: key of its first cell, quad or source */
  key_list *elems;          /* per layer: keys of its quads or sources */
};

/* Elements of a layer that have keys: cells, quads, sources. */
static int64_t layer_rows(const tw_layer *L) {
  return L->kind <= TW_KIND_TUNE || L->kind == TW_KIND_QUADS || L->kind == TW_KIND_SOUNDS ? (int64_t)L->count : 0;
}

/* Gives layer l the next fresh range of keys (saturating). */
static void fresh_base(tw_keys *k, const tw_map *m, size_t l) {
  int64_t n = layer_rows(&m->layers[l]);
  k->base[l] = k->next;
  k->next = n > KEYS_SATURATED - k->next ? KEYS_SATURATED : k->next + n;
}

tw_keys *tw_keys_new(const tw_map *m) {
  tw_keys *k = calloc(1, sizeof *k);
  size_t l;
  if (!k) return NULL;
  k->nlayers = m->num_layers;
  k->base = malloc(sizeof *k->base * (m->num_layers ? m->num_layers : 1));
  k->elems = calloc(m->num_layers ? m->num_layers : 1, sizeof *k->elems);
  if (!k->base || !k->elems) {
    tw_keys_free(k);
    return NULL;
  }
  for (l = 0; l < m->num_layers; l++) fresh_base(k, m, l);
  /* Fresh keys start past every index a list keys by (0 .. count - 1),
  ** so a new row never takes an old row's key, even in a map without
  ** cells. */
  k->next += (int64_t)(m->num_groups + m->num_layers + m->num_images + m->num_envelopes + m->num_sounds);
  return k;
}

/* Copies a key list; 0 on OOM. */
static int list_copy(key_list *to, const key_list *from) {
  *to = *from;
  to->k = NULL;
  if (!from->k) return 1;
  if (!(to->k = malloc(sizeof *to->k * (from->n ? from->n : 1)))) return 0;
  memcpy(to->k, from->k, sizeof *to->k * from->n);
  return 1;
}

tw_keys *tw_keys_clone(const tw_keys *src) {
  tw_keys *k = calloc(1, sizeof *k);
  size_t i;
  int ok = 1;
  if (!k) return NULL;
  k->next = src->next;
  k->nlayers = src->nlayers;
  k->base = malloc(sizeof *k->base * (src->nlayers ? src->nlayers : 1));
  k->elems = calloc(src->nlayers ? src->nlayers : 1, sizeof *k->elems);
  if (!k->base || !k->elems) ok = 0;
  for (i = 0; ok && i < KEY_LISTS; i++) ok = list_copy(&k->lists[i], &src->lists[i]);
  for (i = 0; ok && i < src->nlayers; i++) ok = list_copy(&k->elems[i], &src->elems[i]);
  if (!ok) {
    tw_keys_free(k);
    return NULL;
  }
  memcpy(k->base, src->base, sizeof *k->base * src->nlayers);
  return k;
}

void tw_keys_free(tw_keys *k) {
  size_t i;
  if (!k) return;
  for (i = 0; i < KEY_LISTS; i++) free(k->lists[i].k);
  for (i = 0; k->elems && i < k->nlayers; i++) free(k->elems[i].k);
  free(k->elems);
  free(k->base);
  free(k);
}

size_t tw_keys_footprint(const tw_keys *k) {
  size_t bytes = sizeof *k + k->nlayers * (sizeof *k->base + sizeof *k->elems), i;
  for (i = 0; i < KEY_LISTS; i++) bytes += k->lists[i].n * sizeof(int64_t);
  for (i = 0; i < k->nlayers; i++) bytes += k->elems[i].n * sizeof(int64_t);
  return bytes;
}

/* ---- key lists ------------------------------------------------------------------ */

static int64_t list_key(const key_list *kl, int64_t first, size_t i) { return kl->on ? kl->k[i] : first + (int64_t)i; }

/* The index holding key, among count rows; 1 and *i, or 0. */
static int list_find(const key_list *kl, int64_t first, size_t count, int64_t key, size_t *i) {
  size_t j;
  if (!kl->on) {
    if (key < first || key - first >= (int64_t)count) return 0;
    *i = (size_t)(key - first);
    return 1;
  }
  for (j = 0; j < kl->n; j++)
    if (kl->k[j] == key) {
      *i = j;
      return 1;
    }
  return 0;
}

/* Keeps keys by index from now on (count rows, keyed first + i so far), with
** room for one more; 0 on OOM. */
static int list_on(key_list *kl, int64_t first, size_t count) {
  int64_t *p;
  size_t i;
  if (kl->on) {
    p = realloc(kl->k, sizeof *p * (kl->n + 1));
    if (!p) return 0;
    kl->k = p;
    return 1;
  }
  if (!(p = malloc(sizeof *p * (count + 1)))) return 0;
  for (i = 0; i < count; i++) p[i] = first + (int64_t)i;
  kl->k = p;
  kl->n = count;
  kl->on = 1;
  return 1;
}

/* A new row at index at takes a fresh key (list_on done before). */
static void list_insert(tw_keys *keys, key_list *kl, size_t at) {
  memmove(kl->k + at + 1, kl->k + at, sizeof *kl->k * (kl->n - at));
  kl->k[at] = keys->next++;
  kl->n++;
}

/* The row at index at is gone (list_on done before). */
static void list_remove(key_list *kl, size_t at) {
  memmove(kl->k + at, kl->k + at + 1, sizeof *kl->k * (kl->n - at - 1));
  kl->n--;
}

/* The rows of list `rows` (one of the map's own lists). */
static size_t list_count(const tw_map *m, tw_rows rows) {
  switch (rows) {
    case TW_ROWS_GROUPS: return m->num_groups;
    case TW_ROWS_LAYERS: return m->num_layers;
    case TW_ROWS_IMAGES: return m->num_images;
    case TW_ROWS_ENVELOPES: return m->num_envelopes;
    default: return m->num_sounds;
  }
}

/* ---- reading keys ------------------------------------------------------------------ */

int64_t tw_row_key(const tw_map *m, tw_rows rows, size_t element, size_t index) {
  const tw_keys *k = m->keys;
  if (rows == TW_ROWS_QUADS || rows == TW_ROWS_SOURCES) return list_key(&k->elems[element], k->base[element], index);
  return list_key(&k->lists[rows], 0, element);
}

int tw_row_find(const tw_map *m, tw_rows rows, int64_t key, size_t *element, size_t *index) {
  const tw_keys *k = m->keys;
  tw_kind kind = rows == TW_ROWS_QUADS ? TW_KIND_QUADS : TW_KIND_SOUNDS;
  size_t l;
  if (rows != TW_ROWS_QUADS && rows != TW_ROWS_SOURCES) {
    *index = 0;
    return list_find(&k->lists[rows], 0, list_count(m, rows), key, element);
  }
  for (l = 0; l < m->num_layers; l++) {
    if (m->layers[l].kind != kind || !list_find(&k->elems[l], k->base[l], m->layers[l].count, key, index)) continue;
    *element = l;
    return 1;
  }
  return 0;
}

int64_t tw_layer_key_base(const tw_map *m, size_t l) { return m->keys->base[l]; }

int tw_map_keys_fit(const tw_map *m, int64_t limit, codec_error *err) {
  size_t l;
  for (l = 0; l < m->num_layers; l++) {
    int64_t rows = layer_rows(&m->layers[l]);
    if (!rows || m->keys->base[l] + rows <= limit) continue;
    return codec_fail_limit(err, "layer %zu: its %lld rows would take row keys from %lld on, past the %lld rows a "
                                 "rowid can name in one file", l, (long long)rows, (long long)m->keys->base[l],
                            (long long)limit);
  }
  return 1;
}

/* ---- edits ------------------------------------------------------------------------------ */

/* The list an edit of `rows` changes: a list of the map, or the quads or
** sources of layer `element`, with the key of its first row. */
static key_list *edited_list(tw_map *m, tw_rows rows, size_t element, int64_t *first) {
  *first = 0;
  if (rows != TW_ROWS_QUADS && rows != TW_ROWS_SOURCES) return &m->keys->lists[rows];
  *first = m->keys->base[element];
  return &m->keys->elems[element];
}

int tw_keys_reserve(tw_map *m, tw_rows rows, size_t element, codec_error *err) {
  int64_t first;
  key_list *kl = edited_list(m, rows, element, &first);
  size_t count = rows == TW_ROWS_QUADS || rows == TW_ROWS_SOURCES ? m->layers[element].count : list_count(m, rows);
  return list_on(kl, first, count) ? 1 : codec_fail_oom(err, "map: out of memory");
}

void tw_keys_inserted(tw_map *m, tw_rows rows, size_t element, size_t at) {
  int64_t first;
  list_insert(m->keys, edited_list(m, rows, element, &first), at);
}

void tw_keys_removed(tw_map *m, tw_rows rows, size_t element, size_t at) {
  int64_t first;
  list_remove(edited_list(m, rows, element, &first), at);
}

int tw_keys_reserve_layer(tw_map *m, codec_error *err) {
  tw_keys *keys = m->keys;
  int64_t *base = realloc(keys->base, sizeof *base * (keys->nlayers + 1));
  key_list *elems;
  if (base) keys->base = base;
  elems = base ? realloc(keys->elems, sizeof *elems * (keys->nlayers + 1)) : NULL;
  if (elems) keys->elems = elems;
  if (!elems || !tw_keys_reserve(m, TW_ROWS_LAYERS, 0, err)) return codec_fail_oom(err, "map: out of memory");
  return 1;
}

/* A new layer's cells are keyed from a fresh base; its quads or sources
** are keyed by index from the start (its list is on and empty). */
void tw_keys_layer_inserted(tw_map *m, size_t l) {
  tw_keys *keys = m->keys;
  memmove(keys->base + l + 1, keys->base + l, sizeof *keys->base * (keys->nlayers - l));
  memmove(keys->elems + l + 1, keys->elems + l, sizeof *keys->elems * (keys->nlayers - l));
  keys->nlayers++;
  keys->base[l] = keys->next;
  keys->next += layer_rows(&m->layers[l]);
  memset(&keys->elems[l], 0, sizeof keys->elems[l]);
  keys->elems[l].on = 1;
  list_insert(keys, &keys->lists[TW_ROWS_LAYERS], l);
}

void tw_keys_layer_removed(tw_map *m, size_t l) {
  tw_keys *keys = m->keys;
  free(keys->elems[l].k);
  memmove(keys->base + l, keys->base + l + 1, sizeof *keys->base * (keys->nlayers - l - 1));
  memmove(keys->elems + l, keys->elems + l + 1, sizeof *keys->elems * (keys->nlayers - l - 1));
  keys->nlayers--;
  list_remove(&keys->lists[TW_ROWS_LAYERS], l);
}

/* A resized layer's cells could run into the keys of the layer after it,
** so it takes a fresh range of keys past every key given so far. */
void tw_keys_layer_resized(tw_map *m, size_t l) { fresh_base(m->keys, m, l); }
