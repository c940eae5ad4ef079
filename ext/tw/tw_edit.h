/*
** tw_edit.h: INSERT and DELETE for the Teeworlds / DDNet tables, and the
** keys and seeks of their rows (ext/tw/tw_edit.c).  The codec keeps the row
** keys right as rows come and go (codecs/tw/twmap.h, "row keys").
*/
#ifndef LEVELSQL_TW_EDIT_H
#define LEVELSQL_TW_EDIT_H

#include "tw/twmap.h"
#include "engine/engine.h"

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
