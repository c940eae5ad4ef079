/*
** tw_edit.c: INSERT and DELETE on the Teeworlds / DDNet tables (through
** codecs/tw/twmap_edit.h, which keeps the row keys right: twmap.h, "row
** keys"), and the keys and seeks of those tables.  See tw_edit.h.
*/
#include "tw/tw_edit.h"

#include <string.h>

#include "tw/twmap_edit.h"

/* Key and seek of the tables whose rows' keys the codec keeps (twmap.h,
** "row keys"): the map's lists and the quads or sources of a layer. */
#define ROW_KEY_SEEK(name, rows)                                                      \
  int64_t tw_##name##_key(const void *model, const ls_pos *pos) {                     \
    return tw_row_key(model, rows, (size_t)pos->element, (size_t)pos->index);         \
  }                                                                                   \
  int tw_##name##_seek(const void *model, int64_t key, ls_pos *pos) {                 \
    size_t element, index;                                                            \
    if (!tw_row_find(model, rows, key, &element, &index)) return 0;                   \
    pos->element = (int64_t)element;                                                  \
    pos->index = (int64_t)index;                                                      \
    pos->x = 0;                                                                       \
    return 1;                                                                         \
  }
ROW_KEY_SEEK(group, TW_ROWS_GROUPS)
ROW_KEY_SEEK(layer, TW_ROWS_LAYERS)
ROW_KEY_SEEK(image, TW_ROWS_IMAGES)
ROW_KEY_SEEK(envelope, TW_ROWS_ENVELOPES)
ROW_KEY_SEEK(sound, TW_ROWS_SOUNDS)
ROW_KEY_SEEK(quad, TW_ROWS_QUADS)
ROW_KEY_SEEK(source, TW_ROWS_SOURCES)

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
  tw_map *m = model;
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
      (rc = value_index(&args->height, 0, INT32_MAX, &h, err)) != SQLITE_OK)
    return rc;
  if (k == INT32_MAX) {
    tw_group_info gi;
    if (!tw_group_get(m, (size_t)g, &gi, &e)) return edit_failed(&e, err);
    k = gi.num_layers;
  }
  if (!tw_layer_insert(m, (size_t)g, (size_t)k, kind, (int)w, (int)h, &l, &e)) return edit_failed(&e, err);
  pos->element = (int64_t)l;
  pos->index = pos->x = 0;
  return SQLITE_OK;
}

const ls_insert tw_layer_insertion = {
  .run = layer_insert_row, .args_size = sizeof(layer_args),
  .args = {LS_ARG(layer_args, grp), LS_ARG(layer_args, layer), LS_ARG(layer_args, kind), LS_ARG(layer_args, width),
           LS_ARG(layer_args, height)},
};

/* A codec delete as a table's remove(): rows of a list (del(m, i)) or of
** a layer (del(m, layer, i)). */
#define REMOVE_ROW(name, del)                                                   \
  int tw_##name##_remove_row(void *model, const ls_pos *pos, char **err) {      \
    codec_error e;                                                              \
    if (del(model, (size_t)pos->element, &e)) return SQLITE_OK;                 \
    return edit_failed(&e, err);                                                \
  }
#define REMOVE_ELEMENT(name, del)                                                        \
  int tw_##name##_remove_row(void *model, const ls_pos *pos, char **err) {               \
    codec_error e;                                                                       \
    if (del(model, (size_t)pos->element, (size_t)pos->index, &e)) return SQLITE_OK;     \
    return edit_failed(&e, err);                                                         \
  }
/* A group goes with its layers (the editor deletes them with it); the game
** group and the game layer stay (the codec refuses them). */
REMOVE_ROW(group, tw_group_delete)
REMOVE_ROW(layer, tw_layer_delete)
REMOVE_ROW(image, tw_image_delete)
REMOVE_ROW(envelope, tw_envelope_delete)
REMOVE_ROW(sound, tw_sound_delete)
REMOVE_ELEMENT(quad, tw_quad_delete)
REMOVE_ELEMENT(source, tw_source_delete)

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

typedef int (*element_edit)(tw_map *m, size_t l, size_t at, codec_error *err);

/* The columns an INSERT into tw_quads or tw_sound_sources reads: the
** layer, and the element's index in it (column quad or source). */
typedef struct element_args {
  ls_arg grp, layer, index;
} element_args;

/* An INSERT of a quad or source: at (grp, layer), position or last. */
static int element_insert_row(void *model, const element_args *args, ls_pos *pos, element_edit add, char **err) {
  tw_map *m = model;
  size_t l;
  int64_t at;
  codec_error e;
  int rc;
  if ((rc = find_layer(m, &args->grp, &args->layer, &l, err)) != SQLITE_OK ||
      (rc = value_index(&args->index, (int64_t)m->layers[l].count, (int64_t)m->layers[l].count, &at, err)) != SQLITE_OK)
    return rc;
  if (!add(m, l, (size_t)at, &e)) return edit_failed(&e, err);
  pos->element = (int64_t)l;
  pos->index = at;
  pos->x = 0;
  return SQLITE_OK;
}

static int quad_insert_row(void *model, const void *args, ls_pos *pos, char **err) {
  return element_insert_row(model, args, pos, tw_quad_insert, err);
}
const ls_insert tw_quad_insertion = {
  .run = quad_insert_row, .args_size = sizeof(element_args),
  .args = {LS_ARG(element_args, grp), LS_ARG(element_args, layer), LS_ARG_NAMED("quad", element_args, index)},
};
static int source_insert_row(void *model, const void *args, ls_pos *pos, char **err) {
  return element_insert_row(model, args, pos, tw_source_insert, err);
}
const ls_insert tw_source_insertion = {
  .run = source_insert_row, .args_size = sizeof(element_args),
  .args = {LS_ARG(element_args, grp), LS_ARG(element_args, layer), LS_ARG_NAMED("source", element_args, index)},
};

/* ---- groups ----------------------------------------------------------------------------- */

/* The column an INSERT into tw_groups reads. */
typedef struct group_args {
  ls_arg grp;
} group_args;

/* INSERT into tw_groups: an empty group at grp (NULL: appended). */
static int group_insert_row(void *model, const void *args_, ls_pos *pos, char **err) {
  const group_args *args = args_;
  tw_map *m = model;
  int64_t g;
  codec_error e;
  int rc;
  if ((rc = value_index(&args->grp, (int64_t)m->num_groups, (int64_t)m->num_groups, &g, err)) != SQLITE_OK) return rc;
  if (!tw_group_insert(m, (size_t)g, &e)) return edit_failed(&e, err);
  pos->element = g;
  pos->index = pos->x = 0;
  return SQLITE_OK;
}

const ls_insert tw_group_insertion = {
  .run = group_insert_row, .args_size = sizeof(group_args), .args = {LS_ARG(group_args, grp)},
};

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

/* Finishes an append of `count` rows now: the new row is the last one. */
static int appended(size_t count, ls_pos *pos) {
  pos->element = (int64_t)count - 1;
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
  tw_map *m = model;
  const char *name;
  size_t n;
  int64_t w, h;
  codec_error e;
  int rc;
  if ((rc = appended_index(&args->image, m->num_images, err)) != SQLITE_OK ||
      (rc = value_name(&args->name, "tw_images", &name, &n, err)) != SQLITE_OK ||
      (rc = value_index(&args->width, 0, INT32_MAX, &w, err)) != SQLITE_OK ||
      (rc = value_index(&args->height, 0, INT32_MAX, &h, err)) != SQLITE_OK)
    return rc;
  if (!tw_image_insert(m, name, n, (int)w, (int)h, &e)) return edit_failed(&e, err);
  return appended(m->num_images, pos);
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
  tw_map *m = model;
  const char *name;
  size_t n;
  codec_error e;
  int rc;
  if ((rc = appended_index(&args->sound, m->num_sounds, err)) != SQLITE_OK ||
      (rc = value_name(&args->name, "tw_sounds", &name, &n, err)) != SQLITE_OK)
    return rc;
  if (!tw_sound_insert(m, name, n, &e)) return edit_failed(&e, err);
  return appended(m->num_sounds, pos);
}

const ls_insert tw_sound_insertion = {
  .run = sound_insert_row, .args_size = sizeof(sound_args), .args = {LS_ARG(sound_args, sound), LS_ARG(sound_args, name)},
};

/* The columns an INSERT into tw_envelopes reads. */
typedef struct envelope_args {
  ls_arg env, kind;
} envelope_args;

/* INSERT into tw_envelopes: an envelope of that kind with the editor's
** two points, appended. */
static int envelope_insert_row(void *model, const void *args_, ls_pos *pos, char **err) {
  const envelope_args *args = args_;
  tw_map *m = model;
  const char *kind = ls_arg_text(&args->kind);
  int channels = !kind ? 0 : !strcmp(kind, "color") ? 4 : !strcmp(kind, "position") ? 3 : !strcmp(kind, "sound") ? 1 : 0;
  codec_error e;
  int rc;
  if ((rc = appended_index(&args->env, m->num_envelopes, err)) != SQLITE_OK) return rc;
  if (!channels) {
    *err = sqlite3_mprintf("column kind: an INSERT into tw_envelopes needs the kind: 'position', 'color' or 'sound'");
    return SQLITE_CONSTRAINT;
  }
  if (!tw_envelope_insert(m, channels, &e)) return edit_failed(&e, err);
  return appended(m->num_envelopes, pos);
}

const ls_insert tw_envelope_insertion = {
  .run = envelope_insert_row, .args_size = sizeof(envelope_args),
  .args = {LS_ARG(envelope_args, env), LS_ARG(envelope_args, kind)},
};
