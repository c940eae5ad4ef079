/*
** tw_edit.c: INSERT and DELETE on the Teeworlds / DDNet tables (through
** codecs/tw/twmap_edit.h) and the row keys that stay put while rows come and
** go.  See tw_edit.h.
*/
#include "tw/tw_edit.h"

#include <stdlib.h>
#include <string.h>

#include "tw/twmap_edit.h"
#include "tw/tw_model.h"

/* The keys of one list of rows: k[i] once on, else i (plus the layer's base
** for elements of a layer). */
typedef struct key_list {
  int64_t *k;
  size_t n;
  int on;
} key_list;

enum { KEYS_GROUPS, KEYS_LAYERS, KEYS_IMAGES, KEYS_ENVELOPES, KEYS_SOUNDS, KEYS_LISTS };

struct tw_keys {
  int64_t next;             /* the next fresh key */
  key_list lists[KEYS_LISTS];
  size_t nlayers;
  int64_t *base;            /* per layer: key of its first cell, quad or source */
  key_list *elems;          /* per layer: keys of its quads or sources */
};

/* Elements of a layer that have keys: cells, quads, sources. */
static int64_t layer_rows(const tw_layer *L) {
  return L->kind <= TW_KIND_TUNE || L->kind == TW_KIND_QUADS || L->kind == TW_KIND_SOUNDS ? (int64_t)L->count : 0;
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
  for (l = 0; l < m->num_layers; l++) {
    int64_t n = layer_rows(&m->layers[l]);
    k->base[l] = k->next;
    k->next = n > LS_KEY_MAX + 1 - k->next ? LS_KEY_MAX + 1 : k->next + n; /* saturates */
  }
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
  for (i = 0; ok && i < KEYS_LISTS; i++) ok = list_copy(&k->lists[i], &src->lists[i]);
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
  for (i = 0; i < KEYS_LISTS; i++) free(k->lists[i].k);
  for (i = 0; k->elems && i < k->nlayers; i++) free(k->elems[i].k);
  free(k->elems);
  free(k->base);
  free(k);
}

size_t tw_keys_footprint(const tw_keys *k) {
  size_t bytes = sizeof *k + k->nlayers * (sizeof *k->base + sizeof *k->elems), i;
  for (i = 0; i < KEYS_LISTS; i++) bytes += k->lists[i].n * sizeof(int64_t);
  for (i = 0; i < k->nlayers; i++) bytes += k->elems[i].n * sizeof(int64_t);
  return bytes;
}

int64_t tw_keys_base(const tw_keys *k, size_t l) { return k->base[l]; }

/* A resized layer's cells could run into the keys of the layer after it,
** so it takes a fresh range of keys past every key given so far. */
void tw_keys_layer_resized(tw_keys *k, const tw_map *m, size_t l) {
  int64_t n = layer_rows(&m->layers[l]);
  k->base[l] = k->next;
  k->next = n > LS_KEY_MAX + 1 - k->next ? LS_KEY_MAX + 1 : k->next + n; /* saturates */
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

/* ---- the lists: groups, layers, images, envelopes, sounds ------------------------- */

static size_t list_count(const tw_map *m, int which) {
  switch (which) {
    case KEYS_GROUPS: return m->num_groups;
    case KEYS_LAYERS: return m->num_layers;
    case KEYS_IMAGES: return m->num_images;
    case KEYS_ENVELOPES: return m->num_envelopes;
    default: return m->num_sounds;
  }
}

#define LIST_KEY_SEEK(name, which)                                                          \
  int64_t tw_##name##_key(const void *model, const ls_pos *pos) {                           \
    return list_key(&tw_model_keys(model)->lists[which], 0, (size_t)pos->element);                 \
  }                                                                                         \
  int tw_##name##_seek(const void *model, int64_t key, ls_pos *pos) {                       \
    size_t i;                                                                               \
    if (!list_find(&tw_model_keys(model)->lists[which], 0,                                  \
                   list_count(tw_model_map((void *)model), which), key, &i))                \
      return 0;                                                                             \
    pos->element = (int64_t)i;                                                                    \
    pos->index = pos->x = 0;                                                                    \
    return 1;                                                                               \
  }
LIST_KEY_SEEK(group, KEYS_GROUPS)
LIST_KEY_SEEK(layer, KEYS_LAYERS)
LIST_KEY_SEEK(image, KEYS_IMAGES)
LIST_KEY_SEEK(envelope, KEYS_ENVELOPES)
LIST_KEY_SEEK(sound, KEYS_SOUNDS)

/* A codec failure as an insert's or remove's error. */
static int edit_failed(const codec_error *e, char **err) { return ls_codec_failed(e, SQLITE_CONSTRAINT, err, NULL); }

/* Reads an optional index value: NULL gives dflt, else 0..max. */
static int value_index(const ls_arg *a, int64_t dflt, int64_t max, int64_t *out, char **err) {
  sqlite3_value *v = a->value;
  if (sqlite3_value_type(v) == SQLITE_NULL) {
    *out = dflt;
    return SQLITE_OK;
  }
  if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER || sqlite3_value_int64(v) < 0 || sqlite3_value_int64(v) > max) {
    *err = sqlite3_mprintf("column %s: an INSERT takes an integer from 0 to %lld here, or NULL (last)", a->column->name,
                           (long long)max);
    return SQLITE_CONSTRAINT;
  }
  *out = sqlite3_value_int64(v);
  return SQLITE_OK;
}

/* Makes room for one more key in list `which` before an edit; SQLITE_NOMEM
** when it cannot. */
static int list_ready(tw_keys *keys, const tw_map *m, int which) {
  return list_on(&keys->lists[which], 0, list_count(m, which)) ? SQLITE_OK : SQLITE_NOMEM;
}

/* ---- layers and their elements ------------------------------------------------------ */

/* Keys for a layer inserted at l (its cells keyed from a fresh base). */
static int keys_layer_inserted(tw_keys *keys, const tw_map *m, size_t l) {
  int64_t *base = realloc(keys->base, sizeof *base * (keys->nlayers + 1));
  key_list *elems;
  if (base) keys->base = base;
  elems = base ? realloc(keys->elems, sizeof *elems * (keys->nlayers + 1)) : NULL;
  if (!elems) return 0;
  keys->elems = elems;
  memmove(keys->base + l + 1, keys->base + l, sizeof *keys->base * (keys->nlayers - l));
  memmove(keys->elems + l + 1, keys->elems + l, sizeof *keys->elems * (keys->nlayers - l));
  keys->nlayers++;
  keys->base[l] = keys->next;
  keys->next += layer_rows(&m->layers[l]);
  memset(&keys->elems[l], 0, sizeof keys->elems[l]);
  keys->elems[l].on = 1;
  list_insert(keys, &keys->lists[KEYS_LAYERS], l);
  return 1;
}

/* Forgets the keys of layer l (removed). */
static void keys_layer_removed(tw_keys *keys, size_t l) {
  free(keys->elems[l].k);
  memmove(keys->base + l, keys->base + l + 1, sizeof *keys->base * (keys->nlayers - l - 1));
  memmove(keys->elems + l, keys->elems + l + 1, sizeof *keys->elems * (keys->nlayers - l - 1));
  keys->nlayers--;
  list_remove(&keys->lists[KEYS_LAYERS], l);
}

/* The layer at (grp, layer) in group terms; SQLITE_CONSTRAINT naming it
** when there is none. */
static int find_layer(const tw_map *m, const ls_arg *grp_arg, const ls_arg *layer_arg, size_t *l, char **err) {
  sqlite3_value *grp = grp_arg->value, *layer = layer_arg->value;
  size_t i;
  if (sqlite3_value_numeric_type(grp) != SQLITE_INTEGER || sqlite3_value_numeric_type(layer) != SQLITE_INTEGER) {
    *err = sqlite3_mprintf("an INSERT here needs grp and layer (integers) to say which layer it goes to");
    return SQLITE_CONSTRAINT;
  }
  for (i = 0; i < m->num_layers; i++)
    if (m->layers[i].group == sqlite3_value_int64(grp) && m->layers[i].index_in_group == sqlite3_value_int64(layer)) {
      *l = i;
      return SQLITE_OK;
    }
  *err = sqlite3_mprintf("the map has no layer %lld in group %lld", (long long)sqlite3_value_int64(layer),
                         (long long)sqlite3_value_int64(grp));
  return SQLITE_CONSTRAINT;
}

/* Removes layer l and its keys. */
static int remove_layer(void *model, size_t l, char **err) {
  codec_error e;
  if (!tw_layer_delete(tw_model_map(model), l, &e)) return edit_failed(&e, err);
  keys_layer_removed(tw_model_keys(model), l);
  return SQLITE_OK;
}

/* "tiles", "game", ... as a tw_kind the INSERT can add. */
static int parse_kind(const ls_arg *a, tw_kind *out, char **err) {
  const char *s = ls_arg_text(a);
  int k;
  if (!s) s = "tiles";
  for (k = TW_KIND_TILES; k <= TW_KIND_SOUNDS; k++)
    if (strcmp(s, tw_kind_name((tw_kind)k)) == 0) {
      *out = (tw_kind)k;
      return SQLITE_OK;
    }
  *err = sqlite3_mprintf("column kind: '%s' is not a kind a layer can be added as (tiles, game, front, tele, "
                         "speedup, switch, tune, quads, sounds)", s);
  return SQLITE_CONSTRAINT;
}

/* The columns an INSERT into tw_layers reads. */
typedef struct layer_args {
  ls_arg grp, layer, kind, width, height;
} layer_args;

/* INSERT into tw_layers: a layer of `kind` (default tiles) in group grp
** at `layer` (default last), width x height cells for tilemaps. */
static int layer_insert_row(void *model, const void *args_, ls_pos *pos, char **err) {
  const layer_args *args = args_;
  tw_map *m = tw_model_map(model);
  tw_keys *keys = tw_model_keys(model);
  tw_kind kind;
  int64_t g, k, w, h;
  size_t l;
  codec_error e;
  int rc;
  if (!ls_arg_given(&args->grp)) {
    *err = sqlite3_mprintf("column grp: an INSERT into tw_layers needs the group the layer goes to");
    return SQLITE_CONSTRAINT;
  }
  if ((rc = value_index(&args->grp, 0, (int64_t)m->num_groups - 1, &g, err)) != SQLITE_OK ||
      (rc = value_index(&args->layer, INT32_MAX, INT32_MAX, &k, err)) != SQLITE_OK ||
      (rc = parse_kind(&args->kind, &kind, err)) != SQLITE_OK ||
      (rc = value_index(&args->width, 0, INT32_MAX, &w, err)) != SQLITE_OK ||
      (rc = value_index(&args->height, 0, INT32_MAX, &h, err)) != SQLITE_OK ||
      (rc = list_ready(keys, m, KEYS_LAYERS)) != SQLITE_OK)
    return rc;
  if (k == INT32_MAX) {
    tw_group_info gi;
    if (!tw_group_get(m, (size_t)g, &gi, &e)) return edit_failed(&e, err);
    k = gi.num_layers;
  }
  if (!tw_layer_insert(m, (size_t)g, (size_t)k, kind, (int)w, (int)h, &l, &e)) return edit_failed(&e, err);
  if (!keys_layer_inserted(keys, m, l)) return SQLITE_NOMEM;
  pos->element = (int64_t)l;
  pos->index = pos->x = 0;
  return SQLITE_OK;
}

const ls_insert tw_layer_insertion = {
  .run = layer_insert_row, .args_size = sizeof(layer_args),
  .args = {LS_ARG(layer_args, grp), LS_ARG(layer_args, layer), LS_ARG(layer_args, kind), LS_ARG(layer_args, width),
           LS_ARG(layer_args, height)},
};

int tw_layer_remove_row(void *model, const ls_pos *pos, char **err) {
  if (list_ready(tw_model_keys(model), tw_model_map(model), KEYS_LAYERS) != SQLITE_OK) return SQLITE_NOMEM;
  return remove_layer(model, (size_t)pos->element, err);
}

/* Quads and sound sources: rows of a layer at (element = the layer, index = the row in it). */
static int64_t element_key(const void *model, const ls_pos *pos) {
  const tw_keys *keys = tw_model_keys(model);
  return list_key(&keys->elems[pos->element], keys->base[pos->element], (size_t)pos->index);
}

static int element_seek(const void *model, tw_kind kind, int64_t key, ls_pos *pos) {
  const tw_map *m = tw_model_map((void *)model);
  const tw_keys *keys = tw_model_keys(model);
  size_t l, i;
  for (l = 0; l < m->num_layers; l++) {
    if (m->layers[l].kind != kind || !list_find(&keys->elems[l], keys->base[l], m->layers[l].count, key, &i)) continue;
    pos->element = (int64_t)l;
    pos->index = (int64_t)i;
    pos->x = 0;
    return 1;
  }
  return 0;
}

typedef int (*element_edit)(tw_map *m, size_t l, size_t at, codec_error *err);

/* The columns an INSERT into tw_quads or tw_sound_sources reads: the
** layer, and the element's index in it (column quad or source). */
typedef struct element_args {
  ls_arg grp, layer, index;
} element_args;

/* An INSERT of a quad or source: at (grp, layer), position or last. */
static int element_insert_row(void *model, const element_args *args, ls_pos *pos, element_edit add, char **err) {
  tw_map *m = tw_model_map(model);
  tw_keys *keys = tw_model_keys(model);
  size_t l;
  int64_t at;
  codec_error e;
  int rc;
  if ((rc = find_layer(m, &args->grp, &args->layer, &l, err)) != SQLITE_OK ||
      (rc = value_index(&args->index, (int64_t)m->layers[l].count, (int64_t)m->layers[l].count, &at, err)) != SQLITE_OK)
    return rc;
  if (!list_on(&keys->elems[l], keys->base[l], m->layers[l].count)) return SQLITE_NOMEM;
  if (!add(m, l, (size_t)at, &e)) return edit_failed(&e, err);
  list_insert(keys, &keys->elems[l], (size_t)at);
  pos->element = (int64_t)l;
  pos->index = at;
  pos->x = 0;
  return SQLITE_OK;
}

static int element_remove_row(void *model, const ls_pos *pos, element_edit del, char **err) {
  tw_map *m = tw_model_map(model);
  tw_keys *keys = tw_model_keys(model);
  codec_error e;
  if (!list_on(&keys->elems[pos->element], keys->base[pos->element], m->layers[pos->element].count)) return SQLITE_NOMEM;
  if (!del(m, (size_t)pos->element, (size_t)pos->index, &e)) return edit_failed(&e, err);
  list_remove(&keys->elems[pos->element], (size_t)pos->index);
  return SQLITE_OK;
}

int64_t tw_quad_key(const void *model, const ls_pos *pos) { return element_key(model, pos); }
int tw_quad_seek(const void *model, int64_t key, ls_pos *pos) { return element_seek(model, TW_KIND_QUADS, key, pos); }
static int quad_insert_row(void *model, const void *args, ls_pos *pos, char **err) {
  return element_insert_row(model, args, pos, tw_quad_insert, err);
}
const ls_insert tw_quad_insertion = {
  .run = quad_insert_row, .args_size = sizeof(element_args),
  .args = {LS_ARG(element_args, grp), LS_ARG(element_args, layer), LS_ARG_NAMED("quad", element_args, index)},
};
int tw_quad_remove_row(void *model, const ls_pos *pos, char **err) {
  return element_remove_row(model, pos, tw_quad_delete, err);
}
int64_t tw_source_key(const void *model, const ls_pos *pos) { return element_key(model, pos); }
int tw_source_seek(const void *model, int64_t key, ls_pos *pos) { return element_seek(model, TW_KIND_SOUNDS, key, pos); }
static int source_insert_row(void *model, const void *args, ls_pos *pos, char **err) {
  return element_insert_row(model, args, pos, tw_source_insert, err);
}
const ls_insert tw_source_insertion = {
  .run = source_insert_row, .args_size = sizeof(element_args),
  .args = {LS_ARG(element_args, grp), LS_ARG(element_args, layer), LS_ARG_NAMED("source", element_args, index)},
};
int tw_source_remove_row(void *model, const ls_pos *pos, char **err) {
  return element_remove_row(model, pos, tw_source_delete, err);
}

/* ---- groups ----------------------------------------------------------------------------- */

/* The column an INSERT into tw_groups reads. */
typedef struct group_args {
  ls_arg grp;
} group_args;

/* INSERT into tw_groups: an empty group, appended (grp NULL or the count). */
static int group_insert_row(void *model, const void *args_, ls_pos *pos, char **err) {
  const group_args *args = args_;
  tw_map *m = tw_model_map(model);
  tw_keys *keys = tw_model_keys(model);
  int64_t g;
  codec_error e;
  int rc;
  if ((rc = value_index(&args->grp, (int64_t)m->num_groups, (int64_t)m->num_groups, &g, err)) != SQLITE_OK ||
      (rc = list_ready(keys, m, KEYS_GROUPS)) != SQLITE_OK)
    return rc;
  if (!tw_group_insert(m, (size_t)g, &e)) return edit_failed(&e, err);
  list_insert(keys, &keys->lists[KEYS_GROUPS], (size_t)g);
  pos->element = g;
  pos->index = pos->x = 0;
  return SQLITE_OK;
}

const ls_insert tw_group_insertion = {
  .run = group_insert_row, .args_size = sizeof(group_args), .args = {LS_ARG(group_args, grp)},
};

/* A group goes with its layers (the editor deletes them with it); the game
** group stays. */
int tw_group_remove_row(void *model, const ls_pos *pos, char **err) {
  tw_map *m = tw_model_map(model);
  tw_keys *keys = tw_model_keys(model);
  long game = tw_map_game_layer(m);
  size_t l;
  codec_error e;
  int rc;
  if (game >= 0 && m->layers[game].group == pos->element) {
    *err = sqlite3_mprintf("group %lld holds the game layer (layer_index %ld): it cannot be deleted", (long long)pos->element,
                           game);
    return SQLITE_CONSTRAINT;
  }
  if (list_ready(keys, m, KEYS_GROUPS) != SQLITE_OK || list_ready(keys, m, KEYS_LAYERS) != SQLITE_OK) return SQLITE_NOMEM;
  for (l = m->num_layers; l-- > 0;)
    if (m->layers[l].group == pos->element && (rc = remove_layer(model, l, err)) != SQLITE_OK) return rc;
  if (!tw_group_delete(m, (size_t)pos->element, &e)) return edit_failed(&e, err);
  list_remove(&keys->lists[KEYS_GROUPS], (size_t)pos->element);
  return SQLITE_OK;
}

/* ---- images, envelopes, sounds: appended, removed when unused ---------------------------------- */

/* The index column of an appended row: NULL or the count. */
static int appended_index(const ls_arg *a, size_t count, char **err) {
  sqlite3_value *v = a->value;
  const char *column = a->column->name;
  if (sqlite3_value_type(v) == SQLITE_NULL ||
      (sqlite3_value_numeric_type(v) == SQLITE_INTEGER && sqlite3_value_int64(v) == (int64_t)count))
    return SQLITE_OK;
  *err = sqlite3_mprintf("column %s: new rows are appended (%s %lld); give NULL or %lld", column, column,
                         (long long)count, (long long)count);
  return SQLITE_CONSTRAINT;
}

/* The name an INSERT gives: UTF-8 text. */
static int value_name(const ls_arg *a, const char *table, const char **s, size_t *n, char **err) {
  sqlite3_value *v = a->value;
  if (sqlite3_value_type(v) != SQLITE_TEXT || sqlite3_value_bytes(v) < 1) {
    *err = sqlite3_mprintf("column name: an INSERT into %s needs a name", table);
    return SQLITE_CONSTRAINT;
  }
  *s = (const char *)sqlite3_value_text(v);
  *n = (size_t)sqlite3_value_bytes(v);
  return SQLITE_OK;
}

/* Finishes an append to list `which`: the new row is the last one. */
static int appended(void *model, int which, ls_pos *pos) {
  tw_map *m = tw_model_map(model);
  tw_keys *keys = tw_model_keys(model);
  size_t at = list_count(m, which) - 1;
  list_insert(keys, &keys->lists[which], at);
  pos->element = (int64_t)at;
  pos->index = pos->x = 0;
  return SQLITE_OK;
}

/* The columns an INSERT into tw_images reads. */
typedef struct image_args {
  ls_arg image, name, width, height;
} image_args;

/* INSERT into tw_images: an external image (no pixels) of that name and
** size, appended. */
static int image_insert_row(void *model, const void *args_, ls_pos *pos, char **err) {
  const image_args *args = args_;
  tw_map *m = tw_model_map(model);
  const char *name;
  size_t n;
  int64_t w, h;
  codec_error e;
  int rc;
  if ((rc = appended_index(&args->image, m->num_images, err)) != SQLITE_OK ||
      (rc = value_name(&args->name, "tw_images", &name, &n, err)) != SQLITE_OK ||
      (rc = value_index(&args->width, 0, INT32_MAX, &w, err)) != SQLITE_OK ||
      (rc = value_index(&args->height, 0, INT32_MAX, &h, err)) != SQLITE_OK ||
      (rc = list_ready(tw_model_keys(model), m, KEYS_IMAGES)) != SQLITE_OK)
    return rc;
  if (!tw_image_insert(m, name, n, (int)w, (int)h, &e)) return edit_failed(&e, err);
  return appended(model, KEYS_IMAGES, pos);
}

const ls_insert tw_image_insertion = {
  .run = image_insert_row, .args_size = sizeof(image_args),
  .args = {LS_ARG(image_args, image), LS_ARG(image_args, name), LS_ARG(image_args, width), LS_ARG(image_args, height)},
};

/* The columns an INSERT into tw_sounds reads. */
typedef struct sound_args {
  ls_arg sound, name;
} sound_args;

/* INSERT into tw_sounds: an empty sound of that name, appended. */
static int sound_insert_row(void *model, const void *args_, ls_pos *pos, char **err) {
  const sound_args *args = args_;
  tw_map *m = tw_model_map(model);
  const char *name;
  size_t n;
  codec_error e;
  int rc;
  if ((rc = appended_index(&args->sound, m->num_sounds, err)) != SQLITE_OK ||
      (rc = value_name(&args->name, "tw_sounds", &name, &n, err)) != SQLITE_OK ||
      (rc = list_ready(tw_model_keys(model), m, KEYS_SOUNDS)) != SQLITE_OK)
    return rc;
  if (!tw_sound_insert(m, name, n, &e)) return edit_failed(&e, err);
  return appended(model, KEYS_SOUNDS, pos);
}

const ls_insert tw_sound_insertion = {
  .run = sound_insert_row, .args_size = sizeof(sound_args), .args = {LS_ARG(sound_args, sound), LS_ARG(sound_args, name)},
};

/* The columns an INSERT into tw_envelopes reads. */
typedef struct envelope_args {
  ls_arg env, kind;
} envelope_args;

/* INSERT into tw_envelopes: an envelope of that kind without points,
** appended. */
static int envelope_insert_row(void *model, const void *args_, ls_pos *pos, char **err) {
  const envelope_args *args = args_;
  tw_map *m = tw_model_map(model);
  const char *kind = ls_arg_text(&args->kind);
  int channels = !kind ? 0 : !strcmp(kind, "color") ? 4 : !strcmp(kind, "position") ? 3 : !strcmp(kind, "sound") ? 1 : 0;
  codec_error e;
  int rc;
  if ((rc = appended_index(&args->env, m->num_envelopes, err)) != SQLITE_OK) return rc;
  if (!channels) {
    *err = sqlite3_mprintf("column kind: an INSERT into tw_envelopes needs the kind: 'position', 'color' or 'sound'");
    return SQLITE_CONSTRAINT;
  }
  if ((rc = list_ready(tw_model_keys(model), m, KEYS_ENVELOPES)) != SQLITE_OK) return rc;
  if (!tw_envelope_insert(m, channels, &e)) return edit_failed(&e, err);
  return appended(model, KEYS_ENVELOPES, pos);
}

const ls_insert tw_envelope_insertion = {
  .run = envelope_insert_row, .args_size = sizeof(envelope_args),
  .args = {LS_ARG(envelope_args, env), LS_ARG(envelope_args, kind)},
};

typedef int (*list_delete)(tw_map *m, size_t i, codec_error *err);

/* Removes row pos.element of list `which` through the codec's delete. */
static int list_remove_row(void *model, int which, const ls_pos *pos, list_delete del, char **err) {
  tw_map *m = tw_model_map(model);
  codec_error e;
  if (list_ready(tw_model_keys(model), m, which) != SQLITE_OK) return SQLITE_NOMEM;
  if (!del(m, (size_t)pos->element, &e)) return edit_failed(&e, err);
  list_remove(&tw_model_keys(model)->lists[which], (size_t)pos->element);
  return SQLITE_OK;
}

int tw_image_remove_row(void *model, const ls_pos *pos, char **err) {
  return list_remove_row(model, KEYS_IMAGES, pos, tw_image_delete, err);
}
int tw_envelope_remove_row(void *model, const ls_pos *pos, char **err) {
  return list_remove_row(model, KEYS_ENVELOPES, pos, tw_envelope_delete, err);
}
int tw_sound_remove_row(void *model, const ls_pos *pos, char **err) {
  return list_remove_row(model, KEYS_SOUNDS, pos, tw_sound_delete, err);
}
