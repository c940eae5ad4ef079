/*
** tw_edit.h: INSERT and DELETE for the Teeworlds / DDNet tables, and the
** row keys that let them happen (ext/tw/tw_edit.c).
**
** Row keys must survive inserts and deletes of other rows in a statement
** (engine.h, "Row identity"), so a row's key is not its index once rows
** moved: each list (groups, layers, images, envelopes, sounds, and the
** quads or sound sources of each layer) keeps its keys by index from its
** first structural edit on, new rows taking fresh keys.  Before that, a
** key is the index (lists) or base[layer] + index (tiles, quads, sources),
** so unedited maps cost nothing.
*/
#ifndef LEVELSQL_TW_EDIT_H
#define LEVELSQL_TW_EDIT_H

#include "tw/twmap.h"
#include "tw/tw_model.h"
#include "engine/engine.h"

/* Keys for a freshly parsed map (NULL on OOM). */
tw_keys *tw_keys_new(const tw_map *m);
/* A deep copy (NULL on OOM). */
tw_keys *tw_keys_clone(const tw_keys *k);
void tw_keys_free(tw_keys *k);
size_t tw_keys_footprint(const tw_keys *k);
/* The key of the first cell of layer l (tw_tiles: base + y * width + x). */
int64_t tw_keys_base(const tw_keys *k, size_t l);
/* Layer l of m changed size (a resize): gives it fresh keys. */
void tw_keys_layer_resized(tw_keys *k, const tw_map *m, size_t l);

/* ls_table callbacks: key, seek, insert (with the columns it reads, by
** name) and remove of each table. */
#define TW_ROW_CALLBACKS(name)                                       \
  int64_t tw_##name##_key(const void *model, const ls_pos *pos);     \
  int tw_##name##_seek(const void *model, int64_t key, ls_pos *pos); \
  extern const ls_insert tw_##name##_insertion;                      \
  int tw_##name##_remove_row(void *model, const ls_pos *pos, char **err);
TW_ROW_CALLBACKS(group)
TW_ROW_CALLBACKS(layer)
TW_ROW_CALLBACKS(quad)
TW_ROW_CALLBACKS(source)
TW_ROW_CALLBACKS(image)
TW_ROW_CALLBACKS(envelope)
TW_ROW_CALLBACKS(sound)
#undef TW_ROW_CALLBACKS

#endif
